"""The command line's subcommands (`companion.cli`), and what several of them share."""

from __future__ import annotations

import argparse


def seed_range(text: str) -> range:
    """Printing seeds given as `3-5` or `7` (an argparse `type`): a malformed or backward
    range is refused with a message saying what is wanted."""
    try:
        lo, _, hi = text.partition("-")
        first, last = int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed range like 1-12") from None
    if first < 0 or last < first:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed range like 1-12")
    return range(first, last + 1)
