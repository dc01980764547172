"""The web table's lobby and ended table name its buttons, not keys (issue 33): one table
model, two wordings; the terminal keeps its keys."""

from __future__ import annotations

import pytest
from test_ui_evening import play_until_ended
from ui_support import LocalTable, draw

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.state import ClientUi, Send
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.web.view import MAX_COLS, choose, render_view


def page(ui: ClientUi) -> tuple[str, list[str]]:
    """The web table's text (its screen, and its table's turn line) and button labels."""
    view = render_view(ui, MAX_COLS, 40)  # as wide as a page is drawn: no line wrapped
    lines = ["".join(text for _, text in line) for line in view["screen"]]
    if view["table"] is not None:
        lines.append("".join(text for _, text in view["table"]["turn"]))
    return "\n".join(lines), [button["label"] for button in view["buttons"]]


class SecondPlayer:
    """Bo at the same table, with a table model of his own; played at random by the local
    table while ``table.bots`` holds his connection."""

    def __init__(self, table: LocalTable, language: str) -> None:
        self.table = table
        self.language = language
        self.session = ClientSession("Bo")
        self.connection = table._connect(self.session)
        self.look()

    def look(self) -> ClientUi:
        """A table model of Bo's, from a fresh snapshot."""
        self.ui = ClientUi(Translator(self.language), self.session, address="test")
        self.ui.on_status(Status.CONNECTED)
        self.table._send(self.connection, {"type": "snapshot_request"})
        self.pump()
        return self.ui

    def pump(self) -> None:
        self.table.pump()
        for message in self.table._take(self.connection):
            self.session.receive(message)
            self.ui.on_message(message)

    def press(self, key: str) -> None:
        for effect in self.ui.press(key):
            if isinstance(effect, Send):
                self.table._send(self.connection, effect.message)
        self.pump()


def tapped(t: Translator, label: str) -> str:
    return t._("“{label}”").format(label=t._(label))


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_web_lobby_says_which_button_to_tap(language: str) -> None:
    t = Translator(language)
    table = LocalTable(Rules(hand_limit=1), seed=2, language=language, bots=2)
    bo = SecondPlayer(table, language)
    text, buttons = page(bo.ui)
    assert t._("ready") in buttons
    said = t._("Waiting for the host player to start. Tap {button} when you are ready.")
    assert said.format(button=tapped(t, "ready")) in text
    assert t._("Waiting for the host player to start. Press r when you are ready.") in draw(bo.ui)
    # The host player: enough players, Bo not ready yet.
    text, buttons = page(table.ui)
    assert t._("start") in buttons
    waits = t.n_(
        "Enough players. Not ready yet: {names} (tap {button} to start anyway).",
        "Enough players. Not ready yet: {names} (tap {button} to start anyway).",
        1,
    )
    assert waits.format(names="Bo", button=tapped(t, "start")) in text
    bo.press("r")
    text, _ = page(table.ui)
    assert t._("Enough players: tap {button} to start.").format(button=tapped(t, "start")) in text
    assert t._("Enough players: press s to start.") in draw(table.ui, 120, 40)
    # Over: the host player offers a rematch, Bo accepts it by the same button.
    table.press("s")
    table.bots[bo.connection] = bo.session  # he plays at random meanwhile
    play_until_ended(table)
    del table.bots[bo.connection]
    table.press("enter")  # past the last hand's points, to the final standings
    text, buttons = page(table.ui)
    assert t._("rematch") in buttons
    offer = t._("Tap {button} to offer a rematch with the same seats.")
    assert offer.format(button=tapped(t, "rematch")) in text
    assert t._("r offers a rematch with the same seats.") in draw(table.ui, 120, 40)
    table.press("r")
    text, buttons = page(bo.look())
    accept = t._("The host player offers a rematch with the same seats: tap {button} to accept.")
    assert accept.format(button=tapped(t, "ready")) in text and t._("ready") in buttons
    for sentence in (text, page(table.ui)[0]):
        assert (
            "press " not in sentence.casefold()
            and "pulsa" not in sentence
            and "按 " not in sentence
        )


def play_until_results(table: LocalTable) -> None:
    """Answer at random until a hand's results are on screen."""
    for _ in range(2000):
        if table.ui.model.results is not None:
            return
        decision = table.session.decision
        if decision is None or table.ui.model.choosing is None:
            table.pump()
            continue
        table.send(table.ui.model._answer_message(random_answer(decision, table.rng)))
    raise AssertionError("no hand ended")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_web_results_name_their_buttons_and_the_last_hands_are_shown(
    language: str,
) -> None:
    t = Translator(language)
    table = LocalTable(Rules(scoring=True, hand_limit=2), seed=2, language=language, bots=3)
    table.press("s")
    play_until_results(table)
    view = render_view(table.ui, MAX_COLS, 40)
    results = view["table"]["results"]
    labels = [button["label"] for button in view["buttons"]]
    read = t._("Tap {button} when you have read them.")
    assert read.format(button=tapped(t, "ready for the next hand")) in results["next"]
    assert t._("ready for the next hand") in labels
    assert view["table"]["turn"] == []  # the results say what the table waits for
    # The last hand: its points first (as on the terminal), then the standings by a tap.
    table.next_hand()
    play_until_ended(table)
    view = render_view(table.ui, MAX_COLS, 40)
    results = view["table"]["results"]
    assert results is not None and t._("Points") in results["headers"]
    last = t._("That was the last hand: tap {button} for the final standings.")
    assert results["next"] == last.format(button=tapped(t, "final standings"))
    assert {"key": "enter", "label": t._("final standings")} in view["buttons"]
    assert view["table"]["standings"] == []
    choose(table.ui, {"key": "enter"})
    view = render_view(table.ui, MAX_COLS, 40)
    assert view["table"]["results"] is None and view["table"]["standings"]
    assert t._("rematch") in [button["label"] for button in view["buttons"]]
