"""The terminal draws the typed view (issue 39): every sentence, row and mark of its lobby,
trick and shared screens comes from ``client/model/display.display``, written once for every
front end; the terminal adds only its keys and widths. Each test here draws the screen from
a view whose words are changed (upper case) and finds the changed words on screen: a screen
part that words itself again would show the model's words unchanged."""

from __future__ import annotations

import re

import pytest
from ui_support import LocalTable, SecondPlayer, draw, shouted

from dalmuti_net.client.model import display as display_module
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui import screen as screen_module
from dalmuti_net.client.ui.state import ClientUi
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.discovery import listing_from_record

PV = str(PROTOCOL_VERSION).encode()


def listing(name: str, version: bytes) -> object:
    return listing_from_record(
        instance_name=f"{name}._dalmuti._tcp.local.",
        server="host.local.",
        addresses=["127.0.0.1"],
        port=7341,
        txt={
            b"pv": version,
            b"name": name.encode(),
            b"phase": b"lobby",
            b"seats": b"3/8",
            b"code": b"1",
        },
    )


@pytest.fixture
def loud(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal draws a view whose words are in upper case."""
    monkeypatch.setattr(
        screen_module, "display", lambda model: shouted(display_module.display(model))
    )


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def assert_drawn(screen: str, *texts: str) -> None:
    on_screen = squeezed(screen)
    for text in texts:
        assert text.upper() != text, text  # a word the test can tell apart
        assert squeezed(text.upper()) in on_screen, f"{text!r} not drawn from the view:\n{screen}"


def test_the_lobby_is_drawn_from_the_view(loud: None) -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=3), bots=2)
    bo = SecondPlayer(table, "en")
    for ui in (table.ui, bo.ui):
        lobby = display_module.display(ui.model).lobby
        assert lobby is not None
        screen = draw(ui, 100, 30)
        marks = [mark.text for seat in lobby.seats for mark in seat.marks]
        names = [seat.name for seat in lobby.seats]
        assert_drawn(screen, lobby.heading, lobby.summary, lobby.clocks, lobby.waiting)
        assert_drawn(screen, lobby.rules_title, *names, *marks)
    table.press("o")  # the host player's rule options: the view's rows
    lobby = display_module.display(table.ui.model).lobby
    assert lobby is not None
    screen = draw(table.ui, 100, 30)
    assert_drawn(
        screen,
        *(row.label for row in lobby.rules),
        *(row.value for row in lobby.rules if row.value.upper() != row.value),
    )


def test_the_table_its_trick_and_the_hand_are_drawn_from_the_view(loud: None) -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=4)
    table.press("s")

    def two_plays_on_my_turn() -> bool:
        state = display_module.display(table.ui.model).table
        return bool(state and state.decision and state.trick_current and len(state.trick) > 1)

    table.play_until(two_plays_on_my_turn)
    state = display_module.display(table.ui.model).table
    assert state is not None
    assert state.trick_current and state.hand is not None and state.decision is not None
    seats = [text for seat in state.seats for text in (seat.name, seat.role_name)]
    plays = [play.text for play in state.trick]
    for cols, rows in ((120, 40), (80, 24)):  # the trick beside the seats, and under them
        screen = draw(table.ui, cols, rows)
        top = next(play.text for play in state.trick if play.top)
        assert_drawn(screen, state.heading, state.trick_title, top, state.turn, *seats)
        assert_drawn(screen, state.hand.title, state.decision.prompt, *state.columns[:3])
    assert_drawn(draw(table.ui, 120, 40), *plays)


def test_the_results_and_the_final_standings_are_drawn_from_the_view(loud: None) -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=2)
    table.press("s")
    table.play_until(lambda: table.ui.model.ended)  # one hand: the table ends with it
    state = display_module.display(table.ui.model).table
    assert state is not None and state.results is not None and state.results.last
    results = state.results
    cells = [cell for row in results.rows for cell in row.cells if cell.upper() != cell]
    assert_drawn(draw(table.ui, 80, 30), results.title, *results.headers, *cells, results.next)
    table.press("enter")  # the final standings
    state = display_module.display(table.ui.model).table
    assert state is not None and state.standings and state.results is None
    names = [row.name for row in state.standings]
    assert_drawn(draw(table.ui, 80, 30), state.turn, *names)


def test_finding_a_table_and_joining_are_drawn_from_the_view(loud: None) -> None:
    ui = ClientUi(Translator("en"), name="Ana")
    ui.model.note_discovery_slow()
    view = display_module.display(ui.model)
    assert view.finding is not None and view.finding.slow
    assert_drawn(draw(ui, 100, 30), view.title, view.finding.looking, *view.finding.slow)
    old = listing("Old table", b"0")  # another protocol: a note under the list
    ui.set_listings([old])  # type: ignore[list-item]
    ui.discovery_index = 0
    view = display_module.display(ui.model)
    assert view.finding is not None
    found = view.finding.tables[0]
    assert found.notes and not found.compatible
    screen = draw(ui, 100, 30)
    assert_drawn(screen, *view.finding.headers, found.name, found.phase, *found.notes)
    ui.set_listings([listing("Ana's table", PV)])  # type: ignore[list-item]
    ui.press("enter")  # its name is given: the code is asked for
    view = display_module.display(ui.model)
    assert view.screen == "form" and view.field is not None
    assert_drawn(draw(ui), view.title, view.field.label)


def test_a_refusal_and_the_quit_question_are_drawn_from_the_view(loud: None) -> None:
    ui = ClientUi(Translator("es"), ClientSession("Ana"), address="192.0.2.1:7341")
    ui.model.cannot_connect("refused", "refused")
    view = display_module.display(ui.model)
    assert view.refusal is not None
    assert_drawn(draw(ui, 100, 30), view.refusal.title, *view.refusal.sentences)
    table = LocalTable(Rules(), language="es")
    table.press("s", "q")  # at a table being played: what quitting means, asked first
    view = display_module.display(table.ui.model)
    assert view.question is not None
    sentences = [choice.sentence for choice in view.question.choices if choice.sentence]
    assert_drawn(draw(table.ui, 100, 30), view.question.title, *sentences)
    assert_drawn(draw(table.ui, 100, 30), view.connection.text)


def test_the_help_says_the_clocks_once_for_the_terminal_and_the_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The clocks of an evening are one text; the terminal names its keys in it, the page
    its buttons."""
    from dalmuti_net.client.model import help as shared
    from dalmuti_net.client.ui.help import help_sections
    from dalmuti_net.web.view import page_help

    said = "Clocks: {rules}, {auto_pass}, {nudge}, {skip}, {read}, {rematch}, {ready}."
    monkeypatch.setattr(shared, "CLOCKS", ("Evening", said))
    t = Translator("en")
    terminal = dict(help_sections(t))["Evening"]
    page = dict((title, text) for title, text in page_help(t))["Evening"]
    assert terminal == "Clocks: the o key, the a key, the n key, the N key, the Enter key, " + (
        "the r key, the r key."
    )
    named = page.removeprefix("Clocks: ").removesuffix(".").split(", ")  # the page's buttons
    assert len(named) == 7 and named[1] == "its button"
    assert all(name.startswith("“") and name.endswith("”") for name in named[:1] + named[2:])


def test_the_lobbys_keys_are_those_of_the_intents_the_view_offers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The footer offers a lobby key for each intent ``display.can`` says makes sense, and
    only those (the page offers a button for each)."""
    from dalmuti_net.client.ui import state as state_module

    table = LocalTable(Rules(), bots=2)
    bo = SecondPlayer(table, "en")
    assert "s start" in draw(table.ui) and "o rules" in draw(table.ui)
    assert "r ready" in draw(bo.ui) and "s start" not in draw(bo.ui)
    monkeypatch.setattr(state_module, "can", lambda model: ("chat", "exit", "kick"))
    footer = "\n".join(draw(table.ui).splitlines()[-2:])
    assert "k kick" in footer and "s start" not in footer and "o rules" not in footer
