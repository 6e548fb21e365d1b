"""Draw a `Scene` as an overhead camera frame (BGR uint8), seeded, with optional degradations.

The table is laid out in millimetres with the rig's geometry (`geometry.py`), drawn at the
frame's px/mm, then passed through one perspective warp (camera tilt, global rotation, scale,
shift) and the sensor's faults (light, colour cast, glare, blur, noise, JPEG).  The same seed
gives the same pixels.  Card faces and tiles are cached per printing and resolution.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.rules.cards import Card, card_index
from companion.rules.position import SIDES, Side
from companion.vision.geometry import (
    CARD_H, CARD_W, CLAIMED_OFFSET, ECHELON_STEP, FIRST_CARD_GAP, FLAG_PITCH, FRAME_H, FRAME_W,
    LORES_H, LORES_W, OFFLINE_GAP, PX_PER_MM, TILE_H, TILE_W, ZONE_DEPTH)
from companion.synth.errors import SynthError
from companion.synth.faces import Printing, card_face, seed_words
from companion.synth.scene import Hand, Scene
from companion.vision.tilesheet import tile_image

CAMERA_HEIGHT_MM = 775.0          # the rig's camera above the table (75-80 cm)
CARD_CORNER_MM = 3.0
NEAR_EDGE = TILE_H / 2 + FIRST_CARD_GAP          # first card's near edge, from the line
OFFLINE_X = 4 * FLAG_PITCH + FLAG_PITCH / 2 + OFFLINE_GAP + CARD_W / 2 - 2.0
"""Off-line columns' centre, from flag 5: north's east of flag 9, south's west of flag 1."""
OFFLINE_NEAR = 10.0               # an off-line column starts this far from the line
_MAX_REACH = 272.0                # cards end within the frame (half height is ~282 mm)
MARGIN = 0.12                     # table drawn beyond each frame edge, as a fraction of it


# -- the camera and the table's set-up -------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Rig:
    """A camera over the table: its frame size, its scale on the table and its height, and
    what its optics and stream always do to a frame.

    The frame is centred on flag 5 as on the reference rig; a camera with fewer pixels per
    mm sees more of the table around the line.  `softness_px` is the lens's and sensor's own
    blur (a Gaussian sigma in this camera's pixels) and `jpeg` the quality of its compressed
    stream (0: none), on top of any `Degrade`.
    """

    name: str
    width: int
    height: int
    px_per_mm: float
    camera_height_mm: float = CAMERA_HEIGHT_MM
    softness_px: float = 0.0
    jpeg: int = 0

    def __post_init__(self) -> None:
        if not (320 <= self.width <= 8192 and 180 <= self.height <= 8192):
            raise SynthError(f"rig {self.name!r}: frame {self.width}x{self.height} is out of range")
        if not 0.5 <= self.px_per_mm <= 10.0:
            raise SynthError(f"rig {self.name!r}: {self.px_per_mm} px/mm is out of range 0.5-10")
        if not 300.0 <= self.camera_height_mm <= 2000.0:
            raise SynthError(f"rig {self.name!r}: camera {self.camera_height_mm} mm high is out "
                             "of range 300-2000")
        if not (0.0 <= self.softness_px <= 3.0 and (self.jpeg == 0 or 5 <= self.jpeg <= 100)):
            raise SynthError(f"rig {self.name!r}: softness {self.softness_px} px or JPEG "
                             f"quality {self.jpeg} is out of range")

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height


REFERENCE_RIG = Rig("reference", FRAME_W, FRAME_H, PX_PER_MM)
"""The reference rig (DESIGN.md): Camera Module 3 at 75-80 cm, 2304x1296, ~23 px/cm."""
WEBCAM_RIG = Rig("webcam", 1920, 1080, 1.6, 860.0, softness_px=0.6, jpeg=85)
"""A common 1080p USB webcam (about 70 degrees across) high enough to see the line: ~16 px/cm,
a cheap lens's softness and its MJPEG stream."""
RIGS = {rig.name: rig for rig in (REFERENCE_RIG, WEBCAM_RIG)}


@dataclass(frozen=True, slots=True)
class Setup:
    """How the players laid the table out, each at the project's standard by default.

    `first_gap_mm`: the range (drawn per column) of the first card's gap to its tile's edge,
    negative when it lies a little over the tile; `None` keeps the standard 10 mm from the
    tile's nominal edge.  `tile_scale`: the range of the tiles' print scale (a printer's
    "fit to page").  `askew_deg`: columns laid up to this many degrees off straight.
    """

    first_gap_mm: tuple[float, float] | None = None
    tile_scale: tuple[float, float] = (1.0, 1.0)
    askew_deg: float = 0.0

    def __post_init__(self) -> None:
        gap = self.first_gap_mm
        if gap is not None and not (len(gap) == 2 and -5.0 <= gap[0] <= gap[1] <= 45.0):
            raise SynthError(f"set-up first_gap_mm={gap!r} is not a range within -5..45 mm")
        sc = self.tile_scale
        if not (len(sc) == 2 and 0.85 <= sc[0] <= sc[1] <= 1.05):
            raise SynthError(f"set-up tile_scale={sc!r} is not a range within 0.85..1.05")
        if not 0.0 <= self.askew_deg <= 8.0:
            raise SynthError(f"set-up askew_deg={self.askew_deg!r} is not within 0-8")

    @classmethod
    def standard(cls) -> Setup:
        return cls()

    @classmethod
    def varied(cls) -> Setup:
        """Tables as players really lay them: first cards from slightly over the tile to 40 mm
        away, tiles printed at 95-100 %, columns a little askew."""
        return cls(first_gap_mm=(-2.0, 40.0), tile_scale=(0.95, 1.0), askew_deg=3.0)


