"""The Kivy app of the appliance: screens, the worker session, LEDs, buttons, systemd pings.

State lives in the app's Kivy properties (`view`, `lang`, `naming`, the names, ...); screens
bind to them in kv and call the app's methods, which queue requests to the referee's worker
thread.  Nothing here decides: every verdict, violation and doubt comes from the referee.
A failsafe (as in pibooth): an error in a handler is logged and shown on the failsafe screen
instead of killing the appliance.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty,
                             ObjectProperty, StringProperty)
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.errors import CompanionError
from companion.rules.cards import Card
from companion.rules.messages import has_template, message
from companion.rules.position import Side

from .prefs import Prefs
from companion.appliance.status import Preview, Status

from .strings import tr
from companion.referee.display import IDLE, Display, Problem

if TYPE_CHECKING:
    from companion.appliance.session import Session
    from companion.referee.referee import Referee

log = logging.getLogger(__name__)

DEFAULT_NAMES = {"north": ("North", "Nord"), "south": ("South", "Sud")}
SCREENS = ("table", "flag", "fix", "moves", "settings", "calibration", "enrol", "history",
           "replay", "failsafe")


class _Failsafe(ExceptionHandler):
    def __init__(self, app: CompanionApp) -> None:
        super().__init__()
        self.app = app

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, (KeyboardInterrupt, SystemExit)):
            return ExceptionManager.RAISE
        log.exception("a screen handler failed; showing the failsafe screen", exc_info=inst)
        self.app.failures += 1
        try:
            self.app.show_failsafe(inst)
        except Exception:  # noqa: BLE001 - last resort: keep the loop alive
            log.exception("the failsafe screen failed too")
        return ExceptionManager.PASS


class CompanionApp(App):
    """The touchscreen referee.

    `session` is the running companion (`companion.appliance.session.Session`: camera, eyes
    and referee on their own thread), built by whoever starts the app; the screens attach to
    it and only ever see what it posts.  `make_referee(prefs)` builds a fresh referee for a
    new game;
    `leds`, `buttons_factory`, `notifier` and `store` are optional (mock LEDs on a laptop).
    """

    view = ObjectProperty(IDLE, rebind=True)
    lang = StringProperty("en")
    naming = StringProperty("gmt-en")
    north_name = StringProperty("North")
    south_name = StringProperty("South")
    timing = StringProperty("standard")
    edition = StringProperty("battle-line")
    rounds = NumericProperty(1)
    event = StringProperty("")               # the event of the next matches (settings)
    u = NumericProperty(1.0)                 # layout unit: 1.0 on an 800x480 screen
    message = StringProperty("")             # the last answer of the referee, for a moment
    turn_text = StringProperty("")
    score_text = StringProperty("")
    north_text = StringProperty("")          # name and Tactics played, by each side's edge
    south_text = StringProperty("")
    problem_text = StringProperty("")
    selected_flag = NumericProperty(1)
    proofs = DictProperty({})                # side -> the rules' ClaimVerdict for selected_flag
    preview = ObjectProperty(None, allownone=True)
    status = ObjectProperty(Status())
    failsafe_text = StringProperty("")
    ready = BooleanProperty(False)
    history = ListProperty([])
    replay_id = NumericProperty(0)
    replay_views = ListProperty([])
    replay_step = NumericProperty(0)
    replay_view = ObjectProperty(IDLE, rebind=True)
    replay_text = StringProperty("")
    replay_playing = BooleanProperty(False)  # autoplay of the replay
    replay_names = ListProperty([])          # the replayed match's players, north first
    replay_popup = ObjectProperty(None, allownone=True)   # the proof shown, if any
    enrol_index = NumericProperty(0)         # the card the enrol screen asks for
    enrol_text = StringProperty("")

    def __init__(self, make_referee: Callable[[Prefs], Referee], session: Session,
                 *, leds: Any = None, buttons_factory: Callable[[Callable[[Side, str], None]], Any]
                 | None = None, notifier: Any = None, store: Any = None,
                 prefs: Prefs | None = None, deck_path: Any = None, failsafe: bool = True,
                 start_screen: str = "table", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = "Battle Line"
        self._make_referee = make_referee
        self.leds = leds
        self._buttons_factory = buttons_factory
        self.buttons: Any = None
        self.notifier = notifier
        self.store = store
        self.deck_path = deck_path
        self.prefs = prefs or Prefs()
        self.session: Session | None = session
        self.failures = 0
        self.started_at = time.perf_counter()
        self.ready_at: float | None = None
        self._failsafe = _Failsafe(self) if failsafe else None
        self._start_screen = start_screen
        self._replay_clock: Any = None
        self._apply_prefs(self.prefs)
        self.bind(lang=self._replay_texts, naming=self._replay_texts)
        self.bind(view=self._texts, lang=self._texts, north_name=self._texts,
                  south_name=self._texts, naming=self._texts)
        self._texts()

    # -- life cycle ------------------------------------------------------------------------------
    def build(self) -> ScreenManager:
        from . import screens  # imports every screen module, which loads its .kv once

        Window.bind(size=self._resize)
        self._resize(Window, Window.size)
        manager = ScreenManager(transition=NoTransition())
        for name in SCREENS:
            manager.add_widget(screens.SCREEN_CLASSES[name](name=name))
        if self._failsafe is not None:
            ExceptionManager.add_handler(self._failsafe)
        return manager

    def on_start(self) -> None:
        assert self.session is not None
        self.session.attach(self.post, self._on_view, self._on_status, self._on_preview)
        self.session.start()
        if self._buttons_factory is not None:
            self.buttons = self._buttons_factory(self._on_button)
        if self._start_screen != "table":
            self.go(self._start_screen)
        Clock.schedule_once(self._on_first_frame, 0)
        if self.notifier is not None:
            interval = self.notifier.watchdog_interval()
            if interval:
                # Pinged from the Kivy loop itself: if the UI hangs, systemd restarts us.
                Clock.schedule_interval(self._watchdog, interval)

    WORKER_MAX_SILENCE = 20.0   # seconds; under the unit's WatchdogSec=30

    def _watchdog(self, dt: float) -> None:
        # Pinged from the Kivy loop, and only while the worker is alive too: a hung UI or a
        # hung camera/referee thread both stop the pings, and systemd restarts the service.
        if self.notifier is not None and (self.session is None or
                                          self.session.healthy(self.WORKER_MAX_SILENCE)):
            self.notifier.watchdog()

    def _on_first_frame(self, dt: float) -> None:
        self.ready = True
        self.ready_at = time.perf_counter()
        if self.notifier is not None:
            self.notifier.ready(status="referee ready")

    def on_stop(self) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker and the hardware; safe to call twice."""
        if self.notifier is not None:
            self.notifier.stopping()
        self.replay_pause()
        Window.unbind(size=self._resize)
        if self._failsafe is not None:
            if self._failsafe in ExceptionManager.handlers:
                ExceptionManager.remove_handler(self._failsafe)
        for name in ("buttons", "session"):
            thing = getattr(self, name)
            setattr(self, name, None)
            if thing is not None:
                thing.close()
        if self.leds is not None:
            self.leds.show(None)   # everything off between games

    @staticmethod
    def post(fn: Callable[[], None]) -> None:
        """Run `fn` on the Kivy thread at the next frame (safe from any thread)."""
        Clock.schedule_once(lambda dt: fn(), 0)

    def _resize(self, window: Any, size: tuple[int, int]) -> None:
        w, h = size
        self.u = max(0.6, min(w / 800.0, h / 480.0))

    # -- following the referee -----------------------------------------------------------------
    def _on_view(self, view: Display) -> None:
        self.view = view

    def _on_status(self, status: Status) -> None:
        was = self.status.waiting
        self.status = status
        if status.waiting is not None and was is None:
            self.say(tr("status.camera_lost", self.lang, error=status.waiting))
        elif status.waiting is None and was is not None:
            self.say(tr("status.camera_back", self.lang))

    def _on_preview(self, preview: Preview) -> None:
        self.preview = preview

    def side_name(self, side: str | None) -> str:
        """A player's name; the default names follow the language."""
        if side not in ("north", "south"):
            return ""
        name = self.north_name if side == "north" else self.south_name
        if name in DEFAULT_NAMES[side]:
            return tr(f"side.{side}", self.lang)
        return name

    def card_name(self, card: Card | None) -> str:
        return "?" if card is None else card.name(self.naming)  # type: ignore[arg-type]

    def problem_line(self, p: Problem) -> str:
        if p.kind == "doubt":
            where = self.where_text(p)
            if p.second is None:
                return tr("problem.doubt_single", self.lang, where=where, best=self.card_name(p.best))
            return tr("problem.doubt", self.lang, where=where, best=self.card_name(p.best),
                      second=self.card_name(p.second))
        return tr("problem.violation", self.lang, message=self.said(p.reason, p.params, p.message))

    def said(self, reason: str | None, params: Any, english: str) -> str:
        """A referee's or the rules' sentence in the screen's language, card names and
        players' names (`companion.rules.messages`); `english` when it has no template."""
        if reason is None or params is None or not has_template(reason, params):
            return english
        names = {side: self.side_name(side) for side in ("north", "south")}
        try:
            return message(reason, params, self.lang, self.naming, names)
        except CompanionError:
            log.exception("no %s text for %s", self.lang, reason)
            return english

    def where_text(self, p: Problem) -> str:
        side = tr(f"side.{p.side}", self.lang) if p.side else ""
        if p.flag:
            return f"{tr('flag', self.lang, n=p.flag)} {side}".strip()
        return p.message

    def _texts(self, *_: Any) -> None:
        v = self.view
        if v.winner is not None:
            self.turn_text = tr("winner", self.lang, name=self.side_name(v.winner))
        elif v.to_move is not None and v.in_game:
            self.turn_text = tr("turn", self.lang, name=self.side_name(v.to_move))
        else:
            self.turn_text = tr("status.waiting", self.lang)
        self.score_text = "   ".join((
            tr("round", self.lang, n=v.round),
            tr("scores", self.lang, north=v.scores[0], south=v.scores[1])))
        for i, side in enumerate(("north", "south")):
            parts = [self.side_name(side), tr("tactics.one", self.lang, n=v.tactics[i])]
            if v.offline[i]:
                # Guile cards played and discards, beyond the ends of the line on that side.
                parts.append(tr("offline", self.lang, cards=", ".join(
                    c.name(self.naming) for c in v.offline[i])))  # type: ignore[arg-type]
            setattr(self, f"{side}_text", "  ·  ".join(parts))
        if v.problems:
            self.problem_text = tr("problems.count", self.lang, n=len(v.problems),
                                   first=self.problem_line(v.problems[0]))
        elif v.waiting:
            self.problem_text = self.said("waiting", v.waiting_params, v.waiting)
        else:
            self.problem_text = ""

    # -- navigation -------------------------------------------------------------------------------
    def go(self, name: str) -> None:
        manager = self.root
        if manager is not None:
            manager.current = name
            if self.session is not None:
                # Only the calibration screen needs pictures: no resizing work otherwise.
                self.session.want_preview = name in ("calibration", "enrol")

    def show_failsafe(self, exc: BaseException) -> None:
        self.failsafe_text = tr("error.failsafe", self.lang, message=str(exc) or type(exc).__name__)
        self.go("failsafe")

    def say(self, text: str) -> None:
        self.message = text

    def _refused(self, exc: BaseException) -> None:
        # The referee refused a player's request: show its sentence, it names the problem.
        self.say(self.said(getattr(exc, "reason", None), getattr(exc, "params", None), str(exc)))

    # -- player requests (queued to the worker; the referee decides) ------------------------------
    def _call(self, fn: Callable[[Any], Any], on_done: Callable[[Any], None] | None = None) -> None:
        if self.session is not None:
            self.session.call(fn, on_done, self._refused)

    def lock_camera(self) -> None:
        session = self.session
        if session is not None:
            self._call(lambda r: session.lock_camera(),
                       lambda controls: self.say(tr("calib.locked", self.lang)))

    def open_flag(self, number: int) -> None:
        self.selected_flag = number
        self.proofs = {}
        self._call(lambda r: {s: r.prove(number, s) for s in ("north", "south")},
                   self._got_proofs(number))
        self.go("flag")

    def _got_proofs(self, number: int) -> Callable[[Any], None]:
        def done(proofs: dict[str, Any]) -> None:
            if self.selected_flag == number:
                self.proofs = proofs
        return done

    def prove(self, side: Side) -> None:
        number = self.selected_flag
        self._call(lambda r: r.prove(number, side),
                   lambda v: self._got_proofs(number)({**self.proofs, side: v}))

    def claim(self, side: Side) -> None:
        number = self.selected_flag

        def done(verdict: Any) -> None:
            self._got_proofs(number)({**self.proofs, side: verdict})
            key = "claim.accepted" if verdict.valid else "claim.refused"
            self.say(tr(key, self.lang, name=self.side_name(side), n=number))
        self._call(lambda r: r.request_claim(number, side), done)

    def pass_turn(self, side: Side | None = None) -> None:
        who = side or self.view.to_move
        if who is not None:
            self._call(lambda r: r.pass_turn(who))

    def confirm(self, problem: Problem, card: Card) -> None:
        doubt = problem.source
        self._call(lambda r: r.confirm(doubt, card))

    def correct(self, index: int, card: Card) -> None:
        self._call(lambda r: r.correct(index, card))

    def undo_to(self, index: int) -> None:
        self._call(lambda r: r.undo_to(index))

    def new_game(self, edition: str | None = None) -> None:
        """A new match with the preferences; `edition` (asked when the match starts) is
        remembered with them."""
        if edition is not None and edition != self.prefs.edition:
            self.set_pref(edition=edition)
        prefs = self.prefs

        def swap(r: Any) -> None:
            assert self.session is not None
            self.session.swap_referee(self._make_referee(prefs))
        self._call(swap)

    def _on_button(self, side: Side, role: str) -> None:
        """A hardware button (gpiozero's thread): queue it to the referee, as a tap would."""
        def act(r: Any) -> Any:
            state = r.state
            if role == "pass":
                return r.pass_turn(side)
            if state.doubts:
                # Claim/confirm: the pipeline's best read is right.
                return r.confirm(state.doubts[0], state.doubts[0].best)
            return [r.request_claim(n, side) for n in state.claimable_flags(side)]
        if self.session is not None:
            self.session.call(act, None, lambda e: self.post(lambda: self._refused(e)))

    # -- settings -----------------------------------------------------------------------------------
    def _apply_prefs(self, prefs: Prefs) -> None:
        self.prefs = prefs
        self.lang, self.naming = prefs.lang, prefs.naming
        self.north_name, self.south_name = prefs.north_name, prefs.south_name
        self.timing, self.rounds = prefs.timing, prefs.rounds
        self.edition = prefs.edition
        self.event = prefs.event

    def set_pref(self, **changes: Any) -> None:
        try:
            prefs = self.prefs.with_(**changes)
        except CompanionError as exc:
            self.say(str(exc))
            return
        self._apply_prefs(prefs)
        self._texts()
        # Written by the worker: the Kivy thread never waits on the disk.
        self._call(lambda r: prefs.save())

    # -- history and replay ---------------------------------------------------------------------------
    REPLAY_SECONDS = 1.0    # autoplay: one move a second, slow enough to follow at the table

    def load_history(self) -> None:
        """The matches worth listing (something was played), summarised off the Kivy thread."""
        store = self.store
        if store is None:
            self.history = []
            return
        from companion.record.summary import summaries
        self._call(lambda r: summaries(store, played_only=True),
                   lambda rows: setattr(self, "history", list(rows)))

    def open_replay(self, match_id: int) -> None:
        store = self.store
        if store is None:
            return

        def load(r: Any) -> Replay:
            return load_replay(store, match_id)

        def done(replay: Replay) -> None:
            self.replay_pause()
            self.replay_id = match_id
            self._replay = replay
            self.replay_names = list(replay.names)
            self.replay_views = list(replay.views)
            self.replay_step = -1
            self.replay_go(0)
            self.go("replay")
        self._call(load, done)

    def replay_go(self, step: int) -> None:
        if not self.replay_views:
            return
        step = max(0, min(int(step), len(self.replay_views) - 1))
        self.replay_step = step
        self.replay_view = self.replay_views[step]
        self._replay_texts()

    def _replay_texts(self, *_: Any) -> None:
        replay = getattr(self, "_replay", None)
        if replay is None or not self.replay_views:
            self.replay_text = ""
            return
        from .words import describe
        step = int(self.replay_step)
        action, rnd = replay.actions[step], replay.rounds[step]
        if action is None:
            text = tr("moves.start", self.lang) if rnd == 1 else \
                tr("replay.round_start", self.lang, r=rnd)
        else:
            text = tr("replay.step", self.lang, i=step, n=len(self.replay_views) - 1,
                      action=describe(action, self.lang, self.naming,
                                      self.replay_name(action.player)))
        self.replay_text = text

    def replay_name(self, side: str | None) -> str:
        """A player's name in the replayed match; the default names follow the language."""
        if side not in ("north", "south") or not self.replay_names:
            return self.side_name(side)
        name = self.replay_names[0 if side == "north" else 1]
        return tr(f"side.{side}", self.lang) if name in DEFAULT_NAMES[side] else name

    def replay_toggle(self) -> None:
        if self.replay_playing:
            self.replay_pause()
        else:
            self.replay_play()

    def replay_play(self) -> None:
        if not self.replay_views:
            return
        if self.replay_step >= len(self.replay_views) - 1:
            self.replay_go(0)           # at the end, Play starts again from the beginning
        self.replay_playing = True
        if self._replay_clock is None:
            self._replay_clock = Clock.schedule_interval(self._replay_tick, self.REPLAY_SECONDS)

    def replay_pause(self) -> None:
        self.replay_playing = False
        if self._replay_clock is not None:
            self._replay_clock.cancel()
            self._replay_clock = None

    def _replay_tick(self, dt: float) -> None:
        if self.replay_step >= len(self.replay_views) - 1:
            self.replay_pause()
            return
        self.replay_go(self.replay_step + 1)
        if self.replay_step >= len(self.replay_views) - 1:
            self.replay_pause()

    def replay_proof(self, flag: int) -> Any:
        """The proof of the claim that took `flag` in the step shown, in a popup (None when
        the flag is not claimed there)."""
        replay = getattr(self, "_replay", None)
        if replay is None or not self.replay_views:
            return None
        claim = replay.claim_at(int(self.replay_step), flag)
        if claim is None:
            return None
        from .replay import ProofPopup
        popup = ProofPopup(
            title_text=tr("replay.proof_title", self.lang, n=flag,
                          name=self.replay_name(claim.player)),
            proof_text=claim.proof(lang=self.lang, naming=self.naming))  # type: ignore[arg-type]
        popup.open()
        self.replay_popup = popup
        return popup


