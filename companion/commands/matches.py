"""`companion matches`: list, show, export, import, verify and replay recorded matches.

Every sub-command takes `--db PATH` (default: the data directory's `matches.sqlite`).
Reading commands open the database read-only, so a damaged file is reported, never touched.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.record.store import MatchStore


def register(sub: Any) -> None:
    parser = sub.add_parser("matches", help="list, show, export, import and replay recorded "
                            "matches", description="Recorded matches in the match database.")
    actions = parser.add_subparsers(dest="matches_command", metavar="ACTION",
                                    parser_class=type(parser))
    parser.set_defaults(handler=_usage(parser))

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = actions.add_parser(name, help=help_text,
                                                        description=help_text)
        p.add_argument("--db", type=Path, default=None,
                       help="the match database (default: the data directory's "
                            "matches.sqlite)")
        return p

    p = add("list", "List the recorded matches.")
    p.set_defaults(handler=_list)

    p = add("show", "Show one match: its header, its log in the match notation, its board.")
    p.add_argument("id", type=int, metavar="ID")
    p.set_defaults(handler=_show)

    p = add("export", "Export one match as text notation or JSON (and its frames).")
    p.add_argument("id", type=int, metavar="ID")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--out", type=Path, default=None, help="write here instead of stdout")
    p.add_argument("--frames", type=Path, default=None, metavar="DIR",
                   help="also write the labelled frames (NAME.jpg + NAME.json) into DIR")
    p.set_defaults(handler=_export)

    p = add("import", "Import a match file (text notation or JSON) as a new match.")
    p.add_argument("file", type=Path, metavar="FILE")
    p.set_defaults(handler=_import)

    p = add("verify", "Check that a match (ID in the database, or an exported FILE) was not "
                      "edited: its hash chain, and everything a replay recomputes.")
    p.add_argument("target", metavar="FILE|ID")
    p.set_defaults(handler=_verify)

    p = add("replay", "Replay a match turn by turn with a board after each turn.")
    p.add_argument("id", type=int, metavar="ID")
    p.add_argument("--turn", type=int, default=None, metavar="N",
                   help="show only the board at the end of turn N (0: the empty table)")
    p.add_argument("--round", type=int, default=None, metavar="R",
                   help="the round to replay (default: every round; with --turn, the last)")
    p.set_defaults(handler=_replay)


def _usage(parser: argparse.ArgumentParser) -> Any:
    def handler(args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2
    return handler


def _open(args: argparse.Namespace, readonly: bool = True) -> MatchStore:
    from companion.record.store import MatchStore
    return MatchStore(args.db, readonly=readonly)


def _list(args: argparse.Namespace) -> int:
    from companion.errors import CompanionError
    from companion.record.store import default_path
    from companion.record.summary import duration_text, player_names, summarise

    if args.db is None and not default_path().exists():
        print(f"no matches recorded yet (no database at {default_path()})")
        return 0
    with _open(args) as store:
        infos = store.matches()
        if not infos:
            print("no matches recorded yet")
        for info in infos:
            h = info.header
            try:
                s = summarise(info.id, h, store.entries(info.id))
                res = s.result
                score = f"  score {s.scores[0]}-{s.scores[1]}" if s.scores is not None else \
                    f"  flags {s.flags[0]}-{s.flags[1]}"
                length = f"  {s.moves} moves in {duration_text(s.seconds)}{score}"
                event = f"  event {s.event!r}" if s.event else ""
            except CompanionError:
                res, length, event = "?", "", ""
            place = f"  at {h.place}" if h.place else ""
            from companion.rules.edition import EDITIONS
            edition = EDITIONS[h.edition].title
            north, south = player_names(h)
            print(f"{info.id:>4}  {h.date}  {edition}  {north} (north) v {south} (south)  "
                  f"{info.entries} entries  result {res}{length}{place}{event}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from companion.record.board import render_state
    from companion.record.notation import write_text
    from companion.record.replay import final_state

    with _open(args) as store:
        record = store.record(args.id)
        frames = len(store.frame_seqs(args.id))
    sys.stdout.write(f"; match {args.id} ({len(record.entries)} entries, "
                     f"{frames} frames)\n")
    sys.stdout.write(write_text(record))
    h = record.header
    state = final_state(h, record.entries)
    print()
    print(render_state(state, north=h.north, south=h.south))
    return 0


def _export(args: argparse.Namespace) -> int:
    from companion.record.export import export_frames
    from companion.record.notation import write_json, write_text

    with _open(args) as store:
        record = store.record(args.id)
        text = write_json(record) if args.format == "json" else write_text(record)
        if args.frames is not None:
            done = export_frames(store, args.id, args.frames)
            left = [f"{done.unlabelled} without an observation"] if done.unlabelled else []
            if done.superseded:
                left.append(f"{done.superseded} of actions taken back or corrected")
            sys.stderr.write(f"wrote {len(done.written)} labelled frames to {args.frames}"
                             + (f" ({'; '.join(left)} left out)" if left else "") + "\n")
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


def _read_file(path: Path) -> str:
    """A match file's text; anything that is not a readable UTF-8 regular file is one line."""
    import os
    import stat

    from companion.record.model import RecordError

    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise RecordError(f"{path} is not a regular file (a folder, a pipe or a device)")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file (not UTF-8)") from None


