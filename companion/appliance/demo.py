"""The main job without a table (contract 3): bots play, the camera is drawn, the referee rules.

Two seeded bots play a full legal game with Tactics (`companion.rules.bots`).  Every moment
of it is drawn by the synthetic renderer as the overhead camera would see it: an arm over
the table while a card is laid, cards in echelon, guile cards beside the line (their effect
sometimes a moment later), claimed tiles moved aside.  The frames go through the real
pipeline (an enrolled deck, `TableReader.read`, the motion test), the referee and the match
record.  At the end the record is compared with what the bots really played.

A run writing to a database that already holds this seed's unfinished match resumes it: the
referee rebuilds the game from the record and the table is drawn again from that point.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from companion.errors import CompanionError
from companion.rules.actions import (
    Action,
    Claim,
    Deserter,
    Draw,
    Pass,
    Play,
    Redeploy,
    Scout,
    Traitor,
    guile_card,
)
from companion.rules.bots import simulate
from companion.rules.cards import BY_CODE, Card
from companion.rules.edition import BATTLE_LINE, EDITIONS, SCHOTTEN_TOTTEN, Edition
from companion.rules.place import Place
from companion.rules.position import FLAG_COUNT, Side
from companion.rules.state import GameState, Settings
from companion.vision.observation import Doubt, Observation
from companion.referee.events import ActionCommitted, ClaimDecided, Event
from companion.referee.referee import Referee
from companion.referee.settings import RefereeSettings

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]   # a BGR frame

    from companion.synth import Hand, Scene

log = logging.getLogger(__name__)

SEED_TAG = "demo_seed"
NUDGES = 3              # times the players straighten the cards before the demo gives up
FRAME_DT = 0.2          # seconds between frames: the rig's camera loop reads about 5 a second


class DemoError(CompanionError):
    """The demo could not run as asked (a record that is not this game, a bad option)."""


@dataclass(frozen=True, slots=True)
class DemoOptions:
    seed: int = 1
    db: Path | None = None
    frames: Path | None = None
    vision: bool = True
    printing: str | None = None     # None: the edition's own (classic, schotten-clan)
    actions: int | None = None      # stop after this many actions (a short demo)
    edition: str = "battle-line"    # battle-line, battle-line-medieval, schotten-totten
    record_frames: bool = False     # save each committing frame in the record, labelled


@dataclass(frozen=True, slots=True)
class DemoResult:
    match_id: int
    played: tuple[Action, ...]        # what the bots really did, as a table shows it
    recorded: tuple[Action, ...]      # the effective actions of the match record
    winner: Side | None
    termination: str
    frames: int
    confirmations: int
    read_fixes: int
    nudges: int
    corrections: int
    undos: int
    resumed_at: int
    seconds: float

    @property
    def agreement(self) -> float:
        if not self.played and not self.recorded:
            return 1.0
        same = sum(1 for a, b in zip(self.played, self.recorded) if a == b)
        return same / max(len(self.played), len(self.recorded))


def visible(action: Action) -> Action | None:
    """An action as a referee at a real table records it: no draws, Scout without its cards."""
    if isinstance(action, Draw):
        return None
    if isinstance(action, Scout):
        return Scout(action.player)
    return action


# -- what the camera sees -----------------------------------------------------------------------
class Eyes(Protocol):
    extra_calm: int
    """Still frames the motion test needs before it calls the table still again."""
    last_frame: Image | None
    """The frame the last observation was read from (None: no frame was read)."""

    def look(self, scene: Scene, moving: bool) -> Observation: ...
    def close(self) -> None: ...


class TruthEyes:
    """No camera: each scene's ground-truth observation (the fast `--no-vision` mode)."""

    extra_calm = 0
    last_frame: Image | None = None

    def look(self, scene: Scene, moving: bool) -> Observation:
        return replace(scene.observation(), motion=moving)

    def close(self) -> None:
        pass


