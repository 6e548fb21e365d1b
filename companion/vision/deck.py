"""The enrolled deck (contract 2): one straight-on upright image per card, as a versioned file.

`enrol(directory, card_size)` reads `R8.png`, `ALEXANDER.jpg`, ... (all 70 cards of a Battle
Line printing, or the 64 of a Schotten Totten one, told by its `SPY.png`) and keeps
each face at the reading resolution; it refuses an image that is no card face of that size, or
that lies upside down or sideways, and finds the cards whose top bands this printing does not
tell apart (`Deck.pairs`).  `Deck.save(path)` writes a compressed `.npz` whose `format` and
`reading_version` say which reading code can use it, and a picture of each such pair next to
it; `Deck.load(path)` refuses any other.  Templates for the reader are computed once per deck
and cached on it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from companion.rules.cards import BY_CODE, Card
from companion.rules.edition import BATTLE_LINE, SCHOTTEN_TOTTEN, Edition

from . import bandnet, cvcompat, geometry
from .config import load_config
from .errors import CardError, DeckError, ImageError
from .reading import (ReadingSettings, Templates, build_templates, colour_cells,
                      face_net_inputs)

log = logging.getLogger(__name__)

FORMAT = "battleline-deck/1"
READING_VERSION = 2
"""Bump whenever the way faces are stored or compared changes: old decks must be enrolled again."""

CardSize = tuple[float, float]
DEFAULT_SIZE: CardSize = (geometry.CARD_W, geometry.CARD_H)


def _face_size(s: ReadingSettings, size: CardSize) -> tuple[int, int]:
    return s.px(size[0]), s.px(size[1])


def _settings() -> dict[str, float]:
    return {k: float(v) for k, v in load_config()["enrol"].items()}


def parse_card_size(text: str) -> CardSize:
    """`63x88` (mm, width by height) as a card size; a card is 40 to 120 mm either way."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        w, h = (float(v) for v in parts)
    except ValueError:
        raise DeckError(f"card size {text!r} is not WxH in millimetres (e.g. 63x88)") from None
    if not (40 <= w <= 120 and 40 <= h <= 120) or w >= h:
        raise DeckError(f"card size {text!r} is not a portrait card's WxH in millimetres "
                        "(e.g. 63x88, 56x87)")
    return w, h


def _crop_card(img: np.ndarray, name: str, size: CardSize) -> np.ndarray:
    """The card face inside an image: the whole image, or the largest card-shaped region."""
    h, w = img.shape[:2]
    aspect = size[1] / size[0]
    tol = _settings()["aspect_tolerance"] * aspect
    if abs(h / w - aspect) <= tol:
        return img
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    _, mask = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for m in (mask, 255 - mask):           # light stock on a dark scan bed, or the reverse
        contours = cvcompat.find_contours(m)
        if contours:
            c = max(contours, key=cv2.contourArea)
            x, y, cw, ch = cv2.boundingRect(c)
            if cw * ch > 0.2 * w * h and abs(ch / cw - aspect) <= tol:
                return img[y:y + ch, x:x + cw]
    if abs(w / h - aspect) <= tol:
        raise CardError(f"{name}: the image is landscape (turned a quarter); a card face must "
                        "be upright (portrait)")
    raise CardError(f"{name}: a {w}x{h} image is not a card face of "
                    f"{size[0]:g}x{size[1]:g} mm (portrait); give the printing's size with "
                    "--card-size WxH")
def face_reflectance(face_bgr: np.ndarray) -> np.ndarray:
    """A canonical face (BGR uint8 at the reading resolution) as reflectance."""
    return face_bgr.astype(np.float32) / 255.0


