"""Contract 1 positions: JSON both ways and every impossible position refused by name."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.rules.cards import BY_CODE
from companion.rules.errors import PositionError
from companion.rules.position import FlagPosition, Position, describe, other

C = BY_CODE
EXAMPLE = {
    "format": "battleline-position/1",
    "flags": [{"north": ["R8", "R9", "ALEXANDER"], "south": ["B3"], "env": ["FOG"],
               "claimed": None, "completed_first": None}]
    + [{"north": [], "south": [], "env": [], "claimed": None, "completed_first": None}] * 8,
    "discards": ["Y5"],
}


def test_json_round_trip_of_the_contract_example() -> None:
    position = Position.from_json(EXAMPLE)
    assert position.flag(1).north == (C["R8"], C["R9"], C["ALEXANDER"])
    assert position.flag(1).fog and not position.flag(1).mud and position.flag(1).size == 3
    assert position.to_json() == EXAMPLE
    assert Position.loads(position.dumps()) == position
    assert C["Y5"] in position.face_up() and C["B3"] in position.face_up()
    assert other("north") == "south"


def with_flag(flag: dict[str, object]) -> dict[str, object]:
    return {**EXAMPLE, "flags": [flag] + EXAMPLE["flags"][1:]}  # type: ignore[operator]


@pytest.mark.parametrize(("obj", "named"), [
    ([], "JSON object"),
    ({**EXAMPLE, "format": "x"}, "'x'"),
    ({**EXAMPLE, "flags": []}, "9 flags"),
    (with_flag({"north": ["R8", "R8"]}), "R8 is both"),
    (with_flag({"north": ["R1", "R2", "R3", "R4"]}), "4 cards"),
    (with_flag({"south": ["FOG"]}), "FOG cannot take a slot"),
    (with_flag({"env": ["R1"]}), "R1 is not Fog or Mud"),
    (with_flag({"north": ["Q1"]}), "'Q1'"),
    (with_flag({"claimed": "east"}), "'east'"),
    (with_flag({"north": ["R1"], "completed_first": "north"}), "both sides are not complete"),
    ({**EXAMPLE, "discards": ["SCOUT"]}, "guile card"),
])
def test_impossible_positions_are_refused_by_name(obj: object, named: str) -> None:
    with pytest.raises(PositionError) as info:
        Position.from_json(obj)
    assert named in str(info.value)


def test_mud_allows_four_and_bad_json_text() -> None:
    flag = FlagPosition(north=(C["R1"], C["R2"], C["R3"], C["R4"]), env=(C["MUD"],))
    assert flag.complete("north") and not flag.complete("south")
    Position((flag,) + tuple(FlagPosition() for _ in range(8)))
    with pytest.raises(PositionError, match="not valid JSON"):
        Position.loads("{")
    with pytest.raises(PositionError, match="flag 10"):
        Position().flag(10)
    assert json.loads(Position().dumps())["discards"] == []


def _table(**flags: Any) -> dict[str, Any]:
    """A contract 1 object: `f3={"north": [...]}` sets flag 3; `discards=[...]` the discards."""
    discards = flags.pop("discards", [])
    rows: list[dict[str, Any]] = [
        {"north": [], "south": [], "env": [], "claimed": None, "completed_first": None}
        for _ in range(9)]
    for key, value in flags.items():
        rows[int(key[1:]) - 1].update(value)
    return {"format": "battleline-position/1", "flags": rows, "discards": discards}


PHALANX_10 = ["R10", "G10", "B10"]
HOST_7 = ["Y1", "O2", "P4"]


@pytest.mark.parametrize(("obj", "named"), [
    # A claimed flag whose winner's side is empty or incomplete.
    (_table(f2={"north": PHALANX_10, "claimed": "south"}), "flag 2 is claimed by south, whose side holds no card"),
    (_table(f2={"south": ["R1", "R2"], "claimed": "south"}), "whose side holds 2 cards"),
    (_table(f2={"south": ["R1", "R2", "R3"], "env": ["MUD"], "claimed": "south"}),
     "a claim needs a complete formation of 4 (Mud)"),
    # A flag claimed by the weaker side, or by the later side of a tie (D11).
    (_table(f9={"north": PHALANX_10, "south": HOST_7, "claimed": "south"}),
     "flag 9 is claimed by south, but no legal claim gives it: south's Host 1-2-4 (7) is weaker"),
    (_table(f1={"north": ["R4", "G5", "B6"], "south": ["Y4", "P5", "O6"], "claimed": "north",
                "completed_first": "south"}), "south completed first (D11)"),
    # Claimed against an incomplete side that can still beat it, with today's unseen cards.
    (_table(f5={"north": ["R1", "G5", "B9"], "south": ["Y9", "Y10"], "claimed": "north"}),
     "south can still beat north's Host 1-5-9 (15) by adding Y8"),
    # One Leader per player (D2): on one side of one flag or across flags.
    (_table(f1={"north": ["ALEXANDER", "DARIUS", "R5"]}), "north has both Leaders on the line"),
    (_table(f1={"south": ["ALEXANDER"]}, f7={"south": ["DARIUS"]}), "(flags 1 and 7)"),
    # Fog and Mud never leave their flag (D4); only Redeploy and Deserter discard.
    (_table(discards=["FOG"]), "FOG is in the discards"),
    (_table(discards=["MUD", "R1"]), "MUD is in the discards"),
    (_table(discards=["R1", "R2", "CAVALRY"]), "the discards hold 3 cards"),
    # Both players cannot have won.
    (_table(f1={"north": PHALANX_10, "south": HOST_7, "claimed": "north"},
            f2={"north": ["R9", "G9", "B9"], "south": ["Y2", "O3", "P5"], "claimed": "north"},
            f3={"north": ["R8", "G8", "B8"], "south": ["Y3", "O4", "P6"], "claimed": "north"},
            f5={"south": ["Y10", "Y9", "Y8"], "north": ["O1", "P2", "G4"], "claimed": "south"},
            f6={"south": ["O10", "O9", "O8"], "north": ["P1", "G2", "R4"], "claimed": "south"},
            f7={"south": ["P10", "P9", "P8"], "north": ["G1", "R2", "B4"], "claimed": "south"}),
     "both cannot have won"),
    # A misspelt or unknown key at any level is an error, not an empty side.
    (_table(f1={"nörth": ["R1"]}), "unknown key 'n\\xf6rth' in flag 1"),
    ({**_table(), "discard": []}, "unknown key 'discard' in the position"),
    ({**_table(), "edition": "schotten"}, "unknown edition 'schotten'"),
    ({**_table(f1={"north": ["R10"]}), "edition": "schotten-totten"},
     "R10 is not a Schotten Totten card: its Clan cards run 1 to 9"),
    ({**_table(f1={"north": ["SPY"]})}, "SPY is not a Battle Line card"),
    # Card twice and a fourth card without Mud stay refused (validate).
    (_table(f1={"north": ["R8"]}, discards=["R8"]), "R8 is both"),
    (_table(f4={"south": ["R1", "R2", "R3", "R4"]}), "at most 3 fit without Mud"),
])
def test_tables_no_game_reaches_are_refused(obj: dict[str, object], named: str) -> None:
    with pytest.raises(PositionError) as info:
        Position.from_json(obj)
    message = str(info.value)
    assert named in message and "\n" not in message, message


@pytest.mark.parametrize("obj", [
    _table(f9={"north": HOST_7, "south": PHALANX_10, "claimed": "south"}),
    # A tie whose first completion is unknown: either side could have taken it.
    _table(f1={"north": ["R4", "G5", "B6"], "south": ["Y4", "P5", "O6"], "claimed": "north"}),
    # Claimed against an incomplete side: today's table proves it (D7-D9).
    _table(f5={"north": ["R10", "R9", "R8"], "south": ["Y1"], "claimed": "north"}),
    _table(f1={"south": ["ALEXANDER"]}, f7={"north": ["DARIUS"]}, discards=["CAVALRY", "R1"]),
    _table(f3={"north": ["R1", "R2", "R3", "R4"], "env": ["MUD", "FOG"]}),
    {**_table(), "edition": "battle-line"},
    # Breakthrough for north, south holds two flags: a game can end so.
    _table(f1={"north": PHALANX_10, "south": HOST_7, "claimed": "north"},
           f2={"north": ["R9", "G9", "B9"], "south": ["Y2", "O3", "P5"], "claimed": "north"},
           f3={"north": ["R8", "G8", "B8"], "south": ["Y3", "O4", "P6"], "claimed": "north"},
           f5={"south": ["Y10", "Y9", "Y8"], "north": ["O1", "P2", "G4"], "claimed": "south"},
           f7={"south": ["P10", "P9", "P8"], "north": ["G1", "R2", "B4"], "claimed": "south"}),
])
def test_tables_a_game_reaches_are_accepted(obj: dict[str, object]) -> None:
    Position.from_json(obj)


def test_a_study_of_a_rule_may_skip_the_reachability_checks() -> None:
    study = _table(f1={"north": ["R1", "R2", "R3"], "south": ["G1"]},
                   discards=["R4", "R5", "R6"])
    with pytest.raises(PositionError, match="the discards hold 3 cards"):
        Position.from_json(study)
    assert len(Position.from_json(study, reachable=False).discards) == 3


@pytest.mark.parametrize("value, named", [
    ("x" * 1000, "'xxxxxxxx"), ("\ud800", "'\\ud800'"), (10 ** 4000, "a very large integer"),
    ([[[[]]]], "a list"), ({"a": 1}, "an object"), (None, "null"), (True, "true"), (2.5, "2.5"),
])
def test_bad_values_are_named_briefly_and_safely(value: object, named: str) -> None:
    """Error messages quote hostile input in one short ASCII line (describe)."""
    text = describe(value)
    assert named in text and len(text) < 60 and text.isascii()


def test_hostile_json_text_is_one_error() -> None:
    for text, named in (("[" * 100_000 + "]" * 100_000, "nested too deep"),
                        ('{"format": ' + "9" * 5000 + "}", "4300 digits"),
                        ("{", "not valid JSON")):
        with pytest.raises(PositionError, match=named) as info:
            Position.loads(text)
        assert "\n" not in str(info.value) and "sys." not in str(info.value)
