"""Standings across evenings: `dalmuti host --league` keeps each finished table's results
by player name; `dalmuti standings` adds league files, saves and history files up, each
table once, in columns, in three languages."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from harness import Harness, random_chooser
from history_support import write_save

from dalmuti_net.cli import main
from dalmuti_net.commands.standings_text import standings_lines
from dalmuti_net.engine import Rules
from dalmuti_net.engine.events import HandEnded, TableEnded
from dalmuti_net.history.league import LeagueError, read_league, save_results
from dalmuti_net.history.standings import PlayerResult, TableResults, Tally, combine
from dalmuti_net.host.table import Table
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.lang.text import width
from dalmuti_net.rerun.keeper import keep_league
from dalmuti_net.rerun.sources import open_history
from dalmuti_net.told import told_record


def test_a_tally_counts_hands_places_points_and_crowns() -> None:
    tally = Tally()
    tally.feed(
        [
            HandEnded(1, (2, 1, 3), (2, 1, 0), (0, 0, 0), (2, 1, 0)),
            HandEnded(2, (2, 3, 1), (2, 1, 0), (0, 0, 0), (4, 1, 1)),
            TableEnded("hand_limit", ((2, 4, 1), (1, 1, 2), (3, 1, 2))),
        ]
    )
    results = {r.name: r for r in tally.results({1: "Ana", 2: "Bo", 3: "Cy"})}
    assert results["Bo"] == PlayerResult("Bo", 4, 1, 2, 2, 2)
    assert results["Ana"] == PlayerResult("Ana", 1, 2, 2, 5, 0)
    assert results["Cy"] == PlayerResult("Cy", 1, 2, 2, 5, 0)


def test_totals_add_tables_by_name_and_count_a_table_once() -> None:
    one = TableResults("t1", "Friday", (PlayerResult("Ana", 5, 1, 3, 5, 2),))
    two = TableResults("t2", "Saturday", (PlayerResult("Ana", 2, 2, 2, 5, 0),))
    bo = TableResults("t3", "Sunday", (PlayerResult("Bo", 9, 1, 4, 4, 4),))
    standings = combine([one, two, one, bo])
    assert [s.name for s in standings] == ["Bo", "Ana"]
    ana = standings[1]
    assert (ana.tables, ana.hands, ana.points, ana.crowns) == (2, 5, 7, 2)
    assert ana.average_place == 2.0


def bots_only_table(seed: int) -> Harness:
    table = Table("League night", Rules(scoring=True, hand_limit=2), seed=seed)
    harness = Harness(table)
    host = harness.join("Ana", chooser=random_chooser(harness.rng))
    harness.start_with_bots(host, 3)
    return harness


def test_the_host_writes_each_finished_table_to_the_league(tmp_path: Path) -> None:
    league = tmp_path / "league.db"
    for seed in (1, 2):
        harness = bots_only_table(seed)
        keep_league(harness.table, league)
        harness.run()
        assert harness.table.phase == "ended"
    tables = read_league(league)
    assert [t.table for t in tables] == ["League night", "League night"]
    ana = [r for t in tables for r in t.results if r.name == "Ana"]
    assert len(ana) == 2 and all(r.hands == 2 and r.place is not None for r in ana)
    # A table written again (resumed, ended again) replaces its rows.
    save_results(league, tables[0])
    assert len(read_league(league)) == 2


def test_a_rematch_is_a_table_of_its_own_in_the_league(tmp_path: Path) -> None:
    league = tmp_path / "league.db"
    harness = bots_only_table(3)
    keep_league(harness.table, league)
    harness.run()
    host = harness.clients[0]
    harness.send(host, {"type": "rematch"})
    assert harness.table.phase == "lobby" and harness.table.rematch
    harness.send(host, {"type": "start"})
    harness.run()
    assert harness.table.phase == "ended" and harness.table.game_number == 2
    tables = read_league(league)
    assert len(tables) == 2 and tables[0].table_id != tables[1].table_id
    ana = [r for t in tables for r in t.results if r.name == "Ana"]
    assert [r.hands for r in ana] == [2, 2]  # each game counted once, on its own


def test_a_league_that_cannot_be_written_at_the_end_is_told_in_the_language(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    league = tmp_path / "league.db"
    harness = bots_only_table(1)
    keep_league(harness.table, league)
    league.unlink()
    league.mkdir()  # no longer a file the results can be written to
    with caplog.at_level(logging.WARNING, logger="dalmuti_net"):
        harness.run()
    assert harness.table.phase == "ended"
    [record] = caplog.records
    assert told_record(record, Translator("zh_Hant")._) == (
        f"這一桌的成績沒有加進聯賽：{league} 不是 dalmuti-net 的聯賽檔案。"
    )
    assert told_record(record, Translator("es")._) == (
        f"Los resultados de esta mesa no se añadieron a la liga: {league} no es un archivo de "
        "liga de dalmuti-net."
    )


def test_a_resumed_table_counts_the_hands_played_before(tmp_path: Path) -> None:
    save = tmp_path / "table.dat"
    harness = write_save(save, 3)
    saved = open_history(save)[0]
    assert saved.saved is not None
    resumed = Table.replay(list(saved.saved.entries), **saved.saved.settings)
    tally = keep_league(resumed, tmp_path / "league.db", resumed_from=save)
    assert len(tally.hands) == 3 and tally.ended is not None
    assert harness.table.phase == "ended"


def test_a_file_that_is_not_a_league_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE x (y)")
    with pytest.raises(LeagueError, match="is not a dalmuti-net league file"):
        keep_league(bots_only_table(1).table, other)


HEADERS = {
    "en": ("Standings over 3 tables", "Player", "Average place", "Greater Dalmuti"),
    "zh-Hant": ("3 桌的總排名", "玩家", "平均名次", "偉大的達爾穆蒂"),
    "es": ("Clasificación de 3 mesas", "Jugador", "Puesto medio", "Gran Dalmuti"),
}


@pytest.mark.parametrize("lang", HEADERS)
def test_standings_print_columns_over_leagues_and_saves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    league = tmp_path / "league.db"
    for seed in (1, 2):
        harness = bots_only_table(seed)
        harness.table.table_id = f"league-{seed}"
        keep_league(harness.table, league)
        harness.run()
    save = tmp_path / "table.dat"
    write_save(save, 4)
    code = main(["standings", str(league), str(save), str(league), "--lang", lang])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == HEADERS[lang][0]
    for header in HEADERS[lang][1:]:
        assert header in lines[1]
    assert any(line.split()[1] == "Ana" and line.split()[2] == "2" for line in lines[2:])
    # Columns line up: the numbers are right-aligned under their headers, to one width;
    # the host's bots come after the people, under a line of their own.
    rows = [line for line in lines[2:] if line.split()[-1].isdigit()]
    assert len({width(line) for line in [lines[1], *rows]}) == 1, lines
    assert [line for line in lines[2:] if line not in rows] == [BOTS_APART[lang]]


BOTS_APART = {
    "en": "The host's bots, ranked apart:",
    "zh-Hant": "主持人的機器人，另外排名：",
    "es": "Los bots del anfitrión, clasificados aparte:",
}


def test_standings_refuse_what_is_not_theirs_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("a list of friends\n")
    code = main(["standings", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("dalmuti standings: ") and err.count("\n") == 1
    assert "is not a dalmuti-net file" in err


@pytest.mark.parametrize(
    ("lang", "bot", "numbered"),
    [
        ("en", "Random bot", "Random bot (2)"),
        ("zh-Hant", "Random bot", "Random bot (2)"),
        ("es", "Random bot", "Random bot (2)"),
    ],
)
def test_the_hosts_bots_keep_their_one_name_in_every_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, bot: str, numbered: str
) -> None:
    league = tmp_path / "league.db"
    harness = bots_only_table(1)
    keep_league(harness.table, league)
    harness.run()
    assert {r.name: r.bot for r in read_league(league)[0].results} == {
        "Ana": False,
        "Random bot": True,
        "Random bot (2)": True,
        "Random bot (3)": True,
    }
    save = tmp_path / "table.dat"
    write_save(save, 2)
    assert main(["standings", str(league), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert numbered in out and "Ana" in out
    assert main(["standings", str(save), "--lang", lang]) == 0
    rows = [line.split("  ") for line in capsys.readouterr().out.splitlines()[2:]]
    assert [bot] in [[cell for cell in row if cell][1:2] for row in rows]


def test_a_league_written_before_bots_were_marked_is_read_and_extended(tmp_path: Path) -> None:
    league = tmp_path / "league.db"
    harness = bots_only_table(1)
    keep_league(harness.table, league)
    harness.run()
    with sqlite3.connect(league) as connection:
        connection.execute("ALTER TABLE results DROP COLUMN bot")  # as an older version wrote it
    assert not any(r.bot for t in read_league(league) for r in t.results)
    later = bots_only_table(2)
    later.table.table_id = "another evening"
    keep_league(later.table, league)
    later.run()
    tables = {table.table_id: table for table in read_league(league)}
    assert len(tables) == 2 and any(r.bot for r in tables["another evening"].results)


def test_a_table_without_scoring_counts_its_order_not_its_points(tmp_path: Path) -> None:
    """Issue 40, finding 4: a basic-rules table put everyone "1st, 0 points" in the league,
    its zeros counted with the points of tables that kept score. It counts in tables,
    hands, the average place and crowns; its final places are the last seating's order."""
    league = tmp_path / "league.db"
    table = Table("Basic night", Rules(hand_limit=1), seed=3)
    basic = Harness(table)
    host = basic.join("Ana", chooser=random_chooser(basic.rng))
    basic.start_with_bots(host, 3)
    keep_league(table, league)
    basic.run()
    assert table.phase == "ended"
    (kept,) = read_league(league)
    assert not kept.scored
    assert sorted(r.place for r in kept.results) == [1, 2, 3, 4]
    scored = bots_only_table(1)
    keep_league(scored.table, league)
    scored.run()
    tables = {t.table: t for t in read_league(league)}
    assert (tables["Basic night"].scored, tables["League night"].scored) == (False, True)
    ana = next(s for s in combine(tables.values()) if s.name == "Ana")
    kept_points = next(r.score for r in tables["League night"].results if r.name == "Ana")
    assert (ana.tables, ana.scored_tables, ana.points) == (2, 1, kept_points)
    assert ana.hands == 3  # one hand without scoring, two with
    lines = standings_lines(Translator("en"), combine([tables["Basic night"]]), 1)
    assert lines[-1] == (
        "Tables played without scoring count in tables, hands, average place and"
        " Greater Dalmuti, not in points."
    )
    assert lines[2].split()[4] == "-"  # no points, not 0


def test_the_hosts_bots_are_ranked_apart_from_the_people() -> None:
    """Issue 40, finding 8: a bot with more points was ranked among the people."""

    def result(name: str, score: int, bot: bool = False) -> PlayerResult:
        return PlayerResult(name, score, None, 2, 3, 1, bot)

    table = TableResults(
        "t", "T", (result("Ana", 3), result("Random bot", 9, True), result("Bo", 5))
    )
    assert [s.name for s in combine([table])] == ["Bo", "Ana", "Random bot"]
    lines = standings_lines(Translator("en"), combine([table]), 1)
    assert [line.split()[:2] for line in lines[2:4]] == [["1", "Bo"], ["2", "Ana"]]
    assert lines[4] == "The host's bots, ranked apart:"
    assert lines[5].split()[:3] == ["1", "Random", "bot"]
