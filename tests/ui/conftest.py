"""Drive the real Kivy app headless (under xvfb-run): one window per test process, a fresh
app per test, the event loop stepped by hand, screenshots to `artifacts_dir`."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
os.environ.setdefault("KIVY_HOME", str(Path(__file__).resolve().parents[2] / ".venv" / "kivy-home"))

if not os.environ.get("DISPLAY"):
    pytest.skip("the UI tests need a display: run them under xvfb-run", allow_module_level=True)

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("input", "mouse", "mouse,disable_multitouch")


class Driver:
    """A running app and the means to step it, wait for it, tap it and photograph it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def pump(self, seconds: float = 0.05) -> None:
        from kivy.base import EventLoop
        end = time.monotonic() + seconds
        while True:
            EventLoop.idle()
            if time.monotonic() >= end:
                return

    def until(self, predicate: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
        from kivy.base import EventLoop
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            EventLoop.idle()
            if predicate():
                self.pump(0.05)
                return
            time.sleep(0.005)
        raise AssertionError(f"timed out waiting for {what or predicate}")

    def screen(self, name: str | None = None) -> Any:
        manager = self.app.root
        return manager.get_screen(name or manager.current)

    def press(self, widget: Any) -> None:
        """A real touch: down and up at the widget's centre, through the window."""
        from kivy.core.window import Window
        from kivy.tests.common import UnitTestTouch

        self.pump(0.05)   # let a screen just switched to lay itself out
        assert not widget.disabled, f"{widget} is disabled"
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.pump(0.05)

    def shot(self, directory: Path, name: str) -> Path:
        from kivy.core.window import Window
        self.pump(0.15)
        path = directory / f"{name}-{Window.width}x{Window.height}.png"
        self.app.root.export_to_png(str(path))
        return path

    def shot_window(self, directory: Path, name: str) -> Path:
        """The whole window, popups included."""
        from kivy.core.window import Window
        self.pump(0.3)
        path = directory / f"{name}-{Window.width}x{Window.height}.png"
        Window.screenshot(str(path))
        # Kivy numbers screenshots it saves ("name0001.png"): keep the name asked for.
        saved = sorted(directory.glob(f"{path.stem}*.png"), key=lambda p: p.stat().st_mtime)
        if saved and saved[-1] != path:
            saved[-1].replace(path)
        return path


@pytest.fixture
def start_app() -> Iterator[Callable[..., Driver]]:
    """Start a `CompanionApp` (same arguments); stopped and removed after the test."""
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.ui.app import CompanionApp

    apps: list[Any] = []

    def start(make_referee: Callable[..., Any], inputs: dict[str, Any] | None = None,
              size: tuple[int, int] = (800, 480), **kwargs: Any) -> Driver:
        """`inputs`: the `Session`'s (frames from a source and a reader, or observations)."""
        from companion.appliance.eyes import load_reader
        from companion.appliance.session import Session
        from companion.ui.prefs import Prefs

        EventLoop.ensure_window()
        Window.size = size
        kwargs.setdefault("failsafe", False)
        prefs = kwargs.get("prefs") or Prefs()
        session = Session(make_referee(prefs), leds=kwargs.get("leds"),
                          reader_factory=load_reader, **(inputs or {}))
        app = CompanionApp(make_referee, session, **kwargs)
        apps.append(app)
        app._run_prepare()
        driver = Driver(app)
        driver.until(lambda: app.ready, what="the first frame")
        return driver

    yield start
    for app in apps:
        app.dispatch("on_stop")
        app.close()
        for child in list(Window.children):
            Window.remove_widget(child)
        App._running_app = None

