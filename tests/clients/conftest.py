"""Fixtures for the client tests: a rules file for quick tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from host_process import QUICK_RULES


@pytest.fixture
def rules_file(tmp_path: Path) -> Path:
    path = tmp_path / "quick.toml"
    path.write_text(QUICK_RULES, encoding="utf-8")
    return path
