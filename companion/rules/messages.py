"""Every refusal and violation sentence in English and French: one template per reason code.

The rules core raises `IllegalActionError(reason, message, params)` and the referee opens
violations with the same three things: `reason` is the stable code, `message` the English
sentence programs and logs rely on, `params` the facts it is made of (the action, the card,
the flag, the players ...).  `message(reason, params, lang, naming)` renders those facts in
either language with the card names of a naming set, for the screens.

Templates are `str.format` strings over `params`.  Values are rendered by type: a `Card` by
its name in `naming`, an `Action` in words with its notation, a player (`"north"`/`"south"`)
by `names` or the side's word, a `Place` with its preposition (`{src:from}`, `{dst:to}`), a
`ClaimVerdict` by its proof, a `Part` (a sub-sentence with its own template) recursively, a
tuple by its items.  Format specs: `side` (the side's word, not the player's name), `word`
(a fixed vocabulary: decks, how a game ended, verdict codes), `tactics` and `cards` (a count
with its noun).  A reason with variants is looked up as `reason.case` (`params["case"]`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, Claim, Deserter, Draw, Pass, Play, Redeploy, Scout, Traitor
from .cards import BY_CODE, NAMINGS, Card, Naming
from .errors import CompanionError
from .place import Place
from .position import SIDES

LANGS = ("en", "fr")
_ACTIONS = (Play, Scout, Redeploy, Deserter, Traitor, Claim, Pass, Draw)


class MessageError(CompanionError, ValueError):
    """A reason code without templates, a missing parameter, or an unknown language."""


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a sentence with its own template (an item of a list of differences)."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)


# reason (or reason.case) -> (English, French)
TEMPLATES: dict[str, tuple[str, str]] = {
    # -- the rules core (companion.rules.state.REASONS) ----------------------------------------
    "game-over": ("{action} comes after the end of the game ({winner} won by "
                  "{termination:word})",
                  "{action} vient après la fin de la partie ({winner} a gagné par "
                  "{termination:word})"),
    "game-over.exhausted": ("{action} comes after the end of the game (exhausted)",
                            "{action} vient après la fin de la partie (plus rien à jouer)"),
    "wrong-player": ("{action}: it is {to_move}'s turn, not {player}'s",
                     "{action} : c'est à {to_move} de jouer, pas à {player}"),
    "wrong-phase": ("{action}: {player} has already played a card this turn and cannot play "
                    "{card} too",
                    "{action} : {player} a déjà joué une carte ce tour-ci et ne peut pas jouer "
                    "{card} en plus"),
    "wrong-phase.pass": ("{action}: {player} has already played a card this turn",
                         "{action} : {player} a déjà joué une carte ce tour-ci"),
    "wrong-phase.draw": ("{action}: {player} must play a card (or pass) before drawing",
                         "{action} : {player} doit jouer une carte (ou passer) avant de piocher"),
    "flag-claimed": ("{action}: flag {flag} is claimed by {claimed}; {card} cannot be laid "
                     "there or taken from there",
                     "{action} : le drapeau {flag} est revendiqué par {claimed} ; {card} ne peut "
                     "ni y être posée ni en être retirée"),
    "flag-claimed.claim": ("{action}: flag {flag} is already claimed by {claimed}",
                           "{action} : le drapeau {flag} est déjà revendiqué par {claimed}"),
    "side-full": ("{action}: {player}'s side of flag {flag} already holds {capacity:cards}; "
                  "no slot for {card}",
                  "{action} : le côté de {player} au drapeau {flag} a déjà {capacity:cards} ; "
                  "pas de place pour {card}"),
    "side-full.mud": ("{action}: {player}'s side of flag {flag} already holds {capacity:cards} "
                      "(Mud); no slot for {card}",
                      "{action} : le côté de {player} au drapeau {flag} a déjà "
                      "{capacity:cards} (Boue) ; pas de place pour {card}"),
    "no-slot": ("{action}: {player}'s side of flag {flag} already holds {capacity:cards}; "
                "no slot for {card}",
                "{action} : le côté de {player} au drapeau {flag} a déjà {capacity:cards} ; "
                "pas de place pour {card}"),
    "no-slot.mud": ("{action}: {player}'s side of flag {flag} already holds {capacity:cards} "
                    "(Mud); no slot for {card}",
                    "{action} : le côté de {player} au drapeau {flag} a déjà {capacity:cards} "
                    "(Boue) ; pas de place pour {card}"),
    "tactics-limit": ("{action}: {player} has played {mine:tactics} and {other} {theirs}; "
                      "{card} would put {player} two Tactics cards ahead",
                      "{action} : {player} a joué {mine:tactics} et {other} {theirs} ; "
                      "avec {card}, {player} aurait deux cartes Tactique d'avance"),
    "second-leader": ("{action}: {player} has already played a Leader and cannot play {card} "
                      "(D2)",
                      "{action} : {player} a déjà joué un Chef et ne peut pas jouer {card} (D2)"),
    "not-at-flag": ("{action}: {card} is a guile card; it is played with its own action, not "
                    "at flag {flag}",
                    "{action} : {card} est une carte de ruse ; elle se joue à part, pas au "
                    "drapeau {flag}"),
    "traitor-on-tactics": ("{action}: {card} at flag {flag} is a Tactics card; Traitor takes "
                           "only Troop cards",
                           "{action} : {card} au drapeau {flag} est une carte Tactique ; "
                           "{TRAITOR} ne prend que des cartes Troupe"),
    "environment-immovable": ("{action}: {card} stays where it is until the end of the game "
                              "(D4); it cannot be moved or discarded",
                              "{action} : {card} reste à sa place jusqu'à la fin de la partie "
                              "(D4) ; elle ne peut être ni déplacée ni défaussée"),
    "not-on-flag": ("{action}: {card} is not at flag {flag}",
                    "{action} : {card} n'est pas au drapeau {flag}"),
    "not-on-flag.elsewhere": ("{action}: {card} is not at flag {flag}; it is {place}",
                              "{action} : {card} n'est pas au drapeau {flag} ; elle est {place}"),
    "not-your-card": ("{action}: {card} at flag {flag} is the opponent's card, on the "
                      "{side:side} side",
                      "{action} : {card} au drapeau {flag} est une carte de l'adversaire, côté "
                      "{side:side}"),
    "own-card": ("{action}: {card} at flag {flag} is {player}'s own card, on the {side:side} "
                 "side",
                 "{action} : {card} au drapeau {flag} est une carte de {player}, côté "
                 "{side:side}"),
    "same-flag": ("{action}: {card} is already at flag {flag}",
                  "{action} : {card} est déjà au drapeau {flag}"),
    "not-in-hand": ("{action}: {card} is not in {player}'s hand",
                    "{action} : {card} n'est pas dans la main de {player}"),
    "not-in-hand.scout": ("{action}: {card} is not in {player}'s hand after the Scout draws",
                          "{action} : {card} n'est pas dans la main de {player} après les "
                          "pioches de la carte {SCOUT}"),
    "card-on-table": ("{action}: {card} is already face up {place}",
                      "{action} : {card} est déjà visible {place}"),
    "not-in-edition": ("{action}: {card} is not a card of this edition's deck",
                       "{action} : {card} n'est pas une carte du jeu de cette édition"),
    "deck-empty": ("{action}: the {deck:word} deck is empty",
                   "{action} : la pioche {deck:word} est vide"),
    "deck-empty.scout": ("{action}: the {deck:word} deck is empty; Scout cannot draw from it",
                         "{action} : la pioche {deck:word} est vide ; {SCOUT} ne peut pas "
                         "y piocher"),
    "hand-full": ("{action}: {player} already holds {count:cards}",
                  "{action} : {player} a déjà {count:cards} en main"),
    "must-draw": ("{action}: {player} holds {count:cards} and must draw while a deck has cards",
                  "{action} : {player} a {count:cards} en main et doit piocher tant qu'une "
                  "pioche a des cartes"),
    "scout-draws": ("{action}: Scout draws {wanted:cards} here, not {got}",
                    "{action} : {SCOUT} pioche ici {wanted:cards}, pas {got}"),
    "scout-returns": ("{action}: Scout puts back {wanted} different cards, not {cards}",
                      "{action} : {SCOUT} remet {wanted} cartes différentes, pas {cards}"),
    "pass-not-allowed": ("{action}: {player} can still play {card} at flag {flag} and may pass "
                         "only without a Troop to play (D13)",
                         "{action} : {player} peut encore jouer {card} au drapeau {flag} et ne "
                         "peut passer que sans Troupe à jouer (D13)"),
    "claim-timing": ("{action}: flag {flag} can be claimed only after playing a card, before "
                     "drawing",
                     "{action} : le drapeau {flag} ne se revendique qu'après avoir joué une "
                     "carte, avant de piocher"),
    "claim-timing.advanced": ("{action}: flag {flag} can be claimed only at the start of the "
                              "turn, before playing (advanced timing)",
                              "{action} : le drapeau {flag} ne se revendique qu'au début du "
                              "tour, avant de jouer (règle avancée)"),
    "claim-refused": ("{action}: {player} cannot claim flag {flag} ({verdict_reason:word}): "
                      "{verdict}",
                      "{action} : {player} ne peut pas revendiquer le drapeau {flag} "
                      "({verdict_reason:word}) : {verdict}"),
    # -- the referee: tables no single action explains (companion.referee.infer) ----------------
    "card-twice.same": ("{card} is seen twice {a}; one of the two is misread",
                        "{card} est vue deux fois {a} ; l'une des deux est mal lue"),
    "card-twice": ("{card} is seen twice, {a} and {b}; one of the two is misread or misplaced",
                   "{card} est vue deux fois, {a} et {b} ; l'une des deux est mal lue ou mal "
                   "placée"),
    "tile-missing": ("the tile of flag {flag} cannot be seen; put it back where the camera can "
                     "read it",
                     "la tuile du drapeau {flag} est invisible ; remettez-la là où la caméra "
                     "peut la lire"),
    "claim-moved": ("flag {flag} was won by {winner} but its tile lies on the {side:side} side",
                    "le drapeau {flag} a été gagné par {winner} mais sa tuile est côté "
                    "{side:side}"),
    "card-taken-back": ("{card} was taken away {place:from}; cards never leave the table: put "
                        "it back",
                        "{card} a été retirée {place:from} ; les cartes ne quittent jamais la "
                        "table : remettez-la"),
    "two-cards": ("{count} new cards ({cards}); a turn plays one card",
                  "{count} nouvelles cartes ({cards}) ; on joue une carte par tour"),
    "two-cards.guile": ("two guile cards appeared ({card}, {other_card}); a turn plays one card",
                        "deux cartes de ruse sont apparues ({card}, {other_card}) ; on joue une "
                        "carte par tour"),
    "two-cards.with": ("{card} and {other_card} appeared together; a turn plays one card",
                       "{card} et {other_card} sont apparues ensemble ; on joue une carte par "
                       "tour"),
    "guile-at-flag": ("{card} is a guile card: lay it beside the line, not at flag {flag}",
                      "{card} est une carte de ruse : posez-la à côté de la ligne, pas au "
                      "drapeau {flag}"),
    "card-moved": ("{card} moved {src:from} {dst:to} without a guile card",
                   "{card} a été déplacée {src:from} {dst:to} sans carte de ruse"),
    "card-moved.scout": ("{card} moved {src:from} {dst:to}; Scout changes nothing on the line",
                         "{card} a été déplacée {src:from} {dst:to} ; {SCOUT} ne change "
                         "rien sur la ligne"),
    "card-moved.back": ("{card} came back from beside the line {dst:to}",
                        "{card} est revenue d'à côté de la ligne {dst:to}"),
    "card-moved.redeploy": ("Redeploy keeps a card on its owner's side, but {card} went "
                            "{src:from} {dst:to}",
                            "{REDEPLOY} garde la carte du côté de son propriétaire, mais "
                            "{card} est allée {src:from} {dst:to}"),
    "card-moved.deserter": ("Deserter discards a card beside the line, but {card} went "
                            "{src:from} {dst:to}",
                            "{DESERTER} défausse la carte à côté de la ligne, mais {card} est "
                            "allée {src:from} {dst:to}"),
    "card-moved.traitor-offline": ("Traitor puts the card on your side of a flag, but {card} "
                                   "went beside the line",
                                   "{TRAITOR} met la carte de votre côté d'un drapeau, mais "
                                   "{card} est allée à côté de la ligne"),
    "card-moved.traitor-side": ("Traitor takes an opponent's card to one's own side, but {card} "
                                "went {src:from} {dst:to}",
                                "{TRAITOR} prend une carte de l'adversaire pour son propre "
                                "côté, mais {card} est allée {src:from} {dst:to}"),
    "two-moves": ("{card} moves one card, but {first} and {second} both moved",
                  "{card} déplace une carte, mais {first} et {second} ont bougé toutes les deux"),
    "card-discarded": ("{card} appeared beside the line ({side:side}) without a guile card that "
                       "discards it",
                       "{card} est apparue à côté de la ligne (côté {side:side}) sans carte de "
                       "ruse qui la défausse"),
    "glare": ("glare over flag {flag} may hide or change the cards there ({diff}); shade the "
              "light or move the lamp",
              "un reflet sur le drapeau {flag} peut cacher ou changer les cartes ({diff}) ; "
              "masquez la lumière ou déplacez la lampe"),
    "glare.many": ("glare over flags {flags} may hide or change the cards there ({diff}); shade "
                   "the light or move the lamp",
                   "un reflet sur les drapeaux {flags} peut cacher ou changer les cartes "
                   "({diff}) ; masquez la lumière ou déplacez la lampe"),
    # -- the referee: holding, failsafe -----------------------------------------------------------
    "record-differs": ("the table differs from the match record; put it back as recorded "
                       "({diff})",
                       "la table diffère de l'enregistrement de la partie ; remettez-la comme "
                       "enregistré ({diff})"),
    "undo-restore": ("the table differs from the state after the undo; put it back as it was "
                     "({diff})",
                     "la table diffère de l'état après l'annulation ; remettez-la comme elle "
                     "était ({diff})"),
    "record-error": ("the referee could not take this table ({error}); the last legal state is "
                     "kept: check the record and the table",
                     "l'arbitre n'a pas pu prendre en compte cette table ({error}) ; le dernier "
                     "état légal est conservé : vérifiez l'enregistrement et la table"),
    "referee-error": ("the referee could not take this table ({error}); the last legal state "
                      "is kept: check the record and the table",
                      "l'arbitre n'a pas pu prendre en compte cette table ({error}) ; le "
                      "dernier état légal est conservé : vérifiez l'enregistrement et la table"),
    # -- the referee: player requests it refuses (RefereeError) -----------------------------------
    "no-claim-now": ("no claim now: the referee is {mode:word}",
                     "pas de revendication maintenant : l'arbitre est {mode:word}"),
    "no-such-action": ("there is no action {index} to correct; this round has {count} actions",
                       "il n'y a pas de coup {index} à corriger ; cette manche a {count} coups"),
    "no-card-to-correct": ("action {index} ({action}) names no card to correct",
                           "le coup {index} ({action}) ne nomme aucune carte à corriger"),
    "correction-refused": ("action {index} cannot be {action}: {why}",
                           "le coup {index} ne peut pas être {action} : {why}"),
    "correction-refused.order": ("action {index} cannot be {action}: it does not fit the "
                                 "actions before it",
                                 "le coup {index} ne peut pas être {action} : il ne va pas avec "
                                 "les coups d'avant"),
    "no-undo": ("cannot undo to action {index}; this round has {count} actions",
                "impossible de revenir au coup {index} ; cette manche a {count} coups"),
    "no-redo": ("there is nothing to redo", "il n'y a rien à rétablir"),
    # -- what a guile card still waits for (WaitingForEffect) -------------------------------------
    "waiting.REDEPLOY": ("{player} played {card}: now move one of your cards to another flag or "
                         "discard it",
                         "{player} a joué {card} : déplacez maintenant une de vos cartes vers "
                         "un autre drapeau ou défaussez-la"),
    "waiting.DESERTER": ("{player} played {card}: now discard one of your opponent's cards",
                         "{player} a joué {card} : défaussez maintenant une carte de "
                         "l'adversaire"),
    "waiting.TRAITOR": ("{player} played {card}: now move one of your opponent's Troops to your "
                        "side",
                        "{player} a joué {card} : passez maintenant une Troupe de l'adversaire "
                        "de votre côté"),
    # -- pieces of sentences (Part) ---------------------------------------------------------------
    "part.card-at": ("{card} {place}", "{card} {place}"),
    "diff.missing": ("{card} missing {place:from}", "{card} manque {place:from}"),
    "diff.moved": ("{card} {place} instead of {expected}", "{card} {place} au lieu de {expected}"),
    "diff.extra": ("{card} {place} is not in the record",
                   "{card} {place} n'est pas dans l'enregistrement"),
    "diff.tile": ("tile {flag} is {seen:word}, recorded {recorded:word}",
                  "la tuile {flag} est {seen:word}, enregistrée {recorded:word}"),
    "diff.order": ("the order of the cards", "l'ordre des cartes"),
}
"""The templates, English then French.  A test renders every one in both languages."""

WORDS: dict[str, tuple[str, str]] = {
    "troop": ("troop", "Troupes"),
    "tactics": ("tactics", "Tactiques"),
    "breakthrough": ("breakthrough", "percée"),
    "envelopment": ("envelopment", "encerclement"),
    "exhausted": ("exhaustion", "épuisement"),
    "line": ("on the line", "sur la ligne"),
    "missing": ("missing", "absente"),
    "north": ("on the north side", "côté nord"),
    "south": ("on the south side", "côté sud"),
    "playing": ("playing", "en jeu"),
    "holding": ("waiting for the table to match", "en attente d'une table conforme"),
    "round-over": ("between rounds", "entre deux manches"),
    "match-over": ("done: the match is over", "à l'arrêt : le match est fini"),
    # contract 1 verdict reasons
    "stronger": ("stronger", "plus forte"),
    "tie-first": ("tie, completed first", "égalité, complétée en premier"),
    "cannot-beat": ("cannot be beaten", "imbattable"),
    "cannot-complete": ("the opponent cannot complete", "l'adversaire ne peut pas compléter"),
    "weaker": ("weaker", "plus faible"),
    "tie-later": ("tie, completed later", "égalité, complétée après"),
    "can-beat": ("the opponent can still beat it", "l'adversaire peut encore la battre"),
    "incomplete": ("incomplete", "incomplète"),
    "claimed": ("already claimed", "déjà revendiqué"),
}
"""Fixed words a template takes with the `word` spec (`{deck:word}`)."""

_SIDE_WORDS = {"en": {"north": "north", "south": "south"}, "fr": {"north": "nord", "south": "sud"}}
_NONE = {"en": "none", "fr": "aucune"}


def reasons() -> tuple[str, ...]:
    """The reason codes that have templates (variants `reason.case` folded in)."""
    out: dict[str, None] = {}
    for key in TEMPLATES:
        if not key.startswith(("part.", "diff.", "waiting.")):
            out[key.split(".")[0]] = None
    return tuple(out)


def has_template(reason: str, params: Mapping[str, object] | None = None) -> bool:
    case = (params or {}).get("case")
    return (f"{reason}.{case}" if case else reason) in TEMPLATES


def message(reason: str, params: Mapping[str, object] | None = None, lang: str = "en",
            naming: Naming = "gmt-en", names: Mapping[str, str] | None = None) -> str:
    """The sentence of `reason` with `params`, in `lang` (`en`, `fr`) and card names of
    `naming`; `names` gives the players' names (default: the side's word)."""
    if lang not in LANGS:
        raise MessageError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    if naming not in NAMINGS:
        raise MessageError(f"unknown naming {naming!r}: use one of {', '.join(NAMINGS)}")
    text = _Renderer(lang, naming, names or {}).render(reason, params or {})
    if naming.startswith("schotten"):
        text = _stones(text, lang)
    if lang == "fr":
        # Names and card names are filled in after the template was written: elide
        # "de Anne" -> "d'Anne", "de orange 7" -> "d'orange 7".
        text = _ELISION.sub(r"\1d'\2", text)
    return text[:1].upper() + text[1:]


_ELISION = re.compile(r"(^|[\s(])de ([AEIOUYÉÈÊÀÂÎÔaeiouyéèêàâîôh])")

# Schotten Totten's words for Battle Line's (docs/editions.md): its flags are boundary stones
# (feminine in French: "la borne"), its Troops Clan cards.
_STONES: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("flags", "stones"), ("Flags", "Stones"), ("flag", "stone"), ("Flag", "Stone"),
           ("Troop cards", "Clan cards"), ("Troop card", "Clan card"), ("Troops", "Clan cards"),
           ("Troop", "Clan card")),
    "fr": (("au drapeau", "à la borne"), ("du drapeau", "de la borne"),
           ("le drapeau", "la borne"), ("Le drapeau", "La borne"), ("ce drapeau", "cette borne"),
           ("un drapeau", "une borne"), ("drapeaux", "bornes"), ("drapeau", "borne"),
           ("Drapeau", "Borne"), ("est revendiqué", "est revendiquée"),
           ("déjà revendiqué", "déjà revendiquée"), ("cartes Troupes", "cartes Clan"),
           ("carte Troupe", "carte Clan"), ("Troupes", "cartes Clan")),
}


def _stones(text: str, lang: str) -> str:
    for old, new in _STONES[lang]:
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    return text


class _Renderer(string.Formatter):
    def __init__(self, lang: str, naming: Naming, names: Mapping[str, str]) -> None:
        super().__init__()
        self.lang, self.naming, self.names = lang, naming, names
        self._fr = lang == "fr"

    def render(self, reason: str, params: Mapping[str, object]) -> str:
        case = params.get("case")
        if reason == "card-twice" and not case and params.get("a") == params.get("b"):
            case = "same"   # twice in one place: name it once
        key = f"{reason}.{case}" if case else reason
        templates = TEMPLATES.get(key)
        if templates is None:
            raise MessageError(f"no message template for reason {key!r}")
        try:
            return self.vformat(templates[1 if self._fr else 0], (), params)
        except KeyError as exc:
            raise MessageError(f"message {key!r} needs the parameter {exc.args[0]!r}") from None

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        # `{SCOUT}`, `{TRAITOR}`, ...: a card named in the template itself, so that it takes
        # the chosen edition's name like every other card.
        if isinstance(key, str) and key.isupper() and key in BY_CODE:
            return BY_CODE[key]
        return kwargs[str(key)]

    def format_field(self, value: Any, format_spec: str) -> str:
        return self.text(value, format_spec)

    def side(self, side: str) -> str:
        return _SIDE_WORDS[self.lang].get(side, side)

    def player(self, side: str) -> str:
        return self.names.get(side) or self.side(side)

    def text(self, value: object, spec: str = "") -> str:
        fr = self._fr
        if spec == "side" and isinstance(value, str):
            return self.side(value)
        if spec == "word" and isinstance(value, str):
            words = WORDS.get(value)
            return value if words is None else words[1 if fr else 0]
        if spec in ("tactics", "cards") and isinstance(value, int):
            if spec == "tactics":
                noun = ("carte Tactique", "cartes Tactiques") if fr else \
                    ("Tactics card", "Tactics cards")
            else:
                noun = ("carte", "cartes") if fr else ("card", "cards")
            return f"{value} {noun[0] if value == 1 else noun[1]}"
        if isinstance(value, Card):
            return value.name(self.naming)
        if isinstance(value, Place):
            return self.place(value, spec or "at")
        if isinstance(value, Part):
            return self.render(value.key, value.params)
        if isinstance(value, _ACTIONS):
            # In words only: the notation belongs to records and exports, not to sentences.
            return self.describe(value)
        if isinstance(value, str):
            return self.player(value) if value in SIDES else value
        if isinstance(value, (tuple, list)):
            if not value:
                return _NONE[self.lang]
            joiner = "; " if any(isinstance(v, Part) for v in value) else ", "
            return joiner.join(self.text(v, spec) for v in value)
        proof = getattr(value, "proof", None)
        if callable(proof):    # a ClaimVerdict: its proof in the same language and names
            return str(proof(lang=self.lang, naming=self.naming))
        return str(value)

    def place(self, p: Place, how: str) -> str:
        side = self.side(p.side)
        if self._fr:
            if p.offline:
                return {"from": f"d'à côté de la ligne côté {side}",
                        "to": f"à côté de la ligne côté {side}"}.get(
                            how, f"à côté de la ligne côté {side}")
            return {"from": f"du drapeau {p.flag} côté {side}"}.get(
                how, f"au drapeau {p.flag} côté {side}")
        if p.offline:
            return {"from": f"from beside the line on the {side} side"}.get(
                how, f"beside the line on the {side} side")
        return {"from": f"from flag {p.flag} on the {side} side",
                "to": f"to flag {p.flag} on the {side} side"}.get(
                    how, f"at flag {p.flag} on the {side} side")

    def describe(self, action: Action) -> str:
        """The action in words (`south playing red 8 at flag 3`), in the language."""
        p = self.player(action.player)
        fr = self._fr
        match action:
            case Play():
                card = self.text(action.card)
                return f"{p} joue {card} au drapeau {action.flag}" if fr else \
                    f"{p} playing {card} at flag {action.flag}"
            case Scout():
                card = self.text(_card("SCOUT"))
                return f"{p} joue {card}" if fr else f"{p} playing {card}"
            case Redeploy():
                card = self.text(action.card)
                if fr:
                    to = "la défausse" if action.to_flag is None else f"le drapeau {action.to_flag}"
                    return f"{p} redéploie {card} du drapeau {action.from_flag} vers {to}"
                to = "the discards" if action.to_flag is None else f"flag {action.to_flag}"
                return f"{p} redeploying {card} from flag {action.from_flag} to {to}"
            case Deserter():
                card = self.text(action.card)
                return f"{p} fait déserter {card} du drapeau {action.flag}" if fr else \
                    f"{p} deserting {card} from flag {action.flag}"
            case Traitor():
                card = self.text(action.card)
                return (f"{p} retourne {card} du drapeau {action.from_flag} au drapeau "
                        f"{action.to_flag}") if fr else \
                    (f"{p} turning traitor {card} from flag {action.from_flag} to flag "
                     f"{action.to_flag}")
            case Claim():
                return f"{p} revendique le drapeau {action.flag}" if fr else \
                    f"{p} claiming flag {action.flag}"
            case Pass():
                return f"{p} passe" if fr else f"{p} passing"
            case Draw():
                if action.deck is None:
                    return f"{p} finit son tour sans piocher" if fr else \
                        f"{p} ending the turn without a draw"
                deck = self.text(action.deck, "word")
                return f"{p} pioche dans la pioche {deck}" if fr else \
                    f"{p} drawing from the {deck} deck"
        return str(action)


def _card(code: str) -> Card:
    from .cards import BY_CODE
    return BY_CODE[code]


__all__ = ["LANGS", "TEMPLATES", "WORDS", "MessageError", "Part", "Place", "has_template",
           "message", "reasons"]
