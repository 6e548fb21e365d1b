"""The Battle Line rules: cards, positions, formations, game state and the claim prover.

Pure standard-library Python with no I/O: every other part of the companion imports it,
and it imports nothing of the project.
"""

from .actions import Action, Claim, Deck, Deserter, Draw, Pass, Play, Redeploy, Scout, Traitor
from .bots import HeuristicBot, PlayedGame, RandomBot, play_game, simulate
from .cards import ALL_CARDS, BY_CODE, TACTICS, TROOPS, Card
from .errors import CompanionError, IllegalActionError, NotationError, PositionError
from .formation import best_formation
from .match import Match, MatchError, RoundResult
from .notation import format_position, parse_action, parse_card, parse_position
from .position import SIDES, FlagPosition, Position, Side, other
from .prover import ClaimVerdict, claimable, prove
from .state import ClaimRefusedError, FlagState, GameState, Outcome, Settings, StateError

__all__ = [
    "ALL_CARDS", "BY_CODE", "TACTICS", "TROOPS", "Card",
    "CompanionError", "IllegalActionError", "NotationError", "PositionError",
    "SIDES", "FlagPosition", "Position", "Side", "other",
    "Action", "Claim", "Deck", "Deserter", "Draw", "Pass", "Play", "Redeploy", "Scout", "Traitor",
    "format_position", "parse_action", "parse_card", "parse_position",
    "ClaimRefusedError", "FlagState", "GameState", "Outcome", "Settings", "StateError",
    "ClaimVerdict", "best_formation", "claimable", "prove",
    "Match", "MatchError", "RoundResult",
    "HeuristicBot", "PlayedGame", "RandomBot", "play_game", "simulate",
]
