"""Hostile and odd images: decompression bombs refused by their header, stretched frames read."""

from __future__ import annotations

import shutil
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision import cvcompat
from companion.vision.deck import enrol
from companion.vision.errors import DeckError, ImageError
from companion.vision.pipeline import TableReader
from companion.vision.scale import FrameScale, ScaleNormaliser, measure, resize_factors

from .vision_helpers import deck, deck_dir, frame, sample_scene


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bomb(width: int, height: int) -> bytes:
    """A valid PNG header claiming width x height, with a little zero data: a few hundred bytes."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
            + _chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + _chunk(b"IEND", b""))


def jpeg_bomb(width: int, height: int) -> bytes:
    """A JPEG whose EXIF segment comes first and whose frame header claims width x height."""
    app1 = b"Exif\0\0" + b"\0" * 4000
    sof = struct.pack(">BHHB", 8, height, width, 3) + b"\x01\x11\x00\x02\x11\x01\x03\x11\x01"
    return (b"\xff\xd8" + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1
            + b"\xff\xc2" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xd9")


def bmp_bomb(width: int, height: int) -> bytes:
    return b"BM" + b"\0" * 16 + struct.pack("<ii", width, -height) + b"\0" * 40


def tiff_bomb(width: int, height: int) -> bytes:
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8)]
    ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", *e) for e in entries)
    return b"II*\0" + struct.pack("<I", 8) + ifd + b"\0\0\0\0"


def forbid_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any decode fails the test: a bomb must be refused from its header alone."""
    def refuse(*_: object) -> None:
        raise AssertionError("the image was decoded")
    monkeypatch.setattr(cv2, "imdecode", refuse)


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_decoding(monkeypatch)


@pytest.mark.parametrize("name, make", [
    ("bomb.png", png_bomb), ("bomb.jpg", jpeg_bomb), ("bomb.bmp", bmp_bomb), ("bomb.tif", tiff_bomb),
])
def test_a_huge_image_is_refused_by_its_header(tmp_path: Path, no_decoding: None, name: str,
                                               make: object) -> None:
    path = tmp_path / name
    path.write_bytes(make(30000, 30000))  # type: ignore[operator]
    with pytest.raises(ImageError, match=r"30000x30000 .*900 megapixels\); images over 80 "
                                         "megapixels are refused before decoding"):
        cvcompat.imread(path)


def test_header_sizes_of_real_files(tmp_path: Path) -> None:
    """The probe reads what OpenCV writes, for every format the folder source takes."""
    img = np.zeros((1296, 2304, 3), np.uint8)
    for suffix, kind in ((".png", "PNG"), (".jpg", "JPEG"), (".bmp", "BMP"), (".tif", "TIFF")):
        path = tmp_path / f"frame{suffix}"
        cv2.imwrite(str(path), img)
        assert cvcompat.image_size(path.read_bytes()[:1 << 18]) == (kind, 2304, 1296)
        assert cvcompat.imread(path).shape == (1296, 2304, 3)
    # Large real images are admitted: a 48 MP photo, the frame stretched to 8000x8000.
    for width, height in ((8000, 6000), (8000, 8000)):
        assert cvcompat.check_image_header(tmp_path / "x.png", png_bomb(width, height), 500) == \
            ("PNG", width, height)
    with pytest.raises(ImageError, match="9000x9000"):
        cvcompat.check_image_header(tmp_path / "x.png", png_bomb(9000, 9000), 500)
    with pytest.raises(ImageError, match="images over 200 MB are refused"):
        cvcompat.check_image_header(tmp_path / "x.png", png_bomb(100, 100), 300_000_000)


@pytest.mark.parametrize("data, named", [
    (b"GIF89a....", "not a readable image (PNG, JPEG, BMP or TIFF)"),
    (png_bomb(0, 100), "its PNG header says 0x100"),
    (b"\x89PNG\r\n\x1a\n", "not a readable image"),
])
def test_odd_headers_are_refused(tmp_path: Path, no_decoding: None, data: bytes, named: str) -> None:
    path = tmp_path / "odd.png"
    path.write_bytes(data)
    with pytest.raises(ImageError) as info:
        cvcompat.imread(path)
    assert named in str(info.value)


