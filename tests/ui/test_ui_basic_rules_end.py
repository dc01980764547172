"""A table without scoring ends with its finishing order and roles, not everyone "1st,
0 points" (issue 40, finding 4): in the model's rows every front end draws, and on the
terminal's screen (the plain table's: tests/plain/test_plain_narrator.py)."""

from __future__ import annotations

import re

from test_ui_evening import play_until_ended
from ui_support import LocalTable, draw

from dalmuti_net.client.model.departures import final_rows
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import Translator


def ended_table() -> LocalTable:
    table = LocalTable(Rules(hand_limit=1), seed=4)
    table.press("s")
    play_until_ended(table)
    table.press("enter")  # past the last hand's results
    return table


def test_the_final_standings_without_scoring_are_the_finishing_order_with_roles() -> None:
    table = ended_table()
    session = table.session
    assert session.observation is not None and session.observation.ended is not None
    ended = session.observation.ended
    rows = final_rows(
        table.ui.t, ended, table.ui.model.table, session.observation, table.ui.model.name_of
    )
    assert [row.place for row in rows] == ["1st", "2nd", "3rd", "4th"]
    assert [row.figure for row in rows] == [
        "Greater Dalmuti",
        "Lesser Dalmuti",
        "Lesser Peon",
        "Greater Peon",
    ]
    assert [row.player for row in rows] == [player for player, _, _ in ended.standings]
    screen = draw(table.ui, 80, 30)
    standings = screen[screen.index("Final standings") :]
    assert "1st" in standings and "4th" in standings and "Greater Peon" in standings
    assert not re.search(r"\b0\s*$", standings, re.M), standings


def test_an_ended_table_without_scoring_refuses_with_its_order_and_roles() -> None:
    """The host's refusal of an ended table says whether it kept score (``scoring``): the
    screen listed everyone "1st 0" there too."""
    from dalmuti_net.client.model.refusals import for_error
    from dalmuti_net.client.session import ClientSession
    from dalmuti_net.host.table import Table

    table = Table("Over", Rules(), seed=4)
    for name in ("Bo", "Chen", "Dara", "Eli"):
        table.reserve_seat(name)
    table.start()
    table.end_table()
    session = ClientSession("Ana")
    connection = table.connect()
    assert connection is not None
    session.table_id = table.table_id
    table.receive(connection, session.hello())
    for message in table.take_outbox(connection):
        session.receive(message)
    error = session.errors[-1]
    assert error.code == "table_ended" and not error.scoring
    screen = for_error(Translator("en"), error, can_list=True)
    assert [row.place for row in screen.standings] == ["1st", "2nd", "3rd", "4th"]
    assert screen.standings[0].figure == "Greater Dalmuti"
    assert screen.standings[-1].figure == "Greater Peon"


def test_a_scoring_table_ended_in_its_first_hand_ranks_nobody() -> None:
    """Ended before any hand was scored, everyone was "1st" with 0 points, the leaver too:
    nobody is ranked (a dash), in the rows every front end draws and on the screen."""
    table = LocalTable(Rules(scoring=True), seed=4)
    table.press("s")
    table.send({"type": "end_table"})
    session = table.session
    assert session.observation is not None and session.observation.ended is not None
    rows = final_rows(
        table.ui.t,
        session.observation.ended,
        table.ui.model.table,
        session.observation,
        table.ui.model.name_of,
    )
    assert [row.place for row in rows] == ["-"] * 4
    standings = draw(table.ui, 80, 30)
    standings = standings[standings.index("Final standings") :]
    assert "1st" not in standings, standings


def test_an_ended_scoring_table_that_scored_no_hand_refuses_without_places() -> None:
    from dalmuti_net.client.model.refusals import for_error
    from dalmuti_net.client.session import ClientSession
    from dalmuti_net.host.table import Table

    table = Table("Over", Rules(scoring=True), seed=4)
    for name in ("Bo", "Chen", "Dara", "Eli"):
        table.reserve_seat(name)
    table.start()
    table.end_table()
    session = ClientSession("Ana")
    connection = table.connect()
    assert connection is not None
    session.table_id = table.table_id
    table.receive(connection, session.hello())
    for message in table.take_outbox(connection):
        session.receive(message)
    error = session.errors[-1]
    assert error.code == "table_ended" and error.scoring
    screen = for_error(Translator("es"), error, can_list=True)
    assert [row.place for row in screen.standings] == ["-"] * 4
