"""Widgets shared by the screens: card faces, a flag's column, the nine-flag board.

They only show a `Display` (companion.referee.display); taps are forwarded to the app, which asks
the referee.  Sizes scale with `app.u` (1.0 on an 800×480 screen), so both screen sizes lay
out the same way with large touch targets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import (BooleanProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.graphics import Color, Ellipse, InstructionGroup, Mesh, Rectangle
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.rules.cards import BY_CODE
from companion.rules.edition import BATTLE_LINE, Edition, of_naming
from companion.referee.display import FlagView, Display

from .colours import SUIT_MARKS, TACTIC_RGBA, card_rgba, dark_text

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
    "schotten-en": {"ALEXANDER": "Joker", "DARIUS": "Joker", "SPY": "Spy 7",
                    "SHIELD": "Shield", "FOG": "Bluff", "MUD": "Mud", "SCOUT": "Recruit",
                    "REDEPLOY": "Strat", "DESERTER": "Banshee", "TRAITOR": "Traitor"},
    "schotten-fr": {"ALEXANDER": "Joker", "DARIUS": "Joker", "SPY": "Esp 7",
                    "SHIELD": "P-Bouc", "FOG": "Colin", "MUD": "Boue", "SCOUT": "Chass",
                    "REDEPLOY": "Stratè", "DESERTER": "Banshee", "TRAITOR": "Traître"},
}


def show_picture(screen: Any, image: Any) -> None:
    """Show a camera picture (RGB, H x W x 3) in `screen.texture`, drawn by its `picture`."""
    from kivy.graphics.texture import Texture
    h, w = image.shape[:2]
    if screen.texture is None or tuple(screen.texture.size) != (w, h):
        screen.texture = Texture.create(size=(w, h), colorfmt="rgb")
    screen.texture.blit_buffer(image.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    screen.ids.picture.canvas.ask_update()


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


def suit_of(code: str) -> str | None:
    """The colour letter of the Troop a face shows (a wildcard: the Troop it stands for)."""
    code = code.lstrip("+")
    if "=" in code:
        return code.split("=", 1)[1][:1] or None
    card = BY_CODE.get(code)
    return code[0] if card is not None and card.is_troop else None


def mark_shape(kind: str, cx: float, cy: float, r: float) -> list[tuple[float, float]] | None:
    """The outline of a suit mark of radius `r` at (cx, cy), as a fan around its centre
    (None: a circle, drawn as an ellipse)."""
    import math
    if kind == "circle":
        return None
    if kind == "triangle":
        pts = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
               for a in (90, 210, 330)]
    elif kind == "square":
        k = r * 0.85
        pts = [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    elif kind == "diamond":
        pts = [(cx, cy + r * 1.1), (cx + r * 0.8, cy), (cx, cy - r * 1.1), (cx - r * 0.8, cy)]
    elif kind == "star":
        pts = []
        for i in range(10):
            radius = r * 1.1 if i % 2 == 0 else r * 0.45
            a = math.radians(90 + 36 * i)
            pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    elif kind == "cross":
        k, t = r, r * 0.36
        pts = [(cx - t, cy + k), (cx + t, cy + k), (cx + t, cy + t), (cx + k, cy + t),
               (cx + k, cy - t), (cx + t, cy - t), (cx + t, cy - k), (cx - t, cy - k),
               (cx - t, cy - t), (cx - k, cy - t), (cx - k, cy + t), (cx - t, cy + t)]
    else:
        raise ValueError(f"no suit mark {kind!r}")
    return [(cx, cy)] + pts + [pts[0]]


def face_rgba(code: str, edition: Edition = BATTLE_LINE) -> tuple[float, float, float, float]:
    """A face's colour in `edition`: its Troop's (a wildcard: the Troop it stands for), or
    the Tactics cards' light colour."""
    suit = suit_of(code)
    return card_rgba(suit, edition) if suit else TACTIC_RGBA


