"""A match of several rounds: each round's result, the scores, and who plays first next.

RULES.md "End of the game and matches": the winner of a round scores 5, the loser one point
per flag they hold, and the winner plays first in the next round.  A round that ended
`exhausted` (no winner) gives each player one point per flag held, and the other player
opens the next round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .errors import CompanionError
from .position import SIDES, Side, other
from .state import GameState, Settings, Termination

WIN_POINTS = 5


class MatchError(CompanionError, ValueError):
    """A match used against its rules: a round recorded before its end, or after the last."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One finished round: how it ended, who won, who opened it, and the flags each held."""

    termination: Termination
    winner: Side | None
    first: Side
    north_flags: int
    south_flags: int

    def flags(self, side: Side) -> int:
        return self.north_flags if side == "north" else self.south_flags

    def points(self, side: Side) -> int:
        if self.winner == side:
            return WIN_POINTS
        return self.flags(side)

    @classmethod
    def of(cls, state: GameState) -> RoundResult:
        """The result of a finished round (`MatchError` while it is still being played)."""
        if state.outcome is None:
            raise MatchError(f"round at turn {state.turn} is not over: it has no result yet")
        return cls(state.outcome.termination, state.outcome.winner, state.first,
                   len(state.claimed_flags("north")), len(state.claimed_flags("south")))


@dataclass(frozen=True, slots=True)
class Match:
    """A match: its settings, who opens round 1, the rounds played, and how many are planned
    (`rounds_planned` None: as many as the players like)."""

    settings: Settings = Settings()
    first: Side = "south"
    rounds: tuple[RoundResult, ...] = ()
    rounds_planned: int | None = None

    def __post_init__(self) -> None:
        if self.first not in SIDES:
            raise MatchError(f"{self.first!r} is not a player: use 'north' or 'south'")
        if self.rounds_planned is not None and self.rounds_planned < 1:
            raise MatchError(f"a match has at least one round, not {self.rounds_planned}")

    @property
    def over(self) -> bool:
        return self.rounds_planned is not None and len(self.rounds) >= self.rounds_planned

    def score(self, side: Side) -> int:
        return sum(r.points(side) for r in self.rounds)

    def scores(self) -> dict[Side, int]:
        return {side: self.score(side) for side in SIDES}

    def leader(self) -> Side | None:
        """The player ahead on points, None when level."""
        north, south = self.score("north"), self.score("south")
        return None if north == south else ("north" if north > south else "south")

    def next_first(self) -> Side:
        """Who opens the next round: the last winner (the other player after an exhausted round)."""
        if not self.rounds:
            return self.first
        last = self.rounds[-1]
        return last.winner if last.winner is not None else other(last.first)

    def new_round(self, rng_or_seed: random.Random | int | None = None) -> GameState:
        """A full state for the next round, dealt from `rng_or_seed`."""
        self._check_open()
        return GameState.new_full(rng_or_seed, first=self.next_first(), settings=self.settings)

    def new_table_round(self) -> GameState:
        """A table-only state for the next round (the physical referee)."""
        self._check_open()
        return GameState.new_table(first=self.next_first(), settings=self.settings)

    def record(self, final: GameState) -> Match:
        """This match with one more finished round."""
        self._check_open()
        result = RoundResult.of(final)
        if result.first != self.next_first():
            raise MatchError(f"round {len(self.rounds) + 1} was opened by {result.first}, but "
                             f"{self.next_first()} should have played first")
        return replace(self, rounds=self.rounds + (result,))

    def _check_open(self) -> None:
        if self.over:
            raise MatchError(f"the match is over: all {self.rounds_planned} rounds are played")
