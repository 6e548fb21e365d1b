"""The band network (`companion.vision.bandnet`): the shipped model loads with OpenCV alone,
puts a band near its own card's prototype on a printing it never saw in training, and its
say in a read can be turned off; the training tools refuse held-out families."""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.synth import FAMILIES, HELD_OUT, rendition
from companion.vision import bandnet, reading
from companion.vision.deck import face_reflectance

from .vision_helpers import deck, enrolled


def _camera_faces(tpl: reading.Templates, faces_bgr: np.ndarray, seed: int) -> np.ndarray:
    """The faces' band inputs as a blurred, noisy camera gives them (rendered another way
    than the enrolment: another rendition, then faults)."""
    rng = np.random.default_rng(seed)
    s = tpl.settings()
    out = []
    for f in faces_bgr:
        refl = face_reflectance(f)
        refl = np.clip(refl + rng.normal(0, 0.03, refl.shape).astype(np.float32), 0, 1)
        refl = cv2.GaussianBlur(refl, (0, 0), 1.0)
        out.append(reading.net_input(reading.ink(refl, tpl.stock), 1, 1, s))
    return np.array(out, np.float32)


def test_the_shipped_model_loads_and_gives_unit_points() -> None:
    net = bandnet.BandNet()
    rng = np.random.default_rng(0)
    x = np.array([bandnet.normalised(rng.normal(size=(bandnet.INPUT_H, bandnet.INPUT_W)))
                  for _ in range(5)], np.float32)
    z = net.embed(x)
    assert z.shape[0] == 5 and z.shape[1] >= 16
    assert np.allclose(np.linalg.norm(z, axis=1), 1.0, atol=1e-4)
    assert np.allclose(net.embed(x[:2]), z[:2], atol=1e-5)       # a batch changes nothing
    assert net.embed(np.zeros((0, bandnet.INPUT_H, bandnet.INPUT_W), np.float32)).size == 0


def test_a_missing_model_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "band-embed.onnx"
    bad.write_bytes(b"not a network")
    with pytest.raises(RuntimeError, match="cannot load the band model"):
        bandnet.BandNet((bandnet.MODEL_PATH, bad))
    with pytest.raises(ValueError, match="at least one model file"):
        bandnet.BandNet(())


def test_band_input_is_normalised_and_sized() -> None:
    ink = np.zeros((100, 140), np.float32)
    blank = bandnet.band_input(ink, 10, 5, 28, 5, 116)
    assert blank.shape == (bandnet.INPUT_H, bandnet.INPUT_W) and not blank.any()
    ink[20:30, 40:50] = 1.0
    x = bandnet.band_input(ink, 10, 5, 28, 5, 116)
    assert abs(float(x.mean())) < 1e-5 and abs(float(x.std()) - 1.0) < 1e-3
    # A band partly off the map repeats its edge rather than failing.
    assert bandnet.band_input(ink, -5, 120, 28, 5, 116).shape == x.shape


@pytest.mark.parametrize("family", ["classic", "banner", "dark-stock"])
def test_faces_of_another_rendition_lie_nearest_their_own_class(family: str) -> None:
    """Prototypes from one rendition's enrolment; bands of another rendition, blurred and
    noisy: nearly every band is nearest its own class (the network only compares bands
    within the printing it is given)."""
    p = FAMILIES[family](41)         # a seed the network was not trained on (1-40)
    tpl, other = enrolled(rendition(p, 1)).templates, enrolled(rendition(p, 2))
    sims = bandnet.similarities(bandnet.shared().embed(_camera_faces(tpl, other.faces, 1)),
                                tpl.protos)
    right = float(np.mean(sims.argmax(axis=1) == tpl.class_of))
    assert right >= 0.95, f"{family}: {right:.1%} of bands nearest their own class"


def test_the_network_says_nothing_when_its_weight_is_zero() -> None:
    tpl = deck("classic").templates
    assert tpl.protos.shape == (int(tpl.class_of.max()) + 1, tpl.protos.shape[1])
    s = tpl.settings()
    faces = deck("classic").faces
    m = reading.Maps.of(face_reflectance(faces[3]), s, tpl.stock)
    with_net = reading.identify_many(m, [(0, 0)], tpl)[0]
    off = reading.identify_many(reading.Maps.of(face_reflectance(faces[3]),
                                                _weightless(s), tpl.stock), [(0, 0)], tpl)[0]
    assert with_net.best == off.best == deck("classic").cards[3]
    # The network agreeing, the best keeps its cells' score and the others fall further back.
    assert with_net.score == pytest.approx(off.score, abs=1e-5)
    assert with_net.candidates[1][1] <= off.candidates[1][1] + 1e-6


