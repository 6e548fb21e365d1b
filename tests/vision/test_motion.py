"""The motion test on the low-resolution stream."""

from __future__ import annotations

import numpy as np

from companion.vision.motion import MotionDetector, MotionSettings


def _table(rng: np.random.Generator) -> np.ndarray:
    base = np.full((180, 320, 3), 90, np.uint8)
    noise = rng.normal(0, 2, base.shape)
    return np.clip(base + noise, 0, 255).astype(np.uint8)


def test_still_table_is_still_and_a_hand_moves() -> None:
    rng = np.random.default_rng(1)
    md = MotionDetector(MotionSettings(80, 18, 0.004, 0.002, 3))
    assert md.update(_table(rng)) is False
    for _ in range(5):
        assert md.update(_table(rng)) is False
        assert not md.changed
    for x in range(0, 200, 40):         # a hand crossing the table
        img = _table(rng)
        img[40:140, x:x + 60] = (120, 160, 215)
        assert md.update(img) is True
    # The hand leaving is one more change; then `settle_frames` still frames are needed.
    assert md.update(_table(rng)) is True
    assert md.update(_table(rng)) is True
    assert md.update(_table(rng)) is True
    assert md.update(_table(rng)) is False
    assert md.changed is False


def test_a_new_card_is_a_change_once_settled() -> None:
    rng = np.random.default_rng(2)
    md = MotionDetector(MotionSettings(80, 18, 0.004, 0.002, 2))
    md.update(_table(rng))
    card = _table(rng)
    card[60:100, 100:130] = 240
    assert md.update(card) is True          # the card arrives
    md.update(card)
    assert md.update(card) is False
    assert md.changed is True               # reported once ...
    assert md.update(card) is False
    assert md.changed is False              # ... then the new table is the reference
