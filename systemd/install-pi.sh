#!/usr/bin/env bash
# Install the Battle Line companion on a Raspberry Pi so that it boots into the referee.
#
# Supported: Raspberry Pi OS trixie (Debian 13) and bookworm (Debian 12), 64-bit, Lite or with
# the desktop disabled, on a Pi 5 or Pi 4 with a Camera Module 3 and a DSI or HDMI touchscreen.
# Run from a clone of the repository:   sudo systemd/install-pi.sh
# Re-running it is safe: it updates the code, the virtual environment and the service in place
# and never touches the data directory /var/lib/companion (deck, calibration, matches).
# Anything else: another Debian-based release stops here unless COMPANION_ANY_OS=1 is set (then
# it goes on, unsupported); a 32-bit or non-ARM system goes on with a warning (Kivy and OpenCV
# may have to build from source, an hour or more); a system without apt or dpkg stops.
#
# Why the pins: picamera2 comes from the OS (python3-picamera2) and is built against the OS
# numpy: 1.24 on bookworm, 2.2 on trixie. The venv is made with --system-site-packages so it
# sees picamera2 and libcamera, and it must use that same numpy: another numpy in the venv
# would shadow it and picamera2 (and simplejpeg) would fail to load. So numpy is pinned to the
# OS version (constraints file below; pip never installs a numpy of its own), and
# opencv-python-headless to 4.10.0.84, whose wheels load on numpy 1.x and 2.x alike and which
# the suite and the fresh-OS install test (scripts/test-install-pi) run with. (4.11.0.86 is the
# last release that accepts numpy 1.x, 4.12 the first that needs numpy>=2: once a newer one is
# tested, pin it per OS numpy major below.)
set -euo pipefail

APP_DIR=${APP_DIR:-/opt/companion}
APP_USER=${APP_USER:-companion}
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
# opencv-python-headless per OS numpy major (see above): one release serves both today.
OPENCV_FOR_NUMPY1=4.10.0.84
OPENCV_FOR_NUMPY2=4.10.0.84

say() { printf 'install-pi: %s\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run me with sudo"
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 \
    || die "this needs Raspberry Pi OS (apt and dpkg); nothing was changed"
# shellcheck disable=SC1091
. /etc/os-release
release=${VERSION_CODENAME:-unknown}
case "$release" in
    bookworm|trixie) say "Raspberry Pi OS / Debian $release: supported" ;;
    *)
        if [ "${COMPANION_ANY_OS:-0}" = "1" ]; then
            say "warning: $release is not supported (trixie and bookworm are); going on as COMPANION_ANY_OS=1 asks"
        else
            die "supported: Raspberry Pi OS trixie and bookworm (64-bit); this is ${PRETTY_NAME:-$release}. Nothing was changed. COMPANION_ANY_OS=1 tries anyway, unsupported."
        fi ;;
esac
arch=$(dpkg --print-architecture)
[ "$arch" = "arm64" ] || say "warning: $arch, not arm64 (64-bit Raspberry Pi OS): unsupported; Kivy and OpenCV wheels may have to build from source"

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
# The OS numpy, and nothing else: pinned by a constraints file, so pip keeps the OS one (the
# venv sees it through --system-site-packages) or stops rather than install another.
os_numpy=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')
case "$os_numpy" in
    1.*) opencv_pin=$OPENCV_FOR_NUMPY1 ;;
    2.*) opencv_pin=$OPENCV_FOR_NUMPY2 ;;
    *) die "the OS numpy is $os_numpy: neither 1.x nor 2.x, no OpenCV pin for it" ;;
esac
say "OS numpy $os_numpy, so opencv-python-headless $opencv_pin"
constraints="$APP_DIR/.venv/constraints.txt"
printf 'numpy==%s\nopencv-python-headless==%s\n' "$os_numpy" "$opencv_pin" > "$constraints"
"$APP_DIR/.venv/bin/python" -m pip install -q --upgrade pip
"$APP_DIR/.venv/bin/python" -m pip install -q -c "$constraints" "$APP_DIR[ui]"
# Fail now, not at the first game: the numpy must be the OS one, and the camera stack, OpenCV,
# Kivy and the QR reader must import.
OS_NUMPY=$os_numpy KIVY_HOME="$APP_DIR/.venv/kivy-home" "$APP_DIR/.venv/bin/python" - <<'PY'
import importlib, importlib.metadata, os, sys
import numpy
where = os.path.realpath(numpy.__file__)
if not where.startswith("/usr/lib/python3/dist-packages/") or numpy.__version__ != os.environ["OS_NUMPY"]:
    sys.exit(f"install-pi: numpy {numpy.__version__} from {where} is not the OS numpy "
             f"{os.environ['OS_NUMPY']} in /usr/lib/python3/dist-packages")
print(f"install-pi: numpy {numpy.__version__} (the OS one, {os.path.dirname(where)})")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
for module, dist in (("picamera2", "picamera2"), ("cv2", "opencv-python-headless"),
                     ("kivy", "Kivy"), ("pyzbar.pyzbar", "pyzbar")):
    try:
        mod = importlib.import_module(module)
    except Exception as error:  # noqa: BLE001 - say which one, then stop
        sys.exit(f"install-pi: {module} does not import: {error}")
    try:
        version = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        version = getattr(mod, "__version__", "(version unknown)")
    print(f"install-pi: {module} {version} ({os.path.dirname(os.path.realpath(mod.__file__ or '?'))})")
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
