"""Enrolling a deck: the versioned file and every bad folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import deck as deck_mod
from companion.vision.deck import Deck, enrol
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
    with pytest.raises(DeckError, match="'R11' is not a Battle Line card code"):
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


def test_two_cards_that_look_alike_are_refused(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    shutil.copy(d / "B4.png", d / "B5.png")
    with pytest.raises(DeckError, match="look the same"):
        enrol(d)


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
    assert face.shape == (FACE_H, FACE_W, 3)
    # The red mark is still at the top left: the card was not turned.
    top_left = face[: FACE_H // 4, : FACE_W // 3].reshape(-1, 3).mean(axis=0)
    bottom_right = face[-FACE_H // 4:, -FACE_W // 3:].reshape(-1, 3).mean(axis=0)
    assert top_left[2] > top_left[0] + 40 and abs(bottom_right[2] - bottom_right[0]) < 20
    with pytest.raises(CardNotFoundError, match="no single card"):
        crop_card(np.full((1296, 2304, 3), 50, np.uint8))
