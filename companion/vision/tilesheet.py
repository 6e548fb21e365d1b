"""The printable flag tiles: one tile image at any resolution, and the A4 sheet as PNG and PDF.

A tile is `TILE_W`x`TILE_H` mm, its top edge towards the north player: an arrow and "NORTH"
at the top, the QR code `BL-FLAG-n` (with its quiet zone, `QR_SIZE` mm) in the middle, the
flag number in large digits and the spot where the flag piece stands at the bottom.  A thin
black border around a white field makes each tile a black/white reference for colour.
Images are BGR (tiles) or single-channel (the sheet), uint8.
"""

from __future__ import annotations

import functools
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.rules.position import FLAG_COUNT
from companion.vision.geometry import QR_SIZE, TILE_H, TILE_W

QR_PREFIX = "BL-FLAG-"
SHEET_DPI = 300
A4_MM = (210.0, 297.0)
MM_PER_INCH = 25.4
QUIET_MODULES = 4                 # the QR standard's quiet zone, in modules, on every side
_DRAW_PX_PER_MM = 12.0            # tiles are drawn this fine, then reduced (INTER_AREA)
_FONT = cv2.FONT_HERSHEY_DUPLEX


class TileSheetError(CompanionError, ValueError):
    """A flag number or a resolution the tile drawing cannot use."""


def qr_text(flag: int) -> str:
    """The text a flag tile's QR code carries (`BL-FLAG-3`)."""
    _check_flag(flag)
    return f"{QR_PREFIX}{flag}"


def qr_modules(text: str) -> np.ndarray:
    """The QR symbol of `text` as a bool matrix (True = dark), without any quiet zone.

    Level H error correction: a finger or the flag piece's shadow may hide a corner.
    """
    if not hasattr(cv2, "QRCodeEncoder"):
        raise TileSheetError("this OpenCV build has no QR encoder (OpenCV 4.5.3 or later)")
    # The parameters class is nested in some OpenCV releases and flat in others.
    make = getattr(cv2.QRCodeEncoder, "Params", None) or getattr(cv2, "QRCodeEncoder_Params")
    params = make()
    params.correction_level = cv2.QRCODE_ENCODER_CORRECT_LEVEL_H
    img = cv2.QRCodeEncoder.create(params).encode(text)
    dark = img < 128
    # OpenCV adds its own (narrow) border; cut it so the quiet zone is ours to size.
    rows = np.flatnonzero(dark.any(axis=1))
    cols = np.flatnonzero(dark.any(axis=0))
    return np.ascontiguousarray(dark[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1])


def _check_flag(flag: int) -> None:
    if not isinstance(flag, int) or not 1 <= flag <= FLAG_COUNT:
        raise TileSheetError(f"flag tile number {flag!r} is not a flag 1-{FLAG_COUNT}")


def _fit_text(text: str, width: float, height: float, thickness: int) -> float:
    """The Hershey font scale that makes `text` fit a `width`x`height` px box."""
    (w, h), _ = cv2.getTextSize(text, _FONT, 1.0, thickness)
    return min(width / max(w, 1), height / max(h, 1))


