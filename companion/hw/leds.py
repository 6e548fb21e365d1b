"""The flag LEDs: two per flag, one on each player's side of the tile, following the
referee's state.

Wiring: per flag two single LEDs of one colour, each cathode to ground, each anode through a
470 Ω resistor to its GPIO (`hardware/pinmap.yaml`, `hardware/wiring.md`).  An LED's place
says whose it is, never its colour (no red/green pair).  North's LED lit: north can claim the
flag now; south's: south can.  Both blinking: a violation or a doubtful read waits at that
flag.  The owner's LED, dim (or long-on, short-off without PWM): the flag is claimed.
Everything off between games.

LEDs change in one place: `FlagLeds.show(state)`, called with each new state.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from companion.rules.position import FLAG_COUNT, SIDES, Side
from companion.referee.display import IDLE, Display

from .pins import PinMap, make_pin_factory


class Lamp(enum.Enum):
    OFF = "off"
    ON = "on"          # this player can claim the flag now
    BLINK = "blink"    # a violation or a doubtful read waits here
    OWNED = "owned"    # claimed by this player: dim, or a long-on/short-off pattern


@dataclass(frozen=True, slots=True)
class FlagLamps:
    north: Lamp = Lamp.OFF
    south: Lamp = Lamp.OFF

    def of(self, side: Side) -> Lamp:
        return self.north if side == "north" else self.south


DARK = tuple(FlagLamps() for _ in range(FLAG_COUNT))

BLINK_ON, BLINK_OFF = 0.25, 0.25        # attention: fast, both LEDs together
OWNED_ON, OWNED_OFF = 1.7, 0.3          # claimed, when the pins cannot dim


def lamps_for(view: Display | None) -> tuple[FlagLamps, ...]:
    """What each flag's lights should do for this view (pure: the tests check it directly)."""
    if view is None or not view.in_game:
        return DARK
    attention = view.attention()
    out = []
    for f in view.flags:
        if f.claimed is not None:
            # A claim is final: the owner's LED, whatever else is reported there.
            owned = FlagLamps(north=Lamp.OWNED) if f.claimed == "north" else FlagLamps(south=Lamp.OWNED)
            out.append(owned)
        elif f.number in attention:
            out.append(FlagLamps(Lamp.BLINK, Lamp.BLINK))
        elif view.winner is not None:
            out.append(FlagLamps())
        else:
            out.append(FlagLamps(Lamp.ON if f.claimable("north") else Lamp.OFF,
                                 Lamp.ON if f.claimable("south") else Lamp.OFF))
    return tuple(out)


class FlagLeds:
    """Drives the 18 LED channels of the pin map; `show(state)` is the only way they change."""

    def __init__(self, pin_map: PinMap, pin_factory: Any = None) -> None:
        from gpiozero import LED, PWMLED  # lazily: no GPIO library at module import

        self.pin_map = pin_map
        self._factory = pin_factory if pin_factory is not None else make_pin_factory("auto")
        self._devices: dict[tuple[int, Side], Any] = {}
        self._lamps: list[FlagLamps] = list(DARK)
        cls = PWMLED if pin_map.pwm else LED
        try:
            for n in range(1, FLAG_COUNT + 1):
                for side in SIDES:
                    self._devices[(n, side)] = cls(pin_map.led_pin(n, side),
                                                   active_high=pin_map.active_high,
                                                   initial_value=0, pin_factory=self._factory)
        except Exception:
            self.close()
            raise

    @property
    def lamps(self) -> tuple[FlagLamps, ...]:
        """What the LEDs show now."""
        return tuple(self._lamps)

    def show(self, state: Any) -> None:
        """Follow a new state: a `RefereeState`, a `Display`, or None (between games).

        Only channels whose lamp changed are touched, so a blinking flag keeps its rhythm
        while frames stream in.
        """
        if self._devices == {}:
            return
        if state is None:
            view: Display | None = IDLE
        elif isinstance(state, Display):
            view = state
        else:
            from companion.referee.display import display_of
            view = display_of(state)
        for n, lamps in enumerate(lamps_for(view), start=1):
            if lamps == self._lamps[n - 1]:
                continue
            for side in SIDES:
                if lamps.of(side) != self._lamps[n - 1].of(side) or lamps.of(side) is Lamp.BLINK:
                    self._drive(self._devices[(n, side)], lamps.of(side))
            self._lamps[n - 1] = lamps

    def _drive(self, device: Any, lamp: Lamp) -> None:
        if lamp is Lamp.OFF:
            device.off()
        elif lamp is Lamp.ON:
            device.on()
        elif lamp is Lamp.BLINK:
            # Restarted on both LEDs together so that they blink in phase.
            device.blink(on_time=BLINK_ON, off_time=BLINK_OFF)
        elif self.pin_map.pwm:
            device.value = self.pin_map.claimed_brightness
        else:
            device.blink(on_time=OWNED_ON, off_time=OWNED_OFF)

    def off(self) -> None:
        self.show(None)

    def close(self) -> None:
        devices, self._devices = self._devices, {}
        for device in devices.values():
            try:
                device.off()
            finally:
                device.close()

    def __enter__(self) -> FlagLeds:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
