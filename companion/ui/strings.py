"""Every text of the touchscreen, one table per language (English and French).

Screens never hold a literal sentence: they call `tr(key, lang, **values)`.  A test checks
that both tables have the same keys and the same `{placeholders}`.  Proof texts are the rules
core's own (`ClaimVerdict.proof(lang, naming)`), and so are violations and refusals
(`companion.rules.messages`): they are not translated here.  French contractions of the
players' names are format specs: `{name:de}` ("du Sud", "d'Anne"), `{name:à}` ("au Nord").

A match of Schotten Totten speaks of stones (bornes), Clan cards and its own Tactic cards:
`tr(key, lang, edition)` takes the edition's own sentence (`EDITION_TEXTS`) where it has one,
whole, since French changes more than the noun ("le drapeau 3 est pris", "la borne 3 est
prise").
"""

from __future__ import annotations

import string

from companion.errors import CompanionError
from companion.rules.edition import Edition

LANGS = ("en", "fr")


class UnknownTextError(CompanionError, KeyError):
    """A screen asked for a text key or a language that the tables do not have."""

    def __str__(self) -> str:  # KeyError would quote the message like a key
        return str(self.args[0])


EN: dict[str, str] = {
    "app.title": "Battle Line referee",
    "side.north": "North",
    "side.south": "South",
    "turn": "{name} to play",
    "winner": "{name} wins the round",
    "tactics": "Tactics {north}–{south}",
    "tactics.one": "Tactics: {n}",
    "offline": "off the line: {cards}",
    "scores": "Score {north}–{south}",
    "round": "Round {n}",
    "flag": "Flag {n}",
    "flag.claimed_by": "{name}'s",
    "flag.can_claim": "{name} can claim",
    "fog": "Fog",
    "mud": "Mud",
    "btn.pass": "Pass",
    "btn.moves": "Moves",
    "btn.settings": "Settings",
    "btn.camera": "Camera",
    "btn.history": "Matches",
    "btn.back": "Back",
    "btn.claim": "{name} claims",
    "btn.prove": "Prove it for {name}",
    "btn.fix": "Fix",
    "btn.undo_here": "Undo to here",
    "btn.choose": "It is {card}",
    "btn.other_card": "Another card…",
    "btn.new_game": "New game",
    "btn.enrol": "Enrol the deck",
    "btn.capture": "Capture",
    "btn.skip": "Skip",
    "btn.prev": "< Previous",
    "btn.next": "Next >",
    "btn.replay": "Replay",
    "btn.save": "Save",
    "problems.count": "{n} to fix: {first}",
    "problems.none": "Nothing to fix",
    "problem.doubt": "Doubtful read, {where}: {best} or {second}?",
    "problem.doubt_single": "Doubtful read, {where}: is it {best}?",
    "problem.violation": "{message}",
    "proof.title": "Flag {n}",
    "proof.for": "If {name} claims now",
    "proof.valid": "{name} can claim flag {n}",
    "proof.invalid": "{name} cannot claim flag {n}",
    "proof.won": "{name} took flag {n}: the proof",
    "proof.formation": "{name}: {formation}",
    "proof.opponent_best": "{name}'s best possible: {formation}",
    "proof.pending": "Asking the referee…",
    "claim.accepted": "{name} takes flag {n}",
    "claim.refused": "Claim refused",
    "moves.title": "Moves",
    "moves.empty": "No move yet",
    "moves.start": "Start of the game",
    "settings.title": "Settings",
    "settings.names": "Players",
    "settings.naming": "Card names",
    "settings.language": "Language",
    "settings.timing": "Claims",
    "settings.rounds": "Rounds",
    "naming.gmt-en": "GMT (English)",
    "naming.gmt-fr": "GMT (French)",
    "naming.medieval-fr": "Médiéval (French)",
    "naming.schotten-en": "IELLO (English)",
    "naming.schotten-fr": "IELLO (French)",
    "edition.ask": "Which game is this match?",
    "edition.battle-line": "Battle Line",
    "edition.battle-line-medieval": "Battle Line Médiéval",
    "edition.schotten-totten": "Schotten Totten",
    "lang.en": "English",
    "lang.fr": "Français",
    "timing.standard": "After playing (standard)",
    "timing.advanced": "Start of turn (advanced)",
    "calib.title": "Camera and flag tiles",
    "calib.ok": "All nine flag tiles found",
    "calib.missing": "Tile missing: flag {flags}",
    "calib.fix_missing": "Check that each missing tile lies flat, is not covered, "
                         "faces north with its top edge, and is inside the picture.",
    "calib.no_frame": "No picture from the camera yet",
    "calib.lock": "Lock exposure and focus",
    "calib.locked": "Exposure, white balance and focus are locked",
    "calib.error": "Camera: {message}",
    "enrol.title": "Enrol the deck",
    "enrol.ask": "Place {card} face up, alone, under the camera — {i} of {n}",
    "enrol.done": "Deck enrolled: {n} cards saved to {path}",
    "enrol.captured": "{card} captured",
    "history.title": "Recorded matches",
    "history.empty": "No recorded match yet",
    "history.players": "{north} – {south}",
    "history.won": "{name} wins, {won}–{lost}",
    "history.draw": "Draw, {north}–{south}",
    "history.unfinished": "Not finished, flags {north}–{south}",
    "history.details": "{date} · {length} · {moves} moves",
    "history.event": "{event} · {details}",
    "replay.title": "Match #{id}: {north} – {south}",
    "replay.step": "Move {i} of {n}: {action}",
    "replay.round_start": "Round {r} begins",
    "replay.play": "Play",
    "replay.pause": "Pause",
    "replay.proof_title": "Flag {n}: claimed by {name}",
    "replay.no_proof": "This flag was not claimed in this round.",
    "btn.close": "Close",
    "settings.event": "Event",
    "settings.event_hint": "Club night, tournament… (optional)",
    "move.play": "{name} plays {card} at flag {flag}",
    "move.env": "{name} lays {card} at flag {flag}",
    "move.scout": "{name} plays {guile}",
    "move.redeploy": "{name} plays {guile}: {card} from flag {from_flag} to flag {to_flag}",
    "move.redeploy_discard": "{name} plays {guile}: {card} from flag {from_flag} discarded",
    "move.deserter": "{name} plays {guile}: {card} leaves flag {flag}",
    "move.traitor": "{name} plays {guile}: {card} from flag {from_flag} to flag {to_flag}",
    "move.claim": "{name} claims flag {flag}",
    "move.pass": "{name} passes",
    "move.draw": "{name} draws a card",
    "move.other": "{name} moves",
    "error.failsafe": "Something went wrong: {message}. The game is kept; tap Back.",
    "status.waiting": "Waiting for the table…",
    "status.source_ended": "The recorded frames are over",
    "status.camera_lost": "No picture from the camera; trying again by itself ({error})",
    "status.camera_back": "The camera is back",
    "place.flag": "flag {n}, {name}'s side",
    "place.offline": "beside the line, {name}'s side",
    "last": "Last: {what}",
    "act.play": "{name} played {card} at flag {n}",
    "act.guile": "{name} played {card}",
    "act.redeploy": "{name} played {tactic}: {card} from flag {a} to flag {b}",
    "act.redeploy_discard": "{name} played {tactic}: {card} from flag {a} discarded",
    "act.deserter": "{name} played {tactic}: {card} removed from flag {n}",
    "act.traitor": "{name} played {tactic}: {card} from flag {a} to flag {b}",
    "act.claim": "{name} claimed flag {n}",
    "act.pass": "{name} passed",
    "act.draw_troop": "{name} drew a Troop card",
    "act.draw_tactics": "{name} drew a Tactics card",
    "act.draw_none": "{name} ended the turn without drawing",
    "act.other": "{name} acted",
    "wait.camera_lost": "Camera lost: check its cable; trying again by itself",
    "wait.camera": "Waiting for the camera…",
    "wait.deck": "No deck enrolled: the cards cannot be read. Camera > Enrol the deck",
    "wait.hands": "Waiting for the hands to leave the table",
    "wait.tiles": "Cannot see all nine flag tiles: uncover them",
    "wait.glare": "Glare over flag {flag}: the camera may miss cards there. Shade the light "
                  "or move the lamp",
    "wait.glare_many": "Glare over flags {flags}: the camera may miss cards there. Shade the "
                       "light or move the lamp",
    "wait.answer": "Waiting for your answer: {what}",
    "wait.answer_cast": "Waiting for your answer: {what}. This light hides the cards' colours: "
                        "set the camera's white balance, or use daylight-white lamps",
    "wait.cast": "This light hides the cards' colours: every Troop card will need your "
                 "answer. Set the camera's white balance, or use daylight-white lamps",
    "wait.fix": "Waiting for a fix: {what}",
    "wait.guile": "Waiting: {what}",
    "wait.restore": "Put the table back as recorded",
    "wait.card": "Waiting for {name} to play a card",
    "wait.card_claim": "Waiting for {name} to play a card ({claimer} may still claim)",
    "wait.next_round": "{name} won the round: clear the table for the next one",
    "wait.match_over": "Match over: {name} wins",
    "can_claim": "{name}\ncan claim",
    "claimed": "{name}'s",
    "btn.undo": "Undo…",
    "btn.redo": "Redo",
    "btn.yes_undo": "Yes, undo",
    "btn.cancel": "Cancel",
    "btn.not_a_card": "No card there",
    "btn.correct": "Correct",
    "undo.ask": "Undo {n} moves? {moves}",
    "undo.ask_one": "Undo this move? {moves}",
    "undo.done": "Undone: {moves}. Put the table back, or tap Redo",
    "redo.done": "Redone: {moves}",
    "fix.picked": "Recorded: {card} {where}",
    "fix.picked_none": "Recorded: no card {where}",
    "fix.pick_for": "{where}: read as {card}. Which card is it?",
    "fix.tap_card": "Tap a card on the table to correct it",
    "fix.no_picture": "No camera picture of this place",
    "calib.no_lock": "This camera has no exposure or focus to lock: only the Pi camera has",
    "calib.no_deck": "No deck enrolled yet: enrol the deck before the first game",
    "calib.waiting": "Waiting for the camera…",
    "enrol.refused": "Not captured: {why}",
    "enrol.one_card": "the picture shows no single card of the deck's size (measured: {size}); "
                      "lay one card alone, flat",
}

