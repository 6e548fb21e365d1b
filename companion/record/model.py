"""The values of a match record: its header, its log entries, and the record's errors.

A match is a header plus an append-only log.  Entries are never edited: a correction or an
undo is itself an entry, and the effective action list is rebuilt from the log (see
`companion.record.log`).  These values are shared by the SQLite store, the text notation and
the JSON export, so that all three describe exactly the same thing.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any, Literal, cast

from companion import __version__
from companion.rules.cards import NAMINGS
from companion.rules.edition import EDITION_KEYS, EDITIONS
from companion.rules.errors import CompanionError
from companion.rules.position import SIDES, Side


# -- errors ---------------------------------------------------------------------------------
class RecordError(CompanionError):
    """Anything wrong with a match record or the match database."""


class DatabaseDamagedError(RecordError):
    """The match database file is damaged (truncated, garbled, failing its integrity check).

    The file is never written to or replaced: it is left as found for inspection.
    """


class ForeignDatabaseError(RecordError):
    """The file is not a match database of the companion (another SQLite file, another file)."""


class SchemaVersionError(RecordError):
    """The match database was written by a newer version of the companion."""


class MatchNotFoundError(RecordError, LookupError):
    """No match with that id in the database."""

    def __str__(self) -> str:  # LookupError would otherwise quote the message like a key
        return str(self.args[0]) if self.args else ""


class DuplicateEntryError(RecordError, ValueError):
    """An append that conflicts with an entry already committed (same key or same seq)."""


class EntryError(RecordError, ValueError):
    """An entry that cannot be recorded as given (bad kind, bad player, bad action text)."""


class ReplayError(RecordError):
    """A recorded action that the rules refuse when the match is replayed."""


class ChainError(DatabaseDamagedError):
    """A match whose hash chain breaks: an entry or the header was edited or damaged."""


class StoreBusyError(RecordError):
    """Another process is writing to the match database (one writer at a time)."""


class MatchNotationError(RecordError, ValueError):
    """A match file (text notation or JSON) with errors; the message lists them."""

    def __init__(self, source: str, errors: list[str]) -> None:
        # A hostile file can make a message echo megabytes: each is cut to a readable size.
        flat = [" ".join(e.split()) for e in errors[:5]]  # the report stays on one line
        shown = "; ".join(e if len(e) <= 300 else e[:299] + "…" for e in flat)
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"{source} has {len(errors)} error{'s' if len(errors) != 1 else ''}: "
                         f"{shown}{more}")
        self.errors = list(errors)


# -- header ---------------------------------------------------------------------------------
Timing = Literal["standard", "advanced"]
TIMINGS: tuple[Timing, ...] = ("standard", "advanced")

EntryKind = Literal["action", "pass", "claim", "violation", "correction", "undo", "doubt",
                    "confirm", "round-end", "note"]
KINDS: tuple[EntryKind, ...] = ("action", "pass", "claim", "violation", "correction", "undo",
                                "doubt", "confirm", "round-end", "note")
"""Entry kinds.  `action`, `pass`, accepted `claim` and `correction` carry an action text;
`undo` and `correction` carry the index (0-based, within the round) they rewind to."""

ACTION_KINDS: frozenset[str] = frozenset({"action", "pass", "claim", "correction"})


def today() -> str:
    return _dt.date.today().isoformat()


_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _real_date(text: str) -> bool:
    try:
        _dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _check_text(value: str, what: str) -> None:
    """Refuse text that is not valid Unicode (a lone surrogate from a `\\ud800` escape):
    it could be neither stored, printed nor exported."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise EntryError(f"{what} holds a lone surrogate (\\u{ord(value[_bad_at(value)]):04x}), "
                         "which is not a character") from None


