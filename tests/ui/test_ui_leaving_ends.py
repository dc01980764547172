"""Leaving a table that cannot go on without you says so before you pick it, and once after.

RULES.md rule 12: a table that cannot reach four players ends; PROTOCOL.md `leave`: a host
player nobody connected can take over from ends the table at once. The quit panel's leave
choice says which, in the table screen and in the plain table, in every language; after
leaving, one line says the table ended (or ends after the hand), and nothing else follows.
"""

from __future__ import annotations

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.client.model.leaving import CHOICE, FAREWELL, LeaveEnds
from dalmuti_net.client.plain.narrator import PlainTable
from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.state import Quit, Send
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator

ENDS_NOW_TOO_FEW = (
    "Leave the table: give up your seat for good. That ends the table now, for everyone: "
    "fewer than four players would be left."
)


def flat(screen: str) -> str:
    return " ".join(screen.split())


def with_people(table: LocalTable, *names: str) -> dict[str, int]:
    """People at the table besides Ana (answered at random, as bots are); their ids."""
    for name in names:
        session = ClientSession(name)
        table.bots[table._connect(session)] = session
    table.pump()
    return {s.name: s.player for s in table.session.table.players}  # type: ignore[union-attr]


def started(table: LocalTable) -> LocalTable:
    table.press("s", "s")  # anyone not ready: started anyway
    assert table.session.table is not None and table.session.table.playing
    return table


def test_the_last_person_at_a_table_of_bots_is_told_leaving_ends_it_now() -> None:
    """The QA case: a headless host, three bots, one person (the host player)."""
    table = started(LocalTable(bots=3))
    table.press("q")
    assert ENDS_NOW_TOO_FEW in flat(draw(table.ui))
    assert "a bot finishes this hand" not in flat(draw(table.ui))
    assert table.ui.press("l") == [Send({"type": "leave"}), Quit()]
    assert table.ui.model.farewell == (
        "You left the table, and it ended: fewer than four players were left."
    )
    table.send({"type": "leave"})
    assert table.table.phase == "ended"  # what the panel said


def test_a_host_player_nobody_can_take_over_from_ends_a_table_of_five_now() -> None:
    table = started(LocalTable(bots=4))
    table.press("q")
    screen = flat(draw(table.ui))
    assert "nobody else connected could take over as host player" in screen
    table.ui.press("l")
    assert table.ui.model.farewell == (
        "You left the table, and it ended: nobody else connected could take over as host player."
    )
    table.send({"type": "leave"})
    assert table.table.phase == "ended"


def test_leaving_four_with_someone_to_take_over_ends_the_table_after_the_hand() -> None:
    table = LocalTable(bots=2)
    people = with_people(table, "Bo")
    started(table)
    table.press("q")
    screen = flat(draw(table.ui))
    assert (
        "Leave the table: give up your seat for good; a bot finishes this hand, then the "
        "table ends: fewer than four players would be left. Bo becomes the host player."
    ) in screen
    assert table.ui.press("l") == [Send({"type": "leave", "heir": people["Bo"]}), Quit()]
    assert table.ui.model.farewell == (
        "You left the table; a bot finishes this hand, then the table ends: fewer than four "
        "players are left."
    )
    table.send({"type": "leave", "heir": people["Bo"]})
    assert table.table.phase == "playing"  # the hand goes on; the engine ends it after
    assert table.table.game is not None and len(table.table.game.leaving) == 1


def test_leaving_five_with_someone_to_take_over_is_as_before() -> None:
    table = LocalTable(bots=3)
    with_people(table, "Bo")
    started(table)
    table.press("q")
    screen = flat(draw(table.ui))
    assert "give up your seat for good; a bot finishes this hand. Bo becomes" in screen
    assert "table ends" not in screen
    table.ui.press("l")
    # The table goes on: one line says what happens to the seat now (it said nothing).
    assert (
        table.ui.model.farewell
        == "You left the table; a bot plays your cards until this hand ends."
    )


def test_the_host_players_terminal_says_leaving_ends_the_table_after_the_hand() -> None:
    """`dalmuti host`: leave and keep hosting, at a table of four."""
    table = LocalTable(bots=2)
    with_people(table, "Bo")
    started(table)
    table.ui.model.local_host = True
    table.press("q")
    screen = flat(draw(table.ui))
    assert "a bot finishes this hand, then the table ends: fewer than four players" in screen
    assert "keeps the table running without you until Ctrl-C" in screen


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_choice_and_the_farewell_are_in_the_language(language: str) -> None:
    table = started(LocalTable(bots=3, language=language))
    t = Translator(language)
    table.press("q")
    said = t._(CHOICE[LeaveEnds.NOW_TOO_FEW])
    assert flat(said) in flat(draw(table.ui))
    if language != "en":
        assert said != CHOICE[LeaveEnds.NOW_TOO_FEW]
    table.ui.press("l")
    assert table.ui.model.farewell == t._(FAREWELL[LeaveEnds.NOW_TOO_FEW])
    if language != "en":
        assert table.ui.model.farewell != FAREWELL[LeaveEnds.NOW_TOO_FEW]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_plain_table_says_it_before_and_once_after(language: str) -> None:
    local = LocalTable(Rules(scoring=True), language=language, bots=3)
    plain = PlainTable(Translator(language), local.session)
    plain.on_status(Status.CONNECTED)
    local.ui = plain  # type: ignore[assignment]
    t = plain.t
    local.send({"type": "snapshot_request"})
    plain.lines()
    for effect in plain.on_line("start"):
        if isinstance(effect, Send):
            local.send(effect.message)
    plain.lines()
    assert plain.on_line("quit") == []
    lines = plain.lines()
    assert lines[2] == "2. " + t._(CHOICE[LeaveEnds.NOW_TOO_FEW])
    effects = plain.on_line("2")
    assert effects == [Send({"type": "leave"}), Quit()]
    local.send({"type": "leave"})  # the host ends the table and says so: not news now
    plain.on_status(Status.CLOSED)
    assert plain.lines() == [t._(FAREWELL[LeaveEnds.NOW_TOO_FEW])]
