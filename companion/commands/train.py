"""`companion train band-model`: collect the zoo's training material and train the band
network the reader ships with (`companion.vision.bandnet`). Needs the `train` extra."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands import seed_range
from companion.errors import CompanionError


def _seeds(text: str) -> range:
    seeds = seed_range(text)
    if seeds.start < 1:
        raise argparse.ArgumentTypeError("seeds run from 1 (seed 0 is the bench's own tables)")
    return seeds


def _families(text: str) -> tuple[str, ...]:
    from companion.synth.zoo import HELD_OUT, TUNING

    names = tuple(n.strip() for n in text.split(",") if n.strip())
    for name in names:
        if name in HELD_OUT:
            raise argparse.ArgumentTypeError(f"{name} is held out: it is never trained on")
        if name not in TUNING:
            raise argparse.ArgumentTypeError(f"{name!r} is no family of the printing zoo "
                                             f"(tuning families: {', '.join(TUNING)})")
    if set(names) >= set(TUNING):
        raise argparse.ArgumentTypeError("leave at least one tuning family to train on")
    return names


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("train", help="train the card-band network (needs the train extra)",
                       description="Collect bands of the printing zoo's tuning families as the "
                       "reader sees them (kept in --data) and train the band network on them.")
    p.add_argument("what", choices=["band-model"], help="what to train")
    p.add_argument("--data", type=Path, required=True,
                   help="folder for the collected material (kept: a second run reuses it)")
    p.add_argument("--seeds", type=_seeds, default=_seeds("1-12"),
                   help="printing seeds to collect tables from (1-12)")
    p.add_argument("--faces-seeds", type=_seeds, default=_seeds("13-40"),
                   help="printing seeds whose enrolled faces alone are used (13-40)")
    p.add_argument("--steps", type=int, default=3000, help="training steps (3000)")
    p.add_argument("--check-seed", type=int, default=0,
                   help="printing seed whose tables are collected (into DATA/check) and never "
                   "trained on: the share of their bands the network names right is logged as "
                   "it trains (0, the bench's own tuning tables; -1: none)")
    p.add_argument("--leave-out", type=_families, default=(),
                   help="comma-separated tuning families to leave out of training, to measure "
                   "how the network reads whole families it never saw: their tables (at "
                   "--seeds and the check seed) become the check (needs --out: such a network "
                   "is a measure, not the package's model)")
    p.add_argument("--jobs", type=int, default=1, help="processes collecting tables (1)")
    p.add_argument("--drawing", choices=["near", "wide"], default="near",
                   help="how far the printings are drawn from their own in training: the "
                   "package's two networks (near: band-embed.onnx; wide: band-embed-wide.onnx)")
    p.add_argument("--out", type=Path, default=None,
                   help="the ONNX file to write (default: the package's own model of that "
                   "--drawing)")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    if args.check_seed in set(args.seeds) | set(args.faces_seeds):
        raise CompanionError(f"check seed {args.check_seed} is also trained on: pick one "
                             "outside --seeds and --faces-seeds")
    if args.leave_out and args.out is None:
        raise CompanionError("a network trained without some families is a measure, not the "
                             "package's model: give --out")
    try:
        import torch  # noqa: F401
    except ImportError:
        raise CompanionError("training needs torch: pip install -e .[train]") from None
    from companion.synth.zoo import TUNING
    from companion.training import bandnet as trainer
    from companion.training import collect
    from companion.vision.bandnet import MODEL_PATHS

    rigs = ("reference", "webcam")
    jobs = max(1, args.jobs)
    trained = tuple(f for f in TUNING if f not in args.leave_out)
    paths = collect.collect_all(args.data, trained, args.seeds, rigs, jobs=jobs)
    paths += collect.collect_faces(args.data, trained, args.faces_seeds)
    # Checked on: the check seed's tables (of the families left out, if any), and every
    # table of the families left out.
    check = [] if args.check_seed < 0 else collect.collect_all(
        args.data / "check", args.leave_out or TUNING,
        range(args.check_seed, args.check_seed + 1), rigs, jobs=jobs)
    if args.leave_out:
        check += collect.collect_all(args.data, args.leave_out, args.seeds, rigs, jobs=jobs)
    out = trainer.train(paths, args.out or MODEL_PATHS[args.drawing], steps=args.steps,
                        check=check, drawing=trainer.DRAWINGS[args.drawing])
    print(f"wrote {out}")
    return 0
