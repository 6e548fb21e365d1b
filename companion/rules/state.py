"""The state of a Battle Line game as an immutable value, and every rule that moves it on.

`GameState.apply(action)` returns the next state or raises `IllegalActionError` whose
`reason` is one of these stable codes (the message names the card and the flag):

- `game-over`: the game is already won (or exhausted).
- `wrong-player`: it is the other player's turn.
- `wrong-phase`: a card is played after this turn's card, or a draw comes before it.
- `flag-claimed`: the flag is claimed; nothing is laid there or taken from there.
- `side-full`: the player's side of the flag already holds 3 cards (4 under Mud).
- `no-slot`: Redeploy or Traitor names a flag whose side has no free slot.
- `tactics-limit`: after playing, the player would have played more than one Tactics
  card more than the opponent (every family counts).
- `second-leader`: the player has already played a Leader (D2, even if it left the table).
- `not-at-flag`: the card is a guile card; it is played with its own action, not at a flag.
- `traitor-on-tactics`: Traitor names a Tactics card; it takes only Troops.
- `environment-immovable`: Redeploy, Deserter or Traitor names Fog or Mud (D4).
- `not-on-flag`: the card is not at the flag the action names.
- `not-your-card`: Redeploy names a card on the opponent's side.
- `own-card`: Deserter or Traitor names a card on the player's own side.
- `same-flag`: Redeploy would move a card to the flag it is already at.
- `not-in-hand`: (full states) the card is not in the player's hand.
- `card-on-table`: (table-only states) the card is already face up somewhere.
- `deck-empty`: a draw from an empty deck.
- `hand-full`: (full states) a draw with 7 cards in hand (after Scout, for instance).
- `must-draw`: (full states) the turn ends without a draw though a deck has cards and the
  hand is short.
- `scout-draws`: (full states) Scout draws other than 3 cards (or every card left).
- `scout-returns`: (full states) Scout puts back other than 2 distinct cards from the hand.
- `pass-not-allowed`: (full states) a pass by a player who can still play a Troop (D13).
- `claim-timing`: a claim outside the claiming moment of the match's timing (D6).
- `claim-refused`: the prover refuses the claim (`ClaimRefusedError`, with `.verdict`).
- `not-in-edition`: the card is not in the match's edition (`R10` or Companion Cavalry in
  Schotten Totten, the Spy in Battle Line).

Two kinds of state share these rules.  A *full* state knows the hands and decks (simulations,
the demo, tests) and checks draws and Scout too.  A *table-only* state knows only what the
table shows (the physical referee): hands and decks are unseen, a card already face up cannot
be played again, Scout only records its card, draws are unseen and the opponent's next action
ends the turn by itself.

Turn: phase `play` (one card, or a pass), then phase `draw` (standard timing: claims, then
one draw or, with both decks empty or a full hand, `Draw(player, None)`).  Under advanced
timing (D6) claims are made in phase `play`, before the card.  The game ends by breakthrough
(3 adjacent flags) or envelopment (any 5).  The companion also stops a full-state game as
`exhausted` when both players pass in consecutive turns without claiming anything: nothing
on the table can change unless a player changes their mind, so simulations always end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import permutations
from typing import TYPE_CHECKING, Literal

from .actions import (
    DECKS,
    DESERTER,
    REDEPLOY,
    SCOUT,
    TRAITOR,
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
    describe,
)
from .cards import NAMINGS, Card, Naming
from .edition import EDITION_KEYS, EDITIONS, Edition
from .errors import CompanionError, IllegalActionError
from .place import OFFLINE, Place
from .position import FLAG_COUNT, FOG, MUD, SIDES, FlagPosition, Position, Side, other

if TYPE_CHECKING:
    from .prover import ClaimVerdict

Phase = Literal["play", "draw", "over"]
ClaimTiming = Literal["standard", "advanced"]
Termination = Literal["breakthrough", "envelopment", "exhausted"]

HAND_SIZE = 7
"""Battle Line's hand; an edition's own is `Edition.hand_size` (Schotten Totten: 6)."""

REASONS: tuple[str, ...] = (
    "game-over", "wrong-player", "wrong-phase", "flag-claimed", "side-full", "no-slot",
    "tactics-limit", "second-leader", "not-at-flag", "traitor-on-tactics",
    "environment-immovable", "not-on-flag", "not-your-card", "own-card", "same-flag",
    "not-in-hand", "card-on-table", "deck-empty", "hand-full", "must-draw", "scout-draws",
    "scout-returns", "pass-not-allowed", "claim-timing", "claim-refused", "not-in-edition",
)
"""Every `IllegalActionError.reason` that `GameState.apply` gives (module docstring)."""
GUILE_CARDS = frozenset((SCOUT, REDEPLOY, DESERTER, TRAITOR))


class StateError(CompanionError, ValueError):
    """A state asked for what it cannot know (a hand in a table-only state) or bad settings."""


class ClaimRefusedError(IllegalActionError):
    """A claim the prover refuses; `verdict` says why and holds the proof."""

    def __init__(self, message: str, verdict: ClaimVerdict,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__("claim-refused", message, params)
        self.verdict = verdict


@dataclass(frozen=True, slots=True)
class Settings:
    """Match settings: claim timing (D6), the naming set used in messages and proofs, and
    the edition (`battle-line`, `battle-line-medieval`, `schotten-totten`) whose deck, hand
    and rules apply.  A Schotten Totten match left at the default naming speaks IELLO's
    English (`schotten-en`)."""

    claim_timing: ClaimTiming = "standard"
    naming: Naming = "gmt-en"
    edition: str = "battle-line"

    def __post_init__(self) -> None:
        if self.claim_timing not in ("standard", "advanced"):
            raise StateError(f"unknown claim timing {self.claim_timing!r}: "
                             "use 'standard' or 'advanced'")
        if self.edition not in EDITIONS:
            raise StateError(f"unknown edition {self.edition!r}: use one of "
                             f"{', '.join(EDITION_KEYS)}")
        if self.naming not in NAMINGS:
            raise StateError(f"unknown naming {self.naming!r}: use one of {', '.join(NAMINGS)}")
        rules = EDITIONS[self.edition]
        if not rules.owns_naming(self.naming):
            if self.naming != "gmt-en":
                raise StateError(f"naming {self.naming!r} is not one of {rules.title}: use "
                                 f"{rules.naming('en')} or {rules.naming('fr')}")
            object.__setattr__(self, "naming", rules.naming("en"))

    @property
    def rules(self) -> Edition:
        """The `Edition` value of the match."""
        return EDITIONS[self.edition]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` is None only when it was `exhausted`."""

    termination: Termination
    winner: Side | None


