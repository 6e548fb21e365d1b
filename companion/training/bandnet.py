"""Training the band network (`companion.vision.bandnet`) on the zoo's tuning families.

Needs the optional `train` extra (torch, onnx): `pip install -e .[train]`. The command:

    companion train band-model --data DIR [--seeds 1-12] [--faces-seeds 13-40] [--steps 3000]
                               [--check-seed 0] [--leave-out FAMILY,...] [--jobs N] [--out FILE]
                               [--drawing near|wide]

collects the training material into DIR first (`collect.collect_all`, kept between runs),
then trains and writes the ONNX file the reader loads (by default the package's own
`companion/vision/models/band-embed.onnx`, or with `--drawing wide` its second network,
`band-embed-wide.onnx`). With `--leave-out` it trains without those tuning families and
checks on every table of theirs: how it reads whole families it never saw, the measure for
a change to the training itself (written to `--out`, never the package's model).
Everything is seeded: the same command on the same code gives the same material and, on
the same torch build, the same network.

Each step is a few *episodes*, one per printing: the printing's enrolled faces give its
classes' prototypes (the mean point of a class's faces), and its bands as the reader saw
them on the table, plus faces put through camera faults (`camera_like`), are each asked to
lie nearest their own class's prototype (cross-entropy over scaled cosine similarities).
The network thus learns what makes two bands the same card *within any one printing*;
the printing itself is only ever seen through its enrolment.

Most episodes also give their printing a *look of its own* (`printing_look`): what every
card of a printing shares, which no tuning family draws in the same way: a stripe or a frame
along the band's edges, a tinted ground, a shared emblem, and, on some, a picture of each
card's own reaching into the band. Its strength differs from card to card, as a border
stripe's ink differs from colour to colour. The same look is laid on a card's enrolled face
and on its bands on the table, so nothing in it tells two cards apart: the network learns to
look past it, at what does.

Most episodes also *draw their printing differently* (`printing_warp`): every band of the
printing, its enrolled faces and its bands on the table alike, is scaled, moved, given
thicker or thinner strokes or another ink curve, all in the same way. A printing never seen
sets its numerals bigger or smaller, further in or out, bolder or lighter than any tuning
family; the network learns that what tells two cards apart is not where or how heavily a
printing draws them. How far is the `Drawing`: the reader joins two networks trained alike
but for that (`DRAWINGS`): "near", and "wide", which also draws numerals down to two thirds
of a tuning family's size, further out, or on the other side. On tuning families left out
of training, their points joined name more bands right than either alone (docs/vision.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from companion.vision import bandnet
from companion.vision.bandnet import camera_like

EMBED_DIMS = 64
SCALE = 12.0              # cosine similarities are scaled by this before the softmax


def _net(torch: Any, dims: int = EMBED_DIMS) -> Any:
    nn = torch.nn
    chans = [1, 16, 32, 48, 64]
    layers: list[Any] = []
    for i in range(4):
        layers += [nn.Conv2d(chans[i], chans[i + 1], 3, padding=1, bias=False),
                   nn.BatchNorm2d(chans[i + 1]), nn.ReLU()]
        if i < 3:
            layers.append(nn.MaxPool2d(2))
    # 28 x 112 -> 3 x 14 after three poolings; pooled to 1 x 7: where along the band, not
    # how high, is kept.
    layers += [nn.AvgPool2d((3, 2)), nn.Flatten(), nn.Linear(chans[-1] * 7, dims)]
    return nn.Sequential(*layers)


def _load(paths: list[Path]) -> list[dict[str, np.ndarray]]:
    out = []
    for p in paths:
        with np.load(p) as z:
            out.append({k: z[k] for k in z.files})
    return out


LOOK_SHARE = 0.6          # share of episodes whose printing is given a look of its own


def _smooth_field(rng: np.random.Generator, h: int, w: int, cells: tuple[int, int]
                  ) -> np.ndarray:
    """Random shapes no finer than `cells` (rows, columns) across an h x w field, unit spread."""
    coarse = rng.normal(0, 1, cells).astype(np.float32)
    field = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    return field / max(float(field.std()), 1e-6)


def _shared_part(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """One thing every card of a printing shows in its band, unit peak."""
    field = np.zeros((h, w), np.float32)
    kind = int(rng.integers(5))
    if kind == 0:                                   # stripes along the band's sides
        k = int(rng.integers(2, 16))
        sides = rng.permutation(2)[: int(rng.integers(1, 3))]
        for side in sides:
            if side == 0:
                field[:, :k] = 1.0
            else:
                field[:, w - k:] = 1.0
        if rng.random() < 0.5:                      # and along its top
            field[: int(rng.integers(1, 6))] = 1.0
    elif kind == 1:                                 # a thin frame a little inside the edge
        inset, t = int(rng.integers(0, 5)), int(rng.integers(1, 3))
        field[inset:inset + t, inset:w - inset] = 1.0
        field[:, inset:inset + t] = 1.0
        field[:, w - inset - t:w - inset] = 1.0
    elif kind == 2:                                 # a tinted or shaded ground
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        field = rng.uniform(-1, 1) * xx / w + rng.uniform(-1, 1) * yy / h + 0.5
        field = np.abs(field) + 0.3 * np.abs(_smooth_field(rng, h, w, (2, 4)))
    elif kind == 3:                                 # an emblem at one place on every card
        cy, cx = rng.uniform(0, h), rng.uniform(0, w)
        ry, rx = rng.uniform(3, 12), rng.uniform(3, 20)
        cv2.ellipse(field, (int(cx), int(cy)), (int(rx), int(ry)), 0, 0, 360, 1.0,
                    -1 if rng.random() < 0.5 else 2)
    else:                                           # a patterned ground (a printed texture)
        field = np.abs(_smooth_field(rng, h, w, (int(rng.integers(3, 8)),
                                                 int(rng.integers(6, 24)))))
    return field / max(float(field.max()), 1e-6)


def printing_look(rng: np.random.Generator, cards: int, h: int = bandnet.INPUT_H,
                  w: int = bandnet.INPUT_W) -> np.ndarray:
    """A printing's own look (see the module): what to add to each card's band input
    (cards x h x w), in the inputs' unit spread."""
    shared = sum((_shared_part(rng, h, w) for _ in range(int(rng.integers(1, 3)))),
                 np.zeros((h, w), np.float32))
    strength = float(rng.uniform(0.3, 3.0))
    looks = shared[None] * (strength * rng.uniform(0.5, 1.5, cards))[:, None, None]
    if rng.random() < 0.4:                          # a picture of each card's own
        rows = int(rng.integers(h // 4, h))
        mask = np.zeros((h, w), np.float32)
        mask[h - rows:] = 1.0
        if rng.random() < 0.5:                      # beside the numeral, not under it
            lo = int(rng.integers(0, w // 2))
            mask[:, lo:lo + int(rng.integers(w // 4, w // 2))] = 0.0
        mask = cv2.GaussianBlur(mask, (0, 0), 2.0)
        amp = float(rng.uniform(0.3, 2.0))
        for i in range(cards):
            looks[i] += amp * mask * np.abs(_smooth_field(rng, h, w, (int(rng.integers(3, 10)),
                                                                      int(rng.integers(6, 30)))))
    return looks.astype(np.float32)


WARP_SHARE = 0.7          # share of episodes whose printing is drawn differently


@dataclass(frozen=True)
class Drawing:
    """How far `printing_warp` draws a printing from its tuning family's own: its bands
    scaled across and down (drawn on a log scale, or evenly), moved up to `shift_px` across
    and 3 px down, and on `mirror_share` of the printings mirrored."""

    across: tuple[float, float]
    down: tuple[float, float]
    shift_px: float
    mirror_share: float = 0.0
    log_scale: bool = False

    def scale(self, rng: np.random.Generator, lo_hi: tuple[float, float]) -> float:
        lo, hi = lo_hi
        if self.log_scale:
            return float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
        return float(rng.uniform(lo, hi))


# The reader joins two networks trained alike but for how far their printings are drawn
# (`vision.bandnet.MODEL_PATHS`): "near" (band-embed.onnx) and "wide" (band-embed-wide.onnx,
# numerals down to two thirds of a tuning family's size, further out, or on the other side).
DRAWINGS = {
    "near": Drawing(across=(0.8, 1.25), down=(0.85, 1.18), shift_px=10),
    "wide": Drawing(across=(0.65, 1.25), down=(0.7, 1.18), shift_px=16, mirror_share=0.3,
                    log_scale=True),
}


def printing_warp(rng: np.random.Generator, h: int = bandnet.INPUT_H, w: int = bandnet.INPUT_W,
                  drawing: Drawing = DRAWINGS["near"]) -> Callable[[np.ndarray], np.ndarray]:
    """One way of drawing a printing differently (see the module), as a function of a band
    input: scaled across and down about a point in its upper half and moved (`drawing`:
    "near" scales by 0.8-1.25 across and 0.85-1.18 down and moves up to 10 px across),
    perhaps mirrored, its strokes perhaps a pixel thicker or thinner, its ink perhaps on
    another curve; normalised again."""
    sx, sy = drawing.scale(rng, drawing.across), drawing.scale(rng, drawing.down)
    ax, ay = rng.uniform(0, w), rng.uniform(0, h / 2)
    m = np.float32([[sx, 0, ax - sx * ax + rng.uniform(-drawing.shift_px, drawing.shift_px)],
                    [0, sy, ay - sy * ay + rng.uniform(-3, 3)]])
    mirror = drawing.mirror_share > 0 and bool(rng.random() < drawing.mirror_share)
    stroke = int(rng.integers(3))              # as drawn, thicker, thinner
    kernel = np.ones((2, 2), np.uint8)
    gamma = float(np.exp(rng.uniform(-0.7, 0.7))) if rng.random() < 0.5 else 1.0

    def warp(band: np.ndarray) -> np.ndarray:
        out = cv2.warpAffine(band, m, (w, h), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
        if mirror:
            out = np.ascontiguousarray(out[:, ::-1])
        if stroke == 1:
            out = cv2.dilate(out, kernel)
        elif stroke == 2:
            out = cv2.erode(out, kernel)
        lo, hi = float(out.min()), float(out.max())
        if gamma != 1.0 and hi - lo > 1e-4:
            out = ((out - lo) / (hi - lo)) ** gamma
        return bandnet.normalised(out)

    return warp


def _seen_with(band: np.ndarray, look: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A table band (already as the camera saw it) given its card's look, shifted and
    softened a little as the camera would have shown it."""
    m = np.float32([[1, 0, rng.uniform(-1.5, 1.5)], [0, 1, rng.uniform(-1.0, 1.0)]])
    moved = cv2.warpAffine(look, m, (look.shape[1], look.shape[0]),
                           borderMode=cv2.BORDER_REPLICATE)
    return bandnet.normalised(band + cv2.GaussianBlur(moved, (0, 0), float(rng.uniform(0.3, 1.2))))


def _episode(torch: Any, net: Any, pr: dict[str, np.ndarray], rng: np.random.Generator,
             real: int, synthetic: int, drawing: Drawing) -> Any:
    faces, class_of = pr["faces"], pr["class_of"]
    n_cls = int(class_of.max()) + 1
    idx = rng.choice(len(pr["labels"]), size=min(real, len(pr["labels"])), replace=False) \
        if len(pr["labels"]) else np.zeros(0, np.int64)
    fake = rng.integers(0, len(faces), synthetic)
    bands = pr["bands"][idx]
    if rng.random() < WARP_SHARE:
        warp = printing_warp(rng, *faces.shape[1:], drawing=drawing)
        faces = np.array([warp(f) for f in faces], np.float32)
        bands = np.array([warp(b) for b in bands], np.float32).reshape(-1, *faces.shape[1:])
    if rng.random() < LOOK_SHARE:
        looks = printing_look(rng, len(faces), *faces.shape[1:])
        faces = np.array([bandnet.normalised(f + k) for f, k in zip(faces, looks)], np.float32)
        bands = np.array([_seen_with(b, looks[c], rng) for b, c in zip(bands, pr["labels"][idx])],
                         np.float32).reshape(-1, *faces.shape[1:])
    queries = np.concatenate([bands,
                              np.array([camera_like(faces[i], rng) for i in fake],
                                       np.float32).reshape(-1, *faces.shape[1:])])
    labels = np.concatenate([class_of[pr["labels"][idx]], class_of[fake]])
    x = torch.from_numpy(np.concatenate([faces, queries])[:, None])
    z = torch.nn.functional.normalize(net(x), dim=1)
    zf, zq = z[:len(faces)], z[len(faces):]
    onehot = torch.zeros(n_cls, len(faces))
    onehot[torch.from_numpy(class_of), torch.arange(len(faces))] = 1.0
    protos = torch.nn.functional.normalize((onehot / onehot.sum(1, keepdim=True)) @ zf, dim=1)
    logits = SCALE * zq @ protos.T
    return torch.nn.functional.cross_entropy(logits, torch.from_numpy(labels))


def accuracy(embed: Any, printings: list[dict[str, np.ndarray]]) -> float:
    """Share of the printings' table bands nearest their own class's prototype."""
    right = total = 0
    for pr in printings:
        if not len(pr["labels"]):
            continue
        protos = bandnet.prototypes(embed(pr["faces"]), pr["class_of"],
                                    int(pr["class_of"].max()) + 1)
        sims = bandnet.similarities(embed(pr["bands"]), protos)
        right += int((sims.argmax(1) == pr["class_of"][pr["labels"]]).sum())
        total += len(pr["labels"])
    return right / max(total, 1)


def train(paths: list[Path], out: Path, steps: int = 3000, seed: int = 0,
          check: list[Path] | None = None, log: Any = print,
          drawing: Drawing = DRAWINGS["near"]) -> Path:
    """Train on the collected printings `paths` and write the ONNX model to `out`;
    `check`: printings kept out of training whose accuracy is logged as it goes;
    `drawing`: how far the episodes' printings are drawn from their own (`printing_warp`)."""
    import torch
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    data = _load(paths)
    held = _load(check or [])
    net = _net(torch)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)

    def embed(x: np.ndarray) -> np.ndarray:
        net.eval()
        with torch.no_grad():
            z = net(torch.from_numpy(np.asarray(x, np.float32)[:, None])).numpy()
        net.train()
        return z / np.maximum(np.linalg.norm(z, axis=1, keepdims=True), 1e-6)

    start = time.perf_counter()
    for step in range(steps):
        batch = rng.choice(len(data), size=min(2, len(data)), replace=False)
        loss = sum(_episode(torch, net, data[i], rng, 40, 24, drawing)
                   for i in batch) / len(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            msg = f"step {step}: loss {float(loss.detach()):.3f}, {time.perf_counter() - start:.0f} s"
            if held:
                msg += f", kept-out accuracy {100 * accuracy(embed, held):.2f}%"
            log(msg)
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, bandnet.INPUT_H, bandnet.INPUT_W)
    torch.onnx.export(net, dummy, str(out), input_names=["band"], output_names=["point"],
                      dynamic_axes={"band": {0: "n"}, "point": {0: "n"}}, opset_version=13,
                      dynamo=False)
    return out


__all__ = ["DRAWINGS", "EMBED_DIMS", "Drawing", "accuracy", "camera_like", "printing_look",
           "printing_warp", "train"]
