"""Where cards lie on the table: one flag's side, or one player's off-line area.

A `Place` prints as the text contract 2 uses for a doubtful read's `where` (`flag 4 south`,
`offline north`) and `Place.parse` reads that text back; every part of the companion (the
camera pipeline, the referee, the messages, the screens) speaks of places with this one value.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import NotationError
from .position import FLAG_COUNT, SIDES, Side

OFFLINE = 0
"""The `flag` of an off-line area (guile cards and discards beyond either end of the line)."""


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """A flag's side (`flag` 1-9) or a side's off-line area (`flag` 0, `OFFLINE`)."""

    flag: int
    side: Side

    def __post_init__(self) -> None:
        if not isinstance(self.flag, int) or not 0 <= self.flag <= FLAG_COUNT:
            raise NotationError(f"a place's flag is 1-{FLAG_COUNT} or 0 (off the line), "
                                f"not {self.flag!r}")
        if self.side not in SIDES:
            raise NotationError(f"a place's side is north or south, not {self.side!r}")

    @property
    def offline(self) -> bool:
        return self.flag == OFFLINE

    def __str__(self) -> str:
        return f"offline {self.side}" if self.offline else f"flag {self.flag} {self.side}"

    @classmethod
    def parse(cls, text: str) -> Place:
        """The place `text` names (`flag 4 south`, `offline north`); `NotationError` else."""
        parts = text.split() if isinstance(text, str) else []
        if len(parts) == 2 and parts[0] == "offline" and parts[1] in SIDES:
            return cls(OFFLINE, parts[1])
        if len(parts) == 3 and parts[0] == "flag" and parts[2] in SIDES and \
                parts[1].isdigit() and parts[1] == str(int(parts[1])) and \
                1 <= int(parts[1]) <= FLAG_COUNT:
            return cls(int(parts[1]), parts[2])
        raise NotationError(f"not a place on the table: {text!r} "
                            "(expected 'flag N north|south' or 'offline north|south')")


__all__ = ["OFFLINE", "Place"]
