"""Enrolment on the rig: each card laid alone under the camera, cut out at its own shape,
measured against the flag tiles, and the deck enrolled at the measured size."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.rules.cards import ALL_CARDS
from companion.synth import Scene, printing_named, render
from companion.vision.deck import Deck, capture_card


def _laid(card_index: int, printing: str) -> object:
    """A frame of the rig with one card alone beside the line, upright, and the nine tiles."""
    return render(Scene(offline_south=(ALL_CARDS[card_index],), table_seed=3),
                  printing_named(printing), seed=card_index)


@pytest.mark.parametrize("printing", ["classic", "narrow", "narrow-3"])
def test_the_rig_measures_the_card(printing: str) -> None:
    p = printing_named(printing)
    face, size = capture_card(_laid(7, printing))  # type: ignore[arg-type]
    assert size is not None
    assert abs(size[0] - p.card_w) <= 1.0 and abs(size[1] - p.card_h) <= 1.0, (size, p)
    # Cut at its own shape: a narrow card stays narrow.
    assert abs(face.shape[1] / face.shape[0] - p.card_w / p.card_h) < 0.02


@pytest.mark.slow
def test_deck_enrol_camera_asks_card_by_card_and_goes_on_after_a_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(len(ALL_CARDS)):
        cv2.imwrite(str(frames / f"frame-{i:03d}.png"), _laid(i, "classic"))  # type: ignore[arg-type]
    keep, out = tmp_path / "pictures", tmp_path / "deck.npz"
    args = ["deck", "enrol", "--camera", "--source", str(frames), "--out", str(out),
            "--keep", str(keep), "--settle", "1"]
    # The players stop after five cards: the pictures so far are kept.
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 5 + "q\n"))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "stopped at R6" in err and err.count("cut out, 6") == 5
    assert len(list(keep.glob("*.png"))) == 5 and not out.exists()
    # Run again (the source starts over: its frames from the sixth card on): it goes on.
    for f in sorted(frames.iterdir())[:5]:
        f.unlink()
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 65))
    assert main(args) == 0
    said = capsys.readouterr()
    assert "enrolled 70 cards from the camera (63 x 87.5 mm)" in said.out or \
        "enrolled 70 cards from the camera (63 x 88 mm)" in said.out, said
    assert len(Deck.load(out).cards) == 70


def _pile(codes: tuple[str, ...]) -> object:
    """A frame of the rig with several cards laid on one another beside the line."""
    from companion.rules.cards import BY_CODE
    return render(Scene(offline_south=tuple(BY_CODE[c] for c in codes), table_seed=3),
                  printing_named("classic"), seed=1)


def test_a_stack_of_cards_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    from companion.appliance.enrol import NotOneCardError, capture_frame, read_sizes
    from companion.rules.cards import BY_CODE

    pictures = tmp_path / "pictures"
    # Before the deck's size is known: a stack of three 10s is no single card's size.
    with pytest.raises(NotOneCardError, match="no single card's size") as refused:
        capture_frame(_pile(("R10", "O10", "Y10")), BY_CODE["R1"], pictures)  # type: ignore[arg-type]
    assert isinstance(refused.value.measured, tuple) and refused.value.measured[1] > 115
    assert not (pictures / "R1.png").exists() and read_sizes(pictures) == {}
    # Single cards are taken; once three are measured, their size is the deck's size...
    for i in range(3):
        said = capture_frame(_laid(i, "classic"), ALL_CARDS[i], pictures)  # type: ignore[arg-type]
        assert "cut out, 63" in said
    # ... and two cards on one another, plausible for some deck, are not one card of this one.
    with pytest.raises(NotOneCardError, match=r"not one card of this deck \(63 x 88 mm\)"):
        capture_frame(_pile(("R10", "O10")), ALL_CARDS[3], pictures)  # type: ignore[arg-type]
    assert not (pictures / f"{ALL_CARDS[3].code}.png").exists()
    assert len(read_sizes(pictures)) == 3
    capture_frame(_laid(3, "classic"), ALL_CARDS[3], pictures)  # type: ignore[arg-type]
    assert len(read_sizes(pictures)) == 4
