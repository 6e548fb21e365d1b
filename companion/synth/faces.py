"""Our own card faces for the 70 cards, in several printings (never copies of real artwork).

A `Printing` fixes the font, the shades and the top-band layout.  Only the top band (the edge
nearest the flag, about `ECHELON_STEP` mm deep) shows under an echelon, so it always carries
the value and the colour of a Troop, and a distinctive mark and name for a Tactics card.
`random_printing(seed)` invents a printing never seen before, within sensible bounds, so the
pipeline is tested on art it was not tuned to.  Faces are BGR uint8, upright.
"""

from __future__ import annotations

import colorsys
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from companion.rules.cards import ALL_CARDS, BY_CODE, COLOURS, Card
from companion.vision.geometry import CARD_H, CARD_W
from companion.synth.errors import SynthError

BGR = tuple[int, int, int]
Layout = Literal["corner", "band", "ribbon"]
Body = Literal["emblem", "pips", "stripes"]

FACE_PX_PER_MM = 8.0          # deck images: 504 x 704 px, about 200 dpi
LAYOUTS: tuple[Layout, ...] = ("corner", "band", "ribbon")
BODIES: tuple[Body, ...] = ("emblem", "pips", "stripes")
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX)

# Short names for the top band of Tactics cards (the full name goes on the body).
_TACTIC_LABEL = {"ALEXANDER": "ALEXANDER", "DARIUS": "DARIUS", "CAVALRY": "CAVALRY",
                 "SHIELD": "SHIELDS", "FOG": "FOG", "MUD": "MUD", "SCOUT": "SCOUT",
                 "REDEPLOY": "REDEPLOY", "DESERTER": "DESERTER", "TRAITOR": "TRAITOR"}
