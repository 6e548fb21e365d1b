"""Glare over the flags (`vision.glare`): a bright spot over a flag's cards puts that flag in
the observation's `glare`, so that the referee can name it instead of a card "taken back";
uneven light, a bright exposure or a hand is no glare."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from companion.synth import Degrade, Hand, render
from companion.rules.place import Place
from companion.vision.glare import glare_flags
from companion.vision.layout import acquire
from companion.vision.observation import Observation, ObservationError
from companion.vision.pipeline import TableReader

from .vision_helpers import bench_webcam_frame, deck, printing, sample_scene

# Table seeds drawing a wood, a felt and a laminate table (see synth.render._table).
TABLES = (0, 1, 2, 5)
# The renderer's plain light puts the tiles' white at the sensor's top: glare needs room
# above it to be told from paper, which a camera's exposure normally leaves.
EXPOSED = 0.85


def _spot_over(flag: int, side_mm: float, table_seed: int) -> tuple[float, float]:
    """Frame fractions `side_mm` south (negative: north) of flag `flag`'s tile."""
    img = render(sample_scene(table_seed=table_seed), printing("classic"), seed=4)
    layout = acquire(img)
    x, y = layout.point(layout.tile(flag).anchor, 0.0, side_mm)
    return x / img.shape[1], y / img.shape[0]


@pytest.mark.parametrize("table_seed", TABLES)
@pytest.mark.parametrize("flag,side_mm", [(2, 70.0), (5, -80.0), (8, 60.0)])
def test_a_glare_spot_over_a_flags_cards_is_reported_there(table_seed: int, flag: int,
                                                          side_mm: float) -> None:
    at = _spot_over(flag, side_mm, table_seed)
    deg = Degrade(exposure=EXPOSED, glare=0.7, glare_at=at, glare_radius=0.035)
    img = render(sample_scene(table_seed=table_seed), printing("classic"), seed=4, degrade=deg)
    found = glare_flags(img, acquire(img, allow_missing=True))
    assert flag in found
    assert all(abs(n - flag) <= 1 for n in found), found


@pytest.mark.parametrize("table_seed", TABLES)
@pytest.mark.parametrize("deg", [
    Degrade(),
    Degrade(exposure=EXPOSED),
    Degrade(exposure=EXPOSED, light=0.4, light_dir_deg=80.0, vignette=0.3),  # light falling off
    Degrade(exposure=0.95, cast=(1.1, 1.0, 0.9)),
    Degrade(light=0.3, light_dir_deg=200.0, exposure=0.85, noise=4, jpeg=70),
])
def test_no_glare_without_a_spot(table_seed: int, deg: Degrade) -> None:
    for name in ("classic", "bold"):
        img = render(sample_scene(table_seed=table_seed), printing(name), seed=4, degrade=deg)
        assert glare_flags(img, acquire(img, allow_missing=True)) == ()


def test_a_hand_is_no_glare() -> None:
    scene = replace(sample_scene(table_seed=1), hand=Hand("south", 0.0, 60.0, 0.0, 130.0))
    img = render(scene, printing("bold"), seed=2, degrade=Degrade(exposure=EXPOSED))
    assert glare_flags(img, acquire(img, allow_missing=True)) == ()


@pytest.mark.parametrize("table_seed", TABLES)
def test_an_overexposed_frame_sees_glare_on_the_table_between_the_columns(
        table_seed: int) -> None:
    """Tiles' white at the sensor's top in every channel: paper and glare look alike, but a
    spot wide enough to reach the table between two columns lifts it to the sensor's top,
    which no table is without glare (`glare._on_the_table`). A spot on the cards alone is
    not seen there (a documented limit); nor is light falling off, or none."""
    from companion.vision.glare import blind

    at = _spot_over(5, 70.0, table_seed)
    for radius, want in ((0.07, True), (0.02, False)):
        deg = Degrade(glare=0.7, glare_at=at, glare_radius=radius)
        img = render(sample_scene(table_seed=table_seed), printing("classic"), seed=4,
                     degrade=deg)
        layout = acquire(img, allow_missing=True)
        assert blind(layout)
        found = glare_flags(img, layout)
        assert (5 in found) == want, (radius, found)
        assert all(abs(n - 5) <= 1 for n in found), found
    for deg in (Degrade(), Degrade(exposure=1.4, light=0.4, light_dir_deg=80.0,
                                   vignette=0.3)):
        img = render(sample_scene(table_seed=table_seed), printing("bold"), seed=4,
                     degrade=deg)
        layout = acquire(img, allow_missing=True)
        assert blind(layout) and glare_flags(img, layout) == ()


