"""Effective actions from the append-only log (undo, corrections, rounds) and replay."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record.model import Entry, EntryError, MatchHeader
from companion.record.replay import effective_entries, result, split_rounds
from companion.record.store import MatchStore
from companion.rules.state import GameState

from .helpers import random_game, record_game


def _texts(store: MatchStore, m: int) -> list[str]:
    return [str(a) for a in store.effective_actions(m)]


def test_undo_and_corrections_supersede_without_branching(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        for text in ["S R8@3", "N B3@3", "S R9@3", "N B4@3"]:
            store.append_action(m, text)
        store.append_undo(m, 2)  # back to before action 2: keeps 0 and 1
        assert _texts(store, m) == ["S R8@3", "N B3@3"]
        store.append_action(m, "S R10@3")
        store.append_correction(m, 1, "N B5@3", message="B3 was B5")
        assert _texts(store, m) == ["S R8@3", "N B5@3"]  # action 2 (S R10@3) superseded
        store.append_action(m, "S R10@3")
        assert _texts(store, m) == ["S R8@3", "N B5@3", "S R10@3"]
        store.append_undo(m, 0)
        assert _texts(store, m) == []
        store.append_action(m, "S Y1@1")
        assert _texts(store, m) == ["S Y1@1"]
        # Nothing is lost: the log keeps every entry.
        assert [e.kind for e in store.entries(m)] == [
            "action"] * 4 + ["undo", "action", "correction", "action", "undo", "action"]


def test_rewinds_beyond_the_actions_in_force_are_refused(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        store.append_action(m, "S R8@3")
        with pytest.raises(EntryError, match="not in force"):
            store.append_undo(m, 2)
        with pytest.raises(EntryError, match="not in force"):
            store.append_correction(m, 1, "N B3@3")
        store.append_undo(m, 1)  # undoing nothing is allowed (index == count)
        assert store.last_seq(m) == 2


def test_refused_claims_do_not_take_effect(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match()
        store.append_action(m, "S R8@3")
        verdict = {"flag": 3, "player": "south", "valid": False, "reason": "incomplete",
                   "claimant": None, "opponent": None, "proof": "South has one card."}
        e = store.append_claim(m, "S CLAIM 3", verdict)
        assert e.kind == "claim" and not e.accepted and e.message == "South has one card."
        assert _texts(store, m) == ["S R8@3"]


@pytest.mark.parametrize("seed", range(6))
def test_replay_rebuilds_the_final_position(tmp_path: Path, seed: int) -> None:
    first = "south" if seed % 2 == 0 else "north"
    timing = "advanced" if seed % 3 == 2 else "standard"
    actions, final = random_game(seed, first=first, timing=timing)
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = record_game(store, actions, MatchHeader(first=first, timing=timing))  # type: ignore[arg-type]
        states = store.replay(m)
    assert states[0] == GameState.new_table(first=first,  # type: ignore[arg-type]
                                            settings=states[0].settings)
    assert states[-1].position() == final.position()
    assert states[-1].winner == final.winner
    assert len(states) == len(actions) + 1


def test_rounds_first_player_and_result(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = store.new_match(MatchHeader(rounds=2, first="south"))
        store.append_action(m, "S R8@3")
        store.append_round_end(m, "north", scores={"north": 5, "south": 1})
        header = store.header(m)
        entries = store.entries(m)
        assert len(split_rounds(entries, header.rounds)) == 2  # round 2 is open, empty
        assert store.replay(m)[0].to_move == "north"  # the winner plays first next round
        assert store.effective_actions(m) == []  # the open round is round 2
        assert result(header, entries) == "*"
        store.append_action(m, "N B1@1")
        assert _texts(store, m) == ["N B1@1"]
        assert [str(a) for a in store.effective_actions(m, round=1)] == ["S R8@3"]
        store.append_round_end(m, "south", scores={"north": 2, "south": 5})
        entries = store.entries(m)
        assert len(split_rounds(entries, header.rounds)) == 2  # match over: no third round
        assert result(header, entries) == "north"  # 7 against 6


# -- the effective list against a plain list model --------------------------------------------
_T = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["act", "undo", "correct", "note", "refused"]),
                          st.integers(0, 12)), max_size=40))
def test_effective_list_matches_a_list_model(ops: list[tuple[str, int]]) -> None:
    model: list[str] = []
    entries: list[Entry] = []
    for n, (op, k) in enumerate(ops):
        seq = len(entries) + 1
        if op == "act":
            action = f"S R{k % 10 + 1}@{k % 9 + 1}"
            entries.append(Entry(seq, _T, "action", player="south", action=action))
            model.append(action)
        elif op == "undo" and k <= len(model):
            entries.append(Entry(seq, _T, "undo", index=k))
            del model[k:]
        elif op == "correct" and k < len(model):
            action = f"N B{n % 10 + 1}@{k % 9 + 1}"
            entries.append(Entry(seq, _T, "correction", player="north", index=k,
                                 action=action))
            model[k:] = [action]
        elif op == "note":
            entries.append(Entry(seq, _T, "note", message=str(k)))
        elif op == "refused":
            entries.append(Entry(seq, _T, "claim", player="south", action=f"S CLAIM {k % 9 + 1}",
                                 data={"accepted": False, "verdict": {}}))
        assert [e.action for e in effective_entries(entries)] == model