# -- degradations ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Degrade:
    """The camera's and the room's faults, each off at its default.

    Angles in degrees, shifts in table mm, `blur` a sigma in full-frame pixels and `noise` a
    sigma in grey levels of the full frame (a smaller render scales both down, as a camera's
    downscaled stream averages pixels), `jpeg` a quality (0: no JPEG).
    """

    tilt_deg: float = 0.0                 # camera tilt from straight down (perspective)
    tilt_dir_deg: float = 0.0             # direction the camera leans towards
    rotate_deg: float = 0.0               # the whole image turned
    scale: float = 1.0                    # camera height changed a little
    shift_mm: tuple[float, float] = (0.0, 0.0)
    light: float = 0.0                    # uneven light: brightness falls by up to this much
    light_dir_deg: float = 0.0            # ... in this direction
    vignette: float = 0.0                 # darkening of the corners
    exposure: float = 1.0                 # overall gain
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)   # BGR gains: white balance off
    glare: float = 0.0                    # a bright spot's strength, 0-1
    glare_at: tuple[float, float] = (0.5, 0.5)            # its centre, as frame fractions
    glare_radius: float = 0.08            # its radius, as a fraction of the frame width
    blur: float = 0.0                     # Gaussian sigma
    noise: float = 0.0                    # sensor noise sigma
    jpeg: int = 0                         # JPEG quality, 0 = none
    hand: Hand | None = None              # an arm over the table (not in the ground truth)
    barrel: float = 0.0                   # lens distortion k1: > 0 barrel, < 0 pincushion
    warm: float = 0.0                     # warm (tungsten) light, 0-1: blue falls, red rises
    grey: bool = False                    # a greyscale camera: no colour at all

    def __post_init__(self) -> None:
        checks = [
            ("tilt_deg", 0.0 <= self.tilt_deg <= 15.0), ("rotate_deg", abs(self.rotate_deg) <= 10),
            ("scale", 0.8 <= self.scale <= 1.2), ("light", 0.0 <= self.light <= 0.9),
            ("vignette", 0.0 <= self.vignette <= 0.9), ("exposure", 0.3 <= self.exposure <= 2.0),
            ("glare", 0.0 <= self.glare <= 1.0), ("blur", 0.0 <= self.blur <= 8.0),
            ("noise", 0.0 <= self.noise <= 40.0), ("jpeg", self.jpeg == 0 or 5 <= self.jpeg <= 100),
            ("cast", len(self.cast) == 3 and all(0.4 <= g <= 1.6 for g in self.cast)),
            ("shift_mm", len(self.shift_mm) == 2 and all(abs(v) <= 60 for v in self.shift_mm)),
            ("barrel", abs(self.barrel) <= 0.2), ("warm", 0.0 <= self.warm <= 1.0)]
        for name, ok in checks:
            if not ok:
                raise SynthError(f"degradation {name}={getattr(self, name)!r} is out of range")

    @classmethod
    def none(cls) -> Degrade:
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator, hand: bool = True) -> Degrade:
        """A mix of faults, each present with some probability, within the rig's bounds."""
        def maybe(p: float) -> bool:
            return bool(rng.random() < p)

        tilt = float(rng.uniform(0, 10)) if maybe(0.7) else 0.0
        cast = (tuple(float(g) for g in rng.uniform(0.8, 1.2, 3)) if maybe(0.6)
                else (1.0, 1.0, 1.0))
        arm = None
        if hand and maybe(0.25):
            side: Side = "north" if maybe(0.5) else "south"
            sign = -1 if side == "north" else 1
            arm = Hand(side, float(rng.uniform(-400, 400)), float(sign * rng.uniform(-60, 200)),
                       float(rng.uniform(-30, 30)), float(rng.uniform(70, 100)))
        return cls(
            tilt_deg=tilt, tilt_dir_deg=float(rng.uniform(0, 360)),
            rotate_deg=float(rng.uniform(-3, 3)) if maybe(0.6) else 0.0,
            scale=float(rng.uniform(0.95, 1.0)) if maybe(0.5) else 1.0,
            shift_mm=((float(rng.uniform(-8, 8)), float(rng.uniform(-6, 6))) if maybe(0.5)
                      else (0.0, 0.0)),
            light=float(rng.uniform(0.05, 0.4)) if maybe(0.6) else 0.0,
            light_dir_deg=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0.05, 0.35)) if maybe(0.5) else 0.0,
            exposure=float(rng.uniform(0.8, 1.15)) if maybe(0.5) else 1.0,
            cast=cast,  # type: ignore[arg-type]
            glare=float(rng.uniform(0.3, 0.8)) if maybe(0.3) else 0.0,
            glare_at=(float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.15, 0.85))),
            glare_radius=float(rng.uniform(0.03, 0.08)),
            blur=float(rng.uniform(0.3, 1.1)) if maybe(0.5) else 0.0,
            noise=float(rng.uniform(1.5, 6.0)) if maybe(0.7) else 0.0,
            jpeg=int(rng.integers(55, 95)) if maybe(0.5) else 0,
            hand=arm,
            barrel=float(rng.uniform(0.0, 0.06)) if maybe(0.3) else 0.0)   # wide lenses bulge


