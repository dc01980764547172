"""The page's view has one schema, generated from the client model's typed view and
intents (``tools/view_schema.py``), and the page's script reads nothing it does not name
(issue 39: before, only web/view.py and app.js agreed on the view's shape)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import dalmuti_net.web
from dalmuti_net.web.view import PAGE_STRINGS
from tools import view_schema

# The page's files as the installed package ships them (in CI's second leg the tests run
# from the sdist against the wheel, with no dalmuti_net/ folder beside them).
STATIC = Path(dalmuti_net.web.__file__).resolve().parent / "static"
SCHEMA = STATIC / view_schema.SCHEMA_PATH.name
APP = STATIC / "app.js"

BROWSER = {
    # The language and the browser's own objects the script uses: never a view's.
    *("all", "buffer", "ceil", "charAt", "charCodeAt", "className", "clear", "data"),
    *("encode", "filter", "find", "floor", "forEach", "from", "get", "getElementById"),
    *("getItem", "getRandomValues", "getUint32", "has", "hidden", "isArray", "join"),
    *("lastIndexOf", "length", "map", "min", "padStart", "parse", "protocol", "push"),
    *("reduce", "removeItem", "replace", "set", "setItem", "setUint32", "slice", "splice"),
    *("stringify", "test", "textContent", "toLocaleUpperCase", "toString", "trim"),
    # The document's and its elements'.
    *("activeElement", "add", "addEventListener", "append", "appendChild", "body", "children"),
    *("classList", "clientHeight", "clientWidth", "closest", "contains", "createElement"),
    *("dataset", "disabled", "documentElement", "firstChild", "focus", "getAttribute"),
    *("id", "maxLength", "offsetHeight", "offsetLeft", "offsetWidth", "options"),
    *("parentElement", "preventDefault", "querySelectorAll", "remove", "replaceChildren"),
    *("scrollHeight", "scrollIntoView", "scrollLeft", "scrollTop", "setAttribute"),
    *("setProperty", "style", "tagName", "toggle", "type", "visibilityState"),
    # A WebSocket's, an observer's, a phone's.
    *("OPEN", "close", "onclose", "onmessage", "onopen", "readyState", "send"),
    *("ResizeObserver", "observe", "vibrate", "now"),
}
CHANNEL = {
    *("lang", "proven", "token", "table_id"),
    # The page channel's messages and the hello's fields (web/seat.py).
    *("hello", "view", "challenge", "nonce", "proof", "seat", "refused", "left", "error"),
    *("strings", "languages", "code_required"),
}
"""The page channel's own words outside the view (``web/seat.py``: the hello, a kept seat)."""
PAGE = {*PAGE_STRINGS, "typing", "parent", "spectator", "first", "most", "steady"}
"""The page's own words (``strings.*``), and what the page keeps of its own: the rule being
typed, the button that had the focus, whether the player asked to watch, its waits before
trying again (``RETRY``)."""


def named(schema: Any) -> set[str]:
    """Every property name the schema holds, at any depth."""
    found: set[str] = set()
    if isinstance(schema, dict):
        found |= set(schema.get("properties", {}))
        for value in schema.values():
            found |= named(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= named(value)
    return found


TOKENS = re.compile(
    r'"(?:\\.|[^"\\\n])*"' + r"|'(?:\\.|[^'\\\n])*'" + r"|`(?:\\.|[^`\\])*`"
    r"|//[^\n]*|/\*.*?\*/",
    re.DOTALL,
)
"""A string or a comment, whichever starts first: "ws://" is a string, not a comment."""


def read_by_script() -> set[str]:
    """The member names app.js reads, its comments and strings left out (and a spread's
    three dots are not a member)."""
    code = APP.read_text(encoding="utf-8")
    code = TOKENS.sub(lambda found: "" if found[0][0] == "/" else '""', code)
    return set(re.findall(r"(?<!\.)\.(?!\.)([A-Za-z_$][\w$]*)", code))


def test_the_schema_is_current() -> None:
    on_disk = SCHEMA.read_text(encoding="utf-8")
    assert on_disk == view_schema.text(), (
        "view.schema.json is stale: run python -m tools.view_schema"
    )


def test_the_page_reads_only_what_the_schema_names() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    unnamed = read_by_script() - named(schema) - BROWSER - CHANNEL - PAGE
    assert not unnamed, f"app.js reads names the view's schema does not hold: {sorted(unnamed)}"


def test_the_script_is_read_to_its_end() -> None:
    """An address's "//" once read as a comment unbalanced the quotes after it, and the
    check saw a sixth of the script: the last lines' names are read too."""
    tail = APP.read_text(encoding="utf-8").rsplit("\n", 12)[1:]
    last = set(re.findall(r"(?<!\.)\.(?!\.)([A-Za-z_$][\w$]*)", "\n".join(tail)))
    assert last and last <= read_by_script(), last - read_by_script()
    assert len(read_by_script()) > 150


def test_the_check_would_catch_a_name_the_schema_lacks() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert "sets" in named(schema) and "seat_rows" not in named(schema)
    assert "screen" in named(schema) and "buttons" not in named(schema)  # the old view's


def test_every_intent_the_page_sends_is_in_the_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    offered = {
        option["properties"]["do"]["const"] for option in schema["$defs"]["intents"]["oneOf"]
    }
    sent = set(re.findall(r'do: "([a-z_]+)"', APP.read_text(encoding="utf-8")))
    assert sent and sent <= offered, sent - offered
