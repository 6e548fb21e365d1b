"""Where frames come from: the Pi camera, an OpenCV capture (USB camera or video file), a folder.

Every source is a `FrameSource` (a context manager whose `close()` is safe twice) returning
`Frame`s: `main` is the full BGR uint8 frame (2304x1296 on the rig) and `lores` a small BGR
frame for the motion detector.  A camera that is missing or unplugged is a `CameraError`;
`RetryingSource` reopens it with a back-off.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from . import cvcompat, geometry
from .errors import CameraError, EndOfStream, ImageError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Frame:
    """One capture: the main BGR frame, the low-resolution BGR frame, a monotonic time."""

    main: np.ndarray
    lores: np.ndarray
    t: float
    index: int


def make_lores(main: np.ndarray, size: tuple[int, int] = (geometry.LORES_W, geometry.LORES_H)
               ) -> np.ndarray:
    """The low-resolution stream for sources that have none of their own."""
    return cv2.resize(main, size, interpolation=cv2.INTER_AREA)


def check_frame(image: object, what: str = "frame") -> np.ndarray:
    """`image` if it is a BGR uint8 array; otherwise an `ImageError` saying what is wrong."""
    if not isinstance(image, np.ndarray):
        raise ImageError(f"{what} is not an image array")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ImageError(f"{what} is not a BGR uint8 image (shape {image.shape}, {image.dtype})")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise ImageError(f"{what} is too small ({image.shape[1]}x{image.shape[0]})")
    return image


class FrameSource(ABC):
    """A source of frames; iterate it, or call `read()` until `EndOfStream`."""

    name: str = "source"

    def __init__(self) -> None:
        self._closed = False
        self._index = 0

    @abstractmethod
    def _read_main(self) -> tuple[np.ndarray, np.ndarray | None]:
        """The next main frame and, when the source has one, its own low-resolution frame."""

    def read(self) -> Frame:
        if self._closed:
            raise CameraError(f"{self.name} is closed")
        main, lores = self._read_main()
        main = check_frame(main, f"a frame from {self.name}")
        frame = Frame(main, lores if lores is not None else make_lores(main),
                      time.monotonic(), self._index)
        self._index += 1
        return frame

    def __iter__(self) -> Iterator[Frame]:
        while True:
            try:
                yield self.read()
            except EndOfStream:
                return

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._release()

    def _release(self) -> None:
        """Free the device; called once."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class FolderSource(FrameSource):
    """The image files of a folder, in name order (a recorded session, a labelled set)."""

    def __init__(self, directory: str | Path, loop: bool = False) -> None:
        super().__init__()
        self.directory = Path(directory)
        self.name = f"frame folder {self.directory}"
        if not self.directory.is_dir():
            raise CameraError(f"{self.directory} is not a folder of frames")
        self.files = sorted(p for p in self.directory.iterdir()
                            if p.suffix.lower() in cvcompat.IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"{self.directory} holds no image files")
        self.loop = loop
        self._pos = 0

    def _read_main(self) -> tuple[np.ndarray, np.ndarray | None]:
        if self._pos >= len(self.files):
            if not self.loop:
                raise EndOfStream(f"{self.name}: no more frames")
            self._pos = 0
        path = self.files[self._pos]
        self._pos += 1
        if not path.exists():
            # The folder lives on removable storage or is being rewritten: like an unplugged camera.
            raise CameraError(f"{path} has disappeared")
        try:
            return cvcompat.imread(path), None
        except ImageError as exc:
            raise CameraError(str(exc)) from None


