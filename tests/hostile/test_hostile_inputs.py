"""Every input path of the host fuzzed (issue 38, item 1): arbitrary JSON, text and bytes to
the web table's ``/table``, arbitrary frames to ``/protocol`` and to the TCP port, and
arbitrary keys and text to every typed field of the terminal, plain and web tables.

After each hostile connection the host is alive and still serves a terminal player (a TCP
client is welcomed with a snapshot); and nothing unforeseen happened on the way: no
connection, key or line ended in a fault line (the isolation would hide a bug from a test
that only checked the host is alive).

The default run keeps to a few dozen examples per path; ``HYPOTHESIS_PROFILE=long
pytest -m slow`` runs the longer campaign (the ``slow`` tests below, 2,000 examples each).
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
import pytest
import trio
from both_doors import Doors, both_doors, serves_a_terminal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_plain_narrator import PlainLocal
from test_web_server import websocket
from trio_websocket import ConnectionClosed
from ui_support import LocalTable, draw

from dalmuti_net.client.ui.app import NAMED_KEYS
from dalmuti_net.client.ui.lobby import RULE_FIELDS, TYPED_FIELDS
from dalmuti_net.client.ui.state import ClientUi
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.messages import ACTION_TYPES
from dalmuti_net.web.inbound import NotAPageMessage, page_message
from dalmuti_net.web.view import ANSWER, PAGE_INTENTS, BadIntent, page_intent

FAULT = re.compile(r"after an error in the host|could not be handled because of an error")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

NETWORK = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
"""Each example starts a host on 127.0.0.1 and opens real connections."""
IN_MEMORY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
"""The table core and a front end in one process, no sockets."""
LONG = settings(
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def no_faults(caplog: pytest.LogCaptureFixture) -> None:
    faults = [r.getMessage() for r in caplog.records if FAULT.search(r.getMessage())]
    assert faults == [], faults


# ---------------------------------------------------------------------- what is typed

SPECIAL = ["\ud800", "\udfff", "\x00", "\x1b[2J", "\u202e", "²", "①", "٣", "３", "\t", "\n"]
"""Characters that broke, or could break, a field: lone surrogates, controls, digits that
are no digits to ``int``, digits of other scripts."""
chars = st.characters(exclude_categories=()) | st.sampled_from([c for c in SPECIAL if len(c) == 1])
texts = st.text(chars, max_size=24) | st.sampled_from(SPECIAL)
numbers = st.integers() | st.sampled_from([0, 1, 4, 7, 99, 2**31, -1])
scalars = st.none() | st.booleans() | numbers | st.floats() | texts
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=16,
)
NAMED = sorted({*NAMED_KEYS.values(), "space", "tab", "s-tab", "pageup", "pagedown"})
keys = st.sampled_from(NAMED) | chars | st.sampled_from(list("otqarsbBxkny?gmp0123456789"))


digits = st.sampled_from(list("0123456789²³¹①½٣３"))
"""What a number field is mostly typed with: digits, and what only looks like them."""


def field_opened(local_keys: list[str]) -> st.SearchStrategy[list[str]]:
    typed = st.lists(digits, min_size=1, max_size=4) | st.lists(
        digits | chars | st.sampled_from(["backspace", "space"]), max_size=12
    )
    return typed.map(lambda typed: [*local_keys, *typed, "enter"])


rule_fields = st.sampled_from(
    [i for i, f in enumerate(RULE_FIELDS) if f.key in TYPED_FIELDS]
).flatmap(lambda index: field_opened(["o", *["down"] * index, "enter"]))
"""The host player's rule options, a field opened with Enter and typed into."""
key_runs = st.lists(
    st.one_of(rule_fields, st.lists(keys, max_size=12), rule_fields, field_opened(["t"])),
    max_size=4,
).map(lambda runs: [key for run in runs for key in run])


def serves(local: LocalTable) -> None:
    """The table core still welcomes a terminal player: hello, then welcome and snapshot."""
    connection = local.table.connect(internal=False, address="192.0.2.9")
    assert connection is not None
    local.table.receive(
        connection,
        {"type": "hello", "version": PROTOCOL_VERSION, "name": "Probe", "role": "spectator"},
    )
    replies = [m["type"] for m in local.table.take_outbox(connection)]
    assert replies[:2] == ["welcome", "snapshot"], replies
    local.table.disconnected(connection)


