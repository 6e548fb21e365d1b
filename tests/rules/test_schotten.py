"""Schotten Totten: the prover against the exhaustive oracle, hand-checked stones, proof words,
and whole games by the bots with the edition's deck, hand and Recruiter (docs/editions.md).

The oracle sweep checks a few thousand generated positions in the suite;
`COMPANION_SCHOTTEN_CHECKS=20000 pytest -s tests/rules/test_schotten.py -k oracle` checks
more and prints how many.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.bench.rules import random_position
from companion.rules.bots import HeuristicBot, RandomBot, simulate
from companion.rules.cards import BY_CODE
from companion.rules.edition import BATTLE_LINE, SCHOTTEN_TOTTEN, edition, of_naming
from companion.rules.position import SIDES, Position
from companion.rules.prover import REASONS, claimable, prove
from companion.rules.state import GameState, Settings

from . import oracle
from .helpers import cards, run
from .test_prover import MAX_WORK, check_against_oracle

DATA = Path(__file__).parent / "data" / "schotten_claims.jsonl"
CHECKS = int(os.environ.get("COMPANION_SCHOTTEN_CHECKS", "800"))


def _data() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("//")]


# -- the edition value ------------------------------------------------------------------------
def test_the_edition_value() -> None:
    st = edition("schotten-totten")
    assert st is SCHOTTEN_TOTTEN and st.rules == "schotten-totten"
    assert len(st.troops) == 54 and len(st.tactics) == 10 and len(st.cards) == 64
    assert {c.value for c in st.troops} == set(range(1, 10))
    assert BY_CODE["SPY"] in st.tactics and BY_CODE["CAVALRY"] not in st.tactics
    assert st.hand_size == 6 and BATTLE_LINE.hand_size == 7
    assert st.word("flag", "fr") == "borne" and st.word("troop") == "Clan"
    assert of_naming("medieval-fr").key == "battle-line-medieval"
    assert of_naming("schotten-fr") is st
    assert BY_CODE["SCOUT"].name("schotten-en") == "Recruiter"
    assert BY_CODE["SCOUT"].name("schotten-fr") == "Chasseur de Tête"
    assert BY_CODE["O5"].name("schotten-fr") == "marron 5"
    with pytest.raises(Exception, match="unknown edition"):
        edition("schotten")


# -- the prover against the oracle --------------------------------------------------------------
def _sweep(seed: int, count: int, **options: Any) -> dict[str, int]:
    rng = random.Random(seed)
    seen: dict[str, int] = {}
    done = 0
    while done < count:
        n = rng.randint(1, 9)
        p = random_position(rng, focus=n, edition=SCHOTTEN_TOTTEN, **options)
        side = rng.choice(SIDES)
        if oracle.work(p, n, side) > MAX_WORK:
            continue
        v = check_against_oracle(p, n, side)
        f = p.flag(n)
        for key in [v.reason] + [c.code for c in f.cards() if c.is_tactic]:
            seen[key] = seen.get(key, 0) + 1
        for formation in (v.claimant, v.opponent):
            if formation is not None:
                assert all((c.value or 0) <= 9 for c in formation.troops())
                if BY_CODE["SPY"] in formation.assignments:
                    assert formation.assignments[BY_CODE["SPY"]].value == 7
        done += 1
    return seen


@pytest.mark.parametrize("name, seed, options", [
    ("plain", 11, {"p_env": 0.0, "p_morale": 0.0, "discards": (8, 26)}),
    ("wildcards", 12, {"p_env": 0.0, "p_morale": 0.6, "discards": (12, 28)}),
    ("fog and mud", 13, {"p_env": 0.6, "p_morale": 0.3, "discards": (14, 30)}),
    ("late game", 14, {"p_env": 0.3, "p_morale": 0.4, "discards": (24, 36), "p_claimed": 0.0}),
])
def test_prover_matches_oracle_in_schotten_totten(name: str, seed: int,
                                                   options: dict[str, Any]) -> None:
    seen = _sweep(seed, CHECKS, **options)
    print(f"\nSchotten Totten, {name}: {CHECKS} positions checked against the oracle: {seen}")
    for reason in ("can-beat", "cannot-beat", "stronger", "weaker", "incomplete"):
        assert seen.get(reason, 0) > 0, (name, seen)
    if options["p_morale"] > 0.5:
        for code in ("ALEXANDER", "DARIUS", "SPY", "SHIELD"):
            assert seen.get(code, 0) >= 50, (name, seen)
    if options["p_env"] > 0.5:
        for code in ("FOG", "MUD"):
            assert seen.get(code, 0) >= 50, (name, seen)


def test_whole_board_matches_oracle_in_schotten_totten() -> None:
    rng = random.Random(15)
    checked = 0
    for _ in range(6):
        p = random_position(rng, discards=(20, 34), p_env=0.5, p_morale=0.5,
                            edition=SCHOTTEN_TOTTEN)
        for (n, side), v in claimable(p).items():
            if oracle.work(p, n, side) > MAX_WORK:
                continue
            assert (v.valid, v.reason) == oracle.verdict(p, n, side)[:2], (p.dumps(), n, side)
            checked += 1
    assert checked > 50


# -- hand-checked stones -------------------------------------------------------------------------
@pytest.mark.parametrize("case", _data(), ids=lambda c: str(c["name"]))
def test_hand_checked_stones(case: dict[str, Any]) -> None:
    p = Position.from_json(case["position"])
    assert p.edition is SCHOTTEN_TOTTEN
    v = prove(p, case["flag"], case["player"])
    got = v.to_json()
    assert got["edition"] == "schotten-totten"
    for key, value in case["expect"].items():
        assert got[key] == value, (case["name"], key, got)
    assert (v.valid, v.reason) == oracle.verdict(p, case["flag"], case["player"])[:2]
    if "bl_reason" in case:  # the same table read as Battle Line, with its 10s
        assert prove(replace(p, edition=BATTLE_LINE), case["flag"], case["player"]).reason \
            == case["bl_reason"]
    for lang, naming in (("en", "schotten-en"), ("fr", "schotten-fr")):
        text = v.proof(lang)
        assert text == v.proof(lang, naming)  # type: ignore[arg-type]
        for word in case["proof_has"][naming]:
            assert word in text, (naming, text)
        for battle_line_word in ("flag", "Troop", "drapeau", "Troupe", "Wedge", "Pointe"):
            assert battle_line_word not in text, (naming, text)


def test_hand_checked_cover_the_reasons_a_game_reaches() -> None:
    assert {c["expect"]["reason"] for c in _data()} == set(REASONS) - {"tie-first",
                                                                       "cannot-complete"}


def test_a_battle_line_naming_is_refused_for_a_schotten_totten_proof() -> None:
    v = prove(Position.from_json(_data()[0]["position"]), 1, "south")
    with pytest.raises(Exception, match="not one of Schotten Totten"):
        v.proof("en", "gmt-en")


def test_position_round_trip_keeps_the_edition() -> None:
    p = Position.from_json(_data()[1]["position"])
    assert Position.loads(p.dumps()) == p
    assert "edition" not in Position().to_json()  # Battle Line files read as before


# -- whole games -------------------------------------------------------------------------------
def test_games_use_the_editions_deck_and_hand() -> None:
    settings = Settings(edition="schotten-totten")
    assert settings.naming == "schotten-en"
    state = GameState.new_full(7, settings=settings)
    assert len(state.hand("north")) == len(state.hand("south")) == 6
    assert len(state.troop_deck) == 54 - 12 and len(state.tactics_deck) == 10
    every = state.hand("north") + state.hand("south") + state.troop_deck + state.tactics_deck
    assert set(every) == set(SCHOTTEN_TOTTEN.cards)
    for seed in range(6):
        bots = (HeuristicBot(seed), RandomBot(seed + 100))
        game = simulate(seed, settings=settings, north=bots[seed % 2], south=bots[1 - seed % 2])
        assert game.final.over
        for f in game.final.flags:
            for side in SIDES:
                assert all(SCHOTTEN_TOTTEN.has(c) for c in f.layout(side))


def test_recruiter_puts_cards_back_under_the_decks() -> None:
    settings = Settings(edition="schotten-totten")
    state = replace(GameState.new_full(1, settings=settings),
                    hand_south=cards("SCOUT", "R1", "FOG"),
                    troop_deck=cards("G1", "G2", "G3", "G4"),
                    tactics_deck=cards("MUD", "SHIELD"))
    after = run(state, "S SCOUT troop,tactics,troop>R1,MUD")
    assert after.hand("south") == cards("FOG", "G1", "G2")
    assert after.troop_deck == cards("G3", "G4", "R1")  # under, not on top (D22)
    assert after.tactics_deck == cards("SHIELD", "MUD")


def test_six_cards_make_a_full_hand() -> None:
    settings = Settings(edition="schotten-totten")
    six = cards("R1", "R2", "R3", "R4", "R5", "R6")
    state = replace(GameState.new_full(1, settings=settings), hand_south=six + cards("R7"),
                    troop_deck=cards("G1"))
    state = run(state, "S R7@1")
    assert len(state.hand("south")) == 6
    assert run(state, "S DRAW").to_move == "north"  # a full hand of 6 draws nothing (D15)
    with pytest.raises(Exception, match="already holds 6 cards"):
        run(state, "S DRAW troop")


def test_refusals_speak_of_stones_and_clan_cards() -> None:
    from companion.rules.errors import IllegalActionError
    from companion.rules.messages import message
    from companion.rules.state import GameState

    state = run(GameState.new_table(settings=Settings(edition="schotten-totten")),
                "S R1@3", "N B1@4", "S R2@3", "N B2@4", "S R3@3", "N B3@4")
    with pytest.raises(IllegalActionError) as info:
        run(state, "S R4@3")
    err = info.value
    en = message(err.reason, err.params, "en", "schotten-en")
    fr = message(err.reason, err.params, "fr", "schotten-fr")
    assert "stone 3" in en and "flag" not in en, en
    assert "borne 3" in fr and "drapeau" not in fr, fr
    assert "flag 3" in message(err.reason, err.params, "en", "gmt-en")
