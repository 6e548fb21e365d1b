"""From an append-only match log to the actions in force and the states they lead to.

The log keeps everything; nothing is ever edited.  A round's effective action list is rebuilt
by reading its entries in order: an action, a pass or an accepted claim is appended; an undo
to index N keeps actions 0 … N-1; a correction of action N keeps actions 0 … N-1 and puts the
corrected action at N (everything after N is superseded, as after an undo).  Corrections
never make a side branch.  States are rebuilt by replaying the effective actions on a new
table-only game (`GameState.new_table`), never stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from companion.rules.actions import Action, Claim
from companion.rules.match import RoundResult
from companion.rules.prover import prove
from companion.rules.errors import IllegalActionError, NotationError
from companion.rules.notation import parse_action as _parse_action
from companion.rules.position import Side
from companion.rules.state import GameState, Settings

from .model import Entry, MatchHeader, RecordError, ReplayError


def parse_action(text: str) -> Action:
    """The rules notation of an action, read back (`NotationError` if it is not one)."""
    return _parse_action(text)


def split_rounds(entries: Sequence[Entry], rounds: int | None = None) -> list[list[Entry]]:
    """The entries of each round, in order; a `round-end` entry closes its round.

    After the last `round-end` a new (possibly empty) round is open if it has entries or if
    the match (of `rounds` rounds, when given) is not over.
    """
    out: list[list[Entry]] = [[]]
    for e in entries:
        out[-1].append(e)
        if e.kind == "round-end":
            out.append([])
    ended = len(out) - 1
    if not out[-1] and ended > 0 and (rounds is None or ended >= rounds):
        out.pop()
    return out


def open_round(entries: Sequence[Entry]) -> list[Entry]:
    """The entries after the last `round-end`: the round a writer is adding to."""
    for i in range(len(entries) - 1, -1, -1):
        if entries[i].kind == "round-end":
            return list(entries[i + 1:])
    return list(entries)


def _round_entries(entries: Sequence[Entry], round: int | None,
                   rounds: int | None = None) -> list[Entry]:
    parts = split_rounds(entries, rounds)
    if round is None:
        return parts[-1]
    if not 1 <= round <= len(parts):
        raise RecordError(f"there is no round {round}: the match has {len(parts)} round(s)")
    return parts[round - 1]


def effective_entries(round_entries: Sequence[Entry]) -> list[Entry]:
    """The entries whose actions are in force in one round, after undos and corrections.

    An undo or correction whose index lies beyond the actions in force is a `ReplayError`.
    """
    eff: list[Entry] = []
    for e in round_entries:
        if e.kind in ("action", "pass") or (e.kind == "claim" and e.accepted):
            eff.append(e)
        elif e.kind in ("correction", "undo"):
            index = e.index if e.index is not None else -1
            limit = len(eff) - 1 if e.kind == "correction" else len(eff)
            if not 0 <= index <= limit:
                raise ReplayError(
                    f"entry {e.seq} ({e.kind} of action {index}) names an action that is not "
                    f"in force: the round has {len(eff)} action(s) at that point")
            eff = eff[:index] + ([e] if e.kind == "correction" else [])
    return eff


def _action_of(e: Entry) -> Action:
    assert e.action is not None
    try:
        return parse_action(e.action)
    except NotationError as exc:
        raise ReplayError(f"entry {e.seq}: {exc}") from None


def effective_actions(entries: Sequence[Entry], round: int | None = None,
                      rounds: int | None = None) -> list[Action]:
    """The actions in force in `round` (1-based; default the last) of a match log."""
    return [_action_of(e) for e in effective_entries(_round_entries(entries, round, rounds))]


def first_player(header: MatchHeader, entries: Sequence[Entry], round: int | None) -> Side:
    """Who plays first in a round: the header's first player, then each round's winner."""
    parts = split_rounds(entries, header.rounds)
    index = (len(parts) if round is None else round) - 1
    first: Side = header.first
    for part in parts[:index]:
        end = part[-1] if part and part[-1].kind == "round-end" else None
        if end is not None and end.player is not None:
            first = end.player
    return first


def start_state(header: MatchHeader, entries: Sequence[Entry] = (),
                round: int | None = None) -> GameState:
    """The empty table a round starts from, with the header's settings."""
    settings = Settings(claim_timing=header.timing, naming=header.naming,  # type: ignore[arg-type]
                        edition=header.edition)
    return GameState.new_table(first=first_player(header, entries, round), settings=settings)


