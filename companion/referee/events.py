"""What the referee tells its followers, as data: each `feed` or player input returns events.

Events are small frozen values; the UI shows them, the recorder (`companion.record.recorder`,
a listener of the referee) keeps the ones that matter, tests compare them.  Each event carries
every fact its record entry needs (the turn, the scores, the corrected card), so the referee
itself writes nothing.  `str(event)` is a line a player can read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.actions import Action, Claim
from companion.rules.cards import Card
from companion.rules.position import Side
from companion.rules.prover import ClaimVerdict
from companion.vision.observation import Doubt, Observation


@dataclass(frozen=True, slots=True)
class Violation:
    """Something on the table the rules refuse; it stays open until the table is fixed.

    `reason` is the rules core's code (`wrong-player`, `side-full`, `claim-refused`, ...) or
    the referee's own (`card-taken-back`, `two-cards`, `record-differs`, ...).  `action` is the
    attempted action when one was inferred; `verdict` holds the proof of a refused claim.
    `message` is in English; `params` are its facts, from which
    `companion.rules.messages.message(reason, params, lang, naming)` writes it in French or
    English with the players' card names.
    """

    reason: str
    message: str
    action: Action | None = None
    verdict: ClaimVerdict | None = None
    params: Mapping[str, object] = field(default_factory=dict, compare=False)

    def text(self, lang: str = "en", naming: str = "gmt-en",
             names: Mapping[str, str] | None = None) -> str:
        """The message in `lang` with the card names of `naming` (the English message when
        the reason has no template)."""
        from companion.rules.messages import has_template, message
        if not has_template(self.reason, self.params):
            return self.message
        return message(self.reason, self.params, lang, naming, names)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"


@dataclass(frozen=True, slots=True)
class ActionCommitted:
    round: int
    index: int
    action: Action
    turn: int = 0         # the game's turn when the action was made

    def __str__(self) -> str:
        return f"round {self.round} action {self.index}: {self.action}"


@dataclass(frozen=True, slots=True)
class ClaimDecided:
    """A claim checked by the prover: from the table (a tile moved aside) or a request."""

    verdict: ClaimVerdict
    accepted: bool
    requested: bool = False
    turn: int = 0

    @property
    def action(self) -> Claim:
        return Claim(self.verdict.player, self.verdict.flag)

    def __str__(self) -> str:
        v = self.verdict
        word = "wins" if v.valid else "cannot claim"
        return f"{v.player} {word} flag {v.flag} ({v.reason}): {v.proof()}"


@dataclass(frozen=True, slots=True)
class ViolationRaised:
    violation: Violation
    turn: int = 0

    def __str__(self) -> str:
        return f"violation {self.violation}"


@dataclass(frozen=True, slots=True)
class ViolationCleared:
    violation: Violation

    def __str__(self) -> str:
        return f"fixed: {self.violation.reason}"


@dataclass(frozen=True, slots=True)
class DoubtRaised:
    """A change rests on reads the camera is not sure of: players confirm them first."""

    doubts: tuple[Doubt, ...]

    def __str__(self) -> str:
        return "confirm: " + "; ".join(
            f"{d.where} #{d.index}: {d.best} or {d.second}?" for d in self.doubts)


@dataclass(frozen=True, slots=True)
class Confirmed:
    doubt: Doubt
    card: Card | None     # None: there is no card there

    def __str__(self) -> str:
        return f"confirmed {self.card or 'no card'} at {self.doubt.where}"


@dataclass(frozen=True, slots=True)
class WaitingForEffect:
    """A guile card is down; its effect has not appeared yet (D5)."""

    player: Side
    card: Card
    message: str

    def __str__(self) -> str:
        return self.message

    @property
    def params(self) -> dict[str, object]:
        """The facts of the message: `message("waiting", params, lang)` writes it."""
        return {"player": self.player, "card": self.card, "case": self.card.code}


@dataclass(frozen=True, slots=True)
class Corrected:
    round: int
    index: int
    action: Action
    old: Card | None = None   # the card the action named before
    card: Card | None = None  # the card it names now

    def __str__(self) -> str:
        return f"corrected action {self.index}: {self.action}"


@dataclass(frozen=True, slots=True)
class Undone:
    round: int
    kept: int

    def __str__(self) -> str:
        return f"undone: {self.kept} actions kept"


@dataclass(frozen=True, slots=True)
class GameOver:
    round: int
    winner: Side | None
    termination: str
    scores: Mapping[Side, int] = field(default_factory=dict, compare=False)  # match so far
    turn: int = 0
    points: Mapping[Side, int] = field(default_factory=dict, compare=False)  # this round's

    def __str__(self) -> str:
        return f"round {self.round}: {self.winner} wins by {self.termination}"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    first: Side

    def __str__(self) -> str:
        return f"round {self.round} starts, {self.first} plays first"


@dataclass(frozen=True, slots=True)
class TableConfirmed:
    """The frame that made the table stable, after the actions it committed: `observation`
    is the table as the players confirmed it (the frame's label).  Only with
    `RefereeSettings.record_frames`, for the record's labelled frames."""

    observation: Observation
    frame: Any = field(compare=False, repr=False)   # a BGR image or JPEG bytes

    def __str__(self) -> str:
        return "table confirmed"


Event = (ActionCommitted | ClaimDecided | ViolationRaised | ViolationCleared | DoubtRaised
         | Confirmed | WaitingForEffect | Corrected | Undone | GameOver | RoundStarted
         | TableConfirmed)
