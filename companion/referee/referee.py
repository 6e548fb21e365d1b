"""The referee: a stream of observations and player input in, checked actions and states out.

It commits a change only when the table is stable (see `stability`), infers the action from
the difference with the last committed table (see `infer`), checks it with the rules core on
a table-only `GameState`, and keeps the last legal state when the rules refuse it: the
refusal is an open *violation* until the table matches the legal state again.  Every new
state is a frozen `RefereeState` passed to the subscribers (UI, LEDs).  The referee does no
I/O: each event is handed to the listeners (`listen`: the match recorder) the moment it
happens, before the referee moves on, so an action is recorded before it is announced; a
match is resumed with `Referee.from_actions`.

A small state machine, failsafe included (STYLE: pibooth): *playing* (normal), *holding*
(after an undo or a restart the table must first match the record; nothing is inferred),
*round over* (waiting for an empty table to deal the next round) and *match over*.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from companion.errors import CompanionError
from companion.rules.actions import Action, Claim, Deserter, Pass, Play, Redeploy, Traitor
from companion.rules.cards import Card
from companion.rules.errors import IllegalActionError
from companion.rules.match import RoundResult
from companion.rules.messages import Part
from companion.rules.place import Place
from companion.rules.position import FLAG_COUNT, SIDES, Position, Side
from companion.rules.prover import ClaimVerdict, claimable, prove
from companion.rules.state import REASONS as STATE_REASONS
from companion.rules.state import ClaimRefusedError, GameState, Settings
from companion.vision.observation import Doubt, FlagObservation, Observation

from .events import (
    ActionCommitted,
    ClaimDecided,
    Confirmed,
    Corrected,
    DoubtRaised,
    Event,
    GameOver,
    RoundStarted,
    TableConfirmed,
    Undone,
    Violation,
    ViolationCleared,
    ViolationRaised,
    WaitingForEffect,
)
from .infer import REASONS as INFER_REASONS
from .infer import Explained, Unexplained, Waiting, explain
from .settings import RefereeSettings
from .stability import Stable, StabilityFilter
from .table import Table, same_table

log = logging.getLogger(__name__)

Mode = Literal["playing", "holding", "round-over", "match-over"]

VIOLATION_REASONS: tuple[str, ...] = STATE_REASONS + INFER_REASONS + (
    "glare", "record-differs", "undo-restore", "record-error", "referee-error")
"""Every `Violation.reason` the referee opens: the rules core's, the tables no action
explains (`infer`; `glare` when they differ where the camera saw glare), the table
differing from the record or from an undo, the failsafe."""
REFUSAL_REASONS: tuple[str, ...] = (
    "no-claim-now", "no-such-action", "no-card-to-correct", "correction-refused", "no-undo",
    "no-redo")
"""The referee's own `RefereeError.reason` codes for player requests (a request the rules
refuse carries the rules core's reason)."""


