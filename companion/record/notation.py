"""Whole matches as text (a PGN-like notation, docs/match-notation.md) and as JSON.

Writing is strict: every header field and every log entry is written so that reading the
file back gives the same match.  Reading is lenient: problems are collected on
`MatchRecord.errors` (one message per problem, naming its line or entry) and reading goes
on; callers decide whether a record with errors is acceptable (`companion matches import`
refuses it).
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from companion.rules.errors import CompanionError
from companion.rules.position import SIDES, Side

from .model import (
    KINDS,
    Entry,
    EntryError,
    MatchHeader,
    MatchNotationError,
    chain_hashes,
    first_break,
    format_time,
    header_hash,
    parse_time,
)

JSON_FORMAT = "battleline-match/1"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match: header and log, plus the problems met while reading it."""

    header: MatchHeader
    entries: tuple[Entry, ...] = ()
    errors: tuple[str, ...] = field(default=(), compare=False)

    def raise_errors(self, source: str) -> None:
        """`MatchNotationError` listing the errors, if there are any."""
        if self.errors:
            raise MatchNotationError(source, list(self.errors))

    def check(self) -> MatchRecord:
        """This record with the problems a replay finds added to its errors.

        Every round's effective actions must be legal, and a `Result` read from a file must
        agree with the replay.
        """
        from .replay import result, split_rounds, replay
        errors = list(self.errors)
        try:
            parts = split_rounds(self.entries, self.header.rounds)
            if len(parts) > self.header.rounds:
                errors.append(f"the log has {len(parts)} rounds but the header says "
                              f"{self.header.rounds}")
            for r in range(1, len(parts) + 1):
                replay(self.header, self.entries, round=r)
        except CompanionError as exc:
            errors.append(str(exc))
        return replace(self, errors=tuple(errors)) if len(errors) != len(self.errors) else self


# -- text -----------------------------------------------------------------------------------
_TAGS: tuple[tuple[str, str], ...] = (
    ("North", "north"), ("South", "south"), ("Date", "date"), ("Place", "place"),
    ("Edition", "edition"), ("Naming", "naming"), ("Timing", "timing"), ("Rounds", "rounds"), ("First", "first"),
    ("Version", "app_version"), ("Calibration", "calibration"),
    ("CalibrationSummary", "calibration_summary"),
)
_REQUIRED_TAGS = ("North", "South", "Date", "Naming", "Timing", "Rounds", "First", "Version")
_KEYWORD = {"claim": "claim", "violation": "violation", "correction": "correct",
            "undo": "undo", "doubt": "doubt", "confirm": "confirm", "round-end": "round-end",
            "note": "note"}
_KIND_OF = {v: k for k, v in _KEYWORD.items()}


def _escape(text: str, special: str) -> str:
    """Backslash-escape `special` characters, and write control characters and line
    separators (which some readers split lines on) as `\\n`, `\\r` or `\\uXXXX`."""
    out = []
    for ch in text:
        if ch == "\\" or ch in special:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _unescape(text: str) -> str:
    table = {"n": "\n", "r": "\r"}

    def one(m: re.Match[str]) -> str:
        if m.group(1):
            return chr(int(m.group(1), 16))
        return table.get(m.group(2), m.group(2))
    return re.sub(r"\\(?:u([0-9a-fA-F]{4})|(.))", one, text)


def _quote(value: str) -> str:
    return '"' + _escape(value, '"') + '"'


def _comment(text: str) -> str:
    return "{" + _escape(text, "{}") + "}"


def _who(player: Side | None) -> str:
    return player if player is not None else "-"


