"""Formation strength: the best category and sum a side of a flag makes or can still make.

`best_formation` rates a complete side, choosing every wildcard at best (D1); `best_completion`
gives the strongest formation a side can still reach with cards from a pool of unseen Troops
(the prover's question, D7).  Both search category by category, strongest first, and never
enumerate completions.  A wildcard stands for a colour and a value, not for a physical card
(D1): it may copy any Troop card, one seen elsewhere on the table or one of its own formation,
and two wildcards may copy the same card.  The Troop cards of a formation are distinct cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from types import MappingProxyType

from .cards import (BY_CODE, CATEGORIES, CATEGORY_RANK, COLOURS, TROOPS, Card, Naming,
                    category_name, colour_name)
from .errors import PositionError

FOG_CATEGORY = "sum"
"""The category of every formation under Fog: only the sum counts there (contract 1, D3)."""

RANKS: dict[str, int] = {**CATEGORY_RANK, FOG_CATEGORY: 0}
_CATEGORY_BY_RANK = {rank: name for name, rank in CATEGORY_RANK.items()}

# A Troop card as (colour index 0-5, value 1-10); value sets are bit masks with bit v for value v.
CV = tuple[int, int]
ALL_VALUES = 0b11111111110
_CV_OF: dict[Card, CV] = {card: (COLOURS.index(card.code[0]), int(card.code[1:])) for card in TROOPS}
_CARD_OF: dict[CV, Card] = {cv: card for card, cv in _CV_OF.items()}

# What a wildcard may stand for (RULES.md "Morale tactics", docs/editions.md): a mask of the
# values it may take, within the values of the edition's cards (`values` below: a Leader or
# Joker of Schotten Totten stands for 1-9); every wildcard may take any colour.
WILD_VALUES: dict[Card, int] = {
    BY_CODE["ALEXANDER"]: ALL_VALUES,
    BY_CODE["DARIUS"]: ALL_VALUES,
    BY_CODE["CAVALRY"]: 1 << 8,
    BY_CODE["SPY"]: 1 << 7,
    BY_CODE["SHIELD"]: 0b1110,
}


def wild_values(card: Card, values: int = ALL_VALUES) -> int:
    """The values a wildcard may take in an edition whose cards have the values of `values`."""
    return WILD_VALUES[card] & values

# Values in a mask, highest first, for every mask of values 1-10 (2048 entries, built once).
_DESC: tuple[tuple[int, ...], ...] = tuple(
    tuple(v for v in range(10, 0, -1) if m >> v & 1) for m in range(1 << 11))
_ALL_COLOURS = 0b111111


def troop_of(colour: int, value: int) -> Card:
    """The Troop card of a colour index (0-5, `COLOURS` order) and a value."""
    return _CARD_OF[(colour, value)]


def cv_of(card: Card) -> CV:
    """(colour index, value) of a Troop card."""
    return _CV_OF[card]


@dataclass(frozen=True, slots=True)
class Formation:
    """A formation at its best: category (`sum` under Fog), sum, and what each wildcard is.

    `cards` are the cards on the side in placement order; `added` are the Troop cards the side
    would still have to add (only for completions the prover imagines); `assignments` maps each
    wildcard on the side to the Troop card it stands for (D1: any card of its range, even one
    seen elsewhere or one of the same formation).
    """

    category: str
    sum: int
    cards: tuple[Card, ...]
    assignments: Mapping[Card, Card] = field(default_factory=lambda: MappingProxyType({}),
                                             hash=False, compare=True)
    added: tuple[Card, ...] = ()

    @property
    def rank(self) -> int:
        """5 for a Wedge down to 1 for a Host; 0 under Fog, where only the sum counts."""
        return RANKS[self.category]

    @property
    def key(self) -> tuple[int, int]:
        """Sort key of the strength: category rank, then sum (D1)."""
        return (RANKS[self.category], self.sum)

    def beats(self, other: Formation) -> bool:
        return self.key > other.key

    def ties(self, other: Formation) -> bool:
        return self.key == other.key

    def troops(self) -> tuple[Card, ...]:
        """The Troop cards this formation counts as: wildcards replaced, added cards last."""
        return tuple(self.assignments.get(c, c) for c in self.cards) + self.added

    def codes(self) -> list[str]:
        """Contract 1 card list: `CAVALRY=G8` for a wildcard, `+Y10` for a card still to add."""
        out = [f"{c}={self.assignments[c]}" if c in self.assignments else c.code for c in self.cards]
        out.extend(f"+{c}" for c in self.added)
        return out

    def to_json(self) -> dict[str, object]:
        return {"category": self.category, "sum": self.sum, "cards": self.codes()}

    def describe(self, naming: Naming = "gmt-en", lang: str = "en") -> str:
        """`Wedge blue 8-9-10 (27)`; under Fog `sum 27` (`somme 27`); `Colour run` in
        Schotten Totten's naming."""
        if self.category == FOG_CATEGORY:
            return f"{'somme' if lang == 'fr' else 'sum'} {self.sum}"
        troops = self.troops()
        values = "-".join(str(v) for v in sorted(c.value or 0 for c in troops))
        name = category_name(self.category, naming)
        if self.category in ("wedge", "battalion"):  # one colour: say which
            colour = colour_name(troops[0].code[0], naming)
            if name in _FEMININE:   # French agreement: Pointe bleue, Colonne verte
                colour = _FEMININE_COLOURS.get(colour, colour)
            name += " " + colour
        return f"{name} {values} ({self.sum})"

    def __str__(self) -> str:
        return f"{self.category} {self.sum} [{' '.join(self.codes())}]"


