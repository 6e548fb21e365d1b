"""The match record: an SQLite match store, whole-match notation and JSON, replay, a text board.

A match is a header (`MatchHeader`) and an append-only log of entries (`Entry`).  The log
is never edited; states are never stored.  The actions in force are rebuilt from the log
(undos and corrections supersede everything from their index on) and states by replaying
them on `GameState.new_table(first, Settings(claim_timing, naming, edition))`.

The referee's API (`companion.record.store.MatchStore`)::

    with MatchStore(path=None) as store:          # None: data_dir() / "matches.sqlite"
        match_id = store.new_match(MatchHeader(north="Ann", south="Bob", timing="standard",
                                               first="south", calibration="rig-1"))
        store.append_action(match_id, action, turn=state.turn, key=None,
                            frame=jpeg_bytes, observation=observation_json)
        store.append_claim(match_id, Claim(...), verdict.to_json(), turn=...)
                          # accepted defaults to verdict["valid"]; accepted claims take effect
        store.append_violation(match_id, "side-full", message, player=..., action=...)
        store.append_correction(match_id, index, corrected_action, message=...)
        store.append_undo(match_id, index, message=...)   # keeps actions 0 … index-1
        store.append_doubt(match_id, "flag4-south", message, data={...})
        store.append_confirm(match_id, "flag4-south", message, data={"card": "O7"})
        store.append_round_end(match_id, winner, scores={"north": 2, "south": 5})
        store.append_note(match_id, message)
        # On restart: what is already committed, and the state to resume from.
        store.last_seq(match_id); store.entries(match_id, since_seq=0)
        store.effective_actions(match_id)          # list[Action], the open round
        store.replay(match_id)[-1]                 # the GameState to resume from

Indices of `correction`/`undo` are 0-based positions in the current round's effective
action list.  Every append is one durable transaction and returns the committed `Entry`
(with its `seq`, 1, 2, 3 … per match).  Appends are idempotent for a resuming writer: pass
`key=` (any text unique in the match) and a repeated append with the same content returns
the committed entry instead of writing it twice (different content: `DuplicateEntryError`);
or pass `expect_seq=` to write an entry only as that seq.

Other modules: `notation` (`write_text`/`read_text`, `write_json`/`read_json`,
`MatchRecord` whose `errors` collect problems), `replay` (pure functions over entries),
`export` (frames as a labelled folder), `board` (`render_state`, `render_position`).
Errors are `RecordError` subclasses (`DatabaseDamagedError` and its `ChainError`,
`ForeignDatabaseError`, `SchemaVersionError`, `MatchNotFoundError`, `DuplicateEntryError`,
`EntryError`, `ReplayError`, `MatchNotationError`, `StoreBusyError`: another process is
writing to the database, one writer at a time).
"""

from .model import (
    KINDS,
    ChainError,
    DatabaseDamagedError,
    DuplicateEntryError,
    Entry,
    EntryError,
    ForeignDatabaseError,
    MatchHeader,
    MatchNotationError,
    MatchNotFoundError,
    RecordError,
    ReplayError,
    SchemaVersionError,
    StoreBusyError,
)
from .store import MatchInfo, MatchStore, RecordedFrame, default_path

__all__ = [
    "KINDS", "ChainError", "DatabaseDamagedError", "DuplicateEntryError", "Entry", "EntryError",
    "ForeignDatabaseError", "MatchHeader", "MatchInfo", "MatchNotationError",
    "MatchNotFoundError", "MatchStore", "RecordError", "RecordedFrame", "ReplayError",
    "SchemaVersionError", "StoreBusyError", "default_path",
]
