"""The slow exhaustive claim oracle: every wildcard reading, every completion from unseen Troops.

Written straight from RULES.md with no cleverness, so that the fast prover can be checked
against it.  The Troop cards of a formation are distinct physical cards; a wildcard stands for
a colour and a value of its range, whatever card that copies: one seen elsewhere on the table,
one of its own formation, or the same card another wildcard copies (D1).  The edition of the
position gives the deck: Schotten Totten's Clan cards run 1-9, its Joker stands for any of
them and its Spy for a 7 (docs/editions.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from companion.rules.cards import BY_CODE, TROOPS, Card
from companion.rules.edition import BATTLE_LINE, Edition
from companion.rules.position import Position, Side, other

RANK = {"wedge": 5, "phalanx": 4, "battalion": 3, "skirmish": 2, "host": 1}

# What each wildcard may stand for, from RULES.md "Morale tactics".
STANDS_FOR: dict[Card, tuple[Card, ...]] = {
    BY_CODE["ALEXANDER"]: TROOPS,
    BY_CODE["DARIUS"]: TROOPS,
    BY_CODE["CAVALRY"]: tuple(c for c in TROOPS if c.value == 8),
    BY_CODE["SHIELD"]: tuple(c for c in TROOPS if (c.value or 0) <= 3),
}


def stands_for(edition: Edition) -> dict[Card, tuple[Card, ...]]:
    """What each wildcard of the edition may stand for: Leaders (Jokers) any Troop (Clan card)
    of the edition, Companion Cavalry an 8, the Spy a 7, Shield Bearers 1-3."""
    troops = edition.troops
    return {
        BY_CODE["ALEXANDER"]: troops,
        BY_CODE["DARIUS"]: troops,
        BY_CODE["CAVALRY"]: tuple(c for c in troops if c.value == 8),
        BY_CODE["SPY"]: tuple(c for c in troops if c.value == 7),
        BY_CODE["SHIELD"]: tuple(c for c in troops if (c.value or 0) <= 3),
    }


def category(cards: Sequence[Card]) -> str:
    """The category of a reading (a card may appear twice: D1), straight from RULES.md."""
    colours = {c.colour for c in cards}
    values = sorted(c.value or 0 for c in cards)
    run = all(b - a == 1 for a, b in zip(values, values[1:]))
    if len(colours) == 1 and run:
        return "wedge"
    if len(set(values)) == 1:
        return "phalanx"
    if len(colours) == 1:
        return "battalion"
    if run:
        return "skirmish"
    return "host"


def strength(cards: Sequence[Card], fog: bool) -> tuple[int, int]:
    total = sum(c.value or 0 for c in cards)
    return (0, total) if fog else (RANK[category(cards)], total)


def readings(cards: Sequence[Card], edition: Edition = BATTLE_LINE) -> Iterator[tuple[Card, ...]]:
    """Every way to read the wildcards among `cards` as Troops; no pick is ever excluded (D1)."""
    wild = stands_for(edition)
    options = [wild.get(c, (c,)) for c in cards]
    yield from product(*options)


def best(cards: Sequence[Card], fog: bool, edition: Edition = BATTLE_LINE) -> tuple[int, int]:
    return max(strength(r, fog) for r in readings(cards, edition))


def best_completion(cards: Sequence[Card], pool: Sequence[Card], size: int,
                    fog: bool, edition: Edition = BATTLE_LINE) -> tuple[int, int] | None:
    """The strongest formation `cards` can become with cards of `pool`; None if too few."""
    need = size - len(cards)
    if need > len(pool):
        return None
    top: tuple[int, int] | None = None
    for extra in combinations(pool, need):
        s = best(list(cards) + list(extra), fog, edition)
        if top is None or s > top:
            top = s
    return top


def work(position: Position, flag: int, player: Side) -> int:
    """How many formations the oracle would rate (to keep test sets small)."""
    f = position.flag(flag)
    cards = f.side(other(player))
    seen = position.face_up()
    pool = sum(1 for c in position.edition.troops if c not in seen)
    need = f.size - len(cards)
    count = 1
    wild = stands_for(position.edition)
    for c in cards:
        count *= len(wild.get(c, (c,)))
    n, k = pool, max(need, 0)
    combos = 1
    for i in range(k):
        combos = combos * (n - i) // (i + 1)
    return count * combos


def verdict(position: Position, flag: int, player: Side) -> tuple[bool, str, tuple[int, int] | None,
                                                                tuple[int, int] | None]:
    """(valid, reason, claimant strength, opponent best strength) per RULES.md D7-D11."""
    f = position.flag(flag)
    ed = position.edition
    opp = other(player)
    mine_cards, their_cards = f.side(player), f.side(opp)
    mine = best(mine_cards, f.fog, ed) if len(mine_cards) == f.size else None
    theirs_done = len(their_cards) == f.size
    if f.claimed is not None:
        return False, "claimed", mine, best(their_cards, f.fog, ed) if theirs_done else None
    if mine is None:
        return False, "incomplete", None, best(their_cards, f.fog, ed) if theirs_done else None
    if theirs_done:
        theirs = best(their_cards, f.fog, ed)
        if mine > theirs:
            return True, "stronger", mine, theirs
        if mine < theirs:
            return False, "weaker", mine, theirs
        if f.completed_first == player:
            return True, "tie-first", mine, theirs
        return False, "tie-later", mine, theirs
    seen = position.face_up()
    pool = [c for c in ed.troops if c not in seen]  # D7, D8
    top = best_completion(their_cards, pool, f.size, f.fog, ed)
    if top is None:
        return True, "cannot-complete", mine, None  # D10
    if top > mine:
        return False, "can-beat", mine, top
    return True, "cannot-beat", mine, top  # D9


def check_realisation(cards: Sequence[Card], troops: Sequence[Card], added: Sequence[Card],
                      assignments: dict[Card, Card], fog: bool, pool: Sequence[Card] = (),
                      edition: Edition = BATTLE_LINE) -> tuple[int, int]:
    """Check that a formation the prover reports can really be laid, and return its strength.

    Every wildcard stands for a card of its range (any, D1), added cards come from `pool`;
    the physical Troop cards (those on the side and those added) are all distinct.
    """
    wild = stands_for(edition)
    physical = [c for c in cards if c not in wild] + list(added)
    assert len(set(physical)) == len(physical), f"a card twice in {physical}"
    assert len(troops) == len(cards) + len(added)
    for card in cards:
        if card in wild:
            assert assignments[card] in wild[card], f"{card} cannot be {assignments[card]}"
        else:
            assert card not in assignments
    assert set(assignments) <= set(cards)
    assert set(added) <= set(pool), f"{added} not all unseen"
    return strength(troops, fog)