_FEMININE = frozenset({"Pointe", "Colonne"})
"""The French category names that take a colour and are feminine (the others do not vary)."""
_FEMININE_COLOURS = {"bleu": "bleue", "vert": "verte", "violet": "violette"}


# -- the search ---------------------------------------------------------------------------
# A search result: (rank, sum, what each wildcard stands for (aligned with the wildcards),
# the Troops added from the pool).
_Found = tuple[int, int, tuple[CV, ...], tuple[CV, ...]]


@dataclass(frozen=True, slots=True)
class Pool:
    """Troop cards a side may still add, indexed both ways for the search."""

    by_colour: tuple[int, ...]  # per colour: mask of values
    by_value: tuple[int, ...]   # per value 0-10: mask of colours (index 0 unused)
    count: int

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Pool:
        by_colour = [0] * 6
        by_value = [0] * 11
        n = 0
        for card in cards:
            cv = _CV_OF.get(card)
            if cv is None:
                continue
            c, v = cv
            if not by_colour[c] >> v & 1:
                by_colour[c] |= 1 << v
                by_value[v] |= 1 << c
                n += 1
        return cls(tuple(by_colour), tuple(by_value), n)


    def without(self, cards: Iterable[CV]) -> Pool:
        by_colour = list(self.by_colour)
        by_value = list(self.by_value)
        n = self.count
        for c, v in cards:
            if by_colour[c] >> v & 1:
                by_colour[c] &= ~(1 << v)
                by_value[v] &= ~(1 << c)
                n -= 1
        return Pool(tuple(by_colour), tuple(by_value), n)


EMPTY_POOL = Pool((0,) * 6, (0,) * 11, 0)


def assign_wilds(doms: Sequence[int], need: Sequence[int], must: int) -> tuple[int, ...] | None:
    """Values for the wildcards, one each from `need`, all distinct, covering every value in `must`."""
    for perm in permutations(need, len(doms)):
        covered = 0
        for dom, x in zip(doms, perm):
            if not dom >> x & 1:
                break
            covered |= 1 << x
        else:
            if must & ~covered == 0:
                return perm
    return None