def _entry_body(e: Entry) -> str:
    """The readable part of an entry line, after its time and turn."""
    if e.kind in ("action", "pass"):
        return str(e.action)
    word = _KEYWORD[e.kind]
    if e.kind == "claim":
        verdict = "accepted" if e.accepted else "refused"
        return f"{word} {e.action} {verdict}" + (f" {e.code}" if e.code else "")
    if e.kind == "violation":
        return f"{word} {_who(e.player)} {e.code}" + (f" {e.action}" if e.action else "")
    if e.kind == "correction":
        return f"{word} #{e.index} {e.action}"
    if e.kind == "undo":
        return f"{word} #{e.index}" + (f" {e.player}" if e.player else "")
    if e.kind == "round-end":
        return f"{word} {_who(e.player)}"
    return f"{word} {_who(e.player)}" + (f" {e.code}" if e.code else "")


def write_text(record: MatchRecord, result: str | None = None) -> str:
    """The text notation of a match.  `result` defaults to the one the replay gives."""
    h = record.header
    if result is None:
        from .replay import result as replay_result
        try:
            result = replay_result(h, record.entries)
        except CompanionError:
            result = "*"
    lines = []
    values = h.to_json()
    for tag, name in _TAGS:
        if name not in values:  # the edition of a Battle Line match: not written (old files)
            continue
        value = values[name]
        if name == "calibration_summary":
            if not value:
                continue
            value = json.dumps(value, sort_keys=True, ensure_ascii=False)
        elif name in ("place", "calibration") and not value:
            continue
        lines.append(f"[{tag} {_quote(str(value))}]")
    for k, v in sorted(h.extra.items()):
        lines.append(f"[X-{k} {_quote(v)}]")
    lines.append(f"[Result {_quote(result)}]")
    chain = _chain_end(record)
    if chain is not None:
        lines.append(f"[Chain {_quote(chain)}]")
    lines.append("")
    last_date: _dt.date | None = None
    round_no = 1
    for e in record.entries:
        stamp = format_time(e.time)
        day = e.time.date()
        time_text = stamp if day != last_date else stamp[11:]
        last_date = day
        turn = f"{e.turn}." if e.turn is not None else ""
        line = f"{time_text:<13} {turn:>4} {_entry_body(e)}"
        if e.message is not None:
            line += " " + _comment(e.message)
        lines.append(line)
        extra: dict[str, Any] = {}
        if e.data is not None:
            data = dict(e.data)
            if e.kind == "claim":
                del data["accepted"]  # said by the word accepted/refused
            if data:
                extra["data"] = data
        if e.key is not None:
            extra["key"] = e.key
        if e.hash is not None:
            extra["hash"] = e.hash
        if extra:
            # The machine part goes on its own line so that the entry line stays readable.
            # ASCII only: no character in it can be taken for a line break.
            lines.append(" " * 19 + "%" + json.dumps(extra, sort_keys=True,
                                                     separators=(",", ":")))
        if e.kind == "round-end":
            round_no += 1
            lines.append(f"; round {round_no}")
    return "\n".join(lines) + "\n"


def _chain_end(record: MatchRecord) -> str | None:
    """The last link of the record's hash chain, when every entry carries its link (the
    header's hash for a match without entries); None for a record without a chain."""
    if not record.entries:
        return header_hash(record.header)
    if any(e.hash is None for e in record.entries):
        return None
    return record.entries[-1].hash


def _check_chain(record: MatchRecord, written: str | None) -> MatchRecord:
    """A record's hash chain checked: all entries carry their link or none does, and the
    links and the final `Chain` follow from the header and the entries."""
    carried = [e for e in record.entries if e.hash is not None]
    problem: str | None = None
    if carried and len(carried) != len(record.entries):
        bare = next(e for e in record.entries if e.hash is None)
        problem = f"entry {bare.seq} carries no hash, though other entries do"
    elif carried:
        problem = first_break(record.header, record.entries)
    if problem is None and written is not None:
        if not _HASH_TEXT.fullmatch(written):
            problem = f"the chain's end {written!r} is not 64 lowercase hex digits"
        elif not carried and record.entries:
            problem = "the file gives the chain's end but its entries carry no hashes"
        else:
            computed = chain_hashes(record.header, record.entries)
            end = computed[-1] if computed else header_hash(record.header)
            if end != written:
                problem = ("the chain's end does not follow from the header and the entries "
                           "(the file was edited after it was exported)")
    if problem is None:
        return record
    return replace(record, errors=record.errors + (problem,))


