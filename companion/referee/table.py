"""What the camera should see: a table view, from an observation or from a game state.

The referee compares views, never raw observations: a view keeps the tile states, each side's
cards at each flag (environment cards included, as the camera lists them) and the off-line
areas, and drops what does not describe the table (doubt scores, motion).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from companion.rules.cards import Card
from companion.rules.place import OFFLINE, Place
from companion.rules.position import FLAG_COUNT, SIDES, Side
from companion.vision.observation import Observation

if TYPE_CHECKING:
    from companion.rules.state import GameState

Tile = Literal["line", "north", "south", "missing"]


@dataclass(frozen=True, slots=True)
class Table:
    tiles: tuple[Tile, ...]
    north: tuple[tuple[Card, ...], ...]
    south: tuple[tuple[Card, ...], ...]
    offline_north: tuple[Card, ...]
    offline_south: tuple[Card, ...]

    @classmethod
    def from_observation(cls, obs: Observation) -> Table:
        return cls(tuple(f.tile for f in obs.flags),
                   tuple(f.north for f in obs.flags), tuple(f.south for f in obs.flags),
                   obs.offline_north, obs.offline_south)

    @classmethod
    def from_state(cls, state: GameState) -> Table:
        """The table a game state implies; a claimed flag's tile is moved to its winner."""
        position = state.position()
        tiles: list[Tile] = []
        for n in range(1, FLAG_COUNT + 1):
            claimed = position.flag(n).claimed
            tiles.append("line" if claimed is None else claimed)
        return cls(tuple(tiles),
                   tuple(tuple(state.layout(n, "north")) for n in range(1, FLAG_COUNT + 1)),
                   tuple(tuple(state.layout(n, "south")) for n in range(1, FLAG_COUNT + 1)),
                   tuple(state.offline("north")), tuple(state.offline("south")))

    def side(self, flag: int, side: Side) -> tuple[Card, ...]:
        return (self.north if side == "north" else self.south)[flag - 1]

    def offline(self, side: Side) -> tuple[Card, ...]:
        return self.offline_north if side == "north" else self.offline_south

    def cards_at(self, loc: Place) -> tuple[Card, ...]:
        return self.offline(loc.side) if loc.offline else self.side(loc.flag, loc.side)

    def places(self) -> list[tuple[Place, tuple[Card, ...]]]:
        out = [(Place(n, s), self.side(n, s)) for n in range(1, FLAG_COUNT + 1) for s in SIDES]
        out += [(Place(OFFLINE, s), self.offline(s)) for s in SIDES]
        return out

    def locations(self) -> tuple[dict[Card, Place], list[tuple[Card, Place, Place]]]:
        """Each card's place, and the cards seen in two places (card, first, second)."""
        where: dict[Card, Place] = {}
        twice: list[tuple[Card, Place, Place]] = []
        for loc, cards in self.places():
            for card in cards:
                if card in where:
                    twice.append((card, where[card], loc))
                else:
                    where[card] = loc
        return where, twice

    def replace(self, loc: Place, index: int, card: Card | None) -> Table:
        """The same view with the card at `index` of `loc` read as `card` (None: no card)."""
        cards = list(self.cards_at(loc))
        if not 0 <= index < len(cards):
            return self
        if card is None:
            del cards[index]
        else:
            cards[index] = card
        new = tuple(cards)
        if loc.offline:
            if loc.side == "north":
                return Table(self.tiles, self.north, self.south, new, self.offline_south)
            return Table(self.tiles, self.north, self.south, self.offline_north, new)
        rows = list(self.north if loc.side == "north" else self.south)
        rows[loc.flag - 1] = new
        if loc.side == "north":
            return Table(self.tiles, tuple(rows), self.south, self.offline_north,
                             self.offline_south)
        return Table(self.tiles, self.north, tuple(rows), self.offline_north,
                         self.offline_south)


def same_table(expected: Table, seen: Table) -> bool:
    """Whether the table seen is the one expected.

    Lenient where players are: the order of cards in a column and in an off-line pile is not
    checked (a player straightening a column changes nothing), a discard may lie on either
    side's off-line area, and a claimed flag's tile may still be on the line (a claim made on
    the touchscreen before the tile is moved).
    """
    for n in range(FLAG_COUNT):
        want, got = expected.tiles[n], seen.tiles[n]
        if want != got and not (want in ("north", "south") and got == "line"):
            return False
        for s in SIDES:
            if Counter(expected.side(n + 1, s)) != Counter(seen.side(n + 1, s)):
                return False
    for s in SIDES:
        if Counter(c for c in expected.offline(s) if c.family == "guile") != \
                Counter(c for c in seen.offline(s) if c.family == "guile"):
            return False
    return _discards(expected) == _discards(seen)


def _discards(view: Table) -> Counter[Card]:
    return Counter(c for s in SIDES for c in view.offline(s) if c.family != "guile")
