"""The band network's training material (numpy and OpenCV only: torch is not needed here)."""

from pathlib import Path

import numpy as np
import pytest

from companion.training.bandnet import DRAWINGS, printing_look, printing_warp
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


@pytest.mark.parametrize("drawing", sorted(DRAWINGS))
def test_a_printing_drawn_differently_keeps_its_cards_apart_and_alike(drawing: str) -> None:
    # Every band of a printing (its faces and its bands on the table) is drawn differently
    # in one and the same way: a card's two bands stay alike, two cards stay apart, and the
    # bands change (moved, scaled, other strokes or ink curve).
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:bandnet.INPUT_H, 0:bandnet.INPUT_W].astype(np.float32)
    one = bandnet.normalised(((xx - 30) ** 2 + (yy - 12) ** 2 < 60).astype(np.float32))
    other = bandnet.normalised(((abs(xx - 70) < 4) & (yy > 4) & (yy < 22)).astype(np.float32))
    changed = 0
    for seed in range(20):
        warp = printing_warp(np.random.default_rng(seed), drawing=DRAWINGS[drawing])
        a, b, c = warp(one), warp(one + 0.01 * rng.normal(size=one.shape).astype(np.float32)), \
            warp(other)
        for band in (a, b, c):
            assert band.shape == one.shape and band.dtype == np.float32
            assert np.isfinite(band).all() and abs(float(band.std()) - 1.0) < 1e-3
        assert float(np.mean(a * b)) > 0.9            # the same card, the same drawing
        assert float(np.mean(a * c)) < 0.5            # two cards still apart
        changed += float(np.mean(a * one)) < 0.9
    assert changed >= 10
    # Seeded: the same generator state draws the same way.
    x = printing_warp(np.random.default_rng(3), drawing=DRAWINGS[drawing])(other)
    assert np.array_equal(x, printing_warp(np.random.default_rng(3),
                                           drawing=DRAWINGS[drawing])(other))


def test_only_the_wide_drawing_sets_a_printing_s_numerals_on_the_other_side() -> None:
    # A mark near the band's left: "near" keeps it on the left (scaled, moved up to 10 px);
    # "wide" draws some printings mirrored, the mark on the right.
    yy, xx = np.mgrid[0:bandnet.INPUT_H, 0:bandnet.INPUT_W].astype(np.float32)
    mark = bandnet.normalised(((xx - 20) ** 2 + (yy - 12) ** 2 < 40).astype(np.float32))

    def sides(drawing: str) -> set[str]:
        out = set()
        for seed in range(40):
            band = printing_warp(np.random.default_rng(seed), drawing=DRAWINGS[drawing])(mark)
            ink = np.clip(band - np.median(band), 0, None)
            x = float((ink.sum(axis=0) * np.arange(bandnet.INPUT_W)).sum() / ink.sum())
            out.add("left" if x < bandnet.INPUT_W / 2 else "right")
        return out

    assert sides("near") == {"left"}
    assert sides("wide") == {"left", "right"}


def test_the_training_command_refuses_to_check_on_printings_it_trains_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    assert main(["train", "band-model", "--data", str(tmp_path), "--check-seed", "5"]) == 2
    assert "check seed 5 is also trained on" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())          # nothing collected


def test_the_training_command_leaves_families_out_to_check_on_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # How the network reads whole families it never saw: trained on the other tuning
    # families, checked on every table of those left out (and their check-seed tables).
    import sys
    import types

    from companion.cli import main
    from companion.synth.zoo import TUNING
    from companion.training import bandnet as trainer
    from companion.training import collect

    assert main(["train", "band-model", "--data", str(tmp_path), "--leave-out", "scenic"]) == 2
    assert "give --out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", "band-model", "--data", str(tmp_path), "--leave-out", "corner-pip",
              "--out", str(tmp_path / "m.onnx")])
    assert "held out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", "band-model", "--data", str(tmp_path), "--leave-out", ",".join(TUNING),
              "--out", str(tmp_path / "m.onnx")])
    assert not any(tmp_path.iterdir())          # nothing collected

    def tables(out_dir: Path, families: tuple[str, ...], seeds: range, rigs: tuple[str, ...],
               jobs: int = 1) -> list[Path]:
        return [out_dir / f"{f}-{s}-{r}.npz" for s in seeds for f in families for r in rigs]

    def faces(out_dir: Path, families: tuple[str, ...], seeds: range) -> list[Path]:
        return [out_dir / f"faces-{f}-{s}.npz" for s in seeds for f in families]

    got: dict[str, object] = {}

    def train(paths: list[Path], out: Path, steps: int = 3000,
              check: list[Path] | None = None,
              drawing: trainer.Drawing = trainer.DRAWINGS["near"]) -> Path:
        got.update(paths=paths, check=check or [], drawing=drawing, out=out)
        return out

    monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    monkeypatch.setattr(collect, "collect_all", tables)
    monkeypatch.setattr(collect, "collect_faces", faces)
    monkeypatch.setattr(trainer, "train", train)
    assert main(["train", "band-model", "--data", str(tmp_path), "--seeds", "1-2",
                 "--faces-seeds", "3-3", "--leave-out", "scenic,colour-word",
                 "--out", str(tmp_path / "m.onnx")]) == 0
    names = [p.name for p in got["paths"]]
    assert names and not any(n.startswith(("scenic", "faces-scenic", "colour-word",
                                           "faces-colour-word")) for n in names)
    assert {"classic-1-reference.npz", "faces-classic-3.npz"} <= set(names)
    checked = {p.relative_to(tmp_path).as_posix() for p in got["check"]}
    assert checked == {f"{base}{f}-{s}-{r}.npz" for f in ("scenic", "colour-word")
                       for r in ("reference", "webcam")
                       for base, s in (("check/", 0), ("", 1), ("", 2))}
    assert got["drawing"] == trainer.DRAWINGS["near"]
    # The package's second network: drawn wide, written to its own file by default.
    monkeypatch.setattr(trainer, "train", train)
    assert main(["train", "band-model", "--data", str(tmp_path), "--seeds", "1-2",
                 "--faces-seeds", "3-3", "--drawing", "wide"]) == 0
    assert got["drawing"] == trainer.DRAWINGS["wide"]
    assert got["out"] == bandnet.MODEL_PATHS["wide"] != bandnet.MODEL_PATHS["near"]
