"""Every action of a Battle Line turn as a small immutable value whose text is its notation.

`str(action)` gives the notation of `companion.rules.notation` (`S R8@3`, `N REDEPLOY B3@2>x`)
and `parse_action(text)` reads it back.  An action only says what a player does; whether the
rules allow it is decided by `GameState.apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import BY_CODE, Card
from .errors import NotationError
from .position import FLAG_COUNT, Side

Deck = Literal["troop", "tactics"]
DECKS: tuple[Deck, Deck] = ("troop", "tactics")

SCOUT = BY_CODE["SCOUT"]
REDEPLOY = BY_CODE["REDEPLOY"]
DESERTER = BY_CODE["DESERTER"]
TRAITOR = BY_CODE["TRAITOR"]


def side_letter(side: Side) -> str:
    return "N" if side == "north" else "S"


def _check_player(player: object) -> None:
    if player not in ("north", "south"):
        raise NotationError(f"{player!r} is not a player: use 'north' or 'south'")


def _check_flag(flag: object, what: str = "flag") -> None:
    # bool is an int subclass; True is not flag 1.
    if not isinstance(flag, int) or isinstance(flag, bool) or not 1 <= flag <= FLAG_COUNT:
        raise NotationError(f"there is no {what} {flag!r}: flags are numbered 1 to 9")


def _check_card(card: object) -> None:
    if not isinstance(card, Card):
        raise NotationError(f"{card!r} is not a card")


def _check_deck(deck: object) -> None:
    if deck not in DECKS:
        raise NotationError(f"{deck!r} is not a deck: use 'troop' or 'tactics'")


@dataclass(frozen=True, slots=True)
class Play:
    """Lay a Troop, morale or environment (Fog, Mud) card at a flag."""

    player: Side
    card: Card
    flag: int

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_card(self.card)
        _check_flag(self.flag)

    def __str__(self) -> str:
        return f"{side_letter(self.player)} {self.card}@{self.flag}"


@dataclass(frozen=True, slots=True)
class Scout:
    """Play Scout: draw from the decks in this order, then put `returns` back (last on top).

    In a table-only state `draws` and `returns` are unseen and stay empty.
    """

    player: Side
    draws: tuple[Deck, ...] = ()
    returns: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        _check_player(self.player)
        if not isinstance(self.draws, tuple) or not isinstance(self.returns, tuple):
            raise NotationError("Scout draws and returns must be tuples")
        for deck in self.draws:
            _check_deck(deck)
        for card in self.returns:
            _check_card(card)

    def __str__(self) -> str:
        text = f"{side_letter(self.player)} SCOUT"
        if self.draws or self.returns:
            text += " " + ",".join(self.draws) + ">" + ",".join(str(c) for c in self.returns)
        return text


@dataclass(frozen=True, slots=True)
class Redeploy:
    """Play Redeploy: move one's own card to another flag, or discard it (`to_flag` None)."""

    player: Side
    card: Card
    from_flag: int
    to_flag: int | None

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_card(self.card)
        _check_flag(self.from_flag)
        if self.to_flag is not None:
            _check_flag(self.to_flag)

    def __str__(self) -> str:
        to = "x" if self.to_flag is None else str(self.to_flag)
        return f"{side_letter(self.player)} REDEPLOY {self.card}@{self.from_flag}>{to}"


@dataclass(frozen=True, slots=True)
class Deserter:
    """Play Deserter: discard one of the opponent's cards from a flag."""

    player: Side
    card: Card
    flag: int

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_card(self.card)
        _check_flag(self.flag)

    def __str__(self) -> str:
        return f"{side_letter(self.player)} DESERTER {self.card}@{self.flag}"


@dataclass(frozen=True, slots=True)
class Traitor:
    """Play Traitor: take an opponent's Troop card and lay it on one's own side of a flag."""

    player: Side
    card: Card
    from_flag: int
    to_flag: int

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_card(self.card)
        _check_flag(self.from_flag)
        _check_flag(self.to_flag)

    def __str__(self) -> str:
        return f"{side_letter(self.player)} TRAITOR {self.card}@{self.from_flag}>{self.to_flag}"


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim a flag; the prover decides (RULES.md "Claiming a flag")."""

    player: Side
    flag: int

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_flag(self.flag)

    def __str__(self) -> str:
        return f"{side_letter(self.player)} CLAIM {self.flag}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Play no card this turn (allowed only without a Troop to play; D13)."""

    player: Side

    def __post_init__(self) -> None:
        _check_player(self.player)

    def __str__(self) -> str:
        return f"{side_letter(self.player)} PASS"


@dataclass(frozen=True, slots=True)
class Draw:
    """End the turn by drawing from a deck, or without drawing (`deck` None)."""

    player: Side
    deck: Deck | None = None

    def __post_init__(self) -> None:
        _check_player(self.player)
        if self.deck is not None:
            _check_deck(self.deck)

    def __str__(self) -> str:
        text = f"{side_letter(self.player)} DRAW"
        return text if self.deck is None else f"{text} {self.deck}"


Action = Play | Scout | Redeploy | Deserter | Traitor | Claim | Pass | Draw
"""Any action; the union is closed (a `match` on it is exhaustive)."""

GUILE_ACTIONS = (Scout, Redeploy, Deserter, Traitor)


def guile_card(action: Action) -> Card | None:
    """The guile card an action plays (D5: the guile card and its effect are one action)."""
    if isinstance(action, Scout):
        return SCOUT
    if isinstance(action, Redeploy):
        return REDEPLOY
    if isinstance(action, Deserter):
        return DESERTER
    if isinstance(action, Traitor):
        return TRAITOR
    return None


def describe(action: Action) -> str:
    """The action in words, naming the card and the flags (`south playing R8 at flag 3`)."""
    p = action.player
    match action:
        case Play():
            return f"{p} playing {action.card} at flag {action.flag}"
        case Scout():
            return f"{p} playing SCOUT"
        case Redeploy():
            to = "the discards" if action.to_flag is None else f"flag {action.to_flag}"
            return f"{p} redeploying {action.card} from flag {action.from_flag} to {to}"
        case Deserter():
            return f"{p} deserting {action.card} from flag {action.flag}"
        case Traitor():
            return (f"{p} turning traitor {action.card} from flag {action.from_flag} "
                    f"to flag {action.to_flag}")
        case Claim():
            return f"{p} claiming flag {action.flag}"
        case Pass():
            return f"{p} passing"
        case Draw():
            if action.deck is None:
                return f"{p} ending the turn without a draw"
            return f"{p} drawing from the {action.deck} deck"


def parse_action(text: str) -> Action:
    """The action written as `text` in the notation of `companion.rules.notation`."""
    # notation imports this module; importing it here keeps the two free of a cycle.
    from .notation import parse_action as parse
    return parse(text)
