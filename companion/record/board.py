"""A compact text board: the nine flags in columns, north's cards above, south's below.

Used by `companion matches replay` and reusable by anything that prints a table (the demo).
Each side's cards are stacked from the flag outwards in placement order, as on the table:
north's first card sits just above the flag row, south's just below.  The flag row shows
`3` for an open flag and `3:N` / `3:S` for a flag held by north or south; the row below it
shows the environment (`FOG`, `MUD`, `F+M`).
"""

from __future__ import annotations

from companion.rules.cards import Card
from companion.rules.position import FLAG_COUNT, SIDES, Position
from companion.rules.state import GameState

CELL = 7
_SHORT = {"ALEXANDER": "ALEX"}  # the one code wider than a column


def _row(label: str, cells: list[str]) -> str:
    line = f"{label:<6}" + "".join(c.center(CELL) for c in cells)
    return line.rstrip()


def _code(card: Card) -> str:
    return _SHORT.get(card.code, card.code)


def render_position(position: Position, *, north: str = "north", south: str = "south",
                    discards: bool = True) -> str:
    """The board of a contract 1 position as lines of text (no trailing newline)."""
    flags = position.flags
    lines = [_row("", [str(n) for n in range(1, FLAG_COUNT + 1)])]
    height_n = max([len(f.north) for f in flags] + [1])
    for r in range(height_n):
        cells = []
        for f in flags:
            i = height_n - 1 - r  # the first card is nearest the flag, i.e. lowest
            cells.append(_code(f.north[i]) if i < len(f.north) else "")
        lines.append(_row(north[:6] if r == 0 else "", cells))
    lines.append(_row("flag", [
        str(n) if f.claimed is None else f"{n}:{f.claimed[0].upper()}"
        for n, f in enumerate(flags, start=1)]))
    env = ["F+M" if f.fog and f.mud else "FOG" if f.fog else "MUD" if f.mud else ""
           for f in flags]
    if any(env):
        lines.append(_row("env", env))
    height_s = max([len(f.south) for f in flags] + [1])
    for r in range(height_s):
        cells = [_code(f.south[r]) if r < len(f.south) else "" for f in flags]
        lines.append(_row(south[:6] if r == 0 else "", cells))
    if discards and position.discards:
        lines.append("discards: " + " ".join(c.code for c in position.discards))
    return "\n".join(lines)


def render_state(state: GameState, *, north: str = "north", south: str = "south") -> str:
    """The board of a game state, with each side's off-line cards and whose turn it is."""
    lines = [render_position(state.position(), north=north, south=south, discards=False)]
    for side in SIDES:
        off = state.offline(side)
        if off:
            lines.append(f"off the line, {side}: " + " ".join(c.code for c in off))
    if state.outcome is not None:
        winner = state.outcome.winner
        lines.append(f"game over: {winner} wins by {state.outcome.termination}" if winner
                     else "game over: exhausted")
    else:
        lines.append(f"turn {state.turn}: {state.to_move} to {state.phase}")
    return "\n".join(lines)
