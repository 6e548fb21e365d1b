"""Small builders shared by the game-state tests: cards by code, states from notation."""

from __future__ import annotations

from companion.rules.actions import parse_action
from companion.rules.cards import BY_CODE, Card
from companion.rules.state import GameState, Settings

C = BY_CODE


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(C[c] for c in codes)


def run(state: GameState, *texts: str) -> GameState:
    """`state` after the actions written in notation (`S R8@3`, `N CLAIM 3`, ...)."""
    for text in texts:
        state = state.apply(parse_action(text))
    return state


def table(*texts: str, settings: Settings | None = None) -> GameState:
    """A table-only state after the actions written in notation."""
    return run(GameState.new_table(settings=settings), *texts)
