"""What the table screen says in words: the last action, the places, and the status line
that always tells what the companion is waiting for (no Kivy here: the tests call it as is).

Nothing here decides: the words follow the referee's `Display` and the session's `Status`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.appliance.status import Status
from companion.referee.display import Display, Problem
from companion.rules.actions import Claim, Deserter, Draw, Pass, Play, Redeploy, Scout, Traitor
from companion.rules.cards import Card, Naming
from companion.rules.edition import Edition
from companion.rules.place import Place

from .strings import tr
from .strings import tr as _tr

Names = Mapping[str, str]


def card_naming(naming: str, lang: str) -> Naming:
    """The card names a screen in `lang` uses: a French table never shows the English names
    (GMT's English edition becomes its French one); an English table keeps the choice."""
    if lang == "fr" and naming == "gmt-en":
        return "gmt-fr"   # the English names of the edition on a French table: its French ones
    return naming  # type: ignore[return-value]


def to_name(side: str, lang: str, names: Names) -> str:
    """`à` + a player's name, with the French contraction for the default names ("au Sud")."""
    name = names.get(side, side)
    if lang == "fr":
        if name in (tr("side.north", "fr"), tr("side.south", "fr")):
            return f"au {name}"
        return f"à {name}"
    return f"to {name}"


def place_words(place: Place, lang: str, names: Names, edition: Edition | None = None) -> str:
    """`flag 4, North's side` / `drapeau 4, côté Nord` (`borne 4` in Schotten Totten); off
    the line likewise."""
    who = names.get(place.side, place.side)
    if place.offline:
        return tr("place.offline", lang, edition, name=who)
    return tr("place.flag", lang, edition, n=place.flag, name=who)


def action_words(action: Any, lang: str, naming: Naming, names: Names,
                 edition: Edition | None = None) -> str:
    """A committed action in words, past tense: `North played blue 7 at flag 3`."""
    return action_sentence(action, lang, naming, names.get(getattr(action, "player", ""), ""),
                           edition, past=True)


def action_sentence(action: Any, lang: str, naming: Naming, name: str,
                    edition: Edition | None = None, past: bool = False) -> str:
    """An action as a sentence in the words of `edition`, done by the player called `name`:
    in the past for the table's last move (`act.*`: "North played blue 7 at flag 3"), in the
    present for a replayed one (`move.*`: "Ada plays red 8 at flag 3")."""
    t = "act" if past else "move"

    def card(c: Card | str) -> str:
        return (c if isinstance(c, Card) else Card(c)).name(naming)

    def say(key: str, **values: Any) -> str:
        # Both tenses' sentences name the same things (some by other placeholders).
        tactic = values.get("tactic")
        return _tr(key, lang, edition, name=name, guile=tactic, **values)

    match action:
        case Play():
            key = f"{t}.play"
            if not past and action.card.family == "environment":
                key = "move.env"
            return say(key, card=card(action.card), n=action.flag, flag=action.flag)
        case Scout():
            return say(f"{t}.guile" if past else "move.scout", card=card("SCOUT"),
                       tactic=card("SCOUT"))
        case Redeploy():
            key = f"{t}.redeploy_discard" if action.to_flag is None else f"{t}.redeploy"
            return say(key, tactic=card("REDEPLOY"), card=card(action.card),
                       a=action.from_flag, from_flag=action.from_flag, b=action.to_flag,
                       to_flag=action.to_flag)
        case Deserter():
            return say(f"{t}.deserter", tactic=card("DESERTER"), card=card(action.card),
                       n=action.flag, flag=action.flag)
        case Traitor():
            return say(f"{t}.traitor", tactic=card("TRAITOR"), card=card(action.card),
                       a=action.from_flag, from_flag=action.from_flag, b=action.to_flag,
                       to_flag=action.to_flag)
        case Claim():
            return say(f"{t}.claim", n=action.flag, flag=action.flag)
        case Pass():
            return say(f"{t}.pass")
        case Draw():
            if not past:
                return say("move.draw")
            return say("act.draw_none" if action.deck is None else f"act.draw_{action.deck}")
    return say(f"{t}.other")


def last_action_line(view: Display, lang: str, naming: Naming, names: Names,
                     edition: Edition | None = None) -> str:
    if not view.moves:
        return ""
    return tr("last", lang, what=action_words(view.moves[-1], lang, naming, names, edition))


def status_line(view: Display, status: Status, lang: str, naming: Naming, names: Names,
                problem: str = "", edition: Edition | None = None) -> str:
    """What the companion waits for now, first things first: the camera, a deck, hands over
    the table, the tiles, a player's answer, a light that hides the colours, glare over the
    flags, a card; never empty while a game is on.

    `problem` is the first open problem in words (the referee's sentence in `lang`).
    """
    if status.waiting is not None:
        return tr("wait.camera_lost", lang)
    if status.frames == 0 and not status.ended:
        return tr("wait.camera", lang)
    if not status.deck:
        return tr("wait.deck", lang)
    if view.mode == "match-over" or (view.winner is not None and view.mode != "round-over"):
        if view.winner is not None:
            return tr("wait.match_over", lang, name=names.get(view.winner, ""))
    if view.mode == "round-over":
        return tr("wait.next_round", lang, name=names.get(view.winner or "", ""))
    if status.moving:
        return tr("wait.hands", lang)
    if status.unreadable:
        return tr("wait.tiles", lang, edition)
    if view.problems:
        first: Problem = view.problems[0]
        key = "wait.answer" if first.kind == "doubt" else "wait.fix"
        if status.cast and first.kind == "doubt" and view.in_game:
            key = "wait.answer_cast"   # why every Troop card asks: the light, not the cards
        return tr(key, lang, what=problem)
    if view.waiting:
        return tr("wait.guile", lang, what=problem)
    if view.mode == "holding":
        return tr("wait.restore", lang)
    if status.cast and view.in_game:
        return tr("wait.cast", lang)
    if status.glare and view.in_game:
        if len(status.glare) == 1:
            return tr("wait.glare", lang, edition, flag=status.glare[0])
        return tr("wait.glare_many", lang, edition,
                  flags=", ".join(str(n) for n in status.glare))
    if status.ended:
        return tr("status.source_ended", lang)
    if view.to_play is not None and view.in_game:
        if view.to_play != view.to_move:
            return tr("wait.card_claim", lang, name=names.get(view.to_play or "", ""),
                      claimer=names.get(view.to_move or "", ""))
        return tr("wait.card", lang, name=names.get(view.to_play, ""))
    return tr("status.waiting", lang)


__all__ = ["action_words", "card_naming", "last_action_line", "place_words", "status_line",
           "to_name"]
