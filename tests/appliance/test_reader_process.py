"""The reader process reads a frame exactly as the in-process reader does, reports reading
failures as CompanionErrors, and closes cleanly (twice)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.bench.ui import render_frames
from companion.errors import CompanionError
from companion.appliance.reader_process import ReaderProcess, ReaderProcessError
from companion.vision.capture import FolderSource
from companion.vision.deck import Deck
from companion.vision.pipeline import TableReader


def test_same_observation_as_in_process_and_errors_cross(tmp_path: Path) -> None:
    deck, _ = render_frames(tmp_path, calm=1, steps=3)
    frames = [f.main for f in FolderSource(tmp_path / "frames")]
    local = TableReader(Deck.load(deck))
    with ReaderProcess(deck) as remote:
        for frame in frames:
            assert remote.read(frame).to_json() == Observation_json(local.read(frame))
        assert remote.alive
    assert not remote.alive
    remote.close()   # safe twice
    with pytest.raises(ReaderProcessError, match="closed"):
        remote.read(frames[0])


def test_a_reading_failure_crosses_as_a_companion_error(tmp_path: Path) -> None:
    deck, _ = render_frames(tmp_path, calm=1, steps=0)
    with ReaderProcess(deck) as remote:
        with pytest.raises(CompanionError, match="tile"):
            remote.read(np.zeros((1296, 2304, 3), np.uint8))   # no flag tile in a black frame
        assert remote.alive                                     # and it goes on


def Observation_json(obs):  # noqa: N802 - the scores are rounded in the JSON the child sends
    from companion.vision.observation import Observation
    return Observation.loads(obs.dumps()).to_json()


def test_a_bad_deck_is_reported_at_start(tmp_path: Path) -> None:
    bad = tmp_path / "deck.npz"
    bad.write_bytes(b"nope")
    with pytest.raises(ReaderProcessError, match="cannot read with deck"):
        ReaderProcess(bad)
