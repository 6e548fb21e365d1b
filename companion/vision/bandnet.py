"""A learnt look at a card's top band: a small network that maps a band to a point such that
bands of the same card lie close together whatever the printing, the camera or the light.

The network knows no printing. It was trained (`companion.training.bandnet`, from the
project's own renders of the printing zoo's tuning families only) to put a band seen by a
camera near the same card's band as the enrolment image shows it, and far from the other
cards' bands of that printing. At enrolment each class's *prototype* is the mean point of
its enrolled faces' bands (`prototypes`); a band on the table is then compared with the
prototypes of its own deck (`similarities`): what a printing looks like still comes only
from its enrolment.

It is two networks of the same shape, trained alike but for how far their training draws a
printing from its own ("near" and "wide": `companion.training.bandnet.DRAWINGS`); a band's
point is their two points joined, so its similarity to a prototype is about the mean of
the two networks' similarities. On tuning families left out of training the two joined
name more bands right than either alone; the tuning tables read about as well as with the
first alone (docs/vision.md). They run with OpenCV's dnn module on ONNX files shipped in
the package (`models/band-embed.onnx` and `models/band-embed-wide.onnx`, 0.3 MB each);
nothing is downloaded. The input is the band's ink (`reading.ink`: the distance from the
printing's stock colour), cut to the band less its insets, resized to `INPUT_H` x
`INPUT_W` and made zero-mean, unit-spread: the same measure the templates use, so light
and dark stock alike.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

MODEL_PATH = Path(__file__).with_name("models") / "band-embed.onnx"
MODEL_PATHS = {"near": MODEL_PATH, "wide": MODEL_PATH.with_name("band-embed-wide.onnx")}
INPUT_H, INPUT_W = 28, 112          # the band (14 mm by the card's width less insets) at 2 px/mm


def band_input(ink: np.ndarray, top: int, left: int, band_px: int, x0: int, width_px: int
               ) -> np.ndarray:
    """The network's input for the band whose card's top-left corner is (top, left) px in the
    ink map `ink`: rows `top .. top + band_px`, columns `left + x0 .. + width_px` (edge
    pixels repeated outside the map), resized and normalised (INPUT_H x INPUT_W, float32)."""
    h, w = ink.shape
    rows = np.clip(np.arange(top, top + band_px), 0, h - 1)
    cols = np.clip(np.arange(left + x0, left + x0 + width_px), 0, w - 1)
    patch = ink[rows[:, None], cols[None, :]]
    return normalised(cv2.resize(np.ascontiguousarray(patch, np.float32), (INPUT_W, INPUT_H),
                                 interpolation=cv2.INTER_AREA))


def normalised(patch: np.ndarray) -> np.ndarray:
    """Zero mean, unit spread (a blank band stays zero)."""
    p = patch.astype(np.float32) - np.float32(patch.mean())
    sd = float(p.std())
    return p / np.float32(sd) if sd > 1e-4 else p


class BandNet:
    """The embedding networks (`paths`: by default the package's two), loaded once per
    process (`shared`). OpenCV's dnn nets are not safe to run from two threads at once:
    calls are serialised."""

    def __init__(self, paths: Sequence[Path] = tuple(MODEL_PATHS.values())) -> None:
        if not paths:
            raise ValueError("the band network needs at least one model file")
        self._nets = []
        for path in paths:
            try:
                net = cv2.dnn.readNetFromONNX(str(path))
            except cv2.error as exc:
                raise RuntimeError(f"cannot load the band model {path}: {exc}") from None
            net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
            self._nets.append(net)
        self._lock = threading.Lock()

    def embed(self, inputs: np.ndarray) -> np.ndarray:
        """Unit-length points (n x dims) of `inputs` (n x INPUT_H x INPUT_W, `band_input`):
        each network's unit-length point, joined, made unit length again."""
        if len(inputs) == 0:
            return np.zeros((0, 0), np.float32)
        blob = np.ascontiguousarray(inputs, np.float32)[:, None, :, :]
        parts = []
        with self._lock:
            for net in self._nets:
                net.setInput(blob)
                out = np.asarray(net.forward(), np.float32).reshape(len(inputs), -1)
                parts.append(_unit(out))
        return _unit(np.concatenate(parts, axis=1))


def _unit(points: np.ndarray) -> np.ndarray:
    return points / np.maximum(np.linalg.norm(points, axis=1, keepdims=True), 1e-6)


@functools.lru_cache(maxsize=1)
def shared() -> BandNet:
    """This process's network."""
    return BandNet()


def prototypes(points: np.ndarray, class_of: np.ndarray, n_classes: int) -> np.ndarray:
    """Each class's prototype (classes x dims, unit length): the mean of its cards' points."""
    protos = np.array([points[class_of == k].mean(axis=0) for k in range(n_classes)],
                      np.float32)
    return _unit(protos)


def separation(protos: np.ndarray) -> float:
    """How far apart the network puts a printing's classes: over the classes, the median of
    one less each prototype's cosine similarity with its nearest other (what a band lying on
    its class's prototype leads the next class by); 0 without prototypes."""
    if protos.shape[0] < 2 or protos.shape[1] == 0:
        return 0.0
    near = protos @ protos.T
    np.fill_diagonal(near, -np.inf)
    return float(np.median(1.0 - near.max(axis=1)))


def camera_like(band: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An enrolled face's band input as a camera might give it: shifted, turned and scaled a
    little, blurred, seen at a lower resolution, noisy, part of it washed out by glare or
    covered by the next card; normalised again."""
    h, w = band.shape
    m = cv2.getRotationMatrix2D((w / 2, 0), float(rng.uniform(-2.5, 2.5)),
                                float(rng.uniform(0.95, 1.05)))
    m[:, 2] += rng.uniform(-2.0, 2.0, 2)
    img = cv2.warpAffine(band, m, (w, h), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    r = float(rng.uniform(0.6, 1.0))
    if r < 0.95:
        small = cv2.resize(img, (max(4, int(w * r)), max(4, int(h * r))),
                           interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.4)))
    if rng.random() < 0.3:                        # glare: ink washed out over a soft patch
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cy, cx = rng.uniform(0, h), rng.uniform(0, w)
        rad = float(rng.uniform(6, 30))
        wash = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * rad * rad))
        img = img * (1 - 0.8 * wash) + float(img.min()) * 0.8 * wash
    if rng.random() < 0.25:                       # the next card's edge over the band's foot
        k = int(rng.integers(1, 6))
        img[h - k:] = float(rng.normal(0, 1))
    img = img * np.float32(rng.uniform(0.5, 1.5)) + rng.normal(0, rng.uniform(0.02, 0.35),
                                                                img.shape).astype(np.float32)
    return normalised(img)


def self_test(inputs: np.ndarray, class_of: np.ndarray, protos: np.ndarray, views: int = 8,
              seed: int = 0) -> float:
    """How well the network tells one printing's cards apart as a camera would show them:
    the share of `views` camera-like versions (`camera_like`, seeded) of each enrolled band
    (`inputs`, `band_input`) that lie nearest their own class's prototype. The tuning
    families' printings score 0.97 and more; a printing the network never learnt to read
    (a border stripe filling the band's ink) may score far less, and then its say on a read
    counts for less (`reading.lead_scale`)."""
    if len(inputs) == 0 or protos.shape[1] == 0:
        return 0.0
    nearest = view_sims(inputs, protos, views, seed).argmax(axis=1)
    return float(np.mean(nearest == np.repeat(class_of, views)))


def view_sims(inputs: np.ndarray, protos: np.ndarray, views: int = 8, seed: int = 0
              ) -> np.ndarray:
    """The similarities with each class's prototype (`len(inputs) * views` x classes) of
    `views` camera-like versions (`camera_like`, seeded) of each band in `inputs`, band by
    band: what `self_test` measures a printing on."""
    rng = np.random.default_rng(seed)
    seen = np.array([camera_like(band, rng) for band in inputs for _ in range(views)],
                    np.float32)
    return similarities(shared().embed(seen), protos)


def told_apart(band_a: np.ndarray, band_b: np.ndarray, a: int, b: int, protos: np.ndarray,
               views: int = 32, seed: int = 0) -> float:
    """How well the network tells two cards' bands apart (`band_input`s; their classes `a`
    and `b`): of `views` camera-like versions of each, the share that lies nearer its own
    class's prototype than the other's; the smaller of the two."""
    shares = []
    for band, own, other in ((band_a, a, b), (band_b, b, a)):
        sims = view_sims(band[None], protos, views, seed)
        shares.append(float(np.mean(sims[:, own] > sims[:, other])))
    return min(shares)


def similarities(points: np.ndarray, protos: np.ndarray) -> np.ndarray:
    """Cosine similarities of points (reads x dims) with the prototypes (reads x classes)."""
    return points @ protos.T


__all__ = ["INPUT_H", "INPUT_W", "MODEL_PATH", "MODEL_PATHS", "BandNet", "band_input",
           "camera_like", "normalised", "prototypes", "self_test", "separation", "shared",
           "similarities", "told_apart", "view_sims"]
