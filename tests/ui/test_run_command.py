"""`companion run`: bad options give one line and exit status 2; with --source it starts the
whole appliance on a laptop (mock LEDs, with a warning) and records the match."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bench.ui import render_frames
from companion.cli import main

COMPANION = [sys.executable, "-m", "companion"]


def test_bad_size_is_one_line_and_status_2(capsys) -> None:
    assert main(["run", "--size", "big"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--size 'big'" in err


def test_a_damaged_deck_is_one_line_and_status_2(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "deck.npz"
    bad.write_bytes(b"not a deck")
    assert main(["run", "--source", str(tmp_path), "--deck", str(bad), "--size", "800x480"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err


def test_run_on_recorded_frames_with_mock_leds(tmp_path: Path) -> None:
    # A second per moment, as at a table; 30 s for the run, so that a busy machine still
    # reads the 24 frames (a quiet one needs about 5 s).
    deck, _ = render_frames(tmp_path, calm=8, steps=2)
    db = tmp_path / "matches.sqlite"
    env = dict(os.environ, KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               COMPANION_DATA=str(tmp_path / "data"))
    result = subprocess.run(
        COMPANION + ["run", "--source", str(tmp_path / "frames"), "--deck", str(deck),
                     "--db", str(db), "--size", "800x480", "--quit-after", "30"],
        capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "mock pins" in result.stderr          # the fallback is said, not silent
    from companion.record.store import MatchStore
    with MatchStore(db, readonly=True) as store:
        ids = store.match_ids()
        assert len(ids) == 1
        assert [str(a) for a in store.effective_actions(ids[0])] == ["S R8@1", "N B2@1"]


def test_without_a_deck_it_starts_on_the_camera_screen(tmp_path: Path) -> None:
    render_frames(tmp_path, calm=2, steps=0)
    env = dict(os.environ, KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               COMPANION_DATA=str(tmp_path / "data"))
    result = subprocess.run(
        COMPANION + ["run", "--source", str(tmp_path / "frames"), "--size", "800x480",
                     "--db", str(tmp_path / "m.sqlite"), "--quit-after", "2"],
        capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "no enrolled deck" in result.stderr and "Camera screen" in result.stderr


def _run(frames: Path, deck: Path, db: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        COMPANION + ["run", "--source", str(frames), "--deck", str(deck), "--db", str(db),
                     "--size", "800x480", "--quit-after", "90"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)


def _actions(db: Path) -> list[list[str]]:
    from companion.record.store import MatchStore
    if not db.exists():
        return []
    with MatchStore(db, readonly=True) as store:
        return [[str(a) for a in store.effective_actions(m)] for m in store.match_ids()]


@pytest.mark.slow
def test_a_killed_appliance_resumes_its_match(tmp_path: Path) -> None:
    import shutil
    import signal
    import time

    deck, _ = render_frames(tmp_path, calm=8, steps=2)   # empty table, R8, then R8 + B2
    frames = sorted((tmp_path / "frames").iterdir())
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, part in ((first, frames[:16]), (second, frames[8:])):
        folder.mkdir()
        for f in part:
            shutil.copy(f, folder / f.name)
    db = tmp_path / "matches.sqlite"
    env = dict(os.environ, KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               COMPANION_DATA=str(tmp_path / "data"))
    proc = _run(first, deck, db, env)
    try:
        deadline = time.monotonic() + 90
        while _actions(db) != [["S R8@1"]]:
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr
            time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGKILL)     # a power cut mid-match
        proc.wait()
    # Restarted with the table as it was (R8), then North plays B2: the same match goes on.
    proc = _run(second, deck, db, env)
    try:
        deadline = time.monotonic() + 90
        while _actions(db) != [["S R8@1", "N B2@1"]]:
            assert proc.poll() is None and time.monotonic() < deadline, \
                (_actions(db), proc.stderr.read() if proc.poll() is not None else "")
            time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_demo_refuses_a_source_in_one_line(capsys) -> None:
    assert main(["run", "--demo", "--source", "frames", "--size", "800x480"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--demo draws its own table" in err


@pytest.mark.slow
def test_run_demo_plays_the_whole_game_on_the_appliance(tmp_path: Path) -> None:
    # The real app under the virtual display, the real pipeline on drawn frames, mock LEDs;
    # about two minutes on a quiet machine.
    from companion.appliance.demotable import played_actions
    from companion.record.store import MatchStore

    db = tmp_path / "demo.sqlite"
    env = dict(os.environ, KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               COMPANION_DATA=str(tmp_path / "data"))
    result = subprocess.run(
        COMPANION + ["run", "--demo", "--db", str(db), "--size", "800x480", "--quit-at-end",
                     "--event", "Demo night", "--quit-after", "900"],
        capture_output=True, text=True, timeout=1000, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "66 of the 66 moves played are recorded as played, the game is over" in result.stderr
    with MatchStore(db, readonly=True) as store:
        ids = store.match_ids()
        assert len(ids) == 1
        assert tuple(store.effective_actions(ids[0])) == played_actions(1)
        ends = [e for e in store.entries(ids[0]) if e.kind == "round-end"]
        assert len(ends) == 1 and ends[0].player == "north"     # the demo game's winner
        assert store.header(ids[0]).extra["event"] == "Demo night"
