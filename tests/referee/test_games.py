"""Whole bot games fed to the referee as noisy observation streams (no rendering)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.referee import Referee, RefereeSettings
from companion.appliance.demo import _moments, scene_of
from companion.rules.actions import Pass
from companion.rules.cards import TROOPS
from companion.rules.state import Settings
from companion.vision.observation import FlagObservation, Observation


def _flicker(obs: Observation, rng: random.Random) -> Observation:
    """The same table with one card misread (a different Troop), as a noisy frame."""
    flags = list(obs.flags)
    full = [i for i, f in enumerate(flags) if f.north]
    if not full:
        return replace(obs, motion=True)
    i = rng.choice(full)
    f = flags[i]
    wrong = rng.choice([c for c in TROOPS if c not in obs.cards()])
    flags[i] = FlagObservation(f.flag, f.tile, (wrong,) + f.north[1:], f.south)
    return replace(obs, flags=tuple(flags))


@pytest.mark.parametrize("seed", [2, 8, 13])
def test_noisy_streams_commit_exactly_what_was_played(seed: int) -> None:
    rng = random.Random(seed)
    moments, _ = _moments(seed, Settings())
    ref = Referee(RefereeSettings(stable_frames=3, stable_seconds=0.3))
    t = 0.0

    def feed(obs: Observation, n: int = 1) -> None:
        nonlocal t
        for _ in range(n):
            t += 0.2
            ref.feed(obs, t)

    for i, m in enumerate(moments):
        if isinstance(m.action, Pass):
            ref.pass_turn(m.action.player)
            continue
        before = scene_of(m.before, seed).observation()
        after = scene_of(m.after, seed).observation()
        # A hand over the table, the new card half there, noise between calm frames.
        feed(replace(after, obstructed=(1, 2, 3)), rng.randint(1, 3))
        feed(replace(before, motion=True), rng.randint(0, 2))
        for _ in range(rng.randint(0, 4)):  # flickering misreads are never two alike in a row
            feed(after, rng.randint(1, 2))
            feed(_flicker(after, rng))
        if rng.random() < 0.2:  # a card of the table lifted for a moment and put back
            feed(before, 2)
        feed(after, 4)
        assert ref.state.actions[i:] == (m.action,), (i, m.action, ref.state.violations)
        assert ref.state.violations == ()
    assert list(ref.state.actions) == [m.action for m in moments]
