"""Enrolling a deck: the versioned file and every bad folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.rules.cards import BY_CODE
from companion.vision import deck as deck_mod
from companion.vision.deck import Deck, enrol, parse_card_size
from companion.vision.errors import CardError, DeckError

from .vision_helpers import deck, deck_dir


def _copy(tmp_path: Path) -> Path:
    d = tmp_path / "cards"
    shutil.copytree(deck_dir("classic"), d)
    return d


def test_enrol_save_load_round_trip(tmp_path: Path) -> None:
    dk = deck("classic")
    assert len(dk.cards) == 70
    path = dk.save(tmp_path / "deck.bin")
    back = Deck.load(path)
    assert back.cards == dk.cards
    assert np.array_equal(back.faces, dk.faces)
    assert np.allclose(back.templates.fine, dk.templates.fine)


def test_a_deck_of_another_reading_version_is_refused(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = deck("classic").save(tmp_path / "deck.npz")
    monkeypatch.setattr(deck_mod, "READING_VERSION", deck_mod.READING_VERSION + 1)
    with pytest.raises(DeckError, match="enrol the deck again"):
        Deck.load(path)


def test_bad_deck_files(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="no deck file"):
        Deck.load(tmp_path / "none.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a deck")
    with pytest.raises(DeckError, match="not an enrolled deck"):
        Deck.load(junk)


def test_empty_folder_and_missing_folder(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(DeckError, match="holds no card images"):
        enrol(tmp_path / "empty")
    with pytest.raises(DeckError, match="not a folder"):
        enrol(tmp_path / "nope")


def test_a_name_that_is_not_a_card_code(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    shutil.copy(d / "R8.png", d / "R11.png")
    with pytest.raises(DeckError, match="'R11' is not a card code"):
        enrol(d)


def test_missing_cards_and_a_card_twice(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    (d / "P3.png").unlink()
    with pytest.raises(DeckError, match="lacks images of P3"):
        enrol(d)
    shutil.copy(d / "R8.png", d / "P3.png")
    shutil.copy(d / "R8.png", d / "r8.jpg")
    with pytest.raises(DeckError, match="R8 has two images"):
        enrol(d)


def test_images_that_cannot_be_cards(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    cv2.imwrite(str(d / "G5.png"), np.full((704, 504, 3), 250, np.uint8))
    with pytest.raises(CardError, match="G5.png: its top band is blank"):
        enrol(d)
    cv2.imwrite(str(d / "G5.png"), np.full((300, 300, 3), 128, np.uint8))
    with pytest.raises(CardError, match="G5.png: a 300x300 image is not a card face"):
        enrol(d)
    (d / "G5.png").write_bytes(b"\x89PNG broken")
    with pytest.raises(DeckError, match="G5.png is not a readable image"):
        enrol(d)


def test_two_cards_that_look_alike_are_reported_with_their_picture(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    shutil.copy(d / "B4.png", d / "B5.png")
    dk = enrol(d)
    assert ("B4", "B5") in dk.pairs
    path = dk.save(tmp_path / "deck.npz")
    picture = tmp_path / "deck.pairs" / "B4-B5.png"
    assert picture.is_file()
    assert cv2.imread(str(picture)).shape[1] > 2 * dk.faces.shape[2]
    assert Deck.load(path).pairs == dk.pairs
    assert deck("classic").pairs == ()
    # The reader knows them too (`Templates.alike`, card indices both ways), soft or sharp,
    # enrolled or loaded: their reads ask the face (`reading._close_call`).
    b4, b5 = (dk.cards.index(BY_CODE[c]) for c in ("B4", "B5"))
    for t in (dk.templates, dk.templates_at(1.0), Deck.load(path).templates):
        assert {(b4, b5), (b5, b4)} <= t.alike
    assert deck("classic").templates.alike == frozenset()


def _turned(d: Path, code: str, turn: int) -> None:
    img = cv2.imread(str(d / f"{code}.png"))
    cv2.imwrite(str(d / f"{code}.png"), np.ascontiguousarray(np.rot90(img, turn)))


@pytest.mark.parametrize("name", ["classic", "bold"])
@pytest.mark.parametrize("code", ["R8", "G1", "ALEXANDER", "FOG"])
def test_an_upside_down_card_image_is_refused(tmp_path: Path, name: str, code: str) -> None:
    d = tmp_path / "cards"
    shutil.copytree(deck_dir(name), d)
    _turned(d, code, 2)
    with pytest.raises(CardError, match=f"{code}.png: the card is upside down"):
        enrol(d)


def test_a_card_image_turned_a_quarter_is_refused(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    _turned(d, "Y7", 1)
    with pytest.raises(CardError, match="Y7.png: the image is landscape"):
        enrol(d)


def test_an_image_that_is_no_card_face_is_refused(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    rng = np.random.default_rng(5)
    wood = cv2.resize(rng.integers(60, 200, (40, 30, 3), dtype=np.uint8), (504, 704),
                      interpolation=cv2.INTER_CUBIC)
    wood = cv2.GaussianBlur(wood, (0, 0), 3)
    wood[::37] = 40                                   # grain across it
    cv2.imwrite(str(d / "P6.png"), wood)
    with pytest.raises(CardError, match="P6.png: this image is not a card face"):
        enrol(d)


def test_the_card_size_is_taken_and_checked(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    with pytest.raises(CardError, match="not a card face of 56x87 mm"):
        enrol(d, (56.0, 87.0))
    narrow = tmp_path / "narrow"
    narrow.mkdir()
    for f in d.iterdir():
        img = cv2.imread(str(f))
        cv2.imwrite(str(narrow / f.name), cv2.resize(img, (448, 696)))
    dk = enrol(narrow, (56.0, 87.0))
    assert dk.card_size == (56.0, 87.0)
    assert dk.faces.shape[1:3] == (174, 112)
    back = Deck.load(dk.save(tmp_path / "narrow.npz"))
    assert back.card_size == (56.0, 87.0)
    assert back.templates.card_w == 56.0


@pytest.mark.parametrize("text", ["63", "88x63", "63x88x1", "abc", "10x20"])
def test_a_bad_card_size_is_refused(text: str) -> None:
    with pytest.raises(DeckError, match="card size"):
        parse_card_size(text)
    assert parse_card_size("56x87") == (56.0, 87.0)


def test_crop_card_cuts_one_card_out_straight(tmp_path: Path) -> None:
    import cv2

    from companion.vision.deck import FACE_H, FACE_W, CardNotFoundError, crop_card

    frame = np.full((1296, 2304, 3), (60, 40, 30), np.uint8)       # dark cloth
    card = np.full((880, 630, 3), 235, np.uint8)
    card[40:160, 40:200] = (0, 0, 200)                              # a red mark, top left
    h, w = 203, 145                                                 # about 2.3 px per mm
    src = np.float32([[0, 0], [629, 0], [629, 879], [0, 879]])
    dst = np.float32([[1000, 500], [1000 + w, 510], [990 + w, 510 + h], [990, 500 + h]])
    warp = cv2.warpPerspective(card, cv2.getPerspectiveTransform(src, dst), (2304, 1296))
    mask = cv2.warpPerspective(np.full((880, 630), 255, np.uint8),
                               cv2.getPerspectiveTransform(src, dst), (2304, 1296))
    frame[mask > 0] = warp[mask > 0]
    face = crop_card(frame)
    # Upright at its own shape: a 63 x 88 card (145 x 203 px here) stays 63 x 88.
    assert face.shape[0] == FACE_H and abs(face.shape[1] - FACE_W) <= 0.01 * FACE_W
    # The red mark is still at the top left: the card was not turned.
    top_left = face[: FACE_H // 4, : FACE_W // 3].reshape(-1, 3).mean(axis=0)
    bottom_right = face[-FACE_H // 4:, -FACE_W // 3:].reshape(-1, 3).mean(axis=0)
    assert top_left[2] > top_left[0] + 40 and abs(bottom_right[2] - bottom_right[0]) < 20
    with pytest.raises(CardNotFoundError, match="no single card"):
        crop_card(np.full((1296, 2304, 3), 50, np.uint8))