def _weightless(s: reading.ReadingSettings) -> reading.ReadingSettings:
    return replace(s, net_weight=0.0)


def test_training_never_takes_a_held_out_family() -> None:
    from companion.training import collect
    for family in HELD_OUT:
        with pytest.raises(ValueError, match="held out"):
            collect.collect(family, 1, "reference")
        with tempfile.TemporaryDirectory() as tmp:
            with pytest.raises(ValueError, match="held out"):
                collect.collect_faces(Path(tmp), (family,), range(1, 2))


def test_camera_like_faults_keep_the_input_normalised() -> None:
    from companion.training.bandnet import camera_like
    rng = np.random.default_rng(3)
    band = np.zeros((bandnet.INPUT_H, bandnet.INPUT_W), np.float32)
    band[5:20, 10:30] = 1.0
    band = bandnet.normalised(band)
    for _ in range(20):
        out = camera_like(band, rng)
        assert out.shape == band.shape and np.isfinite(out).all()
        assert abs(float(out.mean())) < 1e-4


def test_train_command_needs_torch_and_seeds_from_one(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    import builtins

    from companion.cli import main
    from companion.commands.train import _seeds
    assert list(_seeds("3-5")) == [3, 4, 5] and list(_seeds("7")) == [7]
    for bad in ("0-3", "5-2", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            _seeds(bad)
    real_import = builtins.__import__

    def no_torch(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name == "torch":
            raise ImportError("no torch here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    assert main(["train", "band-model", "--data", str(tmp_path)]) == 2
    assert "pip install -e .[train]" in capsys.readouterr().err


def test_net_lead_is_how_much_nearer_the_card_s_class_is() -> None:
    tpl = deck("classic").templates
    n_cls = int(tpl.class_of.max()) + 1
    card = tpl.cards[0]
    k = int(tpl.class_of[0])
    sims = np.full(n_cls, 0.2, np.float32)
    sims[k] = 0.9
    read = reading.CardRead(((card, 0.9),), 10.0, 31.5, net=sims)
    assert reading.net_lead(read, card, tpl) == pytest.approx(0.7)
    other = tpl.cards[int(np.flatnonzero(tpl.class_of != k)[0])]
    assert reading.net_lead(read, other, tpl) == pytest.approx(-0.7)
    # Without a network (a deck read with `net_weight` 0) there is nothing to doubt.
    assert reading.net_lead(reading.CardRead(((card, 0.9),), 10.0, 31.5), other, tpl) == 1.0


def test_whether_a_band_is_a_card_is_the_cells_question() -> None:
    """The network only ranks classes: a band it pushes to another class keeps the cells'
    own best score for `is_card`."""
    tpl = deck("classic").templates
    s = tpl.settings()
    m = reading.Maps.of(face_reflectance(deck("classic").faces[10]), s, tpl.stock)
    r = reading.identify_many(m, [(0, 0)], tpl)[0]
    plain = reading.identify_many(reading.Maps.of(face_reflectance(deck("classic").faces[10]),
                                                  _weightless(s), tpl.stock), [(0, 0)], tpl)[0]
    assert r.cells_score == pytest.approx(plain.score, abs=1e-5)
    assert reading.is_card(r, s)


def test_the_shipped_networks_are_joined() -> None:
    # A band's point is each network's point joined: its similarity to a prototype is about
    # the mean of the two networks' similarities.
    rng = np.random.default_rng(1)
    x = np.array([bandnet.normalised(rng.normal(size=(bandnet.INPUT_H, bandnet.INPUT_W)))
                  for _ in range(4)], np.float32)
    alone = [bandnet.BandNet((path,)).embed(x) for path in bandnet.MODEL_PATHS.values()]
    joined = bandnet.shared().embed(x)
    assert len(bandnet.MODEL_PATHS) == 2 and not np.allclose(alone[0], alone[1], atol=1e-2)
    assert np.allclose(joined, np.concatenate(alone, axis=1) / np.sqrt(2), atol=1e-5)
    sims = [a @ a[0] for a in alone]
    assert np.allclose(joined @ joined[0], (sims[0] + sims[1]) / 2, atol=1e-5)