_HASH_TEXT = re.compile(r"[0-9a-f]{64}")


_TAG_RE = re.compile(r'\[\s*(?P<tag>[A-Za-z][\w-]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]\s*')
_TIME_RE = re.compile(r"(?:(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})T)?"
                      r"(?P<clock>[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?)Z?")


_unquote = _unescape
_uncomment = _unescape


def _split_line(line: str) -> tuple[str, str | None, str | None]:
    """Body tokens, the `{comment}` (unescaped) and the `%json` text of an entry line."""
    i = 0
    n = len(line)
    while i < n and line[i] not in "{%":
        i += 1
    body = line[:i].strip()
    comment: str | None = None
    if i < n and line[i] == "{":
        j = i + 1
        while j < n and line[j] != "}":
            j += 2 if line[j] == "\\" else 1
        if j >= n:
            raise EntryError("a comment '{' is not closed by '}'")
        comment = _uncomment(line[i + 1:j])
        i = j + 1
        while i < n and line[i] == " ":
            i += 1
    data: str | None = None
    if i < n:
        if line[i] != "%":
            raise EntryError(f"unexpected text after the comment: {line[i:]!r}")
        data = line[i + 1:].strip()
    return body, comment, data


def _player(token: str) -> Side | None:
    if token == "-":
        return None
    for side in SIDES:
        if token == side:
            return side
    raise EntryError(f"{token!r} is not a player (north, south or -)")


def _index(token: str) -> int:
    if not re.fullmatch(r"#[0-9]{1,9}", token):
        raise EntryError(f"{token!r} is not an action index (#N)")
    return int(token[1:])


