"""The claim prover against the exhaustive oracle, hand-checked positions, and proof texts."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.bench.rules import random_position
from companion.rules.cards import TROOPS
from companion.rules.errors import PositionError
from companion.rules.position import SIDES, FlagPosition, Position, Side
from companion.rules.prover import REASONS, ClaimVerdict, claimable, prove

from . import oracle

DATA = Path(__file__).parent / "data" / "claims.jsonl"
MAX_WORK = 40_000  # formations the oracle may rate per check, to keep the run short


def check_against_oracle(p: Position, n: int, side: Side) -> ClaimVerdict:
    v = prove(p, n, side)
    valid, reason, mine, theirs = oracle.verdict(p, n, side)
    assert (v.valid, v.reason) == (valid, reason), (p.dumps(), n, side)
    assert (None if v.claimant is None else v.claimant.key) == mine
    assert (None if v.opponent is None else v.opponent.key) == theirs, (p.dumps(), n, side)
    f = p.flag(n)
    seen = p.face_up()
    pool = [c for c in p.edition.troops if c not in seen]
    for formation, owner in ((v.claimant, side), (v.opponent, "south" if side == "north" else "north")):
        if formation is None:
            continue
        assert formation.cards == f.side(owner)
        got = oracle.check_realisation(formation.cards, formation.troops(), formation.added,
                                       dict(formation.assignments), f.fog, pool, p.edition)
        assert got == formation.key
    return v


def _sweep(seed: int, count: int, **options: Any) -> dict[str, int]:
    """Check `count` generated claims at the focus flag; returns how often each reason came."""
    rng = random.Random(seed)
    seen: dict[str, int] = {}
    done = 0
    while done < count:
        n = rng.randint(1, 9)
        p = random_position(rng, focus=n, **options)
        side = rng.choice(SIDES)
        if oracle.work(p, n, side) > MAX_WORK:
            continue
        v = check_against_oracle(p, n, side)
        f = p.flag(n)
        tally = [v.reason] + [c.code for c in f.cards() if c.is_tactic]
        if f.fog and f.mud:
            tally.append("FOG+MUD")
        tally.extend(_copies(v, p))
        for key in tally:
            seen[key] = seen.get(key, 0) + 1
        done += 1
    return seen


def _copies(v: ClaimVerdict, p: Position) -> list[str]:
    """What the verdict's wildcards copy (D1): a card of their own formation, or one on the table."""
    out = []
    seen = p.face_up()
    for formation in (v.claimant, v.opponent):
        if formation is None:
            continue
        own = {c for c in formation.cards if c.is_troop} | set(formation.added)
        for copied in formation.assignments.values():
            if copied in own:
                out.append("copies-own")
            elif copied in seen:
                out.append("copies-table")
    return out


@pytest.mark.parametrize("name, seed, options", [
    ("plain", 1, {"p_env": 0.0, "p_morale": 0.0, "discards": (10, 30)}),
    ("wildcards", 2, {"p_env": 0.0, "p_morale": 0.6, "discards": (15, 32)}),
    ("fog and mud", 3, {"p_env": 0.6, "p_morale": 0.3, "discards": (18, 34)}),
    ("late game", 4, {"p_env": 0.3, "p_morale": 0.4, "discards": (28, 40), "p_claimed": 0.0}),
])
def test_prover_matches_oracle(name: str, seed: int, options: dict[str, Any]) -> None:
    seen = _sweep(seed, 700, **options)
    # The sweep must reach the interesting verdicts, or it proves little.
    for reason in ("can-beat", "cannot-beat", "stronger", "weaker", "incomplete"):
        assert seen.get(reason, 0) > 0, (name, seen)
    if options["p_morale"] > 0.5:
        for code in ("ALEXANDER", "DARIUS", "CAVALRY", "SHIELD"):
            assert seen.get(code, 0) >= 50, (name, seen)
        # D1: wildcards copying a card of their own formation and one seen elsewhere.
        for code in ("copies-own", "copies-table"):
            assert seen.get(code, 0) >= 20, (name, seen)
    if options["p_env"] > 0.5:
        for code in ("FOG", "MUD", "FOG+MUD"):
            assert seen.get(code, 0) >= 50, (name, seen)


