"""A page's message is checked before it is parsed and before it is used: nesting from
the text itself, then JSON, then every string (issue 38, item 1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dalmuti_net.protocol.codec import MAX_DEPTH
from dalmuti_net.protocol.nesting import text_nests_deeper, within_depth
from dalmuti_net.web.inbound import NotAPageMessage, page_message

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=20,
)


@given(json_values, st.integers(0, 12))
def test_the_depth_read_from_the_text_is_the_values_depth(value: Any, most: int) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert text_nests_deeper(text, most) == (not within_depth(value, most))


@given(st.dictionaries(st.text(), json_values, max_size=4))
def test_a_message_is_the_object_sent_or_refused_in_a_sentence(message: dict[str, Any]) -> None:
    text = json.dumps(message)
    try:
        got = page_message(text)
    except NotAPageMessage as refused:
        assert str(refused).startswith("a message ")
        return
    assert got == message
    assert within_depth(got, MAX_DEPTH)


JSONISH = st.text(alphabet='[]{}",:\\ 0123456789.eE-+ud8abcfnrtNIaily', max_size=300)


@given(st.text(max_size=300) | JSONISH)
def test_any_text_is_a_message_or_refused_in_a_sentence(text: str) -> None:
    try:
        message = page_message(text)
    except NotAPageMessage as refused:
        assert str(refused).startswith("a message ")
    else:
        assert isinstance(message, dict)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"a": "' + "[" * 50 + '"}' + "]" * 9,
        '{"a": "\\"[[[[[[[[[[[[[[[["}',
        '{"x": [[[[[[[[1]]]]]]]]}',
    ],
)
def test_brackets_in_strings_do_not_count_and_deep_ones_do(text: str) -> None:
    deep = text.startswith("[") or text.startswith('{"x"')
    if deep:
        with pytest.raises(NotAPageMessage, match="nests deeper"):
            page_message(text)
    else:
        try:
            page_message(text)
        except NotAPageMessage as refused:
            assert "nests" not in str(refused)
