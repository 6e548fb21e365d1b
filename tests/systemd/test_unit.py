"""The service unit: `systemd-analyze verify` must accept it without a single warning, and a
strict checker holds it to what the appliance needs (notify, watchdog, own user, state dir)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "companion.service"
INSTALL = ROOT / "systemd" / "install-pi.sh"
INSTALLED_EXEC = "/opt/companion/.venv/bin/companion"

# Every key the unit may use; anything else is a typo or a setting nobody reviewed.
KNOWN = {
    "Unit": {"Description", "Documentation", "Conflicts", "After", "Wants", "Requires",
             "StartLimitIntervalSec", "StartLimitBurst"},
    "Service": {"Type", "NotifyAccess", "WatchdogSec", "TimeoutStartSec", "TimeoutStopSec",
                "ExecStart", "Restart", "RestartSec", "User", "Group", "SupplementaryGroups",
                "StateDirectory", "StateDirectoryMode", "WorkingDirectory", "Environment",
                "NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp",
                "ProtectKernelTunables", "ProtectKernelModules", "ProtectControlGroups",
                "RestrictAddressFamilies", "RestrictRealtime", "LockPersonality"},
    "Install": {"WantedBy"},
}


def read_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """Parse a unit file keeping repeated keys (systemd allows them; configparser does not)."""
    out: dict[str, dict[str, list[str]]] = {}
    section = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            assert section not in out, f"line {number}: section [{section}] twice"
            out[section] = {}
            continue
        assert section is not None, f"line {number}: key outside a section"
        assert "=" in line, f"line {number}: not KEY=VALUE: {raw!r}"
        assert not line.endswith("\\"), f"line {number}: no continuation lines, please"
        key, value = (part.strip() for part in line.split("=", 1))
        out[section].setdefault(key, []).append(value)
    return out


def check_unit(path: Path) -> list[str]:
    """Every problem of the unit, as sentences (empty: fine)."""
    unit = read_unit(path)
    problems = []
    for section, keys in unit.items():
        if section not in KNOWN:
            problems.append(f"unknown section [{section}]")
            continue
        for key, values in keys.items():
            if key not in KNOWN[section]:
                problems.append(f"unknown or unreviewed key {key} in [{section}]")
            if len(values) > 1 and key not in ("Environment", "After", "Wants"):
                problems.append(f"{key} set {len(values)} times in [{section}]")
    service = unit.get("Service", {})

    def one(key: str) -> str | None:
        values = service.get(key)
        return values[-1] if values else None

    want = {"Type": "notify", "Restart": "on-failure", "User": "companion",
            "StateDirectory": "companion", "NotifyAccess": "main"}
    for key, value in want.items():
        if one(key) != value:
            problems.append(f"{key} must be {value!r}, is {one(key)!r}")
    if set((one("SupplementaryGroups") or "").split()) != {"video", "gpio", "input", "render"}:
        problems.append("SupplementaryGroups must be exactly video gpio input render")
    watchdog = one("WatchdogSec") or ""
    if not watchdog.isdigit() or not 10 <= int(watchdog) <= 120:
        problems.append(f"WatchdogSec {watchdog!r}: give the UI 10-120 s between pings")
    exec_start = one("ExecStart") or ""
    if not exec_start.startswith("/") or "sleep" in exec_start or exec_start.startswith("/bin/sh"):
        problems.append(f"ExecStart {exec_start!r} must run the companion directly")
    if "companion run" not in exec_start:
        problems.append("ExecStart must be `companion run`")
    if "root" in (one("User") or "") or "root" in (one("Group") or ""):
        problems.append("the service must not run as root")
    if unit.get("Install", {}).get("WantedBy") != ["multi-user.target"]:
        problems.append("WantedBy must be multi-user.target (boot without a desktop)")
    return problems


def test_unit_passes_the_strict_checker() -> None:
    assert check_unit(UNIT) == []


@pytest.mark.parametrize("edit, words", [
    (("Type=notify", "Type=simple"), "Type must be 'notify'"),
    (("Restart=on-failure", "Restart=always\nRestrat=on-failure"), "Restrat"),
    (("SupplementaryGroups=video render input gpio", "SupplementaryGroups=video render input gpio sudo"),
     "SupplementaryGroups"),
    (("WatchdogSec=30", "WatchdogSec=0"), "WatchdogSec"),
    (("User=companion", "User=root"), "must not run as root"),
    (("ExecStart=/opt", "ExecStart=/bin/sh -c 'sleep 5; /opt"), "run the companion directly"),
])
def test_the_checker_catches_mistakes(tmp_path: Path, edit: tuple[str, str], words: str) -> None:
    text = UNIT.read_text(encoding="utf-8")
    assert edit[0] in text
    bad = tmp_path / "companion.service"
    bad.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    assert any(words in p for p in check_unit(bad)), check_unit(bad)


def _verify(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    # verify checks that ExecStart exists: point it at this checkout's entry point, which is
    # what /opt/companion/.venv/bin/companion is on the Pi.
    exe = Path(sys.executable).with_name("companion")
    if not exe.exists():
        pytest.skip("the companion entry point is not installed in this environment")
    unit = tmp_path / "companion.service"
    unit.write_text(text.replace(INSTALLED_EXEC, str(exe)), encoding="utf-8")
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is absent")
def test_systemd_analyze_verify_is_silent(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    assert INSTALLED_EXEC in text
    result = _verify(tmp_path, text)
    # verify exits 0 on unknown keys and unparsable values; it only warns. Any output fails.
    assert result.returncode == 0 and result.stderr.strip() == "" and result.stdout.strip() == "", \
        result.stderr + result.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is absent")
def test_systemd_analyze_would_catch_a_typo(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8").replace("WatchdogSec=30", "WatchdogSec=thirty")
    assert "thirty" in _verify(tmp_path, text).stderr


def test_install_script_parses_and_installs_this_unit() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)
    script = INSTALL.read_text(encoding="utf-8")
    assert script.startswith("#!/usr/bin/env bash")
    assert "set -euo pipefail" in script
    for needed in ("python3-picamera2", "libzbar0", "--system-site-packages",
                   "companion.service", "useradd", "systemctl enable", "bookworm", "trixie",
                   "constraints", "/usr/lib/python3/dist-packages"):
        assert needed in script, f"install-pi.sh does not mention {needed}"
    for group in ("video", "render", "input", "gpio"):
        assert group in script
    if shutil.which("shellcheck"):
        subprocess.run(["shellcheck", "-S", "warning", str(INSTALL)], check=True)
