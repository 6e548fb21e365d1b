"""Checking a rig's set-up from one frame: `companion vision check IMAGE`.

What a frame says of the set-up: which tiles are read (by their code or only by their
drawing), the camera's scale on the table (px per cm) against what the tile finder needs,
whether the frame keeps the camera's aspect ratio, and, with cards lying at the flags, the
tiles' print scale (the cards' width as the tiles measure it against the deck's card width:
tiles printed at 95 % make every card look 5 % wider).  `camera_distance` says how high a
camera of a given resolution and field of view may hang.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.position import FLAG_COUNT, SIDES

from . import geometry
from .config import load_config
from .errors import VisionError
from .glare import strong_cast, tiles_white
from .layout import Layout, acquire, frame_stretch, hide_tile_edge
from .reading import ReadingSettings, card_mask, column_runs, reflectance, table_colour
from .tiles import find_tiles, qr_symbol_mm


def table_view_mm() -> tuple[float, float]:
    """The part of the table the camera must see (mm along the line, the picture's width,
    and across it, its height): the nine flags, the off-line areas beyond both ends and the
    claimed tiles behind both players' cards, with a margin."""
    cfg = load_config()["layout"]
    margin = float(load_config()["calibration"]["view_margin_mm"])
    across = 8 * geometry.FLAG_PITCH + 2 * (float(cfg["offline_centre_mm"])
                                            + float(cfg["zone_half_width_mm"]))
    down = 2 * max(float(cfg["offline_far_mm"]),
                   geometry.CLAIMED_OFFSET + geometry.TILE_H / 2)
    return across + 2 * margin, down + 2 * margin


def min_px_per_cm() -> float:
    """The camera scale on the table the tile finder and the card reader need."""
    return float(load_config()["calibration"]["min_px_per_cm"])


@dataclass(frozen=True, slots=True)
class Distance:
    """How high above the table a camera may hang (cm): from `near_cm` (it sees the whole
    table) to `far_cm` (it still gives `min_px_per_cm`); `near_cm > far_cm`: no height works."""

    near_cm: float
    far_cm: float
    px_per_cm_near: float

    @property
    def possible(self) -> bool:
        return self.near_cm <= self.far_cm


def camera_distance(width_px: int, height_px: int, hfov_deg: float) -> Distance:
    """The camera heights that work for a camera giving `width_px` x `height_px` frames with
    a horizontal field of view of `hfov_deg` (square pixels, looking straight down)."""
    if width_px < 16 or height_px < 16 or not 5.0 <= hfov_deg <= 170.0:
        raise VisionError(f"a camera of {width_px}x{height_px} px and {hfov_deg} degrees across "
                          "cannot be checked (field of view 5-170 degrees)")
    spread = 2 * math.tan(math.radians(hfov_deg) / 2)      # table width seen per unit height
    across, down = table_view_mm()
    # Height for the picture's width, and for its height (same px per mm both ways).
    near_mm = max(across, down * width_px / height_px) / spread
    far_mm = width_px / (min_px_per_cm() / 10) / spread
    return Distance(near_mm / 10, far_mm / 10, width_px / (near_mm * spread / 10))


@dataclass(frozen=True, slots=True)
class Check:
    """What one frame says of the set-up."""

    tiles: tuple[int, ...]           # flags whose tile is read (code or drawing)
    decoded: tuple[int, ...]         # ... of which by their code
    px_per_cm: float | None          # the camera's scale at the tiles
    module_px: float | None          # a code module's width in px
    stretch: float | None            # codes' width over height (1: the camera's own aspect)
    card_width_mm: float | None      # the cards' width as the tiles measure it
    print_scale: float | None        # the tiles' print scale from the cards, if any lie there
    cards_measured: int
    refused: str | None = None       # why the pipeline refuses the frame, if it does
    white: tuple[float, float, float] | None = None   # the tiles' white (BGR, 0-255)

    def lines(self, card_width_mm: float) -> list[str]:
        """The report, one finding per line, what to fix last."""
        out = []
        missing = [n for n in range(1, FLAG_COUNT + 1) if n not in self.tiles]
        out.append(f"flag tiles found: {len(self.tiles)} of {FLAG_COUNT}"
                   + (f" (missing: {', '.join(map(str, missing))})" if missing else "")
                   + f"; read by their code: {len(self.decoded)}")
        if self.px_per_cm is not None and self.module_px is not None:
            out.append(f"camera scale: {self.px_per_cm:.1f} px per cm on the table, "
                       f"{self.module_px:.1f} px per code module (needed: "
                       f"{min_px_per_cm():.0f} px per cm)")
            if self.px_per_cm < min_px_per_cm():
                out.append(f"WARNING: the camera is too far or too coarse: lower it to "
                           f"{self.px_per_cm / min_px_per_cm() * 100:.0f} % of its height, or "
                           "use a higher resolution (companion vision check --camera W H FOV)")
        if self.refused is not None:
            out.append(f"WARNING: the pipeline refuses this frame: {self.refused}")
        elif self.stretch is not None and abs(math.log(self.stretch)) > math.log(1.03):
            out.append(f"WARNING: the codes show {self.stretch:.2f} times as wide as tall: the "
                       "frame is stretched or the camera looks at the table at a slant")
        if self.white is not None:
            b, g, r = self.white
            out.append(f"the tiles' white: red {r:.0f}, green {g:.0f}, blue {b:.0f}")
            if strong_cast(self.white, ReadingSettings.load().cast_ratio_min):
                out.append("WARNING: the light is far from the camera's white balance: no "
                           "card's colour can be told and every Troop read will be a doubt; "
                           "set the camera's white balance for this light, or light the "
                           "table with daylight-white lamps")
        if self.print_scale is not None and self.card_width_mm is not None:
            tol = float(load_config()["calibration"]["print_scale_tolerance"])
            verdict = "" if abs(self.print_scale - 1) <= tol else (
                f"WARNING: the tiles are printed at {100 * self.print_scale:.0f} % of their "
                "size: print calibration/flag-tiles.pdf at 100 % (its ruler must measure "
                "100 mm)")
            out.append(f"cards measure {self.card_width_mm:.1f} mm wide by the tiles "
                       f"({self.cards_measured} measured, the deck's: {card_width_mm:.1f} mm): "
                       f"tiles printed at {100 * self.print_scale:.1f} %")
            if verdict:
                out.append(verdict)
        elif self.tiles and self.refused is None:
            out.append("no card lies at a flag: lay a card at a few flags to check the tiles' "
                       "print scale")
        return out


