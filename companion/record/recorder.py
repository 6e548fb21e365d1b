"""The match recorder: it follows the referee and writes what happens to the match store.

The referee does no I/O.  A `Recorder` listens to it (`Referee.listen`): each event is
written the moment the referee tells it, before the referee moves on, so an action that
cannot be recorded is not committed either (power-cut safety).  `open_match` starts a new
match or resumes an unfinished one from its record (`Referee.from_actions`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import CompanionError
from companion.referee.events import (
    ActionCommitted,
    ClaimDecided,
    Confirmed,
    Corrected,
    DoubtRaised,
    Event,
    GameOver,
    TableConfirmed,
    Undone,
    ViolationRaised,
)
from companion.referee.referee import Referee, RefereeError
from companion.referee.settings import RefereeSettings
from companion.rules.position import SIDES, Side
from companion.rules.state import Settings

from .model import MatchHeader
from .replay import effective_actions
from .store import MatchStore

log = logging.getLogger(__name__)

JPEG_QUALITY = 92   # recorded frames are labelled data: keep the card faces sharp


class Recorder:
    """Writes one match's events to `store` (call it with each event, or `listen` it)."""

    def __init__(self, store: MatchStore, match_id: int, naming: str = "gmt-en") -> None:
        self.store = store
        self.match_id = match_id
        self.naming = naming
        self._last_seq: int | None = None   # the entry a confirmed frame belongs to

    def __call__(self, event: Event) -> None:
        store, match = self.store, self.match_id
        if isinstance(event, ActionCommitted):
            self._last_seq = store.append_action(match, event.action, turn=event.turn).seq
        elif isinstance(event, ClaimDecided):
            seq = store.append_claim(match, event.action,
                                     event.verdict.to_json(naming=self.naming),  # type: ignore[arg-type]
                                     accepted=event.accepted, turn=event.turn).seq
            if event.accepted:
                self._last_seq = seq
        elif isinstance(event, ViolationRaised):
            v = event.violation
            try:
                store.append_violation(match, v.reason, v.message,
                                       player=v.action.player if v.action else None,
                                       action=v.action, turn=event.turn)
            except CompanionError as exc:  # the violation is shown all the same
                log.warning("violation not recorded: %s", exc)
        elif isinstance(event, DoubtRaised):
            for d in event.doubts:
                store.append_doubt(
                    match, str(d.where).replace(" ", "-"),
                    f"{d.where} card {d.index + 1}: {d.best} or {d.second}?",
                    data={"best": str(d.best), "second": str(d.second) if d.second else None,
                          "score": round(d.score, 3), "index": d.index})
        elif isinstance(event, Confirmed):
            said = str(event.card) if event.card is not None else "no card"
            store.append_confirm(match, str(event.doubt.where).replace(" ", "-"),
                                 f"{event.doubt.where}: {said}",
                                 data={"read": str(event.doubt.best), "card": said,
                                       "index": event.doubt.index})
        elif isinstance(event, Corrected):
            store.append_correction(match, event.index, event.action,
                                    message=f"{event.old} was {event.card}")
        elif isinstance(event, Undone):
            store.append_undo(match, event.kept)
        elif isinstance(event, GameOver):
            # The round's own points (docs/match-notation.md): the match's are their sum.
            scores = {str(side): n for side, n in event.points.items()}
            store.append_round_end(match, event.winner, scores=scores,
                                   message=f"{event.winner} wins by {event.termination}",
                                   turn=event.turn)
        elif isinstance(event, TableConfirmed):
            self._frame(event)

    def _frame(self, event: TableConfirmed) -> None:
        """Save the frame that made the table stable with the last entry it committed,
        labelled with the confirmed table.  A frame is a help, never a failure: one that
        cannot be encoded or saved is logged and the game goes on."""
        seq, self._last_seq = self._last_seq, None
        if seq is None:
            return
        try:
            self.store.add_frame(self.match_id, seq, _jpeg(event.frame),
                                 event.observation.to_json())
        except (CompanionError, ValueError, ImportError) as exc:
            log.warning("frame of entry %d not recorded: %s", seq, exc)


