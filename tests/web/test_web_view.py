"""The web table's view and intents, without a browser: the page is sent the client
model's typed view as JSON, every decision kind can be answered by taps that are intents
(never another front end's key presses), and an illegal choice is explained before
anything is sent (the model's own checks, as for every front end)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from dalmuti_net.client.model import intents as do
from dalmuti_net.client.model.client_model import ClientModel, KeptPreferences, Screen, Send
from dalmuti_net.client.model.display import CONNECTION_WORDS, display
from dalmuti_net.client.model.refusals import for_error
from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession, HostError
from dalmuti_net.engine import (
    CardSet,
    Decision,
    ExchangeDecision,
    MisdealDecision,
    Observation,
    PlacementDecision,
    PlayDecision,
    RevolutionDecision,
    Rules,
    TaxDecision,
)
from dalmuti_net.engine.cards import counts_of
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.web.view import (
    PAGE_STRINGS,
    BadIntent,
    page_help,
    page_intent,
    page_strings,
    view_json,
    view_text,
)
from tests.tables import seat, table_view

HAND = (3, 5, 5, 7, 9, 9, 9, 12, 13)


def model_at(
    phase: str = "playing", language: str = "en", rules: Rules | None = None
) -> ClientModel:
    """The page's model: Ana (player 0, the Greater Dalmuti and host player) at a table of
    four."""
    session = ClientSession("Ana")
    session.player, session.is_host = 0, True
    names = ["Ana", "Bo", "Cy", "Di"]
    session.table = table_view(
        *(
            seat(p, name, kind="human" if p < 2 else "bot", host=p == 0)
            for p, name in enumerate(names)
        ),
        phase=phase,
        rules=(rules or Rules(scoring=True)).to_dict(),
    )
    model = ClientModel(
        Translator(language), session, lists_tables=False, preferences=KeptPreferences(True)
    )
    model.on_status(Status.CONNECTED)
    model.screen = Screen.TABLE
    return model


def owing(decision: Decision, language: str = "en") -> ClientModel:
    model = model_at(language=language)
    session = model.session
    assert session is not None
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
    model.on_message({"type": "heartbeat"})  # follows the decision owed
    return model


def view(model: ClientModel) -> dict[str, Any]:
    data = view_json(display(model))
    # All of it goes to the page as JSON, made in one pass (view_text) to the same text.
    assert view_text(display(model)) == json.dumps({"view": data}, ensure_ascii=False)
    return data


def tap(model: ClientModel, **message: Any) -> list[dict[str, Any]]:
    """A tap of the page: the intent it sends, and the requests that went out."""
    intent = page_intent(model, message)
    effects = [] if intent is None else model.intend(intent)
    return [effect.message for effect in effects if isinstance(effect, Send)]


def test_play_offers_the_legal_sets_and_explains_an_illegal_one() -> None:
    model = owing(PlayDecision((CardSet(3, 1, 0), CardSet(5, 1, 0)), True, CardSet(7, 1)))
    shown = view(model)
    decision = shown["table"]["decision"]
    # Whole ranks first (the chooser's own order): the lone Earl Marshal, then an Abbess.
    assert [s["label"] for s in decision["sets"]] == ["Earl Marshal ×1", "Abbess ×1"]
    assert decision["prompt"] == "Beat Seamstress ×1 with 1 better card, or pass."
    assert [a["label"] for a in decision["answers"]] == ["pass"]
    assert shown["table"]["my_turn"] and shown["table"]["hand"]["tappable"]
    assert any(seat["name"] == "Ana (you)" and seat["me"] for seat in shown["table"]["seats"])
    # Point at the Cooks: a Cook does not beat a Seamstress; nothing is sent.
    assert tap(model, do="point_at", card=9) == []
    assert tap(model, do="commit") == []
    assert view(model)["notice"]["text"] == "Your rank must be better (lower) than 7 to beat it."
    # A legal set, picked from the chips, and played.
    tap(model, do="pick_set", index=1)
    assert view(model)["table"]["decision"]["sets"][1]["chosen"] is True
    assert tap(model, do="commit") == [
        {"type": "play", "set": {"rank": 5, "count": 1, "jesters": 0}}
    ]


def test_taxes_by_touch() -> None:
    model = owing(TaxDecision(2, HAND, 3))
    shown = view(model)
    assert shown["table"]["hand"]["tappable"] is True
    assert shown["table"]["decision"]["prompt"] == "Taxes: give 2 cards of your choice to Di."
    tap(model, do="pick_card", card=12)
    assert tap(model, do="commit") == []  # one of two: explained, not sent
    assert "Choose exactly 2 cards" in view(model)["notice"]["text"]
    tap(model, do="pick_card", card=13)
    tap(model, do="pick_card", card=3)  # one too many: said, not taken
    assert "enough" in view(model)["notice"]["text"]
    tap(model, do="drop_card", card=13)
    tap(model, do="pick_card", card=5)
    assert tap(model, do="commit") == [{"type": "tax", "cards": [5, 12]}]


@pytest.mark.parametrize(
    ("decision", "taps", "message"),
    [
        (
            RevolutionDecision(False),
            [{"do": "answer", "index": 1}],
            {"type": "revolution", "declare": False},
        ),
        (
            RevolutionDecision(True),
            [{"do": "answer", "index": 0}],
            {"type": "revolution", "declare": True},
        ),
        (
            MisdealDecision(4, 2, 3),
            [{"do": "answer", "index": 1}],
            {"type": "misdeal", "choice": "peon"},
        ),
        (
            ExchangeDecision((1, 2), HAND),
            [{"do": "point_at", "card": 5}, {"do": "pick_merchant", "player": 2}, {"do": "commit"}],
            {"type": "exchange", "merchant": 2, "card": 5},
        ),
        (
            ExchangeDecision((1, 2), HAND),
            [{"do": "answer", "index": 0}],
            {"type": "exchange", "merchant": None, "card": None},
        ),
        (
            PlacementDecision(3, (1, 2, 3)),
            [{"do": "pick_position", "index": 1}, {"do": "commit"}],
            {"type": "place", "position": 2},
        ),
    ],
)
def test_every_other_decision_by_touch(
    decision: Decision, taps: list[dict[str, Any]], message: dict[str, Any]
) -> None:
    model = owing(decision)
    offered = view(model)["table"]["decision"]
    for each in taps:  # each tap is one the view offers
        if each["do"] == "answer":
            assert each["index"] < len(offered["answers"])
        if each["do"] == "commit":
            assert offered["commit"]
    sent: list[dict[str, Any]] = []
    for each in taps:
        sent += tap(model, **each)
    assert sent == [message]


def test_the_view_speaks_the_viewers_language() -> None:
    model = owing(RevolutionDecision(False), "es")
    shown = view(model)
    es = Translator("es")
    assert shown["table"]["columns"][0] == es._("Player")
    assert "revolución" in shown["table"]["decision"]["prompt"]
    assert es._("declare") in [a["label"] for a in shown["table"]["decision"]["answers"]]


@pytest.mark.parametrize(
    "message",
    [
        {},
        {"do": 5},
        {"do": "press_key", "key": "right"},
        {"do": "point_at", "card": "x"},
        {"do": "pick_set", "index": True},
        {"do": "point_at"},
        {"do": "point_at", "card": 1, "key": "a"},
        {"do": "answer", "index": 0, "key": "p"},
        {"do": "join_address", "text": "10.0.0.1"},
    ],
)
def test_what_no_page_of_ours_sends_is_refused(message: dict[str, Any]) -> None:
    with pytest.raises(BadIntent):
        page_intent(owing(RevolutionDecision(False)), message)


def test_auto_pass_off_in_its_pause_gives_the_decision_back_on_the_page_too() -> None:
    """Issue 39: the page's auto-pass button is the model's intent, as the terminal's
    key and the plain table's word are: off in the pause, no pass goes out."""
    model = owing(PlayDecision((), True, CardSet(1, 1)))
    assert model.auto_passing() and view(model)["table"]["auto_passing"]
    tap(model, do="auto_pass", on=False)
    shown = view(model)
    assert shown["table"]["my_turn"] and not shown["table"]["auto_passing"]
    assert model.wake() == []
    assert tap(model, do="answer", index=0) == [{"type": "pass"}]


