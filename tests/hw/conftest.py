"""A fresh gpiozero mock pin factory per test (PWM-capable pins)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.hw.pins import load_pin_map, make_pin_factory, PinMap


@pytest.fixture
def mock_factory() -> Iterator[Any]:
    factory = make_pin_factory("mock")
    yield factory
    factory.close()


@pytest.fixture
def pin_map() -> PinMap:
    return load_pin_map()
