"""Scripted table moments for the UI tests: observations as the camera pipeline reports them.

Each step adds one card to the table; a step may carry a doubtful read, as the pipeline
flags it.  Every observation is repeated (calm frames) so the referee's debouncing commits it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.rules.place import Place
from companion.rules.cards import BY_CODE
from companion.vision.observation import Doubt, FlagObservation, Observation


@dataclass(frozen=True)
class Step:
    side: str
    code: str
    flag: int
    doubt: str | None = None    # the second guess, when this read is doubtful


OPENING = (
    Step("south", "R8", 1), Step("north", "B2", 1), Step("south", "R9", 1),
    Step("north", "G3", 2), Step("south", "R10", 1),
)
DOUBTFUL = Step("north", "Y5", 4, doubt="O5")


def observations(steps: tuple[Step, ...], calm: int = 5) -> Iterator[Observation]:
    table: dict[tuple[int, str], list[str]] = {}
    yield from [Observation()] * calm
    for step in steps:
        table.setdefault((step.flag, step.side), []).append(step.code)
        doubts = ()
        if step.doubt:
            index = len(table[(step.flag, step.side)]) - 1
            doubts = (Doubt(Place.parse(f"flag {step.flag} {step.side}"), BY_CODE[step.code],
                            BY_CODE[step.doubt], 0.2, index),)
        flags = tuple(FlagObservation(
            n, "line", tuple(BY_CODE[c] for c in table.get((n, "north"), [])),
            tuple(BY_CODE[c] for c in table.get((n, "south"), []))) for n in range(1, 10))
        obs = Observation(flags, doubtful=doubts)
        for _ in range(calm):
            yield obs