FR: dict[str, str] = {
    "app.title": "Arbitre Battle Line",
    "side.north": "Nord",
    "side.south": "Sud",
    "turn": "Au tour {name:de}",
    "winner": "{name} gagne la manche",
    "tactics": "Tactiques {north}–{south}",
    "tactics.one": "Tactiques : {n}",
    "offline": "hors ligne : {cards}",
    "scores": "Score {north}–{south}",
    "round": "Manche {n}",
    "flag": "Drapeau {n}",
    "flag.claimed_by": "{name:à}",
    "flag.can_claim": "{name} peut revendiquer",
    "fog": "Brouillard",
    "mud": "Boue",
    "btn.pass": "Passer",
    "btn.moves": "Coups",
    "btn.settings": "Réglages",
    "btn.camera": "Caméra",
    "btn.history": "Parties",
    "btn.back": "Retour",
    "btn.claim": "{name} revendique",
    "btn.prove": "Preuve pour {name}",
    "btn.fix": "Corriger",
    "btn.undo_here": "Revenir ici",
    "btn.choose": "C'est {card}",
    "btn.other_card": "Une autre carte…",
    "btn.new_game": "Nouvelle partie",
    "btn.enrol": "Apprendre les cartes",
    "btn.capture": "Capturer",
    "btn.skip": "Passer",
    "btn.prev": "< Précédent",
    "btn.next": "Suivant >",
    "btn.replay": "Revoir",
    "btn.save": "Enregistrer",
    "problems.count": "{n} à corriger : {first}",
    "problems.none": "Rien à corriger",
    "problem.doubt": "Lecture douteuse, {where} : {best} ou {second} ?",
    "problem.doubt_single": "Lecture douteuse, {where} : est-ce {best} ?",
    "problem.violation": "{message}",
    "proof.title": "Drapeau {n}",
    "proof.for": "Si {name} revendique maintenant",
    "proof.valid": "{name} peut revendiquer le drapeau {n}",
    "proof.invalid": "{name} ne peut pas revendiquer le drapeau {n}",
    "proof.won": "{name} a pris le drapeau {n} : la preuve",
    "proof.formation": "{name} : {formation}",
    "proof.opponent_best": "Meilleure formation possible {name:de} : {formation}",
    "proof.pending": "L'arbitre vérifie…",
    "claim.accepted": "{name} prend le drapeau {n}",
    "claim.refused": "Revendication refusée",
    "moves.title": "Coups joués",
    "moves.empty": "Aucun coup pour l'instant",
    "moves.start": "Début de la partie",
    "settings.title": "Réglages",
    "settings.names": "Joueurs",
    "settings.naming": "Noms des cartes",
    "settings.language": "Langue",
    "settings.timing": "Revendications",
    "settings.rounds": "Manches",
    "naming.gmt-en": "GMT (anglais)",
    "naming.gmt-fr": "GMT (français)",
    "naming.medieval-fr": "Médiéval (français)",
    "naming.schotten-en": "IELLO (anglais)",
    "naming.schotten-fr": "IELLO (français)",
    "edition.ask": "À quel jeu joue-t-on ?",
    "edition.battle-line": "Battle Line",
    "edition.battle-line-medieval": "Battle Line Médiéval",
    "edition.schotten-totten": "Schotten Totten",
    "lang.en": "English",
    "lang.fr": "Français",
    "timing.standard": "Après avoir joué (standard)",
    "timing.advanced": "Début du tour (avancé)",
    "calib.title": "Caméra et tuiles des drapeaux",
    "calib.ok": "Les neuf tuiles sont trouvées",
    "calib.missing": "Tuile manquante : drapeau {flags}",
    "calib.fix_missing": "Vérifiez que chaque tuile manquante est à plat, non couverte, "
                         "le bord haut vers Nord, et dans l'image.",
    "calib.no_frame": "Pas encore d'image de la caméra",
    "calib.lock": "Figer exposition et mise au point",
    "calib.locked": "Exposition, balance des blancs et mise au point figées",
    "calib.error": "Caméra : {message}",
    "enrol.title": "Apprendre les cartes",
    "enrol.ask": "Posez {card} face visible, seule, sous la caméra — {i} sur {n}",
    "enrol.done": "Cartes apprises : {n} cartes dans {path}",
    "enrol.captured": "{card} capturée",
    "history.title": "Parties enregistrées",
    "history.empty": "Aucune partie enregistrée",
    "history.players": "{north} – {south}",
    "history.won": "{name} gagne, {won}–{lost}",
    "history.draw": "Égalité, {north}–{south}",
    "history.unfinished": "Inachevée, drapeaux {north}–{south}",
    "history.details": "{date} · {length} · {moves} coups",
    "history.event": "{event} · {details}",
    "replay.title": "Partie n°{id} : {north} – {south}",
    "replay.step": "Coup {i} sur {n} : {action}",
    "replay.round_start": "Début de la manche {r}",
    "replay.play": "Lecture",
    "replay.pause": "Pause",
    "replay.proof_title": "Drapeau {n} : revendiqué par {name:le}",
    "replay.no_proof": "Ce drapeau n'a pas été revendiqué dans cette manche.",
    "btn.close": "Fermer",
    "settings.event": "Événement",
    "settings.event_hint": "Soirée du club, tournoi… (facultatif)",
    "move.play": "{name} joue {card} au drapeau {flag}",
    "move.env": "{name} pose {card} au drapeau {flag}",
    "move.scout": "{name} joue {guile}",
    "move.redeploy": "{name} joue {guile} : {card} du drapeau {from_flag} au drapeau {to_flag}",
    "move.redeploy_discard": "{name} joue {guile} : {card} du drapeau {from_flag} défaussée",
    "move.deserter": "{name} joue {guile} : {card} quitte le drapeau {flag}",
    "move.traitor": "{name} joue {guile} : {card} du drapeau {from_flag} au drapeau {to_flag}",
    "move.claim": "{name} revendique le drapeau {flag}",
    "move.pass": "{name} passe",
    "move.draw": "{name} pioche une carte",
    "move.other": "{name} joue",
    "error.failsafe": "Un problème est survenu : {message}. La partie est conservée ; "
                      "touchez Retour.",
    "status.waiting": "En attente de la table…",
    "status.source_ended": "Les images enregistrées sont terminées",
    "status.camera_lost": "Plus d'image de la caméra ; nouvel essai automatique ({error})",
    "status.camera_back": "La caméra est revenue",
    "place.flag": "drapeau {n}, côté {name}",
    "place.offline": "à côté de la ligne, côté {name}",
    "last": "Dernier coup : {what}",
    "act.play": "{name} a joué {card} au drapeau {n}",
    "act.guile": "{name} a joué {card}",
    "act.redeploy": "{name} a joué {tactic} : {card} du drapeau {a} au drapeau {b}",
    "act.redeploy_discard": "{name} a joué {tactic} : {card} du drapeau {a} défaussée",
    "act.deserter": "{name} a joué {tactic} : {card} retirée du drapeau {n}",
    "act.traitor": "{name} a joué {tactic} : {card} du drapeau {a} au drapeau {b}",
    "act.claim": "{name} a revendiqué le drapeau {n}",
    "act.pass": "{name} a passé",
    "act.draw_troop": "{name} a pioché une carte Troupe",
    "act.draw_tactics": "{name} a pioché une carte Tactique",
    "act.draw_none": "{name} a fini son tour sans piocher",
    "act.other": "{name} a joué",
    "wait.camera_lost": "Caméra perdue : vérifiez son câble ; nouvel essai automatique",
    "wait.camera": "En attente de la caméra…",
    "wait.deck": "Aucun jeu de cartes appris : les cartes ne peuvent pas être lues. "
                 "Caméra > Apprendre les cartes",
    "wait.hands": "En attente : des mains sont au-dessus de la table",
    "wait.tiles": "Les neuf tuiles ne sont pas toutes visibles : découvrez-les",
    "wait.glare": "Reflet sur le drapeau {flag} : la caméra peut y manquer des cartes. "
                  "Masquez la lumière ou déplacez la lampe",
    "wait.glare_many": "Reflet sur les drapeaux {flags} : la caméra peut y manquer des cartes. "
                       "Masquez la lumière ou déplacez la lampe",
    "wait.answer": "En attente de votre réponse : {what}",
    "wait.answer_cast": "En attente de votre réponse : {what}. Cette lumière cache les "
                        "couleurs des cartes : réglez la balance des blancs de la caméra, ou "
                        "éclairez avec des lampes lumière du jour",
    "wait.cast": "Cette lumière cache les couleurs des cartes : chaque carte Troupe demandera "
                 "votre réponse. Réglez la balance des blancs de la caméra, ou éclairez avec "
                 "des lampes lumière du jour",
    "wait.fix": "En attente d'une correction : {what}",
    "wait.guile": "En attente : {what}",
    "wait.restore": "Remettez la table comme enregistrée",
    "wait.card": "En attente d'une carte {name:de}",
    "wait.card_claim": "En attente d'une carte {name:de} ({claimer} peut encore revendiquer)",
    "wait.next_round": "{name} a gagné la manche : videz la table pour la suivante",
    "wait.match_over": "Match terminé : {name} gagne",
    "can_claim": "{name} peut\nle prendre",
    "claimed": "{name:à}",
    "btn.undo": "Annuler…",
    "btn.redo": "Rétablir",
    "btn.yes_undo": "Oui, annuler",
    "btn.cancel": "Non",
    "btn.not_a_card": "Pas de carte ici",
    "btn.correct": "Corriger",
    "undo.ask": "Annuler {n} coups ? {moves}",
    "undo.ask_one": "Annuler ce coup ? {moves}",
    "undo.done": "Annulé : {moves}. Remettez la table, ou touchez Rétablir",
    "redo.done": "Rétabli : {moves}",
    "fix.picked": "Enregistré : {card}, {where}",
    "fix.picked_none": "Enregistré : pas de carte, {where}",
    "fix.pick_for": "{where} : lue comme {card}. Quelle carte est-ce ?",
    "fix.tap_card": "Touchez une carte de la table pour la corriger",
    "fix.no_picture": "Pas d'image de la caméra pour cet endroit",
    "calib.no_lock": "Cette caméra n'a ni exposition ni mise au point à figer : seule la "
                     "caméra du Pi en a",
    "calib.no_deck": "Aucun jeu de cartes appris : apprenez les cartes avant la première partie",
    "calib.waiting": "En attente de la caméra…",
    "enrol.refused": "Non capturée : {why}",
    "enrol.one_card": "l'image ne montre pas une seule carte de la taille du jeu (mesuré : "
                      "{size}) ; "
                      "posez une carte seule, à plat",
}

