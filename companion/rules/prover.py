"""The claim prover: may this player claim this flag now?  Exact per RULES.md D7-D11.

`prove` answers for one flag and player, `claimable` for all 18 pairs at once, sharing the
unseen-card pool and each side's formation between them.  The answer is a `ClaimVerdict`:
data first (valid, reason code of contract 1, both formations), proof text on demand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Naming
from .errors import PositionError
from .formation import Formation, Pool, best_completion, best_formation
from .position import FLAG_COUNT, SIDES, Position, Side, describe, other, parse_side

VALID_REASONS = ("stronger", "tie-first", "cannot-beat", "cannot-complete")
INVALID_REASONS = ("weaker", "tie-later", "can-beat", "incomplete", "claimed")
REASONS = VALID_REASONS + INVALID_REASONS
LANGS = ("en", "fr")


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """Whether `player` may claim `flag`, why (contract 1 `reason`), and the formations behind it.

    `claimant` is the claimant's formation (None while their side is incomplete).  `opponent`
    is the opponent's formation when their side is complete; otherwise the strongest
    formation they could still complete with unseen Troops (its `added` cards), which is the
    witness of a `can-beat`; None when they cannot complete at all.
    """

    flag: int
    player: Side
    valid: bool
    reason: str
    claimant: Formation | None
    opponent: Formation | None
    position: Position = field(repr=False, compare=False)

    def proof(self, lang: str = "en", naming: Naming | None = None) -> str:
        """A few lines a player reads at the table, in English (`en`) or French (`fr`).

        `naming` picks the card and formation names; by default the names the position's
        edition gives in `lang` (GMT's for Battle Line, IELLO's for Schotten Totten).
        """
        from .proof import proof_text  # the text layer needs the verdict type, not the reverse

        return proof_text(self, lang, naming or self.position.edition.naming(lang))

    def to_json(self, lang: str = "en", naming: Naming | None = None) -> dict[str, Any]:
        """The contract 1 verdict object; `edition` echoed for a Schotten Totten position."""
        rules = self.position.edition.rules
        return ({"edition": rules} if rules != "battle-line" else {}) | {
            "flag": self.flag,
            "player": self.player,
            "valid": self.valid,
            "reason": self.reason,
            "claimant": None if self.claimant is None else self.claimant.to_json(),
            "opponent": None if self.opponent is None else self.opponent.to_json(),
            "proof": self.proof(lang, naming),
        }


class _Board:
    """One position with its unseen pool and per-side results computed once (shared work)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        seen = position.face_up()
        # D7: the opponent may still add any Troop (Clan card) of the edition not face up on
        # the table; D8: unplayed Tactics never count.
        self.values = position.edition.value_mask
        self.pool = Pool.of(c for c in position.edition.troops if c not in seen)
        self._formed: dict[tuple[int, Side], Formation] = {}
        self._completed: dict[tuple[int, Side], Formation | None] = {}

    def formation(self, n: int, side: Side) -> Formation:
        key = (n, side)
        found = self._formed.get(key)
        if found is None:
            f = self.position.flags[n - 1]
            found = best_formation(f.side(side), fog=f.fog, mud=f.mud, values=self.values)
            self._formed[key] = found
        return found

    def completion(self, n: int, side: Side) -> Formation | None:
        key = (n, side)
        if key not in self._completed:
            f = self.position.flags[n - 1]
            self._completed[key] = best_completion(f.side(side), self.pool, fog=f.fog, mud=f.mud,
                                                   values=self.values)
        return self._completed[key]

    def verdict(self, n: int, player: Side) -> ClaimVerdict:
        f = self.position.flags[n - 1]
        opp = other(player)
        mine_done = f.complete(player)
        theirs_done = f.complete(opp)
        mine = self.formation(n, player) if mine_done else None
        if f.claimed is not None or mine is None:
            theirs = self.formation(n, opp) if theirs_done else None
            reason = "claimed" if f.claimed is not None else "incomplete"
            return ClaimVerdict(n, player, False, reason, mine, theirs, self.position)
        if theirs_done:
            theirs = self.formation(n, opp)
            if mine.key > theirs.key:
                reason = "stronger"
            elif mine.key < theirs.key:
                reason = "weaker"
            elif f.completed_first is None:
                raise PositionError(
                    f"{self.position.edition.word('flag')} {n}: both formations are equal ({mine.describe()}), so the side that "
                    "completed first wins (D11), but the position does not say which "
                    "(completed_first is missing)")
            else:
                reason = "tie-first" if f.completed_first == player else "tie-later"
            return ClaimVerdict(n, player, reason in VALID_REASONS, reason, mine, theirs,
                                self.position)
        best = self.completion(n, opp)
        if best is None:
            reason = "cannot-complete"  # D10
        elif best.key > mine.key:
            reason = "can-beat"
        else:
            reason = "cannot-beat"  # D9: at best a tie, and the opponent would play last
        return ClaimVerdict(n, player, reason in VALID_REASONS, reason, mine, best, self.position)


def _check_flag(flag: object) -> int:
    if isinstance(flag, bool) or not isinstance(flag, int) or not 1 <= flag <= FLAG_COUNT:
        raise PositionError(f"there is no flag {describe(flag)}: flags are numbered 1 to 9")
    return flag


def prove(position: Position, flag: int, player: Side) -> ClaimVerdict:
    """The verdict on `player` claiming `flag` (1-9) in `position`."""
    return _Board(position).verdict(_check_flag(flag), parse_side(player))


def claimable(position: Position) -> dict[tuple[int, Side], ClaimVerdict]:
    """The verdicts of all 18 (flag, player) pairs, computed together.

    A flag whose tie cannot be settled (both complete and equal, `completed_first` missing)
    raises `PositionError` naming it, as `prove` does.
    """
    board = _Board(position)
    return {(n, side): board.verdict(n, side)
            for n in range(1, FLAG_COUNT + 1) for side in SIDES}


__all__ = ["INVALID_REASONS", "LANGS", "REASONS", "VALID_REASONS", "ClaimVerdict",
           "claimable", "prove"]
