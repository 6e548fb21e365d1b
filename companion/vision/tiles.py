"""Finding the flag tiles in a frame: QR codes `BL-FLAG-1` ... `BL-FLAG-9` read with pyzbar.

`find_tiles(frame)` returns one `TileSighting` per decoded tile: its flag number, its centre
in pixels, the unit vector pointing to the tile's top edge (north) and the pixel scale.  The
QR symbol is centred on the tile (see `tilesheet`), so the symbol's centre is the tile's.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.position import FLAG_COUNT

from . import geometry
from .config import load_config
from .errors import DuplicateTileError, ImageError

log = logging.getLogger(__name__)

# The coarse way zbar says the symbol's top points, as an image-space unit vector.
_COARSE_UP = {"UP": (0.0, -1.0), "RIGHT": (1.0, 0.0), "DOWN": (0.0, 1.0), "LEFT": (-1.0, 0.0)}


@dataclass(frozen=True, slots=True)
class TileSighting:
    """One decoded flag tile. `up` is the unit vector (image x, y) towards the tile's top edge."""

    flag: int
    centre: tuple[float, float]
    up: tuple[float, float]
    px_per_mm: float
    # Local scale samples (x, y, px per mm) at the symbol's edge midpoints: under a tilted
    # camera the scale changes across the table, and a trapezoid symbol says how.
    samples: tuple[tuple[float, float, float], ...] = ()
    decoded: bool = False    # read from its code (not only found by its printed drawing)


@functools.lru_cache(maxsize=1)
def qr_symbol_mm() -> float:
    """Width of the printed QR symbol without its quiet zone, from the tile sheet's drawing."""
    from .tilesheet import QUIET_MODULES, qr_modules
    n = qr_modules("BL-FLAG-1").shape[0]
    return geometry.QR_SIZE * n / (n + 2 * QUIET_MODULES)


def _sighting(flag: int, polygon: np.ndarray, coarse: str | None, scale: float
              ) -> TileSighting | None:
    pts = polygon.astype(np.float64) / scale
    if len(pts) != 4:
        # zbar gives the symbol's corners; anything else is a partial decode we cannot place.
        hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
        rect = cv2.minAreaRect(hull)
        pts = cv2.boxPoints(rect).astype(np.float64)
    centre = pts.mean(axis=0)
    edges = np.roll(pts, -1, axis=0) - pts
    lengths = np.hypot(edges[:, 0], edges[:, 1])
    if lengths.min() < 8:
        return None
    # Edge directions modulo 90 degrees, averaged on the circle of 4*angle.
    angles = np.arctan2(edges[:, 1], edges[:, 0])
    mean4 = math.atan2(float(np.sin(4 * angles).sum()), float(np.cos(4 * angles).sum())) / 4
    candidates = [(math.cos(mean4 + k * math.pi / 2), math.sin(mean4 + k * math.pi / 2))
                  for k in range(4)]
    if coarse in _COARSE_UP:
        cx, cy = _COARSE_UP[coarse]
        up = max(candidates, key=lambda v: v[0] * cx + v[1] * cy)
    else:
        # An old zbar without orientation: assume the camera's top is roughly north.
        up = max(candidates, key=lambda v: -v[1])
    px_per_mm = float(lengths.mean()) / qr_symbol_mm()
    mids = (pts + np.roll(pts, -1, axis=0)) / 2
    samples = tuple((float(mx), float(my), float(ln) / qr_symbol_mm())
                    for (mx, my), ln in zip(mids, lengths))
    return TileSighting(flag, (float(centre[0]), float(centre[1])), up, px_per_mm, samples, True)


def _decode(gray: np.ndarray) -> list[tuple[str, np.ndarray, str | None]]:
    from pyzbar import pyzbar  # imported here: loading libzbar costs time at start-up
    out = []
    for sym in pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        try:
            text = sym.data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        out.append((text, np.array([(p.x, p.y) for p in sym.polygon], dtype=np.float64),
                    getattr(sym, "orientation", None)))
    return out


