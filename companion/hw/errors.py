"""Errors of the LED and button driver (narrow, under `CompanionError`, like gpiozero's)."""

from __future__ import annotations

from companion.errors import CompanionError


class HardwareError(CompanionError):
    """Base of the LED, button and pin-map errors."""


class PinMapError(HardwareError, ValueError):
    """A pin map file that is missing, malformed or uses a pin twice."""


class PinFactoryError(HardwareError, RuntimeError):
    """No usable GPIO pin factory (asked for real pins where there are none)."""
