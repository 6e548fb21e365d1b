"""The referee: observations and player input in, checked actions and states out; the demo."""

from .events import (
    ActionCommitted,
    ClaimDecided,
    Confirmed,
    Corrected,
    DoubtRaised,
    Event,
    GameOver,
    RoundStarted,
    Undone,
    Violation,
    ViolationCleared,
    ViolationRaised,
    WaitingForEffect,
)
from .referee import Referee, RefereeError, RefereeState
from .settings import RefereeSettings, RefereeSettingsError

__all__ = ["ActionCommitted", "ClaimDecided", "Confirmed", "Corrected", "DoubtRaised", "Event",
           "GameOver", "Referee", "RefereeError", "RefereeSettings", "RefereeSettingsError",
           "RefereeState", "RoundStarted", "Undone", "Violation", "ViolationCleared",
           "ViolationRaised", "WaitingForEffect"]
