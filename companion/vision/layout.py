"""The table's layout from the flag tiles: the line, north, each flag's zones and the off-line areas.

`acquire(frame)` builds a `Layout` from a full QR decode (all nine tiles must be read).
`LayoutTracker.update(frame)` then follows the tiles from frame to frame without decoding
them again: each tile is found by template matching near where it was, so a nudged camera or
tile is absorbed; a tile that cannot be found is decoded again in its own strip across the
line (moved off the line: claimed by that side), remembered if something covers it (a hand),
or reported `missing` if the table shows where it was.

Table coordinates, in millimetres: for flag n, `u` runs east along the line (to the south
player's right) and `v` runs south across it, with (0, 0) at the flag's point on the line.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.rules.position import FLAG_COUNT, Side

from . import geometry
from .config import load_config
from .errors import ImageError, MissingTilesError, NoTilesError
from .observation import TileState
from .tiles import (TileSighting, decode_region, find_by_drawing, find_tiles,
                    name_by_drawing, tile_drawing, to_gray)

log = logging.getLogger(__name__)

Vec = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Pose:
    """The table's axes in the image: unit vectors east and south, and the scale.

    `field` (a, b, c) gives the local scale a + b*x + c*y px/mm at pixel (x, y): a tilted
    camera sees the far side of the table smaller than the near side.
    """

    east: Vec
    south: Vec
    px_per_mm: float
    field: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def scale_at(self, p: Vec) -> float:
        a, b, c = self.field
        if a == 0.0:
            return self.px_per_mm
        return max(0.3 * self.px_per_mm, a + b * p[0] + c * p[1])


@dataclass(frozen=True, slots=True)
class FlagTile:
    """What is known of one flag's tile in the current frame."""

    flag: int
    state: TileState                 # line / north / south (claimed) / missing
    anchor: Vec                      # the flag's point on the line, in pixels
    centre: Vec | None               # where the tile lies (None when missing)
    seen: bool                       # found in this frame (False: remembered, or missing)
    white: tuple[float, float, float]  # the tile's white and black, BGR, as the camera sees them
    black: tuple[float, float, float]  # (its darkest pixels: colours are read on this scale)
    # Its black where its drawing is black, as this frame's blur leaves it
    # (`softness.measure_tiles`): the ink of shapes is measured on this scale.
    ink_black: tuple[float, float, float] | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    pose: Pose
    tiles: tuple[FlagTile, ...]      # flags 1-9 in order

    def tile(self, flag: int) -> FlagTile:
        return self.tiles[flag - 1]

    def with_ink_blacks(self, blacks: dict[int, tuple[float, float, float]]) -> Layout:
        """The layout with these flags' tiles' `ink_black` (BGR), measured on their drawing
        (`softness.measure_tiles`)."""
        if not blacks:
            return self
        return replace(self, tiles=tuple(replace(t, ink_black=blacks[t.flag])
                                         if t.flag in blacks else t for t in self.tiles))

    def sightings(self) -> tuple[tuple[int, Vec, Vec, float], ...]:
        """The tiles seen in this frame as (flag, centre, up (towards north), px per mm):
        what the calibration picture draws."""
        up = (-self.pose.south[0], -self.pose.south[1])
        return tuple((t.flag, t.centre, up, self.pose.scale_at(t.centre)) for t in self.tiles
                     if t.seen and t.centre is not None)

    def point(self, origin: Vec, u: float, v: float) -> Vec:
        """The pixel at (u, v) mm from `origin` in table axes (local scale on the way)."""
        p = self.pose
        dx = u * p.east[0] + v * p.south[0]
        dy = u * p.east[1] + v * p.south[1]
        k = p.scale_at(origin)
        # The scale halfway there stands for the whole way (the field is linear).
        k = p.scale_at((origin[0] + 0.5 * k * dx, origin[1] + 0.5 * k * dy))
        return (origin[0] + k * dx, origin[1] + k * dy)

    def strip_homography(self, origin: Vec, side: Side, u0: float, near: float, width: float,
                         depth: float, px_per_mm: float) -> np.ndarray:
        """The 3x3 map from a strip's pixels to the frame's (use with WARP_INVERSE_MAP).

        Same strip as `strip_matrix`, `width` x `depth` mm, but each corner placed with the
        local scale, so that a tilted camera's perspective is undone.
        """
        sign = 1.0 if side == "south" else -1.0
        corners_mm = [(u0, near), (u0 + width, near), (u0 + width, near + depth),
                      (u0, near + depth)]
        img = np.array([self.point(origin, sign * u, sign * v) for u, v in corners_mm],
                       np.float32)
        src = np.array([(0, 0), (width * px_per_mm, 0), (width * px_per_mm, depth * px_per_mm),
                        (0, depth * px_per_mm)], np.float32)
        return cv2.getPerspectiveTransform(src, img)

    def strip_matrix(self, origin: Vec, side: Side, u0: float, near: float,
                     px_per_mm: float) -> np.ndarray:
        """The 2x3 affine map from a strip's pixels to the frame's pixels.

        The strip is upright for `side`'s player: its x runs to that player's right, its y
        away from the line towards them, starting `near` mm from `origin`; `u0` is the mm
        (towards the player's right) of the strip's left edge.  Use with WARP_INVERSE_MAP.
        """
        p = self.pose
        k = p.px_per_mm
        sign = 1.0 if side == "south" else -1.0   # north's right is west, their "down" is north
        rx, ry = sign * p.east[0], sign * p.east[1]
        dx, dy = sign * p.south[0], sign * p.south[1]
        scale = k / px_per_mm
        ox = origin[0] + k * (u0 * rx + near * dx)
        oy = origin[1] + k * (u0 * ry + near * dy)
        return np.array([[scale * rx, scale * dx, ox], [scale * ry, scale * dy, oy]],
                        dtype=np.float64)

    def reference(self, flag: int) -> tuple[np.ndarray, np.ndarray]:
        """White and black BGR for a flag's zones: its own tile's, else its nearest good one's.

        A tile under a glare spot shows a grey "black" (and often a clipped white, so its
        contrast falls far below the other tiles'): it must not set the colours of its zones.
        """
        return self.references()[flag - 1]

    def references(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """`reference` of flags 1-9 at once: a frame's 22 strips share the tiles' statistics,
        worked out here once instead of once per strip."""
        return self._references([t.black for t in self.tiles])

    def ink_references(self) -> tuple[tuple[np.ndarray, np.ndarray], ...] | None:
        """`references` with each tile's `ink_black` for its black, what a strip's
        reflectance is made with: only tiles whose ink black was measured are taken (the
        others' darkest pixels lie on another scale); None when no tile's was."""
        measured = [t.ink_black is not None for t in self.tiles]
        if not any(measured):
            return None
        return self._references([t.black if t.ink_black is None else t.ink_black
                                 for t in self.tiles], measured)

    def _references(self, black_of: list[tuple[float, float, float]],
                    usable: list[bool] | None = None
                    ) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """`references` with the tiles' blacks `black_of` (flags 1-9), from the tiles
        `usable` marks (every tile when None) before any other, and judged among them."""
        ok = [True] * FLAG_COUNT if usable is None else usable
        spans = [float(np.mean(np.subtract(t.white, b))) for t, b in zip(self.tiles, black_of)]
        blacks = [float(np.mean(b)) for b in black_of]
        seen = [i for i, t in enumerate(self.tiles) if t.seen and ok[i]]
        typical = float(np.median([spans[i] for i in seen])) if seen else 0.0
        dark = float(np.median([blacks[i] for i in seen])) if seen else 0.0

        # Glare adds light to white and black alike: a tile under a spot that does not clip
        # its white keeps its contrast but shows a grey black.
        def good(i: int) -> bool:
            return self.tiles[i].seen and spans[i] >= 0.6 * typical \
                and blacks[i] <= dark + 0.15 * typical

        goods = [good(i) for i in range(FLAG_COUNT)]
        out = []
        for flag in range(1, FLAG_COUNT + 1):
            order = sorted(range(FLAG_COUNT), key=lambda i: (not ok[i], not goods[i],
                                                             not self.tiles[i].seen,
                                                             abs(i + 1 - flag)))
            k = order[0]
            out.append((np.array(self.tiles[k].white, np.float32),
                        np.array(black_of[k], np.float32)))
        return tuple(out)


# -- acquisition ------------------------------------------------------------------------------
def _claimed_anchors(tiles: list[FlagTile]) -> list[FlagTile]:
    """Claimed tiles' places on the line, from their neighbours as well as their own.

    A claimed tile is put down behind its winner's cards, seldom straight back and, seen by
    a tilted camera far from the line, not straight across it either: the point between its
    neighbours on the line (tiles are laid evenly) is as good a guess of where its cards
    lie (or, for an end tile, the point one step beyond its two nearest).  The two guesses
    are averaged; the tile's own stands alone with fewer than two neighbours on the line.
    """
    on_line = {t.flag: t.anchor for t in tiles if t.state == "line" and t.seen}
    out = []
    for t in tiles:
        lower = sorted(n for n in on_line if n < t.flag)
        upper = sorted(n for n in on_line if n > t.flag)
        # Between the nearest neighbours either side, else beyond the nearest two on one side.
        pair = (lower[-1], upper[0]) if lower and upper else (
            (upper[0], upper[1]) if len(upper) >= 2 else
            (lower[-2], lower[-1]) if len(lower) >= 2 else None)
        if t.state in ("north", "south") and pair is not None:
            i, j = pair
            k = (t.flag - i) / (j - i)
            between = (on_line[i][0] + k * (on_line[j][0] - on_line[i][0]),
                       on_line[i][1] + k * (on_line[j][1] - on_line[i][1]))
            t = replace(t, anchor=(0.5 * (t.anchor[0] + between[0]),
                                   0.5 * (t.anchor[1] + between[1])))
        out.append(t)
    return out


def _unit(x: float, y: float) -> Vec:
    n = math.hypot(x, y)
    return (x / n, y / n)


def _pose(sightings: list[TileSighting], line: list[TileSighting] | None = None) -> Pose:
    up = _unit(sum(s.up[0] for s in sightings), sum(s.up[1] for s in sightings))
    east = (-up[1], up[0])
    on_line = line if line is not None else sightings
    if len(on_line) >= 3:
        # The line through the tiles gives the east axis more precisely than the QR edges.
        pts = np.array([s.centre for s in on_line], np.float64)
        pts -= pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts, full_matrices=False)
        ax = (float(vt[0, 0]), float(vt[0, 1]))
        if ax[0] * east[0] + ax[1] * east[1] < 0:
            ax = (-ax[0], -ax[1])
        if ax[0] * east[0] + ax[1] * east[1] > math.cos(math.radians(15)):
            east = ax
    south = (-east[1], east[0])
    k = float(np.median([s.px_per_mm for s in sightings]))
    return Pose(east, south, k, _scale_field(sightings, k, (east, south)))