# -- cached pieces --------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def _card_mask(s: float, card_w: float = CARD_W, card_h: float = CARD_H) -> np.ndarray:
    """The card's outline with rounded corners at `s` px/mm (uint8 0/255, antialiased)."""
    w, h = int(round(card_w * s)), int(round(card_h * s))
    big = 4
    m = np.zeros((h * big, w * big), np.uint8)
    r = int(round(CARD_CORNER_MM * s * big))
    cv2.rectangle(m, (r, 0), (w * big - 1 - r, h * big - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w * big - 1, h * big - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * big - 1 - r, r), (r, h * big - 1 - r),
                   (w * big - 1 - r, h * big - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    out = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=8)
def _full_mask(w: int, h: int) -> np.ndarray:
    out = np.full((h, w), 255, np.uint8)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=2)
def _noise_bank(w: int, h: int) -> np.ndarray:
    """Unit-free sensor grain (sigma 16), bigger than the frame: each frame crops it elsewhere."""
    rng = np.random.default_rng(0x0150)
    bank = (rng.standard_normal((h + 64, w + 64, 3), dtype=np.float32) * 16).astype(np.int16)
    bank.setflags(write=False)
    return bank


@functools.lru_cache(maxsize=2)
def _table(seed: int, w: int, h: int) -> np.ndarray:
    """The table surface: wood, felt or a plain laminate, its look drawn from `seed`."""
    rng = np.random.default_rng([seed, 0x7AB1E])
    sw, sh = max(8, w // 4), max(8, h // 4)
    kind = int(rng.integers(3))
    low = cv2.resize(rng.standard_normal((6, 10)).astype(np.float32), (sw, sh),
                     interpolation=cv2.INTER_CUBIC)
    fine = rng.standard_normal((sh, sw)).astype(np.float32)
    if kind == 0:        # wood: grain along the line, slowly wandering, planks across
        base = np.array([rng.uniform(55, 95), rng.uniform(100, 140), rng.uniform(145, 195)])
        yy = np.arange(sh, dtype=np.float32)[:, None] * (4.0 * w / FRAME_W * 4 / 4)
        period = rng.uniform(6, 14) * w / FRAME_W * 4
        grain = np.sin((yy / max(period / 4, 1e-3)) + low * 3.0 + fine * 0.15)
        streak = cv2.GaussianBlur(rng.standard_normal((sh, sw)).astype(np.float32), (0, 0),
                                  sigmaX=max(1.0, sw / 40), sigmaY=0.6)
        shade = 1.0 + 0.07 * grain + 0.6 * streak + 0.05 * low
        plank = int(rng.uniform(0.18, 0.3) * sw)
        for x in range(int(rng.integers(plank)), sw, plank):
            shade[:, x:x + 1] *= 0.72
    elif kind == 1:      # felt: a deep colour with soft fibre grain
        base = np.array([[70, 110, 40], [90, 60, 40], [60, 60, 70], [40, 50, 110]][
            int(rng.integers(4))], float) * rng.uniform(0.8, 1.2)
        shade = 1.0 + 0.05 * low + 0.04 * cv2.GaussianBlur(fine, (0, 0), 0.7)
    else:                # laminate: pale, nearly flat, a faint mottle
        base = np.array([rng.uniform(150, 200)] * 3) + rng.uniform(-15, 15, 3)
        shade = 1.0 + 0.03 * low + 0.015 * fine
    small = np.clip(shade[:, :, None] * base[None, None, :], 0, 255).astype(np.uint8)
    out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    out.setflags(write=False)
    return out


# -- compositing ------------------------------------------------------------------------------
def _bake(img: np.ndarray, mask: np.ndarray, s: float, shadow: float) -> np.ndarray:
    """`img` (its `mask` 0-255) as BGRA with its soft shadow on the table baked in.

    The shadow falls down and to the right of the frame, so a north card is turned before
    its shadow is added.  Where only shadow lies the colour is black and the alpha its depth:
    laying the sprite darkens the table there, as `_paste` blends it.
    """
    dx, dy = int(round(0.8 * s)), int(round(1.2 * s))
    pad = max(dx, dy) + 3
    h, w = mask.shape
    a = np.zeros((h + 2 * pad, w + 2 * pad), np.float32)
    a[pad:pad + h, pad:pad + w] = mask.astype(np.float32) / 255.0
    sh = np.zeros_like(a)
    sh[dy:, dx:] = a[:a.shape[0] - dy, :a.shape[1] - dx]
    sh = cv2.blur(sh, (pad, pad)) * shadow
    total = a + (1.0 - a) * sh
    colour = np.zeros((h + 2 * pad, w + 2 * pad, 3), np.float32)
    colour[pad:pad + h, pad:pad + w] = img
    colour *= (a / np.maximum(total, 1e-6))[:, :, None]
    out = np.dstack([np.clip(colour + 0.5, 0, 255), np.clip(total * 255 + 0.5, 0, 255)])
    sprite = out.astype(np.uint8)
    sprite.setflags(write=False)
    return sprite


@functools.lru_cache(maxsize=320)
def _card_sprite(printing: Printing, code: str, s: float, turned: bool) -> np.ndarray:
    face = card_face(printing, code, s)
    mask = _card_mask(s, printing.card_w, printing.card_h)
    if turned:
        face, mask = face[::-1, ::-1], mask[::-1, ::-1]
    return _bake(face, mask, s, 0.3)


@functools.lru_cache(maxsize=40)
def _tile_sprite(flag: int, s: float) -> np.ndarray:
    img = tile_image(flag, s)
    return _bake(img, _full_mask(img.shape[1], img.shape[0]), s, 0.25)


def _paste(dst: np.ndarray, sprite: np.ndarray, cx: float, cy: float, angle_deg: float,
           scale: float = 1.0) -> None:
    """Lay a BGRA `sprite` centred at (cx, cy) px of `dst`, turned by `angle_deg`, scaled."""
    h, w = sprite.shape[:2]
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, scale)
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ rot.T
    corners += (cx - w / 2, cy - h / 2)
    H, W = dst.shape[:2]
    x0 = max(int(math.floor(corners[:, 0].min())) - 1, 0)
    y0 = max(int(math.floor(corners[:, 1].min())) - 1, 0)
    x1 = min(int(math.ceil(corners[:, 0].max())) + 1, W)
    y1 = min(int(math.ceil(corners[:, 1].max())) + 1, H)
    if x0 >= x1 or y0 >= y1:
        return
    rot[:, 2] += (cx - w / 2 - x0, cy - h / 2 - y0)
    patch = cv2.warpAffine(sprite, rot, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = patch[:, :, 3].astype(np.float32) * (1 / 255.0)
    roi = dst[y0:y1, x0:x1]
    roi[...] = cv2.blendLinear(cv2.cvtColor(patch, cv2.COLOR_BGRA2BGR), roi, a, 1.0 - a)


@dataclass(frozen=True, slots=True)
class _Placed:
    """One card as laid: its centre in table mm and its turn in degrees (0 = upright)."""

    card: Card
    x: float
    y: float
    angle: float


def _column(cards: tuple[Card, ...], x: float, side: Side, seed: int, key: tuple[int, ...],
            near: float, reach: float, card_h: float = CARD_H, skew_deg: float = 0.0
            ) -> list[_Placed]:
    """A column of cards from `near` mm off the line towards `side`'s player, in echelon.

    Usually the standard echelon; sometimes a looser one or (for two cards or fewer) cards
    side by side without overlap, as players do lay them.  `skew_deg` turns the whole column
    about its first card's near edge.
    """
    n = len(cards)
    if n == 0:
        return []
    col = np.random.default_rng([seed, *key])
    u = col.random()
    fit = (reach - near - card_h) / max(n - 1, 1)
    if u < 0.15 and n * card_h + (n - 1) * 8.0 + near <= reach:
        step = card_h + float(col.uniform(2.0, 8.0))       # no overlap
    elif u < 0.35:
        step = float(col.uniform(ECHELON_STEP + 2, ECHELON_STEP + 10))
    else:
        step = ECHELON_STEP + float(col.uniform(-1.0, 1.5))
    step = min(step, fit)
    sign = -1.0 if side == "north" else 1.0
    turn = 180.0 if side == "north" else 0.0
    out = []
    lean = math.tan(math.radians(skew_deg))
    for i, card in enumerate(cards):
        r = np.random.default_rng([seed, *key, i, card_index(card)])
        dx, dy, da = r.uniform(-3.0, 3.0), r.uniform(-1.5, 1.5), r.uniform(-3.0, 3.0)
        along = i * step + card_h / 2 + dy
        y = sign * (near + along)
        # A skewed column drifts east (positive skew) as it runs towards its player; its
        # cards turn with it (on screen, positive angles turn anticlockwise).
        out.append(_Placed(card, x + dx + along * lean, y, turn + da + sign * skew_deg))
    return out


def _layout(scene: Scene, seed: int, card_h: float = CARD_H, setup: Setup | None = None
            ) -> tuple[list[tuple[int, float, float, float, float]], list[_Placed]]:
    """Where every tile (flag, x, y, angle, print scale) and card lies, in table mm, in
    drawing order."""
    setup = Setup() if setup is None else setup
    tiles = []
    cards: list[_Placed] = []
    for f in scene.flags:
        r = np.random.default_rng([seed, 0x711E, f.flag])
        nx = (f.flag - 5) * FLAG_PITCH
        jx, jy, ja = r.uniform(-4, 4), r.uniform(-3, 3), r.uniform(-3, 3)
        # The set-up's own draws come from their own generator: a standard set-up draws
        # nothing, so its tables stay exactly as they were.
        su = np.random.default_rng([seed, 0x5E7B, f.flag])
        lo, hi = setup.tile_scale
        scale = float(su.uniform(lo, hi)) if hi > lo else lo
        if f.tile == "line":
            tiles.append((f.flag, nx + jx, jy, ja, scale))
        elif f.tile in ("north", "south"):
            sign = -1.0 if f.tile == "north" else 1.0
            tiles.append((f.flag, nx + 2 * jx, sign * (CLAIMED_OFFSET + r.uniform(-4, 2)),
                          2 * ja, scale))
        for k, side in enumerate(SIDES):
            near = NEAR_EDGE
            if setup.first_gap_mm is not None:
                # From this tile's own edge (it lies jy off the line, printed at `scale`).
                edge = TILE_H * scale / 2 + (jy if side == "south" else -jy)
                near = edge + float(su.uniform(*setup.first_gap_mm))
            skew = float(su.uniform(-setup.askew_deg, setup.askew_deg)) if setup.askew_deg else 0.0
            cards += _column(f.side(side), nx + jx, side, seed, (f.flag, k), near,
                             ZONE_DEPTH - 2.0, card_h, skew)
    for k, side in enumerate(SIDES):
        x = OFFLINE_X if side == "north" else -OFFLINE_X
        cards += _column(scene.offline(side), x, side, seed, (10, k), OFFLINE_NEAR,
                         _MAX_REACH, card_h)
    return tiles, cards


def _skin(rng: np.random.Generator) -> np.ndarray:
    tones = np.array([[120, 160, 215], [95, 135, 190], [70, 105, 160], [50, 75, 115],
                      [140, 175, 225]], np.float32)
    return tones[int(rng.integers(len(tones)))] * rng.uniform(0.9, 1.08)


def _draw_hand(img: np.ndarray, parts_px: list[np.ndarray], width_px: float,
               rng: np.random.Generator) -> None:
    """An arm (its convex pieces in image px) with rounded shading and a soft shadow below.

    Shaded at a quarter of the resolution, only in the box around the arm and its shadow.
    """
    H, W = img.shape[:2]
    q = 4
    pieces = [p.astype(np.float32) / q for p in parts_px]
    px = np.concatenate(pieces)
    off = max(1, int(round(width_px * 0.2 / q)))       # the shadow falls down and right
    sigma = width_px * 0.07 / q + 1
    grow = off + int(3 * sigma) + 2
    sx0 = max(0, int(px[:, 0].min()) - grow)
    sy0 = max(0, int(px[:, 1].min()) - grow)
    sx1 = min(W // q + 1, int(px[:, 0].max()) + grow + 1)
    sy1 = min(H // q + 1, int(px[:, 1].max()) + grow + 1)
    if sx0 >= sx1 or sy0 >= sy1:
        return
    sw, sh = sx1 - sx0, sy1 - sy0
    mask = np.zeros((sh, sw), np.uint8)
    for piece in pieces:
        pts = np.round((piece - (sx0, sy0)) * 16).astype(np.int32)
        cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_AA, 4)
    if not mask.any():
        return
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    radius = width_px / q / 2
    shade = 0.62 + 0.45 * np.sqrt(np.clip(dist / max(radius, 1.0), 0, 1))
    # Lit from one side: a soft gradient across the arm.
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = float(rng.uniform(0, 2 * np.pi))
    shade *= 1.0 + 0.08 * (np.cos(a) * xx + np.sin(a) * yy) / max(sw, sh)
    alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 0.8)
    shifted = np.zeros_like(alpha)
    shifted[off:, off:] = alpha[:sh - off, :sw - off]
    dark = 0.45 * cv2.GaussianBlur(shifted, (0, 0), sigma)
    arm = np.clip(shade[:, :, None] * _skin(rng)[None, None, :], 0, 255).astype(np.uint8)
    y0, x0 = sy0 * q, sx0 * q
    y1, x1 = min(H, sy1 * q), min(W, sx1 * q)
    if y0 >= y1 or x0 >= x1:
        return
    full = (sw * q, sh * q)
    cut = (slice(0, y1 - y0), slice(0, x1 - x0))
    arm_f = cv2.resize(arm, full, interpolation=cv2.INTER_LINEAR)[cut]
    alpha_f = np.clip(cv2.resize(alpha, full, interpolation=cv2.INTER_LINEAR)[cut], 0, 1)
    dark_f = np.clip(cv2.resize(dark, full, interpolation=cv2.INTER_LINEAR)[cut], 0, 1)
    roi = img[y0:y1, x0:x1]
    roi[...] = cv2.blendLinear(roi, np.zeros_like(roi), 1.0 - dark_f, dark_f)
    roi[...] = cv2.blendLinear(np.ascontiguousarray(arm_f), roi, alpha_f, 1.0 - alpha_f)


@functools.lru_cache(maxsize=3)
def _compose(scene: Scene, printing: Printing, w: int, h: int, s: float, setup: Setup
             ) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The table with its tiles and cards, before hands and camera faults, with a margin.

    Cached: the frames of one moment of a match differ only by the hand and the sensor.
    The table is drawn beyond each frame edge so that a tilted or turned camera still sees
    table (never a mirrored or smeared edge) at the frame's borders.
    """
    assert scene.table_seed is not None
    mx, my = int(round(MARGIN * w)), int(round(MARGIN * h))
    cw, ch = w + 2 * mx, h + 2 * my
    canvas = _table(scene.table_seed, cw, ch).copy()

    def at(x: float, y: float) -> tuple[float, float]:
        return cw / 2 + x * s, ch / 2 + y * s

    tiles, cards = _layout(scene, scene.table_seed, printing.card_h, setup)
    for flag, x, y, angle, scale in tiles:
        _paste(canvas, _tile_sprite(flag, s), *at(x, y), angle, scale)
    for c in cards:
        turned = abs(c.angle) > 90
        sprite = _card_sprite(printing, c.card.code, s, turned)
        _paste(canvas, sprite, *at(c.x, c.y), c.angle - 180.0 if turned else c.angle)
    canvas.setflags(write=False)
    # Everything laid on the table, in the untouched frame's pixels: each piece's turned box.
    def extent(x: float, y: float, pw: float, ph: float, angle: float) -> tuple[float, ...]:
        c, n = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
        hx, hy = (c * pw + n * ph) / 2, (n * pw + c * ph) / 2
        return (x - hx, y - hy, x + hx, y + hy)

    boxes = [extent(x, y, TILE_W * k, TILE_H * k, a) for _, x, y, a, k in tiles]
    boxes += [extent(c.x, c.y, printing.card_w, printing.card_h, c.angle) for c in cards]
    if not boxes:
        return canvas, (w / 2 - 1, h / 2 - 1, w / 2 + 1, h / 2 + 1)
    mm = np.array(boxes)
    box = (float(w / 2 + mm[:, 0].min() * s), float(h / 2 + mm[:, 1].min() * s),
           float(w / 2 + mm[:, 2].max() * s), float(h / 2 + mm[:, 3].max() * s))
    return canvas, box


def _homography(d: Degrade, w: int, h: int, s: float,
                content: tuple[float, float, float, float],
                camera_height_mm: float = CAMERA_HEIGHT_MM) -> np.ndarray | None:
    """Table image -> camera image: tilt (kept centred), rotation, scale and shift.

    A camera that tilts or turns is re-aimed by whoever sets up the rig so that the table
    stays in view: the image shrinks just enough to keep `content` (x0, y0, x1, y1 px of the
    untouched frame: every tile and card) inside the frame.
    """
    if (d.tilt_deg == 0 and d.rotate_deg == 0 and d.scale == 1.0 and d.shift_mm == (0.0, 0.0)):
        return None
    f = camera_height_mm * s                        # focal length in px of this frame
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t = math.radians(d.tilt_deg)
    axis = np.array([math.cos(math.radians(d.tilt_dir_deg)),
                     math.sin(math.radians(d.tilt_dir_deg)), 0.0]) * t
    rot, _ = cv2.Rodrigues(axis)
    hm = k @ rot @ np.linalg.inv(k)
    c = hm @ np.array([w / 2, h / 2, 1.0])
    c /= c[2]
    recentre = np.array([[1, 0, w / 2 - c[0]], [0, 1, h / 2 - c[1]], [0, 0, 1]])
    turn = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), d.rotate_deg, 1.0), [0, 0, 1]])
    m = turn @ recentre @ hm
    x0, y0, x1, y1 = content
    corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    mapped = cv2.perspectiveTransform(corners, m)[0] - (w / 2, h / 2)
    sx, sy = abs(d.shift_mm[0]) * s, abs(d.shift_mm[1]) * s
    fit = min(1.0, float(np.min((w / 2 - 3 - sx) / np.maximum(np.abs(mapped[:, 0]), 1.0))),
              float(np.min((h / 2 - 3 - sy) / np.maximum(np.abs(mapped[:, 1]), 1.0))))
    zoom = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), 0.0, d.scale * max(fit, 0.82)),
                      [0, 0, 1]])
    zoom[0, 2] += d.shift_mm[0] * s
    zoom[1, 2] += d.shift_mm[1] * s
    return zoom @ m


def _lens_lookup(k1: float, to_canvas: np.ndarray, w: int, h: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """remap() tables: for each frame pixel, the canvas point it shows through the lens.

    Radial distortion `k1` (> 0 barrel) about the frame centre, radius 1 the half-diagonal,
    scaled so that the midpoints of the frame's long edges stay put; then `to_canvas` (a
    homography from the undistorted frame to the canvas).  The tables are smooth, so they
    are computed on a coarse grid and interpolated.
    """
    q = 8
    sw, sh = w // q + 2, h // q + 2
    # resize() puts coarse sample j at fine pixel (j + 0.5) * q - 0.5.
    yy, xx = (np.mgrid[0:sh, 0:sw].astype(np.float64) + 0.5) * q - 0.5
    cx, cy = (w - 1) / 2, (h - 1) / 2
    half = math.hypot(w / 2, h / 2)
    keep = 1.0 + k1 * (min(w, h) / 2 / half) ** 2
    f = (1.0 + k1 * (((xx - cx) / half) ** 2 + ((yy - cy) / half) ** 2)) / keep
    pts = np.stack([cx + (xx - cx) * f, cy + (yy - cy) * f], axis=-1).reshape(1, -1, 2)
    src = cv2.perspectiveTransform(pts, to_canvas).reshape(sh, sw, 2).astype(np.float32)
    size = (sw * q, sh * q)
    mapx = cv2.resize(src[:, :, 0], size, interpolation=cv2.INTER_LINEAR)[:h, :w]
    mapy = cv2.resize(src[:, :, 1], size, interpolation=cv2.INTER_LINEAR)[:h, :w]
    return np.ascontiguousarray(mapx), np.ascontiguousarray(mapy)


def _light(frame: np.ndarray, d: Degrade, rng: np.random.Generator) -> np.ndarray:
    """Uneven light, vignette, exposure and colour cast as one gain map; then the glare."""
    h, w = frame.shape[:2]
    cast = np.array(d.cast, np.float32)
    if d.warm:
        # Tungsten light against a white balance set for daylight: blue falls, red rises.
        cast *= np.array([1.0 - 0.55 * d.warm, 1.0 - 0.12 * d.warm, 1.0 + 0.25 * d.warm],
                         np.float32)
    if d.light or d.vignette or d.exposure != 1.0 or d.cast != (1.0, 1.0, 1.0) or d.warm:
        sw, sh = 64, 36
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        u, v = (xx + 0.5) / sw - 0.5, (yy + 0.5) / sh - 0.5
        a = math.radians(d.light_dir_deg)
        grad = 1.0 - d.light * (0.5 + (math.cos(a) * u + math.sin(a) * v))
        vig = 1.0 - d.vignette * np.clip((u * u + v * v) / 0.5, 0, 1) ** 1.2
        gain = (grad * vig * d.exposure)[:, :, None] * cast[None, None]
        g8 = np.clip(gain * 128.0, 0, 255).astype(np.uint8)
        g8 = cv2.resize(g8, (w, h), interpolation=cv2.INTER_LINEAR)
        frame = cv2.multiply(frame, g8, scale=1 / 128.0)
    if d.glare:
        # A bright spot: only the box where it is visible is touched.
        r = d.glare_radius * w
        gx, gy = d.glare_at[0] * w, d.glare_at[1] * h
        x0, x1 = max(0, int(gx - 3 * r)), min(w, int(gx + 3 * r) + 1)
        y0, y1 = max(0, int(gy - 2.5 * r)), min(h, int(gy + 2.5 * r) + 1)
        if x0 < x1 and y0 < y1:
            q = 8
            yy, xx = np.mgrid[y0:y1:q, x0:x1:q].astype(np.float32)
            spot = np.exp(-((xx - gx) ** 2 + ((yy - gy) * 1.2) ** 2) / (2 * r * r))
            spot = (np.clip(spot * 1.6, 0, 1) * d.glare * 255).astype(np.uint8)
            s3 = cv2.resize(np.repeat(spot[:, :, None], 3, axis=2), (x1 - x0, y1 - y0),
                            interpolation=cv2.INTER_LINEAR)
            frame[y0:y1, x0:x1] = cv2.add(frame[y0:y1, x0:x1], s3)
    return frame


def _scene_cards(scene: Scene) -> set[Card]:
    cards = set(scene.offline_north) | set(scene.offline_south)
    for f in scene.flags:
        cards.update(f.north, f.south)
    return cards


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a tile or a card lies in an undegraded frame: centre in px, turn in degrees."""

    what: str            # "tile 3" or a card code
    x: float
    y: float
    angle: float         # 0 = upright (north at the top), 180 = a north card


