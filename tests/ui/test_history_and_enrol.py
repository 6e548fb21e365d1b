"""Match history and the replay viewer on a recorded match; the enrolment screen's card
cut-out on a frame with one card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.commands.run import make_referee
from companion.record.store import MatchStore
from companion.ui.prefs import Prefs

from .scripted import OPENING, observations


def test_history_lists_the_match_and_replay_steps_through_it(start_app, tmp_path: Path,
                                                             artifacts_dir) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        prefs = Prefs(north_name="Ada", south_name="Brune")
        ui = start_app(lambda p: make_referee(p, store),
                       {"observations": list(observations(OPENING)), "pace": False},
                       store=store, prefs=prefs)
        app = ui.app
        ui.until(lambda: len(app.view.actions) == 5, what="the opening")
        table = ui.screen("table")
        ui.press(table.ids.history_button)
        ui.until(lambda: len(app.history) == 1, what="the match list")
        history = ui.screen("history")
        ui.until(lambda: len(history.ids.rows.children) == 1, what="the row")
        row = history.ids.rows.children[0]
        assert "Ada" in row.text and "Brune" in row.text
        ui.shot(artifacts_dir, "history")
        ui.press([c for c in row.children if getattr(c, "text", "") == "Replay"][0])
        ui.until(lambda: app.root.current == "replay", what="the replay")
        replay = ui.screen("replay")
        assert app.replay_step == 0 and len(app.replay_views) == 6
        assert all(not f.north and not f.south for f in app.replay_view.flags)
        for _ in range(5):
            ui.press(replay.ids.next)
        assert app.replay_step == 5 and replay.ids.next.disabled
        assert [str(c) for c in app.replay_view.flag(1).south] == ["R8", "R9", "R10"]
        assert "Brune plays red 10 at flag 1" in app.replay_text
        assert "@" not in app.replay_text          # words, not the notation
        ui.shot(artifacts_dir, "replay")
        ui.press(replay.ids.prev)
        assert [str(c) for c in app.replay_view.flag(1).south] == ["R8", "R9"]


def test_enrolment_on_the_rig_asks_card_by_card(start_app, tmp_path: Path,
                                                _isolated_data_dir: Path, artifacts_dir) -> None:
    import cv2

    from companion.vision.deck import FACE_H, FACE_W
    from companion.vision.capture import FolderSource

    frame = np.full((1296, 2304, 3), (60, 40, 30), np.uint8)
    frame[500:703, 1000:1145] = 235                      # one card alone on the cloth
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "f0.png"), frame)
    ui = start_app(lambda p: make_referee(p), {"source": FolderSource(frames, loop=True),
                                               "reader": None, "pace": True},
                   start_screen="enrol")
    app = ui.app
    assert app.root.current == "enrol"
    ui.until(lambda: app.session.last_frame is not None, what="a frame")
    enrol = ui.screen("enrol")
    assert "red 1" in app.enrol_text and "1 of 70" in app.enrol_text
    ui.shot(artifacts_dir, "enrol")
    ui.press(enrol.ids.capture)
    ui.until(lambda: app.enrol_index == 1, what="the capture")
    saved = cv2.imread(str(_isolated_data_dir / "enrol" / "R1.png"))
    assert saved is not None and saved.shape == (FACE_H, FACE_W, 3)
    assert "red 2" in app.enrol_text
    ui.press(enrol.ids.skip)
    assert app.enrol_index == 2 and "red 3" in app.enrol_text
