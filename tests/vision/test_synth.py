"""The synthetic table: scenes, ground truth, faces and printings, seeded rendering."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from pyzbar import pyzbar

from companion.errors import CompanionError
from companion.rules.cards import ALL_CARDS, BY_CODE
from companion.vision.geometry import FRAME_H, FRAME_W, LORES_H, LORES_W
from companion.vision.observation import Observation
from companion.synth import (
    Degrade, FlagScene, Hand, Scene, SynthError, card_face, placements, printing_a,
    printing_b, random_printing, render, render_lores, write_deck_images)
from companion.synth.dataset import random_scene, write_dataset
from companion.synth.faces import FACE_PX_PER_MM


def busy_scene(hand: Hand | None = None, table_seed: int | None = None) -> Scene:
    return Scene.from_layout(
        [("line", ["R8", "R9", "ALEXANDER"], ["B3"]),
         ("line", ["O1"], ["FOG", "G4", "G5", "G6"]),
         ("north", ["Y10", "Y9", "Y8"], ["P1", "P2", "P3"]),
         ("line", [], []),
         ("line", ["MUD", "B1", "B2", "B4", "B5"], ["R1", "R2", "R3", "R4"]),
         ("south", ["O2", "O3", "O4"], ["O5", "O6", "O7"]),
         ("line", ["CAVALRY"], ["SHIELD", "Y1"]),
         ("line", ["G10", "G9"], ["P10", "P9"]),
         ("missing", ["B10"], ["DARIUS"])],
        offline_north=["SCOUT", "Y3", "G1"], offline_south=["REDEPLOY", "P5"],
        hand=hand, table_seed=table_seed)


# -- scenes and ground truth ------------------------------------------------------------------
def test_observation_matches_the_scene() -> None:
    scene = busy_scene()
    obs = scene.observation()
    assert [f.tile for f in obs.flags] == ["line", "line", "north", "line", "line", "south",
                                          "line", "line", "missing"]
    assert [c.code for c in obs.flag(1).north] == ["R8", "R9", "ALEXANDER"]
    assert [c.code for c in obs.flag(2).south] == ["FOG", "G4", "G5", "G6"]
    assert [c.code for c in obs.flag(5).north] == ["MUD", "B1", "B2", "B4", "B5"]
    assert [c.code for c in obs.offline_north] == ["SCOUT", "Y3", "G1"]
    assert [c.code for c in obs.offline_south] == ["REDEPLOY", "P5"]
    assert obs.obstructed == ()
    # It is a real contract 2 document: it survives the JSON round trip.
    assert Observation.loads(obs.dumps()) == obs


def test_hand_marks_the_flags_it_covers() -> None:
    scene = busy_scene(hand=Hand("south", x_mm=10.0, y_mm=60.0, width_mm=80.0))
    assert scene.observation().obstructed == (5,)
    wide = busy_scene(hand=Hand("north", x_mm=-360.0, y_mm=-20.0, angle_deg=25, width_mm=120))
    assert 1 in wide.observation().obstructed


@pytest.mark.parametrize("make, words", [
    (lambda: Scene.from_layout([("line", ["R8"], ["R8"])] + [("line", [], [])] * 8),
     "twice"),
    (lambda: Scene.from_layout([("line", [], [])] * 8), "9 flag"),
    (lambda: Scene.from_layout([("sideways", [], [])] + [("line", [], [])] * 8), "sideways"),
    (lambda: Scene.from_layout([("line", ["Z9"], [])] + [("line", [], [])] * 8), "Z9"),
    (lambda: Scene.from_layout([("line", "R8", [])] + [("line", [], [])] * 8), "single card"),
    (lambda: Hand("east", 0, 0), "east"),
    (lambda: Degrade(tilt_deg=40), "tilt_deg"),
])
def test_bad_scenes_are_refused_by_name(make, words: str) -> None:  # noqa: ANN001
    with pytest.raises(SynthError, match=words) as info:
        make()
    assert isinstance(info.value, CompanionError)


def test_flag_scene_numbering_is_checked() -> None:
    flags = tuple(FlagScene(n) for n in range(1, 10))
    with pytest.raises(SynthError, match="numbered"):
        Scene(flags[:1] + (FlagScene(5),) + flags[2:])


# -- faces and printings ----------------------------------------------------------------------
@pytest.mark.parametrize("printing", [printing_a(), printing_b(), random_printing(7)],
                         ids=lambda p: p.name)
def test_every_card_has_a_face(printing) -> None:  # noqa: ANN001
    faces = {card.code: card_face(printing, card) for card in ALL_CARDS}
    assert len(faces) == 70
    shape = faces["R1"].shape
    assert shape == (round(88 * FACE_PX_PER_MM), round(63 * FACE_PX_PER_MM), 3)
    # All 70 faces differ from each other, and so do their top bands (what an echelon shows).
    band = int(printing.band_mm * FACE_PX_PER_MM)
    tops = {code: f[:band].tobytes() for code, f in faces.items()}
    assert len(set(tops.values())) == 70


def test_printings_differ() -> None:
    a, b, r1, r2 = printing_a(), printing_b(), random_printing(1), random_printing(2)
    assert len({a, b, r1, r2}) == 4
    assert random_printing(1) == r1                       # seeded
    for other in (b, r1, r2):
        diff = np.abs(card_face(a, "R8").astype(int) - card_face(other, "R8").astype(int))
        assert diff.mean() > 10, other.name


def test_random_printings_keep_colours_apart() -> None:
    # Whatever the seed, the six troop colours stay distinct in hue (a player can name them).
    for seed in range(40):
        p = random_printing(seed)
        hsv = cv2.cvtColor(np.array([p.colours], np.uint8), cv2.COLOR_BGR2HSV_FULL)[0]
        hues = hsv[:, 0].astype(int)
        for i in range(6):
            for j in range(i + 1, 6):
                d = abs(hues[i] - hues[j])
                assert min(d, 256 - d) >= 6, (seed, i, j)


def test_write_deck_images(tmp_path: Path) -> None:
    paths = write_deck_images(printing_b(), tmp_path / "deck", px_per_mm=4.0)
    names = sorted(p.name for p in (tmp_path / "deck").iterdir())
    assert names == sorted(f"{c.code}.png" for c in ALL_CARDS)
    assert len(paths) == 70
    img = cv2.imread(str(tmp_path / "deck" / "ALEXANDER.png"))
    assert img.shape == (352, 252, 3)


def test_bad_card_code_is_refused() -> None:
    with pytest.raises(SynthError, match="Q3"):
        card_face(printing_a(), "Q3")


# -- rendering --------------------------------------------------------------------------------
def test_same_seed_same_pixels_and_other_seed_other_pixels() -> None:
    scene = busy_scene()
    deg = Degrade.random(np.random.default_rng(5))
    one = render(scene, printing_a(), 11, deg)
    assert one.shape == (FRAME_H, FRAME_W, 3) and one.dtype == np.uint8
    assert np.array_equal(one, render(scene, printing_a(), 11, deg))
    assert not np.array_equal(one, render(scene, printing_a(), 12, deg))


def test_fixed_table_seed_keeps_the_table_steady() -> None:
    # With the table fixed, two undegraded frames differ only where a card was added.
    before = busy_scene(table_seed=3)
    flags = list(before.flags)
    flags[3] = FlagScene(4, "line", (), (BY_CODE["G7"],))
    after = Scene(tuple(flags), before.offline_north, before.offline_south, None, 3)
    a = render(before, printing_a(), 1)
    b = render(after, printing_a(), 2)
    changed = np.argwhere(np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 0)
    assert len(changed)
    (y0, x0), (y1, x1) = changed.min(axis=0), changed.max(axis=0)
    assert (x1 - x0) < 63 * 2.3 + 30 and (y1 - y0) < 88 * 2.3 + 30   # one card's footprint


def decode_tiles(frame: np.ndarray, scene: Scene, seed: int) -> list[str]:
    """Each tile's code read from a crop around it, as a pipeline reads one tile at a time."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = []
    for p in placements(scene, seed):
        if p.what.startswith("tile"):
            x, y = int(p.x), int(p.y)
            crop = gray[max(0, y - 110):y + 110, max(0, x - 90):x + 90]
            codes = pyzbar.decode(crop) or pyzbar.decode(
                cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC))
            found += [d.data.decode() for d in codes]
    return sorted(found)


