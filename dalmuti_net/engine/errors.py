"""Typed refusals: an action the game rejects changes nothing and says why."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    NO_DECISION_OWED = "no_decision_owed"
    WRONG_DECISION = "wrong_decision"
    NOT_A_SET = "not_a_set"
    NOT_HELD = "not_held"
    WRONG_SIZE = "wrong_size"
    NOT_BETTER = "not_better"
    MUST_LEAD = "must_lead"
    BAD_CARDS = "bad_cards"
    BAD_MERCHANT = "bad_merchant"
    BAD_POSITION = "bad_position"
    UNKNOWN_PLAYER = "unknown_player"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    WRONG_PHASE = "wrong_phase"
    TABLE_ENDED = "table_ended"


class IllegalAction(Exception):
    """Raised by the game for an action that is not allowed now; the game is unchanged."""

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
