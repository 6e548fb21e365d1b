"""Hands over the table at both rigs, for several printings: every flag a hand clearly covers
is reported obstructed, and no flag it does not touch — nor any flag of a frame without a
hand, glare at the frame's edge and all."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.rules.position import FLAG_COUNT
from companion.vision.geometry import CARD_W, FLAG_PITCH, ZONE_DEPTH
from companion.vision.layout import LayoutTracker, hand_flags
from companion.synth import RIGS, Degrade, Hand, Scene, Setup, render, rendition
from companion.synth.zoo import FAMILIES

from .vision_helpers import sample_scene

CLEAR_MM2 = 1500.0
"""A flag's zone a hand covers this much of (a fifth of the zone's width along 75 mm) must be
reported; one it covers less of may be (the reader cannot see a fingertip's few mm)."""

# Tables and camera faults as the bench draws them (wood, felt and laminate tables, skins
# pale to dark from the frame's seed, glare spots where an arm would enter), each read at
# (family, rig): (family, rig, table and frame seed, hand or None, faults).
CASES = [
    # Glare spots at the frame's top edge over wood: no hand.
    ("random", "reference", 49740800, None, Degrade(
        scale=0.97, light=0.097, light_dir_deg=306.0, cast=(1.04, 0.9, 0.91), glare=0.66,
        glare_at=(0.234, 0.159), glare_radius=0.078, barrel=0.023)),
    ("classic", "webcam", 487432464, None, Degrade(
        rotate_deg=-0.28, scale=0.987, light=0.15, light_dir_deg=212.0, vignette=0.23,
        exposure=0.9, glare=0.54, glare_at=(0.426, 0.151), glare_radius=0.054, noise=3.0,
        jpeg=85)),
    ("dark-stock", "reference", 11025264, None, Degrade(
        tilt_deg=1.15, tilt_dir_deg=10.0, scale=0.952, light=0.16, light_dir_deg=25.0,
        vignette=0.3, cast=(0.9, 1.03, 1.07), glare=0.64, glare_at=(0.356, 0.85),
        glare_radius=0.043, noise=3.66, jpeg=94, barrel=0.033)),
    # A pale arm holding a card over a red felt, which it looks like under white light,
    # pixel by pixel, and the felt has no grain to be hidden: its pixels are glare-like and
    # solid finely mixed, a glare spot beside it glare-like throughout (before, the spot
    # merged with the cards around it into one).
    ("dark-stock", "reference", 184980559, Hand("south", -282.7, 155.9, -4.2, 82.7, "R10"),
     Degrade(tilt_deg=3.9, tilt_dir_deg=44.6, scale=0.965, light=0.36, light_dir_deg=85.3,
             vignette=0.24, cast=(0.89, 1.07, 1.0), glare=0.36, glare_at=(0.415, 0.837),
             glare_radius=0.059, blur=1.07, jpeg=67)),
    # An arm of skin over a plain red-brown cloth at the webcam, no glare anywhere: half its
    # pixels glare-like, in neither kind a region reaching the edge.
    ("picture-tactics", "webcam", 1066176406, Hand("south", -80.3, 132.7, -17.2, 76.4, "O10"),
     Degrade(rotate_deg=-0.51, exposure=0.906, noise=2.07, jpeg=79)),
    # An arm holding a card, a glare spot beside it.
    ("banner", "webcam", 211057387, Hand("north", 290.7, -82.1, -1.3, 80.8, "P8"), Degrade(
        rotate_deg=1.32, light=0.079, light_dir_deg=127.3, exposure=0.92,
        cast=(1.0, 1.1, 0.83), glare=0.49, glare_at=(0.53, 0.2), glare_radius=0.071,
        blur=0.91, noise=3.3, jpeg=67, barrel=0.044)),
    # An arm of the wood's own hue, darker than the wood.
    ("classic", "webcam", 487056507, Hand("north", -76.2, -89.3, 8.6, 78.6), Degrade(
        tilt_deg=9.8, tilt_dir_deg=202.6, rotate_deg=2.18, vignette=0.28, exposure=1.07,
        blur=0.52)),
    # Plain frames with an arm from either side, with and without glare elsewhere.
    ("classic", "reference", 0, Hand("south", -80.0, 60.0, 15.0, 90.0), Degrade(noise=3.0)),
    ("banner", "webcam", 1, Hand("north", 175.0, -90.0, -10.0, 80.0), Degrade(noise=3.0)),
    ("dark-stock", "webcam", 5, Hand("north", -260.0, -40.0, 20.0, 95.0),
     Degrade(noise=3.0, glare=0.75, glare_at=(0.75, 0.1), glare_radius=0.07)),
    ("random", "reference", 3, None, Degrade(noise=3.0, glare=0.75, glare_at=(0.7, 0.9),
                                             glare_radius=0.07)),
]


def _clearly_covered(scene: Scene) -> set[int]:
    if scene.hand is None:
        return set()
    hull = scene.hand.outline_mm()
    out = set()
    for n in range(1, FLAG_COUNT + 1):
        cx = (n - 5) * FLAG_PITCH
        half = CARD_W / 2 + 5
        zone = np.array([[cx - half, -ZONE_DEPTH], [cx + half, -ZONE_DEPTH],
                         [cx + half, ZONE_DEPTH], [cx - half, ZONE_DEPTH]], np.float32)
        area, _ = cv2.intersectConvexConvex(hull, zone)
        if area >= CLEAR_MM2:
            out.add(n)
    return out


@pytest.mark.parametrize(("family", "rig", "seed", "hand", "deg"), CASES)
def test_hands_are_found_and_nothing_else(family: str, rig: str, seed: int, hand: Hand | None,
                                          deg: Degrade) -> None:
    scene = replace(sample_scene(table_seed=seed), hand=hand)
    printing = rendition(FAMILIES[family](0), 2)
    img = render(scene, printing, seed=seed, degrade=deg, rig=RIGS[rig], setup=Setup.varied())
    tracker = LayoutTracker(allow_missing=True)
    tracker.update(img)
    found = set(hand_flags(img, tracker.update(img)))
    touched = set(scene.observation().obstructed)
    assert found <= touched, f"false alarm at flags {sorted(found - touched)}"
    missed = _clearly_covered(scene) - found
    assert not missed, f"the hand over flags {sorted(missed)} was missed"
    if hand is not None:
        assert found, "the hand was missed"


def test_the_hands_bench_counts_arms_flags_and_false_alarms() -> None:
    from companion.bench.hands import Tally

    t = Tally()
    t.add({4, 5}, {4, 5, 6}, "a")        # found, one flag beside it reported too
    t.add({2}, set(), "b")               # missed
    t.add(set(), {8}, "c")               # a flag reported with no arm over the table
    t.add(set(), set(), "d")
    assert (t.frames, t.arms, t.arms_found, t.flags, t.flags_found) == (4, 2, 1, 3, 2)
    assert (t.false_flags, t.false_frames) == (2, 1)
    assert [m.split(":")[0] for m in t.misses] == ["a", "b", "c"]


def test_the_hands_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.bench.hands import main, tally

    t = tally(["classic"], [0], "reference", 2)
    assert t.frames + t.refused == 2 and t.arms + t.refused >= 1
    assert main(["--frames", "1", "--seeds", "0", "--rig", "webcam"]) == 0
    out = capsys.readouterr().out
    assert "webcam    held-out" in out and "webcam    tuning" in out and "arms found" in out
    with pytest.raises(SystemExit):             # a malformed range: argparse's message
        main(["--seeds", "4-x"])
    assert "is not a seed range" in capsys.readouterr().err
