"""A writer killed mid-match (SIGKILL, as close to a power cut as a test gets) loses nothing
it had committed, and the database opens cleanly afterwards."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from companion.record.store import MatchStore

CHILD = r"""
import sys
from companion.record.store import MatchStore
from companion.record.model import MatchHeader
store = MatchStore(sys.argv[1])
match_id = store.new_match(MatchHeader(north="Ann", south="Bob"))
print("match", match_id, flush=True)
n = 0
while True:
    n += 1
    frame = b"\xff\xd8" + bytes([n % 256]) * 20000
    entry = store.append_note(match_id, f"note {n}", data={"n": n}, key=f"k{n}")
    store.add_frame(match_id, entry.seq, frame, {"n": n})
    print("committed", entry.seq, flush=True)
"""


def test_sigkill_loses_nothing_committed(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    env = dict(os.environ)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    committed: list[int] = []
    match_id = None
    try:
        assert child.stdout is not None
        for line in child.stdout:
            word, value = line.split()
            if word == "match":
                match_id = int(value)
            else:
                committed.append(int(value))
            if len(committed) >= 60:
                child.send_signal(signal.SIGKILL)  # mid-loop, likely inside a transaction
                break
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""
    assert match_id is not None and committed == list(range(1, len(committed) + 1))
    with MatchStore(path) as store:  # checked on open: quick_check, schema, tables
        entries = store.entries(match_id)
        seqs = [e.seq for e in entries]
        assert seqs[: len(committed)] == committed  # everything reported is there
        assert seqs == list(range(1, len(seqs) + 1))  # and nothing half-written
        assert all(e.data == {"n": e.seq} for e in entries)
        for seq in committed:
            frame = store.frame(match_id, seq)
            assert frame is not None and len(frame.jpeg) == 20002
        # The writer can resume: its next entry follows the last one committed.
        nxt = store.append_note(match_id, "resumed")
        assert nxt.seq == len(seqs) + 1
        # A resumed writer repeating an entry it had committed does not double it.
        again = store.append_note(match_id, f"note {committed[-1]}",
                                  data={"n": committed[-1]}, key=f"k{committed[-1]}")
        assert again.seq == committed[-1] and store.last_seq(match_id) == nxt.seq