STRINGS: dict[str, dict[str, str]] = {"en": EN, "fr": FR}

# Schotten Totten's own sentences, by contract 1 `edition` (`Edition.rules`) and language:
# each replaces the sentence of the same key and keeps its `{placeholders}` (a test says so).
ST_EN: dict[str, str] = {
    "flag": "Stone {n}",
    "proof.title": "Stone {n}",
    "proof.valid": "{name} can claim stone {n}",
    "proof.invalid": "{name} cannot claim stone {n}",
    "proof.won": "{name} took stone {n}: the proof",
    "claim.accepted": "{name} takes stone {n}",
    "fog": "Blind-Man's Bluff",
    "mud": "Mud Fight",
    "calib.title": "Camera and stone tiles",
    "calib.ok": "All nine stone tiles found",
    "calib.missing": "Tile missing: stone {flags}",
    "history.unfinished": "Not finished, stones {north}–{south}",
    "replay.proof_title": "Stone {n}: claimed by {name}",
    "replay.no_proof": "This stone was not claimed in this round.",
    "move.play": "{name} plays {card} at stone {flag}",
    "move.env": "{name} lays {card} at stone {flag}",
    "move.redeploy": "{name} plays {guile}: {card} from stone {from_flag} to stone {to_flag}",
    "move.redeploy_discard": "{name} plays {guile}: {card} from stone {from_flag} discarded",
    "move.deserter": "{name} plays {guile}: {card} leaves stone {flag}",
    "move.traitor": "{name} plays {guile}: {card} from stone {from_flag} to stone {to_flag}",
    "move.claim": "{name} claims stone {flag}",
    "place.flag": "stone {n}, {name}'s side",
    "act.play": "{name} played {card} at stone {n}",
    "act.redeploy": "{name} played {tactic}: {card} from stone {a} to stone {b}",
    "act.redeploy_discard": "{name} played {tactic}: {card} from stone {a} discarded",
    "act.deserter": "{name} played {tactic}: {card} removed from stone {n}",
    "act.traitor": "{name} played {tactic}: {card} from stone {a} to stone {b}",
    "act.claim": "{name} claimed stone {n}",
    "act.draw_troop": "{name} drew a Clan card",
    "act.draw_tactics": "{name} drew a Tactic card",
    "wait.tiles": "Cannot see all nine stone tiles: uncover them",
    "wait.glare": "Glare over stone {flag}: the camera may miss cards there. Shade the light "
                  "or move the lamp",
    "wait.glare_many": "Glare over stones {flags}: the camera may miss cards there. Shade the "
                       "light or move the lamp",
}

