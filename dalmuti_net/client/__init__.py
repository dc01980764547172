"""The client: the protocol session, the connection, discovery, the bot SDK and the table UI.

The bot SDK is this package's public face: ``run_bot(address, bot)`` and friends (see
``sdk``), with the engine's action and decision types re-exported for bots to use.
"""

from ..bots.base import Strategy
from ..engine import (
    Action,
    CardSet,
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Observation,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
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

__all__ = [
    "Action",
    "Address",
    "BotFunction",
    "BotResult",
    "CannotConnect",
    "CardSet",
    "DecideMisdeal",
    "Decision",
    "DeclareRevolution",
    "ExchangeDecision",
    "FunctionStrategy",
    "GiveTax",
    "IllegalAnswer",
    "MerchantExchange",
    "MisdealChoice",
    "MisdealDecision",
    "NoTableFound",
    "Observation",
    "Pass",
    "PlaceNewcomer",
    "PlacementDecision",
    "Play",
    "PlayDecision",
    "RevolutionDecision",
    "Strategy",
    "TaxDecision",
    "as_strategy",
    "find_table",
    "is_legal",
    "legal_actions",
    "play_bot",
    "run_bot",
]
