"""The demo's table in front of the appliance's own loop (the session, its eyes and the real
pipeline): it films each moment until the referee has seen it, which the frames `companion
demo` saves (about two calm frames a moment) could not do."""

from __future__ import annotations

from pathlib import Path

from companion.appliance.demotable import DemoTable, played_actions
from companion.appliance.eyes import load_reader
from companion.appliance.session import Session
from companion.record.recorder import open_match
from companion.record.store import MatchStore
from companion.referee.settings import RefereeSettings


def test_the_session_commits_the_first_moves_of_the_demo_as_played(tmp_path: Path) -> None:
    table = DemoTable(seed=1, actions=4)
    reader = load_reader(table.enrol(tmp_path / "deck.npz"))
    with MatchStore(tmp_path / "m.sqlite") as store:
        referee, recorder = open_match(store, RefereeSettings())
        # The appliance's own referee settings and motion test, paced as `companion run`.
        with Session(referee, source=table.source(), reader=reader, pace=False,
                     frame_interval=0.125) as session:
            table.join(session)
            session.start()
            assert session.wait_idle(timeout=240), "the demo table did not finish"
        assert table.finished
        assert tuple(store.effective_actions(recorder.match_id)) == played_actions(1, 4)
    # A still table was filmed until each move was seen: more than the motion test's three
    # settling frames and the referee's three equal reads per moment.
    assert table.frames >= 4 * (3 + 3)
    reader.close()