def _full_flag_positions(rng: random.Random, fog: bool, mud: bool) -> Position:
    """Both sides complete at flag 1 from a narrow set of cards, so ties are frequent."""
    size = 4 if mud else 3
    colours = rng.sample("ROYGBP", 3)
    low = rng.randint(1, 10 - size)
    narrow = [c for c in TROOPS if c.colour in colours and low <= (c.value or 0) <= low + size]
    picked = rng.sample(narrow, 2 * size)
    env = tuple(c for c, on in ((oracle.BY_CODE["FOG"], fog), (oracle.BY_CODE["MUD"], mud)) if on)
    first: Side = rng.choice(SIDES)
    flag = FlagPosition(tuple(picked[:size]), tuple(picked[size:]), env, None, first)
    return Position((flag,) + tuple(FlagPosition() for _ in range(8)))


@pytest.mark.parametrize("fog, mud", [(False, False), (True, False), (False, True), (True, True)])
def test_complete_sides_and_ties(fog: bool, mud: bool) -> None:
    rng = random.Random(50 + 2 * fog + mud)
    seen: set[str] = set()
    for _ in range(400):
        p = _full_flag_positions(rng, fog, mud)
        for side in SIDES:
            seen.add(check_against_oracle(p, 1, side).reason)
    assert {"tie-first", "tie-later", "stronger", "weaker"} <= seen


def test_tie_without_completed_first_names_the_flag() -> None:
    flag = FlagPosition(north=tuple(oracle.BY_CODE[c] for c in ("R4", "G5", "B6")),
                        south=tuple(oracle.BY_CODE[c] for c in ("Y4", "P5", "O6")))
    p = Position((FlagPosition(),) * 6 + (flag,) + (FlagPosition(),) * 2)
    with pytest.raises(PositionError, match="flag 7.*completed_first"):
        prove(p, 7, "north")
    with pytest.raises(PositionError, match="flag 7"):
        claimable(p)


def test_claimable_agrees_with_prove() -> None:
    rng = random.Random(7)
    for _ in range(300):
        p = random_position(rng, discards=(0, 25))
        board = claimable(p)
        assert len(board) == 18
        for (n, side), v in board.items():
            assert v == prove(p, n, side)