def _draw_tile(flag: int, s: float) -> np.ndarray:
    """The tile drawn at `s` px/mm, single channel (0 black, 255 white)."""
    w, h = int(round(TILE_W * s)), int(round(TILE_H * s))
    img = np.full((h, w), 255, np.uint8)

    def p(x: float, y: float) -> tuple[int, int]:
        return int(round(x * s)), int(round(y * s))

    # Thin black border: the cut line, and the black reference for colour.
    border = max(1, int(round(0.8 * s)))
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), 0, border * 2 - 1 if border > 1 else 1)

    # QR with its quiet zone, centred: QR_SIZE mm overall.
    modules = qr_modules(qr_text(flag))
    n = modules.shape[0] + 2 * QUIET_MODULES
    module_mm = QR_SIZE / n
    qx0 = (TILE_W - QR_SIZE) / 2 + QUIET_MODULES * module_mm
    qy0 = (TILE_H - QR_SIZE) / 2 + QUIET_MODULES * module_mm
    for r, c in zip(*np.nonzero(modules)):
        x0, y0 = qx0 + c * module_mm, qy0 + r * module_mm
        img[int(round(y0 * s)):int(round((y0 + module_mm) * s)),
            int(round(x0 * s)):int(round((x0 + module_mm) * s))] = 0

    top_band = (TILE_H - QR_SIZE) / 2          # 17 mm above and below the code
    # Arrow towards north and the word, so the tile is never laid upside down.
    ax, ay = 10.0, top_band / 2
    arrow = np.array([p(ax, ay - 5.5), p(ax - 4.5, ay + 1.0), p(ax - 1.6, ay + 1.0),
                      p(ax - 1.6, ay + 5.5), p(ax + 1.6, ay + 5.5), p(ax + 1.6, ay + 1.0),
                      p(ax + 4.5, ay + 1.0)], np.int32)
    cv2.fillPoly(img, [arrow], 0, cv2.LINE_AA)
    thick = max(1, int(round(0.55 * s)))
    scale = _fit_text("NORTH", 28.0 * s, 5.5 * s, thick)
    (tw, th), _ = cv2.getTextSize("NORTH", _FONT, scale, thick)
    cv2.putText(img, "NORTH", (int(round(17.5 * s)), int(round(ay * s + th / 2))),
                _FONT, scale, 0, thick, cv2.LINE_AA)

    # The flag number, large, bottom left.
    by = TILE_H - top_band
    digit = str(flag)
    thick = max(1, int(round(1.4 * s)))
    scale = _fit_text(digit, 14.0 * s, 11.5 * s, thick)
    (tw, th), _ = cv2.getTextSize(digit, _FONT, scale, thick)
    cv2.putText(img, digit, (int(round(12.0 * s - tw / 2)),
                             int(round((by + top_band / 2) * s + th / 2))),
                _FONT, scale, 0, thick, cv2.LINE_AA)

    # The flag spot, bottom right: a ring with a cross, clear of the code's quiet zone.
    cx, cy, rad = 35.0, by + top_band / 2, 6.5
    cv2.circle(img, p(cx, cy), int(round(rad * s)), 0, max(1, int(round(0.5 * s))), cv2.LINE_AA)
    for dx, dy in ((1, 0), (0, 1)):
        cv2.line(img, p(cx - dx * 2.5, cy - dy * 2.5), p(cx + dx * 2.5, cy + dy * 2.5), 0,
                 max(1, int(round(0.35 * s))), cv2.LINE_AA)
    thick = max(1, int(round(0.3 * s)))
    scale = _fit_text("FLAG", 8.0 * s, 2.2 * s, thick)
    (tw, th), _ = cv2.getTextSize("FLAG", _FONT, scale, thick)
    cv2.putText(img, "FLAG", (int(round(cx * s - tw / 2)), int(round((cy - rad - 0.8) * s))),
                _FONT, scale, 0, thick, cv2.LINE_AA)
    return img


@functools.lru_cache(maxsize=FLAG_COUNT)
def _tile_fine(flag: int) -> np.ndarray:
    """The tile drawn at the fine resolution every smaller one is reduced from."""
    return _draw_tile(flag, _DRAW_PX_PER_MM)


@functools.lru_cache(maxsize=64)
def _tile_gray(flag: int, px_per_mm: float) -> np.ndarray:
    if px_per_mm >= _DRAW_PX_PER_MM:
        return _draw_tile(flag, px_per_mm)
    big = _tile_fine(flag)
    size = (int(round(TILE_W * px_per_mm)), int(round(TILE_H * px_per_mm)))
    return cv2.resize(big, size, interpolation=cv2.INTER_AREA)


def tile_image(flag: int, px_per_mm: float) -> np.ndarray:
    """One flag tile, upright (north at the top), BGR uint8, at `px_per_mm`.

    Cached per (flag, resolution); the caller gets its own copy.
    """
    _check_flag(flag)
    if not 0.05 <= px_per_mm <= 50:
        raise TileSheetError(f"tile resolution {px_per_mm!r} px/mm is out of range 0.05-50")
    return cv2.cvtColor(_tile_gray(flag, float(px_per_mm)), cv2.COLOR_GRAY2BGR)