class VisionEyes:
    """The real pipeline on drawn frames: enrol the printing's deck once, then the
    appliance's own `Eyes` (motion test, full read) look at each drawn frame."""

    def __init__(self, printing_name: str, seed: int, frames_dir: Path | None,
                 edition: str = "battle-line") -> None:
        try:
            from companion.synth import printing_named, write_deck_images
            from companion.vision import deck as deck_mod
            from companion.vision.pipeline import TableReader

            from .eyes import Eyes
        except ImportError as exc:
            raise DemoError(f"the vision pipeline cannot be loaded ({exc}); "
                            "--no-vision runs the demo without it") from None

        try:
            printing = printing_named(printing_name)
        except CompanionError as exc:
            raise DemoError(str(exc)) from None
        if (printing.edition == "schotten-totten") != (edition == "schotten-totten"):
            raise DemoError(f"printing {printing_name!r} is a deck of "
                            f"{EDITIONS[printing.edition].title}, not of "
                            f"{EDITIONS[edition].title}: choose a printing of the edition "
                            "(schotten-clan, schotten-banner for Schotten Totten)")
        self.printing = printing
        self.seed = seed
        self.frames_dir = frames_dir
        self._tmp = tempfile.TemporaryDirectory(prefix="companion-demo-deck-")
        write_deck_images(printing, Path(self._tmp.name))
        self.reader = TableReader(deck_mod.enrol(Path(self._tmp.name),
                                                 (printing.card_w, printing.card_h)))
        self.eyes = Eyes(self.reader)
        self.extra_calm = self.eyes.settle_frames
        self.count = 0
        self._scene: Scene | None = None
        self._frame: Image | None = None
        self._lores: Image | None = None
        self.last_frame: Image | None = None
        if frames_dir is not None:
            frames_dir.mkdir(parents=True, exist_ok=True)

    def look(self, scene: Scene, moving: bool) -> Observation:
        from companion.synth import render_lores
        self.count += 1
        if scene != self._scene:
            # The same scene and seed draw the same pixels: a still table is drawn once, and
            # the full frame only when something looks at it.
            self._scene = scene
            self._frame = None
            self._lores = render_lores(scene, self.printing, seed=self.seed)
        if self.frames_dir is not None:
            self._save(self._main())
        assert self._lores is not None
        sight = self.eyes.look(self._lores, self._main)
        self.last_frame = sight.frame if sight.error is None else None
        assert sight.observation is not None    # the eyes have a reader
        return sight.observation

    @property
    def reads(self) -> int:
        return self.eyes.reads

    @property
    def unreadable(self) -> int:
        return self.eyes.unreadable

    def _main(self) -> Image:
        from companion.synth import render
        if self._frame is None:
            assert self._scene is not None
            self._frame = render(self._scene, self.printing, seed=self.seed)
        return self._frame

    def _save(self, frame: Image) -> None:
        import cv2
        assert self.frames_dir is not None
        cv2.imwrite(str(self.frames_dir / f"frame-{self.count:05d}.jpg"), frame,
                    [cv2.IMWRITE_JPEG_QUALITY, 85])

    def close(self) -> None:
        self.eyes.close()
        self._tmp.cleanup()


# -- drawing the table --------------------------------------------------------------------------
def scene_of(state: GameState, table_seed: int, hand: Hand | None = None,
             extra_offline: tuple[Side, Card] | None = None) -> Scene:
    """The synthetic scene of a game state: what lies on the table at that moment."""
    from companion.synth import FlagScene, Scene
    position = state.position()
    flags = tuple(FlagScene(n, position.flag(n).claimed or "line",
                            state.layout(n, "north"), state.layout(n, "south"))
                  for n in range(1, FLAG_COUNT + 1))
    off = {"north": state.offline("north"), "south": state.offline("south")}
    if extra_offline is not None:
        side, card = extra_offline
        off[side] = off[side] + (card,)
    return Scene(flags, off["north"], off["south"], hand, table_seed)


