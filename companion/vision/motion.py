"""Whether the table moves, decided on the low-resolution stream (a few ms per frame).

The referee only reads frames taken while nothing moves; reading a whole frame is much dearer
than this test, so the capture loop asks `MotionDetector.update(lores)` first.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import load_config


@dataclass(frozen=True, slots=True)
class MotionSettings:
    width: int            # the lores frame is shrunk to this width (aspect kept)
    pixel_delta: int      # grey-level change that counts a pixel as changed
    moving_fraction: float  # this share of changed pixels between frames means motion
    changed_fraction: float  # ... and this share against the last still frame means a change
    settle_frames: int    # still frames in a row before the table counts as still again

    @classmethod
    def from_config(cls) -> MotionSettings:
        m = load_config()["motion"]
        return cls(int(m["width"]), int(m["pixel_delta"]), float(m["moving_fraction"]),
                   float(m["changed_fraction"]), int(m["settle_frames"]))


class MotionDetector:
    """Feeds on lores BGR frames; `update` is True while the table moves.

    After the table settles, `changed` says whether the still table differs from the last
    still table (a card was played): that is when a full read is worth doing.
    """

    def __init__(self, settings: MotionSettings | None = None) -> None:
        self.settings = settings or MotionSettings.from_config()
        self._prev: np.ndarray | None = None
        self._still_ref: np.ndarray | None = None
        self._still_count = 0
        self.moving = False
        self.changed = False

    def _small(self, lores: np.ndarray) -> np.ndarray:
        h, w = lores.shape[:2]
        width = min(self.settings.width, w)
        height = max(1, round(h * width / w))
        grey = cv2.cvtColor(lores, cv2.COLOR_BGR2GRAY) if lores.ndim == 3 else lores
        small = cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA)
        # A light blur keeps sensor noise from counting as motion.
        return cv2.GaussianBlur(small, (3, 3), 0)

    def _fraction(self, a: np.ndarray, b: np.ndarray) -> float:
        diff = cv2.absdiff(a, b)
        return float(np.count_nonzero(diff > self.settings.pixel_delta)) / diff.size

    def update(self, lores: np.ndarray) -> bool:
        small = self._small(lores)
        s = self.settings
        self.changed = False
        if self._prev is None or self._prev.shape != small.shape:
            self._prev = small
            self._still_ref = small
            self.moving = False
            self.changed = True     # the first frame is news
            return False
        moving_now = self._fraction(small, self._prev) > s.moving_fraction
        self._prev = small
        if moving_now:
            self._still_count = 0
            self.moving = True
            return True
        self._still_count += 1
        if self.moving and self._still_count < s.settle_frames:
            return True
        if self.moving or self._still_ref is None:
            self.moving = False
        if self._still_ref is not None and self._fraction(small, self._still_ref) > s.changed_fraction:
            self.changed = True
            self._still_ref = small
        return False

    def reset(self) -> None:
        self._prev = None
        self._still_ref = None
        self._still_count = 0
        self.moving = False
        self.changed = False


__all__ = ["MotionDetector", "MotionSettings"]
