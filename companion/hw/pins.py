"""The pin map (which GPIO drives which LED, reads which button) and the pin factory choice.

The pin map is one YAML file, `hardware/pinmap.yaml`, packaged as `companion/hw/pinmap.yaml`;
a copy in the data directory overrides it on a device.  The pin factory is chosen at run time,
never at import: real pins on a Pi, gpiozero's mock pins elsewhere, with a warning on fallback.
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from companion.paths import data_dir
from companion.rules.position import FLAG_COUNT, SIDES, Side

from .errors import PinFactoryError, PinMapError

log = logging.getLogger(__name__)

FORMAT = "battleline-pinmap/1"
FILE_NAME = "pinmap.yaml"
ButtonRole = Literal["claim", "pass"]
BUTTON_ROLES: tuple[ButtonRole, ButtonRole] = ("claim", "pass")

# BCM GPIO number -> physical pin on the 40-pin header (every Pi since the B+; Pi 4 and 5).
BCM_TO_HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
# GPIO 0 and 1 are the HAT ID EEPROM bus: never ours to drive.
RESERVED = frozenset({0, 1})


@dataclass(frozen=True, slots=True)
class PinMap:
    """LED pins per flag and side, button pins per side and role, and how LEDs are driven."""

    leds: tuple[tuple[int, int], ...]           # flag 1 first: (north GPIO, south GPIO)
    buttons: tuple[tuple[Side, ButtonRole, int], ...] = ()
    colours: tuple[str, str] = ("amber", "amber")  # north, south: one colour, placed apart
    active_high: bool = True
    pwm: bool = True
    claimed_brightness: float = 0.15
    source: str = "<built>"

    def led_pin(self, flag: int, side: Side) -> int:
        north, south = self.leds[flag - 1]
        return north if side == "north" else south

    def button_pin(self, side: Side, role: ButtonRole) -> int | None:
        for s, r, pin in self.buttons:
            if s == side and r == role:
                return pin
        return None

    def colour(self, side: Side) -> str:
        return self.colours[0] if side == "north" else self.colours[1]

    def all_pins(self) -> dict[int, str]:
        """Every GPIO in use -> what it does (`flag 3 north LED`, `south claim button`)."""
        out: dict[int, str] = {}
        for n, (north, south) in enumerate(self.leds, start=1):
            out[north] = f"flag {n} north LED"
            out[south] = f"flag {n} south LED"
        for side, role, pin in self.buttons:
            out[pin] = f"{side} {role} button"
        return out

    @classmethod
    def from_dict(cls, obj: Any, source: str = "<dict>") -> PinMap:
        """Check and build a pin map; every problem is a `PinMapError` naming the file."""
        def fail(why: str) -> PinMapError:
            return PinMapError(f"pin map {source}: {why}")

        if not isinstance(obj, dict):
            raise fail("not a YAML mapping")
        if obj.get("format") != FORMAT:
            raise fail(f"unknown format {obj.get('format')!r}; expected {FORMAT!r}")
        used: dict[int, str] = {}

        def gpio(value: object, what: str) -> int:
            if isinstance(value, str) and value.upper().startswith("GPIO"):
                value = value[4:]
            try:
                pin = int(value)  # type: ignore[call-overload]
            except (TypeError, ValueError):
                raise fail(f"{what}: {value!r} is not a GPIO number") from None
            if pin not in BCM_TO_HEADER or pin in RESERVED:
                raise fail(f"{what}: GPIO{pin} is not a usable header GPIO (2-27)")
            if pin in used:
                raise fail(f"GPIO{pin} is used twice: {used[pin]} and {what}")
            used[pin] = what
            return pin

        flags = obj.get("flags")
        if not isinstance(flags, dict) or sorted(flags) != list(range(1, FLAG_COUNT + 1)):
            raise fail("'flags' must map each flag 1 to 9 to its north and south LED pins")
        leds = []
        for n in range(1, FLAG_COUNT + 1):
            entry = flags[n]
            if not isinstance(entry, dict) or set(entry) != set(SIDES):
                raise fail(f"flag {n} needs exactly 'north' and 'south' pins")
            leds.append((gpio(entry["north"], f"flag {n} north LED"),
                         gpio(entry["south"], f"flag {n} south LED")))
        buttons: list[tuple[Side, ButtonRole, int]] = []
        raw_buttons = obj.get("buttons") or {}
        if not isinstance(raw_buttons, dict) or not set(raw_buttons) <= set(SIDES):
            raise fail("'buttons' must map 'north'/'south' to their 'claim'/'pass' pins")
        for side in SIDES:
            roles = raw_buttons.get(side) or {}
            if not isinstance(roles, dict) or not set(roles) <= set(BUTTON_ROLES):
                raise fail(f"{side} buttons: only 'claim' and 'pass' are known")
            for role in BUTTON_ROLES:
                if role in roles:
                    buttons.append((side, role, gpio(roles[role], f"{side} {role} button")))
        colours = obj.get("colours") or {"north": "amber", "south": "amber"}
        if not isinstance(colours, dict) or set(colours) != set(SIDES):
            raise fail("'colours' must name the north and the south colour")
        if {str(c).lower() for c in colours.values()} == {"red", "green"}:
            # An older rig: it still works, but colour-blind players cannot tell the sides.
            log.warning("%s: north and south LEDs are a red/green pair, which colour-blind "
                        "players confuse; use one colour on both sides (hardware/wiring.md)",
                        source)
        brightness = obj.get("claimed_brightness", 0.15)
        if not isinstance(brightness, (int, float)) or not 0 < brightness < 1:
            raise fail(f"claimed_brightness {brightness!r} must be between 0 and 1")
        for key in ("active_high", "pwm"):
            if key in obj and not isinstance(obj[key], bool):
                raise fail(f"{key!r} must be true or false")
        unknown = set(obj) - {"format", "flags", "buttons", "colours", "active_high", "pwm",
                              "claimed_brightness"}
        if unknown:
            raise fail(f"unknown keys {sorted(unknown)}")
        return cls(tuple(leds), tuple(buttons), (str(colours["north"]), str(colours["south"])),
                   bool(obj.get("active_high", True)), bool(obj.get("pwm", True)),
                   float(brightness), source)


def packaged_pin_map_path() -> Path:
    return Path(str(resources.files("companion.hw").joinpath(FILE_NAME)))


def find_pin_map(path: str | os.PathLike[str] | None = None) -> Path:
    """The pin map to use: `path`, else the data directory's copy, else the packaged one."""
    if path is not None:
        return Path(path)
    local = data_dir(create=False) / FILE_NAME
    if local.is_file():
        return local
    return packaged_pin_map_path()


