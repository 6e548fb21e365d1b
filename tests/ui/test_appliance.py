"""The app as the appliance: systemd notifications from the Kivy loop, LEDs following the
referee, the players' buttons going through the referee, the failsafe screen."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from companion.hw.buttons import PlayerButtons
from companion.hw.leds import FlagLamps, FlagLeds, Lamp
from companion.hw.pins import load_pin_map, make_pin_factory
from companion.hw.sdnotify import SdNotify
from companion.referee.referee import Referee

from .scripted import OPENING, observations


def make_referee(prefs):
    return Referee()


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")       # ping every 0.1 s
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    yield sock
    sock.close()


def received(sock: socket.socket) -> list[bytes]:
    out = []
    while True:
        try:
            out.append(sock.recv(256))
        except BlockingIOError:
            return out


def test_ready_watchdog_leds_and_buttons(start_app, notify_socket, artifacts_dir) -> None:
    factory = make_pin_factory("mock")
    pin_map = load_pin_map()
    with FlagLeds(pin_map, pin_factory=factory) as leds, SdNotify() as notifier:
        ui = start_app(make_referee, {"observations": list(observations(OPENING)), "pace": False},
                       leds=leds, notifier=notifier,
                       buttons_factory=lambda cb: PlayerButtons(pin_map, cb, pin_factory=factory))
        app = ui.app
        ui.until(lambda: len(app.view.actions) == 5, what="the opening")
        ui.pump(0.35)
        messages = received(notify_socket)
        assert messages[0].startswith(b"READY=1")
        assert messages.count(b"WATCHDOG=1") >= 2      # pinged from the Kivy loop
        # South's Wedge at flag 1 cannot be beaten: the south LED of flag 1 is lit.
        assert leds.lamps[0] == FlagLamps(Lamp.OFF, Lamp.ON)
        assert factory.pin(pin_map.led_pin(1, "south")).state == 1

        # South presses their claim button: the referee checks and commits the claim.
        pin = factory.pin(pin_map.button_pin("south", "claim"))
        pin.drive_low(); pin.drive_high()
        ui.until(lambda: app.view.flag(1).claimed == "south", what="the button's claim")
        assert app.view.actions[-1] == "S CLAIM 1"
        assert leds.lamps[0] == FlagLamps(Lamp.OFF, Lamp.OWNED)
        assert factory.pin(pin_map.led_pin(1, "south")).state == pytest.approx(
            pin_map.claimed_brightness)
        ui.shot(artifacts_dir, "table-claimed")
        app.close()
        assert received(notify_socket)[-1] == b"STOPPING=1"
        assert all(lamp == FlagLamps() for lamp in leds.lamps)   # off between games
    factory.close()


def test_a_failing_handler_shows_the_failsafe_screen(start_app, artifacts_dir) -> None:
    from kivy.clock import Clock

    ui = start_app(make_referee, {}, failsafe=True)
    app = ui.app

    def broken(dt: float) -> None:
        raise RuntimeError("the LED strip is unplugged")
    Clock.schedule_once(broken, 0)
    ui.until(lambda: app.root.current == "failsafe", what="the failsafe screen")
    assert "unplugged" in app.failsafe_text and app.failures == 1
    ui.shot(artifacts_dir, "failsafe")
    ui.press(ui.screen("failsafe").ids.back)
    assert app.root.current == "table"