def _strip_widths(frame: np.ndarray, layout: Layout, s: ReadingSettings) -> list[float]:
    """Each flag column's first card's width (mm, as the tiles measure), where one lies."""
    cfg = load_config()["layout"]
    half = float(cfg["zone_half_width_mm"])
    near, far = float(cfg["zone_near_mm"]), float(cfg["zone_far_mm"])
    refs = layout.references()
    widths = []
    for t in layout.tiles:
        if t.state != "line" or not t.seen:
            continue
        for side in SIDES:
            hm = layout.strip_homography(t.anchor, side, -half, near, 2 * half, far - near,
                                         s.px_per_mm)
            size = (s.px(2 * half), s.px(far - near))
            strip = cv2.warpPerspective(frame, hm, size, flags=cv2.INTER_LINEAR
                                        | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
            refl, start = hide_tile_edge(reflectance(strip, *refs[t.flag - 1]),
                                         geometry.TILE_H / 2 - near, s.px_per_mm)
            table = table_colour(refl, s)
            mask = card_mask(refl, table, s)
            runs = column_runs(mask, s)
            if not runs:
                continue
            a, b = runs[0]
            # The first card's band: the later cards overlap its body, never its band.
            r0, r1 = a + s.px(3.0), min(b, a + s.px(12.0))
            if r1 - r0 < s.px(3.0):
                continue
            width = _band_width(refl[r0:r1], table[r0:r1], mask[r0:r1], s)
            if width is not None:
                widths.append(width)
    return widths


def _band_width(refl: np.ndarray, table: np.ndarray, mask: np.ndarray, s: ReadingSettings
                ) -> float | None:
    """A card's width (mm) across some rows of its band: per row, each side's outline at
    the half-way point of the step from the table to what lies 2-4 mm inside the mask's
    edge there (blur and a shadow move neither much; a banner in the middle does not count),
    the median over the rows."""
    h, w = refl.shape[:2]
    d = np.abs(refl - table[:, None, :]).max(axis=2)
    a, b, back = s.px(2.0), s.px(4.0), s.px(2.0)
    widths = []
    for row, m in zip(d, mask):
        cols = np.flatnonzero(m)
        if len(cols) < s.px(30.0) or cols[0] <= back or cols[-1] >= w - 1 - back:
            continue                      # no card, or one reaching the strip's side
        l0, r0 = int(cols[0]), int(cols[-1])
        left_level = 0.5 * float(np.median(row[l0 + a:l0 + b]))
        right_level = 0.5 * float(np.median(row[r0 - b + 1:r0 - a + 1]))
        if min(left_level, right_level) < 0.03:
            continue
        left = l0 - back + int(np.argmax(row[l0 - back:l0 + b] >= left_level))
        seg = row[r0 - b + 1:r0 + back + 1][::-1]
        right = r0 + back - int(np.argmax(seg >= right_level))
        widths.append(right - left + 1)
    if len(widths) < max(2, h // 3):
        return None
    return float(np.median(widths)) / s.px_per_mm


def check(frame: np.ndarray, card_width_mm: float = geometry.CARD_W) -> Check:
    """The set-up as one frame shows it (see `Check`)."""
    decoded = find_tiles(frame)
    stretch = frame_stretch(decoded)
    refused = None
    try:
        layout = acquire(frame, allow_missing=True)
    except VisionError as exc:
        if not decoded:
            raise
        layout, refused = None, str(exc)
    tiles = tuple(t.flag for t in layout.tiles if t.seen) if layout is not None else \
        tuple(s.flag for s in decoded)
    k = layout.pose.px_per_mm if layout is not None else \
        float(np.median([s.px_per_mm for s in decoded]))
    from .tilesheet import qr_modules
    module_px = k * qr_symbol_mm() / qr_modules("BL-FLAG-1").shape[0]
    widths = _strip_widths(frame, layout, ReadingSettings.load()) if layout is not None else []
    width = float(np.median(widths)) if widths else None
    scale = card_width_mm / width if width else None
    white = None
    if layout is not None:
        b, g, r = (float(v) for v in tiles_white(layout))
        white = (b, g, r)
    return Check(tiles, tuple(s.flag for s in decoded), 10 * k, module_px, stretch, width,
                 scale, len(widths), refused, white)


__all__ = ["Check", "Distance", "camera_distance", "check", "min_px_per_cm", "table_view_mm"]