def load_pin_map(path: str | os.PathLike[str] | None = None) -> PinMap:
    import yaml  # a light import, but only the appliance needs it

    where = find_pin_map(path)
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PinMapError(f"pin map {where}: no such file") from None
    try:
        obj = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise PinMapError(f"pin map {where}: not valid YAML ({exc})") from None
    return PinMap.from_dict(obj, str(where))


def make_pin_factory(kind: str = "auto") -> Any:
    """A gpiozero pin factory: `mock`, `real` (fail if none) or `auto` (mock with a warning).

    Imported here, not at module import, so nothing touches GPIO until the app asks.
    """
    if kind == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        # PWM-capable mock pins, so a dim claimed flag can be driven and checked.
        return MockFactory(pin_class=MockPWMPin)
    if kind not in ("auto", "real"):
        raise PinFactoryError(f"unknown pin factory {kind!r}: use auto, real or mock")
    errors = []
    for module, name in (("gpiozero.pins.lgpio", "LGPIOFactory"),
                         ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
                         ("gpiozero.pins.native", "NativeFactory")):
        try:
            mod = __import__(module, fromlist=[name])
            factory = getattr(mod, name)()
        except Exception as exc:  # noqa: BLE001 - any failure means "not this backend"
            errors.append(f"{name}: {exc}")
            continue
        log.info("GPIO pin factory: %s", name)
        return factory
    if kind == "real":
        raise PinFactoryError("no GPIO pin factory works here (" + "; ".join(errors) + ")")
    # Said once, as gpiozero says its own fallbacks: a warning, with why each backend failed.
    warnings.warn(f"no GPIO here ({'; '.join(errors)}): LEDs and buttons use mock pins",
                  RuntimeWarning, stacklevel=2)
    return make_pin_factory("mock")
