"""The move list of this round, newest first, with "undo to here" on every move."""

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


class MoveRow(BoxLayout):
    index = NumericProperty(0)    # undo_to(index) keeps the moves before this one
    text = StringProperty("")


class MovesScreen(Screen):
    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(view=self.rebuild, lang=self.rebuild)
        self.rebuild()

    def on_leave(self, *_: Any) -> None:
        App.get_running_app().unbind(view=self.rebuild, lang=self.rebuild)

    def rebuild(self, *_: Any) -> None:
        app = App.get_running_app()
        box = self.ids.rows
        box.clear_widgets()
        actions = app.view.actions
        if not actions:
            box.add_widget(Label(text=tr("moves.empty", app.lang), font_size=18 * app.u,
                                 size_hint_y=None, height=60 * app.u))
            return
        for i in range(len(actions) - 1, -1, -1):
            box.add_widget(MoveRow(index=i, text=f"{i + 1}.  {actions[i]}"))
        box.add_widget(MoveRow(index=0, text=tr("moves.start", app.lang)))
