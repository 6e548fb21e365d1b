"""Formation strength: categories, sums, wildcards at best (D1), Fog and Mud (D3)."""

from __future__ import annotations

import random

import pytest

from companion.rules.cards import BY_CODE, TROOPS, Card
from companion.rules.errors import PositionError
from companion.rules.formation import Formation, Pool, best_completion, best_formation

from . import oracle

WILDS = [BY_CODE[c] for c in ("ALEXANDER", "DARIUS", "CAVALRY", "SHIELD")]


def cards(text: str) -> list[Card]:
    return [BY_CODE[c] for c in text.split()]


@pytest.mark.parametrize("text, category, total", [
    ("R8 R9 R10", "wedge", 27),
    ("B3 B1 B2", "wedge", 6),
    ("R8 G8 P8", "phalanx", 24),
    ("Y1 Y5 Y9", "battalion", 15),
    ("R4 G5 B6", "skirmish", 15),
    ("R1 G5 B9", "host", 15),
    ("R10 R1 R2", "battalion", 13),     # values never wrap
    ("G10 R1 B2", "host", 13),          # nor across colours
    ("B8 B9 ALEXANDER", "wedge", 27),   # the rulebook's Leader example: blue 10
    ("B8 B10 DARIUS", "wedge", 27),
    ("R8 G8 ALEXANDER", "phalanx", 24),
    ("R7 R9 CAVALRY", "wedge", 24),     # Cavalry as red 8
    ("R8 G8 CAVALRY", "phalanx", 24),
    ("R6 R7 CAVALRY", "wedge", 21),
    ("Y2 Y5 CAVALRY", "battalion", 15),
    ("R1 G2 SHIELD", "skirmish", 6),
    ("R1 R2 SHIELD", "wedge", 6),
    ("G4 G5 SHIELD", "wedge", 12),
    ("G5 G7 SHIELD", "battalion", 15),
    ("P2 B2 SHIELD", "phalanx", 6),
    ("R9 B9 SHIELD", "host", 21),
    ("ALEXANDER CAVALRY SHIELD", "battalion", 21),
    ("DARIUS CAVALRY Y9", "wedge", 27),
    # D1 (changed): a wildcard may copy a card of its own formation.  This used to be a Host 18
    # under the proposed D14 ("never a card of its own formation"), which RULES.md overrules.
    ("R8 R2 CAVALRY", "battalion", 18),
    ("G10 G8 CAVALRY", "battalion", 26),  # RULES.md D1's own example: Cavalry as a second G8
    ("G3 G7 SHIELD", "battalion", 13),    # Shield Bearers as a second green 3, not a 2
])
def test_known_formations(text: str, category: str, total: int) -> None:
    f = best_formation(cards(text))
    assert (f.category, f.sum) == (category, total)


@pytest.mark.parametrize("text, mud, category, total, copies", [
    # The Leader copies the red 10 of its own formation: 10+9+2+10, not 10+9+2+8.
    ("R10 R9 R2 ALEXANDER", True, "battalion", 31, {"ALEXANDER": "R10"}),
    # Two wildcards copy the same card (a hand-made side: D2 forbids both Leaders to one player).
    ("R3 R9 ALEXANDER DARIUS", True, "battalion", 32, {"ALEXANDER": "R10", "DARIUS": "R10"}),
    ("G10 G8 CAVALRY", False, "battalion", 26, {"CAVALRY": "G8"}),
])
def test_a_wildcard_may_copy_a_card_of_its_own_formation(
        text: str, mud: bool, category: str, total: int, copies: dict[str, str]) -> None:
    """D1: a wildcard stands for a colour and a value, not for a physical card."""
    side = cards(text)
    f = best_formation(side, mud=mud)
    assert (f.category, f.sum) == (category, total)
    assert {w.code: t.code for w, t in f.assignments.items()} == copies
    assert f.key == oracle.best(side, False)


def test_a_completion_may_use_a_wildcard_copying_an_added_card() -> None:
    """The opponent's Cavalry may copy the green 8 they would still add (D1, D8)."""
    pool = Pool.of(cards("G8 G2 R5"))
    f = best_completion(cards("G10 CAVALRY"), pool)
    assert f is not None and (f.category, f.sum) == ("battalion", 26)
    assert f.added == (BY_CODE["G8"],) and f.assignments[BY_CODE["CAVALRY"]] == BY_CODE["G8"]


def test_wildcard_assignment_is_reported() -> None:
    f = best_formation(cards("B8 B9 ALEXANDER"))
    assert f.assignments == {BY_CODE["ALEXANDER"]: BY_CODE["B10"]}
    assert f.codes() == ["B8", "B9", "ALEXANDER=B10"]
    assert f.to_json() == {"category": "wedge", "sum": 27, "cards": ["B8", "B9", "ALEXANDER=B10"]}


def test_fog_counts_only_the_sum() -> None:
    f = best_formation(cards("R8 R9 R10"), fog=True)
    assert (f.category, f.sum) == ("sum", 27)
    host = best_formation(cards("R10 G10 B9"), fog=True)
    assert host.beats(f)
    assert best_formation(cards("R1 SHIELD ALEXANDER"), fog=True).sum == 14


