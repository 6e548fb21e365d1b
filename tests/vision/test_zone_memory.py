"""A zone that looks as it did when last read is not read again (`zones.ZoneMemory`): the
same cards as a whole read after a move, a changed zone read again, and no memory when told."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.synth import Degrade, render
from companion.vision import zones as zone_steps
from companion.vision.evaluate import what_it_says
from companion.vision.pipeline import TableReader

from .vision_helpers import deck, printing, sample_scene


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = zone_steps.read

    def counted(refl, margins, zone, refs, tpl, s):  # type: ignore[no-untyped-def]
        calls.append(zone.key)
        return real(refl, margins, zone, refs, tpl, s)

    monkeypatch.setattr(zone_steps, "read", counted)
    return calls


def _move_frames() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The same table (noise and light alike) before and after a card is laid at flag 2,
    and after one is laid at flag 8."""
    after = sample_scene(table_seed=5)
    flags = list(after.flags)
    flags[1] = replace(flags[1], south=flags[1].south[:-1])            # G9 not yet laid
    before = replace(after, flags=tuple(flags))
    flags = list(after.flags)
    flags[7] = replace(flags[7], north=flags[7].north[:-1])            # B8 taken back
    other = replace(after, flags=tuple(flags))
    deg = Degrade(noise=3.0, jpeg=85)
    p = printing("classic")
    return (render(before, p, seed=11, degrade=deg), render(after, p, seed=11, degrade=deg),
            render(other, p, seed=11, degrade=deg))


def test_a_move_reads_only_the_zones_it_changed_and_says_what_a_whole_read_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    before, after, other = _move_frames()
    with TableReader(deck("classic"), workers=0) as whole:
        whole.remember = False
        want_after = whole.read(after)
        want_other = whole.read(other)
    calls = _counting(monkeypatch)
    with TableReader(deck("classic"), workers=0) as reader:
        reader.read(before)                  # the tiles decoded: every zone read
        everything = len(calls)
        reader.read(before)                  # ... and followed: the reader's usual frame
        calls.clear()
        got = reader.read(after)
        assert what_it_says(got) == what_it_says(want_after)
        assert got.flags[1].south[-1].code == "G9"
        # Only the zones the new card shows in (its own, and a neighbour it may reach into).
        assert 1 <= len(calls) <= 3 < everything, calls
        assert "2south" in calls
        calls.clear()
        got = reader.read(other)
        assert what_it_says(got) == what_it_says(want_other)
        assert "8north" in calls and "2south" not in calls


def test_the_same_frame_again_reads_no_zone_unless_told_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    before, _, _ = _move_frames()
    calls = _counting(monkeypatch)
    with TableReader(deck("classic"), workers=0) as reader:
        reader.read(before)
        first = reader.read(before)
        calls.clear()
        assert what_it_says(reader.read(before)) == what_it_says(first)
        assert calls == []
        reader.remember = False
        reader.read(before)
        assert len(calls) > 10
        calls.clear()
        reader.remember = True
        reader.reset()                       # a new table: nothing is remembered
        reader.read(before)
        assert len(calls) > 10


def test_light_that_changes_over_the_table_reads_every_zone_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    before, _, _ = _move_frames()
    calls = _counting(monkeypatch)
    with TableReader(deck("classic"), workers=0) as reader:
        reader.read(before)
        reader.read(before)
        calls.clear()
        # A cloud: the table darker towards one player, along every column: each strip
        # darkens along its length against its own tile, and every zone is read again.
        along = np.linspace(1.0, 0.7, before.shape[0], dtype=np.float32)[:, None, None]
        reader.read(np.clip(before * along, 0, 255).astype(np.uint8))
        assert len(calls) == 22
        # Darker towards one end of the line, the tiles alike: a strip in reflectance (made
        # on its own tile's white and black) hardly changes, and what is not read again
        # reads as a fresh reader reads it.
        reader.read(before)
        calls.clear()
        across = np.linspace(1.0, 0.7, before.shape[1], dtype=np.float32)[None, :, None]
        shaded = np.clip(before * across, 0, 255).astype(np.uint8)
        got = reader.read(shaded)
        assert 0 < len(calls) < 22
    with TableReader(deck("classic"), workers=0) as fresh:
        assert what_it_says(fresh.read(shaded)) == what_it_says(got)