@pytest.mark.parametrize("seed", range(4))
def test_tiles_in_an_undegraded_frame_decode(seed: int) -> None:
    scene = busy_scene()
    frame = render(scene, printing_a(), seed)
    # Flag 9's tile is missing in this scene; the two claimed tiles are read too.
    assert decode_tiles(frame, scene, seed) == [f"BL-FLAG-{n}" for n in range(1, 9)]


def test_placements_follow_the_scene() -> None:
    scene = busy_scene()
    placed = placements(scene, 2)
    assert [p.what for p in placed if p.what.startswith("tile")] == [
        f"tile {n}" for n in range(1, 9)]
    where = {p.what: p for p in placed}
    # South cards below the line and upright, north cards above and turned round.
    assert where["B3"].y > FRAME_H / 2 and abs(where["B3"].angle) <= 3
    assert where["R8"].y < FRAME_H / 2 and abs(where["R8"].angle - 180) <= 3
    # Placement order: each later card lies further from the line.
    assert where["R8"].y > where["R9"].y > where["ALEXANDER"].y
    assert where["G4"].y < where["G5"].y < where["G6"].y
    # Claimed tiles moved towards their winner, off-line columns beyond the line's ends.
    assert where["tile 3"].y < where["tile 1"].y - 400
    assert where["tile 6"].y > where["tile 1"].y + 400
    assert where["SCOUT"].x > where["tile 8"].x + 2 * 90 * 2.3 and where["SCOUT"].y < FRAME_H / 2
    assert where["REDEPLOY"].x < where["tile 1"].x - 90 * 2.3 and where["REDEPLOY"].y > FRAME_H / 2


