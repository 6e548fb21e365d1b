"""The game state: dealing, turns, completion order (D11), game end, layout, and legality
properties driven through random legal sequences."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.actions import (
    DECKS,
    Action,
    Claim,
    Deserter,
    Draw,
    Pass,
    Play,
    Redeploy,
    Scout,
    Traitor,
)
from companion.rules.cards import ALL_CARDS, TACTICS, TROOPS, Card
from companion.rules.errors import IllegalActionError
from companion.rules.position import SIDES
from companion.rules.state import FlagState, GameState, Settings, StateError

from .helpers import C, cards, run, table


# -- dealing and turns ---------------------------------------------------------------------
def test_new_full_deals_seven_troops_each_and_keeps_every_card_once() -> None:
    state = GameState.new_full(7, first="north")
    assert len(state.hand("north")) == len(state.hand("south")) == 7
    assert all(c.is_troop for c in state.hand("north") + state.hand("south"))
    assert len(state.troop_deck) == 46 and sorted(state.tactics_deck) == sorted(TACTICS)
    assert state.to_move == "north" and state.first == "north" and state.phase == "play"
    assert GameState.new_full(7, first="north") == state  # seeded
    assert GameState.new_full(8) != state
    assert GameState.new_full(random.Random(7), first="north") == state


def test_table_state_hides_hands_and_decks() -> None:
    state = GameState.new_table(first="north")
    assert state.to_move == "north"
    with pytest.raises(StateError, match="north hand"):
        state.hand("north")
    with pytest.raises(StateError, match="troop deck"):
        state.deck("troop")
    with pytest.raises(StateError, match="full state"):
        state.legal_actions()
    with pytest.raises(StateError, match="'east'"):
        GameState.new_table(first="east")  # type: ignore[arg-type]
    with pytest.raises(StateError, match="'sometimes'"):
        Settings(claim_timing="sometimes")  # type: ignore[arg-type]


def test_table_turn_ends_on_the_opponents_action_or_an_explicit_draw() -> None:
    state = table("S R1@1")
    assert state.phase == "draw" and state.to_move == "south"
    implicit = run(state, "N B1@1")
    explicit = run(state, "S DRAW", "N B1@1")
    assert implicit == explicit
    assert implicit.turn == 2 and implicit.to_move == "north" and implicit.phase == "draw"
    assert run(state, "S DRAW troop").to_move == "north"


def test_full_turn_needs_a_draw() -> None:
    state = GameState.new_full(3)
    card = state.hand("south")[0]
    state = state.apply(Play("south", card, 1))
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play("north", state.hand("north")[0], 1))
    assert info.value.reason == "wrong-player"
    top = state.troop_deck[0]
    after = state.apply(Draw("south", "troop"))
    assert after.hand("south")[-1] == top and after.to_move == "north"


# -- completion order (D11) -----------------------------------------------------------------
def first(state: GameState, flag: int) -> str | None:
    return state.position().flag(flag).completed_first


def test_completion_order_plain() -> None:
    state = table("S R1@1", "N B1@1", "S R2@1", "N B2@1", "S R3@1")
    assert first(state, 1) is None  # north is not complete yet
    state = run(state, "N B3@1")
    assert first(state, 1) == "south"
    assert state.flag(1).south_complete_at == 5 and state.flag(1).north_complete_at == 6


def completed_both_south_first() -> GameState:
    state = table("S R1@1", "N B1@1", "S R2@1", "N B2@1", "S R3@1", "N B3@1")
    assert first(state, 1) == "south"
    return state


def test_completion_order_through_redeploy() -> None:
    state = run(completed_both_south_first(), "S FOG@9", "N SCOUT")
    state = run(state, "S REDEPLOY R3@1>4")
    assert first(state, 1) is None and state.flag(1).south_complete_at is None
    state = run(state, "N B9@9", "S R4@1")
    assert first(state, 1) == "north"
    # A moved card completes its new side at the turn it arrives.
    assert state.flag(4).south_complete_at is None


def test_completion_order_through_deserter() -> None:
    state = run(completed_both_south_first(), "S SCOUT", "N DESERTER R2@1")
    assert first(state, 1) is None
    state = run(state, "S R4@1")
    assert first(state, 1) == "north"
    assert state.offline("south") == cards("SCOUT", "R2")


def test_completion_order_through_traitor() -> None:
    state = run(completed_both_south_first(), "S SCOUT", "N B4@5", "S R5@5", "N B5@5")
    state = run(state, "S R6@5", "N TRAITOR R6@5>5")
    assert state.layout(5, "north") == cards("B4", "B5", "R6")
    assert state.flag(5).north_complete_at == state.turn and first(state, 5) is None
    state = run(state, "S G1@5")
    assert first(state, 5) is None
    state = run(state, "N G2@2", "S G3@5")
    assert first(state, 5) == "north"
    state = run(completed_both_south_first(), "S SCOUT", "N TRAITOR R1@1>3")
    assert state.flag(1).south_complete_at is None and first(state, 1) is None
    state = run(state, "S G5@1")
    assert first(state, 1) == "north"


def test_completion_order_through_mud() -> None:
    state = run(completed_both_south_first(), "S MUD@1")
    assert first(state, 1) is None
    state = run(state, "N B4@1", "S R4@1")
    assert first(state, 1) == "north"


# -- game end -------------------------------------------------------------------------------
def claim_ready(held: tuple[int, ...], flag: int) -> GameState:
    """South holds `held`; at `flag` south has Wedge 8-9-10 (nobody can beat it, D9)."""
    flags = []
    for n in range(1, 10):
        if n in held:
            flags.append(FlagState(claimed="south"))
        elif n == flag:
            flags.append(FlagState(south=cards("R8", "R9", "R10"), south_complete_at=1))
        else:
            flags.append(FlagState())
    return GameState(full=False, phase="draw", flags=tuple(flags), turn=9)


def test_breakthrough() -> None:
    state = claim_ready((4, 5), 6).apply(Claim("south", 6))
    assert state.outcome is not None
    assert state.outcome.termination == "breakthrough" and state.winner == "south"
    assert state.phase == "over" and state.over
    not_yet = claim_ready((1, 5), 3).apply(Claim("south", 3))
    assert not_yet.outcome is None and not_yet.claimed_flags("south") == (1, 3, 5)


def test_envelopment() -> None:
    state = claim_ready((1, 3, 5, 7), 9).apply(Claim("south", 9))
    assert state.outcome is not None
    assert state.outcome.termination == "envelopment" and state.winner == "south"


def test_exhausted_after_two_passes_in_a_full_state() -> None:
    state = GameState(full=True, hand_south=cards("SCOUT"), hand_north=cards("TRAITOR"))
    state = run(state, "S PASS", "S DRAW", "N PASS")
    assert state.outcome is None
    state = run(state, "N DRAW")
    assert state.outcome is not None and state.outcome.termination == "exhausted"
    assert state.winner is None


# -- the table as the camera sees it --------------------------------------------------------
def test_layout_keeps_placement_order_with_environment_cards() -> None:
    state = table("S B3@4", "N R1@4", "S FOG@4", "N R2@4", "S B4@4")
    assert state.layout(4, "south") == cards("B3", "FOG", "B4")
    assert state.layout(4, "north") == cards("R1", "R2")
    assert state.position().flag(4).south == cards("B3", "B4")


def test_offline_in_the_order_laid() -> None:
    state = table("S B3@2", "N R1@2", "S R5@4", "N DESERTER B3@2", "S REDEPLOY R5@4>x",
                  "N SCOUT")
    assert state.offline("south") == cards("B3", "REDEPLOY", "R5")
    assert state.offline("north") == cards("DESERTER", "SCOUT")
    assert state.on_table() == frozenset(cards("B3", "R1", "R5", "DESERTER", "REDEPLOY", "SCOUT"))


# -- properties ------------------------------------------------------------------------------
def check_invariants(state: GameState) -> None:
    """No card in two places, no side over its size, and (full states) all 70 cards kept."""
    places: Counter[Card] = Counter()
    for f in state.flags:
        for side in SIDES:
            places.update(f.layout(side))
            assert len(f.slots(side)) <= f.capacity
            assert len(f.slots(side)) <= 3 or f.mud  # D4: 4 cards only under Mud
    for side in SIDES:
        places.update(state.offline(side))
    if state.full:
        for side in SIDES:
            places.update(state.hand(side))
        places.update(state.troop_deck + state.tactics_deck)
        assert set(places) == set(ALL_CARDS)
    assert all(n == 1 for n in places.values()), [c for c, n in places.items() if n > 1]
    state.position()  # contract 1 validates it again
    assert state.tactics_played("north") - state.tactics_played("south") in (-1, 0, 1)


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), min_size=60,
                                                     max_size=160),
       advanced=st.booleans())
def test_random_legal_sequences_in_full_states(seed: int, picks: list[int],
                                               advanced: bool) -> None:
    state = GameState.new_full(seed, settings=Settings("advanced" if advanced else "standard"))
    for pick in picks:
        if state.over:
            break
        actions = state.legal_actions()
        assert actions, "a running game always has a legal action"
        state = state.apply(actions[pick % len(actions)])
        check_invariants(state)


def random_table_action(rng: random.Random, state: GameState) -> Action:
    player = state.to_move if rng.random() < 0.8 else SIDES[rng.randrange(2)]
    card = rng.choice(ALL_CARDS)
    a, b = rng.randint(1, 9), rng.randint(1, 9)
    kind = rng.randrange(9)
    if kind <= 3:
        return Play(player, card, a)
    choices: list[Action] = [
        Scout(player), Redeploy(player, card, a, b if rng.random() < 0.7 else None),
        Deserter(player, card, a), Traitor(player, card, a, b),
        Pass(player) if rng.random() < 0.5 else Draw(player, None)]
    return choices[kind - 4]


@settings(max_examples=40, derandomize=True, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_table_actions_keep_the_table_possible(seed: int) -> None:
    rng = random.Random(seed)
    state = GameState.new_table()
    applied = 0
    for _ in range(400):
        action = random_table_action(rng, state)
        try:
            state = state.apply(action)
        except IllegalActionError:
            continue
        applied += 1
        check_invariants(state)
    assert applied > 20


def test_full_games_replay_at_the_table() -> None:
    # The referee's table-only state accepts every action of a full game and ends equal.
    rng = random.Random(5)
    state = GameState.new_full(5)
    tab = GameState.new_table()
    while not state.over:
        action = rng.choice(state.legal_actions())
        state, tab = state.apply(action), tab.apply(action)
        assert tab.position() == state.position()
        assert all(tab.layout(n, s) == state.layout(n, s) for n in range(1, 10) for s in SIDES)
    assert state.outcome is not None
    assert tab.outcome == state.outcome or state.outcome.termination == "exhausted"


def test_troop_count_in_full_state_decks() -> None:
    state = GameState.new_full(1)
    assert sorted(state.troop_deck + state.hand("north") + state.hand("south")) == sorted(TROOPS)


def normal(action: Action) -> Action:
    """Scout's draws in the one order `legal_actions` lists (the same cards are drawn)."""
    if isinstance(action, Scout):
        return Scout(action.player, tuple(sorted(action.draws, key=("troop", "tactics").index)),
                     action.returns)
    return action


@settings(max_examples=25, derandomize=True, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 90))
def test_legal_actions_are_exactly_the_actions_apply_accepts(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = GameState.new_full(seed)
    for _ in range(steps):
        if state.over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    if state.over:
        return
    legal = set(state.legal_actions())
    me = state.to_move
    hand = state.hand(me)
    tries: list[Action] = [Pass(me), Draw(me, None), Draw(me, "troop"), Draw(me, "tactics")]
    tries += [Claim(me, n) for n in range(1, 10)]
    for _ in range(150):
        card = rng.choice(hand) if hand and rng.random() < 0.6 else rng.choice(ALL_CARDS)
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        tries += [Play(me, card, a), Redeploy(me, card, a, b), Redeploy(me, card, a, None),
                  Deserter(me, card, a), Traitor(me, card, a, b)]
    drawn = hand + state.troop_deck[:3] + state.tactics_deck[:3]
    for _ in range(20):
        draws = tuple(rng.choice(DECKS) for _ in range(3))
        tries.append(Scout(me, draws, tuple(rng.sample(drawn, min(2, len(drawn))))))
    for action in tries:
        assert state.is_legal(action) == (normal(action) in legal), action