def test_every_command_refuses_the_bomb_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`scan` reads through cvcompat.imread, as enrolment and the folder source do."""
    bomb = tmp_path / "frame.png"
    bomb.write_bytes(png_bomb(30000, 30000))
    deck_file = tmp_path / "deck.npz"
    deck("classic").save(deck_file)
    forbid_decoding(monkeypatch)
    assert main(["scan", str(bomb), "--deck", str(deck_file)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "refused before decoding" in err
    monkeypatch.undo()  # enrolment decodes the 69 good cards
    cards = tmp_path / "cards"
    shutil.copytree(deck_dir("classic"), cards)
    (cards / "R8.png").write_bytes(png_bomb(30000, 30000))
    with pytest.raises(DeckError, match="R8.png is a 30000x30000 PNG"):
        enrol(cards)


def test_a_stretched_frame_is_read_at_the_rigs_scale() -> None:
    """The issue's frame: 2304x1296 stretched to 8000x8000 lost 30 cards without a word."""
    stretched = cv2.resize(frame("classic"), (8000, 8000), interpolation=cv2.INTER_LINEAR)
    scale = measure(stretched)
    assert scale is not None and scale.tiles == 9 and scale.stretch == pytest.approx(0.5625, rel=0.05)
    with TableReader(deck("classic"), workers=0) as reader:
        obs = reader.read(stretched)
    truth = sample_scene().observation()
    assert obs.flags == truth.flags
    assert obs.offline_north == truth.offline_north and obs.offline_south == truth.offline_south


def test_scale_decisions() -> None:
    assert resize_factors(FrameScale(2.3, 2.3, 9)) is None            # the rig
    assert resize_factors(FrameScale(2.6, 2.55, 9)) is None           # close enough
    fx, fy = resize_factors(FrameScale(4.6, 2.3, 9)) or (0, 0)        # stretched along x
    assert (fx, fy) == pytest.approx((0.5, 1.0))
    fx, fy = resize_factors(FrameScale(6.9, 6.9, 9)) or (0, 0)        # a 3x larger frame
    assert (fx, fy) == pytest.approx((1 / 3, 1 / 3))
    with pytest.raises(ImageError, match="cannot be read below"):
        resize_factors(FrameScale(0.5, 0.5, 9), "a 640x360 frame")


def test_frames_of_the_rigs_size_are_not_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.vision.scale as scale_module

    calls: list[int] = []
    monkeypatch.setattr(scale_module, "measure", lambda f: calls.append(1))
    img = frame("classic")
    assert ScaleNormaliser()(img) is img and calls == []


def test_a_frame_size_whose_tiles_do_not_decode_is_measured_again_only_now_and_then(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A webcam whose tile codes never decode (about 2 px per module) is read as it is; the
    # decode that fails costs a few hundred milliseconds and was tried on every frame.
    import companion.vision.scale as scale_module
    from companion.vision.config import load_config

    every = int(load_config()["images"]["scale_retry_frames"])
    calls: list[int] = []
    monkeypatch.setattr(scale_module, "measure", lambda f: calls.append(1))
    img = np.zeros((1080, 1920, 3), np.uint8)
    norm = ScaleNormaliser()
    for _ in range(2 * every + 1):
        assert norm(img) is img
    assert len(calls) == 3                      # the first frame, then every `every` frames
    norm.reset()                                # a camera moved: measured again at once
    assert norm(img) is img and len(calls) == 4
    other = np.zeros((720, 1280, 3), np.uint8)  # another frame size: its own measure
    assert norm(other) is other and len(calls) == 5
    monkeypatch.setattr(scale_module, "measure",
                        lambda f: calls.append(1) or scale_module.FrameScale(1.6, 1.6, 9))
    for _ in range(every):
        norm(img)
    assert len(calls) == 6 and norm(img).shape[1] > img.shape[1]   # decoded: resized
    assert len(calls) == 6                                          # and kept
