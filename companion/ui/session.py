"""The worker thread behind the touchscreen: camera, vision and referee, off the Kivy thread.

One thread owns the frame source, the table reader and the referee (which is not
thread-safe).  Player input from the screen or the buttons is queued to it as calls; every
new referee state is turned into a `TableView` here, shown on the LEDs here (the one place
they change), and posted to the UI with `post` (Kivy's `Clock`).  The Kivy thread never waits
on the camera, the vision or the disk (STYLE habit 11).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any

import numpy as np

from companion.errors import CompanionError
from companion.ui.view import TableView, table_view

log = logging.getLogger(__name__)

Post = Callable[[Callable[[], None]], None]
_CAMERA_PAUSE_S = 0.5  # between tries of a camera that stopped (the source backs off further)


class SessionError(CompanionError, RuntimeError):
    """A request the worker cannot carry out (no camera to lock, ...)."""


@dataclass(frozen=True, slots=True, eq=False)   # compared by identity: it holds an image
class Preview:
    """A small copy of the latest frame for the calibration screen, with what vision saw."""

    image: np.ndarray                        # RGB rows bottom-up (ready for a Kivy texture)
    scale: float                             # preview pixels per frame pixel
    # flag, centre (preview pixels, y down), up (unit vector), preview pixels per mm
    tiles: tuple[tuple[int, tuple[float, float], tuple[float, float], float], ...]
    missing: tuple[int, ...]
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Status:
    frames: int = 0
    read_errors: int = 0
    last_error: str | None = None
    ended: bool = False
    waiting: str | None = None   # what the appliance waits for (a camera gone), None when reading


class Session:
    """Runs the referee on its own thread; see the module docstring.

    Inputs, one of: `source` + `reader` (a `FrameSource` and a `TableReader`: frames),
    `observations` (recorded observations, e.g. a scripted game), or nothing (input only).
    `frame_interval`: seconds between recorded frames; their time stamps are `i *
    frame_interval` so the referee's debouncing is the same however fast the machine is;
    `pace` also sleeps that long between frames, like a camera.
    """

    def __init__(self, referee: Any, *, post: Post, on_view: Callable[[TableView], None],
                 source: Any = None, reader: Any = None,
                 observations: Iterable[Any] | None = None, leds: Any = None,
                 on_status: Callable[[Status], None] | None = None,
                 on_preview: Callable[[Preview], None] | None = None,
                 frame_interval: float = 0.125, pace: bool = True, live: bool = False) -> None:
        self.referee = referee
        self._post = post
        self._on_view = on_view
        self._on_status = on_status
        self._on_preview = on_preview
        self._source = source
        self._reader = reader
        self._observations: Iterator[Any] | None = iter(observations) if observations else None
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
        self.want_preview = False
        self.last_frame: np.ndarray | None = None   # read and written on the worker only
        self._last_obs: Any = None
        self._motion: Any = None
        self._heartbeat = time.monotonic()
        self._pending = 0
        self._count_lock = threading.Lock()
        self._unsubscribe = referee.subscribe(self._on_state)

    # -- on the worker thread -------------------------------------------------------------------
    def _on_state(self, state: Any) -> None:
        view = table_view(state)
        if self._leds is not None:
            try:
                self._leds.show(view)
            except Exception:  # noqa: BLE001 - a dead LED must not stop the referee
                log.exception("the LEDs failed to follow the state")
        self._post(lambda: self._on_view(view))

    def _status(self) -> None:
        if self._on_status is not None:
            status = Status(self._frames, self._errors, self._last_error, self._ended,
                            self._waiting)
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
            return True
        frame = self._source.read()
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
        self.last_frame = main
        moving = self._moving(frame)
        if moving and self._last_obs is not None:
            # A hand over the table: nothing to commit until it settles, so skip the full
            # read and tell the referee the table moves.
            self.referee.feed(replace(self._last_obs, motion=True), t)
            return True
        if self._reader is None:
            # No enrolled deck yet: the camera screen and the enrolment still work.
            self._preview(main, None, None)
            return True
        try:
            obs = self._reader.read(main)
        except CompanionError as exc:
            # A frame without its tiles (a hand over the QR codes, a bumped camera): say so on
            # the calibration screen and keep going.
            self._errors += 1
            self._last_error = str(exc)
            self._preview(main, None, str(exc))
            if self._errors == 1 or self._errors % 50 == 0:
                self._status()
            return True
        if moving:
            obs = replace(obs, motion=True)
        self._last_obs = obs
        self._preview(main, obs, None)
        if self._record_frames():
            # The referee keeps the frame that makes the table stable and saves it, as JPEG,
            # with the actions it commits (labelled data for `companion vision evaluate`).
            self.referee.feed(obs, t, frame=main)
        else:
            self.referee.feed(obs, t)
        if self._frames % 25 == 0:
            self._status()
        return True

    def _record_frames(self) -> bool:
        settings = getattr(self.referee, "settings", None)
        return bool(getattr(settings, "record_frames", False))

    def _moving(self, frame: Any) -> bool:
        if self._motion is None:
            from companion.vision.motion import MotionDetector
            self._motion = MotionDetector()
        lores = getattr(frame, "lores", None)
        return bool(self._motion.update(lores)) if lores is not None else False

    def lock_camera(self) -> dict[str, Any]:
        """Freeze exposure, white balance and focus (after calibration); on the worker."""
        lock = getattr(self._source, "lock", None)
        if lock is None:
            raise SessionError("this frame source has no exposure or focus to lock "
                               "(only the Pi camera has)")
        return dict(lock())

    def _preview(self, frame: np.ndarray, obs: Any, error: str | None) -> None:
        if not self.want_preview or self._on_preview is None:
            return
        import cv2

        scale = min(1.0, 800.0 / frame.shape[1])
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        tiles: list[tuple[int, tuple[float, float], tuple[float, float], float]] = []
        try:
            from companion.vision.tiles import find_tiles
            for s in find_tiles(frame):
                tiles.append((s.flag, (s.centre[0] * scale, s.centre[1] * scale), s.up,
                              s.px_per_mm * scale))
        except Exception as exc:  # noqa: BLE001 - the preview is a help, never a failure
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

    def set_reader(self, reader: Any) -> None:
        """Read the table with this reader from now on (a deck just enrolled); on the worker."""
        old, self._reader = self._reader, reader
        if old is not None and hasattr(old, "close"):
            old.close()

    @property
    def has_reader(self) -> bool:
        return self._reader is not None

    def swap_referee(self, referee: Any) -> None:
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
        reader, self._reader = self._reader, None
        if reader is not None and hasattr(reader, "close"):
            reader.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