def _bad_at(value: str) -> int:
    return next(i for i, ch in enumerate(value) if 0xD800 <= ord(ch) <= 0xDFFF)


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """Who played, where, when, and under which settings.

    `edition` is the edition played (`battle-line`, `battle-line-medieval`,
    `schotten-totten`: its deck, hand and rules; records made before editions existed read
    as `battle-line`), `naming` the naming set in use, one of that edition's (`gmt-en`,
    `gmt-fr`, `medieval-fr`; `schotten-en`, `schotten-fr`); `timing` is the claim timing (D6); `first` plays first in round 1 (later rounds: the
    previous round's winner).  `calibration` is the calibration id of the rig and
    `calibration_summary` a free JSON-able summary of it; `extra` holds free-form tags.
    """

    north: str = "North"
    south: str = "South"
    date: str = field(default_factory=today)
    place: str = ""
    naming: str = "gmt-en"
    timing: str = "standard"
    rounds: int = 1
    first: Side = "south"
    app_version: str = __version__
    calibration: str = ""
    calibration_summary: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)
    edition: str = "battle-line"

    def __post_init__(self) -> None:
        for name in ("north", "south", "date", "place", "naming", "timing", "app_version",
                     "calibration", "edition"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise EntryError(f"header {name} must be text, not {value!r}")
            if "\n" in value or "\r" in value:
                raise EntryError(f"header {name} must be one line: {value!r}")
        if not _DATE_RE.fullmatch(self.date) or not _real_date(self.date):
            raise EntryError(f"header date {self.date!r} is not a date (YYYY-MM-DD)")
        if self.naming not in NAMINGS:
            raise EntryError(f"unknown naming {self.naming!r}; use one of {', '.join(NAMINGS)}")
        if self.edition not in EDITIONS:
            raise EntryError(f"unknown edition {self.edition!r}; use one of "
                             f"{', '.join(EDITION_KEYS)}")
        if not EDITIONS[self.edition].owns_naming(self.naming):
            rules = EDITIONS[self.edition]
            raise EntryError(f"naming {self.naming!r} is not one of {rules.title}; use "
                             f"{rules.naming('en')} or {rules.naming('fr')}")
        if self.timing not in TIMINGS:
            raise EntryError(f"unknown claim timing {self.timing!r}; use standard or advanced")
        if not isinstance(self.rounds, int) or isinstance(self.rounds, bool) or self.rounds < 1:
            raise EntryError(f"rounds must be a whole number of at least 1, not {self.rounds!r}")
        if self.first not in SIDES:
            raise EntryError(f"first player must be north or south, not {self.first!r}")
        if not isinstance(self.calibration_summary, dict):
            raise EntryError("calibration summary must be a JSON object")
        _check_json(self.calibration_summary, "calibration summary")
        if not isinstance(self.extra, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in self.extra.items()):
            raise EntryError("extra header tags must map text to text")
        for k in self.extra:
            if not k or not all(ch.isalnum() or ch in "-_" for ch in k):
                raise EntryError(f"extra header tag name {k!r} must be letters, digits, - or _")
        for k, v in self.extra.items():
            if "\n" in v or "\r" in v:
                raise EntryError(f"extra header tag {k} must be one line")
        for name in ("north", "south", "place", "app_version", "calibration"):
            _check_text(getattr(self, name), f"header {name}")
        for k, v in self.extra.items():
            _check_text(k + v, f"extra header tag {k!r}")

    def to_json(self) -> dict[str, Any]:
        """The header as JSON; `edition` only when it is not Battle Line, so that a record
        made before editions existed keeps its hash and reads back the same."""
        out: dict[str, Any] = {
            "north": self.north, "south": self.south, "date": self.date, "place": self.place,
            "naming": self.naming, "timing": self.timing, "rounds": self.rounds,
            "first": self.first, "app_version": self.app_version,
            "calibration": self.calibration,
            "calibration_summary": self.calibration_summary, "extra": dict(self.extra),
        }
        if self.edition != "battle-line":
            out["edition"] = self.edition
        return out

    @classmethod
    def from_json(cls, obj: Any) -> MatchHeader:
        if not isinstance(obj, dict):
            raise EntryError("a match header must be a JSON object")
        known = {"north", "south", "date", "place", "naming", "timing", "rounds", "first",
                 "app_version", "calibration", "calibration_summary", "extra", "edition"}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise EntryError(f"unknown header field(s): {', '.join(unknown)}")
        try:
            return cls(**obj)
        except TypeError as exc:
            raise EntryError(f"bad match header: {exc}") from None


# -- entries --------------------------------------------------------------------------------
def now() -> _dt.datetime:
    """The wall-clock time, in UTC, to the millisecond (what the record keeps)."""
    return normalise_time(_dt.datetime.now(_dt.timezone.utc))


def normalise_time(t: _dt.datetime) -> _dt.datetime:
    """UTC and whole milliseconds, so that every export round-trips exactly."""
    if t.tzinfo is None:
        raise EntryError(f"entry time {t.isoformat()} has no time zone")
    t = t.astimezone(_dt.timezone.utc)
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


def format_time(t: _dt.datetime) -> str:
    return t.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + \
        f"{t.microsecond // 1000:03d}Z"


def parse_time(text: str) -> _dt.datetime:
    try:
        t = _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise EntryError(f"{text!r} is not a time (YYYY-MM-DDTHH:MM:SS.mmmZ)") from None
    return normalise_time(t)


@dataclass(frozen=True, slots=True)
class Entry:
    """One committed line of a match log.

    `seq` numbers a match's entries 1, 2, 3 … without gaps, in commit order.  `action` is
    the rules notation of the action (an attempted one for a violation); `index` is the
    0-based action index within the round that a correction replaces or an undo keeps
    (`undo` with index 5 keeps actions 0-4).  `code` is a short stable code (a violation's
    reason, a doubt's place); `message` a sentence for players; `data` any JSON object (a
    claim's verdict, a doubt's reads); `key` the caller's idempotency key, unique per match.
    """

    seq: int
    time: _dt.datetime
    kind: str
    player: Side | None = None
    turn: int | None = None
    index: int | None = None
    action: str | None = None
    code: str | None = None
    message: str | None = None
    data: dict[str, Any] | None = None
    key: str | None = None
    # The link of the hash chain (see `entry_hash`): not part of what the entry says, so
    # two entries that say the same thing compare equal whether or not they carry it.
    hash: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.hash is not None and not (isinstance(self.hash, str)
                                          and _HASH_RE.fullmatch(self.hash)):
            raise EntryError(f"entry hash must be 64 lowercase hex digits, not {self.hash!r}")
        check_entry_fields(self.kind, self.player, self.turn, self.index, self.action,
                           self.code, self.message, self.data, self.key)
        if not isinstance(self.seq, int) or self.seq < 1:
            raise EntryError(f"entry seq must be 1 or more, not {self.seq!r}")

    @property
    def accepted(self) -> bool:
        """For a claim: whether the referee accepted it (its verdict was valid)."""
        return self.kind == "claim" and bool((self.data or {}).get("accepted"))

    def same_content(self, other: Entry) -> bool:
        """Equal apart from seq and time: the test of an idempotent re-append."""
        return (self.kind, self.player, self.turn, self.index, self.action, self.code,
                self.message, self.data, self.key) == (
            other.kind, other.player, other.turn, other.index, other.action, other.code,
            other.message, other.data, other.key)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "time": format_time(self.time),
                               "kind": self.kind}
        for name in ("player", "turn", "index", "action", "code", "message", "data", "key",
                     "hash"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Entry:
        if not isinstance(obj, dict):
            raise EntryError("an entry must be a JSON object")
        known = {"seq", "time", "kind", "player", "turn", "index", "action", "code",
                 "message", "data", "key", "hash"}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise EntryError(f"unknown entry field(s): {', '.join(unknown)}")
        for name in ("seq", "time", "kind"):
            if name not in obj:
                raise EntryError(f"entry without {name}")
        if not isinstance(obj["time"], str):
            raise EntryError(f"entry time must be text, not {obj['time']!r}")
        return cls(seq=obj["seq"], time=parse_time(obj["time"]), kind=obj["kind"],
                   player=obj.get("player"), turn=obj.get("turn"), index=obj.get("index"),
                   action=obj.get("action"), code=obj.get("code"),
                   message=obj.get("message"), data=obj.get("data"), key=obj.get("key"),
                   hash=obj.get("hash"))

    def content(self) -> dict[str, Any]:
        """What the entry says, as the hash chain covers it (its JSON form without the hash)."""
        out = self.to_json()
        out.pop("hash", None)
        return out


# -- the hash chain -------------------------------------------------------------------------
CHAIN_PREFIX = b"battleline-match-chain/1\n"
_HASH_RE = re.compile(r"[0-9a-f]{64}")


def canonical(obj: Any) -> bytes:
    """One byte string per JSON value: sorted keys, no spaces, ASCII (lone surrogates and all
    are escaped, so any value that reads back equal hashes equal)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def header_hash(header: MatchHeader) -> str:
    """The start of a match's hash chain: SHA-256 of its header."""
    return hashlib.sha256(CHAIN_PREFIX + canonical(header.to_json())).hexdigest()


def entry_hash(previous: str, entry: Entry) -> str:
    """The link of `entry`: SHA-256 of the previous link and what the entry says."""
    return hashlib.sha256(previous.encode("ascii") + b"\n" + canonical(entry.content())
                          ).hexdigest()


def chain_hashes(header: MatchHeader, entries: Sequence[Entry]) -> list[str]:
    """The links of a log, entry by entry (computed, whatever the entries carry)."""
    out: list[str] = []
    link = header_hash(header)
    for e in entries:
        link = entry_hash(link, e)
        out.append(link)
    return out


def first_break(header: MatchHeader, entries: Sequence[Entry],
                start: str | None = None) -> str | None:
    """Why the hashes carried by `entries` do not follow from the header and the entries
    (naming the first entry that breaks the chain), or None if they all follow.

    `start` is the header's hash as stored beside it, when there is one.
    """
    link = header_hash(header)
    if start is not None and start != link:
        return "its header does not match the hash stored with it (the header was edited)"
    for e in entries:
        expected = entry_hash(link, e)
        if e.hash != expected:
            if e.hash is None:
                return f"entry {e.seq} carries no hash"
            where = "the header or entry 1" if e.seq == 1 else f"entry {e.seq} or one before it"
            return (f"the hash chain breaks at entry {e.seq}: {where} was edited or damaged "
                    "after it was recorded")
        link = expected
    return None


def _check_json(value: Any, what: str) -> None:
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise EntryError(f"{what} is not JSON-able: {exc}") from None
    except RecursionError:
        raise EntryError(f"{what} is nested too deeply") from None
    _check_text(text, what)


def _optional_int(value: Any, name: str, minimum: int) -> None:
    if value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise EntryError(f"entry {name} must be a whole number of at least {minimum}, "
                         f"not {value!r}")


def _optional_line(value: Any, name: str) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not value.strip():
        raise EntryError(f"entry {name} must be non-empty text, not {value!r}")
    if value != value.strip() or "\n" in value or "\r" in value:
        raise EntryError(f"entry {name} must be one line without surrounding blanks: {value!r}")


def check_entry_fields(kind: Any, player: Any, turn: Any, index: Any, action: Any, code: Any,
                       message: Any, data: Any, key: Any) -> None:
    """Refuse an entry whose fields do not fit its kind; every problem is an `EntryError`."""
    if kind not in KINDS:
        raise EntryError(f"unknown entry kind {kind!r}; use one of {', '.join(KINDS)}")
    if player is not None and player not in SIDES:
        raise EntryError(f"entry player must be north or south, not {player!r}")
    _optional_int(turn, "turn", 0)
    _optional_int(index, "index", 0)
    _optional_line(action, "action")
    _optional_line(code, "code")
    if code is not None and any(ch.isspace() or ch in "{}%" for ch in cast(str, code)):
        raise EntryError(f"entry code must be one word, not {code!r}")
    if action is not None and any(ch in "{}%" for ch in cast(str, action)):
        raise EntryError(f"entry action {action!r} holds a reserved character ({{, }} or %)")
    if message is not None and not isinstance(message, str):
        raise EntryError(f"entry message must be text, not {message!r}")
    for name, text in (("action", action), ("code", code), ("message", message), ("key", key)):
        if isinstance(text, str):
            _check_text(text, f"entry {name}")
    if data is not None:
        if not isinstance(data, dict):
            raise EntryError("entry data must be a JSON object")
        _check_json(data, "entry data")
    if key is not None and (not isinstance(key, str) or not key):
        raise EntryError(f"entry key must be non-empty text, not {key!r}")
    if kind in ("action", "pass", "correction") and action is None:
        raise EntryError(f"a {kind} entry needs its action notation")
    if kind in ("correction", "undo") and index is None:
        raise EntryError(f"a {kind} entry needs the action index it rewinds to")
    if kind == "claim" and (action is None or not isinstance(data, dict)
                            or not isinstance(data.get("accepted"), bool)):
        raise EntryError("a claim entry needs its action notation and data with "
                         "'accepted' (true or false) and the verdict")
    if kind == "violation" and code is None:
        raise EntryError("a violation entry needs its reason code")
    # What each kind may carry, so that the text notation writes every entry exactly.
    allowed = _FIELDS[kind]
    given = {"index": index, "action": action, "code": code}
    for name, value in given.items():
        if value is not None and name not in allowed:
            raise EntryError(f"a {kind} entry carries no {name} (got {value!r})")


_FIELDS: dict[str, frozenset[str]] = {
    "action": frozenset({"action"}),
    "pass": frozenset({"action"}),
    "claim": frozenset({"action", "code"}),
    "violation": frozenset({"action", "code"}),
    "correction": frozenset({"action", "index"}),
    "undo": frozenset({"index"}),
    "doubt": frozenset({"code"}),
    "confirm": frozenset({"code"}),
    "round-end": frozenset(),
    "note": frozenset({"code"}),
}
