"""The text notation: examples from the issue, errors naming the bad text, and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
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
    parse_action,
)
from companion.rules.bots import simulate
from companion.rules.cards import ALL_CARDS, BY_CODE, TROOPS
from companion.rules.errors import NotationError, PositionError
from companion.rules.notation import format_position, parse_card, parse_position
from companion.rules.position import SIDES, FlagPosition, Position, Side

C = BY_CODE


@pytest.mark.parametrize(("text", "action"), [
    ("S R8@3", Play("south", C["R8"], 3)),
    ("N FOG@5", Play("north", C["FOG"], 5)),
    ("S REDEPLOY B3@2>7", Redeploy("south", C["B3"], 2, 7)),
    ("S REDEPLOY B3@2>x", Redeploy("south", C["B3"], 2, None)),
    ("N DESERTER Y5@4", Deserter("north", C["Y5"], 4)),
    ("S TRAITOR G7@2>6", Traitor("south", C["G7"], 2, 6)),
    ("N SCOUT", Scout("north")),
    ("S SCOUT troop,tactics,troop>R3,B5",
     Scout("south", ("troop", "tactics", "troop"), (C["R3"], C["B5"]))),
    ("S CLAIM 3", Claim("south", 3)),
    ("N PASS", Pass("north")),
    ("S DRAW troop", Draw("south", "troop")),
    ("N DRAW tactics", Draw("north", "tactics")),
    ("S DRAW", Draw("south", None)),
])
def test_examples(text: str, action: Action) -> None:
    assert parse_action(text) == action
    assert str(action) == text


def test_reading_is_lenient_on_case_and_blanks() -> None:
    assert parse_action("  s r8 @ 3 ") == Play("south", C["R8"], 3)
    assert parse_action("n redeploy b3@2 > X") == Redeploy("north", C["B3"], 2, None)


@pytest.mark.parametrize(("text", "named"), [
    ("E R8@3", "'E R8@3'"),
    ("S", "'S'"),
    ("S Q8@3", "Q8"),
    ("S R8@10", "flag 10"),
    ("S R8@0", "flag 0"),
    ("S CLAIM", "'S CLAIM'"),
    ("S DRAW hand", "'hand'"),
    ("S SCOUT troop,bag>R1", "'bag'"),
    ("S TRAITOR G7@2>x", "'S TRAITOR G7@2>x'"),
    ("", "''"),
])
def test_bad_action_text_names_the_bad_piece(text: str, named: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert named in str(info.value)


def test_position_example_and_errors() -> None:
    text = ("R8,R9,ALEXANDER/B3[FOG] | -/- | G1,G2,G3/R4,R5,R6!n<n | -/- | -/- | -/- | -/- "
            "| -/- | -/- ; Y5")
    position = parse_position(text)
    assert position.flag(1) == FlagPosition(north=(C["R8"], C["R9"], C["ALEXANDER"]),
                                            south=(C["B3"],), env=(C["FOG"],))
    assert position.flag(3).claimed == "north" and position.flag(3).completed_first == "north"
    assert position.discards == (C["Y5"],)
    assert format_position(position) == text
    assert parse_position(" | ".join(["-/-"] * 9)) == Position()
    with pytest.raises(NotationError, match="9 flags"):
        parse_position("-/- | -/-")
    with pytest.raises(NotationError, match="flag 2"):
        parse_position(" | ".join(["-/-", "R1"] + ["-/-"] * 7))
    with pytest.raises(NotationError, match="ZZ"):
        parse_position(" | ".join(["R1,ZZ/-"] + ["-/-"] * 8))
    with pytest.raises(PositionError, match="R1 is both"):
        parse_position(" | ".join(["R1/R1"] + ["-/-"] * 8))


# -- round trips ---------------------------------------------------------------------------
sides: st.SearchStrategy[Side] = st.sampled_from(SIDES)
flag_numbers = st.integers(1, 9)
any_card = st.sampled_from(ALL_CARDS)
actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Play, sides, any_card, flag_numbers),
    st.builds(Scout, sides, st.lists(st.sampled_from(DECKS), max_size=3).map(tuple),
              st.lists(any_card, max_size=2).map(tuple)),
    st.builds(Redeploy, sides, any_card, flag_numbers, st.none() | flag_numbers),
    st.builds(Deserter, sides, any_card, flag_numbers),
    st.builds(Traitor, sides, any_card, flag_numbers, flag_numbers),
    st.builds(Claim, sides, flag_numbers),
    st.builds(Pass, sides),
    st.builds(Draw, sides, st.none() | st.sampled_from(DECKS)),
)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(action=actions)
def test_action_round_trip(action: Action) -> None:
    assert parse_action(str(action)) == action


@settings(max_examples=70, derandomize=True, deadline=None)
@given(card=any_card)
def test_card_round_trip(card: object) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Possible positions: distinct cards, sides within their size, optional claims."""
    deck = draw(st.permutations(list(TROOPS) + [C[c] for c in
                                                ("ALEXANDER", "DARIUS", "CAVALRY", "SHIELD")]))
    env_left = [C["FOG"], C["MUD"]]
    flags = []
    for _ in range(9):
        env = tuple(c for c in list(env_left) if draw(st.booleans()) and draw(st.booleans()))
        for c in env:
            env_left.remove(c)
        size = 4 if C["MUD"] in env else 3
        north = tuple(deck.pop() for _ in range(draw(st.integers(0, size))))
        south = tuple(deck.pop() for _ in range(draw(st.integers(0, size))))
        both = len(north) == size and len(south) == size
        first = draw(sides) if both else None
        claimed = draw(st.none() | sides)
        flags.append(FlagPosition(north, south, env, claimed, first))
    discards = tuple(deck.pop() for _ in range(draw(st.integers(0, 4))))
    return Position(tuple(flags), discards)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(position=positions())
def test_position_round_trip(position: Position) -> None:
    text = format_position(position)
    assert "\n" not in text
    assert parse_position(text) == position


def test_positions_and_actions_of_a_whole_game_round_trip() -> None:
    game = simulate(11)
    for action in game.actions:
        assert parse_action(str(action)) == action
    for state in game.states()[::7]:
        assert parse_position(format_position(state.position())) == state.position()


def test_schotten_totten_positions_round_trip() -> None:
    from companion.rules.state import Settings

    game = simulate(12, settings=Settings(edition="schotten-totten"))
    for state in game.states()[::5]:
        position = state.position()
        text = format_position(position)
        assert text.startswith("schotten-totten: ")
        assert parse_position(text) == position
    with pytest.raises(PositionError, match="R10 is not a Schotten Totten card"):
        parse_position("schotten-totten: R10/- |-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/- ; -")
    with pytest.raises(NotationError, match="unknown edition 'tottenham'"):
        parse_position("tottenham: -/- |-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/- ; -")
