"""How soft a frame is, measured on the flag tiles, and how soft the templates are made.

An enrolled face is sharp: a scan or a straight-on photograph brought down to the reading
resolution.  A card on the table never is: the lens, its focus, the camera's own pixels (a
1080p webcam's are coarser than the reading grid) and the rectification all soften it.  A
small numeral softened that way fits no sharp template well, and a picture behind it takes
over the band.  So the reader softens the templates as much as the frame is soft.

How soft is measured where the drawing is known: on the flag tiles.  Each tile the frame shows
is cut out at the reading resolution (at its own scale, interpolated as the zones are: an
affine map where the zones' is a homography), and its printed drawing
(`tilesheet`, made as the enrolled faces are) is blurred by a Gaussian of increasing sigma
until it fits best; the median over the tiles is the frame's softness, in reading pixels.  No
camera is assumed: a sharper or a softer one measures as it is.  The templates are softened
by what the frame has beyond the softness the reader's thresholds were set on
(`template_softness`): a webcam's frames get softer templates, the reference rig's about none.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry
from .config import load_config
from .layout import Layout
from .tiles import tile_drawing

__all__ = ["SoftnessSettings", "TileMeasures", "measure_tiles", "tile_softness",
           "template_softness"]


class SoftnessSettings:
    """The `softness` section of the configuration."""

    def __init__(self) -> None:
        cfg = load_config()["softness"]
        self.step = float(cfg["step"])          # sigmas tried, and templates made, this apart
        self.most = float(cfg["most"])          # the largest sigma tried
        self.margin_mm = float(cfg["margin_mm"])  # table cut around each tile
        self.min_fit = float(cfg["min_fit"])    # a tile fitting worse (hand, glare) says nothing
        self.floor = float(cfg["floor"])        # the softness the thresholds were set for
        self.hold = float(cfg["hold"])          # the measure moves this much to change level
        self.black_at = float(cfg["black_at"])  # the drawing this dark, blurred, is the tile's black
        self.black_min_px = int(cfg["black_min_px"])  # ... where at least this many pixels are

    @staticmethod
    @functools.lru_cache(maxsize=1)
    def load() -> SoftnessSettings:
        return SoftnessSettings()


@functools.lru_cache(maxsize=64)
def _drawings(flag: int, px_per_mm: float, step: float, most: float
              ) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """The tile's drawing at the reading resolution, blurred by each sigma tried (0, step,
    ... most), less a border of 2 px (where blurring meets the edge): the sigmas, the
    drawings (0 black, 255 white), and every drawing as a row, less its mean and of unit
    length (a normalised correlation is then one product)."""
    sharp = tile_drawing(flag, px_per_mm, (0.0, -1.0))      # upright: north at the top
    sigmas = np.arange(0.0, most + 1e-9, step)
    out = []
    for sigma in sigmas:
        soft = cv2.GaussianBlur(sharp, (0, 0), float(sigma)) if sigma > 0 else sharp
        out.append(np.ascontiguousarray(soft[2:-2, 2:-2]))
    rows = np.array([d.ravel() - d.mean() for d in out], np.float32)
    rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)
    for d in out:
        d.setflags(write=False)
    return sigmas, out, rows


@dataclass(frozen=True, slots=True)
class TileMeasures:
    """What the tiles' known drawing tells of a frame (`measure_tiles`)."""

    softness: float | None                  # the frame's blur (reading px); None: no tile fits
    blacks: dict[int, tuple[float, float, float]]   # by flag: its black, BGR, where it fits


def tile_softness(frame: np.ndarray, layout: Layout, px_per_mm: float) -> float | None:
    """The frame's blur as a Gaussian sigma in pixels at `px_per_mm` (the reading
    resolution), measured on the tiles seen in `frame` (BGR); None when no tile fits."""
    return measure_tiles(frame, layout, px_per_mm).softness


