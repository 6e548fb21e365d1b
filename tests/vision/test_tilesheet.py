"""The printable flag tiles: every code on the sheet reads, the PDF is at real size."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from pyzbar import pyzbar

from companion.errors import CompanionError
from companion.vision.geometry import QR_SIZE, TILE_H, TILE_W
from companion.vision.tilesheet import (
    TileSheetError, pdf_bytes, qr_modules, qr_text, sheet_image, tile_image, write_sheet)

REPO = Path(__file__).resolve().parents[2]


def codes(gray: np.ndarray) -> list[str]:
    return sorted(d.data.decode() for d in pyzbar.decode(gray))


def test_every_code_on_the_sheet_decodes() -> None:
    sheet = sheet_image()
    assert sheet.shape == (3508, 2480)                 # A4 at 300 dpi
    assert codes(sheet) == [f"BL-FLAG-{n}" for n in range(1, 10)]


def test_every_code_on_the_committed_sheet_decodes() -> None:
    # The sheet in calibration/ is what club organisers print: it must match the code.
    png = cv2.imread(str(REPO / "calibration" / "flag-tiles.png"), cv2.IMREAD_GRAYSCALE)
    assert png is not None, "calibration/flag-tiles.png is missing"
    assert codes(png) == [f"BL-FLAG-{n}" for n in range(1, 10)]
    assert np.array_equal(png, sheet_image())


@pytest.mark.parametrize("px_per_mm", [2.0, 2.3, 4.0, 12.0])
def test_single_tiles_decode_at_camera_resolutions(px_per_mm: float) -> None:
    for flag in range(1, 10):
        tile = tile_image(flag, px_per_mm)
        assert tile.shape == (round(TILE_H * px_per_mm), round(TILE_W * px_per_mm), 3)
        framed = cv2.copyMakeBorder(tile, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(60, 90, 120))
        assert codes(cv2.cvtColor(framed, cv2.COLOR_BGR2GRAY)) == [f"BL-FLAG-{flag}"]


def test_tile_is_a_white_and_black_reference() -> None:
    tile = tile_image(5, 10.0)
    assert (tile[0, :] < 40).all() and (tile[:, 0] < 40).all()       # black border
    assert tile[int(8 * 10), int(45 * 10)].min() > 240              # white field


def test_code_is_big_enough() -> None:
    modules = qr_modules(qr_text(1))
    assert modules.shape == (21, 21)                                # version 1
    assert QR_SIZE >= 35.0
    # The code leaves room above for the arrow and below for the number and the flag spot.
    tile = tile_image(1, 10.0)
    gray = tile[:, :, 0]
    rows = np.flatnonzero((gray[:, 100:400] < 128).any(axis=1))
    assert rows.min() < 17 * 10 and rows.max() > 53 * 10


def test_pdf_is_a4_with_one_image(tmp_path: Path) -> None:
    pdf, png = write_sheet(tmp_path)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.276 841.890]" in data
    assert data.count(b"/Subtype /Image") == 1
    # The xref offsets point at the objects they name.
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    entries = data[xref:].split(b"\n")[3:8]
    for number, entry in enumerate(entries, start=1):
        offset = int(entry.split()[0])
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    # The embedded image is the sheet itself.
    start = data.index(b"stream\n") + 7
    length = int(re.search(rb"/Length (\d+) >>\nstream", data).group(1))
    pixels = np.frombuffer(zlib.decompress(data[start:start + length]), np.uint8)
    assert np.array_equal(pixels.reshape(3508, 2480), sheet_image())
    assert b"pHYs" in png.read_bytes()[:100]


@pytest.mark.parametrize("flag", [0, 10, "3"])
def test_bad_flag_is_refused(flag: object) -> None:
    with pytest.raises(TileSheetError, match=str(flag)) as info:
        tile_image(flag, 2.3)  # type: ignore[arg-type]
    assert isinstance(info.value, CompanionError)


def test_bad_pdf_input_is_refused() -> None:
    with pytest.raises(TileSheetError):
        pdf_bytes(np.zeros((4, 4, 3), np.uint8))
