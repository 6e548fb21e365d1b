"""The referee's violations and refusals in French and English, from their reason and facts."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.referee import Referee, RefereeError, RefereeSettings
from companion.referee.infer import REASONS, Unexplained, explain
from companion.referee.table import Table as SeenTable
from companion.rules.messages import message

from .tables import C, Camera, Table


def _view(table: Table) -> SeenTable:
    return SeenTable.from_observation(table.observation())


def _base() -> Table:
    return Table().lay("south", "R7", 3).lay("north", "B1", 2).lay("south", "R8", 3)


CASES: dict[str, tuple[Callable[[Table], Table], str, str]] = {
    # what the table becomes, the reason (and case), a French piece the message must hold
    "twice": (lambda t: t.lay("north", "R7", 5), "card-twice", "rouge 7 est vue deux fois"),
    "tile": (lambda t: t.tile(4, "missing"), "tile-missing", "la tuile du drapeau 4"),
    "taken": (lambda t: t.lift("B1"), "card-taken-back", "bleu 1 a été retirée du drapeau 2"),
    "guiles": (lambda t: t.guile("north", "SCOUT").guile("north", "DESERTER"),
               "two-cards.guile", "deux cartes de ruse"),
    "with": (lambda t: t.guile("north", "SCOUT").lay("north", "G4", 6), "two-cards.with",
             "Eclaireur et vert 4 sont apparues ensemble"),
    "two": (lambda t: t.lay("north", "G4", 6).lay("north", "G5", 7), "two-cards",
            "2 nouvelles cartes (vert 4 au drapeau 6 côté nord"),
    "guile-at-flag": (lambda t: t.lay("north", "SCOUT", 6), "guile-at-flag", "pas au drapeau 6"),
    "moved": (lambda t: t.move("R7", 4, "south"), "card-moved",
              "rouge 7 a été déplacée du drapeau 3 côté sud au drapeau 4 côté sud sans carte"),
    "scout": (lambda t: t.guile("north", "SCOUT").move("B1", 4, "north"), "card-moved.scout",
              "Eclaireur ne change rien"),
    "deserter": (lambda t: t.guile("north", "DESERTER").move("R7", 4, "south"),
                 "card-moved.deserter", "Déserteur défausse"),
    "traitor": (lambda t: t.guile("north", "TRAITOR").move("R7", None, "north"),
                "card-moved.traitor-offline", "Traître met la carte"),
    "redeploy": (lambda t: t.guile("north", "REDEPLOY").move("B1", 4, "south"),
                 "card-moved.redeploy", "Redéploiement garde la carte"),
    "moves": (lambda t: t.guile("north", "REDEPLOY").move("B1", 4, "north")
              .move("R7", 5, "south"), "two-moves", "Redéploiement déplace une carte"),
    "discarded": (lambda t: t.move("B1", None, "north"), "card-moved",
                  "bleu 1 a été déplacée du drapeau 2 côté nord à côté de la ligne côté nord"),
    "appeared": (lambda t: t.move("G4", None, "south"), "card-discarded",
                 "vert 4 est apparue à côté de la ligne (côté sud)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tables_no_action_explains_in_french(name: str) -> None:
    change, reason, french = CASES[name]
    before = _base()
    committed = _view(before)
    found = explain(committed, _view(change(before)))
    assert isinstance(found, Unexplained), found
    assert found.reason in REASONS
    assert "." not in reason or found.params.get("case") == reason.split(".")[1]
    assert found.reason == reason.split(".")[0]
    text = message(found.reason, found.params, "fr", "gmt-fr")
    assert french.lower() in text.lower(), text
    assert message(found.reason, found.params, "en")


def test_a_claimed_tile_on_the_wrong_side() -> None:
    committed = _view(Table().tile(2, "north"))
    found = explain(committed, _view(Table().tile(2, "south")))
    assert isinstance(found, Unexplained) and found.reason == "claim-moved"
    assert message(found.reason, found.params, "fr", names={"north": "Anne"}) == \
        "Le drapeau 2 a été gagné par Anne mais sa tuile est côté sud"


def test_violations_and_refusals_in_french() -> None:
    ref = Referee(RefereeSettings())
    cam = Camera(ref)
    t = Table()
    cam.settle(t.lay("north", "R8", 3))          # south plays first
    (v,) = ref.state.violations
    assert v.reason == "wrong-player"
    assert v.text("fr", "medieval-fr", {"north": "Anne", "south": "Bob"}) == (
        "Anne joue rouge 8 au drapeau 3 : c'est à Bob de jouer, pas à Anne")
    assert v.text() == message("wrong-player", v.params)
    assert v.message.startswith("North playing R8 at flag 3")   # the English one, unchanged
    cam.settle(t.lift("R8").lay("south", "R7", 3))
    with pytest.raises(RefereeError) as info:
        ref.undo_to(5)
    assert info.value.reason == "no-undo"
    assert info.value.text("fr") == "Impossible de revenir au coup 5 ; cette manche a 1 coups"
    assert str(info.value) == "cannot undo to action 5; this round has 1 actions"
    with pytest.raises(RefereeError) as info:
        ref.pass_turn("south")
    assert info.value.reason == "wrong-phase"
    assert info.value.text("fr", names={"south": "Bob"}) == \
        "Bob passe : Bob a déjà joué une carte ce tour-ci"


def test_what_a_guile_card_waits_for_in_french() -> None:
    ref = Referee(RefereeSettings())
    cam = Camera(ref)
    t = Table()
    cam.settle(t.lay("south", "R7", 3))
    cam.settle(t.guile("north", "DESERTER"))
    state = ref.state
    assert state.waiting is not None and state.waiting_for is not None
    assert message("waiting", state.waiting_for.params, "fr", "medieval-fr",
                   {"north": "Anne"}) == \
        "Anne a joué Désertion : défaussez maintenant une carte de l'adversaire"
    assert message("waiting", state.waiting_for.params, "en") == \
        "North played Deserter: now discard one of your opponent's cards"
