"""The liars the command and screen tests connect to: one process for the whole session
(starting one per test cost a third of a second each), every liar on its own port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hostile_host import LIARS, liars_in_process


@pytest.fixture(scope="session")
def liars() -> Iterator[dict[str, int]]:
    """Each liar's port, by name."""
    with liars_in_process(LIARS) as (ports, _):
        yield ports
