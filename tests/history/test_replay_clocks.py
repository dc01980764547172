"""A save played again keeps the table's clocks as the host set them from its settings:
a replay's rules summary said results stay "3 seconds at most" (the table core's default)
where the table said 30 (issue 40, finding 8)."""

from __future__ import annotations

from pathlib import Path

from history_support import write_changes

from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table
from dalmuti_net.rerun.save import open_save


def test_a_saved_tables_results_pause_and_bot_pace_come_back(tmp_path: Path) -> None:
    path = tmp_path / "table.dat"
    header = {
        "name": "Clocks",
        "code": None,
        "seed": 1,
        "headless": True,
        "table_id": "0123456789abcdef",
        "rules": Rules().to_dict(),
        "table": {"turn_timer": 20, "grace_period": 60, "between_hands": 30, "bot_pace": 0.5},
    }
    write_changes(path, header, [])
    (saved,) = open_save(path)
    table = Table(**saved.settings)
    timing = table.table_message()["timing"]
    assert timing["results_ms"] == 30_000
    assert timing["bot_pace_ms"] == 500
    assert timing["turn_timer_ms"] == 20_000
