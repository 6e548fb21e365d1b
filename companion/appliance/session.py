"""The worker thread behind the touchscreen: camera, vision and referee, off the Kivy thread.

One thread owns the frame source, the eyes (motion test and table reader, `eyes`) and the
referee (which is not thread-safe).  Player input from the screen or the buttons is queued to
it as calls; every new referee state is turned into a `Display` here, shown on the LEDs here
(the one place they change), and posted to the screens with `post` (Kivy's `Clock`), given
by `attach`.  The Kivy thread never waits on the camera, the vision or the disk (STYLE habit
11); the screens never see this loop, only what it posts.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import numpy as np

from companion.errors import CompanionError
from companion.referee.display import Display, display_of
from companion.referee.referee import Referee, RefereeState
from companion.rules.cards import Card
from companion.vision.capture import Frame, FrameSource
from companion.vision.observation import Observation

from .eyes import Eyes, Reader
from .status import Preview, Status

log = logging.getLogger(__name__)

Post = Callable[[Callable[[], None]], None]
_CAMERA_PAUSE_S = 0.5  # between tries of a camera that stopped (the source backs off further)


class SessionError(CompanionError, RuntimeError):
    """A request the worker cannot carry out (no camera to lock, ...)."""


class Lights(Protocol):
    """The LEDs (`hw.leds.FlagLeds`): they show a `Display`, or nothing (None)."""

    def show(self, state: Display | None) -> None: ...


class Session:
    """Runs the referee on its own thread; see the module docstring.

    Inputs, one of: `source` + `reader` (a `FrameSource` and a table reader: frames),
    `observations` (recorded observations, e.g. a scripted game), or nothing (input only).
    `reader_factory` makes a reader for a deck file (`use_deck`, after an enrolment).
    `frame_interval`: seconds between recorded frames; their time stamps are `i *
    frame_interval` so the referee's debouncing is the same however fast the machine is;
    `pace` also sleeps that long between frames, like a camera.  The screens `attach`
    their callbacks before `start`.
    """

    def __init__(self, referee: Referee, *, source: FrameSource | None = None,
                 reader: Reader | None = None,
                 observations: Iterable[Observation] | None = None,
                 leds: Lights | None = None,
                 reader_factory: Callable[[Path], Reader] | None = None,
                 post: Post | None = None, on_view: Callable[[Display], None] | None = None,
                 on_status: Callable[[Status], None] | None = None,
                 on_preview: Callable[[Preview], None] | None = None,
                 frame_interval: float = 0.125, pace: bool = True, live: bool = False) -> None:
        self.referee = referee
        self._post: Post = post or (lambda fn: fn())
        self._on_view = on_view
        self._on_status = on_status
        self._on_preview = on_preview
        self._source = source
        self.eyes = Eyes(reader)
        self._reader_factory = reader_factory
        self._observations: Iterator[Observation] | None = \
            iter(observations) if observations else None
        self._leds = leds
        self._interval = frame_interval
        self._pace = pace
        self._live = live
        self._calls: queue.Queue[tuple[Callable[[Any], Any], Callable[[Any], None] | None,
                                       Callable[[BaseException], None] | None]] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._frames = 0
        self._errors = 0
        self._last_error: str | None = None
        self._waiting: str | None = None
        self._ended = source is None and observations is None
        self._moving = False
        self._unreadable = False
        self._glare: tuple[int, ...] = ()
        self._cast = False
        # what the table screen's waiting line was last told (`_shown`)
        self._sent: tuple[bool, bool, bool, tuple[int, ...], bool] | None = None
        self.confirmed_frame: np.ndarray | None = None   # the frame of the last still read
        self.want_preview = False
        self.last_frame: np.ndarray | None = None   # read and written on the worker only
        self._heartbeat = time.monotonic()
        self._pending = 0
        self._count_lock = threading.Lock()
        self._unsubscribe = referee.subscribe(self._on_state)

    def attach(self, post: Post, on_view: Callable[[Display], None],
               on_status: Callable[[Status], None] | None = None,
               on_preview: Callable[[Preview], None] | None = None) -> None:
        """The screens' callbacks, all run through `post` (on the Kivy thread)."""
        self._post, self._on_view = post, on_view
        self._on_status, self._on_preview = on_status, on_preview

    # -- on the worker thread -------------------------------------------------------------------
    def _on_state(self, state: RefereeState) -> None:
        view = display_of(state)
        if self._leds is not None:
            try:
                self._leds.show(view)
            except Exception:  # noqa: BLE001 - a dead LED must not stop the referee
                log.exception("the LEDs failed to follow the state")
        on_view = self._on_view
        if on_view is not None:
            self._post(lambda: on_view(view))

    def _status(self) -> None:
        self._sent = self._shown()
        if self._on_status is not None:
            status = Status(self._frames, self._errors, self._last_error, self._ended,
                            self._waiting, self._deck(), self._moving, self._unreadable,
                            self._glare, self._cast)
            on_status = self._on_status
            self._post(lambda: on_status(status))

    def _run_calls(self, block: float | None) -> None:
        try:
            fn, on_done, on_error = self._calls.get(timeout=block) if block else \
                self._calls.get_nowait()
        except queue.Empty:
            return
        while True:
            try:
                result = fn(self.referee)
            except Exception as exc:  # noqa: BLE001 - reported to the screen, never lost
                if not isinstance(exc, CompanionError):
                    log.exception("a player request failed")
                if on_error is not None:
                    self._post(lambda e=exc, cb=on_error: cb(e))  # type: ignore[misc]
            else:
                if on_done is not None:
                    self._post(lambda r=result, cb=on_done: cb(r))  # type: ignore[misc]
            finally:
                with self._count_lock:
                    self._pending -= 1
            try:
                fn, on_done, on_error = self._calls.get_nowait()
            except queue.Empty:
                return

    def _step(self) -> bool:
        """Feed the referee one frame or observation; False when the input is over."""
        t = self._frames * self._interval
        if self._observations is not None:
            obs = next(self._observations, None)
            if obs is None:
                return False
            self._frames += 1
            self.referee.feed(obs, t)
            if not obs.motion and (obs.glare, obs.cast) != (self._glare, self._cast):
                self._glare, self._cast = obs.glare, obs.cast
                self._status()
            return True
        assert self._source is not None
        frame: Frame | None = self._source.read()
        if frame is None:
            return False
        if self._waiting is not None:  # the camera is back
            log.info("frame source: frames again after %r", self._waiting)
            self._waiting = None
            self._status()
        self._frames += 1
        if self._live:
            t = time.monotonic()
        main = frame.main
        sight, _ = self.eyes.feed(self.referee, frame.lores, lambda: main, t)
        if sight.frame is not None:
            self.last_frame = sight.frame
            if sight.error is None and sight.observation is not None:
                self.confirmed_frame = sight.frame
            self._preview(sight.frame, sight.error)
        elif self.want_preview:
            # Hands over the table: the picture still follows them (enrolment, calibration).
            self._preview(main, None)
        self._moving = sight.moving
        self._unreadable = sight.error is not None
        if not sight.moving and sight.error is None and sight.observation is not None:
            self._glare = sight.observation.glare
            self._cast = sight.observation.cast
        if sight.error is not None:
            # A frame without its tiles (a hand over the QR codes, a bumped camera): say so on
            # the calibration screen and keep going.
            self._errors += 1
            self._last_error = sight.error
            if self._errors == 1 or self._errors % 50 == 0:
                self._status()
        elif self._frames % 25 == 0:
            self._status()
        if self._sent != self._shown():
            self._status()   # what the table screen says it waits for has changed
        return True

    def _shown(self) -> tuple[bool, bool, bool, tuple[int, ...], bool]:
        """What the table screen's waiting line depends on besides the referee's state."""
        return self._deck(), self._moving, self._unreadable, self._glare, self._cast

    def _deck(self) -> bool:
        return self.eyes.reader is not None or self._observations is not None

    @property
    def source_locks(self) -> bool:
        """Whether the frame source has exposure and focus to lock (the Pi camera)."""
        return getattr(self._source, "lock", None) is not None

    def lock_camera(self) -> dict[str, Any]:
        """Freeze exposure, white balance and focus (after calibration); on the worker."""
        lock = getattr(self._source, "lock", None)
        if lock is None:
            raise SessionError("this frame source has no exposure or focus to lock "
                               "(only the Pi camera has)")
        return dict(lock())

    def crop(self, flag: int, side: str, width: int = 360) -> np.ndarray | None:
        """The picture of one flag's card zone on `side`, from the frame of the last still
        read, cut where the reader's layout placed the tile; RGB rows bottom-up (a Kivy
        texture), at most `width` pixels wide.  None: no such picture (no frame read yet, no
        tile seen there, off the line).  On the worker."""
        frame = self.confirmed_frame
        layout = self.eyes.reader.layout if self.eyes.reader is not None else None
        if frame is None or layout is None or not 1 <= flag <= 9:
            return None
        import cv2

        from companion.vision import geometry
        for number, (cx, cy), (ux, uy), ppm in layout.sightings():
            if number != flag:
                continue
            sign = 1.0 if side == "north" else -1.0
            ex, ey = -uy, ux
            half = geometry.CARD_W * 0.75 * ppm
            near, far = geometry.TILE_H / 2 * ppm, geometry.ZONE_DEPTH * ppm
            xs, ys = [], []
            for d in (near, far):
                for k in (-half, half):
                    xs.append(cx + k * ex + sign * d * ux)
                    ys.append(cy + k * ey + sign * d * uy)
            h, w = frame.shape[:2]
            x0, x1 = max(0, int(min(xs))), min(w, int(max(xs)) + 1)
            y0, y1 = max(0, int(min(ys))), min(h, int(max(ys)) + 1)
            if x1 - x0 < 4 or y1 - y0 < 4:
                return None
            part = frame[y0:y1, x0:x1]
            scale = min(1.0, width / part.shape[1], width / part.shape[0])
            if scale < 1.0:
                part = cv2.resize(part, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            return np.ascontiguousarray(cv2.cvtColor(part, cv2.COLOR_BGR2RGB)[::-1])
        return None

    def _preview(self, frame: np.ndarray, error: str | None) -> None:
        """The calibration picture, with the tiles as the reader's layout placed them (no
        second search for the tiles)."""
        if not self.want_preview or self._on_preview is None:
            return
        import cv2

        scale = min(1.0, 800.0 / frame.shape[1])
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        tiles: list[tuple[int, tuple[float, float], tuple[float, float], float]] = []
        layout = self.eyes.reader.layout if self.eyes.reader is not None else None
        if layout is not None and error is None:
            for flag, centre, up, px_per_mm in layout.sightings():
                tiles.append((flag, (centre[0] * scale, centre[1] * scale), up,
                              px_per_mm * scale))
        elif self.eyes.reader is None:
            # No deck enrolled yet: the camera screen still shows the tiles it can find.
            try:
                from companion.vision.tiles import find_tiles
                for s in find_tiles(frame):
                    tiles.append((s.flag, (s.centre[0] * scale, s.centre[1] * scale), s.up,
                                  s.px_per_mm * scale))
            except CompanionError as exc:
                error = error or str(exc)
        seen = {t[0] for t in tiles}
        missing = tuple(n for n in range(1, 10) if n not in seen)
        # Colour order and row order converted here, not on the Kivy thread.
        rgb = np.ascontiguousarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB)[::-1])
        preview = Preview(rgb, scale, tuple(tiles), missing, error)
        on_preview = self._on_preview
        self._post(lambda: on_preview(preview))

    def _loop(self) -> None:
        next_at = time.monotonic()
        while not self._stop.is_set():
            self._heartbeat = time.monotonic()
            self._run_calls(None)
            if self._ended:
                self._run_calls(0.1)
                continue
            try:
                more = self._step()
            except StopIteration:
                more = False
            except CompanionError as exc:
                from companion.vision.errors import CameraError, EndOfStream
                more = False
                if isinstance(exc, EndOfStream):
                    log.info("frame source: %s", exc)   # a recorded source is over
                elif isinstance(exc, CameraError) and getattr(self._source, "reopens", False):
                    # The source reopens the camera by itself: say what we wait for and keep
                    # answering the players meanwhile.
                    if self._waiting != str(exc):
                        self._waiting = str(exc)
                        self._errors += 1
                        self._last_error = str(exc)
                        self._status()
                    self._run_calls(_CAMERA_PAUSE_S)
                    continue
                else:
                    self._errors += 1
                    self._last_error = str(exc)
                    log.warning("frame source: %s", exc)
            except Exception as exc:  # noqa: BLE001 - failsafe: the worker must survive
                log.exception("the referee failed on a frame")
                self._errors += 1
                self._last_error = f"{type(exc).__name__}: {exc}"
                more = True
            if not more:
                self._ended = True
                self._status()
                continue
            if self._pace:
                next_at += self._interval
                delay = next_at - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
                else:
                    next_at = time.monotonic()

    # -- from any thread --------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="referee", daemon=True)
            self._thread.start()

    def call(self, fn: Callable[[Any], Any], on_done: Callable[[Any], None] | None = None,
             on_error: Callable[[BaseException], None] | None = None) -> None:
        """Run `fn(referee)` on the worker; `on_done(result)`/`on_error(exc)` come back via `post`."""
        with self._count_lock:
            self._pending += 1
        self._calls.put((fn, on_done, on_error))

    def set_reader(self, reader: Reader | None) -> None:
        """Read the table with this reader from now on; call it on the worker."""
        self.eyes.use(reader)

    def enrol_card(self, card: Card, directory: Path) -> str:
        """Cut `card` out of the last camera picture into `directory` (enrolment on the rig,
        `appliance.enrol`); on the worker.  A line saying what was measured."""
        from .enrol import RigEnrolError, capture_frame
        if self.last_frame is None:
            raise RigEnrolError("no camera picture yet")
        return capture_frame(self.last_frame, card, directory)

    def finish_enrolment(self, directory: Path, target: Path) -> tuple[int, tuple[float, float]]:
        """Enrol the deck from the pictures in `directory` at the size the rig measured, save
        it as `target` and read the table with it from now on; on the worker."""
        from .enrol import finish
        deck, size = finish(directory)
        deck.save(target)
        self.use_deck(target)
        return len(deck.cards), size

    def use_deck(self, path: Path) -> None:
        """Read the table with the deck in `path` from now on (a deck just enrolled); on
        the worker."""
        if self._reader_factory is None:
            raise SessionError("this companion cannot load a new deck while running")
        self.set_reader(self._reader_factory(path))

    @property
    def has_reader(self) -> bool:
        return self.eyes.reader is not None

    def swap_referee(self, referee: Referee) -> None:
        """Follow another referee from now on (a new game); call it on the worker."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.referee = referee
        self._unsubscribe = referee.subscribe(self._on_state)

    def healthy(self, max_age: float = 20.0) -> bool:
        """Whether the worker went round its loop within `max_age` seconds (the watchdog's
        question: a hung camera or referee must get the service restarted too)."""
        thread = self._thread
        alive = thread is None or thread.is_alive()
        return alive and time.monotonic() - self._heartbeat <= max_age

    @property
    def ended(self) -> bool:
        return self._ended

    @property
    def frames(self) -> int:
        return self._frames

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait (not on the Kivy thread!) until the input is over and no call waits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._ended and self._pending == 0:
                return True
            time.sleep(0.01)
        return False

    def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        source, self._source = self._source, None
        if source is not None:
            source.close()
        self.eyes.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
