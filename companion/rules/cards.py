"""Every card of the three editions, its code, and its names in the five naming sets.

A card is a small immutable value whose text is its code (`R8`, `ALEXANDER`); see RULES.md
"Components".  A code names a card's part in the rules, whatever the edition calls it: the
70 Battle Line cards, and `SPY`, the one Schotten Totten card that plays like none of them
(docs/editions.md).  Names come in five sets: `gmt-en`, `gmt-fr` and `medieval-fr` (Battle
Line), `schotten-en` and `schotten-fr` (Schotten Totten, IELLO).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import NotationError

COLOURS = "ROYGBP"
"""Troop colours in code order: red, orange, yellow, green, blue, purple."""

VALUES = range(1, 11)

Naming = Literal["gmt-en", "gmt-fr", "medieval-fr", "schotten-en", "schotten-fr"]
NAMINGS: tuple[Naming, ...] = ("gmt-en", "gmt-fr", "medieval-fr", "schotten-en", "schotten-fr")

Family = Literal["troop", "morale", "environment", "guile"]

# code -> (family, gmt-en, gmt-fr, medieval-fr, schotten-en, schotten-fr), from the tables
# in RULES.md and docs/editions.md.  Schotten Totten has no Companion Cavalry and Battle Line
# no Spy: those cells carry the other edition's name, never shown in a game of theirs.
_TACTICS: dict[str, tuple[Family, str, str, str, str, str]] = {
    "ALEXANDER": ("morale", "Leader (Alexander)", "Chef (Alexandre)", "Roi d'Angleterre",
                  "Joker", "Joker"),
    "DARIUS": ("morale", "Leader (Darius)", "Chef (Darius)", "Roi de France", "Joker", "Joker"),
    "CAVALRY": ("morale", "Companion Cavalry", "Renforts de Cavalerie", "Cavalerie mercenaire",
                "Companion Cavalry", "Renforts de Cavalerie"),
    "SPY": ("morale", "Spy", "Espion", "Espion", "Spy", "Espion"),
    "SHIELD": ("morale", "Shield Bearers", "Porteurs de boucliers", "Support troupes",
               "Shield-Bearer", "Porte-Bouclier"),
    "FOG": ("environment", "Fog", "Brouillard", "Brouillard", "Blind-Man's Bluff",
            "Colin-Maillard"),
    "MUD": ("environment", "Mud", "Boue", "Boue", "Mud Fight", "Combat de Boue"),
    "SCOUT": ("guile", "Scout", "Eclaireur", "Reconnaissance", "Recruiter", "Chasseur de Tête"),
    "REDEPLOY": ("guile", "Redeploy", "Redéploiement", "Redéploiement", "Strategist", "Stratège"),
    "DESERTER": ("guile", "Deserter", "Déserteur", "Désertion", "Banshee", "Banshee"),
    "TRAITOR": ("guile", "Traitor", "Traître", "Traîtrise", "Traitor", "Traître"),
}
BATTLE_LINE_TACTICS = ("ALEXANDER", "DARIUS", "CAVALRY", "SHIELD", "FOG", "MUD", "SCOUT",
                       "REDEPLOY", "DESERTER", "TRAITOR")
SCHOTTEN_TACTICS = ("ALEXANDER", "DARIUS", "SPY", "SHIELD", "FOG", "MUD", "SCOUT",
                    "REDEPLOY", "DESERTER", "TRAITOR")

# Schotten Totten's six clans share the six colour slots of the codes: its brown clan takes
# the slot (and the letter O) of Battle Line's orange (docs/editions.md).
_COLOUR_NAMES: dict[Naming, dict[str, str]] = {
    "gmt-en": dict(zip(COLOURS, ("red", "orange", "yellow", "green", "blue", "purple"))),
    "gmt-fr": dict(zip(COLOURS, ("rouge", "orange", "jaune", "vert", "bleu", "violet"))),
    "medieval-fr": dict(zip(COLOURS, ("rouge", "orange", "jaune", "vert", "bleu", "violet"))),
    "schotten-en": dict(zip(COLOURS, ("red", "brown", "yellow", "green", "blue", "purple"))),
    "schotten-fr": dict(zip(COLOURS, ("rouge", "marron", "jaune", "vert", "bleu", "violet"))),
}

CATEGORIES = ("wedge", "phalanx", "battalion", "skirmish", "host")
"""Formation categories, strongest first (contract 1 spelling)."""

CATEGORY_RANK = {"wedge": 5, "phalanx": 4, "battalion": 3, "skirmish": 2, "host": 1}

_CATEGORY_NAMES: dict[Naming, dict[str, str]] = {
    "gmt-en": dict(zip(CATEGORIES, ("Wedge", "Phalanx", "Battalion", "Skirmish", "Host"))),
    "gmt-fr": dict(zip(CATEGORIES, ("Pointe", "Phalange", "Ordre en Bataillons",
                                    "Ligne de Tirailleurs", "Horde"))),
    "medieval-fr": dict(zip(CATEGORIES, ("Enveloppement", "Carré", "Colonne",
                                         "Escarmouche", "Mêlée"))),
    "schotten-en": dict(zip(CATEGORIES, ("Colour run", "Three of a kind", "Colour", "Run",
                                         "Sum"))),
    "schotten-fr": dict(zip(CATEGORIES, ("Suite couleur", "Brelan", "Couleur", "Suite",
                                         "Somme"))),
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card, identified by its code (`R8`, `P10`, `FOG`, `SPY`)."""

    code: str

    def __post_init__(self) -> None:
        if self.code not in _ALL_CODES:
            raise NotationError(f"{self.code!r} is not a card code")

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named by `text` (case and surrounding blanks ignored)."""
        code = text.strip().upper()
        card = BY_CODE.get(code)
        if card is None:
            raise NotationError(f"{text!r} is not a card code")
        return card

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @property
    def family(self) -> Family:
        return "troop" if self.code[0] in COLOURS and self.code[1:].isdigit() else _TACTICS[self.code][0]

    @property
    def is_troop(self) -> bool:
        return self.family == "troop"

    @property
    def is_tactic(self) -> bool:
        return not self.is_troop

    @property
    def colour(self) -> str | None:
        """Colour letter of a Troop card, `None` for a Tactics card."""
        return self.code[0] if self.is_troop else None

    @property
    def value(self) -> int | None:
        """Value 1-10 of a Troop card, `None` for a Tactics card."""
        return int(self.code[1:]) if self.is_troop else None

    @property
    def occupies_slot(self) -> bool:
        """Troops and morale Tactics take a slot in a formation; the others do not."""
        return self.family in ("troop", "morale")

    @property
    def is_leader(self) -> bool:
        return self.code in ("ALEXANDER", "DARIUS")

    def name(self, naming: Naming = "gmt-en") -> str:
        """The card's display name in a naming set (`blue 7`, `Brouillard`, ...)."""
        if self.is_troop:
            colour = _COLOUR_NAMES[naming][self.code[0]]
            return f"{colour} {self.value}"
        return _TACTICS[self.code][1 + NAMINGS.index(naming)]


