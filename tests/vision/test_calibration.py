"""Checking a rig's set-up: the camera's height for its resolution, the tiles' print scale."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.synth import WEBCAM_RIG, Degrade, Setup, render
from companion.vision.calibration import camera_distance, check, min_px_per_cm, table_view_mm
from companion.vision.errors import VisionError
from companion.vision.layout import hide_tile_edge

from .vision_helpers import frame, printing, sample_scene


def test_camera_height_for_a_camera() -> None:
    across, down = table_view_mm()
    assert 1000 < across < 1150 and 550 < down < 700
    webcam = camera_distance(1920, 1080, 70.0)
    assert webcam.possible
    # Seeing the whole table from its lowest height, and the scale needed from its highest.
    spread = 2 * np.tan(np.radians(35.0))
    assert webcam.near_cm * 10 * spread == pytest.approx(max(across, down * 1920 / 1080),
                                                         rel=1e-6)
    assert 1920 / (webcam.far_cm * spread) == pytest.approx(min_px_per_cm(), rel=1e-6)
    assert not camera_distance(1280, 720, 70.0).possible
    with pytest.raises(VisionError):
        camera_distance(1920, 1080, 200.0)


@pytest.mark.parametrize("scale", [0.95, 1.0])
def test_the_tiles_print_scale_is_measured_from_the_cards(scale: float) -> None:
    img = render(sample_scene(table_seed=2), printing("classic"), 5,
                 setup=Setup(tile_scale=(scale, scale)))
    got = check(img)
    assert len(got.tiles) == 9 and got.refused is None
    assert got.cards_measured >= 6
    assert got.print_scale == pytest.approx(scale, abs=0.012)
    warned = any("printed at" in line and "WARNING" in line for line in got.lines(63.0))
    assert warned == (scale < 1.0)


def test_a_webcam_frame_and_a_stretched_one() -> None:
    img = render(sample_scene(table_seed=2), printing("classic"), 5, rig=WEBCAM_RIG)
    got = check(img)
    assert len(got.tiles) == 9
    assert got.px_per_cm == pytest.approx(16.0, rel=0.05)
    assert got.print_scale == pytest.approx(1.0, abs=0.012)
    assert not any("white balance" in line for line in got.lines(63.0))
    warm = check(render(sample_scene(table_seed=2), printing("classic"), 5, rig=WEBCAM_RIG,
                        degrade=Degrade(warm=0.9)))
    assert warm.white is not None and warm.white[0] < 0.6 * warm.white[2]
    assert any("WARNING" in line and "white balance" in line for line in warm.lines(63.0))
    stretched = check(cv2.resize(frame("classic"), (3000, 3000)))
    assert stretched.refused is not None and "stretched" in stretched.refused
    assert any("refuses" in line for line in stretched.lines(63.0))


def test_the_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), frame("classic"))
    assert main(["vision", "check", str(path), "--camera", "1920", "1080", "70"]) == 0
    out = capsys.readouterr().out
    assert "flag tiles found: 9 of 9" in out and "cm above the table" in out
    assert main(["vision", "check"]) == 2


def test_a_tile_at_the_start_of_a_zone_is_hidden_unless_a_card_lies_over_it() -> None:
    # An upright strip at 2 px per mm: table 0.3, the tile (white, black border) down to
    # 5 mm, a card over the tile's edge in the left part of the tile only.
    strip = np.full((200, 176, 3), 0.3, np.float32)
    strip[:10, 38:138] = 1.0
    strip[8:10, 38:138] = 0.05
    strip[:10, 38:40] = strip[:10, 136:138] = 0.05
    clear, start = hide_tile_edge(strip.copy(), 5.0, 2.0)
    assert np.allclose(clear, 0.3, atol=0.02)   # the tile is gone, nothing else changed
    assert start == pytest.approx(4.5, abs=0.6)  # and no card begins before its border
    covered = strip.copy()
    covered[6:150, 30:90] = 0.9                 # a card from 3 mm, over the tile's edge
    painted, start = hide_tile_edge(covered, 5.0, 2.0)
    assert start == 0.0                         # a card lies over the edge: look from 0
    assert np.allclose(painted[:9, 100:130], 0.3, atol=0.02)
    assert np.allclose(painted[6:12, 40:85], 0.9)   # the card is left as it is