def test_mud_needs_four_cards() -> None:
    f = best_formation(cards("R1 R2 R3 R4"), mud=True)
    assert (f.category, f.sum) == ("wedge", 10)
    assert best_formation(cards("R7 G7 B7 CAVALRY"), mud=True).category == "host"
    assert best_formation(cards("R8 G8 B8 CAVALRY"), mud=True).key == (4, 32)
    both = best_formation(cards("R1 R2 R3 R4"), fog=True, mud=True)   # D3
    assert (both.category, both.sum) == ("sum", 10)
    with pytest.raises(PositionError, match="needs 4 under Mud"):
        best_formation(cards("R1 R2 R3"), mud=True)


@pytest.mark.parametrize("text, message", [
    ("R1 R2", "needs 3"),
    ("R1 R2 FOG", "FOG cannot be part of a formation"),
    ("R1 R1 R2", "a card appears twice"),
])
def test_bad_formations(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        best_formation(cards(text))


def test_two_leaders_on_one_side() -> None:
    # Impossible in play (D2), yet a hand-made position may show it: still rated exactly.
    for text in ("ALEXANDER DARIUS R5", "ALEXANDER DARIUS SHIELD", "ALEXANDER DARIUS G10"):
        side = cards(text)
        assert best_formation(side).key == oracle.best(side, False)


def test_strength_order() -> None:
    wedge = best_formation(cards("R1 R2 R3"))
    phalanx = best_formation(cards("R10 G10 B10"))
    assert wedge.beats(phalanx) and not phalanx.beats(wedge)
    assert best_formation(cards("R4 G5 B6")).ties(best_formation(cards("Y4 P5 O6")))
    assert isinstance(wedge, Formation) and str(wedge) == "wedge 6 [R1 R2 R3]"


def _random_side(rng: random.Random, size: int, wild_count: int) -> list[Card]:
    # D2: a side holds one Leader at most, so a sample never takes both.
    wilds = rng.sample([rng.choice(WILDS[:2])] + WILDS[2:], wild_count)
    # A narrow set of Troops makes the rare categories (Wedge, Phalanx) frequent.
    colours = rng.sample("ROYGBP", rng.randint(1, 3))
    low = rng.randint(1, 7)
    pool = [c for c in TROOPS if c.colour in colours and low <= (c.value or 0) <= low + 3]
    return rng.sample(pool, size - wild_count) + wilds


@pytest.mark.parametrize("mud", [False, True])
@pytest.mark.parametrize("fog", [False, True])
def test_best_formation_matches_the_oracle(fog: bool, mud: bool) -> None:
    rng = random.Random(1000 + 2 * fog + mud)
    size = 4 if mud else 3
    for _ in range(400 if not mud else 150):
        side = _random_side(rng, size, rng.choice((0, 0, 1, 1, 2, 3)))
        rng.shuffle(side)
        f = best_formation(side, fog=fog, mud=mud)
        assert f.key == oracle.best(side, fog), side
        assert oracle.check_realisation(side, f.troops(), f.added, dict(f.assignments), fog) == f.key


@pytest.mark.parametrize("mud", [False, True])
@pytest.mark.parametrize("fog", [False, True])
def test_best_completion_matches_the_oracle(fog: bool, mud: bool) -> None:
    rng = random.Random(2000 + 2 * fog + mud)
    size = 4 if mud else 3
    for _ in range(150):
        have = rng.randint(0, size - 1)
        side = _random_side(rng, size, rng.choice((0, 0, 1, 2)))[:have]
        rest = [c for c in TROOPS if c not in side]
        pool = rng.sample(rest, rng.randint(0, 10 if size - have >= 3 else 16))
        f = best_completion(side, pool, fog=fog, mud=mud)
        want = oracle.best_completion(side, pool, size, fog)
        assert (None if f is None else f.key) == want, (side, pool)
        if f is not None:
            assert len(f.added) == size - have
            got = oracle.check_realisation(side, f.troops(), f.added, dict(f.assignments), fog, pool)
            assert got == f.key


def test_completion_respects_the_pool() -> None:
    side = cards("B8 B9")
    pool = Pool.of(c for c in TROOPS if c.code not in ("B7", "B8", "B9", "B10"))
    f = best_completion(side, pool)
    assert f is not None and f.category == "battalion" and f.added == (BY_CODE["B6"],)
    assert best_completion(side, []) is None                    # D10: nothing left to add
    assert best_completion(cards("R1 R2 R3"), []) is not None   # already complete


def test_a_pool_holding_the_sides_own_cards_is_cleaned() -> None:
    side = cards("R8 G8")
    for pool in (Pool.of(TROOPS), TROOPS):
        f = best_completion(side, pool)
        assert f is not None and f.key == (4, 24) and len(set(f.troops())) == 3
    f = best_completion(cards("R8 G8"), Pool.of(cards("R8 G8 B8")))
    assert f is not None and f.troops() == tuple(cards("R8 G8 B8"))


def test_card_order_never_matters() -> None:
    """RULES.md "Formations": card order does not matter, wildcards included."""
    from itertools import permutations

    rng = random.Random(3)
    for _ in range(200):
        mud = rng.random() < 0.3
        side = _random_side(rng, 4 if mud else 3, rng.choice((0, 1, 2)))
        keys = {best_formation(list(order), mud=mud).key for order in permutations(side)}
        assert len(keys) == 1, side
