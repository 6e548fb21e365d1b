"""`companion bench hands`: arms over the table found, and flags reported that no arm covers.

A flag under an arm is reported `obstructed` and the referee waits for it (`layout.hand_flags`);
an arm not seen leaves its cards to be misread, a flag reported that no arm covers stalls the
game. Over seeded synthetic frames of the printing zoo's tables (the vision bench's camera
faults, tables laid as players do, every other frame with an arm holding a card), this counts
the arms found (at least one flag under it reported), the flags under an arm reported, and the
flags reported that no arm covers, per rig, for the tuning and the held-out families apart.
Each frame is brought to the rig's scale first, as the reader does (`ScaleNormaliser`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from companion.commands import seed_range
from companion.synth import RIGS, Degrade, Setup, render, rendition
from companion.synth.dataset import random_scene
from companion.synth.zoo import FAMILIES, HELD_OUT
from companion.vision.errors import VisionError
from companion.vision.layout import acquire, hand_flags
from companion.vision.scale import ScaleNormaliser


@dataclass
class Tally:
    frames: int = 0
    arms: int = 0
    arms_found: int = 0
    flags: int = 0               # flags under an arm
    flags_found: int = 0
    false_flags: int = 0         # flags reported that no arm covers
    false_frames: int = 0        # frames without an arm that report one
    refused: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, truth: set[int], found: set[int], label: str) -> None:
        self.frames += 1
        if truth:
            self.arms += 1
            self.arms_found += bool(truth & found)
            self.flags += len(truth)
            self.flags_found += len(truth & found)
        self.false_flags += len(found - truth)
        self.false_frames += bool(found and not truth)
        if (truth and not truth & found) or found - truth:
            self.misses.append(f"{label}: under an arm {sorted(truth)}, reported {sorted(found)}")


def tally(families: Sequence[str], seeds: Sequence[int], rig: str, frames: int) -> Tally:
    """The arms and flags over `frames` frames per family and printing seed at `rig`."""
    out = Tally()
    for seed in seeds:
        for family in families:
            printing = rendition(FAMILIES[family](seed), 2)
            rng = np.random.default_rng([seed, 0x4A4D, sorted(FAMILIES).index(family)])
            for i in range(frames):
                scene = random_scene(rng, hand=i % 2 == 0)
                degrade = Degrade.random(rng, hand=False)
                frame = render(scene, printing, int(rng.integers(1 << 30)), degrade,
                               rig=RIGS[rig], setup=Setup.varied())
                read = ScaleNormaliser()(frame)
                try:
                    layout = acquire(read, allow_missing=True)
                except VisionError:
                    out.refused += 1
                    continue
                out.add(set(scene.observation().obstructed), set(hand_flags(read, layout)),
                        f"{family} seed {seed} frame {i}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion bench hands",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=8,
                        help="frames per family and printing seed (default 8, half with an arm)")
    parser.add_argument("--seeds", type=seed_range, default=seed_range("0-4"),
                        help="printing seeds, as 0-4 (default)")
    parser.add_argument("--rig", choices=("reference", "webcam", "both"), default="both")
    parser.add_argument("--misses", type=int, default=0, help="frames gone wrong to list")
    args = parser.parse_args(list(argv or []))
    seeds = list(args.seeds)
    named = f"{seeds[0]}" if len(seeds) == 1 else f"{seeds[0]}-{seeds[-1]}"
    rigs = ("reference", "webcam") if args.rig == "both" else (args.rig,)
    groups = (("held-out", [f for f in FAMILIES if f in HELD_OUT]),
              ("tuning", [f for f in FAMILIES if f not in HELD_OUT]))
    print(f"companion bench hands: {args.frames} frames per family and printing seed "
          f"{named}, every other one with an arm; targets every arm and flag under it "
          "found, no flag reported that no arm covers")
    for rig in rigs:
        for group, families in groups:
            t = tally(families, seeds, rig, args.frames)
            print(f"  {rig:9s} {group:8s} {t.frames:4d} frames: arms found {t.arms_found}/"
                  f"{t.arms}, flags under an arm {t.flags_found}/{t.flags}, flags reported "
                  f"that no arm covers {t.false_flags} (in {t.false_frames} frames without "
                  f"an arm){f', {t.refused} frames refused' if t.refused else ''}")
            for line in t.misses[:max(0, args.misses)]:
                print("    " + line)
    return 0