def _hand_for(action: Action) -> Hand:
    """An arm reaching from the player's edge towards where the action happens."""
    from companion.vision.geometry import FLAG_PITCH
    from companion.synth import Hand
    flag = getattr(action, "to_flag", None) or getattr(action, "flag", None) \
        or getattr(action, "from_flag", None) or (9 if action.player == "north" else 1)
    sign = -1.0 if action.player == "north" else 1.0
    return Hand(action.player, (flag - 5) * FLAG_PITCH, sign * 110.0, angle_deg=8.0 * sign)


@dataclass(frozen=True, slots=True)
class _Moment:
    """One visible action: the table before and after, and the true state indices."""

    action: Action
    before: GameState
    after: GameState


def _moments(seed: int, settings: Settings) -> tuple[list[_Moment], GameState]:
    game = simulate(seed, first="south", settings=settings)
    states = game.states()
    out: list[_Moment] = []
    for j, action in enumerate(game.actions):
        seen = visible(action)
        if seen is not None:
            out.append(_Moment(seen, states[j], states[j + 1]))
    return out, game.final


def _frames(m: _Moment, seed: int, two_step: bool, calm: int,
            rest: int = 0) -> Iterator[tuple[Scene, bool]]:
    """The frames of one moment, as (scene, moving): the arm reaches over the table, the
    card goes down, the arm may rest there still for `rest` frames (a hand the camera sees
    but no motion), then the table stays calm for `calm` frames."""
    hand = _hand_for(m.action)
    after = scene_of(m.after, seed)
    guile = guile_card(m.action)
    if two_step and guile is not None and not isinstance(m.action, Scout):
        # The guile card first, calm long enough to be read; its effect a moment later (D5).
        yield scene_of(m.before, seed, hand, (m.action.player, guile)), True
        mid = scene_of(m.before, seed, None, (m.action.player, guile))
        for _ in range(calm):
            yield mid, False
    yield scene_of(m.before, seed, hand), True
    with_hand = scene_of(m.after, seed, hand)
    yield with_hand, True
    for _ in range(rest):
        yield with_hand, False
    for _ in range(calm):
        yield after, False


def _nudged(m: _Moment, table_seed: int, calm: int) -> Iterator[tuple[Scene, bool]]:
    """Hands straighten the cards (the table lies a little differently), then calm."""
    hand = _hand_for(m.action)
    yield scene_of(m.after, table_seed, hand), True
    after = scene_of(m.after, table_seed)
    for _ in range(calm):
        yield after, False


def _describe(action: Action, edition: Edition = BATTLE_LINE) -> str:
    """The action in words, with the edition's names (`stone 3`, `Recruiter`)."""
    who = action.player
    naming = edition.naming("en")
    flag = edition.word("flag")

    def name(card: Card) -> str:
        return card.name(naming)

    match action:
        case Play():
            kind = {"environment": "lays", "morale": "plays"}.get(action.card.family, "plays")
            return f"{who} {kind} {name(action.card)} at {flag} {action.flag}"
        case Scout():
            return f"{who} plays {name(BY_CODE['SCOUT'])}"
        case Redeploy():
            to = "discards it" if action.to_flag is None else \
                f"moves it to {flag} {action.to_flag}"
            return f"{who} plays {name(BY_CODE['REDEPLOY'])}: takes {name(action.card)} from " \
                   f"{flag} {action.from_flag} and {to}"
        case Deserter():
            return f"{who} plays {name(BY_CODE['DESERTER'])}: discards {name(action.card)} " \
                   f"from {flag} {action.flag}"
        case Traitor():
            return f"{who} plays {name(BY_CODE['TRAITOR'])}: takes {name(action.card)} from " \
                   f"{flag} {action.from_flag} to {flag} {action.to_flag}"
        case Claim():
            return f"{who} claims {flag} {action.flag}"
        case Pass():
            return f"{who} passes"
    return str(action)


