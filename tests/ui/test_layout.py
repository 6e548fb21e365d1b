"""Every screen at 800×480 and 1280×720, in English and in French: a screenshot of each,
touch targets large enough to hit at arm's length, nothing outside the window, no text
clipped, shortened or wider than its box, no two visible texts on top of each other.

The app is started once per size and language and walked through every screen and popup
(the fix screen with the camera's picture of a tapped card, the question before an undo, the
edition asked on "New game", a replayed claim's proof); each one's problems are then one
test case, and every case is strict.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.commands.run import make_referee
from companion.record.store import MatchStore
from companion.ui.prefs import Prefs

from .scripted import DOUBTFUL, OPENING, observations

MIN_TARGET_PX = 44   # about 8.5 mm on a 7-inch 800×480 screen
SIZES = [(800, 480), (1280, 720)]
LANGS = ["en", "fr"]
SCREENS = ("table", "flag", "fix", "moves", "settings", "calibration", "enrol", "history",
           "replay", "failsafe", "replay-proof", "fix-crop", "undo-ask", "edition-ask")
NAMES = {"north_name": "Marie-Christine", "south_name": "Jean-Baptiste"}   # long, as at a club

def buttons(widget: Any) -> Iterator[Any]:
    from kivy.uix.button import Button
    for w in widget.walk(restrict=True):
        if isinstance(w, Button) and w.opacity > 0 and w.height > 0:
            yield w


def _shown(w: Any) -> bool:
    """Whether `w` is on the screen: visible all the way up, not scrolled out of view."""
    from kivy.uix.scrollview import ScrollView
    x, y = w.to_window(w.x, w.y)
    node = w
    while node is not None:
        if getattr(node, "opacity", 1) <= 0:
            return False
        if isinstance(node, ScrollView) and node is not w:
            sx, sy = node.to_window(node.x, node.y)
            if x < sx - 1 or y < sy - 1 or x + w.width > sx + node.width + 1 or \
                    y + w.height > sy + node.height + 1:
                return False     # (partly) scrolled away: the player scrolls to read it
        parent = node.parent
        node = None if parent is node else parent
    return w.width > 0 and w.height > 0


def labels(root: Any) -> list[Any]:
    from kivy.uix.label import Label
    return [w for w in root.walk(restrict=True)
            if isinstance(w, Label) and w.text.strip() and _shown(w)]


def text_size_needed(label: Any) -> tuple[float, float, bool]:
    """The size the label's text needs at its width (wrapped where it may wrap), and
    whether Kivy shortened it to fit (`shorten`: the end of the text is not shown)."""
    label.texture_update()
    core = label._label
    shortened = bool(getattr(core, "is_shortened", False))
    saved = core._text_size
    try:
        core._text_size = (saved[0], None)       # the same width, as tall as it must be
        core.render()
        w, h = core._internal_size
    finally:
        core._text_size = saved
        core.render()
    return w, h, shortened


def label_problems(name: str, root: Any) -> list[str]:
    """Each visible text that does not fit its box, and each pair of texts that overlap."""
    from kivy.core.window import Window
    out = []
    shown = labels(root)
    for lab in shown:
        w, h, shortened = text_size_needed(lab)
        tw, th = lab.text_size
        box_w = lab.width if tw is None else min(lab.width, tw)
        box_h = lab.height if th is None else min(lab.height, th)
        what = f"{name}: label {lab.text[:40]!r}"
        if shortened:
            out.append(f"{what} is shortened to fit its {lab.width:.0f} px")
        if w > box_w + 1 or h > box_h + 1:
            out.append(f"{what} needs {w:.0f}x{h:.0f} px in a {box_w:.0f}x{box_h:.0f} box")
        x, y = lab.to_window(lab.x, lab.y)
        if x < -1 or y < -1 or x + lab.width > Window.width + 1 or \
                y + lab.height > Window.height + 1:
            out.append(f"{what} leaves the window")
    boxes = [(lab, *lab.to_window(lab.x, lab.y)) for lab in shown]
    for i, (a, ax, ay) in enumerate(boxes):
        for b, bx, by in boxes[i + 1:]:
            dx = min(ax + a.width, bx + b.width) - max(ax, bx)
            dy = min(ay + a.height, by + b.height) - max(ay, by)
            if dx > 1 and dy > 1 and not _related(a, b):
                out.append(f"{name}: labels {a.text[:30]!r} and {b.text[:30]!r} overlap "
                           f"by {dx:.0f}x{dy:.0f} px")
    return out


def _related(a: Any, b: Any) -> bool:
    """One inside the other (a label holding a label draws on purpose over its parent)."""
    for x, y in ((a, b), (b, a)):
        node = x.parent
        while node is not None and node is not node.parent:
            if node is y:
                return True
            node = node.parent
    return False


def button_problems(name: str, root: Any) -> list[str]:
    from kivy.core.window import Window
    out = []
    for b in buttons(root):
        where = f"{name}: button {b.text!r}"
        if b.height < MIN_TARGET_PX or b.width < MIN_TARGET_PX:
            out.append(f"{where} is {b.width:.0f}x{b.height:.0f} px")
        x, y = b.to_window(b.x, b.y)
        if not (-1 <= x and x + b.width <= Window.width + 1 and
                -1 <= y and y + b.height <= Window.height + 1):
            out.append(f"{where} leaves the window")
    return out


_WALKS: dict[tuple[tuple[int, int], str], dict[str, list[str]]] = {}


def _walk(start_app: Any, tmp_path: Path, artifacts_dir: Path, size: tuple[int, int],
          lang: str) -> dict[str, list[str]]:
    """Start the app at `size` in `lang`, visit every screen, photograph it and collect
    its problems."""
    from companion.record.model import MatchHeader
    from tests.record.helpers import random_game, record_game

    with MatchStore(tmp_path / "m.sqlite") as store:
        # A whole recorded game (Tactics, claims, a winner) for the list and the replay.
        actions, final = random_game(5)
        old = record_game(store, actions, MatchHeader(extra={**NAMES,
                                                             "event": "Championnat régional"}),
                          extras=False)
        loser = "north" if final.winner == "south" else "south"
        store.append_round_end(old, final.winner, scores={final.winner: 5, loser: 3},
                               time=store.entries(old)[-1].time + dt.timedelta(seconds=5))
        prefs = Prefs(lang=lang, naming="medieval-fr" if lang == "fr" else "gmt-en",
                      event="Club night", north_name=NAMES["north_name"],
                      south_name=NAMES["south_name"])
        ui = start_app(lambda p: make_referee(p, store),
                       {"observations": list(observations(OPENING + (DOUBTFUL,))), "pace": False},
                       store=store, prefs=prefs, size=size)
        app = ui.app
        ui.until(lambda: app.view.problems, what="the doubt")
        app.load_history()
        ui.until(lambda: len(app.history) == 2, what="the history")
        app.open_replay(old)
        ui.until(lambda: app.root.current == "replay", what="the replay")
        # The step after the last claim: claimed flags on the board.
        last_claim = max(app._replay.claims)
        app.replay_go(last_claim)
        claimed = [f.number for f in app.replay_view.flags if f.claimed]
        assert claimed
        app.show_failsafe(RuntimeError("the camera thread stopped"))
        found: dict[str, list[str]] = {}
        for name in SCREENS:
            if name == "fix-crop":
                # A card tapped on the table: the fix screen asks which card it is, beside
                # the camera's picture of its place (a picture of a crop's size: these
                # frames come without a camera).
                app.open_card(1, "south", 0)
                ui.until(lambda: app.root.current == "fix", what="the fix screen")
                ui.pump(0.2)
                app.crop = _crop_picture()
                ui.pump(0.15)
                screen = ui.screen("fix")
                assert screen.texture is not None and app.fixing is not None
                image = screen.ids.crop
                # the picture is shown, beside the cards, and nothing says it is missing
                assert image.width > 100 and image.height > 100 and image.opacity == 1
                assert image.norm_image_size[0] > 100 and screen.ids.no_picture.opacity == 0
                ui.shot(artifacts_dir, f"screen-{name}-{lang}")
                found[name] = button_problems(name, screen) + label_problems(name, screen)
                app.fixing = None
                app.go("table")
                continue
            if name == "undo-ask":
                app.go("moves")
                ui.pump(0.15)
                app.ask_undo(len(app.view.moves) - 2)      # two moves back: the question
                ui.pump(0.2)
                screen = ui.screen("moves")
                assert app.undo_text and screen.ids.confirm.opacity == 1
                ui.shot(artifacts_dir, f"screen-{name}-{lang}")
                found[name] = button_problems(name, screen) + label_problems(name, screen)
                app.cancel_undo()
                continue
            if name == "edition-ask":
                app.go("settings")
                ui.pump(0.15)
                chooser = ui.screen("settings").ask_edition()
                ui.pump(0.4)      # the popup opens with an animation
                ui.shot_window(artifacts_dir, f"screen-{name}-{lang}")
                found[name] = button_problems(name, chooser) + label_problems(name, chooser)
                chooser.dismiss()
                ui.pump(0.3)
                continue
            if name == "replay-proof":
                app.go("replay")
                ui.pump(0.15)
                popup = app.replay_proof(claimed[-1])
                assert popup is not None
                ui.pump(0.4)      # the popup opens with an animation
                ui.shot_window(artifacts_dir, f"screen-{name}-{lang}")
                found[name] = button_problems(name, popup) + label_problems(name, popup)
                popup.dismiss()
                continue
            if name == "flag":
                app.open_flag(1)
                ui.until(lambda: len(app.proofs) == 2, what="the proofs")
            else:
                app.go(name)
            ui.pump(0.15)
            screen = ui.screen(name)
            assert app.root.current == name
            ui.shot(artifacts_dir, f"screen-{name}-{lang}")
            found[name] = button_problems(name, screen) + label_problems(name, screen)
        return found


def _crop_picture() -> Any:
    """An RGB picture of the size the session cuts for a card's place (360 px wide)."""
    import numpy as np
    y, x = np.mgrid[0:220, 0:360]
    return np.dstack([(x * 255 // 360), (y * 255 // 220), np.full_like(x, 90)]).astype(np.uint8)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", SCREENS)
def test_screen_lays_out(start_app: Any, tmp_path: Path, artifacts_dir: Path, name: str,
                         size: tuple[int, int], lang: str) -> None:
    key = (size, lang)
    if key not in _WALKS:
        _WALKS[key] = _walk(start_app, tmp_path, artifacts_dir, size, lang)
    problems = _WALKS[key][name]
    assert not problems, "\n".join(problems)


def test_the_checks_catch_clipped_and_overlapping_text(start_app) -> None:
    """The checks themselves: a label too small for its text and two labels on top of each
    other are found; a label that fits is not."""
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    start_app(lambda p: make_referee(p))
    root = FloatLayout(size=(800, 480))
    fits = Label(text="Flag 3", size_hint=(None, None), size=(200, 40), pos=(0, 0))
    small = Label(text="A sentence far too long for its box", size_hint=(None, None),
                  size=(60, 30), pos=(300, 0))
    wrapped = Label(text="one two three four five six seven", size_hint=(None, None),
                    size=(80, 20), pos=(500, 100), text_size=(80, None))
    short = Label(text="Shortened to nothing much", size_hint=(None, None), size=(70, 30),
                  pos=(600, 300), text_size=(70, 30), shorten=True)
    over = Label(text="On top", size_hint=(None, None), size=(200, 40), pos=(100, 10))
    for w in (fits, small, wrapped, short, over):
        root.add_widget(w)
    found = label_problems("test", root)
    assert any("'A sentence far" in p and "needs" in p for p in found)
    assert any("'one two three" in p and "needs" in p for p in found)
    assert any("'Shortened" in p and "shortened" in p for p in found)
    assert any("'Flag 3' and 'On top' overlap" in p for p in found)
    assert not [p for p in found if p.startswith("test: label 'Flag 3'")]