def test_an_overexposed_frame_judges_every_colour_as_under_glare() -> None:
    """A frame that cannot tell glare from paper (`glare.blind`) cannot say where a spot
    washes a colour out either: every read's colour needs the margin a flag under glare
    gets. On a bench table (banner, seed 2, its tiles' white at the sensor's top) a spot
    over flag 4 put an orange 7 0.35 of the way towards yellow: read yellow, silently."""
    from companion.rules.cards import BY_CODE
    from companion.vision.glare import blind
    from companion.vision.pipeline import _Slot
    from companion.vision.reading import CardRead, ReadingSettings

    over = render(sample_scene(table_seed=0), printing("classic"), seed=4)
    assert blind(acquire(over, allow_missing=True))
    exposed = render(sample_scene(table_seed=0), printing("classic"), seed=4,
                     degrade=Degrade(exposure=EXPOSED))
    assert not blind(acquire(exposed, allow_missing=True))

    s = ReadingSettings.load()
    t = (s.colour_doubt_glare + s.colour_doubt) / 2

    def slots() -> list[_Slot]:
        # An orange 7 read for sure elsewhere would settle a yellow 7's colour doubt, but not
        # under glare, seen or not: a spot moves a colour further than between two.
        read = CardRead(((BY_CODE["Y7"], 0.9), (BY_CODE["O7"], 0.8)), 6.0, 44.0,
                        colour_t=t, colour_rivals=(BY_CODE["O7"],))
        orange = CardRead(((BY_CODE["O7"], 0.9), (BY_CODE["O6"], 0.7)), 6.0, 44.0)
        return [_Slot(Place(4, "north"), 0, read), _Slot(Place(6, "south"), 0, orange)]

    with TableReader(deck("classic"), workers=0) as reader:
        for is_blind, glare, doubt in ((False, (), False), (False, (4,), True),
                                       (True, (), True)):
            got = slots()
            reader._settle(got[:1], glare, is_blind)
            assert (got[0].doubt is not None) == doubt
            assert not doubt or got[0].doubt.why == ("colour",)      # type: ignore[union-attr]
            got = slots()
            reader._settle(got, glare, is_blind)
            assert (got[0].doubt is not None) == doubt and got[1].doubt is None


