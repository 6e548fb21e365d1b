"""A Schotten Totten printing: its 64 cards enrolled like any other printing and read on a
drawn table; a folder mixing the two editions' decks is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.rules.cards import BY_CODE
from companion.rules.edition import SCHOTTEN_TOTTEN
from companion.synth import Scene, printing_named, render, write_deck_images
from companion.synth.zoo import SCHOTTEN_FAMILIES, rendition
from companion.vision.deck import Deck, enrol
from companion.vision.errors import DeckError
from companion.vision.pipeline import TableReader


@pytest.fixture(scope="module")
def st_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = printing_named("schotten-clan")
    d = tmp_path_factory.mktemp("deck-schotten")
    write_deck_images(rendition(p, 1), d)   # enrolled from one copy, read on another
    return d


def test_a_schotten_totten_printing_has_its_64_cards(st_dir: Path) -> None:
    names = {p.stem for p in st_dir.glob("*.png")}
    assert len(names) == 64 and "SPY" in names and "CAVALRY" not in names
    assert not any(n.endswith("10") for n in names)
    for family in SCHOTTEN_FAMILIES:
        assert printing_named(f"{family}-3").edition == "schotten-totten"


def test_enrol_and_read_a_schotten_totten_table(st_dir: Path, tmp_path: Path) -> None:
    p = printing_named("schotten-clan")
    deck = enrol(st_dir, (p.card_w, p.card_h))
    assert deck.edition is SCHOTTEN_TOTTEN and len(deck.cards) == 64
    back = Deck.load(deck.save(tmp_path / "st.npz"))
    assert back.edition is SCHOTTEN_TOTTEN
    scene = Scene.from_layout([
        ("line", ["R8", "R9", "ALEXANDER"], ["B3", "FOG", "B4", "B5"]),
        ("line", ["Y1", "SPY"], ["G9", "G8"]),
        ("north", ["O7", "O6", "O5"], ["P1", "P2", "P3"]),
        ("line", [], []),
        ("line", ["MUD", "Y9", "Y8", "Y7"], ["G1", "G2", "G3"]),
        ("line", ["DARIUS"], ["SHIELD"]),
        ("line", ["R1", "R2"], ["R3"]),
        ("line", ["B9", "B7", "B6"], []),
        ("line", [], ["P9"]),
    ], offline_north=["SCOUT", "Y3"], offline_south=["DESERTER", "TRAITOR", "REDEPLOY"],
        table_seed=4)
    seen = TableReader(deck).read(render(scene, p, seed=5))
    assert seen.doubtful == ()
    wanted = scene.observation()
    right = sum(1 for a, b in zip(seen.flags, wanted.flags)
                if a.north == b.north and a.south == b.south and a.tile == b.tile)
    assert right == 9, (seen.to_json(), wanted.to_json())
    assert seen.offline_north == wanted.offline_north
    assert seen.offline_south == wanted.offline_south


def test_the_other_schotten_totten_printing_enrols_too(tmp_path: Path) -> None:
    # Its reads are those of the Battle Line banner family it is drawn like (README: card
    # reading figures per family); here only the enrolment of its 64 faces is checked.
    p = printing_named("schotten-banner-2")
    write_deck_images(p, tmp_path)
    deck = enrol(tmp_path, (p.card_w, p.card_h))
    assert deck.edition is SCHOTTEN_TOTTEN and len(deck.cards) == 64 and deck.pairs == ()


def test_a_folder_mixing_the_editions_is_refused(st_dir: Path, tmp_path: Path) -> None:
    d = tmp_path / "mixed"
    shutil.copytree(st_dir, d)
    shutil.copy(d / "R9.png", d / "R10.png")
    with pytest.raises(DeckError, match="R10.png is not a card of Schotten Totten"):
        enrol(d)
    (d / "R10.png").unlink()
    (d / "SPY.png").unlink()
    with pytest.raises(DeckError, match="a Battle Line deck needs all 70 cards"):
        enrol(d)


def test_labelled_frames_of_a_schotten_totten_printing_hold_its_cards(tmp_path: Path) -> None:
    import json

    from companion.synth.dataset import write_dataset
    write_dataset(tmp_path, 2, printings=(printing_named("schotten-clan"),), degrade=False)
    codes = []
    for label in tmp_path.glob("frame-*.json"):
        obs = json.loads(label.read_text(encoding="utf-8"))
        codes += [c for f in obs["flags"] for c in f["north"] + f["south"]]
        codes += obs["offline"]["north"] + obs["offline"]["south"]
    assert codes and all(SCHOTTEN_TOTTEN.has(BY_CODE[c]) for c in codes)
