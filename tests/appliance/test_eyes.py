"""The eyes: a frame in, the referee's input out (motion test first, full read when still)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.appliance.eyes import MOVING, Eyes, load_reader
from companion.synth import render
from companion.vision.errors import VisionError
from companion.vision.pipeline import TableReader

from tests.vision.vision_helpers import deck, printing, sample_scene


class _Motion:
    """A motion test that says what it is told."""

    class settings:  # noqa: N801 - the MotionDetector's own attribute name
        settle_frames = 3

    def __init__(self, moving: list[bool]) -> None:
        self.moving = moving

    def update(self, lores: np.ndarray) -> bool:
        return self.moving.pop(0)


def _never() -> np.ndarray:
    raise AssertionError("a moving table's full frame must not be drawn or read")


def test_a_moving_table_is_not_read() -> None:
    eyes = Eyes(TableReader(deck("classic"), workers=0), _Motion([True]))  # type: ignore[arg-type]
    sight = eyes.look(np.zeros((10, 10, 3), np.uint8), _never)
    assert sight.observation == MOVING and sight.moving and eyes.reads == 0


def test_a_still_frame_is_read_and_an_unreadable_one_restarts_the_count() -> None:
    frame = render(sample_scene(), printing("classic"), seed=3)
    eyes = Eyes(TableReader(deck("classic"), workers=0), _Motion([False, False]))  # type: ignore[arg-type]
    blank = np.full_like(frame, 40)                  # no tiles in view: no table to read
    sight = eyes.look(None, lambda: blank)
    assert sight.observation == MOVING and sight.error and eyes.unreadable == 1
    sight = eyes.look(None, lambda: frame)
    assert sight.error is None and sight.observation == \
        TableReader(deck("classic"), workers=0).read(frame)


def test_without_a_deck_the_eyes_only_look() -> None:
    eyes = Eyes(None, _Motion([False]))  # type: ignore[arg-type]
    frame = np.zeros((10, 10, 3), np.uint8)
    sight = eyes.look(None, lambda: frame)
    assert sight.observation is None and sight.frame is frame


def test_the_appliance_reader_reads_as_the_plain_one(tmp_path: Path) -> None:
    # All zones in the worker processes, this process only following the tiles: same reads.
    path = deck("classic").save(tmp_path / "deck.npz")
    frame = render(sample_scene(), printing("classic"), seed=5)
    reader = load_reader(path)
    try:
        assert reader.read(frame) == TableReader(deck("classic"), workers=0).read(frame)
        assert reader.layout is not None and len(reader.layout.sightings()) == 9
    finally:
        reader.close()
    with pytest.raises(VisionError):
        load_reader(tmp_path / "missing.npz")
