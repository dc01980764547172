"""The view model and the screen, driven by a real sans-I/O table with random bots."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.client.model.choosers import (
    ExchangeChooser,
    MisdealChooser,
    PlayChooser,
    RevolutionChooser,
    TaxChooser,
)
from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.state import ClientUi, Join, Quit, Screen, Send
from dalmuti_net.engine import (
    ExchangeDecision,
    MisdealDecision,
    PlacementDecision,
    RevolutionDecision,
    Rules,
    TaxDecision,
)
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.discovery import listing_from_record
from dalmuti_net.protocol.messages import decision_message

SIZES = [(80, 24), (120, 40), (100, 30), (60, 20)]


def answer(table: LocalTable) -> None:
    """Answer the UI's decision by keys, as a player would."""
    ui = table.ui
    chooser = ui.model.chooser
    assert chooser is not None
    if isinstance(chooser, PlayChooser):
        for keys in (["enter"], ["p"], ["tab", "enter"]):
            if table.press(*keys):
                return
        raise AssertionError("no key sequence answered the play decision")
    if isinstance(chooser, TaxChooser):
        while chooser.total < chooser.decision.count:
            before = chooser.total
            table.press("up")
            if chooser.total == before:
                table.press("right")
        table.press("enter")
    elif isinstance(chooser, RevolutionChooser):
        table.press("n")
    elif isinstance(chooser, MisdealChooser):
        table.press("p")
    elif isinstance(chooser, ExchangeChooser):
        table.press("down", "right", "enter")
    else:
        table.press("right", "enter")


def play_hand(table: LocalTable, sizes: list[tuple[int, int]]) -> set[str]:
    """Play until the hand is over, drawing the screen at each decision; kinds seen."""
    seen: set[str] = set()
    observation = table.session.observation
    for _ in range(500):
        observation = table.session.observation
        assert observation is not None
        if observation.phase in ("hand_over", "ended"):
            return seen
        assert table.ui.model.chooser is not None, "the table waits for nobody but us"
        seen.add(type(table.ui.model.chooser).__name__)
        for cols, rows in sizes:
            draw(table.ui, cols, rows)
        answer(table)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_lobby_then_a_whole_hand_by_keys(language: str) -> None:
    table = LocalTable(language=language, seed=3)
    t = table.ui.t
    lobby = draw(table.ui)
    assert t._("Lobby") in lobby and "Ana" in lobby and "Random bot (3)" in lobby
    table.press("r")
    assert t._("ready") in draw(table.ui)
    table.press("s")
    assert table.sent[-1] == {"type": "start"}
    seen = play_hand(table, SIZES)
    assert "PlayChooser" in seen
    screen = draw(table.ui)
    assert t._("Hand {hand} is over").format(hand=1) in screen  # the results screen
    table.press("escape")  # the table, while the next deal waits for Ana
    screen = draw(table.ui)
    waiting = t._("The next hand is dealt once everyone is ready; waiting for {names}.")
    assert waiting.format(names=table.ui.model.name_of(table.session.player or 0)) in screen
    assert table.sent[-1]["type"] != "ready"  # nothing said: she has not read them yet
    table.press("enter")  # read: the only person at the table is ready, the next hand comes
    assert table.sent[-1] == {"type": "ready", "ready": True}
    assert t._("Hand {hand}").format(hand=2) in draw(table.ui)
    table.next_hand()
    assert table.session.observation is not None and table.session.observation.hand_number == 2
    seen |= play_hand(table, [(80, 24)])
    assert "TaxChooser" in seen or "RevolutionChooser" in seen


def test_every_optional_rule_with_six_players() -> None:
    rules = Rules.all_optional(misdeal_chance=1.0)
    kinds: set[str] = set()
    for seed in range(4):
        table = LocalTable(rules, seed=seed, bots=5)
        table.press("s")
        for _ in range(3):
            kinds |= play_hand(table, [(80, 24)])
            table.next_hand()
    assert {"PlayChooser", "TaxChooser", "MisdealChooser"} <= kinds


def playing_table(language: str = "en") -> LocalTable:
    table = LocalTable(language=language, seed=5)
    table.press("s")
    return table


DECISIONS = [
    (TaxDecision(2, (1, 4, 4, 9, 13), receiver=2), "Random bot"),
    (RevolutionDecision(greater=False), "y"),
    (MisdealDecision(card=5, intended=2, peon=3), "i"),
    (ExchangeDecision(merchants=(2, 3), cards=(4, 9)), "d"),
    (PlacementDecision(newcomer=3, positions=(2,)), "Enter"),
]


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize(("decision", "shown"), DECISIONS)
def test_each_decision_screen_fits_and_shows_its_keys(
    language: str, decision: object, shown: str
) -> None:
    table = playing_table(language)
    message = decision_message(decision, decision_id=1)  # type: ignore[arg-type]
    table.session.receive(message)
    table.ui.on_message(message)
    assert table.ui.model.chooser is not None
    prompt = table.ui.model.chooser.prompt(table.ui.t, table.ui.model.namer())
    for cols, rows in SIZES:
        screen = draw(table.ui, cols, rows)
        assert table.ui.t._("Your turn!") in screen
        # A key, translated; or the bot's one name, the same in every language.
        assert (shown if shown == "Random bot" else table.ui.t._(shown)) in screen
    assert prompt.split()[0] in draw(table.ui, 120, 40)


