"""Whole-match text notation and JSON: strict writing, lenient reading, exact round trips."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record.model import Entry, MatchHeader, MatchNotationError
from companion.record.notation import (
    MatchRecord,
    read_json,
    read_match,
    read_text,
    write_json,
    write_text,
)
from companion.record.replay import final_state
from companion.record.store import MatchStore

from .helpers import random_game, record_game

HEADER = MatchHeader(north='Ann "the Bold"', south="Bob \\ Co", date="2026-11-21",
                     place="Café des Jeux", naming="gmt-fr", timing="standard", first="north",
                     calibration="rig-1", calibration_summary={"tiles": 9, "px_per_cm": 23.1},
                     extra={"Table": "3", "Event": "Club night"})


def _record(tmp_path: Path, seed: int = 1, **kw: object) -> tuple[MatchStore, int]:
    actions, _ = random_game(seed, first=HEADER.first)
    store = MatchStore(tmp_path / "m.sqlite")
    m = record_game(store, actions, HEADER, **kw)  # type: ignore[arg-type]
    return store, m


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_text_and_json_round_trip_to_the_same_match(tmp_path: Path, seed: int) -> None:
    store, m = _record(tmp_path, seed)
    with store:
        # corrections and undos too, after the game's actions, so the log has every kind
        store.append_undo(store_last := m, len(store.effective_actions(m)) - 1,
                          message="took back the last one")
        store.append_round_end(store_last, None, message="abandoned")
        record = store.record(m)
        text = write_text(record)
        from_text = read_text(text)
        assert from_text.errors == ()
        assert from_text == record
        from_json = read_json(write_json(record))
        assert from_json.errors == ()
        assert from_json == record
        # Imported back, it is the same match, and it exports to the same text.
        new_id = store.import_record(from_text)
        assert new_id != m
        assert store.record(new_id) == record
        assert write_text(store.record(new_id)) == text
        assert (store.replay(new_id)[-1].position() == store.replay(m)[-1].position())


def test_text_reads_like_a_score_sheet(tmp_path: Path) -> None:
    store, m = _record(tmp_path)
    with store:
        text = write_text(store.record(m))
    lines = text.splitlines()
    assert lines[0] == '[North "Ann \\"the Bold\\""]'
    assert '[South "Bob \\\\ Co"]' in lines and '[Timing "standard"]' in lines
    assert '[X-Table "3"]' in lines and '[Place "Café des Jeux"]' in lines
    assert any(line.startswith("[Result ") for line in lines)
    body = [line for line in lines if line and not line.startswith(("[", " ", ";"))]
    assert body[0].startswith("2026-11-21T20:00:07.000Z")
    assert "1. " in body[0]
    assert any(" violation south side-full S R1@1 {" in line for line in body)
    assert any(" claim " in line and " accepted " in line for line in body)


def test_times_across_midnight_round_trip(tmp_path: Path) -> None:
    actions, _ = random_game(4)
    start = dt.datetime(2026, 11, 21, 23, 58, 0, tzinfo=dt.timezone.utc)
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = record_game(store, actions, MatchHeader(), start=start)
        record = store.record(m)
    text = write_text(record)
    assert "2026-11-22T" in text  # the new day is written out in full
    assert read_text(text) == record


@settings(max_examples=80, deadline=None)
@given(message=st.text(max_size=40), key=st.text(min_size=1, max_size=10),
       north=st.text(max_size=12).filter(lambda s: "\n" not in s and "\r" not in s))
def test_any_message_key_and_name_round_trip(message: str, key: str, north: str) -> None:
    t = dt.datetime(2026, 1, 2, 3, 4, 5, 6000, tzinfo=dt.timezone.utc)
    record = MatchRecord(MatchHeader(north=north), (
        Entry(seq=1, time=t, kind="note", message=message, key=key, data={"m": message}),
        Entry(seq=2, time=t, kind="action", player="south", action="S R8@3", message=message),
    ))
    assert read_text(write_text(record)) == record
    assert read_json(write_json(record)) == record


BAD_TEXT = """\
[North "Ann"]
[South "Bob"]
[Date "2026-11-21"]
[Naming "gmt-en"]
[Timing "sometimes"]
[Rounds "1"]
[Colour "blue"]
[Result "*"]

2026-11-21T20:00:00.000Z 1. S R8@3
20:00:01.000Z 2. N R8@3 {R8 is already on the table}
20:00:02.000 2. N Q8@3
20:00:03.000 violation north
20:00:04.000 undo two
   %{not json
20:00:04.500 undo two
25:00:05.000 note - {fine}
"""


def test_lenient_reader_collects_every_error() -> None:
    record = read_text(BAD_TEXT)
    errors = "\n".join(record.errors)
    assert "line 12" in errors and "'Q8'" in errors
    assert "line 13" in errors and "reason code" in errors
    assert "line 14" in errors and "not valid JSON" in errors
    assert "line 16" in errors and "#N" in errors
    assert "line 17" in errors and "25:00" in errors
    assert "[Colour]" in errors and "[First]" in errors and "[Version]" in errors
    assert "sometimes" in errors
    assert len(record.entries) == 2  # what could be read was kept
    with pytest.raises(MatchNotationError, match="errors"):
        record.raise_errors("bad.txt")


def test_illegal_actions_and_a_wrong_result_are_errors(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match(MatchHeader())
        store.append_action(m, "S R8@3")
        store.append_action(m, "N B3@3")
        text = write_text(store.record(m))
    illegal = text.replace("N B3@3", "N R8@4")
    assert any("refused by the rules" in e for e in read_text(illegal).errors)
    wrong = text.replace('[Result "*"]', '[Result "north"]')
    assert any("disagrees" in e for e in read_text(wrong).errors)


def test_json_reader_is_lenient_too(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match(MatchHeader())
        store.append_action(m, "S R8@3")
        store.append_action(m, "N B3@3")
        obj = json.loads(write_json(store.record(m)))
    obj["format"] = "chess-pgn"
    obj["entries"][1]["seq"] = 5
    obj["entries"].append({"seq": 2, "time": "yesterday", "kind": "note"})
    obj["header"]["timing"] = "never"
    record = read_json(json.dumps(obj))
    errors = "\n".join(record.errors)
    assert "chess-pgn" in errors and "seq 5" in errors and "yesterday" in errors
    assert "never" in errors
    assert read_json("[1, 2]").errors and read_json("{oops").errors
    assert read_match(json.dumps(obj)).errors == record.errors


def test_final_state_of_a_text_record(tmp_path: Path) -> None:
    actions, final = random_game(7)
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = record_game(store, actions, MatchHeader())
        text = write_text(store.record(m))
    record = read_text(text)
    assert final_state(record.header, record.entries).position() == final.position()
