"""The vision thresholds, read once from `config.yaml` beside this file (habit 9).

`COMPANION_VISION_CONFIG` may name another YAML file (a rig with other optics); it replaces
the values it gives and keeps the others.
"""

from __future__ import annotations

import copy
import functools
import os
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError

DEFAULT_PATH = Path(__file__).with_name("config.yaml")


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _read(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read vision configuration {path}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"vision configuration {path} is not a mapping")
    return data


@functools.lru_cache(maxsize=1)
def load_config() -> dict[str, Any]:
    config = _read(DEFAULT_PATH)
    extra = os.environ.get("COMPANION_VISION_CONFIG")
    if extra:
        config = _merge(config, _read(Path(extra)))
    return config


__all__ = ["load_config"]
