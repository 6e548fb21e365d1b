"""The table screen: the nine flags with both sides' cards, whose turn, Tactics counts,
what waits to be fixed, and the way to the other screens."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from . import widgets  # noqa: F401 - the shared widgets' rules are used in this screen's kv

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class TableScreen(Screen):
    """Follows `app.view`; a tap on a flag opens its proof."""
