"""Glare over the flags: a bright spot where the frame shows more light than paper reflects.

A lamp's reflection on glossy cards adds light: inside the spot the ink is lifted towards the
paper and the paper towards the sensor's top, and a strong spot washes a column's cards out
of the frame altogether.  The reader then misses them or, worse, reads them wrong.  This is
told apart from a bright printing by the tiles: no paper on the table reflects much more
than the tiles' own white paper does under the same light, so a patch brighter than the
tiles' white by `glare.above_white` in every channel (a factor that leaves room for light
falling off across the table; clipped, where the white leaves no room above it) is light
added.  A flag is under glare when such a patch covers enough of its card zone, on either
side of the line.

Limits: a frame whose tiles' white is near the sensor's top in every channel (overexposed)
cannot tell glare from paper and reports none; a weak spot over dark stock lifts the ink
without making anything brighter than white, and is not seen.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import load_config
from .layout import Layout, flags_covered, shrunk


def _white_room(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """The tiles' white, channel by channel: the median of the flags' references (a tile
    under the spot itself gives its neighbour's, and is outvoted if it does not); and which
    of its channels have room above them (a channel near the sensor's top has none)."""
    white = np.median(np.array([w for w, _ in layout.references()], np.float32), axis=0)
    return white, white < float(load_config()["glare"]["white_max"])


def blind(layout: Layout) -> bool:
    """Whether this frame cannot tell glare from paper: its tiles' white lies at the
    sensor's top in every channel (overexposed: the renderer's plain light, many a camera's
    own exposure). `glare_flags` then reports none, and the reader judges every read's colour
    as strictly as under glare (`reading.colour_unsure`): a spot it cannot see washes an
    orange towards yellow, a red towards orange."""
    return not bool(_white_room(layout)[1].any())


def glare_flags(frame: np.ndarray, layout: Layout) -> tuple[int, ...]:
    """Flags whose card zones lie partly under a glare spot (see the module's notes)."""
    cfg = load_config()["glare"]
    # A channel of the white near the sensor's top has no room above it: there the spot
    # need only be as bright as the white (the other channels tell).
    white, room = _white_room(layout)
    if not room.any():
        return ()                       # overexposed: glare cannot be told from paper (`blind`)
    small, f = shrunk(frame, layout, float(cfg["px_per_mm"]), 2)
    clipped = int(cfg["clipped"])
    need = np.where(room, np.minimum(float(cfg["above_white"]) * white, clipped), 0.98 * white)
    spot = (small >= need[None, None, :]).all(axis=2)
    spot = cv2.morphologyEx(spot.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return flags_covered(spot, f, layout, float(cfg["zone_half_width_mm"]),
                         float(cfg["zone_near_mm"]), float(cfg["zone_depth_mm"]),
                         float(cfg["min_cover_mm2"]))


__all__ = ["blind", "glare_flags"]