def _frame_scale(size: tuple[int, int] | None, rig: Rig | None
                 ) -> tuple[int, int, float, Rig]:
    """The frame's size and its px per table mm: the rig's frame, or `size` showing the same
    view of the table at another resolution."""
    rig = REFERENCE_RIG if rig is None else rig
    if not isinstance(rig, Rig):
        raise SynthError(f"a rig must be a Rig, not {type(rig).__name__}")
    w, h = rig.size if size is None else size
    return w, h, rig.px_per_mm * w / rig.width, rig


def placements(scene: Scene, seed: int = 0, size: tuple[int, int] | None = None,
               printing: Printing | None = None, rig: Rig | None = None,
               setup: Setup | None = None) -> tuple[Placement, ...]:
    """Where `render(scene, printing, seed, size=size, rig=rig, setup=setup)` lays each tile
    and card, before degradation.

    For evaluation and tests (per-card boxes, tile crops); drawing order, tiles first.
    """
    w, h, s, _ = _frame_scale(size, rig)
    card_h = printing.card_h if printing is not None else CARD_H
    tiles, cards = _layout(scene, seed_words(scene.table_seed if scene.table_seed is not None
                                             else seed), card_h, setup)
    out = [Placement(f"tile {flag}", w / 2 + x * s, h / 2 + y * s, a)
           for flag, x, y, a, _ in tiles]
    out += [Placement(c.card.code, w / 2 + c.x * s, h / 2 + c.y * s, c.angle) for c in cards]
    return tuple(out)


