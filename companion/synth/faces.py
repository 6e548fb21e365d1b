"""Our own card faces for the 70 cards, in several printings (never copies of real artwork).

A `Printing` fixes the font, the shades and the top-band layout.  Only the top band (the edge
nearest the flag, about `ECHELON_STEP` mm deep) shows under an echelon, so it always carries
the value and the colour of a Troop, and a distinctive mark and name for a Tactics card.
`random_printing(seed)` invents a printing never seen before, within sensible bounds, so the
pipeline is tested on art it was not tuned to; the printing zoo (`zoo.py`) draws on the wider
range of looks here (banners, corner pips, full-bleed pictures, gems, border stripes, dark
stock, other card sizes, other languages).  Faces are BGR uint8, upright.
"""

from __future__ import annotations

import colorsys
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from companion.rules.cards import BY_CODE, COLOURS, Card, card_index
from companion.rules.edition import EDITIONS
from companion.vision.geometry import CARD_H, CARD_W
from companion.synth.errors import SynthError

BGR = tuple[int, int, int]
Layout = Literal["corner", "band", "ribbon", "banner", "pip-corners", "disc", "gem", "stripe",
                 "centred", "word"]
Body = Literal["emblem", "pips", "stripes", "picture", "bleed"]
Align = Literal["left", "centre", "right"]
TacticStyle = Literal["mark", "picture"]

FACE_PX_PER_MM = 8.0          # deck images: 504 x 704 px, about 200 dpi
LAYOUTS: tuple[Layout, ...] = ("corner", "band", "ribbon", "banner", "pip-corners", "disc", "gem",
                               "stripe", "centred", "word")
BODIES: tuple[Body, ...] = ("emblem", "pips", "stripes", "picture", "bleed")
ALIGNS: tuple[Align, ...] = ("left", "centre", "right")
# The first printings' layouts and bodies, which `random_printing` draws from.
_OLD_LAYOUTS: tuple[Layout, ...] = ("corner", "band", "ribbon")
_OLD_BODIES: tuple[Body, ...] = ("emblem", "pips", "stripes")
LANGUAGES = ("en", "fr", "de")
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX)
SERIF_FONTS = (cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX)

# Short names for the top band of Tactics cards (the full name goes on the body).
_TACTIC_LABEL = {"ALEXANDER": "ALEXANDER", "DARIUS": "DARIUS", "CAVALRY": "CAVALRY",
                 "SHIELD": "SHIELDS", "FOG": "FOG", "MUD": "MUD", "SCOUT": "SCOUT",
                 "REDEPLOY": "REDEPLOY", "DESERTER": "DESERTER", "TRAITOR": "TRAITOR"}
# The Tactics cards' names as printed in other editions' languages (plain letters: the
# drawing fonts have no accents).
_TACTIC_WORDS = {
    "en": _TACTIC_LABEL,
    "fr": {"ALEXANDER": "ALEXANDRE", "DARIUS": "DARIUS", "CAVALRY": "CAVALERIE",
           "SHIELD": "BOUCLIERS", "FOG": "BROUILLARD", "MUD": "BOUE", "SCOUT": "ECLAIREUR",
           "REDEPLOY": "REDEPLOIEMENT", "DESERTER": "DESERTEUR", "TRAITOR": "TRAITRE"},
    "de": {"ALEXANDER": "ALEXANDER", "DARIUS": "DARIUS", "CAVALRY": "KAVALLERIE",
           "SHIELD": "SCHILDE", "FOG": "NEBEL", "MUD": "SUMPF", "SCOUT": "SPAEHER",
           "REDEPLOY": "UMGRUPPIEREN", "DESERTER": "DESERTEUR", "TRAITOR": "VERRAETER"},
}
# Schotten Totten printings (`Printing.edition`): their own Tactic names and the brown clan
# in the slot of Battle Line's orange (docs/editions.md).  The two Jokers are told apart by
# their marks, as Battle Line's two Leaders.
_ST_TACTIC_WORDS = {
    "en": {"ALEXANDER": "JOKER", "DARIUS": "JOKER", "SPY": "SPY", "SHIELD": "SHIELD-BEARER",
           "FOG": "BLIND-MAN'S BLUFF", "MUD": "MUD FIGHT", "SCOUT": "RECRUITER",
           "REDEPLOY": "STRATEGIST", "DESERTER": "BANSHEE", "TRAITOR": "TRAITOR"},
    "fr": {"ALEXANDER": "JOKER", "DARIUS": "JOKER", "SPY": "ESPION", "SHIELD": "PORTE-BOUCLIER",
           "FOG": "COLIN-MAILLARD", "MUD": "COMBAT DE BOUE", "SCOUT": "CHASSEUR DE TETE",
           "REDEPLOY": "STRATEGE", "DESERTER": "BANSHEE", "TRAITOR": "TRAITRE"},
}
_ST_COLOUR_WORDS = {
    "en": dict(zip(COLOURS, ("RED", "BROWN", "YELLOW", "GREEN", "BLUE", "PURPLE"))),
    "fr": dict(zip(COLOURS, ("ROUGE", "MARRON", "JAUNE", "VERT", "BLEU", "VIOLET"))),
}
_FAMILY_INDEX = {"morale": 0, "environment": 1, "guile": 2}
_COLOUR_WORD = dict(zip(COLOURS, ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE")))
_COLOUR_WORDS = {
    "en": _COLOUR_WORD,
    "fr": dict(zip(COLOURS, ("ROUGE", "ORANGE", "JAUNE", "VERT", "BLEU", "VIOLET"))),
    "de": dict(zip(COLOURS, ("ROT", "ORANGE", "GELB", "GRUEN", "BLAU", "LILA"))),
}


@dataclass(frozen=True, slots=True)
class Tone:
    """How one copy of a printing comes out: another print run, paper, scanner or light.

    Applied to the whole face after drawing: hue turned by `hue_deg`, saturation scaled,
    a gamma, the black lifted to `black` (0-1), then every channel multiplied by `paper`
    (BGR gains, the paper's tint).  The card's identity never changes, only its colours.
    """

    hue_deg: float = 0.0
    saturation: float = 1.0
    gamma: float = 1.0
    black: float = 0.0
    paper: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def __post_init__(self) -> None:
        checks = [("hue_deg", abs(self.hue_deg) <= 20),
                  ("saturation", 0.5 <= self.saturation <= 1.5),
                  ("gamma", 0.6 <= self.gamma <= 1.6), ("black", 0.0 <= self.black <= 0.25),
                  ("paper", len(self.paper) == 3 and all(0.7 <= g <= 1.05 for g in self.paper))]
        for name, ok in checks:
            if not ok:
                raise SynthError(f"tone {name}={getattr(self, name)!r} is out of range")

    def apply(self, img: np.ndarray) -> np.ndarray:
        """`img` (BGR uint8) as this copy shows it."""
        # Lookup tables on 8-bit values: a deck's 70 faces are toned in well under a second.
        if self.hue_deg or self.saturation != 1.0:
            hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV_FULL)     # hue 0-255 for 0-360 degrees
            turn = int(round(self.hue_deg * 256 / 360)) % 256
            hue = ((np.arange(256) + turn) % 256).astype(np.uint8)
            sat = np.clip(np.arange(256) * self.saturation + 0.5, 0, 255).astype(np.uint8)
            same = np.arange(256, dtype=np.uint8)
            hsv = cv2.LUT(hsv, np.dstack([hue, sat, same]).reshape(256, 1, 3))
            img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL)
        v = (np.arange(256, dtype=np.float64) / 255.0) ** self.gamma
        v = self.black + (1.0 - self.black) * v
        lut = np.stack([np.clip(v * g * 255.0 + 0.5, 0, 255) for g in self.paper], axis=-1)
        return cv2.LUT(np.ascontiguousarray(img), lut.astype(np.uint8).reshape(256, 1, 3))


