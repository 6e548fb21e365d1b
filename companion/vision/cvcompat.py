"""Every OpenCV call whose signature or availability changes between versions (habit 9).

The rest of the pipeline calls these wrappers only, so an OpenCV upgrade touches this file.
Frames are numpy BGR uint8 arrays everywhere in `companion.vision`.
"""

from __future__ import annotations

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


def imread(path: str | Path) -> np.ndarray:
    """A BGR uint8 image from a file; an unreadable file is an `ImageError` naming it.

    `cv2.imread` returns None silently and cannot open every Unicode path on every platform,
    so the bytes are read by numpy and decoded by OpenCV.
    """
    p = Path(path)
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
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
