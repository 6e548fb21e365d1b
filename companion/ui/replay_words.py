"""Words for the replay: a recorded move in the screen's language with the edition's card
names (`Ada plays red 8 at flag 3`: players read moves, not the notation), and what a
replayed flag says."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.actions import (Action, Claim, Deserter, Draw, Pass, Play, Redeploy, Scout,
                                     Traitor)
from companion.rules.cards import BY_CODE, Card

from companion.rules.edition import Edition

from .strings import tr
from .strings import tr as _tr

if TYPE_CHECKING:
    from companion.referee.display import FlagView


def describe(action: Action, lang: str, naming: str, name: str,
             edition: Edition | None = None) -> str:
    """`action` as a sentence in the words of `edition`; `name` is the name of the player
    who made it."""
    def tr(key: str, lang: str, **values: Any) -> str:
        return _tr(key, lang, edition, **values)

    def card(c: Card) -> str:
        return c.name(naming)  # type: ignore[arg-type]

    def guile(code: str) -> str:
        return card(BY_CODE[code])

    match action:
        case Play():
            key = "move.env" if action.card.family == "environment" else "move.play"
            return tr(key, lang, name=name, card=card(action.card), flag=action.flag)
        case Scout():
            return tr("move.scout", lang, name=name, guile=guile("SCOUT"))
        case Redeploy():
            if action.to_flag is None:
                return tr("move.redeploy_discard", lang, name=name, guile=guile("REDEPLOY"),
                          card=card(action.card), from_flag=action.from_flag)
            return tr("move.redeploy", lang, name=name, guile=guile("REDEPLOY"),
                      card=card(action.card), from_flag=action.from_flag,
                      to_flag=action.to_flag)
        case Deserter():
            return tr("move.deserter", lang, name=name, guile=guile("DESERTER"),
                      card=card(action.card), flag=action.flag)
        case Traitor():
            return tr("move.traitor", lang, name=name, guile=guile("TRAITOR"),
                      card=card(action.card), from_flag=action.from_flag,
                      to_flag=action.to_flag)
        case Claim():
            return tr("move.claim", lang, name=name, flag=action.flag)
        case Pass():
            return tr("move.pass", lang, name=name)
        case Draw():
            return tr("move.draw", lang, name=name)
    return tr("move.other", lang, name=name)


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
