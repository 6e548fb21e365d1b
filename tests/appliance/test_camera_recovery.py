"""The appliance's worker when the camera stops and comes back: it waits, says so, resumes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.appliance.session import Session
from companion.appliance.status import Status
from companion.vision.capture import FolderSource, RetryingSource

from .waiting import until


class _Referee:
    """The session only subscribes to the referee here: no reader, so nothing is fed."""

    def subscribe(self, callback: Callable[[object], None]) -> Callable[[], None]:
        return lambda: None


def _frames(d: Path, n: int) -> None:
    d.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        cv2.imwrite(str(d / f"f{i}.png"), np.full((96, 160, 3), 30 * i, np.uint8))


def test_the_worker_waits_for_the_camera_and_resumes(tmp_path: Path) -> None:
    d = tmp_path / "camera"
    _frames(d, 3)
    statuses: list[Status] = []
    source = RetryingSource(lambda: FolderSource(d, loop=True), delays=(0.05, 0.1), attempts=None,
                            wait=False, first=FolderSource(d, loop=True))
    session = Session(_Referee(), post=lambda fn: fn(), on_view=lambda view: None,
                      source=source, reader=None, on_status=statuses.append,
                      frame_interval=0.01, pace=False, live=True)
    with session:
        session.start()
        assert until(lambda: session.frames >= 5)
        for p in d.iterdir():   # the camera stops delivering
            p.unlink()
        assert until(lambda: any(s.waiting for s in statuses))
        lost = next(s for s in statuses if s.waiting)
        assert "waiting for the camera" in (lost.waiting or "") and not lost.ended
        answered: list[object] = []
        session.call(lambda referee: "still here", answered.append)  # players are answered
        assert until(lambda: answered == ["still here"])
        assert session.healthy() and not session.ended
        count = session.frames
        _frames(d, 3)           # ... and comes back
        assert until(lambda: session.frames > count + 3)
        assert statuses[-1].waiting is None and not session.ended