def press_all(local: LocalTable, keys: list[str], playing: bool) -> None:
    if playing:
        local.start()
    for key in keys:
        local.press(key)  # ClientUi.press itself: an error would fail the test
    draw(local.ui)
    serves(local)


# ---------------------------------------------------------------------- terminal table


@IN_MEMORY
@given(keys=key_runs, playing=st.booleans())
def test_any_keys_at_the_terminal_table(keys: list[str], playing: bool) -> None:
    press_all(LocalTable(), keys, playing)


@IN_MEMORY
@given(keys=st.lists(keys | st.sampled_from(["a", "enter", "escape"]), max_size=30))
def test_any_keys_on_the_terminal_list_of_tables_and_its_forms(keys: list[str]) -> None:
    """No table yet: the list of tables, joining by address, the name and code forms."""
    ui = ClientUi(Translator("en"))
    for key in ["a", *keys]:
        ui.press(key)
    ui.size = (80, 24)
    draw(ui)


# ---------------------------------------------------------------------- plain table

plain_words = st.sampled_from(
    ["rule", "rules", "kick", "remove", "say", "bot", "ready", "start", "hand", "table",
     "scores", "help", "again", "1", "2", "back", "pass", "yes", "no"]
)  # fmt: skip
plain_lines = st.lists(
    st.tuples(plain_words, st.lists(texts | numbers.map(str), max_size=3)).map(
        lambda line: " ".join([line[0], *line[1]])
    )
    | texts,
    max_size=8,
)


@IN_MEMORY
@given(lines=plain_lines, playing=st.booleans())
def test_any_lines_at_the_plain_table(
    lines: list[str], playing: bool, caplog: pytest.LogCaptureFixture
) -> None:
    table = PlainLocal()
    if playing:
        table.type("start")
    for line in lines:
        printed = table.type(line)
        assert not [p for p in printed if CONTROL.search(p)], printed
    serves(table.local)
    no_faults(caplog)


# ---------------------------------------------------------------------- web table's fields

INTENT_NAMES = sorted({*PAGE_INTENTS, ANSWER})
FIELDS = ["on", "anyway", "strategy", "player", "key", "value", "text", "up", "card", "index"]
page_choices = st.one_of(
    st.fixed_dictionaries(
        {"do": st.sampled_from(INTENT_NAMES) | texts},
        optional={field: json_values | digits for field in FIELDS},
    ),
    st.fixed_dictionaries({"do": st.just("type_rule"), "key": texts, "text": texts}),
    st.fixed_dictionaries(
        {"do": st.sampled_from(["point_at", "pick_card", "drop_card"]), "card": numbers}
    ),
    st.dictionaries(texts, json_values, max_size=3),
    json_values,
)


@IN_MEMORY
@given(choices=st.lists(page_choices, max_size=6))
def test_any_choices_from_a_page_through_its_checks(choices: list[Any]) -> None:
    """What ``/table`` does with a message, without the socket: the page's checks, then the
    intent, to the page's client model."""
    local = LocalTable()
    flat = [c for item in choices for c in (item if isinstance(item, list) else [item])]
    for choice in flat:
        try:
            message = page_message(json.dumps(choice))
        except NotAPageMessage:
            continue
        try:
            intent = page_intent(local.ui.model, message)
        except BadIntent:
            continue
        effects = [] if intent is None else local.ui.model.intend(intent)
        for effect in effects:
            if hasattr(effect, "message"):
                local.send(effect.message)
    serves(local)


# ---------------------------------------------------------------------- over the network

page_message_texts = st.one_of(
    json_values.map(json.dumps),
    page_choices.map(json.dumps),
    st.text(max_size=64),
    st.sampled_from(["[" * 1000, "{" * 20, '{"join": "x"}', "NaN", "[]", "null"]),
)
joins = st.fixed_dictionaries(
    {"name": texts | st.just("Ana")},
    optional={
        "code": texts,
        "token": texts,
        "table_id": texts | st.just("REAL"),
        "spectator": json_values,
        "lang": texts,
    },
)
page_sessions = st.tuples(
    st.none() | joins,
    st.lists(page_message_texts | st.binary(max_size=64), max_size=5),
)


