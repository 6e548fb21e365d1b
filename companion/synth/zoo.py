"""The printing zoo: families of invented printings spanning how real decks are printed.

Each family is a generator `family(seed) -> Printing` with random variation inside the family
(fonts, shades, sizes, art); `printing_named("FAMILY")` gives its seed 0 and `FAMILY-N` its
seed N.  `rendition(printing, seed)` gives another copy of a printing as a camera or scanner
sees it (paper, ink, gamma, hue), so that a deck can be enrolled from one copy and read on
another.  None of these looks copies real artwork.
"""

from __future__ import annotations

import colorsys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

import cv2
import numpy as np

from companion.rules.cards import COLOURS
from companion.synth.errors import SynthError
from companion.synth.faces import (
    _HSV_BOUNDS, ALIGNS, BGR, FONTS, SERIF_FONTS, Layout, Printing, Tone, printing_a, printing_b,
    random_printing, seed_words)

Family = Callable[[int], Printing]
T = TypeVar("T")

HELD_OUT = ("corner-pip", "full-bleed-disc", "parchment-gem", "border-stripe")
"""Families kept out of every tuning decision of the reader: they must never be used to choose
a method, a threshold or a constant, only to measure it (`companion bench vision` reports them
first and apart).  A reader tuned on them would no longer be measured on printings it never saw."""


def _rng(seed: int, family: str) -> np.random.Generator:
    return np.random.default_rng([seed_words(seed), zlib.crc32(family.encode())])


def _name(family: str, seed: int) -> str:
    return family if seed == 0 else f"{family}-{seed}"


def _hsv_bgr(h: float, s: float, v: float) -> BGR:
    r, g, b = colorsys.hsv_to_rgb((h % 360) / 360, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return int(round(b * 255)), int(round(g * 255)), int(round(r * 255))


def _troop_colours(rng: np.random.Generator, s_scale: float = 1.0, v_shift: float = 0.0
                   ) -> tuple[BGR, BGR, BGR, BGR, BGR, BGR]:
    """Six troop colours a player would name, with the family's saturation and brightness."""
    out = []
    for c in COLOURS:
        (h0, h1), (s0, s1), (v0, v1) = _HSV_BOUNDS[c]
        out.append(_hsv_bgr(rng.uniform(h0, h1), rng.uniform(s0, s1) * s_scale,
                            rng.uniform(v0, v1) + v_shift))
    return tuple(out)  # type: ignore[return-value]


def _tactic_colours(rng: np.random.Generator, light: bool = False) -> tuple[BGR, BGR, BGR]:
    if light:     # for dark stock: bright gold, silver, pale violet
        return (_hsv_bgr(rng.uniform(35, 50), rng.uniform(0.5, 0.8), rng.uniform(0.85, 1.0)),
                _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.1), rng.uniform(0.7, 0.85)),
                _hsv_bgr(rng.uniform(260, 320), rng.uniform(0.2, 0.45), rng.uniform(0.8, 0.95)))
    return (_hsv_bgr(rng.uniform(30, 50), rng.uniform(0.5, 0.9), rng.uniform(0.5, 0.8)),
            _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.0, 0.15), rng.uniform(0.35, 0.65)),
            _hsv_bgr(rng.uniform(0, 360), rng.uniform(0.3, 0.7), rng.uniform(0.15, 0.35)))


def _light_paper(rng: np.random.Generator, low: float = 236) -> BGR:
    base = rng.uniform(low, 254)
    t = rng.uniform(-6, 3, 3)
    return tuple(int(np.clip(base + v, 0, 255)) for v in t)  # type: ignore[return-value]


def _dark_ink(rng: np.random.Generator) -> BGR:
    v = int(rng.integers(10, 50))
    return v + int(rng.integers(0, 15)), v, v + int(rng.integers(0, 12))


def _choice(rng: np.random.Generator, items: Sequence[T]) -> T:
    return items[int(rng.integers(len(items)))]