def _parse_entry(line: str, seq: int, last_date: _dt.date | None,
                 continuation: str | None = None) -> Entry:
    body, comment, data_text = _split_line(line)
    if continuation is not None:
        if data_text is not None:
            raise EntryError("an entry has %data both on its line and on the next")
        data_text = continuation
    tokens = body.split()
    if not tokens:
        raise EntryError("an entry line needs a time")
    m = _TIME_RE.fullmatch(tokens[0])
    if m is None:
        raise EntryError(f"{tokens[0]!r} is not a time (HH:MM:SS.mmm, or with its date)")
    if m.group("date"):
        time = parse_time(tokens[0] if tokens[0].endswith("Z") else tokens[0] + "Z")
    elif last_date is None:
        raise EntryError("the first entry's time must carry its date (YYYY-MM-DDTHH:MM:SS)")
    else:
        time = parse_time(f"{last_date.isoformat()}T{m.group('clock')}Z")
    tokens = tokens[1:]
    turn: int | None = None
    if tokens and re.fullmatch(r"[0-9]{1,9}\.", tokens[0]):
        turn = int(tokens[0][:-1])
        tokens = tokens[1:]
    if not tokens:
        raise EntryError("an entry line needs an action or an entry kind after its time")
    extra: dict[str, Any] = {}
    if data_text is not None:
        extra = _loads(data_text, "the %data")
        if not isinstance(extra, dict) or not set(extra) <= {"data", "key", "hash"}:
            raise EntryError("the %data must be a JSON object with 'data', 'key' and/or "
                             "'hash'")
    fields: dict[str, Any] = {"player": None, "index": None, "action": None, "code": None}
    word, rest = tokens[0], tokens[1:]
    kind = _KIND_OF.get(word)

    def need(count: int, shape: str) -> None:
        if len(rest) < count:
            raise EntryError(f"{word} needs {shape}")

    if kind is None:
        from .replay import parse_action
        action = parse_action(" ".join(tokens))
        kind = "pass" if type(action).__name__ == "Pass" else "action"
        if type(action).__name__ == "Claim":
            raise EntryError(f"{' '.join(tokens)!r}: a claim is written "
                             "'claim ACTION accepted|refused'")
        fields.update(player=action.player, action=str(action))
    elif kind == "claim":
        verdicts = [i for i, t in enumerate(rest) if t in ("accepted", "refused")]
        if not verdicts:
            raise EntryError("claim needs 'accepted' or 'refused' after the action")
        v = verdicts[-1]
        if len(rest) > v + 2:
            raise EntryError(f"unexpected text after the claim's reason: {' '.join(rest[v+2:])!r}")
        from .replay import parse_action
        action = parse_action(" ".join(rest[:v]))
        fields.update(player=action.player, action=str(action),
                      code=rest[v + 1] if len(rest) > v + 1 else None)
        payload = extra.get("data", {})
        if not isinstance(payload, dict) or "accepted" in payload:
            raise EntryError("a claim's %data is a JSON object with the verdict; "
                             "'accepted' or 'refused' is said on the claim's line")
        extra["data"] = {"accepted": rest[v] == "accepted", **payload}
    elif kind == "violation":
        need(2, "a player (or -) and a reason code")
        fields.update(player=_player(rest[0]), code=rest[1],
                      action=" ".join(rest[2:]) or None)
    elif kind == "correction":
        need(2, "#INDEX and the corrected action")
        from .replay import parse_action
        action = parse_action(" ".join(rest[1:]))
        fields.update(index=_index(rest[0]), player=action.player, action=str(action))
    elif kind == "undo":
        need(1, "#INDEX")
        if len(rest) > 2:
            raise EntryError(f"unexpected text after undo: {' '.join(rest[2:])!r}")
        fields.update(index=_index(rest[0]),
                      player=_player(rest[1]) if len(rest) > 1 else None)
    elif kind == "round-end":
        need(1, "the round's winner (or -)")
        if len(rest) > 1:
            raise EntryError(f"unexpected text after round-end: {' '.join(rest[1:])!r}")
        fields.update(player=_player(rest[0]))
    else:
        need(1, "a player (or -)")
        if len(rest) > 2:
            raise EntryError(f"unexpected text after {word}: {' '.join(rest[2:])!r}")
        fields.update(player=_player(rest[0]), code=rest[1] if len(rest) > 1 else None)
    return Entry(seq=seq, time=time, kind=kind, turn=turn, message=comment,
                 data=extra.get("data"), key=extra.get("key"), hash=extra.get("hash"),
                 **fields)


def read_text(text: str) -> MatchRecord:
    """Read the text notation leniently: problems go to `errors`, reading goes on."""
    errors: list[str] = []
    tags: dict[str, str] = {}
    entries: list[Entry] = []
    keys: set[str] = set()
    last_date: _dt.date | None = None
    in_header = True
    # Lines end at "\n" only (with an optional "\r"), never at other Unicode separators.
    lines = [(n, raw.strip(" \t\r")) for n, raw in enumerate(text.split("\n"), start=1)]
    lines = [(n, line) for n, line in lines if line and not line.startswith(";")]
    for i, (number, line) in enumerate(lines):
        if line.startswith("%"):
            if i == 0 or lines[i - 1][1].startswith(("[", "%")):
                errors.append(f"line {number}: a %data line must follow an entry line")
            continue
        continuation = None
        if i + 1 < len(lines) and lines[i + 1][1].startswith("%"):
            continuation = lines[i + 1][1][1:].strip()
        if line.startswith("["):
            if not in_header:
                errors.append(f"line {number}: a header tag after the first entry")
                continue
            m = _TAG_RE.fullmatch(line)
            if m is None:
                errors.append(f"line {number}: {line!r} is not a header tag [Name \"value\"]")
                continue
            tag = m.group("tag")
            if tag in tags:
                errors.append(f"line {number}: tag [{tag}] given twice")
                continue
            tags[tag] = _unquote(m.group("value"))
            continue
        in_header = False
        try:
            entry = _parse_entry(line, len(entries) + 1, last_date, continuation)
        except (CompanionError, ValueError, RecursionError) as exc:
            errors.append(f"line {number}: {_one_line(exc)}")
            continue
        try:
            _check_action_kind(entry)
        except CompanionError as exc:
            errors.append(f"line {number}: {exc}")
            continue
        if entry.key is not None:
            if entry.key in keys:
                errors.append(f"line {number}: key {entry.key!r} is used twice")
                continue
            keys.add(entry.key)
        last_date = entry.time.date()
        entries.append(entry)
    header = _header_from_tags(tags, errors)
    record = MatchRecord(header=header, entries=tuple(entries), errors=tuple(errors))
    return _check_result(record, tags.get("Result"), tags.get("Chain"))


