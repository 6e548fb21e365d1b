"""The move list of this round, newest first, in words.  "Undo…" on a move asks first,
naming every move it would take back (that move and the later ones); an undo can be redone."""

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
    index = NumericProperty(0)    # undo_to(index) takes back this move and the later ones
    text = StringProperty("")


class MovesScreen(Screen):
    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(view=self.rebuild, lang=self.rebuild, naming=self.rebuild,
                 match_edition=self.rebuild)
        self.rebuild()

    def on_leave(self, *_: Any) -> None:
        app = App.get_running_app()
        app.unbind(view=self.rebuild, lang=self.rebuild, naming=self.rebuild,
                   match_edition=self.rebuild)
        app.cancel_undo()

    def rebuild(self, *_: Any) -> None:
        app = App.get_running_app()
        box = self.ids.rows
        box.clear_widgets()
        moves = app.view.moves
        if not moves:
            box.add_widget(Label(text=tr("moves.empty", app.lang), font_size=20 * app.u,
                                 size_hint_y=None, height=60 * app.u))
            return
        for i in range(len(moves) - 1, -1, -1):
            box.add_widget(MoveRow(index=i, text=f"{i + 1}.  {app.action_text(moves[i])}"))
