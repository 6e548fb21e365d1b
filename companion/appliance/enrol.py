"""Enrolment on the rig: each card laid alone under the camera, cut out, measured, enrolled.

`companion deck enrol --camera` asks for the cards one by one (the touchscreen's enrol
screen does the same with buttons).  Each card is cut out of a still frame at its own shape
and measured against the flag tiles in view; the deck is then enrolled from those pictures,
with the printing's card size as the rig measured it (contract 2: the same as
`companion deck enrol DIR --card-size WxH`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.rules.cards import ALL_CARDS, Card
from companion.vision.capture import FrameSource
from companion.vision.deck import Deck, capture_card, enrol, measured_size

log = logging.getLogger(__name__)

SIZES_FILE = "card-sizes.txt"
"""Beside the card pictures: each card's size as the rig measured it (`CODE W H`, mm)."""


class RigEnrolError(CompanionError, RuntimeError):
    """The camera gave no frame, or the enrolment was stopped before every card was laid."""


class NotOneCardError(RigEnrolError):
    """What the camera shows cannot be one card of the deck: a stack, two cards, a hand.

    `measured` is its size in mm (or its shape's height over width when no tile was in view
    to measure it), `expected` the deck's card size it was checked against (None: any card)."""

    def __init__(self, message: str, measured: tuple[float, float] | float,
                 expected: tuple[float, float] | None) -> None:
        super().__init__(message)
        self.measured, self.expected = measured, expected


SIZE_TOLERANCE = 0.06
"""A card captured may differ this much (a share of each side) from the deck's size."""
PLAUSIBLE_MM = ((40.0, 80.0), (60.0, 115.0))
"""Width and height ranges of any playing card (mm): the check before the deck's size is known."""
ASPECT = (1.2, 1.75)
"""Height over width of any playing card: the check when no flag tile is in view."""
MEASURED_BEFORE_CHECK = 3
"""Cards measured before their median size is the deck's size that the next ones must match."""


def capture(source: FrameSource, card: Card, directory: Path, settle: int = 5) -> str:
    """Cut `card` out of the camera's picture (after `settle` frames, so that the picture is
    one taken after the card was laid) into `directory`; a line saying what was measured."""
    frame = None
    for _ in range(max(1, settle)):
        got = source.read()
        if got is None:
            raise RigEnrolError("the camera gave no picture")
        frame = got.main
    assert frame is not None
    return capture_frame(frame, card, directory)


def capture_frame(frame: np.ndarray, card: Card, directory: Path,
                  expected: tuple[float, float] | None = None) -> str:
    """Cut `card` out of `frame` into `directory`, with its size measured on the tiles.

    Refused (`NotOneCardError`, nothing written) when what was cut out cannot be one card of
    the deck: its size differs from `expected` (default: the median of the cards measured so
    far, once there are `MEASURED_BEFORE_CHECK`; before that any playing card's size), or,
    with no tile in view, its shape is no card's.
    """
    face, size = capture_card(frame)
    sizes = read_sizes(directory)
    sizes.pop(card.code, None)   # a card laid again is checked against the others
    if expected is None and len(sizes) >= MEASURED_BEFORE_CHECK:
        expected = measured_size(list(sizes.values()))
    check_one_card(card, face, size, expected)
    directory.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(directory / f"{card.code}.png"), face):
        raise RigEnrolError(f"cannot write {directory / card.code}.png")
    if size is not None:
        sizes[card.code] = size
    (directory / SIZES_FILE).write_text(
        "".join(f"{code} {w:.1f} {h:.1f}\n" for code, (w, h) in sorted(sizes.items())),
        encoding="utf-8")
    if size is None:
        return f"{card.code}: cut out (no flag tile in view to measure it)"
    return f"{card.code}: cut out, {size[0]:.1f} x {size[1]:.1f} mm"


def check_one_card(card: Card, face: np.ndarray, size: tuple[float, float] | None,
                   expected: tuple[float, float] | None) -> None:
    """Refuse a capture that cannot be one card of the deck (see `capture_frame`)."""
    if size is None:
        aspect = face.shape[0] / max(1, face.shape[1])
        if not ASPECT[0] <= aspect <= ASPECT[1]:
            raise NotOneCardError(f"{card.code}: what lies under the camera is {aspect:.2f} times "
                                  "as tall as wide, no card's shape: lay one card alone, flat",
                                  aspect, expected)
        return
    w, h = size
    if expected is not None:
        ew, eh = expected
        if abs(w - ew) > SIZE_TOLERANCE * ew or abs(h - eh) > SIZE_TOLERANCE * eh:
            raise NotOneCardError(f"{card.code}: what lies under the camera measures {w:.0f} x "
                                  f"{h:.0f} mm, not one card of this deck ({ew:.0f} x {eh:.0f} "
                                  "mm): lay one card alone, flat", size, expected)
        return
    (w0, w1), (h0, h1) = PLAUSIBLE_MM
    if not (w0 <= w <= w1 and h0 <= h <= h1 and ASPECT[0] <= h / w <= ASPECT[1]):
        raise NotOneCardError(f"{card.code}: what lies under the camera measures {w:.0f} x "
                              f"{h:.0f} mm, no single card's size: lay one card alone, flat",
                              size, None)


def read_sizes(directory: Path) -> dict[str, tuple[float, float]]:
    """The sizes `capture` measured so far (an unreadable line is skipped)."""
    out: dict[str, tuple[float, float]] = {}
    path = directory / SIZES_FILE
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        try:
            out[parts[0]] = (float(parts[1]), float(parts[2]))
        except (IndexError, ValueError):
            continue
    return out


def finish(directory: Path, card_size: tuple[float, float] | None = None
           ) -> tuple[Deck, tuple[float, float]]:
    """Enrol the deck from the pictures in `directory`, at `card_size` or the size the rig
    measured (the median of the cards' sizes; 63 x 88 mm when nothing was measured)."""
    size = card_size or measured_size(list(read_sizes(directory).values())) or (63.0, 88.0)
    return enrol(directory, size), size


def enrol_from_camera(source: FrameSource, directory: Path,
                      ask: Callable[[int, Card], bool], say: Callable[[str], None],
                      settle: int = 5, cards: Sequence[Card] = ALL_CARDS
                      ) -> tuple[Deck, tuple[float, float]]:
    """Ask for every card of the deck (`cards`: Battle Line's 70 by default, an edition's
    `Edition.cards`; `ask(i, card)`: False stops), cut each out, then enrol them all.
    Cards already pictured in `directory` are not asked for again (an enrolment stopped
    half-way goes on where it stopped)."""
    for i, card in enumerate(cards):
        if (directory / f"{card.code}.png").exists():
            continue
        while True:
            if not ask(i, card):
                raise RigEnrolError(f"enrolment stopped at {card.code}; the pictures so far "
                                    f"are kept in {directory}: run it again to go on")
            try:
                say(capture(source, card, directory, settle))
                break
            except CompanionError as exc:
                say(f"{card.code}: {exc}; lay it again")
    return finish(directory)


__all__ = ["NotOneCardError", "RigEnrolError", "check_one_card", "SIZES_FILE", "capture", "capture_frame", "enrol_from_camera",
           "finish", "read_sizes"]