def _find_match(store: object, seed: int, edition: str = "battle-line") -> int | None:
    """The latest unfinished demo match of this seed and edition in the store, if any."""
    best = None
    for info in store.matches():  # type: ignore[attr-defined]
        if info.header.extra.get(SEED_TAG) != str(seed) or info.header.edition != edition:
            continue
        ends = store.entries(info.id, kinds=("round-end",))  # type: ignore[attr-defined]
        if len(ends) < info.header.rounds:
            best = info.id
    return best


class _Players:
    """The two players at the drawn table: they play the bots' moves in front of the camera
    and answer the referee as players would (confirm reads, straighten cards, undo)."""

    def __init__(self, referee: Referee, eyes: Eyes, seed: int, calm: int, rest: int,
                 out: Callable[[str], None]) -> None:
        self.referee, self.eyes, self.out = referee, eyes, out
        self.table_seed = seed
        self.calm, self.rest = calm, rest
        self.t = 0.0
        self.frames = self.confirmations = self.fixes = self.nudges = 0
        self.corrections = self.undos = 0
        self.events: list[Event] = []

    def show(self, script: Iterator[tuple[Scene, bool]], done: Callable[[], bool]) -> None:
        """Film `script`; the players answer after each frame and go on once `done()`."""
        for scene, moving in script:
            self.t += FRAME_DT
            self.frames += 1
            seen = self.eyes.look(scene, moving)
            self.events += self.referee.feed(seen, self.t, frame=self.eyes.last_frame)
            confirmed, fixed, events = _players_answer(self.referee, seen, scene)
            self.confirmations += confirmed
            self.fixes += fixed
            self.events += events
            if done():
                break

    def restore(self, state: GameState) -> None:
        """Put the table back as `state` has it and wait until the referee agrees."""
        self.show(self._still(state, hand=True), lambda: self.referee.state.mode == "playing"
                  and not self.referee.state.violations)

    def _still(self, state: GameState, hand: bool = False) -> Iterator[tuple[Scene, bool]]:
        from companion.synth import Hand
        if hand:
            yield scene_of(state, self.table_seed, Hand("south", 0.0, 120.0)), True
        still = scene_of(state, self.table_seed)
        for _ in range(self.calm):
            yield still, False

    def play(self, i: int, m: _Moment) -> bool:
        """Play moment `i` until the referee has committed it; False if it never does."""
        referee = self.referee
        if isinstance(m.action, Pass):
            self.events += referee.pass_turn(m.action.player)
            return len(referee.state.actions) == i + 1
        script = _frames(m, self.table_seed, i % 2 == 1, self.calm,
                         self.rest if i % 6 == 2 else 0)
        for attempt in range(1 + NUDGES):
            self.show(script, lambda: len(referee.state.actions) > i)
            actions = referee.state.actions
            if len(actions) == i + 1 and actions[i] == m.action:
                return True
            if len(actions) > i and actions[i] != m.action:
                wrong = actions[i]
                card = getattr(m.action, "card", None)
                if card is not None and _same_but_card(wrong, m.action):
                    self.corrections += 1
                    self.out(f"     the players correct action {i + 1}: {wrong} -> {m.action}")
                    self.events += referee.correct(i, card)
                    continue_script = False
                else:
                    # The referee took the table for something else (a card the camera saw
                    # in a gap, say): undo, put the table back, tell it what it misread.
                    self.undos += 1
                    self.out(f"     the players undo action {i + 1} ({wrong}) and play "
                             f"{m.action} again")
                    self.events += referee.undo_to(i)
                    self.restore(m.before)
                    continue_script = True
                if referee.state.actions[i:] == (m.action,):
                    return True
                if not continue_script:
                    return False
                script = _frames(m, self.table_seed, False, self.calm)
                continue
            if len(actions) > i + 1:
                return False
            # Not committed yet: the players straighten the cards, which changes how every
            # card lies, and the camera looks again.
            self.nudges += 1
            self.table_seed += 7919
            script = _nudged(m, self.table_seed, self.calm)
        return False


