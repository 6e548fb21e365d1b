"""Import under attack: forged or inconsistent matches are refused, naming the first entry the
replay disagrees with; hostile files (deep nesting, huge integers, lone surrogates) are one
line; and mutations of real exports either import as the very same match or are refused in
one line, never a traceback."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import CompanionError
from companion.record.model import MatchHeader
from companion.record.notation import (
    MatchRecord,
    read_json,
    read_match,
    read_text,
    write_json,
    write_text,
)
from companion.record.store import MatchStore
from companion.rules.match import RoundResult
from companion.rules.state import GameState, Settings

from .helpers import random_game, record_game

HEADER = MatchHeader(north="Ann", south="Bob", date="2026-11-21", place="Club")
SEED = 4          # north wins by envelopment; north holds 4 flags after action 101


def _base(tmp_path: Path) -> tuple[MatchRecord, list[Any]]:
    actions, final = random_game(SEED)
    assert final.winner == "north" and final.outcome is not None
    with MatchStore(tmp_path / "base.sqlite") as store:
        m = record_game(store, actions, HEADER)
        result = RoundResult.of(final)
        store.append_round_end(m, "north", scores={s: result.points(s) for s in ("north",
                                                                                  "south")},
                               message=f"north wins by {final.outcome.termination}",
                               turn=final.turn)
        return store.record(m), actions


def _unchained(record: MatchRecord) -> dict[str, Any]:
    """The JSON of a record without its chain: what a forger who knows the format sends."""
    obj = json.loads(write_json(record))
    obj.pop("chain", None)
    for e in obj["entries"]:
        e.pop("hash", None)
    return obj


def _refused(tmp_path: Path, obj: dict[str, Any], capsys: pytest.CaptureFixture[str],
             *needles: str, as_text: str | None = None) -> str:
    """The forged match is refused in both forms, in one line, and nothing is written.

    The text form is written from the forged JSON, or given as `as_text` (a header the
    JSON reader refuses cannot be written from the record it reads)."""
    db = tmp_path / "target.sqlite"
    said = []
    for form in ("json", "text"):
        if form == "json":
            text = json.dumps(obj)
        elif as_text is not None:
            text = as_text
        else:
            record = read_json(json.dumps(obj))
            assert record.header == MatchHeader.from_json(obj["header"])
            text = write_text(record, result=obj.get("result"))
        path = tmp_path / f"forged.{form}"
        path.write_text(text, encoding="utf-8")
        assert main(["matches", "import", str(path), "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        for needle in needles:
            assert needle in err, err
        said.append(err)
    if db.exists():
        with MatchStore(db, readonly=True) as store:
            assert store.match_ids() == []
    return said[0]


def test_the_unforged_match_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _base(tmp_path)
    path = tmp_path / "honest.json"
    path.write_text(json.dumps(_unchained(record)), encoding="utf-8")
    assert main(["matches", "import", str(path), "--db", str(tmp_path / "t.sqlite")]) == 0
    assert "imported" in capsys.readouterr().out


def _round_end(obj: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in obj["entries"] if e["kind"] == "round-end")


def test_a_result_for_the_loser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _base(tmp_path)
    obj = _unchained(record)
    obj["result"] = "south"
    _refused(tmp_path, obj, capsys, "disagrees with the replayed match (north)")
    end = _round_end(obj)
    end["player"] = "south"
    end["message"] = "south wins by envelopment"
    _refused(tmp_path, obj, capsys, f"entry {end['seq']} (round-end)", "replay gives north")


def _cut(obj: dict[str, Any], actions: int, turn: int | None = None) -> dict[str, Any]:
    """The log up to its `actions`-th action (or its first action at `turn`), then a round
    end claiming that north won by envelopment."""
    out = copy.deepcopy(obj)
    kept, count = [], 0
    for e in out["entries"]:
        if e["kind"] == "round-end":
            break
        if turn is not None and e.get("turn", 0) >= turn and e["kind"] == "action":
            break
        kept.append(e)
        if e["kind"] in ("action", "pass", "claim") and (e["kind"] != "claim"
                                                         or e["data"]["accepted"]):
            count += 1
            if count == actions:
                break
    end = dict(_round_end(obj))
    end.update(seq=len(kept) + 1, turn=kept[-1].get("turn", 1))
    out["entries"] = kept + [end]
    return out


def test_a_round_ended_at_turn_20_with_no_flag_held(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _base(tmp_path)
    obj = _cut(_unchained(record), actions=10_000, turn=20)
    said = _refused(tmp_path, obj, capsys, "(round-end) says north won round 1",
                    "the game is not over")
    assert "north holds 0 flag(s)" in said or "flag(s)" in said


def test_four_flags_are_no_envelopment(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    record, actions = _base(tmp_path)
    obj = _cut(_unchained(record), actions=101)
    state = GameState.new_table(first="south", settings=Settings())
    for a in actions[:101]:
        state = state.apply(a)
    assert len(state.claimed_flags("north")) == 4 and not state.over
    _refused(tmp_path, obj, capsys, "north holds 4 flag(s)", "not over")


def test_an_accepted_claim_whose_verdict_is_not_valid(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    record, _ = _base(tmp_path)
    obj = _unchained(record)
    claim = next(e for e in obj["entries"] if e["kind"] == "claim" and e["data"]["accepted"])
    claim["data"]["verdict"]["valid"] = False
    _refused(tmp_path, obj, capsys, f"entry {claim['seq']} ", "stored as accepted",
             "valid: false")
    # The verdict's reason changed as well, and the claim refused: the prover disagrees.
    claim["data"]["accepted"] = False
    claim["data"]["verdict"]["reason"] = "can-beat"
    claim["code"] = "can-beat"
    _refused(tmp_path, obj, capsys, f"entry {claim['seq']} ", "prover")


def test_scores_that_do_not_follow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _base(tmp_path)
    obj = _unchained(record)
    end = _round_end(obj)
    end["data"]["scores"]["south"] += 4
    _refused(tmp_path, obj, capsys, f"entry {end['seq']} (round-end) gives scores")


def test_an_impossible_date(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _base(tmp_path)
    obj = _unchained(record)
    obj["header"]["date"] = "2026-13-45"
    text = write_text(read_json(json.dumps(_unchained(record))))
    assert '[Date "2026-11-21"]' in text
    _refused(tmp_path, obj, capsys, "2026-13-45", "is not a date",
             as_text=text.replace('[Date "2026-11-21"]', '[Date "2026-13-45"]'))


def test_turn_labels_out_of_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _base(tmp_path)
    obj = _unchained(record)
    acts = [e for e in obj["entries"] if e["kind"] == "action"]
    acts[30]["turn"], acts[10]["turn"] = acts[10]["turn"], acts[30]["turn"]
    _refused(tmp_path, obj, capsys, f"entry {acts[10]['seq']} (action) is labelled turn "
                                    f"{acts[10]['turn']}")


def test_a_chained_forgery_is_named_by_the_chain(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _base(tmp_path)
    obj = json.loads(write_json(record))
    end = _round_end(obj)
    end["data"]["scores"]["south"] += 4
    _refused(tmp_path, obj, capsys, f"hash chain breaks at entry {end['seq']}")


# -- hostile files ----------------------------------------------------------------------------
def _hostile() -> Iterator[tuple[str, str]]:
    deep = 100_000
    huge = "9" * 5000
    yield "nested.json", '{"format": "battleline-match/1", "header": ' + "[" * deep
    yield "nested-data.txt", ('[North "A"]\n[South "B"]\n[Date "2026-11-21"]\n[Naming "gmt-en"]'
                              '\n[Timing "standard"]\n[Rounds "1"]\n[First "south"]\n'
                              '[Version "0.1.0"]\n\n2026-11-21T20:00:00.000Z note - {x}\n'
                              '  %{"data": ' + "[" * deep + "\n")
    yield "huge-seq.json", ('{"format": "battleline-match/1", "header": {}, "entries": '
                            '[{"seq": ' + huge + ', "time": "2026-11-21T20:00:00.000Z", '
                            '"kind": "note"}]}')
    base = ('[North "A"]\n[South "B"]\n[Date "2026-11-21"]\n[Naming "gmt-en"]\n'
            '[Timing "standard"]\n[First "south"]\n[Version "0.1.0"]\n')
    yield "huge-rounds.txt", base + f'[Rounds "{huge}"]\n'
    yield "huge-turn.txt", base + '[Rounds "1"]\n\n2026-11-21T20:00:00.000Z ' + huge + ". S R8@3\n"
    yield "huge-index.txt", base + '[Rounds "1"]\n\n2026-11-21T20:00:00.000Z undo #' + huge + "\n"
    yield "huge-data.txt", (base + '[Rounds "1"]\n\n2026-11-21T20:00:00.000Z note - {x}\n'
                            '  %{"data": {"n": ' + huge + "}}\n")
    yield "surrogate.json", ('{"format": "battleline-match/1", "header": {"north": "\\ud800"}, '
                             '"entries": []}')
    yield "surrogate-message.json", (
        '{"format": "battleline-match/1", "header": {}, "entries": [{"seq": 1, '
        '"time": "2026-11-21T20:00:00.000Z", "kind": "note", "message": "a \\udc00 b"}]}')
    yield "surrogate-comment.txt", (base + '[Rounds "1"]\n\n2026-11-21T20:00:00.000Z note - '
                                    "{a \\ud800 b}\n")
    yield "surrogate-tag.txt", base.replace('"A"', '"\\ud83d"') + '[Rounds "1"]\n'
    yield "surrogate-data.txt", (base + '[Rounds "1"]\n\n2026-11-21T20:00:00.000Z note - {x}\n'
                                 '  %{"data": {"s": "\\udfff"}}\n')


@pytest.mark.parametrize("name, text", list(_hostile()), ids=[n for n, _ in _hostile()])
def test_hostile_files_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "m.sqlite"
    assert main(["matches", "import", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err[:500]
    assert len(err) < 2000
    assert main(["matches", "verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


# -- mutations of real exports ----------------------------------------------------------------
_CHARS = st.sampled_from(list('0123456789 "{}[]%#\\:.,-_\nabcSNéx\u2028\ud800') + ["true", "null"])


@st.composite
def _mutation(draw: st.DrawFn, text: str) -> str:
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        op = draw(st.sampled_from(["delete", "insert", "replace", "dup-line", "drop-line",
                                   "swap-lines", "digit"]))
        if op in ("dup-line", "drop-line", "swap-lines") and len(lines) > 2:
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if op == "dup-line":
                lines.insert(i, lines[i])
            elif op == "drop-line":
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
            continue
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        if op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif op == "insert":
            text = text[:at] + draw(_CHARS) + text[at:]
        elif op == "digit":
            digits = [i for i, ch in enumerate(text) if ch.isdigit()]
            k = digits[draw(st.integers(0, len(digits) - 1))]
            text = text[:k] + str((int(text[k]) + draw(st.integers(1, 9))) % 10) + text[k + 1:]
        else:
            text = text[:at] + draw(_CHARS) + text[at + 1:]
    return text


class _Fuzz:
    """The exports and a store to import into, made once for all examples."""

    record: MatchRecord
    store: MatchStore
    imported = 0
    refused = 0


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[type[_Fuzz]]:
    tmp = tmp_path_factory.mktemp("fuzz")
    actions, _ = random_game(2)
    with MatchStore(tmp / "src.sqlite") as store:
        m = record_game(store, actions[:40], HEADER)
        store.append_undo(m, 38, message="took back")
        _Fuzz.record = store.record(m)
    with MatchStore(tmp / "target.sqlite") as target:
        _Fuzz.store = target
        yield _Fuzz
    print(f"mutated exports: {_Fuzz.imported} imported, {_Fuzz.refused} refused in one line")


def _check_mutant(fuzz: type[_Fuzz], text: str, chained: bool) -> None:
    try:
        record = read_match(text)
        record.raise_errors("file")
        new = fuzz.store.import_record(record)
    except CompanionError as exc:
        assert "\n" not in str(exc), str(exc)[:300]
        fuzz.refused += 1
        return
    fuzz.imported += 1
    if chained:  # the chain covers everything: what imports is the very same match
        got = fuzz.store.record(new)
        assert got == fuzz.record
        assert [e.hash for e in got.entries] == [e.hash for e in fuzz.record.entries]


# COMPANION_FUZZ_EXAMPLES=3000 for a longer run by hand (pytest -s prints the figures).
@settings(max_examples=int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "60")), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture,
                                                                HealthCheck.data_too_large])
@given(data=st.data(), form=st.sampled_from(["text", "json"]), chained=st.booleans())
def test_mutated_exports_import_identically_or_are_refused_in_one_line(
        fuzz: type[_Fuzz], data: st.DataObject, form: str, chained: bool) -> None:
    if chained:
        text = write_text(fuzz.record) if form == "text" else write_json(fuzz.record)
    else:
        obj = _unchained(fuzz.record)
        text = json.dumps(obj, indent=1) if form == "json" else \
            write_text(read_json(json.dumps(obj)))
    _check_mutant(fuzz, data.draw(_mutation(text)), chained)


def test_the_exports_themselves_import(fuzz: type[_Fuzz]) -> None:
    for text in (write_text(fuzz.record), write_json(fuzz.record)):
        assert read_text(text).errors == () if not text.startswith("{") else True
        _check_mutant(fuzz, text, True)