def _import(args: argparse.Namespace) -> int:
    from companion.record.notation import read_match

    text = _read_file(args.file)
    record = read_match(text)
    record.raise_errors(str(args.file))
    chained = bool(record.entries) and all(e.hash is not None for e in record.entries)
    with _open(args, readonly=False) as store:
        match_id = store.import_record(record)
    note = "" if chained or not record.entries else \
        " (the file carried no hash chain: the match is chained from now on)"
    print(f"imported {args.file} as match {match_id}{note}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from companion.record.model import RecordError, chain_hashes, header_hash
    from companion.record.notation import read_match
    from companion.record.replay import audit

    target = str(args.target)
    path = Path(target)
    if target.isdigit() and not path.exists():
        match_id = int(target)
        with _open(args) as store:
            header = store.header(match_id)
            entries = store.entries(match_id)   # the chain is checked as it is read
            chained = store.chained
            where = f"match {match_id} in {store.path}"
        audit(header, entries)
        if not chained:
            raise RecordError(f"{where}: the database predates the hash chain (schema 1); "
                              "it is chained the first time the companion writes to it")
    else:
        record = read_match(_read_file(path))
        record.raise_errors(target)
        header, entries = record.header, list(record.entries)
        if entries and any(e.hash is None for e in entries):
            raise RecordError(f"{target} carries no hash chain (exported before the chain "
                              "existed, or stripped): it cannot show that it was not edited")
        where = target
    links = chain_hashes(header, entries)
    end = links[-1] if links else header_hash(header)
    print(f"{where}: {len(entries)} entries, hash chain intact from the header to the last "
          f"entry, the replay agrees; chain end {end}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from companion.record.board import render_state
    from companion.record.model import RecordError
    from companion.record.replay import iter_states, split_rounds

    with _open(args) as store:
        header = store.header(args.id)
        entries = store.entries(args.id)
    names = {"north": header.north, "south": header.south}
    count = len(split_rounds(entries, header.rounds))
    if args.round is not None and not 1 <= args.round <= count:
        raise RecordError(f"match {args.id} has no round {args.round} "
                          f"(it has {count} round(s))")
    if args.turn is not None:
        number = args.round if args.round is not None else count
        states = list(iter_states(header, entries, round=number))
        if args.turn == 0:
            state = states[0][1]
        else:
            found = [s for e, s in states[1:] if s.turn == args.turn]
            if not found:
                last = states[-1][1].turn if len(states) > 1 else 0
                raise RecordError(f"match {args.id} round {number} has no turn {args.turn} "
                                  f"(its turns are 1 to {last})")
            state = found[-1]
        print(f"match {args.id}, round {number}, end of turn {args.turn}")
        print(render_state(state, **names))
        return 0
    rounds = [args.round] if args.round is not None else list(range(1, count + 1))
    for number in rounds:
        print(f"== match {args.id}, round {number}: {header.north} (north) v "
              f"{header.south} (south)")
        steps = list(iter_states(header, entries, round=number))
        for i, (entry, state) in enumerate(steps[1:], start=1):
            assert entry is not None
            print(f"{state.turn:>3}. {entry.action}" +
                  (f"  ({entry.code})" if entry.kind == "claim" and entry.code else ""))
            nxt = steps[i + 1][1] if i + 1 < len(steps) else None
            if nxt is None or nxt.turn != state.turn:
                print(render_state(state, **names))
                print()
        if len(steps) == 1:
            print(render_state(steps[0][1], **names))
    return 0
