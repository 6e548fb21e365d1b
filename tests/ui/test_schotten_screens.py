"""A Schotten Totten match on every screen, in English and in French: stones (bornes) where
Battle Line says flags, the edition's 64 cards in the fix screen's picker (the Spy, no 10),
its brown clan drawn brown with its suit mark, and the replay and the match list in the
recorded match's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.commands.run import make_referee
from companion.record.store import MatchStore
from companion.ui.colours import BROWN_RGBA, CARD_RGBA, SUIT_MARKS
from companion.ui.prefs import Prefs

from .scripted import Step, observations

# South's red 7-8-9 is Schotten Totten's best Colour run: nothing north adds can beat it.
ST_OPENING = (
    Step("south", "R7", 1), Step("north", "B2", 1), Step("south", "R8", 1),
    Step("north", "O3", 2), Step("south", "R9", 1),
)
ST_DOUBT = Step("north", "Y5", 4, doubt="O5")

WORDS = {
    "en": {"flag": re.compile(r"\bflags?\b", re.I), "stone": "stone"},
    "fr": {"flag": re.compile(r"\bdrapeaux?\b", re.I), "stone": "borne"},
}


def _no_flag(lang: str, *texts: str) -> None:
    for text in texts:
        assert not WORDS[lang]["flag"].search(text), text


def _faces(widget, code: str) -> list:
    return [w for w in widget.walk() if type(w).__name__ in ("CardFace", "CardChoice")
            and getattr(w, "code", "") == code]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_schotten_totten_match_speaks_of_stones_on_every_screen(
        start_app, tmp_path: Path, artifacts_dir: Path, lang: str) -> None:
    stone = WORDS[lang]["stone"]
    with MatchStore(tmp_path / "m.sqlite") as store:
        prefs = Prefs(lang=lang, edition="schotten-totten",
                      naming="schotten-fr" if lang == "fr" else "schotten-en")
        ui = start_app(lambda p: make_referee(p, store),
                       {"observations": list(observations(ST_OPENING + (ST_DOUBT,))),
                        "pace": False}, store=store, prefs=prefs)
        app = ui.app
        ui.until(lambda: app.view.problems, what="the doubtful read")
        assert app.view.edition == "schotten-totten"
        assert app.match_edition.key == "schotten-totten"

        # The table: the status line, the last move, the claim band, the brown clan.
        assert f"{stone} 4" in app.status_text
        assert f"{stone} 1" in app.last_text
        _no_flag(lang, app.status_text, app.last_text, app.problem_text)
        table = ui.screen("table")
        band = table.ids.board.columns[0].ids.south_claim
        assert band.text and band.opacity == 1
        if lang == "fr":
            assert band.text == "Sud peut\nla prendre"     # une borne: la
        brown = _faces(table, "O3")
        assert brown and tuple(brown[0].face_color) == BROWN_RGBA != CARD_RGBA["O"]
        assert brown[0].suit == "O" and SUIT_MARKS["O"] == "triangle"
        assert tuple(_faces(table, "R7")[0].face_color) == CARD_RGBA["R"]
        ui.shot(artifacts_dir, f"schotten-table-{lang}")

        # The claim (South just played: Schotten Totten's claims come before the draw) and
        # its proof, on the flag screen.
        app.open_flag(1)
        ui.until(lambda: len(app.proofs) == 2, what="the proofs")
        flag = ui.screen("flag")
        title = flag.ids.title.text if "title" in flag.ids else ""
        south = flag.ids.south
        assert f"{stone} 1" in south.title
        _no_flag(lang, south.title, flag.ids.north.title, title)
        app.claim("south")
        ui.until(lambda: app.view.flag(1).claimed == "south", what=f"the claim ({app.message})")
        ui.pump(0.1)
        assert f"{stone} 1" in app.message and f"{stone} 1" in south.title
        _no_flag(lang, app.message, south.title)
        ui.shot(artifacts_dir, f"schotten-flag-{lang}")

        # The fix screen: the doubt is at a stone; the picker offers the edition's 64 cards.
        app.go("fix")
        fix = ui.screen("fix")
        ui.pump(0.2)
        rows = [r for r in fix.ids.rows.children if type(r).__name__ == "ProblemRow"]
        assert rows and f"{stone} 4" in rows[0].text
        _no_flag(lang, rows[0].text)
        other = [b for b in rows[0].ids.buttons.children
                 if b.text in ("Another card…", "Une autre carte…")][0]
        ui.press(other)
        pickers = [w for w in fix.walk() if type(w).__name__ == "CardPicker"]
        codes = [c.code for c in pickers[0].children]
        assert len(codes) == 64 and pickers[0].cols == 9
        assert "SPY" in codes and "O9" in codes
        assert not {"R10", "O10", "CAVALRY"} & set(codes)
        assert f"{stone[0].upper()}{stone[1:]} 4" in fix.question
        _no_flag(lang, fix.question)
        spy = _faces(pickers[0], "SPY")[0]
        assert spy.text == ("Spy 7" if lang == "en" else "Esp 7")
        assert tuple(_faces(pickers[0], "O5")[0].face_color) == BROWN_RGBA
        ui.shot(artifacts_dir, f"schotten-fix-picker-{lang}")
        ui.press([c for c in pickers[0].children if c.code == "Y5"][0])
        ui.until(lambda: not app.view.problems, what="the answer")
        assert f"{stone} 4" in app.message
        _no_flag(lang, app.message)

        # The moves, in words.
        app.go("moves")
        ui.pump(0.2)
        moves = [r.text for r in ui.screen("moves").ids.rows.children if hasattr(r, "index")]
        assert moves and any(f"{stone} 1" in m for m in moves)
        _no_flag(lang, *moves)
        ui.shot(artifacts_dir, f"schotten-moves-{lang}")

        # The match list and the replay of this match, in its words.
        app.load_history()
        app.go("history")
        ui.until(lambda: len(app.history) == 1, what="the match list")
        ui.pump(0.2)
        row = ui.screen("history").ids.rows.children[0]
        assert (" stones 0–1" if lang == "en" else " bornes 0–1") in row.players
        _no_flag(lang, row.players)
        ui.shot(artifacts_dir, f"schotten-history-{lang}")
        app.open_replay(app.history[0].id)
        ui.until(lambda: app.root.current == "replay", what="the replay")
        assert app.replay_edition.key == "schotten-totten"
        app.replay_go(max(app._replay.claims))     # the step of the claim
        ui.pump(0.2)
        assert f"{stone} 1" in app.replay_text
        _no_flag(lang, app.replay_text)
        replay = ui.screen("replay")
        assert tuple(_faces(replay, "O3")[0].face_color) == BROWN_RGBA
        ui.shot(artifacts_dir, f"schotten-replay-{lang}")
        popup = app.replay_proof(1)
        assert popup is not None
        ui.pump(0.4)
        assert popup.title_text.startswith(f"{stone[0].upper()}{stone[1:]} 1")
        _no_flag(lang, popup.title_text, popup.proof_text)
        ui.shot_window(artifacts_dir, f"schotten-replay-proof-{lang}")
        popup.dismiss()


def test_a_battle_line_match_replayed_on_a_schotten_totten_table_keeps_its_words(
        start_app, tmp_path: Path) -> None:
    """The replay follows the recorded match, not the next match's edition."""
    from .scripted import OPENING
    with MatchStore(tmp_path / "m.sqlite") as store:
        ui = start_app(lambda p: make_referee(p, store),
                       {"observations": list(observations(OPENING)), "pace": False},
                       store=store, prefs=Prefs())
        app = ui.app
        ui.until(lambda: len(app.view.actions) == 5, what="the opening")
        old = app.session.referee.match_id if hasattr(app.session.referee, "match_id") else 1
        app.set_pref(edition="schotten-totten")
        assert app.naming == "schotten-en"
        app.open_replay(old)
        ui.until(lambda: app.root.current == "replay", what="the replay")
        app.replay_go(5)
        assert app.replay_edition.key == "battle-line" and app.replay_naming == "gmt-en"
        assert app.replay_text.endswith("plays red 10 at flag 1")
        app.set_pref(lang="fr")         # a French table: Battle Line's French names
        assert app.replay_naming == "gmt-fr"
        assert app.replay_text.endswith("joue rouge 10 au drapeau 1")