_FAMILY_INDEX = {"morale": 0, "environment": 1, "guile": 2}
_COLOUR_WORD = dict(zip(COLOURS, ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE")))


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

    def __post_init__(self) -> None:
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
        layout=LAYOUTS[int(rng.integers(len(LAYOUTS)))], band_mm=float(rng.uniform(13.0, 19.0)),
        body=BODIES[int(rng.integers(len(BODIES)))], frame=bool(rng.random() < 0.5),
        corner_index=bool(rng.random() < 0.5), art_seed=int(rng.integers(1 << 30)))


def printing_named(name: str) -> Printing:
    """A synthetic printing by name: one of `PRINTINGS`, or `random-N` (seeded)."""
    if name in PRINTINGS:
        return PRINTINGS[name]
    if name.startswith("random-") and name[7:].isdigit():
        return random_printing(int(name[7:]))
    raise SynthError(f"unknown printing {name!r}: use {', '.join(sorted(PRINTINGS))} or random-N")


# -- drawing ------------------------------------------------------------------------------------
class _Pen:
    """Draws on one face at `s` px/mm in the printing's font."""

    def __init__(self, img: np.ndarray, s: float, printing: Printing) -> None:
        self.img, self.s, self.pr = img, s, printing
        self.font = printing.font | (cv2.FONT_ITALIC if printing.italic else 0)

    def p(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x * self.s)), int(round(y * self.s))

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: BGR) -> None:
        cv2.rectangle(self.img, self.p(x0, y0), self.p(x1, y1), colour, -1)

    def text(self, text: str, box: tuple[float, float, float, float], colour: BGR,
             align: str = "centre", outline: BGR | None = None, weight: float | None = None
             ) -> None:
        """`text` as large as fits in `box` (mm: x0, y0, x1, y1)."""
        x0, y0, x1, y1 = (v * self.s for v in box)
        weight = self.pr.weight if weight is None else weight
        (w1, h1), _ = cv2.getTextSize(text, self.font, 1.0, 1)
        scale = min((x1 - x0) / max(w1, 1), (y1 - y0) / max(h1, 1)) * 0.92
        thick = max(1, int(round(h1 * scale * weight)))
        (w, h), _ = cv2.getTextSize(text, self.font, scale, thick)
        # Thickness widens glyphs; shrink once so the stroke stays inside the box.
        if w > x1 - x0 or h > y1 - y0:
            scale *= min((x1 - x0) / w, (y1 - y0) / h)
            (w, h), _ = cv2.getTextSize(text, self.font, scale, thick)
        x = x0 if align == "left" else x1 - w if align == "right" else (x0 + x1 - w) / 2
        org = (int(round(x)), int(round((y0 + y1 + h) / 2)))
        if outline is not None:
            cv2.putText(self.img, text, org, self.font, scale, outline,
                        thick + 2 * max(1, thick // 2), cv2.LINE_AA)
        cv2.putText(self.img, text, org, self.font, scale, colour, thick, cv2.LINE_AA)


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
        pen.rect(23.0, 2.5, CARD_W - 2.5, band - 2.0, colour)
    elif pr.layout == "band":
        # The whole band in colour, the value centred, pips either side.
        pen.rect(0, 0, CARD_W, band, colour)
        pen.text(value, (CARD_W / 2 - 10, 1.5, CARD_W / 2 + 10, band - 1.5), pr.paper,
                 outline=pr.ink)
        v = card.value or 0
        left, right = (v + 1) // 2, v // 2
        r = min(1.6, band / 9)
        for k in range(left):
            cv2.circle(pen.img, pen.p(CARD_W / 2 - 13 - k * 3.6, band / 2), int(r * pen.s),
                       pr.paper, -1, cv2.LINE_AA)
        for k in range(right):
            cv2.circle(pen.img, pen.p(CARD_W / 2 + 13 + k * 3.6, band / 2), int(r * pen.s),
                       pr.paper, -1, cv2.LINE_AA)
    else:  # ribbon: values in both top corners in ink, a colour ribbon between and below
        pen.rect(0, band * 0.72, CARD_W, band, colour)
        pen.text(value, (2.0, 1.2, 17.0, band * 0.68), colour, align="left",
                 weight=pr.weight * 1.3)
        pen.text(value, (CARD_W - 17.0, 1.2, CARD_W - 2.0, band * 0.68), colour, align="right",
                 weight=pr.weight * 1.3)
        pen.rect(19.0, band * 0.25, CARD_W - 19.0, band * 0.55, _tint(colour, 0.35, pr.paper))


def _top_band_tactic(pen: _Pen, card: Card) -> None:
    pr, band = pen.pr, pen.pr.band_mm
    colour = pr.tactic_colours[_FAMILY_INDEX[card.family]]
    label = _TACTIC_LABEL[card.code]
    if pr.layout == "corner":
        _symbol(pen, card.code, 9.0, band / 2, band * 0.32, colour)
        pen.text(label, (17.0, 2.0, CARD_W - 2.5, band - 2.0), pr.ink, align="left")
        pen.rect(0, band - 1.6, CARD_W, band, colour)
    else:
        pen.rect(0, 0, CARD_W, band, colour)
        _symbol(pen, card.code, 7.5, band / 2, band * 0.3, pr.paper)
        if pr.layout == "ribbon":
            _symbol(pen, card.code, CARD_W - 7.5, band / 2, band * 0.3, pr.paper)
            pen.text(label, (14.0, 2.0, CARD_W - 14.0, band - 2.0), pr.paper)
        else:
            pen.text(label, (14.5, 2.0, CARD_W - 2.5, band - 2.0), pr.paper, align="left")


def _body(pen: _Pen, card: Card) -> None:
    pr, band = pen.pr, pen.pr.band_mm
    top, bottom = band + 3.0, CARD_H - (14.0 if pr.corner_index else 5.0)
    rng = np.random.default_rng([pr.art_seed, ALL_CARDS.index(card)])
    if card.is_troop:
        colour = pr.colour(card.colour or "R")
        light = _tint(colour, 0.72, pr.paper)
        if pr.body == "emblem":
            cx, cy = CARD_W / 2, (top + bottom) / 2 - 3
            r = min(CARD_W / 2 - 6, (bottom - top) / 2 - 6)
            sides = 6 + (pr.art_seed % 3)
            turns = [2 * np.pi * k / sides + 0.3 for k in range(sides)]
            pts = [(cx + r * np.cos(t), cy + r * np.sin(t)) for t in turns]
            cv2.fillPoly(pen.img, [np.array([pen.p(*q) for q in pts], np.int32)], light,
                         cv2.LINE_AA)
            cv2.polylines(pen.img, [np.array([pen.p(*q) for q in pts], np.int32)], True, colour,
                          max(1, int(1.2 * pen.s)), cv2.LINE_AA)
            pen.text(str(card.value), (cx - r * 0.6, cy - r * 0.5, cx + r * 0.6, cy + r * 0.5),
                     colour)
            pen.text(_COLOUR_WORD[card.colour or "R"], (8, bottom - 8, CARD_W - 8, bottom - 1),
                     pr.ink)
        elif pr.body == "pips":
            _pips(pen, card.value or 1, (8.0, top + 2, CARD_W - 8.0, bottom - 2), colour,
                  pr.art_seed % 2)
        else:  # stripes
            for k in range(-12, 14):
                x = k * 6.0 + rng.uniform(-0.5, 0.5)
                cv2.line(pen.img, pen.p(x, bottom), pen.p(x + (bottom - top), top), light,
                         max(1, int(2.0 * pen.s)), cv2.LINE_AA)
            pen.rect(0, top - 3.0, CARD_W, top, pr.paper)
            pen.rect(0, bottom, CARD_W, bottom + 3, pr.paper)
            pen.text(str(card.value), (14, top + 12, CARD_W - 14, bottom - 12), colour,
                     outline=pr.paper)
    else:
        colour = pr.tactic_colours[_FAMILY_INDEX[card.family]]
        cx, cy = CARD_W / 2, (top + bottom) / 2 - 6
        _symbol(pen, card.code, cx, cy, 12.5, colour)
        pen.text(card.name("gmt-en").upper(), (5, bottom - 16, CARD_W - 5, bottom - 9), pr.ink)
        pen.text(card.family.upper(), (14, bottom - 7, CARD_W - 14, bottom - 2), colour)


def _draw_face(printing: Printing, card: Card, s: float) -> np.ndarray:
    w, h = int(round(CARD_W * s)), int(round(CARD_H * s))
    img = np.full((h, w, 3), printing.paper, np.uint8)
    pen = _Pen(img, s, printing)
    if printing.frame:
        cv2.rectangle(img, pen.p(2.2, 2.2), pen.p(CARD_W - 2.2, CARD_H - 2.2),
                      _tint(printing.ink, 0.5, printing.paper), max(1, int(0.4 * s)), cv2.LINE_AA)
    _body(pen, card)
    if card.is_troop:
        _top_band_troop(pen, card, printing.colour(card.colour or "R"))
    else:
        _top_band_tactic(pen, card)
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
    img.setflags(write=False)     # shared by every caller of the cache
    return img


@functools.lru_cache(maxsize=320)
def _face_small(printing: Printing, code: str, px_per_mm: float) -> np.ndarray:
    # Drawn finely, then reduced: thin strokes and small text stay smooth at camera scale.
    big = _face_large(printing, code, FACE_PX_PER_MM)
    size = (int(round(CARD_W * px_per_mm)), int(round(CARD_H * px_per_mm)))
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
        raise SynthError(f"{code!r} is not a Battle Line card code")
    if not 0.05 <= px_per_mm <= 40:
        raise SynthError(f"card face resolution {px_per_mm!r} px/mm is out of range 0.05-40")
    return _face_cached(printing, code, float(px_per_mm))


def write_deck_images(printing: Printing, directory: Path | str,
                      px_per_mm: float = FACE_PX_PER_MM) -> list[Path]:
    """One straight-on upright PNG per card, named by its code (`R8.png`): contract 2's DIR."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for card in ALL_CARDS:
        path = directory / f"{card.code}.png"
        if not cv2.imwrite(str(path), card_face(printing, card, px_per_mm)):
            raise SynthError(f"could not write the card image {path}")
        paths.append(path)
    return paths


__all__ = ["BODIES", "FACE_PX_PER_MM", "LAYOUTS", "PRINTINGS", "Printing", "card_face",
           "printing_named",
           "printing_a", "printing_b", "random_printing", "seed_words", "write_deck_images"]
