"""Proof texts for claim verdicts, in English and French, in any of the three naming sets.

The text names real cards and says why: the two formations when both sides are complete,
the unseen cards that would beat the claimant, or the cards on the table that make every
stronger formation impossible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import TROOPS, Card, Naming, category_name
from .errors import PositionError
from .formation import Formation
from .position import Side

if TYPE_CHECKING:
    from .prover import ClaimVerdict

_SIDE_NAMES = {"en": {"north": "North", "south": "South"},
               "fr": {"north": "Nord", "south": "Sud"}}


def side_name(side: Side, lang: str) -> str:
    return _SIDE_NAMES[lang][side]


def card_list(cards: tuple[Card, ...] | list[Card], naming: Naming, lang: str) -> str:
    names = [c.name(naming) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    joiner = " et " if lang == "fr" else " and "
    return ", ".join(names[:-1]) + joiner + names[-1]


def formation_text(f: Formation, naming: Naming, lang: str) -> str:
    """`Wedge 8-9-10 (27): blue 8, blue 9, Leader (Alexander) as blue 10`."""
    parts = []
    word = " comme " if lang == "fr" else " as "
    for card in f.cards:
        stands = f.assignments.get(card)
        parts.append(card.name(naming) if stands is None else card.name(naming) + word + stands.name(naming))
    for card in f.added:
        parts.append("+" + card.name(naming))
    return f"{f.describe(naming, lang)}: {', '.join(parts)}"


def proof_text(v: ClaimVerdict, lang: str = "en", naming: Naming = "gmt-en") -> str:
    """The proof of a verdict; see `ClaimVerdict.proof`."""
    if lang not in _SIDE_NAMES:
        raise PositionError(f"unknown proof language {lang!r}: use 'en' or 'fr'")
    if naming not in ("gmt-en", "gmt-fr", "medieval-fr"):
        raise PositionError(f"unknown naming {naming!r}: use gmt-en, gmt-fr or medieval-fr")
    fr = lang == "fr"
    me, them = side_name(v.player, lang), side_name(_other(v.player), lang)
    n = v.flag
    if v.reason == "claimed":
        f = v.position.flag(n)
        owner = side_name(f.claimed, lang) if f.claimed else "?"
        return (f"Le drapeau {n} est déjà pris par {owner} : une revendication est définitive."
                if fr else f"Flag {n} is already claimed by {owner}: a claim is final.")
    if v.reason == "incomplete":
        f = v.position.flag(n)
        have, need = len(f.side(v.player)), f.size
        mud = (" (Boue)" if fr else " (Mud)") if f.mud else ""
        return (f"{me} n'a que {have} carte(s) au drapeau {n} ; il en faut {need}{mud} pour le revendiquer."
                if fr else f"{me} has only {have} card(s) at flag {n}; a claim needs {need}{mud}.")
    assert v.claimant is not None
    mine = formation_text(v.claimant, naming, lang)
    lines = [f"{me} : {mine}." if fr else f"{me}: {mine}."]
    if v.reason in ("stronger", "weaker", "tie-first", "tie-later"):
        assert v.opponent is not None
        lines.append((f"{them} : " if fr else f"{them}: ") + formation_text(v.opponent, naming, lang) + ".")
        lines.append(_compare(v, fr, me, them, naming))
        return "\n".join(lines)
    if v.reason == "cannot-complete":
        f = v.position.flag(n)
        need = f.size - len(f.side(_other(v.player)))
        left = _unseen_count(v)
        lines.append(
            f"{them} doit encore poser {need} carte(s) mais il ne reste que {left} carte(s) Troupes "
            f"hors de la table : {them} ne peut pas compléter (D10)." if fr else
            f"{them} still needs {need} card(s) but only {left} Troop card(s) are not on the table: "
            f"{them} cannot complete (D10).")
        return "\n".join(lines)
    assert v.opponent is not None
    best = v.opponent
    added = card_list(list(best.added), naming, lang)
    if v.reason == "can-beat":
        lines.append(
            f"{them} peut encore jouer {added} (pas sur la table) et faire {formation_text(best, naming, lang)}, "
            f"qui bat {me}." if fr else
            f"{them} can still play {added} (not on the table) and make "
            f"{formation_text(best, naming, lang)}, which beats {me}.")
        return "\n".join(lines)
    tie = best.key == v.claimant.key
    lines.append(
        f"Au mieux, {them} peut faire {formation_text(best, naming, lang)}"
        + (", une égalité que {them} perdrait en jouant la dernière carte (D9)." if tie else
           ", qui ne bat pas {me}.").format(them=them, me=me)
        if fr else
        f"At best {them} can make {formation_text(best, naming, lang)}"
        + (", a tie that {them} would lose by playing the last card (D9)." if tie else
           ", which does not beat {me}.").format(them=them, me=me))
    lines.extend(blocker_lines(v, lang, naming))
    return "\n".join(lines)


def _other(side: Side) -> Side:
    return "south" if side == "north" else "north"


def _unseen_count(v: ClaimVerdict) -> int:
    seen = v.position.face_up()
    return sum(1 for c in TROOPS if c not in seen)


def _compare(v: ClaimVerdict, fr: bool, me: str, them: str, naming: Naming) -> str:
    assert v.claimant is not None and v.opponent is not None
    a, b = v.claimant, v.opponent
    if v.reason in ("stronger", "weaker"):
        win, lose = (a, b) if v.reason == "stronger" else (b, a)
        if win.rank != lose.rank:
            why = (f"{category_name(win.category, naming)} > {category_name(lose.category, naming)}")
        else:
            why = (f"même catégorie, {win.sum} contre {lose.sum}" if fr else
                   f"same category, {win.sum} against {lose.sum}")
        who = me if v.reason == "stronger" else them
        return (f"{who} est plus fort ({why})." if fr else f"{who} is stronger ({why}).")
    first = me if v.reason == "tie-first" else them
    return (f"Égalité : {first} a complété sa formation en premier et gagne le drapeau (D11)." if fr else
            f"A tie: {first} completed their formation first and wins the flag (D11).")


def blocker_lines(v: ClaimVerdict, lang: str, naming: Naming) -> list[str]:
    """Why each formation stronger than the claimant's is out of the opponent's reach."""
    return []
