"""Whatever a client sends, every frame the host answers with is one that
protocol/schema.json accepts: a client that validates what it receives never has to drop
a reply. Fuzzed requests (every request type, wrong fields, ids of every kind, control
characters and bidirectional overrides among them) over an in-process connection."""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema
import trio
import trio.testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recording_clients import bot_runner

from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Table
from dalmuti_net.protocol import PROTOCOL_VERSION, Direction, FrameReader, encode, unpack
from dalmuti_net.protocol.catalogue import MESSAGES
from tools import schema

REQUEST_TYPES = sorted(name for direction, name in MESSAGES if direction is Direction.TO_HOST)
NASTY_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(["\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u2028", "\u2066"]),
        st.characters(codec="utf-8"),
    ),
    max_size=80,
)
VALUES: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**40), 2**40),
        st.floats(allow_nan=True),
        NASTY_TEXT,
    ),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(NASTY_TEXT, inner, max_size=3),
    max_leaves=8,
)
FIELDS = st.sampled_from(
    [
        "id",
        "set",
        "cards",
        "other",
        "card",
        "choice",
        "position",
        "declare",
        "text",
        "rules",
        "strategy",
        "player",
        "ready",
        "decision_id",
        "name",
        "role",
        "version",
        "token",
    ]
)
REQUESTS = st.fixed_dictionaries(
    {"type": st.sampled_from([*REQUEST_TYPES, "nonsense"])},
    optional={"id": st.one_of(st.integers(-5, 2**32), NASTY_TEXT, VALUES)},
).flatmap(
    lambda base: st.dictionaries(FIELDS, VALUES, max_size=3).map(lambda extra: {**extra, **base})
)


@functools.cache
def host_to_client() -> jsonschema.Draft202012Validator:
    document = json.loads(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        {**document, "anyOf": [{"$ref": f"#/$defs/{Direction.TO_CLIENT.value}"}]}
    )


async def replies_to(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every frame the host sends a seated player who sends ``requests``, until it has
    answered them all (a last heartbeat with an id is acknowledged after them) or closed."""
    table = Table("Fuzzed replies")
    server = TableServer(table, run_bot=bot_runner())
    received: list[dict[str, Any]] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        client, host_end = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle_stream, host_end, False)
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": "Fuzz", "role": "player"}
        last = {"type": "heartbeat", "id": "last"}
        await client.send_all(b"".join(encode(m) for m in [hello, *requests, last]))
        frames = FrameReader(1 << 20)
        with trio.fail_after(10):
            while True:
                data = await client.receive_some()
                if not data:
                    break
                received += [unpack(body) for body in frames.feed(data)]
                if any(m["type"] == "ack" and m.get("re") == "last" for m in received):
                    break
        nursery.cancel_scope.cancel()
    return received


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(requests=st.lists(REQUESTS, max_size=12))
async def test_every_reply_to_fuzzed_requests_is_valid_for_the_schema(
    requests: list[dict[str, Any]],
) -> None:
    received = await replies_to(requests)
    assert received, "the host said nothing"
    validator = host_to_client()
    for message in received:
        problems = [error.message for error in validator.iter_errors(message)]
        assert not problems, f"the host sent {message!r}: {problems[:3]}"


async def test_a_refused_request_with_an_invalid_id_carries_no_re() -> None:
    bad_ids = ["\x1b[2J", "\u202e", "\x00", "x" * 65, -1, 2**31, 1.5, [1]]
    received = await replies_to([{"type": "ready", "ready": "yes", "id": bad} for bad in bad_ids])
    refusals = [m for m in received if m["type"] == "error"]
    assert [m["code"] for m in refusals] == ["bad_message"] * len(bad_ids)
    assert all("re" not in m for m in refusals)
    good = await replies_to([{"type": "ready", "ready": "yes", "id": "ok-1"}])
    assert [m.get("re") for m in good if m["type"] == "error"] == ["ok-1"]


async def test_a_refusal_that_quotes_the_request_escapes_what_text_may_not_hold() -> None:
    received = await replies_to([{"type": "set_rules", "rules": {"\x1b[2J": 1}}])
    (refusal,) = [m for m in received if m["type"] == "error"]
    assert "\x1b" not in refusal["message"] and "\\x1b[2J" in refusal["message"]
