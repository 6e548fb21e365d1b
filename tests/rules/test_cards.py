"""The 70 cards: codes, families, values and names in the three naming sets."""

from __future__ import annotations

import pytest

from companion.rules.cards import (
    ALL_CARDS,
    BY_CODE,
    NAMINGS,
    TACTICS,
    TROOPS,
    Card,
    category_name,
    troop,
)
from companion.rules.errors import NotationError


def test_counts_and_codes() -> None:
    assert len(TROOPS) == 60 and len(TACTICS) == 10 and len(ALL_CARDS) == 70
    assert len(set(ALL_CARDS)) == 70
    assert str(BY_CODE["R10"]) == "R10" and repr(BY_CODE["FOG"]) == "Card('FOG')"
    assert troop("B", 7) == BY_CODE["B7"]


def test_families_and_troop_fields() -> None:
    families = {c.code: c.family for c in TACTICS}
    assert families == {"ALEXANDER": "morale", "DARIUS": "morale", "CAVALRY": "morale",
                        "SHIELD": "morale", "FOG": "environment", "MUD": "environment",
                        "SCOUT": "guile", "REDEPLOY": "guile", "DESERTER": "guile",
                        "TRAITOR": "guile"}
    p10 = BY_CODE["P10"]
    assert p10.is_troop and p10.colour == "P" and p10.value == 10 and p10.occupies_slot
    assert BY_CODE["CAVALRY"].occupies_slot and not BY_CODE["MUD"].occupies_slot
    assert BY_CODE["ALEXANDER"].is_leader and not BY_CODE["CAVALRY"].is_leader
    assert BY_CODE["SCOUT"].value is None and BY_CODE["SCOUT"].colour is None


def test_parse_is_lenient_and_errors_name_the_text() -> None:
    assert Card.parse(" alexander ") == BY_CODE["ALEXANDER"]
    for bad in ("R11", "X3", "", "FOGG"):
        with pytest.raises(NotationError) as info:
            Card.parse(bad)
        assert repr(bad) in str(info.value)
    with pytest.raises(NotationError, match="'R0'"):
        Card("R0")


def test_names_in_every_naming_set() -> None:
    assert BY_CODE["B7"].name("gmt-en") == "blue 7"
    assert BY_CODE["B7"].name("gmt-fr") == "bleu 7"
    assert BY_CODE["ALEXANDER"].name("medieval-fr") == "Roi d'Angleterre"
    assert BY_CODE["TRAITOR"].name("gmt-fr") == "Traître"
    for naming in NAMINGS:
        assert all(card.name(naming) for card in ALL_CARDS)
    assert category_name("wedge", "gmt-fr") == "Pointe"
    assert category_name("host", "medieval-fr") == "Mêlée"
