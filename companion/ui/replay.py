"""The replay viewer: step through a recorded match, state by state (rebuilt by replaying
its actions, never stored per move)."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from . import widgets  # noqa: F401 - shared widget rules

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ReplayScreen(Screen):
    """Shows `app.replay_views[app.replay_step]` on a board that does not take claims."""
