"""Every screen at 800×480 and 1280×720: screenshots, touch targets large enough to hit at
arm's length, nothing outside the window, no button text wider than its button."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands.run import make_referee
from companion.record.store import MatchStore
from companion.ui.prefs import Prefs

from .scripted import DOUBTFUL, OPENING, observations

MIN_TARGET_PX = 44   # about 8.5 mm on a 7-inch 800×480 screen


def buttons(widget):
    from kivy.uix.button import Button
    for w in widget.walk(restrict=True):
        if isinstance(w, Button) and w.opacity > 0 and w.height > 0:
            yield w


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_screen_lays_out(start_app, tmp_path: Path, artifacts_dir, size, lang) -> None:
    from kivy.core.window import Window

    with MatchStore(tmp_path / "m.sqlite") as store:
        ui = start_app(lambda p: make_referee(p, store),
                       {"observations": list(observations(OPENING + (DOUBTFUL,))), "pace": False},
                       store=store, prefs=Prefs(lang=lang, naming="medieval-fr" if lang == "fr"
                                                else "gmt-en"), size=size)
        app = ui.app
        ui.until(lambda: app.view.problems, what="the doubt")
        app.load_history()
        ui.until(lambda: app.history, what="the history")
        app.open_replay(app.history[0].id)
        ui.until(lambda: app.root.current == "replay", what="the replay")
        app.replay_go(3)
        for name in ("table", "flag", "fix", "moves", "settings", "calibration", "enrol",
                     "history", "replay", "failsafe"):
            if name == "flag":
                app.open_flag(1)
                ui.until(lambda: len(app.proofs) == 2, what="the proofs")
            else:
                app.go(name)
            ui.pump(0.1)
            screen = ui.screen(name)
            assert app.root.current == name
            if lang == "en" or name in ("table", "flag", "fix"):
                ui.shot(artifacts_dir, f"screen-{name}-{lang}")
            for b in buttons(screen):
                where = f"{name}: button {b.text!r}"
                assert b.height >= MIN_TARGET_PX and b.width >= MIN_TARGET_PX, \
                    f"{where} is {b.width:.0f}x{b.height:.0f} px"
                x, y = b.to_window(b.x, b.y)
                assert -1 <= x and x + b.width <= Window.width + 1, f"{where} leaves the window"
                assert -1 <= y and y + b.height <= Window.height + 1, f"{where} leaves the window"
                b.texture_update()
                assert b.texture_size[0] <= b.width + 1, f"{where} text is wider than it"