@pytest.mark.parametrize("flag, player, message", [
    (0, "north", "no flag 0"), (10, "south", "no flag 10"), (3, "east", "'east' is not a player"),
])
def test_bad_arguments(flag: int, player: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        prove(Position(), flag, player)


# -- hand-checked positions ---------------------------------------------------------------
def _data() -> list[dict[str, Any]]:
    rows = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("//"):
            rows.append(json.loads(line))
    return rows


@pytest.mark.parametrize("case", _data(), ids=lambda c: str(c["name"]))
def test_hand_checked(case: dict[str, Any]) -> None:
    p = Position.from_json(case["position"], reachable="unreachable" not in case)
    v = prove(p, case["flag"], case["player"])
    expect = case["expect"]
    got = v.to_json()
    for key, value in expect.items():
        assert got[key] == value, (case["name"], key, got)
    assert (v.valid, v.reason) == oracle.verdict(p, case["flag"], case["player"])[:2]


def test_data_covers_every_reason() -> None:
    assert {c["expect"]["reason"] for c in _data()} == set(REASONS)


def test_data_has_the_rulebook_examples() -> None:
    names = {c["name"] for c in _data()}
    assert {"gmt-wedge-beats-phalanx", "gmt-phalanx-beats-incomplete",
            "gmt-wedge-holds-b7-b10-seen", "gmt-wedge-fails-b7-b10-unseen"} <= names


# -- proof texts --------------------------------------------------------------------------
@pytest.mark.parametrize("case", _data(), ids=lambda c: str(c["name"]))
def test_proof_texts(case: dict[str, Any]) -> None:
    p = Position.from_json(case["position"], reachable="unreachable" not in case)
    v = prove(p, case["flag"], case["player"])
    for lang, naming in (("en", "gmt-en"), ("fr", "gmt-fr"), ("fr", "medieval-fr")):
        text = v.proof(lang, naming)  # type: ignore[arg-type]
        assert text and len(text.splitlines()) <= 12
        for word in case.get("proof_has", {}).get(naming, []):
            assert word in text, (naming, text)
    assert v.to_json()["proof"] == v.proof()


def test_proof_options_are_checked() -> None:
    v = prove(Position(), 1, "north")
    with pytest.raises(PositionError, match="'de'"):
        v.proof("de")
    with pytest.raises(PositionError, match="'gmt-de'"):
        v.proof("en", "gmt-de")  # type: ignore[arg-type]


def test_every_stronger_category_is_ruled_out_in_the_proof() -> None:
    """A cannot-beat proof has a line for each category that would outrank the claimant."""
    from companion.rules.cards import CATEGORIES, CATEGORY_RANK, category_name

    rng = random.Random(11)
    checked = 0
    while checked < 300:
        p = random_position(rng, discards=(5, 40), p_morale=0.7)
        for v in claimable(p).values():
            if v.reason != "cannot-beat" or v.claimant is None or v.claimant.rank == 0:
                continue
            checked += 1
            empty = not p.flag(v.flag).side("south" if v.player == "north" else "north")
            for naming in ("gmt-en", "gmt-fr"):
                text = v.proof("en" if naming == "gmt-en" else "fr", naming)
                assert not (empty and ("not of one" in text or "ne sont pas" in text)), text
                if "Only " in text or "No Troop card is left" in text or \
                        text.split("\n")[-1].startswith("Il ne reste "):
                    continue  # late game: the list of unseen cards rules out everything at once
                for cat in CATEGORIES:
                    if CATEGORY_RANK[cat] > v.claimant.rank:
                        name = category_name(cat, naming)
                        assert f"No {name}" in text or f"Pas de {name}" in text \
                            or f"Pas d'{name}" in text, text


@pytest.mark.slow
def test_whole_board_matches_oracle() -> None:
    """Every one of the 18 pairs of late-game boards, against the oracle (a few seconds)."""
    rng = random.Random(99)
    pairs = 0
    reasons: set[str] = set()
    for _ in range(400):
        p = random_position(rng, discards=(22, 40), p_env=0.5, p_morale=0.5)
        board = claimable(p)
        for (n, side), v in board.items():
            if oracle.work(p, n, side) > MAX_WORK:
                continue
            valid, reason, mine, theirs = oracle.verdict(p, n, side)
            assert (v.valid, v.reason) == (valid, reason), (p.dumps(), n, side)
            assert (None if v.opponent is None else v.opponent.key) == theirs
            reasons.add(v.reason)
            pairs += 1
    assert pairs > 5000 and reasons == set(REASONS), reasons


def test_skirmish_is_ruled_out_by_values_not_colours() -> None:
    north = tuple(oracle.BY_CODE[c] for c in ("B10", "R7", "P9"))
    south = tuple(oracle.BY_CODE[c] for c in ("P8", "G3"))
    p = Position((FlagPosition(north, south),) + (FlagPosition(),) * 8)
    v = prove(p, 1, "north")
    assert v.reason == "cannot-beat" and v.claimant is not None and v.claimant.category == "host"
    text = v.proof()
    assert "No Skirmish: purple 8 and green 3 cannot fit in one run of values." in text
    assert "No Wedge: purple 8 and green 3 are not of one colour." in text
    assert "No Host above 26" in text
    assert "Pas de Horde au-dessus de 26" in v.proof("fr")  # h aspiré: no elision
    assert "Pas d'Ordre en Bataillons" in v.proof("fr")


def test_late_game_proof_lists_what_is_left() -> None:
    from companion.rules.cards import TROOPS as ALL

    north = tuple(oracle.BY_CODE[c] for c in ("R10", "G10", "B10"))
    south = (oracle.BY_CODE["Y1"],)
    left = {"P2", "O3", "Y4"}
    discards = tuple(c for c in ALL if c.code not in left and c not in north + south)
    p = Position((FlagPosition(north, south),) + (FlagPosition(),) * 8, discards)
    v = prove(p, 1, "north")
    assert v.reason == "cannot-beat"
    assert "Only 3 Troop cards are not on the table: purple 2, orange 3 and yellow 4" in v.proof()


def test_french_proofs_name_the_sides_with_their_article_and_count_in_words() -> None:
    """"Le Nord", "par le Sud", "au Nord" as French says them; one card, two cards, none."""
    from companion.rules.cards import TROOPS as ALL

    def late(left: set[str], south_codes: tuple[str, ...]) -> ClaimVerdict:
        """North's three 10s against South's cards, with only `left` off the table."""
        north = tuple(oracle.BY_CODE[c] for c in ("R10", "G10", "B10"))
        south = tuple(oracle.BY_CODE[c] for c in south_codes)
        discards = tuple(c for c in ALL if c.code not in left and c not in north + south)
        return prove(Position((FlagPosition(north, south),) + (FlagPosition(),) * 8,
                              discards), 1, "north")

    one = late({"P2"}, ("Y1", "O1"))      # South needs one card: the one left
    assert "Only 1 Troop card is not on the table: purple 2; South cannot do better with it." \
        in one.proof()
    assert "Il ne reste qu'une carte Troupe hors de la table : violet 2 ; le Sud ne peut pas " \
        "faire mieux avec elle." in one.proof("fr", "gmt-fr")
    three = late({"P2", "O3", "Y4"}, ("Y1",)).proof("fr", "gmt-fr")
    assert "Il ne reste que 3 cartes Troupes hors de la table" in three and "avec elles" in three
    assert "Au mieux, le Sud peut faire" in three and "qui ne bat pas le Nord" in three
    # A side that cannot complete: the cards it needs and the cards left, counted in words.
    north = tuple(oracle.BY_CODE[c] for c in ("R1", "R2", "R3"))
    south = (oracle.BY_CODE["Y9"],)
    keep = {"B5"}
    discards = tuple(c for c in ALL if c.code not in keep and c not in north + south)
    v = prove(Position((FlagPosition(north, south),) + (FlagPosition(),) * 8, discards), 1,
              "north")
    assert v.reason == "cannot-complete"
    assert "South still needs 2 cards but only 1 Troop card is not on the table: South can " \
        "never complete (D10)." in v.proof()
    assert "Le Sud doit encore poser 2 cartes mais il ne reste qu'une carte Troupe hors de la " \
        "table : le Sud ne peut plus compléter (D10)." in v.proof("fr", "gmt-fr")
    incomplete = prove(Position((FlagPosition((), south),) + (FlagPosition(),) * 8), 1, "north")
    assert incomplete.proof("fr", "gmt-fr").startswith("Le Nord n'a aucune carte au drapeau 1")
    for text in (one.proof("fr", "gmt-fr"), three, v.proof("fr", "gmt-fr"), v.proof()):
        assert "(s)" not in text


def test_every_verdict_has_a_proof_in_every_naming() -> None:
    """Proof texts never fail, whatever the board (all reasons, wildcards, Fog, Mud)."""
    rng = random.Random(21)
    for i in range(1200):
        p = random_position(rng, discards=(0, 40), p_morale=0.8, p_env=0.6,
                            focus=rng.randint(1, 9) if i % 2 else None)
        for v in claimable(p).values():
            for lang, naming in (("en", "gmt-en"), ("fr", "gmt-fr"), ("fr", "medieval-fr")):
                text = v.proof(lang, naming)  # type: ignore[arg-type]
                assert text and "{" not in text and len(text.splitlines()) <= 12


def test_a_wildcard_that_does_not_fit_the_run_is_named() -> None:
    B = oracle.BY_CODE
    north = (B["R10"], B["B10"], B["Y9"])
    south = (B["CAVALRY"], B["G1"])
    greens = tuple(B[f"G{v}"] for v in range(2, 11))
    p = Position((FlagPosition(north, south),) + (FlagPosition(),) * 8, greens)
    v = prove(p, 1, "north")
    assert v.reason == "cannot-beat"
    text = v.proof()
    assert "No Skirmish at all: 1-2-3: Companion Cavalry cannot stand in it." in text
    assert "green 1-2-3 needs green 2 (discards) and green 3 (discards)" in text
    assert "No Phalanx: Companion Cavalry and green 1 are not of one value." in text
    assert "ne peut pas y prendre place" in v.proof("fr")