@dataclass(frozen=True, slots=True)
class FlagState:
    """One flag: each side's cards as laid (environment cards that player laid included),
    the claim, and when each side last became complete (D11, a turn number)."""

    north: tuple[Card, ...] = ()
    south: tuple[Card, ...] = ()
    claimed: Side | None = None
    north_complete_at: int | None = None
    south_complete_at: int | None = None

    def layout(self, side: Side) -> tuple[Card, ...]:
        return self.north if side == "north" else self.south

    def slots(self, side: Side) -> tuple[Card, ...]:
        """The cards that take a slot on that side (Troops and morale Tactics)."""
        return tuple(c for c in self.layout(side) if c.occupies_slot)

    @property
    def env(self) -> tuple[Card, ...]:
        found = [c for c in self.north + self.south if c.family == "environment"]
        return tuple(sorted(found))

    @property
    def fog(self) -> bool:
        return FOG in self.north or FOG in self.south

    @property
    def mud(self) -> bool:
        return MUD in self.north or MUD in self.south

    @property
    def capacity(self) -> int:
        """Slots on each side: 3, or 4 under Mud."""
        return 4 if MUD in self.north or MUD in self.south else 3

    def free(self, side: Side) -> int:
        return self.capacity - len(self.slots(side))

    def complete_at(self, side: Side) -> int | None:
        return self.north_complete_at if side == "north" else self.south_complete_at

    def with_layout(self, side: Side, layout: tuple[Card, ...]) -> FlagState:
        if side == "north":
            return replace(self, north=layout)
        return replace(self, south=layout)

    def settled(self, turn: int) -> FlagState:
        """This flag with each side's completion moment brought up to date (D11).

        A side that is complete keeps its moment; one that just became complete gets `turn`;
        one that is incomplete (a card left it, or Mud raised the size) loses its moment.
        """
        moments: list[int | None] = []
        for side in SIDES:
            complete = len(self.slots(side)) >= self.capacity
            moment = self.complete_at(side)
            moments.append((turn if moment is None else moment) if complete else None)
        return replace(self, north_complete_at=moments[0], south_complete_at=moments[1])

    def contains(self, card: Card) -> bool:
        return card in self.north or card in self.south

    def position(self) -> FlagPosition:
        first: Side | None = None
        n, s = self.north_complete_at, self.south_complete_at
        if n is not None and s is not None and n != s:
            first = "north" if n < s else "south"
        return FlagPosition(north=self.slots("north"), south=self.slots("south"), env=self.env,
                            claimed=self.claimed, completed_first=first)