@dataclass(slots=True)
class Deck:
    """The enrolled faces, by card, at the reading resolution (BGR uint8)."""

    cards: tuple[Card, ...]
    faces: np.ndarray                         # (n, H, W, 3) uint8
    px_per_mm: float
    source: str = ""
    card_size: CardSize = DEFAULT_SIZE        # the printing's card, width and height (mm)
    # Cards whose top bands this printing does not tell apart: their reads are doubts unless
    # what shows of the card's face names it (`Templates.alike`, `reading.face_class`).
    pairs: tuple[tuple[str, str], ...] = ()
    stock: np.ndarray | None = None           # the colour ink is measured from (`stock_colour`)
    _templates: Templates | None = field(default=None, repr=False)
    _softened: dict[float, Templates] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.faces):
            raise DeckError("a deck needs one face per card")

    @property
    def edition(self) -> Edition:
        """The edition this printing's cards are of: Schotten Totten's 64 (with the Spy) or
        Battle Line's 70 (the Médiéval printing's too: the same cards)."""
        return deck_edition(c.code for c in self.cards)

    @property
    def templates(self) -> Templates:
        if self._templates is None:
            self._templates = replace(build_templates(
                self.cards, [face_reflectance(f) for f in self.faces], self.card_size,
                self.stock), alike=self.alike())
            self.stock = self._templates.stock
        return self._templates

    def alike(self) -> frozenset[tuple[int, int]]:
        """`pairs` as the templates hold them (`Templates.alike`): card indices, both ways."""
        idx = {c.code: i for i, c in enumerate(self.cards)}
        return frozenset(p for a, b in self.pairs for p in ((idx[a], idx[b]), (idx[b], idx[a])))

    def templates_at(self, softness: float) -> Templates:
        """The templates of the faces softened by a Gaussian of sigma `softness` (reading
        pixels): a frame as soft as that fits them as it would fit the card (`softness`
        module).  Built once per sigma and kept; 0 is `templates`."""
        if softness <= 0.0:
            return self.templates
        got = self._softened.get(softness)
        if got is None:
            sharp = self.templates    # what ink is measured from, and the colours
            got = replace(build_templates(
                self.cards, [face_reflectance(cv2.GaussianBlur(f, (0, 0), softness))
                             for f in self.faces], self.card_size, sharp.stock,
                sharp.net_trust),
                colour=sharp.colour, hues=sharp.hues, vivid=sharp.vivid, alike=sharp.alike)
            self._softened[softness] = got
        return got

    def face(self, card: Card | str) -> np.ndarray:
        code = card.code if isinstance(card, Card) else card
        return self.faces[[c.code for c in self.cards].index(code)]

    def pairs_dir(self, path: str | Path) -> Path:
        """Where the pictures of `pairs` go for a deck file: `deck.pairs/` beside `deck.npz`."""
        return Path(path).with_suffix(".pairs")

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        if p.parent and not p.parent.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "wb") as fh:   # np.savez would add ".npz" to a name without it
            np.savez_compressed(fh, format=np.array(FORMAT), reading_version=np.array(READING_VERSION),
                                codes=np.array([c.code for c in self.cards]), faces=self.faces,
                                px_per_mm=np.array(self.px_per_mm), source=np.array(self.source),
                                card_size=np.array(self.card_size, np.float64),
                                pairs=np.array([f"{a}-{b}" for a, b in self.pairs], dtype=str),
                                stock=self.templates.stock)
        pics = self.pairs_dir(p)
        if pics.is_dir():
            for old in pics.glob("*.png"):
                old.unlink()
        if self.pairs:
            pics.mkdir(exist_ok=True)
            for a, b in self.pairs:
                cvcompat.imwrite(pics / f"{a}-{b}.png", self.pair_picture(a, b))
        return p

    def pair_picture(self, a: str, b: str) -> np.ndarray:
        """Two cards' faces side by side, their top bands marked: what the reader cannot tell
        apart (BGR)."""
        s = ReadingSettings.load()
        fa, fb = self.face(a).copy(), self.face(b).copy()
        band = s.px(s.band_mm)
        for f in (fa, fb):
            cv2.rectangle(f, (0, 0), (f.shape[1] - 1, band), (0, 0, 255), 1)
        gap = np.full((fa.shape[0], max(4, fa.shape[1] // 10), 3), 128, np.uint8)
        return np.hstack([fa, gap, fb])

    @classmethod
    def load(cls, path: str | Path) -> Deck:
        p = Path(path)
        if not p.is_file():
            raise DeckError(f"no deck file {p}: enrol one with `companion deck enrol DIR --out {p}`")
        try:
            with np.load(p, allow_pickle=False) as data:
                fmt = str(data["format"])
                version = int(data["reading_version"])
                if fmt != FORMAT or version != READING_VERSION:
                    codes, faces, px, source, size, pairs = [], np.zeros(0), 0.0, "", \
                        DEFAULT_SIZE, []
                    stock = np.ones(3, np.float32)
                else:
                    codes = [str(c) for c in data["codes"]]
                    faces = np.array(data["faces"])
                    px = float(data["px_per_mm"])
                    source = str(data["source"]) if "source" in data else ""
                    size = (float(data["card_size"][0]), float(data["card_size"][1]))
                    pairs = [tuple(str(x).split("-", 1)) for x in data["pairs"]]
                    stock = np.array(data["stock"], np.float32)
        except (OSError, ValueError, KeyError, EOFError, IndexError) as exc:
            raise DeckError(f"{p} is not an enrolled deck file ({exc})") from None
        if fmt != FORMAT:
            raise DeckError(f"{p} is a {fmt!r} file, not a {FORMAT} deck")
        if version != READING_VERSION:
            raise DeckError(f"{p} was enrolled for card-reading version {version}; this is "
                            f"version {READING_VERSION}: enrol the deck again")
        s = ReadingSettings.load()
        want = _face_size(s, size)
        if abs(px - s.px_per_mm) > 1e-6 or faces.shape[1:] != (want[1], want[0], 3):
            raise DeckError(f"{p} was enrolled at {px} px/mm; the reader uses {s.px_per_mm}: "
                            "enrol the deck again")
        bad = [c for c in codes if c not in BY_CODE]
        if bad:
            raise DeckError(f"{p} holds unknown card codes: {', '.join(bad[:5])}")
        return cls(tuple(BY_CODE[c] for c in codes), faces.astype(np.uint8), px, source, size,
                   tuple((a, b) for a, b in pairs), stock)


def canonical_face(img: np.ndarray, name: str = "card image",
                   card_size: CardSize = DEFAULT_SIZE) -> np.ndarray:
    """A card image cropped to the face and resized to the reading resolution (BGR uint8)."""
    s = ReadingSettings.load()
    face = _crop_card(img, name, card_size)
    return cv2.resize(face, _face_size(s, card_size), interpolation=cv2.INTER_AREA)


def deck_edition(codes: Iterable[str]) -> Edition:
    """The edition of a deck from its card codes: the Spy is only in Schotten Totten."""
    return SCHOTTEN_TOTTEN if "SPY" in set(codes) else BATTLE_LINE


def _card_files(d: Path) -> tuple[dict[str, Path], Edition]:
    if not d.is_dir():
        raise DeckError(f"{d} is not a folder of card images")
    files = sorted(p for p in d.iterdir() if p.suffix.lower() in cvcompat.IMAGE_SUFFIXES)
    if not files:
        raise DeckError(f"{d} holds no card images (.png or .jpg named by card code, e.g. R8.png)")
    by_code: dict[str, Path] = {}
    for f in files:
        code = f.stem.strip().upper()
        if code not in BY_CODE:
            raise DeckError(f"{f.name}: {f.stem!r} is not a card code (Battle Line: R1-P10, "
                            "ALEXANDER, DARIUS, CAVALRY, SHIELD, FOG, MUD, SCOUT, REDEPLOY, "
                            "DESERTER, TRAITOR; Schotten Totten: R1-P9 and SPY instead of "
                            "CAVALRY, docs/editions.md)")
        if code in by_code:
            raise DeckError(f"{code} has two images: {by_code[code].name} and {f.name}")
        by_code[code] = f
    edition = deck_edition(by_code)
    strays = [code for code in by_code if not edition.has(BY_CODE[code])]
    if strays:
        raise DeckError(f"{d} mixes editions: {by_code[strays[0]].name} is not a card of "
                        f"{edition.title}, whose deck {'has' if edition is SCHOTTEN_TOTTEN else 'lacks'}"
                        " the Spy (SPY)")
    missing = [c.code for c in edition.cards if c.code not in by_code]
    if missing:
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise DeckError(f"{d} lacks images of {', '.join(missing[:8])}{more}: "
                        f"a {edition.title} deck needs all {len(edition.cards)} cards")
    return by_code, edition


def enrol(directory: str | Path, card_size: CardSize = DEFAULT_SIZE) -> Deck:
    """The deck from a folder of upright card images named by code (`R8.png`, `FOG.jpg`) of
    a printing whose cards measure `card_size` (width, height in mm)."""
    d = Path(directory)
    by_code, edition = _card_files(d)
    s = ReadingSettings.load().sized(*card_size)
    cfg = _settings()
    faces = []
    cards = []
    names = []
    for card in edition.cards:
        path = by_code[card.code]
        try:
            img = cvcompat.imread(path)
        except ImageError as exc:
            raise DeckError(str(exc)) from None
        face = canonical_face(img, path.name, card_size)
        cells = colour_cells(face_reflectance(face), 0, 0, s)
        if float(cells.std(axis=0).max()) < cfg["band_min_contrast"]:
            turned = colour_cells(face_reflectance(np.ascontiguousarray(face[::-1, ::-1])),
                                  0, 0, s)
            if float(turned.std(axis=0).max()) >= cfg["band_min_contrast"]:
                raise CardError(f"{path.name}: the card is upside down (its top band is at "
                                "the bottom of the image); turn the image and enrol again")
            raise CardError(f"{path.name}: its top band is blank; a card shows its "
                            "value and colour (or its name) there")
        faces.append(face)
        cards.append(card)
        names.append(path.name)
    stack = np.stack(faces)
    _check_faces(stack, tuple(cards), names, s, cfg)
    deck = Deck(tuple(cards), stack, s.px_per_mm, str(d), (float(card_size[0]),
                                                          float(card_size[1])))
    deck.pairs = _alike_pairs(deck, cfg)
    deck._templates = replace(deck.templates, alike=deck.alike())
    for a, b in deck.pairs:
        log.warning("%s and %s look the same in their top band: reads of either are doubts "
                    "unless their faces tell them apart", a, b)
    return deck


def _structure(face: np.ndarray, rows: int, s: ReadingSettings, cell_mm: float) -> np.ndarray:
    """Where a face's picture changes (colour gradients, whatever their direction or which side
    is darker) over its top `rows` px, in cells: zero-mean, unit length."""
    f = face[:rows].astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy).sum(axis=2)
    cell = max(1, s.px(cell_mm))
    small = cv2.resize(mag, (mag.shape[1] // cell, mag.shape[0] // cell),
                       interpolation=cv2.INTER_AREA).ravel()
    small = small - small.mean()
    return small / max(float(np.linalg.norm(small)), 1e-6)


def _check_faces(faces: np.ndarray, cards: tuple[Card, ...], names: list[str],
                 s: ReadingSettings, cfg: dict[str, float]) -> None:
    """Refuse an image that is no face of this printing, or one that lies upside down.

    Nothing here knows the printing: each face is compared with the rest of the deck.  Every
    face of a printing shares much of its layout with some other (a value's other colours,
    the Tactics cards' frame); a photo of something else shares it with none.  And a face
    turned upside down fits its fellows (the same value's other colours; for a Tactics card
    the other Tactics cards) better turned back.
    """
    n = len(faces)
    whole = np.array([_structure(f, f.shape[0], s, 4.0) for f in faces])
    turned = np.array([_structure(f[::-1, ::-1], f.shape[0], s, 4.0) for f in faces])
    sim = np.maximum(whole @ whole.T, whole @ turned.T)
    np.fill_diagonal(sim, -1.0)
    nearest = sim.max(axis=1)
    floor = cfg["face_outlier"] * float(np.median(nearest))
    for i in np.argsort(nearest):
        if nearest[i] >= floor:
            break
        raise CardError(f"{names[i]}: this image is not a card face like the rest of the deck "
                        "(it shares no layout with any other card)")
    band = s.px(s.band_mm) * 2          # the top band and as much again below it
    top = np.array([_structure(f, band, s, 2.0) for f in faces])
    bottom = np.array([_structure(f[::-1, ::-1], band, s, 2.0) for f in faces])
    keys = [str(c.value) if c.is_troop else "tactics" for c in cards]
    for i in range(n):
        fellows = [j for j in range(n) if j != i and keys[j] == keys[i]]
        if not fellows:
            continue
        ref = top[fellows].mean(axis=0)
        up, down = float(top[i] @ ref), float(bottom[i] @ ref)
        if down > up + cfg["flip_margin"]:
            raise CardError(f"{names[i]}: the card is upside down (its top band is at the "
                            "bottom of the image); turn the image and enrol again")


def _alike_pairs(deck: Deck, cfg: dict[str, float]) -> tuple[tuple[str, str], ...]:
    """Cards whose top bands cannot be told apart: the same shape and a colour nearer than
    `same_colour` of the deck's usual distance between a value's nearest two colours, of one
    class or of two that the band network does not tell apart (`_net_tells_apart`)."""
    t = deck.templates
    shape = t.fine @ t.fine.T
    hue = np.linalg.norm(t.hues[:, None, :] - t.hues[None, :, :], axis=2)
    same_cls = t.class_of[:, None] == t.class_of[None, :]
    np.fill_diagonal(same_cls, False)
    near = np.where(same_cls, hue, np.inf).min(axis=1)
    usual = float(np.median(near[np.isfinite(near)])) if np.isfinite(near).any() else 0.0
    # Colours are measured where each value shows them: a colour is compared with another
    # value's only as "the same colour".
    colour = np.array([c.colour or c.code for c in deck.cards])
    same_colour = np.where(same_cls, hue <= cfg["same_colour"] * usual + 1e-6,
                           colour[:, None] == colour[None, :])
    alike = (shape > cfg["same_band"]) & same_colour
    np.fill_diagonal(alike, False)
    pairs = []
    for i, j in np.argwhere(np.triu(alike)):
        if not _net_tells_apart(deck, int(i), int(j)):
            pairs.append((deck.cards[i].code, deck.cards[j].code))
    return tuple(pairs)


def _net_tells_apart(deck: Deck, i: int, j: int) -> bool:
    """Whether the band network tells cards `i` and `j` of this printing apart as well as a
    printing must be told apart for its say to count (`net_trust_min`): the printing's
    `self_test` passes that bar, and so does the share of camera-like views of each card's
    enrolled band that lie nearer its own class than the other card's
    (`bandnet.told_apart`). A 6 and an 8 whose numerals differ only in a small opening leave
    the cells nearly alike; the network, trained to tell cards apart within a printing, may
    still see it, and then their reads are judged by the two looks as any read is
    (`reading.looks_disagree`). Two cards of one class (a value's colours) are the cells'
    and the colour's to tell apart, never the network's."""
    t = deck.templates
    s = t.settings()
    a, b = int(t.class_of[i]), int(t.class_of[j])
    if a == b or t.protos.shape[1] == 0 or t.net_trust < s.net_trust_min:
        return False
    band_a, band_b = face_net_inputs([face_reflectance(deck.faces[k]) for k in (i, j)], s,
                                     t.stock)
    return bandnet.told_apart(band_a, band_b, a, b, t.protos) >= s.net_trust_min


# -- enrolment on the rig ------------------------------------------------------------------
FACE_W, FACE_H = 630, 880      # a card face cut from a camera frame, upright (10 px per mm)


class CardNotFoundError(DeckError):
    """No single card could be found in a camera frame (enrolment on the rig)."""


def card_outline(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the one card lying in `frame` (float32, 4x2): top-left, top-right,
    bottom-right, bottom-left with the card upright (its top towards north, the frame's top),
    and its outline.

    The card is the largest shape that stands out from the table (told by the colour of the
    frame's edges, whatever it is) and does not touch the frame's edge: light or dark stock,
    a coloured banner or a picture reaching the card's edge are all part of it.
    """
    small = cv2.GaussianBlur(frame, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    ring = max(4, min(h, w) // 40)
    edge = np.concatenate([lab[:ring].reshape(-1, 3), lab[-ring:].reshape(-1, 3),
                           lab[:, :ring].reshape(-1, 3), lab[:, -ring:].reshape(-1, 3)])
    table = np.median(edge, axis=0)
    spread = np.median(np.linalg.norm(edge - table, axis=1))
    # Away from the table's colour: another hue, lighter, or far darker than a shadow makes
    # it (a card's shadow darkens the table, it does not change its colour).
    chroma = np.linalg.norm(lab[..., 1:] - table[1:], axis=2)
    light = lab[..., 0] - table[0]
    t = max(12.0, 4.0 * float(spread))
    mask = ((chroma > t) | (light > t) | (lab[..., 0] < 0.55 * table[0])).astype(np.uint8) * 255
    k = max(3, min(h, w) // 200) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    # A card's inside may match the table here and there: its outer outline is what counts.
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = outline = None
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        if cv2.contourArea(c) < 0.002 * h * w:
            break
        x, y, bw, bh = cv2.boundingRect(c)
        if x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1:
            continue   # touches the edge: the cloth or the light, not a card lying in view
        hull = cv2.convexHull(c)
        if cv2.contourArea(c) < 0.85 * cv2.contourArea(hull):
            continue   # not one card: a card and a tile touching, or a hand
        quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        corners = quad.reshape(-1, 2).astype(np.float32) if len(quad) == 4 else \
            cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
        best, outline = corners, hull
        break
    if best is None or outline is None:
        raise CardNotFoundError("no single card found under the camera: lay one card alone, "
                                "face up, away from the flag tiles")
    # Corners in order top-left, top-right, bottom-right, bottom-left (y grows south).
    s, d = best.sum(axis=1), np.diff(best, axis=1).ravel()
    tl, br, tr_, bl = best[np.argmin(s)], best[np.argmax(s)], best[np.argmin(d)], best[np.argmax(d)]
    if np.linalg.norm(tr_ - tl) > np.linalg.norm(bl - tl):
        # Lying across: turn it so that its long side is upright, top towards north.
        return np.array([bl, tl, tr_, br], dtype=np.float32), outline
    return np.array([tl, tr_, br, bl], dtype=np.float32), outline


def card_size_px(corners: np.ndarray) -> tuple[float, float]:
    """A card's width and height in pixels, from its corners (the mean of opposite sides)."""
    tl, tr_, br, bl = corners
    return (float(np.linalg.norm(tr_ - tl) + np.linalg.norm(br - bl)) / 2,
            float(np.linalg.norm(bl - tl) + np.linalg.norm(br - tr_)) / 2)


def crop_card(frame: np.ndarray, corners: np.ndarray | None = None) -> np.ndarray:
    """The one card lying in `frame` (its `corners`, else found by `card_outline`), warped
    straight and upright, at its own shape: `FACE_H` pixels tall (a card 88 mm tall at 10 px
    per mm)."""
    if corners is None:
        corners = card_outline(frame)[0]
    w, h = card_size_px(corners)
    width = max(1, round(FACE_H * w / h))
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, FACE_H - 1], [0, FACE_H - 1]],
                   dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(corners, dst)
    return cv2.warpPerspective(frame, matrix, (width, FACE_H))


def capture_card(frame: np.ndarray) -> tuple[np.ndarray, tuple[float, float] | None]:
    """The one card lying in a frame of the rig, cut out upright (`crop_card`), and its size
    in mm measured against the flag tiles in view (None when no tile is read)."""
    from .errors import VisionError
    from .tiles import find_tiles

    corners, outline = card_outline(frame)
    face = crop_card(frame, corners)
    # The outline's own rectangle: the four corners found on rounded corners lie inside it.
    (_, _), (a, b), _ = cv2.minAreaRect(outline)
    w, h = sorted((float(a), float(b)))
    try:
        scales = [t.px_per_mm for t in find_tiles(frame)]
    except VisionError:
        scales = []
    if not scales:
        return face, None
    k = float(np.median(scales))
    return face, (w / k, h / k)


def measured_size(sizes: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The printing's card size from the sizes measured on the rig: the median, to 0.5 mm."""
    if not sizes:
        return None
    w, h = np.median(np.array(sizes, np.float64), axis=0)
    return (round(float(w) * 2) / 2, round(float(h) * 2) / 2)


__all__ = ["CardNotFoundError", "CardSize", "DEFAULT_SIZE", "Deck", "FACE_H", "FACE_W", "FORMAT",
           "READING_VERSION", "canonical_face", "capture_card", "card_outline", "card_size_px",
           "crop_card", "enrol", "measured_size", "parse_card_size"]
