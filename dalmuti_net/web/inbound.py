"""What a page sends on ``/table``, checked as the TCP codec checks a frame.

A WebSocket text message is UTF-8 that wsproto has already decoded strictly (invalid
UTF-8 closes the connection, 1007) and whose size trio-websocket bounds
(``MAX_PAGE_MESSAGE``) before buffering it. Then, before any JSON parser sees it, its
nesting (``MAX_DEPTH``, the codec's: a thousand ``[`` overflowed the parser's stack);
then the parse, which refuses ``NaN`` and ``Infinity`` (not JSON); then every string,
map keys included: nothing text may not hold (the codec's refused characters, and the
lone surrogates a JSON ``\\ud800`` escape makes and no UTF-8 can carry).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..protocol.codec import MAX_DEPTH
from ..protocol.nesting import text_nests_deeper
from ..protocol.text import NOT_TEXT, SURROGATES

_NOT_TEXT = re.compile(f"[{NOT_TEXT}{SURROGATES}]")


class NotAPageMessage(ValueError):
    """Why a page's message is refused: one sentence for the page."""


def _no_constant(name: str) -> Any:
    raise NotAPageMessage("a message is not JSON")


def page_message(raw: str) -> dict[str, Any]:
    """The JSON object a page sent, or ``NotAPageMessage``."""
    if text_nests_deeper(raw, MAX_DEPTH):
        raise NotAPageMessage(f"a message nests deeper than {MAX_DEPTH} levels")
    try:
        message = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # the depth above makes the second one moot
        raise NotAPageMessage("a message is not JSON") from None
    if not isinstance(message, dict):
        raise NotAPageMessage("a message is a JSON object")
    if _holds_not_text(message):
        raise NotAPageMessage(
            "a message holds a character that is not text (a control character or a lone surrogate)"
        )
    return message


def _holds_not_text(value: Any) -> bool:
    """Whether any string in ``value`` (keys too) holds a refused character."""
    if isinstance(value, str):
        return _NOT_TEXT.search(value) is not None
    if isinstance(value, dict):
        return any(_holds_not_text(key) or _holds_not_text(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_holds_not_text(item) for item in value)
    return False
