"""The table model fed the host's messages, with no front end and no I/O."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from dalmuti_net.client.model.client_model import ClientModel
from dalmuti_net.client.model.table_model import TableModel
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.status import Status
from dalmuti_net.client.table_view import SeatView, TableView
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table
from dalmuti_net.lang.i18n import Translator
from tests import tables
from tests.host.harness import Client, Harness, random_chooser

EN = Translator("en")


def seat(player: int, name: str, **more: Any) -> dict[str, Any]:
    """A seat not ready yet; player 0 is the host player."""
    return tables.seat(player, name, **{"ready": False, "host": player == 0, **more})


def table(*seats: dict[str, Any], phase: str = "lobby") -> dict[str, Any]:
    return tables.table_message(*seats, phase=phase)


def fed(model: TableModel, message: dict[str, Any]) -> Any:
    assert model.session is not None
    model.session.receive(message)
    return model.receive(message)


def model_for_ana() -> TableModel:
    session = ClientSession("Ana")
    session.player = 0
    model = TableModel(EN, session)
    fed(model, table(seat(0, "Ana")))
    return model


def test_the_session_keeps_the_table_decoded_once_and_frozen() -> None:
    """Issue 39.3: the session's ``table`` is the typed view every front end, bot and SDK
    program reads, decoded when the frame arrives; the model reads that same object."""
    model = model_for_ana()
    session = model.session
    assert session is not None and isinstance(session.table, TableView)
    assert model.table is session.table
    assert session.table.seat(0) == SeatView(0, "Ana", "human", True, False, True, True, False)
    with pytest.raises(FrozenInstanceError):
        session.table.name = "Another"  # type: ignore[misc]


def test_the_lobby_is_told_in_the_log_and_the_table_is_typed() -> None:
    model = model_for_ana()
    assert list(model.log) == []  # what was there on arrival is not news
    fed(model, table(seat(0, "Ana"), seat(1, "Bo")))
    assert [line.text for line in model.log] == ["Bo joins the table."]
    assert model.table is not None and model.table.lobby
    assert model.name_of(0) == "Ana (you)" and model.name_of(1) == "Bo"
    # A ready mark is on a screen that draws seats: its log leaves it out...
    fed(model, table(seat(0, "Ana"), seat(1, "Bo", ready=True)))
    assert [line.text for line in model.log] == ["Bo joins the table."]


def test_a_model_without_a_drawn_table_says_who_is_ready() -> None:
    session = ClientSession("Ana")
    session.player = 0
    model = TableModel(EN, session, draws_table=False)
    heard: list[str] = []
    model.on_log = lambda line: heard.append(line.text)
    fed(model, table(seat(0, "Ana"), seat(1, "Bo")))
    fed(model, table(seat(0, "Ana"), seat(1, "Bo", ready=True)))
    assert heard == ["Bo is ready."] and model.logged == 1


def test_a_refusal_is_said_once_and_names_what_the_screen_must_show() -> None:
    model = model_for_ana()
    got = fed(model, {"type": "error", "code": "not_now", "message": "no", "fatal": False})
    assert got.error is not None and got.closed is None and not got.answer_refused
    assert got.rules_refused
    assert [line.kind for line in model.log] == ["error"]
    model.answered = True  # an answer on its way, refused: the decision comes back
    got = fed(model, {"type": "error", "code": "not_now", "message": "no", "fatal": False})
    assert got.answer_refused and not model.answered and model.refused_answers == 1


def test_a_stalled_save_is_over_with_the_next_message_but_a_heartbeat() -> None:
    model = model_for_ana()
    error = {"type": "error", "code": "cannot_save", "message": "disk", "fatal": False}
    assert not fed(model, error).saving_again
    assert not fed(model, {"type": "heartbeat"}).saving_again
    got = fed(model, {"type": "chat", "player": 0, "name": "Ana", "text": "hi"})
    assert got.saving_again
    assert [line.text for line in model.log][-2:] == [
        "The host saves the table again; play goes on.",
        "Ana: hi",
    ]


def test_a_nudge_to_this_seat_is_for_the_screen_too() -> None:
    model = model_for_ana()
    fed(model, table(seat(0, "Ana"), seat(1, "Bo"), phase="playing"))
    got = fed(model, {"type": "nudged", "player": 0, "by": 1})
    assert got.nudge == "Bo nudges you: the table is waiting for you."
    assert fed(model, {"type": "nudged", "player": 1, "by": 0}).nudge is None


def test_the_host_player_reads_their_own_nudge_in_the_second_person() -> None:
    """Issue 40, finding 8: "Ana (you) nudges Eli" in Ana's own log."""
    for language, words in {
        "en": "You nudge Bo: the table is waiting for them.",
        "es": "Avisas a Bo: la mesa le está esperando.",
        "zh_Hant": "你催促 Bo：牌桌正在等他。",
    }.items():
        model = model_for_ana()
        model.t = Translator(language)
        fed(model, table(seat(0, "Ana"), seat(1, "Bo"), seat(2, "Cy"), phase="playing"))
        fed(model, {"type": "nudged", "player": 1, "by": 0})
        assert model.log[-1].text == words
    fed(model, {"type": "nudged", "player": 2, "by": 1})
    assert "(you)" not in model.log[-1].text


