"""Lobby keys and the host player's rule editor: requests, or why not."""

from __future__ import annotations

from typing import Any

import pytest

from dalmuti_net.client.model.views import TableView, decode_table
from dalmuti_net.client.ui.lobby import (
    RULE_FIELDS,
    LobbyKeys,
    RulesEditor,
    not_applicable,
    rule_value_text,
    typed_rule,
)
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import tidy

EN = Translator("en")


def seat(
    player: int, kind: str = "human", host: bool = False, ready: bool = False
) -> dict[str, Any]:
    return {
        "player": player,
        "name": f"P{player}",
        "kind": kind,
        "connected": True,
        "ready": ready,
        "host": host,
        "seated": True,
        "stand_in": False,
    }


def table(*seats: dict[str, Any]) -> TableView:
    return decode_table({"players": list(seats), "rules": Rules().to_dict(), "phase": "lobby"})


def editor_at(key: str) -> RulesEditor:
    editor = RulesEditor()
    editor.index = [f.key for f in RULE_FIELDS].index(key)
    return editor


def test_ready_toggles() -> None:
    keys = LobbyKeys()
    assert keys.press("r", table(seat(1)), 1, False).request == {"type": "ready", "ready": True}
    ready = table(seat(1, ready=True))
    assert keys.press("r", ready, 1, False).request == {"type": "ready", "ready": False}
    problem = keys.press("r", ready, None, False).problem
    assert problem is not None and "Spectators" in problem.show(EN)


def test_only_the_host_player_starts_or_adds_bots() -> None:
    keys = LobbyKeys()
    for key in "sbBxk":
        result = keys.press(key, table(seat(1, host=True), seat(2)), 2, False)
        assert result.problem is not None and result.request is None


def test_start_needs_four_to_eight_players() -> None:
    keys = LobbyKeys()
    few = table(seat(1, host=True), seat(2, "bot"))
    problem = keys.press("s", few, 1, True).problem
    assert problem is not None
    assert problem.show(EN) == "A table starts with 4 to 8 players; 2 are seated."
    enough = table(seat(1, host=True), *(seat(p, "bot") for p in (2, 3, 4)))
    assert keys.press("s", enough, 1, True).request == {"type": "start"}


def test_bots_added_removed_and_players_kicked() -> None:
    keys = LobbyKeys()
    lobby = table(seat(1, host=True), seat(2, "bot"), seat(3))
    assert keys.press("b", lobby, 1, True).request == {"type": "add_bot", "strategy": "heuristic"}
    assert keys.press("B", lobby, 1, True).request == {"type": "add_bot", "strategy": "random"}
    keys.press("down", lobby, 1, True)
    assert keys.press("x", lobby, 1, True).request == {"type": "remove_bot", "player": 2}
    keys.press("down", lobby, 1, True)
    assert keys.press("x", lobby, 1, True).problem is not None  # not a bot
    assert keys.press("k", lobby, 1, True).request == {"type": "kick", "player": 3}
    keys.press("down", lobby, 1, True)  # wraps to the host player
    problem = keys.press("k", lobby, 1, True).problem
    assert problem is not None and "cannot be removed" in problem.show(EN)
    full = table(seat(1, host=True), *(seat(p, "bot") for p in range(2, 9)))
    assert keys.press("b", full, 1, True).problem is not None


def test_rules_editor_switches_and_steps() -> None:
    rules = Rules().to_dict()
    assert editor_at("stripped_decks").press("space", rules).request == {
        "type": "set_rules",
        "rules": {"stripped_decks": True},
    }
    assert editor_at("hand_limit").press("+", rules).request == {
        "type": "set_rules",
        "rules": {"hand_limit": 20},
    }
    assert editor_at("misdeal_chance").press("right", rules).request == {
        "type": "set_rules",
        "rules": {"misdeal_chance": 0.05},
    }
    assert editor_at("misdeal_chance").press("left", rules).request is None  # already 0


