"""Saves of recorded games, written as the host writes them, for the history tests.

The only place the history tests know how a host's save is stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import Harness
from test_host_secrecy import all_optional, eventful_game

from dalmuti_net.host.savefile import SaveFile, read_save
from dalmuti_net.host.table import Table


def save_table(path: Path, table: Table, rules: dict[str, Any] | None = None) -> None:
    """``table``'s journal so far saved at ``path`` under the header ``dalmuti host
    --save`` writes (``rules``: the header's rules, the table's own by default)."""
    header = {
        "name": table.name,
        "code": None,
        "seed": table.seed,
        "headless": True,
        "table_id": table.table_id,
        "rules": table.rules.to_dict() if rules is None else rules,
        "table": {"turn_timer": 0, "grace_period": 60, "between_hands": 3},
    }
    write_changes(path, header, table.take_journal())


def write_save(path: Path, seed: int) -> Harness:
    """The game ``eventful_game(seed)`` (3 hands, every rule, a newcomer, a leaver...)
    saved at ``path`` with the header ``dalmuti host --save`` writes."""
    harness, _ = eventful_game(seed)
    save_table(path, harness.table, all_optional(hand_limit=3).to_dict())
    return harness


def write_changes(path: Path, header: dict[str, Any], changes: list[dict[str, Any]]) -> None:
    """A save at ``path`` holding ``changes`` (as the table core records them)."""
    save = SaveFile.create(path, header)
    save.append(changes)
    save.close()


def read_changes(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header (as ``write_changes`` takes it) and the changes of the save at ``path``."""
    saved = read_save(path)
    return saved.header, saved.entries
