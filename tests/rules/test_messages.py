"""Every refusal and violation has a French and an English template, and each renders with
its parameters (`companion.rules.messages`)."""

from __future__ import annotations

import string

import pytest

from companion.rules.actions import Play, Redeploy
from companion.rules.cards import BY_CODE
from companion.rules.messages import (
    TEMPLATES,
    MessageError,
    Part,
    Place,
    has_template,
    message,
    reasons,
)

from companion.rules.prover import prove
from companion.rules.state import REASONS, GameState

R8, B2, FOG = BY_CODE["R8"], BY_CODE["B2"], BY_CODE["FOG"]

SAMPLE: dict[str, object] = {
    "action": Play("south", R8, 3), "card": R8, "other_card": B2, "flag": 3,
    "player": "south", "to_move": "north", "other": "north", "claimed": "north",
    "winner": "north", "termination": "breakthrough", "mine": 2, "theirs": 1, "capacity": 3,
    "side": "north", "place": Place(3, "north"), "src": Place(3, "north"),
    "dst": Place(0, "south"), "a": Place(2, "south"), "b": Place(0, "north"),
    "expected": Place(5, "south"), "deck": "troop", "count": 2, "wanted": 3, "got": 2,
    "cards": (R8, B2), "verdict": prove(GameState.new_table().position(), 3, "south"),
    "verdict_reason": "incomplete", "first": R8, "second": B2, "error": "disk full",
    "diff": (Part("diff.missing", {"card": R8, "place": Place(3, "south")}),
             Part("diff.tile", {"flag": 4, "seen": "line", "recorded": "north"})),
    "mode": "holding", "index": 2, "flags": (3, 4), "seen": "line", "recorded": "north",
    "why": Part("side-full", {"action": Play("south", R8, 3), "player": "south", "flag": 3,
                              "capacity": 3, "card": R8}),
}


def _fields(template: str) -> set[str]:
    """The parameters a template needs; `{SCOUT}`-style fields name a card, not a parameter."""
    return {name for _, name, _, _ in string.Formatter().parse(template)
            if name and not name.isupper()}


def test_guile_cards_named_in_a_template_take_the_edition_name() -> None:
    params = {**SAMPLE, "case": "redeploy"}
    assert "Redéploiement" in message("card-moved", params, "fr", "gmt-fr")
    traitor = {**SAMPLE, "case": None}
    assert "Traîtrise" in message("traitor-on-tactics", traitor, "fr", "medieval-fr")
    assert "Traître" in message("traitor-on-tactics", traitor, "fr", "gmt-fr")


def test_every_reason_code_has_both_templates() -> None:
    from companion.referee.referee import REFUSAL_REASONS, VIOLATION_REASONS
    for reason in REASONS + VIOLATION_REASONS + REFUSAL_REASONS:
        assert has_template(reason), reason
        en, fr = TEMPLATES[reason]
        assert en and fr and en != fr, reason
    assert set(reasons()) == set(REASONS + VIOLATION_REASONS + REFUSAL_REASONS)
    for card in ("REDEPLOY", "DESERTER", "TRAITOR"):
        assert has_template("waiting", {"case": card})


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_every_template_renders_with_its_parameters(key: str) -> None:
    en, fr = TEMPLATES[key]
    assert _fields(en) == _fields(fr), key
    reason, _, case = key.partition(".")
    params = {**SAMPLE, "case": case or None}
    if reason in ("part", "diff", "waiting"):
        reason, params["case"] = key, None
        if key.startswith("waiting"):
            reason, params["case"] = "waiting", case
    texts = {(lang, naming): message(reason, params, lang, naming)
             for lang in ("en", "fr") for naming in ("gmt-en", "gmt-fr", "medieval-fr")}
    for (lang, naming), text in texts.items():
        assert text and "{" not in text and "}" not in text, (key, text)
        if "card" in _fields(en):
            assert R8.name(naming).lower() in text.lower(), (key, text)  # its naming
    assert texts[("en", "gmt-en")] != texts[("fr", "gmt-fr")]


def test_values_are_written_in_the_language() -> None:
    params = {"action": Redeploy("north", R8, 2, None), "player": "north", "flag": 2,
              "capacity": 4, "card": R8, "case": "mud"}
    fr = message("no-slot", params, "fr", "gmt-fr", {"north": "Anne"})
    # The action in words, without its notation (that belongs to records and exports).
    assert fr.startswith("Anne redéploie rouge 8 du drapeau 2 vers la défausse : ")
    assert "REDEPLOY" not in fr
    assert "4 cartes (Boue)" in fr
    en = message("no-slot", params, "en")
    assert en.startswith("North redeploying red 8 from flag 2 to the discards") and "(Mud)" in en
    moved = {"card": FOG, "src": Place(1, "south"), "dst": Place(0, "south")}
    assert message("card-moved", moved, "fr", "medieval-fr") == (
        "Brouillard a été déplacée du drapeau 1 côté sud à côté de la ligne côté sud sans carte "
        "de ruse")
    assert message("card-moved", moved, "en") == (
        "Fog moved from flag 1 on the south side beside the line on the south side without a "
        "guile card")


def test_bad_requests_are_message_errors() -> None:
    with pytest.raises(MessageError, match="no-such-code"):
        message("no-such-code", {})
    with pytest.raises(MessageError, match="'card'"):
        message("side-full", {"action": Play("south", R8, 3), "player": "south", "flag": 3,
                              "capacity": 3})
    with pytest.raises(MessageError, match="language"):
        message("side-full", SAMPLE, "de")
    with pytest.raises(MessageError, match="naming"):
        message("side-full", SAMPLE, "en", "gmt-de")  # type: ignore[arg-type]


def test_french_elides_de_before_a_vowel() -> None:
    params = {"action": Redeploy("north", R8, 2, None), "player": "north", "flag": 2,
              "capacity": 4, "card": R8, "case": "mud"}
    assert "le côté d'Anne au drapeau 2" in message("no-slot", params, "fr", "gmt-fr",
                                                    {"north": "Anne"})
    assert "le côté de Bob au drapeau 2" in message("no-slot", params, "fr", "gmt-fr",
                                                    {"north": "Bob"})