@dataclass(frozen=True, slots=True)
class Printing:
    """How one edition of the deck looks.  Hashable: faces are cached per printing."""

    name: str
    font: int                          # an OpenCV Hershey font
    italic: bool
    weight: float                      # stroke width as a fraction of the text height
    paper: BGR
    ink: BGR
    colours: tuple[BGR, BGR, BGR, BGR, BGR, BGR]   # red, orange, yellow, green, blue, purple
    tactic_colours: tuple[BGR, BGR, BGR]           # morale, environment, guile
    layout: Layout                     # top-band layout
    band_mm: float                     # depth of the top band
    body: Body
    frame: bool                        # an inner frame line
    corner_index: bool                 # the value again, upside down, bottom right
    art_seed: int = 0                  # small variations of the body art
    card_w: float = CARD_W             # the card's real size in mm: the table lays it so
    card_h: float = CARD_H
    align: Align = "left"              # where a single numeral stands in the band
    numeral: float = 1.0               # the numeral's size against its layout's box (0.5-1.2)
    numeral_font: int | None = None    # the numeral's own font (None: `font`)
    art_in_band: bool = False          # the illustration reaches up into the top band
    border_mm: float = 0.0             # a border stripe in the card's colour (0: none)
    tactics: TacticStyle = "mark"      # Tactics band: a mark and a name, or a picture and a word
    language: str = "en"               # of the Tactics names and colour words
    tone: Tone | None = None           # this copy's colours (None: as designed)
    edition: str = "battle-line"       # whose cards: Battle Line's 70, Schotten Totten's 64

    def __post_init__(self) -> None:
        if not (56.0 <= self.card_w <= 64.0 and 0.62 <= self.card_w / self.card_h <= 0.72):
            raise SynthError(f"printing {self.name!r}: a {self.card_w}x{self.card_h} mm card is "
                             "not 56-64 mm wide with an aspect of 0.62-0.72")
        if self.align not in ALIGNS:
            raise SynthError(f"printing {self.name!r}: unknown numeral alignment {self.align!r}")
        if self.tactics not in ("mark", "picture"):
            raise SynthError(f"printing {self.name!r}: unknown Tactics style {self.tactics!r}")
        if self.language not in LANGUAGES:
            raise SynthError(f"printing {self.name!r}: no words in the language {self.language!r}")
        if self.edition not in EDITIONS:
            raise SynthError(f"printing {self.name!r}: unknown edition {self.edition!r}")
        if self.schotten and self.language not in _ST_TACTIC_WORDS:
            raise SynthError(f"printing {self.name!r}: Schotten Totten printings are in "
                             "English or French")
        if not 0.5 <= self.numeral <= 1.2:
            raise SynthError(f"printing {self.name!r}: numeral size {self.numeral} is not 0.5-1.2")
        if not 0.0 <= self.border_mm <= 5.0:
            raise SynthError(f"printing {self.name!r}: border of {self.border_mm} mm is not 0-5")
        if self.layout not in LAYOUTS:
            raise SynthError(f"printing {self.name!r}: unknown top-band layout {self.layout!r}")
        if self.body not in BODIES:
            raise SynthError(f"printing {self.name!r}: unknown body style {self.body!r}")
        if len(self.colours) != 6 or len(self.tactic_colours) != 3:
            raise SynthError(f"printing {self.name!r} needs 6 troop and 3 tactics colours")
        if not 10.0 <= self.band_mm <= 20.0:
            raise SynthError(f"printing {self.name!r}: top band of {self.band_mm} mm is not "
                             "10-20 mm (it must show under an echelon)")

    def colour(self, letter: str) -> BGR:
        return self.colours[COLOURS.index(letter)]

    @property
    def schotten(self) -> bool:
        return self.edition == "schotten-totten"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of this printing's edition."""
        return EDITIONS[self.edition].cards

    def tactic_word(self, code: str, label: bool = False) -> str:
        """A Tactics card's name as printed: its `language`'s (the English label in the top
        band of the project's first printings, `label`)."""
        if self.schotten:
            return _ST_TACTIC_WORDS["en" if label else self.language][code]
        return _TACTIC_LABEL[code] if label else _TACTIC_WORDS[self.language][code]

    def colour_word(self, letter: str, english: bool = False) -> str:
        if self.schotten:
            return _ST_COLOUR_WORDS["en" if english else self.language][letter]
        return _COLOUR_WORD[letter] if english else _COLOUR_WORDS[self.language][letter]