class OpenCVSource(FrameSource):
    """A USB camera (by index) or a video file through `cv2.VideoCapture`."""

    def __init__(self, spec: int | str, size: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.spec = spec
        self.is_device = isinstance(spec, int)
        self.name = f"camera {spec}" if self.is_device else f"video {spec}"
        if not self.is_device and not Path(str(spec)).exists():
            raise CameraError(f"{spec} does not exist")
        self._cap = cvcompat.video_capture(spec)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"cannot open {self.name}: no such camera or unreadable video")
        if self.is_device and size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def _read_main(self) -> tuple[np.ndarray, np.ndarray | None]:
        ok, img = self._cap.read()
        if not ok or img is None:
            if self.is_device:
                raise CameraError(f"{self.name} stopped delivering frames (unplugged?)")
            raise EndOfStream(f"{self.name}: no more frames")
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        return img, None

    def _release(self) -> None:
        self._cap.release()


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera through picamera2 (imported here only: it exists on the Pi only).

    Two streams: `main` 2304x1296 in `RGB888` (which picamera2 lays out as B, G, R bytes, i.e.
    OpenCV's BGR) and `lores` 320x180 in YUV420 for the motion detector.  After calibration,
    `lock()` freezes exposure, gains, white balance and focus so that colours stay comparable
    with the enrolled deck.
    """

    def __init__(self, camera_num: int = 0,
                 size: tuple[int, int] = (geometry.FRAME_W, geometry.FRAME_H),
                 lores_size: tuple[int, int] = (geometry.LORES_W, geometry.LORES_H)) -> None:
        super().__init__()
        self.name = f"Pi camera {camera_num}"
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CameraError(f"picamera2 is not available ({exc}); use --source") from None
        try:
            self._cam: Any = Picamera2(camera_num)
            config = self._cam.create_video_configuration(
                main={"size": size, "format": "RGB888"},
                lores={"size": lores_size, "format": "YUV420"},
                buffer_count=4)
            self._cam.configure(config)
            self._cam.start()
        except (IndexError, RuntimeError, OSError) as exc:
            raise CameraError(f"cannot start {self.name}: {exc}") from None

    def lock(self, settle_s: float = 2.0) -> dict[str, Any]:
        """Let the automatic loops settle, then freeze them at their current values."""
        time.sleep(settle_s)
        meta = self._cam.capture_metadata()
        controls: dict[str, Any] = {
            "AeEnable": False, "AwbEnable": False,
            "ExposureTime": int(meta["ExposureTime"]),
            "AnalogueGain": float(meta["AnalogueGain"]),
            "ColourGains": tuple(meta["ColourGains"]),
        }
        if "LensPosition" in meta:  # Camera Module 3 has autofocus; older modules do not
            from libcamera import controls as lc  # type: ignore[import-not-found]
            controls["AfMode"] = lc.AfModeEnum.Manual
            controls["LensPosition"] = float(meta["LensPosition"])
        self._cam.set_controls(controls)
        return controls

    def apply_lock(self, controls: dict[str, Any]) -> None:
        """Freeze the camera at controls `lock()` gave before (a camera plugged back)."""
        self._cam.set_controls(controls)

    def _read_main(self) -> tuple[np.ndarray, np.ndarray | None]:
        try:
            request = self._cam.capture_request()
            try:
                main = np.ascontiguousarray(request.make_array("main")[:, :, :3])
                yuv = request.make_array("lores")
            finally:
                request.release()
        except (RuntimeError, OSError) as exc:
            raise CameraError(f"{self.name} stopped delivering frames: {exc}") from None
        return main, cv2.cvtColor(yuv, cv2.COLOR_YUV420p2BGR)

    def _release(self) -> None:
        try:
            self._cam.stop()
        finally:
            self._cam.close()


class RetryingSource(FrameSource):
    """Reopens a source that fails with `CameraError`, waiting longer after each failure.

    The appliance must survive a camera cable being pulled and plugged back: every failure is
    logged, then the source is reopened after `delays[i]` seconds (the last delay repeats).
    After `attempts` failures in a row the `CameraError` is raised to the caller (`None`:
    never give up).

    `wait=False` is for a caller with other work on its thread (the appliance's worker
    answers the players meanwhile): a read never sleeps; a failed read raises its
    `CameraError` at once, saying what the source waits for, and the next read tries again
    only once the back-off delay is over (a read before that raises the same wait again).
    A frame resets the back-off.  `first` is a source already open.
    """

    def __init__(self, opener: Callable[[], FrameSource], delays: tuple[float, ...] = (0.5, 1, 2, 5),
                 attempts: int | None = 10, sleep: Callable[[float], None] = time.sleep, *,
                 wait: bool = True, first: FrameSource | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._opener = opener
        self.delays = delays
        self.attempts = attempts
        self._sleep = sleep
        self._wait = wait
        self._clock = clock
        self._source: FrameSource | None = first
        self.failures = 0
        self._in_a_row = 0
        self._next_try = 0.0
        self._last_error = ""
        self._controls: dict[str, Any] | None = None
        self.name = f"retrying {first.name}" if first is not None else "retrying source"

    reopens = True
    """The appliance's worker keeps going on this source's `CameraError`s: it comes back."""

    def _open(self) -> FrameSource:
        source = self._opener()
        self.name = f"retrying {source.name}"
        if self._controls is not None and hasattr(source, "apply_lock"):
            source.apply_lock(self._controls)  # a camera plugged back keeps its calibration
        return source

    def _failed(self, exc: CameraError) -> float:
        """Count a failure, drop the source; the delay before the next try."""
        self.failures += 1
        self._in_a_row += 1
        self._last_error = str(exc)
        if self._source is not None:
            self._source.close()
            self._source = None
        if self.attempts is not None and self._in_a_row >= self.attempts:
            raise CameraError(f"{exc} (gave up after {self._in_a_row} attempts)") from None
        return self.delays[min(self._in_a_row - 1, len(self.delays) - 1)]

    def _read_main(self) -> tuple[np.ndarray, np.ndarray | None]:
        while True:
            if not self._wait and self._source is None and self._clock() < self._next_try:
                raise CameraError(f"waiting for the camera: {self._last_error}")
            try:
                if self._source is None:
                    self._source = self._open()
                frame = self._source.read()
            except CameraError as exc:
                delay = self._failed(exc)
                log.warning("%s; retrying in %.1f s", exc, delay)
                if not self._wait:
                    self._next_try = self._clock() + delay
                    raise CameraError(f"waiting for the camera: {exc}") from None
                self._sleep(delay)
                continue
            self._in_a_row = 0
            return frame.main, frame.lores

    def lock(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The camera's `lock()` (Pi camera), kept and applied again after a reopen."""
        lock = getattr(self._source, "lock", None)
        if lock is None:
            raise CameraError(f"{self.name} has no exposure or focus to lock")
        self._controls = dict(lock(*args, **kwargs))
        return self._controls

    def _release(self) -> None:
        if self._source is not None:
            self._source.close()


def open_source(spec: str | int | None = None, retry: bool = False) -> FrameSource:
    """The source a `--source` option names: `picamera` (or None), a camera index, a video, a folder.

    `retry`: a camera (the Pi camera or a USB index) comes as a non-waiting `RetryingSource`
    that reopens it when it stops and comes back (the appliance); it is opened once here, so
    a camera missing at start is still one clear error.  A folder or a video is never
    reopened: it would start again from its first frame.
    """
    if spec is None or spec == "picamera":
        if retry:
            return RetryingSource(PiCameraSource, attempts=None, wait=False, first=PiCameraSource())
        return PiCameraSource()
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        index = int(spec)
        if retry:
            return RetryingSource(lambda: OpenCVSource(index), attempts=None, wait=False,
                                  first=OpenCVSource(index))
        return OpenCVSource(index)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if path.exists():
        return OpenCVSource(str(path))
    raise CameraError(f"no camera or file named {spec!r}")


__all__ = ["Frame", "FrameSource", "FolderSource", "OpenCVSource", "PiCameraSource",
           "RetryingSource", "check_frame", "make_lores", "open_source"]
