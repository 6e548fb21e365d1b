"""A new match asks which game it is (Battle Line, Médiéval, Schotten Totten); the answer
is remembered with the preferences and the next referee plays by that edition."""

from __future__ import annotations

from pathlib import Path

from companion.commands.run import make_referee
from companion.ui.prefs import Prefs

from .scripted import OPENING, observations


def test_new_match_asks_the_edition_and_remembers_it(start_app, artifacts_dir: Path,
                                                      tmp_path: Path) -> None:
    made: list = []

    def referee_for(prefs: Prefs):
        made.append(prefs)
        return make_referee(prefs)

    ui = start_app(referee_for, {"observations": list(observations(OPENING)), "pace": False})
    app = ui.app
    app.go("settings")
    settings = ui.screen("settings")
    ui.pump(0.2)
    assert settings.ids.naming_gmt_en.opacity == 1 and settings.ids.naming_schotten_en.disabled
    ui.press(settings.ids.new_game)
    chooser = [w for w in app.root_window.children if type(w).__name__ == "EditionChooser"][0]
    assert chooser.ids.battle_line.bold          # the edition last played is marked
    ui.pump(0.3)
    from kivy.core.window import Window
    chooser.export_to_png(str(artifacts_dir / f"edition-ask-{Window.width}x{Window.height}.png"))
    ui.press(chooser.ids.schotten_totten)
    ui.until(lambda: len(made) == 2, what="the new referee")
    assert app.root.current == "table"
    assert made[-1].edition == "schotten-totten" and made[-1].naming == "schotten-en"
    rules = app.session.referee.settings.game
    assert rules.edition == "schotten-totten" and rules.rules.hand_size == 6
    assert Prefs.load() == app.prefs                 # remembered on the device
    # The card names offered now are the edition's own.
    app.go("settings")
    ui.pump(0.2)
    assert settings.ids.naming_schotten_fr.opacity == 1 and settings.ids.naming_gmt_en.disabled
    ui.press(settings.ids.naming_schotten_fr)
    assert app.naming == "schotten-fr"
    assert settings.ids.naming_schotten_fr.state == "down"
    assert settings.ids.naming_schotten_en.state == "normal"
    assert settings.ids.naming_schotten_fr.text == "IELLO (French)"
    ui.shot(artifacts_dir, "settings-schotten")
    # Asked again: Schotten Totten is offered first now.
    ui.press(settings.ids.new_game)
    chooser = [w for w in app.root_window.children if type(w).__name__ == "EditionChooser"][0]
    assert chooser.ids.schotten_totten.bold and not chooser.ids.battle_line.bold
    chooser.dismiss()


def test_prefs_keep_the_edition_and_its_names(tmp_path: Path) -> None:
    prefs = Prefs().with_(edition="schotten-totten", lang="fr")
    assert prefs.naming == "schotten-fr"
    prefs.save(tmp_path / "p.json")
    assert Prefs.load(tmp_path / "p.json") == prefs
    assert Prefs().with_(edition="battle-line-medieval", lang="fr").naming == "medieval-fr"
    assert prefs.with_(edition="battle-line").naming == "gmt-fr"   # in the screens' language
    (tmp_path / "bad.json").write_text('{"edition": "schotten-totten", "naming": "gmt-en"}',
                                       encoding="utf-8")
    assert Prefs.load(tmp_path / "bad.json") == Prefs()   # read leniently: the defaults
