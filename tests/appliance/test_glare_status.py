"""The table screen is told of glare over the flags: the last still frame's, kept while the
table moves, cleared when a still frame shows none."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.appliance.session import Session
from companion.appliance.status import Status
from companion.referee import Referee, RefereeSettings
from companion.vision.capture import FolderSource
from companion.vision.observation import Observation

from .waiting import until


class _Reader:
    """A reader that sees an empty table, with glare over the flags it is told."""

    layout = None

    def __init__(self, glare: tuple[int, ...]) -> None:
        self.glare = glare

    def read(self, frame: np.ndarray) -> Observation:
        return Observation(glare=self.glare)

    def close(self) -> None:
        pass


def test_the_status_carries_the_glare_of_the_last_still_frame(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((96, 160, 3), 90, np.uint8))
    statuses: list[Status] = []
    reader = _Reader((3, 4))
    session = Session(Referee(RefereeSettings()), post=lambda fn: fn(),
                      on_view=lambda view: None, source=FolderSource(tmp_path, loop=True),
                      reader=reader, on_status=statuses.append, frame_interval=0.01,
                      pace=False)
    with session:
        session.start()
        assert until(lambda: any(s.glare == (3, 4) for s in statuses))
        reader.glare = ()
        assert until(lambda: statuses[-1].glare == ())
