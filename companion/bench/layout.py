"""`companion bench layout`: how true the layout's scale is where the cards lie.

Every strip is cut at the scale the layout measures on the flag tiles (`layout.Pose`,
its scale field). A scale 10 % off shows a card 10 % long, and the reader's templates are
tried only a few per cent either way (`reading.scales`). Over seeded synthetic frames (the
vision bench's faults: tilt, turn, lens, blur, noise; tiles printed at 95-100 % with the
varied set-up), this compares the layout's scale 60, 120 and 200 mm from each flag's tile,
on both sides, with the renderer's own camera (`render(..., table_map=...)`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import cv2
import numpy as np

from companion.synth import RIGS, Degrade, Setup, render
from companion.synth.dataset import random_scene
from companion.synth.zoo import FAMILIES
from companion.vision.errors import VisionError
from companion.vision.layout import acquire
from companion.vision.scale import ScaleNormaliser

DISTANCES_MM = (60.0, 120.0, 200.0)


def true_scale(table_map: np.ndarray, fx: float, fy: float, p: tuple[float, float]) -> float:
    """The camera's px per mm of table at pixel `p` of a frame resized by (fx, fy)."""
    inv = np.linalg.inv(table_map)
    at = cv2.perspectiveTransform(np.array([[[p[0] / fx, p[1] / fy]]]), inv)[0, 0]
    e = 0.5
    pts = cv2.perspectiveTransform(np.array([[at, at + (e, 0.0), at + (0.0, e)]]),
                                   table_map)[0]
    jac = np.column_stack([(pts[1] - pts[0]) / e, (pts[2] - pts[0]) / e]) * [[fx], [fy]]
    return float(np.sqrt(abs(np.linalg.det(jac))))


def errors(rig: str, frames: int, seed: int, varied: bool) -> dict[float, list[float]]:
    """The layout's scale over the true one, less 1, at each distance from the tiles."""
    rng = np.random.default_rng([seed, 0x1A70])
    printing = FAMILIES["classic"](seed)
    out: dict[float, list[float]] = {d: [] for d in DISTANCES_MM}
    for _ in range(frames):
        scene = random_scene(rng, hand=False)
        degrade = Degrade.random(rng, hand=False)
        truth: list[np.ndarray] = []
        frame = render(scene, printing, int(rng.integers(1 << 30)), degrade, rig=RIGS[rig],
                       setup=Setup.varied() if varied else Setup(), table_map=truth)
        read = ScaleNormaliser()(frame)
        fx, fy = read.shape[1] / frame.shape[1], read.shape[0] / frame.shape[0]
        try:
            layout = acquire(read, allow_missing=True)
        except VisionError:
            continue
        for tile in layout.tiles:
            for sign in (-1.0, 1.0):
                for d in DISTANCES_MM:
                    p = layout.point(tile.anchor, 0.0, sign * d)
                    if 0 <= p[0] < read.shape[1] and 0 <= p[1] < read.shape[0]:
                        out[d].append(layout.pose.scale_at(p)
                                      / true_scale(truth[0], fx, fy, p) - 1.0)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion bench layout",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=16, help="frames per rig (default 16)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--standard", action="store_true",
                        help="tiles printed at full size (the standard set-up)")
    args = parser.parse_args(argv)
    print(f"companion bench layout: {args.frames} frames per rig, seed {args.seed}, "
          f"{'standard' if args.standard else 'varied'} set-up; the layout's scale against "
          "the camera's, where the cards lie (the templates are tried within +-4 %)")
    for rig in ("reference", "webcam"):
        errs = errors(rig, args.frames, args.seed, not args.standard)
        for d in DISTANCES_MM:
            e = np.abs(np.array(errs[d]))
            if not len(e):
                print(f"  {rig:9s} {d:5.0f} mm from the tiles: no layout")
                continue
            print(f"  {rig:9s} {d:5.0f} mm from the tiles: error mean {100 * e.mean():4.1f} %,"
                  f" p90 {100 * np.percentile(e, 90):4.1f} %, worst {100 * e.max():4.1f} %"
                  f"  (signed mean {100 * float(np.mean(errs[d])):+.1f} %, {len(e)} places)")
    return 0
