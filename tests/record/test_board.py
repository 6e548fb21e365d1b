"""The text board, and the documented example of the match notation."""

from __future__ import annotations

from pathlib import Path

from companion.record.board import render_position, render_state
from companion.record.notation import read_text
from companion.rules.notation import parse_position
from companion.rules.state import GameState

DOC = Path(__file__).resolve().parents[2] / "docs" / "match-notation.md"


def test_board_columns_sides_environment_and_claims() -> None:
    position = parse_position(
        "R8,R9,ALEXANDER/B3[FOG] | -/- | G1,G2,G3/R4,R5,R6!n<n | -/-[MUD] | -/- | -/- "
        "| -/- | -/- | -/- ; Y5")
    lines = render_position(position, north="Ann", south="Bob").splitlines()
    assert lines[0].split() == [str(n) for n in range(1, 10)]
    flag_row = next(i for i, line in enumerate(lines) if line.startswith("flag"))
    assert lines[flag_row].split()[1:] == ["1", "2", "3:N", "4", "5", "6", "7", "8", "9"]
    assert lines[flag_row + 1].split() == ["env", "FOG", "MUD"]
    both = parse_position("-/- | -/- | -/- | -/- | -/- | -/- | -/- | -/- | -/-[FOG,MUD] ; -")
    assert render_position(both).splitlines()[3].split() == ["env", "F+M"]
    north = lines[1:flag_row]
    # North's first card is nearest the flag: the lowest of north's rows.
    assert north[0].split() == ["Ann", "ALEX", "G3"]
    assert north[-1].split() == ["R8", "G1"]
    south = lines[flag_row + 2:-1]
    assert south[0].split() == ["Bob", "B3", "R4"] and south[-1].split() == ["R6"]
    assert lines[-1] == "discards: Y5"
    column = lines[0].index("3")
    assert lines[flag_row][column - 2: column + 3].strip() == "3:N"


def test_state_board_says_whose_turn() -> None:
    state = GameState.new_table(first="north")
    text = render_state(state)
    assert text.splitlines()[-1] == "turn 1: north to play"


def test_the_documented_example_reads_back() -> None:
    doc = DOC.read_text(encoding="utf-8")
    start = doc.index("```\n[North") + 4
    example = doc[start: doc.index("```", start)]
    # The doc shortens one claim verdict with "…": drop that data line, keep the rest.
    example = "\n".join(line for line in example.splitlines() if "…" not in line)
    record = read_text(example)
    assert record.errors == ()
    assert [e.kind for e in record.entries] == [
        "action", "action", "action", "violation", "doubt", "action", "confirm",
        "correction", "action", "claim", "note"]
