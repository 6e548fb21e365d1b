"""The eyes: a camera frame in, the referee's input out.

The one place where a frame becomes an observation, for the appliance (`session`) and the
demo alike: the motion test on the low-resolution stream first; while the table moves (or a
frame cannot be read: tiles under a hand) the referee is told only that the table moves,
which restarts its stability count; a still frame gets the full read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from companion.errors import CompanionError
from companion.vision.observation import Observation

if TYPE_CHECKING:
    from companion.referee.events import Event
    from companion.referee.referee import Referee
    from companion.vision.motion import MotionDetector

log = logging.getLogger(__name__)

MOVING = Observation(motion=True)
"""What the referee is told while the table moves: nothing to commit until it settles."""


class TilesSeen(Protocol):
    """Where the last read found the tiles (`vision.layout.Layout`)."""

    def sightings(self) -> tuple[tuple[int, tuple[float, float], tuple[float, float], float],
                                 ...]: ...


class Reader(Protocol):
    """A table reader: `vision.pipeline.TableReader`, or one in another process."""

    @property
    def layout(self) -> TilesSeen | None:
        """The tiles as the last read found them (None before the first read)."""

    def read(self, frame: np.ndarray) -> Observation: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True, eq=False)
class Sight:
    """What the eyes made of one frame."""

    observation: Observation | None   # None: no deck enrolled, nothing to tell the referee
    frame: np.ndarray | None = None   # the full frame, when it was read
    moving: bool = False
    error: str | None = None          # why a still frame could not be read


class Eyes:
    """The motion test and the reader; `look` one frame, or `feed` it to a referee."""

    def __init__(self, reader: Reader | None, motion: MotionDetector | None = None) -> None:
        if motion is None:
            from companion.vision.motion import MotionDetector
            motion = MotionDetector()
        self.reader = reader
        self.motion = motion
        self.reads = 0
        self.unreadable = 0

    @property
    def settle_frames(self) -> int:
        """Still frames the motion test needs before it calls the table still again."""
        return int(self.motion.settings.settle_frames)

    def look(self, lores: np.ndarray | None, main: Callable[[], np.ndarray]) -> Sight:
        """`main` is called only when the full frame is worth reading (a still table)."""
        moving = bool(self.motion.update(lores)) if lores is not None else False
        if moving:
            return Sight(MOVING, moving=True)
        frame = main()
        if self.reader is None:
            return Sight(None, frame)
        self.reads += 1
        try:
            return Sight(self.reader.read(frame), frame)
        except CompanionError as exc:
            self.unreadable += 1
            log.info("frame unreadable: %s", exc)
            return Sight(MOVING, frame, error=str(exc))

    def feed(self, referee: Referee, lores: np.ndarray | None,
             main: Callable[[], np.ndarray], t: float) -> tuple[Sight, list[Event]]:
        """`look`, then tell `referee` at time `t`; the frame read goes with the observation
        when the referee keeps frames for the record."""
        sight = self.look(lores, main)
        if sight.observation is None:
            return sight, []
        keep = sight.error is None and sight.frame is not None and \
            referee.settings.record_frames
        return sight, referee.feed(sight.observation, t, frame=sight.frame if keep else None)

    def use(self, reader: Reader | None) -> None:
        """Read with `reader` from now on (a deck just enrolled); the old one is closed."""
        old, self.reader = self.reader, reader
        if old is not None and old is not reader:
            old.close()

    def close(self) -> None:
        self.use(None)


def load_reader(deck_path: str | Path) -> Reader:
    """The appliance's table reader for the deck in `deck_path`.

    It runs on the session's thread; the zones are read by the vision's worker processes
    (`pipeline.workers`, the one way the vision uses other processes), this process taking
    the `pipeline.appliance_reader_share` of them: the touchscreen shares this process, and
    the interpreter lock it needs is held here only to follow the tiles and settle the table.
    """
    from companion.vision.config import load_config
    from companion.vision.deck import Deck
    from companion.vision.pipeline import TableReader

    share = float(load_config()["pipeline"].get("appliance_reader_share", 0.0))
    return TableReader(Deck.load(deck_path), reader_share=share)


__all__ = ["MOVING", "Eyes", "Reader", "Sight", "TilesSeen", "load_reader"]