def _header_from_tags(tags: dict[str, str], errors: list[str]) -> MatchHeader:
    by_tag = dict(_TAGS)
    values: dict[str, Any] = {}
    extra: dict[str, str] = {}
    for tag, value in tags.items():
        if tag in ("Result", "Chain"):
            continue
        if tag.startswith("X-"):
            extra[tag[2:]] = value
            continue
        name = by_tag.get(tag)
        if name is None:
            errors.append(f"unknown header tag [{tag}] (free-form tags start with X-)")
            continue
        if name == "rounds":
            if not re.fullmatch(r"[0-9]{1,6}", value):
                errors.append(f"[Rounds {_quote(value)}] is not a number")
                continue
            values[name] = int(value)
        elif name == "calibration_summary":
            try:
                values[name] = _loads(value, "[CalibrationSummary]")
            except EntryError as exc:
                errors.append(str(exc))
        else:
            values[name] = value
    for tag in _REQUIRED_TAGS:
        if tag not in tags:
            errors.append(f"the header lacks the [{tag}] tag")
    values["extra"] = extra
    try:
        return MatchHeader(**values)
    except CompanionError as exc:
        errors.append(f"header: {exc}")
    # Keep going with what can be kept, so that later problems are reported too.
    safe: dict[str, Any] = {k: v for k, v in values.items()
                            if k in ("north", "south", "date", "place")
                            and isinstance(v, str) and "\n" not in v}
    try:
        return MatchHeader(**safe)
    except CompanionError:
        return MatchHeader()


def _check_result(record: MatchRecord, written: str | None,
                  chain: str | None = None) -> MatchRecord:
    """A record read without errors checked as a whole: its hash chain first (the sign of
    an edit), then everything the replay recomputes, then the written `Result`."""
    if record.errors:
        return record
    chained = _check_chain(record, chain)
    checked = _check_replay(record, written)
    return replace(checked, errors=chained.errors + checked.errors)


def _check_replay(record: MatchRecord, written: str | None) -> MatchRecord:
    record = record.check()
    if record.errors:
        return record
    from .replay import audit, result
    try:
        audit(record.header, record.entries)
    except CompanionError as exc:
        return replace(record, errors=(str(exc),))
    if written is None:
        return record
    actual = result(record.header, record.entries)
    if written != actual:
        return replace(record, errors=record.errors + (
            f"[Result {_quote(written)}] disagrees with the replayed match ({actual})",))
    return record


