"""The enrolled deck (contract 2): one straight-on upright image per card, as a versioned file.

`enrol(directory)` reads `R8.png`, `ALEXANDER.jpg`, ... (all 70 cards) and keeps each face at
the reading resolution; `Deck.save(path)` writes a compressed `.npz` whose `format` and
`reading_version` say which reading code can use it; `Deck.load(path)` refuses any other.
Templates for the reader are computed once per deck and cached on it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.rules.cards import ALL_CARDS, BY_CODE, Card

from . import cvcompat, geometry
from .errors import CardError, DeckError, ImageError
from .reading import ReadingSettings, Templates, build_templates, ink

log = logging.getLogger(__name__)

FORMAT = "battleline-deck/1"
READING_VERSION = 1
"""Bump whenever the way faces are stored or compared changes: old decks must be enrolled again."""

_ASPECT = geometry.CARD_H / geometry.CARD_W
_ASPECT_TOLERANCE = 0.06
_MIN_BAND_INK = 0.02          # mean ink of a top band below this: a blank face, not a card
_SAME_BAND = 0.995            # two cards' bands this alike (shape and colour): indistinguishable


def _face_size(s: ReadingSettings) -> tuple[int, int]:
    return s.px(geometry.CARD_W), s.px(geometry.CARD_H)


def _crop_card(img: np.ndarray, name: str) -> np.ndarray:
    """The card face inside an image: the whole image, or the largest card-shaped region."""
    h, w = img.shape[:2]
    if abs(h / w - _ASPECT) <= _ASPECT_TOLERANCE * _ASPECT:
        return img
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    _, mask = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours = cvcompat.find_contours(mask)
    if contours:
        c = max(contours, key=cv2.contourArea)
        x, y, cw, ch = cv2.boundingRect(c)
        if cw * ch > 0.2 * w * h and abs(ch / cw - _ASPECT) <= _ASPECT_TOLERANCE * _ASPECT:
            return img[y:y + ch, x:x + cw]
    if abs(w / h - _ASPECT) <= _ASPECT_TOLERANCE * _ASPECT:
        raise CardError(f"{name}: the image is landscape; a card face must be upright (portrait)")
    raise CardError(f"{name}: a {w}x{h} image is not a card face "
                    f"({geometry.CARD_W:.0f}x{geometry.CARD_H:.0f} mm, portrait)")


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
    _templates: Templates | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.faces):
            raise DeckError("a deck needs one face per card")

    @property
    def templates(self) -> Templates:
        if self._templates is None:
            self._templates = build_templates(
                self.cards, [face_reflectance(f) for f in self.faces])
        return self._templates

    def face(self, card: Card | str) -> np.ndarray:
        code = card.code if isinstance(card, Card) else card
        return self.faces[[c.code for c in self.cards].index(code)]

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        if p.parent and not p.parent.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "wb") as fh:   # np.savez would add ".npz" to a name without it
            np.savez_compressed(fh, format=np.array(FORMAT), reading_version=np.array(READING_VERSION),
                                codes=np.array([c.code for c in self.cards]), faces=self.faces,
                                px_per_mm=np.array(self.px_per_mm), source=np.array(self.source))
        return p

    @classmethod
    def load(cls, path: str | Path) -> Deck:
        p = Path(path)
        if not p.is_file():
            raise DeckError(f"no deck file {p}: enrol one with `companion deck enrol DIR --out {p}`")
        try:
            with np.load(p, allow_pickle=False) as data:
                fmt = str(data["format"])
                version = int(data["reading_version"])
                codes = [str(c) for c in data["codes"]]
                faces = np.array(data["faces"])
                px = float(data["px_per_mm"])
                source = str(data["source"]) if "source" in data else ""
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise DeckError(f"{p} is not an enrolled deck file ({exc})") from None
        if fmt != FORMAT:
            raise DeckError(f"{p} is a {fmt!r} file, not a {FORMAT} deck")
        if version != READING_VERSION:
            raise DeckError(f"{p} was enrolled for card-reading version {version}; this is "
                            f"version {READING_VERSION}: enrol the deck again")
        s = ReadingSettings.load()
        if abs(px - s.px_per_mm) > 1e-6 or faces.shape[1:] != (_face_size(s)[1], _face_size(s)[0], 3):
            raise DeckError(f"{p} was enrolled at {px} px/mm; the reader uses {s.px_per_mm}: "
                            "enrol the deck again")
        bad = [c for c in codes if c not in BY_CODE]
        if bad:
            raise DeckError(f"{p} holds unknown card codes: {', '.join(bad[:5])}")
        return cls(tuple(BY_CODE[c] for c in codes), faces.astype(np.uint8), px, source)


def canonical_face(img: np.ndarray, name: str = "card image") -> np.ndarray:
    """A card image cropped to the face and resized to the reading resolution (BGR uint8)."""
    s = ReadingSettings.load()
    face = _crop_card(img, name)
    return cv2.resize(face, _face_size(s), interpolation=cv2.INTER_AREA)


def enrol(directory: str | Path) -> Deck:
    """The deck from a folder of upright card images named by code (`R8.png`, `FOG.jpg`)."""
    d = Path(directory)
    if not d.is_dir():
        raise DeckError(f"{d} is not a folder of card images")
    files = sorted(p for p in d.iterdir() if p.suffix.lower() in cvcompat.IMAGE_SUFFIXES)
    if not files:
        raise DeckError(f"{d} holds no card images (.png or .jpg named by card code, e.g. R8.png)")
    by_code: dict[str, Path] = {}
    for f in files:
        code = f.stem.strip().upper()
        if code not in BY_CODE:
            raise DeckError(f"{f.name}: {f.stem!r} is not a Battle Line card code "
                            "(R1-P10, ALEXANDER, DARIUS, CAVALRY, SHIELD, FOG, MUD, SCOUT, "
                            "REDEPLOY, DESERTER, TRAITOR)")
        if code in by_code:
            raise DeckError(f"{code} has two images: {by_code[code].name} and {f.name}")
        by_code[code] = f
    missing = [c.code for c in ALL_CARDS if c.code not in by_code]
    if missing:
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise DeckError(f"{d} lacks images of {', '.join(missing[:8])}{more}: "
                        "a deck needs all 70 cards")
    s = ReadingSettings.load()
    faces = []
    cards = []
    for card in ALL_CARDS:
        path = by_code[card.code]
        try:
            img = cvcompat.imread(path)
        except ImageError as exc:
            raise DeckError(str(exc)) from None
        face = canonical_face(img, path.name)
        band = face_reflectance(face[:s.px(s.band_mm)])
        if float(ink(band).mean()) < _MIN_BAND_INK:
            raise CardError(f"{path.name}: its top band is blank; a Battle Line card shows its "
                            "value and colour (or its name) there")
        faces.append(face)
        cards.append(card)
    deck = Deck(tuple(cards), np.stack(faces), s.px_per_mm, str(d))
    _check_distinct(deck)
    return deck


def _check_distinct(deck: Deck) -> None:
    """Two cards whose top bands cannot be told apart make every read of them a guess."""
    t = deck.templates
    shape = t.fine @ t.fine.T
    hue = np.linalg.norm(t.hues[:, None, :] - t.hues[None, :, :], axis=2)
    alike = (shape > _SAME_BAND) & (hue < 0.02)
    np.fill_diagonal(alike, False)
    if alike.any():
        i, j = np.argwhere(alike)[0]
        raise DeckError(f"{deck.cards[i]} and {deck.cards[j]} look the same in their top band: "
                        "this printing cannot be read (value and colour must show there)")


# -- enrolment on the rig ------------------------------------------------------------------
FACE_W, FACE_H = 630, 880      # a card face cut from a camera frame, upright (10 px per mm)


class CardNotFoundError(DeckError):
    """No single card could be found in a camera frame (enrolment on the rig)."""


def crop_card(frame: np.ndarray) -> np.ndarray:
    """The one card lying in `frame`, warped straight and upright (its top towards north).

    The card is the largest bright four-cornered shape; the table must be darker than the
    card's margin (as on the reference rig's dark cloth).
    """
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    _, mask = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        if cv2.contourArea(c) < 0.002 * frame.shape[0] * frame.shape[1]:
            break
        x, y, w, h = cv2.boundingRect(c)
        if x <= 1 or y <= 1 or x + w >= frame.shape[1] - 1 or y + h >= frame.shape[0] - 1:
            continue   # touches the edge: the cloth or the light, not a card lying in view
        quad = cv2.approxPolyDP(c, 0.03 * cv2.arcLength(c, True), True)
        if len(quad) == 4:
            best = quad.reshape(4, 2).astype(np.float32)
            break
    if best is None:
        raise CardNotFoundError("no single card found under the camera: lay one card alone, face up, "
                         "on the dark cloth")
    # Corners in order top-left, top-right, bottom-right, bottom-left (y grows south).
    s, d = best.sum(axis=1), np.diff(best, axis=1).ravel()
    tl, br, tr_, bl = best[np.argmin(s)], best[np.argmax(s)], best[np.argmin(d)], best[np.argmax(d)]
    width = np.linalg.norm(tr_ - tl)
    height = np.linalg.norm(bl - tl)
    src = np.array([tl, tr_, br, bl], dtype=np.float32)
    if width > height:
        # Lying across: turn it so that its long side is upright, top towards north.
        src = np.array([bl, tl, tr_, br], dtype=np.float32)
    dst = np.array([[0, 0], [FACE_W - 1, 0], [FACE_W - 1, FACE_H - 1], [0, FACE_H - 1]],
                   dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(frame, matrix, (FACE_W, FACE_H))


__all__ = ["CardNotFoundError", "Deck", "FACE_H", "FACE_W", "FORMAT", "READING_VERSION",
           "canonical_face", "crop_card", "enrol"]
