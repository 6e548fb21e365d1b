"""Words for the replay: a recorded move in the screen's language with the edition's card
names (`Ada plays red 8 at flag 3`: players read moves, not the notation), and what a
replayed flag says."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.actions import Action
from companion.rules.edition import Edition

from .strings import tr
from .words import action_sentence

if TYPE_CHECKING:
    from companion.referee.display import FlagView


def describe(action: Action, lang: str, naming: str, name: str,
             edition: Edition | None = None) -> str:
    """`action` as a sentence in the words of `edition`; `name` is the name of the player
    who made it."""
    return action_sentence(action, lang, naming, name, edition)  # type: ignore[arg-type]


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
