"""Zones read side by side in worker processes (`pipeline.workers` in config.yaml).

Threads do not help here: a zone's reading is many small numpy calls, and the interpreter
lock serialises the Python between them.  Worker processes each have their own interpreter.
They are started once and shared by every `TableReader` of the process; the frame is handed
over through shared memory (no copy through a pipe), the deck's templates are sent once per
worker, and only small things travel per frame: the zones (a homography and two colours
each), their margins, the table's shade, and the card reads.

Workers are fresh interpreters (`python -m companion.vision.workers`), not forks: a fork of
a process whose OpenCV thread pool has run can hang in the child's first OpenCV call (the
pool's locks are copied in whatever state the parent's threads held them), and a fresh
interpreter does not re-run the caller's main script as multiprocessing's spawn does.  The
shared memory is an anonymous memory file the workers inherit (Linux).

The reader's own process takes a share of the zones too, so two processes work on a
two-core machine with one worker.  A worker that dies, fails or stops answering ends the
pool: the reader logs it and reads in its own process from then on (`WorkerError`).
"""

from __future__ import annotations

import logging
import mmap
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from . import geometry
from .reading import CardRead, ReadingSettings, Templates
from .zones import Margins, StripMaps, Zone, ZoneMemory, cut

log = logging.getLogger(__name__)

# The shared memory holds a frame of up to twice the rig's frame each way: what the reader
# reads after bringing any camera's frame to the rig's scale (`scale.ScaleNormaliser`), for a
# camera that sees up to twice as much of the table each way (a 1080p webcam seeing the whole
# table at 16 px/cm gives 2765 x 1555 px).  A memory file's pages are only taken where they are
# written (the workers' stretch of the frame); a larger frame is read in the reader's process.
FRAME_BYTES = 4 * geometry.FRAME_W * geometry.FRAME_H * 3
_POLL_S = 0.05          # how often a waiting reader checks that its workers still live
_START_S = 60.0         # a worker's first answer may also wait for its imports (a busy Pi)
_KEEP_DECKS = 4         # decks' templates the workers keep (the most recently used)


class WorkerError(RuntimeError):
    """A worker process died, failed or did not answer: the pool is no longer usable."""


def _serve(conn_in: Connection, conn_out: Connection, buffer: mmap.mmap) -> None:
    """A worker's loop: cut its zones of the shared frame and send their margins, then read
    them once it is given the table's shade; any failure is reported, never raised (the reader decides)."""
    s = ReadingSettings.load()
    maps = StripMaps()
    memory = ZoneMemory()
    decks: dict[int, Templates] = {}
    held: list[tuple[int, Zone, np.ndarray, Margins]] = []
    token = 0
    while True:
        try:
            msg = conn_in.recv()
        except (EOFError, OSError):
            return
        try:
            if msg[0] == "stop":
                return
            if msg[0] == "cut":
                _, shape, jobs, token, tpl, live = msg
                if tpl is not None:
                    decks[token] = tpl
                for old in [t for t in decks if t not in live]:
                    del decks[old]
                frame = np.frombuffer(buffer, np.uint8, count=int(np.prod(shape))
                                      ).reshape(shape)
                held = [(i, z, *cut(frame, z, maps, s)) for i, z in jobs]
                del frame
                conn_out.send(("margins", [(i, m) for i, _, _, m in held]))
            elif msg[0] == "read":
                refs, remember = msg[1], msg[2]
                out = [(i, memory.read(refl, m, z, refs, decks[token], s, remember))
                       for i, z, refl, m in held]
                held = []
                conn_out.send(("reads", out))
            else:
                conn_out.send(("error", f"unknown request {msg[0]!r}"))
        except Exception as exc:  # noqa: BLE001 - reported to the reader, which falls back
            held = []
            try:
                conn_out.send(("error", f"{type(exc).__name__}: {exc}"))
            except (OSError, ValueError):
                return


