"""The referee with a match record: what it writes, resuming from it, rounds of a match."""

from __future__ import annotations

from pathlib import Path

from companion.record.recorder import open_match
from companion.record.store import MatchStore
from companion.referee import GameOver, Referee, RefereeSettings, RoundStarted
from companion.rules.actions import Claim, Play

from tests.referee.tables import C, Camera, Table


def _store_actions(store: MatchStore, match_id: int, round: int = 1) -> list:
    return store.effective_actions(match_id, round=round)


def test_commits_are_recorded_and_corrections_rewrite_the_record(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        ref, rec = open_match(store, RefereeSettings())
        assert rec.match_id is not None
        cam = Camera(ref)
        t = Table()
        cam.settle(t.lay("south", "R7", 3), misread={"R7": "O7"})
        cam.settle(t.lay("north", "B1", 2), misread={"R7": "O7"})
        cam.settle(t.lay("south", "R1", 1), misread={"R7": "O7"})
        assert _store_actions(store, rec.match_id) == list(ref.state.actions)
        ref.correct(0, C("R7"))
        assert _store_actions(store, rec.match_id) == list(ref.state.actions) == [
            Play("south", C("R7"), 3), Play("north", C("B1"), 2), Play("south", C("R1"), 1)]
        ref.undo_to(2)
        assert _store_actions(store, rec.match_id) == list(ref.state.actions[:2])
        # Refused things are in the log too, but never in force.
        t.lift("R1").lay("north", "B2", 2)
        cam.settle(t)  # undo hold: the table differs from the state after the undo
        kinds = [e.kind for e in store.entries(rec.match_id)]
        assert "undo" in kinds and "correction" in kinds and "violation" in kinds


def test_resume_replays_the_record_and_checks_the_table(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    t = Table()
    with MatchStore(db) as store:
        ref, rec = open_match(store, RefereeSettings())
        cam = Camera(ref)
        for side, code, flag in (("south", "R8", 1), ("north", "B2", 2), ("south", "R9", 1)):
            cam.settle(t.lay(side, code, flag))  # type: ignore[arg-type]
        match_id, before = rec.match_id, ref.state
    with MatchStore(db) as store:
        again, _ = open_match(store, RefereeSettings(), match_id)
        assert again.state.actions == before.actions and again.state.game == before.game
        assert again.state.mode == "holding"
        cam = Camera(again)
        # A card laid while the referee was down is reported, not guessed.
        events = cam.settle(Table().lay("south", "R8", 1).lay("north", "B2", 2)
                            .lay("south", "R9", 1).lay("north", "B3", 2))
        assert again.state.violations[0].reason == "record-differs"
        assert "B3" in again.state.violations[0].message and events
        assert again.state.actions == before.actions
        # Once the table matches the record, play goes on.
        cam.settle(t)
        assert again.state.violations == () and again.state.mode == "playing"
        cam.settle(t.lay("north", "B3", 2))
        assert again.state.actions[-1] == Play("north", C("B3"), 2)
        assert store.effective_actions(match_id) == list(again.state.actions)


def test_a_match_of_two_rounds(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        ref, rec = open_match(store, RefereeSettings(rounds=2, first="north"))
        cam = Camera(ref)
        # Round 1, north first: north's first card, then the breakthrough script from south.
        t2 = Table()
        cam.settle(t2.lay("north", "G10", 9))
        assert ref.state.actions == (Play("north", C("G10"), 9),)
        plays = [("south", "R8", 1), ("north", "B1", 4), ("south", "R9", 1), ("north", "B2", 5),
                 ("south", "R10", 1), ("north", "G1", 6), ("south", "O8", 2),
                 ("north", "G2", 7), ("south", "O9", 2), ("north", "P1", 8),
                 ("south", "O10", 2), ("north", "P2", 9), ("south", "Y8", 3),
                 ("north", "B4", 4), ("south", "Y9", 3), ("north", "B5", 5),
                 ("south", "Y10", 3)]
        for side, code, flag in plays:
            cam.settle(t2.lay(side, code, flag))  # type: ignore[arg-type]
        events = cam.settle(t2.tile(1, "south").tile(2, "south").tile(3, "south"))
        assert [a for a in ref.state.actions if isinstance(a, Claim)] == [
            Claim("south", 1), Claim("south", 2), Claim("south", 3)]
        over = [e for e in events if isinstance(e, GameOver)]
        assert over and over[0].winner == "south" and over[0].termination == "breakthrough"
        assert ref.state.mode == "round-over" and dict(ref.state.scores) == \
            {"south": 5, "north": 0}
        # Cards cleared away: round 2 starts, its winner of round 1 (south) plays first.
        events = cam.settle(Table())
        assert any(isinstance(e, RoundStarted) for e in events)
        assert ref.state.round == 2 and ref.state.to_move == "south"
        cam.settle(Table().lay("south", "P5", 5))
        assert store.effective_actions(rec.match_id, round=2) == [Play("south", C("P5"), 5)]
        # Resuming in round 2 replays round 2 only, with the scores so far.
        again, _ = open_match(store, RefereeSettings(), rec.match_id)
        assert again.state.round == 2 and again.state.actions == (Play("south", C("P5"), 5),)
        assert dict(again.state.scores) == {"south": 5, "north": 0}


def test_a_failing_record_keeps_the_last_legal_state(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "m.sqlite")
    ref, rec = open_match(store, RefereeSettings())
    cam = Camera(ref)
    t = Table()
    cam.settle(t.lay("south", "R8", 1))
    store.close()  # the disk went away: the next commit cannot be recorded
    cam.settle(t.lay("north", "B2", 2))
    assert ref.state.actions == (Play("south", C("R8"), 1),)
    assert ref.state.violations[0].reason == "record-error"
