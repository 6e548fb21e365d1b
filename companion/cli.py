"""The `companion` command: one entry point, a sub-command module per capability.

Each module in `companion.commands` exposes `register(subparsers)`; it must only build its
parser there and import anything heavy inside its handler, so `companion claim` starts fast.
Every expected failure is a `CompanionError` (or an `OSError` on a file): it becomes one line
on stderr and exit status 2, never a traceback.  Logging is configured here and only here.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from companion import __version__
from companion.errors import CompanionError

COMMAND_MODULES = (
    "companion.commands.claim",     # claim           (rules core, contract 1)
    "companion.commands.vision",    # deck, scan, vision   (camera pipeline, contract 2)
    "companion.commands.demo",      # demo            (the main job, contract 3)
    "companion.commands.matches",   # matches         (the match record)
    "companion.commands.run",       # run             (the appliance)
    "companion.commands.bench",     # bench           (printed speed figures)
    "companion.commands.train",     # train           (the band network; needs the train extra)
)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description="A camera referee for Battle Line.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="more logging on stderr (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=(logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)],
        format="%(levelname)s %(name)s: %(message)s",
    )
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(handler(args) or 0)
    except CompanionError as exc:
        sys.stderr.write(f"companion {args.command}: {exc}\n")
        return 2
    except BrokenPipeError:
        # The reader went away (`companion matches show 1 | head`): not an error of ours.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return 0
    except OSError as exc:
        sys.stderr.write(f"companion {args.command}: {exc.strerror or exc}"
                         f"{': ' + str(exc.filename) if exc.filename else ''}\n")
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