def test_philanthropic_scoring_needs_scoring_rule_16() -> None:
    rules = Rules().to_dict()
    problem = editor_at("philanthropic_scoring").press("space", rules).problem
    assert problem is not None and "turn scoring on first" in problem.show(EN)
    scored = Rules(scoring=True, philanthropic_scoring=True).to_dict()
    assert editor_at("scoring").press("space", scored).request == {
        "type": "set_rules",
        "rules": {"scoring": False, "philanthropic_scoring": False},
    }
    problem = editor_at("hand_limit").press("-", {**scored, "hand_limit": 1}).problem
    assert problem is not None


def test_rule_values_in_words() -> None:
    assert rule_value_text(EN, "scoring", True) == "on"
    assert rule_value_text(EN, "hand_limit", None) == "no limit"
    assert rule_value_text(EN, "misdeal_chance", 0.25) == "25%"
    assert rule_value_text(Translator("es"), "scoring", False) == "no"


# ----------------------------------------------------------------------------- at a table


def lobby_with_bea(language: str = "en") -> tuple[Any, Any]:
    from ui_support import LocalTable

    from dalmuti_net.client.session import ClientSession

    local = LocalTable(language=language, bots=2)  # Ana, the first to come, is the host
    bea = ClientSession("Bea")
    local._connect(bea)
    local.pump()
    return local, bea


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_start_says_who_is_not_ready_and_the_host_may_start_anyway(language: str) -> None:
    from ui_support import draw

    local, _ = lobby_with_bea(language)
    t = local.ui.t
    assert local.ui.not_ready() == ["Bea"]
    screen = draw(local.ui)
    assert "Bea" in screen and t._("not ready") in screen
    local.press("s")
    assert local.table.phase == "lobby" and local.ui.confirmation is not None
    assert "Bea" in draw(local.ui) and t._("start anyway") in draw(local.ui)
    local.press("escape")
    assert local.table.phase == "lobby" and local.ui.confirmation is None
    local.press("s", "s")
    assert local.sent[-1] == {"type": "start"} and local.table.phase == "playing"


def test_when_everyone_is_ready_start_starts() -> None:
    local, _ = lobby_with_bea()
    local._send(max(local.table.connections), {"type": "ready", "ready": True})  # Bea's
    local.pump()
    assert local.ui.not_ready() == []
    local.press("s")
    assert local.ui.confirmation is None and local.table.phase == "playing"


def test_numbers_are_typed_in_the_rules_panel() -> None:
    from ui_support import LocalTable, draw

    local = LocalTable()
    local.press("o", *["down"] * 3)  # Hands to play
    local.press("2", "0", "enter")
    assert local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": 20}}
    local.press("enter", "enter")  # empty: no limit
    assert local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": None}}
    local.press("7", "x", "backspace", "backspace", "enter")
    assert local.sent[-1]["rules"] == {"hand_limit": None}
    local.press("0", "enter")
    assert "Type a whole number from 1 to 1000." in draw(local.ui)
    local.press(*["down"] * 3, "1", "5", "enter")  # Misdeal chance, in percent
    assert local.sent[-1] == {"type": "set_rules", "rules": {"misdeal_chance": 0.15}}
    assert "15%" in draw(local.ui)


def test_typed_values_are_checked() -> None:
    rules = Rules(scoring=True).to_dict()
    assert typed_rule("hand_limit", "", rules).problem is not None
    assert typed_rule("hand_limit", "1001", rules).problem is not None
    assert typed_rule("misdeal_chance", "101", rules).problem is not None
    assert typed_rule("misdeal_chance", "20%", rules).request == {
        "type": "set_rules",
        "rules": {"misdeal_chance": 0.2},
    }


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_rules_that_cannot_apply_to_the_seats_say_so(language: str) -> None:
    from ui_support import LocalTable, draw

    local = LocalTable(language=language)
    t = local.ui.t
    local.press("o", *["down"] * 5, "space")  # Merchant exchange on, with 4 seated
    needs = t.n_(
        "The Merchant exchange needs 6 players or more: {n} is seated.",
        "The Merchant exchange needs 6 players or more: {n} are seated.",
        4,
    ).format(n=4)
    assert needs in draw(local.ui, 120, 40).replace("\n", "")
    local.press("escape", "b", "b")
    assert needs.split(":")[0] not in draw(local.ui, 120, 40)  # 6 seated: it applies
    assert not_applicable("stripped_decks", 6) is not None
    assert not_applicable("stripped_decks", 5) is None
    assert not_applicable("merchant_exchange", 6) is None


