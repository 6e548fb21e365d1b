"""Training material for the band network: bands as the reader sees them, with their truth.

For each tuning family of the printing zoo (never a held-out one) and each seed, the
printing is enrolled from one rendition and seeded tables are drawn with another, at the
reference rig and at the webcam, exactly as `companion bench vision` does (other seeds than
the bench's 0). The reader reads each frame; every card it names in a zone whose count of
cards matches the truth gives one sample: the band's ink where the reader aligned it, and
the card that truly lies there. The enrolled faces' bands come along as the printing's
prototypes. One `.npz` file per printing and rig.

Needs numpy and OpenCV only (what the reader needs); the training itself needs torch.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import numpy as np

from companion.vision import bandnet, reading

if TYPE_CHECKING:
    from companion.synth.faces import Printing
    from companion.vision.deck import Deck

TABLE_FRAMES = 3


def _enrolled(family: str, seed: int) -> tuple[Printing, Deck, np.ndarray]:
    """A tuning family's printing (`family`, `seed`) enrolled from its enrolment rendition as
    the bench enrols it: the printing, its deck and the network's inputs for its faces' top
    bands (cards x H x W). Call it with the network off (`network_off`)."""
    from companion.bench.vision import ENROL_RENDITION
    from companion.synth import rendition, write_deck_images
    from companion.synth.zoo import FAMILIES
    from companion.vision.deck import enrol, face_reflectance

    _tuning_only(family)
    printing = FAMILIES[family](seed)
    with tempfile.TemporaryDirectory() as tmp:
        write_deck_images(rendition(printing, ENROL_RENDITION), tmp)
        deck = enrol(tmp, (printing.card_w, printing.card_h))
    tpl = deck.templates
    s = tpl.settings()
    faces = np.array([_band(reading.ink(face_reflectance(f), tpl.stock), 0, 0, s)
                      for f in deck.faces], np.float32)
    return printing, deck, faces


def _tuning_only(family: str) -> None:
    from companion.synth.zoo import HELD_OUT
    if family in HELD_OUT:
        raise ValueError(f"{family} is held out: it is never used for training")


def _band(ink_map: np.ndarray, top: int, left: int, s: reading.ReadingSettings) -> np.ndarray:
    x0 = s.px(s.inset_mm)
    return bandnet.band_input(ink_map, top, left, s.px(s.band_mm), x0,
                              s.px(s.card_w - 2 * s.inset_mm))


@contextlib.contextmanager
def _aligned_bands(sink: list[tuple[bytes, np.ndarray]]) -> Iterator[None]:
    """While inside, every card the reader names leaves its aligned band's input in `sink`,
    keyed by its shape scores (carried unchanged to the reader's final reads)."""
    original = reading.identify_many

    def spy(m: reading.Maps, corners: list[tuple[int, int]], tpl: reading.Templates,
            net: bool = True) -> list[reading.CardRead]:
        out = original(m, corners, tpl, net)
        s = m.s
        for r in out:
            top = int(round(r.top_mm * s.px_per_mm))
            left = int(round(r.centre_mm * s.px_per_mm - s.px(s.card_w) / 2))
            sink.append((np.asarray(r.shape).tobytes(), _band(m.ink, top, left, s)))
        return out

    reading.identify_many = spy           # type: ignore[assignment]
    try:
        yield
    finally:
        reading.identify_many = original  # type: ignore[assignment]


@contextlib.contextmanager
def network_off() -> Iterator[None]:
    """The reader without its band network (`reading.net_weight` 0, through the configuration
    override `COMPANION_VISION_CONFIG`): the material a network is trained on must not
    depend on the network the package holds at the time, or none at all."""
    from companion.vision import config

    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as fh:
        extra = {"reading": {"net_weight": 0}}
        if os.environ.get("COMPANION_VISION_CONFIG"):
            raise RuntimeError("unset COMPANION_VISION_CONFIG to collect training material: "
                               "it is collected with the project's own settings")
        import yaml
        yaml.safe_dump(extra, fh)
    os.environ["COMPANION_VISION_CONFIG"] = fh.name
    _settings_changed(config)
    try:
        yield
    finally:
        del os.environ["COMPANION_VISION_CONFIG"]
        os.unlink(fh.name)
        _settings_changed(config)


def _settings_changed(config: object) -> None:
    config.load_config.cache_clear()              # type: ignore[attr-defined]
    reading.ReadingSettings.load.cache_clear()    # type: ignore[attr-defined]
    reading._sized.cache_clear()


def collect(family: str, seed: int, rig: str, frames: int = TABLE_FRAMES) -> dict[str, np.ndarray]:
    """The samples of one printing (`family`, `seed`) at one rig (see the module)."""
    with network_off():
        return _collect(family, seed, rig, frames)


def _collect(family: str, seed: int, rig: str, frames: int) -> dict[str, np.ndarray]:
    from companion.bench.vision import TABLE_RENDITION
    from companion.synth import RIGS, Degrade, Setup, render, rendition
    from companion.synth.dataset import random_scene
    from companion.synth.zoo import FAMILIES
    from companion.vision.errors import VisionError
    from companion.vision.pipeline import TableReader

    printing, deck, faces = _enrolled(family, seed)
    tpl = deck.templates
    codes = [c.code for c in deck.cards]
    on_table = rendition(printing, TABLE_RENDITION)
    rigs = tuple(sorted(RIGS))
    rng = np.random.default_rng([seed, 0x7EA1, sorted(FAMILIES).index(family), rigs.index(rig)])
    bands: list[np.ndarray] = []
    labels: list[int] = []
    for _ in range(frames):
        scene = random_scene(rng, hand=bool(rng.random() < 0.15))
        deg = Degrade.random(rng, hand=False)
        frame = render(scene, on_table, int(rng.integers(1 << 30)), deg, rig=RIGS[rig],
                       setup=Setup.varied())
        truth = scene.observation()
        sink: list[tuple[bytes, np.ndarray]] = []
        try:
            with _aligned_bands(sink), TableReader(deck, allow_missing_tiles=True,
                                                   workers=0) as reader:
                reader.read(frame)
        except VisionError:
            continue
        by_key = dict(sink)
        kept: dict[object, list[tuple[int, bytes]]] = {}
        for place, index, read in reader.last_reads:
            kept.setdefault(place, []).append((index, np.asarray(read.shape).tobytes()))
        for place, reads in kept.items():
            want = (truth.offline(place.side) if not place.flag
                    else truth.flags[place.flag - 1].side(place.side))
            if len(reads) != len(want):
                continue                   # a card missed or one too many: no sure truth
            for (index, key), card in zip(sorted(reads), want):
                band = by_key.get(key)
                if band is not None and card.code in codes:
                    bands.append(band)
                    labels.append(codes.index(card.code))
    return {"faces": faces, "class_of": tpl.class_of.astype(np.int64),
            "bands": np.array(bands, np.float32).reshape(-1, bandnet.INPUT_H, bandnet.INPUT_W),
            "labels": np.array(labels, np.int64)}


def collect_all(out_dir: Path, families: tuple[str, ...], seeds: range, rigs: tuple[str, ...],
                frames: int = TABLE_FRAMES, jobs: int = 1, log: object = print) -> list[Path]:
    """`collect` for every family, seed and rig, each to `out_dir/FAMILY-SEED-RIG.npz`, in
    `jobs` processes (a file already there is kept: an interrupted collection goes on where
    it stopped)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = [(family, seed, rig, out_dir / f"{family}-{seed}-{rig}.npz")
            for seed in seeds for family in families for rig in rigs]
    missing = [t for t in todo if not t[3].exists()]
    if jobs > 1 and len(missing) > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(jobs) as pool:
            for line in pool.map(_collect_to, missing, [frames] * len(missing)):
                log(line)  # type: ignore[operator]
    else:
        for item in missing:
            log(_collect_to(item, frames))  # type: ignore[operator]
    return [t[3] for t in todo]


def _collect_to(item: tuple[str, int, str, Path], frames: int) -> str:
    family, seed, rig, path = item
    got = collect(family, seed, rig, frames)
    part = path.with_suffix(".part")
    with open(part, "wb") as fh:
        np.savez_compressed(fh, **got)
    part.replace(path)
    return f"{path.name}: {len(got['labels'])} bands"


def collect_faces(out_dir: Path, families: tuple[str, ...], seeds: range,
                  log: object = print) -> list[Path]:
    """For more printings than tables can be drawn for: each printing's enrolled faces only
    (`out_dir/faces-FAMILY-SEED.npz`), trained on through `camera_like` faults."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        for family in families:
            _tuning_only(family)
            path = out_dir / f"faces-{family}-{seed}.npz"
            if not path.exists():
                with network_off():
                    _, deck, faces = _enrolled(family, seed)
                with open(path, "wb") as fh:
                    np.savez_compressed(fh, faces=faces,
                                        class_of=deck.templates.class_of.astype(np.int64),
                                        bands=np.zeros((0, bandnet.INPUT_H, bandnet.INPUT_W),
                                                       np.float32),
                                        labels=np.zeros(0, np.int64))
                log(f"{path.name}: faces only")  # type: ignore[operator]
            paths.append(path)
    return paths