@pytest.mark.parametrize("field, value", [
    ("tilt_deg", 10.0), ("rotate_deg", 3.0), ("scale", 0.95), ("shift_mm", (8.0, -6.0)),
    ("light", 0.5), ("vignette", 0.4), ("exposure", 0.7), ("cast", (1.2, 0.9, 0.8)),
    ("glare", 0.8), ("blur", 2.0), ("noise", 8.0), ("jpeg", 40),
    ("hand", Hand("south", 50.0, 40.0, 10.0)), ("barrel", 0.08), ("barrel", -0.05),
])
def test_every_degradation_runs_and_keeps_the_size(field: str, value: object) -> None:
    scene = busy_scene(table_seed=1)
    plain = render(scene, printing_b(), 3)
    frame = render(scene, printing_b(), 3, Degrade(**{field: value}))
    assert frame.shape == (FRAME_H, FRAME_W, 3) and frame.dtype == np.uint8
    assert not np.array_equal(frame, plain)
    small = render_lores(scene, printing_b(), 3, Degrade(**{field: value}))
    assert small.shape == (LORES_H, LORES_W, 3)


def test_example_frames(artifacts_dir: Path) -> None:
    rng = np.random.default_rng(2026)
    scene = busy_scene(hand=Hand("south", 180.0, 30.0, -12.0))
    for i, printing in enumerate((printing_a(), printing_b(), random_printing(3))):
        frame = render(scene, printing, i, Degrade.random(rng) if i else Degrade.none())
        assert cv2.imwrite(str(artifacts_dir / f"synth-frame-{printing.name}.png"), frame)
    lores = render_lores(scene, printing_a(), 0)
    assert cv2.imwrite(str(artifacts_dir / "synth-lores.png"), lores)


