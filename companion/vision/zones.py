"""One zone of the table, from the frame to its card reads: the two steps `pipeline` runs per
zone, in the reader's own process or in a worker process (`workers`), always the same code.

A frame's zones are read in two steps with a barrier between them: `cut` rectifies a zone
into an upright reflectance strip and measures its margins; once every zone's margins are
known the table's shade per side is their median (`table_refs`), and `read` finds and names
the zone's cards against it.  A `Zone` says all a step needs, so it can be sent to another
process as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.position import SIDES, Side

from .layout import first_card_from, hide_tile_edge
from .reading import (CardRead, ReadingSettings, Templates, read_strip, reflectance,
                      table_colour, table_margins, true_runs)

Margins = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True, slots=True)
class Zone:
    """A strip to cut from the frame and read: a flag's side or one end of an off-line area."""

    key: str                  # names the strip's pixel maps from frame to frame ("4south")
    side: Side
    on_flag: bool             # a flag's zone (its margins set the table's shade), not off-line
    homography: np.ndarray    # strip pixels -> frame pixels (3 x 3)
    size: tuple[int, int]     # strip width, height (px)
    white: np.ndarray         # the tile's white and black that turn it into reflectance
    black: np.ndarray         # (its darkest pixels: colours are read on that scale)
    limit: float | None       # where a claimed tile behind the cards begins (mm), if any
    tile_edge: float | None = None  # where the flag's tile ends (or ended, before it was
                                    # claimed) along the strip (mm), and ...
    tile_shown: bool = False        # ... whether it lies there now (`layout.hide_tile_edge`)
    # The white and black the strip's reflectance is made with, when not those: a tile's
    # black where its drawing is black (`Layout.ink_references`).
    ink_refs: tuple[np.ndarray, np.ndarray] | None = None


class StripMaps:
    """Pixel maps per zone, kept while the layout stays put (the usual case): a remap with
    ready maps costs a fraction of a perspective warp."""

    def __init__(self) -> None:
        self._maps: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._boxes: dict[str, tuple[tuple[int, int], tuple[int, int, int, int]]] = {}

    def get(self, key: str, hm: np.ndarray, size: tuple[int, int]
            ) -> tuple[np.ndarray, np.ndarray]:
        cached = self._maps.get(key)
        w, h = size
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ hm.T
        corners = corners[:, :2] / corners[:, 2:]
        if cached is not None and cached[0].shape == corners.shape and \
                float(np.abs(cached[0] - corners).max()) < 0.25:
            return cached[1], cached[2]
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        pts = cv2.perspectiveTransform(np.dstack([xs, ys]).reshape(-1, 1, 2), hm)
        mx = pts[:, 0, 0].reshape(h, w).astype(np.float32)
        my = pts[:, 0, 1].reshape(h, w).astype(np.float32)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        self._maps[key] = (corners, m1, m2)
        self._boxes.pop(key, None)
        return m1, m2

    def box(self, key: str, hm: np.ndarray, size: tuple[int, int],
            frame_size: tuple[int, int]) -> tuple[int, int, int, int]:
        """The frame pixels the zone's remap reads: x0, y0, x1, y1 (ends excluded).

        From the maps themselves (each output pixel reads its source pixel and the next one
        right and down), so a frame that is right inside this box cuts the same strip.
        """
        m1, _ = self.get(key, hm, size)
        w, h = frame_size
        got = self._boxes.get(key)
        if got is None or got[0] != frame_size:
            xy = m1.reshape(-1, 2)
            lo, hi = xy.min(axis=0).astype(int), xy.max(axis=0).astype(int)
            # Reads outside the frame take its edge (BORDER_REPLICATE): clamped to it.
            got = (frame_size, (min(w - 1, max(0, int(lo[0]))), min(h - 1, max(0, int(lo[1]))),
                                max(1, min(w, int(hi[0]) + 2)), max(1, min(h, int(hi[1]) + 2))))
            self._boxes[key] = got
        return got[1]


