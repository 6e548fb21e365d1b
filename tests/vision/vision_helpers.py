"""Shared, cached set-up for the camera pipeline's tests: enrolled decks and rendered frames.

Decks are enrolled once per test session (enrolment reads 70 images); every frame is seeded.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

import numpy as np

from companion.vision.deck import Deck, enrol
from companion.synth import Scene, printing_a, printing_b, random_printing, render, \
    write_deck_images
from companion.synth.faces import Printing

PRINTINGS = {"classic": printing_a, "bold": printing_b, "random-11": lambda: random_printing(11)}


def printing(name: str) -> Printing:
    return PRINTINGS[name]()


@functools.lru_cache(maxsize=None)
def deck_dir(name: str) -> Path:
    d = Path(tempfile.mkdtemp(prefix=f"deck-{name}-"))
    atexit.register(shutil.rmtree, d, ignore_errors=True)   # kept for the whole session
    write_deck_images(printing(name), d)
    return d


@functools.lru_cache(maxsize=None)
def deck(name: str) -> Deck:
    return enrol(deck_dir(name))


def enrolled(p: Printing, px_per_mm: float | None = None) -> Deck:
    """The deck enrolled from images of printing `p` (drawn at `px_per_mm` per mm, else at
    the images' usual resolution), at its own card size."""
    with tempfile.TemporaryDirectory() as tmp:
        if px_per_mm is None:
            write_deck_images(p, tmp)
        else:
            write_deck_images(p, tmp, px_per_mm)
        return enrol(tmp, (p.card_w, p.card_h))


def sample_scene(table_seed: int | None = None) -> Scene:
    """A busy table: echelons of three and four (Mud), Fog, a claimed flag each way,
    guile cards and discards off the line."""
    return Scene.from_layout([
        ("line", ["R8", "R9", "ALEXANDER"], ["B3", "FOG", "B4", "B5"]),
        ("line", ["Y1"], ["G10", "G9"]),
        ("north", ["O7", "O6", "O5"], ["P1", "P2"]),
        ("line", [], []),
        ("south", ["Y10", "MUD", "Y9", "Y8", "Y7"], ["G1", "G2", "G3", "G4"]),
        ("line", ["CAVALRY"], ["SHIELD"]),
        ("line", ["R1", "R2"], ["R3"]),
        ("line", ["B10", "B9", "B8"], []),
        ("line", [], ["P10"]),
    ], offline_north=["SCOUT", "Y3", "REDEPLOY"], offline_south=["DESERTER", "TRAITOR"],
        table_seed=table_seed)


@functools.lru_cache(maxsize=None)
def frame(printing_name: str, seed: int = 3) -> np.ndarray:
    img = render(sample_scene(), printing(printing_name), seed=seed)
    img.setflags(write=False)
    return img


def bench_webcam_frame(family: str, seed: int, frame: int, light: str = ""):  # noqa: ANN202
    """The bench's `frame`-th table of `family` at printing seed `seed`, as a webcam-only run
    draws it (the reference rig's tables at the webcam), its deck, its truth and the camera
    faults it was drawn with; `light` "grey" or "warm": one of the bench's colour frames
    (`--colour-frames`), a greyscale camera or tungsten light, noise and JPEG kept."""
    from companion.bench.vision import ENROL_RENDITION, TABLE_RENDITION
    from companion.synth import RIGS, Degrade, Setup, rendition
    from companion.synth.dataset import random_scene
    from companion.synth.zoo import FAMILIES

    printing = FAMILIES[family](seed)
    rng = np.random.default_rng([seed, 0xBE7C, sorted(FAMILIES).index(family), 0])
    for _ in range(frame + 1):
        scene = random_scene(rng, hand=bool(rng.random() < 0.15))
        deg = Degrade.random(rng, hand=False)
        fseed = int(rng.integers(1 << 30))
    if light:
        deg = Degrade(noise=deg.noise, jpeg=deg.jpeg, **({"grey": True} if light == "grey"
                                                         else {"warm": 0.9}))
    img = render(scene, rendition(printing, TABLE_RENDITION), fseed, deg, rig=RIGS["webcam"],
                 setup=Setup.varied())
    return img, enrolled(rendition(printing, ENROL_RENDITION)), scene.observation(), deg
