"""The table screen is told of glare over the flags and of a light that hides the cards'
colours: the last still frame's, kept while the table moves, cleared when a still frame shows
none."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.appliance.session import Session
from companion.appliance.status import Status
from companion.referee import Referee, RefereeSettings
from companion.vision.capture import FolderSource
from companion.vision.observation import Observation

from .waiting import until


class _Reader:
    """A reader that sees an empty table, with glare over the flags it is told and the light
    it is told."""

    layout = None

    def __init__(self, glare: tuple[int, ...], cast: bool = False) -> None:
        self.glare = glare
        self.cast = cast

    def read(self, frame: np.ndarray) -> Observation:
        return Observation(glare=self.glare, cast=self.cast)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("what", "seen", "gone"), [("glare", (3, 4), ()),
                                                    ("cast", True, False)])
def test_the_status_carries_what_the_last_still_frame_showed(
        tmp_path: Path, what: str, seen: object, gone: object) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((96, 160, 3), 90, np.uint8))
    statuses: list[Status] = []
    reader = _Reader(())
    setattr(reader, what, seen)
    session = Session(Referee(RefereeSettings()), post=lambda fn: fn(),
                      on_view=lambda view: None, source=FolderSource(tmp_path, loop=True),
                      reader=reader, on_status=statuses.append, frame_interval=0.01,
                      pace=False)
    with session:
        session.start()
        assert until(lambda: any(getattr(s, what) == seen for s in statuses))
        setattr(reader, what, gone)
        assert until(lambda: getattr(statuses[-1], what) == gone)
