"""What the running companion tells the screens besides the referee's state: the camera
picture for calibration and the state of the input (plain values, no loop, no Kivy)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True, eq=False)   # compared by identity: it holds an image
class Preview:
    """A small copy of the latest frame for the calibration screen, with what vision saw."""

    image: np.ndarray                        # RGB rows bottom-up (ready for a Kivy texture)
    scale: float                             # preview pixels per frame pixel
    # flag, centre (preview pixels, y down), up (unit vector), preview pixels per mm
    tiles: tuple[tuple[int, tuple[float, float], tuple[float, float], float], ...]
    missing: tuple[int, ...]
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Status:
    frames: int = 0
    read_errors: int = 0
    last_error: str | None = None
    ended: bool = False
    waiting: str | None = None   # what the appliance waits for (a camera gone), None when reading
    deck: bool = True            # a deck is enrolled: the cards can be read
    moving: bool = False         # the table moves (hands over it): nothing is read meanwhile
    unreadable: bool = False     # the last still frame could not be read (tiles hidden)
    glare: tuple[int, ...] = ()  # flags the last still frame showed under glare
    cast: bool = False           # the last still frame's light hid the cards' colours


__all__ = ["Preview", "Status"]
