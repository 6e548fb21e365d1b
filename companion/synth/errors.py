"""The synthetic table's one exception: a scene, printing or option it cannot draw."""

from __future__ import annotations

from companion.errors import CompanionError


class SynthError(CompanionError, ValueError):
    """A scene, printing or rendering option the synthetic table cannot draw; names it."""


__all__ = ["SynthError"]
