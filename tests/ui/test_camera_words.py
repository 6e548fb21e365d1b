"""The app on recorded camera frames (real capture, vision and referee): the fix screen shows
the camera's picture of the place in question; with no deck enrolled the table and camera
screens say so, and the enrol screen shows the live picture."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.bench.ui import render_frames
from companion.commands.run import make_referee
from companion.ui.prefs import Prefs

MOVES = 3


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("recorded-words")
    deck, moves = render_frames(tmp, calm=8, steps=MOVES)
    assert moves == MOVES
    return tmp / "frames", deck


def _play(ui, app) -> None:
    """Let the frames run out, confirming the pipeline's best guess of any doubtful read."""
    while True:
        ui.until(lambda: app.view.problems or app.session.ended, timeout=60,
                 what="a doubt or the end of the frames")
        if app.view.problems:
            problem = app.view.problems[0]
            app.confirm(problem, problem.best)
            ui.until(lambda: not app.view.problems or app.view.problems[0] != problem,
                     what="the confirmation")
        elif app.session.ended:
            return


@pytest.mark.parametrize("size,lang", [((800, 480), "en"), ((1280, 720), "fr"),
                                       ((800, 480), "fr"), ((1280, 720), "en")])
def test_the_fix_screen_shows_the_camera_picture_of_the_card(start_app, recorded,
                                                              artifacts_dir, size, lang) -> None:
    from companion.vision.capture import FolderSource
    from companion.vision.deck import Deck
    from companion.vision.pipeline import TableReader

    frames, deck = recorded
    ui = start_app(lambda prefs: make_referee(prefs, None),
                   {"source": FolderSource(frames), "reader": TableReader(Deck.load(deck)),
                    "pace": True, "frame_interval": 0.125}, prefs=Prefs(lang=lang), size=size)
    app = ui.app
    _play(ui, app)
    assert list(app.view.actions) == ["S R8@1", "N B2@1", "S R9@1"]
    table = ui.screen("table")
    stack = [w for w in table.ids.board.columns[0].walk()
             if w.__class__.__name__ == "CardStack" and w.side == "north"][0]
    face = [w for w in stack.children if getattr(w, "code", "") == "B2"][0]
    ui.press(face)
    fix = ui.screen("fix")
    ui.until(lambda: app.crop is not None and fix.texture is not None, what="the crop")
    crop = app.crop
    # The picture of flag 1's north zone: the blue 2 lies in it (blue dominates somewhere).
    assert crop.ndim == 3 and min(crop.shape[:2]) > 40
    blue = (crop[..., 2].astype(int) - crop[..., 0].astype(int)) > 60   # RGB: B well over R
    assert blue.mean() > 0.01, blue.mean()
    assert fix.question.startswith(("Flag 1, North's side: read as blue 2",
                                    "Drapeau 1, côté Nord : lue comme bleu 2"))
    ui.shot(artifacts_dir, f"fix-crop-{lang}")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_no_deck_enrolled_is_said_and_the_enrol_screen_shows_the_camera(
        start_app, recorded, artifacts_dir, size, lang) -> None:
    from companion.vision.capture import FolderSource

    frames, _ = recorded
    ui = start_app(lambda prefs: make_referee(prefs, None),
                   {"source": FolderSource(frames), "pace": True, "frame_interval": 0.1},
                   prefs=Prefs(lang=lang), size=size)
    app = ui.app
    table = ui.screen("table")
    ui.until(lambda: app.status.frames > 0, what="the first frame")
    assert not app.status.deck
    assert table.ids.status_label.text.startswith(("No deck enrolled", "Aucun jeu de cartes"))
    ui.shot(artifacts_dir, f"table-first-run-{lang}")
    app.go("calibration")
    camera = ui.screen("calibration")
    ui.until(lambda: camera.texture is not None, what="a picture")
    # All nine tiles are found, and the screen says that no deck is enrolled all the same.
    assert camera.advice.startswith(("No deck enrolled yet", "Aucun jeu de cartes appris"))
    ui.shot(artifacts_dir, f"camera-no-deck-{lang}")
    app.go("enrol")
    enrol = ui.screen("enrol")
    ui.until(lambda: enrol.texture is not None, what="the live picture on the enrol screen")
    assert np.asarray(app.preview.image).size > 0
    ui.shot(artifacts_dir, f"enrol-live-{lang}")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_before_the_first_picture_the_camera_screen_says_it_waits(start_app, artifacts_dir,
                                                                  size) -> None:
    from companion.referee.referee import Referee

    ui = start_app(lambda prefs: Referee(), {}, size=size)
    app = ui.app
    app.go("calibration")
    camera = ui.screen("calibration")
    ui.pump(0.2)
    assert camera.texture is None and camera.ids.waiting.text == "Waiting for the camera…"
    assert camera.ids.picture.opacity == 0          # never an empty white box
    ui.shot(artifacts_dir, "camera-waiting")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_enrolment_refuses_a_stack_of_cards_in_words(start_app, tmp_path: Path,
                                                     _isolated_data_dir: Path, artifacts_dir,
                                                     size, lang) -> None:
    import cv2

    from companion.rules.cards import BY_CODE
    from companion.synth import Scene, printing_named, render
    from companion.vision.capture import FolderSource

    frames = tmp_path / "frames"
    frames.mkdir()
    pile = render(Scene(offline_south=tuple(BY_CODE[c] for c in ("R10", "O10", "Y10")),
                        table_seed=3), printing_named("classic"), seed=1)
    cv2.imwrite(str(frames / "f0.png"), pile)
    ui = start_app(lambda prefs: make_referee(prefs, None),
                   {"source": FolderSource(frames, loop=True), "pace": True},
                   start_screen="enrol", prefs=Prefs(lang=lang), size=size)
    app = ui.app
    enrol = ui.screen("enrol")
    ui.until(lambda: enrol.texture is not None, what="the live picture")
    ui.press(enrol.ids.capture)
    ui.until(lambda: app.message, what="the refusal")
    assert app.message.startswith({"en": "Not captured: the picture shows no single card",
                                   "fr": "Non capturée : l'image ne montre pas une seule"}[lang])
    assert "130 mm" in app.message and app.enrol_index == 0      # asked for red 1 again
    assert not (_isolated_data_dir / "enrol" / "R1.png").exists()
    ui.shot(artifacts_dir, f"enrol-refused-{lang}")
