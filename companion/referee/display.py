"""What the screen and the LEDs show, read from the referee's state in one place.

`Display` is a plain snapshot (no Kivy): the screens and `hw.leds` both follow it, so
a change in the referee's `RefereeState` is adapted here and nowhere else.  Nothing here
decides anything: every verdict, violation and doubt is the referee's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.rules.cards import Card
from companion.rules.position import FLAG_COUNT, SIDES, Side


if TYPE_CHECKING:
    from companion.rules.actions import Action
    from companion.rules.state import GameState

    from .referee import RefereeState


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's answer for one (flag, player) pair, kept with its rules-core object."""

    flag: int
    player: Side
    valid: bool
    reason: str
    source: Any = field(default=None, compare=False, repr=False)  # the rules' ClaimVerdict


@dataclass(frozen=True, slots=True)
class Problem:
    """An open violation or a pending doubtful read, as the screen lists it."""

    kind: str                  # "violation" or "doubt"
    message: str
    flag: int | None = None    # the flag it is at, when it is at one
    side: Side | None = None
    index: int | None = None   # the action index it concerns (violations) or the read index
    best: Card | None = None   # doubts: the pipeline's best and second guesses
    second: Card | None = None
    source: Any = field(default=None, compare=False, repr=False)
    # violations: the reason code and the facts of the message, for the screen's language
    reason: str | None = None
    params: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class FlagView:
    number: int
    north: tuple[Card, ...] = ()
    south: tuple[Card, ...] = ()
    env: tuple[Card, ...] = ()
    claimed: Side | None = None
    can_claim: tuple[bool, bool] = (False, False)   # north, south

    def cards(self, side: Side) -> tuple[Card, ...]:
        return self.north if side == "north" else self.south

    def claimable(self, side: Side) -> bool:
        return self.can_claim[0] if side == "north" else self.can_claim[1]


@dataclass(frozen=True, slots=True)
class Display:
    """One moment of the game as the players should see it."""

    flags: tuple[FlagView, ...] = tuple(FlagView(n) for n in range(1, FLAG_COUNT + 1))
    to_move: Side | None = None
    tactics: tuple[int, int] = (0, 0)          # north, south Tactics played
    offline: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    winner: Side | None = None
    scores: tuple[int, int] = (0, 0)
    round: int = 1
    problems: tuple[Problem, ...] = ()
    actions: tuple[str, ...] = ()              # committed actions, in notation, oldest first
    verdicts: tuple[Verdict, ...] = ()         # all 18 pairs when the referee gave them
    in_game: bool = True
    mode: str = "playing"                      # the referee's: playing, holding, round-over, ...
    waiting: str | None = None                 # what a guile card still expects
    version: int = 0
    waiting_params: Any = field(default=None, compare=False)   # `waiting` as data
    # The committed actions themselves (`actions` in words on the screens, never notation)
    moves: tuple[Any, ...] = field(default=(), compare=False)
    # flag -> the proof of the claim that took it this round (kept once the flag is taken)
    claims: tuple[tuple[int, Any], ...] = field(default=(), compare=False)
    redo: tuple[Any, ...] = field(default=(), compare=False)   # what the last undo took back
    phase: str = "play"        # the rules' turn phase: "draw" once `to_move` has played
    edition: str = "battle-line"   # the match's edition (`companion.rules.edition` key)

    @property
    def to_play(self) -> Side | None:
        """Who plays the next card: at a real table the turn of `to_move` ends, after its
        card, when the opponent acts (draws are unseen)."""
        if self.to_move is None or self.phase != "draw":
            return self.to_move
        return "south" if self.to_move == "north" else "north"

    def flag(self, number: int) -> FlagView:
        return self.flags[number - 1]

    def verdict(self, flag: int, side: Side) -> Verdict | None:
        for v in self.verdicts:
            if v.flag == flag and v.player == side:
                return v
        return None

    def attention(self) -> frozenset[int]:
        """Flags where a violation or a doubtful read waits."""
        return frozenset(p.flag for p in self.problems if p.flag is not None)

    def claim_proof(self, flag: int) -> Any:
        """The rules' verdict of the claim that took `flag` (None: not claimed this round)."""
        for n, verdict in self.claims:
            if n == flag:
                return verdict
        return None

    def tactics_of(self, side: Side) -> int:
        return self.tactics[SIDES.index(side)]


