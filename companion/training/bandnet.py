"""Training the band network (`companion.vision.bandnet`) on the zoo's tuning families.

Needs the optional `train` extra (torch, onnx): `pip install -e .[train]`. The command:

    companion train band-model --data DIR [--seeds 1-12] [--faces-seeds 13-40] [--steps 2000]
                               [--jobs N] [--out FILE]

collects the training material into DIR first (`collect.collect_all`, kept between runs),
then trains and writes the ONNX file the reader loads (by default the package's own
`companion/vision/models/band-embed.onnx`). Everything is seeded: the same command on the
same code gives the same material and, on the same torch build, the same network.

Each step is a few *episodes*, one per printing: the printing's enrolled faces give its
classes' prototypes (the mean point of a class's faces), and its bands as the reader saw
them on the table, plus faces put through camera faults (`camera_like`), are each asked to
lie nearest their own class's prototype (cross-entropy over scaled cosine similarities).
The network thus learns what makes two bands the same card *within any one printing*;
the printing itself is only ever seen through its enrolment.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

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


def _episode(torch: Any, net: Any, pr: dict[str, np.ndarray], rng: np.random.Generator,
             real: int, synthetic: int) -> Any:
    faces, class_of = pr["faces"], pr["class_of"]
    n_cls = int(class_of.max()) + 1
    idx = rng.choice(len(pr["labels"]), size=min(real, len(pr["labels"])), replace=False) \
        if len(pr["labels"]) else np.zeros(0, np.int64)
    fake = rng.integers(0, len(faces), synthetic)
    queries = np.concatenate([pr["bands"][idx],
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


def train(paths: list[Path], out: Path, steps: int = 2000, seed: int = 0,
          check: list[Path] | None = None, log: Any = print) -> Path:
    """Train on the collected printings `paths` and write the ONNX model to `out`;
    `check`: printings kept out of training whose accuracy is logged as it goes."""
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
        loss = sum(_episode(torch, net, data[i], rng, 40, 24) for i in batch) / len(batch)
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


__all__ = ["EMBED_DIMS", "accuracy", "camera_like", "train"]
