"""Debouncing: a reading counts only once the table has been calm and the same for a while.

A frame with motion or a hand over the table (`obstructed`) breaks the run; so does any
different reading.  A flickering misread therefore never becomes stable, and a card that is
still being placed is never committed half-way.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.vision.observation import Observation

from .settings import RefereeSettings
from .table import Table


@dataclass(frozen=True, slots=True)
class Stable:
    """A reading that just became stable: the observation, its table view, when."""

    observation: Observation
    view: Table
    t: float


class StabilityFilter:
    """Turns a stream of observations into the (rare) moments the table settles."""

    def __init__(self, settings: RefereeSettings) -> None:
        self._settings = settings
        self._view: Table | None = None
        self._count = 0
        self._since = 0.0
        self._emitted = False

    def reset(self) -> None:
        self._view = None
        self._count = 0
        self._emitted = False

    def feed(self, observation: Observation, t: float) -> Stable | None:
        """The stable reading if this frame makes the table stable, else `None`.

        A stable reading is reported once; the same table must change before it is reported
        again (a reading that comes back after a hand passed over it is reported again, since
        the hand broke the run; the referee finds it unchanged and does nothing).
        """
        if observation.motion or observation.obstructed:
            self.reset()
            return None
        view = Table.from_observation(observation)
        if view != self._view:
            self._view = view
            self._count = 1
            self._since = t
            self._emitted = False
        else:
            self._count += 1
        if (not self._emitted and self._count >= self._settings.stable_frames
                and t - self._since >= self._settings.stable_seconds - 1e-9):
            self._emitted = True
            return Stable(observation, view, t)
        return None