def _scale_field(sightings: list[TileSighting], k: float, axes: tuple[Vec, Vec]
                 ) -> tuple[float, float, float]:
    """A plane through the tiles' scales (one point per tile, at its centre, whether its
    code was decoded or its drawing found), robust: one refit without outliers.

    A code's four edge lengths are each a few pixels of a corner's placing: the scale
    changes far less across one tile than that, and a slope read inside the tiles is
    noise (a flat camera's strips came out 10 % too long 200 mm from the line). The slope
    is learnt only across the tiles, and only along a direction they spread over by
    `field_span_mm`: along the line, and across it only when a claimed tile lies off it.
    `axes`: the table's east and south in the image.
    """
    span = float(load_config()["layout"]["field_span_mm"])
    pts = np.array([(*sg.centre, sg.px_per_mm) for sg in sightings], np.float64)
    if len(pts) < 3:
        return (0.0, 0.0, 0.0)
    # Each tile's place along each axis; only the axes the tiles spread over are fitted.
    spread = [(ax, u) for ax in axes if np.ptp(u := pts[:, :2] @ np.array(ax)) >= span * k]
    if not spread:
        return (0.0, 0.0, 0.0)
    a = np.column_stack([np.ones(len(pts))] + [u for _, u in spread])
    coef, *_ = np.linalg.lstsq(a, pts[:, 2], rcond=None)
    res = np.abs(a @ coef - pts[:, 2])
    keep = res <= max(3 * float(np.median(res)), 0.01 * k)
    if keep.sum() >= len(spread) + 2:
        coef, *_ = np.linalg.lstsq(a[keep], pts[keep, 2], rcond=None)
    b = sum(float(g) * ax[0] for g, (ax, _) in zip(coef[1:], spread))
    c = sum(float(g) * ax[1] for g, (ax, _) in zip(coef[1:], spread))
    return (float(coef[0]), b, c)


def _across(pose: Pose, p: Vec) -> float:
    """Distance across the line (mm, positive south) of a pixel, from the image origin."""
    return (p[0] * pose.south[0] + p[1] * pose.south[1]) / pose.px_per_mm


def _line_offset(pose: Pose, centres: list[Vec], middle: Vec | None = None) -> float:
    """Where the line lies across (mm): the median of the largest cluster of tile positions.

    Claimed tiles gather on either side, and when fewer tiles are read on the line than
    claimed on one side, the count alone would pick the wrong group: the camera stands above
    the middle of the line, so a group far from the frame's middle row loses a tile's worth
    per `middle_weight_mm`.

    Tiles claimed by both players lie on both sides of the line: where some tiles have others
    claimed-far on both sides of them, the line is among those. One tile left on the line
    between four claimed on each side (a match nearly won) is the line, however many stand
    in the groups beyond it.
    """
    cfg = load_config()["layout"]
    d = np.array([_across(pose, c) for c in centres])
    mid = _across(pose, middle) if middle is not None else float(np.median(d))
    far = geometry.CLAIMED_MIN_OFFSET
    between = [bool(np.any(d < x - far) and np.any(d > x + far)) for x in d]
    counts = [(int(np.sum(np.abs(d - x) < cfg["line_cluster_mm"]))
               - abs(x - mid) / cfg["middle_weight_mm"], -abs(x - np.median(d)), i)
              for i, x in enumerate(d) if between[i] or not any(between)]
    best = max(counts)[2]
    cluster = d[np.abs(d - d[best]) < cfg["line_cluster_mm"]]
    return float(np.median(cluster))


def _state_of(offset_mm: float) -> TileState:
    if offset_mm > geometry.CLAIMED_MIN_OFFSET:
        return "south"
    if offset_mm < -geometry.CLAIMED_MIN_OFFSET:
        return "north"
    return "line"


def _tile_references(gray_or_bgr: np.ndarray, pose: Pose, centre: Vec
                     ) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The white (paper) and black (QR ink) of a tile, per channel, from its pixels."""
    k = pose.px_per_mm
    r = int(geometry.QR_SIZE / 2 * k)
    x, y = int(round(centre[0])), int(round(centre[1]))
    h, w = gray_or_bgr.shape[:2]
    crop = gray_or_bgr[max(0, y - r):min(h, y + r):3, max(0, x - r):min(w, x + r):3]
    if crop.size == 0:
        return (255.0, 255.0, 255.0), (0.0, 0.0, 0.0)
    px = crop.reshape(-1, 3).astype(np.float32)
    # The QR with its quiet zone is about half white, half black: robust percentiles.
    lum = px.sum(axis=1)
    n = len(lum)
    cuts = sorted({min(n - 1, int(n * q)) for q in (0.03, 0.20, 0.80, 0.97)})
    order = np.argpartition(lum, cuts)        # only the four ranks that bound the groups
    white = px[order[int(n * 0.80):int(n * 0.97)]].mean(axis=0)
    black = px[order[int(n * 0.03):int(n * 0.20)]].mean(axis=0)
    return tuple(float(v) for v in white), tuple(float(v) for v in black)  # type: ignore[return-value]


def _span(frame: np.ndarray, pose: Pose, centre: Vec) -> float:
    """A tile's contrast at `centre`: its white less its black, averaged over channels."""
    white, black = _tile_references(frame, pose, centre)
    return float(np.mean(np.subtract(white, black)))


