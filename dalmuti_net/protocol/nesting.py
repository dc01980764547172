"""JSON from a file, bounded in depth: a file is hostile, and a deeply nested value would
overflow the parser's stack (``RecursionError``) or every walk over it afterwards."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 16
"""Deepest nesting of maps and lists a file's JSON value may have: a protocol message in a
history line is 6 deep, a save's header or change 3."""


class TooDeep(ValueError):
    """The value nests maps and lists deeper than allowed."""


def load_json(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, refusing (``TooDeep``, a ``ValueError``) a value nested more
    than ``max_depth`` maps and lists deep; ``ValueError`` for anything that is not JSON."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep(f"nested more than {max_depth} deep") from None
    if not within_depth(value, max_depth):
        raise TooDeep(f"nested more than {max_depth} deep")
    return value


def within_depth(value: Any, max_depth: int) -> bool:
    """Whether ``value`` nests maps and lists at most ``max_depth`` deep (without
    recursion, so any depth can be asked about)."""
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            return False
        inner: list[Any] = []
        for item in level:
            inner.extend(item.values() if isinstance(item, dict) else item)
        level = [item for item in inner if isinstance(item, (dict, list))]
    return True


def text_nests_deeper(text: str, max_depth: int) -> bool:
    """Whether the JSON ``text`` opens more than ``max_depth`` maps and lists inside one
    another, read from the text itself before any parser sees it (a parser overflows its
    stack long before it could say so). Brackets inside strings do not count; text that is
    not JSON gets an answer too, and the parser refuses it afterwards."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif char in "]}":
            depth -= 1
    return False
