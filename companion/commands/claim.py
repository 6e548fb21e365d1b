"""`companion claim`: prove a flag claim on a position (contract 1), one or a batch of JSON Lines."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from companion.errors import CompanionError

LANGS = ("en", "fr")
NAMINGS = ("gmt-en", "gmt-fr", "medieval-fr", "schotten-en", "schotten-fr")


class ClaimUsageError(CompanionError, ValueError):
    """Arguments of `companion claim` that do not fit together."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "claim", help="prove a flag claim on a position",
        description="Say whether a player may claim a flag, with the proof, as a contract 1 "
                    "verdict (JSON). With --batch, read JSON Lines of "
                    '{"position": ..., "flag": N, "player": "north"} and print one verdict per line.')
    p.add_argument("position", nargs="?", metavar="POSITION.json",
                   help="a battleline-position/1 file ('-' for stdin); its \"edition\" "
                        "(battle-line by default, schotten-totten) gives the deck and rules")
    p.add_argument("--flag", type=int, metavar="N", help="the flag, 1 to 9")
    p.add_argument("--player", choices=("north", "south"), help="the claimant")
    p.add_argument("--batch", metavar="FILE", help="JSON Lines of claims ('-' for stdin)")
    p.add_argument("--lang", choices=LANGS, default="en", help="language of the proof (default en)")
    p.add_argument("--naming", choices=NAMINGS, default=None,
                   help="card and formation names of the proof (default: the names of the "
                        "position's edition in --lang: GMT's for Battle Line, IELLO's for "
                        "Schotten Totten)")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.position is not None or args.flag is not None or args.player is not None:
            raise ClaimUsageError("--batch takes its flags and players from the file: "
                                  "give no POSITION.json, --flag or --player with it")
        return _batch(args.batch, args.lang, args.naming)
    if args.position is None:
        raise ClaimUsageError("give POSITION.json with --flag and --player, or --batch FILE")
    if args.flag is None or args.player is None:
        raise ClaimUsageError("a claim needs both --flag N and --player north|south")
    from companion.rules.position import Position, load_json
    from companion.rules.prover import prove

    if not 1 <= args.flag <= 9:
        raise ClaimUsageError(f"there is no flag {args.flag}: flags are numbered 1 to 9")
    text = _read_text(args.position)
    try:
        obj = load_json(text)
        position = Position.from_json(obj)
    except CompanionError as exc:
        source = "standard input" if args.position == "-" else args.position
        raise type(exc)(f"{source}: {exc}") from None
    verdict = prove(position, args.flag, args.player)
    out = verdict.to_json(args.lang, args.naming)
    if "edition" in obj:
        out["edition"] = obj["edition"]  # contract 1: verdicts echo the edition when given
    _emit(sys.stdout, out)
    return 0


def _read_text(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ClaimUsageError(f"{path}: not a UTF-8 text file") from None


def _emit(out: IO[str], obj: dict[str, Any]) -> None:
    # Error lines are plain ASCII: a message quoting hostile input can never fail to print.
    out.write(json.dumps(obj, ensure_ascii="error" in obj) + "\n")
    out.flush()  # a caller reading the batch line by line gets each verdict at once


def _batch(path: str, lang: str, naming: str | None) -> int:
    from companion.rules.prover import prove

    stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    try:
        for number, raw in enumerate(stream, start=1):
            if not raw.strip():
                continue
            try:
                claim, position = _parse_line(raw, number)
                verdict = prove(position, claim["flag"], claim["player"])
                out = verdict.to_json(lang, naming)
                if "edition" in claim["position"]:
                    out["edition"] = claim["position"]["edition"]  # contract 1: echoed when given
                _emit(sys.stdout, out)
            except CompanionError as exc:
                msg = str(exc)
                _emit(sys.stdout, {"error": msg if msg.startswith("line ") else f"line {number}: {msg}"})
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    return 0


_CLAIM_KEYS = ("position", "flag", "player")


def _parse_line(raw: bytes, number: int) -> tuple[dict[str, Any], Any]:
    """One batch line: the claim object and its position, or a one-line `CompanionError`."""
    from companion.rules.position import Position, describe, load_json

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ClaimUsageError(f"line {number}: not UTF-8 text") from None
    obj = load_json(text)
    if not isinstance(obj, dict):
        raise ClaimUsageError(f"line {number}: expected an object with position, flag and player")
    unknown = [k for k in obj if k not in _CLAIM_KEYS]
    if unknown:
        raise ClaimUsageError(f"line {number}: unknown key {describe(unknown[0])}: "
                              f"expected {', '.join(_CLAIM_KEYS)}")
    missing = [k for k in _CLAIM_KEYS if k not in obj]
    if missing:
        raise ClaimUsageError(f"line {number}: missing {', '.join(missing)}")
    return obj, Position.from_json(obj["position"])