def _bare(frame: np.ndarray, pose: Pose, centre: Vec, table: np.ndarray,
          neighbours: Sequence[Vec] = ()) -> bool:
    """Whether the table's own colour shows at `centre` (no tile, no hand there): the colour
    of the table (`table`), or that of the line on both sides of `centre` halfway to its
    `neighbours` on the line with edges no sharper than it has there (`_line_shade`): glare
    or a shade over a stretch of the table changes its colour there and at `centre` alike,
    and a hand or a tile under the glare still shows its edges. Where the two sides differ
    (the glare's edge across the place), the place shows the colours between them."""
    cfg = load_config()["tracking"]
    r = int(geometry.TILE_W / 2 * 0.8 * pose.px_per_mm)
    x, y = int(centre[0]), int(centre[1])
    h, w = frame.shape[:2]
    crop = frame[max(0, y - r):min(h, y + r):2, max(0, x - r):min(w, x + r):2]
    if crop.size == 0:
        return True
    pixels = crop.reshape(-1, 3).astype(np.float32)

    def shows(colour: np.ndarray) -> bool:
        near = np.linalg.norm(pixels - colour, axis=1) < float(cfg["background_delta"])
        return float(np.mean(near)) > float(cfg["background_share"])

    if shows(table):
        return True
    local = _line_shade(frame, pose, centre, neighbours)
    if local is None:
        return False
    a, b, edges = local
    if _edges(crop) > float(cfg["line_edges_factor"]) * edges + float(cfg["line_edges_slack"]):
        return False
    d = b - a
    if float(np.linalg.norm(d)) < float(cfg["background_delta"]):
        return shows((a + b) / 2)
    # The two sides differ: a shade across the line (a glare spot beside the place, a
    # lamp's fall-off) shows the colours between them at the place between. (A hand over
    # the place and one side still shows its edges, as a tile does.)
    t = np.clip((pixels - a) @ d / float(d @ d), 0.0, 1.0)
    off = np.linalg.norm(pixels - (a + t[:, None] * d), axis=1)
    return float(np.mean(off < float(cfg["background_delta"]))) > float(cfg["background_share"])


def _edges(patch: np.ndarray) -> float:
    """How sharp the sharpest edges of a patch (BGR) are: the 95th percentile of its
    brightness gradient (grey levels per pixel)."""
    grey = cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2GRAY).astype(np.float32)
    if min(grey.shape) < 3:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return float(np.percentile(np.hypot(gx, gy), 95))