def _sharpen(gray: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.addWeighted(gray, 1.8, cv2.GaussianBlur(gray, (0, 0), sigma), -0.8, 0)


def _prepared(gray: np.ndarray, name: str) -> tuple[np.ndarray, float]:
    """One retry pass of the decoder: the image to decode and its scale."""
    if name == "sharp":
        return _sharpen(gray, 2.0), 1.0
    if name == "adaptive":
        return cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                     cv2.THRESH_BINARY, 31, 5), 1.0
    if name == "enlarged":
        big = cv2.resize(gray, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_CUBIC)
        return _sharpen(big, 3.0), 1.5
    if name == "clahe":
        return cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8)).apply(gray), 1.0
    from .errors import ConfigError
    raise ConfigError(f"unknown tile decoding pass {name!r} in config.yaml")


def decode_region(gray: np.ndarray, offset: tuple[int, int] = (0, 0)) -> list[TileSighting]:
    """Every flag tile decoded in a grey image (or a crop of one at `offset`), passes included."""
    cfg = load_config()["tiles"]
    pattern = re.compile(cfg["qr_pattern"])
    found: dict[int, list[TileSighting]] = {}

    def run(img: np.ndarray, scale: float) -> None:
        for text, poly, coarse in _decode(img):
            m = pattern.match(text)
            if not m:
                log.debug("ignoring a QR code that is not a flag tile: %r", text)
                continue
            s = _sighting(int(m.group(1)), poly, coarse, scale)
            if s is not None:
                s = TileSighting(s.flag, (s.centre[0] + offset[0], s.centre[1] + offset[1]),
                                 s.up, s.px_per_mm,
                                 tuple((x + offset[0], y + offset[1], k) for x, y, k in s.samples),
                                 True)
                found.setdefault(s.flag, []).append(s)

    run(gray, 1.0)
    # Blur, noise and JPEG defeat zbar at the rig's ~3 px per module: try cheap remedies in
    # turn until every tile is read (each pass only costs when the previous one missed some).
    for name in cfg["retry_passes"]:
        if len(found) >= FLAG_COUNT:
            break
        img, scale = _prepared(gray, str(name))
        before = {k: len(v) for k, v in found.items()}
        run(img, scale)
        # A retry pass may only add flags it newly found; re-reads of known ones are dropped.
        for k, n in before.items():
            del found[k][n:]

    out = []
    same_px = float(cfg["same_tile_mm"])
    for flag, sightings in sorted(found.items()):
        first = sightings[0]
        for other in sightings[1:]:
            d = math.dist(first.centre, other.centre)
            if d > same_px * first.px_per_mm:
                raise DuplicateTileError(
                    f"flag tile {flag} (BL-FLAG-{flag}) appears twice, at pixels "
                    f"({first.centre[0]:.0f}, {first.centre[1]:.0f}) and "
                    f"({other.centre[0]:.0f}, {other.centre[1]:.0f})")
        out.append(first)
    return out


