"""The failsafe screen: shown instead of crashing when a handler fails (as pibooth does)."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from . import widgets  # noqa: F401 - shared widget rules

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class FailsafeScreen(Screen):
    pass
