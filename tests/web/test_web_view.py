"""The web table's view and choices, without a browser: every decision kind is offered as
buttons the page can tap, each tap is the terminal's own key press, and an illegal choice
is explained before anything is sent (the chooser's own checks)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.help import help_text_lines
from dalmuti_net.client.ui.hints import Hint
from dalmuti_net.client.ui.state import ClientUi, Screen, Send
from dalmuti_net.engine import (
    CardSet,
    Decision,
    ExchangeDecision,
    MisdealDecision,
    Observation,
    PlacementDecision,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
from dalmuti_net.engine.cards import counts_of
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.web.view import BadChoice, choose, hint_buttons, render_view

HAND = (3, 5, 5, 7, 9, 9, 9, 12, 13)


def owing(decision: Decision, language: str = "en") -> ClientUi:
    """A table model whose seat (player 0, the Greater Dalmuti) owes ``decision``."""
    session = ClientSession("Ana")
    session.player = 0
    names = ["Ana", "Bo", "Cy", "Di"]
    session.table = {
        "name": "T",
        "phase": "playing",
        "rules": {"scoring": True},
        "spectators": 0,
        "players": [
            {
                "player": p,
                "name": name,
                "kind": "human" if p < 2 else "bot",
                "host": p == 0,
                "ready": True,
                "connected": True,
                "stand_in": False,
                "seated": True,
            }
            for p, name in enumerate(names)
        ],
    }
    session.observation = Observation(
        0,
        hand_number=1,
        phase="play",
        order=(0, 1, 2, 3),
        counts={0: len(HAND), 1: 9, 2: 9, 3: 9},
        hand=counts_of(HAND),
        waiting=(0,),
    )
    session.decision = decision
    ui = ClientUi(Translator(language), session, lists_tables=False)
    ui.on_status(Status.CONNECTED)
    ui.model.screen = Screen.TABLE
    ui.on_message({"type": "heartbeat"})  # follows the decision owed
    assert ui.model.choosing is not None
    return ui


def keys(view: dict[str, Any]) -> list[str]:
    return [button["key"] for button in view["buttons"]]


def sent(effects: list[Any]) -> list[dict[str, Any]]:
    return [effect.message for effect in effects if isinstance(effect, Send)]


def test_hints_become_buttons() -> None:
    t = Translator("en")
    assert [(b.key, b.label) for b in hint_buttons(Hint("←→", "rank"), t._)] == [
        ("left", "◀ rank"),
        ("right", "rank ▶"),
    ]
    assert [b.key for b in hint_buttons(Hint("↑↓ x", "remove bot"), t._)] == ["up", "down", "x"]
    assert [b.key for b in hint_buttons(Hint("b/B", "add bot"), t._)] == ["b"]
    assert [b.key for b in hint_buttons(Hint("o/Esc", "close"), t._)] == ["o"]
    assert [b.key for b in hint_buttons(Hint("0-9/Enter", "type"), t._)] == ["enter"]
    assert [b.key for b in hint_buttons(Hint("↑/Space", "add"), t._)] == ["up"]


def test_play_offers_the_legal_sets_and_explains_an_illegal_one() -> None:
    beat = CardSet(7, 1, 0)
    legal = (CardSet(3, 1, 0), CardSet(5, 1, 0))
    ui = owing(PlayDecision(legal, True, beat))
    view = render_view(ui, 44, 40)
    json.dumps(view)  # all of it goes to the page as JSON
    # Whole ranks first (the chooser's own order): the lone Earl Marshal, then an Abbess.
    assert [s["label"] for s in view["sets"]] == ["Earl Marshal ×1", "Abbess ×1"]
    assert {"left", "right", "up", "down", "enter", "p"} <= set(keys(view))
    assert view["table"]["prompt"] == "Beat Seamstress ×1 with 1 better card, or pass."
    assert view["table"]["seats"][0]["name"] == "Ana (you)"
    # Point at the Cooks: a Cook does not beat a Seamstress; nothing is sent.
    assert choose(ui, {"card": 9}) == []
    assert sent(choose(ui, {"key": "enter"})) == []
    view = render_view(ui, 44, 40)
    assert view["notice"]["text"] == "Your rank must be better (lower) than 7 to beat it."
    # A legal set, picked from the chips, and played.
    choose(ui, {"set": 1})
    assert render_view(ui, 44, 40)["sets"][1]["chosen"] is True
    assert sent(choose(ui, {"key": "enter"})) == [
        {"type": "play", "set": {"rank": 5, "count": 1, "jesters": 0}}
    ]


def test_taxes_by_touch() -> None:
    ui = owing(TaxDecision(2, HAND, 3))
    view = render_view(ui, 44, 40)
    assert view["hand"]["tap"] is True
    assert view["table"]["prompt"] == "Taxes: give 2 cards of your choice to Di."
    choose(ui, {"card": 12})
    choose(ui, {"key": "up"})
    assert sent(choose(ui, {"key": "enter"})) == []  # one of two: explained, not sent
    assert "Choose exactly 2 cards" in render_view(ui, 44, 40)["notice"]["text"]
    choose(ui, {"card": 13})
    choose(ui, {"key": "up"})
    assert sent(choose(ui, {"key": "enter"})) == [{"type": "tax", "cards": [12, 13]}]


@pytest.mark.parametrize(
    ("decision", "taps", "message"),
    [
        (RevolutionDecision(False), [{"key": "n"}], {"type": "revolution", "declare": False}),
        (RevolutionDecision(True), [{"key": "y"}], {"type": "revolution", "declare": True}),
        (MisdealDecision(4, 2, 3), [{"key": "p"}], {"type": "misdeal", "choice": "peon"}),
        (
            ExchangeDecision((1, 2), HAND),
            [{"card": 5}, {"key": "down"}, {"key": "enter"}],
            {"type": "exchange", "merchant": 2, "card": 5},
        ),
        (
            ExchangeDecision((1, 2), HAND),
            [{"key": "d"}],
            {"type": "exchange", "merchant": None, "card": None},
        ),
        (
            PlacementDecision(3, (1, 2, 3)),
            [{"key": "right"}, {"key": "enter"}],
            {"type": "place", "position": 2},
        ),
    ],
)
def test_every_other_decision_by_touch(
    decision: Decision, taps: list[dict[str, Any]], message: dict[str, Any]
) -> None:
    ui = owing(decision)
    view = render_view(ui, 44, 40)
    offered = set(keys(view)) | ({"card"} if view["hand"] and view["hand"]["tap"] else set())
    for tap in taps:
        assert next(iter(tap)) == "card" or tap["key"] in offered, (tap, offered)
    effects: list[Any] = []
    for tap in taps:
        effects += choose(ui, tap)
    assert sent(effects) == [message]


def test_the_view_speaks_the_viewers_language() -> None:
    ui = owing(RevolutionDecision(False), "es")
    view = render_view(ui, 44, 40)
    assert view["lang"] == "es"
    assert view["table"]["headings"][0] == Translator("es")._("Player")
    assert "revolución" in view["table"]["prompt"]
    assert {button["label"] for button in view["buttons"]} >= {Translator("es")._("declare")}


@pytest.mark.parametrize(
    "choice",
    [
        [],
        {"key": 5},
        {"key": "ctrl-alt-del"},
        {"card": "x"},
        {"set": True},
        {"nope": 1},
        {"key": "a", "card": 1},
    ],
)
def test_what_no_page_of_ours_sends_is_refused(choice: object) -> None:
    with pytest.raises(BadChoice):
        choose(owing(RevolutionDecision(False)), choice)


def test_dalmuti_hosts_shows_the_web_tables_address_and_qr_code() -> None:
    from dalmuti_net.commands.hosts import listing_dict, listing_lines
    from dalmuti_net.protocol.discovery import TableInfo, encode_txt, listing_from_record

    txt = encode_txt(TableInfo("Ana's table", web_port=7342))
    assert txt[b"web"] == b"7342"
    listing = listing_from_record(
        "Ana._dalmuti._tcp.local.", "a.local.", ["192.168.1.20"], 7341, txt
    )
    t = Translator("es")
    lines = listing_lines(listing, t, qr=True)
    assert lines[1] == "  Los móviles se unen en: http://192.168.1.20:7342/"
    assert len(lines) > 10 and all(set(line.strip()) <= set("█▀▄ ") for line in lines[2:])
    assert listing_lines(listing, t, qr=False) == lines[:2]  # --plain
    assert listing_dict(listing)["web_url"] == "http://192.168.1.20:7342/"
    without = listing_from_record("B._dalmuti._tcp.local.", "b.local.", ["10.0.0.7"], 7341, {})
    assert without.web_port is None and len(listing_lines(without, t, qr=True)) == 1
    garbled = {**txt, b"web": b"99999"}
    odd = listing_from_record("C._dalmuti._tcp.local.", "c.local.", ["10.0.0.8"], 7341, garbled)
    assert odd.web_port is None and "web table port garbled" in [str(i) for i in odd.issues]


def test_the_web_port_is_checked_like_the_port() -> None:
    from dalmuti_net.cli import build_parser
    from dalmuti_net.commands.host import check_options, options_from
    from dalmuti_net.commands.language import messages

    def options(*argv: str) -> Any:
        return options_from(build_parser().parse_args(["host", "--headless", *argv]))

    assert check_options(options("--web-port", "99999")) == "--web-port must be from 0 to 65535"
    assert check_options(options("--web-port", "-1"), messages("es")) == (
        "--web-port debe estar entre 0 y 65535"
    )
    assert check_options(options("--web-port", "7342")) is None
    assert options("--no-web").web is False and options().web is True
    assert options("--plain").plain is True


def test_the_help_is_whole_and_speaks_of_no_keyboard() -> None:
    ui = owing(RevolutionDecision(False), "zh_Hant")
    choose(ui, {"key": "?"})
    view = render_view(ui, 44, 12)  # a short screen: still the whole help, to scroll
    text = "\n".join("".join(part for _, part in line) for line in view["screen"])
    t = Translator("zh_Hant")
    assert text.startswith(t._("Help"))
    assert t._("Roles") in text and t._("The game") in text and t._("Keys") not in text
    assert [button["key"] for button in view["buttons"]] == ["escape"]
    choose(ui, {"key": "escape"})
    assert render_view(ui, 44, 12)["table"] is not None  # back at the table


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_the_web_help_names_its_buttons_as_they_read_and_no_key(language: str) -> None:
    t = Translator(language)
    text = " ".join(
        "".join(part for _, part in line) for line in help_text_lines(t, 1000, keys=False)
    )
    for label in ("cards played", "back to the table", "rules", "nudge", "skip", "rematch"):
        assert t._("“{label}”").format(label=t._(label)) in text, label
    keys = {"n", "N", "m", "r", "Enter"}  # ("a" and "o" are words in en and es)
    assert not set(re.findall(r"[^\W\d_]+", text)) & keys
    terminal = " ".join("".join(part for _, part in line) for line in help_text_lines(t, 1000))
    assert keys <= set(re.findall(r"[^\W\d_]+", terminal))  # the terminal's help has them
