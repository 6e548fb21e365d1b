"""The band network's training material (numpy and OpenCV only: torch is not needed here)."""

import numpy as np

from companion.training.bandnet import printing_look
from companion.vision import bandnet


def test_a_printing_s_look_is_shared_by_its_cards_and_tells_none_apart() -> None:
    shared = 0
    for seed in range(40):
        looks = printing_look(np.random.default_rng(seed), 12)
        assert looks.shape == (12, bandnet.INPUT_H, bandnet.INPUT_W)
        assert looks.dtype == np.float32 and np.isfinite(looks).all()
        assert looks.min() >= 0.0          # ink: a look only adds to a band's ink
        assert looks.max() > 0.0
        flat = looks.reshape(12, -1)
        corr = np.corrcoef(flat)[np.triu_indices(12, 1)]
        shared += bool(np.nanmedian(corr) > 0.3)
    # Most printings' looks are what all their cards share; the rest add each card's picture.
    assert shared >= 20


def test_a_printing_s_look_is_seeded() -> None:
    a = printing_look(np.random.default_rng(7), 5)
    b = printing_look(np.random.default_rng(7), 5)
    c = printing_look(np.random.default_rng(8), 5)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
