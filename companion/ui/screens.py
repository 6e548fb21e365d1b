"""Every screen of the app, by name; importing this loads each screen's `.kv` once."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from .calibration import CalibrationScreen
from .enrol import EnrolScreen
from .failsafe import FailsafeScreen
from .fix import FixScreen
from .flag import FlagScreen
from .history import HistoryScreen
from .moves import MovesScreen
from .replay import ReplayScreen
from .settings import SettingsScreen
from .table import TableScreen

SCREEN_CLASSES: dict[str, type[Screen]] = {
    "table": TableScreen, "flag": FlagScreen, "fix": FixScreen, "moves": MovesScreen,
    "settings": SettingsScreen, "calibration": CalibrationScreen, "enrol": EnrolScreen,
    "history": HistoryScreen, "replay": ReplayScreen, "failsafe": FailsafeScreen,
}
