"""The compact text notation of cards, actions and positions; every value parses back to itself.

Cards are their codes: `R8`, `P10`, `ALEXANDER`, `FOG` (case ignored when reading).

Actions are a player letter (`N` north, `S` south), a space, then:

==============================  ==================================================
``S R8@3``                       play a Troop, morale or environment card at flag 3
``N FOG@5``                      (the same action for Fog and Mud)
``N SCOUT``                      Scout, draws and returns unseen (table-only state)
``S SCOUT troop,tactics,troop>R3,B5``  Scout: decks drawn from in order, cards put back
                                 in order (the last one ends on top of its deck)
``S REDEPLOY B3@2>7``            Redeploy B3 from flag 2 to flag 7
``S REDEPLOY B3@2>x``            Redeploy B3 from flag 2 to the discards
``N DESERTER Y5@4``              Deserter discards the opponent's Y5 from flag 4
``S TRAITOR G7@2>6``             Traitor takes G7 from flag 2 to the player's side of flag 6
``S CLAIM 3``                    claim flag 3
``N PASS``                       pass (no card this turn)
``S DRAW troop``                 draw from the Troop deck (``tactics``: the Tactics deck)
``S DRAW``                       end the turn without drawing
==============================  ==================================================

A position (contract 1) is one line: the nine flags, flag 1 first, separated by ``|``, then
``;`` and the discards.  A flag is ``NORTH/SOUTH`` (comma-separated codes, ``-`` for none),
then optionally ``[FOG,MUD]`` (environment cards), ``!n`` or ``!s`` (claimed by that player)
and ``<n`` or ``<s`` (that side completed first, D11).  For example::

    R8,R9,ALEXANDER/B3[FOG] | -/- | G1,G2,G3/R4,R5,R6!n<n | -/- | -/- | -/- | -/- | -/- | -/- ; Y5

A Schotten Totten position starts with its edition and a colon (``schotten-totten:``); a
position without one is Battle Line's.

Blanks around separators are optional when reading.  Every malformed text raises
`NotationError` naming the piece that could not be read.
"""

from __future__ import annotations

import re

from .actions import (
    DECKS,
    Action,
    Claim,
    Deck,
    Deserter,
    Draw,
    Pass,
    Play,
    Redeploy,
    Scout,
    Traitor,
)
from .cards import Card
from .edition import BATTLE_LINE, of_rules
from .errors import NotationError, PositionError
from .position import FLAG_COUNT, FlagPosition, Position, Side

_SIDES: dict[str, Side] = {"N": "north", "S": "south"}
_LETTER: dict[Side, str] = {"north": "n", "south": "s"}

_CARD = r"[A-Za-z]+\d*"
_FLAG = r"\d+"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("scout", re.compile(r"SCOUT(?:\s+(?P<draws>[A-Za-z, ]*?)\s*>\s*(?P<returns>[A-Za-z0-9, ]*))?",
                         re.I)),
    ("redeploy", re.compile(rf"REDEPLOY\s+(?P<card>{_CARD})\s*@\s*(?P<src>{_FLAG})\s*>\s*"
                            rf"(?P<dst>{_FLAG}|x)", re.I)),
    ("deserter", re.compile(rf"DESERTER\s+(?P<card>{_CARD})\s*@\s*(?P<src>{_FLAG})", re.I)),
    ("traitor", re.compile(rf"TRAITOR\s+(?P<card>{_CARD})\s*@\s*(?P<src>{_FLAG})\s*>\s*"
                           rf"(?P<dst>{_FLAG})", re.I)),
    ("claim", re.compile(rf"CLAIM\s+(?P<src>{_FLAG})", re.I)),
    ("pass", re.compile(r"PASS", re.I)),
    ("draw", re.compile(r"DRAW(?:\s+(?P<deck>[A-Za-z]+))?", re.I)),
    ("play", re.compile(rf"(?P<card>{_CARD})\s*@\s*(?P<src>{_FLAG})", re.I)),
]


def parse_card(text: str) -> Card:
    """The card whose code is `text`."""
    return Card.parse(text)


def format_card(card: Card) -> str:
    return card.code


def _cards(text: str, what: str) -> tuple[Card, ...]:
    text = text.strip()
    if text in ("", "-"):
        return ()
    try:
        return tuple(Card.parse(part) for part in text.split(","))
    except NotationError as exc:
        raise NotationError(f"{what}: {exc}") from None


