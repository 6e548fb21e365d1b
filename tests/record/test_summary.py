"""The match list's summaries: winner, score, length, moves and event, computed from the
record; empty matches left out of the list but kept; the event read from old records too."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from companion.cli import main
from companion.record.model import MatchHeader
from companion.record.notation import read_match, write_json, write_text
from companion.record.store import MatchStore
from companion.record.summary import (EVENT_TAG, EventNameError, check_event, duration_text,
                                      event_of, summaries, summarise)

from .helpers import T0, random_game, record_game


def test_a_finished_match_says_who_won_by_how_much_and_how_long_it_took(tmp_path: Path) -> None:
    actions, final = random_game(5)
    assert final.winner is not None
    header = MatchHeader(north="Ann", south="Bob", extra={EVENT_TAG: "Club night"})
    with MatchStore(tmp_path / "m.sqlite") as store:
        m = record_game(store, actions, header, extras=False)
        last = store.entries(m)[-1].time
        store.append_round_end(m, final.winner, scores={"north": 2, "south": 5} if
                               final.winner == "south" else {"north": 5, "south": 2},
                               time=last + dt.timedelta(seconds=3))
        s = summarise(m, store.header(m), store.entries(m))
    assert (s.north, s.south, s.event, s.date) == ("Ann", "Bob", "Club night", header.date)
    assert s.winner == final.winner and s.winner_name() == ("Ann" if s.winner == "north"
                                                            else "Bob")
    assert sorted(s.scores or ()) == [2, 5] and s.rounds_played == 1
    assert s.moves == len(actions)
    assert s.started == T0 + dt.timedelta(seconds=7)
    assert s.seconds == pytest.approx((last - s.started).total_seconds() + 3)
    held = [f.claimed for f in final.position().flags]
    assert s.flags == (held.count("north"), held.count("south"))


def test_undone_moves_do_not_count_and_empty_matches_are_hidden_not_deleted(
        tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite") as store:
        empty = store.new_match(MatchHeader())
        played = store.new_match(MatchHeader(extra={"north_name": "Ada",
                                                    "south_name": "Brune"}))
        for a in ("S R8@3", "N B3@3", "S R9@3"):
            store.append_action(played, a)
        store.append_undo(played, 2)
        undone = store.new_match(MatchHeader())
        store.append_action(undone, "S R8@3")
        store.append_undo(undone, 0)
        listed = summaries(store, played_only=True)
        assert [s.id for s in listed] == [played]
        assert listed[0].moves == 2 and (listed[0].north, listed[0].south) == ("Ada", "Brune")
        assert listed[0].result == "*" and listed[0].scores is None
        assert [s.id for s in summaries(store)] == [empty, played, undone]
        assert store.match_ids() == [empty, played, undone]


def test_the_event_is_a_header_extension_that_old_records_read_without() -> None:
    old = write_text(read_match(write_json(_record(MatchHeader(north="A", south="B")))))
    assert "X-event" not in old and event_of(read_match(old).header) == ""
    header = MatchHeader(north="A", south="B", extra={EVENT_TAG: "Open de Lyon"})
    text = write_text(_record(header))
    assert '[X-event "Open de Lyon"]' in text
    assert event_of(read_match(text).header) == "Open de Lyon"
    assert event_of(read_match(write_json(_record(header))).header) == "Open de Lyon"


def _record(header: MatchHeader):  # type: ignore[no-untyped-def]
    from companion.record.notation import MatchRecord
    return MatchRecord(header, [])


@pytest.mark.parametrize("bad", ["x" * 41, "two\nlines"])
def test_a_bad_event_name_is_refused_with_the_name(bad: str) -> None:
    with pytest.raises(EventNameError, match="event name"):
        check_event(bad)
    assert check_event("  Club night ") == "Club night"


def test_durations_read_at_a_glance() -> None:
    assert [duration_text(s) for s in (45, 750, 3900)] == ["45 s", "12 min 30 s",
                                                           "1 h 05 min"]


def test_matches_list_shows_event_moves_length_and_score(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    db = tmp_path / "m.sqlite"
    actions, _ = random_game(3)
    with MatchStore(db) as store:
        record_game(store, actions, MatchHeader(north="Ann", south="Bob",
                                                extra={EVENT_TAG: "Club night"}), extras=False)
    assert main(["matches", "list", "--db", str(db)]) == 0
    line = capsys.readouterr().out.strip()
    assert "Ann (north) v Bob (south)" in line and "event 'Club night'" in line
    assert f"{len(actions)} moves in " in line and ("score" in line or "flags" in line)


def test_run_refuses_a_bad_event_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--event", "a\nb", "--size", "800x480"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "event name" in err