@pytest.mark.parametrize("table_seed", (0, 1))
def test_an_overexposed_frame_judges_colours_as_under_glare_only_where_a_spot_shows(
        table_seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """An overexposed frame cannot tell glare from paper on the cards, but a spot shows on
    the table: between two columns (`glare._on_the_table`) or on a strip's margins
    (`zones.spot_seen`). Where it shows nowhere, the frame's colours are judged as usual;
    where it does, every colour as under glare (`glare.blind`)."""
    from companion.vision.glare import blind

    judged: list[bool] = []
    settle = TableReader._settle

    def spy(self: TableReader, slots: list, glare: tuple[int, ...] = (),
            is_blind: bool = False, cast: bool = False) -> None:
        judged.append(is_blind)
        settle(self, slots, glare, is_blind, cast)

    monkeypatch.setattr(TableReader, "_settle", spy)
    spot = Degrade(glare=0.7, glare_at=_spot_over(5, 70.0, table_seed), glare_radius=0.07)
    falling = Degrade(exposure=1.4, light=0.4, light_dir_deg=80.0, vignette=0.3)
    for deg, want in ((Degrade(), False), (falling, False), (spot, True)):
        img = render(sample_scene(table_seed=table_seed), printing("classic"), seed=4,
                     degrade=deg)
        assert blind(acquire(img, allow_missing=True))
        judged.clear()
        with TableReader(deck("classic"), workers=0) as reader:
            reader.read(img)
        assert judged == [want], deg


def test_the_reader_reports_glare_and_the_observation_keeps_it() -> None:
    at = _spot_over(7, 70.0, 0)
    img = render(sample_scene(table_seed=0), printing("classic"), seed=4,
                 degrade=Degrade(exposure=EXPOSED, glare=0.8, glare_at=at, glare_radius=0.04))
    with TableReader(deck("classic"), workers=0) as reader:
        obs = reader.read(img)
    assert 7 in obs.glare
    doc = obs.to_json()
    assert doc["glare"] == list(obs.glare)
    assert Observation.loads(json.dumps(doc)).glare == obs.glare
    with TableReader(deck("classic"), workers=0) as reader:
        assert reader.read(render(sample_scene(table_seed=0), printing("classic"), seed=4,
                                  degrade=Degrade(exposure=EXPOSED))).glare == ()


@pytest.mark.parametrize("bad", ["3", [0], [10], ["3"], [True], {"3": 1}])
def test_a_malformed_glare_list_is_refused(bad: object) -> None:
    doc = Observation().to_json()
    doc["glare"] = bad
    with pytest.raises(ObservationError, match="flag numbers"):
        Observation.from_json(doc)
    assert Observation.from_json({k: v for k, v in doc.items() if k != "glare"}).glare == ()


@pytest.mark.parametrize("bad", [1, "true", None, [True]])
def test_a_malformed_cast_is_refused(bad: object) -> None:
    doc = Observation().to_json()
    assert doc["cast"] is False
    doc["cast"] = bad
    with pytest.raises(ObservationError, match="true or false"):
        Observation.from_json(doc)
    assert not Observation.from_json({k: v for k, v in doc.items() if k != "cast"}).cast


def test_a_colour_washed_out_under_glare_is_a_doubt(monkeypatch: pytest.MonkeyPatch) -> None:
    """A yellow under a strong glare spot (narrow printing, seed 1, at the webcam) shows half
    its colour, towards green: read green without a doubt before; at a flag under glare a
    read's colour needs a wider margin (`colour_doubt_glare`). With the spot's light taken
    away (`zones.glare_lift`) it reads yellow, and sure; where that cannot be done (here:
    turned off) the wider margin still makes it a doubt."""
    from companion.vision import zones
    from companion.vision.evaluate import Score

    img, d, truth, deg = bench_webcam_frame("narrow", 1, 0)
    assert deg.glare > 0.5
    for lift_off in (True, False):
        if not lift_off:
            monkeypatch.setattr(zones, "glare_lift", lambda *a: None)
        with TableReader(d, allow_missing_tiles=True, workers=0) as reader:
            obs = reader.read(img)
        assert 8 in obs.glare
        score = Score()
        score.add(obs, truth)
        assert score.wrong == 0, score.mistakes
        at_8 = [x for x in obs.doubtful if x.where == Place(8, "north")]
        if lift_off:
            assert obs.flags[7].north == truth.flags[7].north and not at_8, score.doubts
        else:
            assert any("colour" in x.why for x in at_8)


@pytest.mark.parametrize("flag,side_mm,table_seed", [(8, -50.0, 0), (1, -60.0, 0),
                                                     (8, -50.0, 1), (7, 50.0, 5)])
def test_a_glare_spots_light_is_taken_away_from_the_cards_under_it(
        flag: int, side_mm: float, table_seed: int) -> None:
    """A lamp's spot adds white light to the cards under it and to the table beside them:
    measured on the strip's two margins against the table elsewhere and taken away
    (`zones.glare_lift`, `zones.without_glare`), the cards read as without it. Before, the
    washed-out colours of the spot's cards were doubts, and a card was lost."""
    from companion.vision.evaluate import Score

    scene = sample_scene(table_seed=table_seed)
    deg = Degrade(exposure=EXPOSED, glare=0.6, glare_at=_spot_over(flag, side_mm, table_seed),
                  glare_radius=0.055)
    img = render(scene, printing("classic"), seed=4, degrade=deg)
    with TableReader(deck("classic"), workers=0) as reader:
        obs = reader.read(img)
    assert flag in obs.glare
    score = Score()
    score.add(obs, scene.observation())
    assert score.right == score.cards, (score.mistakes, score.doubts)


def _margins(rows: int, left: tuple[float, float, float], right: tuple[float, float, float]
             ) -> tuple[np.ndarray, np.ndarray]:
    return (np.tile(np.array(left, np.float32), (rows, 1)),
            np.tile(np.array(right, np.float32), (rows, 1)))


def test_only_white_light_over_both_margins_is_taken_for_glare() -> None:
    """What lifts a strip's margins above the table elsewhere is glare only when it lifts
    both, by the same light in every channel, over a broad stretch: a white card laid
    off-centre over one margin, a stretch of table lit more brightly (the table's own
    colour scaled) or a narrow bright line is none."""
    from companion.vision.reading import ReadingSettings
    from companion.vision.zones import Zone, glare_lift, without_glare

    s = ReadingSettings.load()
    zone = Zone("5north", "north", True, np.eye(3), (176, 200), np.full(3, 235.0, np.float32),
                np.full(3, 15.0, np.float32), None)
    rows, span = 200, 220.0
    table = (0.20, 0.35, 0.55)                                  # a brown table, BGR
    ref = np.tile(np.array(table, np.float32), (rows, 1))
    up = tuple(c + 60.0 / span for c in table)                  # 60 of 255 more light
    assert glare_lift(_margins(rows, table, table), ref, zone, s) is None
    assert glare_lift(_margins(rows, up, table), ref, zone, s) is None     # a card's edge
    scaled = tuple(c * 1.5 for c in table)                      # brighter light, not glare
    assert glare_lift(_margins(rows, scaled, scaled), ref, zone, s) is None
    short = _margins(rows, table, table)
    for m in short:
        m[100:100 + s.px(s.glare_rows_min_mm) - 2] = up
    assert glare_lift(short, ref, zone, s) is None
    lift = glare_lift(_margins(rows, up, up), ref, zone, s)
    assert lift is not None
    assert np.allclose(lift[0][20:-20], 60.0, atol=0.5) and np.allclose(lift[1][20:-20], 60.0,
                                                                         atol=0.5)
    # Taken away, the strip is as without it; a clipped channel is left at the brightest the
    # printing gets, not taken down to read as ink.
    strip = np.tile(np.array(up, np.float32), (rows, 176, 1))
    strip[50, 50] = (255.0 - 15.0) / span
    top = np.array([0.9, 0.9, 0.9], np.float32)
    out = without_glare(strip, lift, zone, top, s.glare_clip)
    assert np.allclose(out[100, 88], table, atol=0.01)
    assert np.allclose(out[50, 50], top)


def test_a_vivid_frame_reads_its_yellows_yellow() -> None:
    """A frame showing its colours over twice as vivid as enrolled, five yellows and no
    orange (narrow printing, seed 0, at the webcam): every yellow was read orange, silently,
    before the colour map's fit started with the frame's vividness taken out."""
    from companion.vision.evaluate import Score

    img, d, truth, _ = bench_webcam_frame("narrow", 0, 0)
    with TableReader(d, allow_missing_tiles=True, workers=0) as reader:
        obs = reader.read(img)
    score = Score()
    score.add(obs, truth)
    assert score.wrong == 0 and score.right >= score.cards - 2, score.mistakes
