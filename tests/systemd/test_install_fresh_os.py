"""The fresh-OS install test, per release: scripts/test-install-pi runs systemd/install-pi.sh
unchanged in a fresh Debian root with stand-ins for the Raspberry Pi packages (see the script).

It needs root (debootstrap, chroot, mounts). Under CI (CI=true) a machine that cannot run it
fails the test with the reason; on a developer's machine without root it is skipped with the
command to run instead. Cold (no cache) a release takes several minutes; warm, about half.
Its log is kept in test-artifacts/install-pi-RELEASE.log.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "test-install-pi"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.mark.slow
@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_install_pi_on_a_fresh_os(release: str, request: pytest.FixtureRequest,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() != 0:
        message = (f"the fresh-OS install test needs root (debootstrap, chroot, mounts): "
                   f"sudo scripts/test-install-pi {release}")
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    artifacts_dir: Path = request.getfixturevalue("artifacts_dir")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "COMPANION_DATA"))}
    result = subprocess.run([str(SCRIPT), release], capture_output=True, text=True, env=env,
                            stdin=subprocess.DEVNULL, timeout=40 * 60)
    log = result.stdout + result.stderr
    (artifacts_dir / f"install-pi-{release}.log").write_text(log, encoding="utf-8")
    lines = [line for line in log.splitlines()
             if line.startswith("test-install-pi: ")]
    with capsys.disabled():  # the summary belongs in the CI log, pass or fail
        print("\n" + "\n".join(lines))
    if result.returncode == 2:
        pytest.fail(f"the fresh-OS install test cannot run here:\n{log[-3000:]}")
    assert result.returncode == 0, log[-6000:]
    assert f"test-install-pi: {release}: PASS" in log
