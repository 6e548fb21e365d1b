"""Editions: which deck, hand, names and rules a match is played with, as one value.

Battle Line (GMT), Battle Line Médiéval and Schotten Totten (IELLO) are three `Edition`s.
The first two play by the same rules (contract 1 `edition` `"battle-line"`); Schotten
Totten's Clan cards run 1-9, its Spy is a 7 where Companion Cavalry is an 8, hands hold 6
cards and its Recruiter puts cards back under the decks (RULES.md, docs/editions.md, D21-D25).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import (BATTLE_LINE_TACTICS, BY_CODE, COLOURS, SCHOTTEN_TACTICS, Card, Naming)
from .errors import NotationError

EditionKey = Literal["battle-line", "battle-line-medieval", "schotten-totten"]
Rules = Literal["battle-line", "schotten-totten"]
ClaimTiming = Literal["standard", "advanced"]


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition of the game: deck, values, hand size, names, default claim timing.

    `key` names the edition in settings and match records; `rules` is the contract 1
    `edition` (the two Battle Line editions differ only in names).  `namings` gives the
    naming set of each language (`en`, `fr`); words holds the edition's words for the things
    a sentence names (a flag or a stone, Troop or Clan cards).
    """

    key: EditionKey
    rules: Rules
    title: str
    max_value: int
    tactic_codes: tuple[str, ...]
    hand_size: int
    naming_en: Naming
    naming_fr: Naming
    claim_timing: ClaimTiming = "standard"
    returns_under: bool = False
    """Scout/Recruiter: cards put back go under their decks (True) or on top (False)."""

    @property
    def values(self) -> range:
        return range(1, self.max_value + 1)

    @property
    def value_mask(self) -> int:
        """Bit v set for each value v of the edition's Troop/Clan cards."""
        return sum(1 << v for v in self.values)

    @property
    def troops(self) -> tuple[Card, ...]:
        """The edition's Troop (Clan) cards, colour by colour, values rising."""
        return _TROOPS[self.max_value]

    @property
    def tactics(self) -> tuple[Card, ...]:
        return tuple(BY_CODE[code] for code in self.tactic_codes)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.troops + self.tactics

    def has(self, card: Card) -> bool:
        """Whether the card is in this edition's deck."""
        return card in _DECKS[self.key]

    def naming(self, lang: str = "en") -> Naming:
        """The naming set of `lang` (`en` or `fr`)."""
        return self.naming_fr if lang == "fr" else self.naming_en

    def owns_naming(self, naming: str) -> bool:
        return naming in _NAMINGS_OF[self.rules]

    def word(self, key: str, lang: str = "en") -> str:
        """The edition's word for `flag`, `flags`, `Flag` or `troop` (`stone`, `Clan`...)."""
        return _WORDS[self.rules][lang][key]

    def refuse(self, card: Card) -> str:
        """Why `card` is not in this deck, as the end of a sentence."""
        if card.is_troop and (card.value or 0) > self.max_value:
            return (f"{card} is not a {self.title} card: its {self.word('troop')} cards run "
                    f"1 to {self.max_value}")
        return f"{card} is not a {self.title} card"

    def __str__(self) -> str:
        return self.key


BATTLE_LINE = Edition("battle-line", "battle-line", "Battle Line", 10, BATTLE_LINE_TACTICS,
                      7, "gmt-en", "gmt-fr")
MEDIEVAL = Edition("battle-line-medieval", "battle-line", "Battle Line Médiéval", 10,
                   BATTLE_LINE_TACTICS, 7, "gmt-en", "medieval-fr")
SCHOTTEN_TOTTEN = Edition("schotten-totten", "schotten-totten", "Schotten Totten", 9,
                          SCHOTTEN_TACTICS, 6, "schotten-en", "schotten-fr", returns_under=True)

EDITIONS: dict[str, Edition] = {e.key: e for e in (BATTLE_LINE, MEDIEVAL, SCHOTTEN_TOTTEN)}
EDITION_KEYS: tuple[str, ...] = tuple(EDITIONS)
RULES: tuple[Rules, ...] = ("battle-line", "schotten-totten")
"""The contract 1 `edition` values."""

_TROOPS: dict[int, tuple[Card, ...]] = {
    top: tuple(BY_CODE[f"{c}{v}"] for c in COLOURS for v in range(1, top + 1)) for top in (9, 10)}
_DECKS: dict[str, frozenset[Card]] = {e.key: frozenset(e.cards) for e in EDITIONS.values()}
_NAMINGS_OF: dict[str, tuple[str, ...]] = {
    "battle-line": ("gmt-en", "gmt-fr", "medieval-fr"),
    "schotten-totten": ("schotten-en", "schotten-fr"),
}
_WORDS: dict[str, dict[str, dict[str, str]]] = {
    "battle-line": {
        "en": {"flag": "flag", "flags": "flags", "Flag": "Flag", "troop": "Troop"},
        "fr": {"flag": "drapeau", "flags": "drapeaux", "Flag": "Drapeau", "troop": "Troupes"},
    },
    "schotten-totten": {
        "en": {"flag": "stone", "flags": "stones", "Flag": "Stone", "troop": "Clan"},
        "fr": {"flag": "borne", "flags": "bornes", "Flag": "Borne", "troop": "Clan"},
    },
}


def edition(key: object) -> Edition:
    """The edition named `key` (`battle-line`, `battle-line-medieval`, `schotten-totten`)."""
    found = EDITIONS.get(key) if isinstance(key, str) else None
    if found is None:
        raise NotationError(f"unknown edition {key!r}: use {', '.join(EDITION_KEYS)}")
    return found


def of_rules(rules: object) -> Edition:
    """The edition of a contract 1 `edition` value (`battle-line` or `schotten-totten`)."""
    if rules == "battle-line":
        return BATTLE_LINE
    if rules == "schotten-totten":
        return SCHOTTEN_TOTTEN
    raise NotationError(f"unknown edition {rules!r}: use 'battle-line' or 'schotten-totten'")


def of_naming(naming: str) -> Edition:
    """The edition a naming set belongs to (`medieval-fr` -> Médiéval)."""
    if naming == "medieval-fr":
        return MEDIEVAL
    if naming in _NAMINGS_OF["schotten-totten"]:
        return SCHOTTEN_TOTTEN
    return BATTLE_LINE


__all__ = ["BATTLE_LINE", "EDITIONS", "EDITION_KEYS", "MEDIEVAL", "RULES", "SCHOTTEN_TOTTEN",
           "Edition", "EditionKey", "Rules", "edition", "of_naming", "of_rules"]
