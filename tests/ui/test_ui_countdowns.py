"""Countdowns on screen: the turn timer on the seat and, for you, in the status line with a
warning from 10 s; a dropped seat's grace period in words; moves made by the timer or by a
stand-in marked as such in everyone's log."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_ui_screens import answer
from ui_support import LocalTable, draw

from dalmuti_net.client.model.choosers import PlayChooser
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table_with_clock(language: str = "en") -> tuple[LocalTable, Clock]:
    table = LocalTable(Rules(), language=language, seed=5)
    clock = Clock()
    table.ui.model.countdowns.clock = clock
    table.press("s")
    return table, clock


def feed(table: LocalTable, message: dict[str, object]) -> None:
    table.session.receive(message)
    table.ui.on_message(message)


def someone_else(table: LocalTable) -> int:
    return next(p for p in table.session.names if p != table.ui.model.me)


def test_your_turn_timer_counts_down_and_warns_at_ten_seconds() -> None:
    table, clock = table_with_clock()
    while table.ui.model.chooser is None:
        table.next_hand()
    me = table.ui.model.me
    feed(table, {"type": "timers", "grace": [], "turn": [[me, 25_000]]})
    screen = draw(table.ui)
    assert "Your turn!  25 s left" in screen and "◷ 25 s" in screen
    clock.now += 16
    screen = draw(table.ui)
    assert "Only 9 s left!" in screen and "◷ 9 s" in screen
    clock.now += 10
    assert "left" not in draw(table.ui).split("Your turn!")[1].splitlines()[0]


def test_a_dropped_seat_says_who_and_how_long() -> None:
    table, clock = table_with_clock()
    other = someone_else(table)
    name = table.session.names[other]
    feed(table, {"type": "timers", "grace": [[other, 42_000]], "turn": []})
    assert "bot in 42 s" in draw(table.ui)
    clock.now += 2
    assert "bot in 40 s" in draw(table.ui)
    observation = table.session.observation
    assert observation is not None
    observation.waiting = (other,)
    table.ui.model.chooser = None
    assert f"{name} is offline: a bot takes the seat in 40 s" in draw(table.ui)


def test_moves_by_the_timer_or_a_stand_in_are_shown_as_such() -> None:
    table, _ = table_with_clock()
    while not isinstance(table.ui.model.chooser, PlayChooser):
        answer(table)
    me = table.ui.model.me
    feed(table, {"type": "moved_for", "player": me, "by": "timer"})
    lines = len(table.ui.model.log)
    answer(table)
    logged = [line.text for line in list(table.ui.model.log)[lines:]]
    assert logged[0].startswith("You play") and "the turn timer ran out" in logged[0]
    assert sum("the turn timer ran out" in text for text in logged) == 1
    other = someone_else(table)
    feed(table, {"type": "moved_for", "player": other, "by": "stand_in"})
    feed(table, {"type": "passed", "seq": table.session.seq + 1, "player": other})
    assert "played by the bot standing in" in table.ui.model.log[-1].text


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_countdowns_fit_in_every_language(language: str) -> None:
    table, _ = table_with_clock(language)
    other = someone_else(table)
    feed(
        table,
        {"type": "timers", "grace": [[other, 42_000]], "turn": [[table.ui.model.me, 8_000]]},
    )
    t = table.ui.t
    for cols, rows in [(80, 24), (60, 20), (120, 40)]:
        screen = draw(table.ui, cols, rows)
        assert t._("bot in {n} s").format(n=42) in screen or cols < 80


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_dropped_seat_on_its_turn_shows_both_countdowns_whole(language: str) -> None:
    """The longest seat row there is: offline, its turn timer and its grace period running
    at once; nothing cut at 80 columns, whichever role the seat has."""
    table, _ = table_with_clock(language)
    t = table.ui.t
    assert table.session.table is not None
    for seat in table.session.table.players:
        player = seat.player
        if player == table.ui.model.me:
            continue
        # As a person who dropped (a new table, as a host's `table` message brings one).
        dropped = replace(seat, connected=False, kind="human")
        table.session.table = replace(
            table.session.table,
            players=tuple(
                dropped if s.player == player else s for s in table.session.table.players
            ),
        )
        feed(table, {"type": "timers", "grace": [[player, 42_000]], "turn": [[player, 18_000]]})
        screen = draw(table.ui)
        rows = screen.splitlines()
        name = table.ui.model.name_of(player) + "  "  # "Random bot", not "Random bot (3)"
        row = next(line for line in rows[:10] if name in line)
        assert "…" not in row, row
        assert t._("bot in {n} s").format(n=42) in row and t._("◷ {n} s").format(n=18) in row


def test_a_seat_dropped_in_the_lobby_is_kept_not_taken_by_a_bot() -> None:
    """In the lobby no bot stands in: the log says how long the seat is kept, and its
    line says offline."""
    from dalmuti_net.client.session import ClientSession

    table = LocalTable(Rules(), seed=5, bots=0)
    bo = ClientSession("Bo", person=True)
    connection = table._connect(bo)
    table.pump()
    table.table.disconnected(connection)
    table.pump()
    table.table.take_journal()  # saved: the countdowns are told with the state they are of
    table.table.tick(0.0)
    table.pump()
    screen = draw(table.ui)
    assert "Bo is offline: the seat is kept for 60 s." in screen
    assert "a bot takes the seat" not in screen
    row = next(line for line in screen.splitlines() if line.lstrip().startswith("Bo "))
    assert "offline" in row and "kept 60 s" in row
