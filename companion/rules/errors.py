"""The one exception family of the companion (habit 4).

Every failure the companion reports is a `CompanionError`; narrow subclasses also inherit the
matching built-in error so that callers may catch either.  Lives in `rules` because `rules`
imports nothing of the project; `companion.errors` re-exports it for the other packages.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class NotationError(CompanionError, ValueError):
    """A card code, position or action text that cannot be parsed."""


class PositionError(CompanionError, ValueError):
    """A position that is malformed or impossible (a card twice, four cards without Mud, ...)."""


class IllegalActionError(CompanionError, ValueError):
    """An action the rules refuse.

    `reason` is a short stable code (`wrong-player`, `flag-claimed`, `side-full`, ...) for
    programs; the message is a sentence for players naming the card and the flag, in
    English; `params` are the facts of the message (the action, the card, the flag, the
    players ...) from which `companion.rules.messages.message` writes it in either language.
    """

    def __init__(self, reason: str, message: str,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: Mapping[str, object] = MappingProxyType(dict(params or {}))