def _loads(text: str, what: str) -> Any:
    """JSON text read back, every failure one `EntryError` naming `what`: bad syntax, but
    also nesting too deep for the parser and integers too long to convert."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise EntryError(f"{what} is not valid JSON ({exc.msg} at character {exc.pos})") \
            from None
    except RecursionError:
        raise EntryError(f"{what} is nested too deeply") from None
    except ValueError as exc:
        raise EntryError(f"{what} is not usable JSON ({_one_line(exc)})") from None


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


# -- JSON -----------------------------------------------------------------------------------
def to_json(record: MatchRecord, result: str | None = None) -> dict[str, Any]:
    """The `battleline-match/1` JSON object of a match."""
    if result is None:
        from .replay import result as replay_result
        try:
            result = replay_result(record.header, record.entries)
        except CompanionError:
            result = "*"
    out = {"format": JSON_FORMAT, "header": record.header.to_json(),
           "entries": [e.to_json() for e in record.entries], "result": result}
    chain = _chain_end(record)
    if chain is not None:
        out["chain"] = chain
    return out


def write_json(record: MatchRecord, result: str | None = None) -> str:
    return json.dumps(to_json(record, result), indent=1, ensure_ascii=False) + "\n"


def read_json(text: str) -> MatchRecord:
    """Read a `battleline-match/1` document leniently (problems go to `errors`)."""
    errors: list[str] = []
    try:
        obj = _loads(text, "the file")
    except EntryError as exc:
        return MatchRecord(MatchHeader(), (), (str(exc),))
    if not isinstance(obj, dict):
        return MatchRecord(MatchHeader(), (), ("a match document must be a JSON object",))
    if obj.get("format") != JSON_FORMAT:
        errors.append(f"unknown format {obj.get('format')!r}; expected {JSON_FORMAT!r}")
    unknown = sorted(set(obj) - {"format", "header", "entries", "result", "chain"})
    if unknown:
        errors.append(f"unknown field(s): {', '.join(unknown)}")
    try:
        header = MatchHeader.from_json(obj.get("header"))
    except CompanionError as exc:
        errors.append(f"header: {exc}")
        header = MatchHeader()
    items = obj.get("entries")
    entries: list[Entry] = []
    keys: set[str] = set()
    if not isinstance(items, list):
        errors.append("'entries' must be a list")
        items = []
    for n, item in enumerate(items, start=1):
        try:
            entry = Entry.from_json(item)
            if entry.seq != len(entries) + 1:
                raise EntryError(f"seq {entry.seq} where {len(entries) + 1} was expected")
            _check_action_kind(entry)
        except (CompanionError, ValueError, RecursionError) as exc:
            errors.append(f"entry {n}: {_one_line(exc)}")
            continue
        if entry.key is not None:
            if entry.key in keys:
                errors.append(f"entry {n}: key {entry.key!r} is used twice")
                continue
            keys.add(entry.key)
        entries.append(entry)
    written = obj.get("result")
    if written is not None and not isinstance(written, str):
        errors.append("'result' must be text")
        written = None
    chain = obj.get("chain")
    if chain is not None and not isinstance(chain, str):
        errors.append("'chain' must be text")
        chain = None
    return _check_result(MatchRecord(header, tuple(entries), tuple(errors)), written, chain)


def _check_action_kind(e: Entry) -> None:
    """An entry's action must be one the rules read, and fit its kind."""
    if e.action is None or e.kind not in ("action", "pass", "claim", "correction"):
        return
    from .replay import parse_action
    action = parse_action(e.action)
    name = type(action).__name__
    if str(action) != e.action:
        raise EntryError(f"action {e.action!r} is not in its written form {str(action)!r}")
    if e.player != action.player:
        raise EntryError(f"{e.kind} by {e.player} holds {action.player}'s action {e.action!r}")
    if (e.kind == "pass" and name != "Pass") or (e.kind == "claim") != (name == "Claim"):
        raise EntryError(f"a {e.kind} entry cannot hold {e.action!r}")


def read_match(text: str) -> MatchRecord:
    """Read either form: JSON if the text starts with `{`, the text notation otherwise."""
    return read_json(text) if text.lstrip().startswith("{") else read_text(text)


__all__ = ["JSON_FORMAT", "KINDS", "MatchRecord", "read_json", "read_match", "read_text",
           "to_json", "write_json", "write_text"]