def _deck(text: str, whole: str) -> Deck:
    word = text.strip().lower()
    for deck in DECKS:
        if word == deck:
            return deck
    raise NotationError(f"{text.strip()!r} in {whole!r} is not a deck: use 'troop' or 'tactics'")


def parse_action(text: str) -> Action:
    """The action written as `text` (see the module docstring)."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not an action text")
    stripped = text.strip()
    head, _, body = stripped.partition(" ")
    player = _SIDES.get(head.upper())
    if player is None:
        raise NotationError(f"{text!r} is not an action: it must start with N or S and a space")
    body = body.strip()
    for kind, pattern in _PATTERNS:
        m = pattern.fullmatch(body)
        if m is None:
            continue
        if kind == "scout":
            if m.group("draws") is None:
                return Scout(player)
            draws = tuple(_deck(d, text) for d in m.group("draws").split(",") if d.strip())
            return Scout(player, draws, _cards(m.group("returns"), f"Scout returns in {text!r}"))
        if kind == "pass":
            return Pass(player)
        if kind == "draw":
            deck = m.group("deck")
            return Draw(player, None if deck is None else _deck(deck, text))
        src = int(m.group("src"))
        if kind == "claim":
            return Claim(player, src)
        card = _cards(m.group("card"), f"the card of {text!r}")[0]
        if kind == "play":
            return Play(player, card, src)
        if kind == "deserter":
            return Deserter(player, card, src)
        dst = m.group("dst")
        if kind == "redeploy":
            return Redeploy(player, card, src, None if dst.lower() == "x" else int(dst))
        return Traitor(player, card, src, int(dst))
    raise NotationError(f"{text!r} is not an action in the companion's notation")


def format_action(action: Action) -> str:
    return str(action)


_FLAG_RE = re.compile(r"(?P<north>[^/\[!<]*)/(?P<south>[^/\[!<]*)"
                      r"(?:\[(?P<env>[^\]]*)\])?\s*(?:!(?P<claimed>[ns]))?\s*(?:<(?P<first>[ns]))?",
                      re.I)


def format_flag(flag: FlagPosition) -> str:
    def side(cards: tuple[Card, ...]) -> str:
        return ",".join(c.code for c in cards) or "-"
    text = f"{side(flag.north)}/{side(flag.south)}"
    if flag.env:
        text += "[" + ",".join(c.code for c in flag.env) + "]"
    if flag.claimed is not None:
        text += "!" + _LETTER[flag.claimed]
    if flag.completed_first is not None:
        text += "<" + _LETTER[flag.completed_first]
    return text


def format_position(position: Position) -> str:
    """The one-line notation of a contract 1 position."""
    flags = " | ".join(format_flag(f) for f in position.flags)
    edition = "" if position.edition.rules == "battle-line" else f"{position.edition.rules}: "
    return f"{edition}{flags} ; " + (",".join(c.code for c in position.discards) or "-")


def parse_position(text: str) -> Position:
    """The position written as `text`; `NotationError` if unreadable, `PositionError` if
    readable but impossible (a card twice, four cards without Mud, ...)."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a position text")
    full = text
    edition = BATTLE_LINE
    head, colon, rest = text.partition(":")
    if colon:
        edition = of_rules(head.strip())
        text = rest
    body, sep, discards = text.partition(";")
    parts = body.split("|")
    if len(parts) != FLAG_COUNT:
        raise NotationError(f"a position has 9 flags separated by '|'; {text!r} has {len(parts)}")
    flags = []
    for n, part in enumerate(parts, start=1):
        m = _FLAG_RE.fullmatch(part.strip())
        if m is None:
            raise NotationError(f"flag {n} {part.strip()!r} is not in the form NORTH/SOUTH"
                                "[ENV]!claimed<first")
        claimed, first = m.group("claimed"), m.group("first")
        flags.append(FlagPosition(
            north=_cards(m.group("north"), f"flag {n} north"),
            south=_cards(m.group("south"), f"flag {n} south"),
            env=_cards(m.group("env") or "", f"flag {n} environment"),
            claimed=None if claimed is None else _SIDES[claimed.upper()],
            completed_first=None if first is None else _SIDES[first.upper()],
        ))
    try:
        return Position(tuple(flags), _cards(discards if sep else "", "discards"), edition)
    except PositionError as exc:
        raise PositionError(f"{exc} (in {full!r})") from None
