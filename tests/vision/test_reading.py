"""Reading one column: a strip laid out by hand from deck faces, in echelon and apart."""

from __future__ import annotations

import numpy as np
import pytest

from companion.rules.cards import BY_CODE
from companion.vision import geometry
from companion.vision.deck import face_reflectance
from companion.vision.reading import ReadingSettings, read_strip

from .vision_helpers import deck


def _strip(codes: list[str], steps: list[float], table: tuple[float, float, float],
           name: str = "classic", start_mm: float = 6.0, dx_mm: float = 0.0) -> np.ndarray:
    """A zone strip (reflectance, upright) with the faces of `codes` laid from `start_mm`."""
    s = ReadingSettings.load()
    dk = deck(name)
    h, w = s.px(201.0), s.px(88.0)
    img = np.empty((h, w, 3), np.float32)
    img[:] = table
    rng = np.random.default_rng(4)
    img += rng.normal(0, 0.01, img.shape).astype(np.float32)
    y = start_mm
    for code, step in zip(codes, steps + [0.0]):
        face = face_reflectance(dk.face(code))
        top, left = s.px(y), s.px(44.0 - geometry.CARD_W / 2 + dx_mm)
        fh = min(face.shape[0], h - top)
        img[top:top + fh, left:left + face.shape[1]] = face[:fh]
        y += step
    return img


@pytest.mark.parametrize("name", ["classic", "bold"])
def test_an_echelon_reads_in_placement_order(name: str) -> None:
    codes = ["R8", "FOG", "B4", "G10"]
    reads = read_strip(_strip(codes, [20.0, 21.0, 19.5], (0.35, 0.45, 0.6), name),
                       deck(name).templates)
    assert [str(r.best) for r in reads] == codes
    assert [r.top_mm for r in reads] == pytest.approx([6, 26, 47, 66.5], abs=1.0)


def test_cards_laid_apart_and_on_a_pale_table() -> None:
    reads = read_strip(_strip(["Y2", "P9"], [93.0], (0.8, 0.8, 0.78), dx_mm=2.0),
                       deck("classic").templates)
    assert [r.best for r in reads] == [BY_CODE["Y2"], BY_CODE["P9"]]


def test_an_empty_zone_reads_nothing() -> None:
    assert read_strip(_strip([], [], (0.3, 0.4, 0.5)), deck("classic").templates) == []
