"""Strings are text: control characters, bidirectional overrides and isolates and line
separators are refused in every str (names, chat, table names), in both directions, with
``bad_message``; emoji sequences with joiners and every script stay allowed."""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema
import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dalmuti_net.protocol import PROTOCOL_VERSION, Direction, ProtocolError, decode
from dalmuti_net.protocol.errors import ErrorCode
from dalmuti_net.protocol.text import clean_text, first_control
from tools.schema import SCHEMA_PATH

REFUSED = (
    [chr(c) for c in range(0x20)]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\u2028", "\u2029"]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)
ALLOWED = [
    "Ana",
    "👩\u200d👩\u200d👧",  # zero-width joiners
    "🏳️\u200d🌈",  # a variation selector and a joiner
    "王小明",
    "José",
    "مريم",
    "a\u200bb",  # zero-width space: a format character, not a control
    "x\u200ey",  # left-to-right mark: a mark, not an override
]


def hello(name: str) -> dict[str, Any]:
    return {"type": "hello", "version": PROTOCOL_VERSION, "role": "player", "name": name}


def to_host(name: str) -> list[dict[str, Any]]:
    return [
        hello(name),
        {"type": "chat", "text": name},
        {"type": "add_bot", "name": name},
    ]


def to_client(name: str) -> list[dict[str, Any]]:
    return [
        {"type": "chat", "player": 1, "name": name, "text": "hi"},
        {"type": "goodbye", "reason": name, "code": "shutting_down"},
    ]


def refused(message: dict[str, Any], direction: Direction) -> ProtocolError:
    with pytest.raises(ProtocolError) as raised:
        decode(msgpack.packb(message), direction)
    return raised.value


@pytest.mark.parametrize("char", REFUSED, ids=[f"U+{ord(c):04X}" for c in REFUSED])
def test_every_refused_character_is_a_bad_message_in_names_and_chat(char: str) -> None:
    for where in (f"{char}Eve", f"Ev{char}e", f"Eve{char}"):
        for message in to_host(where):
            error = refused(message, Direction.TO_HOST)
            assert error.code is ErrorCode.BAD_MESSAGE and not error.fatal
            assert f"U+{ord(char):04X}" in error.message
            assert char not in error.message
        for message in to_client(where):
            assert refused(message, Direction.TO_CLIENT).code is ErrorCode.BAD_MESSAGE
    assert first_control(f"Ev{char}e") == char


@pytest.mark.parametrize("name", ALLOWED)
def test_text_of_any_script_and_emoji_sequences_pass(name: str) -> None:
    for message in to_host(name):
        assert decode(msgpack.packb(message), Direction.TO_HOST) == message
    for message in to_client(name):
        assert decode(msgpack.packb(message), Direction.TO_CLIENT) == message
    assert first_control(name) is None and clean_text(name) == name


def test_an_escape_sequence_name_is_refused() -> None:
    error = refused(hello("\x1b]0;owned\x07\x1b[2JEve"), Direction.TO_HOST)
    assert error.code is ErrorCode.BAD_MESSAGE
    assert error.message == "name: control character U+001B not allowed in text"


@functools.cache
def schema_validator() -> Any:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


@given(text=st.text(max_size=30))
def test_the_schema_pattern_and_the_codec_agree(text: str) -> None:
    message = {"type": "chat", "player": 1, "name": "Ana", "text": text or "x"}
    try:
        decode(msgpack.packb(message), Direction.TO_CLIENT)
        codec_ok = True
    except ProtocolError:
        codec_ok = False
    try:
        schema_validator().validate(message)
        schema_ok = True
    except jsonschema.ValidationError:
        schema_ok = False
    assert codec_ok == schema_ok


@given(text=st.text(max_size=40))
def test_clean_text_leaves_only_text(text: str) -> None:
    cleaned = clean_text(text)
    assert first_control(cleaned) is None
    assert cleaned == cleaned.strip() and "  " not in cleaned