def open_match(store: MatchStore, settings: RefereeSettings | None = None,
               match_id: int | None = None, extra: Mapping[str, str] | None = None,
               header: MatchHeader | None = None) -> tuple[Referee, Recorder]:
    """A referee and its recorder: a new match in `store` (with `header`, else one made of
    `settings` and `extra` tags), or, with `match_id`, that match resumed from its record."""
    settings = settings or RefereeSettings()
    if match_id is not None:
        return resume(store, match_id, settings)
    rules = settings.game or Settings()
    if header is None:
        header = MatchHeader(timing=rules.claim_timing, naming=rules.naming,
                             edition=rules.edition, rounds=settings.rounds, first=settings.first,  # type: ignore[arg-type]
                             extra=dict(extra or {}))
    recorder = Recorder(store, store.new_match(header), header.naming)
    referee = Referee(settings)
    referee.listen(recorder)
    return referee, recorder


def resume(store: MatchStore, match_id: int,
           settings: RefereeSettings | None = None) -> tuple[Referee, Recorder]:
    """The referee of an unfinished (or finished) match rebuilt from its record: the current
    round's effective actions replayed, the scores and first player of the rounds before.
    The table must then match the record before anything is inferred."""
    header = store.header(match_id)
    rules = Settings(claim_timing=header.timing,  # type: ignore[arg-type]
                     naming=header.naming, edition=header.edition)  # type: ignore[arg-type]
    settings = replace(settings or RefereeSettings(), rounds=header.rounds,
                       first=header.first, game=rules)
    entries = store.entries(match_id)
    ends = [e for e in entries if e.kind == "round-end"]
    first: Side = header.first
    scores: dict[Side, int] = {"north": 0, "south": 0}
    for end in ends:
        if end.player is not None:
            first = end.player
        recorded: Any = (end.data or {}).get("scores")
        if isinstance(recorded, dict):
            scores = {s: scores[s] + int(recorded.get(s, 0)) for s in SIDES}
    over = len(ends) >= header.rounds
    number = header.rounds if over else len(ends) + 1
    if over:  # show the last round as it ended; its first player is the one before
        first = header.first
        for end in ends[:-1]:
            first = end.player or first
    recorder = Recorder(store, match_id, header.naming)
    actions = effective_actions(entries, round=number, rounds=header.rounds)
    try:
        referee = Referee.from_actions(settings, actions, round=number, first=first,
                                       scores=scores, match_over=over, listeners=(recorder,))
    except RefereeError as exc:   # a recorded action the rules refuse on replay
        raise RefereeError(f"match {match_id}: {exc}") from None
    return referee, recorder


def unfinished_match(store: MatchStore) -> int | None:
    """The latest match with actions whose last round has not ended (an appliance stopped by
    a power cut or a kill mid-match), or None."""
    for info in sorted(store.matches(), key=lambda m: m.id, reverse=True):
        if info.entries == 0:
            continue          # started, nothing played: nothing to resume
        ends = sum(1 for e in store.entries(info.id) if e.kind == "round-end")
        return info.id if ends < info.header.rounds else None
    return None


def _jpeg(frame: Any) -> bytes:
    """A frame as JPEG bytes: JPEG bytes as they are, a BGR image encoded (OpenCV, imported
    here so that the record loads without it)."""
    if isinstance(frame, (bytes, bytearray, memoryview)):
        return bytes(frame)
    import cv2
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError(f"a frame of shape {getattr(frame, 'shape', '?')} could not be "
                         "encoded as JPEG")
    return bytes(buf.tobytes())


__all__ = ["JPEG_QUALITY", "Recorder", "open_match", "resume", "unfinished_match"]