def test_an_illegal_play_is_explained_and_nothing_is_sent() -> None:
    table = playing_table()
    while (
        not isinstance(table.ui.model.chooser, PlayChooser)
        or table.ui.model.chooser.decision.may_pass
    ):
        answer(table)
    sent = len(table.sent)
    table.press("p")
    assert len(table.sent) == sent
    assert "must play a set, not pass" in draw(table.ui)


def test_a_refused_answer_is_shown_and_the_decision_comes_back() -> None:
    table = playing_table()
    while not isinstance(table.ui.model.chooser, PlayChooser):
        answer(table)
    chooser = table.ui.model.chooser
    sent = table.ui.press("enter")  # the answer goes out, but the host refuses it
    assert isinstance(sent[0], Send) and sent[0].message["type"] == "play"
    assert table.ui.model.choosing is None
    error = {"type": "error", "code": "not_better", "message": "x", "fatal": False}
    table.session.receive(error)
    effects = table.ui.on_message(error)
    assert effects == [Send({"type": "snapshot_request"})]
    table.send({"type": "snapshot_request"})
    assert table.ui.model.choosing is not None and table.ui.model.choosing is not chooser
    assert "better (lower) rank" in draw(table.ui)


def test_version_mismatch_is_a_sentence_with_both_versions() -> None:
    ui = ClientUi(Translator("en"), ClientSession("Ana"), address="10.0.0.9:7341")
    error = {
        "type": "error",
        "code": "version_mismatch",
        "message": "no",
        "fatal": True,
        "host_version": 2,
        "client_version": 1,
    }
    ui.model.session.receive(error)  # type: ignore[union-attr]
    ui.on_message(error)
    ui.on_status(Status.CLOSED)
    assert ui.model.screen is Screen.PROBLEM
    screen = draw(ui)
    assert "protocol version 2" in screen and "version 1" in screen
    assert "pipx install --force ." in screen  # what to do, as the README installs it
    assert "Traceback" not in screen
    assert ui.press("q") == [Quit()]
    zh = ClientUi(Translator("zh_Hant"), ClientSession("Ana"))
    zh.model.session.receive(error)  # type: ignore[union-attr]
    zh.on_message(error)
    assert "協定版本 2" in draw(zh)


def test_unreachable_host_and_goodbye() -> None:
    ui = ClientUi(Translator("es"), ClientSession("Ana"), address="192.0.2.1:7341")
    ui.model.cannot_connect("Connection refused")
    screen = draw(ui)
    assert "No se pudo contactar" in screen and "192.0.2.1:7341" in screen
    assert "VPN" in screen  # what to check
    table = playing_table()
    goodbye = {"type": "goodbye", "reason": "the host is closing the table"}
    table.session.receive(goodbye)
    table.ui.on_message(goodbye)
    assert "The host closed the connection." in draw(table.ui)
    stopped = {"type": "goodbye", "reason": "stopping", "code": "shutting_down"}
    table.session.receive(stopped)
    table.ui.on_message(stopped)
    assert "The host stopped the table." in draw(table.ui)


def test_reconnecting_is_shown_then_cleared() -> None:
    table = playing_table()
    table.ui.on_status(Status.RECONNECTING)
    screen = draw(table.ui)
    assert "connection lost, reconnecting" in screen
    assert "Connection lost; reconnecting" in screen
    table.ui.on_status(Status.CONNECTED)
    assert "● connected" in draw(table.ui)
    assert "Reconnected." in draw(table.ui)


def test_chat_and_help() -> None:
    table = LocalTable(language="zh_Hant")
    table.press("t", *"你好", "space", "!", "enter")
    assert table.sent[-1] == {"type": "chat", "text": "你好 !"}
    assert "Ana: 你好 !" in draw(table.ui)
    table.press("?")
    assert "說明" in draw(table.ui)
    table.press("escape")
    assert table.ui.overlay is None


def test_rules_overlay_sends_changes_for_the_host_player() -> None:
    table = LocalTable()
    table.press("o", "down", "down", "space")
    assert table.sent[-1] == {"type": "set_rules", "rules": {"scoring": True}}
    screen = draw(table.ui)
    assert "Scoring (rule 15)" in screen and "Hands to play" in screen
    table.press("escape")
    assert "Scoring (rule 15)" in draw(table.ui)  # the summary of rules in force


