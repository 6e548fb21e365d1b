"""Maintainers' tool: `python -m companion.vision.synth bench|frames|deck ...`.

`bench` prints render times per frame; `frames DIR` writes a labelled frame set; `deck DIR`
writes one printing's card images for `companion deck enrol`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.errors import CompanionError
from companion.vision.synth.dataset import bench, write_dataset
from companion.vision.synth.faces import PRINTINGS, Printing, random_printing, write_deck_images


def _printing(name: str) -> Printing:
    if name in PRINTINGS:
        return PRINTINGS[name]
    if name.startswith("random-") and name[7:].isdigit():
        return random_printing(int(name[7:]))
    raise CompanionError(f"unknown printing {name!r}: use {', '.join(PRINTINGS)} or random-N")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bench", help="render times per frame (median, ms)")
    b.add_argument("--frames", type=int, default=20)
    f = sub.add_parser("frames", help="write labelled frames (PNG + contract 2 JSON)")
    f.add_argument("directory", type=Path)
    f.add_argument("--count", type=int, default=50)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--clean", action="store_true", help="no camera faults")
    f.add_argument("--hands", type=float, default=0.1, help="share of frames with an arm")
    f.add_argument("--printing", action="append", default=None,
                   help="classic, bold or random-N (repeatable; default: a mix)")
    d = sub.add_parser("deck", help="card images of one printing, named by code")
    d.add_argument("directory", type=Path)
    d.add_argument("--printing", default="classic")
    args = parser.parse_args(argv)
    try:
        if args.command == "bench":
            print(f"{'median per frame':32s} {'wall':>9s} {'CPU':>9s}")
            for name, (wall, cpu) in bench(args.frames).items():
                print(f"{name:32s} {wall:6.1f} ms {cpu:6.1f} ms")
        elif args.command == "frames":
            printings = tuple(_printing(p) for p in args.printing) if args.printing else None
            items = write_dataset(args.directory, args.count, args.seed, printings,
                                  degrade=not args.clean, hands=args.hands)
            print(f"{len(items)} frames written to {args.directory}")
        else:
            paths = write_deck_images(_printing(args.printing), args.directory)
            print(f"{len(paths)} card images written to {args.directory}")
    except CompanionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