def _line_shade(frame: np.ndarray, pose: Pose, centre: Vec, neighbours: Sequence[Vec]
                ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The table's colour (BGR) on the line on each side of `centre`, halfway to the nearest
    of `neighbours` (places on the line) on that side, and how sharp its edges are there
    (`_edges`, the sharper side: a wood's grain); None where a side has no neighbour or is
    out of the frame."""
    ex, ey = pose.east
    sides: dict[bool, tuple[float, Vec]] = {}
    for n in neighbours:
        along = (n[0] - centre[0]) * ex + (n[1] - centre[1]) * ey
        if abs(along) < 1.0:
            continue
        east = along > 0
        if east not in sides or abs(along) < abs(sides[east][0]):
            sides[east] = (along, n)
    if len(sides) < 2:
        return None
    found = [_square(frame, pose, ((n[0] + centre[0]) / 2, (n[1] + centre[1]) / 2))
             for _, n in sides.values()]
    squares = [s for s in found if s is not None]
    if len(squares) < 2:
        return None
    a, b = (np.median(s.reshape(-1, 3), axis=0).astype(np.float32) for s in squares)
    return a, b, max(_edges(s[::2, ::2]) for s in squares)


def _square(frame: np.ndarray, pose: Pose, at: Vec) -> np.ndarray | None:
    """The 8 mm square of the frame around `at` (BGR); None off the frame."""
    r = max(2, int(4 * pose.px_per_mm))
    h, w = frame.shape[:2]
    x, y = int(at[0]), int(at[1])
    if not (r <= x < w - r and r <= y < h - r):
        return None
    return frame[y - r:y + r, x - r:x + r]


def table_sample(frame: np.ndarray, pose: Pose, anchors: list[Vec]) -> np.ndarray:
    """The bare table's colour (BGR): halfway between neighbouring tiles on the line."""
    samples = [s.reshape(-1, 3) for a, b in zip(anchors, anchors[1:])
               if (s := _square(frame, pose, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))) is not None]
    if not samples:
        return np.median(frame.reshape(-1, 3)[::97], axis=0).astype(np.float32)
    return np.median(np.concatenate(samples), axis=0).astype(np.float32)


def frame_stretch(sightings: list[TileSighting]) -> float | None:
    """How much wider than tall the decoded tiles' codes show (px per mm across the frame
    over px per mm down it, the median over tiles), or None without a decoded tile.

    A frame resized to another aspect ratio than the camera's (a 2304x1296 picture stretched
    to 8000x8000) draws every square code as a rectangle; a tilted camera only a little."""
    ratios = []
    for sg in sightings:
        if not sg.decoded or len(sg.samples) != 4:
            continue
        across, down = [], []
        for x, y, k in sg.samples:
            # An edge's midpoint lies straight out from the centre: a horizontal edge's
            # midpoint above or below it.
            dx, dy = x - sg.centre[0], y - sg.centre[1]
            (across if abs(dy) > abs(dx) else down).append(k)
        if across and down:
            ratios.append(float(np.mean(across)) / float(np.mean(down)))
    return float(np.median(ratios)) if ratios else None


def _check_stretch(sightings: list[TileSighting]) -> None:
    stretch = frame_stretch(sightings)
    limit = float(load_config()["layout"]["max_stretch"])
    if stretch is not None and not 1 / limit <= stretch <= limit:
        raise ImageError(
            f"the frame is stretched: its flag tiles' square codes show {stretch:.2f} times as "
            "wide as tall; give frames at the camera's own aspect ratio")


def layout_from_sightings(frame: np.ndarray, sightings: list[TileSighting],
                          predicted: dict[int, Vec] | None = None,
                          allow_missing: bool = False) -> Layout:
    """A layout from the sightings of the nine tiles (see `acquire`).

    With `allow_missing`, a tile not seen where `predicted` puts it is `missing` if the bare
    table shows there, or remembered on the line (unseen: something covers it) if not.
    """
    if not sightings:
        raise NoTilesError("no flag tile (QR code BL-FLAG-1 ... BL-FLAG-9) can be read in the frame")
    flags = {s.flag for s in sightings}
    missing = [n for n in range(1, FLAG_COUNT + 1) if n not in flags]
    min_tiles = int(load_config()["layout"]["min_tiles"])
    if missing and (not allow_missing or predicted is None or len(flags) < min_tiles
                    or any(n not in predicted for n in missing)):
        raise MissingTilesError(
            f"only {len(flags)} of the 9 flag tiles can be read; cannot find "
            + ", ".join(f"BL-FLAG-{n}" for n in missing))
    _check_stretch(sightings)
    middle = (frame.shape[1] / 2.0, frame.shape[0] / 2.0)
    centres = [s.centre for s in sightings]
    pose = _pose(sightings)
    # The line through every tile leans towards the claimed ones: the tiles on the line are
    # told with it, the line refitted through them, and told again with the better line (a
    # tile at the far end may only show as on the line then).  The tracker fits the line
    # through the same tiles: the first frame followed then keeps the acquired geometry.
    for _ in range(2):
        line_d = _line_offset(pose, centres, middle)
        on_line = [s for s in sightings if _state_of(_across(pose, s.centre) - line_d) == "line"]
        pose = _pose(sightings, on_line)
    line_d = _line_offset(pose, centres, middle)
    tiles = []
    for s in sorted(sightings, key=lambda s: s.flag):
        off = _across(pose, s.centre) - line_d
        state = _state_of(off)
        anchor = s.centre if state == "line" else (
            s.centre[0] - off * pose.px_per_mm * pose.south[0],
            s.centre[1] - off * pose.px_per_mm * pose.south[1])
        white, black = _tile_references(frame, pose, s.centre)
        tiles.append(FlagTile(s.flag, state, anchor, s.centre, True, white, black))
    tiles = _claimed_anchors(tiles)
    if missing and predicted is not None:
        table = table_sample(frame, pose, [t.anchor for t in tiles if t.state == "line"])
        near = {t.flag: t for t in tiles}
        for n in missing:
            p = predicted[n]
            ref = near[min(near, key=lambda f: abs(f - n))]
            # Covered (a hand): remembered on the line; bare table: the tile is gone.  (A tile
            # hidden where claimed tiles go cannot be told from one taken away: an arm from
            # the player's edge lies over that side's claimed tiles' places.)
            covered = not _bare(frame, pose, p, table, [t.anchor for t in tiles])
            state: TileState = "line" if covered else "missing"
            centre: Vec | None = p if covered else None
            tiles.append(FlagTile(n, state, p, centre, False, ref.white, ref.black))
        tiles.sort(key=lambda t: t.flag)
    return Layout(pose, tuple(tiles))


def _tile_template(flag: int, pose: Pose, px_per_mm: float) -> np.ndarray:
    """The printed tile of `flag` as the camera should see it (grey, turned like the table)."""
    from .tilesheet import tile_image
    img = cv2.cvtColor(tile_image(flag, round(px_per_mm, 2)), cv2.COLOR_BGR2GRAY)
    angle = math.degrees(math.atan2(pose.east[1], pose.east[0]))
    h, w = img.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(img, m, (nw, nh), borderValue=128)


def _find_unread(gray: np.ndarray, pose: Pose, flag: int, predicted: Vec
                 ) -> TileSighting | None:
    """Look for a tile whose code was not decoded where the line says it should lie.

    First a decode of the enlarged neighbourhood (blur and noise defeat zbar at the rig's
    ~3 px per module more than at 6); then the tile's own printed drawing, matched at its
    place on the line and at the claimed places either side: the line's order names it.
    """
    cfg = load_config()["tiles"]
    k = pose.px_per_mm
    h, w = gray.shape
    for across in (0.0, geometry.CLAIMED_OFFSET, -geometry.CLAIMED_OFFSET):
        c = (predicted[0] + across * k * pose.south[0], predicted[1] + across * k * pose.south[1])
        r = int(cfg["search_mm"] * k)
        x0, y0 = max(0, int(c[0]) - r), max(0, int(c[1]) - r)
        x1, y1 = min(w, int(c[0]) + r), min(h, int(c[1]) + r)
        if x1 - x0 < 40 or y1 - y0 < 40:
            continue
        crop = gray[y0:y1, x0:x1]
        big = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        sharp = cv2.addWeighted(big, 1.8, cv2.GaussianBlur(big, (0, 0), 2.0), -0.8, 0)
        for img in (big, sharp):
            for sgt in decode_region(img):
                if sgt.flag == flag:
                    return TileSighting(flag, (x0 + sgt.centre[0] / 2, y0 + sgt.centre[1] / 2),
                                        sgt.up, sgt.px_per_mm / 2, decoded=True)
        tpl = _tile_template(flag, pose, pose.scale_at(c))
        # A claimed tile near the frame's edge: the frame extended so its drawing still fits.
        ex, ey = max(0, tpl.shape[1] + 1 - crop.shape[1]), max(0, tpl.shape[0] + 1 - crop.shape[0])
        if ex or ey:
            left = ex if x0 == 0 else 0
            top = ey if y0 == 0 else 0
            crop = cv2.copyMakeBorder(crop, top, ey - top, left, ex - left, cv2.BORDER_REPLICATE)
            x0, y0 = x0 - left, y0 - top
        res = cv2.matchTemplate(crop, tpl, cv2.TM_CCOEFF_NORMED)
        _, score, _, loc = cv2.minMaxLoc(res)
        # Off the line, a claimed tile may lie half under a card or a hand: its drawing is
        # still the best match there, at a lower score.
        if score >= cfg["drawing_min_score" if across == 0.0 else "claimed_min_score"]:
            up = (-pose.south[0], -pose.south[1])
            return TileSighting(flag, (x0 + loc[0] + tpl.shape[1] / 2, y0 + loc[1] + tpl.shape[0] / 2),
                                up, k)
    return None


def _fit_anywhere(gray: np.ndarray, flag: int, px_per_mm: float, up: Vec) -> Vec | None:
    """Where flag `flag`'s drawing fits best in a grey crop (its centre, px), if it fits."""
    tpl = tile_drawing(flag, round(px_per_mm, 3), up)
    th, tw = tpl.shape
    if gray.shape[0] < th or gray.shape[1] < tw:
        return None
    res = cv2.matchTemplate(gray.astype(np.float32), tpl, cv2.TM_CCOEFF_NORMED)
    _, _, _, (lx, ly) = cv2.minMaxLoc(res)
    return (lx + tw / 2, ly + th / 2)


def _named(gray: np.ndarray, found: TileSighting, flag: int, px_per_mm: float) -> bool:
    """Whether the drawing at a tile found by its look names `flag`, clearly (at about the
    local scale `px_per_mm`)."""
    cfg = load_config()["tiles"]
    m = name_by_drawing(gray, found.centre, found.up, px_per_mm, 2.0, (0.97, 1.0, 1.03))
    return m is not None and m.flag == flag and m.score >= cfg["drawing_min_score"] \
        and m.lead >= cfg["drawing_lead"]


def acquire(frame: np.ndarray, allow_missing: bool = False) -> Layout:
    """The layout of a BGR frame from a full decode of the nine flag tiles.

    Tiles the decode misses are looked for where the others put them (`_find_unread`),
    and by their drawings over the whole frame (`find_by_drawing`) where the codes are too
    few or too coarse to find them by.  No tile is a `NoTilesError`, fewer than nine a
    `MissingTilesError` naming the absent ones, a tile twice a `DuplicateTileError`.
    """
    gray = to_gray(frame)
    sightings = find_tiles(gray)
    decoded = len(sightings)
    coarse = float(load_config()["tiles"]["drawing_below_px_per_mm"])
    drawn = decoded < 2 or (decoded < FLAG_COUNT and float(np.median(
        [s.px_per_mm for s in sightings])) < coarse)
    if drawn:
        # Few codes decode (a webcam's few pixels per module, blurred): the tiles' drawings.
        sightings += _drawn(gray, sightings)
    predicted, few = _the_rest(frame, gray, sightings)
    if not drawn and len(sightings) < FLAG_COUNT and (
            few or decoded < int(load_config()["layout"]["min_tiles"])):
        # Too few decoded to find the others by, and some not found (a webcam's frame
        # brought to the rig's scale, as the reader does, its codes no sharper; nearly every
        # flag claimed, the line keeping one tile or none): the drawings, then the rest
        # again.
        sightings += _drawn(gray, sightings)
        predicted, _ = _the_rest(frame, gray, sightings)
    return layout_from_sightings(frame, sightings, predicted, allow_missing)


def _drawn(gray: np.ndarray, sightings: list[TileSighting]) -> list[TileSighting]:
    """The tiles found by their drawings (`find_by_drawing`) that are not among `sightings`."""
    found = {s.flag for s in sightings}
    return [s for s in find_by_drawing(gray) if s.flag not in found]


def _the_rest(frame: np.ndarray, gray: np.ndarray, sightings: list[TileSighting]
              ) -> tuple[dict[int, Vec], bool]:
    """Look for the tiles not among `sightings` where those read put them, adding those found
    to `sightings`. Where each was looked for (on the line), by flag; and whether the line
    held fewer than two of those read, so that they were guessed from claimed tiles."""
    predicted: dict[int, Vec] = {}
    projected = False
    if 2 <= len(sightings) < FLAG_COUNT:
        middle = (frame.shape[1] / 2.0, frame.shape[0] / 2.0)
        centres = [s.centre for s in sightings]
        pose = first_pose = _pose(sightings)
        # The line through the tiles on it only: one fitted through a claimed tile too
        # leans towards it, and a claimed tile is then looked for beside where it lies
        # (the further from the line, the further beside).
        for _ in range(2):
            line_d = _line_offset(pose, centres, middle)
            pose = _pose(sightings, [s for s in sightings
                                     if _state_of(_across(pose, s.centre) - line_d) == "line"])
        spans = [_span(frame, pose, s.centre) for s in sightings]
        typical = float(np.median(spans))
        line_d = _line_offset(pose, centres, middle)
        line = [s for s in sightings
                if _state_of(_across(pose, s.centre) - line_d) == "line"]

        def on_the_line(c: Vec) -> Vec:
            """Where a tile seen at c stood on the line (a claimed one is moved straight off)."""
            off = (_across(pose, c) - line_d) * pose.px_per_mm
            return (c[0] - off * pose.south[0], c[1] - off * pose.south[1])

        # The places the others are fitted to: the line's tiles; where it keeps fewer than two
        # (nearly every flag claimed), every tile read, put back where it stood on the line.
        projected = len(line) < 2
        places = [(s.flag, on_the_line(s.centre) if projected else s.centre)
                  for s in (sightings if projected else line)]
        if len(places) >= 2:
            # Where each flag's tile should be: a fit of the line tiles' places by flag number
            # (a curve once there are enough: perspective spaces them unevenly), refitted after
            # each find and working outwards from the tiles read, so each guess is close.
            todo = {n for n in range(1, FLAG_COUNT + 1)} - {s.flag for s in sightings}
            while todo:
                n_arr = np.array([n for n, _ in places], np.float64)
                xy = np.array([c for _, c in places], np.float64)
                flag = min(todo, key=lambda f: min(abs(f - k) for k in n_arr))
                # A curve, but a straight line more than a step beyond the tiles read (a
                # curve's ends fly off when extrapolated far).
                near = n_arr.min() - 1 <= flag <= n_arr.max() + 1
                deg = 2 if near and len(places) >= 4 and np.ptp(n_arr) >= 3 else 1
                coef = np.polyfit(n_arr, xy, deg)
                todo.discard(flag)
                predicted[flag] = (float(np.polyval(coef[:, 0], flag)),
                                   float(np.polyval(coef[:, 1], flag)))
                found = _find_unread(gray, pose, flag, predicted[flag])
                if found is None and first_pose is not pose:
                    # The fit through every tile read, claimed ones too: near the frame's
                    # edge, under a tilted camera's perspective, it can be the closer of
                    # the two across the line.
                    found = _find_unread(gray, first_pose, flag, predicted[flag])
                if found is None:
                    continue
                on_line = math.dist(found.centre, predicted[flag]) < 40 * pose.px_per_mm
                if on_line and not found.decoded and \
                        _span(frame, pose, found.centre) < 0.5 * typical and \
                        not _named(gray, found, flag, pose.scale_at(found.centre)):
                    # Found by its drawing on the line but without a tile's black and white:
                    # a glare spot's soft blob, unless the drawing names this very flag (a
                    # tile under glare still shows its code's and its number's shapes); a
                    # code read is a tile.  (A claimed tile may lie half under a card.)
                    continue
                sightings.append(found)
                if on_line or projected:
                    places.append((found.flag, on_the_line(found.centre) if projected
                                   else found.centre))
    return predicted, projected


# -- following --------------------------------------------------------------------------------
@dataclass(slots=True)
class _Template:
    image: np.ndarray        # grey, at the tracking scale
    centre: Vec              # the tile centre inside `image`, in its pixels


class LayoutTracker:
    """Keeps a `Layout` up to date from frame to frame, decoding QR codes only when needed."""

    def __init__(self, allow_missing: bool = False) -> None:
        self.allow_missing = allow_missing
        self.layout: Layout | None = None
        self._templates: dict[int, _Template] = {}
        self._table_colour: np.ndarray | None = None
        self._frames = 0
        self.decodes = 0        # full or strip QR decodes done (for the benchmark)

    def reset(self) -> None:
        self.layout = None
        self._templates.clear()

    # The first frame, or after losing most tiles: a full decode.
    def _acquire(self, frame: np.ndarray) -> Layout:
        self.decodes += 1
        layout = acquire(frame, self.allow_missing)
        self._adopt(frame, layout)
        return layout

    def _adopt(self, frame: np.ndarray, layout: Layout) -> None:
        self.layout = layout
        self._templates = {}
        for t in layout.tiles:
            if t.centre is not None:
                tpl = self._cut_template(frame, layout.pose, t.centre)
                if tpl is not None:
                    self._templates[t.flag] = tpl
        self._table_colour = self._sample_table(frame, layout)

    def _cut_template(self, frame: np.ndarray, pose: Pose, centre: Vec) -> _Template | None:
        cfg = load_config()["tracking"]
        f = float(cfg["scale"])
        k = pose.px_per_mm
        tw, th = cfg["template_mm"]
        # Axis-aligned box around the (possibly rotated) inner tile.
        cos, sin = abs(pose.east[0]), abs(pose.east[1])
        hw = 0.5 * k * (tw * cos + th * sin)
        hh = 0.5 * k * (tw * sin + th * cos)
        x0, y0 = int(centre[0] - hw), int(centre[1] - hh)
        x1, y1 = int(centre[0] + hw), int(centre[1] + hh)
        h, w = frame.shape[:2]
        # A tile at the frame's edge (a claimed one, far off the line): keep its visible part.
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if (x1 - x0) < hw or (y1 - y0) < hh:
            return None
        crop = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        small = cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        return _Template(small, ((centre[0] - x0) * f, (centre[1] - y0) * f))

    def _sample_table(self, frame: np.ndarray, layout: Layout) -> np.ndarray:
        return table_sample(frame, layout.pose, [t.anchor for t in layout.tiles
                                                 if t.state == "line" and t.seen])

    def _match(self, frame: np.ndarray, flag: int, around: Vec, pose: Pose
               ) -> tuple[float, Vec] | None:
        cfg = load_config()["tracking"]
        tpl = self._templates.get(flag)
        if tpl is None:
            return None
        f = float(cfg["scale"])
        th, tw = tpl.image.shape
        search = cfg["search_mm"] * pose.px_per_mm          # full-resolution pixels
        x0 = int(around[0] - tpl.centre[0] / f - search)
        y0 = int(around[1] - tpl.centre[1] / f - search)
        x1 = int(x0 + tw / f + 2 * search)
        y1 = int(y0 + th / f + 2 * search)
        h, w = frame.shape[:2]
        x0c, y0c, x1c, y1c = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1c - x0c < 8 or y1c - y0c < 8:
            return None
        crop = cv2.cvtColor(frame[y0c:y1c, x0c:x1c], cv2.COLOR_BGR2GRAY)
        if (x0c, y0c, x1c, y1c) != (x0, y0, x1, y1):
            # A tile at the frame's edge: extend the frame so its template can still fit.
            crop = cv2.copyMakeBorder(crop, y0c - y0, y1 - y1c, x0c - x0, x1 - x1c,
                                      cv2.BORDER_REPLICATE)
            x0c, y0c = x0, y0
        small = cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        if small.shape[0] < th or small.shape[1] < tw:
            return None
        res = cv2.matchTemplate(small, tpl.image, cv2.TM_CCOEFF_NORMED)
        _, score, _, loc = cv2.minMaxLoc(res)
        # Sub-pixel peak from the neighbours: the zones inherit any error of the tile centre.
        dx = dy = 0.0
        lx, ly = loc
        if 0 < lx < res.shape[1] - 1:
            a, b, c = res[ly, lx - 1], res[ly, lx], res[ly, lx + 1]
            den = a - 2 * b + c
            dx = 0.5 * (a - c) / den if den < 0 else 0.0
        if 0 < ly < res.shape[0] - 1:
            a, b, c = res[ly - 1, lx], res[ly, lx], res[ly + 1, lx]
            den = a - 2 * b + c
            dy = 0.5 * (a - c) / den if den < 0 else 0.0
        cx = x0c + (lx + dx + tpl.centre[0]) / f
        cy = y0c + (ly + dy + tpl.centre[1]) / f
        return float(score), (cx, cy)

    def _strip_decode(self, frame: np.ndarray, layout: Layout, tile: FlagTile
                      ) -> TileSighting | None:
        """Decode the QR codes in the strip across the line where this flag's tile may have gone."""
        cfg = load_config()["tracking"]
        hw = cfg["column_halfwidth_mm"]
        far = geometry.CLAIMED_OFFSET + geometry.TILE_H
        corners = [layout.point(tile.anchor, u, v) for u in (-hw, hw) for v in (-far, far)]
        xs = [c[0] for c in corners]
        ys = [c[1] for c in corners]
        h, w = frame.shape[:2]
        x0, x1 = max(0, int(min(xs))), min(w, int(max(xs)))
        y0, y1 = max(0, int(min(ys))), min(h, int(max(ys)))
        if x1 - x0 < 20 or y1 - y0 < 20:
            return None
        self.decodes += 1
        gray = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        for s in decode_region(gray, (x0, y0)):
            if s.flag == tile.flag:
                return s
        # Too few pixels per module to decode (a webcam): the tile's own drawing, which must
        # name it clearly where it fits best.
        cfg_t = load_config()["tiles"]
        up = (-layout.pose.south[0], -layout.pose.south[1])
        k = layout.pose.scale_at(tile.anchor)
        hit = _fit_anywhere(gray, tile.flag, k, up)
        if hit is None:
            return None
        m = name_by_drawing(gray, hit, up, k, 2.0, (0.95, 1.0, 1.05))
        if m is None or m.flag != tile.flag or m.score < cfg_t["claimed_min_score"] \
                or m.lead < cfg_t["drawing_lead"]:
            return None
        found = m.sighting(up)
        return replace(found, centre=(found.centre[0] + x0, found.centre[1] + y0), samples=())

    def _looks_bare(self, frame: np.ndarray, pose: Pose, centre: Vec,
                    neighbours: list[Vec]) -> bool:
        """Whether the table's own colour shows where the tile was (it has been taken away;
        `neighbours`: the other tiles' places on the line, see `_bare`)."""
        if self._table_colour is None:
            return False
        return _bare(frame, pose, centre, self._table_colour, neighbours)

    def update(self, frame: np.ndarray) -> Layout:
        """The layout of this frame, following the previous one."""
        self._frames += 1
        if self.layout is None:
            return self._acquire(frame)
        layout = self.layout
        cfg = load_config()["tracking"]
        matched: dict[int, Vec] = {}
        for t in layout.tiles:
            if t.centre is None:
                continue
            hit = self._match(frame, t.flag, t.centre, layout.pose)
            if hit is not None and hit[0] >= cfg["min_score"]:
                matched[t.flag] = hit[1]
        known = [t for t in layout.tiles if t.centre is not None]
        if len(matched) < max(1, len(known) // 2):
            # Most tiles lost at once: the camera moved (or the frame is another table).
            try:
                fresh = find_tiles(frame)
                self.decodes += 1
            except Exception:  # noqa: BLE001 - a duplicate here is handled by the full acquire
                fresh = []
            if len(fresh) == FLAG_COUNT:
                return self._acquire(frame)
            for sg in fresh:
                matched[sg.flag] = sg.centre
        # Shift of the tiles that were found: the prediction for those that were not.
        shifts = [(matched[t.flag][0] - t.centre[0], matched[t.flag][1] - t.centre[1])
                  for t in known if t.flag in matched and t.centre is not None]
        mean_shift = (float(np.median([s[0] for s in shifts])) if shifts else 0.0,
                      float(np.median([s[1] for s in shifts])) if shifts else 0.0)
        # Every tile's place on the line, shifted with the rest.
        moved = {o.flag: (o.anchor[0] + mean_shift[0], o.anchor[1] + mean_shift[1])
                 for o in layout.tiles}

        pose = layout.pose
        sightings_line = [c for n, c in matched.items() if layout.tile(n).state == "line"]
        if len(sightings_line) >= 3:
            line_d = _line_offset(pose, sightings_line)
        else:
            line_d = _line_offset(pose, [t.anchor for t in layout.tiles])
        new_tiles: list[FlagTile] = []
        retemplate: list[int] = []
        for t in layout.tiles:
            if t.flag in matched:
                centre = matched[t.flag]
                seen = True
            else:
                predicted = (t.centre[0] + mean_shift[0], t.centre[1] + mean_shift[1]) \
                    if t.centre is not None else None
                again: TileSighting | None = None
                if t.centre is not None or self._frames % int(load_config()["tracking"].get(
                        "missing_every", 10)) == 0:
                    again = self._strip_decode(frame, replace(layout, pose=pose),
                                               replace(t, anchor=moved[t.flag]))
                if again is not None:
                    centre, seen = again.centre, True
                    retemplate.append(t.flag)
                elif predicted is not None and not self._looks_bare(
                        frame, pose, predicted, [a for f, a in moved.items() if f != t.flag]):
                    # Something covers the tile: remember it where it was (shifted with the rest).
                    new_tiles.append(replace(t, anchor=moved[t.flag], centre=predicted,
                                             seen=False))
                    continue
                else:
                    new_tiles.append(replace(t, state="missing", anchor=moved[t.flag],
                                             centre=None, seen=False))
                    continue
            off = _across(pose, centre) - line_d
            state = _state_of(off)
            # A claimed tile's anchor: where it stood on the line, or was first worked out
            # to have stood; its cards are still there, wherever the tile was put down.
            anchor = centre if state == "line" else moved[t.flag]
            if state != t.state:
                retemplate.append(t.flag)
            white, black = _tile_references(frame, pose, centre)
            new_tiles.append(FlagTile(t.flag, state, anchor, centre, seen, white, black))
        line_tiles = [t for t in new_tiles if t.seen and t.state == "line"]
        if len(line_tiles) >= 3:
            pts = np.array([t.centre for t in line_tiles], np.float64)
            pts -= pts.mean(axis=0)
            _, _, vt = np.linalg.svd(pts, full_matrices=False)
            ax = (float(vt[0, 0]), float(vt[0, 1]))
            if ax[0] * pose.east[0] + ax[1] * pose.east[1] < 0:
                ax = (-ax[0], -ax[1])
            if ax[0] * pose.east[0] + ax[1] * pose.east[1] > math.cos(math.radians(10)):
                pose = Pose(ax, (-ax[1], ax[0]), pose.px_per_mm, pose.field)
        self.layout = Layout(pose, tuple(new_tiles))
        for n in retemplate:
            c = self.layout.tile(n).centre
            if c is not None:
                tpl = self._cut_template(frame, pose, c)
                if tpl is not None:
                    self._templates[n] = tpl
        return self.layout





# -- the tile at a zone's near end --------------------------------------------------------------
def first_card_from(edge_mm: float) -> float:
    """Where along a flag zone's strip (mm) its first card may begin when its tile's edge lay
    at `edge_mm` and the tile is not there to show it (claimed, taken away, under a hand):
    a card may lie a little over where the tile's edge was."""
    return max(0.0, edge_mm - float(load_config()["layout"]["card_over_tile_mm"]))


def hide_tile_edge(refl: np.ndarray, edge_mm: float, px_per_mm: float
                   ) -> tuple[np.ndarray, float]:
    """A flag zone's strip with its flag tile's visible part painted as the bare table.

    A zone starts a little inside its tile (`zone_near_mm`), so that a first card laid
    against the tile's edge, or a little over it, shows its whole top band; the tile's own
    white and black must not look like a card there.  `refl` is the upright reflectance
    strip (rows away from the line), `edge_mm` where the tile's edge lies along it, the tile
    centred across it.  Column by column across the tile, where its black border shows near
    `edge_mm` (dark, below the tile's white just inside it) nothing lies over the tile's
    edge there, and the column is painted from the strip's start to just past the border
    with the table's shade of each row (the strip's outer margins); where a card hides the
    border it lies over the tile from its top down, and the column is left as it is.
    `refl` is painted in place and returned with where along the strip (mm) a card may
    begin: past the border when it shows across `tile_clear_share` of the tile (no card
    lies over the tile's edge), else the strip's start.
    """
    cfg = load_config()["layout"]
    h, w = refl.shape[:2]

    def px(mm: float) -> int:
        return int(round(mm * px_per_mm))

    edge = px(edge_mm)
    search = max(1, px(float(cfg["tile_edge_search_mm"])))
    lo, hi = max(0, edge - search), min(h, edge + search + 1)
    half = px(geometry.TILE_W / 2 + float(cfg["tile_edge_search_mm"]))
    c0, c1 = max(0, w // 2 - half), min(w, w // 2 + half)
    inset = px(1.5)
    if hi - lo < 2 or c1 - c0 < 2 or lo < inset:
        return refl, 0.0
    top = lo - inset
    lum = cv2.transform(refl[top:hi, c0:c1], np.full((1, 3), 1 / 3, np.float32))
    dark_at = np.argmin(lum[inset:], axis=0) + inset           # the border's row, per column
    cols = np.arange(c1 - c0)
    dark = lum[dark_at, cols]
    inside = lum[dark_at - inset, cols]                         # the tile's white above it
    shows = (dark <= float(cfg["tile_border_dark"])) & \
        (inside - dark >= float(cfg["tile_border_step"]))
    if not shows.any():
        return refl, 0.0
    clear = float(np.mean(shows)) >= float(cfg["tile_clear_share"])
    # The border's own corners and the sides' lines: a visible column's neighbours go too.
    k = max(1, px(1.5)) * 2 + 1
    near = cv2.dilate(shows.astype(np.uint8)[None, :], np.ones((1, k), np.uint8))[0] > 0
    margin = max(2, px(4.0))
    end = min(h, hi + px(float(cfg["tile_rim_mm"])) + 1)
    table = 0.5 * (refl[:end, :margin].mean(axis=1) + refl[:end, w - margin:].mean(axis=1))
    # Past the border: the table, or a white rim where the tile was cut wide of it, or a
    # card laid against it.  Painted down to the first row like the table within
    # `tile_rim_mm` (a rim and the border's blur go), else to just past the border (a card's
    # top is left alone).
    below = cv2.transform(refl[top:end, c0:c1], np.full((1, 3), 1 / 3, np.float32))
    t_lum = table[top:end].mean(axis=1)[:, None]
    rim = px(float(cfg["tile_rim_mm"]))
    after = np.arange(below.shape[0])[:, None] - dark_at[None, :]
    tablelike = (np.abs(below - t_lum) < float(cfg["tile_border_step"]) / 3) & \
        (after > 0) & (after <= rim)
    first = np.where(tablelike.any(axis=0), np.argmax(tablelike, axis=0), dark_at + px(1.0))
    # A side's line or a corner (no white above a border there): as deep as the border.
    first = np.where(shows, first, int(np.median(first[shows])))
    stop = np.where(near, np.minimum(h, top + first + 1), 0)
    rows = int(stop.max())
    table = table[:rows]
    paint = np.arange(rows)[:, None] < stop[None, :]
    refl[:rows, c0:c1] = np.where(paint[:, :, None], table[:, None, :], refl[:rows, c0:c1])
    start = float(np.median(top + dark_at[shows])) / px_per_mm if clear else 0.0
    return refl, start


# -- hands over the table ---------------------------------------------------------------------
def _table_shade(a: np.ndarray, use: np.ndarray) -> np.ndarray:
    """A smooth field (a quadratic in x and y, fitted twice, the second time without the
    pixels far from the first fit) through the table's own shade `a` where `use`: uneven
    light and a vignette, without the wood's grain or what lies on the table."""
    h, w = a.shape
    ys, xs = np.nonzero(use)
    if len(xs) < 50:
        return np.full_like(a, float(np.median(a[use])) if use.any() else 1.0)
    step = max(1, len(xs) // 4000)
    ys, xs = ys[::step], xs[::step]
    v = np.log(np.maximum(a[ys, xs], 1e-3))
    x, y = xs / w - 0.5, ys / h - 0.5
    basis = np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y])
    coef, *_ = np.linalg.lstsq(basis, v, rcond=None)
    res = np.abs(basis @ coef - v)
    keep = res <= max(2.5 * float(np.median(res)), 0.05)
    if keep.sum() >= 50:
        coef, *_ = np.linalg.lstsq(basis[keep], v[keep], rcond=None)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx, yy = xx / w - 0.5, yy / h - 0.5
    fit = coef[0] + coef[1] * xx + coef[2] * yy + coef[3] * xx * xx + coef[4] * xx * yy \
        + coef[5] * yy * yy
    return np.exp(fit).astype(np.float32)


def _grain(frame: np.ndarray, size: tuple[int, int], px_per_mm: float, cfg: dict) -> np.ndarray:
    """The table's fine texture (a wood's grain, a felt's fibres) at each pixel of a frame
    shrunk to `size`: the mean absolute difference between the frame's brightness and
    itself smoothed over `grain_mm`, measured on the frame shrunk by a whole factor to about
    `grain_px_per_mm` (a whole factor is a plain average of blocks: cheap)."""
    n = max(1, int(round(px_per_mm / float(cfg["grain_px_per_mm"]))))
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h0, w0 = grey.shape
    grey = cv2.resize(grey[:h0 - h0 % n, :w0 - w0 % n], (w0 // n, h0 // n),
                      interpolation=cv2.INTER_AREA).astype(np.float32)
    detail = np.abs(grey - cv2.GaussianBlur(grey, (0, 0), float(cfg["grain_mm"]) * px_per_mm / n))
    # Averaged over a few mm more: the grain varies along a plank, an arm's stays low.
    return cv2.blur(cv2.resize(detail, size, interpolation=cv2.INTER_AREA), (3, 3))


def _finely_mixed(fg: np.ndarray, solid: np.ndarray, share: Sequence[float]) -> np.ndarray:
    """The pixels of `fg` with both kinds around them: between `share` of the foreground
    pixels in the 5 x 5 px around them solid (the rest glare-like).

    An arm of a hue near the table's (skin on a red-brown cloth) is part solid, part
    glare-like, the two finely mixed: each kind's regions are small, and only together do
    they reach the frame's edge. Glare is glare-like throughout and cards are solid
    throughout; where the two meet the mix is a thin line the opening takes away."""
    near = cv2.blur(fg.astype(np.float32), (5, 5))
    solid_share = cv2.blur(solid.astype(np.float32), (5, 5)) / np.maximum(near, 1e-3)
    lo, hi = share
    return fg & (near > 0.5) & (solid_share >= lo) & (solid_share <= hi)


def shrunk(frame: np.ndarray, layout: Layout, px_per_mm: float, skip: int
           ) -> tuple[np.ndarray, float]:
    """The frame shrunk to about `px_per_mm` of table (to 1/`skip` of its size at most), and
    its pixels per frame pixel: one pixel in `skip` each way, then blocks averaged (a
    fraction of a full shrink's cost)."""
    h0, w0 = frame.shape[:2]
    f = min(1.0 / skip, px_per_mm / layout.pose.px_per_mm)
    picked = cv2.resize(frame, (max(2, w0 // skip), max(2, h0 // skip)),
                        interpolation=cv2.INTER_NEAREST)
    small = cv2.resize(picked, (max(2, int(round(w0 * f))), max(2, int(round(h0 * f)))),
                       interpolation=cv2.INTER_AREA)
    return small, small.shape[1] / w0


def hand_flags(frame: np.ndarray, layout: Layout) -> tuple[int, ...]:
    """Flags whose zones an arm covers: a large non-table region reaching the frame's edge.

    The frame is shrunk to `px_per_mm` of table (the same detail at any camera) and
    white-balanced on the tiles' white.  Cards, tiles and glare spots lie inside the frame;
    an arm always enters from an edge and is large, so only large regions touching the edge
    count.  Such a region is an arm when it is made of

    - pixels whose chroma (log ratios, blind to shading) is far from the table's (the median
      of the frame's mid-tone pixels), or of the table's hue but far brighter than the table
      is there (each pixel split into the table's colour times a shade plus white light;
      `_table_shade` follows the table's shade over the frame) — not of glare-like pixels
      (chroma between the table's and grey, brighter), which join no region to the edge;
    - glare-like pixels or pixels of the table's hue much darker than it (a shadow), where
      the table has a grain (`_grain`: wood, felt) and they hide it: glare adds light to the
      table and a shadow darkens it, and the grain shows through both; a pale or dark arm
      of the table's own hue hides it;
    - pixels of the table's hue and shade without its grain;
    - on a table without grain, pixels with both solid and glare-like pixels around them,
      finely mixed (an arm near the table's hue), when no arm was found otherwise.

    A flag is obstructed when an arm covers enough of its zone (either side of the line,
    out to the zone's far end).
    """
    cfg = load_config()["obstruction"]
    small, f = shrunk(frame, layout, float(cfg["px_per_mm"]), 4)
    whites = [t.white for t in layout.tiles if t.seen]
    white = np.median(np.array(whites, np.float32), axis=0) if whites else \
        np.full(3, 255.0, np.float32)
    bal = small.astype(np.float32) * (1.0 / np.maximum(white, 1.0))[None, None, :]
    lum = bal.mean(axis=2)
    eps = 0.02
    lb, lg, lr = (np.log(bal[:, :, i] + eps) for i in range(3))
    rg, gb = lr - lg, lg - lb
    mid = (lum > cfg["table_lum"][0]) & (lum < cfg["table_lum"][1])
    if int(mid.sum()) < 100:
        return ()
    mid[1::2, :] = False                      # the table's colour from every other row
    t_rg, t_gb = float(np.median(rg[mid])), float(np.median(gb[mid]))
    t_lum = float(np.median(lum[mid]))
    d_rg, d_gb = rg - t_rg, gb - t_gb
    dist = np.sqrt(d_rg * d_rg + d_gb * d_gb)
    # Glare: white light added to the table.  It leaves the colour differences (R-G, G-B)
    # of the white-balanced table as they are while raising the brightness.
    o1 = bal[:, :, 2] - bal[:, :, 1]
    o2 = bal[:, :, 1] - bal[:, :, 0]
    t1, t2 = float(np.median(o1[mid])), float(np.median(o2[mid]))
    tn = math.hypot(t1, t2)
    if tn > 1e-3:
        along = (o1 * t1 + o2 * t2) / tn
        perp = np.abs(o1 * t2 - o2 * t1) / tn
        glare = (perp < cfg["glare_perp"] * np.maximum(along, 0.0) + 0.02) & (lum > t_lum)
    else:
        glare = lum > t_lum
    # Each pixel as the table's colour times a shade plus white light (least squares over
    # the three channels).  A table of no hue (grey) cannot be told from white light: its
    # shade is not looked at.
    table = np.array([float(np.median(bal[:, :, i][mid])) for i in range(3)], np.float32)
    tc = table - table.mean()
    spread = float(np.dot(tc, tc))
    # A channel at the sensor's top (glare's core, and the ring where one channel clips
    # first) tells nothing of a pixel's colour.
    fg = (dist > cfg["chroma_delta"]) & (lum > cfg["min_lum"]) & (lum < cfg["max_lum"]) & \
        (small.max(axis=2) < int(cfg["clipped"]))
    if spread > float(cfg["hue_min"]) ** 2 * float(table.mean()) ** 2:
        shade = (bal - bal.mean(axis=2, keepdims=True)) @ (tc / spread)
        light = lum - shade * float(table.mean())
        plain = (dist < cfg["chroma_delta"]) & mid & (np.abs(light) < 0.05)
        bright = (shade > float(cfg["bright_shade"]) * _table_shade(shade, plain)) & \
            (lum < cfg["max_lum"])
        fg |= bright
        glare &= ~bright
    # Glare-like pixels do not join what lies on the table (a column of cards) to the
    # frame's edge: each kind of pixel makes its own regions.
    kernel = np.ones((3, 3), np.uint8)
    k = layout.pose.px_per_mm * f                       # small-frame px per mm
    min_area = cfg["min_area_mm2"] * k * k
    arm = np.zeros(fg.shape, np.uint8)
    grain = _grain(frame, (fg.shape[1], fg.shape[0]), layout.pose.px_per_mm, cfg)
    plain_table = (dist < cfg["chroma_delta"]) & mid & ~glare
    # White light added lifts the grain's dark and light alike.  The camera's noise is
    # "grain" on any surface: a table with no more than `grain_min` tells nothing this way.
    table_grain = float(np.median(grain[plain_table])) if plain_table.any() else 0.0
    if table_grain < float(cfg["grain_min"]):
        table_grain = 0.0
    smooth = float(cfg["smooth_share"])
    # The table's own hue much darker than the table is there: a shadow, or a dark arm of
    # the table's hue (told apart as above: a shadow keeps the grain, darkened with it).
    model = _table_shade(lum, plain_table)
    shadow = (lum < float(cfg["dark_shade"]) * model) & (lum > cfg["min_lum"]) & \
        (dist <= cfg["chroma_delta"])
    relative = grain / np.maximum(lum, 0.05)
    table_relative = float(np.median(relative[plain_table])) if plain_table.any() else 0.0
    solid = fg & ~glare
    kinds: list[tuple[str, np.ndarray | None]] = [("solid", solid), ("glare", fg & glare)]
    if table_grain <= 0.0:
        # With no grain to tell an arm from glare by: an arm near the table's hue, made
        # last and only when no arm was found whole (`_finely_mixed`).
        kinds.append(("mixed", None))
    else:
        # Of the table's hue, darker or as the table is, without its grain (a dark arm is
        # not always darker than a shadow throughout: its lit side is not).
        kinds.append(("shadow", shadow | ((grain < smooth * table_grain) & ~fg
                                          & (lum > cfg["min_lum"]) & (lum < cfg["max_lum"]))))
    for kind, mask in kinds:
        if mask is None:
            if arm.any():
                break               # an arm found whole: the cards it touches stay out of it
            mask = _finely_mixed(fg, solid, cfg["mixed_share"])
        part = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, kernel)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=8)
        h, w = part.shape
        # Only large regions reaching the edge are looked at: picked in one pass over the
        # table of regions (a busy frame has hundreds of small ones).
        st = stats[1:n].astype(np.int64)
        reach = (st[:, 0] == 0) | (st[:, 1] == 0) | (st[:, 0] + st[:, 2] >= w) | \
            (st[:, 1] + st[:, 3] >= h)
        for i in (1 + np.flatnonzero(reach & (st[:, 4] >= min_area))).tolist():
            m = labels == i
            if kind in ("solid", "mixed"):
                arm[m] = 1
            elif table_grain <= 0.0:
                continue
            elif kind == "glare" and float(np.median(grain[m])) < smooth * table_grain:
                # Glare is light added to the table: the table's grain shows through it;
                # a pale arm over a grained table of its own hue hides the grain.
                arm[m] = 1
            elif kind == "shadow" and float(np.median(relative[m])) < \
                    float(cfg["shadow_share"]) * table_relative:
                arm[m] = 1
    if not arm.any():
        return ()
    # The opening took a pixel off the arm's outline: given back.
    arm = cv2.dilate(arm, kernel)
    return flags_covered(arm, f, layout, float(cfg["zone_half_width_mm"]), 0.0,
                         float(cfg["zone_depth_mm"]), float(cfg["min_cover_mm2"]))


def flags_covered(mask: np.ndarray, f: float, layout: Layout, half: float, near: float,
                  depth: float, min_mm2: float) -> tuple[int, ...]:
    """Flags whose zone holds at least `min_mm2` of `mask` (a frame `shrunk` by `f`): the
    zone spans `half` mm either side of the tile's centre line, from `near` to `depth` mm
    from the tile's centre on either side of the line."""
    k = layout.pose.px_per_mm * f                        # shrunk-frame px per mm
    return tuple(flag for flag, n in zone_counts(mask, f, layout, half, near, depth).items()
                 if n >= min_mm2 * k * k)


def zone_mask(shape: tuple[int, ...], f: float, layout: Layout, half: float, near: float,
              depth: float, inner: float = 0.0) -> np.ndarray:
    """The pixels of a frame `shrunk` by `f` (of `shape`) that lie in some flag's zone (as
    `zone_counts` draws them, to a pixel at the edges): each side of each zone is a
    parallelogram on the frame, drawn as one."""
    out = np.zeros(shape[:2], np.uint8)
    pose = layout.pose
    east, south = np.array(pose.east), np.array(pose.south)
    for t in layout.tiles:
        s, a = pose.scale_at(t.anchor), np.array(t.anchor)
        for u0, u1 in ((inner, half), (-half, -inner)) if inner > 0.0 else ((-half, half),):
            for v0, v1 in ((near, depth), (-depth, -near)):
                corners = [a + s * (u * east + v * south)
                           for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))]
                pts = np.round((np.array(corners) * f - 0.5) * 16).astype(np.int32)
                cv2.fillPoly(out, [pts], 1, lineType=cv2.LINE_8, shift=4)
    return out.astype(bool)


def zone_counts(mask: np.ndarray, f: float, layout: Layout, half: float, near: float,
                depth: float, inner: float = 0.0, side: int = 0) -> dict[int, int]:
    """Per flag, how many pixels of `mask` (a frame `shrunk` by `f`) lie in its zone: from
    `inner` to `half` mm either side of the tile's centre line, from `near` to `depth` mm
    from the tile's centre on either side of the line; `side`: 1 east of the centre line
    only, -1 west only, 0 both."""
    ys, xs = np.nonzero(mask)
    px, py = (xs + 0.5) / f, (ys + 0.5) / f
    pose = layout.pose
    out = {}
    for t in layout.tiles:
        s = pose.scale_at(t.anchor)
        du = ((px - t.anchor[0]) * pose.east[0] + (py - t.anchor[1]) * pose.east[1]) / s
        dv = np.abs((px - t.anchor[0]) * pose.south[0]
                    + (py - t.anchor[1]) * pose.south[1]) / s
        inside = (np.abs(du) >= inner) & (np.abs(du) < half) & (dv >= near) & (dv < depth)
        if side:
            inside &= du * side > 0.0
        out[t.flag] = int(np.count_nonzero(inside))
    return out


__all__ = ["FlagTile", "Layout", "LayoutTracker", "Pose", "acquire", "hand_flags",
           "first_card_from", "flags_covered", "frame_stretch", "hide_tile_edge",
           "layout_from_sightings", "shrunk", "zone_counts", "zone_mask"]
