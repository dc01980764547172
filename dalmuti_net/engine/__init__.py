"""The rules of The Great Dalmuti as a pure, seeded state machine (no I/O, no clock)."""

from .actions import (
    Action,
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
from .cards import CARDS, ENGLISH_NAMES, JESTER, RANKS, CardSet, Counts
from .errors import IllegalAction, Refusal
from .events import EVENT_TYPES, Event, event_from_dict, event_to_dict
from .game import Game, Phase
from .observation import Observation
from .roles import Role, role_at, roles_of
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError
from .views import Viewer, can_see, observe, visible

__all__ = [
    "CARDS",
    "ENGLISH_NAMES",
    "EVENT_TYPES",
    "JESTER",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RANKS",
    "Action",
    "CardSet",
    "Counts",
    "DecideMisdeal",
    "Decision",
    "DeclareRevolution",
    "Event",
    "ExchangeDecision",
    "Game",
    "GiveTax",
    "IllegalAction",
    "MerchantExchange",
    "MisdealChoice",
    "MisdealDecision",
    "Observation",
    "Pass",
    "Phase",
    "PlaceNewcomer",
    "PlacementDecision",
    "Play",
    "PlayDecision",
    "Refusal",
    "RevolutionDecision",
    "Role",
    "Rules",
    "RulesError",
    "TaxDecision",
    "Viewer",
    "can_see",
    "event_from_dict",
    "event_to_dict",
    "observe",
    "role_at",
    "roles_of",
    "visible",
]
