"""A history of a table without scoring ends with its finishing order and roles, not
everyone "1. Ana 0" (issue 40, finding 4)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from harness import Harness, random_chooser
from history_support import save_table

from dalmuti_net.cli import main
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table


def test_the_listing_of_a_table_without_scoring_ends_with_its_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(6)
    table = Table("Basic", Rules(hand_limit=1), seed=6)
    harness = Harness(table, rng)
    host = harness.join("Ana", chooser=random_chooser(rng))
    harness.start_with_bots(host, 3)
    harness.run()
    assert table.phase == "ended" and table.game is not None
    path = tmp_path / "table.dat"
    save_table(path, table)
    assert main(["history", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    (standings,) = [line for line in out.splitlines() if line.startswith("Final standings: ")]
    names = {seat.player: seat.name for seat in table.seats.values()}
    order = [names[player] for player in table.game.order]
    assert standings == (
        f"Final standings: 1. {order[0]} (Greater Dalmuti), 2. {order[1]} (Lesser Dalmuti),"
        f" 3. {order[2]} (Lesser Peon), 4. {order[3]} (Greater Peon)"
    )


def test_the_listing_of_a_scoring_table_ended_in_its_first_hand_ranks_nobody(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by hand: `dalmuti history` said "Final standings: 1. Ana 0, 1. Chen 0, ..." for
    a table its host player ended during the first hand (as the table screens did)."""
    table = Table("Short", Rules(scoring=True), seed=6)
    for name in ("Ana", "Bo", "Chen", "Dee"):
        table.reserve_seat(name)
    table.start()
    table.end_table()
    path = tmp_path / "table.dat"
    save_table(path, table)
    assert main(["history", str(path), "--lang", "zh-Hant"]) == 0
    out = capsys.readouterr().out
    (standings,) = [line for line in out.splitlines() if line.startswith("最終排名")]
    assert "1." not in standings and "Ana 0 分" in standings, standings
