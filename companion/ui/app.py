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
from companion.rules.edition import BATTLE_LINE, EDITIONS, Edition
from companion.rules.messages import has_template, message
from companion.rules.position import Side

from .prefs import Prefs
from companion.appliance.status import Preview, Status

from .strings import tr
from .words import action_sentence, action_words, card_naming, last_action_line, place_words, status_line
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
    edition = StringProperty("battle-line")   # the preferences' edition: the next match's
    match_edition = ObjectProperty(BATTLE_LINE)   # the edition of the match on the table
    rounds = NumericProperty(1)
    event = StringProperty("")               # the event of the next matches (settings)
    u = NumericProperty(1.0)                 # layout unit: 1.0 on an 800x480 screen
    message = StringProperty("")             # the last answer of the referee, for a moment
    turn_text = StringProperty("")
    score_text = StringProperty("")
    north_text = StringProperty("")          # name and Tactics played, by each side's edge
    south_text = StringProperty("")
    problem_text = StringProperty("")
    status_text = StringProperty("")         # what the companion waits for, always
    last_text = StringProperty("")           # the last committed action, in words
    naming_pref = StringProperty("gmt-en")   # the edition chosen; `naming` is its names in `lang`
    undo_text = StringProperty("")           # the undo being asked about ("" when none)
    undo_index = NumericProperty(-1)
    crop = ObjectProperty(None, allownone=True, force_dispatch=True)  # the camera crop (an array)
    fixing = ObjectProperty(None, allownone=True)  # the card tapped on the table, to correct
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
    replay_edition = ObjectProperty(BATTLE_LINE)   # the replayed match's edition
    replay_naming = StringProperty("gmt-en")       # its card names in the screen's language
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
        self.bind(lang=self._replay_naming, naming=self._replay_naming,
                  replay_edition=self._replay_naming)
        self._message_of: Callable[[], str] | None = None
        self._message_clear: Any = None
        self.bind(view=self._texts, lang=self._texts, north_name=self._texts,
                  south_name=self._texts, naming=self._texts, status=self._texts,
                  match_edition=self._texts)
        self.bind(lang=self._retell)
        self._texts()
        self._replay_naming()

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
        old = self.view
        self._follow_edition(view)
        self.view = view
        if (view.round, view.mode) != (old.round, old.mode) and self._message_of is not None:
            self.say("")   # a refusal or an answer about the last round or mode is stale now

    def _on_status(self, status: Status) -> None:
        was = self.status.waiting
        self.status = status
        if status.waiting is None and was is not None:
            self.say_key("status.camera_back")

    def _on_preview(self, preview: Preview) -> None:
        self.preview = preview

    def _follow_edition(self, view: Display | None = None) -> None:
        """The edition whose words and cards the table shows: the match's while one is on,
        the preferences' (the next match's) between matches."""
        view = view or self.view
        key = view.edition if view.in_game else self.edition
        self.match_edition = EDITIONS.get(key, BATTLE_LINE)

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

    def names(self) -> dict[str, str]:
        return {side: self.side_name(side) for side in ("north", "south")}

    def action_text(self, action: Any) -> str:
        return action_words(action, self.lang, self.naming, self.names(),  # type: ignore[arg-type]
                            self.match_edition)

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
        place = getattr(p.source, "where", None)
        if place is not None and hasattr(place, "offline"):
            return place_words(place, self.lang, self.names(), self.match_edition)
        if p.flag:
            return tr("flag", self.lang, self.match_edition, n=p.flag)
        return p.message

    def _texts(self, *_: Any) -> None:
        v = self.view
        if v.winner is not None:
            self.turn_text = tr("winner", self.lang, name=self.side_name(v.winner))
        elif v.to_play is not None and v.in_game:
            self.turn_text = tr("turn", self.lang, name=self.side_name(v.to_play))
        else:
            self.turn_text = tr("status.waiting", self.lang)
        self.score_text = "   ".join((
            tr("round", self.lang, n=v.round),
            tr("scores", self.lang, north=v.scores[0], south=v.scores[1])))
        for i, side in enumerate(("north", "south")):
            # The Tactics count first: it is never the part cut off.
            parts = [self.side_name(side), tr("tactics.one", self.lang, n=v.tactics[i])]
            if v.offline[i]:
                # Guile cards played and discards, beyond the ends of the line on that side.
                parts.append(tr("offline", self.lang, cards=", ".join(
                    c.name(self.naming) for c in v.offline[i])))  # type: ignore[arg-type]
            setattr(self, f"{side}_text", "  ·  ".join(parts))
        if v.problems:
            first = self.problem_line(v.problems[0])
            self.problem_text = first if len(v.problems) == 1 else \
                tr("problems.count", self.lang, n=len(v.problems), first=first)
        elif v.waiting:
            self.problem_text = self.said("waiting", v.waiting_params, v.waiting)
        else:
            self.problem_text = ""
        names = self.names()
        self.status_text = status_line(v, self.status, self.lang, self.naming,  # type: ignore[arg-type]
                                       names, self.problem_text, self.match_edition)
        self.last_text = last_action_line(v, self.lang, self.naming,  # type: ignore[arg-type]
                                          names, self.match_edition)

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

    MESSAGE_SECONDS = 12.0   # an answer stays this long, then the status line speaks alone

    def say(self, text: str | Callable[[], str]) -> None:
        """Show an answer for a moment; a callable is asked again when the language changes
        (the answer then follows the language of the table)."""
        self._message_of = text if callable(text) else (lambda: text)
        self.message = self._message_of()
        if self._message_clear is not None:
            self._message_clear.cancel()
            self._message_clear = None
        if self.message:
            self._message_clear = Clock.schedule_once(lambda dt: self.say(""),
                                                      self.MESSAGE_SECONDS)

    def say_key(self, key: str, **values: Any) -> None:
        self.say(lambda: tr(key, self.lang, **values))

    def _retell(self, *_: Any) -> None:
        if self._message_of is not None:
            self.message = self._message_of()

    def _refused(self, exc: BaseException) -> None:
        # The referee refused a player's request: show its sentence, it names the problem.
        reason, params = getattr(exc, "reason", None), getattr(exc, "params", None)
        if reason is None and isinstance(exc, CompanionError):
            log.info("request refused: %s", exc)
        self.say(lambda: self.said(reason, params, str(exc)))

    # -- player requests (queued to the worker; the referee decides) ------------------------------
    def _call(self, fn: Callable[[Any], Any], on_done: Callable[[Any], None] | None = None) -> None:
        if self.session is not None:
            self.session.call(fn, on_done, self._refused)

    def lock_camera(self) -> None:
        session = self.session
        if session is not None and session.source_locks:
            self._call(lambda r: session.lock_camera(),
                       lambda controls: self.say_key("calib.locked"))
        else:
            self.say_key("calib.no_lock")

    def open_flag(self, number: int) -> None:
        self.selected_flag = number
        self.proofs = {}
        won = self.view.claim_proof(number)

        def ask(r: Any) -> dict[str, Any]:
            proofs = {s: r.prove(number, s) for s in ("north", "south")}
            if won is not None:
                proofs[won.player] = won   # a taken flag keeps the proof that took it
            return proofs
        self._call(ask, self._got_proofs(number))
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
            self.say(lambda: tr(key, self.lang, self.match_edition, name=self.side_name(side),
                                n=number))
        self._call(lambda r: r.request_claim(number, side), done)

    def pass_turn(self, side: Side | None = None) -> None:
        who = side or self.view.to_play
        if who is not None:
            self._call(lambda r: r.pass_turn(who))

    def confirm(self, problem: Problem, card: Card | None) -> None:
        """The players' answer to a doubtful read (`None`: there is no card there)."""
        doubt = problem.source
        where = self.where_text(problem)
        self._call(lambda r: r.confirm(doubt, card), lambda _: self._picked_said(card, where))

    def _picked_said(self, card: Card | None, where: str) -> None:
        if card is None:
            self.say(lambda: tr("fix.picked_none", self.lang, where=where))
        else:
            self.say(lambda: tr("fix.picked", self.lang, card=self.card_name(card), where=where))

    def open_card(self, flag: int, side: Side, index: int) -> None:
        """A tap on a card of the table: correct it (the fix screen asks which card it is)."""
        cards = self.view.flag(flag).cards(side)
        if not 0 <= index < len(cards):
            return
        from companion.rules.place import Place
        card = cards[index]
        action = None
        for i in range(len(self.view.moves) - 1, -1, -1):
            if getattr(self.view.moves[i], "card", None) == card:
                action = i
                break
        self.fixing = {"place": Place(flag, side), "index": index, "card": card,
                       "action": action}
        self.ask_crop(flag, side)
        self.go("fix")

    def ask_crop(self, flag: int | None, side: str | None) -> None:
        """The camera's picture of that place, for the fix screen (cut on the worker)."""
        self.crop = None
        session = self.session
        if session is None or not flag or side not in ("north", "south"):
            return
        self._call(lambda r: session.crop(flag, side), lambda img: setattr(self, "crop", img))

    def fix_card(self, card: Card | None) -> None:
        """The card tapped on the table is really `card` (None: there is none)."""
        target, self.fixing = self.fixing, None
        if target is None:
            return
        place, read, action = target["place"], target["card"], target["action"]
        where = place_words(place, self.lang, self.names(), self.match_edition)
        done = (lambda _: self._picked_said(card, where))
        if action is not None and card is not None:
            # A committed move named the wrong card: the move is corrected (and recorded so).
            self._call(lambda r: r.correct(action, card), done)
            return
        from companion.vision.observation import Doubt

        def answer(r: Any) -> Any:
            seen = r.last_stable
            cards = seen.flag(place.flag).side(place.side) if seen is not None else ()
            index = cards.index(read) if read in cards else target["index"]
            return r.confirm(Doubt(place, read, None, 0.0, index), card)
        self._call(answer, done)

    def correct(self, index: int, card: Card) -> None:
        self._call(lambda r: r.correct(index, card))

    def ask_undo(self, index: int) -> None:
        """Ask before undoing: say exactly which moves `undo_to(index)` takes back."""
        moves = self.view.moves[index:]
        if not moves:
            return
        self.undo_index = index
        self._undo_moves = tuple(moves)
        self._undo_words()

    def _undo_words(self, *_: Any) -> None:
        moves = getattr(self, "_undo_moves", ())
        if self.undo_index < 0 or not moves:
            self.undo_text = ""
            return
        words = self._joined(reversed(moves))
        key = "undo.ask_one" if len(moves) == 1 else "undo.ask"
        self.undo_text = tr(key, self.lang, n=len(moves), moves=words)

    def _joined(self, actions: Any) -> str:
        return (" ; " if self.lang == "fr" else "; ").join(self.action_text(a) for a in actions)

    def cancel_undo(self) -> None:
        self.undo_index = -1
        self.undo_text = ""

    def confirm_undo(self) -> None:
        index = int(self.undo_index)
        moves = getattr(self, "_undo_moves", ())
        self.cancel_undo()
        if index < 0 or tuple(self.view.moves[index:]) != tuple(moves):
            return   # the game moved on while the question was asked: ask again
        self.undo_to(index, moves)

    def undo_to(self, index: int, moves: tuple[Any, ...] = ()) -> None:
        def done(_: Any) -> None:
            if moves:
                self.say(lambda: tr("undo.done", self.lang, moves=self._joined(reversed(moves))))
        self._call(lambda r: r.undo_to(index), done)

    def redo(self) -> None:
        moves = tuple(self.view.redo)

        def done(_: Any) -> None:
            self.say(lambda: tr("redo.done", self.lang, moves=self._joined(moves)))
        self._call(lambda r: r.redo(), done)

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
        self.lang, self.naming_pref = prefs.lang, prefs.naming
        self.naming = card_naming(prefs.naming, prefs.lang)
        self.north_name, self.south_name = prefs.north_name, prefs.south_name
        self.timing, self.rounds = prefs.timing, prefs.rounds
        self.edition = prefs.edition
        self.event = prefs.event
        self._follow_edition()

    def set_pref(self, **changes: Any) -> None:
        try:
            prefs = self.prefs.with_(**changes)
        except CompanionError as exc:
            self.say(str(exc))   # a player's own typing, named back as typed
            return
        self._apply_prefs(prefs)
        self._texts()
        self._undo_words()
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
            self.replay_edition = replay.edition
            self._replay_naming()
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
        step = int(self.replay_step)
        action, rnd = replay.actions[step], replay.rounds[step]
        if action is None:
            text = tr("moves.start", self.lang) if rnd == 1 else \
                tr("replay.round_start", self.lang, r=rnd)
        else:
            text = tr("replay.step", self.lang, i=step, n=len(self.replay_views) - 1,
                      action=action_sentence(action, self.lang, self.replay_naming,
                                             self.replay_name(action.player),
                                             self.replay_edition))
        self.replay_text = text

    def _replay_naming(self, *_: Any) -> None:
        """The replayed match's card names: the table's when they are its edition's, the
        edition's own in the screen's language otherwise (a Battle Line match replayed on a
        Schotten Totten table keeps Battle Line's names)."""
        edition = self.replay_edition
        naming = card_naming(self.naming, self.lang)
        if not edition.owns_naming(naming):
            naming = card_naming(edition.naming(self.lang), self.lang)
        self.replay_naming = naming
        self._replay_texts()

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
            title_text=tr("replay.proof_title", self.lang, self.replay_edition, n=flag,
                          name=self.replay_name(claim.player)),
            proof_text=claim.proof(lang=self.lang, naming=self.replay_naming))
        popup.open()
        self.replay_popup = popup
        return popup


class Replay:
    """A recorded match ready to replay: every round's states as views, the action that led
    to each, and the verdict of each accepted claim (recomputed by the rules from the state
    it was made in, as at the table)."""

    def __init__(self, names: tuple[str, str], views: list[Display],
                 actions: list[Any], rounds: list[int], claims: dict[int, Any],
                 edition: Edition = BATTLE_LINE) -> None:
        self.names, self.views, self.actions, self.rounds = names, views, actions, rounds
        self.edition = edition
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
    return Replay(player_names(header), views, actions, rounds, claims,
                  EDITIONS.get(header.edition, BATTLE_LINE))
