"""What the table shows at one moment: contract 1 (`battleline-position/1`).

A `Position` is the part of a game the prover needs: the cards at each flag, the environment
cards, claimed flags, which side completed first (D11) and the face-up discards.  It parses
from and prints to the JSON of DESIGN.md contract 1, and refuses impossible positions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import BY_CODE, Card
from .errors import PositionError

Side = Literal["north", "south"]
SIDES: tuple[Side, Side] = ("north", "south")
FORMAT = "battleline-position/1"
FLAG_COUNT = 9

FOG = BY_CODE["FOG"]
MUD = BY_CODE["MUD"]


def other(side: Side) -> Side:
    """The opponent of `side`."""
    return "south" if side == "north" else "north"


def parse_side(text: object) -> Side:
    if text == "north" or text == "south":
        return text
    raise PositionError(f"{text!r} is not a player: use 'north' or 'south'")


@dataclass(frozen=True, slots=True)
class FlagPosition:
    """One flag: each side's cards in placement order, environment cards, claim state."""

    north: tuple[Card, ...] = ()
    south: tuple[Card, ...] = ()
    env: tuple[Card, ...] = ()
    claimed: Side | None = None
    completed_first: Side | None = None

    def side(self, side: Side) -> tuple[Card, ...]:
        return self.north if side == "north" else self.south

    @property
    def fog(self) -> bool:
        return FOG in self.env

    @property
    def mud(self) -> bool:
        return MUD in self.env

    @property
    def size(self) -> int:
        """Cards each side needs for a complete formation: 3, or 4 under Mud."""
        return 4 if self.mud else 3

    def complete(self, side: Side) -> bool:
        return len(self.side(side)) >= self.size

    def cards(self) -> tuple[Card, ...]:
        return self.north + self.south + self.env


@dataclass(frozen=True, slots=True)
class Position:
    """Nine flags (flag 1 first) and the face-up discards."""

    flags: tuple[FlagPosition, ...] = field(
        default_factory=lambda: tuple(FlagPosition() for _ in range(FLAG_COUNT)))
    discards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        self.validate()

    def flag(self, number: int) -> FlagPosition:
        """Flag `number`, counted 1-9 from the south player's left."""
        if not 1 <= number <= FLAG_COUNT:
            raise PositionError(f"there is no flag {number}: flags are numbered 1 to 9")
        return self.flags[number - 1]

    def face_up(self) -> frozenset[Card]:
        """Every card face up on the table: at the flags, both sides, and the discards."""
        seen: set[Card] = set(self.discards)
        for f in self.flags:
            seen.update(f.cards())
        return frozenset(seen)

    def validate(self) -> None:
        if len(self.flags) != FLAG_COUNT:
            raise PositionError(f"a position has 9 flags, this one has {len(self.flags)}")
        where: dict[Card, str] = {}

        def put(card: Card, place: str) -> None:
            if card in where:
                raise PositionError(f"{card} is both {where[card]} and {place}")
            where[card] = place

        for n, f in enumerate(self.flags, start=1):
            for card in f.env:
                if card.family != "environment":
                    raise PositionError(f"{card} is not Fog or Mud but lies as environment at flag {n}")
                put(card, f"at flag {n} (environment)")
            for s in SIDES:
                cards = f.side(s)
                for card in cards:
                    if not card.occupies_slot:
                        raise PositionError(
                            f"{card} cannot take a slot on the {s} side of flag {n}: "
                            "only Troops and morale Tactics do")
                    put(card, f"on the {s} side of flag {n}")
                if len(cards) > f.size:
                    raise PositionError(
                        f"the {s} side of flag {n} holds {len(cards)} cards; "
                        f"at most {f.size} fit{' (Mud)' if f.mud else ' without Mud'}")
            if f.completed_first is not None and not (f.complete("north") and f.complete("south")):
                raise PositionError(
                    f"flag {n} says {f.completed_first} completed first but both sides are not complete")
        for card in self.discards:
            if card.family == "guile":
                raise PositionError(f"{card} is a guile card: it is not a discard")
            put(card, "in the discards")

    # -- contract 1 JSON -------------------------------------------------------------------
    @classmethod
    def from_json(cls, obj: Any) -> Position:
        """Parse the `battleline-position/1` object; every problem is a `PositionError`."""
        if not isinstance(obj, dict):
            raise PositionError("a position must be a JSON object")
        if obj.get("format") != FORMAT:
            raise PositionError(f"unknown position format {obj.get('format')!r}; expected {FORMAT!r}")
        flags_obj = obj.get("flags")
        if not isinstance(flags_obj, list) or len(flags_obj) != FLAG_COUNT:
            raise PositionError("a position needs a list of exactly 9 flags")
        flags = []
        for n, f in enumerate(flags_obj, start=1):
            if not isinstance(f, dict):
                raise PositionError(f"flag {n} must be a JSON object")
            claimed = f.get("claimed")
            first = f.get("completed_first")
            flags.append(FlagPosition(
                north=_cards(f.get("north", []), f"flag {n} north"),
                south=_cards(f.get("south", []), f"flag {n} south"),
                env=_cards(f.get("env", []), f"flag {n} env"),
                claimed=None if claimed is None else parse_side(claimed),
                completed_first=None if first is None else parse_side(first),
            ))
        return cls(tuple(flags), _cards(obj.get("discards", []), "discards"))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "flags": [
                {"north": [c.code for c in f.north], "south": [c.code for c in f.south],
                 "env": [c.code for c in f.env], "claimed": f.claimed,
                 "completed_first": f.completed_first}
                for f in self.flags
            ],
            "discards": [c.code for c in self.discards],
        }

    @classmethod
    def loads(cls, text: str) -> Position:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PositionError(f"not valid JSON: {exc}") from None
        return cls.from_json(obj)

    def dumps(self) -> str:
        return json.dumps(self.to_json())


def _cards(items: object, where: str) -> tuple[Card, ...]:
    if not isinstance(items, list):
        raise PositionError(f"{where} must be a list of card codes")
    out = []
    for item in items:
        card = BY_CODE.get(item) if isinstance(item, str) else None
        if card is None:
            raise PositionError(f"{item!r} in {where} is not a Battle Line card code")
        out.append(card)
    return tuple(out)