def test_no_hand_limit_with_scoring_is_refused_on_the_page_too() -> None:
    model = model_at("lobby")
    assert tap(model, do="set_rule", key="hand_limit", value=None) == []
    assert view(model)["notice"]["text"] == "With scoring on, the table plays at least 1 hand."
    assert tap(model, do="type_rule", key="hand_limit", text="") == []
    free = model_at("lobby", rules=Rules(hand_limit=3))
    assert tap(free, do="set_rule", key="hand_limit", value=None) == [
        {"type": "set_rules", "rules": {"hand_limit": None}}
    ]


def test_the_lobby_is_data_the_page_lays_out() -> None:
    model = model_at("lobby")
    lobby = view(model)["lobby"]
    assert lobby["heading"] == "Players (4 of 4 to 8)"
    assert [seat["name"] for seat in lobby["seats"]] == ["Ana (you)", "Bo", "Cy", "Di"]
    assert {"start", "add_bot", "set_rule"} <= set(view(model)["can"])
    assert tap(model, do="add_bot", strategy="random") == [
        {"type": "add_bot", "strategy": "random"}
    ]
    assert tap(model, do="start") == [{"type": "start"}]
    assert lobby["waiting"] == "" and lobby["rematch"] is False  # the host: not can_start
    guest = model_at("lobby", language="es")
    guest.session.is_host = False  # type: ignore[union-attr]
    waiting = Translator("es")._("Waiting for the host player to start.")
    assert view(guest)["lobby"]["waiting"] == waiting


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


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_the_web_help_names_its_buttons_as_they_read_and_no_key(language: str) -> None:
    t = Translator(language)
    text = " ".join(part for section in page_help(t) for part in section)
    # Each button the help names is one the page shows, as its label reads ("rules" was
    # named where the button says "Change the rules").
    before, after = t._("“{label}”").split("{label}")
    named = re.findall(re.escape(before) + "(.+?)" + re.escape(after), text)
    # Exactly as it reads: the help once quoted "nudge" beside a button reading "Nudge".
    labels = {t._(label) for label in PAGE_STRINGS.values()}
    assert len(named) >= 6 and not [name for name in named if name not in labels]
    for label in ("Change the rules", "Nudge", "Skip", "Rematch", "Ready for the next hand"):
        assert t._("“{label}”").format(label=t._(label)) in text, label
    keys = {"n", "N", "m", "r", "Enter"}  # ("a" and "o" are words in en and es)
    assert not set(re.findall(r"[^\W\d_]+", text)) & keys
    assert t._("Roles") in text and t._("The game") in text


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_a_full_table_offers_a_page_only_what_it_can_do(language: str) -> None:
    """A page belongs to one table: a full one offers to watch, not "another table"."""
    t = Translator(language)
    full = HostError("table_full", "the table is full", True)
    page = for_error(t, full, can_list=False)
    listing = for_error(t, full, can_list=True)
    assert page.sentences == (t._("All the seats are taken. You can watch the game instead."),)
    assert page.sentences != listing.sentences
    assert [choice.action for choice in page.choices] == ["watch", "quit"]


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_the_quit_button_asks_the_question_in_its_own_words(language: str) -> None:
    """The page's button said "Leave" and its question "Quit?" (in Chinese the terminal's
    key said 離開 and its question 要結束嗎): one meaning, one word, for every front end."""
    t = Translator(language)
    model = model_at(language=language)
    model.in_a_page = True
    assert model.intend(do.Exit()) == []
    title = view(model)["question"]["title"].casefold()
    assert page_strings(t)["quit"].casefold() in title  # the page's button
    assert t._("quit").casefold() in title  # the terminal's key, "q quit"


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_a_rule_label_reads_as_a_label(language: str) -> None:
    """Each row of the rules is a label and its value; the plain table says them "8. label:
    value". The clock's label said "Turn timer: then the default move" (es "Reloj de turno:
    luego la jugada por defecto"), a colon inside, which read as label, value, value."""
    model = model_at("lobby", language=language)
    labels = [rule["label"] for rule in view(model)["lobby"]["rules"]]
    assert len(labels) == 9
    assert not [label for label in labels if ":" in label or "：" in label]


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_the_page_says_where_the_connection_stands_in_the_views_words(language: str) -> None:
    """The page kept words of its own ("Connecting…", "Connection lost, reconnecting…")
    beside the view's ``connection``: now it draws the view's, and keeps only the one line
    it must say when its own link is down and no view can come, in the view's words."""
    t = Translator(language)
    assert "connecting" not in PAGE_STRINGS
    lost = t._(CONNECTION_WORDS[Status.RECONNECTING][0])
    assert page_strings(t)["reconnecting"] == lost
    assert view(model_at(language=language))["connection"]["tone"] == "good"
