"""The hash chain: every entry linked to the one before it and the header, checked when a
match is read, exported with the match, checked again on import; older databases chained
once by their first writer; seeded byte flips of a database file never change an export
silently."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import CompanionError
from companion.record.model import (
    ChainError,
    MatchHeader,
    RecordError,
    chain_hashes,
    entry_hash,
    header_hash,
)
from companion.record.notation import read_json, read_text, write_json, write_text
from companion.record.store import _SCHEMA, MatchStore

from .helpers import random_game, record_game

HEADER = MatchHeader(north="Ann", south="Bob", date="2026-11-21", place="Club")


def _filled(path: Path, seeds: tuple[int, ...] = (1,)) -> list[int]:
    ids = []
    with MatchStore(path) as store:
        for seed in seeds:
            actions, _ = random_game(seed)
            ids.append(record_game(store, actions, HEADER))
    return ids


def _edit(path: Path, sql: str, *params: object) -> None:
    """Edit the file behind the companion's back, as someone with sqlite3 could."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TRIGGER IF EXISTS entries_no_update")
        conn.execute("DROP TRIGGER IF EXISTS matches_no_update")
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def test_entries_carry_links_that_follow_from_the_header(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    with MatchStore(path, readonly=True) as store:
        assert store.chained
        header, entries = store.header(m), store.entries(m)
    links = chain_hashes(header, entries)
    assert [e.hash for e in entries] == links
    assert links[0] == entry_hash(header_hash(header), entries[0])
    assert len(set(links)) == len(links)


@pytest.mark.parametrize("column, value, seq", [
    ("action", "S R1@1", 1), ("message", "a note edited", None), ("time",
                                                                 "2026-11-21T20:00:08.000Z", 2),
    ("turn", 9, 3), ("hash", "0" * 64, 5)])
def test_an_edited_entry_is_named_on_read(tmp_path: Path, column: str, value: object,
                                          seq: int | None) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    with MatchStore(path, readonly=True) as store:
        entries = store.entries(m)
    if seq is None:  # the note's seq
        seq = next(e.seq for e in entries if e.kind == "note")
    _edit(path, f"UPDATE entries SET {column} = ? WHERE match_id = ? AND seq = ?",
          value, m, seq)
    with MatchStore(path, readonly=True) as store:
        with pytest.raises(ChainError, match=f"breaks at entry {seq} ") as info:
            store.entries(m)
        assert "\n" not in str(info.value)
        store.entries(m + 1) if m + 1 in store.match_ids() else None
    # The writer refuses to chain onto it, and export says the same in one line.
    code = main(["matches", "export", str(m), "--db", str(path)])
    assert code == 2


def test_an_edited_header_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    _edit(path, "UPDATE matches SET north = 'Eve' WHERE id = ?", m)
    with MatchStore(path, readonly=True) as store:
        with pytest.raises(ChainError, match="header does not match"):
            store.header(m)
    assert main(["matches", "list", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "header" in err


def test_the_writer_does_not_chain_onto_a_damaged_last_entry(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    with MatchStore(path) as store:
        last = store.last_seq(m)
    _edit(path, "UPDATE entries SET message = 'changed' WHERE match_id = ? AND seq = ?",
          m, last)
    with MatchStore(path) as store:
        with pytest.raises(ChainError, match=f"entry {last}"):
            store.append_note(m, "more")
        assert store.last_seq(m) == last


def test_exports_carry_the_chain_and_an_edit_is_named_on_import(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    with MatchStore(path) as store:
        record = store.record(m)
        text, doc = write_text(record), write_json(record)
        end = record.entries[-1].hash
        assert f'[Chain "{end}"]' in text and json.loads(doc)["chain"] == end
        assert read_text(text).errors == () and read_json(doc).errors == ()
        # The same match imported again keeps the same chain, end to end.
        new = store.import_record(read_text(text))
        assert store.record(new).entries[-1].hash == end
    # An edit anywhere in the file is named (the note's text, here entry 6's comment).
    edited = text.replace("{a note\\nover two lines}", "{a note over two lines}")
    assert edited != text
    errors = read_text(edited).errors
    assert errors and errors[0].startswith("the hash chain breaks at entry ")
    obj = json.loads(doc)
    obj["header"]["place"] = "Elsewhere"
    errors = read_json(json.dumps(obj)).errors
    assert errors and "the header or entry 1" in errors[0]
    # Stripping the entries' hashes but keeping the chain's end is caught too.
    for e in obj["entries"]:
        del e["hash"]
    assert any("entries carry no hashes" in e for e in read_json(json.dumps(obj)).errors)
    # One hash missing among others is an error.
    obj = json.loads(doc)
    del obj["entries"][3]["hash"]
    assert any("entry 4 carries no hash" in e for e in read_json(json.dumps(obj)).errors)


def test_a_file_without_any_chain_imports_and_is_chained_then(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    with MatchStore(path, readonly=True) as store:
        obj = json.loads(write_json(store.record(m)))
    del obj["chain"]
    for e in obj["entries"]:
        del e["hash"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(obj), encoding="utf-8")
    assert main(["matches", "verify", str(old)]) == 2
    assert "carries no hash chain" in capsys.readouterr().err
    assert main(["matches", "import", str(old), "--db", str(path)]) == 0
    assert "chained from now on" in capsys.readouterr().out
    assert main(["matches", "verify", "2", "--db", str(path)]) == 0
    assert "chain intact" in capsys.readouterr().out


def test_verify_a_match_and_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    assert main(["matches", "verify", str(m), "--db", str(path)]) == 0
    said = capsys.readouterr().out
    out = tmp_path / "m.txt"
    assert main(["matches", "export", str(m), "--db", str(path), "--out", str(out)]) == 0
    assert main(["matches", "verify", str(out)]) == 0
    assert capsys.readouterr().out.split("chain end ")[1] == said.split("chain end ")[1]
    out.write_text(out.read_text(encoding="utf-8").replace("N ", "S ", 1), encoding="utf-8")
    assert main(["matches", "verify", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hash chain breaks at entry" in err


# -- schema 1 databases ------------------------------------------------------------------------
def _schema1_copy(src: Path, dst: Path) -> None:
    """The same matches in a database of schema 1 (before the chain)."""
    schema = _SCHEMA.replace(",\n    edition TEXT NOT NULL DEFAULT 'battle-line'", "")
    schema = schema.replace(",\n    hash TEXT", "")
    assert "hash" not in schema and "edition" not in schema
    conn = sqlite3.connect(dst)
    conn.executescript(schema + "\nPRAGMA application_id=1112294193;\nPRAGMA user_version=1;")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("ATTACH DATABASE ? AS src", (str(src),))
    conn.execute("INSERT INTO matches SELECT id, created, north, south, date, place, naming, "
                 "timing, rounds, first, app_version, calibration, calibration_summary, extra "
                 "FROM src.matches")
    conn.execute("INSERT INTO entries SELECT match_id, seq, time, kind, player, turn, idx, "
                 "action, code, message, data, key FROM src.entries ORDER BY match_id, seq")
    conn.commit()
    conn.close()


def test_a_schema_1_database_reads_and_is_chained_by_its_first_writer(tmp_path: Path) -> None:
    new = tmp_path / "new.sqlite"
    ids = _filled(new, seeds=(1, 2))
    old = tmp_path / "old.sqlite"
    _schema1_copy(new, old)
    with MatchStore(new, readonly=True) as store:
        texts = [write_text(store.record(m)) for m in ids]
    with MatchStore(old, readonly=True) as store:  # read-only: left as it is, chain computed
        assert not store.chained and store.pragma("user_version") == 1
        assert [write_text(store.record(m)) for m in ids] == texts
    with MatchStore(old) as store:                 # the first writer migrates
        assert store.chained and store.pragma("user_version") == 3
        assert [write_text(store.record(m)) for m in ids] == texts
        store.append_note(ids[0], "after the migration")
    with MatchStore(old, readonly=True) as store:
        assert store.entries(ids[0])[-1].message == "after the migration"
    # Still append-only after the migration.
    conn = sqlite3.connect(old)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE entries SET message = 'x'")
    conn.close()


def _schema2_copy(src: Path, dst: Path) -> None:
    """The same matches in a database of schema 2 (chained, before editions)."""
    schema = _SCHEMA.replace(",\n    edition TEXT NOT NULL DEFAULT 'battle-line'", "")
    assert "edition" not in schema
    conn = sqlite3.connect(dst)
    conn.executescript(schema + "\nPRAGMA application_id=1112294193;\nPRAGMA user_version=2;")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("ATTACH DATABASE ? AS src", (str(src),))
    conn.execute("INSERT INTO matches SELECT id, created, north, south, date, place, naming, "
                 "timing, rounds, first, app_version, calibration, calibration_summary, extra, "
                 "hash FROM src.matches")
    conn.execute("INSERT INTO entries SELECT * FROM src.entries ORDER BY match_id, seq")
    conn.commit()
    conn.close()


def test_a_schema_2_database_reads_as_battle_line_and_gains_editions(tmp_path: Path) -> None:
    new = tmp_path / "new.sqlite"
    ids = _filled(new, seeds=(1,))
    old = tmp_path / "old.sqlite"
    _schema2_copy(new, old)
    with MatchStore(new, readonly=True) as store:
        text = write_text(store.record(ids[0]))
    with MatchStore(old, readonly=True) as store:  # read-only: left as it is
        assert store.pragma("user_version") == 2
        assert store.header(ids[0]).edition == "battle-line"
        assert write_text(store.record(ids[0])) == text  # hashes and text as before
    with MatchStore(old) as store:                 # the first writer migrates
        assert store.pragma("user_version") == 3
        assert write_text(store.record(ids[0])) == text
        assert "[Edition" not in text


# -- seeded byte flips -------------------------------------------------------------------------
def _exports(path: Path) -> list[tuple[int, int, str]]:
    with MatchStore(path, readonly=True) as store:
        return [(i.id, i.entries, write_text(store.record(i.id))) for i in store.matches()]


def flip_figures(path: Path, tries: int, seed: int, work: Path) -> dict[str, int]:
    """Flip one byte at a time (seeded) and sort each outcome."""
    base = _exports(path)
    data = path.read_bytes()
    rng = random.Random(seed)
    counts = {"detected": 0, "identical": 0, "changed": 0}
    for _ in range(tries):
        damaged = bytearray(data)
        damaged[rng.randrange(len(data))] ^= rng.randrange(1, 256)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{work}{suffix}").unlink(missing_ok=True)
        work.write_bytes(bytes(damaged))
        try:
            got = _exports(work)
        except CompanionError as exc:
            assert "\n" not in str(exc), str(exc)
            counts["detected"] += 1
            continue
        counts["identical" if got == base else "changed"] += 1
    return counts


def test_byte_flips_are_detected_in_one_line_or_change_nothing(tmp_path: Path) -> None:
    # COMPANION_FLIPS=5000 for a longer run by hand (pytest -s prints the figures).
    tries = int(os.environ.get("COMPANION_FLIPS", "100"))
    path = tmp_path / "m.sqlite"
    _filled(path, seeds=(1, 2, 3))
    counts = flip_figures(path, tries, seed=12, work=tmp_path / "flipped.sqlite")
    print(f"byte flips of a {path.stat().st_size}-byte database: {counts}")
    assert counts["changed"] == 0, counts
    assert counts["detected"] > 0 and sum(counts.values()) == tries


def test_a_damaged_index_cannot_cut_a_log_short(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    [m] = _filled(path)
    with MatchStore(path, readonly=True) as store:
        count = len(store.entries(m))
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE type = 'index' AND "
                        "name = 'sqlite_autoindex_entries_1'").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    at = (root - 1) * page_size
    assert data[at] == 0x0A  # one leaf page holds the whole (match, seq) index
    cells = int.from_bytes(data[at + 3:at + 5], "big")
    assert cells == count
    # The index forgets its last five keys, as a damaged page can: the table keeps the rows.
    # The page's fragment count is set so that SQLite's own quick check finds nothing wrong.
    data[at + 3:at + 5] = (cells - 5).to_bytes(2, "big")
    for fragments in range(256):
        data[at + 7] = fragments
        path.write_bytes(bytes(data))
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        sound = conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        conn.close()
        if sound:
            break
    assert sound
    with pytest.raises(RecordError, match=f"reads as {count - 5} entries but the file holds "
                                          f"{count}") as info:
        with MatchStore(path, readonly=True) as store:
            store.entries(m)
    assert "\n" not in str(info.value)
