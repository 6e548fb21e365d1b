"""A hand-made table for referee tests: lay, move and lift cards, then film it.

`Table` is mutable on purpose (it is the physical table); `frames(...)` turns its current
look into the observations a camera loop would send, with hands, motion and misreads.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.referee import Referee
from companion.referee.events import Event
from companion.rules.cards import BY_CODE, Card
from companion.rules.position import Side
from companion.vision.observation import Doubt, FlagObservation, Observation


def C(code: str) -> Card:
    return BY_CODE[code]


class Table:
    def __init__(self) -> None:
        self.sides: dict[tuple[int, Side], list[Card]] = {
            (n, s): [] for n in range(1, 10) for s in ("north", "south")}
        self.off: dict[Side, list[Card]] = {"north": [], "south": []}
        self.tiles: dict[int, str] = {n: "line" for n in range(1, 10)}

    def lay(self, side: Side, code: str, flag: int) -> Table:
        self.sides[(flag, side)].append(C(code))
        return self

    def lift(self, code: str) -> Table:
        for cards in list(self.sides.values()) + list(self.off.values()):
            if C(code) in cards:
                cards.remove(C(code))
        return self

    def move(self, code: str, flag: int | None, side: Side) -> Table:
        self.lift(code)
        if flag is None:
            self.off[side].append(C(code))
        else:
            self.sides[(flag, side)].append(C(code))
        return self

    def guile(self, side: Side, code: str) -> Table:
        self.off[side].append(C(code))
        return self

    def tile(self, flag: int, where: str) -> Table:
        self.tiles[flag] = where
        return self

    def observation(self, *, doubtful: tuple[Doubt, ...] = (), obstructed: tuple[int, ...] = (),
                    motion: bool = False, misread: dict[str, str] | None = None,
                    glare: tuple[int, ...] = ()) -> Observation:
        swap = {C(a): C(b) for a, b in (misread or {}).items()}
        flags = tuple(FlagObservation(
            n, self.tiles[n],  # type: ignore[arg-type]
            tuple(swap.get(c, c) for c in self.sides[(n, "north")]),
            tuple(swap.get(c, c) for c in self.sides[(n, "south")])) for n in range(1, 10))
        return Observation(flags, tuple(swap.get(c, c) for c in self.off["north"]),
                           tuple(swap.get(c, c) for c in self.off["south"]), doubtful,
                           obstructed, motion, glare)


class Camera:
    """Feeds a referee at 5 frames a second and collects the events."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.t = 0.0
        self.events: list[Event] = []

    def show(self, obs: Observation, frames: int = 4) -> list[Event]:
        out: list[Event] = []
        for _ in range(frames):
            self.t += 0.2
            out += self.referee.feed(obs, self.t)
        self.events += out
        return out

    def settle(self, table: Table, **kw: object) -> list[Event]:
        """A hand over the table, some motion, then the table calm for a second."""
        out = self.show(table.observation(obstructed=(4, 5), motion=True), 2)  # type: ignore[arg-type]
        out += self.show(table.observation(**kw), 5)  # type: ignore[arg-type]
        return out


def frames_flicker(table: Table, a: str, b: str, n: int) -> Iterator[Observation]:
    for i in range(n):
        yield table.observation(misread={a: b} if i % 2 else None)
