"""The settings screen: players' names, the event, naming set, language, claim timing,
rounds.

Language and naming change every text at once; claim timing, rounds and the event apply to
the next game (the "new game" button), since the referee of a game in progress keeps its rules.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from . import widgets  # noqa: F401 - shared widget rules

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class SettingsScreen(Screen):
    pass
