"""The 70 Battle Line cards, their codes, and their names in the three naming sets.

A card is a small immutable value whose text is its code (`R8`, `ALEXANDER`); see RULES.md
"Components".  Names come in three sets: `gmt-en`, `gmt-fr` and `medieval-fr`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import NotationError

COLOURS = "ROYGBP"
"""Troop colours in code order: red, orange, yellow, green, blue, purple."""

VALUES = range(1, 11)

Naming = Literal["gmt-en", "gmt-fr", "medieval-fr"]
NAMINGS: tuple[Naming, ...] = ("gmt-en", "gmt-fr", "medieval-fr")

Family = Literal["troop", "morale", "environment", "guile"]

# code -> (family, gmt-en, gmt-fr, medieval-fr), from the table in RULES.md.
_TACTICS: dict[str, tuple[Family, str, str, str]] = {
    "ALEXANDER": ("morale", "Leader (Alexander)", "Chef (Alexandre)", "Roi d'Angleterre"),
    "DARIUS": ("morale", "Leader (Darius)", "Chef (Darius)", "Roi de France"),
    "CAVALRY": ("morale", "Companion Cavalry", "Renforts de Cavalerie", "Cavalerie mercenaire"),
    "SHIELD": ("morale", "Shield Bearers", "Porteurs de boucliers", "Support troupes"),
    "FOG": ("environment", "Fog", "Brouillard", "Brouillard"),
    "MUD": ("environment", "Mud", "Boue", "Boue"),
    "SCOUT": ("guile", "Scout", "Eclaireur", "Reconnaissance"),
    "REDEPLOY": ("guile", "Redeploy", "Redéploiement", "Redéploiement"),
    "DESERTER": ("guile", "Deserter", "Déserteur", "Désertion"),
    "TRAITOR": ("guile", "Traitor", "Traître", "Traîtrise"),
}

_COLOUR_NAMES: dict[Naming, dict[str, str]] = {
    "gmt-en": dict(zip(COLOURS, ("red", "orange", "yellow", "green", "blue", "purple"))),
    "gmt-fr": dict(zip(COLOURS, ("rouge", "orange", "jaune", "vert", "bleu", "violet"))),
    "medieval-fr": dict(zip(COLOURS, ("rouge", "orange", "jaune", "vert", "bleu", "violet"))),
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
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One Battle Line card, identified by its code (`R8`, `P10`, `FOG`)."""

    code: str

    def __post_init__(self) -> None:
        if self.code not in _ALL_CODES:
            raise NotationError(f"{self.code!r} is not a Battle Line card code")

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named by `text` (case and surrounding blanks ignored)."""
        code = text.strip().upper()
        card = BY_CODE.get(code)
        if card is None:
            raise NotationError(f"{text!r} is not a Battle Line card code")
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
        _, en, fr, med = _TACTICS[self.code]
        return {"gmt-en": en, "gmt-fr": fr, "medieval-fr": med}[naming]


_ALL_CODES: frozenset[str] = frozenset(
    [f"{c}{v}" for c in COLOURS for v in VALUES] + list(_TACTICS)
)

TROOPS: tuple[Card, ...] = tuple(Card(f"{c}{v}") for c in COLOURS for v in VALUES)
TACTICS: tuple[Card, ...] = tuple(Card(code) for code in _TACTICS)
ALL_CARDS: tuple[Card, ...] = TROOPS + TACTICS
BY_CODE: dict[str, Card] = {card.code: card for card in ALL_CARDS}


def troop(colour: str, value: int) -> Card:
    """The Troop card of that colour letter and value."""
    return BY_CODE[f"{colour}{value}"]


def category_name(category: str, naming: Naming = "gmt-en") -> str:
    """Display name of a formation category (`wedge` -> `Pointe` in `gmt-fr`)."""
    return _CATEGORY_NAMES[naming][category]


def colour_name(colour: str, naming: Naming = "gmt-en") -> str:
    return _COLOUR_NAMES[naming][colour]
