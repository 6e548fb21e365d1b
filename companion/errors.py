"""The companion's exception family, shared by every package (defined in `rules`)."""

from companion.rules.errors import CompanionError, IllegalActionError, NotationError, PositionError

__all__ = ["CompanionError", "IllegalActionError", "NotationError", "PositionError"]
