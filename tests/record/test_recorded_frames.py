"""Recorded frames: the frame that made the table stable is saved with the actions it
commits, labelled with the confirmed table; exported, a recorded match is labelled data for
`companion vision evaluate`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules.place import Place
from companion.cli import main as cli
from companion.record.export import export_frames
from companion.record.recorder import open_match
from companion.record.store import MatchStore
from companion.referee import Referee, RefereeSettings
from companion.rules.actions import Play
from companion.vision.observation import Observation

from tests.referee.tables import C, Table


class FilmingCamera:
    """Feeds the referee observations with a (tiny, fake) JPEG frame each, numbered."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.t = 0.0
        self.count = 0

    def frame(self) -> bytes:
        return b"\xff\xd8frame-%d" % self.count

    def settle(self, table: Table, **kw: object) -> None:
        for obs in [table.observation(obstructed=(4,), motion=True)] * 2 + \
                [table.observation(**kw)] * 5:  # type: ignore[arg-type]
            self.t += 0.2
            self.count += 1
            self.referee.feed(obs, self.t, frame=self.frame())


def _labels(store: MatchStore, match_id: int) -> dict[int, tuple[bytes, Observation]]:
    out = {}
    for f in store.frames(match_id):
        assert f.observation is not None
        out[f.seq] = (f.jpeg, Observation.from_json(f.observation))
    return out


def test_each_commit_saves_its_stable_frame_with_the_confirmed_table(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        ref, rec = open_match(store, RefereeSettings(record_frames=True))
        assert rec.match_id is not None
        cam = FilmingCamera(ref)
        t = Table()
        cam.settle(t.lay("south", "R7", 3))
        cam.settle(t.lay("north", "B1", 2))
        cam.settle(t.lay("south", "R8", 3))
        # The players straighten flag 3: the column order changes, the referee is lenient.
        t.sides[(3, "south")].reverse()
        cam.settle(t.lay("north", "B2", 2))
        labels = _labels(store, rec.match_id)
        entries = {e.seq: e for e in store.entries(rec.match_id)}
    assert [str(a) for a in ref.state.actions] == ["S R7@3", "N B1@2", "S R8@3", "N B2@2"]
    # One frame per committed action: the frame that made the table stable (after the
    # hand, the third calm frame: stable_frames=3).
    committed = [seq for seq, e in entries.items() if e.kind in ("action", "claim")
                 and (e.kind == "action" or e.accepted)]
    assert sorted(labels) == committed
    first_jpeg, first = labels[committed[0]]
    assert first_jpeg == b"\xff\xd8frame-5"
    assert first.flag(3).south == (C("R7"),) and not first.doubtful
    _, fourth = labels[committed[3]]
    assert fourth.flag(3).south == (C("R8"), C("R7"))   # as the table shows it
    assert fourth.flag(2).north == (C("B1"), C("B2"))


def test_the_label_is_the_players_read_not_the_camera_s(tmp_path: Path) -> None:
    from companion.vision.observation import Doubt
    with MatchStore(tmp_path / "m.sqlite") as store:
        ref, rec = open_match(store, RefereeSettings(record_frames=True))
        assert rec.match_id is not None
        cam = FilmingCamera(ref)
        t = Table()
        doubt = Doubt(Place.parse("flag 3 south"), C("O7"), C("R7"), 0.1, 0)
        cam.settle(t.lay("south", "R7", 3), misread={"R7": "O7"}, doubtful=(doubt,))
        assert ref.state.doubts and not ref.state.actions
        ref.confirm(doubt, C("R7"))               # the players say it is R7
        assert ref.state.actions == (Play("south", C("R7"), 3),)
        # A misread nobody doubted is committed, then corrected: its frame is left out.
        cam.settle(t.lay("north", "B1", 2), misread={"R7": "O7", "B1": "G1"})
        ref.correct(1, C("B1"))
        labels = _labels(store, rec.match_id)
        out = export_frames(store, rec.match_id, tmp_path / "frames")
    assert len(labels) == 2
    label = labels[min(labels)][1]
    assert label.flag(3).south == (C("R7"),)
    assert [p.name for p in out.written] == ["match0001-00003.jpg"]
    assert out.superseded == 1
    saved = json.loads((tmp_path / "frames" / "match0001-00003.json").read_text())
    assert saved["flags"][2]["south"] == ["R7"]


def test_no_frames_unless_the_setting_asks(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        ref, rec = open_match(store, RefereeSettings())
        assert rec.match_id is not None
        FilmingCamera(ref).settle(Table().lay("south", "R7", 3))
        assert len(ref.state.actions) == 1
        assert store.frame_seqs(rec.match_id) == []


def test_the_referee_loads_without_opencv() -> None:
    code = ("import sys; import companion.referee, companion.referee.referee; "
            "sys.exit('cv2' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_recorded_demo_is_labelled_data_for_evaluate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.vision.deck import enrol
    from companion.synth import PRINTINGS, write_deck_images
    db, frames = tmp_path / "m.sqlite", tmp_path / "frames"
    # Seed 11: a Redeploy (a guile card off the line, a card moved) and a claim by 11 actions.
    assert cli(["demo", "--seed", "11", "--actions", "11", "--record-frames",
                "--db", str(db)]) == 0
    assert cli(["matches", "export", "1", "--db", str(db), "--frames", str(frames)]) == 0
    capsys.readouterr()
    jpgs = sorted(frames.glob("*.jpg"))
    assert len(jpgs) == 11
    # The labels are the game as played, step by step.
    with MatchStore(db, readonly=True) as store:
        states = store.replay(1)[1:]
    for jpg, state in zip(jpgs, states):
        truth = Observation.loads(jpg.with_suffix(".json").read_text(encoding="utf-8"))
        for n in range(1, 10):
            for side in ("north", "south"):
                assert sorted(truth.flag(n).side(side)) == sorted(state.layout(n, side))
            claimed = state.position().flag(n).claimed
            assert truth.flag(n).tile == (claimed or "line")
        assert sorted(truth.offline_north + truth.offline_south) == \
            sorted(state.offline("north") + state.offline("south"))
    last = Observation.loads(jpgs[-1].with_suffix(".json").read_text(encoding="utf-8"))
    assert C("REDEPLOY") in last.offline_north and last.flag(5).tile == "south"

    deck_dir = tmp_path / "deck"
    write_deck_images(PRINTINGS["classic"], deck_dir)
    deck = enrol(deck_dir).save(tmp_path / "deck.npz")
    assert cli(["vision", "evaluate", str(frames), "--deck", str(deck)]) == 0
    report = capsys.readouterr().out
    assert "frames 11 (refused 0)" in report
    assert "cards right       100.00 %" in report
    assert "wrong, unflagged    0.00 %" in report
    assert "claimed flags right 2/2" in report


def test_recording_frames_needs_the_drawn_frames(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["demo", "--no-vision", "--record-frames", "--db", str(tmp_path / "m.sqlite")]) == 2
    assert "--record-frames" in capsys.readouterr().err