def _remove(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _rng(rng_or_seed: random.Random | int | None) -> random.Random:
    if isinstance(rng_or_seed, random.Random):
        return rng_or_seed
    return random.Random(rng_or_seed)


@dataclass(frozen=True, slots=True)
class GameState:
    """One moment of a game.  Build with `new_full` or `new_table`; move on with `apply`.

    Decks are tuples with the top card first.  In a table-only state (`full` False) the
    hands and decks are empty tuples and mean "unknown".
    """

    full: bool
    settings: Settings = field(default_factory=Settings)
    first: Side = "south"
    to_move: Side = "south"
    phase: Phase = "play"
    turn: int = 1
    flags: tuple[FlagState, ...] = field(
        default_factory=lambda: tuple(FlagState() for _ in range(FLAG_COUNT)))
    offline_north: tuple[Card, ...] = ()
    offline_south: tuple[Card, ...] = ()
    tactics_north: int = 0
    tactics_south: int = 0
    leader_north: bool = False
    leader_south: bool = False
    hand_north: tuple[Card, ...] = ()
    hand_south: tuple[Card, ...] = ()
    troop_deck: tuple[Card, ...] = ()
    tactics_deck: tuple[Card, ...] = ()
    passed: bool = False
    """This turn's play was a pass."""
    claimed_this_turn: bool = False
    passes: int = 0
    """Consecutive turns that ended with a pass and no claim."""
    outcome: Outcome | None = None

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def new_full(cls, rng_or_seed: random.Random | int | None = None, first: Side = "south",
                 settings: Settings | None = None) -> GameState:
        """A new game with known hands and decks: shuffled, a hand of Troops dealt to each
        player (7 in Battle Line, 6 Clan cards in Schotten Totten)."""
        _check_side(first)
        settings = settings or Settings()
        edition = settings.rules
        hand_size = edition.hand_size
        rng = _rng(rng_or_seed)
        troops = list(edition.troops)
        rng.shuffle(troops)
        tactics = list(edition.tactics)
        rng.shuffle(tactics)
        # Dealt one at a time, the player who plays first receiving the first card.
        first_hand = tuple(troops[0:2 * hand_size:2])
        second_hand = tuple(troops[1:2 * hand_size:2])
        north, south = (second_hand, first_hand) if first == "south" else (first_hand, second_hand)
        return cls(full=True, settings=settings, first=first, to_move=first,
                   hand_north=north, hand_south=south,
                   troop_deck=tuple(troops[2 * hand_size:]), tactics_deck=tuple(tactics))

    @classmethod
    def new_table(cls, first: Side = "south", settings: Settings | None = None) -> GameState:
        """A new game seen only through the table (the physical referee)."""
        _check_side(first)
        return cls(full=False, settings=settings or Settings(), first=first, to_move=first)

    # -- queries ---------------------------------------------------------------------------
    @property
    def winner(self) -> Side | None:
        return None if self.outcome is None else self.outcome.winner

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def flag(self, number: int) -> FlagState:
        if not 1 <= number <= FLAG_COUNT:
            raise StateError(f"there is no flag {number}: flags are numbered 1 to 9")
        return self.flags[number - 1]

    def hand(self, side: Side) -> tuple[Card, ...]:
        """The player's hand (full states only)."""
        if not self.full:
            raise StateError(f"the {side} hand is unknown in a table-only state")
        return self.hand_north if side == "north" else self.hand_south

    def deck(self, deck: Deck) -> tuple[Card, ...]:
        """A deck, top card first (full states only)."""
        if not self.full:
            raise StateError(f"the {deck} deck is unknown in a table-only state")
        return self.troop_deck if deck == "troop" else self.tactics_deck

    def tactics_played(self, side: Side) -> int:
        return self.tactics_north if side == "north" else self.tactics_south

    def leader_played(self, side: Side) -> bool:
        return self.leader_north if side == "north" else self.leader_south

    def layout(self, flag: int, side: Side) -> tuple[Card, ...]:
        """That side's cards at the flag in placement order, with the environment cards that
        player laid there: what the camera sees."""
        return self.flag(flag).layout(side)

    def offline(self, side: Side) -> tuple[Card, ...]:
        """Played guile cards and discards on that side's off-line area, in the order laid."""
        return self.offline_north if side == "north" else self.offline_south

    def discards(self) -> tuple[Card, ...]:
        """Every face-up off-line card that is not a guile card (contract 1 `discards`)."""
        return tuple(c for c in self.offline_north + self.offline_south if c not in GUILE_CARDS)

    def on_table(self) -> frozenset[Card]:
        """Every card face up: at the flags (environment included) and off the line."""
        seen: set[Card] = set(self.offline_north) | set(self.offline_south)
        for f in self.flags:
            seen.update(f.north)
            seen.update(f.south)
        return frozenset(seen)

    def where(self, card: Card) -> str | None:
        """Where a face-up card lies, in words, or None."""
        for n, f in enumerate(self.flags, start=1):
            for side in SIDES:
                if card in f.layout(side):
                    return f"at flag {n} on the {side} side"
        for side in SIDES:
            if card in self.offline(side):
                return f"off the line on the {side} side"
        return None

    def _place(self, card: Card) -> Place | None:
        """Where a face-up card lies, for a message, or None."""
        for n, f in enumerate(self.flags, start=1):
            for side in SIDES:
                if card in f.layout(side):
                    return Place(n, side)
        for side in SIDES:
            if card in self.offline(side):
                return Place(OFFLINE, side)
        return None

    def position(self) -> Position:
        """The contract 1 view of the table, `completed_first` from the moments of D11."""
        return Position(tuple(f.position() for f in self.flags), self.discards(),
                        self.settings.rules)

    def claimed_flags(self, side: Side) -> tuple[int, ...]:
        return tuple(n for n, f in enumerate(self.flags, start=1) if f.claimed == side)

    def can_claim_now(self) -> bool:
        """Whether the player on turn is at the claiming moment of the match's timing (D6)."""
        wanted: Phase = "draw" if self.settings.claim_timing == "standard" else "play"
        return self.phase == wanted

    # -- applying actions ------------------------------------------------------------------
    def apply(self, action: Action) -> GameState:
        """The state after `action`; `IllegalActionError` (reason code) if the rules refuse it."""
        if self.outcome is not None:
            winner = self.outcome.winner
            raise IllegalActionError("game-over", f"{_said(action)} comes after the end of the game ("
                                     + (f"{winner} won by {self.outcome.termination})"
                                        if winner else "exhausted)"),
                                     {"action": action, "winner": winner,
                                      "termination": self.outcome.termination,
                                      "case": None if winner else "exhausted"})
        state = self
        if action.player != self.to_move:
            # Draws are unseen at a real table: the opponent's next action ends the turn.
            if not self.full and self.phase == "draw":
                state = self._end_turn()
            else:
                raise IllegalActionError(
                    "wrong-player", f"{_said(action)}: it is {self.to_move}'s turn, not {action.player}'s",
                    {"action": action, "to_move": self.to_move, "player": action.player})
        match action:
            case Play():
                return state._play(action)
            case Scout():
                return state._scout(action)
            case Redeploy():
                return state._redeploy(action)
            case Deserter():
                return state._deserter(action)
            case Traitor():
                return state._traitor(action)
            case Claim():
                return state._claim(action)
            case Pass():
                return state._pass(action)
            case Draw():
                return state._draw(action)
        raise StateError(f"{action!r} is not an action")

    def is_legal(self, action: Action) -> bool:
        try:
            self.apply(action)
        except IllegalActionError:
            return False
        return True

    # -- shared checks ---------------------------------------------------------------------
    def _check_play_phase(self, action: Action, card: Card) -> None:
        if self.phase != "play":
            raise IllegalActionError(
                "wrong-phase", f"{_said(action)}: {action.player} has already played a card this turn "
                f"and cannot play {card} too",
                {"action": action, "player": action.player, "card": card})

    def _check_available(self, action: Action, card: Card) -> None:
        """The card must be of the edition, and in hand (full) or not yet face up (table-only)."""
        edition = self.settings.rules
        if not edition.has(card):
            raise IllegalActionError(
                "not-in-edition", f"{_said(action)}: {edition.refuse(card)}",
                {"action": action, "card": card, "edition": edition.key})
        if self.full:
            if card not in self.hand(action.player):
                raise IllegalActionError(
                    "not-in-hand", f"{_said(action)}: {card} is not in {action.player}'s hand",
                    {"action": action, "card": card, "player": action.player})
        else:
            where = self.where(card)
            if where is not None:
                raise IllegalActionError(
                    "card-on-table", f"{_said(action)}: {card} is already face up {where}",
                    {"action": action, "card": card, "place": self._place(card)})

    def _check_tactic(self, action: Action, card: Card) -> None:
        me = action.player
        mine, theirs = self.tactics_played(me), self.tactics_played(other(me))
        if mine > theirs:
            raise IllegalActionError(
                "tactics-limit", f"{_said(action)}: {me} has played {_cards(mine)} and {other(me)} "
                f"{theirs}; {card} would put {me} two Tactics cards ahead",
                {"action": action, "player": me, "other": other(me), "mine": mine,
                 "theirs": theirs, "card": card})
        if card.is_leader and self.leader_played(me):
            raise IllegalActionError(
                "second-leader", f"{_said(action)}: {me} has already played a Leader and cannot "
                f"play {card} (D2)", {"action": action, "player": me, "card": card})

    def _check_unclaimed(self, action: Action, card: Card, flag: int) -> None:
        claimed = self.flag(flag).claimed
        if claimed is not None:
            raise IllegalActionError(
                "flag-claimed", f"{_said(action)}: flag {flag} is claimed by {claimed}; {card} cannot "
                "be laid there or taken from there",
                {"action": action, "flag": flag, "claimed": claimed, "card": card})

    def _check_slot(self, action: Action, card: Card, flag: int, reason: str) -> None:
        f = self.flag(flag)
        if f.free(action.player) <= 0:
            raise IllegalActionError(
                reason, f"{_said(action)}: {action.player}'s side of flag {flag} already holds "
                f"{f.capacity} cards{' (Mud)' if f.capacity == 4 else ''}; no slot for {card}",
                {"action": action, "player": action.player, "flag": flag,
                 "capacity": f.capacity, "card": card,
                 "case": "mud" if f.capacity == 4 else None})

    def _check_takes(self, action: Action, card: Card, flag: int, owner: Side) -> None:
        """`card` must lie in a slot on `owner`'s side of `flag`, and be movable (D4)."""
        if card.family == "environment":
            raise IllegalActionError(
                "environment-immovable", f"{_said(action)}: {card} stays where it is until the end "
                "of the game (D4); it cannot be moved or discarded",
                {"action": action, "card": card})
        f = self.flag(flag)
        if card in f.layout(owner):
            return
        if card in f.layout(other(owner)):
            reason = "not-your-card" if owner == action.player else "own-card"
            whose = "the opponent's" if owner == action.player else f"{action.player}'s own"
            raise IllegalActionError(
                reason, f"{_said(action)}: {card} at flag {flag} is {whose} card, on the "
                f"{other(owner)} side",
                {"action": action, "card": card, "flag": flag, "player": action.player,
                 "side": other(owner)})
        where = self.where(card)
        raise IllegalActionError(
            "not-on-flag", f"{_said(action)}: {card} is not at flag {flag}"
            + (f"; it is {where}" if where else ""),
            {"action": action, "card": card, "flag": flag, "place": self._place(card),
             "case": "elsewhere" if where else None})

    # -- moving on -------------------------------------------------------------------------
    def _with_flag(self, flag: int, f: FlagState) -> tuple[FlagState, ...]:
        return self.flags[:flag - 1] + (f.settled(self.turn),) + self.flags[flag:]

    def _after_card(self, player: Side, card: Card, **changes: object) -> GameState:
        """The state after `player` played `card` from hand: counts, hand, phase."""
        out: dict[str, object] = {"phase": "draw"}
        if card.is_tactic:
            key = f"tactics_{player}"
            out[key] = self.tactics_played(player) + 1
        if card.is_leader:
            out[f"leader_{player}"] = True
        if self.full:
            out[f"hand_{player}"] = _remove(self.hand(player), card)
        out.update(changes)
        return replace(self, **out)  # type: ignore[arg-type]

    def _end_turn(self) -> GameState:
        passes = self.passes + 1 if self.passed and not self.claimed_this_turn else 0
        outcome = self.outcome
        if self.full and passes >= 2 and outcome is None:
            outcome = Outcome("exhausted", None)
        return replace(self, to_move=other(self.to_move), phase="over" if outcome else "play",
                       turn=self.turn + 1, passed=False, claimed_this_turn=False,
                       passes=passes, outcome=outcome)

    def _play(self, action: Play) -> GameState:
        card, flag, me = action.card, action.flag, action.player
        self._check_play_phase(action, card)
        if card.family == "guile":
            raise IllegalActionError(
                "not-at-flag", f"{_said(action)}: {card} is a guile card; it is played with its own "
                f"action, not at flag {flag}", {"action": action, "card": card, "flag": flag})
        self._check_available(action, card)
        self._check_unclaimed(action, card, flag)
        if card.is_tactic:
            self._check_tactic(action, card)
        if card.occupies_slot:
            self._check_slot(action, card, flag, "side-full")
        f = self.flag(flag)
        f = f.with_layout(me, f.layout(me) + (card,))
        return self._after_card(me, card, flags=self._with_flag(flag, f))

    def _scout(self, action: Scout) -> GameState:
        me = action.player
        self._check_play_phase(action, SCOUT)
        self._check_available(action, SCOUT)
        self._check_tactic(action, SCOUT)
        state = self._after_card(me, SCOUT, **{f"offline_{me}": self.offline(me) + (SCOUT,)})
        if not self.full:
            return state
        decks = {"troop": list(self.troop_deck), "tactics": list(self.tactics_deck)}
        wanted = min(3, len(decks["troop"]) + len(decks["tactics"]))
        if len(action.draws) != wanted:
            raise IllegalActionError(
                "scout-draws", f"{_said(action)}: Scout draws {wanted} cards here, not "
                f"{len(action.draws)}",
                {"action": action, "wanted": wanted, "got": len(action.draws)})
        hand = list(state.hand(me))
        for deck in action.draws:
            if not decks[deck]:
                raise IllegalActionError(
                    "deck-empty", f"{_said(action)}: the {deck} deck is empty; Scout cannot draw from it",
                    {"action": action, "deck": deck, "case": "scout"})
            hand.append(decks[deck].pop(0))
        wanted = min(2, len(hand))
        if len(action.returns) != wanted or len(set(action.returns)) != len(action.returns):
            raise IllegalActionError(
                "scout-returns", f"{_said(action)}: Scout puts back {wanted} different cards, not "
                + (",".join(str(c) for c in action.returns) or "none"),
                {"action": action, "wanted": wanted, "cards": tuple(action.returns)})
        for card in action.returns:
            if card not in hand:
                raise IllegalActionError(
                    "not-in-hand", f"{_said(action)}: {card} is not in {me}'s hand after the Scout draws",
                    {"action": action, "card": card, "player": me, "case": "scout"})
            hand.remove(card)
            pile = decks["troop" if card.is_troop else "tactics"]
            if self.settings.rules.returns_under:
                pile.append(card)  # Schotten Totten's Recruiter: under the deck (D22)
            else:
                pile.insert(0, card)
        return replace(state, **{f"hand_{me}": tuple(hand)},  # type: ignore[arg-type]
                       troop_deck=tuple(decks["troop"]), tactics_deck=tuple(decks["tactics"]))

    def _redeploy(self, action: Redeploy) -> GameState:
        me, card, src, dst = action.player, action.card, action.from_flag, action.to_flag
        self._check_play_phase(action, REDEPLOY)
        self._check_available(action, REDEPLOY)
        self._check_tactic(action, REDEPLOY)
        self._check_takes(action, card, src, me)
        self._check_unclaimed(action, card, src)
        flags = self.flags
        f = self.flag(src)
        flags = self._with_flag(src, f.with_layout(me, _remove(f.layout(me), card)))
        offline = self.offline(me) + (REDEPLOY,)
        if dst is None:
            offline += (card,)
        else:
            if dst == src:
                raise IllegalActionError(
                    "same-flag", f"{_said(action)}: {card} is already at flag {src}",
                    {"action": action, "card": card, "flag": src})
            self._check_unclaimed(action, card, dst)
            self._check_slot(action, card, dst, "no-slot")
            g = flags[dst - 1]
            flags = flags[:dst - 1] + (g.with_layout(me, g.layout(me) + (card,)).settled(self.turn),) \
                + flags[dst:]
        return self._after_card(me, REDEPLOY, flags=flags, **{f"offline_{me}": offline})

    def _deserter(self, action: Deserter) -> GameState:
        me, them, card, flag = action.player, other(action.player), action.card, action.flag
        self._check_play_phase(action, DESERTER)
        self._check_available(action, DESERTER)
        self._check_tactic(action, DESERTER)
        self._check_takes(action, card, flag, them)
        self._check_unclaimed(action, card, flag)
        f = self.flag(flag)
        flags = self._with_flag(flag, f.with_layout(them, _remove(f.layout(them), card)))
        # The deserted card goes beside the Tactics deck on its owner's side (GMT rulebook).
        changes: dict[str, object] = {
            "flags": flags,
            f"offline_{me}": self.offline(me) + (DESERTER,),
            f"offline_{them}": self.offline(them) + (card,),
        }
        return self._after_card(me, DESERTER, **changes)

    def _traitor(self, action: Traitor) -> GameState:
        me, them, card = action.player, other(action.player), action.card
        src, dst = action.from_flag, action.to_flag
        self._check_play_phase(action, TRAITOR)
        self._check_available(action, TRAITOR)
        self._check_tactic(action, TRAITOR)
        if card.family == "morale":
            raise IllegalActionError(
                "traitor-on-tactics", f"{_said(action)}: {card} at flag {src} is a Tactics card; "
                "Traitor takes only Troop cards", {"action": action, "card": card, "flag": src})
        self._check_takes(action, card, src, them)
        self._check_unclaimed(action, card, src)
        self._check_unclaimed(action, card, dst)
        self._check_slot(action, card, dst, "no-slot")
        f = self.flag(src)
        flags = self._with_flag(src, f.with_layout(them, _remove(f.layout(them), card)))
        g = flags[dst - 1]
        flags = flags[:dst - 1] + (g.with_layout(me, g.layout(me) + (card,)).settled(self.turn),) \
            + flags[dst:]
        return self._after_card(me, TRAITOR, flags=flags,
                                **{f"offline_{me}": self.offline(me) + (TRAITOR,)})

    def _claim(self, action: Claim) -> GameState:
        me, flag = action.player, action.flag
        if not self.can_claim_now():
            when = ("after playing a card, before drawing" if self.settings.claim_timing
                    == "standard" else "at the start of the turn, before playing (advanced timing)")
            raise IllegalActionError(
                "claim-timing", f"{_said(action)}: flag {flag} can be claimed only {when}",
                {"action": action, "flag": flag,
                 "case": None if self.settings.claim_timing == "standard" else "advanced"})
        claimed = self.flag(flag).claimed
        if claimed is not None:
            raise IllegalActionError(
                "flag-claimed", f"{_said(action)}: flag {flag} is already claimed by {claimed}",
                {"action": action, "flag": flag, "claimed": claimed, "case": "claim"})
        from .prover import prove  # the prover is a sibling module built on the same position
        verdict = prove(self.position(), flag, me)
        if not verdict.valid:
            raise ClaimRefusedError(
                f"{_said(action)}: {me} cannot claim flag {flag} ({verdict.reason}): "
                f"{verdict.proof(naming=self.settings.naming)}", verdict,
                {"action": action, "player": me, "flag": flag, "verdict": verdict,
                 "verdict_reason": verdict.reason})
        f = replace(self.flag(flag), claimed=me)
        state = replace(self, flags=self.flags[:flag - 1] + (f,) + self.flags[flag:],
                        claimed_this_turn=True)
        outcome = state._decided(me)
        if outcome is not None:
            state = replace(state, outcome=outcome, phase="over")
        return state

    def _decided(self, side: Side) -> Outcome | None:
        held = [f.claimed == side for f in self.flags]
        if any(all(held[i:i + 3]) for i in range(FLAG_COUNT - 2)):
            return Outcome("breakthrough", side)
        if sum(held) >= 5:
            return Outcome("envelopment", side)
        return None

    def _pass(self, action: Pass) -> GameState:
        me = action.player
        if self.phase != "play":
            raise IllegalActionError(
                "wrong-phase", f"{_said(action)}: {me} has already played a card this turn",
                {"action": action, "player": me, "case": "pass"})
        if self.full:
            troop = next((c for c in self.hand(me) if c.is_troop), None)
            free = next((n for n, f in enumerate(self.flags, start=1)
                         if f.claimed is None and f.free(me) > 0), None)
            if troop is not None and free is not None:
                raise IllegalActionError(
                    "pass-not-allowed", f"{_said(action)}: {me} can still play {troop} at flag {free} "
                    "and may pass only without a Troop to play (D13)",
                    {"action": action, "player": me, "card": troop, "flag": free})
        return replace(self, phase="draw", passed=True)

    def _draw(self, action: Draw) -> GameState:
        me, deck = action.player, action.deck
        if self.phase != "draw":
            raise IllegalActionError(
                "wrong-phase", f"{_said(action)}: {me} must play a card (or pass) before drawing",
                {"action": action, "player": me, "case": "draw"})
        if not self.full:
            return self._end_turn()
        hand = self.hand(me)
        hand_size = self.settings.rules.hand_size
        if deck is None:
            if len(hand) < hand_size and (self.troop_deck or self.tactics_deck):
                raise IllegalActionError(
                    "must-draw", f"{_said(action)}: {me} holds {len(hand)} cards and must draw "
                    "while a deck has cards", {"action": action, "player": me, "count": len(hand)})
            return self._end_turn()
        cards = self.deck(deck)
        if not cards:
            raise IllegalActionError("deck-empty", f"{_said(action)}: the {deck} deck is empty",
                                     {"action": action, "deck": deck})
        if len(hand) >= hand_size:
            raise IllegalActionError(
                "hand-full", f"{_said(action)}: {me} already holds {len(hand)} cards",
                {"action": action, "player": me, "count": len(hand)})
        changes: dict[str, object] = {
            f"hand_{me}": hand + (cards[0],),
            "troop_deck" if deck == "troop" else "tactics_deck": cards[1:],
        }
        return replace(self, **changes)._end_turn()  # type: ignore[arg-type]

    # -- legal actions (full states) -------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player on turn (full states), claims the prover accepts
        included; empty when the game is over.

        Scout is listed with one order of draws per split between the decks (Troops first):
        other orders draw the same cards and `apply` accepts them too.
        """
        if not self.full:
            raise StateError("legal actions are known only in a full state (hands unseen)")
        if self.outcome is not None:
            return []
        out: list[Action] = []
        if self.can_claim_now():
            out.extend(self._legal_claims())
        if self.phase == "play":
            out.extend(self._legal_plays())
        elif self.phase == "draw":
            out.extend(a for a in self._draw_options() if self.is_legal(a))
        return out

    def _legal_claims(self) -> list[Action]:
        from .prover import claimable
        me = self.to_move
        verdicts = claimable(self.position())
        return [Claim(me, n) for n in range(1, FLAG_COUNT + 1)
                if self.flags[n - 1].claimed is None and verdicts[(n, me)].valid]

    def _draw_options(self) -> Iterator[Draw]:
        me = self.to_move
        yield Draw(me, None)
        for deck in DECKS:
            yield Draw(me, deck)

    def _legal_plays(self) -> list[Action]:
        me, them = self.to_move, other(self.to_move)
        hand = self.hand(me)
        open_flags = [n for n, f in enumerate(self.flags, start=1) if f.claimed is None]
        free_flags = [n for n in open_flags if self.flags[n - 1].free(me) > 0]
        tactic_ok = self.tactics_played(me) <= self.tactics_played(them)
        out: list[Action] = []
        has_troop_play = False
        for card in dict.fromkeys(hand):
            if card.is_tactic and not tactic_ok:
                continue
            if card.is_leader and self.leader_played(me):
                continue
            if card.occupies_slot:
                out.extend(Play(me, card, n) for n in free_flags)
                has_troop_play = has_troop_play or (card.is_troop and bool(free_flags))
            elif card.family == "environment":
                out.extend(Play(me, card, n) for n in open_flags)
            elif card == SCOUT:
                out.extend(self._scout_options())
            elif card == REDEPLOY:
                for src in open_flags:
                    for c in self.flags[src - 1].slots(me):
                        out.append(Redeploy(me, c, src, None))
                        out.extend(Redeploy(me, c, src, dst) for dst in free_flags if dst != src)
            elif card == DESERTER:
                for src in open_flags:
                    out.extend(Deserter(me, c, src) for c in self.flags[src - 1].slots(them))
            elif card == TRAITOR:
                for src in open_flags:
                    for c in self.flags[src - 1].slots(them):
                        if c.is_troop:
                            out.extend(Traitor(me, c, src, dst) for dst in free_flags)
        if not has_troop_play:
            out.append(Pass(me))
        return out

    def _scout_options(self) -> list[Action]:
        me = self.to_move
        hand = _remove(self.hand(me), SCOUT)
        nt, nk = len(self.troop_deck), len(self.tactics_deck)
        total = min(3, nt + nk)
        out: list[Action] = []
        # Which cards are drawn depends only on how many come from each deck, so one order of
        # draws per split stands for all of them.
        for k in range(total + 1):
            t = total - k
            if t > nt or k > nk:
                continue
            drawn = hand + self.troop_deck[:t] + self.tactics_deck[:k]
            troop: tuple[Deck, ...] = ("troop",)
            tactics: tuple[Deck, ...] = ("tactics",)
            draws = troop * t + tactics * k
            for returns in permutations(dict.fromkeys(drawn), min(2, len(drawn))):
                out.append(Scout(me, draws, returns))
        return out


def _cards(count: int) -> str:
    return f"{count} Tactics card" + ("" if count == 1 else "s")


def _said(action: Action) -> str:
    """The start of a refusal message: the action in words and in notation."""
    text = describe(action)
    return f"{text[0].upper()}{text[1:]} ({action})"


def _check_side(side: object) -> None:
    if side not in SIDES:
        raise StateError(f"{side!r} is not a player: use 'north' or 'south'")


def replay(actions: list[Action] | tuple[Action, ...], start: GameState) -> GameState:
    """The state after applying `actions` in order to `start`."""
    state = start
    for action in actions:
        state = state.apply(action)
    return state