def _same_but_card(a: Action, b: Action) -> bool:
    """Whether two actions differ only in the card they name (a misread card)."""
    card = getattr(b, "card", None)
    return type(a) is type(b) and card is not None and replace(a, card=card) == b


def run_demo(options: DemoOptions, out: Callable[[str], None] = print) -> DemoResult:
    """Play, draw, read, referee and record one seeded game; the comparison at the end."""
    from companion.record.recorder import open_match
    from companion.record.store import MatchStore

    started = time.perf_counter()
    if options.edition not in EDITIONS:
        raise DemoError(f"unknown edition {options.edition!r}: use {', '.join(EDITIONS)}")
    edition = EDITIONS[options.edition]
    settings = Settings(edition=edition.key, naming=edition.naming("en"))
    printing = options.printing or ("schotten-clan" if edition is SCHOTTEN_TOTTEN else "classic")
    moments, final = _moments(options.seed, settings)
    if options.actions is not None:
        if options.actions < 1:
            raise DemoError(f"--actions must be at least 1, not {options.actions}")
        moments = moments[:options.actions]
        final = moments[-1].after
    played = tuple(m.action for m in moments)
    # The motion test already waits for three still frames; two equal reads then suffice.
    if options.record_frames and not options.vision:
        raise DemoError("--record-frames needs the drawn frames: leave out --no-vision")
    ref_settings = RefereeSettings(stable_frames=2, stable_seconds=0.2, game=settings,
                                   record_frames=options.record_frames)
    eyes: Eyes = VisionEyes(printing, options.seed, options.frames, edition.key) \
        if options.vision else TruthEyes()
    # Frames of a calm table after a move: enough for the motion test and the stable reads,
    # and a few more (a first read after a move may differ); the players go on at the commit.
    calm = ref_settings.stable_frames + eyes.extra_calm + 3
    rest = eyes.extra_calm + 2      # long enough for the motion test to call a resting arm still
    try:
        with MatchStore(options.db) as store:
            match_id = _find_match(store, options.seed, edition.key)
            if match_id is None:
                referee, recorder = open_match(store, ref_settings,
                                               extra={SEED_TAG: str(options.seed)})
                resumed_at = 0
                out(f"match {recorder.match_id}: {edition.title}, seed {options.seed}, "
                    "south plays first")
            else:
                referee, recorder = open_match(store, ref_settings, match_id)
                resumed_at = len(referee.state.actions)
                if tuple(referee.state.actions) != played[:resumed_at]:
                    raise DemoError(f"match {match_id} in {store.path} is not the game of seed "
                                    f"{options.seed}; use another --db")
                out(f"match {match_id}: seed {options.seed}, resumed after {resumed_at} "
                    "recorded actions")
            players = _Players(referee, eyes, options.seed, calm, rest, out)
            # The table as it stands: the referee checks it against the record.
            players.restore(moments[resumed_at - 1].after if resumed_at else
                            GameState.new_table(first="south", settings=settings))
            for i in range(resumed_at, len(moments)):
                m = moments[i]
                players.events = []
                ok = players.play(i, m)
                _report(out, i, players.events, edition)
                if not ok:
                    state = referee.state
                    v = state.violations
                    out(f"     the referee did not commit {m.action}"
                        + (f": {v[0]}" if v else "")
                        + (f"; waiting for doubts {state.doubts}" if state.doubts else ""))
                    if v and v[0].reason == "record-error":
                        # Nothing more can be saved: say so rather than "match saved".
                        raise DemoError(f"the match record could not be written ({v[0].message}"
                                        f"); match {recorder.match_id} holds the first {i} "
                                        "actions only")
                    break
            recorded = tuple(store.effective_actions(recorder.match_id, round=1))
            match_id = recorder.match_id
    finally:
        eyes.close()
    winner = final.winner
    termination = final.outcome.termination if final.outcome else "unfinished"
    p = players
    return DemoResult(match_id, played, recorded, winner, termination, p.frames,
                      p.confirmations, p.fixes, p.nudges, p.corrections, p.undos, resumed_at,
                      time.perf_counter() - started)


