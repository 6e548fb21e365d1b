"""Deck enrolment on the rig: the screen asks for each card in turn; the session's worker cuts
the card out of the camera frame and measures it against the tiles, and at the end enrols the
deck from those pictures at the measured size (contract 2: as `companion deck enrol --camera`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.paths import data_dir
from companion.rules.cards import Card
from companion.rules.edition import EDITIONS

from . import widgets  # noqa: F401 - shared widget rules
from .widgets import show_picture
from .strings import tr

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

class EnrolError(CompanionError, ValueError):
    """No camera picture to cut a card from, or the card's picture could not be saved."""


def enrol_dir() -> Path:
    path = data_dir() / "enrol"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _cards() -> tuple[Card, ...]:
    """The deck being enrolled: the cards of the edition in the preferences (70 or 64)."""
    return EDITIONS[App.get_running_app().edition].cards


class EnrolScreen(Screen):
    """Asks for `_cards()[app.enrol_index]`; Capture saves it and moves on."""

    texture = ObjectProperty(None, allownone=True)   # the live camera picture

    def on_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        app.bind(lang=self.ask, preview=self.show)
        self.ask()
        self.show()

    def on_leave(self, *_: Any) -> None:
        App.get_running_app().unbind(lang=self.ask, preview=self.show)

    def show(self, *_: Any) -> None:
        """The live picture, so that the card is laid where the camera sees it."""
        p = App.get_running_app().preview
        if p is None:
            return
        show_picture(self, p.image)

    def ask(self, *_: Any) -> None:
        app = App.get_running_app()
        i = int(app.enrol_index)
        cards = _cards()
        if i < len(cards):
            card = cards[i]
            app.enrol_text = tr("enrol.ask", app.lang, card=card.name(app.naming), i=i + 1,
                                n=len(cards))

    def capture(self) -> None:
        app = App.get_running_app()
        session = app.session
        i = int(app.enrol_index)
        cards = _cards()
        if session is None or i >= len(cards):
            return
        card = cards[i]

        def work(_referee: Any) -> str:
            if session.last_frame is None:
                raise EnrolError(tr("calib.no_frame", app.lang))
            session.enrol_card(card, enrol_dir())   # cut out and measured on the worker
            return card.code

        session.call(work, lambda code: self._captured(code), self._refused)

    @staticmethod
    def _refused(exc: BaseException) -> None:
        """A capture refused: said in the table's language when it is not one card of the
        deck (a stack, two cards, a hand), as the enrolment names it (`measured`)."""
        app = App.get_running_app()
        measured = getattr(exc, "measured", None)
        if measured is None:
            app._refused(exc)
            return
        expected = getattr(exc, "expected", None)

        def words() -> str:
            if isinstance(measured, tuple):
                size = f"{measured[0]:.0f} × {measured[1]:.0f} mm"
                if expected is not None:
                    size += " ≠ " + f"{expected[0]:.0f} × {expected[1]:.0f} mm"
            else:
                size = f"{measured:.2f}"
            return tr("enrol.refused", app.lang, why=tr("enrol.one_card", app.lang, size=size))
        app.say(words)

    def skip(self) -> None:
        app = App.get_running_app()
        app.enrol_index = min(len(_cards()), int(app.enrol_index) + 1)
        self._maybe_finish()

    def _captured(self, code: str) -> None:
        app = App.get_running_app()
        app.say(tr("enrol.captured", app.lang, card=code))
        app.enrol_index = int(app.enrol_index) + 1
        self._maybe_finish()

    def _maybe_finish(self) -> None:
        app = App.get_running_app()
        if int(app.enrol_index) < len(_cards()):
            self.ask()
            return
        target = Path(app.deck_path) if app.deck_path else data_dir() / "deck.npz"

        def work(_referee: Any) -> int:
            # Enrolled at the card size the rig measured; the table is read with it from now on.
            count, _size = app.session.finish_enrolment(enrol_dir(), target)
            return count

        def done(n: int) -> None:
            app.enrol_text = tr("enrol.done", app.lang, n=n, path=str(target))
        app.session.call(work, done, app._refused)
