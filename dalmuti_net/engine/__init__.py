"""The rules of The Great Dalmuti as a pure, seeded state machine (no I/O, no clock).

The research API (clone, legal_actions, action ids, sample_hidden, returns) is described
in README.md beside this file.
"""

from . import actions
from .actions import *  # noqa: F403 (the action and decision types: actions.__all__)
from .actions import PASS, is_legal_answer, legal_answers
from .cards import CARDS, ENGLISH_NAMES, JESTER, RANKS, CardSet, Counts
from .encoding import ACTION_NAMES, NUM_ACTIONS, action_name
from .errors import IllegalAction, Refusal
from .events import EVENT_TYPES, Event, event_from_dict, event_to_dict
from .game import Game, Phase
from .observation import Observation
from .roles import Role, role_at, roles_of
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError
from .views import Viewer, can_see, observe, visible

__all__ = [
    *actions.__all__,
    "ACTION_NAMES",
    "CARDS",
    "ENGLISH_NAMES",
    "EVENT_TYPES",
    "JESTER",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NUM_ACTIONS",
    "PASS",
    "RANKS",
    "CardSet",
    "Counts",
    "Event",
    "Game",
    "IllegalAction",
    "Observation",
    "Phase",
    "Refusal",
    "Role",
    "Rules",
    "RulesError",
    "Viewer",
    "action_name",
    "can_see",
    "event_from_dict",
    "event_to_dict",
    "is_legal_answer",
    "legal_answers",
    "observe",
    "role_at",
    "roles_of",
    "visible",
]
