"""Waiting in tests for what the appliance's worker thread does."""

from __future__ import annotations

import time
from collections.abc import Callable


def until(test: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Whether `test` came true within `timeout` seconds (polled every 20 ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.02)
    return False
