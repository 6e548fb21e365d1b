"""`companion deck enrol`, `companion scan` and `companion vision`: output and exit status."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main

from .vision_helpers import deck, deck_dir, frame, sample_scene


@pytest.fixture(scope="module")
def deck_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deck") / "classic.npz"
    assert main(["deck", "enrol", str(deck_dir("classic")), "--out", str(out)]) == 0
    return out


def test_enrol_and_scan(deck_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                        ) -> None:
    img = tmp_path / "table.png"
    cv2.imwrite(str(img), frame("classic"))
    capsys.readouterr()
    assert main(["scan", str(img), "--deck", str(deck_file)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "battleline-observation/1"
    truth = sample_scene().observation().to_json()
    assert doc["flags"] == truth["flags"]
    assert doc["offline"] == truth["offline"]


def _fails(argv: list[str], capsys: pytest.CaptureFixture[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_inputs_give_one_line_and_status_2(deck_file: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((1296, 2304, 3), 90, np.uint8))
    _fails(["scan", str(blank), "--deck", str(deck_file)], capsys, "no flag tile")
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"nope")
    _fails(["scan", str(broken), "--deck", str(deck_file)], capsys, "is not a readable image")
    _fails(["scan", str(tmp_path / "none.png"), "--deck", str(deck_file)], capsys,
           "cannot read image")
    _fails(["scan", str(blank), "--deck", str(tmp_path / "none.npz")], capsys, "no deck file")
    (tmp_path / "empty").mkdir()
    _fails(["deck", "enrol", str(tmp_path / "empty"), "--out", str(tmp_path / "d.npz")], capsys,
           "holds no card images")
    odd = tmp_path / "odd"
    odd.mkdir()
    cv2.imwrite(str(odd / "JOKER.png"), np.full((88, 63, 3), 200, np.uint8))
    _fails(["deck", "enrol", str(odd), "--out", str(tmp_path / "d.npz")], capsys,
           "'JOKER' is not a card code")


def test_enrol_takes_a_card_size_and_reports_look_alike_pairs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil
    cards = tmp_path / "cards"
    shutil.copytree(deck_dir("classic"), cards)
    shutil.copy(cards / "G2.png", cards / "G3.png")
    out = tmp_path / "d.npz"
    capsys.readouterr()
    assert main(["deck", "enrol", str(cards), "--out", str(out), "--card-size", "63x88"]) == 0
    said = capsys.readouterr().out
    assert "G2 and G3" in said and str(tmp_path / "d.pairs") in said
    assert (tmp_path / "d.pairs" / "G2-G3.png").is_file()
    _fails(["deck", "enrol", str(cards), "--out", str(out), "--card-size", "56x87"], capsys,
           "not a card face of 56x87 mm")
    _fails(["deck", "enrol", str(cards), "--out", str(out), "--card-size", "big"], capsys,
           "card size 'big' is not WxH")


def test_enrol_says_when_the_band_network_cannot_tell_the_printing_apart(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from dataclasses import replace

    from companion.commands.vision import _report_enrolment
    from companion.vision.deck import Deck

    dk = deck("classic")
    _report_enrolment(dk, tmp_path / "d.npz")
    assert "band network" not in capsys.readouterr().out
    weak = Deck(dk.cards, dk.faces, dk.px_per_mm, dk.source, dk.card_size, dk.pairs, dk.stock)
    weak._templates = replace(dk.templates, net_trust=0.6)
    _report_enrolment(weak, tmp_path / "d.npz")
    assert "in only 60% of camera-like views" in capsys.readouterr().out


def test_scan_refuses_a_frame_with_a_tile_twice(deck_file: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    img = frame("classic").copy()
    img[1000:1200, 100:300] = img[550:750, 250:450]     # flag 1's tile, copied elsewhere
    path = tmp_path / "twice.png"
    cv2.imwrite(str(path), img)
    _fails(["scan", str(path), "--deck", str(deck_file)], capsys, "appears twice")


def test_synth_then_evaluate(deck_file: Path, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "set"
    assert main(["vision", "synth", str(d), "--count", "1", "--printing", "classic",
                 "--seed", "2", "--clean"]) == 0
    assert main(["vision", "evaluate", str(d), "--deck", str(deck_file)]) == 0
    out = capsys.readouterr().out
    assert "cards right" in out and "tiles right      9/9" in out
    _fails(["vision", "synth", str(d), "--count", "0"], capsys, "--count must be at least 1")