def iter_states(header: MatchHeader, entries: Sequence[Entry],
                round: int | None = None) -> Iterator[tuple[Entry | None, GameState]]:
    """The start state (with None), then each effective entry with the state after it."""
    state = start_state(header, entries, round)
    yield None, state
    for e in effective_entries(_round_entries(entries, round, header.rounds)):
        action = _action_of(e)
        try:
            state = state.apply(action)
        except IllegalActionError as exc:
            raise ReplayError(f"entry {e.seq} ({action}) is refused by the rules on replay: "
                              f"{_one_line(exc)}") from None
        yield e, state


def replay(header: MatchHeader, entries: Sequence[Entry],
           round: int | None = None) -> list[GameState]:
    """The states of a round (default: the last), the start state first."""
    return [state for _, state in iter_states(header, entries, round)]


def final_state(header: MatchHeader, entries: Sequence[Entry],
                round: int | None = None) -> GameState:
    """The state at the end of a round's effective actions (default: the last round)."""
    states = iter_states(header, entries, round)
    _, state = next(states)
    for _, state in states:
        pass
    return state


def result(header: MatchHeader, entries: Sequence[Entry]) -> str:
    """The match result as the text notation writes it: `north`, `south`, `draw` or `*`.

    One round: its recorded winner, else the winner of the replayed game, else `*`.
    Several rounds: `*` until every round has ended, then the higher total score.
    """
    parts = split_rounds(entries, header.rounds)
    ends = [p[-1] for p in parts if p and p[-1].kind == "round-end"]
    if header.rounds == 1:
        if ends and ends[0].player is not None:
            return ends[0].player
        return final_state(header, entries, round=1).winner or "*"
    if len(ends) < header.rounds:
        return "*"
    totals = {"north": 0, "south": 0}
    for e in ends:
        scores = (e.data or {}).get("scores")
        if isinstance(scores, dict):
            for side in totals:
                value = scores.get(side)
                if isinstance(value, int) and not isinstance(value, bool):
                    totals[side] += value
    if totals["north"] == totals["south"]:
        return "draw"
    return "north" if totals["north"] > totals["south"] else "south"


def audit(header: MatchHeader, entries: Sequence[Entry]) -> None:
    """Recompute by replay everything a record states that a replay can tell, and raise a
    `ReplayError` naming the first entry that disagrees.

    Checked, entry by entry in log order on the state the table was in at that moment:
    every action in force is legal; a turn label on an action, pass, claim, violation or
    round end is the turn the game was at; a claim's stored verdict (valid, reason, flag,
    player) is the prover's, and it is accepted exactly when valid; a round end naming a
    winner comes when that player has won the game, one without a winner only when nobody
    has (an abandoned round); its "… wins by …" message names the real winner and ending;
    its scores are the round's points (winner 5, loser one per flag held) or the running
    totals of the match.  A file that disagrees anywhere was edited or forged.
    """
    parts = split_rounds(entries, header.rounds)
    if len(parts) > header.rounds:
        raise ReplayError(f"the log has {len(parts)} rounds but the header says "
                          f"{header.rounds}")
    settings = Settings(claim_timing=header.timing, naming=header.naming,  # type: ignore[arg-type]
                        edition=header.edition)
    first: Side = header.first
    totals = {"north": 0, "south": 0}
    for number, part in enumerate(parts, start=1):
        states = [GameState.new_table(first=first, settings=settings)]
        for e in part:
            state = states[-1]
            if e.kind in ("action", "pass"):
                states.append(_apply(state, e))
            elif e.kind == "claim":
                _audit_claim(state, e)
                if e.accepted:
                    states.append(_apply(state, e))
            elif e.kind in ("correction", "undo"):
                count = len(states) - 1
                index = e.index if e.index is not None else -1
                limit = count - 1 if e.kind == "correction" else count
                if not 0 <= index <= limit:
                    raise ReplayError(
                        f"entry {e.seq} ({e.kind} of action {index}) names an action that is "
                        f"not in force: the round has {count} action(s) at that point")
                states = states[:index + 1]
                if e.kind == "correction":
                    states.append(_apply(states[-1], e))
            elif e.kind == "round-end":
                points = _audit_round_end(state, e, number)
                for side in totals:
                    totals[side] += points[side]
                scores = (e.data or {}).get("scores")
                if scores is not None and scores != points and scores != totals:
                    raise ReplayError(
                        f"entry {e.seq} (round-end) gives scores {_said_scores(scores)}, but "
                        f"the replay gives {_said_scores(points)} for round {number} "
                        f"({_said_scores(totals)} in all)")
                if e.player is not None:
                    first = e.player
            if e.turn is not None and e.kind in ("action", "pass", "claim", "violation",
                                                  "round-end"):
                # An action's label may be the turn it was made in (the state after it) or
                # the turn the table was at when it came (the state before it): the notation
                # and the referee have used both; any other number is out of order.
                allowed = {state.turn, states[-1].turn}
                if e.turn not in allowed:
                    said = " or ".join(str(t) for t in sorted(allowed))
                    raise ReplayError(f"entry {e.seq} ({e.kind}) is labelled turn {e.turn} "
                                      f"but the replayed game is at turn {said} there")