ST_FR: dict[str, str] = {
    "flag": "Borne {n}",
    "proof.title": "Borne {n}",
    "proof.valid": "{name} peut revendiquer la borne {n}",
    "proof.invalid": "{name} ne peut pas revendiquer la borne {n}",
    "proof.won": "{name} a pris la borne {n} : la preuve",
    "claim.accepted": "{name} prend la borne {n}",
    "fog": "Colin-Maillard",
    "mud": "Combat de Boue",
    "calib.title": "Caméra et tuiles des bornes",
    "calib.ok": "Les neuf tuiles des bornes sont trouvées",
    "calib.missing": "Tuile manquante : borne {flags}",
    "history.unfinished": "Inachevée, bornes {north}–{south}",
    "replay.proof_title": "Borne {n} : revendiquée par {name:le}",
    "replay.no_proof": "Cette borne n'a pas été revendiquée dans cette manche.",
    "move.play": "{name} joue {card} à la borne {flag}",
    "move.env": "{name} pose {card} à la borne {flag}",
    "move.redeploy": "{name} joue {guile} : {card} de la borne {from_flag} à la borne {to_flag}",
    "move.redeploy_discard": "{name} joue {guile} : {card} de la borne {from_flag} défaussée",
    "move.deserter": "{name} joue {guile} : {card} quitte la borne {flag}",
    "move.traitor": "{name} joue {guile} : {card} de la borne {from_flag} à la borne {to_flag}",
    "move.claim": "{name} revendique la borne {flag}",
    "place.flag": "borne {n}, côté {name}",
    "act.play": "{name} a joué {card} à la borne {n}",
    "act.redeploy": "{name} a joué {tactic} : {card} de la borne {a} à la borne {b}",
    "act.redeploy_discard": "{name} a joué {tactic} : {card} de la borne {a} défaussée",
    "act.deserter": "{name} a joué {tactic} : {card} retirée de la borne {n}",
    "act.traitor": "{name} a joué {tactic} : {card} de la borne {a} à la borne {b}",
    "act.claim": "{name} a revendiqué la borne {n}",
    "act.draw_troop": "{name} a pioché une carte Clan",
    "act.draw_tactics": "{name} a pioché une carte Tactique",
    "wait.tiles": "Les neuf tuiles des bornes ne sont pas toutes visibles : découvrez-les",
    "wait.glare": "Reflet sur la borne {flag} : la caméra peut y manquer des cartes. "
                  "Masquez la lumière ou déplacez la lampe",
    "wait.glare_many": "Reflet sur les bornes {flags} : la caméra peut y manquer des cartes. "
                       "Masquez la lumière ou déplacez la lampe",
    "can_claim": "{name} peut\nla prendre",
}

