"""What the table shows at one moment: contract 1 (`battleline-position/1`).

A `Position` is the part of a game the prover needs: the cards at each flag, the environment
cards, claimed flags, which side completed first (D11) and the face-up discards.  It parses
from and prints to the JSON of DESIGN.md contract 1, and refuses impossible positions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .cards import BY_CODE, Card
from .edition import BATTLE_LINE, Edition, of_rules
from .errors import NotationError, PositionError

Side = Literal["north", "south"]
SIDES: tuple[Side, Side] = ("north", "south")
FORMAT = "battleline-position/1"
EDITION = "battle-line"
"""The contract 1 `edition` a position has when it names none."""
FLAG_COUNT = 9

FOG = BY_CODE["FOG"]
MUD = BY_CODE["MUD"]


def other(side: Side) -> Side:
    """The opponent of `side`."""
    return "south" if side == "north" else "north"


def parse_side(text: object) -> Side:
    if text == "north" or text == "south":
        return text
    raise PositionError(f"{describe(text)} is not a player: use 'north' or 'south'")


def describe(value: object, limit: int = 40) -> str:
    """A short one-line ASCII name of a JSON value, safe for any input in an error message.

    Hostile input must not turn an error into a crash: `repr` of a list nested a thousand
    deep recurses too far, and `str` of an integer over 4,300 digits raises; a lone
    surrogate in a message cannot be written as UTF-8.  So containers are named by kind and
    strings and numbers are cut short and escaped.
    """
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else "a very large integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        text = ascii(value[:limit])
        return text if len(value) <= limit else text[:-1] + "...'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


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
    """Nine flags (flag 1 first), the face-up discards, and the edition whose deck is used.

    Schotten Totten's nine boundary stones are its flags; its Clan cards are its Troops.
    """

    flags: tuple[FlagPosition, ...] = field(
        default_factory=lambda: tuple(FlagPosition() for _ in range(FLAG_COUNT)))
    discards: tuple[Card, ...] = ()
    edition: Edition = BATTLE_LINE

    def __post_init__(self) -> None:
        self.validate()

    def flag(self, number: int) -> FlagPosition:
        """Flag `number`, counted 1-9 from the south player's left."""
        if not 1 <= number <= FLAG_COUNT:
            w = self.edition.word
            raise PositionError(f"there is no {w('flag')} {number}: {w('flags')} are numbered 1 to 9")
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
        edition = self.edition
        flag = edition.word("flag")

        def put(card: Card, place: str) -> None:
            if not edition.has(card):
                raise PositionError(f"{edition.refuse(card)} (found {place})")
            if card in where:
                raise PositionError(f"{card} is both {where[card]} and {place}")
            where[card] = place

        for n, f in enumerate(self.flags, start=1):
            for card in f.env:
                if card.family != "environment":
                    raise PositionError(f"{card} is not Fog or Mud but lies as environment at {flag} {n}")
                put(card, f"at {flag} {n} (environment)")
            for s in SIDES:
                cards = f.side(s)
                for card in cards:
                    if not card.occupies_slot:
                        raise PositionError(
                            f"{card} cannot take a slot on the {s} side of {flag} {n}: "
                            "only Troops and morale Tactics do")
                    put(card, f"on the {s} side of {flag} {n}")
                if len(cards) > f.size:
                    raise PositionError(
                        f"the {s} side of {flag} {n} holds {len(cards)} cards; "
                        f"at most {f.size} fit{' (Mud)' if f.mud else ' without Mud'}")
            if f.completed_first is not None and not (f.complete("north") and f.complete("south")):
                raise PositionError(
                    f"{flag} {n} says {f.completed_first} completed first but both sides are not complete")
        for card in self.discards:
            if card.family == "guile":
                raise PositionError(f"{card} is a guile card: it is not a discard")
            put(card, "in the discards")

    def check_reachable(self) -> None:
        """Refuse a table no legal game can reach, naming the first problem (`PositionError`).

        Only what the table itself shows is checked, never what hands or decks might hold:
        one Leader per player on the line (D2); Fog and Mud never among the discards (D4);
        at most two discards (only Redeploy and Deserter discard, one card each); a claimed
        flag whose winner's side is complete and whose claim was provable; not both players
        holding a winning set of flags (the game ends when the first one does).  `validate`
        (run on every `Position`) already refuses cards twice, overfull sides and misplaced
        cards.
        """
        for side in SIDES:
            leaders = [n for n, f in enumerate(self.flags, start=1)
                       for card in f.side(side) if card.is_leader]
            if len(leaders) > 1:
                raise PositionError(
                    f"{side} has both Leaders on the line (flags {leaders[0]} and {leaders[1]}); "
                    "a player may play only one Leader in a game (D2)")
        for card in self.discards:
            if card.family == "environment":
                raise PositionError(f"{card} is in the discards, but Fog and Mud stay at their "
                                    "flag until the end of the game (D4)")
        if len(self.discards) > 2:
            raise PositionError(
                f"the discards hold {len(self.discards)} cards; only Redeploy and Deserter "
                "discard a card, one each, so a game shows at most 2")
        self._check_claims()
        held = {s: {n for n, f in enumerate(self.flags, start=1) if f.claimed == s} for s in SIDES}
        if all(_has_won(held[s]) for s in SIDES):
            raise PositionError(
                f"north holds flags {_numbers(held['north'])} and south holds flags "
                f"{_numbers(held['south'])}: both cannot have won, the game ends at the first "
                "breakthrough or envelopment")

    def _check_claims(self) -> None:
        """Each claimed flag: the winner's side is complete and the claim could be proven.

        Nothing at a claimed flag changes after the claim, and face-up cards only ever become
        more, so the opponent's chances today are at most what they were when the claim was
        made: a claim the prover refuses today was refused then.
        """
        flag = self.edition.word("flag")
        claimed = [n for n, f in enumerate(self.flags, start=1) if f.claimed is not None]
        if not claimed:
            return
        from .prover import prove  # the prover needs this module, not the reverse

        unclaimed = Position(tuple(replace(f, claimed=None) for f in self.flags), self.discards,
                             self.edition)
        for n in claimed:
            f = self.flags[n - 1]
            winner = f.claimed
            assert winner is not None
            have = len(f.side(winner))
            if have < f.size:
                holds = "no card" if have == 0 else ("1 card" if have == 1 else f"{have} cards")
                raise PositionError(
                    f"{flag} {n} is claimed by {winner}, whose side holds {holds}; "
                    f"a claim needs a complete formation of {f.size}{' (Mud)' if f.mud else ''}")
            try:
                verdict = prove(unclaimed, n, winner)
            except PositionError:
                continue  # equal formations and completed_first unknown: either could have won
            if verdict.valid:
                continue
            mine, theirs = verdict.claimant, verdict.opponent
            assert mine is not None and theirs is not None
            loser = other(winner)
            if verdict.reason == "weaker":
                why = f"{winner}'s {mine.describe()} is weaker than {loser}'s {theirs.describe()}"
            elif verdict.reason == "tie-later":
                why = (f"the formations are equal ({mine.describe()}) and {loser} completed "
                       "first (D11)")
            else:  # can-beat
                added = " ".join(c.code for c in theirs.added)
                why = (f"{loser} can still beat {winner}'s {mine.describe()} by adding {added} "
                       f"(not on the table): {theirs.describe()}")
            raise PositionError(f"{flag} {n} is claimed by {winner}, but no legal claim gives it: {why}")

    # -- contract 1 JSON -------------------------------------------------------------------
    @classmethod
    def from_json(cls, obj: Any, *, reachable: bool = True) -> Position:
        """Parse the `battleline-position/1` object; every problem is a `PositionError`.

        Strict, as the contract's input: an unknown key at any level is an error (a misspelt
        `"nörth"` must not read as an empty side), and a table no legal game can reach is
        refused by `check_reachable`.  `reachable=False` keeps only the structural checks,
        for hand-made studies of a rule no game reaches (D10 needs more discards than a
        game can make).
        """
        if not isinstance(obj, dict):
            raise PositionError("a position must be a JSON object")
        _known_keys(obj, _POSITION_KEYS, "the position")
        if obj.get("format") != FORMAT:
            raise PositionError(f"unknown position format {describe(obj.get('format'))}; "
                                f"expected {FORMAT!r}")
        try:
            edition = of_rules(obj.get("edition", EDITION))
        except NotationError:
            raise PositionError(f"unknown edition {describe(obj.get('edition'))}: "
                                "use 'battle-line' or 'schotten-totten'") from None
        flags_obj = obj.get("flags")
        if not isinstance(flags_obj, list) or len(flags_obj) != FLAG_COUNT:
            raise PositionError("a position needs a list of exactly 9 flags")
        flags = []
        for n, f in enumerate(flags_obj, start=1):
            if not isinstance(f, dict):
                raise PositionError(f"flag {n} must be a JSON object")
            _known_keys(f, _FLAG_KEYS, f"flag {n}")
            claimed = f.get("claimed")
            first = f.get("completed_first")
            flags.append(FlagPosition(
                north=_cards(f.get("north", []), f"flag {n} north"),
                south=_cards(f.get("south", []), f"flag {n} south"),
                env=_cards(f.get("env", []), f"flag {n} env"),
                claimed=None if claimed is None else _side(claimed, f"flag {n} claimed"),
                completed_first=None if first is None else _side(first, f"flag {n} completed_first"),
            ))
        position = cls(tuple(flags), _cards(obj.get("discards", []), "discards"), edition)
        if reachable:
            position.check_reachable()
        return position

    def to_json(self) -> dict[str, Any]:
        """The contract 1 object; `edition` only when it is not Battle Line (old readers)."""
        out: dict[str, Any] = {"format": FORMAT}
        if self.edition.rules != EDITION:
            out["edition"] = self.edition.rules
        return out | {
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
        return cls.from_json(load_json(text))

    def dumps(self) -> str:
        return json.dumps(self.to_json())


def _has_won(flags: set[int]) -> bool:
    """Envelopment (any 5 flags) or breakthrough (3 adjacent flags)."""
    return len(flags) >= 5 or any({n, n + 1, n + 2} <= flags for n in range(1, FLAG_COUNT - 1))


def _numbers(flags: set[int]) -> str:
    return ", ".join(map(str, sorted(flags)))


def load_json(text: str) -> Any:
    """`json.loads`, with every way hostile text can fail as one `PositionError` line.

    Beyond malformed JSON: nesting deeper than the interpreter's stack (RecursionError) and
    integers over 4,300 digits (ValueError), which `json` does not report as decode errors.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise PositionError("not valid JSON: nested too deep") from None
    except ValueError as exc:  # the integer string conversion limit, among others
        # "Exceeds the limit (4300 digits) for integer string conversion: ...; use sys...":
        # the first clause is for the user, the advice after it is for programmers.
        raise PositionError(f"not valid JSON: {str(exc).split(';')[0].splitlines()[0]}") from None


_POSITION_KEYS = ("format", "edition", "flags", "discards")
_FLAG_KEYS = ("north", "south", "env", "claimed", "completed_first")


def _known_keys(obj: dict[Any, Any], known: tuple[str, ...], where: str) -> None:
    for key in obj:
        if key not in known:
            raise PositionError(f"unknown key {describe(key)} in {where}: "
                                f"expected {', '.join(known)}")


def _side(value: object, where: str) -> Side:
    if value == "north" or value == "south":
        return value
    raise PositionError(f"{describe(value)} in {where} is not a player: use 'north' or 'south'")


def _cards(items: object, where: str) -> tuple[Card, ...]:
    if not isinstance(items, list):
        raise PositionError(f"{where} must be a list of card codes")
    out = []
    for item in items:
        card = BY_CODE.get(item) if isinstance(item, str) else None
        if card is None:
            raise PositionError(f"{describe(item)} in {where} is not a card code")
        out.append(card)
    return tuple(out)