class CardFace(Label):
    """One small card face: its colour, its value (or a short Tactics name) and its suit's
    mark (`colours.SUIT_MARKS`), so that the suit never rests on the colour alone."""

    code = StringProperty("")
    naming = StringProperty("gmt-en")
    face_color = ListProperty([1, 1, 1, 1])
    ghost = BooleanProperty(False)   # a card the opponent would still have to add
    suit = StringProperty("")        # the colour letter whose mark is drawn ("" for none)
    is_value = BooleanProperty(False)   # the face shows a Troop's value (the big digits)

    def __init__(self, **kwargs: object) -> None:
        self._mark = InstructionGroup()
        super().__init__(**kwargs)
        self.canvas.after.add(self._mark)
        self.bind(pos=self._draw_mark, size=self._draw_mark, color=self._draw_mark)
        self.bind(size=self._fit, text=self._fit)

    def on_code(self, *_: object) -> None:
        self._refresh()

    def on_naming(self, *_: object) -> None:
        self._refresh()

    def _refresh(self) -> None:
        self.text = short_label(self.code, self.naming)
        self.ghost = self.code.startswith("+")
        # The naming set is the edition's: its cards are drawn in the colours it names.
        edition = of_naming(self.naming)
        self.suit = suit_of(self.code) or ""
        rgba = face_rgba(self.code, edition)
        self.face_color = list(rgba)
        light = not self.suit or dark_text(self.suit, edition)
        self.color = (0.05, 0.05, 0.05, 1) if light else (1, 1, 1, 1)
        base = self.code.lstrip("+")
        card = BY_CODE.get(base)
        self.is_value = card is not None and card.is_troop
        self._fit()
        self._draw_mark()

    def mark_box(self) -> tuple[float, float, float]:
        """Centre and radius of the suit mark: at the right of the face, beside the value."""
        r = max(2.0, min(self.height * 0.30, self.width * 0.13))
        return self.right - r * 1.3 - 2, self.center_y, r

    BIG = 30.0     # a Troop's value at 800x480 (x app.u), at most: its face's height bounds it
    SMALL = 17.0   # a Tactics card's short name

    def _fit(self, *_: object) -> None:
        """The largest text up to BIG (or SMALL) that fits beside the mark on one line."""
        app = App.get_running_app()
        u = float(getattr(app, "u", 1.0)) if app is not None else 1.0
        room = (self.mark_box()[2] * 2.6 + 4) if self.suit else 0.0
        chars = max(1, len(self.text))
        wide = (self.width - room - 6) / (0.62 * chars)   # a bold digit is ~0.6 em wide
        # A line of text is ~1.2 em tall: the face's height bounds the font, so the value
        # never overflows its face.
        self.font_size = max(8.0, min((self.BIG if self.is_value else self.SMALL) * u,
                                      self.height / 1.2, wide))
        # The text is centred in the face less the mark's room (the texture spans the face).
        self.padding = [2, 0, room, 0]
        self.text_size = (max(1.0, self.width), self.height)

    def _draw_mark(self, *_: object) -> None:
        self._mark.clear()
        if not self.suit:
            return
        cx, cy, r = self.mark_box()
        self._mark.add(Color(*self.color[:3], 1 if not self.ghost else 0.6))
        fan = mark_shape(SUIT_MARKS[self.suit], cx, cy, r)
        if fan is None:
            self._mark.add(Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r)))
            return
        vertices: list[float] = []
        for x, y in fan:
            vertices += [x, y, 0, 0]
        self._mark.add(Mesh(vertices=vertices, indices=list(range(len(fan))),
                            mode="triangle_fan"))


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
    """One side's cards at a flag, nearest the flag first (as the players lay them); a tap
    on a card asks to correct it (`app.open_card`)."""

    codes = ListProperty([])
    naming = StringProperty("gmt-en")
    towards_top = BooleanProperty(False)   # north: the first card sits just above the flag
    slots = NumericProperty(3)             # 4 when a flag has Mud's fourth card
    flag = NumericProperty(0)
    side = StringProperty("south")
    interactive = BooleanProperty(True)

    def on_slots(self, *_: object) -> None:
        self._rebuild()

    def on_touch_down(self, touch: object) -> bool:
        if not self.interactive or not self.collide_point(*touch.pos):  # type: ignore[attr-defined]
            return super().on_touch_down(touch)  # type: ignore[no-any-return]
        for child in self.children:
            if isinstance(child, CardFace) and child.collide_point(*touch.pos):  # type: ignore[attr-defined]
                app = App.get_running_app()
                if app is not None and hasattr(app, "open_card"):
                    app.open_card(int(self.flag), self.side, int(child.stack_index))
                return True
        return super().on_touch_down(touch)  # type: ignore[no-any-return]

    def on_codes(self, *_: object) -> None:
        self._rebuild()

    def on_naming(self, *_: object) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        self.clear_widgets()
        faces = [CardFace(code=c, naming=self.naming) for c in self.codes]
        for i, face in enumerate(faces):
            face.stack_index = i
        spacers = [Label(text="") for _ in range(max(0, int(self.slots) - len(faces)))]
        # BoxLayout stacks top to bottom: north's column grows upwards from the flag.
        items = spacers + faces[::-1] if self.towards_top else faces + spacers
        for w in items:
            self.add_widget(w)


class FlagButton(Button):
    """The flag itself: its number, Fog/Mud, who holds it, and who may claim it now (in
    words, on the claimant's side of the flag)."""

    flag = ObjectProperty(FlagView(1), rebind=True)
    attention = BooleanProperty(False)


    @staticmethod
    def words(flag: FlagView) -> str:
        """The flag's own words: Fog/Mud, and the owner of a taken flag."""
        app = App.get_running_app()
        if app is None:
            return ""
        from .strings import tr
        lines = [" ".join(tr("fog" if c.code == "FOG" else "mud", app.lang, app.match_edition)
                          for c in flag.env)] if flag.env else []
        if flag.claimed:
            lines.append(tr("claimed", app.lang, name=app.side_name(flag.claimed)))
        return "\n".join(lines)


class ClaimBand(Button):
    """"North can claim", in words, on the claimant's side of the flag."""

    side = StringProperty("north")
    flag = ObjectProperty(None, allownone=True)

    @staticmethod
    def words(flag: FlagView | None, side: str) -> str:
        app = App.get_running_app()
        if app is None or flag is None or not flag.claimable(side):  # type: ignore[arg-type]
            return ""
        from .strings import tr
        return tr("can_claim", app.lang, app.match_edition, name=app.side_name(side))


class FlagColumn(BoxLayout):
    flag = ObjectProperty(FlagView(1), rebind=True)
    slots = NumericProperty(3)
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
        # Room for Mud's fourth card only when a flag has Mud: the faces stay big otherwise.
        slots = 4 if any(len(f.north) > 3 or len(f.south) > 3 or
                         any(c.code == "MUD" for c in f.env) for f in self.table.flags) else 3
        for column, f in zip(self.columns, self.table.flags):
            column.slots = slots
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
