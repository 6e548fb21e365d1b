"""What the screen and the LEDs show, read from the referee's state in one place.

`TableView` is a plain snapshot (no Kivy): the screens and `hw.leds` both follow it, so
a change in the referee's `RefereeState` is adapted here and nowhere else.  Nothing here
decides anything: every verdict, violation and doubt is the referee's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.cards import Card
from companion.rules.position import FLAG_COUNT, SIDES, Side


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's answer for one (flag, player) pair, kept with its rules-core object."""

    flag: int
    player: Side
    valid: bool
    reason: str
    source: Any = field(default=None, compare=False, repr=False)  # the rules' ClaimVerdict


@dataclass(frozen=True, slots=True)
class Problem:
    """An open violation or a pending doubtful read, as the screen lists it."""

    kind: str                  # "violation" or "doubt"
    message: str
    flag: int | None = None    # the flag it is at, when it is at one
    side: Side | None = None
    index: int | None = None   # the action index it concerns (violations) or the read index
    best: Card | None = None   # doubts: the pipeline's best and second guesses
    second: Card | None = None
    source: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class FlagView:
    number: int
    north: tuple[Card, ...] = ()
    south: tuple[Card, ...] = ()
    env: tuple[Card, ...] = ()
    claimed: Side | None = None
    can_claim: tuple[bool, bool] = (False, False)   # north, south

    def cards(self, side: Side) -> tuple[Card, ...]:
        return self.north if side == "north" else self.south

    def claimable(self, side: Side) -> bool:
        return self.can_claim[0] if side == "north" else self.can_claim[1]


@dataclass(frozen=True, slots=True)
class TableView:
    """One moment of the game as the players should see it."""

    flags: tuple[FlagView, ...] = tuple(FlagView(n) for n in range(1, FLAG_COUNT + 1))
    to_move: Side | None = None
    tactics: tuple[int, int] = (0, 0)          # north, south Tactics played
    offline: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    winner: Side | None = None
    scores: tuple[int, int] = (0, 0)
    round: int = 1
    problems: tuple[Problem, ...] = ()
    actions: tuple[str, ...] = ()              # committed actions, in notation, oldest first
    verdicts: tuple[Verdict, ...] = ()         # all 18 pairs when the referee gave them
    in_game: bool = True

    def flag(self, number: int) -> FlagView:
        return self.flags[number - 1]

    def verdict(self, flag: int, side: Side) -> Verdict | None:
        for v in self.verdicts:
            if v.flag == flag and v.player == side:
                return v
        return None

    def attention(self) -> frozenset[int]:
        """Flags where a violation or a doubtful read waits."""
        return frozenset(p.flag for p in self.problems if p.flag is not None)

    def tactics_of(self, side: Side) -> int:
        return self.tactics[SIDES.index(side)]


IDLE = TableView(in_game=False)
"""Between games: nothing on the table, nothing lit."""
