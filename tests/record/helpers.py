"""Shared builders for the match-record tests: seeded random games recorded into a store."""

from __future__ import annotations

import datetime as dt
import random

from companion.record.model import MatchHeader
from companion.record.store import MatchStore
from companion.rules.actions import Action, Claim
from companion.rules.prover import prove
from companion.rules.state import GameState, Settings

T0 = dt.datetime(2026, 11, 21, 20, 0, 0, tzinfo=dt.timezone.utc)


def random_game(seed: int, first: str = "south", timing: str = "standard",
                limit: int = 400, edition: str = "battle-line") -> tuple[list[Action], GameState]:
    """A whole seeded game between random players (claims taken most of the time)."""
    rng = random.Random(seed)
    state = GameState.new_full(rng, first=first,  # type: ignore[arg-type]
                               settings=Settings(claim_timing=timing,  # type: ignore[arg-type]
                                                 edition=edition))
    actions: list[Action] = []
    while not state.over and len(actions) < limit:
        legal = state.legal_actions()
        claims = [a for a in legal if isinstance(a, Claim)]
        action = claims[0] if claims and rng.random() < 0.7 else rng.choice(legal)
        state = state.apply(action)
        actions.append(action)
    return actions, state


def record_game(store: MatchStore, actions: list[Action], header: MatchHeader,
                extras: bool = True, start: dt.datetime = T0) -> int:
    """Record a game's actions (claims with their verdicts) as the referee would.

    With `extras`, also a violation, a doubt and its confirmation, and a note, so that
    every kind of entry goes through the record.
    """
    match_id = store.new_match(header)
    state = GameState.new_table(first=header.first,  # type: ignore[arg-type]
                                settings=Settings(claim_timing=header.timing,  # type: ignore[arg-type]
                                                  edition=header.edition))
    t = start
    for n, action in enumerate(actions):
        t += dt.timedelta(seconds=7, milliseconds=n * 13 % 1000)
        if isinstance(action, Claim):
            verdict = prove(state.position(), action.flag, action.player)
            store.append_claim(match_id, action, verdict.to_json(), turn=state.turn, time=t)
        else:
            store.append_action(match_id, action, turn=state.turn, time=t)
        state = state.apply(action)
        if extras and n == 3:
            store.append_violation(match_id, "side-full", "The south side of flag 1 is "
                                   "full {3 cards}", player="south", action="S R1@1",
                                   turn=state.turn, time=t)
            store.append_doubt(match_id, "flag-4-south", "O7 or R7?",
                               data={"best": "O7", "second": "R7", "score": 0.41}, time=t)
            store.append_confirm(match_id, "flag-4-south", "it is O7", player="south",
                                 data={"card": "O7"}, time=t)
            store.append_note(match_id, "a note\nover two lines", time=t, key="note-1")
    return match_id
