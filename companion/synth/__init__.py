"""The synthetic table: seeded overhead frames of a Battle Line table, for tests and the demo.

`Scene` says what lies on the table, a `Printing` how the cards look, `render` draws the
frame (BGR uint8) and `Scene.observation()` is its ground truth (contract 2).
"""

from companion.synth.faces import (
    PRINTINGS, Printing, card_face, printing_a, printing_b, printing_named, random_printing,
    write_deck_images)
from companion.synth.render import (
    REFERENCE_RIG, RIGS, WEBCAM_RIG, Degrade, Placement, Rig, Setup, placements, render,
    render_lores)
from companion.synth.errors import SynthError
from companion.synth.scene import FlagScene, Hand, Scene
from companion.synth.zoo import FAMILIES, HELD_OUT, TUNING, family_printing, rendition

__all__ = ["FAMILIES", "HELD_OUT", "PRINTINGS", "REFERENCE_RIG", "RIGS", "TUNING", "WEBCAM_RIG",
           "Degrade", "FlagScene", "Hand", "Placement", "Printing", "Rig", "Scene", "Setup",
           "family_printing", "rendition",
           "SynthError", "card_face", "placements", "printing_a", "printing_b", "printing_named",
           "random_printing",
           "render", "render_lores", "write_deck_images"]
