"""Finding flag tiles: identity, centre, north whatever the camera's turn; a tile twice."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision.cvcompat import qr_image
from companion.vision.errors import DuplicateTileError, ImageError
from companion.vision.tiles import find_tiles
from companion.vision.tilesheet import tile_image

PX = 2.3


def _table_with_tiles(placements: list[tuple[int, float, float, float]]) -> np.ndarray:
    """Tiles drawn at (x, y) px, turned by `angle` degrees counter-clockwise, on grey felt."""
    frame = np.full((700, 1400, 3), (70, 95, 60), np.uint8)
    for flag, x, y, angle in placements:
        tile = tile_image(flag, PX)
        h, w = tile.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[:, 2] += (x - w / 2, y - h / 2)
        mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, (1400, 700))
        warped = cv2.warpAffine(tile, m, (1400, 700))
        frame[mask > 127] = warped[mask > 127]
    return frame


@pytest.mark.parametrize("angle", [0.0, 7.0, 90.0, 180.0, -95.0])
def test_tiles_read_with_north_in_any_direction(angle: float) -> None:
    frame = _table_with_tiles([(3, 300, 300, angle), (7, 900, 350, angle)])
    found = {s.flag: s for s in find_tiles(frame)}
    assert set(found) == {3, 7}
    s = found[3]
    assert math.dist(s.centre, (300, 300)) < 3
    # North (the tile's top edge) turns with the tile: counter-clockwise in the image.
    a = math.radians(angle)
    want = (-math.sin(a), -math.cos(a))
    assert s.up[0] * want[0] + s.up[1] * want[1] > math.cos(math.radians(3))
    assert s.px_per_mm == pytest.approx(PX, rel=0.05)


def test_a_tile_twice_is_an_error_and_other_codes_are_ignored() -> None:
    frame = _table_with_tiles([(4, 300, 300, 0.0), (4, 900, 300, 0.0)])
    with pytest.raises(DuplicateTileError, match="BL-FLAG-4"):
        find_tiles(frame)
    other = _table_with_tiles([(2, 300, 300, 0.0)])
    code = cv2.resize(qr_image("HELLO"), (90, 90), interpolation=cv2.INTER_NEAREST)
    other[400:490, 800:890] = code[:, :, None]
    assert [s.flag for s in find_tiles(other)] == [2]


def test_not_an_image_is_an_image_error() -> None:
    with pytest.raises(ImageError):
        find_tiles(np.zeros((10, 10), np.float32))


# -- a webcam's few pixels per module: tiles found by their drawing ---------------------------
def _webcam_frame(degrade: object = None) -> tuple[np.ndarray, object]:
    from companion.synth import WEBCAM_RIG, Degrade, render

    from .vision_helpers import printing, sample_scene
    scene = sample_scene(table_seed=4)
    deg = degrade if degrade is not None else Degrade(blur=1.6, noise=5.0, jpeg=70)
    return render(scene, printing("classic"), 3, deg, rig=WEBCAM_RIG), scene


def test_tiles_whose_codes_do_not_decode_are_found_by_their_drawing() -> None:
    from companion.synth import WEBCAM_RIG, placements

    from companion.vision.tiles import find_by_drawing, to_gray
    frame, scene = _webcam_frame()
    # ~16 px per cm, blurred and noisy: the decoder cannot read the 2 px modules.
    assert len(find_tiles(frame)) < 2
    found = {s.flag: s for s in find_by_drawing(to_gray(frame))}
    assert set(found) == set(range(1, 10))
    where = {p.what: p for p in placements(scene, 3, rig=WEBCAM_RIG)}
    for flag, s in found.items():
        p = where[f"tile {flag}"]
        assert math.dist(s.centre, (p.x, p.y)) < 4
        assert s.up[1] < -0.99
        assert s.px_per_mm == pytest.approx(WEBCAM_RIG.px_per_mm, rel=0.04)


def test_a_drawing_names_its_flag_clearly_and_bare_table_names_none() -> None:
    from companion.vision.tiles import name_by_drawing, to_gray
    frame = _table_with_tiles([(6, 300, 300, 2.0)])
    small = cv2.GaussianBlur(cv2.resize(frame, None, fx=0.7, fy=0.7), (0, 0), 1.2)
    gray = to_gray(small)
    m = name_by_drawing(gray, (212, 208), (0.0, -1.0), PX * 0.7, 4.0, (0.97, 1.0, 1.03))
    assert m is not None and m.flag == 6 and m.score > 0.7 and m.lead > 0.1
    bare = name_by_drawing(gray, (700, 300), (0.0, -1.0), PX * 0.7, 4.0)
    assert bare is None or bare.score < 0.3