def _jitter(colour: BGR, rng: np.random.Generator, hue: float = 4.0, sv: float = 0.06) -> BGR:
    b, g, r = (v / 255 for v in colour)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return _hsv_bgr(h * 360 + rng.uniform(-hue, hue), s * (1 + rng.uniform(-sv, sv)),
                    v * (1 + rng.uniform(-sv, sv)))


# -- the families ---------------------------------------------------------------------------
def classic(seed: int) -> Printing:
    """The project's classic look: value top left in colour beside a colour bar, emblem body."""
    base = printing_a()
    if seed == 0:
        return base
    rng = _rng(seed, "classic")
    return replace(base, name=_name("classic", seed),
                   font=int(_choice(rng, (cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX))),
                   weight=float(rng.uniform(0.13, 0.19)), paper=_jitter(base.paper, rng, 8, 0.02),
                   colours=tuple(_jitter(c, rng) for c in base.colours),  # type: ignore[arg-type]
                   band_mm=float(rng.uniform(15.0, 18.5)), art_seed=int(rng.integers(1 << 30)))


def bold(seed: int) -> Printing:
    """The project's bold look: value centred on a full colour band with pips, pip body."""
    base = printing_b()
    if seed == 0:
        return base
    rng = _rng(seed, "bold")
    return replace(base, name=_name("bold", seed),
                   font=int(_choice(rng, (cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX))),
                   weight=float(rng.uniform(0.10, 0.16)),
                   colours=tuple(_jitter(c, rng) for c in base.colours),  # type: ignore[arg-type]
                   band_mm=float(rng.uniform(13.0, 17.0)), art_seed=int(rng.integers(1 << 30)))


def banner(seed: int) -> Printing:
    """A full-width coloured banner across the top with a light numeral on it."""
    rng = _rng(seed, "banner")
    return Printing(
        name=_name("banner", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.11, 0.2)),
        paper=_light_paper(rng), ink=_dark_ink(rng), colours=_troop_colours(rng),
        tactic_colours=_tactic_colours(rng), layout="banner",
        band_mm=float(rng.uniform(12.0, 17.0)),
        body=_choice(rng, ("picture", "emblem", "pips")),
        frame=bool(rng.random() < 0.3), corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), align=_choice(rng, ("left", "centre")),
        numeral=float(rng.uniform(0.85, 1.15)))


def corner_pip(seed: int) -> Printing:
    """White stock, the value as a coloured numeral in both top corners with a small suit
    mark, a natural-colour illustration reaching up into the band between them."""
    rng = _rng(seed, "corner-pip")
    return Printing(
        name=_name("corner-pip", seed),
        font=int(_choice(rng, (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX,
                               cv2.FONT_HERSHEY_TRIPLEX))),
        italic=False, weight=float(rng.uniform(0.12, 0.2)), paper=_light_paper(rng, 242),
        ink=_dark_ink(rng), colours=_troop_colours(rng), tactic_colours=_tactic_colours(rng),
        layout="pip-corners", band_mm=float(rng.uniform(12.0, 16.0)), body="picture",
        frame=False, corner_index=bool(rng.random() < 0.5), art_seed=int(rng.integers(1 << 30)),
        numeral=float(rng.uniform(0.75, 1.1)), art_in_band=True,
        card_w=float(rng.uniform(61.0, 63.5)), card_h=float(rng.uniform(88.5, 91.0)))


def full_bleed_disc(seed: int) -> Printing:
    """A full-bleed picture in the card's colour, the value light in a dark disc."""
    rng = _rng(seed, "full-bleed-disc")
    ink_v = int(rng.integers(8, 40))
    return Printing(
        name=_name("full-bleed-disc", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.12, 0.2)),
        paper=_light_paper(rng, 225), ink=(ink_v, ink_v, ink_v + int(rng.integers(0, 10))),
        colours=_troop_colours(rng, s_scale=float(rng.uniform(0.8, 1.0))),
        tactic_colours=_tactic_colours(rng), layout="disc",
        band_mm=float(rng.uniform(13.0, 18.0)), body="bleed", frame=False, corner_index=False,
        art_seed=int(rng.integers(1 << 30)), align=_choice(rng, ("left", "right")),
        numeral=float(rng.uniform(0.8, 1.1)))


