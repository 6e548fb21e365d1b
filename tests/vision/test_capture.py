"""Frame sources: folders, video files, retries with back-off, safe closing."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import geometry
from companion.vision.capture import (FolderSource, OpenCVSource, PiCameraSource, RetryingSource,
                                      open_source)
from companion.vision.errors import CameraError, EndOfStream


def _write_frames(d: Path, n: int) -> list[np.ndarray]:
    d.mkdir(parents=True, exist_ok=True)
    frames = []
    for i in range(n):
        img = np.full((120, 200, 3), 20 * i, np.uint8)
        img[:, :, 2] = 200        # red: BGR order must survive the trip
        cv2.imwrite(str(d / f"f{i:02d}.png"), img)
        frames.append(img)
    return frames


def test_folder_source_reads_in_order_then_ends(tmp_path: Path) -> None:
    frames = _write_frames(tmp_path / "fr", 3)
    with FolderSource(tmp_path / "fr") as src:
        got = list(src)
    assert len(got) == 3
    for f, want in zip(got, frames):
        assert f.main.dtype == np.uint8 and f.main.shape == want.shape
        assert np.array_equal(f.main, want)
        assert f.lores.shape == (geometry.LORES_H, geometry.LORES_W, 3)
    assert [f.index for f in got] == [0, 1, 2]


def test_close_is_safe_twice_and_reading_after_close_fails(tmp_path: Path) -> None:
    _write_frames(tmp_path / "fr", 1)
    src = FolderSource(tmp_path / "fr")
    src.close()
    src.close()
    with pytest.raises(CameraError, match="closed"):
        src.read()


def test_missing_and_empty_folders_are_camera_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="not a folder"):
        FolderSource(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError, match="no image files"):
        FolderSource(tmp_path / "empty")


def test_video_file_source(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (160, 96))
    for i in range(4):
        writer.write(np.full((96, 160, 3), 40 * i, np.uint8))
    writer.release()
    with open_source(str(path)) as src:
        assert isinstance(src, OpenCVSource)
        frames = list(src)
    assert len(frames) == 4 and frames[0].main.shape == (96, 160, 3)
    with pytest.raises(CameraError, match="does not exist"):
        OpenCVSource(str(tmp_path / "gone.avi"))


def test_unknown_source_and_absent_picamera() -> None:
    with pytest.raises(CameraError, match="no camera or file"):
        open_source("/no/such/thing")
    with pytest.raises(CameraError, match="picamera2"):
        PiCameraSource()


def test_retrying_source_backs_off_then_gives_up(tmp_path: Path) -> None:
    """A frame file that disappears is an unplugged camera: retried with growing waits."""
    _write_frames(tmp_path / "fr", 2)
    sleeps: list[float] = []
    src = RetryingSource(lambda: FolderSource(tmp_path / "fr", loop=True),
                         delays=(0.1, 0.2, 0.4), attempts=4, sleep=sleeps.append)
    assert src.read().main.shape == (120, 200, 3)
    for p in (tmp_path / "fr").iterdir():
        p.unlink()
    with pytest.raises(CameraError, match="gave up after 4 attempts"):
        src.read()
    assert sleeps == [0.1, 0.2, 0.4]
    src.close()
    src.close()


def test_retrying_source_recovers_when_the_camera_returns(tmp_path: Path) -> None:
    d = tmp_path / "fr"
    sleeps: list[float] = []

    def plug_back(delay: float) -> None:
        sleeps.append(delay)
        if len(sleeps) == 2:
            _write_frames(d, 1)

    src = RetryingSource(lambda: FolderSource(d), delays=(0.5, 1.0), attempts=5, sleep=plug_back)
    assert src.read().main.shape == (120, 200, 3)
    assert sleeps == [0.5, 1.0]
    with pytest.raises(EndOfStream):
        src.read()