def test_top_band_shows_the_troop_colour() -> None:
    # Under an echelon only the top band shows: it must carry the card's own colour.
    for printing in (printing_a(), printing_b(), random_printing(4), random_printing(9)):
        for card in ("R3", "O10", "Y1", "G7", "B5", "P8"):
            face = card_face(printing, card, 4.0)
            band = face[: int(printing.band_mm * 4.0)].reshape(-1, 3).astype(int)
            target = np.array(printing.colour(card[0]))
            share = (np.abs(band - target).max(axis=1) < 12).mean()
            assert share > 0.15, (printing.name, card, share)


def test_random_printings_are_new_art() -> None:
    seen = {random_printing(seed) for seed in range(30)}
    assert len(seen) == 30
    assert {p.layout for p in seen} == {"corner", "band", "ribbon"}
    assert {p.body for p in seen} == {"emblem", "pips", "stripes"}
    assert len({p.font for p in seen}) >= 3


# -- random tables and labelled frames -----------------------------------------------------
def test_random_scenes_are_plausible() -> None:
    rng = np.random.default_rng(8)
    claimed = 0
    for _ in range(200):
        scene = random_scene(rng)
        for f in scene.flags:
            mud = any(c.code == "MUD" for c in f.north + f.south)
            for side in (f.north, f.south):
                assert sum(c.occupies_slot for c in side) <= (4 if mud else 3)
            claimed += f.tile in ("north", "south")
        for card in scene.offline_north + scene.offline_south:
            assert card.family in ("troop", "guile")
    assert claimed > 50


def test_write_dataset_labels_every_frame(tmp_path: Path) -> None:
    items = write_dataset(tmp_path, 3, seed=4, hands=1.0)
    assert [i.name for i in items] == ["frame-0000", "frame-0001", "frame-0002"]
    for item in items:
        frame = cv2.imread(str(tmp_path / f"{item.name}.png"))
        assert frame.shape == (FRAME_H, FRAME_W, 3)
        label = Observation.loads((tmp_path / f"{item.name}.json").read_text())
        assert label.obstructed                      # every frame has an arm over the table
    # The same seed writes the same set.
    again = write_dataset(tmp_path / "again", 3, seed=4, hands=1.0)
    assert again == items
    assert np.array_equal(cv2.imread(str(tmp_path / "again" / "frame-0001.png")),
                          cv2.imread(str(tmp_path / "frame-0001.png")))


