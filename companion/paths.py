"""Where per-device data lives: calibration, enrolled decks, the match database.

`$COMPANION_DATA` wins; then `$STATE_DIRECTORY` (set by systemd for the service); then
`/var/lib/companion` when it exists and is writable (the Pi); else the user's data directory.
Never inside the repository.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir(create: bool = True) -> Path:
    env = os.environ.get("COMPANION_DATA") or os.environ.get("STATE_DIRECTORY")
    if env:
        path = Path(env.split(":")[0])
    elif os.access("/var/lib/companion", os.W_OK):
        path = Path("/var/lib/companion")
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "battleline-companion"
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path
