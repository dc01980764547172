"""Saves of recorded games, written as the host writes them, for the history tests."""

from __future__ import annotations

from pathlib import Path

from harness import Harness
from test_host_secrecy import all_optional, eventful_game

from dalmuti_net.host.journal import Journal


def write_save(path: Path, seed: int) -> Harness:
    """The game ``eventful_game(seed)`` (3 hands, every rule, a newcomer, a leaver...)
    saved at ``path`` with the header ``dalmuti host --save`` writes."""
    harness, _ = eventful_game(seed)
    table = harness.table
    header = {
        "name": table.name,
        "code": None,
        "seed": table.seed,
        "headless": True,
        "table_id": table.table_id,
        "rules": all_optional(hand_limit=3).to_dict(),
        "table": {"turn_timer": 0, "grace_period": 60, "between_hands": 3},
    }
    journal = Journal(path, header)
    journal.append(table.take_journal())
    journal.close()
    return harness
