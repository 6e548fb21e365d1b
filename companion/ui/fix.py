"""The fix screen: open violations, doubtful reads and any card tapped on the table, fixed
by choosing the right card or going back in the move list, beside the camera's picture of
the place in question.  Every fix is a request to the referee, which re-checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.rules.cards import Card

from . import widgets
from .strings import tr
from .words import place_words
from companion.referee.display import Problem

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class CardPicker(GridLayout):
    """The match edition's cards as buttons (Battle Line's 70, Schotten Totten's 64), one
    colour a row, rows tall enough to hit (9 mm on a 7-inch screen); `pick(card)` is called
    with the one tapped.  (Not `on_pick`: Kivy takes an `on_` keyword for an event handler
    and would never set the property.)"""

    pick = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = App.get_running_app()
        for card in picker_cards(app):
            b = CardChoice(code=card.code, naming=app.naming if app else "gmt-en")
            b.bind(on_release=lambda btn, c=card: self.pick and self.pick(c))
            self.add_widget(b)


def picker_cards(app: Any) -> tuple[Card, ...]:
    """The cards a correction may name: the deck of the match on the table."""
    return app.match_edition.cards if app is not None else ()


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


def _place_of(p: Problem) -> tuple[int | None, str | None]:
    where = getattr(p.source, "where", None)
    if where is not None and hasattr(where, "offline"):
        return (None if where.offline else where.flag), where.side
    return p.flag, p.side


def _misread_card(p: Problem) -> Card | None:
    """The card a violation names, which a misread may have put there (None: the violation
    is about no card, e.g. a tile: choosing another card cannot fix it)."""
    action = getattr(p.source, "action", None)
    card = getattr(action, "card", None)
    return card if isinstance(card, Card) else None


class FixScreen(Screen):
    """Rebuilds its rows from `app.view.problems`, or asks about `app.fixing` (a card tapped
    on the table)."""

    picking = ObjectProperty(None, allownone=True)   # the problem a card is being chosen for
    question = StringProperty("")
    texture = ObjectProperty(None, allownone=True)

    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(view=self.rebuild, lang=self.rebuild, naming=self.rebuild, crop=self._show_crop,
                 fixing=self.rebuild, match_edition=self.rebuild)
        if app.fixing is None:
            problems = app.view.problems
            if problems:
                app.ask_crop(*_place_of(problems[0]))
            else:
                app.crop = None
        self._show_crop()
        self.rebuild()

    def on_leave(self, *_: Any) -> None:
        app = App.get_running_app()
        app.unbind(view=self.rebuild, lang=self.rebuild, naming=self.rebuild,
                   crop=self._show_crop, fixing=self.rebuild, match_edition=self.rebuild)
        self.picking = None
        app.fixing = None

    def _show_crop(self, *_: Any) -> None:
        app = App.get_running_app()
        img = app.crop
        if img is None:
            self.texture = None
            return
        h, w = img.shape[:2]
        texture = Texture.create(size=(w, h), colorfmt="rgb")
        texture.blit_buffer(img.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.texture = texture

    def rebuild(self, *_: Any) -> None:
        app = App.get_running_app()
        box = self.ids.rows
        box.clear_widgets()
        problems = app.view.problems
        target = app.fixing
        if target is not None:
            where = place_words(target["place"], app.lang, app.names(), app.match_edition)
            self.question = tr("fix.pick_for", app.lang, where=where[:1].upper() + where[1:],
                               card=app.card_name(target["card"]))
            self._picker(box, app, app.fix_card, none_button=target["action"] is None)
            return
        if self.picking is not None:
            where = app.where_text(self.picking)
            read = self.picking.best or _misread_card(self.picking)
            self.question = tr("fix.pick_for", app.lang, where=where[:1].upper() + where[1:],
                               card=app.card_name(read))
            self._picker(box, app, self._picked, none_button=self.picking.kind == "doubt")
            return
        self.question = tr("fix.tap_card", app.lang)
        if not problems:
            box.add_widget(Label(text=tr("problems.none", app.lang), font_size=20 * app.u,
                                 size_hint_y=None, height=60 * app.u))
            return
        for p in problems:
            box.add_widget(self._row(app, p))

    def _picker(self, box: Any, app: Any, pick: Callable[[Card | None], None],
                none_button: bool) -> None:
        if none_button:
            box.add_widget(self._button(tr("btn.not_a_card", app.lang), lambda: pick(None),
                                        size_hint_y=None, height=52 * app.u))
        cols = app.match_edition.max_value      # one colour a row, the Tactics after them
        rows = (len(picker_cards(app)) + cols - 1) // cols
        picker = CardPicker(cols=cols, spacing=3, size_hint_y=None,
                            height=rows * (52 * app.u + 3), pick=pick)
        box.add_widget(picker)

    def _row(self, app: Any, p: Problem) -> ProblemRow:
        row = ProblemRow(problem=p, text=app.problem_line(p))
        buttons = row.ids.buttons
        if p.kind == "doubt":
            # Only the answers that fit a doubtful read: one of the guesses, another card,
            # or no card at all.
            for card in (p.best, p.second):
                if card is not None:
                    buttons.add_widget(self._button(tr("btn.choose", app.lang, card=app.card_name(card)),
                                                    lambda c=card: app.confirm(p, c)))
            buttons.add_widget(self._button(tr("btn.other_card", app.lang), lambda: self._pick(p)))
            buttons.add_widget(self._button(tr("btn.not_a_card", app.lang),
                                            lambda: app.confirm(p, None)))
            return row
        if _misread_card(p) is not None:
            buttons.add_widget(self._button(tr("btn.other_card", app.lang), lambda: self._pick(p)))
        if app.view.moves:
            buttons.add_widget(self._button(tr("btn.moves", app.lang), lambda: app.go("moves")))
        return row

    @staticmethod
    def _button(text: str, action: Callable[[], None], **kwargs: Any) -> widgets.BigButton:
        b = widgets.BigButton(text=text, **kwargs)
        b.bind(on_release=lambda *_: action())
        return b

    def _pick(self, p: Problem) -> None:
        self.picking = p
        self.rebuild()

    def _picked(self, card: Card | None) -> None:
        app = App.get_running_app()
        p, self.picking = self.picking, None
        if p is not None:
            if p.kind == "doubt":
                app.confirm(p, card)
            else:
                read = _misread_card(p)
                flag, side = _place_of(p)
                if read is not None and card is not None and flag and side:
                    # The card the violation names was misread: the read at that place is
                    # another card (the referee re-checks the table with it).
                    from companion.rules.place import Place
                    app.fixing = {"place": Place(flag, side), "index": 0, "card": read,
                                  "action": None}
                    app.fix_card(card)
        self.rebuild()