def printing_a() -> Printing:
    """The classic printing: value top-left in colour and a colour bar, emblem body."""
    return Printing(
        name="classic", font=cv2.FONT_HERSHEY_DUPLEX, italic=False, weight=0.16,
        paper=(228, 240, 247), ink=(45, 35, 30),
        colours=((40, 38, 212), (18, 128, 248), (28, 208, 242), (58, 148, 32), (188, 98, 22),
                 (138, 40, 118)),
        tactic_colours=((30, 140, 196), (120, 108, 92), (62, 40, 84)),
        layout="corner", band_mm=17.0, body="emblem", frame=True, corner_index=True)


def printing_b() -> Printing:
    """The bold printing: value centred on a full colour band with pips, pip body."""
    return Printing(
        name="bold", font=cv2.FONT_HERSHEY_TRIPLEX, italic=False, weight=0.13,
        paper=(250, 250, 250), ink=(20, 20, 20),
        colours=((58, 30, 196), (0, 108, 236), (10, 196, 236), (84, 172, 66), (164, 76, 38),
                 (156, 64, 150)),
        tactic_colours=((26, 26, 26), (150, 146, 140), (96, 64, 40)),
        layout="band", band_mm=15.0, body="pips", frame=False, corner_index=False)


PRINTINGS: dict[str, Printing] = {"classic": printing_a(), "bold": printing_b()}

# Hue (degrees), saturation and value bounds per troop colour for invented printings: wide
# enough to be new art, narrow enough that a player would still name the colour.
_HSV_BOUNDS = {
    "R": ((-8, 6), (0.72, 0.95), (0.68, 0.92)),
    "O": ((22, 33), (0.80, 1.00), (0.90, 1.00)),
    "Y": ((48, 58), (0.72, 1.00), (0.88, 1.00)),
    "G": ((100, 145), (0.55, 0.90), (0.45, 0.72)),
    "B": ((200, 228), (0.65, 0.95), (0.55, 0.85)),
    "P": ((272, 302), (0.50, 0.85), (0.42, 0.68)),
}


def _hsv(rng: np.random.Generator, bounds: tuple[tuple[float, float], ...]) -> BGR:
    (h0, h1), (s0, s1), (v0, v1) = bounds
    r, g, b = colorsys.hsv_to_rgb((rng.uniform(h0, h1) % 360) / 360, rng.uniform(s0, s1),
                                  rng.uniform(v0, v1))
    return int(round(b * 255)), int(round(g * 255)), int(round(r * 255))


