"""Proof texts for claim verdicts, in English and French, in any of the five naming sets.

The text names real cards and says why: the two formations when both sides are complete,
the unseen cards that would beat the claimant, or the cards on the table that make every
stronger formation impossible.  A Schotten Totten position speaks of stones, Clan cards and
combinations (its own words, `_T_ST`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import COLOURS, NAMINGS, Card, Naming, category_name, colour_name
from .errors import PositionError
from .formation import (WILD_VALUES, Formation, Pool, assign_wilds, best_battalion,
                        cv_of, troop_of)
from .position import SIDES, Position, other

if TYPE_CHECKING:
    from .prover import ClaimVerdict

LANGS = ("en", "fr")
_FEW_UNSEEN = 8  # at most this many unseen Troops: the proof simply lists them
_MAX_TARGETS = 3  # stronger formations spelt out one by one on a line; the rest are counted

# The phrasebook: one entry per sentence, English and French.
_T: dict[str, dict[str, str]] = {
    "north": {"en": "North", "fr": "Nord"},
    "south": {"en": "South", "fr": "Sud"},
    # A side as a sentence names it: French puts the article ("le Nord", "par le Sud").
    "the.north": {"en": "North", "fr": "le Nord"},
    "the.south": {"en": "South", "fr": "le Sud"},
    "and": {"en": " and ", "fr": " et "},
    "as": {"en": " as ", "fr": " comme "},
    "colon": {"en": ": ", "fr": " : "},
    "at": {"en": "flag {n}, {side}", "fr": "drapeau {n}, {side}"},
    "discards": {"en": "discards", "fr": "défausse"},
    "claimed": {"en": "Flag {n} is already claimed by {owner}: a claim is final.",
                "fr": "Le drapeau {n} est déjà pris par {owner} : une revendication est définitive."},
    "incomplete": {"en": "{Me} has {have} cards at flag {n}; a claim needs a complete formation of {need}{mud}.",
                   "fr": "{Me} n'a que {have} cartes au drapeau {n} ; une revendication exige une "
                         "formation complète de {need}{mud}."},
    "incomplete.0": {"en": "{Me} has no card at flag {n}; a claim needs a complete formation of "
                           "{need}{mud}.",
                     "fr": "{Me} n'a aucune carte au drapeau {n} ; une revendication exige une "
                           "formation complète de {need}{mud}."},
    "incomplete.1": {"en": "{Me} has 1 card at flag {n}; a claim needs a complete formation of "
                           "{need}{mud}.",
                     "fr": "{Me} n'a qu'une carte au drapeau {n} ; une revendication exige une "
                           "formation complète de {need}{mud}."},
    "mud": {"en": " (Mud)", "fr": " (Boue)"},
    "fog": {"en": "Fog: only the sums count (D3).", "fr": "Brouillard : seules les sommes comptent (D3)."},
    "stronger": {"en": "{Who} is stronger: {why}.", "fr": "{Who} est plus fort : {why}."},
    "same-cat": {"en": "same category, {a} against {b}", "fr": "même catégorie, {a} contre {b}"},
    "sum-vs": {"en": "{a} against {b}", "fr": "{a} contre {b}"},
    "tie": {"en": "A tie: {first} completed their formation first and takes the flag; the player "
                  "who played the last card loses (D11).",
            "fr": "Égalité : {first} a complété sa formation en premier et prend le drapeau ; "
                  "le joueur qui a posé la dernière carte perd (D11)."},
    "cannot-complete": {"en": "{Them} still needs {need} but {left} not on the table: {them} can "
                              "never complete (D10).",
                        "fr": "{Them} doit encore poser {need} mais {left} hors de la table : "
                              "{them} ne peut plus compléter (D10)."},
    # {need}: how many cards a side still has to lay, said in words with their number.
    "need.1": {"en": "1 card", "fr": "une carte"},
    "need.n": {"en": "{n} cards", "fr": "{n} cartes"},
    # {left}: how many Troop (Clan) cards are still off the table, as a clause.
    "left.0": {"en": "no {troop} card is", "fr": "il ne reste aucune carte {troop}"},
    "left.1": {"en": "only 1 {troop} card is", "fr": "il ne reste qu'une carte {troop}"},
    "left.n": {"en": "only {n} {troop} cards are", "fr": "il ne reste que {n} cartes {troop}"},
    "can-beat": {"en": "{Them} can still play {added} (not on the table) and make {formation}, "
                       "which beats {me}.",
                 "fr": "{Them} peut encore jouer {added} (pas sur la table) et faire {formation}, "
                       "qui bat {me}."},
    "best-tie": {"en": "At best {them} can make {formation}: a tie, which {them} would lose by "
                       "playing the last card (D9).",
                 "fr": "Au mieux, {them} peut faire {formation} : une égalité, que {them} perdrait "
                       "en posant la dernière carte (D9)."},
    "best-less": {"en": "At best {them} can make {formation}, which does not beat {me}.",
                  "fr": "Au mieux, {them} peut faire {formation}, qui ne bat pas {me}."},
    "no-cat-own": {"en": "No {cat}: {cards} {why}.",
                   "fr": "Pas {de}{cat} : {cards} {why}."},
    "own-colours": {"en": "are not of one colour", "fr": "ne sont pas d'une seule couleur"},
    "own-values": {"en": "are not of one value", "fr": "n'ont pas la même valeur"},
    "own-apart": {"en": "cannot fit in one run of values", "fr": "ne tiennent pas dans une suite de valeurs"},
    "no-cat": {"en": "No {cat} {above}: {why}.", "fr": "Pas {de}{cat} {above} : {why}."},
    "sep": {"en": "; ", "fr": " ; "},
    "above": {"en": "above {s}", "fr": "au-dessus de {s}"},
    "any": {"en": "at all", "fr": "du tout"},
    "needs": {"en": "{target} needs {cards}", "fr": "{target} exige {cards}"},
    "more": {"en": "{count} more, each short of a card on the table",
             "fr": "{count} autres, à chacune il manque une carte posée sur la table"},
    "misfit": {"en": "{wilds} cannot stand in it", "fr": "{wilds} ne peut pas y prendre place"},
    "wild-short": {"en": " ({wilds} cannot fill every gap)",
                   "fr": " ({wilds} ne peut pas combler tous les vides)"},
    "phalanx-short": {"en": "{x}s: {k} more needed, {u} left off the table",
                      "fr": "des {x} : il en faut {k} de plus, {u} hors de la table"},
    "battalion-none": {"en": "{colour}: {k} more needed, {u} left off the table",
                       "fr": "{colour} : il en faut {k} de plus, {u} hors de la table"},
    "battalion-max": {"en": "{colour} reaches {s} at most ({cards} on the table)",
                      "fr": "{colour} atteint {s} au plus ({cards} sur la table)"},
    "value-gone": {"en": "every {x} is on the table", "fr": "tous les {x} sont sur la table"},
    "or": {"en": " and ", "fr": " et "},
    "host-max": {"en": "the best cards left give {s} at most", "fr": "les meilleures cartes restantes donnent {s} au plus"},
    "few-left": {"en": "Only {count} {troop} cards are not on the table: {cards}; {them} cannot do "
                       "better with them.",
                 "fr": "Il ne reste que {count} cartes {troop} hors de la table : {cards} ; {them} "
                       "ne peut pas faire mieux avec elles."},
    "few-left.1": {"en": "Only 1 {troop} card is not on the table: {cards}; {them} cannot do "
                         "better with it.",
                   "fr": "Il ne reste qu'une carte {troop} hors de la table : {cards} ; {them} "
                         "ne peut pas faire mieux avec elle."},
    "few-left.0": {"en": "No {troop} card is left off the table; {them} cannot do better.",
                   "fr": "Il ne reste aucune carte {troop} hors de la table ; {them} ne peut pas "
                         "faire mieux."},
    "troop": {"en": "Troop", "fr": "Troupes"},
    "troop.1": {"en": "Troop", "fr": "Troupe"},
    "seen-high": {"en": "The higher cards are on the table: {cards}.",
                  "fr": "Les cartes plus fortes sont sur la table : {cards}."},
}


# Schotten Totten's own words where a sentence names stones, Clan cards or combinations.
_T_ST: dict[str, dict[str, str]] = {
    "at": {"en": "stone {n}, {side}", "fr": "borne {n}, {side}"},
    "claimed": {"en": "Stone {n} is already claimed by {owner}: a claim is final.",
                "fr": "La borne {n} est déjà prise par {owner} : une revendication est définitive."},
    "incomplete": {"en": "{Me} has {have} cards at stone {n}; a claim needs a complete combination "
                         "of {need}{mud}.",
                   "fr": "{Me} n'a que {have} cartes à la borne {n} ; une revendication exige une "
                         "combinaison complète de {need}{mud}."},
    "incomplete.0": {"en": "{Me} has no card at stone {n}; a claim needs a complete combination "
                           "of {need}{mud}.",
                     "fr": "{Me} n'a aucune carte à la borne {n} ; une revendication exige une "
                           "combinaison complète de {need}{mud}."},
    "incomplete.1": {"en": "{Me} has 1 card at stone {n}; a claim needs a complete combination "
                           "of {need}{mud}.",
                     "fr": "{Me} n'a qu'une carte à la borne {n} ; une revendication exige une "
                           "combinaison complète de {need}{mud}."},
    "mud": {"en": " (Mud Fight)", "fr": " (Combat de Boue)"},
    "fog": {"en": "Blind-Man's Bluff: only the sums count (D3).",
            "fr": "Colin-Maillard : seules les sommes comptent (D3)."},
    "tie": {"en": "A tie: {first} completed their combination first and takes the stone; the "
                  "player who played the last card loses (D11).",
            "fr": "Égalité : {first} a complété sa combinaison en premier et prend la borne ; "
                  "le joueur qui a posé la dernière carte perd (D11)."},
    "troop": {"en": "Clan", "fr": "Clan"},
    "troop.1": {"en": "Clan", "fr": "Clan"},
}


def _t(key: str, lang: str, st: bool = False, /, **kw: object) -> str:
    table = _T_ST if st and key in _T_ST else _T
    return table[key][lang].format(**kw)


def _side(side: str, lang: str) -> dict[str, str]:
    """A side as a sentence names it, for `{me}`/`{Me}` and the like: "le Nord" in the
    middle of a French sentence, "Le Nord" at its start; "North" in English."""
    text = _t("the." + side, lang)
    return {"lower": text, "upper": text[:1].upper() + text[1:]}


def _count_words(need: int, left: int, lang: str, st: bool) -> tuple[str, str]:
    """`{need}` and `{left}` of `cannot-complete`, singular or plural as the numbers say."""
    needs = _t("need.1", lang) if need == 1 else _t("need.n", lang, n=need)
    troop = _t("troop.1" if left <= 1 else "troop", lang, st)
    key = "left.0" if left == 0 else ("left.1" if left == 1 else "left.n")
    return needs, _t(key, lang, n=left, troop=troop)


def check_options(lang: str, naming: str, position: Position | None = None) -> None:
    if lang not in LANGS:
        raise PositionError(f"unknown proof language {lang!r}: use 'en' or 'fr'")
    if naming not in NAMINGS:
        raise PositionError(f"unknown naming {naming!r}: use {', '.join(NAMINGS)}")
    if position is not None and not position.edition.owns_naming(naming):
        edition = position.edition
        raise PositionError(f"naming {naming!r} is not one of {edition.title}: use "
                            f"{edition.naming('en')} or {edition.naming('fr')}")


def card_list(cards: Sequence[Card], naming: Naming, lang: str) -> str:
    names = [c.name(naming) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + _t("and", lang) + names[-1]


def formation_text(f: Formation, naming: Naming, lang: str) -> str:
    """`Wedge 8-9-10 (27): blue 8, blue 9, Leader (Alexander) as blue 10`."""
    parts = []
    for card in f.cards:
        stands = f.assignments.get(card)
        parts.append(card.name(naming) if stands is None
                     else card.name(naming) + _t("as", lang) + stands.name(naming))
    parts.extend("+" + card.name(naming) for card in f.added)
    return f.describe(naming, lang) + _t("colon", lang) + ", ".join(parts)


def proof_text(v: ClaimVerdict, lang: str = "en", naming: Naming = "gmt-en") -> str:
    """The proof of a verdict; see `ClaimVerdict.proof`."""
    check_options(lang, naming, v.position)
    st = v.position.edition.rules == "schotten-totten"
    # `me`/`them` head a formation's line ("Nord : ..."); in a sentence a side is `Me`/`me`.
    me, them = _t(v.player, lang), _t(other(v.player), lang)
    mine, theirs = _side(v.player, lang), _side(other(v.player), lang)
    said = {"me": mine["lower"], "Me": mine["upper"], "them": theirs["lower"],
            "Them": theirs["upper"]}
    n = v.flag
    f = v.position.flag(n)
    if v.reason == "claimed":
        return _t("claimed", lang, st, n=n, owner=_side(f.claimed or v.player, lang)["lower"])
    if v.reason == "incomplete":
        have = len(f.side(v.player))
        key = "incomplete" if have > 1 else f"incomplete.{have}"
        return _t(key, lang, st, **said, have=have, n=n, need=f.size,
                  mud=_t("mud", lang, st) if f.mud else "")
    assert v.claimant is not None
    lines = [me + _t("colon", lang) + formation_text(v.claimant, naming, lang) + "."]
    if f.fog:
        lines.append(_t("fog", lang, st))
    if v.reason in ("stronger", "weaker", "tie-first", "tie-later"):
        assert v.opponent is not None
        lines.append(them + _t("colon", lang) + formation_text(v.opponent, naming, lang) + ".")
        lines.append(_compare(v, lang, naming))
    elif v.reason == "cannot-complete":
        need = f.size - len(f.side(other(v.player)))
        left = sum(1 for c in v.position.edition.troops if c not in v.position.face_up())
        needs, lefts = _count_words(need, left, lang, st)
        lines.append(_t("cannot-complete", lang, st, **said, need=needs, left=lefts))
    elif v.reason == "can-beat":
        assert v.opponent is not None
        lines.append(_t("can-beat", lang, **said, added=card_list(v.opponent.added, naming, lang),
                        formation=formation_text(v.opponent, naming, lang)))
    else:
        assert v.opponent is not None
        key = "best-tie" if v.opponent.key == v.claimant.key else "best-less"
        lines.append(_t(key, lang, **said, formation=formation_text(v.opponent, naming, lang)))
        lines.extend(blocker_lines(v, lang, naming))
    return "\n".join(lines)


def _compare(v: ClaimVerdict, lang: str, naming: Naming) -> str:
    assert v.claimant is not None and v.opponent is not None
    a, b = v.claimant, v.opponent
    if v.reason in ("tie-first", "tie-later"):
        first = v.player if v.reason == "tie-first" else other(v.player)
        return _t("tie", lang, v.position.edition.rules == "schotten-totten",
                  first=_side(first, lang)["lower"])
    win, lose = (a, b) if v.reason == "stronger" else (b, a)
    if win.rank != lose.rank:
        why = f"{category_name(win.category, naming)} > {category_name(lose.category, naming)}"
    elif win.rank == 0:
        why = _t("sum-vs", lang, a=win.sum, b=lose.sum)
    else:
        why = _t("same-cat", lang, a=win.sum, b=lose.sum)
    who = v.player if v.reason == "stronger" else other(v.player)
    return _t("stronger", lang, Who=_side(who, lang)["upper"], why=why)


# -- why no stronger formation is left to the opponent --------------------------------------
def _places(position: Position, lang: str) -> dict[Card, str]:
    where: dict[Card, str] = {c: _t("discards", lang) for c in position.discards}
    st = position.edition.rules == "schotten-totten"
    for n, f in enumerate(position.flags, start=1):
        for owner in SIDES:
            for c in f.side(owner):
                where[c] = _t("at", lang, st, n=n, side=_t(owner, lang))
    return where


def _located(cards: Sequence[Card], where: dict[Card, str], naming: Naming, lang: str) -> str:
    """`blue 7 (flag 2, North) and blue 10 (discards)`; places left out when the list is long."""
    if len(cards) > 3:
        return card_list(cards, naming, lang)
    names = [f"{c.name(naming)} ({where[c]})" if c in where else c.name(naming) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + _t("and", lang) + names[-1]


def blocker_lines(v: ClaimVerdict, lang: str, naming: Naming) -> list[str]:
    """For each category that would beat the claimant, why the opponent cannot make it.

    Only called for `cannot-beat`: the opponent is incomplete and no stronger completion
    exists, so every line below names the cards on the table (or the opponent's own cards)
    that rule a stronger formation out.
    """
    assert v.claimant is not None
    position = v.position
    f = position.flag(v.flag)
    side = f.side(other(v.player))
    seen = position.face_up()
    edition = position.edition
    st = edition.rules == "schotten-totten"
    all_troops = edition.troops
    top = edition.max_value
    mask = edition.value_mask
    unseen = [c for c in all_troops if c not in seen]
    where = _places(position, lang)
    size = f.size
    k = size - len(side)
    troops = [cv_of(c) for c in side if c.is_troop]
    wilds = [c for c in side if not c.is_troop]
    doms = [WILD_VALUES[w] & mask for w in wilds]
    rank, s = v.claimant.key
    wild_note = _t("wild-short", lang, wilds=card_list(wilds, naming, lang)) if wilds else ""
    unseen_set = set(unseen)

    if len(unseen) <= _FEW_UNSEEN:
        # Late in the game the shortest proof is the list of what is left to play.
        ordered = sorted(unseen, key=lambda c: (c.value or 0, COLOURS.index(c.code[0])))
        count = len(unseen)
        key = "few-left" if count > 1 else f"few-left.{count}"
        return [_t(key, lang, st, count=count, cards=card_list(ordered, naming, lang),
                   them=_side(other(v.player), lang)["lower"],
                   troop=_t("troop.1" if count == 1 else "troop", lang, st))]

    if rank == 0:  # Fog: only a higher sum would beat; it is out of reach.
        best = v.opponent
        assert best is not None
        low = min((c.value or 0 for c in best.added), default=11)
        higher = [c for c in all_troops if c in seen and (c.value or 0) > low and c not in side]
        higher.sort(key=lambda c: -(c.value or 0))
        shown = card_list(higher[:8], naming, lang) + (f" (+{len(higher) - 8})" if len(higher) > 8 else "")
        return [_t("seen-high", lang, cards=shown)] if higher and k else []

    lines = []
    above = _t("above", lang, s=s)

    def no(cat: str, why: str, same_rank: bool) -> None:
        lines.append(_t("no-cat", lang, cat=category_name(cat, naming), de=_de(cat, naming, lang),
                        above=above if same_rank else _t("any", lang), why=why))

    def own(cat: str, why: str) -> None:
        lines.append(_t("no-cat-own", lang, cat=category_name(cat, naming), de=_de(cat, naming, lang),
                        cards=card_list(side, naming, lang), why=_t("own-" + why, lang)))

    # Wedge and Skirmish: every run of `size` values that fits the opponent's own cards.
    for cat, cat_rank in (("wedge", 5), ("skirmish", 2)):
        if cat_rank < rank:
            continue
        same = cat_rank == rank
        values = [x for _, x in troops]
        colours = sorted({c for c, _ in troops}) if troops else list(range(6))
        if cat == "skirmish":
            colours = [-1]  # any colour will do
        if cat == "wedge" and len({c for c, _ in troops}) > 1:
            own(cat, "colours")
            continue
        if len(set(values)) != len(values) or not _any_run(values, size, False, 0, top):
            own(cat, "apart")
            continue
        targets: list[str] = []
        extra = 0
        short = False  # some run lacks cards that are on the table
        for colour in colours:
            for start in range(top + 1 - size, 0, -1):
                run = range(start, start + size)
                if not set(values) <= set(run) or (same and sum(run) <= s):
                    continue
                need = [x for x in run if x not in values]
                if cat == "wedge":
                    gone = [x for x in need if troop_of(colour, x) not in unseen_set]
                else:
                    gone = [x for x in need if all(troop_of(c, x) not in unseen_set for c in range(6))]
                if assign_wilds(doms, need, sum(1 << x for x in gone)) is not None:
                    continue  # reachable: never so for a cannot-beat verdict
                if len(targets) >= _MAX_TARGETS:
                    extra += 1
                    continue
                label = (f"{colour_name(COLOURS[colour], naming)} " if colour >= 0 else "") + \
                    "-".join(map(str, run))
                short |= bool(gone)
                if not gone:  # every card is there to take, but the wildcards do not fit the run
                    targets.append(label + _t("colon", lang) + _t("misfit", lang, wilds=card_list(wilds, naming, lang)))
                elif cat == "wedge":
                    blocked = _located([troop_of(colour, x) for x in gone], where, naming, lang)
                    targets.append(_t("needs", lang, target=label, cards=blocked))
                else:
                    blocked = _t("value-gone", lang, x=_number_list(gone, lang))
                    targets.append(label + _t("colon", lang) + blocked)
        if targets:
            sep = _t("sep", lang)
            more = sep + _t("more", lang, count=extra) if extra else ""
            no(cat, sep.join(targets) + more + (wild_note if short else ""), same)

    # Phalanx: every value the opponent's cards allow (wildcards included).
    if rank <= 4:
        same = rank == 4
        distinct = {x for _, x in troops}
        candidates = [x for x in (sorted(distinct) if distinct else range(top, 0, -1))
                      if all(dom >> x & 1 for dom in doms)]
        if len(distinct) > 1 or not candidates:
            own("phalanx", "values")
        else:
            parts = []
            for x in candidates:
                if same and x * size <= s:
                    continue
                left = sum(1 for c in unseen if c.value == x)
                if left < k:
                    parts.append(_t("phalanx-short", lang, x=x, k=k, u=left))
            if parts:
                sep = _t("sep", lang)
                more = sep + _t("more", lang, count=len(parts) - _MAX_TARGETS) if len(parts) > _MAX_TARGETS else ""
                no("phalanx", sep.join(parts[:_MAX_TARGETS]) + more, same)

    # Battalion: the best of each colour the opponent's cards allow.
    if rank <= 3:
        same = rank == 3
        pool = Pool.of(unseen)
        colours_here = {c for c, _ in troops}
        if len(colours_here) > 1:
            own("battalion", "colours")
        else:
            parts = []
            for ci in (sorted(colours_here) if colours_here else range(6)):
                letter = COLOURS[ci]
                name = colour_name(letter, naming)
                found = best_battalion(side, pool, letter, f.mud, mask)
                if found is None:  # D1: wildcards never block a Battalion, so cards are short
                    left = sum(1 for c in unseen if c.colour == letter)
                    parts.append(_t("battalion-none", lang, colour=name, k=k, u=left))
                elif found.sum <= s:
                    low = min((c.value or 0 for c in found.added), default=11)
                    higher = [c for c in all_troops if c.colour == letter and c in seen
                              and (c.value or 0) > low and c not in side]
                    parts.append(_t("battalion-max", lang, colour=name, s=found.sum,
                                    cards=card_list(higher, naming, lang) or "-"))
            if parts:
                no("battalion", _t("sep", lang).join(parts), same)

    # Host: the best sum left.
    if rank == 1:
        no("host", _t("host-max", lang, s=_host_sum(side, unseen, k, mask)), True)
    return lines


def _de(cat: str, naming: Naming, lang: str) -> str:
    """French elision: `Pas d'Ordre`, `Pas de Pointe`."""
    return "d'" if category_name(cat, naming)[0] in "AEIOUÉ" else "de "  # Horde: h aspiré


def _number_list(values: Sequence[int], lang: str) -> str:
    """`8, 9 and 10`."""
    text = [str(x) for x in values]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + _t("or", lang) + text[-1]


def _any_run(values: Sequence[int], size: int, same: bool, s: int, top: int = 10) -> bool:
    return any(set(values) <= set(range(a, a + size)) and (not same or sum(range(a, a + size)) > s)
               for a in range(1, top + 2 - size))


def _host_sum(side: Sequence[Card], unseen: Sequence[Card], k: int, mask: int) -> int:
    wild_best = {w: (WILD_VALUES[w] & mask).bit_length() - 1 for w in WILD_VALUES}
    total = sum(c.value if c.value is not None else wild_best[c] for c in side)
    return total + sum(sorted((c.value or 0 for c in unseen), reverse=True)[:k])
