"""The layout from the tiles, and following it: nudges, claimed and missing tiles, hands."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.vision.errors import MissingTilesError, NoTilesError
from companion.vision.layout import LayoutTracker, acquire
from companion.synth import Hand, Scene, render

from .vision_helpers import frame, printing, sample_scene


def test_acquire_finds_line_north_and_claimed_tiles() -> None:
    layout = acquire(frame("classic"))
    assert [t.state for t in layout.tiles] == ["line", "line", "north", "line", "south",
                                                "line", "line", "line", "line"]
    # North is the top of the frame in an untouched render; flags run west to east.
    assert layout.pose.south[1] > 0.99
    xs = [t.anchor[0] for t in layout.tiles]
    assert xs == sorted(xs)
    assert layout.pose.px_per_mm == pytest.approx(2.3, rel=0.03)


def test_a_frame_without_tiles_or_with_too_few() -> None:
    with pytest.raises(NoTilesError, match="no flag tile"):
        acquire(np.full((1296, 2304, 3), 90, np.uint8))
    scene = sample_scene()
    flags = list(scene.flags)
    flags[1] = replace(flags[1], tile="missing")
    flags[7] = replace(flags[7], tile="missing")
    img = render(replace(scene, flags=tuple(flags)), printing("classic"), seed=3)
    with pytest.raises(MissingTilesError, match="BL-FLAG-2, BL-FLAG-8"):
        acquire(img)
    lay = acquire(img, allow_missing=True)
    assert [t.state for t in lay.tiles][:3] == ["line", "missing", "north"]
    assert lay.tile(8).state == "missing"


def test_tracker_follows_a_nudged_camera_without_decoding() -> None:
    img = frame("classic")
    tr = LayoutTracker()
    first = tr.update(img)
    decodes = tr.decodes
    moved = np.roll(img, (9, -14), axis=(0, 1))
    second = tr.update(moved)
    assert tr.decodes == decodes
    for a, b in zip(first.tiles, second.tiles):
        assert b.state == a.state
        assert math.dist((a.anchor[0] - 14, a.anchor[1] + 9), b.anchor) < 2.0


def test_tracker_sees_a_claim_a_removal_and_remembers_a_hidden_tile() -> None:
    scene = sample_scene(table_seed=5)
    pr = printing("classic")
    tr = LayoutTracker()
    tr.update(render(scene, pr, seed=1))
    flags = list(scene.flags)
    flags[5] = replace(flags[5], tile="south")     # flag 6 claimed by south
    flags[8] = replace(flags[8], tile="missing")   # flag 9's tile taken away
    lay = tr.update(render(replace(scene, flags=tuple(flags)), pr, seed=1))
    assert lay.tile(6).state == "south"
    assert lay.tile(9).state == "missing"
    # A hand over flag 2's tile: it stays on the line, remembered, unseen.
    hand = Hand("south", -270.0, -20.0, 0.0, 90.0)
    lay = tr.update(render(replace(scene, flags=tuple(flags), hand=hand), pr, seed=1))
    assert lay.tile(2).state == "line" and not lay.tile(2).seen
    assert lay.tile(6).state == "south"


def test_the_first_frame_followed_keeps_the_acquired_line() -> None:
    # A tilted camera and a tile claimed far off the line (the benchmark's first frame): a
    # line fitted through every tile leans towards the claimed one, so the tile at the far
    # end was not taken for a line tile and the line went through the others alone.  The
    # tracker's first frame then turned it by a third of a degree and moved every zone.
    from companion.synth import Degrade, printing_a
    from companion.synth.dataset import random_scene

    rng = np.random.default_rng([2024, 0xBE7C])
    scene = random_scene(rng, hand=bool(rng.random() < 0.15))
    img = render(scene, printing_a(), int(rng.integers(1 << 30)), Degrade.random(rng, hand=False))
    tr = LayoutTracker(allow_missing=True)
    first = tr.update(img)
    assert any(t.state in ("north", "south") for t in first.tiles)
    second = tr.update(img)
    turn = math.degrees(abs(math.atan2(first.pose.east[1], first.pose.east[0])
                            - math.atan2(second.pose.east[1], second.pose.east[0])))
    assert turn < 0.05
    for a, b in zip(first.tiles, second.tiles):
        assert b.state == a.state
        assert math.dist(a.anchor, b.anchor) < 0.5


# -- other cameras, other prints, wherever players put their cards -----------------------------
def test_a_webcam_frame_finds_every_tile() -> None:
    # A 1080p webcam over the whole table: ~16 px per cm, ~2 px per code module, blurred
    # and noisy so that most codes do not decode.
    from companion.synth import WEBCAM_RIG, Degrade

    scene = sample_scene(table_seed=6)
    img = render(scene, printing("classic"), 2, Degrade(blur=1.4, noise=4.0, jpeg=75,
                                                         tilt_deg=4.0, tilt_dir_deg=30.0),
                 rig=WEBCAM_RIG)
    assert img.shape == (1080, 1920, 3)
    layout = acquire(img)
    assert all(t.seen for t in layout.tiles)
    assert [t.state for t in layout.tiles] == [f.tile for f in scene.flags]
    assert layout.pose.px_per_mm == pytest.approx(WEBCAM_RIG.px_per_mm, rel=0.06)


def test_the_line_lies_between_tiles_claimed_on_both_sides() -> None:
    # A match nearly won: four tiles claimed on each side, one left on the line. The groups
    # beyond it are larger, and as far from the frame's middle as the camera allows.
    from companion.vision.layout import Pose, _line_offset

    pose = Pose((1.0, 0.0), (0.0, 1.0), 1.6)
    at = {"north": -255.0, "line": 0.0, "south": 255.0}
    states = ["line", "north", "north", "south", "south", "north", "north", "south", "south"]
    centres = [(100.0 * n, 540.0 + at[st] * 1.6) for n, st in enumerate(states)]
    middle = (960.0, 540.0)
    assert _line_offset(pose, centres, middle) == pytest.approx(540.0 / 1.6)
    # Without the tile on the line, the larger group nearer the middle is taken, as before.
    assert _line_offset(pose, centres[1:] + centres[4:5], middle) == pytest.approx(
        (540.0 + 255.0 * 1.6) / 1.6)


def test_a_webcam_frame_with_nearly_every_flag_claimed_is_read() -> None:
    # Brought to the rig's scale by the reader, a webcam frame's codes are no sharper: two
    # decoded, both claimed, left no line to find the others by, and the frame was refused.
    from companion.synth import WEBCAM_RIG, Degrade
    from companion.vision.pipeline import TableReader

    from .vision_helpers import deck

    scene = sample_scene(table_seed=6)
    states = ["line", "north", "north", "south", "south", "north", "north", "south", "south"]
    scene = replace(scene, flags=tuple(replace(f, tile=st) for f, st in zip(scene.flags, states)))
    img = render(scene, printing("classic"), 2, Degrade(blur=0.8, noise=3.8, tilt_deg=4.6,
                                                         tilt_dir_deg=302.0), rig=WEBCAM_RIG)
    with TableReader(deck("classic"), workers=0) as reader:
        obs = reader.read(img)
    assert [f.tile for f in obs.flags] == states


def test_a_stretched_frame_is_refused_and_a_larger_one_read() -> None:
    import cv2

    from companion.vision.errors import ImageError

    img = frame("classic")
    with pytest.raises(ImageError, match="stretched"):
        acquire(cv2.resize(img, (4000, 4000), interpolation=cv2.INTER_LINEAR))
    big = acquire(cv2.resize(img, None, fx=1.6, fy=1.6, interpolation=cv2.INTER_LINEAR))
    assert [t.state for t in big.tiles] == [t.state for t in acquire(img).tiles]
    assert big.pose.px_per_mm == pytest.approx(2.3 * 1.6, rel=0.03)


def _read(scene: Scene, name: str, setup: object = None, rig: object = None,
          seed: int = 4) -> tuple[object, object]:
    from companion.vision.pipeline import TableReader

    from .vision_helpers import deck
    img = render(scene, printing(name), seed, setup=setup, rig=rig)   # type: ignore[arg-type]
    with TableReader(deck(name), workers=0) as reader:
        return reader.read(img), scene.observation()


def _found_right(obs: object, truth: object) -> None:
    """Every card found where it lies, in its place's column, and none where none lies.

    Finding the cards is the zones' part; naming them is the reader's, tested on its own
    (tests/vision/test_pipeline.py, test_zoo.py)."""
    for got, want in zip(obs.flags, truth.flags):                # type: ignore[attr-defined]
        assert got.tile == want.tile
        for side in ("north", "south"):
            g, w = getattr(got, side), getattr(want, side)
            assert len(g) == len(w), f"flag {got.flag} {side}: {g} for {w}"
    for side in ("north", "south"):
        got, want = obs.offline(side), truth.offline(side)       # type: ignore[attr-defined]
        assert len(got) == len(want), f"offline {side}: {got} for {want}"


@pytest.mark.parametrize("gap", [-2.0, 0.0, 40.0])
@pytest.mark.parametrize("name", ["classic", "bold"])
def test_first_cards_against_the_tile_over_it_or_far_from_it_read_right(gap: float,
                                                                        name: str) -> None:
    from companion.synth import Setup

    obs, truth = _read(sample_scene(table_seed=8), name, Setup(first_gap_mm=(gap, gap),
                                                               askew_deg=2.0))
    _found_right(obs, truth)


@pytest.mark.parametrize("scale", [0.95, 1.0])
def test_tiles_printed_at_95_to_100_percent_read_right(scale: float) -> None:
    from companion.synth import Setup

    obs, truth = _read(sample_scene(table_seed=9), "classic",
                       Setup(first_gap_mm=(0.0, 12.0), tile_scale=(scale, scale)))
    _found_right(obs, truth)


@pytest.mark.parametrize("table_seed", [11, 12, 14, 6, 0])
def test_bare_off_line_areas_give_no_cards(table_seed: int) -> None:
    # Wood with its grain and planks (table seeds 11, 12, 14), felt (6) and a laminate (0):
    # nothing lies beyond the ends of the line, nothing is read there.
    scene = replace(sample_scene(table_seed=table_seed), offline_north=(), offline_south=())
    obs, truth = _read(scene, "classic")
    assert obs.offline_north == () and obs.offline_south == ()   # type: ignore[attr-defined]
    _found_right(obs, truth)


@pytest.mark.parametrize("table_seed", [0, 4])
@pytest.mark.parametrize("glare_x", [0.27, 0.36])
def test_a_tile_taken_away_under_glare_is_missing(table_seed: int, glare_x: float) -> None:
    # A bright spot over flag 2's place on the line (0.27): its bare table is far paler than
    # the table elsewhere, and the tile taken away was remembered on the line as covered.
    # The line either side of the place shows the same glare: bare table, the tile is gone.
    # The spot beside the place (0.36): the line is far paler on one side of the place than
    # on the other, and the bare place shows the shades between (before, two sides that
    # differed said nothing, and the tile taken away was remembered on the line).
    from companion.synth import Degrade

    scene = sample_scene(table_seed=table_seed)
    flags = list(scene.flags)
    flags[1] = replace(flags[1], tile="missing")
    gone = replace(scene, flags=tuple(flags))
    glare = Degrade(glare=0.6, glare_at=(glare_x, 0.5), glare_radius=0.07)
    pr = printing("classic")
    lay = acquire(render(gone, pr, seed=3, degrade=glare), allow_missing=True)
    assert lay.tile(2).state == "missing"
    assert [t.state for t in lay.tiles] == [f.tile for f in gone.flags]
    # Followed: seen on the line, then taken away under the glare.
    tr = LayoutTracker(allow_missing=True)
    assert tr.update(render(scene, pr, seed=3, degrade=glare)).tile(2).state == "line"
    assert tr.update(render(gone, pr, seed=3, degrade=glare)).tile(2).state == "missing"
    # A hand over the tile under the same glare covers it: on the line, unseen.
    hand = Hand("south", -270.0, -20.0, 0.0, 90.0)
    lay = acquire(render(replace(scene, hand=hand), pr, seed=3, degrade=glare),
                  allow_missing=True)
    assert lay.tile(2).state == "line" and not lay.tile(2).seen


def _sightings(scale_at, centres, corner_noise: float = 0.0):
    """Tiles seen at `centres` (px, upright), each measured at `scale_at(x, y)` px per mm,
    their edge samples off by +-`corner_noise` (a corner placed a pixel or two off)."""
    from companion.vision.tiles import TileSighting, qr_symbol_mm

    out = []
    for n, (x, y) in enumerate(centres, start=1):
        k = scale_at(x, y)
        half = 0.5 * qr_symbol_mm() * k
        mids = [(x, y - half), (x + half, y), (x, y + half), (x - half, y)]
        # The top edge long and the bottom one short: inside one tile the scale seems to
        # change fast across the line.
        noise = [corner_noise, 0.0, -corner_noise, 0.0]
        samples = tuple((mx, my, k * (1 + e)) for (mx, my), e in zip(mids, noise))
        out.append(TileSighting(n, (x, y), (0.0, -1.0), k, samples, True))
    return out


def test_the_scale_field_is_not_led_by_the_noise_of_one_code_s_corners() -> None:
    from companion.vision.layout import _pose

    line = [(300.0 + 170 * i, 650.0) for i in range(9)]
    pose = _pose(_sightings(lambda x, y: 2.3, line, corner_noise=0.015))
    # 200 mm from the line on either side, where a zone's last cards lie: still 2.3.
    for dy in (-460.0, 460.0):
        assert pose.scale_at((1000.0, 650.0 + dy)) == pytest.approx(2.3, rel=0.005)


def test_the_scale_field_follows_a_tilt_the_tiles_show() -> None:
    from companion.vision.layout import _pose

    # A camera tilted along the line: the scale grows 10 % from one end to the other.
    along = lambda x, y: 2.2 * (1 + 0.1 * (x - 300.0) / 1360.0)  # noqa: E731
    line = [(300.0 + 170 * i, 650.0) for i in range(9)]
    pose = _pose(_sightings(along, line, corner_noise=0.015))
    assert pose.scale_at((1660.0, 900.0)) == pytest.approx(along(1660.0, 900.0), rel=0.005)
    # Tilted across it as well: two claimed tiles 255 mm off the line show that slope.
    both = lambda x, y: along(x, y) * (1 + 0.05 * (y - 650.0) / 560.0)  # noqa: E731
    tiles = line[:3] + [(810.0, 650.0 + 560.0), (980.0, 650.0 - 560.0)] + line[5:]
    pose = _pose(_sightings(both, tiles))
    assert pose.scale_at((1300.0, 1100.0)) == pytest.approx(both(1300.0, 1100.0), rel=0.01)


def test_the_renderer_s_table_map_gives_the_camera_s_scale() -> None:
    from companion.bench.layout import true_scale
    from companion.synth import REFERENCE_RIG, Degrade

    truth: list[np.ndarray] = []
    render(sample_scene(), printing("classic"), 1, Degrade(), table_map=truth)
    flat = true_scale(truth[0], 1.0, 1.0, (1152.0, 648.0))
    assert flat == pytest.approx(REFERENCE_RIG.px_per_mm, rel=0.01)
    truth.clear()
    render(sample_scene(), printing("classic"), 1, Degrade(tilt_deg=10.0, tilt_dir_deg=0.0),
           table_map=truth)
    # Tilted about the image's x axis: the far rows show the table smaller than the near.
    top, bottom = (true_scale(truth[0], 1.0, 1.0, (1152.0, y)) for y in (150.0, 1150.0))
    assert abs(top / bottom - 1) > 0.05


def test_the_layout_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.bench.layout import main

    assert main(["--frames", "1"]) == 0
    out = capsys.readouterr().out
    assert "200 mm from the tiles: error mean" in out and "webcam" in out


def test_zone_counts_give_each_flag_s_zone_and_its_sides() -> None:
    """`zone_counts`: per flag, the pixels of a mask in its zone; `side` splits a zone at the
    flag's centre line (east, west), `inner` leaves out the middle (the table between two
    columns, where glare is looked for in an overexposed frame); `zone_mask` joins them."""
    from companion.vision.glare import _pitch
    from companion.vision.layout import shrunk, zone_counts, zone_mask

    img = render(sample_scene(), printing("classic"), seed=4)
    layout = acquire(img)
    assert abs(_pitch(layout) - 90.0) < 4.0                 # the set-up's distance, measured
    small, f = shrunk(img, layout, 0.5, 2)
    every = np.ones(small.shape[:2], bool)
    whole = zone_counts(every, f, layout, 44.0, 25.0, 160.0)
    east, west = (zone_counts(every, f, layout, 44.0, 25.0, 160.0, side=side)
                  for side in (1, -1))
    k = layout.pose.px_per_mm * f
    for flag in range(1, 10):
        # 88 mm across, 135 mm deep on either side of the line, in shrunk pixels.
        assert whole[flag] == pytest.approx(88 * 135 * 2 * k * k, rel=0.1)
        assert east[flag] + west[flag] == pytest.approx(whole[flag], abs=2 * 135 * 2 * k)
        assert east[flag] == pytest.approx(west[flag], rel=0.1)
    gaps = zone_counts(every, f, layout, 44.0, 25.0, 160.0, inner=36.0)
    assert all(n == pytest.approx(8 * 135 * 2 * 2 * k * k, rel=0.2) for n in gaps.values())
    # The mask holds every pixel counted, and a pixel more at most along each edge.
    mask = zone_mask(small.shape[:2], f, layout, 44.0, 25.0, 160.0, 36.0)
    assert not any(zone_counts(~mask, f, layout, 44.0, 25.0, 160.0, inner=36.0).values())
    edges = 9 * 4 * 2 * (8 + 135) * k
    assert sum(gaps.values()) <= mask.sum() <= sum(gaps.values()) + edges
    assert zone_counts(~every, f, layout, 44.0, 25.0, 160.0) == {t.flag: 0 for t in layout.tiles}