def seed_words(seed: int) -> int:
    """Any integer seed as the non-negative integer numpy's generators take."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise SynthError(f"a seed must be an integer, not {seed!r}")
    return int(seed) % (1 << 64)


def random_printing(seed: int) -> Printing:
    """A printing never seen before, drawn from `seed` within sensible bounds."""
    rng = np.random.default_rng([seed_words(seed), 0x5EED])
    tint = rng.uniform(-12, 6, 3)
    paper = tuple(int(np.clip(246 + t, 200, 255)) for t in tint)
    ink_v = int(rng.integers(10, 60))
    ink = (ink_v + int(rng.integers(0, 20)), ink_v, ink_v + int(rng.integers(0, 15)))
    colours = tuple(_hsv(rng, _HSV_BOUNDS[c]) for c in COLOURS)
    tactic = (_hsv(rng, ((30, 50), (0.5, 0.9), (0.5, 0.8))),      # golds and browns
              _hsv(rng, ((0, 360), (0.0, 0.15), (0.35, 0.65))),   # greys
              _hsv(rng, ((0, 360), (0.3, 0.7), (0.15, 0.35))))    # dark shades
    return Printing(
        name=f"random-{seed}", font=int(rng.choice(FONTS)), italic=bool(rng.random() < 0.25),
        weight=float(rng.uniform(0.10, 0.20)), paper=paper, ink=ink,  # type: ignore[arg-type]
        colours=colours, tactic_colours=tactic,  # type: ignore[arg-type]
        layout=_OLD_LAYOUTS[int(rng.integers(len(_OLD_LAYOUTS)))],
        band_mm=float(rng.uniform(13.0, 19.0)),
        body=_OLD_BODIES[int(rng.integers(len(_OLD_BODIES)))], frame=bool(rng.random() < 0.5),
        corner_index=bool(rng.random() < 0.5), art_seed=int(rng.integers(1 << 30)))


def printing_named(name: str) -> Printing:
    """A synthetic printing by name: one of `PRINTINGS`, `random-N` (seeded), or a family of
    the zoo: `FAMILY` (its seed 0) or `FAMILY-N` (seed N)."""
    from companion.synth import zoo    # the zoo builds on this module
    if name in PRINTINGS:
        return PRINTINGS[name]
    if name.startswith("random-") and name[7:].isdigit():
        return random_printing(int(name[7:]))
    family, _, seed = name.rpartition("-")
    families = {**zoo.FAMILIES, **zoo.SCHOTTEN_FAMILIES}
    if name in families:
        return families[name](0)
    if family in families and seed.isdigit():
        return families[family](int(seed))
    raise SynthError(f"unknown printing {name!r}: use {', '.join(sorted(PRINTINGS))}, random-N, "
                     f"or a family ({', '.join(families)}) as FAMILY or FAMILY-N")


# -- drawing ------------------------------------------------------------------------------------
class _Pen:
    """Draws on one face at `s` px/mm in the printing's font."""

    def __init__(self, img: np.ndarray, s: float, printing: Printing) -> None:
        self.img, self.s, self.pr = img, s, printing
        self.W, self.H = printing.card_w, printing.card_h
        self.font = printing.font | (cv2.FONT_ITALIC if printing.italic else 0)
        self.numeral_font = (self.font if printing.numeral_font is None
                             else printing.numeral_font | (self.font & cv2.FONT_ITALIC))

    def p(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x * self.s)), int(round(y * self.s))

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: BGR) -> None:
        cv2.rectangle(self.img, self.p(x0, y0), self.p(x1, y1), colour, -1)

    def text(self, text: str, box: tuple[float, float, float, float], colour: BGR,
             align: str = "centre", outline: BGR | None = None, weight: float | None = None,
             font: int | None = None) -> None:
        """`text` as large as fits in `box` (mm: x0, y0, x1, y1)."""
        x0, y0, x1, y1 = (v * self.s for v in box)
        font = self.font if font is None else font
        weight = self.pr.weight if weight is None else weight
        (w1, h1), _ = cv2.getTextSize(text, font, 1.0, 1)
        scale = min((x1 - x0) / max(w1, 1), (y1 - y0) / max(h1, 1)) * 0.92
        thick = max(1, int(round(h1 * scale * weight)))
        (w, h), _ = cv2.getTextSize(text, font, scale, thick)
        # Thickness widens glyphs; shrink once so the stroke stays inside the box.
        if w > x1 - x0 or h > y1 - y0:
            scale *= min((x1 - x0) / w, (y1 - y0) / h)
            (w, h), _ = cv2.getTextSize(text, font, scale, thick)
        x = x0 if align == "left" else x1 - w if align == "right" else (x0 + x1 - w) / 2
        org = (int(round(x)), int(round((y0 + y1 + h) / 2)))
        if outline is not None:
            cv2.putText(self.img, text, org, font, scale, outline,
                        thick + 2 * max(1, thick // 2), cv2.LINE_AA)
        cv2.putText(self.img, text, org, font, scale, colour, thick, cv2.LINE_AA)

    def numeral(self, value: str, box: tuple[float, float, float, float], colour: BGR,
                align: str | None = None, outline: BGR | None = None) -> None:
        """The value in the printing's numeral font and size, within `box` (mm)."""
        x0, y0, x1, y1 = box
        k = self.pr.numeral
        align = self.pr.align if align is None else align
        h = (y1 - y0) * min(k, 1.0)
        w = (x1 - x0) * k
        ny0 = y0 + (y1 - y0 - h) / 2
        nx0 = x0 if align == "left" else x1 - w if align == "right" else (x0 + x1 - w) / 2
        self.text(value, (nx0, ny0, nx0 + w, ny0 + h), colour, align=align, outline=outline,
                  weight=self.pr.weight * 1.3, font=self.numeral_font)


def _tint(colour: BGR, amount: float, paper: BGR) -> BGR:
    """`colour` mixed towards `paper` by `amount` (0 = colour, 1 = paper)."""
    mixed = [int(round(c * (1 - amount) + p * amount)) for c, p in zip(colour, paper)]
    return mixed[0], mixed[1], mixed[2]


def _symbol(pen: _Pen, code: str, cx: float, cy: float, r: float, colour: BGR) -> None:
    """A small geometric mark distinct for each Tactics card (mm units)."""
    s, img = pen.s, pen.img
    th = max(1, int(round(r * 0.22 * s)))

    def poly(points: list[tuple[float, float]], fill: bool = True) -> None:
        pts = np.array([pen.p(cx + x * r, cy + y * r) for x, y in points], np.int32)
        if fill:
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        else:
            cv2.polylines(img, [pts], True, colour, th, cv2.LINE_AA)

    if code in ("ALEXANDER", "DARIUS"):       # crowns: three points, Darius with jewels
        poly([(-1, 0.7), (-1, -0.6), (-0.5, 0.0), (0, -0.9), (0.5, 0.0), (1, -0.6), (1, 0.7)])
        if code == "DARIUS":
            for x in (-1.0, 0.0, 1.0):
                cv2.circle(img, pen.p(cx + x * r, cy - 0.95 * r), max(1, int(0.22 * r * s)),
                           colour, -1, cv2.LINE_AA)
    elif code == "SPY":                       # a mask
        cv2.ellipse(img, pen.p(cx, cy), (int(r * s), int(0.5 * r * s)), 0, 0, 360, colour, -1,
                    cv2.LINE_AA)
        for x in (-0.45, 0.45):
            cv2.circle(img, pen.p(cx + x * r, cy), max(1, int(0.2 * r * s)), pen.pr.paper, -1,
                       cv2.LINE_AA)
    elif code == "CAVALRY":                   # a horseshoe
        cv2.ellipse(img, pen.p(cx, cy), (int(0.8 * r * s), int(0.9 * r * s)), 0, 160, 380,
                    colour, max(1, int(0.35 * r * s)), cv2.LINE_AA)
    elif code == "SHIELD":                    # a shield
        poly([(-0.85, -0.9), (0.85, -0.9), (0.85, 0.1), (0, 1.0), (-0.85, 0.1)])
    elif code == "FOG":                       # three wavy lines
        for k in (-0.6, 0.0, 0.6):
            xs = np.linspace(-1, 1, 16)
            pts = np.array([pen.p(cx + x * r, cy + (k + 0.18 * np.sin(x * 6)) * r) for x in xs],
                           np.int32)
            cv2.polylines(img, [pts], False, colour, th, cv2.LINE_AA)
    elif code == "MUD":                       # blots
        for x, y, k in ((-0.5, 0.3, 0.45), (0.45, 0.45, 0.35), (0.2, -0.45, 0.4),
                        (-0.55, -0.55, 0.2)):
            cv2.circle(img, pen.p(cx + x * r, cy + y * r), max(1, int(k * r * s)), colour, -1,
                       cv2.LINE_AA)
    elif code == "SCOUT":                     # an eye
        cv2.ellipse(img, pen.p(cx, cy), (int(r * s), int(0.55 * r * s)), 0, 0, 360, colour, th,
                    cv2.LINE_AA)
        cv2.circle(img, pen.p(cx, cy), max(1, int(0.35 * r * s)), colour, -1, cv2.LINE_AA)
    elif code == "REDEPLOY":                  # two opposed arrows
        poly([(-1, -0.3), (0.2, -0.3), (0.2, -0.8), (1, -0.05), (-1, -0.05)])
        poly([(1, 0.3), (-0.2, 0.3), (-0.2, 0.8), (-1, 0.05), (1, 0.05)])
    elif code == "DESERTER":                  # a broken blade
        poly([(-1, 0.9), (-0.15, 0.05), (0.0, 0.2), (-0.85, 1.0)])
        poly([(0.15, -0.15), (0.95, -0.95), (1.0, -0.8), (0.3, 0.0)])
    elif code == "TRAITOR":                   # crossed daggers
        cv2.line(img, pen.p(cx - r, cy - r), pen.p(cx + r, cy + r), colour, th * 2, cv2.LINE_AA)
        cv2.line(img, pen.p(cx + r, cy - r), pen.p(cx - r, cy + r), colour, th * 2, cv2.LINE_AA)
    else:
        raise SynthError(f"no mark for the card {code!r}")


def _pips(pen: _Pen, n: int, box: tuple[float, float, float, float], colour: BGR,
          shape: int) -> None:
    """`n` pips spread over a box (mm), in rows of up to three."""
    x0, y0, x1, y1 = box
    rows = [3] * (n // 3) + ([n % 3] if n % 3 else [])
    r = min((x1 - x0) / 7.0, (y1 - y0) / (2.3 * max(len(rows), 1)))
    for i, k in enumerate(rows):
        cy = y0 + (i + 0.5) * (y1 - y0) / len(rows)
        for j in range(k):
            cx = x0 + (j + 0.5) * (x1 - x0) / k
            if shape == 0:
                cv2.circle(pen.img, pen.p(cx, cy), int(r * pen.s), colour, -1, cv2.LINE_AA)
            else:
                pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
                cv2.fillPoly(pen.img, [np.array([pen.p(*q) for q in pts], np.int32)], colour,
                             cv2.LINE_AA)


def _top_band_troop(pen: _Pen, card: Card, colour: BGR) -> None:
    pr, band = pen.pr, pen.pr.band_mm
    value = str(card.value)
    if pr.layout == "corner":
        # Value in the troop's colour top left, a full-depth colour bar beside it.
        pen.text(value, (2.5, 1.8, 21.0, band - 1.2), colour, align="left", weight=pr.weight * 1.3)
        pen.rect(23.0, 2.5, pen.W - 2.5, band - 2.0, colour)
    elif pr.layout == "band":
        # The whole band in colour, the value centred, pips either side.
        pen.rect(0, 0, pen.W, band, colour)
        pen.text(value, (pen.W / 2 - 10, 1.5, pen.W / 2 + 10, band - 1.5), pr.paper,
                 outline=pr.ink)
        v = card.value or 0
        left, right = (v + 1) // 2, v // 2
        r = min(1.6, band / 9)
        for k in range(left):
            cv2.circle(pen.img, pen.p(pen.W / 2 - 13 - k * 3.6, band / 2), int(r * pen.s),
                       pr.paper, -1, cv2.LINE_AA)
        for k in range(right):
            cv2.circle(pen.img, pen.p(pen.W / 2 + 13 + k * 3.6, band / 2), int(r * pen.s),
                       pr.paper, -1, cv2.LINE_AA)
    else:  # ribbon: values in both top corners in ink, a colour ribbon between and below
        pen.rect(0, band * 0.72, pen.W, band, colour)
        pen.text(value, (2.0, 1.2, 17.0, band * 0.68), colour, align="left",
                 weight=pr.weight * 1.3)
        pen.text(value, (pen.W - 17.0, 1.2, pen.W - 2.0, band * 0.68), colour, align="right",
                 weight=pr.weight * 1.3)
        pen.rect(19.0, band * 0.25, pen.W - 19.0, band * 0.55, _tint(colour, 0.35, pr.paper))


def _top_band_tactic(pen: _Pen, card: Card) -> None:
    pr, band = pen.pr, pen.pr.band_mm
    colour = pr.tactic_colours[_FAMILY_INDEX[card.family]]
    label = pr.tactic_word(card.code, label=True)
    if pr.layout == "corner":
        _symbol(pen, card.code, 9.0, band / 2, band * 0.32, colour)
        pen.text(label, (17.0, 2.0, pen.W - 2.5, band - 2.0), pr.ink, align="left")
        pen.rect(0, band - 1.6, pen.W, band, colour)
    else:
        pen.rect(0, 0, pen.W, band, colour)
        _symbol(pen, card.code, 7.5, band / 2, band * 0.3, pr.paper)
        if pr.layout == "ribbon":
            _symbol(pen, card.code, pen.W - 7.5, band / 2, band * 0.3, pr.paper)
            pen.text(label, (14.0, 2.0, pen.W - 14.0, band - 2.0), pr.paper)
        else:
            pen.text(label, (14.5, 2.0, pen.W - 2.5, band - 2.0), pr.paper, align="left")


def _body(pen: _Pen, card: Card) -> None:
    pr, band = pen.pr, pen.pr.band_mm
    top, bottom = band + 3.0, pen.H - (14.0 if pr.corner_index else 5.0)
    rng = np.random.default_rng([pr.art_seed, card_index(card)])
    if card.is_troop:
        colour = pr.colour(card.colour or "R")
        light = _tint(colour, 0.72, pr.paper)
        if pr.body == "emblem":
            cx, cy = pen.W / 2, (top + bottom) / 2 - 3
            r = min(pen.W / 2 - 6, (bottom - top) / 2 - 6)
            sides = 6 + (pr.art_seed % 3)
            turns = [2 * np.pi * k / sides + 0.3 for k in range(sides)]
            pts = [(cx + r * np.cos(t), cy + r * np.sin(t)) for t in turns]
            cv2.fillPoly(pen.img, [np.array([pen.p(*q) for q in pts], np.int32)], light,
                         cv2.LINE_AA)
            cv2.polylines(pen.img, [np.array([pen.p(*q) for q in pts], np.int32)], True, colour,
                          max(1, int(1.2 * pen.s)), cv2.LINE_AA)
            pen.text(str(card.value), (cx - r * 0.6, cy - r * 0.5, cx + r * 0.6, cy + r * 0.5),
                     colour)
            pen.text(pr.colour_word(card.colour or "R", english=True),
                     (8, bottom - 8, pen.W - 8, bottom - 1), pr.ink)
        elif pr.body == "pips":
            _pips(pen, card.value or 1, (8.0, top + 2, pen.W - 8.0, bottom - 2), colour,
                  pr.art_seed % 2)
        else:  # stripes
            for k in range(-12, 14):
                x = k * 6.0 + rng.uniform(-0.5, 0.5)
                cv2.line(pen.img, pen.p(x, bottom), pen.p(x + (bottom - top), top), light,
                         max(1, int(2.0 * pen.s)), cv2.LINE_AA)
            pen.rect(0, top - 3.0, pen.W, top, pr.paper)
            pen.rect(0, bottom, pen.W, bottom + 3, pr.paper)
            pen.text(str(card.value), (14, top + 12, pen.W - 14, bottom - 12), colour,
                     outline=pr.paper)
    else:
        colour = pr.tactic_colours[_FAMILY_INDEX[card.family]]
        cx, cy = pen.W / 2, (top + bottom) / 2 - 6
        _symbol(pen, card.code, cx, cy, 12.5, colour)
        name = card.name(EDITIONS[pr.edition].naming("en")).upper() if pr.schotten \
            else card.name("gmt-en").upper()
        pen.text(name, (5, bottom - 16, pen.W - 5, bottom - 9), pr.ink)
        pen.text(card.family.upper(), (14, bottom - 7, pen.W - 14, bottom - 2), colour)


# -- the zoo's looks ------------------------------------------------------------------------
_NATURE: tuple[BGR, ...] = ((70, 120, 60), (40, 90, 120), (150, 180, 200), (200, 170, 120),
                            (60, 70, 80), (120, 150, 170), (40, 110, 90), (190, 200, 210))


def _hue_shade(colour: BGR, lightness: float) -> BGR:
    """`colour` darkened (< 1) or lightened towards white (> 1)."""
    if lightness <= 1.0:
        return tuple(int(c * lightness) for c in colour)  # type: ignore[return-value]
    k = min(lightness - 1.0, 1.0)
    return tuple(int(c + (255 - c) * k) for c in colour)  # type: ignore[return-value]


def _illustration(pen: _Pen, card: Card, top: float, bottom: float, accent: BGR,
                  bleed: bool) -> None:
    """A seeded picture between `top` and `bottom` (mm), different on every card.

    Hills, a sky, a sun, standards and soldiers' shapes: natural colours with `accent` (the
    card's colour) in the standards, or (`bleed`) every shape a shade of `accent`, as
    full-colour cards are printed.
    """
    rng = np.random.default_rng([pen.pr.art_seed, 0xA27, card_index(card)])
    W = pen.W

    def shade() -> BGR:
        if bleed:
            return _hue_shade(accent, float(rng.uniform(0.45, 1.45)))
        return _NATURE[int(rng.integers(len(_NATURE)))]

    # The sky as a few horizontal bands, then hills, then figures.
    rows = int(rng.integers(2, 5))
    for k in range(rows):
        y0 = top + (bottom - top) * k / rows * 0.6
        pen.rect(0 if bleed else 0.0, y0, W, top + (bottom - top) * (k + 1) / rows * 0.6,
                 _hue_shade(accent, 1.0 + 0.12 * k) if bleed else
                 _tint(_NATURE[2 + (k % 2)], 0.2 * k, pen.pr.paper))
    if rng.random() < 0.7:
        cv2.circle(pen.img, pen.p(rng.uniform(8, W - 8), top + rng.uniform(3, 12)),
                   int(rng.uniform(2.5, 6.0) * pen.s), shade(), -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(2, 5))):
        base = top + (bottom - top) * rng.uniform(0.35, 0.8)
        xs = np.linspace(-2, W + 2, 9)
        ys = base + rng.uniform(-6, 6, 9)
        pts = [pen.p(x, y) for x, y in zip(xs, ys)] + [pen.p(W + 2, bottom), pen.p(-2, bottom)]
        cv2.fillPoly(pen.img, [np.array(pts, np.int32)], shade(), cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 4))):
        fx = rng.uniform(8, W - 8)
        fy = top + (bottom - top) * rng.uniform(0.45, 0.8)
        body = shade()
        cv2.ellipse(pen.img, pen.p(fx, fy), (int(2.5 * pen.s), int(6 * pen.s)), 0, 0, 360, body,
                    -1, cv2.LINE_AA)
        cv2.circle(pen.img, pen.p(fx, fy - 8), int(2.0 * pen.s), body, -1, cv2.LINE_AA)
        # A standard on a pole, in the card's colour (the picture's own hint of it).
        pole = (fx + 3.5, fy - 14)
        cv2.line(pen.img, pen.p(fx + 3.5, fy + 4), pen.p(*pole), (40, 40, 40),
                 max(1, int(0.5 * pen.s)), cv2.LINE_AA)
        pen.rect(pole[0], pole[1], pole[0] + 6, pole[1] + 4, _hue_shade(accent, 0.8))