class Replay:
    """A recorded match ready to replay: every round's states as views, the action that led
    to each, and the verdict of each accepted claim (recomputed by the rules from the state
    it was made in, as at the table)."""

    def __init__(self, names: tuple[str, str], views: list[Display],
                 actions: list[Any], rounds: list[int], claims: dict[int, Any]) -> None:
        self.names, self.views, self.actions, self.rounds = names, views, actions, rounds
        self.claims = claims          # step -> the ClaimVerdict of the claim made there

    def claim_at(self, step: int, flag: int) -> Any:
        """The verdict of the claim that took `flag`, as seen at `step` (its round only)."""
        rnd = self.rounds[step]
        for i in range(step, -1, -1):
            if self.rounds[i] != rnd:
                return None
            verdict = self.claims.get(i)
            if verdict is not None and verdict.flag == flag:
                return verdict
        return None


def load_replay(store: Any, match_id: int) -> Replay:
    """Read and replay a match (on the worker: it reads the disk and runs the prover)."""
    from companion.record.replay import iter_states, parse_action, split_rounds
    from companion.record.summary import player_names
    from companion.referee.display import display_of_game
    from companion.rules.actions import Claim
    from companion.rules.prover import prove

    header = store.header(match_id)
    entries = store.entries(match_id)
    views: list[Display] = []
    actions: list[Any] = []
    rounds: list[int] = []
    claims: dict[int, Any] = {}
    for number in range(1, len(split_rounds(entries, header.rounds)) + 1):
        done: list[Any] = []
        before = None
        for entry, state in iter_states(header, entries, round=number):
            action = None
            if entry is not None:
                action = parse_action(entry.action)
                done.append(action)
                if isinstance(action, Claim) and before is not None:
                    claims[len(views)] = prove(before.position(), action.flag, action.player)
            views.append(display_of_game(state, tuple(done)))
            actions.append(action)
            rounds.append(number)
            before = state
    return Replay(player_names(header), views, actions, rounds, claims)
