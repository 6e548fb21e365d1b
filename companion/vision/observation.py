"""What one overhead frame shows: contract 2 (`battleline-observation/1`).

Vision produces an `Observation`; the referee consumes a stream of them.  It knows nothing of
turns or legality.  Card lists are in placement order, nearest the flag first, and may hold
environment cards (`FOG`, `MUD`) among a side's cards, as the contract's example does.

Extensions to the contract (extra keys, never changed ones):
- each doubtful entry also carries `index`, the position of the read in its list;
- `obstructed`: flags whose zones were partly hidden (a hand over the table);
- `glare`: flags whose card zones lie partly under a glare spot (`vision.glare`): the camera
  may miss or misread cards there;
- `cast`: whether the light lies so far from the camera's white balance that the frame cannot
  show the cards' colours (`vision.glare.strong_cast`): every Troop read is then a doubt;
- `motion`: whether the frame was judged to be moving (set by the capture loop).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.rules.cards import BY_CODE, Card
from companion.rules.errors import CompanionError, NotationError
from companion.rules.place import Place
from companion.rules.position import FLAG_COUNT, SIDES, Side

FORMAT = "battleline-observation/1"
TileState = Literal["line", "north", "south", "missing"]
TILE_STATES = ("line", "north", "south", "missing")


class ObservationError(CompanionError, ValueError):
    """A malformed observation document."""


@dataclass(frozen=True, slots=True)
class FlagObservation:
    flag: int
    tile: TileState = "line"
    north: tuple[Card, ...] = ()
    south: tuple[Card, ...] = ()

    def side(self, side: Side) -> tuple[Card, ...]:
        return self.north if side == "north" else self.south


@dataclass(frozen=True, slots=True)
class Doubt:
    """A read the pipeline is not sure of: where, the best and second guesses, a score."""

    where: Place          # prints as contract 2's text: "flag 4 south", "offline north"
    best: Card
    second: Card | None
    score: float          # margin-like confidence in [0, 1]; lower is less sure
    index: int = 0        # position of the read in its list (placement order)
    # Why the reader doubts it (`pipeline.DOUBT_REASONS`); not part of the contract's JSON.
    why: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Observation:
    flags: tuple[FlagObservation, ...] = field(
        default_factory=lambda: tuple(FlagObservation(n) for n in range(1, FLAG_COUNT + 1)))
    offline_north: tuple[Card, ...] = ()
    offline_south: tuple[Card, ...] = ()
    doubtful: tuple[Doubt, ...] = ()
    obstructed: tuple[int, ...] = ()
    motion: bool = False
    glare: tuple[int, ...] = ()
    cast: bool = False

    def offline(self, side: Side) -> tuple[Card, ...]:
        return self.offline_north if side == "north" else self.offline_south

    def flag(self, number: int) -> FlagObservation:
        return self.flags[number - 1]

    def cards(self) -> list[Card]:
        """Every card read, with repeats if the frame shows (or misreads) one twice."""
        out: list[Card] = []
        for f in self.flags:
            out.extend(f.north)
            out.extend(f.south)
        out.extend(self.offline_north)
        out.extend(self.offline_south)
        return out

    # -- contract 2 JSON ---------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "flags": [{"flag": f.flag, "tile": f.tile,
                       "north": [c.code for c in f.north], "south": [c.code for c in f.south]}
                      for f in self.flags],
            "offline": {"north": [c.code for c in self.offline_north],
                        "south": [c.code for c in self.offline_south]},
            "doubtful": [{"where": str(d.where), "best": d.best.code,
                          "second": d.second.code if d.second else None,
                          "score": round(d.score, 3), "index": d.index} for d in self.doubtful],
            "obstructed": list(self.obstructed),
            "motion": self.motion,
            "glare": list(self.glare),
            "cast": self.cast,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def from_json(cls, obj: Any) -> Observation:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise ObservationError(f"not a {FORMAT} document")
        flags_obj = obj.get("flags")
        if not isinstance(flags_obj, list) or len(flags_obj) != FLAG_COUNT:
            raise ObservationError("an observation needs exactly 9 flags")
        flags = []
        for n, f in enumerate(flags_obj, start=1):
            if not isinstance(f, dict) or f.get("flag", n) != n:
                raise ObservationError(f"flag entry {n} is malformed")
            tile = f.get("tile", "line")
            if tile not in TILE_STATES:
                raise ObservationError(f"flag {n}: unknown tile state {tile!r}")
            flags.append(FlagObservation(n, tile, _cards(f.get("north", [])),
                                         _cards(f.get("south", []))))
        offline = obj.get("offline", {})
        if not isinstance(offline, dict):
            raise ObservationError("'offline' must be an object with 'north' and 'south'")
        doubts = []
        for d in obj.get("doubtful", []):
            try:
                doubts.append(Doubt(Place.parse(d["where"]), _card(d["best"]),
                                    _card(d["second"]) if d.get("second") else None,
                                    float(d["score"]), int(d.get("index", 0))))
            except (KeyError, TypeError, ValueError, NotationError) as exc:
                raise ObservationError(f"malformed doubtful entry {d!r}: {exc}") from None
        return cls(tuple(flags), _cards(offline.get("north", [])), _cards(offline.get("south", [])),
                   tuple(doubts), _flag_numbers(obj, "obstructed"), bool(obj.get("motion", False)),
                   _flag_numbers(obj, "glare"), _boolean(obj, "cast"))

    @classmethod
    def loads(cls, text: str) -> Observation:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise ObservationError(f"not valid JSON: {exc}") from None


def _card(code: object) -> Card:
    card = BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        raise ObservationError(f"{code!r} is not a card code")
    return card


def _cards(items: object) -> tuple[Card, ...]:
    if not isinstance(items, list):
        raise ObservationError("card lists must be JSON lists of card codes")
    return tuple(_card(c) for c in items)


def _flag_numbers(obj: dict[str, Any], key: str) -> tuple[int, ...]:
    """The flag numbers under `key` (absent: none)."""
    items = obj.get(key, [])
    if not isinstance(items, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= FLAG_COUNT
            for n in items):
        raise ObservationError(f"{key!r} must be a list of flag numbers 1-{FLAG_COUNT}")
    return tuple(items)


def _boolean(obj: dict[str, Any], key: str) -> bool:
    """The true or false under `key` (absent: false)."""
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise ObservationError(f"{key!r} must be true or false")
    return value


__all__ = ["FORMAT", "SIDES", "Doubt", "FlagObservation", "Observation", "ObservationError",
           "TileState"]