def _suit_mark(pen: _Pen, letter: str, cx: float, cy: float, r: float, colour: BGR) -> None:
    """A small mark per colour (shapes shuffled per printing), as suited decks print one."""
    order = np.random.default_rng([pen.pr.art_seed, 0x5017]).permutation(6)
    shape = int(order[COLOURS.index(letter)])
    pts: list[tuple[float, float]]
    if shape == 0:
        cv2.circle(pen.img, pen.p(cx, cy), max(1, int(r * pen.s)), colour, -1, cv2.LINE_AA)
        return
    if shape == 1:
        pts = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    elif shape == 2:
        pts = [(0, -1), (1, 0.8), (-1, 0.8)]
    elif shape == 3:
        pts = [(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)]
    elif shape == 4:
        pts = [(np.cos(a) * (1 if k % 2 == 0 else 0.45), np.sin(a) * (1 if k % 2 == 0 else 0.45))
               for k, a in enumerate(np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False))]
    else:
        pts = [(-1, -0.3), (-0.5, -1), (0, -0.5), (0.5, -1), (1, -0.3), (0, 1)]
    poly = np.array([pen.p(cx + x * r, cy + y * r) for x, y in pts], np.int32)
    cv2.fillPoly(pen.img, [poly], colour, cv2.LINE_AA)


