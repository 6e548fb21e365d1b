"""Bots: seeded games that are legal from start to end and always finish."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.rules.actions import Claim, Play, guile_card
from companion.rules.bots import HeuristicBot, PlayedGame, RandomBot, play_game, simulate
from companion.rules.errors import IllegalActionError
from companion.rules.state import GameState, Settings, StateError

SEEDS = range(24)


@pytest.fixture(scope="module")
def games() -> list[PlayedGame]:
    return [simulate(seed, first="south" if seed % 2 else "north",
                     settings=Settings("advanced" if seed % 3 == 0 else "standard"))
            for seed in SEEDS]


def test_every_game_ends_with_a_winner_and_replays_legally(games: list[PlayedGame]) -> None:
    for game in games:
        final = game.final
        assert final.over and final.outcome is not None
        # Heuristic bots always claim what they can, so their games end by a win.
        assert final.winner is not None, game.seed
        held = final.claimed_flags(final.winner)
        assert len(held) >= 3
        # Every action was legal when taken: replaying rebuilds the same end.
        states = game.states()
        assert states[-1] == final
        if game.seed < 6:  # listing every legal action is the slow part: a few games do
            for before, action in zip(states, game.actions):
                assert action in before.legal_actions()


def test_bots_use_every_tactics_card(games: list[PlayedGame]) -> None:
    used: Counter[str] = Counter()
    for game in games:
        for action in game.actions:
            card = guile_card(action)
            if card is None and isinstance(action, Play) and action.card.is_tactic:
                card = action.card
            if card is not None:
                used[card.code] += 1
    assert set(used) == {"ALEXANDER", "DARIUS", "CAVALRY", "SHIELD", "FOG", "MUD",
                         "SCOUT", "REDEPLOY", "DESERTER", "TRAITOR"}


def test_claims_are_taken_as_soon_as_the_prover_allows(games: list[PlayedGame]) -> None:
    game = games[1]
    for state, action in zip(game.states(), game.actions):
        if any(isinstance(a, Claim) for a in state.legal_actions()):
            assert isinstance(action, Claim)


def test_play_game_is_seeded() -> None:
    actions = play_game(4)
    assert actions == play_game(4)
    assert actions != play_game(5)
    state = GameState.new_full(4)
    for action in actions:
        state = state.apply(action)
    assert state.over


def test_random_bots_terminate_too() -> None:
    for seed in range(8):
        game = simulate(seed, north=RandomBot(seed), south=RandomBot(seed + 100))
        assert game.final.over
        if game.final.winner is None:
            assert game.final.outcome is not None
            assert game.final.outcome.termination == "exhausted"


def test_bot_refuses_a_finished_game(games: list[PlayedGame]) -> None:
    with pytest.raises(StateError, match="over"):
        HeuristicBot(0).choose(games[0].final)
    with pytest.raises(IllegalActionError):
        games[0].final.apply(games[0].actions[-1])
