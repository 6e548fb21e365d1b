"""The match history: the played matches of this device, newest first, each with its
players, result, date, length and event, each replayable.  Matches where nothing was played
(an appliance started and stopped) stay in the record but are not listed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.record.summary import MatchSummary, duration_text
from companion.rules.edition import EDITIONS

from . import widgets  # noqa: F401 - shared widget rules
from .strings import tr

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class MatchRow(BoxLayout):
    match_id = NumericProperty(0)
    players = StringProperty("")     # first line: the players and the result
    details = StringProperty("")     # second line: event, date and time, length, moves

    @property
    def text(self) -> str:
        return f"{self.players}\n{self.details}"


def _name(app: Any, s: MatchSummary, side: str) -> str:
    from .app import DEFAULT_NAMES
    name = s.north if side == "north" else s.south
    return tr(f"side.{side}", app.lang) if name in DEFAULT_NAMES[side] else name


def row_texts(app: Any, s: MatchSummary) -> tuple[str, str]:
    """The two lines of a match in the list, in the screen's language."""
    north, south = _name(app, s, "north"), _name(app, s, "south")
    players = tr("history.players", app.lang, north=north, south=south)
    a, b = s.scores if s.scores is not None else s.flags
    if s.winner is not None:
        # The winner's points first: "Ada wins, 5–2" whichever side Ada played.
        won, lost = (a, b) if s.winner == "north" else (b, a)
        outcome = tr("history.won", app.lang, name=_name(app, s, s.winner), won=won, lost=lost)
    elif s.result == "draw":
        outcome = tr("history.draw", app.lang, north=a, south=b)
    else:
        outcome = tr("history.unfinished", app.lang, EDITIONS.get(s.edition),
                     north=s.flags[0], south=s.flags[1])
    # When the first move was made, in the device's time zone; the header's day otherwise.
    when = s.date if s.started is None else s.started.astimezone().strftime("%Y-%m-%d %H:%M")
    details = tr("history.details", app.lang, date=when, length=duration_text(s.seconds),
                 moves=s.moves)
    if s.event:
        details = tr("history.event", app.lang, event=s.event, details=details)
    return f"{players}  ·  {outcome}", details


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
        for s in sorted(app.history, key=lambda m: m.id, reverse=True):
            players, details = row_texts(app, s)
            box.add_widget(MatchRow(match_id=s.id, players=players, details=details))
