"""Hands over the table: an arm from the frame's edge obstructs the flags it covers; a glare
spot, a wood grain or a felt is no hand; a claimed tile half under a hand or a card stays claimed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.vision.layout import acquire, hand_flags
from companion.synth import Degrade, Hand, render

from .vision_helpers import printing, sample_scene

# Table seeds drawing a wood, a felt and a laminate table (see synth.render._table).
TABLES = (0, 1, 2, 3, 5, 8)


@pytest.mark.parametrize("table_seed", TABLES)
@pytest.mark.parametrize("glare_at", [(0.5, 0.5), (0.3, 0.2), (0.8, 0.82)])
def test_a_glare_spot_is_not_a_hand(table_seed: int, glare_at: tuple[float, float]) -> None:
    deg = Degrade(glare=0.8, glare_at=glare_at, glare_radius=0.08)
    img = render(sample_scene(table_seed=table_seed), printing("classic"), seed=4, degrade=deg)
    assert hand_flags(img, acquire(img)) == ()


@pytest.mark.parametrize("table_seed", TABLES)
@pytest.mark.parametrize("hand", [Hand("south", -70.0, 40.0, 30.0, 90.0),   # slanting over 6, 5
                                  Hand("south", 0.0, 60.0, 0.0, 130.0)])    # a wide one over 5
def test_an_arm_from_the_edge_over_flags_4_to_6_obstructs_them(table_seed: int,
                                                               hand: Hand) -> None:
    scene = replace(sample_scene(table_seed=table_seed), hand=hand)
    assert scene.observation().obstructed == (4, 5, 6)
    img = render(scene, printing("bold"), seed=2)
    lay = acquire(img, allow_missing=True)
    assert hand_flags(img, lay) == (4, 5, 6)


@pytest.mark.parametrize("hand", [Hand("north", -135.0, -240.0, 0.0, 70.0, "G7"),   # a card
                                  Hand("north", -125.0, -250.0, 0.0, 70.0),         # fingers
                                  Hand("north", -240.0, -240.0, 0.0, 70.0)])
def test_a_claimed_tile_partly_covered_is_still_claimed(hand: Hand) -> None:
    # Flag 3's tile lies claimed on the north side, at the frame's edge; a card held over it
    # or the fingers of an arm from the north edge cover part of it.
    scene = replace(sample_scene(table_seed=2), hand=hand)
    img = render(scene, printing("classic"), seed=6)
    lay = acquire(img, allow_missing=True)
    assert lay.tile(3).state == "north"
    assert [t.state for t in lay.tiles] == [f.tile for f in scene.observation().flags]