def dark_stock(seed: int) -> Printing:
    """Near-black stock with bright numerals and light text."""
    rng = _rng(seed, "dark-stock")
    v = int(rng.integers(12, 45))
    paper = (v + int(rng.integers(0, 12)), v, v + int(rng.integers(0, 8)))
    light = int(rng.integers(200, 240))
    return Printing(
        name=_name("dark-stock", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.12, 0.2)),
        paper=paper, ink=(light, light, light - int(rng.integers(0, 20))),
        colours=_troop_colours(rng, s_scale=float(rng.uniform(0.8, 1.0)), v_shift=0.25),
        tactic_colours=_tactic_colours(rng, light=True),
        layout=_choice(rng, ("corner", "centred", "pip-corners", "ribbon")),
        band_mm=float(rng.uniform(13.0, 18.0)),
        body=_choice(rng, ("emblem", "pips", "stripes")),
        frame=bool(rng.random() < 0.5), corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), numeral=float(rng.uniform(0.75, 1.1)))


def parchment_gem(seed: int) -> Printing:
    """Parchment stock, a serif or calligraphic numeral in brown ink, the colour only in a
    small gem beside it."""
    rng = _rng(seed, "parchment-gem")
    paper = (int(rng.integers(150, 195)), int(rng.integers(205, 228)),
             int(rng.integers(228, 246)))
    ink = (int(rng.integers(15, 40)), int(rng.integers(35, 60)), int(rng.integers(60, 95)))
    return Printing(
        name=_name("parchment-gem", seed), font=int(_choice(rng, SERIF_FONTS[:2])),
        italic=bool(rng.random() < 0.4), weight=float(rng.uniform(0.1, 0.18)),
        paper=paper, ink=ink, colours=_troop_colours(rng, s_scale=float(rng.uniform(0.8, 1.0))),
        tactic_colours=_tactic_colours(rng), layout="gem",
        band_mm=float(rng.uniform(13.0, 18.0)),
        body=_choice(rng, ("picture", "emblem")),
        frame=bool(rng.random() < 0.7), corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), align=_choice(rng, ("left", "centre")),
        numeral=float(rng.uniform(0.8, 1.15)), numeral_font=int(_choice(rng, SERIF_FONTS)))


def border_stripe(seed: int) -> Printing:
    """White stock, the numeral in black ink; the colour only in a stripe round the edge."""
    rng = _rng(seed, "border-stripe")
    return Printing(
        name=_name("border-stripe", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.12, 0.2)),
        paper=_light_paper(rng, 240), ink=_dark_ink(rng), colours=_troop_colours(rng),
        tactic_colours=_tactic_colours(rng), layout="stripe",
        band_mm=float(rng.uniform(14.0, 18.0)),
        body=_choice(rng, ("pips", "picture", "emblem")),
        frame=False, corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), align=_choice(rng, ALIGNS),
        numeral=float(rng.uniform(0.75, 1.1)), border_mm=float(rng.uniform(2.0, 4.0)))


def narrow(seed: int) -> Printing:
    """Narrow cards (56-58 x 87 mm, the common 'mini' size) in one of several looks."""
    rng = _rng(seed, "narrow")
    layout: Layout = _choice(rng, ("corner", "ribbon", "gem", "centred", "stripe"))
    return Printing(
        name=_name("narrow", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.12, 0.2)),
        paper=_light_paper(rng), ink=_dark_ink(rng), colours=_troop_colours(rng),
        tactic_colours=_tactic_colours(rng), layout=layout,
        band_mm=float(rng.uniform(13.0, 17.0)),
        body=_choice(rng, ("emblem", "pips")),
        frame=bool(rng.random() < 0.4), corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), numeral=float(rng.uniform(0.75, 1.1)),
        border_mm=float(rng.uniform(1.5, 3.0)) if layout == "stripe" else 0.0,
        card_w=float(rng.uniform(56.0, 58.0)), card_h=float(rng.uniform(86.0, 88.0)))


