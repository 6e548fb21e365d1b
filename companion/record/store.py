"""The match database: SQLite in the data directory, one append-only log per match.

Written so that a power cut loses nothing that was committed: WAL journal with
`synchronous=FULL` (each commit is on disk when `append` returns), one transaction per
append, a schema version in `PRAGMA user_version` and an application id in
`PRAGMA application_id`.  An existing file is inspected read-only before anything writes to
it; a damaged or foreign file is reported and never written to, replaced or recreated.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from companion.paths import data_dir
from companion.rules.position import SIDES, Side

from .model import (
    DatabaseDamagedError,
    DuplicateEntryError,
    Entry,
    EntryError,
    ForeignDatabaseError,
    MatchHeader,
    MatchNotFoundError,
    RecordError,
    SchemaVersionError,
    check_entry_fields,
    format_time,
    normalise_time,
    now,
    parse_time,
)

if TYPE_CHECKING:
    from companion.rules.actions import Action
    from companion.rules.state import GameState

    from .notation import MatchRecord

log = logging.getLogger(__name__)

DB_NAME = "matches.sqlite"
SCHEMA_VERSION = 1
APPLICATION_ID = 0x424C4331  # "BLC1": tells our databases from any other SQLite file
SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    north TEXT NOT NULL,
    south TEXT NOT NULL,
    date TEXT NOT NULL,
    place TEXT NOT NULL,
    naming TEXT NOT NULL,
    timing TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    first TEXT NOT NULL CHECK (first IN ('north', 'south')),
    app_version TEXT NOT NULL,
    calibration TEXT NOT NULL,
    calibration_summary TEXT NOT NULL,
    extra TEXT NOT NULL
);
CREATE TABLE entries (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    time TEXT NOT NULL,
    kind TEXT NOT NULL,
    player TEXT CHECK (player IN ('north', 'south')),
    turn INTEGER,
    idx INTEGER,
    action TEXT,
    code TEXT,
    message TEXT,
    data TEXT,
    key TEXT,
    PRIMARY KEY (match_id, seq),
    UNIQUE (match_id, key)
);
CREATE TABLE frames (
    match_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    observation TEXT,
    PRIMARY KEY (match_id, seq),
    FOREIGN KEY (match_id, seq) REFERENCES entries(match_id, seq)
);
-- Sequence numbers have no gaps and follow commit order, whoever writes.
CREATE TRIGGER entries_seq_next BEFORE INSERT ON entries
WHEN NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE match_id = NEW.match_id)
BEGIN SELECT RAISE(ABORT, 'entry seq is not the next one of its match'); END;
-- The log is append-only: corrections and undos are entries, never edits.
CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;
CREATE TRIGGER frames_no_update BEFORE UPDATE ON frames
BEGIN SELECT RAISE(ABORT, 'recorded frames are append-only'); END;
CREATE TRIGGER frames_no_delete BEFORE DELETE ON frames
BEGIN SELECT RAISE(ABORT, 'recorded frames are append-only'); END;
CREATE TRIGGER matches_no_update BEFORE UPDATE ON matches
BEGIN SELECT RAISE(ABORT, 'match headers are append-only'); END;
CREATE TRIGGER matches_no_delete BEFORE DELETE ON matches
BEGIN SELECT RAISE(ABORT, 'match headers are append-only'); END;
"""

_EXPECTED_COLUMNS = {
    "matches": {"id", "created", "north", "south", "date", "place", "naming", "timing",
                "rounds", "first", "app_version", "calibration", "calibration_summary",
                "extra"},
    "entries": {"match_id", "seq", "time", "kind", "player", "turn", "idx", "action", "code",
                "message", "data", "key"},
    "frames": {"match_id", "seq", "jpeg", "observation"},
}

_ENTRY_COLUMNS = "seq, time, kind, player, turn, idx, action, code, message, data, key"


def default_path() -> Path:
    """The match database of this device: `data_dir() / "matches.sqlite"`."""
    return data_dir() / DB_NAME


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """One line of the match list: id, header, when it was created, size of its log."""

    id: int
    header: MatchHeader
    created: _dt.datetime
    entries: int
    last_time: _dt.datetime | None


@dataclass(frozen=True, slots=True)
class RecordedFrame:
    """The camera frame saved with an entry: JPEG bytes and the observation read from it."""

    seq: int
    jpeg: bytes
    observation: dict[str, Any] | None


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _loads_object(text: str | None, what: str) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        raise DatabaseDamagedError(f"{what} is not valid JSON") from None
    if not isinstance(obj, dict):
        raise DatabaseDamagedError(f"{what} is not a JSON object")
    return obj


