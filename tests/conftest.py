"""Suite-wide fixtures: tests never write into a real data directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("companion-data")
    monkeypatch.setenv("COMPANION_DATA", str(path))
    yield path


ARTIFACTS = Path(os.environ.get("COMPANION_TEST_ARTIFACTS", "test-artifacts"))


@pytest.fixture
def artifacts_dir() -> Path:
    """Where tests may leave screenshots and figures for people to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
