"""Random tables and labelled frame sets for testing and measuring the camera pipeline.

`random_scene(rng)` lays out a plausible mid-game table (no card twice, at most three cards a
side, four under Mud, claimed flags moved aside, guile cards and discards off the line).
`write_dataset` renders a seeded set of frames, each `NAME.png` beside its ground truth
`NAME.json` (contract 2 observation), for an evaluation over a folder of labelled frames.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.rules.cards import Card
from companion.rules.edition import BATTLE_LINE, EDITIONS, Edition
from companion.rules.position import FLAG_COUNT, SIDES, Side
from companion.vision.geometry import FLAG_PITCH
from companion.synth.errors import SynthError
from companion.synth.faces import PRINTINGS, Printing, random_printing
from companion.synth.render import Degrade, Rig, Setup, render
from companion.synth.scene import FlagScene, Hand, Scene

def random_scene(rng: np.random.Generator, fill: float | None = None,
                 hand: bool = False, table_seed: int | None = None,
                 edition: Edition = BATTLE_LINE) -> Scene:
    """A plausible table: `fill` (0-1) is how far the game has gone; drawn from `rng`, with
    the cards of `edition` (Schotten Totten: Clan cards 1-9 and the Spy)."""
    troop_cards, tactic_cards = edition.troops, edition.tactics
    morale_cards = tuple(c for c in tactic_cards if c.family == "morale")
    guile_cards = tuple(c for c in tactic_cards if c.family == "guile")
    fill = float(rng.uniform(0.1, 1.0)) if fill is None else fill
    if not 0.0 <= fill <= 1.0:
        raise SynthError(f"table fill {fill!r} is not within 0-1")
    troops = list(rng.permutation(len(troop_cards)))
    morale = [c for c in morale_cards if rng.random() < 0.25 * fill]
    env = {c: int(rng.integers(1, FLAG_COUNT + 1)) for c in tactic_cards
           if c.family == "environment" and rng.random() < 0.3 * fill}
    flags: list[FlagScene] = []
    for n in range(1, FLAG_COUNT + 1):
        here_env = [c for c, f in env.items() if f == n]
        size = 4 if any(c.code == "MUD" for c in here_env) else 3
        sides: dict[Side, list[Card]] = {}
        for side in SIDES:
            k = int(rng.binomial(size, fill))
            cards: list[Card] = []
            for _ in range(k):
                if morale and rng.random() < 0.12:
                    cards.append(morale.pop())
                elif troops:
                    cards.append(troop_cards[int(troops.pop())])
            sides[side] = cards
        # Each environment card lies in the column of the player who laid it, where it was laid.
        for card in here_env:
            side = SIDES[int(rng.integers(2))]
            at = int(rng.integers(len(sides[side]) + 1))
            sides[side].insert(at, card)
        full = all(sum(c.occupies_slot for c in sides[s]) >= size for s in SIDES)
        tile = "line"
        if full and rng.random() < 0.6:
            winner = SIDES[int(rng.integers(2))]
            if not _would_win(flags, winner):
                tile = winner
        elif rng.random() < 0.02:
            tile = "missing"
        flags.append(FlagScene(n, tile,  # type: ignore[arg-type]
                               tuple(sides["north"]), tuple(sides["south"])))
    offline: dict[Side, list[Card]] = {"north": [], "south": []}
    for card in guile_cards:
        if rng.random() < 0.35 * fill:
            offline[SIDES[int(rng.integers(2))]].append(card)
    for side in SIDES:
        for _ in range(int(rng.binomial(3, 0.3 * fill))):
            if troops:
                offline[side].append(troop_cards[int(troops.pop())])
        order = rng.permutation(len(offline[side]))
        offline[side] = [offline[side][int(i)] for i in order]
    arm = None
    if hand:
        side = SIDES[int(rng.integers(2))]
        sign = -1.0 if side == "north" else 1.0
        # Half the time the player holds the card they are about to lay.
        held = troop_cards[int(troops.pop())] if troops and rng.random() < 0.5 else None
        arm = Hand(side, float((rng.integers(1, 10) - 5) * FLAG_PITCH + rng.uniform(-30, 30)),
                   float(sign * rng.uniform(20, 180)), float(rng.uniform(-25, 25)),
                   float(rng.uniform(70, 100)), held)
    return Scene(tuple(flags), tuple(offline["north"]), tuple(offline["south"]), arm, table_seed)


def _would_win(flags: list[FlagScene], side: Side) -> bool:
    """Whether claiming one more flag would end the game for `side` (5 flags or 3 adjacent):
    a table mid-game never shows a finished game."""
    held = [f.tile == side for f in flags] + [True]
    run = best = 0
    for h in held:
        run = run + 1 if h else 0
        best = max(best, run)
    return sum(held) >= 5 or best >= 3


@dataclass(frozen=True, slots=True)
class DatasetItem:
    name: str
    printing: str
    seed: int
    degrade: Degrade


def write_dataset(directory: Path | str, count: int, seed: int = 0,
                  printings: tuple[Printing, ...] | None = None, degrade: bool = True,
                  hands: float = 0.0, rig: Rig | None = None,
                  setup: Setup | None = None) -> list[DatasetItem]:
    """Render `count` labelled frames into `directory`: `frame-NNNN.png` + `frame-NNNN.json`.

    Printings cycle through `printings` (default: the named ones and two invented ones);
    `degrade` draws a random mix of faults per frame; `hands` is the share of frames with an
    arm over the table (listed as `obstructed` in the label).  `rig` is the camera (default
    the reference rig) and `setup` how the table is laid (default the standard set-up).
    """
    if count < 1:
        raise SynthError(f"a dataset needs at least one frame, not {count}")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    if printings is None:
        printings = (*PRINTINGS.values(), random_printing(seed + 1), random_printing(seed + 2))
    rng = np.random.default_rng([seed, 0xDA7A])
    items = []
    for i in range(count):
        printing = printings[i % len(printings)]
        scene = random_scene(rng, hand=bool(rng.random() < hands),
                             edition=EDITIONS[printing.edition])
        deg = Degrade.random(rng, hand=False) if degrade else Degrade.none()
        frame_seed = int(rng.integers(1 << 31))
        name = f"frame-{i:04d}"
        frame = render(scene, printing, frame_seed, deg, rig=rig, setup=setup)
        if not cv2.imwrite(str(directory / f"{name}.png"), frame):
            raise SynthError(f"could not write {directory / name}.png")
        label = scene.observation().to_json()
        label["synth"] = {"printing": printing.name, "seed": frame_seed,
                          "degrade": _degrade_json(deg),
                          "rig": rig.name if rig is not None else "reference"}
        (directory / f"{name}.json").write_text(json.dumps(label, indent=1))
        items.append(DatasetItem(name, printing.name, frame_seed, deg))
    return items


def _degrade_json(d: Degrade) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in Degrade.__slots__:
        value = getattr(d, name)
        if isinstance(value, Hand):
            value = {"side": value.side, "x_mm": value.x_mm, "y_mm": value.y_mm,
                     "card": value.card.code if value.card else None}
        out[name] = value
    return out


__all__ = ["DatasetItem", "random_scene", "write_dataset"]
