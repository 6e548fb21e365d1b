"""Screen colours, shared by the Python and the kv of every screen (RGBA, 0-1).

North is red and south is green, the same as the LEDs (`hardware/pinmap.yaml`).
"""

CARD_RGBA = {
    "R": (0.80, 0.15, 0.15, 1), "O": (0.96, 0.55, 0.10, 1), "Y": (0.97, 0.86, 0.20, 1),
    "G": (0.20, 0.62, 0.25, 1), "B": (0.15, 0.35, 0.80, 1), "P": (0.50, 0.25, 0.65, 1),
}
TACTIC_RGBA = (0.90, 0.88, 0.80, 1)
DARK_TEXT = {"O", "Y"}          # light card colours: black text on them
SIDE_RGBA = {"north": (0.85, 0.20, 0.20, 1), "south": (0.20, 0.70, 0.30, 1)}
ATTENTION_RGBA = (1.0, 0.70, 0.0, 1)