class RefereeError(CompanionError, ValueError):
    """A player input the referee cannot take (no such action index, a card that fits not).

    The message is in English; `reason` and `params`, when given, let
    `companion.rules.messages.message` write it in either language (`text(lang, naming)`).
    """

    def __init__(self, message: str, reason: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: Mapping[str, object] = MappingProxyType(dict(params or {}))

    def text(self, lang: str = "en", naming: str = "gmt-en",
             names: Mapping[str, str] | None = None) -> str:
        from companion.rules.messages import has_template, message
        if self.reason is None or not has_template(self.reason, self.params):
            return str(self)
        return message(self.reason, self.params, lang, naming, names)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class RefereeState:
    """One frozen snapshot of everything the UI and the LEDs show.

    `claimability` maps each of the 18 (flag, player) pairs to its verdict (the LEDs light the
    valid ones).  `actions` are the committed actions of the current round, in order (the
    indices `correct` and `undo_to` take).  `waiting` says what a guile card still expects.
    `scores` are the match scores so far (winner 5, loser one per flag held).
    """

    game: GameState
    position: Position
    claimability: Mapping[tuple[int, Side], ClaimVerdict]
    violations: tuple[Violation, ...]
    doubts: tuple[Doubt, ...]
    actions: tuple[Action, ...]
    to_move: Side
    winner: Side | None
    scores: Mapping[Side, int]
    round: int
    mode: Mode
    waiting: str | None = None
    verdicts: tuple[ClaimVerdict, ...] = ()
    version: int = 0
    waiting_for: WaitingForEffect | None = None   # `waiting` as data (for other languages)
    redo: tuple[Action, ...] = ()   # the actions the last undo took back (`Referee.redo`)

    def claimable_flags(self, player: Side) -> tuple[int, ...]:
        """Flags `player` could claim now (ignoring whose turn it is)."""
        return tuple(n for n in range(1, FLAG_COUNT + 1)
                     if self.claimability[(n, player)].valid)


@dataclass(slots=True)
class _Round:
    number: int
    first: Side
    start: GameState
    game: GameState
    actions: list[Action] = field(default_factory=list)
    verdicts: list[ClaimVerdict] = field(default_factory=list)


def _action_card(action: Action) -> Card | None:
    if isinstance(action, (Play, Redeploy, Deserter, Traitor)):
        return action.card
    return None


def _with_card(action: Action, card: Card) -> Action:
    if isinstance(action, (Play, Redeploy, Deserter, Traitor)):
        return replace(action, card=card)
    raise RefereeError(f"action {action} names no card to correct")  # never from the UI


class Referee:
    """Observations and player input in; checked actions, events and `RefereeState` out.

    `Referee(settings)` starts a match; `Referee.from_actions(...)` resumes one (the table
    must then match the actions before anything is inferred).  `listen(callback)` hands
    each event to `callback` as it happens (the recorder); `subscribe(callback)` each new
    `RefereeState` (the screens, the LEDs).  Not thread-safe: drive it from one thread.
    """

    def __init__(self, settings: RefereeSettings | None = None) -> None:
        self.settings = settings or RefereeSettings()
        self._rules = self.settings.game or Settings()
        if not isinstance(self._rules, Settings):
            raise RefereeError(f"game settings must be a rules Settings, not {self._rules!r}")
        self._listeners: list[Callable[[Event], None]] = []
        self._stability = StabilityFilter(self.settings)
        self._subscribers: list[Callable[[RefereeState], None]] = []
        self._violation: Violation | None = None
        self._doubts: tuple[Doubt, ...] = ()
        self._waiting: WaitingForEffect | None = None
        self._last: Stable | None = None
        # The camera frame of the last stable reading (only with `record_frames`): saved
        # with the actions that reading commits.
        self._last_frame: Any = None
        # Players' word on reads: (place, index, card read there) -> card really there.
        self._overrides: dict[tuple[Place, int, Card], Card] = {}
        # Players' word that a read is no card at all; it concerns the table as it is, so
        # it is forgotten at the next commit.
        self._dismissed: set[tuple[Place, int, Card]] = set()
        self._scores: dict[Side, int] = {"north": 0, "south": 0}
        self._mode: Mode = "playing"
        self._hold_reason = ""
        self._version = 0
        self._claimability: Mapping[tuple[int, Side], ClaimVerdict] = {}
        # The actions the last undo took back, for `redo`; forgotten once another action is
        # committed instead of them.
        self._redo: list[Action] = []
        first: Side = self.settings.first  # type: ignore[assignment]
        self._round = self._new_round(1, first)
        self._refresh()

    @classmethod
    def from_actions(cls, settings: RefereeSettings, actions: Sequence[Action], *,
                     round: int = 1, first: Side | None = None,
                     scores: Mapping[Side, int] | None = None,
                     match_over: bool = False,
                     listeners: Sequence[Callable[[Event], None]] = ()) -> Referee:
        """A referee resuming a match: round `round` (first player `first`) replayed
        through `actions`, with the match `scores` so far.

        The physical table must then match the replayed state before anything is inferred
        (the referee holds).  `match_over`: the match ended with that round (it is shown as
        it ended).  A recorded action the rules refuse on replay is a `RefereeError` naming
        it: the record is damaged.  `listeners` listen from the start: a round found over
        on replay ends with its `GameOver` told to them (the recorder writes it if missing).
        """
        ref = cls(settings)
        for callback in listeners:
            ref.listen(callback)
        if scores is not None:
            ref._scores = {s: int(scores.get(s, 0)) for s in SIDES}
        ref._round = ref._new_round(round, first or ref.settings.first)  # type: ignore[arg-type]
        actions = list(actions)
        ok = ref._replay(actions)
        if ok < len(actions):
            raise RefereeError(f"recorded action {ok} ({actions[ok]}) of round {round} is "
                               "refused by the rules on replay; the record is damaged")
        if match_over:
            ref._mode = "match-over"
        elif ref._round.game.over:
            ref._refresh()
            ref._maybe_over()  # stopped between the winning claim and its round-end entry
        elif actions:
            ref._mode = "holding"
            ref._hold_reason = "record-differs"
        ref._refresh()
        return ref

    # -- construction helpers ---------------------------------------------------------------
    def _new_round(self, number: int, first: Side) -> _Round:
        start = GameState.new_table(first=first, settings=self._rules)
        return _Round(number, first, start, start)

    def _replay(self, actions: list[Action]) -> int:
        """Replay `actions` from the round's start; how many the rules accepted."""
        game = self._round.start
        kept: list[Action] = []
        verdicts: list[ClaimVerdict] = []
        for action in actions:
            try:
                game = game.apply(action)
            except IllegalActionError:
                break
            kept.append(action)
            if isinstance(action, Claim):
                verdicts.append(prove(game.position(), action.flag, action.player))
        self._round.game, self._round.actions, self._round.verdicts = game, kept, verdicts
        return len(kept)

    # -- the public state --------------------------------------------------------------------
    @property
    def state(self) -> RefereeState:
        g = self._round.game
        return RefereeState(
            game=g, position=g.position(), claimability=self._claimability,
            violations=(self._violation,) if self._violation else (),
            doubts=self._doubts, actions=tuple(self._round.actions), to_move=g.to_move,
            winner=g.winner, scores=MappingProxyType(dict(self._scores)),
            round=self._round.number, mode=self._mode,
            waiting=self._waiting.message if self._waiting else None,
            verdicts=tuple(self._round.verdicts), version=self._version,
            waiting_for=self._waiting, redo=tuple(self._redo))

    @property
    def last_stable(self) -> Observation | None:
        """The observation the referee last judged stable: what the players' answers are about
        (a confirmation or a fixed read applies to it)."""
        return self._last.observation if self._last is not None else None

    def subscribe(self, callback: Callable[[RefereeState], None]) -> Callable[[], None]:
        """Call `callback` with each new state (and once now); returns an unsubscribe."""
        self._subscribers.append(callback)
        callback(self.state)
        return lambda: self._subscribers.remove(callback) if callback in \
            self._subscribers else None

    def listen(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Hand each event to `callback` the moment it happens, before the referee moves on
        (the match recorder); returns an unlisten.  A listener that raises stops the change
        it was told of: an action that cannot be recorded is not committed."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in \
            self._listeners else None

    def _tell(self, event: Event) -> Event:
        for callback in list(self._listeners):
            callback(event)
        return event

    def _refresh(self) -> None:
        self._claimability = MappingProxyType(claimable(self._round.game.position()))

    def _publish(self) -> None:
        self._version += 1
        snapshot = self.state
        for callback in list(self._subscribers):
            try:
                callback(snapshot)
            except Exception:  # a follower's failure must not stop the referee (failsafe)
                log.exception("a referee subscriber failed")

    # -- observations -------------------------------------------------------------------------
    def feed(self, observation: Observation, t: float, frame: Any = None) -> list[Event]:
        """Take one observation at time `t` (seconds); the events it caused, usually none.

        `frame` is the camera frame the observation was read from (a BGR image, or JPEG
        bytes), optional: with `settings.record_frames` and a store, the frame that makes
        the table stable is handed on with the actions it commits (`TableConfirmed`).
        """
        if not isinstance(observation, Observation):
            raise RefereeError(f"feed expects an Observation, not {type(observation).__name__}")
        stable = self._stability.feed(observation, t)
        if stable is None:
            return []
        self._last = stable
        self._last_frame = frame if self.settings.record_frames else None
        try:
            events = self._on_stable(stable)
        except Exception as exc:  # failsafe (STYLE: pibooth): keep the last legal state
            if isinstance(exc, CompanionError):
                log.error("the referee could not take a stable table: %s", exc)
            else:
                log.exception("the referee failed on a stable table")
            reason = "record-error" if isinstance(exc, CompanionError) else "referee-error"
            events = self._settle(Violation(
                reason, f"the referee could not take this table ({exc}); the last legal state "
                "is kept: check the record and the table", params={"error": str(exc)}))
            self._stability.reset()  # try again on the next stable reading
        if events:
            self._publish()
        return events

    def _reads(self, stable: Stable, committed: Table) -> tuple[Table, list[Doubt]]:
        """The table seen, with the players' word and the obvious doubts applied.

        A doubtful read whose second guess is the card already committed at that place, and
        missing from the reading, is taken as that card (the camera hesitates over a card
        that has not moved).  The doubts left are those nobody has settled yet.
        """
        view = stable.view
        fixes: list[tuple[Place, int, Card | None]] = []
        removed: dict[Place, int] = {}
        for loc, index, read in sorted(self._dismissed, key=lambda d: (d[0], -d[1])):
            cards = view.cards_at(loc)
            # "No card there" holds only while the place shows more cards than it holds:
            # it never hides a card the referee knows is there.
            if index < len(cards) and cards[index] == read and \
                    len(cards) - removed.get(loc, 0) > len(committed.cards_at(loc)):
                removed[loc] = removed.get(loc, 0) + 1
                fixes.append((loc, index, None))
        gone = {(loc, index) for loc, index, _ in fixes}
        seen = {c for loc, cards in view.places() for k, c in enumerate(cards)
                if (loc, k) not in gone}
        # A card named by the players is applied to the reading as it came (never to another
        # override's result), and only while that card is not seen elsewhere; removals
        # last, from the end of a column, so that the indices of the others still hold.
        for (loc, index, read), named in self._overrides.items():
            cards = view.cards_at(loc)
            if index < len(cards) and cards[index] == read and named not in seen:
                fixes.append((loc, index, named))
        for loc, index, fix in sorted(fixes, key=lambda f: (f[2] is None, -f[1])):
            view = view.replace(loc, index, fix)
        left: list[Doubt] = []
        for d in stable.observation.doubtful:
            loc = d.where
            cards = view.cards_at(loc)
            if not 0 <= d.index < len(cards):
                continue
            read = cards[d.index]
            if (loc, d.index, d.best) in self._overrides or read in committed.cards_at(loc) \
                    or (loc, d.index, d.best) in self._dismissed:
                continue
            if d.second is not None and d.second in committed.cards_at(loc) and \
                    d.second not in view.locations()[0]:
                # ... but only when that card is missing from the reading: if it is seen
                # elsewhere, the doubtful card is another one, new on the table.
                view = view.replace(loc, d.index, d.second)
                continue
            left.append(d)
        return view, left

    def _on_stable(self, stable: Stable) -> list[Event]:
        committed = Table.from_state(self._round.game)
        view, doubts = self._reads(stable, committed)
        events: list[Event] = []
        if self._mode == "match-over":
            return events
        if self._mode == "round-over":
            if all(t == "line" for t in view.tiles) and not any(
                    cards for _, cards in view.places()):
                events += self._start_round()
            return events
        if same_table(committed, view):
            self._mode = "playing"
            events += self._settle(None)
            self._doubts = ()
            if self._waiting is not None:
                self._waiting = None
            return events
        if self._mode == "holding":
            self._doubts = ()
            what = ("the table differs from the match record; put it back as recorded"
                    if self._hold_reason == "record-differs" else
                    "the table differs from the state after the undo; put it back as it was")
            return self._settle(Violation(self._hold_reason, f"{what} ({_diff(committed, view)})",
                                          params={"diff": _diff_parts(committed, view)}))
        found = explain(committed, view)
        if isinstance(found, Unexplained):
            found = _blame_glare(found, committed, view, stable.observation.glare)
        if not isinstance(found, Explained):
            self._doubts = ()  # doubts are asked only about a change that can be committed
        if isinstance(found, Unexplained):
            return self._settle(Violation(found.reason, found.message, params=found.params))
        if isinstance(found, Waiting):
            events += self._settle(None)
            w = WaitingForEffect(found.player, found.card, found.message)
            if w != self._waiting:
                self._waiting = w
                events.append(w)
            return events
        involved = tuple(d for d in doubts if _read_at(view, d) in found.changed)
        if involved:
            events += self._settle(None)
            if involved != self._doubts:
                self._doubts = involved
                events.append(self._tell(DoubtRaised(involved)))
            return events
        self._doubts = ()
        self._waiting = None
        return events + self._commit(found, view)

    def _settle(self, violation: Violation | None) -> list[Event]:
        """Make `violation` the open one (None: nothing is wrong); the events that says."""
        old = self._violation
        if violation == old:
            return []
        self._violation = violation
        events: list[Event] = []
        if old is not None:
            events.append(ViolationCleared(old))
        if violation is not None:
            log.info("violation %s", violation)
            events.append(self._tell(ViolationRaised(violation, self._round.game.turn)))
        return events

    # -- committing ---------------------------------------------------------------------------
    def _order(self, found: Explained) -> list[Action]:
        if self._rules.claim_timing == "advanced":
            return list(found.claims) + list(found.actions)  # D6: claims open the turn
        return list(found.actions) + list(found.claims)

    def _commit(self, found: Explained, view: Table) -> list[Event]:
        events: list[Event] = []
        violation: Violation | None = None
        committed = False
        for action in self._order(found):
            try:
                game = self._round.game.apply(action)
            except ClaimRefusedError as exc:
                events.append(self._tell(ClaimDecided(exc.verdict, accepted=False,
                                                      turn=self._round.game.turn)))
                violation = Violation("claim-refused", str(exc), action, exc.verdict,
                                      params=exc.params)
                break
            except IllegalActionError as exc:
                violation = Violation(exc.reason, str(exc), action, params=exc.params)
                break
            events += self._append(action, game)
            committed = True
            if game.over:
                break
        if violation is None and committed and self._last_frame is not None:
            # The frame and the table the players confirmed in it: a labelled frame.
            self._tell(TableConfirmed(confirmed_observation(self._round.game, view),
                                      self._last_frame))
        self._refresh()
        events = self._settle(violation) + events
        return events + self._maybe_over()

    def _append(self, action: Action, game: GameState) -> list[Event]:
        """Make `action` part of the round: record it first, then announce it."""
        r = self._round
        index = len(r.actions)
        verdict = None
        decided: ClaimDecided | None = None
        if isinstance(action, Claim):
            verdict = prove(r.game.position(), action.flag, action.player)
            decided = ClaimDecided(verdict, accepted=True, turn=r.game.turn)
            self._tell(decided)
        else:
            self._tell(ActionCommitted(r.number, index, action, r.game.turn))
        r.game = game
        r.actions.append(action)
        if self._redo and self._redo[0] == action:
            self._redo.pop(0)     # the same action again: the rest can still be redone
        else:
            self._redo.clear()
        self._dismissed.clear()
        log.info("committed round %d action %d: %s", r.number, index, action)
        events: list[Event] = [ActionCommitted(r.number, index, action, r.game.turn)]
        if verdict is not None and decided is not None:
            r.verdicts.append(verdict)
            events.append(decided)
        return events

    def _maybe_over(self) -> list[Event]:
        g = self._round.game
        if not g.over or self._mode in ("round-over", "match-over"):
            return []
        winner = g.winner
        assert g.outcome is not None
        result = RoundResult.of(g)  # winner 5, loser one per flag held
        for side in SIDES:
            self._scores[side] += result.points(side)
        last = self._round.number >= self.settings.rounds
        self._mode = "match-over" if last else "round-over"
        points = {side: result.points(side) for side in SIDES}
        return [self._tell(GameOver(self._round.number, winner, g.outcome.termination,
                                    dict(self._scores), g.turn, points))]

    def _start_round(self) -> list[Event]:
        winner = self._round.game.winner
        first = winner if winner is not None else self._round.first  # as the record replays
        self._round = self._new_round(self._round.number + 1, first)
        self._mode = "playing"
        self._violation = None
        self._refresh()
        return [RoundStarted(self._round.number, first)]

    # -- player input -------------------------------------------------------------------------
    def prove(self, flag: int, player: Side) -> ClaimVerdict:
        """The verdict of `player` claiming `flag` now; changes nothing."""
        return prove(self._round.game.position(), flag, player)

    def request_claim(self, flag: int, player: Side) -> ClaimVerdict:
        """A claim from the touchscreen or a button: proved at once, committed if it holds.

        A refused claim changes nothing on the table, so it is announced (and recorded) but
        opens no violation.  An accepted one is committed; its tile may be moved aside later.
        """
        verdict = self.prove(flag, player)
        action = Claim(player, flag)
        if self._mode not in ("playing",):
            raise RefereeError(f"no claim now: the referee is {self._mode.replace('-', ' ')}",
                               "no-claim-now", {"mode": self._mode})
        try:
            game = self._round.game.apply(action)
        except ClaimRefusedError as exc:
            self._tell(ClaimDecided(exc.verdict, accepted=False, requested=True,
                                    turn=self._round.game.turn))
            self._publish()
            return exc.verdict
        except IllegalActionError as exc:
            raise RefereeError(str(exc), exc.reason, exc.params) from None
        self._append(action, game)
        self._refresh()
        self._maybe_over()
        self._publish()
        return verdict

    def pass_turn(self, player: Side) -> list[Event]:
        """A pass said on the touchscreen or with a button: recorded, not verified (D13)."""
        action = Pass(player)
        try:
            game = self._round.game.apply(action)
        except IllegalActionError as exc:
            raise RefereeError(str(exc), exc.reason, exc.params) from None
        events = self._append(action, game)
        self._refresh()
        self._publish()
        return events

    def confirm(self, doubt: Doubt, card: Card | None) -> list[Event]:
        """The players say the read `doubt` is `card`; the change is then re-checked.

        Any read may be confirmed this way, not only a doubtful one: the UI builds a `Doubt`
        for the card a player taps.  `card=None` says there is no card there at all (the
        camera took something else for a card).
        """
        loc = doubt.where
        if not isinstance(loc, Place):
            raise RefereeError(f"doubt place {loc!r} names no flag side or off-line area")
        if card is not None and not isinstance(card, Card):
            raise RefereeError(f"confirm expects a card or None, not {card!r}")
        if card is None:
            self._dismissed.add((loc, doubt.index, doubt.best))
        else:
            self._overrides[(loc, doubt.index, doubt.best)] = card
        events: list[Event] = [self._tell(Confirmed(doubt, card))]
        self._doubts = tuple(d for d in self._doubts
                             if (d.where, d.index) != (doubt.where, doubt.index))
        if self._last is not None:
            events += self._on_stable(self._last)
        self._publish()
        return events

    def correct(self, index: int, card: Card) -> list[Event]:
        """Action `index` of this round named the wrong card: it becomes `card`.

        The same physical card is meant in the later actions too; they are replayed with it.
        The record is rewritten from that point (a correction entry, then the later actions),
        never branched.  The camera's read of that card is overridden from now on.
        """
        actions = self._round.actions
        if not 0 <= index < len(actions):
            raise RefereeError(f"there is no action {index} to correct; this round has "
                               f"{len(actions)} actions", "no-such-action",
                               {"index": index, "count": len(actions)})
        if not isinstance(card, Card):
            raise RefereeError(f"correct expects a card, not {card!r}")
        old = _action_card(actions[index])
        if old is None:
            raise RefereeError(f"action {index} ({actions[index]}) names no card to correct",
                               "no-card-to-correct", {"index": index, "action": actions[index]})
        fixed = [_with_card(a, card) if i >= index and _action_card(a) == old else a
                 for i, a in enumerate(actions)]
        ok = self._replay(fixed[:index + 1])
        if ok <= index:
            params: dict[str, object] = {"index": index, "action": fixed[index],
                                         "case": "order"}
            try:
                self._round.game.apply(fixed[index])
                reason = "it does not fit the actions before it"
            except IllegalActionError as exc:
                reason = str(exc)
                params.update(case=None, why=Part(exc.reason, exc.params))
            self._replay(actions)
            raise RefereeError(f"action {index} cannot be {fixed[index]}: {reason}",
                               "correction-refused", params)
        corrected = self._tell(Corrected(self._round.number, index, fixed[index], old, card))
        for action in fixed[index + 1:]:
            try:
                game = self._round.game.apply(action)
            except IllegalActionError:
                break  # the rest no longer fits: the table will show what happened
            self._append(action, game)
        self._refresh()
        now = Table.from_state(self._round.game)
        where = now.locations()[0].get(card)
        if where is not None:
            self._overrides[(where, now.cards_at(where).index(card), old)] = card
        events: list[Event] = [corrected]
        if self._last is not None:
            self._stability.reset()
            events += self._on_stable(self._last)
        self._publish()
        return events

    def undo_to(self, index: int) -> list[Event]:
        """Go back to the state before action `index` (keeps actions 0 … index-1).

        The table must then be put back as it was; nothing is inferred until it matches.
        """
        actions = self._round.actions
        if not 0 <= index <= len(actions):
            raise RefereeError(f"cannot undo to action {index}; this round has "
                               f"{len(actions)} actions", "no-undo",
                               {"index": index, "count": len(actions)})
        undone = self._tell(Undone(self._round.number, index))
        taken = list(actions[index:])
        self._replay(actions[:index])
        self._redo = taken + self._redo if taken else self._redo
        if self._mode in ("round-over", "match-over") and not self._round.game.over:
            self._mode = "playing"
        self._refresh()
        self._mode = "holding"
        self._hold_reason = "undo-restore"
        self._waiting = None
        self._doubts = ()
        events: list[Event] = [undone]
        if self._last is not None:
            events += self._on_stable(self._last)
        self._publish()
        return events


    def redo(self) -> list[Event]:
        """Commit again the actions the last undo took back (an undo done by mistake).

        They are recorded as new entries after the undo, as if played again: the record
        replays to the same state.  The table must match again before anything is inferred.
        """
        if not self._redo:
            raise RefereeError("there is nothing to redo", "no-redo", {})
        events: list[Event] = []
        for action in list(self._redo):
            try:
                game = self._round.game.apply(action)
            except IllegalActionError:
                break   # no longer fits (never after an undo alone): the rest is dropped
            events += self._append(action, game)
            if game.over:
                break
        self._redo.clear()
        self._refresh()
        events += self._maybe_over()
        if self._mode == "playing" or self._mode == "holding":
            self._mode = "holding"
            self._hold_reason = "undo-restore"
        if self._last is not None:
            events += self._on_stable(self._last)
        self._publish()
        return events


def confirmed_observation(game: GameState, seen: Table) -> Observation:
    """The table as the players confirmed it, as a contract 2 observation: a recorded
    frame's label.

    It is the committed state's table (per flag the tile and each side's cards, environment
    cards included, and the off-line cards), not the raw read.  Where the referee is lenient
    (the order of a column or of an off-line pile, the pile a discard lies on, a claimed tile
    not moved yet) the arrangement is the one seen, the players' answers applied: the label
    then says what the frame shows.
    """
    table = Table.from_state(game)
    if same_table(table, seen):
        table = seen
    flags = tuple(FlagObservation(n, table.tiles[n - 1], table.side(n, "north"),
                                  table.side(n, "south"))
                  for n in range(1, FLAG_COUNT + 1))
    return Observation(flags, table.offline_north, table.offline_south)


def _read_at(view: Table, d: Doubt) -> Card | None:
    cards = view.cards_at(d.where)
    return cards[d.index] if 0 <= d.index < len(cards) else None


def _blame_glare(found: Unexplained, committed: Table, view: Table,
                 glare: Sequence[int]) -> Unexplained:
    """`found`, or the glare when the table seen differs from the committed one at flags
    the camera saw under glare: there it may miss or misread cards (`vision.glare`), and a
    card "taken away" or "moved" is more likely a card it cannot see.  The players are told
    to take the glare away; the table is then judged again as it is."""
    hidden = tuple(n for n in glare if committed.tiles[n - 1] != view.tiles[n - 1]
                   or any(committed.side(n, s) != view.side(n, s) for s in SIDES))
    if not hidden:
        return found
    where = f"flag {hidden[0]}" if len(hidden) == 1 else \
        "flags " + ", ".join(str(n) for n in hidden)
    params: dict[str, object] = {"flag": hidden[0], "flags": hidden,
                                 "diff": _diff_parts(committed, view)}
    if len(hidden) > 1:
        params["case"] = "many"
    return Unexplained("glare", f"glare over {where} may hide or change the cards there "
                                f"({_diff(committed, view)}); shade the light or move the "
                                "lamp", params)


def _diff_parts(expected: Table, seen: Table) -> tuple[Part, ...]:
    """`_diff` as message parts (`companion.rules.messages`), for either language."""
    where_e, _ = expected.locations()
    where_s, _ = seen.locations()
    out: list[Part] = []
    for card, loc in where_e.items():
        if card not in where_s:
            out.append(Part("diff.missing", {"card": card, "place": loc}))
        elif where_s[card] != loc and not (loc.offline and where_s[card].offline):
            out.append(Part("diff.moved", {"card": card, "place": where_s[card],
                                           "expected": loc}))
    for card, loc in where_s.items():
        if card not in where_e:
            out.append(Part("diff.extra", {"card": card, "place": loc}))
    for n in range(FLAG_COUNT):
        if expected.tiles[n] != seen.tiles[n] and not (
                expected.tiles[n] in SIDES and seen.tiles[n] == "line"):
            out.append(Part("diff.tile", {"flag": n + 1, "seen": seen.tiles[n],
                                          "recorded": expected.tiles[n]}))
    return tuple(out[:4]) or (Part("diff.order"),)


def _diff(expected: Table, seen: Table) -> str:
    """A short list of where the table and the record disagree."""
    where_e, _ = expected.locations()
    where_s, _ = seen.locations()
    out: list[str] = []
    for card, loc in where_e.items():
        if card not in where_s:
            out.append(f"{card} missing from {loc}")
        elif where_s[card] != loc and not (loc.offline and where_s[card].offline):
            out.append(f"{card} at {where_s[card]} instead of {loc}")
    for card, loc in where_s.items():
        if card not in where_e:
            out.append(f"{card} at {loc} is not in the record")
    for n in range(FLAG_COUNT):
        if expected.tiles[n] != seen.tiles[n] and not (
                expected.tiles[n] in SIDES and seen.tiles[n] == "line"):
            out.append(f"tile {n + 1} is {seen.tiles[n]}, recorded {expected.tiles[n]}")
    return "; ".join(out[:4]) or "the order of the cards"
