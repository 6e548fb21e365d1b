"""Contract 1 positions: JSON both ways and every impossible position refused by name."""

from __future__ import annotations

import json

import pytest

from companion.rules.cards import BY_CODE
from companion.rules.errors import PositionError
from companion.rules.position import FlagPosition, Position, other

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
