"""`companion bench rules|vision|layout|hands|referee|synth|ui`: speed figures, printed (never timed tests).

Each benchmark is a module `companion.bench.<name>` with `main(argv) -> int`; it prints
its figures and the targets next to them.
"""

from __future__ import annotations

import argparse
import importlib

BENCHMARKS = {
    "rules": "claim checks: median, 99th percentile and worst, and the whole-board question",
    "vision": "frame reading accuracy and speed over the seeded synthetic set",
    "layout": "how true the layout's scale is where the cards lie, against the renderer's camera",
    "hands": "arms over the table found, and flags reported that no arm covers",
    "referee": "stable frame to committed action, with the 18 claimabilities updated",
    "synth": "synthetic renderer: milliseconds to draw a frame",
    "ui": "UI thread stalls while frames stream in, and start-up time",
}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("bench", help="print speed and accuracy figures",
                       description="Print speed and accuracy figures against the targets.")
    p.add_argument("name", choices=sorted(BENCHMARKS),
                   help="; ".join(f"{k}: {v}" for k, v in BENCHMARKS.items()))
    p.add_argument("args", nargs=argparse.REMAINDER, help="options for that benchmark")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    module = importlib.import_module(f"companion.bench.{args.name}")
    return int(module.main(args.args) or 0)
