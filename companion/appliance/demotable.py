"""The demo on the appliance (`companion run --demo`): the demo's game played in front of
the appliance's own camera loop, so that the whole product can be watched on a laptop.

`DemoTable` is the table and its two players: `DemoTable.source()` is a
`vision.capture.FrameSource` whose frames are drawn on the fly by the synthetic renderer
(`companion.synth`), and the players answer the referee through the session's queue, as
the touchscreen does.  Unlike the frames `companion demo --frames` saves (two calm frames a
moment, enough for its own loop), the table here stays still frame after frame until the
referee has seen the move, as a real table in front of a camera does.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion.errors import CompanionError
from companion.referee.referee import Referee
from companion.rules.actions import Action, Pass
from companion.rules.state import GameState, Settings
from companion.vision.capture import FrameSource
from companion.vision.errors import EndOfStream
from companion.vision.observation import Observation

from .demo import (NUDGES, DemoError, _frames, _Moment, _moments, _nudged, _players_answer,
                   _same_but_card, scene_of)

if TYPE_CHECKING:
    from companion.synth import Scene

log = logging.getLogger(__name__)

DEMO_CALM_MAX = 40      # calm frames the players wait for a commit before straightening cards
DEMO_END_FRAMES = 16    # calm frames of the final table before the demo's camera stops


def played_actions(seed: int = 1, actions: int | None = None) -> tuple[Action, ...]:
    """What the bots of `seed` play, as a table shows it (what the record must hold)."""
    moments, _ = _moments(seed, Settings())
    return tuple(m.action for m in (moments if actions is None else moments[:actions]))


class DemoTable:
    """The demo's table in front of the appliance's camera: a `FrameSource` whose frames
    are drawn on the fly, and the two players who play the bots' game on it.

    A camera films a still table over and over: after each move the table is drawn again
    frame after frame (the motion test and the referee's stable reads need several calm
    frames: `vision.motion` settles after three, the referee wants three equal reads over
    0.3 s) until the referee has committed the move, then the next player's arm comes in.
    The players answer the referee as at a real table (a doubtful read confirmed, cards
    straightened when a move is not seen, a misread corrected, a Pass pressed), through
    the session's queue like the touchscreen.  Frames are drawn when asked for, so the
    appliance's reader sets the pace.  `join(session)` before the session starts.
    """

    def __init__(self, seed: int = 1, printing: str = "classic",
                 actions: int | None = None) -> None:
        from companion.synth import printing_named
        try:
            self.printing = printing_named(printing)
        except CompanionError as exc:
            raise DemoError(str(exc)) from None
        self.seed = seed
        self.settings = Settings()
        moments, _ = _moments(seed, self.settings)
        if actions is not None:
            if actions < 1:
                raise DemoError(f"--actions must be at least 1, not {actions}")
            moments = moments[:actions]
        self.moments = moments
        self.session: object | None = None
        self.frames = self.nudges = self.confirmations = self.corrections = self.undos = 0
        self.finished = False
        self._source: DemoSource | None = None

    def enrol(self, path: Path) -> Path:
        """Enrol the printing's deck (its card faces drawn into a scratch folder) to `path`."""
        from companion.synth import write_deck_images
        from companion.vision import deck as deck_mod
        with tempfile.TemporaryDirectory(prefix="companion-demo-deck-") as tmp:
            write_deck_images(self.printing, Path(tmp))
            deck = deck_mod.enrol(Path(tmp), (self.printing.card_w, self.printing.card_h))
        deck.save(path)
        return path

    def source(self) -> DemoSource:
        """The camera on this table (a `vision.capture.FrameSource`)."""
        if self._source is None:
            self._source = DemoSource(self)
        return self._source

    def join(self, session: object) -> None:
        """The session whose referee the players answer (and whose queue they use)."""
        self.session = session

    # -- what the players do, one frame at a time (on the session's worker thread) ------------
    def _referee(self) -> Referee:
        assert self.session is not None, "join(session) before reading frames"
        return self.session.referee  # type: ignore[attr-defined,no-any-return]

    def _ask(self, fn: Callable[[Referee], object]) -> None:
        """Input as the touchscreen gives it: queued to the worker, run before the next frame."""
        self.session.call(fn)  # type: ignore[union-attr]

    def film(self) -> Iterator[tuple[Scene, bool]]:
        """The frames of the whole demo, as (scene, moving); it watches the referee between
        frames, as players watch the screen."""
        table_seed = self.seed
        empty = GameState.new_table(first="south", settings=self.settings)
        yield from self._calm(scene_of(empty, table_seed),
                              lambda: self._referee().state.mode == "playing")
        for i, m in enumerate(self.moments):
            if isinstance(m.action, Pass):
                who = m.action.player
                self._ask(lambda r: r.pass_turn(who))
                yield from self._calm(scene_of(m.before, table_seed), lambda: self._done(i))
                continue
            script: Iterator[tuple[Scene, bool]] = _frames(m, table_seed, False, 0)
            for _attempt in range(1 + NUDGES):
                yield from script
                after = scene_of(m.after, table_seed)
                yield from self._calm(after, lambda: self._done(i))
                if self._done(i):
                    break
                # Not seen yet: the players straighten the cards and the camera looks again.
                self.nudges += 1
                table_seed += 7919
                script = _nudged(m, table_seed, 0)
            if not self._done(i):
                log.warning("the referee did not commit %s: the demo stops here", m.action)
                return
            yield from self._settle(i, m, table_seed)
        self.finished = True
        final = scene_of(self.moments[-1].after, table_seed) if self.moments else None
        if final is not None:
            for _ in range(DEMO_END_FRAMES):
                yield final, False

    def _done(self, i: int) -> bool:
        return len(self._referee().state.actions) > i

    def _calm(self, scene: Scene, done: Callable[[], bool]) -> Iterator[tuple[Scene, bool]]:
        """The still table, frame after frame, until `done()` (or the players lose patience);
        a doubtful read is confirmed with the card really there."""
        for _ in range(DEMO_CALM_MAX):
            yield scene, False
            if done():
                return
            if self._referee().state.doubts or self._referee().state.violations:
                def answer(r: Referee, scene: Scene = scene) -> None:
                    confirmed, _, _ = _players_answer(r, Observation(), scene)
                    self.confirmations += confirmed
                self._ask(answer)

    def _settle(self, i: int, m: _Moment, table_seed: int) -> Iterator[tuple[Scene, bool]]:
        """A committed move the referee took for something else: corrected or undone and
        played again, as in `companion demo`."""
        actions = self._referee().state.actions
        if actions[i] == m.action:
            return
        wrong, card = actions[i], getattr(m.action, "card", None)
        if card is not None and _same_but_card(wrong, m.action):
            self.corrections += 1
            self._ask(lambda r: r.correct(i, card))
        else:
            self.undos += 1
            self._ask(lambda r: r.undo_to(i))
        yield from self._calm(scene_of(m.after, table_seed),
                              lambda: tuple(self._referee().state.actions[i:i + 1])
                              == (m.action,))


class DemoSource(FrameSource):
    """The camera over a `DemoTable`: each scene drawn once (the same scene and seed draw the
    same pixels) and filmed as often as the table stays still."""

    name = "the demo table"

    def __init__(self, table: DemoTable) -> None:
        super().__init__()
        self.table = table
        self._film = table.film()
        self._scene: Scene | None = None
        self._main: np.ndarray | None = None
        self._lores: np.ndarray | None = None

    def _read_main(self) -> tuple[np.ndarray, np.ndarray | None]:
        from companion.synth import render, render_lores
        step = next(self._film, None)
        if step is None:
            raise EndOfStream("the demo game is over" if self.table.finished else
                              "the demo stopped: a move was not seen")
        scene, _ = step
        if scene != self._scene:
            self._scene = scene
            self._main = render(scene, self.table.printing, seed=self.table.seed)
            self._lores = render_lores(scene, self.table.printing, seed=self.table.seed)
        self.table.frames += 1
        assert self._main is not None
        return self._main, self._lores


__all__ = ["DEMO_CALM_MAX", "DemoSource", "DemoTable", "played_actions"]