def _gem(pen: _Pen, cx: float, cy: float, r: float, colour: BGR) -> None:
    """A cut gem: a facetted diamond, its light and dark facets and a highlight."""
    dark, light = _hue_shade(colour, 0.6), _hue_shade(colour, 1.35)
    outline = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    poly = np.array([pen.p(cx + x * r, cy + y * r) for x, y in outline], np.int32)
    cv2.fillPoly(pen.img, [poly], colour, cv2.LINE_AA)
    upper = np.array([pen.p(cx - r, cy), pen.p(cx, cy - r), pen.p(cx + r, cy),
                      pen.p(cx, cy - 0.3 * r)], np.int32)
    cv2.fillPoly(pen.img, [upper], light, cv2.LINE_AA)
    cv2.polylines(pen.img, [poly], True, dark, max(1, int(0.2 * r * pen.s)), cv2.LINE_AA)
    cv2.circle(pen.img, pen.p(cx - 0.3 * r, cy - 0.45 * r), max(1, int(0.16 * r * pen.s)),
               (250, 250, 250), -1, cv2.LINE_AA)


def _light_on(pr: Printing) -> BGR:
    """A light ink for dark grounds: the paper if it is light, else near white."""
    return pr.paper if sum(pr.paper) > 450 else (236, 240, 242)