def measure_tiles(frame: np.ndarray, layout: Layout, px_per_mm: float) -> TileMeasures:
    """The frame's softness (`tile_softness`) and each fitting tile's black.

    A tile's black is what the camera shows where its drawing, blurred as this frame blurs
    it, is still black (`black_at`): the middle of its finder squares and its border. Taken
    from the darkest pixels of the tile as a whole, a soft camera's black was the grey its
    blur makes of the code's small squares (a 1080p webcam: 47-80 of 255 where the tiles
    are printed 0, the reference rig 16-36), and every strip was read darker and more
    contrasted than the enrolment knows the cards."""
    cfg = SoftnessSettings.load()
    p = layout.pose
    w_mm = geometry.TILE_W + 2 * cfg.margin_mm
    h_mm = geometry.TILE_H + 2 * cfg.margin_mm
    size = (int(round(w_mm * px_per_mm)), int(round(h_mm * px_per_mm)))
    (ex, ey), (sx, sy) = p.east, p.south
    found = []
    blacks: dict[int, tuple[float, float, float]] = {}
    for t in layout.tiles:
        if not t.seen or t.centre is None:
            continue
        k = p.scale_at(t.centre)
        a = k / px_per_mm
        ox = t.centre[0] - k * (w_mm / 2 * ex + h_mm / 2 * sx)
        oy = t.centre[1] - k * (w_mm / 2 * ey + h_mm / 2 * sy)
        m = np.array([[a * ex, a * sx, ox], [a * ey, a * sy, oy]])
        cut = cv2.warpAffine(frame, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_REPLICATE)
        grey = cv2.cvtColor(cut, cv2.COLOR_BGR2GRAY).astype(np.float32) if cut.ndim == 3 \
            else cut.astype(np.float32)
        sigmas, drawn, rows = _drawings(t.flag, float(px_per_mm), cfg.step, cfg.most)
        mid = drawn[len(drawn) // 3]
        # Where the tile lies, to the pixel, from a drawing about as soft as frames are;
        # then each sigma's fit there.
        _, _, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(grey, mid, cv2.TM_CCOEFF_NORMED))
        patch = grey[y:y + mid.shape[0], x:x + mid.shape[1]].ravel()
        patch = patch - patch.mean()
        fits = rows @ (patch / max(float(np.linalg.norm(patch)), 1e-6))
        i = int(fits.argmax())
        if fits[i] < cfg.min_fit:
            continue
        sigma = float(sigmas[i])
        if 0 < i < len(fits) - 1:
            # The peak between the sigmas tried: a parabola through the best and its two.
            bend = fits[i - 1] - 2 * fits[i] + fits[i + 1]
            if bend < 0:
                sigma += cfg.step * 0.5 * (fits[i - 1] - fits[i + 1]) / bend
        found.append(sigma)
        if cut.ndim == 3 and _inside(m, size, frame.shape):
            # (A tile partly out of the frame is cut with its edge pixels repeated: they
            # may be anything, and its black is not measured.)
            black = drawn[i] <= cfg.black_at * 255.0
            if int(black.sum()) >= cfg.black_min_px:
                b, g, r = np.median(cut[y:y + mid.shape[0], x:x + mid.shape[1]][black], axis=0)
                blacks[t.flag] = (float(b), float(g), float(r))
    return TileMeasures(float(np.median(found)) if found else None, blacks)


def _inside(m: np.ndarray, size: tuple[int, int], shape: tuple[int, ...]) -> bool:
    """Whether the whole cut of `size` (w, h) that the affine map `m` (cut px -> frame px)
    takes from a frame of `shape` lies inside that frame."""
    w, h = size
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [0, h - 1, 1], [w - 1, h - 1, 1]], np.float64)
    xy = corners @ m.T
    return bool((xy[:, 0] >= 0).all() and (xy[:, 0] <= shape[1] - 1).all()
                and (xy[:, 1] >= 0).all() and (xy[:, 1] <= shape[0] - 1).all())


def template_softness(measured: float | None, current: float) -> float:
    """The sigma (reading pixels) to soften a deck's templates by for a frame `measured` this
    soft, for a reader whose templates are `current`.  The reader's thresholds were set on
    frames `floor` soft with sharp templates, so only the softness beyond it is added (blurs
    add as the squares of their sigmas); to a whole `step` (the few levels are built once and
    kept), and the current one kept unless the measure moved `hold` from it (a frame's
    measure wobbles a little)."""
    cfg = SoftnessSettings.load()
    if measured is None:
        return current
    want = float(np.sqrt(max(0.0, measured * measured - cfg.floor * cfg.floor)))
    if abs(want - current) <= cfg.hold:
        return current
    return round(min(want, cfg.most) / cfg.step) * cfg.step
