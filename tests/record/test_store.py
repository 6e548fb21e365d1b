"""The match database: durable appends, idempotent resumes, and refusal of bad files."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.record.model import (
    DatabaseDamagedError,
    DuplicateEntryError,
    EntryError,
    ForeignDatabaseError,
    MatchHeader,
    MatchNotFoundError,
    RecordError,
    SchemaVersionError,
)
from companion.record.store import APPLICATION_ID, MatchStore, default_path
from companion.rules.actions import Play
from companion.rules.cards import Card

JPEG = b"\xff\xd8\xff\xe0fake-jpeg-body\xff\xd9"


def _filled(path: Path) -> int:
    with MatchStore(path) as store:
        match_id = store.new_match(MatchHeader(north="Ann", south="Bob", place="Club",
                                               calibration="rig-1",
                                               calibration_summary={"tiles": 9},
                                               extra={"Table": "3"}))
        for i, text in enumerate(["S R8@3", "N B3@3", "S R9@3", "N B4@3"], start=1):
            store.append_action(match_id, text, turn=i)
        return match_id


def test_append_reopen_read_back(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    match_id = _filled(path)
    with MatchStore(path) as store:
        assert store.match_ids() == [match_id]
        header = store.header(match_id)
        assert (header.north, header.south, header.place) == ("Ann", "Bob", "Club")
        assert header.calibration_summary == {"tiles": 9} and header.extra == {"Table": "3"}
        entries = store.entries(match_id)
        assert [e.seq for e in entries] == [1, 2, 3, 4]
        assert [e.action for e in entries] == ["S R8@3", "N B3@3", "S R9@3", "N B4@3"]
        assert [e.player for e in entries] == ["south", "north", "south", "north"]
        assert [e.turn for e in entries] == [1, 2, 3, 4]
        assert all(e.time.tzinfo is not None for e in entries)
        assert store.last_seq(match_id) == 4
        assert [e.seq for e in store.entries(match_id, since_seq=2)] == [3, 4]
        infos = store.matches()
        assert len(infos) == 1 and infos[0].entries == 4


def test_default_path_is_in_the_data_directory(_isolated_data_dir: Path) -> None:
    with MatchStore() as store:
        assert store.path == _isolated_data_dir / "matches.sqlite" == default_path()
    assert default_path().exists()


def test_wal_and_full_sync_are_in_force(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        assert store.pragma("journal_mode") == "wal"
        assert store.pragma("synchronous") == 2  # FULL
        assert store.pragma("application_id") == APPLICATION_ID
        assert store.pragma("user_version") == 3  # schema 3: the hash chain, editions


def test_close_twice_and_use_after_close(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "m.sqlite")
    store.close()
    store.close()
    assert store.closed
    with pytest.raises(RecordError, match="closed"):
        store.new_match()


def test_append_action_objects_and_pass_kind(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        e = store.append_action(m, Play("south", Card("R8"), 3))
        assert e.kind == "action" and e.action == "S R8@3" and e.player == "south"
        e = store.append_action(m, "n pass")
        assert e.kind == "pass" and e.action == "N PASS"
        with pytest.raises(EntryError, match="not an action"):
            store.append_action(m, "S R8 at 3")
        with pytest.raises(EntryError, match="claim"):
            store.append_action(m, "S CLAIM 3")
        with pytest.raises(EntryError, match="north's action"):
            store.append(m, "action", player="south", action="N B3@3")
        with pytest.raises(EntryError, match="unknown entry kind"):
            store.append(m, "shout", message="hey")
        assert store.last_seq(m) == 2  # nothing refused was written


def test_key_makes_appends_idempotent(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        first = store.append_action(m, "S R8@3", key="r1-a0", turn=1)
        again = store.append_action(m, "S R8@3", key="r1-a0", turn=1)
        assert again == first and store.last_seq(m) == 1
        with pytest.raises(DuplicateEntryError, match="r1-a0"):
            store.append_action(m, "S R9@3", key="r1-a0", turn=1)
        assert store.entry_by_key(m, "r1-a0") == first
        # Data is kept as it reads back, so a repeat with tuples is still the same entry.
        doubt = store.append_doubt(m, "flag-4-south", "O7?", data={"reads": ("O7", "R7")},
                                   key="d1")
        assert doubt.data == {"reads": ["O7", "R7"]}
        assert store.append_doubt(m, "flag-4-south", "O7?", data={"reads": ("O7", "R7")},
                                  key="d1") == doubt
        assert store.entry_by_key(m, "nope") is None


def test_expect_seq_refuses_gaps_and_double_writes(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        e1 = store.append_action(m, "S R8@3", expect_seq=1)
        assert store.append_action(m, "S R8@3", expect_seq=1) == e1
        with pytest.raises(DuplicateEntryError, match="already committed"):
            store.append_action(m, "S R9@3", expect_seq=1)
        with pytest.raises(DuplicateEntryError, match="cannot come next"):
            store.append_action(m, "N B3@3", expect_seq=3)
        assert store.append_action(m, "N B3@3", expect_seq=2).seq == 2


def test_the_log_is_append_only_even_through_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    _filled(path)
    conn = sqlite3.connect(path)
    try:
        for sql in ("UPDATE entries SET action = 'S R1@1' WHERE seq = 1",
                    "DELETE FROM entries WHERE seq = 4",
                    "INSERT INTO entries (match_id, seq, time, kind) VALUES (1, 9, 't', 'note')",
                    "UPDATE matches SET north = 'Eve'"):
            with pytest.raises(sqlite3.DatabaseError):
                conn.execute(sql)
    finally:
        conn.close()


def test_missing_match(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        with pytest.raises(MatchNotFoundError, match="no match 42"):
            store.header(42)
        with pytest.raises(MatchNotFoundError, match="no match 42"):
            store.append_note(42, "hello")
        with pytest.raises(MatchNotFoundError):
            store.entries(42)


def test_frames_saved_with_actions(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        e = store.append_action(m, "S R8@3", frame=JPEG, observation={"flags": []})
        store.append_action(m, "N B3@3")
        store.add_frame(m, 2, JPEG)
        assert store.frame_seqs(m) == [1, 2]
        f = store.frame(m, e.seq)
        assert f is not None and f.jpeg == JPEG and f.observation == {"flags": []}
        with pytest.raises(DuplicateEntryError):
            store.add_frame(m, 2, JPEG)
        with pytest.raises(EntryError, match="JPEG"):
            store.append_action(m, "S R9@3", frame=b"PNG...")
        with pytest.raises(EntryError, match="no entry 9"):
            store.add_frame(m, 9, JPEG)
        assert store.last_seq(m) == 2


def test_readonly_store_cannot_write_and_needs_a_file(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    with pytest.raises(RecordError, match="no match database"):
        MatchStore(path, readonly=True)
    assert not path.exists()
    m = _filled(path)
    with MatchStore(path, readonly=True) as store:
        assert store.last_seq(m) == 4
        with pytest.raises(RecordError, match="read-only"):
            store.append_note(m, "x")


# -- damaged and foreign files ---------------------------------------------------------------
def _copy(tmp_path: Path, name: str) -> Path:
    good = tmp_path / "good.sqlite"
    if not good.exists():
        _filled(good)
        with MatchStore(good) as store:  # grow it past a few pages
            m = store.new_match()
            for i in range(300):
                store.append_note(m, f"note {i} " + "x" * 200)
    copy = tmp_path / name
    shutil.copyfile(good, copy)
    return copy


@pytest.mark.parametrize("damage", ["truncate", "garble-middle", "garble-header", "empty"])
def test_damaged_file_is_reported_and_left_byte_identical(tmp_path: Path, damage: str) -> None:
    path = _copy(tmp_path, f"{damage}.sqlite")
    data = path.read_bytes()
    if damage == "truncate":
        data = data[: len(data) // 2 + 123]
    elif damage == "garble-middle":
        mid = len(data) // 2
        data = data[:mid] + bytes((b ^ 0x5A) for b in data[mid:mid + 8192]) + data[mid + 8192:]
    elif damage == "garble-header":
        data = b"Garbage format 9" + data[16:]
    else:
        data = b""
    path.write_bytes(data)
    with pytest.raises(RecordError) as info:
        with MatchStore(path) as store:
            # If the damage escaped the open-time check, reading it all must still report it.
            for m in store.match_ids():
                store.entries(m)
    assert str(path) in str(info.value)
    assert isinstance(info.value, (DatabaseDamagedError, ForeignDatabaseError))
    assert path.read_bytes() == data
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


def test_foreign_sqlite_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE entries (x)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(ForeignDatabaseError, match="another program"):
        MatchStore(path)
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    _filled(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(SchemaVersionError, match="version 7"):
        MatchStore(path)
    assert path.read_bytes() == before


def test_a_missing_table_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    _filled(path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE frames")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseDamagedError, match="frames"):
        MatchStore(path)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ForeignDatabaseError, match="directory"):
        MatchStore(tmp_path)


def test_times_are_utc_milliseconds(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        paris = dt.timezone(dt.timedelta(hours=1))
        e = store.append_note(m, "x", time=dt.datetime(2026, 11, 21, 23, 59, 59, 999999,
                                                       tzinfo=paris))
        assert e.time == dt.datetime(2026, 11, 21, 22, 59, 59, 999000, tzinfo=dt.timezone.utc)
        assert store.entries(m)[0].time == e.time
        with pytest.raises(EntryError, match="time zone"):
            store.append_note(m, "y", time=dt.datetime(2026, 1, 1))
