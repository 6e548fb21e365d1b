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
    return TileSighting(flag, (float(centre[0]), float(centre[1])), up, px_per_mm, samples)


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
                                 tuple((x + offset[0], y + offset[1], k) for x, y, k in s.samples))
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


__all__ = ["TileSighting", "decode_region", "find_tiles", "qr_symbol_mm", "to_gray"]
