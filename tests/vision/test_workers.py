"""Zones read by worker processes (`pipeline.workers`): the same observation as a reader on
its own, workers gone after `close()`, and a reader that outlives a dead or hung worker."""

from __future__ import annotations

import logging
import os
import signal
import time

import numpy as np
import pytest

from companion.vision import workers as zone_workers
from companion.vision.config import load_config
from companion.vision.pipeline import TableReader

from .vision_helpers import deck, frame

pytestmark = pytest.mark.skipif(not hasattr(os, "memfd_create"),
                                reason="worker processes share frames through a memory file")


def _alone(name: str) -> list[object]:
    with TableReader(deck(name), workers=0) as reader:
        return [reader.read(frame(name)), reader.read(frame(name))]


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # Reaped by the pool: a pid still there would be another process or a zombie.
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        return fh.read().split()[2] == "Z"


def test_workers_read_what_the_reader_reads_alone_and_stop_on_close() -> None:
    want = _alone("classic")
    reader = TableReader(deck("classic"), workers=1)
    assert reader._workers is not None
    pids = reader._workers.pids
    assert [reader.read(frame("classic")), reader.read(frame("classic"))] == want
    reader.close()
    reader.close()                                   # safe twice
    assert all(_gone(p) for p in pids)


def test_readers_share_one_pool_and_the_last_one_stops_it() -> None:
    a = TableReader(deck("classic"), workers=1)
    b = TableReader(deck("bold"), workers=1)
    assert a._workers is b._workers and a._workers is not None
    pids = a._workers.pids
    assert b.read(frame("bold")) == _alone("bold")[0]
    a.close()
    assert not any(_gone(p) for p in pids)
    assert a.read(frame("classic")) == _alone("classic")[0]     # on its own now
    b.close()
    assert all(_gone(p) for p in pids)


@pytest.mark.parametrize("how", ["killed", "hung"])
def test_a_dead_or_hung_worker_leaves_the_reader_reading_on_its_own(
        how: str, caplog: pytest.LogCaptureFixture) -> None:
    want = _alone("classic")
    reader = TableReader(deck("classic"), workers=1)
    pool = reader._workers
    assert pool is not None
    assert reader.read(frame("classic")) == want[0]
    pid = pool.pids[0]
    pool.timeout_s = 1.0
    os.kill(pid, signal.SIGKILL if how == "killed" else signal.SIGSTOP)
    try:
        with caplog.at_level(logging.WARNING, logger="companion.vision.pipeline"):
            t = time.monotonic()
            assert reader.read(frame("classic")) == want[1]
            assert time.monotonic() - t < 10.0
        assert any("zone workers stopped" in r.getMessage() for r in caplog.records)
        assert reader._workers is None and pool.closed
        assert reader.read(frame("classic")) == want[1]
    finally:
        if how == "hung" and not _gone(pid):
            os.kill(pid, signal.SIGKILL)
        reader.close()
    assert _gone(pid)


def test_a_webcam_frame_brought_to_the_rig_s_scale_is_read_by_the_workers_too() -> None:
    """A 1080p webcam's frame is read enlarged to the rig's scale (larger than the rig's own
    frame): the workers take their share of it, and read what the reader reads alone."""
    from companion.synth import RIGS, render
    from companion.synth.zoo import FAMILIES, rendition

    from .vision_helpers import enrolled, sample_scene

    p = FAMILIES["classic"](0)
    dk = enrolled(rendition(p, 1))
    webcam = render(sample_scene(), rendition(p, 2), 3, rig=RIGS["webcam"])
    with TableReader(dk, workers=0) as alone:
        want = alone.read(webcam)
        enlarged = alone._scale(webcam)
    assert enlarged.shape[1] > webcam.shape[1] and enlarged.nbytes > webcam.nbytes * 1.5
    with TableReader(dk, workers=1) as reader:
        pool = reader._workers
        assert pool is not None and pool.fits(enlarged)
        handed: list[int] = []
        cut = pool.cut
        pool.cut = lambda f, *a: (handed.append(f.shape[1]), cut(f, *a))[1]  # type: ignore
        try:
            assert reader.read(webcam) == want
        finally:
            del pool.cut
        assert handed == [enlarged.shape[1]]


def test_a_frame_larger_than_the_shared_memory_is_read_here() -> None:
    img = frame("classic")
    big = np.pad(img, ((0, img.shape[0] + 64), (0, img.shape[1] + 64), (0, 0)), mode="edge")
    assert big.nbytes > zone_workers.FRAME_BYTES
    with TableReader(deck("classic"), workers=0) as alone:
        want = alone.read(big)
    with TableReader(deck("classic"), workers=1) as reader:
        assert reader._workers is not None and not reader._workers.fits(big)
        assert reader.read(big) == want
        assert reader._workers is not None           # still there for the camera's frames


def test_the_configured_number_of_workers() -> None:
    want = int(load_config()["pipeline"]["workers"])
    with TableReader(deck("classic")) as reader:
        assert (reader._workers.count if reader._workers else 0) == want


def test_zones_are_shared_out_west_to_east_the_reader_first() -> None:
    with TableReader(deck("classic"), workers=0) as reader:
        layout = reader.tracker.update(frame("classic"))
        _, zones, _ = reader._zone_list(layout)
        even = reader._shares(zones, 2)
        light = reader._shares(zones, 3, 0.5)
    assert [len(p) for p in even] == [11, 11]
    assert [len(p) for p in light] == [4, 9, 9]
    for shares in (even, light):
        assert sorted(i for p in shares for i, _ in p) == list(range(len(zones)))
        wests = [max(z.homography[0, 2] / z.homography[2, 2] for _, z in p) for p in shares]
        assert wests == sorted(wests)