def centred(seed: int) -> Printing:
    """The numeral centred at the top in colour between thin ink flourishes."""
    rng = _rng(seed, "centred")
    return Printing(
        name=_name("centred", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.25), weight=float(rng.uniform(0.11, 0.2)),
        paper=_light_paper(rng, 228), ink=_dark_ink(rng), colours=_troop_colours(rng),
        tactic_colours=_tactic_colours(rng), layout="centred",
        band_mm=float(rng.uniform(13.0, 18.0)),
        body=_choice(rng, ("picture", "emblem", "stripes")),
        frame=bool(rng.random() < 0.5), corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), numeral=float(rng.uniform(0.7, 1.1)))


def colour_word(seed: int) -> Printing:
    """The numeral beside the colour's name as a word (English, French or German)."""
    rng = _rng(seed, "colour-word")
    return Printing(
        name=_name("colour-word", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.11, 0.18)),
        paper=_light_paper(rng), ink=_dark_ink(rng), colours=_troop_colours(rng),
        tactic_colours=_tactic_colours(rng), layout="word",
        band_mm=float(rng.uniform(13.0, 17.0)),
        body=_choice(rng, ("picture", "emblem", "pips")),
        frame=bool(rng.random() < 0.5), corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), language=_choice(rng, ("en", "fr", "de")),
        numeral=float(rng.uniform(0.8, 1.1)))


def picture_tactics(seed: int) -> Printing:
    """Tactics cards with only a picture and a word, in French or German for most seeds;
    the Troops in a banner, corner or full-colour disc look."""
    rng = _rng(seed, "picture-tactics")
    layout: Layout = _choice(rng, ("banner", "corner", "disc", "centred"))
    return Printing(
        name=_name("picture-tactics", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.12, 0.2)),
        paper=_light_paper(rng), ink=_dark_ink(rng), colours=_troop_colours(rng),
        tactic_colours=_tactic_colours(rng), layout=layout,
        band_mm=float(rng.uniform(13.0, 17.0)),
        body="bleed" if layout == "disc" else "picture", frame=False,
        corner_index=False, art_seed=int(rng.integers(1 << 30)),
        tactics="picture", language=("fr" if seed % 3 != 2 else "de") if seed % 4 != 3 else "en",
        numeral=float(rng.uniform(0.8, 1.1)))


def scenic(seed: int) -> Printing:
    """A picture reaching up into the top band behind the value, on light or dark stock: the
    numeral in a corner, centred, on a ribbon or beside the colour's name (on dark stock also
    in both top corners)."""
    rng = _rng(seed, "scenic")
    dark = bool(rng.random() < 0.35)
    if dark:
        v = int(rng.integers(15, 45))
        paper: BGR = (v + int(rng.integers(0, 12)), v, v + int(rng.integers(0, 8)))
        light = int(rng.integers(200, 240))
        ink: BGR = (light, light, light - int(rng.integers(0, 20)))
    else:
        paper, ink = _light_paper(rng, 230), _dark_ink(rng)
    layouts: tuple[Layout, ...] = ("corner", "centred", "ribbon", "word")
    return Printing(
        name=_name("scenic", seed), font=int(_choice(rng, FONTS)),
        italic=bool(rng.random() < 0.2), weight=float(rng.uniform(0.12, 0.2)),
        paper=paper, ink=ink,
        colours=_troop_colours(rng, v_shift=0.2 if dark else 0.0),
        tactic_colours=_tactic_colours(rng, light=dark),
        layout=_choice(rng, layouts + (("pip-corners",) if dark else ())),
        band_mm=float(rng.uniform(12.0, 17.0)), body="picture",
        frame=bool(rng.random() < 0.3), corner_index=bool(rng.random() < 0.5),
        art_seed=int(rng.integers(1 << 30)), art_in_band=True,
        align=_choice(rng, ("left", "centre")), language=_choice(rng, ("en", "fr", "de")),
        numeral=float(rng.uniform(0.75, 1.1)))