async def one_page(doors: Doors, session: tuple[dict[str, Any] | None, list[Any]]) -> None:
    join, messages = session
    async with websocket(doors.web, "/table") as ws:
        try:
            await ws.get_message()
            if join is not None:
                if join.get("table_id") == "REAL":
                    join["table_id"] = doors.table.table_id
                await ws.send_message(json.dumps({"join": join}))
            for message in messages:
                await ws.send_message(message)
        except ConnectionClosed:
            pass


msgpack_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=16,
)
"""What msgpack can pack (no integer beyond 64 bits)."""
frames = st.one_of(
    st.dictionaries(
        st.sampled_from(["type", "id", "name", "version", "role", "text", "cards", "rules"])
        | texts,
        msgpack_values,
        max_size=5,
    ).map(lambda m: msgpack.packb(m, unicode_errors="surrogatepass")),
    st.sampled_from(sorted({*ACTION_TYPES, "chat", "ready", "start", "set_rules"})).map(
        lambda kind: msgpack.packb({"type": kind})
    ),
    st.binary(max_size=64),
)
HELLO = msgpack.packb(
    {"type": "hello", "version": PROTOCOL_VERSION, "name": "Fuzz", "role": "player"}
)
protocol_sessions = st.tuples(st.booleans(), st.lists(frames | st.text(max_size=32), max_size=6))


async def one_protocol_client(doors: Doors, session: tuple[bool, list[Any]]) -> None:
    greet, messages = session
    async with websocket(doors.web, "/protocol") as ws:
        try:
            for message in [HELLO] * greet + messages:
                await ws.send_message(message)
        except ConnectionClosed:
            pass


tcp_chunks = st.one_of(
    frames.map(lambda body: struct.pack(">I", len(body)) + body),
    st.binary(max_size=64),
    st.integers(0, 2**32 - 1).map(lambda n: struct.pack(">I", n)),
)
tcp_sessions = st.tuples(st.booleans(), st.lists(tcp_chunks, max_size=6))


async def one_tcp_client(doors: Doors, session: tuple[bool, list[bytes]]) -> None:
    """Bytes in, then the end of them: the host closes once it has read them all."""
    greet, chunks = session
    stream = await trio.open_tcp_stream("127.0.0.1", doors.tcp)
    async with stream:
        try:
            for chunk in [struct.pack(">I", len(HELLO)) + HELLO] * greet + chunks:
                await stream.send_all(chunk)
            await stream.send_eof()
            with trio.fail_after(5):
                while await stream.receive_some(65536):
                    pass
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass


async def survives(
    sessions: list[Any], run: Callable[[Doors, Any], Awaitable[None]], caplog: Any
) -> None:
    async with both_doors() as doors:
        for session in sessions:
            await run(doors, session)
            await doors.all_gone()
            await serves_a_terminal(doors)
    no_faults(caplog)


@NETWORK
@given(sessions=st.lists(page_sessions, min_size=1, max_size=3))
async def test_any_messages_to_the_pages_channel(
    sessions: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    await survives(sessions, one_page, caplog)


@NETWORK
@given(sessions=st.lists(protocol_sessions, min_size=1, max_size=3))
async def test_any_frames_to_the_protocol_websocket(
    sessions: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    await survives(sessions, one_protocol_client, caplog)


@NETWORK
@given(sessions=st.lists(tcp_sessions, min_size=1, max_size=3))
async def test_any_bytes_to_the_tcp_port(
    sessions: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    await survives(sessions, one_tcp_client, caplog)


# ---------------------------------------------------------------------- the long campaign


@pytest.mark.slow
@LONG
@given(sessions=st.lists(page_sessions | protocol_sessions, min_size=1, max_size=4))
async def test_long_campaign_on_the_web_port(
    sessions: list[Any], caplog: pytest.LogCaptureFixture
) -> None:
    async with both_doors() as doors:
        for session in sessions:
            run = one_protocol_client if isinstance(session[0], bool) else one_page
            await run(doors, session)
            await doors.all_gone()
            await serves_a_terminal(doors)
    no_faults(caplog)


@pytest.mark.slow
@LONG
@given(keys=key_runs, playing=st.booleans())
def test_long_campaign_of_keys(keys: list[str], playing: bool) -> None:
    press_all(LocalTable(), keys, playing)