def _first_colour(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _wedge(troops: Sequence[CV], doms: Sequence[int], k: int, pool: Pool, n: int) -> _Found | None:
    if troops:
        colour = troops[0][0]
        if any(c != colour for c, _ in troops):
            return None
        colours: Sequence[int] = (colour,)
        tmask = 0
        for _, v in troops:
            tmask |= 1 << v
        lo = min(v for _, v in troops)
        hi = max(v for _, v in troops)
        top = min(lo, 11 - n)
        bottom = max(1, hi - n + 1)
    else:
        colours = range(6)
        tmask = 0
        top, bottom = 11 - n, 1
    for start in range(top, bottom - 1, -1):
        run = ((1 << n) - 1) << start
        need_mask = run & ~tmask
        need = _DESC[need_mask]
        for c in colours:
            missing = need_mask & ~pool.by_colour[c]
            if not doms:
                if missing:
                    continue
                chosen: tuple[int, ...] = ()
            else:
                found = assign_wilds(doms, need, missing)
                if found is None:
                    continue
                chosen = found
            rest = need_mask
            for x in chosen:
                rest &= ~(1 << x)
            total = sum(range(start, start + n))
            return (5, total, tuple((c, x) for x in chosen), tuple((c, x) for x in _DESC[rest]))
    return None


def _phalanx(troops: Sequence[CV], doms: Sequence[int], k: int, pool: Pool, n: int) -> _Found | None:
    if troops:
        value = troops[0][1]
        if any(v != value for _, v in troops):
            return None
        values: Sequence[int] = (value,)
    else:
        values = range(10, 0, -1)
    for x in values:
        if any(not dom >> x & 1 for dom in doms):
            continue
        avail = pool.by_value[x]
        if avail.bit_count() < k:
            continue
        used = 0
        for c, _ in troops:
            used |= 1 << c
        added = []
        m = avail
        for _ in range(k):
            c = _first_colour(m)
            m &= m - 1
            added.append((c, x))
            used |= 1 << c
        wild = []
        for _ in doms:
            c = _first_colour(_ALL_COLOURS & ~used)
            used |= 1 << c
            wild.append((c, x))
        return (4, n * x, tuple(wild), tuple(added))
    return None


def _battalion(troops: Sequence[CV], doms: Sequence[int], k: int, pool: Pool, n: int,
               only: int | None = None) -> _Found | None:
    if only is not None:
        if any(c != only for c, _ in troops):
            return None
        colours: Sequence[int] = (only,)
    elif troops:
        colour = troops[0][0]
        if any(c != colour for c, _ in troops):
            return None
        colours = (colour,)
    else:
        colours = range(6)
    # D1: a wildcard may repeat a card of its own formation, so each one simply takes the
    # highest value of its range, whatever the others and the added cards are.
    wild_values = tuple(dom.bit_length() - 1 for dom in doms)
    base = sum(v for _, v in troops) + sum(wild_values)
    best: _Found | None = None
    for c in colours:
        left = _DESC[pool.by_colour[c]]
        if len(left) < k:
            continue
        total = base + sum(left[:k])
        if best is None or total > best[1]:
            best = (3, total, tuple((c, x) for x in wild_values), tuple((c, x) for x in left[:k]))
    return best


def _skirmish(troops: Sequence[CV], doms: Sequence[int], k: int, pool: Pool, n: int) -> _Found | None:
    tmask = 0
    for _, v in troops:
        if tmask >> v & 1:
            return None
        tmask |= 1 << v
    if troops:
        lo = min(v for _, v in troops)
        hi = max(v for _, v in troops)
        top = min(lo, 11 - n)
        bottom = max(1, hi - n + 1)
    else:
        top, bottom = 11 - n, 1
    avail_values = 0
    for v in range(1, 11):
        if pool.by_value[v]:
            avail_values |= 1 << v
    for start in range(top, bottom - 1, -1):
        run = ((1 << n) - 1) << start
        need_mask = run & ~tmask
        missing = need_mask & ~avail_values
        if not doms:
            if missing:
                continue
            chosen: tuple[int, ...] = ()
        else:
            found = assign_wilds(doms, _DESC[need_mask], missing)
            if found is None:
                continue
            chosen = found
        rest = need_mask
        for x in chosen:
            rest &= ~(1 << x)
        added = tuple((_first_colour(pool.by_value[x]), x) for x in _DESC[rest])
        # Any colour will do for a wildcard here: its value is new to the formation.
        wild = tuple((0, x) for x in chosen)
        return (2, sum(range(start, start + n)), wild, added)
    return None


def _host(troops: Sequence[CV], doms: Sequence[int], k: int, pool: Pool, n: int,
          rank: int) -> _Found | None:
    if pool.count < k:
        return None
    added: list[CV] = []
    total = sum(v for _, v in troops)
    for v in range(10, 0, -1):
        if len(added) == k:
            break
        m = pool.by_value[v]
        while m and len(added) < k:
            added.append((_first_colour(m), v))
            m &= m - 1
    wild: list[CV] = []
    taken = {*troops, *added}
    for dom in doms:
        x = dom.bit_length() - 1
        c = next(c for c in range(6) if (c, x) not in taken)  # n <= 4 < 6 colours
        taken.add((c, x))
        wild.append((c, x))
        total += x
    total += sum(v for _, v in added)
    return (rank, total, tuple(wild), tuple(added))


def _search(troops: Sequence[CV], doms: Sequence[int], k: int, pool: Pool, n: int,
            fog: bool) -> _Found | None:
    """The strongest formation of `troops` + wildcards + `k` cards from `pool`, or None."""
    if pool.count < k:
        return None  # D10: not enough unseen Troops to complete
    if fog:
        return _host(troops, doms, k, pool, n, 0)
    for step in (_wedge, _phalanx, _battalion, _skirmish):
        found = step(troops, doms, k, pool, n)
        if found is not None:
            return found
    return _host(troops, doms, k, pool, n, 1)


def _split(cards: Sequence[Card], where: str) -> tuple[list[CV], list[Card]]:
    troops: list[CV] = []
    wilds: list[Card] = []
    for card in cards:
        cv = _CV_OF.get(card)
        if cv is not None:
            troops.append(cv)
        elif card in WILD_VALUES:
            wilds.append(card)
        else:
            raise PositionError(f"{card} cannot be part of a formation ({where})")
    if len(set(cards)) != len(cards):
        raise PositionError(f"a card appears twice in {where}: {' '.join(map(str, cards))}")
    return troops, wilds


def _formation(cards: Sequence[Card], wilds: Sequence[Card], found: _Found) -> Formation:
    rank, total, wild_cv, added = found
    category = FOG_CATEGORY if rank == 0 else _CATEGORY_BY_RANK[rank]
    assignments = MappingProxyType({w: _CARD_OF[cv] for w, cv in zip(wilds, wild_cv)})
    # Added cards in rising value, the way a player reads a formation.
    extra = tuple(_CARD_OF[cv] for cv in sorted(added, key=lambda cv: (cv[1], cv[0])))
    return Formation(category, total, tuple(cards), assignments, extra)


def best_formation(cards: Sequence[Card], fog: bool = False, mud: bool = False,
                   values: int = ALL_VALUES) -> Formation:
    """The strongest reading of a complete side: 3 cards (4 under Mud), wildcards at best (D1).

    Under Fog only the sum counts and the category is `sum` (D3).  `values` is the mask of
    the edition's card values (`Edition.value_mask`): Battle Line's 1-10 by default.
    """
    size = 4 if mud else 3
    where = "the formation " + " ".join(map(str, cards))
    if len(cards) != size:
        raise PositionError(f"{where} has {len(cards)} cards; a formation needs {size}"
                            f"{' under Mud' if mud else ''}")
    troops, wilds = _split(cards, where)
    found = _search(troops, [WILD_VALUES[w] & values for w in wilds], 0, EMPTY_POOL, size, fog)
    assert found is not None  # a full side always makes at least a Host
    return _formation(cards, wilds, found)


def best_completion(cards: Sequence[Card], pool: Pool | Iterable[Card], fog: bool = False,
                    mud: bool = False, values: int = ALL_VALUES) -> Formation | None:
    """The strongest formation `cards` can still become by adding Troops from `pool`.

    Wildcards already among `cards` keep their full freedom (D8).  None when the pool holds
    fewer Troops than the side still needs (D10).
    """
    size = 4 if mud else 3
    where = "the side " + " ".join(map(str, cards))
    if len(cards) > size:
        raise PositionError(f"{where} has {len(cards)} cards; at most {size} fit"
                            f"{' under Mud' if mud else ' without Mud'}")
    troops, wilds = _split(cards, where)
    if not isinstance(pool, Pool):
        pool = Pool.of(c for c in pool if c not in cards)
    elif any(pool.by_colour[c] >> v & 1 for c, v in troops):
        pool = pool.without(troops)  # a card on the side cannot be added to it again
    found = _search(troops, [WILD_VALUES[w] & values for w in wilds], size - len(cards), pool,
                    size, fog)
    return None if found is None else _formation(cards, wilds, found)


def best_battalion(cards: Sequence[Card], pool: Pool, colour: str, mud: bool = False,
                   values: int = ALL_VALUES) -> Formation | None:
    """The best Battalion of one colour `cards` can still become (for proof texts)."""
    size = 4 if mud else 3
    troops, wilds = _split(cards, "the side " + " ".join(map(str, cards)))
    found = _battalion(troops, [WILD_VALUES[w] & values for w in wilds], size - len(cards), pool,
                       size, COLOURS.index(colour))
    return None if found is None else _formation(cards, wilds, found)


__all__ = ["CATEGORIES", "FOG_CATEGORY", "RANKS", "WILD_VALUES", "Formation", "Pool",
           "best_battalion", "best_completion", "best_formation", "wild_values"]