IDLE = Display(in_game=False)
"""Between games: nothing on the table, nothing lit."""


def _violation_flag(violation: Any) -> int | None:
    """The flag a violation is at: its refused claim's, its attempted action's, or the one
    its facts name (a tile out of sight, glare over a flag)."""
    verdict = getattr(violation, "verdict", None)
    if verdict is not None:
        return int(verdict.flag)
    action = getattr(violation, "action", None)
    for name in ("flag", "to_flag", "from_flag"):
        value = getattr(action, name, None)
        if isinstance(value, int):
            return value
    params = getattr(violation, "params", None) or {}
    value = params.get("flag")
    return value if isinstance(value, int) else None


def display_of(state: RefereeState) -> Display:
    """The view of a referee's `RefereeState` (companion.referee.referee)."""
    position = state.position
    game = state.game
    flags = []
    for n in range(1, FLAG_COUNT + 1):
        fp = position.flag(n)
        north_ok = state.claimability.get((n, "north"))
        south_ok = state.claimability.get((n, "south"))
        flags.append(FlagView(
            number=n, north=tuple(fp.north), south=tuple(fp.south), env=tuple(fp.env),
            claimed=fp.claimed,
            can_claim=(bool(north_ok and north_ok.valid) and fp.claimed is None,
                       bool(south_ok and south_ok.valid) and fp.claimed is None)))
    problems: list[Problem] = []
    for v in state.violations:
        problems.append(Problem("violation", v.message, flag=_violation_flag(v),
                                side=getattr(getattr(v, "action", None), "player", None),
                                source=v, reason=v.reason,
                                params=getattr(v, "params", None)))
    for d in state.doubts:
        problems.append(Problem(
            "doubt", str(d.where), flag=None if d.where.offline else d.where.flag,
            side=d.where.side, index=d.index, best=d.best,
            second=d.second, source=d))
    verdicts = tuple(Verdict(v.flag, v.player, v.valid, v.reason, v)
                     for v in state.claimability.values())
    scores = state.scores
    waiting = getattr(state, "waiting_for", None)
    return Display(
        flags=tuple(flags), to_move=state.to_move,
        tactics=(game.tactics_played("north"), game.tactics_played("south")),
        offline=(tuple(game.offline("north")), tuple(game.offline("south"))),
        winner=state.winner, scores=(int(scores.get("north", 0)), int(scores.get("south", 0))),
        round=state.round, problems=tuple(problems),
        actions=tuple(str(a) for a in state.actions), verdicts=verdicts,
        in_game=True, mode=state.mode, waiting=state.waiting, version=state.version,
        waiting_params=waiting.params if waiting is not None else None,
        moves=tuple(state.actions),
        claims=tuple((int(v.flag), v) for v in getattr(state, "verdicts", ()) if v.valid),
        redo=tuple(getattr(state, "redo", ())), phase=str(game.phase),
        edition=game.settings.edition)


def display_of_game(game: GameState, actions: tuple[Action, ...] = ()) -> Display:
    """The view of a rules `GameState` alone (a replayed step of a recorded match)."""
    from companion.rules.prover import claimable

    position = game.position()
    verdicts = claimable(position)
    flags = []
    for n in range(1, FLAG_COUNT + 1):
        fp = position.flag(n)
        flags.append(FlagView(n, tuple(fp.north), tuple(fp.south), tuple(fp.env), fp.claimed,
                              (verdicts[(n, "north")].valid and fp.claimed is None,
                               verdicts[(n, "south")].valid and fp.claimed is None)))
    return Display(
        flags=tuple(flags), to_move=game.to_move,
        tactics=(game.tactics_played("north"), game.tactics_played("south")),
        offline=(tuple(game.offline("north")), tuple(game.offline("south"))),
        winner=game.winner, actions=tuple(str(a) for a in actions), moves=tuple(actions),
        phase=str(game.phase), edition=game.settings.edition,
        verdicts=tuple(Verdict(v.flag, v.player, v.valid, v.reason, v) for v in verdicts.values()))