def listing(name: str, version: bytes, code: bytes = b"0", port: int = 7341) -> object:
    return listing_from_record(
        instance_name=f"{name}._dalmuti._tcp.local.",
        server="host.local.",
        addresses=["127.0.0.1"],
        port=port,
        txt={
            b"pv": version,
            b"name": name.encode(),
            b"phase": b"lobby",
            b"seats": b"3/8",
            b"code": code,
        },
    )


def test_discovery_list_and_joining() -> None:
    ui = ClientUi(Translator("en"), name="Ana")
    assert "Looking for tables" in draw(ui)
    ui.model.note_discovery_slow()
    assert "same network" in draw(ui) and "VPN" in draw(ui)
    old = listing("Old table", b"99")
    good = listing("Bea's table", str(PROTOCOL_VERSION).encode(), code=b"1", port=7400)
    ui.set_listings([good, old])  # type: ignore[list-item]
    screen = draw(ui)
    assert "Bea's table" in screen and "127.0.0.1:7400" in screen and "3/8" in screen
    assert "99 ✗" in screen and f"{PROTOCOL_VERSION} ✓" in screen
    ui.press("down")
    assert f"protocol 99, ours {PROTOCOL_VERSION}" in draw(ui)
    ui.press("up")
    ui.press("down")
    assert ui.press("enter") == []
    assert "protocol version 99" in draw(ui)
    ui.set_listings([good])  # type: ignore[list-item]
    assert ui.press("enter") == []
    assert ui.model.screen is Screen.FORM and ui.editor is not None and ui.editor.text == "Ana"
    ui.press("backspace")
    ui.press("backspace")
    assert ui.press("enter") == []  # the table needs a join code
    assert ui.editor is not None and ui.editor.purpose == "code"
    for char in "pear":
        ui.press(char)
    assert ui.press("enter") == [Join("127.0.0.1", 7400, "A", "pear")]


def test_join_by_address_from_the_list() -> None:
    ui = ClientUi(Translator("en"), name="Ana", name_given=True)
    ui.press("a")
    for char in "nope:x":
        ui.press(char)
    ui.press("enter")
    assert ui.model.notice is not None and "port" in ui.model.notice.text
    assert ui.editor is not None
    for _ in "nope:x":
        ui.press("backspace")
    for char in "127.0.0.1:7400":
        ui.press(char)
    assert ui.press("enter") == [Join("127.0.0.1", 7400, "Ana", None)]


def test_spectators_see_the_table_but_no_hand() -> None:
    table = LocalTable(name="Eve", spectator=True, bots=4)
    table.table.start()
    table.pump()
    assert table.ui.model.me is None and table.ui.model.chooser is None
    assert "Hand 1 is over" in draw(table.ui)  # four bots play a hand in no time
    table.ui.press("enter")
    screen = draw(table.ui)
    assert "You are watching" in screen and "Your hand" not in screen
    assert "Random bot (4)" in screen
    assert table.ui.press("r") == []  # nothing to be ready for, nothing sent


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_last_hands_results_have_no_next_hand_column(language: str) -> None:
    """No hand follows the last: its results show places and points, not the roles of a
    next hand; a player who left then is marked beside their name instead."""
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=2, language=language)
    t = Translator(language)
    table.press("s")
    play_hand(table, [(80, 24)])
    table.next_hand()
    assert table.ui.model.results is not None
    leaver = table.ui.model.results.finishing[-1]
    assert table.session.table is not None
    players = tuple(
        replace(seat, left=seat.player == leaver) for seat in table.session.table.players
    )
    table.session.table = replace(table.session.table, players=players)
    for cols, rows in SIZES:
        screen = draw(table.ui, cols, rows)
        assert t._("Next hand") not in screen
        assert "♔" not in screen  # no next hand's crown
        assert t._("Points") in screen and t._("Total") in screen
    marked = t._("{name} ({note})").format(name=table.ui.model.name_of(leaver), note=t._("left"))
    assert marked in draw(table.ui, 80, 24)


def test_ended_table_shows_standings() -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=2)
    table.press("s")
    play_hand(table, [(80, 24)])
    table.next_hand()
    observation = table.session.observation
    assert observation is not None and observation.ended is not None
    screen = draw(table.ui, 80, 30)
    # The last hand's points first, then the final standings.
    assert "Hand 1 is over" in screen and "Points" in screen and "Final standings" not in screen
    assert "That was the last hand: the final standings come next." in screen
    assert "any key final standings" in screen  # the key, in the footer
    table.press("enter")
    screen = draw(table.ui, 80, 30)
    assert "Final standings" in screen and "The table is over" in screen
    assert table.ui.press("q") == [Quit()]
