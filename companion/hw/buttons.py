"""The players' optional push buttons: claim/confirm and pass, one pair per player.

Wiring: each button between its GPIO (see `hardware/pinmap.yaml`) and a ground pin; the
Pi's internal pull-up holds the line high, so no resistor is needed.  A press only *reports*
`(side, role)`; the app asks the referee, which decides.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import Any

from companion.rules.position import SIDES, Side

from .pins import BUTTON_ROLES, ButtonRole, PinMap, make_pin_factory

log = logging.getLogger(__name__)

ButtonCallback = Callable[[Side, ButtonRole], None]


class PlayerButtons:
    """Calls `on_press(side, role)` when a player presses their claim or pass button.

    The callback runs on gpiozero's event thread: it must hand the work over (queue it to
    the referee's worker), never touch Kivy or the referee directly.
    """

    BOUNCE_TIME = 0.05  # seconds: cheap tactile switches bounce for a few milliseconds

    def __init__(self, pin_map: PinMap, on_press: ButtonCallback,
                 pin_factory: Any = None) -> None:
        from gpiozero import Button  # lazily: no GPIO library at module import

        self._factory = pin_factory if pin_factory is not None else make_pin_factory("auto")
        self._on_press = on_press
        self._buttons: list[Any] = []
        try:
            for side in SIDES:
                for role in BUTTON_ROLES:
                    pin = pin_map.button_pin(side, role)
                    if pin is None:
                        continue
                    button = Button(pin, pull_up=True, bounce_time=self.BOUNCE_TIME,
                                    pin_factory=self._factory)
                    button.when_pressed = self._handler(side, role)
                    self._buttons.append(button)
        except Exception:
            self.close()
            raise

    def _handler(self, side: Side, role: ButtonRole) -> Callable[[], None]:
        def pressed() -> None:
            try:
                self._on_press(side, role)
            except Exception:  # noqa: BLE001 - a bad handler must not kill the GPIO thread
                log.exception("the %s %s button handler failed", side, role)
        return pressed

    @property
    def count(self) -> int:
        return len(self._buttons)

    def close(self) -> None:
        buttons, self._buttons = self._buttons, []
        for button in buttons:
            button.close()

    def __enter__(self) -> PlayerButtons:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