_ALL_CODES: frozenset[str] = frozenset(
    [f"{c}{v}" for c in COLOURS for v in VALUES] + list(_TACTICS)
)

TROOPS: tuple[Card, ...] = tuple(Card(f"{c}{v}") for c in COLOURS for v in VALUES)
"""The 60 Battle Line Troops; Schotten Totten's 54 Clan cards are those of values 1-9."""
TACTICS: tuple[Card, ...] = tuple(Card(code) for code in BATTLE_LINE_TACTICS)
"""The 10 Battle Line Tactics cards (an edition's own: `Edition.tactics`)."""
ALL_CARDS: tuple[Card, ...] = TROOPS + TACTICS
"""The 70 Battle Line cards (an edition's own deck: `Edition.cards`)."""
SPY = Card("SPY")
BY_CODE: dict[str, Card] = {card.code: card for card in ALL_CARDS + (SPY,)}
"""Every card of every edition by its code: the 70 of Battle Line and the Spy."""


_INDEX: dict[Card, int] = {card: i for i, card in enumerate(ALL_CARDS + (SPY,))}


def card_index(card: Card) -> int:
    """A card's fixed place among every card (Battle Line's 70 in `ALL_CARDS` order, then the
    Spy): a stable number for seeds and tables."""
    return _INDEX[card]


def troop(colour: str, value: int) -> Card:
    """The Troop card of that colour letter and value."""
    return BY_CODE[f"{colour}{value}"]


def category_name(category: str, naming: Naming = "gmt-en") -> str:
    """Display name of a formation category (`wedge` -> `Pointe` in `gmt-fr`)."""
    return _CATEGORY_NAMES[naming][category]


def colour_name(colour: str, naming: Naming = "gmt-en") -> str:
    return _COLOUR_NAMES[naming][colour]
