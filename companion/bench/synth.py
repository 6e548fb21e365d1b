"""`companion bench synth`: how long the synthetic renderer takes to draw a frame.

Wall and CPU milliseconds per frame (medians) for the usual kinds of render: the demo and the
vision bench draw hundreds of frames, so a slower renderer slows every test run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from companion.synth import PRINTINGS, Degrade, Hand, render, render_lores
from companion.synth.dataset import random_scene


def bench(frames: int = 20, seed: int = 0) -> dict[str, tuple[float, float]]:
    """(wall, CPU) milliseconds per frame, medians, for the usual kinds of render.

    CPU time (all threads) says what a frame costs even when other work shares the machine.
    """
    rng = np.random.default_rng(seed)
    scenes = [random_scene(rng, fill=0.8) for _ in range(frames)]
    printing = PRINTINGS["classic"]
    for t in (False, True):                                  # warm the face and noise caches
        render(replace(scenes[0], table_seed=99 if t else None), printing, 0, Degrade(noise=1.0))

    def median_ms(fn: Callable[[int], object]) -> tuple[float, float]:
        wall, cpu = [], []
        for i in range(frames):
            t, c = time.perf_counter(), time.process_time()
            fn(i)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        return float(np.median(wall) * 1000), float(np.median(cpu) * 1000)

    fixed = [replace(s, table_seed=7) for s in scenes]
    everything = Degrade(tilt_deg=8, tilt_dir_deg=30, rotate_deg=2, scale=0.97, light=0.3,
                         vignette=0.3, cast=(1.1, 1.0, 0.9), glare=0.6, blur=1.0, noise=4,
                         jpeg=80, hand=Hand("south", 90.0, 60.0, 10.0))
    mixes = [Degrade.random(np.random.default_rng([seed, i])) for i in range(frames)]
    return {
        "new table, no faults": median_ms(lambda i: render(scenes[i], printing, i)),
        "new table, random faults": median_ms(lambda i: render(scenes[i], printing, i, mixes[i])),
        "new table, every fault": median_ms(lambda i: render(scenes[i], printing, i, everything)),
        "fixed table, every fault": median_ms(lambda i: render(fixed[i], printing, i, everything)),
        "same scene again, every fault": median_ms(
            lambda i: render(fixed[0], printing, i, everything)),
        "same scene again, no faults": median_ms(lambda i: render(fixed[0], printing, i)),
        "low-res stream, new table": median_ms(lambda i: render_lores(scenes[i], printing, i)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion bench synth",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20, help="frames per kind (default 20)")
    args = parser.parse_args(argv)
    print(f"{'median per frame':32s} {'wall':>9s} {'CPU':>9s}")
    for name, (wall, cpu) in bench(max(1, args.frames)).items():
        print(f"{name:32s} {wall:6.1f} ms {cpu:6.1f} ms")
    return 0