EDITION_TEXTS: dict[str, dict[str, dict[str, str]]] = {
    "schotten-totten": {"en": ST_EN, "fr": ST_FR},
}
"""An edition's own sentences, by `Edition.rules`; Battle Line (both editions) has none."""


_DEFAULT_FR = {"Nord", "Sud"}
_VOWELS = tuple("AEIOUYÉÈÊÀÂÎÔaeiouyéèêàâîôhH")


class _Formatter(string.Formatter):
    """`{name:de}`, `{name:à}` and `{name:le}`: French "du Sud", "de Brune", "d'Anne", "au
    Nord", "à Brune", "par le Sud" (the default names take the article; a player's own name
    does not)."""

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == "le" and isinstance(value, str):
            return f"le {value}" if value in _DEFAULT_FR else value
        if format_spec in ("de", "à") and isinstance(value, str):
            if value in _DEFAULT_FR:
                return ("du " if format_spec == "de" else "au ") + value
            if format_spec == "de" and value.startswith(_VOWELS):
                return "d'" + value
            return f"{format_spec} {value}"
        return super().format_field(value, format_spec)


_FORMAT = _Formatter()


def tr(key: str, lang: str = "en", edition: Edition | None = None, **values: object) -> str:
    """The text `key` in `lang`, in the words of `edition` (None: Battle Line's), with its
    `{placeholders}` filled from `values`."""
    table = STRINGS.get(lang)
    if table is None:
        raise UnknownTextError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    try:
        text = table[key]
    except KeyError:
        raise UnknownTextError(f"no text {key!r} in the {lang!r} table") from None
    if edition is not None:
        text = EDITION_TEXTS.get(edition.rules, {}).get(lang, {}).get(key, text)
    return _FORMAT.vformat(text, (), values) if values else text
