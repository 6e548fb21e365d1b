"""The Battle Line rules: cards, positions, formations, game state and the claim prover.

Pure standard-library Python with no I/O: every other part of the companion imports it,
and it imports nothing of the project.
"""

from .cards import ALL_CARDS, BY_CODE, TACTICS, TROOPS, Card
from .errors import CompanionError, IllegalActionError, NotationError, PositionError
from .position import SIDES, FlagPosition, Position, Side, other

__all__ = [
    "ALL_CARDS", "BY_CODE", "TACTICS", "TROOPS", "Card",
    "CompanionError", "IllegalActionError", "NotationError", "PositionError",
    "SIDES", "FlagPosition", "Position", "Side", "other",
]
