"""The reader's shortcuts give what the plain measures give: a shortcut that drifts would
change reads only on rare frames, where no other test would notice."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.reading import (Correlator, Maps, ReadingSettings, _normalise, raw_cells,
                                      shifted_cells)

from .vision_helpers import deck


def _maps(seed: int = 3) -> Maps:
    rng = np.random.default_rng(seed)
    s = ReadingSettings.load()
    refl = rng.random((s.px(201.0), s.px(88.0), 3)).astype(np.float32)
    return Maps.of(refl, s, deck("classic").templates.stock)


@pytest.mark.parametrize("which", ["coarse", "left half", "right half"])
def test_folded_correlations_equal_normalised_products(which: str) -> None:
    tpl = deck("classic").templates
    templates, weights, corr = {
        "coarse": (tpl.coarse, tpl.coarse_w, tpl.coarse_c),
        "left half": (tpl.halves[0], tpl.half_w[0], tpl.halves_c[0]),
        "right half": (tpl.halves[1], tpl.half_w[1], tpl.halves_c[1])}[which]
    rng = np.random.default_rng(5)
    raw = rng.random((40, templates.shape[1])).astype(np.float32)
    raw[0] = 0.0                                   # blank paper: no spread at all
    raw[1] = 0.7                                   # an even grey: spread from the weights only
    want = _normalise(raw * weights) @ templates.T
    assert np.allclose(corr.sims(raw), want, atol=2e-5)
    assert np.allclose(corr.best(raw), want.max(axis=1), atol=2e-5)


@pytest.mark.parametrize("start", [-9, 0, 37, 170])     # off the top, inside, off the bottom
def test_shared_cells_equal_gathered_cells(start: int) -> None:
    m = _maps()
    s = m.s
    cell = s.px(s.coarse_mm)
    ys = np.arange(start, start + 60, max(1, s.px(s.scan_step_mm)))
    lefts = np.arange(-3 * cell, 6 * cell, cell) + 7     # off the left and right sides too
    got = shifted_cells(m, ys, lefts)
    assert got is not None
    want = raw_cells(m, np.repeat(ys, len(lefts)), np.tile(lefts, len(ys)), True)
    assert np.array_equal(got, want)


def test_uneven_scans_are_gathered_as_before() -> None:
    m = _maps()
    assert shifted_cells(m, np.array([0, 2, 5]), np.array([0, 4, 8])) is None
    assert shifted_cells(m, np.array([0, 2, 4]), np.array([0, 3, 6])) is None


@pytest.mark.parametrize("top, left", [(-5, 3), (0, -6), (60, 20), (380, 50), (200, 150)])
def test_shared_fine_cells_equal_gathered_cells(top: int, left: int) -> None:
    from companion.vision.reading import _half_sims, _shifted_halves
    m = _maps(4)
    tpl = deck("bold").templates
    top0, left0 = np.array([top, top + 7]), np.array([left, left - 3])
    dys, dxs = np.arange(-3, 4), np.arange(-4, 5, 2)
    tops = (top0[:, None] + np.repeat(dys, len(dxs))[None, :]).ravel()
    lefts = (left0[:, None] + np.tile(dxs, len(dys))[None, :]).ravel()
    got = _shifted_halves(m, tpl, top0, left0, dys, dxs)
    assert got is not None
    want = _half_sims(m, tpl, [(tops, lefts, 1.0)])
    assert np.allclose(got[0], want[0], atol=1e-5) and np.allclose(got[1], want[1], atol=1e-5)
    assert _shifted_halves(m, tpl, top0, left0, dys, np.arange(-3, 4, 3)) is None