def render(scene: Scene, printing: Printing, seed: int = 0, degrade: Degrade | None = None,
           size: tuple[int, int] | None = None, rig: Rig | None = None,
           setup: Setup | None = None, table_map: list[np.ndarray] | None = None
           ) -> np.ndarray:
    """The overhead frame of `scene` (BGR uint8, `size` = (width, height)), reproducibly.

    `seed` draws the table and the cards' lie unless `scene.table_seed` fixes them, and the
    sensor's noise.  `rig` is the camera (default: the reference rig, whose frame is the
    default size); a smaller `size` draws the same view at a lower resolution, cheaply.
    `setup` is how the players laid the table out (default: the standard set-up).
    Cards are laid at the printing's own size.  `table_map`, if given, gets the truth of
    the camera's view: the 3x3 map from table mm (about the table's middle) to the frame's
    pixels (lens distortion left out), what the layout's scale is measured against.
    """
    if not isinstance(scene, Scene):
        raise SynthError(f"render needs a Scene, not {type(scene).__name__}")
    if not isinstance(printing, Printing):
        raise SynthError(f"render needs a Printing, not {type(printing).__name__}")
    w, h, s, rig = _frame_scale(size, rig)
    if not (32 <= w <= 8192 and 18 <= h <= 8192):
        raise SynthError(f"frame size {size!r} is out of range")
    setup = Setup() if setup is None else setup
    if not isinstance(setup, Setup):
        raise SynthError(f"render's setup must be a Setup, not {type(setup).__name__}")
    d = degrade if degrade is not None else Degrade.none()
    if not isinstance(d, Degrade):
        raise SynthError(f"render's degrade must be a Degrade, not {type(d).__name__}")
    seed = seed_words(seed)
    rng = np.random.default_rng([seed, 0xF4A3E])
    layout_seed = seed_words(scene.table_seed) if scene.table_seed is not None else seed
    k = w / rig.width * (rig.px_per_mm / PX_PER_MM)   # degradations scale with the frame
    mx, my = int(round(MARGIN * w)), int(round(MARGIN * h))
    canvas, content = _compose(replace(scene, hand=None, table_seed=layout_seed), printing, w, h,
                               s, setup)
    hm = _homography(d, w, h, s, content, rig.camera_height_mm)
    if table_map is not None:
        table_map.append((np.eye(3) if hm is None else hm)
                         @ np.array([[s, 0, w / 2], [0, s, h / 2], [0, 0, 1.0]]))
    to_canvas = np.array([[1.0, 0, mx], [0, 1.0, my], [0, 0, 1.0]])
    if hm is not None:
        to_canvas = to_canvas @ np.linalg.inv(hm)
    if d.barrel:
        # One resampling for the lens and the camera's pose: each frame pixel looks up the
        # canvas through the lens (radial, about the frame centre) and then the pose.
        mapx, mapy = _lens_lookup(d.barrel, to_canvas, w, h)
        frame = cv2.remap(canvas, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    elif hm is None:
        frame = np.ascontiguousarray(canvas[my:my + h, mx:mx + w])
    else:
        frame = cv2.warpPerspective(canvas, np.linalg.inv(to_canvas), (w, h),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # Arms are above the table: drawn on the camera image, where the table's warp puts them.
    def to_frame(points_mm: np.ndarray) -> np.ndarray:
        pts = np.column_stack([w / 2 + points_mm[:, 0] * s, h / 2 + points_mm[:, 1] * s])
        if hm is not None:
            pts = cv2.perspectiveTransform(pts[None].astype(np.float64), hm)[0]
        return pts

    for hand in (scene.hand, d.hand):
        if hand is None:
            continue
        if hand.card is not None:
            if hand is d.hand and hand.card in _scene_cards(scene):
                raise SynthError(f"the degradation's hand holds {hand.card}, which is on the table")
            x, y, turn = hand.held_card_mm()
            ends = to_frame(np.array([[x, y], [x, y - 10.0]]))
            dx, dy = ends[0] - ends[1]
            zoom = math.hypot(dx, dy) / (10.0 * s)
            seen_turn = math.degrees(math.atan2(dx, dy))   # 0 when the card's axis stays upright
            sprite = _card_sprite(printing, hand.card.code, s, False)
            _paste(frame, sprite, float(ends[0][0]), float(ends[0][1]),
                   turn + seen_turn, zoom * 1.04)          # a little nearer the camera
        parts = [to_frame(part) for part in hand.parts_mm(edge_y=(h / 2 + my) / s + hand.width_mm)]
        _draw_hand(frame, parts, hand.width_mm * s * d.scale, rng)
    frame = _light(np.ascontiguousarray(frame), d, rng)
    # The camera's own softness adds to the scene's blur (their variances add).
    blur = math.hypot(d.blur * k, rig.softness_px * w / rig.width)
    if blur >= 0.1:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    if d.noise:
        bank = _noise_bank(w, h)
        ox, oy = int(rng.integers(64)), int(rng.integers(64))
        frame = cv2.addWeighted(frame, 1.0, bank[oy:oy + h, ox:ox + w], d.noise * k / 16.0, 0,
                                dtype=cv2.CV_8U)
    if d.grey:
        frame = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    quality = min(q for q in (d.jpeg, rig.jpeg, 101) if q)
    if quality <= 100:
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise SynthError("OpenCV could not JPEG-encode the frame")
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return np.ascontiguousarray(frame)


def render_lores(scene: Scene, printing: Printing, seed: int = 0,
                 degrade: Degrade | None = None, rig: Rig | None = None,
                 setup: Setup | None = None) -> np.ndarray:
    """The same table at the low-resolution stream's size (`LORES_W`x`LORES_H`), cheaply."""
    return render(scene, printing, seed, degrade, size=(LORES_W, LORES_H), rig=rig, setup=setup)


__all__ = ["Degrade", "Placement", "REFERENCE_RIG", "RIGS", "Rig", "Setup", "WEBCAM_RIG",
           "placements", "render", "render_lores"]
