"""The client: the protocol session, the connection, discovery, the bot SDK and the table UI.

The bot SDK is this package's public face: ``run_bot(address, bot)`` and friends (see
``sdk``), with the engine's action and decision types re-exported for bots to use, and the
table's typed view (``TableView`` and its parts, ``table_view``) that ``BotResult.table``
and ``ClientSession.table`` hold.

The SDK's names are loaded on first use (PEP 562): importing a sans-I/O part of the
client (``client.session``, ``client.model``) must not import trio with them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..bots.base import Strategy
from ..engine import CardSet, Observation, actions
from ..engine.actions import *  # noqa: F403 (the action and decision types: actions.__all__)
from .table_view import DepartedView, RulesView, SeatView, TableView, TimingView

if TYPE_CHECKING:
    from .runner import CannotConnect
    from .sdk import (
        Address,
        BotFunction,
        BotResult,
        FunctionStrategy,
        IllegalAnswer,
        NoTableFound,
        as_strategy,
        find_table,
        is_legal,
        legal_actions,
        play_bot,
        run_bot,
    )

_LAZY = {
    "CannotConnect": "runner",
    **{
        name: "sdk"
        for name in (
            "Address",
            "BotFunction",
            "BotResult",
            "FunctionStrategy",
            "IllegalAnswer",
            "NoTableFound",
            "as_strategy",
            "find_table",
            "is_legal",
            "legal_actions",
            "play_bot",
            "run_bot",
        )
    },
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


# Written out, not built from _LAZY: a type checker reads only a literal list for what
# `from dalmuti_net.client import run_bot` may take (a bot author's mypy --strict).
__all__ = [
    *actions.__all__,
    "Address",
    "BotFunction",
    "BotResult",
    "CannotConnect",
    "CardSet",
    "DepartedView",
    "FunctionStrategy",
    "IllegalAnswer",
    "NoTableFound",
    "Observation",
    "RulesView",
    "SeatView",
    "Strategy",
    "TableView",
    "TimingView",
    "as_strategy",
    "find_table",
    "is_legal",
    "legal_actions",
    "play_bot",
    "run_bot",
]
