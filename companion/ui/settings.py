"""The settings screen: players' names, the event, naming set, language, claim timing,
rounds, and the question asked when a new match starts: which game (Battle Line, Médiéval,
Schotten Totten).

Language and naming change every text at once; claim timing, rounds and the event apply to
the next game (the "new game" button), since the referee of a game in progress keeps its
rules.  The edition chosen for a new match is remembered with the preferences and offered
first next time.
"""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from . import widgets  # noqa: F401 - shared widget rules

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class EditionChooser(ModalView):
    """Which game the new match is; the edition last played is marked."""

    def start(self, edition: str) -> None:
        app = App.get_running_app()
        self.dismiss()
        app.new_game(edition)
        app.go("table")


class SettingsScreen(Screen):
    def ask_edition(self) -> EditionChooser:
        """The question of a new match (the "new game" button)."""
        chooser = EditionChooser()
        chooser.open()
        return chooser
