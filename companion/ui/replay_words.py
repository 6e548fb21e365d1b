"""What a replayed flag says (a replayed move's words: `words.action_sentence`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .strings import tr

if TYPE_CHECKING:
    from companion.referee.display import FlagView


def flag_text(app: Any, flag: FlagView, u: float) -> str:
    """What a replayed flag says: its number, Fog/Mud, and for a claimed flag the side that
    holds it and the player's name (readable without telling red from green)."""
    lines = [f"[size={int(20 * u)}]{flag.number}[/size]"]
    if flag.env:
        lines.append(" ".join(tr("fog" if c.code == "FOG" else "mud", app.lang,
                                 app.replay_edition)
                              for c in flag.env))
    if flag.claimed:
        side = tr(f"side.{flag.claimed}", app.lang)
        name = app.replay_name(flag.claimed)
        lines.append(f"[b]{side}[/b]")
        if name != side:
            lines.append(name if len(name) <= 8 else name[:7] + "…")
    return "\n".join(lines)
