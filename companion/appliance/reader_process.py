"""The table reader in a child process, so the vision's numpy/OpenCV work never holds the
Python interpreter lock the Kivy thread needs (STYLE habit 11: the UI never waits on vision).

Frames go through shared memory (no 9 MB pickle per frame); observations come back as
contract 2 JSON.  Same interface as `vision.pipeline.TableReader`: `read(frame) ->
Observation`, a reading failure raised as a `CompanionError` with the child's message.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
from dataclasses import dataclass
from multiprocessing import shared_memory
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from companion.errors import CompanionError
from companion.vision.observation import Observation

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 2304 * 1296 * 3 * 2   # room for a frame twice the reference size


class ReaderProcessError(CompanionError, RuntimeError):
    """The reader process failed to start, died, or could not read a frame."""


def _serve(conn: Any, deck_path: str, shm_name: str) -> None:
    """The child: load the deck once, then read each frame put in shared memory."""
    from companion.vision.deck import Deck
    from companion.vision.pipeline import TableReader

    shm = shared_memory.SharedMemory(name=shm_name)
    try:
        try:
            reader = TableReader(Deck.load(deck_path))
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which raises it
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            return
        conn.send(("ready", ""))
        while True:
            try:
                message = conn.recv()
            except EOFError:
                return
            if message is None:
                return
            shape = tuple(message)
            frame: np.ndarray = np.ndarray(shape, dtype=np.uint8, buffer=shm.buf)
            try:
                obs = reader.read(frame)
            except CompanionError as exc:
                conn.send(("vision", str(exc)))
            except Exception as exc:  # noqa: BLE001 - the parent logs and goes on
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
            else:
                seen = reader.layout.sightings() if reader.layout is not None else ()
                conn.send(("obs", obs.dumps(), seen))
            finally:
                del frame   # no view of the shared block may outlive it
    finally:
        shm.close()


@dataclass(frozen=True, slots=True)
class _Seen:
    """The tiles the child's reader placed in the last frame (`Layout.sightings()`)."""

    tiles: tuple[tuple[int, tuple[float, float], tuple[float, float], float], ...]

    def sightings(self) -> tuple[tuple[int, tuple[float, float], tuple[float, float], float],
                                 ...]:
        return self.tiles


class ReaderProcess:
    """`TableReader(Deck.load(deck_path))` running in its own process."""

    def __init__(self, deck_path: str | Path, start_timeout: float = 60.0) -> None:
        self.layout: _Seen | None = None
        # spawn, not fork: the parent holds SDL/GL and threads that must not be forked.
        ctx = mp.get_context("spawn")
        self._shm: shared_memory.SharedMemory | None = shared_memory.SharedMemory(
            create=True, size=MAX_FRAME_BYTES)
        self._conn, child = ctx.Pipe()
        self._proc: Any = ctx.Process(target=_serve, name="companion-vision",
                                      args=(child, str(deck_path), self._shm.name), daemon=True)
        self._proc.start()
        child.close()
        try:
            if not self._conn.poll(start_timeout):
                raise ReaderProcessError(f"the vision process did not start within "
                                         f"{start_timeout:g} s")
            kind, text = self._conn.recv()
        except (EOFError, OSError):
            self.close()
            raise ReaderProcessError("the vision process died while starting") from None
        except ReaderProcessError:
            self.close()
            raise
        if kind != "ready":
            self.close()
            raise ReaderProcessError(f"the vision process cannot read with deck {deck_path}: "
                                     f"{text}")

    def read(self, frame: np.ndarray) -> Observation:
        if self._shm is None:
            raise ReaderProcessError("the vision process is closed")
        frame = np.ascontiguousarray(frame, dtype=np.uint8)
        if frame.nbytes > MAX_FRAME_BYTES:
            raise ReaderProcessError(f"a {frame.shape} frame is larger than the vision "
                                     "process takes")
        np.ndarray(frame.shape, dtype=np.uint8, buffer=self._shm.buf)[...] = frame
        try:
            self._conn.send(list(frame.shape))
            kind, text, *more = self._conn.recv()   # blocks without the interpreter lock
        except (EOFError, OSError, BrokenPipeError):
            raise ReaderProcessError("the vision process has died") from None
        if kind == "obs":
            self.layout = _Seen(tuple(more[0]))
            return Observation.loads(text)
        raise ReaderProcessError(text)

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                self._conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
            self._conn.close()
        shm, self._shm = self._shm, None
        if shm is not None:
            shm.close()
            shm.unlink()

    def __enter__(self) -> ReaderProcess:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

