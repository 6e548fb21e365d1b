"""The table screen says what it waits for and what was recorded, in words, in English and in
French; claims in words on the claimant's side; players never told apart by a colour; suit
marks on every card; digits readable at 1 m on a 7-inch 800x480 screen; a card on the
table corrected by tapping it; a taken flag keeps its proof."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.appliance.status import Status
from companion.referee.display import Display, FlagView, Problem
from companion.referee.referee import Referee
from companion.referee.settings import RefereeSettings
from companion.rules.actions import Claim, Pass, Play, Redeploy
from companion.rules.cards import BY_CODE
from companion.rules.formation import best_formation
from companion.rules.messages import message
from companion.rules.edition import edition
from companion.rules.place import Place
from companion.ui.colours import CARD_RGBA, SIDE_RGBA, SUIT_MARKS
from companion.ui.words import action_words, card_naming, place_words, status_line

from .scripted import OPENING, observations

NAMES = {"en": {"north": "North", "south": "South"}, "fr": {"north": "Nord", "south": "Sud"}}
MM_PER_PX = 154.2 / 800      # a 7-inch 800x480 screen: 154.2 mm across
READING = Status(frames=40)


def make_referee(prefs):
    return Referee(RefereeSettings())


def test_the_status_line_always_says_what_it_waits_for() -> None:
    playing = Display(to_move="north")
    said = lambda view, status, lang="en": status_line(view, status, lang, "gmt-en",  # noqa: E731
                                                       NAMES[lang], "the problem")
    assert said(playing, Status()) == "Waiting for the camera…"
    assert said(playing, Status(frames=3, waiting="camera unplugged")).startswith("Camera lost")
    assert said(playing, Status(frames=3, deck=False)).startswith("No deck enrolled")
    assert said(playing, Status(frames=3, moving=True)) == \
        "Waiting for the hands to leave the table"
    assert said(playing, Status(frames=3, unreadable=True)).startswith("Cannot see all nine")
    assert said(playing, READING) == "Waiting for North to play a card"
    doubt = Display(to_move="north", problems=(Problem("doubt", "flag 4 north"),))
    assert said(doubt, READING) == "Waiting for your answer: the problem"
    assert said(Display(to_move="south", mode="holding"), READING) == \
        "Put the table back as recorded"
    assert said(playing, READING, "fr") == "En attente d'une carte du Nord"
    played = Display(to_move="south", phase="draw")     # south's card is down: north is next
    assert said(played, READING) == "Waiting for North to play a card (South may still claim)"
    assert said(played, Status(frames=9, ended=True)) == "The recorded frames are over"
    assert said(playing, Status(frames=3, deck=False), "fr").startswith("Aucun jeu")
    # Glare over flags: said before whose card is awaited, after a problem to answer.
    glare = Status(frames=3, glare=(4,))
    assert said(playing, glare).startswith("Glare over flag 4: the camera may miss cards")
    assert said(playing, Status(frames=3, glare=(4, 5)), "fr").startswith(
        "Reflet sur les drapeaux 4, 5 :")
    assert said(doubt, glare) == "Waiting for your answer: the problem"
    assert said(playing, Status(frames=3, glare=(4,), moving=True)).startswith("Waiting for the")
    stones = status_line(playing, glare, "fr", "schotten-fr", NAMES["fr"], "",
                         edition("schotten-totten"))
    assert stones.startswith("Reflet sur la borne 4 :")
    # A light that hides the colours: said before glare, and with a doubt it makes, why.
    cast = Status(frames=3, glare=(4,), cast=True)
    assert said(playing, cast).startswith("This light hides the cards' colours: every Troop")
    assert said(playing, cast, "fr").startswith("Cette lumière cache les couleurs")
    assert said(doubt, cast) == ("Waiting for your answer: the problem. This light hides the "
                                 "cards' colours: set the camera's white balance, or use "
                                 "daylight-white lamps")
    assert said(Display(to_move="north", problems=(Problem("fix", "flag 4 north"),)),
                cast) == "Waiting for a fix: the problem"
    assert said(playing, Status(frames=3, cast=True, moving=True)).startswith("Waiting for the")


def test_actions_and_places_in_words_never_in_notation() -> None:
    en, fr = NAMES["en"], NAMES["fr"]
    play = Play("north", BY_CODE["B7"], 3)
    assert action_words(play, "en", "gmt-en", en) == "North played blue 7 at flag 3"
    assert action_words(play, "fr", "gmt-fr", fr) == "Nord a joué bleu 7 au drapeau 3"
    assert action_words(Claim("south", 4), "fr", "gmt-fr", fr) == \
        "Sud a revendiqué le drapeau 4"
    assert action_words(Pass("south"), "en", "gmt-en", en) == "South passed"
    move = Redeploy("north", BY_CODE["R3"], 2, None)
    assert action_words(move, "fr", "gmt-fr", fr) == \
        "Nord a joué Redéploiement : rouge 3 du drapeau 2 défaussée"
    assert place_words(Place(0, "north"), "en", en) == "beside the line, North's side"
    assert place_words(Place(5, "south"), "fr", fr) == "drapeau 5, côté Sud"
    # The rules' sentences name an action in words, without its notation.
    text = message("no-card-to-correct", {"index": 2, "action": Pass("south")}, "fr", "gmt-fr",
                   fr)
    assert "Sud passe" in text and "S PASS" not in text, text


def test_french_is_complete_and_agrees() -> None:
    assert card_naming("gmt-en", "fr") == "gmt-fr"          # never English names in French
    assert card_naming("medieval-fr", "fr") == "medieval-fr"
    assert card_naming("gmt-fr", "en") == "gmt-fr"          # an English table keeps its choice
    wedge = best_formation([BY_CODE["B3"], BY_CODE["B4"], BY_CODE["B5"]])
    assert wedge.describe("gmt-fr", "fr") == "Pointe bleue 3-4-5 (12)"
    assert wedge.describe("gmt-en", "en") == "Wedge blue 3-4-5 (12)"
    twice = message("card-twice", {"card": BY_CODE["P10"], "a": Place(0, "north"),
                                   "b": Place(0, "north")}, "en")
    assert twice.count("beside the line") == 1, twice
    from companion.rules.prover import prove
    from companion.rules.state import GameState
    empty = GameState.new_table().position()
    assert prove(empty, 1, "north").proof("fr", "gmt-fr").startswith(
        "Le Nord n'a aucune carte au drapeau 1")


def test_players_are_never_told_apart_by_a_colour() -> None:
    assert SIDE_RGBA["north"] == SIDE_RGBA["south"]
    for rgba in CARD_RGBA.values():          # and the players' colour is no suit's colour
        assert sum(abs(a - b) for a, b in zip(rgba[:3], SIDE_RGBA["north"][:3])) > 0.6
    assert set(SUIT_MARKS) == set(CARD_RGBA) and len(set(SUIT_MARKS.values())) == 6


def _ink_height(widget) -> int:
    """Rows of the widget's text texture that hold ink (the digits' real height, px)."""
    texture = widget.texture
    w, h = texture.size
    pixels = texture.pixels
    rows = [y for y in range(h) if any(pixels[(y * w + x) * 4 + 3] > 128 for x in range(w))]
    return (max(rows) - min(rows) + 1) if rows else 0


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_table_in_words(start_app, artifacts_dir: Path, size, lang) -> None:
    from companion.ui.prefs import Prefs
    from companion.ui.widgets import CardFace, ClaimBand

    ui = start_app(make_referee, {"observations": list(observations(OPENING)), "pace": False},
                   size=size, prefs=Prefs(lang=lang))
    app = ui.app
    ui.until(lambda: len(app.view.actions) == 5 and app.session.ended, what="the opening")
    ui.until(lambda: app.status.frames > 0, what="the status")
    table = ui.screen("table")
    expect = {"en": ("The recorded frames are over", "Last: South played red 10 at flag 1",
                     "South\ncan claim", "North to play"),
              "fr": ("Les images enregistrées sont terminées",
                     "Dernier coup : Sud a joué rouge 10 au drapeau 1",
                     "Sud peut\nle prendre", "Au tour du Nord")}[lang]
    # The scripted frames are over: nothing else is awaited, and the status line says so.
    assert table.ids.status_label.text == expect[0]
    assert table.ids.turn_label.text == expect[3]          # south's card is down: north next
    assert table.ids.last_label.text == expect[1]
    column = table.ids.board.columns[0]
    band = column.ids.south_claim
    assert band.text == expect[2] and not column.ids.north_claim.text
    ui.pump(0.2)
    # The claim band's words fit in it (nothing cut off), on south's half of the flag.
    assert band.texture_size[0] <= band.width + 1 and band.texture_size[1] <= band.height + 1
    assert band.y <= column.ids.flag_button.center_y
    # Every card face carries its suit mark; the digits are at least 3.4 mm at 800x480: a
    # value's whole line (not only its ink) fits its face (tests/ui/test_layout.py), and the
    # flag keeps room for a claim band naming a long name in two languages.
    faces = [w for w in table.walk() if isinstance(w, CardFace) and w.code]
    assert faces and all(f.suit == f.code[0] for f in faces if f.is_value)
    digits = _ink_height(faces[0]) / app.u        # in pixels of the 800x480 screen
    assert digits * MM_PER_PX >= 3.4, (digits, digits * MM_PER_PX)
    # Every text of the table fits: no label is cut (texture within its box).
    for label in (table.ids.status_label, table.ids.last_label, table.ids.north_label,
                  table.ids.south_label, table.ids.turn_label):
        assert label.texture_size[1] <= label.height + 2, (label.text, label.texture_size)
        assert label.font_size >= 19 * app.u
    assert isinstance(band, ClaimBand)
    ui.shot(artifacts_dir, f"table-status-{lang}")

    # Frames come, but no deck is enrolled: the status line says so before anything else.
    app._on_status(Status(frames=50, deck=False))
    ui.pump(0.1)
    assert table.ids.status_label.text.startswith(("No deck", "Aucun jeu"))
    ui.shot(artifacts_dir, f"table-no-deck-{lang}")
    app._on_status(Status(frames=60, moving=True))
    ui.pump(0.1)
    ui.shot(artifacts_dir, f"table-hands-{lang}")

    # South claims flag 1: the winner's panel keeps the proof that took it.
    ui.press(column.ids.flag_button)
    flag = ui.screen("flag")
    ui.until(lambda: "north" in app.proofs and "south" in app.proofs, what="the proofs")
    assert flag.ids.north.ids.claim.disabled          # the proof says north cannot claim
    ui.press(flag.ids.south.ids.claim)
    ui.until(lambda: app.view.flag(1).claimed == "south", what="the claim")
    app.open_flag(1)
    ui.until(lambda: "south" in app.proofs and app.proofs["south"].valid, what="the kept proof")
    ui.pump(0.1)
    assert flag.ids.south.title.startswith(("South took flag 1", "Sud a pris le drapeau 1"))
    assert "Wedge" in flag.ids.south.mine_title or "Pointe" in flag.ids.south.mine_title
    ui.shot(artifacts_dir, f"flag-won-{lang}")
    ui.press(flag.ids.back)
    assert column.ids.flag_button.text.endswith(("South's", "au Sud"))
    ui.shot(artifacts_dir, f"table-claimed-words-{lang}")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_tap_a_card_to_correct_it(start_app, artifacts_dir: Path, size) -> None:
    ui = start_app(make_referee, {"observations": list(observations(OPENING)), "pace": False},
                   size=size)
    app = ui.app
    ui.until(lambda: len(app.view.actions) == 5 and app.session.ended, what="the opening")
    table = ui.screen("table")
    stack = [w for w in table.ids.board.columns[1].walk()
             if w.__class__.__name__ == "CardStack" and w.side == "north"][0]
    face = [w for w in stack.children if getattr(w, "code", "") == "G3"][0]
    ui.press(face)
    assert app.root.current == "fix"
    fix = ui.screen("fix")
    assert fix.question == "Flag 2, North's side: read as green 3. Which card is it?"
    ui.shot(artifacts_dir, "fix-tap-card")
    picker = [w for w in fix.ids.rows.children if w.__class__.__name__ == "CardPicker"][0]
    choices = {c.code: c for c in picker.children}
    # rows >= 9 mm on the 7-inch 800x480 screen (the same share of a larger one)
    assert all(c.height / app.u >= 9 / MM_PER_PX - 1 for c in choices.values())
    ui.pump(0.3)
    ui.press(choices["G4"])
    ui.pump(0.3)
    ui.until(lambda: str(app.view.flag(2).north[0]) == "G4",
             what=f"the correction ({app.message!r}, {app.view.actions}, {app.fixing})")
    assert app.view.actions[3] == "N G4@2"          # the move itself corrected (and recorded)
    assert app.message == "Recorded: green 4 flag 2, North's side"
    ui.shot(artifacts_dir, "fix-tap-card-done")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_every_changed_screen_in_both_languages(start_app, artifacts_dir: Path, size,
                                                lang) -> None:
    """A doubtful read answered on the fix screen (only the answers that fit it), a pick
    confirmed in words, an undo asked first; a screenshot of each screen."""
    from companion.ui.prefs import Prefs

    from .scripted import DOUBTFUL

    ui = start_app(make_referee, {"observations": list(observations(OPENING + (DOUBTFUL,))),
                                  "pace": False}, size=size, prefs=Prefs(lang=lang))
    app = ui.app
    ui.until(lambda: app.view.problems and app.session.ended, what="the doubt")
    table = ui.screen("table")
    assert table.ids.status_label.text.startswith(
        {"en": "Waiting for your answer: Doubtful read, flag 4, North's side: yellow 5 or "
               "orange 5?",
         "fr": "En attente de votre réponse : Lecture douteuse, drapeau 4, côté Nord : "
               "jaune 5 ou orange 5 ?"}[lang])
    ui.shot(artifacts_dir, f"screens-table-doubt-{lang}")
    ui.press(table.ids.fix_button)
    fix = ui.screen("fix")
    row = fix.ids.rows.children[-1]
    labels = [b.text for b in reversed(row.ids.buttons.children)]
    assert len(labels) == 4 and labels[-1] == {"en": "No card there", "fr": "Pas de carte ici"}[lang]
    ui.shot(artifacts_dir, f"screens-fix-doubt-{lang}")
    ui.press(row.ids.buttons.children[1])                    # "Another card…"
    assert fix.question.startswith({"en": "Flag 4, North's side: read as yellow 5",
                                    "fr": "Drapeau 4, côté Nord : lue comme jaune 5"}[lang])
    ui.shot(artifacts_dir, f"screens-fix-picker-{lang}")
    picker = [w for w in fix.ids.rows.children if w.__class__.__name__ == "CardPicker"][0]
    ui.press([c for c in picker.children if c.code == "O5"][0])
    ui.until(lambda: not app.view.problems and len(app.view.actions) == 6, what="the pick")
    assert app.message == {"en": "Recorded: orange 5 flag 4, North's side",
                           "fr": "Enregistré : orange 5, drapeau 4, côté Nord"}[lang]
    ui.shot(artifacts_dir, f"screens-fix-picked-{lang}")
    app.go("moves")
    moves = ui.screen("moves")
    ui.pump(0.1)
    oldest = moves.ids.rows.children[-5]                       # move 2: undo it and the rest
    app.ask_undo(oldest.index)
    ui.pump(0.1)
    assert app.undo_text.startswith({"en": "Undo 5 moves? North played orange 5 at flag 4; ",
                                     "fr": "Annuler 5 coups ? Nord a joué orange 5 au drapeau 4 ; "
                                     }[lang])
    ui.shot(artifacts_dir, f"screens-moves-undo-ask-{lang}")
    ui.press(moves.ids.cancel_undo)
    assert len(app.view.actions) == 6 and not app.undo_text   # nothing undone
    app.go("calibration")
    ui.pump(0.1)
    ui.shot(artifacts_dir, f"screens-camera-waiting-{lang}")
    app.go("enrol")
    ui.pump(0.1)
    ui.shot(artifacts_dir, f"screens-enrol-{lang}")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_texts_are_never_cut_nor_stale(start_app, artifacts_dir: Path, size) -> None:
    """The Tactics count is never the part cut off; an answer clears when the round or the
    referee's mode changes, or after a while, and follows the language; a camera's error
    never reaches the French table in English."""
    from dataclasses import replace

    from companion.ui.prefs import Prefs

    ui = start_app(make_referee, {"observations": list(observations(OPENING)), "pace": False},
                   prefs=Prefs(lang="fr"), size=size)
    app = ui.app
    ui.until(lambda: len(app.view.actions) == 5 and app.session.ended, what="the opening")
    table = ui.screen("table")
    offline = tuple(BY_CODE[c] for c in ("SCOUT", "DESERTER", "REDEPLOY", "P10", "TRAITOR"))
    app.view = replace(app.view, tactics=(3, 0), offline=(offline, ()))
    ui.pump(0.1)
    north = table.ids.north_label
    assert north.text.startswith("Nord  ·  Tactiques : 3  ·  hors ligne : Eclaireur, Déserteur")
    assert "violet 10" in north.text                  # French card names, never English ones
    assert north.texture_size[1] <= north.height + 1 and north.texture_size[0] <= north.width + 1
    ui.shot(artifacts_dir, "table-offline-fr")
    # An answer follows the language, and clears when the referee's mode changes.
    app.say_key("calib.no_lock")
    assert app.message.startswith("Cette caméra")
    app.set_pref(lang="en")
    assert app.message.startswith("This camera")
    app.view = replace(app.view, mode="round-over")
    app._on_view(replace(app.view, mode="playing"))
    assert app.message == ""
    # ... or after a while.
    app.MESSAGE_SECONDS = 0.2
    app.say("Claim refused")
    ui.until(lambda: app.message == "", timeout=5, what="the answer to clear")
    # The camera is lost: the status line says so in the table's language only.
    app.set_pref(lang="fr")
    app._on_status(replace(app.status, frames=9, waiting="camera /dev/video0 unplugged"))
    ui.pump(0.1)
    assert table.ids.status_label.text.startswith("Caméra perdue")
    assert "unplugged" not in table.ids.status_label.text and "unplugged" not in app.message
    ui.shot(artifacts_dir, "table-camera-lost-fr")
    app._on_status(replace(app.status, waiting=None))
    assert app.message == "La caméra est revenue"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_fix_screen_offers_only_the_answers_that_fit(start_app, artifacts_dir: Path,
                                                         lang) -> None:
    """A table that differs from the record after an undo is no misread: no card picker is
    offered for it, only the way to the moves (to redo or undo further)."""
    from companion.ui.prefs import Prefs

    ui = start_app(make_referee, {"observations": list(observations(OPENING)), "pace": False},
                   prefs=Prefs(lang=lang))
    app = ui.app
    ui.until(lambda: len(app.view.actions) == 5 and app.session.ended, what="the opening")
    app.undo_to(4)
    ui.until(lambda: app.view.problems, what="the table to differ from the undo")
    (problem,) = app.view.problems
    assert problem.kind == "violation" and problem.reason == "undo-restore"
    table = ui.screen("table")
    assert table.ids.status_label.text.startswith(
        {"en": "Waiting for a fix: The table differs",
         "fr": "En attente d'une correction : La table diffère"}[lang])
    ui.press(table.ids.fix_button)
    row = ui.screen("fix").ids.rows.children[-1]
    assert [b.text for b in row.ids.buttons.children] == [{"en": "Moves", "fr": "Coups"}[lang]]
    ui.shot(artifacts_dir, f"fix-undo-restore-{lang}")
    # Redo puts the record back as the table is: nothing left to fix.
    app.redo()
    ui.until(lambda: not app.view.problems and len(app.view.actions) == 5, what="the redo")
