"""One writer at a time: a second process writing to the same match database is refused in
one line, nothing it would write lands between the first one's entries, and readers read on."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.record.model import MatchHeader, StoreBusyError
from companion.record.notation import write_text
from companion.record.replay import audit
from companion.record.store import MatchStore

ROOT = Path(__file__).resolve().parents[2]

HOLDER = r"""
import sys
from companion.record.store import MatchStore
from companion.record.model import MatchHeader
with MatchStore(sys.argv[1]) as store:
    m = store.new_match(MatchHeader(north="Ann", south="Bob"))
    store.append_action(m, "S R8@3", turn=1)
    print("holding", m, flush=True)
    sys.stdin.readline()          # hold the database until told to let go
    store.append_action(m, "N B3@3", turn=1)
print("done", flush=True)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _companion(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, env=_env(), timeout=timeout, cwd=ROOT)


@pytest.fixture
def holder(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A second process holding the database open for writing."""
    path = tmp_path / "m.sqlite"
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_env())
    assert child.stdout is not None and child.stdin is not None
    line = child.stdout.readline()
    assert line.startswith("holding"), child.stderr.read() if child.stderr else line
    try:
        yield path, child
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)


def test_a_second_writer_is_refused_in_one_line_and_writes_nothing(holder) -> None:  # type: ignore[no-untyped-def]
    path, child = holder
    other = path.with_name("other.sqlite")
    with MatchStore(other) as store:
        m = store.new_match(MatchHeader(north="Cy", south="Di"))
        store.append_action(m, "S R8@3", turn=1)
        exported = path.with_name("match.txt")
        exported.write_text(write_text(store.record(m)), encoding="utf-8")
    started = time.monotonic()
    for args in (["demo", "--no-vision", "--actions", "3", "--db", str(path)],
                 ["matches", "import", str(exported), "--db", str(path)]):
        done = _companion(*args)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1
        assert "in use by another writer" in done.stderr
        assert f"(process {child.pid})" in done.stderr
        assert "saved" not in done.stdout and "imported" not in done.stdout
    assert time.monotonic() - started < 60
    # Readers read while the writer writes.
    listed = _companion("matches", "list", "--db", str(path))
    assert listed.returncode == 0 and "1 entries" in listed.stdout
    with pytest.raises(StoreBusyError, match="in use by another writer"):
        MatchStore(path, wait=0.2)
    child.stdin.write("go\n")
    child.stdin.flush()
    assert child.stdout.readline().startswith("done")
    child.wait(timeout=30)
    with MatchStore(path) as store:   # free again once the first writer has gone
        assert store.match_ids() == [1]
        assert [e.action for e in store.entries(1)] == ["S R8@3", "N B3@3"]


def test_two_demos_on_one_database_never_interleave(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    cmd = [sys.executable, "-m", "companion", "demo", "--no-vision", "--db", str(path)]
    runs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_env(), cwd=ROOT) for _ in range(2)]
    outcomes = [(p.wait(timeout=300), p.stdout.read(), p.stderr.read())  # type: ignore[union-attr]
                for p in runs]
    for code, out, err in outcomes:
        if code != 0:  # the one that came second while the first was still writing
            assert code == 2 and "in use by another writer" in err and err.count("\n") == 1
            assert "saved" not in out
        else:
            assert "100.0%" in out
    assert any(code == 0 for code, _, _ in outcomes)
    with MatchStore(path, readonly=True) as store:
        for m in store.match_ids():
            header, entries = store.header(m), store.entries(m)
            audit(header, entries)    # every match replays: nothing interleaved
            assert write_text(store.record(m)).count("round-end north") == 1


def test_writers_in_one_process_share_the_lock_and_let_go_on_close(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    with MatchStore(path) as a, MatchStore(path) as b:
        m = a.new_match(MatchHeader())
        b.append_note(m, "from b")
        a.append_note(m, "from a")
        assert [e.seq for e in a.entries(m)] == [1, 2]
    lock = Path(f"{path}.lock")
    assert lock.exists()
    done = subprocess.run([sys.executable, "-c",
                           "import sys; from companion.record.store import MatchStore; "
                           "MatchStore(sys.argv[1], wait=0).close(); print('ok')", str(path)],
                          capture_output=True, text=True, env=_env(), timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
