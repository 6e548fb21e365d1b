"""One line per recorded match, as a club organiser reads a results sheet: the players, the
event, the date, the winner and the score, how long it lasted and how many moves it took.

Everything is computed from the header and the log (nothing is stored twice): the winner and
the score from the round ends, the length from the entries' times, the moves by replaying
the log's effective actions.  The event name is the header's extra tag `event` (written
`[X-event "…"]` in the text notation), so that records made before it existed read as
matches without an event.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.rules.position import SIDES, Side

from .model import ACTION_KINDS, Entry, MatchHeader, RecordError, _check_text
from .replay import effective_entries, result, split_rounds

if TYPE_CHECKING:
    from .store import MatchInfo, MatchStore

EVENT_TAG = "event"
"""The extra header tag that names the event (a club night, a tournament) of a match."""
EVENT_MAX = 40


class EventNameError(RecordError, ValueError):
    """An event name that cannot go in a match header (too long, several lines)."""


def check_event(name: str) -> str:
    """`name` without surrounding blanks, or an `EventNameError` saying what is wrong."""
    if not isinstance(name, str):
        raise EventNameError(f"event name must be text, not {name!r}")
    text = name.strip()
    if "\n" in text or "\r" in text:
        raise EventNameError(f"event name {name!r} must be one line")
    if len(text) > EVENT_MAX:
        raise EventNameError(f"event name {name!r} is longer than {EVENT_MAX} characters")
    _check_text(text, "event name")
    return text


def event_of(header: MatchHeader) -> str:
    """The match's event name, '' when it has none (every record made before events)."""
    return header.extra.get(EVENT_TAG, "")


def player_names(header: MatchHeader) -> tuple[str, str]:
    """The names the players gave (the appliance keeps them in extra tags), north first."""
    return (header.extra.get("north_name", header.north),
            header.extra.get("south_name", header.south))


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """What the match list shows of one match.

    `result` is `north`, `south`, `draw` or `*` (undecided, as the notation's Result tag);
    `scores` sums the points of the rounds that ended (winner 5, loser one per flag held);
    `flags` counts the flags each side holds at the end of the last round played (a match
    still going has no score yet, but it has flags).  `moves` counts the actions in force
    (after undos and corrections) over every round; `seconds` runs from the first entry of
    the log to the last.
    """

    id: int
    north: str
    south: str
    event: str
    date: str
    result: str
    scores: tuple[int, int] | None
    flags: tuple[int, int]
    moves: int
    rounds_played: int
    rounds: int
    started: _dt.datetime | None
    ended: _dt.datetime | None
    edition: str = "battle-line"
    """The edition played (`companion.rules.edition` key): its words for the flags."""

    @property
    def seconds(self) -> float:
        if self.started is None or self.ended is None:
            return 0.0
        return max(0.0, (self.ended - self.started).total_seconds())

    @property
    def played(self) -> bool:
        """Whether anything was played: a match started and left empty is not worth a line."""
        return self.moves > 0 or self.rounds_played > 0

    @property
    def winner(self) -> Side | None:
        for side in SIDES:
            if self.result == side:
                return side
        return None

    def winner_name(self) -> str | None:
        side = self.winner
        if side is None:
            return None
        return self.north if side == "north" else self.south


def duration_text(seconds: float) -> str:
    """`1 h 05 min`, `12 min 30 s`, `45 s`: a length a person reads at a glance."""
    total = int(round(seconds))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h} h {m:02d} min"
    if m:
        return f"{m} min {s:02d} s"
    return f"{s} s"


def summarise(match_id: int, header: MatchHeader, entries: Sequence[Entry]) -> MatchSummary:
    """The summary of one match from its header and log.

    A log the rules refuse on replay (a damaged or foreign record) still gets a line: its
    moves are counted as recorded and its flags are unknown (0-0), so that the list shows
    the match rather than hiding a problem.
    """
    north, south = player_names(header)
    parts = split_rounds(entries, header.rounds)
    ends = [p[-1] for p in parts if p and p[-1].kind == "round-end"]
    moves = sum(len([e for e in effective_entries(p) if e.kind in ACTION_KINDS])
                for p in parts)
    scores: tuple[int, int] | None = None
    if ends:
        totals = {"north": 0, "south": 0}
        for e in ends:
            said = (e.data or {}).get("scores")
            if isinstance(said, dict):
                for side in totals:
                    value = said.get(side)
                    if isinstance(value, int) and not isinstance(value, bool):
                        totals[side] += value
        scores = (totals["north"], totals["south"])
    try:
        outcome = result(header, entries)
        flags = _flags(header, entries)
    except RecordError:
        outcome, flags = "*", (0, 0)
    times = [e.time for e in entries]
    return MatchSummary(match_id, north, south, event_of(header), header.date, outcome,
                        scores, flags, moves, len(ends), header.rounds,
                        min(times) if times else None, max(times) if times else None,
                        header.edition)


def _flags(header: MatchHeader, entries: Sequence[Entry]) -> tuple[int, int]:
    from .replay import final_state
    position = final_state(header, entries).position()
    held = [f.claimed for f in position.flags]
    return held.count("north"), held.count("south")


def summaries(store: MatchStore, infos: Sequence[MatchInfo] | None = None,
              played_only: bool = False) -> list[MatchSummary]:
    """The summary of every match of `store` (or of `infos`), oldest first; `played_only`
    leaves out the matches where nothing was played (kept in the store, not listed)."""
    out = []
    for info in infos if infos is not None else store.matches():
        s = summarise(info.id, info.header, store.entries(info.id))
        if s.played or not played_only:
            out.append(s)
    return out


__all__ = ["EVENT_MAX", "EVENT_TAG", "EventNameError", "MatchSummary", "check_event",
           "duration_text", "event_of", "player_names", "summarise", "summaries"]
