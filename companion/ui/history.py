"""The match history: the recorded matches of this device, newest first, each replayable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from . import widgets  # noqa: F401 - shared widget rules
from .strings import tr

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class MatchRow(BoxLayout):
    match_id = NumericProperty(0)
    text = StringProperty("")


def player_names(header: Any) -> tuple[str, str]:
    """The names the players gave on the settings screen (kept in the header's extra tags)."""
    extra = getattr(header, "extra", {}) or {}
    return (extra.get("north_name", header.north), extra.get("south_name", header.south))


class HistoryScreen(Screen):
    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(history=self.rebuild, lang=self.rebuild)
        self.rebuild()

    def on_leave(self, *_: Any) -> None:
        App.get_running_app().unbind(history=self.rebuild, lang=self.rebuild)

    def rebuild(self, *_: Any) -> None:
        app = App.get_running_app()
        box = self.ids.rows
        box.clear_widgets()
        if not app.history:
            box.add_widget(Label(text=tr("history.empty", app.lang), font_size=18 * app.u,
                                 size_hint_y=None, height=60 * app.u))
            return
        for info in sorted(app.history, key=lambda m: m.id, reverse=True):
            north, south = player_names(info.header)
            box.add_widget(MatchRow(match_id=info.id, text=tr(
                "history.row", app.lang, id=info.id, date=info.header.date, north=north,
                south=south, entries=info.entries)))
