"""`companion matches …`: every sub-command, and bad input as one line on stderr, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.record.model import MatchHeader
from companion.record.store import MatchStore

from .helpers import random_game, record_game

JPEG = b"\xff\xd8\xff\xe0frame\xff\xd9"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "m.sqlite"
    actions, _ = random_game(3)
    with MatchStore(path) as store:
        m = record_game(store, actions, MatchHeader(north="Ann", south="Bob", place="Club"))
        assert m == 1
        m2 = store.new_match(MatchHeader(north="Cy", south="Di"))
        store.append_action(m2, "S R8@3", frame=JPEG, observation={"format": "obs", "n": 1})
        store.append_action(m2, "N B3@3", frame=JPEG)  # a frame without its observation
        store.append_action(m2, "S R9@3")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["matches", *argv])
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("companion matches: ")
    assert "Traceback" not in err
    for word in words:
        assert word in err


def test_list(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, "list", "--db", str(db))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].split()[0] == "1" and "Ann (north) v Bob (south)" in lines[0]
    assert "at Club" in lines[0] and "Cy (north) v Di (south)" in lines[1]


def test_list_without_any_database(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0 and "no matches recorded yet" in out


def test_show(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, "show", "1", "--db", str(db))
    assert code == 0
    assert '[North "Ann"]' in out and "claim" in out and "flag " in out
    assert "game over" in out or "turn " in out


def test_export_and_import_text_and_json(capsys: pytest.CaptureFixture[str], db: Path,
                                         tmp_path: Path) -> None:
    code, text, _ = run(capsys, "export", "1", "--db", str(db))
    assert code == 0 and text.startswith('[North "Ann"]')
    out = tmp_path / "m1.json"
    code, printed, _ = run(capsys, "export", "1", "--format", "json", "--out", str(out),
                           "--db", str(db))
    assert code == 0 and printed == ""
    assert json.loads(out.read_text())["format"] == "battleline-match/1"
    text_file = tmp_path / "m1.txt"
    text_file.write_text(text)
    code, said, _ = run(capsys, "import", str(text_file), "--db", str(db))
    assert code == 0 and said.strip().endswith("as match 3")
    code, said, _ = run(capsys, "import", str(out), "--db", str(db))
    assert code == 0 and said.strip().endswith("as match 4")
    for m in ("3", "4"):
        code, again, _ = run(capsys, "export", m, "--db", str(db))
        assert again == text


def test_export_frames(capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    code, _, err = run(capsys, "export", "2", "--frames", str(folder), "--db", str(db))
    assert code == 0 and "1 labelled frames" in err and "1 without an observation" in err
    assert sorted(p.name for p in folder.iterdir()) == ["match0002-00001.jpg",
                                                        "match0002-00001.json"]
    assert (folder / "match0002-00001.jpg").read_bytes() == JPEG
    assert json.loads((folder / "match0002-00001.json").read_text()) == {"format": "obs",
                                                                         "n": 1}
    code, _, err = run(capsys, "export", "2", "--frames", str(folder), "--db", str(db))
    assert_one_line_error(code, err, "already exists")


def test_replay(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, "replay", "2", "--db", str(db))
    assert code == 0
    assert "1. S R8@3" in out and "2. N B3@3" in out and out.count("flag ") == 3
    code, out, _ = run(capsys, "replay", "2", "--turn", "2", "--db", str(db))
    assert code == 0 and "end of turn 2" in out
    board = out.splitlines()
    assert any("B3" in line for line in board) and not any("R9" in line for line in board)
    code, out, _ = run(capsys, "replay", "2", "--turn", "0", "--db", str(db))
    assert code == 0 and "R8" not in out
    code, out, _ = run(capsys, "replay", "1", "--db", str(db))
    assert code == 0 and "game over" in out


@pytest.mark.parametrize("argv, words", [
    (["show", "99"], ["no match 99"]),
    (["export", "99"], ["no match 99"]),
    (["replay", "99"], ["no match 99"]),
    (["replay", "2", "--turn", "40"], ["no turn 40"]),
    (["replay", "2", "--round", "3"], ["no round 3"]),
    (["show", "x"], ["invalid int value"]),
])
def test_bad_arguments(capsys: pytest.CaptureFixture[str], db: Path, argv: list[str],
                       words: list[str]) -> None:
    code, _, err = run(capsys, *argv, "--db", str(db))
    assert code == 2 and err.count("\n") == 1 and all(w in err for w in words)


def test_a_missing_explicit_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "list", "--db", str(tmp_path / "nope.sqlite"))
    assert_one_line_error(code, err, "no match database")
    assert not (tmp_path / "nope.sqlite").exists()


def test_a_damaged_database_is_reported_and_untouched(capsys: pytest.CaptureFixture[str],
                                                     db: Path) -> None:
    data = bytearray(db.read_bytes())
    data[len(data) // 2: len(data) // 2 + 4096] = bytes(4096)
    db.write_bytes(bytes(data))
    for argv in (["list"], ["show", "1"], ["import", str(db)]):
        code, _, err = run(capsys, *argv, "--db", str(db))
        assert code == 2 and err.count("\n") == 1, err
        assert db.read_bytes() == bytes(data)


@pytest.mark.parametrize("content", [
    b"[North \"Ann\"]\nthis is not a match\n",
    b'{"format": "battleline-match/1", "header": {}, "entries": [{"seq": 1}]}',
    b"\xff\xfe\x00binary",
    b"",
])
def test_import_refuses_a_bad_file(capsys: pytest.CaptureFixture[str], db: Path,
                                   tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "bad.match"
    bad.write_bytes(content)
    code, _, err = run(capsys, "import", str(bad), "--db", str(db))
    assert_one_line_error(code, err, str(bad))
    with MatchStore(db, readonly=True) as store:
        assert store.match_ids() == [1, 2]


def test_import_a_missing_file(capsys: pytest.CaptureFixture[str], db: Path,
                               tmp_path: Path) -> None:
    code, _, err = run(capsys, "import", str(tmp_path / "none.txt"), "--db", str(db))
    assert_one_line_error(code, err, "none.txt")
