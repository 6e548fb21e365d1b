"""Match scoring: winner 5, loser one point per flag held, the winner opens the next round."""

from __future__ import annotations

import pytest

from companion.rules.bots import simulate
from companion.rules.match import Match, MatchError, RoundResult
from companion.rules.state import FlagState, GameState, Outcome, Settings


def finished(winner: str | None, north_flags: tuple[int, ...], south_flags: tuple[int, ...],
             first: str = "south") -> GameState:
    flags = tuple(FlagState(claimed="north" if n in north_flags else
                            "south" if n in south_flags else None) for n in range(1, 10))
    termination = "exhausted" if winner is None else "breakthrough"
    return GameState(full=False, first=first, flags=flags,  # type: ignore[arg-type]
                     outcome=Outcome(termination, winner), phase="over")  # type: ignore[arg-type]


def test_scores_winner_five_loser_one_per_flag() -> None:
    match = Match(rounds_planned=3)
    match = match.record(finished("south", (1, 9), (4, 5, 6)))
    assert match.scores() == {"north": 2, "south": 5}
    assert match.next_first() == "south"
    match = match.record(finished("north", (1, 3, 5, 7, 9), (2,), first="south"))
    assert match.scores() == {"north": 7, "south": 6}
    assert match.next_first() == "north" and match.leader() == "north"
    assert not match.over
    match = match.record(finished("south", (), (1, 2, 3), first="north"))
    assert match.scores() == {"north": 7, "south": 11} and match.over
    with pytest.raises(MatchError, match="3 rounds"):
        match.new_round(1)


def test_exhausted_round_and_the_next_opener() -> None:
    match = Match(first="north").record(finished(None, (1, 2), (5,), first="north"))
    assert match.scores() == {"north": 2, "south": 1}
    assert match.next_first() == "south"
    assert match.new_table_round().to_move == "south"


def test_refuses_unfinished_or_misordered_rounds() -> None:
    with pytest.raises(MatchError, match="not over"):
        Match().record(GameState.new_table())
    with pytest.raises(MatchError, match="should have played first"):
        Match(first="south").record(finished("north", (1, 2, 3), (), first="north"))
    with pytest.raises(MatchError, match="'west'"):
        Match(first="west")  # type: ignore[arg-type]


def test_a_match_of_bot_rounds() -> None:
    match = Match(settings=Settings(), rounds_planned=2)
    for seed in (1, 2):
        start = match.new_round(seed)
        game = simulate(seed, first=start.to_move)
        assert game.start == start
        match = match.record(game.final)
    assert match.over and len(match.rounds) == 2
    result = match.rounds[0]
    assert result == RoundResult.of(simulate(1, first="south").final)
    assert sum(match.scores().values()) >= 5 * 2