# -- the A4 sheet -------------------------------------------------------------------------------
def sheet_image(dpi: int = SHEET_DPI) -> np.ndarray:
    """The A4 portrait sheet with the nine tiles, crop marks and a 100 mm ruler, single channel."""
    s = dpi / MM_PER_INCH
    w, h = int(round(A4_MM[0] * s)), int(round(A4_MM[1] * s))
    sheet = np.full((h, w), 255, np.uint8)

    def p(x: float, y: float) -> tuple[int, int]:
        return int(round(x * s)), int(round(y * s))

    gap = 12.0
    grid_w = 3 * TILE_W + 2 * gap
    x0 = (A4_MM[0] - grid_w) / 2
    y0 = 22.0
    thick = max(1, int(round(0.5 * s)))
    title = "Battle Line companion - flag tiles (print at 100%, top edge towards NORTH)"
    scale = _fit_text(title, (A4_MM[0] - 30) * s, 4.0 * s, thick)
    cv2.putText(sheet, title, p(15, 14), _FONT, scale, 0, thick, cv2.LINE_AA)
    thin = max(1, int(round(0.25 * s)))
    for i in range(FLAG_COUNT):
        row, col = divmod(i, 3)
        tx = x0 + col * (TILE_W + gap)
        ty = y0 + row * (TILE_H + gap)
        tile = _draw_tile(i + 1, s)
        px, py = p(tx, ty)
        sheet[py:py + tile.shape[0], px:px + tile.shape[1]] = tile
        # Crop marks just outside each corner: cut along the tile's black border.
        for cx in (tx, tx + TILE_W):
            for cy in (ty, ty + TILE_H):
                dx = -1 if cx == tx else 1
                dy = -1 if cy == ty else 1
                cv2.line(sheet, p(cx + dx * 1.5, cy), p(cx + dx * 5.0, cy), 0, thin)
                cv2.line(sheet, p(cx, cy + dy * 1.5), p(cx, cy + dy * 5.0), 0, thin)

    # A 100 mm ruler with 10 mm ticks: measure it to check the print scale.
    ry = y0 + 3 * TILE_H + 2 * gap + 14.0
    rx = (A4_MM[0] - 100.0) / 2
    cv2.line(sheet, p(rx, ry), p(rx + 100, ry), 0, thick)
    for k in range(11):
        tick = 5.0 if k % 5 == 0 else 3.0
        cv2.line(sheet, p(rx + 10 * k, ry), p(rx + 10 * k, ry - tick), 0, thin)
    for k in range(0, 101, 1):
        if k % 10:
            cv2.line(sheet, p(rx + k, ry), p(rx + k, ry - 1.5), 0, thin)
    label = "this ruler must measure exactly 100 mm"
    scale = _fit_text(label, 100 * s, 3.0 * s, thin)
    (tw, _), _ = cv2.getTextSize(label, _FONT, scale, thin)
    cv2.putText(sheet, label, (int(round((rx + 50) * s - tw / 2)), p(0, ry + 6.0)[1]),
                _FONT, scale, 0, thin, cv2.LINE_AA)
    notes = (f"Tiles {TILE_W:.0f} x {TILE_H:.0f} mm, codes {QR_SIZE:.0f} mm with their quiet zone. "
             "Cut along the outside of each black border.",
             "Lay them in a line, flag 1 on south's left, about 90 mm apart, arrows to north; "
             "camera above flag 5. See calibration/flag-tiles.md.")
    scale = min(_fit_text(n, (A4_MM[0] - 30) * s, 3.0 * s, thin) for n in notes)
    for k, note in enumerate(notes):
        cv2.putText(sheet, note, p(15, ry + 14.0 + 5.5 * k), _FONT, scale, 0, thin, cv2.LINE_AA)
    return sheet


def _png_with_dpi(gray: np.ndarray, dpi: int) -> bytes:
    """PNG bytes carrying a pHYs chunk, so image viewers and printers know the real size."""
    ok, buf = cv2.imencode(".png", gray)
    if not ok:
        raise TileSheetError("OpenCV could not encode the tile sheet as PNG")
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4          # signature, IHDR length+type, IHDR data, CRC
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def pdf_bytes(gray: np.ndarray, page_mm: tuple[float, float] = A4_MM) -> bytes:
    """A one-page PDF showing `gray` (single channel) over the whole page, at real size."""
    if gray.ndim != 2 or gray.dtype != np.uint8:
        raise TileSheetError("the PDF sheet must be a single-channel uint8 image")
    h, w = gray.shape
    pw, ph = page_mm[0] * 72 / MM_PER_INCH, page_mm[1] * 72 / MM_PER_INCH
    image = zlib.compress(np.ascontiguousarray(gray).tobytes(), 9)
    content = f"q {pw:.3f} 0 0 {ph:.3f} 0 0 cm /Im0 Do Q\n".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.3f} {ph:.3f}] "
         "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(image)} >>\nstream\n").encode()
        + image + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"endstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


def write_sheet(directory: Path | str, dpi: int = SHEET_DPI) -> tuple[Path, Path]:
    """Write `flag-tiles.pdf` (A4, real size) and `flag-tiles.png` into `directory`."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    gray = sheet_image(dpi)
    pdf, png = directory / "flag-tiles.pdf", directory / "flag-tiles.png"
    pdf.write_bytes(pdf_bytes(gray))
    png.write_bytes(_png_with_dpi(gray, dpi))
    return pdf, png


def main() -> None:
    """Regenerate the committed sheet: `python -m companion.vision.tilesheet [DIR]`."""
    import sys
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("calibration")
    for path in write_sheet(target):
        print(path)


if __name__ == "__main__":
    main()


__all__ = ["QR_PREFIX", "TileSheetError", "pdf_bytes", "qr_modules", "qr_text", "sheet_image",
           "tile_image", "write_sheet"]