def test_command_line_writes_frames_and_deck_images(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    assert main(["vision", "synth", str(tmp_path / "f"), "--count", "0",
                 "--deck-images", str(tmp_path / "deck"), "--printing", "random-5"]) == 0
    assert len(list((tmp_path / "deck").glob("*.png"))) == 70
    assert not (tmp_path / "f").exists()
    assert main(["vision", "synth", str(tmp_path / "x"), "--printing", "glossy"]) == 2
    assert "glossy" in capsys.readouterr().err


def test_render_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.bench.synth import main
    assert main(["--frames", "1"]) == 0
    assert "low-res stream" in capsys.readouterr().out


def test_random_scenes_never_show_a_finished_game() -> None:
    rng = np.random.default_rng(12)
    for _ in range(300):
        scene = random_scene(rng, fill=1.0)
        for side in ("north", "south"):
            held = [f.tile == side for f in scene.flags]
            assert sum(held) <= 4
            assert "TTT" not in "".join("T" if h else "F" for h in held)


def test_a_turned_camera_keeps_the_table_in_view() -> None:
    # Tilted and turned, the rig is re-aimed: every tile is still read.
    scene = busy_scene(table_seed=2)
    for tilt_dir in (0.0, 90.0, 200.0):
        deg = Degrade(tilt_deg=10.0, tilt_dir_deg=tilt_dir, rotate_deg=3.0)
        frame = render(scene, printing_a(), 1, deg)
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        # The frame's border rows and columns show only table, never a card or tile (white).
        edges = np.concatenate([gray[:2].ravel(), gray[-2:].ravel(), gray[:, :2].ravel(),
                                gray[:, -2:].ravel()])
        assert (edges < 235).all(), tilt_dir


def test_any_integer_seed_works_and_others_are_refused() -> None:
    scene = busy_scene()
    small = render_lores(scene, printing_a(), -5)
    assert np.array_equal(small, render_lores(scene, printing_a(), -5))
    assert random_printing(-3) == random_printing(-3)
    with pytest.raises(SynthError, match="1.5"):
        render(scene, printing_a(), 1.5)  # type: ignore[arg-type]
    with pytest.raises(SynthError, match="Degrade"):
        render(scene, printing_a(), 1, "blur")  # type: ignore[arg-type]


def test_a_held_card_is_drawn_but_not_on_the_table() -> None:
    held = Hand("south", 10.0, 60.0, 15.0, card=BY_CODE["G7"])
    empty = Hand("south", 10.0, 60.0, 15.0)
    scene = busy_scene(hand=held, table_seed=4)
    assert BY_CODE["G7"] not in scene.observation().cards()
    with_card = render(scene, printing_a(), 1)
    without = render(busy_scene(hand=empty, table_seed=4), printing_a(), 1)
    assert np.abs(with_card.astype(int) - without.astype(int)).max() > 100
    with pytest.raises(SynthError, match="R8"):
        busy_scene(hand=Hand("north", 0.0, -60.0, card=BY_CODE["R8"]))
    with pytest.raises(SynthError, match="R8"):
        render(busy_scene(), printing_a(), 1, Degrade(hand=Hand("north", 0.0, -60.0, card="R8")))


@pytest.mark.parametrize("cast", [(1.25, 1.0, 0.8), (0.8, 1.0, 1.25), (1.0, 1.2, 0.85)])
def test_colours_survive_a_cast_once_balanced_on_a_tile(cast: tuple[float, float, float]) -> None:
    # What a pipeline does: take the white of a tile's quiet zone as the white reference, then
    # every top band's colour is nearest to its own colour of the printing.
    codes = ["R5", "O5", "Y5", "G5", "B5", "P5"]
    flags = [("line", [], [code]) for code in codes] + [("line", [], [])] * 3
    scene = Scene.from_layout(flags, table_seed=6)
    for printing in (printing_a(), printing_b()):
        frame = render(scene, printing, 1, Degrade(cast=cast, exposure=0.78, noise=2.0))
        where = {p.what: p for p in placements(scene, 1)}
        s = 2.3

        def sample(p, dx_mm: float, dy_mm: float) -> np.ndarray:  # noqa: ANN001
            a = np.deg2rad(p.angle)
            x = p.x + (np.cos(a) * dx_mm + np.sin(a) * dy_mm) * s
            y = p.y + (-np.sin(a) * dx_mm + np.cos(a) * dy_mm) * s
            patch = frame[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3].reshape(-1, 3)
            return np.median(patch, axis=0)

        white = sample(where["tile 5"], -15.5, 0.0)        # the code's quiet zone
        gains = 250.0 / white
        palette = np.array(printing.colours, float)
        for k, code in enumerate(codes):
            seen = sample(where[code], 44.0 - 31.5, 4.0 - 44.0) * gains
            distance = np.abs(palette - seen).sum(axis=1)
            assert int(np.argmin(distance)) == k, (printing.name, code, seen.round(), cast)
            # Balanced, the band is close to the printed colour: the tile is a fair reference.
            assert distance[k] < 45, (printing.name, code, seen.round(), cast)