def _numeral_box(pen: _Pen, width: float, top: float, bottom: float,
                 align: str | None = None) -> tuple[float, float, float, float]:
    align = pen.pr.align if align is None else align
    if align == "left":
        return 2.5, top, 2.5 + width, bottom
    if align == "right":
        return pen.W - 2.5 - width, top, pen.W - 2.5, bottom
    return (pen.W - width) / 2, top, (pen.W + width) / 2, bottom


def _zoo_band_troop(pen: _Pen, card: Card, colour: BGR) -> None:
    pr, band, W = pen.pr, pen.pr.band_mm, pen.W
    value, letter = str(card.value), card.colour or "R"
    if pr.layout == "banner":
        # A full-width coloured banner, the numeral light on it.
        pen.rect(0, 0, W, band * 0.9, colour)
        pen.numeral(value, _numeral_box(pen, 16.0, 1.2, band * 0.9 - 1.2), _light_on(pr))
    elif pr.layout == "pip-corners":
        # The value in colour in both top corners, a small suit mark under each.
        for side in ("left", "right"):
            box = _numeral_box(pen, 10.0, 1.0, band * 0.62, side)
            pen.numeral(value, box, colour, align="centre")
            _suit_mark(pen, letter, (box[0] + box[2]) / 2, band * 0.8, band * 0.11, colour)
    elif pr.layout == "disc":
        # A dark disc holding a light numeral, on a full-colour card.
        r = band * 0.46
        cx = {"left": 2.0 + r, "right": W - 2.0 - r}.get(pr.align, W / 2)
        cv2.circle(pen.img, pen.p(cx, 1.5 + r), int(r * pen.s), pr.ink, -1, cv2.LINE_AA)
        cv2.circle(pen.img, pen.p(cx, 1.5 + r), int(r * pen.s), _hue_shade(colour, 1.3),
                   max(1, int(0.5 * pen.s)), cv2.LINE_AA)
        pen.numeral(value, (cx - r * 0.7, 1.5 + r * 0.35, cx + r * 0.7, 1.5 + r * 1.65),
                    _light_on(pr), align="centre")
    elif pr.layout == "gem":
        # The numeral in ink; the colour only in a small gem beside it.
        box = _numeral_box(pen, 13.0, 1.2, band - 1.5)
        pen.numeral(value, box, pr.ink)
        gx = box[2] + 4.5 if pr.align != "right" else box[0] - 4.5
        _gem(pen, gx, band * 0.5, min(3.4, band * 0.2), colour)
    elif pr.layout == "stripe":
        # The numeral in ink; the colour only in the border stripe (drawn with the body).
        pen.numeral(value, _numeral_box(pen, 14.0, 1.0 + pr.border_mm, band - 1.0), pr.ink)
    elif pr.layout == "centred":
        # The numeral centred in colour, between two thin ink flourishes.
        pen.numeral(value, _numeral_box(pen, 16.0, 1.0, band - 1.0, "centre"), colour,
                    align="centre")
        for sign in (-1, 1):
            x0, x1 = W / 2 + sign * 11.0, W / 2 + sign * (W / 2 - 5.0)
            cv2.line(pen.img, pen.p(x0, band / 2), pen.p(x1, band / 2), pr.ink,
                     max(1, int(0.35 * pen.s)), cv2.LINE_AA)
            cv2.circle(pen.img, pen.p(x1, band / 2), max(1, int(0.9 * pen.s)), pr.ink, -1,
                       cv2.LINE_AA)
    else:  # word: the numeral and the colour's name
        pen.numeral(value, (2.5, 1.2, 15.5, band - 1.2), colour, align="left")
        word_ink = pr.ink if pr.art_seed % 2 else colour
        pen.text(pr.colour_word(letter), (18.0, band * 0.3, W - 3.0, band * 0.75),
                 word_ink, align="left")


def _zoo_band_tactic(pen: _Pen, card: Card) -> None:
    pr, band, W = pen.pr, pen.pr.band_mm, pen.W
    colour = pr.tactic_colours[_FAMILY_INDEX[card.family]]
    word = pr.tactic_word(card.code)
    if pr.tactics == "picture":
        # Only a picture (already drawn up into the band) and the card's word on a label.
        lx0, lx1 = (4.0, W - 4.0) if pr.align == "centre" else (2.0, W * 0.8)
        pen.rect(lx0, 1.5, lx1, band * 0.62, pr.paper)
        pen.text(word, (lx0 + 1.0, 2.0, lx1 - 1.0, band * 0.62 - 0.5), pr.ink, align="centre")
        return
    light = _light_on(pr)
    if pr.layout in ("banner",):
        pen.rect(0, 0, W, band * 0.9, colour)
        _symbol(pen, card.code, 7.5, band * 0.45, band * 0.28, light)
        pen.text(word, (14.5, 2.0, W - 2.5, band * 0.9 - 2.0), light, align="left")
    elif pr.layout == "disc":
        r = band * 0.46
        cv2.circle(pen.img, pen.p(2.0 + r, 1.5 + r), int(r * pen.s), pr.ink, -1, cv2.LINE_AA)
        _symbol(pen, card.code, 2.0 + r, 1.5 + r, r * 0.6, light)
        pen.text(word, (2 * r + 4.0, 2.5, W - 2.5, band - 2.5), light, align="left",
                 outline=pr.ink)
    elif pr.layout == "pip-corners":
        for cx in (6.5, W - 6.5):
            _symbol(pen, card.code, cx, band * 0.42, band * 0.26, colour)
        pen.text(word, (13.0, band * 0.25, W - 13.0, band * 0.7), pr.ink)
    else:
        box = _numeral_box(pen, 12.0, 1.5, band - 1.5)
        cx = (box[0] + box[2]) / 2 if pr.layout != "word" else 8.5
        if pr.layout == "centred":
            cx = 8.5
        _symbol(pen, card.code, cx, band / 2, band * 0.3, colour)
        x0 = cx + band * 0.3 + 3.0
        pen.text(word, (x0, 2.5, W - 2.5 - pr.border_mm, band - 2.5), pr.ink, align="left")


