"""The referee's tunable settings, in one place: how stable a table must be before it counts.

The defaults suit the reference rig's camera loop (about 5 to 10 frames a second): a reading
must repeat on three consecutive calm frames spanning at least 0.3 s before it is committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError


class RefereeSettingsError(CompanionError, ValueError):
    """A referee setting out of range."""


@dataclass(frozen=True, slots=True)
class RefereeSettings:
    """Debouncing and game options for one referee.

    `stable_frames`: consecutive identical calm readings needed (a calm frame has no motion
    and no hand over the table).  `stable_seconds`: the same run must also span this long,
    so a fast camera does not commit a card that is still being slid into place.
    `game`: the rules settings passed to `GameState.new_table` (claim timing D6, ...).
    `first`: who plays first in the first round.  `rounds`: rounds in the match (1: one game).
    `record_frames`: with a match store, save with each committed action the JPEG of the
    frame that made the table stable (when the caller passes frames to `feed`), labelled
    with the confirmed table, so that recorded matches become labelled data for
    `companion vision evaluate`.
    """

    stable_frames: int = 3
    stable_seconds: float = 0.3
    first: str = "south"
    rounds: int = 1
    game: Any = field(default=None)
    record_frames: bool = False

    def __post_init__(self) -> None:
        if self.stable_frames < 1:
            raise RefereeSettingsError(
                f"stable_frames must be at least 1, not {self.stable_frames}")
        if self.stable_seconds < 0:
            raise RefereeSettingsError(
                f"stable_seconds must not be negative, not {self.stable_seconds}")
        if self.first not in ("north", "south"):
            raise RefereeSettingsError(f"first must be 'north' or 'south', not {self.first!r}")
        if self.rounds < 1:
            raise RefereeSettingsError(f"rounds must be at least 1, not {self.rounds}")
