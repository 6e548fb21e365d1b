"""Widgets shared by the screens: card faces, a flag's column, the nine-flag board.

They only show a `Display` (companion.referee.display); taps are forwarded to the app, which asks
the referee.  Sizes scale with `app.u` (1.0 on an 800×480 screen), so both screen sizes lay
out the same way with large touch targets.
"""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import (BooleanProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.rules.cards import BY_CODE
from companion.referee.display import FlagView, Display

from .colours import CARD_RGBA, DARK_TEXT, TACTIC_RGBA

# Short labels for Tactics cards on a small face, per naming set.
_SHORT = {
    "gmt-en": {"ALEXANDER": "Alex", "DARIUS": "Darius", "CAVALRY": "Cav 8", "SHIELD": "Shield",
               "FOG": "Fog", "MUD": "Mud", "SCOUT": "Scout", "REDEPLOY": "Redep",
               "DESERTER": "Desert", "TRAITOR": "Traitor"},
    "gmt-fr": {"ALEXANDER": "Alex", "DARIUS": "Darius", "CAVALRY": "Cav 8", "SHIELD": "Bouc",
               "FOG": "Brouil", "MUD": "Boue", "SCOUT": "Eclair", "REDEPLOY": "Redép",
               "DESERTER": "Désert", "TRAITOR": "Traître"},
    "medieval-fr": {"ALEXANDER": "Roi A", "DARIUS": "Roi F", "CAVALRY": "Merc 8",
                    "SHIELD": "Supp", "FOG": "Brouil", "MUD": "Boue", "SCOUT": "Reco",
                    "REDEPLOY": "Redép", "DESERTER": "Désert", "TRAITOR": "Traît"},
}


def short_label(code: str, naming: str) -> str:
    """What a small card face says: the value of a Troop, a short name for a Tactics card."""
    marker = ""
    if code.startswith("+"):
        marker, code = "+", code[1:]
    if "=" in code:   # a wildcard standing for a Troop: show what it stands for
        wild, troop = code.split("=", 1)
        return marker + _SHORT.get(naming, _SHORT["gmt-en"]).get(wild, wild)[:4] + "=" + troop[1:]
    card = BY_CODE.get(code)
    if card is None:
        return code
    if card.is_troop:
        return marker + str(card.value)
    return marker + _SHORT.get(naming, _SHORT["gmt-en"]).get(code, code)


def face_rgba(code: str) -> tuple[float, float, float, float]:
    code = code.lstrip("+")
    if "=" in code:
        return CARD_RGBA.get(code.split("=", 1)[1][0], TACTIC_RGBA)
    card = BY_CODE.get(code)
    if card is not None and card.is_troop:
        return CARD_RGBA[code[0]]
    return TACTIC_RGBA


class CardFace(Label):
    """One small card face: its colour, its value (or a short Tactics name)."""

    code = StringProperty("")
    naming = StringProperty("gmt-en")
    face_color = ListProperty([1, 1, 1, 1])
    ghost = BooleanProperty(False)   # a card the opponent would still have to add

    def on_code(self, *_: object) -> None:
        self._refresh()

    def on_naming(self, *_: object) -> None:
        self._refresh()

    def _refresh(self) -> None:
        self.text = short_label(self.code, self.naming)
        self.ghost = self.code.startswith("+")
        rgba = face_rgba(self.code)
        self.face_color = list(rgba)
        base = self.code.lstrip("+")
        light = rgba == TACTIC_RGBA or (base[:1] in DARK_TEXT and "=" not in base) or \
            ("=" in base and base.split("=", 1)[1][:1] in DARK_TEXT)
        self.color = (0.05, 0.05, 0.05, 1) if light else (1, 1, 1, 1)


class CardRow(BoxLayout):
    """A few card faces side by side (a formation in a proof)."""

    codes = ListProperty([])
    naming = StringProperty("gmt-en")

    def on_codes(self, *_: object) -> None:
        self._rebuild()

    def on_naming(self, *_: object) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        self.clear_widgets()
        for code in self.codes:
            self.add_widget(CardFace(code=code, naming=self.naming))


class CardStack(BoxLayout):
    """One side's cards at a flag, nearest the flag first (as the players lay them)."""

    codes = ListProperty([])
    naming = StringProperty("gmt-en")
    towards_top = BooleanProperty(False)   # north: the first card sits just above the flag
    slots = NumericProperty(4)             # room for Mud's fourth card

    def on_codes(self, *_: object) -> None:
        self._rebuild()

    def on_naming(self, *_: object) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        self.clear_widgets()
        faces = [CardFace(code=c, naming=self.naming) for c in self.codes]
        spacers = [Label(text="") for _ in range(max(0, int(self.slots) - len(faces)))]
        # BoxLayout stacks top to bottom: north's column grows upwards from the flag.
        items = spacers + faces[::-1] if self.towards_top else faces + spacers
        for w in items:
            self.add_widget(w)


class FlagButton(Button):
    """The flag itself: its number, Fog/Mud, who holds it, and who may claim it now."""

    flag = ObjectProperty(FlagView(1), rebind=True)
    attention = BooleanProperty(False)


class FlagColumn(BoxLayout):
    flag = ObjectProperty(FlagView(1), rebind=True)
    attention = BooleanProperty(False)
    naming = StringProperty("gmt-en")
    interactive = BooleanProperty(True)


class Board(BoxLayout):
    """The nine flags in a row, flag 1 on the south player's left."""

    table = ObjectProperty(Display(), rebind=True)
    naming = StringProperty("gmt-en")
    interactive = BooleanProperty(True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.columns = [FlagColumn() for _ in range(9)]
        for column in self.columns:
            self.add_widget(column)
        self.bind(table=self._update, naming=self._update, interactive=self._update)
        self._update()

    def _update(self, *_: object) -> None:
        attention = self.table.attention()
        for column, f in zip(self.columns, self.table.flags):
            column.naming = self.naming
            column.flag = f
            column.attention = f.number in attention
            column.interactive = self.interactive

    def tap(self, number: int) -> None:
        app = App.get_running_app()
        if self.interactive and app is not None:
            app.open_flag(number)


class BigButton(Button):
    """A button large enough to hit at arm's length."""


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
