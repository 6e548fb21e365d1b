"""The real app follows a real referee fed a scripted game: tap a flag, read the proof,
claim, fix a doubtful read, undo, switch language; screenshots at both screen sizes."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.referee.referee import Referee
from companion.referee.settings import RefereeSettings

from .scripted import DOUBTFUL, OPENING, observations


def make_referee(prefs):
    return Referee(RefereeSettings())


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_a_game_on_the_touchscreen(start_app, artifacts_dir: Path, size) -> None:
    ui = start_app(make_referee, {"observations": list(observations(OPENING + (DOUBTFUL,))),
                                  "pace": False}, size=size)
    app = ui.app
    ui.until(lambda: len(app.view.actions) == 5 and app.view.problems, what="five moves and a doubt")
    table = ui.screen("table")
    assert app.view.flag(1).claimable("south") and not app.view.flag(1).claimable("north")
    assert "Y5" in [str(c) for c in app.view.flag(4).north] or app.view.problems[0].best.code == "Y5"
    assert "yellow 5" in table.ids.status_label.text and "orange 5" in table.ids.status_label.text
    ui.shot(artifacts_dir, "table-doubt")

    # Tap flag 1: the proofs of both players, as the rules core writes them.
    ui.press(table.ids.board.columns[0].ids.flag_button)
    assert app.root.current == "flag"
    ui.until(lambda: "south" in app.proofs and "north" in app.proofs, what="the proofs")
    flag = ui.screen("flag")
    south = flag.ids.south
    assert south.valid and "can claim flag 1" in south.title, (south.verdict, south.title, app.proofs)
    assert south.proof == app.proofs["south"].proof("en", "gmt-en")
    assert south.mine == ["R8", "R9", "R10"]
    assert not flag.ids.north.valid
    ui.shot(artifacts_dir, "flag-proof")

    # Fix the doubtful read: it was the orange 5.
    ui.press(flag.ids.back)
    ui.press(table.ids.fix_button)
    fix = ui.screen("fix")
    row = fix.ids.rows.children[0]
    ui.shot(artifacts_dir, "fix-doubt")
    choose_second = [b for b in row.ids.buttons.children if "orange 5" in b.text][0]
    ui.press(choose_second)
    ui.until(lambda: not app.view.problems and len(app.view.actions) == 6, what="the fix")
    assert str(app.view.flag(4).north[0]) == "O5"
    assert app.view.actions[-1].endswith("O5@4") or "O5" in app.view.actions[-1]

    # Undo the last move from the move list.
    ui.press(fix.ids.back)
    ui.press(table.ids.moves_button)
    moves = ui.screen("moves")
    ui.shot(artifacts_dir, "moves")
    newest = moves.ids.rows.children[-1]
    assert newest.index == 5
    assert "(" not in newest.text and "North" in newest.text   # in words, no notation
    ui.press([c for c in newest.children if hasattr(c, "text") and "Undo" in c.text][0])
    # Undo asks first, naming exactly the move it takes back; nothing is undone yet.
    assert app.undo_text.startswith("Undo this move? North played orange 5 at flag 4"), \
        app.undo_text
    assert len(app.view.actions) == 6
    ui.shot(artifacts_dir, "moves-undo-ask")
    ui.press(moves.ids.yes_undo)
    ui.until(lambda: len(app.view.actions) == 5, what="the undo")
    assert app.message.startswith("Undone: North played orange 5 at flag 4")
    # ... and it can be redone.
    ui.until(lambda: not moves.ids.redo.disabled, what="the redo button")
    ui.shot(artifacts_dir, "moves-redo")
    ui.press(moves.ids.redo)
    ui.until(lambda: len(app.view.actions) == 6, what="the redo")
    assert str(app.view.flag(4).north[0]) == "O5" and not app.view.problems
    assert app.message.startswith("Redone: North played orange 5 at flag 4")

    # Switch to French: every text follows.
    app.go("settings")
    settings = ui.screen("settings")
    ui.press(settings.ids.lang_fr)
    assert app.lang == "fr"
    ui.shot(artifacts_dir, "settings-fr")
    ui.press(settings.ids.back)
    assert table.ids.pass_button.text.startswith("Passer")
    assert table.ids.moves_button.text == "Coups"
    ui.shot(artifacts_dir, "table-fr")


def test_a_violation_in_french(start_app, artifacts_dir: Path) -> None:
    """A card played out of turn: the rules core's refusal shown in French, with the French
    card names and the players' names; a refused request too."""
    from companion.ui.prefs import Prefs

    from .scripted import Step

    again = Step("south", "P7", 5)          # south has just played R10: south again
    ui = start_app(make_referee, {"observations": list(observations(OPENING + (again,))),
                                  "pace": False},
                   prefs=Prefs(lang="fr", naming="gmt-fr", south_name="Brune"))
    app = ui.app
    ui.until(lambda: app.view.problems, what="the violation")
    (problem,) = app.view.problems
    assert problem.kind == "violation" and problem.reason == "wrong-phase"
    assert problem.message.startswith("South playing P7 at flag 5")    # the English message
    table = ui.screen("table")
    french = ("Brune joue violet 7 au drapeau 5 : Brune a déjà joué une carte ce "
              "tour-ci et ne peut pas jouer violet 7 en plus")
    ui.until(lambda: french in table.ids.status_label.text, what="the French violation")
    ui.shot(artifacts_dir, "table-violation-fr")
    ui.press(table.ids.fix_button)
    fix = ui.screen("fix")
    assert french in fix.ids.rows.children[0].text
    ui.shot(artifacts_dir, "fix-violation-fr")
    # A request the referee refuses: its answer is in French too.
    app.pass_turn("south")
    ui.until(lambda: app.message, what="the refusal")
    assert app.message == "Brune passe : Brune a déjà joué une carte ce tour-ci"
    # Back to English: the same violation in English, with the card names still chosen.
    app.go("settings")
    ui.press(ui.screen("settings").ids.lang_en)
    app.go("table")
    ui.until(lambda: "Brune playing violet 7 at flag 5: Brune has already played"
             in table.ids.status_label.text, what="the English violation")


def test_glare_over_a_flag_is_named_on_the_table_screen(start_app, artifacts_dir: Path) -> None:
    """Glare over flag 1: the table screen warns of it while the cards are seen, and when
    the camera loses a card there the players read "glare over flag 1", not "R10 was taken
    away"."""
    from dataclasses import replace

    steps = list(observations(OPENING))
    last = steps[-1]
    lost = replace(last, flags=(replace(last.flags[0], south=last.flags[0].south[:-1]),)
                   + last.flags[1:], glare=(1,))
    seen = replace(last, glare=(1,))
    # Paced (8 frames a second): the warning stands for five seconds before the loss.
    ui = start_app(make_referee, {"observations": steps + [seen] * 40 + [lost] * 6,
                                  "frame_interval": 0.125})
    app = ui.app
    table = ui.screen("table")
    ui.until(lambda: table.ids.status_label.text.startswith(
        "Glare over flag 1: the camera may miss cards there"), what="the glare warning")
    assert not app.view.problems and len(app.view.actions) == 5
    ui.shot(artifacts_dir, "table-glare")
    ui.until(lambda: app.view.problems, what="the glare violation")
    (problem,) = app.view.problems
    assert problem.kind == "violation" and problem.reason == "glare"
    ui.until(lambda: "Glare over flag 1 may hide or change the cards there" in
             table.ids.status_label.text, what="the glare named")
    ui.shot(artifacts_dir, "table-glare-violation")
