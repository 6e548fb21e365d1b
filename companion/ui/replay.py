"""The replay viewer: a recorded match state by state (rebuilt by replaying its actions,
never stored per move), with a slider over the whole match, autoplay, each move in words,
and the proof of a claim one tap away on the flag it took."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import (BooleanProperty, NumericProperty, ObjectProperty, StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.referee.display import FlagView

from . import widgets  # noqa: F401 - shared widget rules
from .widgets import Board

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ReplayFlagButton(Button):
    """A replayed flag; a claimed one is drawn light, marked on its owner's edge, and opens
    the proof of its claim when tapped."""

    flag = ObjectProperty(FlagView(1), rebind=True)


class ReplayFlagColumn(BoxLayout):
    flag = ObjectProperty(FlagView(1), rebind=True)
    attention = BooleanProperty(False)
    naming = StringProperty("gmt-en")
    interactive = BooleanProperty(True)


class ReplayBoard(Board):
    """The nine flags of a replayed step: nothing to claim, a claimed flag shows its proof."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.clear_widgets()
        self.columns = [ReplayFlagColumn() for _ in range(9)]  # type: ignore[misc]
        for column in self.columns:
            self.add_widget(column)
        self._update()

    def tap(self, number: int) -> None:
        app = App.get_running_app()
        if app is not None:
            app.replay_proof(number)


class ProofPopup(ModalView):
    """The proof of a replayed claim, as the referee gave it at the table."""

    title_text = StringProperty("")
    proof_text = StringProperty("")


class ReplayScreen(Screen):
    """Shows `app.replay_views[app.replay_step]`; autoplay stops when the screen is left."""

    def on_leave(self, *_: Any) -> None:
        app = App.get_running_app()
        if app is not None:
            app.replay_pause()
            if app.replay_popup is not None:
                app.replay_popup.dismiss()
                app.replay_popup = None


__all__ = ["ProofPopup", "ReplayBoard", "ReplayScreen"]
