"""The app on a folder of recorded frames (synthetic overhead frames rendered once here):
real capture, real vision and real referee on the worker; the calibration screen shows the
camera picture with the nine tiles; doubtful reads are confirmed by tapping; the frame of
each committed move is saved in the match record, labelled with the confirmed table."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.bench.ui import SCRIPT, render_frames
from companion.commands.run import make_referee
from companion.ui.prefs import Prefs

MOVES = 5


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("recorded")
    # Eight calm frames a moment (one second): time for the players to confirm a read.
    deck, moves = render_frames(tmp, calm=8, steps=MOVES)
    assert moves == MOVES
    return tmp / "frames", deck


def test_a_recorded_game_with_the_camera_screen(start_app, recorded, artifacts_dir,
                                                tmp_path) -> None:
    from companion.record.store import MatchStore
    from companion.vision.capture import FolderSource
    from companion.vision.observation import Observation
    from companion.vision.deck import Deck
    from companion.vision.pipeline import TableReader

    frames, deck = recorded
    source = FolderSource(frames)
    store = MatchStore(tmp_path / "m.sqlite")
    ui = start_app(lambda prefs: make_referee(prefs, store, record_frames=True),
                   {"source": source, "reader": TableReader(Deck.load(deck)), "pace": True,
                    "frame_interval": 0.125}, prefs=Prefs(), size=(1280, 720))
    app = ui.app
    app.go("calibration")
    camera = ui.screen("calibration")
    ui.until(lambda: app.preview is not None and camera.texture is not None, what="a picture")
    assert camera.ok and app.preview.missing == ()
    assert len(app.preview.tiles) == 9
    ui.shot(artifacts_dir, "camera")
    app.go("table")

    table = ui.screen("table")
    confirmed = 0
    while len(app.view.actions) < MOVES:
        ui.until(lambda: len(app.view.actions) == MOVES or app.view.problems or
                 (app.session.ended and not app.view.problems), timeout=60, what="a move or a doubt")
        if app.view.problems:
            # The pipeline was not sure of a read: the players confirm the best guess.
            problem = app.view.problems[0]
            assert problem.kind == "doubt", problem
            ui.press(table.ids.fix_button)
            row = ui.screen("fix").ids.rows.children[-1]
            ui.press([b for b in row.ids.buttons.children
                      if app.card_name(problem.best) in b.text][0])
            confirmed += 1
            ui.until(lambda: not app.view.problems or app.view.problems[0] != problem,
                     what="the confirmation")
            app.go("table")
        elif app.session.ended:
            break
    want = [f"{side[0].upper()} {code}@{flag}" for side, code, flag in SCRIPT[:MOVES]]
    assert list(app.view.actions) == want, (app.view.actions, want)
    assert app.view.flag(1).claimable("south")
    ui.shot(artifacts_dir, "table-from-frames")
    # One camera frame per move in the record, each labelled with the table after it.
    match_id, = store.match_ids()          # the one match the appliance recorded
    recorded_frames = list(store.frames(match_id))
    assert len(recorded_frames) == MOVES
    for k, f in enumerate(recorded_frames):
        assert f.jpeg[:2] == b"\xff\xd8" and f.observation is not None
        label = Observation.from_json(f.observation)
        cards = sorted(str(c) for c in label.cards())
        assert cards == sorted(code for _, code, _ in SCRIPT[:k + 1])
    store.close()
