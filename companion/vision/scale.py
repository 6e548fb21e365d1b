"""Frames at another scale than the rig's: measured on the flag tiles, read at the rig's scale.

The reader's windows and templates are sized for the rig's scale (`geometry.PX_PER_MM`).  A
frame from another camera, or one resized or stretched on its way (8000x8000 from a
2304x1296 frame), has tiles of another size, or wider than tall: read as it is, most of its
cards would be lost without a word.  `ScaleNormaliser` measures the tiles once per frame size
and resizes such frames, each axis on its own, to the rig's scale; a frame too coarse to
read is refused with an `ImageError` saying so.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry
from .config import load_config
from .errors import ImageError
from .tiles import TileSighting, decode_region, qr_symbol_mm, to_gray

log = logging.getLogger(__name__)

_MEASURE_AREA = 2 * geometry.FRAME_W * geometry.FRAME_H  # larger frames are measured shrunk


@dataclass(frozen=True, slots=True)
class FrameScale:
    """Pixels per millimetre of the table along the image's x and y axes, from the tiles."""

    x: float
    y: float
    tiles: int

    @property
    def stretch(self) -> float:
        """How much wider than tall the table appears: 1.0 for an undistorted frame."""
        return self.x / self.y


def axis_scales(sighting: TileSighting) -> tuple[float, float] | None:
    """(px/mm along x, px/mm along y) of one tile, whatever its rotation.

    The midpoints of opposite edges of the symbol are one side apart, so they give the two
    side vectors a and b of the (square) symbol.  Under a scaling by (sx, sy) of a square of
    side L turned by any angle, a_x^2 + b_x^2 = (L sx)^2 and a_y^2 + b_y^2 = (L sy)^2.
    """
    if len(sighting.samples) != 4:
        return None
    (x0, y0, _), (x1, y1, _), (x2, y2, _), (x3, y3, _) = sighting.samples
    ax, ay = x2 - x0, y2 - y0
    bx, by = x3 - x1, y3 - y1
    side = qr_symbol_mm()
    return math.hypot(ax, bx) / side, math.hypot(ay, by) / side


def measure(frame: np.ndarray) -> FrameScale | None:
    """The frame's scale along each axis from the tiles it shows; None when none is read."""
    gray = to_gray(frame)
    h, w = gray.shape
    shrink = min(1.0, math.sqrt(_MEASURE_AREA / (h * w)))
    if shrink < 1.0:  # the decoder's passes would take seconds and gigabytes at full size
        gray = cv2.resize(gray, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    scales = [s for s in map(axis_scales, decode_region(gray)) if s is not None]
    if not scales:
        return None
    xs = sorted(s[0] for s in scales)
    ys = sorted(s[1] for s in scales)
    mid = len(scales) // 2
    return FrameScale(xs[mid] / shrink, ys[mid] / shrink, len(scales))


def resize_factors(scale: FrameScale, where: str = "the frame") -> tuple[float, float] | None:
    """(fx, fy) that bring a frame to the rig's scale, None when it is close enough already.

    Raises `ImageError` when the tiles are too small for the cards to be read at all.
    """
    cfg = load_config()["images"]
    nominal = geometry.PX_PER_MM
    low, high = (float(v) for v in cfg["scale_band"])
    if min(scale.x, scale.y) < float(cfg["scale_min"]) * nominal:
        raise ImageError(
            f"{where} shows the table at {scale.x:.2f} x {scale.y:.2f} px/mm; the cards cannot "
            f"be read below {float(cfg['scale_min']) * nominal:.2f} px/mm (the rig's scale is "
            f"{nominal} px/mm): use a closer camera or a larger frame")
    fx, fy = nominal / scale.x, nominal / scale.y
    stretched = abs(math.log(scale.stretch)) > math.log1p(float(cfg["stretch_max"]))
    if not stretched and low <= 1 / fx <= high and low <= 1 / fy <= high:
        return None
    return fx, fy


class ScaleNormaliser:
    """Brings frames of any size to the rig's scale; the rig's own frame size passes as it is.

    The measure (one tile decode) is made once per frame size and kept; `reset()` forgets it
    (a camera moved).  Frames of the rig's size are taken to be at the rig's scale, so the
    appliance's frames never pay for it.  Where no tile code decodes (a webcam's ~2 px per
    module under blur), its frames are read as they are and the decode is tried again only
    every `images.scale_retry_frames` frames: it costs a few hundred milliseconds, and was
    tried on every frame of such a camera.
    """

    def __init__(self) -> None:
        self._factors: dict[tuple[int, int], tuple[float, float] | None] = {}
        self._unmeasured: dict[tuple[int, int], int] = {}   # frames since the decode failed

    def reset(self) -> None:
        self._factors.clear()
        self._unmeasured.clear()

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        if (w, h) == (geometry.FRAME_W, geometry.FRAME_H):
            return frame
        if (w, h) not in self._factors:
            since = self._unmeasured.get((w, h))
            retry = int(load_config()["images"]["scale_retry_frames"])
            if since is not None and since + 1 < retry:
                self._unmeasured[(w, h)] = since + 1
                return frame
            scale = measure(frame)
            if scale is None:
                self._unmeasured[(w, h)] = 0
                return frame  # no tile read: the layout says so in its own words
            self._unmeasured.pop((w, h), None)
            factors = resize_factors(scale, f"a {w}x{h} frame")
            self._factors[(w, h)] = factors
            if factors is not None:
                log.info("a %dx%d frame at %.2f x %.2f px/mm is read resized by %.3f x %.3f",
                         w, h, scale.x, scale.y, factors[0], factors[1])
        factors = self._factors[(w, h)]
        if factors is None:
            return frame
        fx, fy = factors
        shrinking = fx * fy < 1.0
        return cv2.resize(frame, None, fx=fx, fy=fy,
                          interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)


__all__ = ["FrameScale", "ScaleNormaliser", "axis_scales", "measure", "resize_factors"]
