"""Frame sources: folders, video files, retries with back-off, safe closing."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import geometry
from companion.vision.capture import (FolderSource, FrameSource, OpenCVSource, PiCameraSource,
                                      RetryingSource, open_source)
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


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_non_waiting_retrying_source_never_sleeps_and_recovers(tmp_path: Path) -> None:
    """The appliance's source: a failed read raises at once, the next try waits its delay."""
    d = tmp_path / "fr"
    _write_frames(d, 2)
    clock = _Clock()

    def no_sleep(delay: float) -> None:
        raise AssertionError("a non-waiting source slept")

    src = RetryingSource(lambda: FolderSource(d, loop=True), delays=(1.0, 4.0), attempts=None,
                         sleep=no_sleep, wait=False, first=FolderSource(d, loop=True), clock=clock)
    assert src.reopens and src.read().main.shape == (120, 200, 3)
    for p in d.iterdir():
        p.unlink()
    with pytest.raises(CameraError, match="waiting for the camera: .*has disappeared"):
        src.read()   # the frame file is gone: the camera stopped
    with pytest.raises(CameraError, match="waiting for the camera"):
        src.read()   # within the back-off: no try at all (the folder is not even looked at)
    clock.now += 1.5
    with pytest.raises(CameraError, match="holds no image files"):
        src.read()   # tried again and failed: the next delay is longer
    clock.now += 1.5
    with pytest.raises(CameraError, match="waiting for the camera: .*holds no image files"):
        src.read()
    _write_frames(d, 2)   # plugged back
    with pytest.raises(CameraError):
        src.read()   # still within the 4 s back-off
    clock.now += 3.0
    assert src.read().main.shape == (120, 200, 3)
    assert src.failures == 2
    for p in d.iterdir():
        p.unlink()
    with pytest.raises(CameraError):
        src.read()
    _write_frames(d, 1)
    clock.now += 1.01    # a frame reset the back-off: the first delay again
    assert src.read().main.shape == (120, 200, 3)
    src.close()
    src.close()


def test_a_camera_plugged_back_keeps_its_lock() -> None:
    """After `lock()`, a reopened camera gets the same controls (calibration survives)."""
    applied: list[dict[str, object]] = []

    class FakeCamera(FrameSource):
        """A stand-in for the Pi camera."""

        def __init__(self) -> None:
            super().__init__()
            self.name = "fake camera"

        def _read_main(self) -> tuple[np.ndarray, None]:
            return np.zeros((32, 32, 3), np.uint8), None

        def lock(self) -> dict[str, object]:
            return {"ExposureTime": 1000}

        def apply_lock(self, controls: dict[str, object]) -> None:
            applied.append(controls)

    src = RetryingSource(FakeCamera, attempts=None, wait=False, first=FakeCamera())
    assert src.lock() == {"ExposureTime": 1000}
    src._source.close()  # type: ignore[union-attr]  # unplugged: reads now fail ...
    with pytest.raises(CameraError):
        src.read()
    src._next_try = 0.0  # ... and the back-off is over
    assert src.read().main.shape == (32, 32, 3)
    assert applied == [{"ExposureTime": 1000}]
    with pytest.raises(CameraError, match="no exposure or focus to lock"):
        RetryingSource(lambda: FolderSource("."), first=None).lock()


def test_open_source_retries_cameras_only(tmp_path: Path) -> None:
    _write_frames(tmp_path / "fr", 1)
    with open_source(str(tmp_path / "fr"), retry=True) as src:
        assert isinstance(src, FolderSource)  # a folder replayed from its start would lie
    with pytest.raises(CameraError, match="picamera2"):
        open_source(None, retry=True)       # a camera missing at start: one clear error
