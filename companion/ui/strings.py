"""Every text of the touchscreen, one table per language (English and French).

Screens never hold a literal sentence: they call `tr(key, lang, **values)`.  A test checks
that both tables have the same keys and the same `{placeholders}`.  Proof texts are the rules
core's own (`ClaimVerdict.proof(lang, naming)`), and so are violations and refusals
(`companion.rules.messages`): they are not translated here.
"""

from __future__ import annotations

from companion.errors import CompanionError

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
    "tactics.one": "Tactics played: {n}",
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
    "problem.doubt": "Doubtful read at {where}: {best} or {second}?",
    "problem.doubt_single": "Doubtful read at {where}: is it {best}?",
    "problem.violation": "{message}",
    "proof.title": "Flag {n}",
    "proof.for": "If {name} claims now",
    "proof.valid": "{name} can claim flag {n}",
    "proof.invalid": "{name} cannot claim flag {n}",
    "proof.formation": "{name}: {formation}",
    "proof.opponent_best": "{name}'s best possible",
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
    "history.row": "#{id}  {date}  {north} – {south}  ({entries} entries)",
    "replay.title": "Replay of match #{id}",
    "replay.step": "Step {i} of {n}: {action}",
    "error.failsafe": "Something went wrong: {message}. The game is kept; tap Back.",
    "status.waiting": "Waiting for the table…",
    "status.source_ended": "The recorded frames are over",
    "status.camera_lost": "No picture from the camera; trying again by itself ({error})",
    "status.camera_back": "The camera is back",
}

FR: dict[str, str] = {
    "app.title": "Arbitre Battle Line",
    "side.north": "Nord",
    "side.south": "Sud",
    "turn": "Au tour de {name}",
    "winner": "{name} gagne la manche",
    "tactics": "Tactiques {north}–{south}",
    "tactics.one": "Tactiques jouées : {n}",
    "offline": "hors ligne : {cards}",
    "scores": "Score {north}–{south}",
    "round": "Manche {n}",
    "flag": "Drapeau {n}",
    "flag.claimed_by": "à {name}",
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
    "btn.enrol": "Enregistrer le jeu",
    "btn.capture": "Capturer",
    "btn.skip": "Passer",
    "btn.prev": "< Précédent",
    "btn.next": "Suivant >",
    "btn.replay": "Revoir",
    "btn.save": "Enregistrer",
    "problems.count": "{n} à corriger : {first}",
    "problems.none": "Rien à corriger",
    "problem.doubt": "Lecture douteuse en {where} : {best} ou {second} ?",
    "problem.doubt_single": "Lecture douteuse en {where} : est-ce {best} ?",
    "problem.violation": "{message}",
    "proof.title": "Drapeau {n}",
    "proof.for": "Si {name} revendique maintenant",
    "proof.valid": "{name} peut revendiquer le drapeau {n}",
    "proof.invalid": "{name} ne peut pas revendiquer le drapeau {n}",
    "proof.formation": "{name} : {formation}",
    "proof.opponent_best": "Meilleure formation possible de {name}",
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
    "enrol.title": "Enregistrer le jeu",
    "enrol.ask": "Posez {card} face visible, seule, sous la caméra — {i} sur {n}",
    "enrol.done": "Jeu enregistré : {n} cartes dans {path}",
    "enrol.captured": "{card} capturée",
    "history.title": "Parties enregistrées",
    "history.empty": "Aucune partie enregistrée",
    "history.row": "n°{id}  {date}  {north} – {south}  ({entries} entrées)",
    "replay.title": "Partie n°{id}",
    "replay.step": "Étape {i} sur {n} : {action}",
    "error.failsafe": "Un problème est survenu : {message}. La partie est conservée ; "
                      "touchez Retour.",
    "status.waiting": "En attente de la table…",
    "status.source_ended": "Les images enregistrées sont terminées",
    "status.camera_lost": "Plus d'image de la caméra ; nouvel essai automatique ({error})",
    "status.camera_back": "La caméra est revenue",
}

STRINGS: dict[str, dict[str, str]] = {"en": EN, "fr": FR}


def tr(key: str, lang: str = "en", **values: object) -> str:
    """The text `key` in `lang`, with its `{placeholders}` filled from `values`."""
    table = STRINGS.get(lang)
    if table is None:
        raise UnknownTextError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    try:
        text = table[key]
    except KeyError:
        raise UnknownTextError(f"no text {key!r} in the {lang!r} table") from None
    return text.format(**values) if values else text