def _check_jpeg(jpeg: bytes) -> None:
    if not isinstance(jpeg, (bytes, bytearray)) or not jpeg.startswith(b"\xff\xd8"):
        raise EntryError("a frame must be JPEG bytes (starting with FF D8)")


def inspect_file(path: Path) -> None:
    """Check, read-only, that `path` is a sound match database; raise a `RecordError` if not.

    Never writes to the file: a damaged or foreign file stays byte-identical.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except IsADirectoryError:
        raise ForeignDatabaseError(f"{path} is a directory, not a match database") from None
    if not head:
        raise DatabaseDamagedError(f"match database {path} is an empty file; "
                                   "it is left as it is")
    if not head.startswith(SQLITE_MAGIC):
        raise ForeignDatabaseError(
            f"{path} is not a match database (not an SQLite file, or its header is damaged); "
            "it is left as it is")
    if len(head) < 100:
        raise DatabaseDamagedError(f"match database {path} is truncated; it is left as it is")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                               isolation_level=None)
    except sqlite3.Error as exc:
        raise DatabaseDamagedError(f"cannot open match database {path}: {exc}") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise ForeignDatabaseError(
                f"{path} is an SQLite file of another program, not a match database; "
                "it is left as it is")
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"match database {path} has schema version {version}, newer than this "
                f"companion's {SCHEMA_VERSION}: update the companion to open it")
        if version < 1:
            raise DatabaseDamagedError(f"match database {path} has no schema version; "
                                       "it is left as it is")
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            # quick_check answers in several lines; the report must stay on one.
            said = "; ".join(" ".join(str(p).split()) for p in problems)
            raise DatabaseDamagedError(
                f"match database {path} is damaged ({said}); it is left as it is")
        for table, columns in _EXPECTED_COLUMNS.items():
            found = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            if not columns <= found:
                missing = ", ".join(sorted(columns - found))
                raise DatabaseDamagedError(
                    f"match database {path} lacks table {table} or its column(s) {missing}; "
                    "it is left as it is")
    except sqlite3.DatabaseError as exc:
        raise DatabaseDamagedError(f"match database {path} is damaged ({exc}); "
                                   "it is left as it is") from None
    finally:
        conn.close()


def _create(path: Path) -> None:
    """Create a new, empty match database at `path` without ever replacing a file there.

    The schema is built in a temporary file that is then linked into place, so that `path`
    is either absent or a complete database: a crash half-way leaves no half-made file for
    the next start to mistake for a damaged one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.creating-{os.getpid()}-{threading.get_ident()}")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
        leftover.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        # Not atomic, and need not be: the file is linked into place only once complete.
        conn.executescript(f"{_SCHEMA}\nPRAGMA application_id={APPLICATION_ID};"
                           f"\nPRAGMA user_version={SCHEMA_VERSION};")
    finally:
        conn.close()  # the last connection's close checkpoints and removes the WAL file
    try:
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            log.info("match database %s appeared while creating it; using it", path)
        except OSError:
            # File systems without hard links (FAT on a USB stick): rename if still absent.
            if not path.exists():
                os.rename(tmp, path)
        _fsync_dir(path.parent)
    finally:
        tmp.unlink(missing_ok=True)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class MatchStore:
    """The match database.  A context manager; `close()` is safe to call twice.

    `MatchStore(path=None, readonly=False)`: `path` defaults to
    `data_dir() / "matches.sqlite"`, created if absent (unless `readonly`).  Thread-safe
    (one lock around the connection), so a worker thread may write while the UI reads.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 readonly: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.readonly = readonly
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        if not self.path.exists():
            if readonly:
                raise RecordError(f"there is no match database at {self.path}")
            _create(self.path)
        inspect_file(self.path)
        conn: sqlite3.Connection | None = None
        try:
            if readonly:
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                       isolation_level=None, check_same_thread=False,
                                       timeout=10.0)
            else:
                conn = sqlite3.connect(self.path, isolation_level=None,
                                       check_same_thread=False, timeout=10.0)
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise RecordError(f"match database {self.path} cannot use a WAL journal "
                                      f"(journal mode {mode})")
                # FULL: in WAL mode, NORMAL may lose the last commits on a power cut.
                conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except (sqlite3.Error, RecordError) as exc:
            if conn is not None:
                conn.close()
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"cannot open match database {self.path}: {exc}") from None
        self._conn = conn

    # -- resource ---------------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                conn, self._conn = self._conn, None
                conn.close()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MatchStore({str(self.path)!r}{', readonly=True' if self.readonly else ''})"

    @property
    def closed(self) -> bool:
        return self._conn is None

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RecordError(f"match database {self.path} is closed")
        return self._conn

    def _fail(self, exc: sqlite3.Error) -> RecordError:
        text = str(exc)
        if isinstance(exc, sqlite3.DatabaseError) and (
                "malformed" in text or "not a database" in text):
            return DatabaseDamagedError(f"match database {self.path} is damaged ({text})")
        if "readonly" in text or "read-only" in text:
            return RecordError(f"match database {self.path} is open read-only")
        return RecordError(f"match database {self.path}: {text}")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return list(self._db().execute(sql, params))
            except sqlite3.Error as exc:
                raise self._fail(exc) from None

    # -- pragmas (for checks and tests) -----------------------------------------------------
    def pragma(self, name: str) -> Any:
        """The value of a read-only `PRAGMA name` (journal_mode, synchronous, …)."""
        if not name.replace("_", "").isalpha():
            raise RecordError(f"{name!r} is not a pragma name")
        return self._query(f"PRAGMA {name}")[0][0]

    # -- matches ----------------------------------------------------------------------------
    def new_match(self, header: MatchHeader | None = None) -> int:
        """Record a new match with its header; returns its id."""
        h = header if header is not None else MatchHeader()
        if not isinstance(h, MatchHeader):
            raise EntryError("new_match needs a MatchHeader")
        with self._lock:
            conn = self._db()
            try:
                cur = conn.execute(
                    "INSERT INTO matches (created, north, south, date, place, naming, timing, "
                    "rounds, first, app_version, calibration, calibration_summary, extra) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (format_time(now()), h.north, h.south, h.date, h.place, h.naming,
                     h.timing, h.rounds, h.first, h.app_version, h.calibration,
                     _dumps(h.calibration_summary), _dumps(h.extra)))
            except sqlite3.Error as exc:
                raise self._fail(exc) from None
            assert cur.lastrowid is not None
            return int(cur.lastrowid)

    def _header_from_row(self, row: tuple[Any, ...]) -> MatchHeader:
        (_id, _created, north, south, date, place, naming, timing, rounds, first, version,
         calibration, summary, extra) = row
        try:
            return MatchHeader(
                north=north, south=south, date=date, place=place, naming=naming,
                timing=timing, rounds=rounds, first=first, app_version=version,
                calibration=calibration,
                calibration_summary=_loads_object(summary, f"calibration of match {_id}") or {},
                extra={str(k): str(v) for k, v in
                       (_loads_object(extra, f"extra tags of match {_id}") or {}).items()})
        except EntryError as exc:
            raise DatabaseDamagedError(f"match {_id} in {self.path} has a bad header: {exc}") \
                from None

    def header(self, match_id: int) -> MatchHeader:
        """The header of match `match_id`; `MatchNotFoundError` if there is none."""
        rows = self._query("SELECT * FROM matches WHERE id = ?", (match_id,))
        if not rows:
            raise MatchNotFoundError(f"there is no match {match_id} in {self.path}")
        return self._header_from_row(rows[0])

    def match_ids(self) -> list[int]:
        return [int(r[0]) for r in self._query("SELECT id FROM matches ORDER BY id")]

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first, with the size and last time of its log."""
        rows = self._query(
            "SELECT m.*, (SELECT COUNT(*) FROM entries e WHERE e.match_id = m.id), "
            "(SELECT time FROM entries e WHERE e.match_id = m.id ORDER BY seq DESC LIMIT 1) "
            "FROM matches m ORDER BY m.id")
        out = []
        for row in rows:
            last = row[-1]
            out.append(MatchInfo(id=int(row[0]), header=self._header_from_row(row[:-2]),
                                 created=self._time(row[1]), entries=int(row[-2]),
                                 last_time=None if last is None else self._time(last)))
        return out

    def _time(self, text: Any) -> _dt.datetime:
        try:
            return parse_time(str(text))
        except EntryError:
            raise DatabaseDamagedError(f"{self.path} holds a bad time {text!r}") from None

    def _require_match(self, match_id: int) -> None:
        if not self._query("SELECT 1 FROM matches WHERE id = ?", (match_id,)):
            raise MatchNotFoundError(f"there is no match {match_id} in {self.path}")

    # -- the log ----------------------------------------------------------------------------
    def _entry_from_row(self, row: tuple[Any, ...], match_id: int) -> Entry:
        seq, time, kind, player, turn, idx, action, code, message, data, key = row
        try:
            return Entry(seq=seq, time=self._time(time), kind=kind, player=player, turn=turn,
                         index=idx, action=action, code=code, message=message,
                         data=_loads_object(data, f"data of entry {seq} of match {match_id}"),
                         key=key)
        except EntryError as exc:
            raise DatabaseDamagedError(
                f"entry {seq} of match {match_id} in {self.path} is bad: {exc}") from None

    def last_seq(self, match_id: int) -> int:
        """The seq of the match's last committed entry (0 when its log is empty)."""
        self._require_match(match_id)
        return int(self._query("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE match_id = ?",
                               (match_id,))[0][0])

    def entries(self, match_id: int, *, since_seq: int = 0,
                kinds: Sequence[str] | None = None) -> list[Entry]:
        """The committed entries of a match after `since_seq`, in seq order."""
        self._require_match(match_id)
        rows = self._query(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE match_id = ? "
                           "AND seq > ? ORDER BY seq", (match_id, since_seq))
        out = [self._entry_from_row(r, match_id) for r in rows]
        return out if kinds is None else [e for e in out if e.kind in kinds]

    def entry(self, match_id: int, seq: int) -> Entry | None:
        rows = self._query(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE match_id = ? "
                           "AND seq = ?", (match_id, seq))
        return self._entry_from_row(rows[0], match_id) if rows else None

    def entry_by_key(self, match_id: int, key: str) -> Entry | None:
        """The entry appended with idempotency key `key`, if any."""
        rows = self._query(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE match_id = ? "
                           "AND key = ?", (match_id, key))
        return self._entry_from_row(rows[0], match_id) if rows else None

    def append(self, match_id: int, kind: str, *, player: Side | None = None,
               turn: int | None = None, index: int | None = None, action: str | None = None,
               code: str | None = None, message: str | None = None,
               data: dict[str, Any] | None = None, key: str | None = None,
               expect_seq: int | None = None, time: _dt.datetime | None = None,
               frame: bytes | None = None,
               observation: dict[str, Any] | None = None) -> Entry:
        """Commit one entry (and optionally its frame) in one durable transaction.

        Idempotent for a resuming writer: with `key`, an entry already committed under that
        key is returned unchanged if its content is the same (and `DuplicateEntryError` is
        raised if it differs); with `expect_seq`, the entry is written only as that seq, and
        if that seq is already taken by the same content it is returned unchanged.
        """
        if kind in ("action", "pass", "claim", "correction") and action is not None:
            parsed = _parse(action)
            if player is not None and player != parsed.player:
                raise EntryError(f"{kind} entry for {player} holds {parsed.player}'s action "
                                 f"{action!r}")
            if kind == "pass" and type(parsed).__name__ != "Pass":
                raise EntryError(f"a pass entry holds {action!r}, which is not a pass")
            if kind == "action" and type(parsed).__name__ == "Pass":
                kind = "pass"
            if kind in ("action", "correction") and type(parsed).__name__ == "Claim":
                raise EntryError(f"{action!r} is a claim: record it as a claim entry "
                                 "with its verdict")
            if kind == "claim" and type(parsed).__name__ != "Claim":
                raise EntryError(f"a claim entry holds {action!r}, which is not a claim")
            player, action = parsed.player, str(parsed)
        check_entry_fields(kind, player, turn, index, action, code, message, data, key)
        if data is not None:
            # As it will read back (tuples become lists), so that a repeated append by a
            # resuming writer compares equal to the committed entry.
            data = json.loads(_dumps(data))
        if frame is not None:
            _check_jpeg(frame)
        elif observation is not None:
            raise EntryError("an observation is saved only together with its frame")
        stamp = normalise_time(time) if time is not None else now()
        with self._lock:
            conn = self._db()
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    entry = self._append_locked(conn, match_id, kind, player, turn, index,
                                                action, code, message, data, key, expect_seq,
                                                stamp, frame, observation)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")  # returns once the WAL is synced (synchronous=FULL)
            except sqlite3.Error as exc:
                raise self._fail(exc) from None
        return entry

    def _append_locked(self, conn: sqlite3.Connection, match_id: int, kind: str,
                       player: Side | None, turn: int | None, index: int | None,
                       action: str | None, code: str | None, message: str | None,
                       data: dict[str, Any] | None, key: str | None, expect_seq: int | None,
                       stamp: _dt.datetime, frame: bytes | None,
                       observation: dict[str, Any] | None) -> Entry:
        if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone():
            raise MatchNotFoundError(f"there is no match {match_id} in {self.path}")
        last = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM entries "
                                "WHERE match_id = ?", (match_id,)).fetchone()[0])
        new = Entry(seq=last + 1, time=stamp, kind=kind, player=player, turn=turn, index=index,
                    action=action, code=code, message=message, data=data, key=key)
        if key is not None:
            row = conn.execute(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE match_id = ? "
                               "AND key = ?", (match_id, key)).fetchone()
            if row is not None:
                old = self._entry_from_row(tuple(row), match_id)
                if old.same_content(new) and (expect_seq is None or expect_seq == old.seq):
                    return old
                raise DuplicateEntryError(
                    f"match {match_id} already holds entry {old.seq} under key {key!r} "
                    f"({old.kind} {old.action or old.code or ''}) and it differs")
        if expect_seq is not None:
            if expect_seq <= last:
                row = conn.execute(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE match_id = ? "
                                   "AND seq = ?", (match_id, expect_seq)).fetchone()
                old = self._entry_from_row(tuple(row), match_id)
                if old.same_content(new):
                    return old
                raise DuplicateEntryError(
                    f"entry {expect_seq} of match {match_id} is already committed "
                    f"({old.kind} {old.action or old.code or ''}) and differs")
            if expect_seq != last + 1:
                raise DuplicateEntryError(
                    f"match {match_id} ends at entry {last}: entry {expect_seq} cannot "
                    "come next")
        if kind in ("correction", "undo"):
            self._check_rewind(conn, match_id, new)
        self._insert(conn, match_id, new)
        if frame is not None:
            conn.execute("INSERT INTO frames (match_id, seq, jpeg, observation) "
                         "VALUES (?, ?, ?, ?)",
                         (match_id, new.seq, bytes(frame),
                          None if observation is None else _dumps(observation)))
        return new

    def _check_rewind(self, conn: sqlite3.Connection, match_id: int, new: Entry) -> None:
        """Refuse an undo or correction naming an action not in force (strict writing)."""
        from .replay import effective_entries, open_round
        rows = conn.execute(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE match_id = ? "
                            "ORDER BY seq", (match_id,)).fetchall()
        current = open_round([self._entry_from_row(tuple(r), match_id) for r in rows])
        try:
            effective_entries(current + [new])
        except RecordError as exc:
            raise EntryError(str(exc).replace(f"entry {new.seq} ", "", 1)) from None

    @staticmethod
    def _insert(conn: sqlite3.Connection, match_id: int, e: Entry) -> None:
        conn.execute(
            f"INSERT INTO entries (match_id, {_ENTRY_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, e.seq, format_time(e.time), e.kind, e.player, e.turn, e.index,
             e.action, e.code, e.message, None if e.data is None else _dumps(e.data), e.key))

    # -- convenience appends for the referee -------------------------------------------------
    def append_action(self, match_id: int, action: Action | str, *, turn: int | None = None,
                      key: str | None = None, expect_seq: int | None = None,
                      frame: bytes | None = None,
                      observation: dict[str, Any] | None = None,
                      time: _dt.datetime | None = None) -> Entry:
        """A committed action (a `Pass` is recorded as kind `pass`)."""
        parsed = _parse(action)
        return self.append(match_id, "pass" if type(parsed).__name__ == "Pass" else "action",
                           player=parsed.player, turn=turn, action=str(parsed), key=key,
                           expect_seq=expect_seq, frame=frame, observation=observation,
                           time=time)

    def append_claim(self, match_id: int, action: Action | str, verdict: dict[str, Any], *,
                     accepted: bool | None = None, turn: int | None = None,
                     key: str | None = None, expect_seq: int | None = None,
                     time: _dt.datetime | None = None) -> Entry:
        """A claim and its verdict (`ClaimVerdict.to_json()`); accepted claims take effect.

        `accepted` defaults to the verdict's `valid`.
        """
        parsed = _parse(action)
        if not isinstance(verdict, dict):
            raise EntryError("a claim needs its verdict as a JSON object (to_json())")
        ok = bool(verdict.get("valid")) if accepted is None else accepted
        proof = verdict.get("proof")
        return self.append(match_id, "claim", player=parsed.player, turn=turn,
                           action=str(parsed), code=str(verdict.get("reason") or "") or None,
                           message=proof if isinstance(proof, str) and proof else None,
                           data={"accepted": ok, "verdict": verdict}, key=key,
                           expect_seq=expect_seq, time=time)

    def append_violation(self, match_id: int, code: str, message: str, *,
                         player: Side | None = None, action: Action | str | None = None,
                         turn: int | None = None, data: dict[str, Any] | None = None,
                         key: str | None = None, expect_seq: int | None = None,
                         time: _dt.datetime | None = None) -> Entry:
        """A play the rules refused: reason code (`side-full`, …), message, attempted action."""
        return self.append(match_id, "violation", player=player, turn=turn, code=code,
                           message=message, action=None if action is None else str(action),
                           data=data, key=key, expect_seq=expect_seq, time=time)

    def append_correction(self, match_id: int, index: int, action: Action | str, *,
                          message: str | None = None, turn: int | None = None,
                          key: str | None = None, expect_seq: int | None = None,
                          time: _dt.datetime | None = None) -> Entry:
        """Action `index` (0-based, this round) becomes `action`; later actions are dropped."""
        parsed = _parse(action)
        return self.append(match_id, "correction", player=parsed.player, index=index,
                           action=str(parsed), message=message, turn=turn, key=key,
                           expect_seq=expect_seq, time=time)

    def append_undo(self, match_id: int, index: int, *, message: str | None = None,
                    player: Side | None = None, turn: int | None = None,
                    key: str | None = None, expect_seq: int | None = None,
                    time: _dt.datetime | None = None) -> Entry:
        """Back to the state before action `index`: keeps actions 0 … index-1 of this round."""
        return self.append(match_id, "undo", index=index, message=message, player=player,
                           turn=turn, key=key, expect_seq=expect_seq, time=time)

    def append_doubt(self, match_id: int, where: str, message: str, *,
                     data: dict[str, Any] | None = None, player: Side | None = None,
                     turn: int | None = None, key: str | None = None,
                     expect_seq: int | None = None,
                     time: _dt.datetime | None = None) -> Entry:
        """A read the camera was not sure of.  `where` is one word (`flag4-south`)."""
        return self.append(match_id, "doubt", code=where, message=message, data=data,
                           player=player, turn=turn, key=key, expect_seq=expect_seq, time=time)

    def append_confirm(self, match_id: int, where: str, message: str, *,
                       data: dict[str, Any] | None = None, player: Side | None = None,
                       turn: int | None = None, key: str | None = None,
                       expect_seq: int | None = None,
                       time: _dt.datetime | None = None) -> Entry:
        """A player's confirmation of a doubtful read (`data`: the card they chose)."""
        return self.append(match_id, "confirm", code=where, message=message, data=data,
                           player=player, turn=turn, key=key, expect_seq=expect_seq, time=time)

    def append_round_end(self, match_id: int, winner: Side | None, *,
                         scores: dict[str, int] | None = None, message: str | None = None,
                         turn: int | None = None, key: str | None = None,
                         expect_seq: int | None = None,
                         time: _dt.datetime | None = None) -> Entry:
        """The end of a round: its winner (who plays first in the next) and the scores."""
        if winner is not None and winner not in SIDES:
            raise EntryError(f"round winner must be north or south, not {winner!r}")
        return self.append(match_id, "round-end", player=winner, message=message,
                           data=None if scores is None else {"scores": dict(scores)},
                           turn=turn, key=key, expect_seq=expect_seq, time=time)

    def append_note(self, match_id: int, message: str, *, data: dict[str, Any] | None = None,
                    player: Side | None = None, turn: int | None = None,
                    key: str | None = None, expect_seq: int | None = None,
                    time: _dt.datetime | None = None) -> Entry:
        return self.append(match_id, "note", message=message, data=data, player=player,
                           turn=turn, key=key, expect_seq=expect_seq, time=time)

    # -- frames -----------------------------------------------------------------------------
    def add_frame(self, match_id: int, seq: int, jpeg: bytes,
                  observation: dict[str, Any] | None = None) -> None:
        """Save the frame of an already committed entry (once; frames are never replaced)."""
        _check_jpeg(jpeg)
        if observation is not None and not isinstance(observation, dict):
            raise EntryError("a frame's observation must be a JSON object")
        with self._lock:
            conn = self._db()
            if self.entry(match_id, seq) is None:
                self._require_match(match_id)
                raise EntryError(f"match {match_id} has no entry {seq} to attach a frame to")
            try:
                with conn:
                    conn.execute("BEGIN IMMEDIATE")
                    conn.execute("INSERT INTO frames (match_id, seq, jpeg, observation) "
                                 "VALUES (?, ?, ?, ?)",
                                 (match_id, seq, bytes(jpeg),
                                  None if observation is None else _dumps(observation)))
            except sqlite3.IntegrityError:
                raise DuplicateEntryError(
                    f"entry {seq} of match {match_id} already has a frame") from None
            except sqlite3.Error as exc:
                raise self._fail(exc) from None

    def frame_seqs(self, match_id: int) -> list[int]:
        self._require_match(match_id)
        return [int(r[0]) for r in self._query(
            "SELECT seq FROM frames WHERE match_id = ? ORDER BY seq", (match_id,))]

    def frame(self, match_id: int, seq: int) -> RecordedFrame | None:
        rows = self._query("SELECT jpeg, observation FROM frames WHERE match_id = ? "
                           "AND seq = ?", (match_id, seq))
        if not rows:
            return None
        return RecordedFrame(seq=seq, jpeg=bytes(rows[0][0]),
                             observation=_loads_object(rows[0][1],
                                                       f"observation of frame {seq}"))

    def frames(self, match_id: int) -> Iterator[RecordedFrame]:
        """The match's frames in seq order, one at a time (they are large)."""
        for seq in self.frame_seqs(match_id):
            f = self.frame(match_id, seq)
            if f is not None:
                yield f

    # -- derived views ----------------------------------------------------------------------
    def effective_actions(self, match_id: int, round: int | None = None) -> list[Action]:
        """The actions in force in a round (default: the last), after undos and corrections."""
        from .replay import effective_actions
        rounds = self.header(match_id).rounds
        return effective_actions(self.entries(match_id), round=round, rounds=rounds)

    def replay(self, match_id: int, round: int | None = None) -> list[GameState]:
        """The states of a round (default: the last), the start state first, by replay."""
        from .replay import replay
        return replay(self.header(match_id), self.entries(match_id), round=round)

    def record(self, match_id: int) -> MatchRecord:
        """Header and log of a match, ready for `notation.write_text` / `write_json`."""
        from .notation import MatchRecord
        return MatchRecord(header=self.header(match_id), entries=tuple(self.entries(match_id)))

    def import_record(self, record: MatchRecord) -> int:
        """Store a whole match (from a file) as a new match in one transaction; its id."""
        if record.errors:
            raise RecordError(f"refusing to import a match record with {len(record.errors)} "
                              f"error(s): {record.errors[0]}")
        h = record.header
        with self._lock:
            conn = self._db()
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    cur = conn.execute(
                        "INSERT INTO matches (created, north, south, date, place, naming, "
                        "timing, rounds, first, app_version, calibration, "
                        "calibration_summary, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                        "?, ?)",
                        (format_time(now()), h.north, h.south, h.date, h.place, h.naming,
                         h.timing, h.rounds, h.first, h.app_version, h.calibration,
                         _dumps(h.calibration_summary), _dumps(h.extra)))
                    assert cur.lastrowid is not None
                    match_id = int(cur.lastrowid)
                    for n, e in enumerate(record.entries, start=1):
                        if e.seq != n:
                            raise EntryError(f"entry seq {e.seq} where {n} was expected")
                        self._insert(conn, match_id, e)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                raise DuplicateEntryError(f"cannot import the match: {exc}") from None
            except sqlite3.Error as exc:
                raise self._fail(exc) from None
        return match_id


def _parse(action: object) -> Action:
    """The action as a rules value: notation text is parsed, so a bad one is refused now."""
    from companion.rules.errors import NotationError

    from .replay import parse_action
    if isinstance(action, str):
        try:
            return parse_action(action)
        except NotationError as exc:
            raise EntryError(f"{action!r} is not an action: {exc}") from None
    if not hasattr(action, "player"):
        raise EntryError(f"{action!r} is not an action")
    return action  # type: ignore[return-value]
