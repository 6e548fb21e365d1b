"""`companion demo`: the whole pipeline, headless, on a seeded synthetic game (contract 3)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "demo", help="bots play, the camera is drawn, the referee rules and records",
        description="Two seeded bots play a full game with Tactics; each moment is drawn as the "
                    "overhead camera sees it and read by the real vision pipeline; the referee "
                    "checks it and the match is recorded.  Ends with the agreement between the "
                    "record and the game played (exit status 1 if it is not 100%).  With a "
                    "database that holds this seed's unfinished match, the match is resumed.")
    p.add_argument("--seed", type=int, default=1, help="which game (default 1)")
    p.add_argument("--db", type=Path, default=None,
                   help="match database (default: matches.sqlite in the data directory)")
    p.add_argument("--frames", type=Path, default=None, metavar="DIR",
                   help="save every drawn frame as a JPEG in DIR")
    p.add_argument("--no-vision", dest="vision", action="store_false",
                   help="fast mode: skip drawing and reading, feed the ground truth")
    p.add_argument("--actions", type=int, default=None, metavar="N",
                   help="stop after the first N actions of the game (a short demo)")
    p.add_argument("--record-frames", action="store_true",
                   help="save in the match record, with each committed action, the frame that "
                        "showed it, labelled with the confirmed table (export them with "
                        "`companion matches export ID --frames DIR`)")
    p.add_argument("--edition", default="battle-line",
                   choices=("battle-line", "battle-line-medieval", "schotten-totten"),
                   help="which game: its deck, hand, names and rules (default battle-line)")
    p.add_argument("--printing", default=None,
                   help="which printing of the deck to draw: classic (the default), bold, "
                        "random-N, or a family of the printing zoo as FAMILY or FAMILY-N "
                        "(e.g. corner-pip-3); for Schotten Totten schotten-clan (the default) "
                        "or schotten-banner")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from companion.appliance.demo import DemoOptions, main
    return main(DemoOptions(seed=args.seed, db=args.db, frames=args.frames, vision=args.vision,
                            printing=args.printing, actions=args.actions,
                            record_frames=args.record_frames, edition=args.edition))
