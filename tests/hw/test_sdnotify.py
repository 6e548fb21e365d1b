"""The sd_notify client against a real AF_UNIX datagram socket, as systemd listens."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from companion.hw.sdnotify import SdNotify


@pytest.fixture
def listener(tmp_path: Path):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_ready_watchdog_stopping_reach_the_socket(listener, monkeypatch) -> None:
    path, sock = listener
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    with SdNotify() as notify:
        assert notify.enabled
        assert notify.ready(status="table found")
        assert sock.recv(256) == b"READY=1\nSTATUS=table found"
        assert notify.watchdog()
        assert sock.recv(256) == b"WATCHDOG=1"
        assert notify.stopping()
        assert sock.recv(256) == b"STOPPING=1"
    assert not notify.enabled
    notify.close()  # safe twice


def test_abstract_socket_address(monkeypatch) -> None:
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        with SdNotify("@" + name) as notify:
            assert notify.watchdog()
            assert sock.recv(64) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_without_systemd_every_call_is_a_no_op(monkeypatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    with SdNotify() as notify:
        assert not notify.enabled
        assert notify.ready() is False
        assert notify.watchdog() is False


def test_a_vanished_socket_is_reported_not_raised(tmp_path: Path) -> None:
    with SdNotify(str(tmp_path / "gone.sock")) as notify:
        assert notify.ready() is False


def test_watchdog_interval_is_half_the_timeout(monkeypatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert SdNotify.watchdog_interval() == 5.0
    monkeypatch.setenv("WATCHDOG_PID", "1")   # meant for another process
    assert SdNotify.watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert SdNotify.watchdog_interval() is None