def _zoo_body(pen: _Pen, card: Card) -> None:
    pr, band = pen.pr, pen.pr.band_mm
    colour = (pr.colour(card.colour or "R") if card.is_troop
              else pr.tactic_colours[_FAMILY_INDEX[card.family]])
    if pr.body == "bleed":
        pen.rect(0, 0, pen.W, pen.H, _hue_shade(colour, 0.9))
        _illustration(pen, card, 0.0, pen.H, colour, bleed=True)
    else:
        picture_tactic = not card.is_troop and pr.tactics == "picture"
        top = 0.0 if picture_tactic else band * 0.3 if pr.art_in_band else band + 2.0
        bottom = pen.H - (14.0 if pr.corner_index else 4.0)
        _illustration(pen, card, top, bottom, colour, bleed=False)
        if pr.art_in_band and not picture_tactic:
            # The picture reaches the top band only between the corners' indices.
            pen.rect(0, 0, 13.0, band, pr.paper)
            pen.rect(pen.W - 13.0, 0, pen.W, band, pr.paper)
    if not card.is_troop and pr.tactics == "mark":
        right = pen.W - (25.0 if pr.corner_index else 6.0)     # clear of the bottom index
        pen.text(pr.tactic_word(card.code), (6, pen.H - 12, right, pen.H - 5),
                 _light_on(pr) if pr.body == "bleed" else pr.ink, outline=pr.ink
                 if pr.body == "bleed" else None)


def _border(pen: _Pen, card: Card) -> None:
    pr = pen.pr
    colour = (pr.colour(card.colour or "R") if card.is_troop
              else pr.tactic_colours[_FAMILY_INDEX[card.family]])
    b = pr.border_mm
    inset = 0.8 + b / 2
    cv2.rectangle(pen.img, pen.p(inset, inset), pen.p(pen.W - inset, pen.H - inset), colour,
                  max(1, int(round(b * pen.s))), cv2.LINE_AA)


def _draw_face(printing: Printing, card: Card, s: float) -> np.ndarray:
    w, h = int(round(printing.card_w * s)), int(round(printing.card_h * s))
    img = np.full((h, w, 3), printing.paper, np.uint8)
    pen = _Pen(img, s, printing)
    if printing.frame:
        cv2.rectangle(img, pen.p(2.2, 2.2), pen.p(pen.W - 2.2, pen.H - 2.2),
                      _tint(printing.ink, 0.5, printing.paper), max(1, int(0.4 * s)), cv2.LINE_AA)
    if printing.body in _OLD_BODIES:
        _body(pen, card)
    else:
        _zoo_body(pen, card)
    if printing.border_mm:
        _border(pen, card)
    if printing.layout in _OLD_LAYOUTS:
        if card.is_troop:
            _top_band_troop(pen, card, printing.colour(card.colour or "R"))
        else:
            _top_band_tactic(pen, card)
    elif card.is_troop:
        _zoo_band_troop(pen, card, printing.colour(card.colour or "R"))
    else:
        _zoo_band_tactic(pen, card)
    if printing.corner_index:
        # The index again at the bottom, upside down, as real cards have it.
        corner = np.full((int(round(11 * s)), int(round(20 * s)), 3), printing.paper, np.uint8)
        cpen = _Pen(corner, s, printing)
        if card.is_troop:
            cpen.text(str(card.value), (0.5, 0.5, 19.5, 10.5), printing.colour(card.colour or "R"))
        else:
            _symbol(cpen, card.code, 10.0, 5.5, 4.0,
                    printing.tactic_colours[_FAMILY_INDEX[card.family]])
        corner = corner[::-1, ::-1]
        y0, x0 = h - corner.shape[0] - int(2.5 * s), w - corner.shape[1] - int(3 * s)
        img[y0:y0 + corner.shape[0], x0:x0 + corner.shape[1]] = corner
    return img


# Two caches, bounded in memory: full-size faces (about 1 MB each, one printing's worth) and
# the reduced faces the renderer lays on the table (under 0.1 MB each, a few printings).
@functools.lru_cache(maxsize=72)
def _face_large(printing: Printing, code: str, px_per_mm: float) -> np.ndarray:
    img = _draw_face(printing, BY_CODE[code], px_per_mm)
    if printing.tone is not None:
        img = printing.tone.apply(img)
    img.setflags(write=False)     # shared by every caller of the cache
    return img


@functools.lru_cache(maxsize=320)
def _face_small(printing: Printing, code: str, px_per_mm: float) -> np.ndarray:
    # Drawn finely, then reduced: thin strokes and small text stay smooth at camera scale.
    big = _face_large(printing, code, FACE_PX_PER_MM)
    size = (int(round(printing.card_w * px_per_mm)), int(round(printing.card_h * px_per_mm)))
    img = cv2.resize(big, size, interpolation=cv2.INTER_AREA)
    img.setflags(write=False)
    return img


def _face_cached(printing: Printing, code: str, px_per_mm: float) -> np.ndarray:
    if px_per_mm >= FACE_PX_PER_MM:
        return _face_large(printing, code, px_per_mm)
    return _face_small(printing, code, px_per_mm)


def card_face(printing: Printing, card: Card | str, px_per_mm: float = FACE_PX_PER_MM
              ) -> np.ndarray:
    """The upright face of `card` in `printing` (BGR uint8, read-only, cached)."""
    code = card.code if isinstance(card, Card) else str(card)
    if code not in BY_CODE:
        raise SynthError(f"{code!r} is not a card code")
    if not 0.05 <= px_per_mm <= 40:
        raise SynthError(f"card face resolution {px_per_mm!r} px/mm is out of range 0.05-40")
    return _face_cached(printing, code, float(px_per_mm))


def write_deck_images(printing: Printing, directory: Path | str,
                      px_per_mm: float = FACE_PX_PER_MM) -> list[Path]:
    """One straight-on upright PNG per card of the printing's edition, named by its code
    (`R8.png`): contract 2's DIR (70 images, or Schotten Totten's 64)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for card in printing.cards:
        path = directory / f"{card.code}.png"
        if not cv2.imwrite(str(path), card_face(printing, card, px_per_mm)):
            raise SynthError(f"could not write the card image {path}")
        paths.append(path)
    return paths


__all__ = ["BODIES", "FACE_PX_PER_MM", "LAYOUTS", "PRINTINGS", "Printing", "Tone", "card_face",
           "printing_named",
           "printing_a", "printing_b", "random_printing", "seed_words", "write_deck_images"]