def random_family(seed: int) -> Printing:
    """The older invented printings (`random-N`): classic layouts, random shades and fonts."""
    return random_printing(seed)


FAMILIES: dict[str, Family] = {
    "classic": classic, "bold": bold, "banner": banner, "corner-pip": corner_pip,
    "full-bleed-disc": full_bleed_disc, "dark-stock": dark_stock,
    "parchment-gem": parchment_gem, "border-stripe": border_stripe, "narrow": narrow,
    "centred": centred, "colour-word": colour_word, "picture-tactics": picture_tactics,
    "random": random_family, "scenic": scenic,
}
TUNING = tuple(name for name in FAMILIES if name not in HELD_OUT)
"""The families a reader may be tuned on."""


# -- Schotten Totten printings ----------------------------------------------------------------
def _schotten(base: Printing, family: str, seed: int, language: str) -> Printing:
    """`base` as a Schotten Totten printing: its 64 cards, its Tactic names, a brown clan in
    the slot of Battle Line's orange."""
    rng = _rng(seed, family)
    brown = _hsv_bgr(float(rng.uniform(22, 34)), float(rng.uniform(0.55, 0.8)),
                     float(rng.uniform(0.38, 0.55)))
    colours = list(base.colours)
    colours[COLOURS.index("O")] = brown
    return replace(base, name=family if seed == 0 else _name(family, seed),
                   colours=tuple(colours),  # type: ignore[arg-type]
                   edition="schotten-totten", language=language)


def schotten_clan(seed: int) -> Printing:
    """A Schotten Totten deck in French: the value in a corner in its clan's colour."""
    return _schotten(classic(seed), "schotten-clan", seed, "fr")


def schotten_banner(seed: int) -> Printing:
    """A Schotten Totten deck in English: a full-width clan banner across the top."""
    return _schotten(banner(seed), "schotten-banner", seed, "en")


SCHOTTEN_FAMILIES: dict[str, Family] = {"schotten-clan": schotten_clan,
                                        "schotten-banner": schotten_banner}
"""Schotten Totten printings (`Printing.edition`), apart from the Battle Line zoo that the
reader's figures are measured on."""


def family_printing(family: str, seed: int = 0) -> Printing:
    """Seed `seed` of the zoo's `family`."""
    families = {**FAMILIES, **SCHOTTEN_FAMILIES}
    if family not in families:
        raise SynthError(f"unknown printing family {family!r}: use one of {', '.join(families)}")
    return families[family](seed)


def rendition(printing: Printing, seed: int) -> Printing:
    """Another copy of `printing` as a camera or scanner sees it: its paper tinted, its inks
    more or less saturated, its gamma and hue shifted (a second print run, another scanner).

    The cards stay the same cards; only their colours move.  Different seeds give different
    copies; enrol from one and read another.
    """
    rng = np.random.default_rng([seed_words(seed), zlib.crc32(printing.name.encode()), 0x70E])
    warm = float(rng.uniform(-0.04, 0.04))
    base = float(rng.uniform(0.9, 1.0))
    tone = Tone(hue_deg=float(rng.uniform(-6.0, 6.0)), saturation=float(rng.uniform(0.78, 1.18)),
                gamma=float(rng.uniform(0.82, 1.22)), black=float(rng.uniform(0.0, 0.07)),
                paper=(base - warm - float(rng.uniform(0, 0.03)), base,
                       min(1.0, base + warm + float(rng.uniform(0, 0.03)))))
    return replace(printing, name=f"{printing.name}~{seed}", tone=tone)


__all__ = ["FAMILIES", "HELD_OUT", "SCHOTTEN_FAMILIES", "TUNING", "family_printing",
           "rendition"]
