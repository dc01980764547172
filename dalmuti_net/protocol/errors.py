"""The protocol's error codes: every refusal the host can send, and whether it closes."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from ..engine import Refusal
from .text import escaped_text

MAX_ERROR_CHARS = 500
"""The longest error sentence the catalogue allows."""


class ErrorCode(StrEnum):
    # Framing and decoding: the connection is closed.
    BAD_FRAME = "bad_frame"
    TOO_LARGE = "too_large"
    UNKNOWN_TYPE = "unknown_type"
    # Handshake refusals: the connection is closed.
    NOT_HELLO = "not_hello"
    VERSION_MISMATCH = "version_mismatch"
    TABLE_FULL = "table_full"
    BAD_TOKEN = "bad_token"
    BAD_PROOF = "bad_proof"
    BAD_CODE = "bad_code"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    NAME_TAKEN = "name_taken"
    # Session: the connection is closed.
    TIMEOUT = "timeout"
    SLOW_CONSUMER = "slow_consumer"
    KICKED = "kicked"
    REPLACED = "replaced"
    SHUTTING_DOWN = "shutting_down"
    INTERNAL_ERROR = "internal_error"
    # Requests refused: the connection stays open and nothing changed.
    BAD_MESSAGE = "bad_message"
    RATE_LIMITED = "rate_limited"
    ALREADY_HELLO = "already_hello"
    NOT_HOST = "not_host"
    SPECTATOR = "spectator"
    WRONG_PHASE = "wrong_phase"
    BAD_RULES = "bad_rules"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    UNKNOWN_PLAYER = "unknown_player"
    NO_DECISION_OWED = "no_decision_owed"
    STALE_DECISION = "stale_decision"
    WRONG_DECISION = "wrong_decision"
    NOT_A_SET = "not_a_set"
    NOT_HELD = "not_held"
    WRONG_SIZE = "wrong_size"
    NOT_BETTER = "not_better"
    MUST_LEAD = "must_lead"
    BAD_CARDS = "bad_cards"
    BAD_MERCHANT = "bad_merchant"
    BAD_POSITION = "bad_position"
    ALREADY_SEATED = "already_seated"
    TABLE_ENDED = "table_ended"
    NOT_WAITING = "not_waiting"
    TOO_SOON = "too_soon"
    # The host's own trouble, told to everyone unasked: the connection stays open.
    CANNOT_SAVE = "cannot_save"


FATAL_CODES = frozenset(
    {
        ErrorCode.BAD_FRAME,
        ErrorCode.TOO_LARGE,
        ErrorCode.UNKNOWN_TYPE,
        ErrorCode.NOT_HELLO,
        ErrorCode.VERSION_MISMATCH,
        ErrorCode.TABLE_FULL,
        ErrorCode.BAD_TOKEN,
        ErrorCode.BAD_PROOF,
        ErrorCode.BAD_CODE,
        ErrorCode.TOO_MANY_CONNECTIONS,
        ErrorCode.NAME_TAKEN,
        ErrorCode.TIMEOUT,
        ErrorCode.SLOW_CONSUMER,
        ErrorCode.KICKED,
        ErrorCode.REPLACED,
        ErrorCode.SHUTTING_DOWN,
        ErrorCode.INTERNAL_ERROR,
    }
)

FATAL_WHEN: dict[ErrorCode, str] = {
    ErrorCode.TABLE_FULL: "when it refuses a `hello`",
    ErrorCode.TABLE_ENDED: "when it refuses a `hello` for a new seat (the table is over)",
}
"""Codes whose ``fatal`` depends on the request refused: fatal in this case only (the
error's own ``fatal`` field says which, and a client goes by it)."""

DESCRIPTIONS: dict[ErrorCode, str] = {
    ErrorCode.BAD_FRAME: "The bytes are not a frame holding one msgpack map with string keys.",
    ErrorCode.TOO_LARGE: "A frame's declared length is over the 64 KiB limit.",
    ErrorCode.UNKNOWN_TYPE: "The message type is not one a client may send.",
    ErrorCode.NOT_HELLO: "The first message of a connection must be `hello`.",
    ErrorCode.VERSION_MISMATCH: "The client's protocol version is not the host's.",
    ErrorCode.TABLE_FULL: (
        "No free seat (or no spectator place) is left (in all, or for the client's "
        "address); refusing the host player's `add_bot` it is not fatal."
    ),
    ErrorCode.BAD_TOKEN: "The seat named by `resume` is not one this table can give back.",
    ErrorCode.BAD_PROOF: (
        "The client's `prove` does not match the challenge (or no challenge was pending)."
    ),
    ErrorCode.BAD_CODE: (
        "The table needs a join code and it was missing or wrong, or the client's address "
        "gave wrong codes and must wait before its next one is looked at."
    ),
    ErrorCode.TOO_MANY_CONNECTIONS: (
        "The host has reached its connection limit (a new seat or spectator), or closed this "
        "connection, which had not said hello yet, to make room for a newer one."
    ),
    ErrorCode.NAME_TAKEN: (
        "The name looks like the name of someone at the table without being it (it differs "
        "only in case, invisible characters or look-alike letters: see Names); choose "
        "another."
    ),
    ErrorCode.TIMEOUT: (
        "No whole frame came from the client within the heartbeat timeout, or no hello "
        "within the hello deadline."
    ),
    ErrorCode.SLOW_CONSUMER: (
        "The client did not read its messages and its queue filled up. Never sent: the host"
        " closes such a connection without a frame; the code names the case for a client."
    ),
    ErrorCode.KICKED: "The host player removed this client from the table.",
    ErrorCode.REPLACED: "Another connection took this seat back (it proved it holds the token).",
    ErrorCode.SHUTTING_DOWN: "The host is closing the table.",
    ErrorCode.INTERNAL_ERROR: (
        "The host failed while serving this connection (a bug in the host, which its log "
        "tells): it closes this connection only, and the table goes on."
    ),
    ErrorCode.BAD_MESSAGE: "A field is missing, of the wrong type or out of range.",
    ErrorCode.RATE_LIMITED: "Too many messages too fast; this one was dropped.",
    ErrorCode.ALREADY_HELLO: "`hello` was already accepted on this connection.",
    ErrorCode.NOT_HOST: "Only the host player may do this.",
    ErrorCode.SPECTATOR: "Spectators may watch and chat, not act.",
    ErrorCode.WRONG_PHASE: "Not possible in the table's current phase.",
    ErrorCode.BAD_RULES: "The rule options are invalid or do not fit together.",
    ErrorCode.NOT_ENOUGH_PLAYERS: "A table starts with 4 to 8 seated players.",
    ErrorCode.UNKNOWN_PLAYER: "No such player at this table.",
    ErrorCode.NO_DECISION_OWED: "You owe no decision right now (not your turn).",
    ErrorCode.STALE_DECISION: (
        "The answer's `decision_id` names a decision no longer owed (already answered, or"
        " replaced by a newer one): nothing changed; answer the decision owed now, if any."
    ),
    ErrorCode.WRONG_DECISION: "That answers a different decision from the one you owe.",
    ErrorCode.NOT_A_SET: "The cards do not form a set (rule 2).",
    ErrorCode.NOT_HELD: "You do not hold those cards.",
    ErrorCode.WRONG_SIZE: "A follow must have as many cards as the set to beat.",
    ErrorCode.NOT_BETTER: "A follow must have a strictly better (lower) rank.",
    ErrorCode.MUST_LEAD: "The leader must play; passing is not allowed on a lead.",
    ErrorCode.BAD_CARDS: "The wrong number of cards for this tax.",
    ErrorCode.BAD_MERCHANT: "Not a Merchant you may exchange with.",
    ErrorCode.BAD_POSITION: "Not a position the newcomer may take.",
    ErrorCode.ALREADY_SEATED: "That player is already at the table.",
    ErrorCode.TABLE_ENDED: (
        "The table has ended: no new seat (refusing a `hello`, with `fatal` true and the"
        " final `standings`), and no second `end_table` (not fatal)."
    ),
    ErrorCode.NOT_WAITING: (
        "`nudge` or `skip`: the table is not waiting for that player (they owe no decision"
        " everyone may know of, or they are the host player)."
    ),
    ErrorCode.TOO_SOON: (
        "`nudge` or `skip` before the player has had their grace (`nudge_after_ms`,"
        " `skip_after_ms` of the table's `timing`), or `rematch` before the table ended."
    ),
    ErrorCode.CANNOT_SAVE: (
        "Sent to everyone, unasked, when the host cannot write its save (a full disk, an "
        "I/O error): what arrived since is accepted but not yet acknowledged, and nothing "
        "more is delivered until the save is written; then the table goes on by itself."
    ),
}


class ProtocolError(Exception):
    """A refusal to send back as an `error` message."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        fatal: bool | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self._fatal = fatal
        self.details = details or {}
        """Extra fields of the `error` message (e.g. the standings of an ended table)."""

    @property
    def fatal(self) -> bool:
        """Whether the connection closes: by the code, unless the refusal says otherwise
        (``table_full`` closes a handshake, not the host player's ``add_bot``)."""
        return self.code in FATAL_CODES if self._fatal is None else self._fatal

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def message_to_send(self, re: Any = None) -> dict[str, Any]:
        """The `error` message that says this refusal: the one place it is built. ``re`` is
        the refused request's id, already checked valid (None: the message has no `re`).
        The sentence may quote what a client sent: refused characters in it are written as
        escapes, and it is cut to the catalogue's 500 characters."""
        message: dict[str, Any] = {
            "type": "error",
            "code": str(self.code),
            "message": escaped_text(self.message)[:MAX_ERROR_CHARS],
            "fatal": self.fatal,
        }
        if re is not None:
            message["re"] = re
        message.update(self.details)
        return message


def from_refusal(refusal: Refusal) -> ErrorCode:
    """The engine's refusal codes are protocol codes of the same name."""
    return ErrorCode(refusal.value)