def main(argv: Sequence[str]) -> int:
    """A worker process: `python -m companion.vision.workers IN_FD OUT_FD FRAME_FD`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the reader's to handle
    cv2.setNumThreads(1)            # the cores are shared out by zones, not inside each call
    fd_in, fd_out, fd_frame = (int(a) for a in argv)
    buffer = mmap.mmap(fd_frame, FRAME_BYTES)
    os.close(fd_frame)
    _serve(Connection(fd_in, writable=False), Connection(fd_out, readable=False), buffer)
    return 0


class _Worker:
    """One worker process and its two pipe ends."""

    def __init__(self, frame_fd: int) -> None:
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        root = str(Path(__file__).resolve().parents[2])     # where `companion` is imported from
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion.vision.workers", str(down_r), str(up_w),
                 str(frame_fd)], pass_fds=(down_r, up_w, frame_fd), env=env,
                stdin=subprocess.DEVNULL, close_fds=True)
        except BaseException:
            for fd in (down_r, down_w, up_r, up_w):
                os.close(fd)
            raise
        os.close(down_r)
        os.close(up_w)
        self.send_conn = Connection(down_w, readable=False)
        self.recv_conn = Connection(up_r, writable=False)
        self.answered = False
        self.decks: set[int] = set()

    @property
    def pid(self) -> int:
        return self.proc.pid


class ZoneWorkers:
    """A pool of worker processes reading zones; see the module's docstring."""

    def __init__(self, count: int, timeout_s: float) -> None:
        self.count = count
        self.timeout_s = timeout_s
        self.lock = threading.Lock()      # one frame at a time (readers on other threads wait)
        self._fd = os.memfd_create("battleline-frame")
        self._workers: list[_Worker] = []
        self._tokens: dict[int, tuple[int, Templates]] = {}   # id(templates) -> token
        self._next = 1
        self._users = 0
        self.closed = False
        try:
            os.ftruncate(self._fd, FRAME_BYTES)
            self._buffer = mmap.mmap(self._fd, FRAME_BYTES)
            for _ in range(count):
                self._workers.append(_Worker(self._fd))
        except BaseException:
            self.close()
            raise

    @property
    def pids(self) -> list[int]:
        return [w.pid for w in self._workers]

    def fits(self, frame: np.ndarray) -> bool:
        """Whether the frame can be handed over (the camera's main stream always can)."""
        return frame.nbytes <= FRAME_BYTES

    def _token(self, tpl: Templates) -> int:
        got = self._tokens.get(id(tpl))
        if got is not None and got[1] is tpl:
            return got[0]
        token = self._next
        self._next += 1
        self._tokens[id(tpl)] = (token, tpl)
        while len(self._tokens) > _KEEP_DECKS:
            oldest = min(self._tokens, key=lambda k: self._tokens[k][0])
            del self._tokens[oldest]
        return token

    # -- one frame: cut, then read -----------------------------------------------------------
    def cut(self, frame: np.ndarray, jobs: Sequence[Sequence[tuple[int, Zone]]],
            tpl: Templates, boxes: Sequence[tuple[int, int, int, int]]) -> None:
        """Hand the frame over and ask worker `n` to cut the zones `jobs[n]` (index, zone);
        each answers with their margins (`margins`), then waits for `read` to read them.

        Only the `boxes` (x0, y0, x1, y1: the pixels the workers' zones read) are copied into
        the shared memory: the rest of it is never read, and copying a whole frame costs
        as much as cutting a few zones.
        """
        shared = np.frombuffer(self._buffer, np.uint8, count=frame.size).reshape(frame.shape)
        for x0, y0, x1, y1 in boxes:
            shared[y0:y1, x0:x1] = frame[y0:y1, x0:x1]
        del shared                  # no view may outlive the buffer (see close)
        token = self._token(tpl)
        live = [t for t, _ in self._tokens.values()]
        for n, w in enumerate(self._workers):
            send = tpl if token not in w.decks else None
            self._send(w, ("cut", frame.shape, list(jobs[n]), token, send, live))
            w.decks = (w.decks | {token}) & set(live)

    def margins(self) -> dict[int, Margins]:
        """The margins of every zone the workers cut (`zones.cut`), by zone index: each
        worker sends them as soon as it has cut its zones."""
        out: dict[int, Margins] = {}
        for w in self._workers:
            out.update(self._recv(w, "margins"))
        return out

    def read(self, refs: dict[str, np.ndarray], remember: bool = True) -> None:
        """Ask the workers to read the zones they cut against the table's shade `refs`
        (giving again the reads of a zone that looks as it did, if `remember`: `ZoneMemory`);
        `reads` collects the answers."""
        for w in self._workers:
            self._send(w, ("read", refs, remember))

    def reads(self) -> dict[int, list[CardRead]]:
        """The card reads of every zone the workers cut, by zone index."""
        out: dict[int, list[CardRead]] = {}
        for w in self._workers:
            out.update(self._recv(w, "reads"))
        return out

    def _send(self, w: _Worker, msg: tuple[Any, ...]) -> None:
        try:
            w.send_conn.send(msg)
        except (OSError, ValueError) as exc:
            raise WorkerError(f"zone worker {w.pid} is gone ({exc})") from None

    def _recv(self, w: _Worker, kind: str) -> Any:
        wait = self.timeout_s if w.answered else self.timeout_s + _START_S
        deadline = time.monotonic() + wait
        try:
            while not w.recv_conn.poll(_POLL_S):
                if w.proc.poll() is not None:
                    raise WorkerError(f"zone worker {w.pid} died "
                                      f"(exit status {w.proc.returncode})")
                if time.monotonic() > deadline:
                    raise WorkerError(f"zone worker {w.pid} did not answer within {wait:g} s")
            msg = w.recv_conn.recv()
        except (EOFError, OSError) as exc:
            raise WorkerError(f"zone worker {w.pid} is gone ({exc or 'no answer'})"
                              ) from None
        w.answered = True
        if msg[0] != kind:
            raise WorkerError(f"zone worker {w.pid} failed: {msg[1]}")
        return msg[1]

    # -- life -------------------------------------------------------------------------------
    def attach(self) -> None:
        self._users += 1

    def release(self) -> bool:
        """One reader less; the last one stops the pool.  Whether the pool was stopped."""
        self._users -= 1
        if self._users <= 0:
            self.close()
            return True
        return False

    def close(self) -> None:
        """Stop the workers (safe twice): asked first, then killed if they linger."""
        if self.closed:
            return
        self.closed = True
        for w in self._workers:
            try:
                w.send_conn.send(("stop",))
            except (OSError, ValueError):
                pass
        for w in self._workers:
            try:
                w.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                w.proc.kill()
                w.proc.wait(timeout=5.0)
            w.send_conn.close()
            w.recv_conn.close()
        self._workers = []
        self._tokens.clear()
        buffer = getattr(self, "_buffer", None)
        if buffer is not None:
            try:
                buffer.close()
            except BufferError:     # a view still held (a traceback's frame): freed with it
                pass
        os.close(self._fd)
        _forget(self)


_shared: dict[int, ZoneWorkers] = {}
_shared_lock = threading.RLock()   # a pool that fails to start closes itself under it


def shared(count: int, timeout_s: float) -> ZoneWorkers:
    """The process's pool of `count` workers, started on first use; the caller attaches to it
    and must `release` it (`TableReader.close`)."""
    with _shared_lock:
        pool = _shared.get(count)
        if pool is None or pool.closed:
            pool = _shared[count] = ZoneWorkers(count, timeout_s)
        pool.attach()
        return pool


def _forget(pool: ZoneWorkers) -> None:
    with _shared_lock:
        for k, v in list(_shared.items()):
            if v is pool:
                del _shared[k]


__all__ = ["FRAME_BYTES", "WorkerError", "ZoneWorkers", "shared"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