def _players_answer(referee: Referee, seen: Observation,
                    scene: Scene) -> tuple[int, int, list[Event]]:
    """The players answer the referee as they would at the table (the designed flow).

    A doubtful read is confirmed with the card really there; a violation that comes from a
    misread card is settled the same way (the players tap the card and name it).  Nothing
    else is touched: a real rules violation would stay open.
    """
    confirmed = fixed = 0
    events: list[Event] = []
    for _ in range(4):
        state = referee.state
        if state.doubts:
            for d in state.doubts:
                truth = _truth_at(scene, d.where, d.index)
                if truth is not None:
                    confirmed += 1
                    events += referee.confirm(d, truth)
            continue
        stable = referee.last_stable
        if state.violations and stable is not None:
            wrong = _misreads(stable, scene)
            for d in wrong:
                fixed += 1
                log.info("players fix the read %s at %s #%d: %s", d.best, d.where, d.index,
                         d.second or "no card")
                events += referee.confirm(d, d.second)
            if wrong:
                continue
        break
    return confirmed, fixed, events


def _misreads(seen: Observation, scene: Scene) -> list[Doubt]:
    """Each read of `seen` that differs from what lies there, as a doubt settled by the truth."""
    from companion.referee.table import Table
    got = Table.from_observation(seen)
    truth = Table.from_observation(scene.observation())
    out: list[Doubt] = []
    for (loc, cards), (_, real) in zip(got.places(), truth.places()):
        if len(cards) == len(real) + 1:
            # Something read as a card that is not one: the players say there is none.
            # (the last such place: a card read twice is the same card seen again below)
            out += [Doubt(loc, cards[k], None, 0.0, k) for k in range(len(cards))
                    if cards[:k] + cards[k + 1:] == real][-1:]
        elif len(cards) == len(real):
            out += [Doubt(loc, a, b, 0.0, k) for k, (a, b) in enumerate(zip(cards, real))
                    if a != b]
        # A card the camera missed: nothing to say about a read; the players straighten
        # the cards instead (see run_demo).
    return out


def _truth_at(scene: Scene, where: Place, index: int) -> Card | None:
    from companion.referee.table import Table
    cards = Table.from_observation(scene.observation()).cards_at(where)
    return cards[index] if 0 <= index < len(cards) else None


def _report(out: Callable[[str], None], i: int, events: list[Event],
            edition: Edition = BATTLE_LINE) -> None:
    for e in events:
        if isinstance(e, ActionCommitted):
            out(f"{e.index + 1:4d}. {_describe(e.action, edition)}")
        elif isinstance(e, ClaimDecided) and e.accepted:
            out("      proof: " + e.verdict.proof().replace("\n", "\n             "))
        elif isinstance(e, ClaimDecided):
            out(f"      refused ({e.verdict.reason}): "
                + e.verdict.proof().replace("\n", "\n             "))


def main(options: DemoOptions, out: Callable[[str], None] = print) -> int:
    result = run_demo(options, out)
    if result.winner is not None:
        out(f"winner: {result.winner} by {result.termination}")
    else:
        out(f"no winner ({result.termination})")
    same = sum(1 for a, b in zip(result.played, result.recorded) if a == b)
    out(f"frames: {result.frames} ({'vision pipeline' if options.vision else 'ground truth'}); "
        f"the players confirmed {result.confirmations} doubtful reads, fixed "
        f"{result.read_fixes} misreads flagged by a violation, straightened the cards "
        f"{result.nudges} times, corrected {result.corrections} and undid {result.undos} "
        "recorded actions; "
        f"{result.seconds:.1f} s")
    out(f"match {result.match_id} saved; agreement between the record and the game played: "
        f"{100 * result.agreement:.1f}% ({same}/{len(result.played)} actions, "
        f"{len(result.recorded)} recorded)")
    return 0 if result.agreement == 1.0 and len(result.recorded) == len(result.played) else 1

