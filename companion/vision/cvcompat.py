"""Every OpenCV call whose signature or availability changes between versions (habit 9).

The rest of the pipeline calls these wrappers only, so an OpenCV upgrade touches this file.
Frames are numpy BGR uint8 arrays everywhere in `companion.vision`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .errors import ImageError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


def find_contours(mask: np.ndarray, mode: int = cv2.RETR_EXTERNAL,
                  method: int = cv2.CHAIN_APPROX_SIMPLE) -> list[np.ndarray]:
    """Contours of a binary mask (OpenCV 3 returns three values, 4 and later two)."""
    out: Any = cv2.findContours(mask, mode, method)
    contours = out[0] if len(out) == 2 else out[1]
    return list(contours)


def qr_image(text: str) -> np.ndarray:
    """A QR symbol for `text`, one pixel per module, with its quiet zone (uint8, 0 or 255)."""
    if hasattr(cv2, "QRCodeEncoder"):
        encoder = cv2.QRCodeEncoder.create()  # 4.5.3+; the factory moved between releases
        img = encoder.encode(text)
        return np.asarray(img, dtype=np.uint8)
    raise ImageError("this OpenCV build has no QR encoder")  # pragma: no cover


_HEAD_BYTES = 1 << 18  # enough for a JPEG's frame header behind its EXIF and ICC segments


def image_size(head: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) read from the first bytes of a PNG, JPEG, BMP or TIFF file.

    None when `head` is none of these or its header is cut or corrupt.  Reading the header
    costs nothing, while decoding a small file whose header claims 30000x30000 pixels takes
    gigabytes and a minute before OpenCV gives up.
    """
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR" and len(head) >= 24:
        return "PNG", int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head.startswith(b"\xff\xd8"):
        return _jpeg_size(head)
    if head.startswith(b"BM") and len(head) >= 26:
        width = int.from_bytes(head[18:22], "little", signed=True)
        height = int.from_bytes(head[22:26], "little", signed=True)
        return "BMP", abs(width), abs(height)  # a negative height is a top-down bitmap
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(head)
    return None


def _jpeg_size(head: bytes) -> tuple[str, int, int] | None:
    i = 2
    while i + 9 <= len(head):
        if head[i] != 0xFF:
            return None
        marker = head[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        length = int.from_bytes(head[i + 2:i + 4], "big")
        # Start of frame: every SOFn but DHT (C4), JPG (C8) and DAC (CC).
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height = int.from_bytes(head[i + 5:i + 7], "big")
            width = int.from_bytes(head[i + 7:i + 9], "big")
            return "JPEG", width, height
        if length < 2:
            return None
        i += 2 + length
    return None


def _tiff_size(head: bytes) -> tuple[str, int, int] | None:
    order: Any = "little" if head[:2] == b"II" else "big"
    ifd = int.from_bytes(head[4:8], order)
    if ifd + 2 > len(head):
        return None
    size: dict[int, int] = {}
    count = int.from_bytes(head[ifd:ifd + 2], order)
    for k in range(count):
        at = ifd + 2 + 12 * k
        if at + 12 > len(head):
            return None
        tag = int.from_bytes(head[at:at + 2], order)
        kind = int.from_bytes(head[at + 2:at + 4], order)
        if tag in (256, 257):  # ImageWidth, ImageLength: SHORT (3) or LONG (4)
            width = 2 if kind == 3 else 4
            size[tag] = int.from_bytes(head[at + 8:at + 8 + width], order)
    if 256 in size and 257 in size:
        return "TIFF", size[256], size[257]
    return None


def check_image_header(path: Path, head: bytes, file_size: int) -> tuple[str, int, int]:
    """The image's (format, width, height) from its header, or an `ImageError` before decoding.

    Refuses files that are not PNG, JPEG, BMP or TIFF, and images larger than the
    configured limits (`images` in config.yaml), which admit every camera frame and card
    scan but no decompression bomb.
    """
    from .config import load_config

    limits = load_config()["images"]
    if file_size > limits["max_file_mb"] * 1e6:
        raise ImageError(f"{path} is {file_size / 1e6:.0f} MB; images over "
                         f"{limits['max_file_mb']} MB are refused")
    found = image_size(head)
    if found is None:
        raise ImageError(f"{path} is not a readable image (PNG, JPEG, BMP or TIFF)")
    kind, width, height = found
    if width <= 0 or height <= 0:
        raise ImageError(f"{path} is not a readable image: its {kind} header says {width}x{height}")
    if width * height > limits["max_megapixels"] * 1e6:
        raise ImageError(f"{path} is a {width}x{height} {kind} ({width * height / 1e6:.0f} "
                         f"megapixels); images over {limits['max_megapixels']} megapixels are "
                         "refused before decoding")
    return found


def imread(path: str | Path) -> np.ndarray:
    """A BGR uint8 image from a file; an unreadable file is an `ImageError` naming it.

    The header is checked first (`check_image_header`): a small file claiming a huge image is
    refused in milliseconds instead of exhausting memory.  `cv2.imread` returns None silently
    and cannot open every Unicode path on every platform, so the bytes are read by Python and
    decoded by OpenCV.
    """
    p = Path(path)
    try:
        with open(p, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            head = handle.read(_HEAD_BYTES)
            check_image_header(p, head, size)
            data = np.frombuffer(head + handle.read(), dtype=np.uint8)
    except OSError as exc:
        raise ImageError(f"cannot read image {p}: {exc.strerror or exc}") from None
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageError(f"{p} is not a readable image")
    return img


def imwrite(path: str | Path, image: np.ndarray) -> None:
    p = Path(path)
    ok, buf = cv2.imencode(p.suffix or ".png", image)
    if not ok:
        raise ImageError(f"cannot encode an image for {p}")
    buf.tofile(str(p))


def warp_affine(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int],
                border: int = cv2.BORDER_REPLICATE) -> np.ndarray:
    return cv2.warpAffine(image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=border)


def video_capture(spec: int | str) -> Any:
    """A `cv2.VideoCapture`; V4L2 for a device index on Linux (the default backend probes slowly)."""
    if isinstance(spec, int):
        cap = cv2.VideoCapture(spec, cv2.CAP_V4L2) if hasattr(cv2, "CAP_V4L2") else cv2.VideoCapture(spec)
    else:
        cap = cv2.VideoCapture(spec)
    return cap