def test_a_new_connection_starts_the_seats_news_afresh() -> None:
    """Another table (or the same one joined again) is on screen when it comes: its
    seats are not news measured against the last table's."""
    model = model_for_ana()
    model.connecting()
    fed(model, table(seat(0, "Ana"), seat(5, "Eve"), seat(6, "Fay")))
    assert list(model.log) == []
    model.forget()
    fed(model, table(seat(0, "Ana")))
    assert list(model.log) == []


def test_an_event_the_session_decoded_is_not_decoded_again() -> None:
    model = model_for_ana()
    assert model.session is not None
    message = {"type": "waiting", "seq": 1, "phase": "play", "players": [0]}
    got = fed(model, message)
    assert model.session.decoded is not None and model.session.decoded[0] is message
    assert got.events == [model.session.decoded[1]]
    assert got.events[0] is model.session.decoded[1]  # the very object, decoded once


def test_the_host_player_hears_of_a_joiner_of_the_hosts_first_second() -> None:
    """Issue 40, finding 8: Fay joined before the host player's own terminal had its
    first table, which is on screen, not news: the host's log never said she came."""
    session = ClientSession("Ana")
    session.player = 0
    model = TableModel(EN, session)
    model.opened = True  # the host player's terminal, at a table it just opened
    bot = seat(2, "Random bot", kind="bot")
    fed(model, table(seat(0, "Ana"), seat(1, "Fay"), bot))
    assert [line.text for line in model.log] == ["Fay joins the table."]
    fed(model, table(seat(0, "Ana"), seat(1, "Fay"), bot, seat(3, "Gus")))
    assert [line.text for line in model.log] == ["Fay joins the table.", "Gus joins the table."]


def resumed_during_the_results(keeps_log: bool) -> ClientModel:
    """Bo (a person) plays hand 1 of a real table with Ana and two bots; his client takes
    in everything up to the hand's end, then his link drops and the hand ends while he
    is away (a phone asleep). He comes back with his token during the results pause: with
    the same model (the terminal and --plain reconnect; ``keeps_log``) or a new one (a
    page reloaded)."""
    table = Table("Reload", Rules(scoring=True), seed=21, results_ms=30_000)
    harness = Harness(table, random.Random(1))
    ana = harness.join("Ana", chooser=random_chooser(random.Random(2)))
    session = ClientSession("Bo", person=True)
    session.table_id = table.table_id
    bo = Client(table, session)
    harness.clients.append(bo)
    harness.choosers[bo.connection] = random_chooser(random.Random(3))
    harness.send(bo, session.hello())
    harness.start_with_bots(ana, 2)
    harness.run_until(table.hand_over)
    model = ClientModel(EN, session)
    model.countdowns.clock = lambda: 0.0
    for message in bo.received:
        if message["type"] == "hand_ended":
            break  # what the phone took in before it slept
        model.receive(message)
    assert model.results is None
    harness.drop(bo)
    model.on_status(Status.RECONNECTING)
    if not keeps_log:
        session = ClientSession("Bo", token=session.token, person=True)
        session.table_id = table.table_id
        model = ClientModel(EN, session)
        model.countdowns.clock = lambda: 0.0
    back = Client(table, session)
    harness.clients.append(back)
    harness.send(back, session.hello())
    model.on_status(Status.CONNECTED)
    table.take_journal()  # saved, as the server does before it ticks
    table.tick(1.0)
    harness.deliver()
    for message in back.received:
        model.receive(message)
    assert table.hand_over(), "the host waits for him"
    return model


@pytest.mark.parametrize("keeps_log", [True, False])
def test_a_client_back_during_the_results_shows_the_results_it_missed(keeps_log: bool) -> None:
    model = resumed_during_the_results(keeps_log)
    assert model.results_shown and model.results is not None and model.results.hand == 1
    told = [line.text for line in model.log if line.text.startswith("Hand 1 is over.")]
    assert len(told) == 1
    assert model.reading_results(), "his ready is what the next deal waits for"
    assert model.countdowns.results_left() == 30
    assert model.still_reading() == ["Ana", "Bo (you)"]
