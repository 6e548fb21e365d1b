"""Messages that are true: a read-only folder or file, a full disk, a FIFO, a schema that is
not UTF-8 — each is one line that says what is wrong, nothing is left behind, nothing claims
to be saved that was not."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.record import store as store_module
from companion.record.model import DatabaseDamagedError, MatchHeader, RecordError
from companion.record.store import MatchStore

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534


def _filled(path: Path) -> None:
    with MatchStore(path) as store:
        m = store.new_match(MatchHeader(north="Ann", south="Bob"))
        store.append_action(m, "S R8@3", turn=1)
        store.append_action(m, "N B3@3", turn=1)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder another user can enter (pytest's own temporary folders are private)."""
    path = Path(tempfile.mkdtemp(prefix="companion-ro-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        for p in [path, *path.rglob("*")]:
            if p.is_dir():
                p.chmod(0o755)
        shutil.rmtree(path, ignore_errors=True)


def _as_other_user(*args: str) -> subprocess.CompletedProcess[str]:
    """`companion ARGS` run by a user without write permission where the test removed it:
    the test's own user when it is not root, else `nobody` (root may write anywhere)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["COMPANION_DATA"] = tempfile.mkdtemp(prefix="companion-data-")
    os.chmod(env["COMPANION_DATA"], 0o777)

    prefix: list[str] = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv to become another user")
        prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    done = subprocess.run([*prefix, sys.executable, "-m", "companion", *args],
                          capture_output=True, text=True, env=env, timeout=120, cwd="/")
    shutil.rmtree(env["COMPANION_DATA"], ignore_errors=True)
    return done


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def test_a_read_only_folder_is_read_and_not_called_damaged(shared_dir: Path) -> None:
    db = shared_dir / "m.sqlite"
    _filled(db)
    db.chmod(0o444)
    shared_dir.chmod(0o555)
    listed = _as_other_user("matches", "list", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    assert "2 entries" in listed.stdout and "damaged" not in listed.stderr
    shown = _as_other_user("matches", "export", "1", "--db", str(db))
    assert shown.returncode == 0 and "N B3@3" in shown.stdout
    err = _one_line(_as_other_user("demo", "--no-vision", "--actions", "2", "--db", str(db)))
    assert "cannot write match database" in err and "read-only" in err
    assert "damaged" not in err
    assert sorted(p.name for p in shared_dir.iterdir()) == ["m.sqlite", "m.sqlite.lock"]


def test_a_read_only_database_is_refused_before_the_game(shared_dir: Path) -> None:
    db = shared_dir / "m.sqlite"
    _filled(db)
    shared_dir.chmod(0o777)
    db.chmod(0o444)
    before = db.read_bytes()
    done = _as_other_user("demo", "--no-vision", "--actions", "2", "--db", str(db))
    err = _one_line(done)
    assert "read-only" in err and "saved" not in done.stdout
    assert db.read_bytes() == before


def test_a_read_only_folder_without_a_database(shared_dir: Path) -> None:
    shared_dir.chmod(0o555)
    db = shared_dir / "new.sqlite"
    for args in (["demo", "--no-vision", "--actions", "2", "--db", str(db)],
                 ["matches", "list", "--db", str(db)]):
        err = _one_line(_as_other_user(*args))
        assert str(db) in err
    assert list(shared_dir.iterdir()) == []


def test_a_fifo_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for args in (["matches", "list", "--db", str(fifo)], ["matches", "show", "1", "--db",
                                                          str(fifo)],
                 ["matches", "import", str(fifo), "--db", str(tmp_path / "m.sqlite")]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and ("FIFO" in err or "not a regular file" in err)
    # The demo opens the store before anything else: one line too, well before any timeout.
    done = subprocess.run([sys.executable, "-m", "companion", "demo", "--no-vision", "--db",
                           str(fifo)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "FIFO" in _one_line(done)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_schema_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.sqlite"
    _filled(db)
    data = bytearray(db.read_bytes())
    at = data.find(b"the match log is append-only")
    data[at + 4] = 0xFF
    db.write_bytes(bytes(data))
    with pytest.raises(DatabaseDamagedError, match="schema text is not UTF-8"):
        MatchStore(db)
    assert db.read_bytes() == bytes(data)
    assert main(["matches", "list", "--db", str(db)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# -- a full disk while the database is created ------------------------------------------------
class _FullConnection:
    """A connection whose schema script meets a full disk."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, *args: Any) -> Any:
        return self._conn.execute(*args)

    def executescript(self, script: str) -> Any:
        self._conn.execute("CREATE TABLE half_made (x)")
        raise sqlite3.OperationalError("database or disk is full")

    def close(self) -> None:
        self._conn.close()


def test_a_full_disk_while_creating_leaves_nothing(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    real = sqlite3.connect
    monkeypatch.setattr(store_module.sqlite3, "connect",
                        lambda *a, **k: _FullConnection(real(*a, **k)))
    db = tmp_path / "m.sqlite"
    with pytest.raises(RecordError, match="cannot create match database .*disk is full"):
        MatchStore(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.sqlite.lock"]


def test_a_full_disk_when_linking_into_place_leaves_nothing(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    def full(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(store_module.os, "link", full)
    db = tmp_path / "m.sqlite"
    with pytest.raises(RecordError, match="cannot create match database .*No space left"):
        MatchStore(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.sqlite.lock"]
    monkeypatch.undo()
    with MatchStore(db) as store:   # and the next start creates it
        assert store.match_ids() == []


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("mount"),
                    reason="mounting a small tmpfs needs root")
def test_a_really_full_disk(tmp_path: Path) -> None:
    mnt = tmp_path / "small"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        (mnt / "filler").write_bytes(b"\0" * 40 * 1024)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-m", "companion", "demo", "--no-vision",
                               "--actions", "4", "--db", str(mnt / "m.sqlite")],
                              capture_output=True, text=True, timeout=120, env=env)
        err = _one_line(done)
        assert "full" in err and "saved" not in done.stdout
        assert not [p for p in mnt.iterdir() if ".creating-" in p.name]
        # Room again, the demo runs; then the disk fills during the game: one line, exit 2.
        (mnt / "filler").unlink()
        (mnt / "filler").write_bytes(b"\0" * 8 * 1024)
        done = subprocess.run([sys.executable, "-m", "companion", "demo", "--no-vision",
                               "--db", str(mnt / "m.sqlite")],
                              capture_output=True, text=True, timeout=300, env=env)
        if done.returncode != 0:
            err = _one_line(done)
            assert "could not be written" in err or "full" in err
            assert "saved" not in done.stdout
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)
