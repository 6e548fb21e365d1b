"""The players' buttons report (side, role) from gpiozero's mock pins."""

from __future__ import annotations

import threading

from companion.hw.buttons import PlayerButtons
from companion.hw.pins import PinMap


def test_each_button_reports_its_side_and_role(mock_factory, pin_map: PinMap) -> None:
    pressed: list[tuple[str, str]] = []
    done = threading.Event()

    def on_press(side: str, role: str) -> None:
        pressed.append((side, role))
        if len(pressed) == 4:
            done.set()

    with PlayerButtons(pin_map, on_press, pin_factory=mock_factory) as buttons:
        assert buttons.count == 4
        for side, role in (("north", "claim"), ("south", "pass"), ("south", "claim"),
                           ("north", "pass")):
            pin = mock_factory.pin(pin_map.button_pin(side, role))
            pin.drive_low()    # pressed: the switch pulls the line to ground
            pin.drive_high()
        assert done.wait(2)
    assert pressed == [("north", "claim"), ("south", "pass"), ("south", "claim"), ("north", "pass")]
    buttons.close()  # safe twice


def test_a_failing_handler_does_not_break_the_buttons(mock_factory, pin_map: PinMap) -> None:
    calls = []

    def on_press(side: str, role: str) -> None:
        calls.append(side)
        raise RuntimeError("boom")

    with PlayerButtons(pin_map, on_press, pin_factory=mock_factory):
        pin = mock_factory.pin(pin_map.button_pin("north", "pass"))
        pin.drive_low(); pin.drive_high()
        pin.drive_low(); pin.drive_high()
    assert calls == ["north", "north"]
