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

A frame whose tiles' white lies at the sensor's top in every channel (overexposed: `blind`)
cannot tell a spot from paper, but still shows it on the table: between two columns, where
no card lies (from `table_gap_inner_mm` of a flag's centre line to half the distance to the
next), the table is as bright as the sensor's top only under glare. The two flags beside
such a stretch are under glare when it is so bright over `table_gap_min_mm2` on both
columns' sides (a spot is wide; a column laid askew or off its tile reaches into the table
on one side), on a table that is not itself that bright (at most `table_gap_max_share` of
all the stretches, or the frame is blind to glare there too).

Limits: a weak spot over dark stock lifts the ink without making anything brighter than
white, and is not seen; nor, in an overexposed frame, a spot that does not reach the table
between two columns, or one over a table as bright as paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from .config import load_config
from .geometry import FLAG_PITCH
from .layout import Layout, flags_covered, shrunk, zone_counts, zone_mask


def tiles_white(layout: Layout) -> np.ndarray:
    """The tiles' white, channel by channel (BGR): the median of the flags' references (a
    tile under the spot itself gives its neighbour's, and is outvoted if it does not)."""
    return np.median(np.array([w for w, _ in layout.references()], np.float32), axis=0)


def _white_room(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """The tiles' white (`tiles_white`), and which of its channels have room above them (a
    channel near the sensor's top has none)."""
    white = tiles_white(layout)
    return white, white < float(load_config()["glare"]["white_max"])


def strong_cast(white: Sequence[float] | np.ndarray, ratio_min: float) -> bool:
    """Whether the light is so far from the camera's white balance that the frame cannot
    show colours: a channel of the tiles' white (`tiles_white`, any channel order) under
    `ratio_min` of its brightest (tungsten light against a daylight balance halves the blue
    and clips the red). Such a light narrows one channel's range to noise and turns one
    colour into its neighbour (an orange 10 read red, sure) beyond what the frame's colour
    map can tell."""
    w = np.asarray(white, np.float32)
    return float(w.min()) < ratio_min * float(w.max())


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
    small, f = shrunk(frame, layout, float(cfg["px_per_mm"]), 2)
    clipped = int(cfg["clipped"])
    if not room.any():
        return _on_the_table(small, f, layout, cfg)   # overexposed: paper tells nothing
    need = np.where(room, np.minimum(float(cfg["above_white"]) * white, clipped), 0.98 * white)
    spot = (small >= need[None, None, :]).all(axis=2)
    spot = cv2.morphologyEx(spot.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return flags_covered(spot, f, layout, float(cfg["zone_half_width_mm"]),
                         float(cfg["zone_near_mm"]), float(cfg["zone_depth_mm"]),
                         float(cfg["min_cover_mm2"]))


def _pitch(layout: Layout) -> float:
    """The distance between neighbouring flags' centre lines (mm): the median over the
    tiles seen side by side (`geometry.FLAG_PITCH` with fewer than two)."""
    pose, tiles = layout.pose, sorted(layout.tiles, key=lambda t: t.flag)
    steps = [((b.anchor[0] - a.anchor[0]) * pose.east[0] + (b.anchor[1] - a.anchor[1])
              * pose.east[1]) / pose.scale_at(a.anchor) / (b.flag - a.flag)
             for a, b in zip(tiles, tiles[1:])]
    return float(np.median(steps)) if steps else FLAG_PITCH


def _on_the_table(small: np.ndarray, f: float, layout: Layout, cfg: dict[str, Any]
                  ) -> tuple[int, ...]:
    """In an overexposed frame (`blind`), the flags beside a stretch of table between two
    columns that is at the sensor's top on both columns' sides (see the module's notes);
    none on a table that is there all over."""
    half, near = _pitch(layout) / 2, float(cfg["zone_near_mm"])
    depth, inner = float(cfg["zone_depth_mm"]), float(cfg["table_gap_inner_mm"])
    gaps = zone_mask(small.shape[:2], f, layout, half, near, depth, inner)
    if not gaps.any():
        return ()
    table = np.median(small[gaps], axis=0).astype(np.float32)
    need = np.minimum(table + float(cfg["table_gap_lift"]) * (255.0 - table),
                      float(cfg["clipped"]))
    lit = (small >= need[None, None, :]).all(axis=2) & gaps
    if int(lit.sum()) > float(cfg["table_gap_max_share"]) * int(gaps.sum()):
        return ()
    east, west = (zone_counts(lit, f, layout, half, near, depth, inner, side)
                  for side in (1, -1))
    k = layout.pose.px_per_mm * f
    least = float(cfg["table_gap_min_mm2"]) * k * k
    out: set[int] = set()
    for a in sorted(east):
        b = a + 1
        if b in west and east[a] >= least and west[b] >= least:
            out |= {a, b}
    return tuple(sorted(out))


__all__ = ["blind", "glare_flags"]
