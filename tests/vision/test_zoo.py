"""The printing zoo: every family draws, writes and enrols its deck; renditions; rigs; set-ups;
and the held-out families read to the targets."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.rules.cards import ALL_CARDS
from companion.synth import (
    FAMILIES, HELD_OUT, PRINTINGS, REFERENCE_RIG, TUNING, WEBCAM_RIG, Degrade, Scene, Setup,
    SynthError, card_face, family_printing, placements, printing_named, random_printing,
    render, rendition, write_deck_images)
from companion.synth.faces import Tone
from companion.synth.dataset import random_scene
from companion.vision.deck import enrol
from companion.vision.evaluate import Score
from companion.vision.pipeline import TableReader

SMALL = (576, 324)      # a quarter of the reference frame: the same view, drawn cheaply
DECK_PX_PER_MM = 5.0    # deck images of about 130 dpi: a phone photo's worth, quick to draw

# Families whose decks the reader refuses today (their seed 0, enrolled from rendition 1).
# Each mark is strict: it flips to a failure the day the reader enrols the family, and must
# then be removed.
ENROL_FAILS: dict[str, str] = {}     # families whose enrolment is known to fail, with why


def _one_card_scene(code: str, table_seed: int = 5) -> Scene:
    return Scene.from_layout([("line", [], [])] * 4 + [("line", [], [code])] +
                             [("line", [], [])] * 4, table_seed=table_seed)


# -- names ----------------------------------------------------------------------------------
def test_zoo_has_twelve_families_and_four_held_out() -> None:
    assert len(FAMILIES) >= 12
    assert len(HELD_OUT) >= 4 and set(HELD_OUT) <= set(FAMILIES)
    assert set(TUNING) == set(FAMILIES) - set(HELD_OUT)
    for name in FAMILIES:
        assert name == name.lower() and " " not in name


def test_printings_are_named_by_family_and_seed() -> None:
    assert printing_named("classic") is PRINTINGS["classic"]
    assert printing_named("bold") is PRINTINGS["bold"]
    assert printing_named("random-7") == random_printing(7)
    assert printing_named("banner") == FAMILIES["banner"](0)
    assert printing_named("corner-pip-3") == FAMILIES["corner-pip"](3)
    assert printing_named("corner-pip-3").name == "corner-pip-3"
    assert printing_named("full-bleed-disc-12") == family_printing("full-bleed-disc", 12)
    for bad in ("nope", "banner-x", "corner-pip-", "-3"):
        with pytest.raises(SynthError, match="unknown printing"):
            printing_named(bad)
    with pytest.raises(SynthError, match="unknown printing family"):
        family_printing("nope")


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_family_varies_within_itself(family: str) -> None:
    members = [FAMILIES[family](seed) for seed in range(1, 7)]
    assert len(set(members)) == 6
    assert FAMILIES[family](4) == FAMILIES[family](4)          # seeded
    for p in members:
        assert 56.0 <= p.card_w <= 64.0 and 0.62 <= p.card_w / p.card_h <= 0.72


def test_narrow_cards_are_narrow() -> None:
    for seed in range(5):
        p = FAMILIES["narrow"](seed)
        assert 56.0 <= p.card_w <= 58.0 and 86.0 <= p.card_h <= 88.0
        face = card_face(p, "R5", 4.0)
        assert face.shape[:2] == (round(p.card_h * 4.0), round(p.card_w * 4.0))


def test_card_size_is_checked() -> None:
    with pytest.raises(SynthError, match="56-64 mm wide"):
        replace(PRINTINGS["classic"], card_w=70.0)
    with pytest.raises(SynthError, match="aspect"):
        replace(PRINTINGS["classic"], card_w=63.0, card_h=80.0)


# -- looks ----------------------------------------------------------------------------------
def test_families_show_what_they_promise() -> None:
    # Dark stock is dark; the gem and border families show the colour in a small area only.
    dark = FAMILIES["dark-stock"](0)
    assert sum(dark.paper) < 150 and sum(dark.ink) > 500
    for family in ("parchment-gem", "border-stripe"):
        p = FAMILIES[family](0)
        face = card_face(p, "B5", 4.0)
        band = face[: int(p.band_mm * 4.0)].reshape(-1, 3).astype(int)
        near = (np.abs(band - np.array(p.colour("B"))).max(axis=1) < 30).mean()
        assert 0.005 < near < 0.3, (family, near)
    # Picture Tactics carry the word in the printing's language.
    french = next(FAMILIES["picture-tactics"](s) for s in range(8)
                  if FAMILIES["picture-tactics"](s).language == "fr")
    assert french.tactics == "picture"


def test_scenic_pictures_reach_into_the_band_on_light_and_dark_stock() -> None:
    """The tuning families' one look with a picture in the band: on light and dark stock,
    the value in several layouts, but never white stock with the value in both top corners
    (the held-out corner-pip look stays unseen)."""
    members = [FAMILIES["scenic"](seed) for seed in range(40)]
    assert all(p.art_in_band and p.body == "picture" for p in members)
    dark = [sum(p.paper) < 200 for p in members]
    assert any(dark) and not all(dark)
    assert len({p.layout for p in members}) >= 4
    assert not any(p.layout == "pip-corners" and not d for p, d in zip(members, dark))
    # The picture shows in the band: one card's band differs from a bare-stock band.
    p = members[0]
    band = card_face(p, "G5", 4.0)[: int(p.band_mm * 4.0)]
    bare = card_face(replace(p, art_in_band=False), "G5", 4.0)[: int(p.band_mm * 4.0)]
    assert float(np.abs(band.astype(int) - bare.astype(int)).mean()) > 10.0


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_family_draws_every_card_differently(family: str) -> None:
    p = FAMILIES[family](1)
    faces = [card_face(p, c, 1.5) for c in ALL_CARDS]
    bands = {f[: int(p.band_mm * 1.5)].tobytes() for f in faces}
    assert len(bands) == len(ALL_CARDS)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_family_renders_a_table(family: str) -> None:
    scene = random_scene(np.random.default_rng(3), fill=0.8)
    frame = render(scene, rendition(FAMILIES[family](2), 2), 4, Degrade(noise=2.0), size=SMALL)
    assert frame.shape == (SMALL[1], SMALL[0], 3) and frame.dtype == np.uint8


def test_cards_lie_on_the_table_at_their_printing_size() -> None:
    def width_px(printing_name: str) -> int:
        p = printing_named(printing_name)
        empty = render(Scene(table_seed=5), p, 1)
        with_card = render(_one_card_scene("G4"), p, 1)
        changed = np.abs(with_card.astype(int) - empty.astype(int)).max(axis=2) > 30
        cols = np.flatnonzero(changed.any(axis=0))
        return int(cols[-1] - cols[0])

    classic, narrow = width_px("classic"), width_px("narrow")
    px = REFERENCE_RIG.px_per_mm
    assert abs(classic - 63.0 * px) < 3.0 * px
    assert abs(narrow - printing_named("narrow").card_w * px) < 3.0 * px


# -- renditions -------------------------------------------------------------------------------
def test_renditions_change_colours_but_not_the_card() -> None:
    base = FAMILIES["banner"](0)
    a, b = rendition(base, 1), rendition(base, 2)
    assert a != b and a.name != base.name and a.tone is not None
    assert rendition(base, 1) == a                                  # seeded
    for code in ("R5", "Y8", "ALEXANDER"):
        orig = card_face(base, code, 3.0).astype(np.float32)
        fa = card_face(a, code, 3.0).astype(np.float32)
        fb = card_face(b, code, 3.0).astype(np.float32)
        assert np.abs(fa - orig).mean() > 3.0 and np.abs(fa - fb).mean() > 3.0
        # The same drawing: the grey images correlate tightly, and far better than another
        # card's do.
        def corr(x: np.ndarray, y: np.ndarray) -> float:
            gx, gy = x.mean(axis=2).ravel(), y.mean(axis=2).ravel()
            return float(np.corrcoef(gx, gy)[0, 1])
        other = card_face(base, "O3" if code != "O3" else "P4", 3.0).astype(np.float32)
        assert corr(fa, orig) > 0.9 and corr(fa, orig) > corr(other, orig) + 0.05


def test_tone_is_checked_and_neutral_tone_changes_nothing() -> None:
    face = card_face(PRINTINGS["classic"], "R5", 2.0)
    assert np.array_equal(Tone().apply(np.ascontiguousarray(face)), face)
    with pytest.raises(SynthError, match="saturation"):
        Tone(saturation=3.0)


# -- rigs, set-ups, colour faults -------------------------------------------------------------
def test_webcam_rig_sees_more_table_at_fewer_pixels() -> None:
    scene = random_scene(np.random.default_rng(5), fill=0.6)
    frame = render(scene, PRINTINGS["classic"], 2, rig=WEBCAM_RIG)
    assert frame.shape == (1080, 1920, 3)
    tiles = {p.what: p for p in placements(scene, 2, rig=WEBCAM_RIG) if p.what.startswith("tile")}
    pitch = tiles["tile 6"].x - tiles["tile 5"].x
    assert abs(pitch - 90.0 * WEBCAM_RIG.px_per_mm) < 10 * WEBCAM_RIG.px_per_mm
    ref = {p.what: p for p in placements(scene, 2) if p.what.startswith("tile")}
    assert abs(ref["tile 6"].x - ref["tile 5"].x - 90.0 * REFERENCE_RIG.px_per_mm) < 25
    for bad in (dict(width=100), dict(px_per_mm=20.0), dict(softness_px=9.0), dict(jpeg=2)):
        with pytest.raises(SynthError, match="rig"):
            replace(WEBCAM_RIG, **bad)  # type: ignore[arg-type]


def test_standard_setup_draws_the_same_table_as_before() -> None:
    scene = random_scene(np.random.default_rng(8), fill=0.7)
    deg = Degrade(noise=2.0, tilt_deg=3.0)
    plain = render(scene, PRINTINGS["bold"], 3, deg, size=SMALL)
    assert np.array_equal(plain, render(scene, PRINTINGS["bold"], 3, deg, size=SMALL,
                                        rig=REFERENCE_RIG, setup=Setup.standard()))
    assert not np.array_equal(plain, render(scene, PRINTINGS["bold"], 3, deg, size=SMALL,
                                            setup=Setup.varied()))


def test_setup_moves_the_first_card_and_scales_the_tiles() -> None:
    scene = _one_card_scene("B7")
    px = REFERENCE_RIG.px_per_mm

    def first_card_y(gap: float) -> float:
        spots = placements(scene, 0, setup=Setup(first_gap_mm=(gap, gap)))
        return next(p.y for p in spots if p.what == "B7")

    assert abs(first_card_y(40.0) - first_card_y(0.0) - 40.0 * px) < 0.5
    small = render(scene, PRINTINGS["classic"], 0, setup=Setup(tile_scale=(0.95, 0.95)))
    full = render(scene, PRINTINGS["classic"], 0)
    assert not np.array_equal(small, full)
    for bad in (dict(first_gap_mm=(10.0, 5.0)), dict(tile_scale=(0.5, 1.0)),
                dict(askew_deg=20.0)):
        with pytest.raises(SynthError, match="set-up"):
            Setup(**bad)  # type: ignore[arg-type]


def test_greyscale_and_warm_light_degradations() -> None:
    scene = random_scene(np.random.default_rng(2), fill=0.7)
    p = PRINTINGS["classic"]
    grey = render(scene, p, 1, Degrade(grey=True), size=SMALL)
    assert np.array_equal(grey[:, :, 0], grey[:, :, 1]) and np.array_equal(grey[:, :, 1],
                                                                          grey[:, :, 2])
    plain = render(scene, p, 1, size=SMALL).astype(float).mean(axis=(0, 1))
    warm = render(scene, p, 1, Degrade(warm=0.9), size=SMALL).astype(float).mean(axis=(0, 1))
    assert warm[0] < 0.7 * plain[0] and warm[2] > plain[2]
    with pytest.raises(SynthError, match="warm"):
        Degrade(warm=1.5)


# -- enrolment and reading ---------------------------------------------------------------------
@pytest.mark.parametrize("family", [
    pytest.param(f, marks=pytest.mark.xfail(strict=True, reason=ENROL_FAILS[f]))
    if f in ENROL_FAILS else f for f in FAMILIES])
def test_every_family_writes_and_enrols_its_deck(family: str, tmp_path: Path) -> None:
    printing = FAMILIES[family](0)
    paths = write_deck_images(rendition(printing, 1), tmp_path, DECK_PX_PER_MM)
    assert len(paths) == 70 and len(list(tmp_path.glob("*.png"))) == 70
    deck = enrol(tmp_path, (printing.card_w, printing.card_h))
    assert len(deck.cards) == 70


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="the reader does not yet read printings it was not "
                   "tuned on (issue 11): held-out families fall short of the targets")
def test_held_out_families_read_to_target() -> None:
    # Enrolled from one rendition, read on another, at the reference rig, on degraded tables
    # as the bench makes them; a small seeded set (two frames a family).
    score = Score()
    for k, family in enumerate(HELD_OUT):
        printing = FAMILIES[family](0)
        with tempfile.TemporaryDirectory() as tmp:
            write_deck_images(rendition(printing, 1), tmp)
            deck = enrol(tmp, (printing.card_w, printing.card_h))
        rng = np.random.default_rng([11, k])
        for i in range(2):
            scene = random_scene(rng)
            frame = render(scene, rendition(printing, 2), int(rng.integers(1 << 30)),
                           Degrade.random(rng, hand=False), setup=Setup.varied())
            with TableReader(deck, allow_missing_tiles=True) as reader:
                score.add(reader.read(frame), scene.observation(), f"{family} frame {i}")
    s = score.summary()
    assert s["right_pct"] >= 99.5, score.mistakes[:10]
    assert s["wrong_unflagged_pct"] <= 0.1, score.mistakes[:10]
    assert s["doubtful_pct"] <= 1.0
    assert s["tiles_right"] == s["tiles"] and s["errors"] == 0


def test_demo_plays_on_a_family() -> None:
    from companion.appliance.demo import VisionEyes
    eyes = VisionEyes("corner-pip-1", 3, None)
    try:
        assert eyes.printing.name == "corner-pip-1"
        assert eyes.printing.layout == "pip-corners"
    finally:
        eyes.close()


def test_vision_bench_reports_held_out_families_first(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    from companion.bench.vision import main
    assert main(["--frames", "1", "--families", "classic,border-stripe", "--rig", "webcam",
                 "--colour-frames", "0", "--setup", "standard"]) == 0
    out = capsys.readouterr().out
    assert "rig webcam (1920x1080, 16 px/cm)" in out and "rig reference" not in out
    held, tuning = out.index("held-out families"), out.index("tuning families")
    assert held < out.index("border-stripe  ") < tuning < out.index("classic  ")
    assert "held-out total" in out
    assert "deck enrolment" in out