def cut(frame: np.ndarray, zone: Zone, maps: StripMaps, s: ReadingSettings
        ) -> tuple[np.ndarray, Margins]:
    """The zone rectified upright in reflectance, and its margins (`table_margins`)."""
    strip = cv2.remap(frame, *maps.get(zone.key, zone.homography, zone.size), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    refl = reflectance(strip, *((zone.white, zone.black) if zone.ink_refs is None
                                else zone.ink_refs))
    return refl, table_margins(refl, s)


def colour_scale(zone: Zone) -> tuple[np.ndarray, np.ndarray] | None:
    """Per channel (gain, offset) from a zone's reflectance (`cut`: on `ink_refs`) to the
    scale its colours are read on (`white` and `black`, the tile's darkest pixels); None
    when the two are one."""
    if zone.ink_refs is None:
        return None
    white, black = (np.asarray(v, np.float32) for v in (zone.white, zone.black))
    ink_white, ink_black = (np.asarray(v, np.float32) for v in zone.ink_refs)
    span = np.maximum(white - black, 8.0)        # as `reflectance` bounds it
    return (np.maximum(ink_white - ink_black, 8.0) / span).astype(np.float32), \
        ((ink_black - black) / span).astype(np.float32)


def table_refs(zones: list[Zone], margins: list[Margins]) -> dict[str, np.ndarray]:
    """The table's shade at each distance from the line, per side: the median over that
    side's flag zones' margins (wood grain runs along the line; most margins are bare)."""
    refs: dict[str, np.ndarray] = {}
    for side in SIDES:
        stack = [m for zone, pair in zip(zones, margins) if zone.on_flag and zone.side == side
                 for m in pair]
        if len(stack) >= 6:
            refs[side] = np.median(np.stack(stack), axis=0).astype(np.float32)
    return refs


def _span(zone: Zone) -> tuple[np.ndarray, np.ndarray]:
    """Per channel, the black and the span (white less black) the zone's strip is cut in
    reflectance on (`cut`), as `reflectance` bounds it."""
    white, black = (np.asarray(v, np.float32) for v in (
        (zone.white, zone.black) if zone.ink_refs is None else zone.ink_refs))
    return black, np.maximum(white - black, 8.0)


def glare_lift(margins: Margins, ref: np.ndarray, zone: Zone, s: ReadingSettings
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """The light a glare spot adds along a strip's two margins (per row, in the frame's
    units, left and right), or None where no spot lies over the strip.

    A spot reflects the lamp: white light added to whatever lies under it, the same in every
    channel, where a brighter stretch of table (uneven light) is the table's own colour
    scaled. A row is under glare where both margins lie above the table's shade elsewhere
    (`ref`, the other zones' margins at that distance from the line) by `glare_lift_min` or
    more in every channel, by amounts within `glare_white_ratio` of each other: one card
    laid off-centre over a margin lifts that margin only. Only runs of such rows
    `glare_rows_min_mm` long or more count (a spot is round and broad), each with the rows
    beside it where the lift fades out."""
    black, span = _span(zone)
    both = np.stack([np.asarray(m, np.float32) for m in margins])       # 2 x rows x 3
    up = (both - ref[None]) * span
    if not (up.max(axis=2) >= s.glare_lift_min).all(axis=0).any():
        return None                     # the commonest case: no row lifted on both sides
    # A channel the spot drove to the sensor's top was lifted by that much or more: the
    # others tell by how much.
    clipped = both * span + black >= s.glare_clip
    free = ~clipped.all(axis=2)
    low = np.where(free, np.where(clipped, np.inf, up).min(axis=2), up.max(axis=2))
    high = np.where(free, np.where(clipped, -np.inf, up).max(axis=2), low)
    rows = ((low >= s.glare_lift_min)
            & (high <= s.glare_white_ratio * np.maximum(low, 1.0))).all(axis=0)
    lifts = np.maximum(low, 0.0)
    seeds = true_runs(rows, max(1, s.px(s.glare_rows_min_mm)))
    if not seeds:
        return None
    # The spot fades out: from each run found, the lift is followed along the rows while
    # both margins stay lifted by `glare_lift_edge` or more (a lift begun only where it
    # passes `glare_lift_min` would draw an edge across a card, read as a card's top).
    faint = (lifts[0] >= s.glare_lift_edge) & (lifts[1] >= s.glare_lift_edge)
    keep = np.zeros_like(rows)
    for a, b in true_runs(faint | rows, 1):
        if any(a <= sa and sb <= b for sa, sb in seeds):
            keep[a:b] = True
    k = max(3, s.px(s.glare_smooth_mm) | 1)
    left, right = (cv2.blur(np.where(keep, v, 0.0).astype(np.float32)[:, None], (1, k))[:, 0]
                   for v in lifts)
    return left, right


def spot_seen(zones: list[Zone], margins: list[Margins], refs: dict[str, np.ndarray],
              s: ReadingSettings) -> bool:
    """Whether any flag zone's margins show a glare spot's light (`glare_lift`)."""
    return any(z.on_flag and z.side in refs and glare_lift(m, refs[z.side], z, s) is not None
               for z, m in zip(zones, margins))


def without_glare(refl: np.ndarray, lift: tuple[np.ndarray, np.ndarray], zone: Zone,
                  top: np.ndarray | None, glare_clip: float) -> np.ndarray:
    """The strip with the light a glare spot adds taken away (`glare_lift`): across each row
    it runs from the left margin's lift to the right one's (a spot broad beside a card). A
    channel the camera clipped (`glare_clip`: the spot's bright core) only says that what
    lies under it is at least that bright less the lift: where the brightest its faces get
    (`top`, reflectance BGR: `Templates.stock`) is brighter, it is taken as that (taken down
    to the bound alone, clipped stock would read as ink)."""
    h, w = refl.shape[:2]
    black, span = _span(zone)
    left, right = lift
    x = np.clip((np.arange(w, dtype=np.float32) + 0.5) / w, 0.0, 1.0)
    field = left[:, None] + (right - left)[:, None] * x[None, :]          # rows x cols
    out = refl - field[:, :, None] / span[None, None, :]
    if top is not None:
        clipped = refl >= ((glare_clip - black) / span)[None, None, :]
        base = np.broadcast_to(np.asarray(top, np.float32)[None, None, :], out.shape)
        out = np.where(clipped, np.maximum(out, base), out)
    return np.ascontiguousarray(out, np.float32)


def read(refl: np.ndarray, margins: Margins, zone: Zone, refs: dict[str, np.ndarray],
         tpl: Templates, s: ReadingSettings) -> list[CardRead]:
    """The cards of a cut zone, sifted by shape only (the frame's colours are settled later)."""
    ref = refs.get(zone.side) if zone.on_flag else None
    if ref is not None and (lift := glare_lift(margins, ref, zone, s)) is not None:
        refl = without_glare(refl, lift, zone, tpl.stock[1], s.glare_clip)
        margins = table_margins(refl, s)
    start = 0.0
    if zone.tile_edge is not None and zone.tile_shown:
        # The tile's part of the strip (its margins, outside the tile, are the same).
        refl, start = hide_tile_edge(refl, zone.tile_edge, s.px_per_mm)
    elif zone.tile_edge is not None:
        start = first_card_from(zone.tile_edge)
    table = table_colour(refl, s, ref, margins)
    return read_strip(refl, tpl, True, table, zone.limit, final=False, start_mm=start,
                      to_colour=colour_scale(zone))


class ZoneMemory:
    """Each zone's last reads, kept with a thumbnail of the strip they were read from.

    A move changes one zone or two of the twenty the reader cuts: a zone whose strip looks
    as it did when last read (the same place in the frame, the same tile, every
    `memory_cell_mm` cell within `memory_tolerance` of its reflectance, the same table
    shade) holds the same cards, and its reads are given again.  Cutting a strip costs a
    fraction of reading it.  Light that changes over the table changes the cells, and every
    zone is read again.
    """

    def __init__(self) -> None:
        self._last: dict[str, tuple[object, Zone, np.ndarray, np.ndarray | None,
                                    list[CardRead]]] = {}

    def read(self, refl: np.ndarray, margins: Margins, zone: Zone,
             refs: dict[str, np.ndarray], tpl: Templates, s: ReadingSettings,
             remember: bool = True) -> list[CardRead]:
        """`read`, or the reads of the last time this zone looked the same (unless not
        `remember`: then it is read again, and kept)."""
        ref = refs.get(zone.side) if zone.on_flag else None
        cell = max(1, s.px(s.memory_cell_mm))
        h, w = refl.shape[:2]
        thumb = cv2.resize(refl, (max(1, w // cell), max(1, h // cell)),
                           interpolation=cv2.INTER_AREA)
        got = self._last.get(zone.key)
        if remember and got is not None and got[0] is tpl and _same_place(got[1], zone, s.memory_shift_px) \
                and got[2].shape == thumb.shape \
                and float(np.abs(got[2] - thumb).max()) <= s.memory_tolerance \
                and ((got[3] is None and ref is None) or (
                    got[3] is not None and ref is not None and got[3].shape == ref.shape
                    and float(np.abs(got[3] - ref).max()) <= s.memory_tolerance)):
            return got[4]
        reads = read(refl, margins, zone, refs, tpl, s)
        self._last[zone.key] = (tpl, zone, thumb, None if ref is None else ref.copy(), reads)
        return reads

    def forget(self) -> None:
        self._last.clear()


def _same_place(a: Zone, b: Zone, shift_px: float) -> bool:
    """Whether two zones cut the same strip of the frame (its corners within `shift_px` of
    each other in the frame: the tiles followed from frame to frame move by less), with the
    same tile beside it."""
    if (a.size, a.limit, a.tile_edge, a.tile_shown) != (b.size, b.limit, b.tile_edge,
                                                        b.tile_shown):
        return False
    w, h = a.size
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64).T
    pa, pb = a.homography @ corners, b.homography @ corners
    return float(np.abs(pa[:2] / pa[2] - pb[:2] / pb[2]).max()) <= shift_px


__all__ = ["Margins", "StripMaps", "Zone", "ZoneMemory", "cut", "glare_lift", "read", "spot_seen",
           "table_refs", "without_glare"]
