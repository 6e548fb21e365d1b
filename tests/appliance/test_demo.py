"""The demo end to end on ground truth, its record, and resuming after SIGKILL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.record.store import MatchStore
from companion.appliance.demo import DemoOptions, run_demo, scene_of
from companion.referee.table import Table
from companion.rules.bots import simulate
from companion.rules.state import Settings


def _log(db: Path) -> tuple[list[str], list[str]]:
    """The committed action entries (in log order) and the effective actions of match 1."""
    with MatchStore(db, readonly=True) as store:
        entries = store.entries(1)
        kinds = [f"{e.kind} {e.action}" for e in entries
                 if e.kind in ("action", "pass", "round-end") or e.accepted]
        return kinds, [str(a) for a in store.effective_actions(1, round=1)]


@pytest.mark.parametrize("seed", [3, 11])
def test_demo_records_what_was_played_and_replays(tmp_path: Path, seed: int) -> None:
    lines: list[str] = []
    result = run_demo(DemoOptions(seed=seed, db=tmp_path / "m.sqlite", vision=False),
                      lines.append)
    assert result.agreement == 1.0 and result.recorded == result.played
    assert any("claims flag" in line for line in lines)
    # Replaying the saved match rebuilds the final table of the game really played.
    with MatchStore(tmp_path / "m.sqlite", readonly=True) as store:
        final = store.replay(result.match_id)[-1]
    truth = simulate(seed, settings=Settings()).final
    assert Table.from_state(final) == Table.from_state(truth)
    assert final.winner == truth.winner
    assert Table.from_observation(scene_of(truth, seed).observation()) == \
        Table.from_state(final)  # type: ignore[attr-defined]


def _demo(db: Path, seed: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--no-vision", "--seed", str(seed),
         "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONHASHSEED": "0"})


def test_sigkill_and_resume_loses_and_doubles_nothing(tmp_path: Path) -> None:
    seed = 5
    whole = tmp_path / "whole.sqlite"
    began = time.perf_counter()
    p = _demo(whole, seed)
    out, err = p.communicate(timeout=120)
    duration = time.perf_counter() - began
    assert p.returncode == 0, err.decode()
    expected = _log(whole)

    rng = random.Random(2024)
    scale = 1.0
    for attempt in range(4):
        killed = tmp_path / f"killed-{attempt}.sqlite"
        kills = 0
        finished = False
        for _ in range(8):
            p = _demo(killed, seed)
            time.sleep(rng.uniform(0.2, 0.9) * duration * scale)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()
                kills += 1
                continue
            out, err = p.communicate()
            assert p.returncode == 0, err.decode()
            finished = True
            break
        if kills:
            break
        scale /= 2  # the machine ran faster than measured: kill sooner
    if not finished:
        p = _demo(killed, seed)
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    assert kills >= 1
    assert b"agreement between the record and the game played: 100.0%" in out
    assert _log(killed) == expected


@pytest.mark.slow
def test_demo_through_the_real_pipeline(tmp_path: Path) -> None:
    """Frames drawn, read by the vision pipeline, refereed and recorded (contract 3)."""
    from companion.cli import main
    frames = tmp_path / "frames"
    code = main(["demo", "--seed", "7", "--actions", "14", "--db", str(tmp_path / "v.sqlite"),
                 "--frames", str(frames)])
    assert code == 0
    assert len(list(frames.glob("frame-*.jpg"))) > 14 * 5
    with MatchStore(tmp_path / "v.sqlite", readonly=True) as store:
        assert len(store.effective_actions(1)) == 14


def test_demo_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    assert main(["demo", "--no-vision", "--actions", "0", "--db", str(tmp_path / "x")]) == 2
    assert "--actions must be at least 1" in capsys.readouterr().err
    assert main(["demo", "--printing", "nope", "--db", str(tmp_path / "x")]) == 2
    assert "unknown printing 'nope'" in capsys.readouterr().err


# -- Schotten Totten ---------------------------------------------------------------------------
@pytest.mark.slow
def test_a_whole_schotten_totten_game_through_the_real_pipeline(tmp_path: Path) -> None:
    """A full Schotten Totten game: its 64-card printing enrolled, every frame drawn and read
    by the vision pipeline, refereed with the edition's rules and recorded, 100% agreement."""
    lines: list[str] = []
    result = run_demo(DemoOptions(seed=1, db=tmp_path / "st.sqlite", edition="schotten-totten"),
                      out=lines.append)
    assert result.winner is not None and result.termination in ("breakthrough", "envelopment")
    assert result.agreement == 1.0 and len(result.recorded) == len(result.played) > 40
    text = "\n".join(lines)
    assert "Schotten Totten" in text and "stone" in text and " flag " not in text
    with MatchStore(tmp_path / "st.sqlite", readonly=True) as store:
        assert store.header(result.match_id).edition == "schotten-totten"
        assert store.header(result.match_id).naming == "schotten-en"


def test_schotten_totten_demo_without_vision(tmp_path: Path) -> None:
    lines: list[str] = []
    result = run_demo(DemoOptions(seed=2, db=tmp_path / "st.sqlite", vision=False,
                                  edition="schotten-totten"), out=lines.append)
    assert result.agreement == 1.0 and result.winner is not None
    played = {a.card.code for a in result.played if hasattr(a, "card")}
    assert "CAVALRY" not in played and not any(code.endswith("10") for code in played)


def test_schotten_totten_demo_needs_a_printing_of_its_deck(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    assert main(["demo", "--edition", "schotten-totten", "--printing", "bold", "--actions", "1",
                 "--db", str(tmp_path / "x")]) == 2
    assert "is a deck of Battle Line, not of Schotten Totten" in capsys.readouterr().err