def to_gray(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise ImageError("a frame must be a uint8 numpy array")
    if frame.ndim == 2:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 3:
        return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    raise ImageError(f"a frame must be BGR (height x width x 3), not shape {frame.shape}")


def find_tiles(frame: np.ndarray) -> list[TileSighting]:
    """Every flag tile in a BGR frame, by flag number.  A tile seen twice is an error."""
    return decode_region(to_gray(frame))


# -- tiles found by their drawing -----------------------------------------------------------
# A webcam's 1920x1080 over the whole table (~16 px per cm) gives the code about 2 px per
# module: blur, noise or glare then defeat the decoder while the tile itself (50 x 70 mm, a
# black border round a white field, a large flag number) is still plain to see.  Such tiles
# are found by their printed drawing and named by it: each flag's drawing differs in its
# code's modules and its number, and the drawing that fits best must lead every other.

@dataclass(frozen=True, slots=True)
class DrawingMatch:
    """A tile named by its drawing: the best flag, its correlation and its lead over the
    next flag's drawing at the same place, where it fits (px) and at which scale."""

    flag: int
    score: float
    lead: float
    centre: tuple[float, float]
    px_per_mm: float

    def sighting(self, up: tuple[float, float]) -> TileSighting:
        """The tile as a sighting, its scale sampled at its four edges' midpoints (so a
        tilted camera's changing scale is fitted from tiles found this way too)."""
        x, y = self.centre
        hw, hh = 0.5 * geometry.TILE_W * self.px_per_mm, 0.5 * geometry.TILE_H * self.px_per_mm
        east = (-up[1], up[0])
        mids = [(x + up[0] * hh, y + up[1] * hh), (x - up[0] * hh, y - up[1] * hh),
                (x + east[0] * hw, y + east[1] * hw), (x - east[0] * hw, y - east[1] * hw)]
        return TileSighting(self.flag, self.centre, up, self.px_per_mm,
                            tuple((mx, my, self.px_per_mm) for mx, my in mids))


def _turn_degrees(up: tuple[float, float]) -> float:
    """The counter-clockwise turn (degrees, as the image shows it) that points an upright
    drawing's top along `up`."""
    return math.degrees(math.atan2(-up[0], -up[1]))


def _turned(img: np.ndarray, up: tuple[float, float]) -> np.ndarray:
    """An upright drawing turned so its top points along `up`, on a canvas that holds it
    whole; the corners it leaves are mid-grey (they fit nothing)."""
    h, w = img.shape
    m = cv2.getRotationMatrix2D((w / 2, h / 2), _turn_degrees(up), 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(math.ceil(h * sin + w * cos)), int(math.ceil(h * cos + w * sin))
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(img, m, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=128.0)


@functools.lru_cache(maxsize=256)
def tile_drawing(flag: int, px_per_mm: float, up: tuple[float, float]) -> np.ndarray:
    """Flag `flag`'s tile as the camera sees it at this scale and turn (grey, float32);
    flag 0: the mean of the nine, the drawing every tile shares."""
    from .tilesheet import tile_image

    def grey(n: int) -> np.ndarray:
        return cv2.cvtColor(tile_image(n, px_per_mm), cv2.COLOR_BGR2GRAY).astype(np.float32)

    img = np.mean([grey(n) for n in range(1, FLAG_COUNT + 1)], axis=0) if flag == 0 \
        else grey(flag)
    return _turned(img.astype(np.float32), up)


def _fit(gray: np.ndarray, tpl: np.ndarray, centre: tuple[float, float], search: float
         ) -> tuple[float, tuple[float, float]] | None:
    """Where `tpl` fits best with its centre within `search` px of `centre`: score, centre."""
    th, tw = tpl.shape
    h, w = gray.shape
    x0 = int(round(centre[0] - tw / 2 - search))
    y0 = int(round(centre[1] - th / 2 - search))
    x1, y1 = x0 + tw + int(2 * search) + 1, y0 + th + int(2 * search) + 1
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        # A tile at the frame's edge: the frame extended so the drawing can still be tried.
        crop = cv2.copyMakeBorder(gray[max(0, y0):min(h, y1), max(0, x0):min(w, x1)],
                                  max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w),
                                  cv2.BORDER_REPLICATE)
    else:
        crop = gray[y0:y1, x0:x1]
    if crop.shape[0] < th or crop.shape[1] < tw:
        return None
    res = cv2.matchTemplate(crop.astype(np.float32), tpl, cv2.TM_CCOEFF_NORMED)
    _, score, _, (lx, ly) = cv2.minMaxLoc(res)
    return float(score), (x0 + lx + tw / 2, y0 + ly + th / 2)


@functools.lru_cache(maxsize=64)
def _telling(px_per_mm: float, up: tuple[float, float]) -> np.ndarray:
    """Where the nine drawings differ (their codes' modules, their numbers), at this scale
    and turn: the only pixels that tell one flag's tile from another's."""
    stack = np.stack([tile_drawing(n, px_per_mm, up) for n in range(1, FLAG_COUNT + 1)])
    return np.asarray(stack.std(axis=0) > 16.0)


def _patch(gray: np.ndarray, x0: int, y0: int, w: int, h: int) -> np.ndarray:
    """gray[y0:y0+h, x0:x0+w], the frame's edge repeated where the box leaves it."""
    gh, gw = gray.shape
    if x0 >= 0 and y0 >= 0 and x0 + w <= gw and y0 + h <= gh:
        return gray[y0:y0 + h, x0:x0 + w]
    return cv2.copyMakeBorder(gray[max(0, y0):max(0, min(gh, y0 + h)),
                                   max(0, x0):max(0, min(gw, x0 + w))],
                              max(0, -y0), max(0, y0 + h - gh), max(0, -x0),
                              max(0, x0 + w - gw), cv2.BORDER_REPLICATE)


def _telling_fit(gray: np.ndarray, flag: int, k: float, up: tuple[float, float],
                 where: tuple[float, float]) -> float:
    """The correlation of flag `flag`'s drawing with the frame where it fits, over the
    pixels that tell the flags apart only."""
    tpl = tile_drawing(flag, k, up)
    th, tw = tpl.shape
    patch = _patch(gray, int(round(where[0] - tw / 2)), int(round(where[1] - th / 2)), tw, th)
    if patch.shape != tpl.shape:
        return -1.0
    m = _telling(k, up)
    a = patch[m].astype(np.float32)
    b = tpl[m]
    a, b = a - a.mean(), b - b.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / den if den > 0 else -1.0


def name_by_drawing(gray: np.ndarray, centre: tuple[float, float], up: tuple[float, float],
                    px_per_mm: float, search_mm: float,
                    scales: tuple[float, ...] = (1.0,)) -> DrawingMatch | None:
    """The flag whose drawing fits best near `centre` (within `search_mm`), and by how much
    it leads the best other flag's; the scale is tried at `px_per_mm` times each of `scales`.

    Each flag's drawing is fitted where it fits best (a lead is never a matter of a pixel's
    shift); there the flags are told apart over the pixels where their drawings differ (the
    whole drawings, nine-tenths alike, differ by little): the best of those fits names the
    tile and its lead is over the next; the score is its whole drawing's fit."""
    best: dict[int, tuple[float, tuple[float, float], float]] = {}
    for f in scales:
        k = round(px_per_mm * f, 3)
        for flag in range(1, FLAG_COUNT + 1):
            hit = _fit(gray, tile_drawing(flag, k, up), centre, search_mm * k)
            if hit is not None and (flag not in best or hit[0] > best[flag][0]):
                best[flag] = (hit[0], hit[1], k)
    if not best:
        return None
    telling = {n: _telling_fit(gray, n, best[n][2], up, best[n][1]) for n in best}
    order = sorted(best, key=lambda n: -telling[n])
    score, where, k = best[order[0]]
    lead = telling[order[0]] - telling[order[1]] if len(order) > 1 else telling[order[0]]
    return DrawingMatch(order[0], score, lead, where, k)


_UPS = ((0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0))


def find_by_drawing(gray: np.ndarray) -> list[TileSighting]:
    """Every flag tile found by its printed drawing alone, anywhere in a grey frame.

    For when the codes cannot be decoded at all (the scale is not known yet): the drawing
    every tile shares is looked for on the frame shrunk for each scale the configuration
    allows (`drawing_px_per_mm`) and each of the four ways north may point, the likeliest
    places are named by the nine drawings at full resolution, and a place counts as a tile
    when its best drawing fits by `drawing_found_min` and leads every other flag's by
    `drawing_lead`.  A flag named twice keeps its better fit.
    """
    cfg = load_config()["tiles"]
    lo, hi = (float(v) for v in cfg["drawing_px_per_mm"])
    coarse = float(cfg["drawing_coarse_px_per_mm"])
    step = float(cfg["drawing_scale_step"])
    scales = []
    k = lo
    while k <= hi * 1.0001:
        scales.append(round(k, 3))
        k *= step
    h, w = gray.shape
    # Each scale's shrunk frame from the largest one (shrinking the full frame each time
    # costs more than the search).
    r0 = min(1.0, coarse / scales[0])
    base = gray if r0 == 1.0 else cv2.resize(gray, (max(1, int(w * r0)), max(1, int(h * r0))),
                                             interpolation=cv2.INTER_AREA)
    base = base.astype(np.float32)
    shrunk = []
    for k in scales:
        r = min(1.0, coarse / k)
        bw, bh = max(1, int(w * r)), max(1, int(h * r))
        small = base if (bw, bh) == base.shape[::-1] else \
            cv2.resize(base, (bw, bh), interpolation=cv2.INTER_AREA)
        shrunk.append((k, bw / w, small))
    named: dict[int, TileSighting] = {}
    fits: dict[int, float] = {}
    # North at the top of the picture first (the rig's set-up), the other turns only if that
    # names fewer than two tiles.
    for up in _UPS:
        _look(gray, up, shrunk, step, cfg, named, fits)
        if len(named) >= 2:
            break
    return [named[n] for n in sorted(named)]


def _look(gray: np.ndarray, up: tuple[float, float],
          shrunk: list[tuple[float, float, np.ndarray]], step: float, cfg: dict,
          named: dict[int, TileSighting], fits: dict[int, float]) -> None:
    """`find_by_drawing` for one way north may point: adds what it names to `named`."""
    cands: list[tuple[float, float, float, float]] = []
    for k, r, small in shrunk:
        tpl = tile_drawing(0, round(k * r, 3), up)
        th, tw = tpl.shape
        if small.shape[0] <= th or small.shape[1] <= tw:
            continue
        res = cv2.matchTemplate(small, tpl, cv2.TM_CCOEFF_NORMED)
        peaks = (res >= cv2.dilate(res, np.ones((5, 5), np.uint8))) & \
            (res >= float(cfg["drawing_coarse_min"]))
        for y, x in zip(*np.nonzero(peaks)):
            cands.append((float(res[y, x]), (x + tw / 2) / r, (y + th / 2) / r, k))
    cands.sort(key=lambda c: -c[0])
    kept: list[tuple[float, float, float, float]] = []
    for c in cands:
        if len(kept) >= int(cfg["drawing_candidates"]):
            break
        if all(math.hypot(c[1] - o[1], c[2] - o[2]) > 0.5 * geometry.TILE_W * min(c[3], o[3])
               for o in kept):
            kept.append(c)
    for _, x, y, k in kept:
        m = name_by_drawing(gray, (x, y), up, k, float(cfg["drawing_search_mm"]),
                            (1 / step ** 0.5, 1.0, step ** 0.5))
        if m is None or m.score < cfg["drawing_found_min"] or m.lead < cfg["drawing_lead"]:
            continue
        if m.flag not in fits or m.score > fits[m.flag]:
            named[m.flag], fits[m.flag] = _finer(gray, m, up).sighting(up), m.score


def _finer(gray: np.ndarray, m: DrawingMatch, up: tuple[float, float]) -> DrawingMatch:
    """`m` with its scale refined in 1% steps (the zones are laid out with it)."""
    best = m
    for f in (0.95, 0.96, 0.97, 0.98, 0.99, 1.01, 1.02, 1.03, 1.04, 1.05):
        k = round(m.px_per_mm * f, 3)
        hit = _fit(gray, tile_drawing(m.flag, k, up), m.centre, 2.0 * k)
        if hit is not None and hit[0] > best.score:
            best = DrawingMatch(m.flag, hit[0], m.lead, hit[1], k)
    return best


__all__ = ["DrawingMatch", "TileSighting", "decode_region", "find_by_drawing", "find_tiles",
           "name_by_drawing", "qr_symbol_mm", "tile_drawing", "to_gray"]
