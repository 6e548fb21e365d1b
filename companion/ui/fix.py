"""The fix screen: open violations and doubtful reads, fixed by choosing the right card or
going back in the move list.  Every fix is a request to the referee, which re-checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.rules.cards import ALL_CARDS, Card

from . import widgets
from .strings import tr
from companion.referee.display import Problem

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class CardPicker(GridLayout):
    """All 70 cards as buttons; `on_pick(card)` is called with the one tapped."""

    on_pick = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        for card in ALL_CARDS:
            b = CardChoice(code=card.code, naming=app.naming if app else "gmt-en")
            b.bind(on_release=lambda btn, c=card: self.on_pick and self.on_pick(c))
            self.add_widget(b)


class CardChoice(widgets.CardFace):
    """A card face that can be tapped."""

    __events__ = ("on_release",)

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            self.dispatch("on_release")
            return True
        return False

    def on_release(self) -> None:
        pass


class ProblemRow(BoxLayout):
    problem = ObjectProperty(None, allownone=True)
    text = StringProperty("")


class FixScreen(Screen):
    """Rebuilds its rows from `app.view.problems`."""

    picking = ObjectProperty(None, allownone=True)   # the problem a card is being chosen for

    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(view=self.rebuild, lang=self.rebuild, naming=self.rebuild)
        self.rebuild()

    def on_leave(self, *_: Any) -> None:
        app = App.get_running_app()
        app.unbind(view=self.rebuild, lang=self.rebuild, naming=self.rebuild)
        self.picking = None

    def rebuild(self, *_: Any) -> None:
        app = App.get_running_app()
        box = self.ids.rows
        box.clear_widgets()
        problems = app.view.problems
        if self.picking is not None:
            box.add_widget(Label(text=app.problem_line(self.picking), font_size=16 * app.u,
                                 size_hint_y=None, height=40 * app.u))
            picker = CardPicker(cols=10, spacing=3, size_hint_y=None, height=7 * 46 * app.u,
                                on_pick=self._picked)
            box.add_widget(picker)
            return
        if not problems:
            box.add_widget(Label(text=tr("problems.none", app.lang), font_size=18 * app.u,
                                 size_hint_y=None, height=60 * app.u))
            return
        for p in problems:
            box.add_widget(self._row(app, p))

    def _row(self, app: Any, p: Problem) -> ProblemRow:
        row = ProblemRow(problem=p, text=app.problem_line(p))
        buttons = row.ids.buttons
        if p.kind == "doubt":
            for card in (p.best, p.second):
                if card is not None:
                    buttons.add_widget(self._button(tr("btn.choose", app.lang, card=app.card_name(card)),
                                                    lambda c=card: app.confirm(p, c)))
        else:
            last = len(app.view.actions) - 1
            if last >= 0:
                buttons.add_widget(self._button(tr("btn.undo_here", app.lang),
                                                lambda: app.undo_to(last)))
            buttons.add_widget(self._button(tr("btn.moves", app.lang), lambda: app.go("moves")))
        buttons.add_widget(self._button(tr("btn.other_card", app.lang), lambda: self._pick(p)))
        return row

    @staticmethod
    def _button(text: str, action: Callable[[], None]) -> widgets.BigButton:
        b = widgets.BigButton(text=text)
        b.bind(on_release=lambda *_: action())
        return b

    def _pick(self, p: Problem) -> None:
        self.picking = p
        self.rebuild()

    def _picked(self, card: Card) -> None:
        app = App.get_running_app()
        p, self.picking = self.picking, None
        if p is not None:
            if p.kind == "doubt":
                app.confirm(p, card)
            elif app.view.actions:
                # A violation caused by a misread card: the last move named the wrong card.
                app.correct(len(app.view.actions) - 1, card)
        self.rebuild()
