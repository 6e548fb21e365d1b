"""Screen colours, shared by the Python and the kv of every screen (RGBA, 0-1).

The players are told apart by their side of the screen and their names, never by a colour:
both sides share one neutral colour, which is no suit's colour (and so no red/green pair).
A card's suit is its colour *and* its mark (`SUIT_MARKS`), so that a colour-blind player
reads it by the shape.  The LEDs follow the same rule (`hardware/pinmap.yaml`).
Each edition's cards are drawn in the colours it names them (`EDITION_RGBA`): the suit
Battle Line prints orange is Schotten Totten's brown clan.
"""

from __future__ import annotations

from companion.rules.edition import Edition

RGBA = tuple[float, float, float, float]

CARD_RGBA = {
    "R": (0.80, 0.15, 0.15, 1), "O": (0.96, 0.55, 0.10, 1), "Y": (0.97, 0.86, 0.20, 1),
    "G": (0.20, 0.62, 0.25, 1), "B": (0.15, 0.35, 0.80, 1), "P": (0.50, 0.25, 0.65, 1),
}
BROWN_RGBA = (0.48, 0.30, 0.16, 1)
EDITION_RGBA: dict[str, dict[str, RGBA]] = {
    "battle-line": CARD_RGBA,
    "schotten-totten": {**CARD_RGBA, "O": BROWN_RGBA},
}
"""Card colours by `Edition.rules`, as the edition names them (`cards.colour_name`)."""
EDITION_DARK_TEXT: dict[str, frozenset[str]] = {
    "battle-line": frozenset({"O", "Y"}),      # orange and yellow: black text on them
    "schotten-totten": frozenset({"Y"}),       # brown is dark: white text
}
SUIT_MARKS = {"R": "circle", "O": "triangle", "Y": "star", "G": "square", "B": "diamond",
              "P": "cross"}
"""One distinct shape per suit, drawn on every card face beside its value."""
TACTIC_RGBA = (0.90, 0.88, 0.80, 1)
DARK_TEXT = EDITION_DARK_TEXT["battle-line"]


def card_rgba(colour: str, edition: Edition) -> RGBA:
    """The face colour of a card of `colour` (`R`, `O`, ...) in `edition`."""
    return EDITION_RGBA[edition.rules].get(colour, TACTIC_RGBA)


def dark_text(colour: str, edition: Edition) -> bool:
    """Whether a face of `colour` is light enough to need black text."""
    return colour in EDITION_DARK_TEXT[edition.rules]
PLAYER_RGBA = (0.92, 0.92, 0.95, 1)
SIDE_RGBA = {"north": PLAYER_RGBA, "south": PLAYER_RGBA}
CLAIM_RGBA = (1.0, 1.0, 1.0, 1)          # the "can claim" band: white, black text
CLAIMED_RGBA = (0.36, 0.36, 0.42, 1)     # a taken flag: its owner named on it
ATTENTION_RGBA = (1.0, 0.70, 0.0, 1)
