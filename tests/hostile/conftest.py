"""The liars the command and screen tests connect to: one process for the whole session
(starting one per test cost a third of a second each), every liar on its own port."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The input fuzzing borrows the web tests' two-door host, the terminal's local table and
# the plain table's.
TESTS = Path(__file__).resolve().parents[1]
for folder in ("web", "ui", "plain"):
    if str(TESTS / folder) not in sys.path:
        sys.path.insert(0, str(TESTS / folder))

from hostile_host import LIARS, liars_in_process  # noqa: E402


@pytest.fixture(scope="session")
def liars() -> Iterator[dict[str, int]]:
    """Each liar's port, by name."""
    with liars_in_process(LIARS) as (ports, _):
        yield ports