def test_one_cursor_at_a_time() -> None:
    from ui_support import LocalTable, draw

    local = LocalTable()
    assert draw(local.ui).count("▶") == 1  # the seats'
    local.press("o")
    assert draw(local.ui).count("▶") == 1  # the rules panel's only


def test_joins_and_leaves_are_in_everyones_log() -> None:
    from ui_support import draw

    local, _ = lobby_with_bea("es")
    assert "Bea se une a la mesa." in draw(local.ui)
    bea_connection = max(local.table.connections)
    local._send(bea_connection, {"type": "leave"})
    local.pump()
    assert "Bea deja la mesa." in draw(local.ui)
    local.press("down", "x")  # Ana removes a bot
    assert "deja la mesa." in local.ui.log[-1].text


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_spectator_arriving_mid_hand_gets_the_hand_so_far(language: str) -> None:
    from test_ui_screens import answer
    from ui_support import LocalTable, draw

    from dalmuti_net.client.session import ClientSession
    from dalmuti_net.client.ui.state import ClientUi

    def watcher(name: str) -> tuple[ClientSession, ClientUi, int]:
        session = ClientSession(name, spectator=True)
        return session, ClientUi(t, session, address="test"), local._connect(session)

    def catch_up(session: ClientSession, ui: ClientUi, connection: int) -> list[str]:
        for message in local._take(connection):
            session.receive(message)
            ui.on_message(message)
        return [line.text for line in ui.log if line.kind == "event"]

    t = Translator(language)
    local = LocalTable(Rules(scoring=True), seed=5, bots=3)
    early = watcher("Eve")
    local.press("s")
    for hand in (1, 2):
        for _ in range(3):
            answer(local)
        observation = local.session.observation
        assert observation is not None and observation.hand_number == hand
        seen_from_the_start = catch_up(*early)
        begins = t._("Hand {hand} of {limit} begins.").format(hand=hand, limit=20)
        start = seen_from_the_start.index(begins)
        late = watcher(f"Zoe{hand}")
        arrived = catch_up(*late)
        assert arrived == seen_from_the_start[start:]  # the same lines, in the same order
        assert len(arrived) > 4
        assert tidy(arrived[-1]) in draw(late[1], 120, 40)  # as the screen writes it
        while local.session.observation.phase != "hand_over":  # type: ignore[union-attr]
            answer(local)
        local.next_hand()


def test_the_rules_menu_takes_every_key_of_a_burst() -> None:
    """Five ← pressed before the host's answer arrives move the value by five, not one."""
    from ui_support import LocalTable

    from dalmuti_net.client.ui.lobby import RULE_FIELDS
    from dalmuti_net.client.ui.state import Send
    from dalmuti_net.engine import Rules

    local = LocalTable(Rules(scoring=True, hand_limit=20))
    local.press("o", *["down"] * [f.key for f in RULE_FIELDS].index("hand_limit"))
    burst = [effect for _ in range(5) for effect in local.ui.press("left")]
    for effect in burst:  # sent one after the other; the table answers only afterwards
        assert isinstance(effect, Send)
        local.send(effect.message)
    assert local.table.rules.hand_limit == 15
    local.press("left")  # the table has caught up: on from there
    assert local.table.rules.hand_limit == 14