def _apply(state: GameState, e: Entry) -> GameState:
    action = _action_of(e)
    try:
        return state.apply(action)
    except IllegalActionError as exc:
        raise ReplayError(f"entry {e.seq} ({action}) is refused by the rules on replay: "
                          f"{_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    """A rules message on one line (a refused claim's proof spans several)."""
    return " ".join(str(exc).split())


def _audit_claim(state: GameState, e: Entry) -> None:
    """A claim as the prover decides it on the replayed table: accepted exactly when valid,
    and its stored verdict (when it has one) saying the same."""
    action = _action_of(e)
    assert isinstance(action, Claim)
    verdict = prove(state.position(), action.flag, action.player)
    said = "accepted" if e.accepted else "refused"
    stored = (e.data or {}).get("verdict")
    if stored is not None:
        if not isinstance(stored, dict):
            raise ReplayError(f"entry {e.seq} ({action}): its verdict is not a JSON object")
        if stored.get("valid") is not e.accepted:
            raise ReplayError(f"entry {e.seq} ({action}) is stored as {said} but its verdict "
                              f"says valid: {json.dumps(stored.get('valid'))}")
        got = (stored.get("flag"), stored.get("player"), stored.get("valid"),
               stored.get("reason"))
        want = (action.flag, action.player, verdict.valid, verdict.reason)
        if got != want:
            raise ReplayError(
                f"entry {e.seq} ({action}) holds the verdict flag {got[0]}, {got[1]}, "
                f"{'valid' if got[2] else 'not valid'} ({got[3]}), but on replay the prover "
                f"gives {'valid' if verdict.valid else 'not valid'} ({verdict.reason})")
    if e.accepted != verdict.valid or (e.code is not None and e.code != verdict.reason):
        raise ReplayError(f"entry {e.seq} ({action}) is {said} ({e.code or 'no reason'}), but "
                          f"on replay the prover finds it "
                          f"{'valid' if verdict.valid else 'not valid'} ({verdict.reason})")


def _audit_round_end(state: GameState, e: Entry, number: int) -> dict[str, int]:
    """The round's points, once the round end is found to say what the replay says."""
    winner = state.winner if state.over else None
    if e.player is not None and not state.over:
        raise ReplayError(
            f"entry {e.seq} (round-end) says {e.player} won round {number}, but at turn "
            f"{state.turn} the game is not over (north holds {len(state.claimed_flags('north'))}"
            f" flag(s), south {len(state.claimed_flags('south'))})")
    if e.player != winner:
        raise ReplayError(f"entry {e.seq} (round-end) names {e.player or 'no winner'} for "
                          f"round {number}, but the replay gives {winner or 'no winner'}")
    if state.over and state.outcome is not None and e.message is not None and \
            " wins by " in e.message:
        said = f"{winner} wins by {state.outcome.termination}"
        if e.message != said:
            raise ReplayError(f"entry {e.seq} (round-end) says {e.message!r}, but the replay "
                              f"gives {said!r}")
    if not state.over:
        return {"north": 0, "south": 0}
    result = RoundResult.of(state)
    return {side: int(result.points(side)) for side in ("north", "south")}


def _said_scores(scores: object) -> str:
    if isinstance(scores, dict):
        return f"north {scores.get('north')}, south {scores.get('south')}"
    return repr(scores)
