#!/usr/bin/env bash
# Install the Battle Line companion on a Raspberry Pi so that it boots into the referee.
#
# Supported: Raspberry Pi OS Bookworm (Debian 12), 64-bit, Lite or with the desktop disabled,
# on a Pi 5 or Pi 4 with a Camera Module 3 and a DSI or HDMI touchscreen.
# Run from a clone of the repository:   sudo systemd/install-pi.sh
# Re-running it is safe: it updates the code, the virtual environment and the service.
#
# Why the pins: picamera2 comes from the OS (python3-picamera2) and is built against the OS
# numpy 1.24. The venv is made with --system-site-packages so it sees picamera2 and libcamera,
# and it must use that same numpy: a numpy 2 in the venv would shadow it and picamera2 would
# fail to load. So numpy is pinned to the OS version (constraints file below), and
# opencv-python-headless to 4.10.0.84, the last release whose wheels still load on numpy 1.x
# (pyproject.toml says numpy<2 and opencv-python-headless<4.11 for the same reason).
set -euo pipefail

APP_DIR=${APP_DIR:-/opt/companion}
APP_USER=${APP_USER:-companion}
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
OPENCV_PIN=4.10.0.84

say() { printf 'install-pi: %s\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run me with sudo"
# shellcheck disable=SC1091
. /etc/os-release
[ "${VERSION_CODENAME:-}" = "bookworm" ] || die "only Raspberry Pi OS bookworm is supported (this is ${VERSION_CODENAME:-unknown})"
[ "$(dpkg --print-architecture)" = "arm64" ] || say "warning: not 64-bit; Kivy and OpenCV wheels may have to build from source"

say "OS packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# python3-picamera2/libcamera: the camera stack (never from pip). python3-numpy: the numpy
# picamera2 was built with. python3-lgpio: gpiozero's pin backend on the Pi 5 (and 4).
# libzbar0: QR codes of the flag tiles. The GL/EGL/DRM/mtdev libraries: Kivy's SDL2 window
# drawing straight to the display (KMS/DRM) and reading the touchscreen.
apt-get install -y -qq --no-install-recommends \
    python3-venv python3-pip python3-picamera2 python3-libcamera python3-numpy python3-lgpio \
    libzbar0 libgl1 libegl1 libgles2 libgbm1 libdrm2 libmtdev1 libinput10 \
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0 \
    fonts-dejavu-core rsync

say "user $APP_USER"
if ! id "$APP_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/companion --no-create-home \
            --shell /usr/sbin/nologin "$APP_USER"
fi
for group in video render input gpio; do
    getent group "$group" >/dev/null || groupadd --system "$group"
    usermod -aG "$group" "$APP_USER"
done

say "code in $APP_DIR"
mkdir -p "$APP_DIR"
if [ "$SRC_DIR" != "$APP_DIR" ]; then
    rsync -a --delete --exclude .venv --exclude .git --exclude test-artifacts \
          "$SRC_DIR"/ "$APP_DIR"/
fi

say "virtual environment (sees the OS camera stack)"
if [ ! -x "$APP_DIR/.venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$APP_DIR/.venv"
fi
os_numpy=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')
case "$os_numpy" in 1.*) ;; *) die "the OS numpy is $os_numpy, expected 1.x on bookworm" ;; esac
constraints="$APP_DIR/.venv/constraints.txt"
printf 'numpy==%s\nopencv-python-headless==%s\n' "$os_numpy" "$OPENCV_PIN" > "$constraints"
"$APP_DIR/.venv/bin/python" -m pip install -q --upgrade pip
"$APP_DIR/.venv/bin/python" -m pip install -q -c "$constraints" "$APP_DIR[ui]"
"$APP_DIR/.venv/bin/python" - <<'PY'
import numpy, cv2, picamera2, kivy  # noqa: F401 - fail now, not at the first game
assert numpy.__version__.startswith("1."), numpy.__version__
print(f"install-pi: numpy {numpy.__version__} (OS), OpenCV {cv2.__version__}, picamera2 ok")
PY

say "data directory"
install -d -o "$APP_USER" -g "$APP_USER" -m 0750 /var/lib/companion /var/lib/companion/kivy
# Kivy reads the touchscreen through the kernel's input devices, not a desktop.
kivy_ini=/var/lib/companion/kivy/config.ini
if [ ! -f "$kivy_ini" ]; then
    cat > "$kivy_ini" <<'INI'
[kivy]
keyboard_mode = systemanddock
[graphics]
fullscreen = auto
show_cursor = 0
[input]
touch = probesysfs,provider=mtdev
INI
    chown "$APP_USER:$APP_USER" "$kivy_ini"
fi

say "boot to the console, not a desktop, and start the service"
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_boot_behaviour B1   # console, no auto-login
    raspi-config nonint do_camera 0 >/dev/null 2>&1 || true
fi
install -m 0644 "$APP_DIR/systemd/companion.service" /etc/systemd/system/companion.service
sed -i "s#/opt/companion#$APP_DIR#g" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable companion.service
systemctl restart companion.service
say "done: the companion starts at boot. Logs: journalctl -u companion -f"
say "next: the calibration procedure in $APP_DIR/calibration/README.md"
