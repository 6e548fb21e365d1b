"""The match database: SQLite in the data directory, one append-only log per match.

Written so that a power cut loses nothing that was committed: WAL journal with
`synchronous=FULL` (each commit is on disk when `append` returns), one transaction per
append, a schema version in `PRAGMA user_version` and an application id in
`PRAGMA application_id`.  An existing file is inspected read-only before anything writes to
it; a damaged or foreign file is reported and never written to, replaced or recreated.
"""

from __future__ import annotations

import datetime as _dt
import errno
import fcntl
import json
import logging
import os
import shutil
import sqlite3
import stat
import threading
import time as _time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from companion.paths import data_dir
from companion.rules.position import SIDES, Side

from .model import (
    ChainError,
    DatabaseDamagedError,
    DuplicateEntryError,
    Entry,
    EntryError,
    ForeignDatabaseError,
    MatchHeader,
    MatchNotFoundError,
    RecordError,
    SchemaVersionError,
    StoreBusyError,
    check_entry_fields,
    entry_hash,
    first_break,
    format_time,
    header_hash,
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
SCHEMA_VERSION = 3
"""1: the first schema.  2: each match's header and each entry carry the link of a hash
chain (`hash`); a schema 1 file is chained once when a writer first opens it.  3: each match
names its edition (`edition`, `battle-line` for every match recorded before)."""
APPLICATION_ID = 0x424C4331  # "BLC1": tells our databases from any other SQLite file
SQLITE_MAGIC = b"SQLite format 3\x00"

# The two triggers that the migration to schema 2 lifts for the time of adding the chain.
_ENTRIES_NO_UPDATE = """CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;"""
_MATCHES_NO_UPDATE = """CREATE TRIGGER matches_no_update BEFORE UPDATE ON matches
BEGIN SELECT RAISE(ABORT, 'match headers are append-only'); END;"""

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
    extra TEXT NOT NULL,
    hash TEXT,
    edition TEXT NOT NULL DEFAULT 'battle-line'
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
    hash TEXT,
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
{entries_no_update}
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;
CREATE TRIGGER frames_no_update BEFORE UPDATE ON frames
BEGIN SELECT RAISE(ABORT, 'recorded frames are append-only'); END;
CREATE TRIGGER frames_no_delete BEFORE DELETE ON frames
BEGIN SELECT RAISE(ABORT, 'recorded frames are append-only'); END;
{matches_no_update}
CREATE TRIGGER matches_no_delete BEFORE DELETE ON matches
BEGIN SELECT RAISE(ABORT, 'match headers are append-only'); END;
""".format(entries_no_update=_ENTRIES_NO_UPDATE, matches_no_update=_MATCHES_NO_UPDATE)

_EXPECTED_COLUMNS = {
    "matches": {"id", "created", "north", "south", "date", "place", "naming", "timing",
                "rounds", "first", "app_version", "calibration", "calibration_summary",
                "extra"},
    "entries": {"match_id", "seq", "time", "kind", "player", "turn", "idx", "action", "code",
                "message", "data", "key"},
    "frames": {"match_id", "seq", "jpeg", "observation"},
}

_CHAIN_COLUMNS = {"matches": {"hash"}, "entries": {"hash"}}
_EDITION_COLUMNS = {"matches": {"edition"}}

_ENTRY_COLUMNS = "seq, time, kind, player, turn, idx, action, code, message, data, key, hash"
_ENTRY_COLUMNS_V1 = "seq, time, kind, player, turn, idx, action, code, message, data, key, NULL"
_MATCH_COLUMNS = ("id, created, north, south, date, place, naming, timing, rounds, first, "
                  "app_version, calibration, calibration_summary, extra")


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


def _refuse_special(path: Path) -> None:
    """Refuse, before opening it, anything at `path` that is not a regular file: opening a
    FIFO would wait forever for a writer, and a device is never a match database."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise RecordError(f"cannot open match database {path}: "
                          f"{exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise ForeignDatabaseError(f"{path} is a directory, not a match database")
    if not stat.S_ISREG(mode):
        kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else
                "a socket" if stat.S_ISSOCK(mode) else
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        raise ForeignDatabaseError(f"{path} is {kind}, not a match database file; "
                                   "it is left as it is")


def _folder_writable(path: Path) -> bool:
    return os.access(path.resolve().parent, os.W_OK)


def _connect_ro(path: Path, timeout: float = 5.0) -> sqlite3.Connection:
    """A read-only connection that also works in a folder this user cannot write to.

    SQLite reads a WAL database through its `-shm` file, which it must be able to create.
    When the folder is read-only and no `-wal` file exists, no writer can be at work (a
    writer needs both), so the file is opened as immutable instead.
    """
    uri = path.resolve().as_uri()
    wal = Path(f"{path}-wal")
    immutable = not _folder_writable(path) and not (wal.exists() and wal.stat().st_size)
    return sqlite3.connect(f"{uri}?{'immutable=1' if immutable else 'mode=ro'}", uri=True,
                           isolation_level=None, check_same_thread=False, timeout=timeout)


def _disk_full(path: Path) -> bool:
    try:
        return shutil.disk_usage(path.resolve().parent).free < 256 * 1024
    except OSError:
        return False


def _cannot_read(path: Path, exc: BaseException) -> RecordError:
    """The error for a sound-looking file SQLite could not read: damaged only if SQLite says
    so; otherwise say what stopped it (permissions, a read-only folder)."""
    text = " ".join(str(exc).split())
    if "malformed" in text or "not a database" in text or "decode" in text.lower() or \
            isinstance(exc, (UnicodeError, ValueError)):
        return DatabaseDamagedError(f"match database {path} is damaged ({text}); "
                                    "it is left as it is")
    why = ""
    if not os.access(path, os.R_OK):
        why = ": this user may not read the file"
    elif not _folder_writable(path):
        why = f": its folder {path.resolve().parent} is read-only for this user"
    elif _disk_full(path):
        why = ": the disk holding it is full"
    return RecordError(f"cannot open match database {path} ({text}){why}")


def inspect_file(path: Path) -> int:
    """Check, read-only, that `path` is a sound match database; raise a `RecordError` if not.

    Never writes to the file: a damaged or foreign file stays byte-identical.  Returns the
    file's schema version.
    """
    _refuse_special(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except IsADirectoryError:
        raise ForeignDatabaseError(f"{path} is a directory, not a match database") from None
    except OSError as exc:
        raise RecordError(f"cannot read match database {path}: {exc.strerror or exc}") \
            from None
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
        conn = _connect_ro(path)
    except sqlite3.Error as exc:
        raise _cannot_read(path, exc) from None
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
        # Text that is not UTF-8 (a damaged schema) must be reported, not raised from deep
        # inside the sqlite3 module: read the schema as bytes and check it first.
        conn.text_factory = bytes
        for (sql,) in conn.execute("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL"):
            try:
                bytes(sql).decode("utf-8")
            except UnicodeDecodeError:
                raise DatabaseDamagedError(
                    f"match database {path} is damaged (its schema text is not UTF-8); "
                    "it is left as it is") from None
        conn.text_factory = lambda b: b.decode("utf-8", errors="replace")
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            # quick_check answers in several lines; the report must stay on one.
            said = "; ".join(" ".join(str(p).split()) for p in problems)
            raise DatabaseDamagedError(
                f"match database {path} is damaged ({said}); it is left as it is")
        for table, columns in _EXPECTED_COLUMNS.items():
            found = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            if version >= 2:
                columns = columns | _CHAIN_COLUMNS.get(table, set())
            if version >= 3:
                columns = columns | _EDITION_COLUMNS.get(table, set())
            if not columns <= found:
                missing = ", ".join(sorted(columns - found))
                raise DatabaseDamagedError(
                    f"match database {path} lacks table {table} or its column(s) {missing}; "
                    "it is left as it is")
    except (sqlite3.Error, UnicodeError, ValueError) as exc:
        raise _cannot_read(path, exc) from None
    finally:
        conn.close()
    return int(version)


def _create(path: Path) -> None:
    """Create a new, empty match database at `path` without ever replacing a file there.

    The schema is built in a temporary file that is then linked into place, so that `path`
    is either absent or a complete database: a crash half-way leaves no half-made file for
    the next start to mistake for a damaged one.  A failure (a full disk, a read-only
    folder) is one `RecordError` and leaves no temporary file behind.
    """
    tmp = path.with_name(f".{path.name}.creating-{os.getpid()}-{threading.get_ident()}")
    leftovers = (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal"))

    def clean() -> None:
        for leftover in leftovers:
            try:
                leftover.unlink(missing_ok=True)
            except OSError:
                pass

    clean()
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            # Not atomic, and need not be: the file is linked into place only once complete.
            conn.executescript(f"{_SCHEMA}\nPRAGMA application_id={APPLICATION_ID};"
                               f"\nPRAGMA user_version={SCHEMA_VERSION};")
        finally:
            conn.close()  # the last connection's close checkpoints and removes the WAL file
        if Path(f"{tmp}-wal").exists():
            # The close could not checkpoint (a full disk): the file is not complete.
            raise sqlite3.OperationalError("the new database could not be completed")
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            log.info("match database %s appeared while creating it; using it", path)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES):
                raise
            # File systems without hard links (FAT on a USB stick): rename if still absent.
            if not path.exists():
                os.rename(tmp, path)
        _fsync_dir(path.parent)
    except (sqlite3.Error, OSError) as exc:
        text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise RecordError(f"cannot create match database {path}: {text}") from None
    finally:
        clean()


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


class _WriterLock:
    """One writer per database at a time, across processes: an exclusive `flock` on a file
    beside the database (`NAME.lock`), held from open to close.

    Several stores opened for writing in one process share the lock (SQLite's transactions
    already keep their appends whole); a second process is refused, so nothing it would
    write can land between another writer's entries.  The lock dies with its process, so a
    killed writer never leaves the database locked.
    """

    _held: dict[tuple[int, int], tuple[int, int]] = {}   # (dev, inode) -> (fd, users)
    _guard = threading.Lock()

    def __init__(self, db: Path, wait: float) -> None:
        self.path = db.with_name(db.name + ".lock")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            folder = db.resolve().parent
            why = (f"its folder {folder} is read-only for this user"
                   if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
                   else (exc.strerror or str(exc)))
            raise RecordError(f"cannot write match database {db}: {why}") from None
        st = os.fstat(fd)
        self._id = (st.st_dev, st.st_ino)
        self._released = False
        with self._guard:
            held = self._held.get(self._id)
            if held is not None:
                os.close(fd)
                self._held[self._id] = (held[0], held[1] + 1)
                return
            deadline = _time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if _time.monotonic() >= deadline:
                        owner = _read_owner(fd)
                        os.close(fd)
                        raise StoreBusyError(
                            f"match database {db} is in use by another writer{owner}: one "
                            "writer at a time; try again when it has finished") from None
                    _time.sleep(0.05)
                except OSError as exc:
                    os.close(fd)
                    raise RecordError(f"cannot lock match database {db}: "
                                      f"{exc.strerror or exc}") from None
            try:  # who holds it, for the message a second writer gets
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            except OSError:
                pass
            self._held[self._id] = (fd, 1)

    def release(self) -> None:
        """Let go (safe to call twice): the last user in the process unlocks the file."""
        with self._guard:
            if self._released:
                return
            fd, users = self._held[self._id]
            if users > 1:
                self._held[self._id] = (fd, users - 1)
            else:
                del self._held[self._id]
                os.close(fd)  # closing the last descriptor releases the flock
            self._released = True


def _read_owner(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
    except OSError:
        return ""
    return f" (process {text})" if text.isdigit() else ""


class MatchStore:
    """The match database.  A context manager; `close()` is safe to call twice.

    `MatchStore(path=None, readonly=False, wait=2.0)`: `path` defaults to
    `data_dir() / "matches.sqlite"`, created if absent (unless `readonly`).  Thread-safe
    (one lock around the connection), so a worker thread may write while the UI reads.
    One process writes to a database at a time: a writable store takes an exclusive lock
    for its whole life, waiting up to `wait` seconds for another process to let go, then
    refusing with `StoreBusyError`.  Read-only stores take no lock and read while a writer
    writes.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 readonly: bool = False, wait: float = 2.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.readonly = readonly
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._writer: _WriterLock | None = None
        self._sizes: dict[int, int] = {}
        self._columns = _ENTRY_COLUMNS
        self._chained = True
        self._editions = True
        _refuse_special(self.path)
        if not readonly:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RecordError(f"cannot create the folder of match database {self.path}: "
                                  f"{exc.strerror or exc}") from None
            self._writer = _WriterLock(self.path, wait)
        try:
            self._open(readonly)
        except BaseException:
            if self._writer is not None:
                self._writer.release()
                self._writer = None
            raise

    def _open(self, readonly: bool) -> None:
        if not self.path.exists():
            if readonly:
                raise RecordError(f"there is no match database at {self.path}")
            _create(self.path)
        version = inspect_file(self.path)
        if not readonly and not os.access(self.path, os.W_OK):
            raise RecordError(f"cannot write match database {self.path}: the file is "
                              "read-only for this user (nothing was recorded)")
        conn: sqlite3.Connection | None = None
        try:
            if readonly:
                conn = _connect_ro(self.path, timeout=10.0)
            else:
                conn = sqlite3.connect(self.path, isolation_level=None,
                                       check_same_thread=False, timeout=10.0)
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise RecordError(f"match database {self.path} cannot use a WAL journal "
                                      f"(journal mode {mode})")
                # FULL: in WAL mode, NORMAL may lose the last commits on a power cut.
                conn.execute("PRAGMA synchronous=FULL")
                # Can this process really write?  Better told now than after a game.
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
                if version < SCHEMA_VERSION:
                    self._migrate(conn, version)
                    version = SCHEMA_VERSION
            conn.execute("PRAGMA foreign_keys=ON")
        except (sqlite3.Error, RecordError) as exc:
            if conn is not None:
                conn.close()
            if isinstance(exc, RecordError):
                raise
            if "readonly" in str(exc) or "read-only" in str(exc):
                raise RecordError(f"cannot write match database {self.path}: it is on a "
                                  "read-only file system or folder (nothing was recorded)") \
                    from None
            raise _cannot_read(self.path, exc) from None
        self._chained = version >= 2
        self._editions = version >= 3
        if not self._chained:
            self._columns = _ENTRY_COLUMNS_V1
        try:
            # How many entries each match has, counted in the table itself (not through the
            # index the reads use): a damaged index could otherwise cut a log short without
            # any other sign.  Logs only grow, so a read finding fewer is damage.
            self._sizes = {int(m): int(n) for m, n in conn.execute(
                "SELECT match_id, COUNT(*) FROM entries NOT INDEXED GROUP BY match_id")}
        except (sqlite3.Error, TypeError, ValueError) as exc:
            conn.close()
            raise _cannot_read(self.path, exc) from None
        self._conn = conn

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Schema 1 to 2: add the hash chain, computed once over the log as found; schema
        2 to 3: add each match's edition, `battle-line` for all of them (a Battle Line
        header hashes as before: `MatchHeader.to_json` names only other editions).

        From then on the chain shows that nothing was edited since the migration; what
        happened to a schema 1 file before cannot be told.  One transaction: a power cut
        leaves the file at its old schema, to be migrated at the next open.
        """
        log.info("match database %s: schema %d, migrating to %d", self.path, version,
                 SCHEMA_VERSION)
        conn.execute("BEGIN IMMEDIATE")
        try:
            if version < 2:
                self._chain(conn)
            conn.execute("ALTER TABLE matches ADD COLUMN edition TEXT NOT NULL "
                         "DEFAULT 'battle-line'")
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _chain(self, conn: sqlite3.Connection) -> None:
        """Schema 1 to 2, inside `_migrate`'s transaction: the hash chain."""
        conn.execute("ALTER TABLE matches ADD COLUMN hash TEXT")
        conn.execute("ALTER TABLE entries ADD COLUMN hash TEXT")
        # The append-only triggers are lifted for this one transaction only.
        conn.execute("DROP TRIGGER entries_no_update")
        conn.execute("DROP TRIGGER matches_no_update")
        for row in conn.execute(f"SELECT {_MATCH_COLUMNS}, 'battle-line' FROM matches "
                                "ORDER BY id").fetchall():
            match_id = int(row[0])
            header = self._header_from_row(tuple(row))
            link = header_hash(header)
            conn.execute("UPDATE matches SET hash = ? WHERE id = ?", (link, match_id))
            for erow in conn.execute(f"SELECT {_ENTRY_COLUMNS_V1} FROM entries WHERE "
                                     "match_id = ? ORDER BY seq", (match_id,)).fetchall():
                entry = self._entry_from_row(tuple(erow), match_id)
                link = entry_hash(link, entry)
                conn.execute("UPDATE entries SET hash = ? WHERE match_id = ? AND seq = ?",
                             (link, match_id, entry.seq))
        conn.execute(_ENTRIES_NO_UPDATE)
        conn.execute(_MATCHES_NO_UPDATE)

    # -- resource ---------------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                conn, self._conn = self._conn, None
                conn.close()
            if self._writer is not None:
                writer, self._writer = self._writer, None
                writer.release()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MatchStore({str(self.path)!r}{', readonly=True' if self.readonly else ''})"

    @property
    def chained(self) -> bool:
        """Whether the file holds the hash chain (schema 2); a schema 1 file opened
        read-only has its chain computed as it is read, vouching for nothing stored."""
        return self._chained

    @property
    def closed(self) -> bool:
        return self._conn is None

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RecordError(f"match database {self.path} is closed")
        return self._conn

    def _fail(self, exc: sqlite3.Error) -> RecordError:
        text = " ".join(str(exc).split())  # one line, whatever SQLite quotes
        if "Could not decode to UTF-8" in text:
            column = text.split(" with text ")[0].replace("Could not decode to UTF-8 ", "")
            return DatabaseDamagedError(f"match database {self.path} is damaged (text that is "
                                        f"not UTF-8 in {column})")
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
                cur = self._insert_header(conn, h)
            except sqlite3.Error as exc:
                raise self._fail(exc) from None
            assert cur.lastrowid is not None
            return int(cur.lastrowid)

    @staticmethod
    def _insert_header(conn: sqlite3.Connection, h: MatchHeader) -> sqlite3.Cursor:
        return conn.execute(
            "INSERT INTO matches (created, north, south, date, place, naming, timing, "
            "rounds, first, app_version, calibration, calibration_summary, extra, hash, "
            "edition) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (format_time(now()), h.north, h.south, h.date, h.place, h.naming,
             h.timing, h.rounds, h.first, h.app_version, h.calibration,
             _dumps(h.calibration_summary), _dumps(h.extra), header_hash(h), h.edition))

    def _match_select(self) -> str:
        edition = "edition" if self._editions else "'battle-line'"
        return f"{_MATCH_COLUMNS}, {edition}, {'hash' if self._chained else 'NULL'}"

    def _checked_header(self, row: tuple[Any, ...]) -> tuple[MatchHeader, str]:
        """The header of a `_match_select()` row and the start of its hash chain, checked
        against the hash stored with it (a schema 1 file has none: it is computed)."""
        header = self._header_from_row(row[:-1])
        link = header_hash(header)
        if self._chained and row[-1] != link:
            raise ChainError(f"match {row[0]} in {self.path}: its header does not match the "
                             "hash stored with it (edited or damaged after it was recorded)")
        return header, link

    def _header_from_row(self, row: tuple[Any, ...]) -> MatchHeader:
        (_id, _created, north, south, date, place, naming, timing, rounds, first, version,
         calibration, summary, extra, edition) = row
        if not isinstance(_id, int):
            raise DatabaseDamagedError(f"a match in {self.path} has a damaged id ({_id!r})")
        try:
            return MatchHeader(
                north=north, south=south, date=date, place=place, naming=naming,
                edition=edition, timing=timing, rounds=rounds, first=first, app_version=version,
                calibration=calibration,
                calibration_summary=_loads_object(summary, f"calibration of match {_id}") or {},
                extra={str(k): str(v) for k, v in
                       (_loads_object(extra, f"extra tags of match {_id}") or {}).items()})
        except EntryError as exc:
            raise DatabaseDamagedError(f"match {_id} in {self.path} has a bad header: {exc}") \
                from None

    def header(self, match_id: int) -> MatchHeader:
        """The header of match `match_id`; `MatchNotFoundError` if there is none."""
        return self._header_and_start(match_id)[0]

    def _header_and_start(self, match_id: int) -> tuple[MatchHeader, str]:
        rows = self._query(f"SELECT {self._match_select()} FROM matches WHERE id = ?",
                           (match_id,))
        if not rows:
            raise MatchNotFoundError(f"there is no match {match_id} in {self.path}")
        return self._checked_header(rows[0])

    def match_ids(self) -> list[int]:
        return [int(r[0]) for r in self._query("SELECT id FROM matches ORDER BY id")]

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first, with the size and last time of its log."""
        rows = self._query(
            f"SELECT {self._match_select()}, "
            "(SELECT COUNT(*) FROM entries e WHERE e.match_id = matches.id), "
            "(SELECT time FROM entries e WHERE e.match_id = matches.id ORDER BY seq DESC "
            "LIMIT 1) FROM matches ORDER BY id")
        out = []
        for row in rows:
            last = row[-1]
            header = self._checked_header(row[:-2])[0]   # refuses a damaged id first
            out.append(MatchInfo(id=int(row[0]), header=header,
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
        seq, time, kind, player, turn, idx, action, code, message, data, key, link = row
        if not isinstance(seq, int):
            raise DatabaseDamagedError(f"an entry of match {match_id} in {self.path} has a "
                                       f"damaged seq ({seq!r})")
        try:
            return Entry(seq=seq, time=self._time(time), kind=kind, player=player, turn=turn,
                         index=idx, action=action, code=code, message=message,
                         data=_loads_object(data, f"data of entry {seq} of match {match_id}"),
                         key=key, hash=link)
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
        """The committed entries of a match after `since_seq`, in seq order.

        The whole log is read and its hash chain checked from the header on: an entry
        edited or damaged since it was recorded is a `ChainError` naming it.
        """
        with self._lock:
            _, start = self._header_and_start(match_id)
            rows = self._query(f"SELECT {self._columns} FROM entries WHERE match_id = ? "
                               "ORDER BY seq", (match_id,))
        out = self._checked_log(match_id, start, [self._entry_from_row(r, match_id)
                                                  for r in rows])
        out = [e for e in out if e.seq > since_seq]
        return out if kinds is None else [e for e in out if e.kind in kinds]

    def _checked_log(self, match_id: int, start: str, entries: list[Entry]) -> list[Entry]:
        """`entries` with their chain checked (schema 1: computed and attached)."""
        if len(entries) < self._sizes.get(match_id, 0):
            raise DatabaseDamagedError(
                f"match {match_id} in {self.path} is damaged: its log reads as "
                f"{len(entries)} entries but the file holds {self._sizes[match_id]}")
        link = start
        out = []
        for n, e in enumerate(entries, start=1):
            if e.seq != n:
                raise DatabaseDamagedError(f"match {match_id} in {self.path} lacks entry {n}")
            expected = entry_hash(link, e)
            if not self._chained:
                e = replace(e, hash=expected)
            elif e.hash != expected:
                raise ChainError(f"match {match_id} in {self.path}: the hash chain breaks at "
                                 f"entry {e.seq} (edited or damaged after it was recorded)")
            out.append(e)
            link = expected
        return out

    def _checked_entry(self, match_id: int, row: tuple[Any, ...]) -> Entry:
        """One entry, its link checked against the one stored before it."""
        e = self._entry_from_row(row, match_id)
        if e.seq > 1:
            prev = self._query(f"SELECT {self._columns} FROM entries WHERE match_id = ? "
                               "AND seq = ?", (match_id, e.seq - 1))
            if not prev:
                raise DatabaseDamagedError(f"match {match_id} in {self.path} lacks entry "
                                           f"{e.seq - 1}")
            start = prev[0][-1] if self._chained else None
        else:
            start = self._header_and_start(match_id)[1]
        if start is None:  # schema 1, read-only: the link is computed over the whole log
            return next(x for x in self.entries(match_id) if x.seq == e.seq)
        expected = entry_hash(start, e)
        if e.hash != expected:
            raise ChainError(f"match {match_id} in {self.path}: the hash chain breaks at "
                             f"entry {e.seq} (edited or damaged after it was recorded)")
        return e

    def entry(self, match_id: int, seq: int) -> Entry | None:
        rows = self._query(f"SELECT {self._columns} FROM entries WHERE match_id = ? "
                           "AND seq = ?", (match_id, seq))
        return self._checked_entry(match_id, rows[0]) if rows else None

    def entry_by_key(self, match_id: int, key: str) -> Entry | None:
        """The entry appended with idempotency key `key`, if any."""
        rows = self._query(f"SELECT {self._columns} FROM entries WHERE match_id = ? "
                           "AND key = ?", (match_id, key))
        return self._checked_entry(match_id, rows[0]) if rows else None

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
        new = replace(new, hash=entry_hash(self._last_link(conn, match_id, last), new))
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

    def _last_link(self, conn: sqlite3.Connection, match_id: int, last: int) -> str:
        """The link a new entry chains onto: the last entry's, checked against the one
        before it, so that a damaged last entry is reported, never chained onto."""
        row = conn.execute(f"SELECT {self._match_select()} FROM matches WHERE id = ?",
                           (match_id,)).fetchone()
        _, link = self._checked_header(tuple(row))
        if last == 0:
            return link
        rows = conn.execute(f"SELECT {self._columns} FROM entries WHERE match_id = ? "
                            "AND seq >= ? ORDER BY seq", (match_id, last - 1)).fetchall()
        if last > 1:
            link = rows[0][-1]
            rows = rows[1:]
        e = self._entry_from_row(tuple(rows[0]), match_id)
        if e.hash != entry_hash(link, e):
            raise ChainError(f"match {match_id} in {self.path}: the hash chain breaks at "
                             f"entry {e.seq} (edited or damaged after it was recorded); "
                             "nothing more is written to it")
        return e.hash

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
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, e.seq, format_time(e.time), e.kind, e.player, e.turn, e.index,
             e.action, e.code, e.message, None if e.data is None else _dumps(e.data), e.key,
             e.hash))

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
        """Store a whole match (from a file) as a new match in one transaction; its id.

        The record is checked first as a whole: its hash chain, if it carries one (a file
        without any is chained now), and everything a replay recomputes (`replay.audit`).
        A record that fails writes nothing.
        """
        from .replay import audit
        if record.errors:
            raise RecordError(f"refusing to import a match record with {len(record.errors)} "
                              f"error(s): {record.errors[0]}")
        h = record.header
        if any(e.hash is not None for e in record.entries):
            broken = first_break(h, record.entries)
            if broken is not None:
                raise ChainError(f"refusing to import the match: {broken}")
        audit(h, record.entries)
        with self._lock:
            conn = self._db()
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    cur = self._insert_header(conn, h)
                    assert cur.lastrowid is not None
                    match_id = int(cur.lastrowid)
                    link = header_hash(h)
                    for n, e in enumerate(record.entries, start=1):
                        if e.seq != n:
                            raise EntryError(f"entry seq {e.seq} where {n} was expected")
                        link = entry_hash(link, e)
                        self._insert(conn, match_id, replace(e, hash=link))
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
