"""A tiny dependency-free client for systemd's notification socket (`Type=notify`).

The service tells systemd it is ready once the first screen is drawn (READY=1), pings the
watchdog from the Kivy loop (WATCHDOG=1) so a hung UI gets restarted, and says STOPPING=1 on
the way out.  Outside systemd (`$NOTIFY_SOCKET` unset) every call is a cheap no-op.
"""

from __future__ import annotations

import logging
import os
import socket
from types import TracebackType

log = logging.getLogger(__name__)


class SdNotify:
    """Send `sd_notify(3)` messages to `$NOTIFY_SOCKET` (a path, or `@abstract`)."""

    def __init__(self, address: str | None = None) -> None:
        if address is None:
            address = os.environ.get("NOTIFY_SOCKET") or None
        self._address: str | None = None
        self._sock: socket.socket | None = None
        if address:
            if address.startswith("@"):
                # Linux abstract namespace: the leading '@' stands for a NUL byte.
                address = "\0" + address[1:]
            self._address = address
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notification socket."""
        return self._sock is not None

    def notify(self, message: str) -> bool:
        """Send one message (`KEY=VALUE` lines); False when not under systemd or on failure.

        A failure only logs: the referee must keep running even if systemd went away.
        """
        if self._sock is None or self._address is None:
            return False
        try:
            self._sock.sendto(message.encode("utf-8"), self._address)
        except OSError as exc:
            log.warning("sd_notify %r to %r failed: %s", message, self._address, exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    @staticmethod
    def watchdog_interval() -> float | None:
        """Half the watchdog timeout systemd asked for, in seconds, or None without one.

        Pinging at half the timeout is what sd_watchdog_enabled(3) recommends.
        """
        usec = os.environ.get("WATCHDOG_USEC")
        pid = os.environ.get("WATCHDOG_PID")
        if not usec or (pid and pid != str(os.getpid())):
            return None
        try:
            value = int(usec)
        except ValueError:
            return None
        return value / 2e6 if value > 0 else None

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> SdNotify:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
