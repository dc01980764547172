"""A client's side of the protocol, sans-I/O: what it sends first, and what it knows.

Feed it each validated message from the host; it keeps the table, this seat's
``Observation`` (from the snapshot, then from numbered events) and the decision owed, and
notices a gap in the event numbers so that the caller can ask for a fresh snapshot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..engine import Decision, Observation
from ..engine.events import Event, HandEnded, TableEnded, Waiting
from ..engine.game import final_standings
from ..protocol import PROTOCOL_VERSION, ProtocolError
from ..protocol.messages import (
    Message,
    decision_from_message,
    event_from_message,
    observation_from_dict,
)
from ..protocol.resume import client_proof, host_proof, new_nonce, proof_matches, seat_id
from ..protocol.text import clean_text
from .fits import (
    check_decision,
    check_event,
    check_game,
    check_told,
    check_welcome,
    fit_table,
)
from .seats import SeatStore
from .table_view import TableView

SOFTWARE = f"dalmuti-net/{__version__}"
TABLE_UI_SOFTWARE = f"dalmuti-net table/{__version__}"
"""The table UI's name in its hello (for the host's logs: it paces its bots for whoever
plays a seat, whatever program they use: ``Table.bot_pace``)."""
HOST_UNPROVEN = "host_unproven"
"""The code of the error this client makes up (the host sent none) when a host could not
prove it holds the seat this client asked back: the connection is closed, nothing sent."""

PLAY = frozenset({"chat", "timers", "moved_for", "nudged", "decision"})
"""Besides the numbered events, the messages that follow the play (``follows_play``)."""

# What a client keeps is bounded, whatever a host sends (a chat flood, say).
KEPT_CHAT = 200
KEPT_ERRORS = 50
KEPT_RESULTS = 64
"""Hands' results kept in the observation (bots may look back; nobody needs them all)."""

# Limits a host announces, clamped to what makes sense (ms): a host cannot make this
# client send 350 heartbeats a second, or give up on it after a millisecond of silence.
HEARTBEAT_INTERVAL_MS = (250, 30_000)
HEARTBEAT_TIMEOUT_MS = (5_000, 600_000)
GRACE_PERIOD_MS = (0, 86_400_000)
DEFAULT_LIMITS_MS = {
    "heartbeat_interval_ms": 5_000,
    "heartbeat_timeout_ms": 20_000,
    "grace_period_ms": 60_000,
}
_CLAMPS = {
    "heartbeat_interval_ms": HEARTBEAT_INTERVAL_MS,
    "heartbeat_timeout_ms": HEARTBEAT_TIMEOUT_MS,
    "grace_period_ms": GRACE_PERIOD_MS,
}


@dataclass
class HostError:
    code: str
    message: str
    fatal: bool
    host_version: int | None = None
    client_version: int | None = None
    standings: list[tuple[str, int, int]] = field(default_factory=list)
    """With table_ended: (name, score, place) best first, when the host still has them."""
    scoring: bool = True
    """With standings: the table kept score (else they are the last seating's order)."""


@dataclass
class ClientSession:
    name: str
    spectator: bool = False
    token: str | None = None
    code: str | None = None
    software: str = SOFTWARE
    person: bool = False
    """A person plays or watches through this session (a table on a screen, not a bot):
    said in ``hello`` so that the host paces its bots for them."""
    welcome: dict[str, Any] | None = None
    player: int | None = None
    is_host: bool = False
    table: TableView | None = None
    """The host's last ``table`` (or a snapshot's), decoded and checked as it arrived:
    frozen, read by attribute (``table.players``, ``table.rules.scoring``)."""
    observation: Observation | None = None
    decision: Decision | None = None
    decision_id: int | None = None
    """The owed decision's id (from the host's ``decision`` or the snapshot's)."""
    deadline_ms: int | None = None
    seq: int = 0
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEPT_CHAT))
    errors: deque[HostError] = field(default_factory=lambda: deque(maxlen=KEPT_ERRORS))
    needs_snapshot: bool = False
    closed_reason: str | None = None
    goodbye_code: str | None = None
    seats: SeatStore | None = None
    """Where this user's seats are remembered: with one, the client asks the host which
    table it runs (``about``) before ``hello``, and asks back the seat it holds there."""
    table_id: str | None = None
    token_from_store: bool = False
    seat_lost: bool = False
    seat_was_lost: bool = False
    """The host did not know the seat asked back (``bad_token``) and this connection took a
    new seat (not another remembered seat of this table, proven). The refused seat is
    kept: a host that proved nothing cannot make this client forget a seat (the one that
    issued it may know it still)."""
    address: str | None = None
    """Where this connection goes (``HOST:PORT`` as dialled), remembered with a seat."""
    moved_from: str | None = None
    """The host claims a table whose remembered seats were all taken at another address:
    that address (a table id is a claim, not a proof: shown to the player as such)."""
    nonce_factory: Callable[[], str] = new_nonce
    proven: bool = False
    """The host of this connection proved, by its challenge, that it holds ``token``."""
    host_unproven: bool = False
    """A host asked for a seat back failed its proof (or skipped it): closed, nothing sent."""
    proof_to_send: Message | None = field(default=None, init=False)
    """The ``prove`` to send for the last ``challenge``, when its proof was right."""
    relayed_resume: tuple[str, str] | None = None
    """(seat id, nonce) of a seat this client asks back for someone else who holds its
    token and makes both proofs: the web table's page. The host's ``challenge`` is then
    kept in ``challenge_to_relay`` for that one to check, and its answer sent with
    ``relay_proof``; the token never reaches this client."""
    challenge_to_relay: Message | None = field(default=None, init=False)
    seat_over: bool = field(default=False, init=False)
    """The seat is over for good (left, kicked, its table ended): nothing to take back, until
    a rematch with the same seats makes it a seat again."""
    _resume_nonce: str | None = field(default=None, init=False, repr=False)
    _refused_seats: set[str] = field(default_factory=set, init=False, repr=False)
    """Seat ids a host answered ``bad_token`` for in this session: not asked again."""
    last_drop: str | None = None
    """Why the last connection was lost or could not be made (English, for a detail)."""
    last_drop_kind: str | None = None
    """``CannotConnect.kind`` of the last failure to connect, when known (for a sentence
    in the player's language)."""
    decoded: tuple[Message, Event | None] | None = field(default=None, repr=False)
    """The last event message folded in and its engine event, decoded once: the table
    model takes the event from here for that very message."""
    broken: str | None = None
    """Why this client stopped talking to the host: its messages could not be read or did
    not fit the table, again after reconnecting (English, for a detail)."""
    follows_play: bool = True
    """False: a spectator's session that keeps only what is its own (its welcome, its
    refusals, its goodbye) and the table's seats, leaving the play (events, chat, timers)
    to a client that follows it for several viewers: the web table's watch, one for the
    pages watching in one language (``web/watch.py``)."""

    def limit_ms(self, name: str) -> int:
        """A limit from the host's ``welcome`` (``heartbeat_interval_ms``,
        ``heartbeat_timeout_ms``, ``grace_period_ms``), clamped to a sane range."""
        limits = (self.welcome or {}).get("limits") or {}
        value = limits.get(name)
        low, high = _CLAMPS[name]
        return min(high, max(low, value if type(value) is int else DEFAULT_LIMITS_MS[name]))

    @property
    def asks_about(self) -> bool:
        """Whether to ask which table this is before ``hello``: with remembered seats, and
        before asking a seat back (the proofs are bound to the table's id)."""
        return self.seats is not None or self.token is not None or self.relayed_resume is not None

    def about(self, message: Message) -> None:
        """The host said which table it runs: pick this table's seat, never another's. The
        id is only a claim: the host must still prove it holds the seat (``challenge``)."""
        table_id = message["table_id"]
        if self.relayed_resume is not None and table_id != self.table_id:
            self._unproven("the seat asked back is another table's")
            return
        if self.table_id is not None and table_id != self.table_id:
            # Another table answers at this address now: our seat is not there.
            self.token = None
            self.token_from_store = False
        self.table_id = table_id
        if self.seats is None:
            return
        remembered = self.seats.seats_for(table_id)
        addresses = {seat.address for seat in remembered if seat.address}
        self.moved_from = None
        if addresses and self.address is not None and self.address not in addresses:
            self.moved_from = sorted(addresses)[0]
        if self.token is None and not self.spectator:
            for seat in remembered:  # the newest first
                if seat_id(seat.token) not in self._refused_seats:
                    self.token = seat.token
                    self.token_from_store = True
                    break

    def drop(self, reason: str, kind: str | None = None) -> None:
        """The connection was lost, or a new one could not be made, for ``reason``."""
        self.last_drop, self.last_drop_kind = reason, kind

    def refuse_version(self, error: ProtocolError) -> None:
        """The host's ``welcome`` speaks another protocol version: refused here as the host
        refuses a ``hello`` of another version (both versions are shown)."""
        self.errors.append(
            HostError(
                str(error.code),
                error.message,
                True,
                error.details.get("host_version"),
                error.details.get("client_version"),
            )
        )
        self.closed_reason = error.message

    def give_up(self, reason: str) -> None:
        """The host's messages do not fit, again and again: the session is over."""
        self.broken = reason
        self.closed_reason = reason

    def forget_seat(self) -> None:
        """The seat is given up (or gone): do not offer its token again."""
        self.seat_over = True
        if self.seats is not None and self.token is not None:
            self.seats.forget(self.token)
        self.token = None
        self.token_from_store = False

    def hello(self) -> Message:
        message: Message = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            # One's own name, typed with a stray control character: cleaned, not refused.
            "name": clean_text(self.name) or "Player",
            "role": "spectator" if self.spectator else "player",
            "software": self.software,
        }
        self.proven = False
        self._resume_nonce = None
        self.challenge_to_relay = None
        if self.token is not None:
            self._resume_nonce = self.nonce_factory()
            message["resume"] = {"seat": seat_id(self.token), "nonce": self._resume_nonce}
        elif self.relayed_resume is not None and not self.spectator:
            seat, self._resume_nonce = self.relayed_resume
            message["resume"] = {"seat": seat, "nonce": self._resume_nonce}
        if self.code is not None:
            message["code"] = self.code
        if self.person:
            message["person"] = True
        return message

    @property
    def names(self) -> dict[int, str]:
        if self.table is None:
            return {}
        return {seat.player: seat.name for seat in self.table.players}

    def takes(self, message: Message) -> bool:
        """Whether this session takes ``message`` in: every one, but the play's when it
        does not follow the play (``follows_play``)."""
        return self.follows_play or not (message["type"] in PLAY or "seq" in message)

    def receive(self, message: Message) -> None:
        """Take one validated host message into account. Raises ``fits.HostUnfit`` (and
        changes nothing) when it does not fit what is known, ``fits.HostVersion`` for a
        ``welcome`` of another protocol version."""
        if not self.takes(message):
            return
        kind = message["type"]
        table: TableView | None = None
        if kind == "welcome":
            check_welcome(message)
        elif kind == "table":
            table = fit_table(kind, message["table"])
        elif kind == "decision":
            # After a gap the observation is behind (a tax received, say): only the
            # snapshot asked for can be held against the decision's cards.
            check_decision(message, self.player, None if self.needs_snapshot else self.observation)
        elif kind == "snapshot":
            pass  # checked as it is taken apart, before anything is kept (_snapshot)
        elif "seq" in message:
            if not self.needs_snapshot and message["seq"] == self.seq + 1:
                check_event(message, self.observation)
            else:
                check_told(message)  # not folded in, but a front end may still tell it
        if kind == "about":
            self.about(message)
        elif kind == "challenge":
            self.proof_to_send = self._answer_challenge(message)
        elif kind == "welcome":
            if self._resume_nonce is not None and not self.proven:
                self._unproven("it let this client in without proving it holds the seat")
                return
            self._welcome(message)
        elif kind == "snapshot":
            self._snapshot(message)
        elif table is not None:
            self._table(table)
        elif kind == "decision":
            self.decision = decision_from_message(message)
            self.decision_id = message.get("decision_id")
            self.deadline_ms = message.get("deadline_ms")
        elif kind == "chat":
            self.chat.append(message)
        elif kind == "error":
            if message["code"] == "bad_token" and self.token_from_store and self.token:
                # Not forgotten: the host proved nothing. Another remembered seat of this
                # table, or a new one, on the next connection.
                self._refused_seats.add(seat_id(self.token))
                self.token = None
                self.token_from_store = False
                self.seat_lost = True
                return
            if message["code"] == "kicked":
                self.forget_seat()
            self.errors.append(
                HostError(
                    message["code"],
                    message["message"],
                    message["fatal"],
                    message.get("host_version"),
                    message.get("client_version"),
                    [(s["name"], s["score"], s["place"]) for s in message.get("standings", [])],
                    message.get("scoring", True),
                )
            )
            if message["fatal"]:
                self.closed_reason = message["message"]
        elif kind == "goodbye":
            self.closed_reason = message["reason"]
            self.goodbye_code = message.get("code")
        elif "seq" in message:
            self._event(message)

    def _answer_challenge(self, message: Message) -> Message | None:
        """The host's proof checked before anything is sent back: a host that does not
        hold the seat's token learns nothing (the client closes the connection)."""
        if self.relayed_resume is not None and self.token is None:
            if self._resume_nonce is None or self.challenge_to_relay is not None:
                self._unproven("it sent a challenge this client did not ask for")
            else:
                self.challenge_to_relay = message  # checked by whoever holds the token
            return None
        token, client_nonce, table_id = self.token, self._resume_nonce, self.table_id
        if token is None or client_nonce is None or table_id is None:
            self._unproven("it sent a challenge this client did not ask for")
            return None
        host_nonce = message["nonce"]
        expected = host_proof(token, table_id, client_nonce, host_nonce)
        if host_nonce == client_nonce or not proof_matches(expected, message["proof"]):
            self._unproven("its proof of the seat is wrong")
            return None
        self.proven = True
        return {
            "type": "prove",
            "proof": client_proof(token, table_id, client_nonce, host_nonce),
        }

    def relay_proof(self, proof: str) -> Message:
        """The ``prove`` for the relayed challenge, from whoever holds the token: it checked
        the host's proof before making its own."""
        if self.challenge_to_relay is None:
            raise ValueError("no challenge is waiting for a proof")
        self.challenge_to_relay = None
        self.proven = True
        return {"type": "prove", "proof": proof}

    def _unproven(self, why: str) -> None:
        self.host_unproven = True
        self._resume_nonce = None
        text = f"this host claims table {self.table_id} but could not prove it: {why}"
        self.errors.append(HostError(HOST_UNPROVEN, text, True))
        self.closed_reason = text

    def _welcome(self, message: Message) -> None:
        self.welcome = message
        self.player = message["player"]
        self.is_host = message["host"]
        self.table_id = message["table_id"]
        resumed, self._resume_nonce = self._resume_nonce is not None, None
        # A seat taken back with a proof is the player's own, whatever seat was refused
        # before it: only a new seat says the earlier one is gone.
        self.seat_was_lost = self.seat_lost and not (resumed and self.proven)
        self.seat_lost = False
        if resumed and self.token is not None:
            if self.seats is not None:
                # The host proved it holds this seat: it is this table's, here.
                self.seats.confirm(
                    self.table_id, self.token, self.name, message["table"], self.address
                )
        elif message["token"] is not None:
            self.token = message["token"]
            if self.seats is not None:
                # A new seat, on the word of a host that proved nothing: kept beside any
                # seat remembered for this table id, never over it.
                self.seats.remember(
                    self.table_id, self.token, self.name, message["table"], self.address
                )

    def skip_event(self, seq: int) -> None:
        """An event of a type this client does not know arrived: count it, ignore it."""
        if not self.needs_snapshot and seq == self.seq + 1:
            self.seq = seq

    def _table(self, table: TableView) -> None:
        if table.lobby and self.observation is not None:
            # A rematch: back in the lobby, the game that ended is over for this client too.
            self.observation = None
            self.decision = None
            self.decision_id = None
        # A rule the host leaves out is the rule's default (PROTOCOL.md: every option is
        # optional): decoding filled it in once, so that no front end shows "None" for it.
        self.table = table
        me = table.seat(self.player)
        if me is not None:
            self.is_host = me.host
            if table.rematch:
                self.seat_over = False
                self._remember_for_the_rematch(table.name)

    def _remember_for_the_rematch(self, table_name: str) -> None:
        """The table's end made the seat store forget this seat (nothing was left to
        resume); a rematch with the same seats makes it a seat again, to take back after a
        drop or a restart as during a game."""
        if self.seats is None or self.token is None or self.table_id is None:
            return
        if any(seat.token == self.token for seat in self.seats.seats_for(self.table_id)):
            return
        self.seats.remember(
            self.table_id, self.token, self.name, table_name, self.address, proven=self.proven
        )

    def _snapshot(self, message: Message) -> None:
        table = fit_table("snapshot", message["table"])
        if not self.follows_play:
            self.player = message["you"]
            self._table(table)
            self.needs_snapshot = False
            return
        game = message["game"]
        if game is not None:
            check_game(game)
        for told in message["hand_events"]:
            check_told(told)
        observation = None if game is None else observation_from_dict(game, message["you"])
        decision = message["decision"]
        if decision is not None:
            check_decision(decision, message["you"], observation)
        self.seq = message["seq"]
        self.player = message["you"]
        self._table(table)
        self.observation = observation
        if observation is not None and observation.phase == "ended" and observation.ended is None:
            # Back at a table that ended while this client was away: the snapshot has the
            # scores, not the `table_ended` event; the standings are the same either way.
            standings = final_standings(observation.scores, observation.order)
            told = [event_from_message(told) for told in message["hand_events"]]
            why = next((e.reason for e in told if isinstance(e, TableEnded)), "")
            observation.ended = TableEnded(why, standings)
            self.seat_over = True
            if self.seats is not None and self.token:
                self.seats.forget(self.token)  # nothing left to resume there
        decision = message["decision"]
        self.decision = None if decision is None else decision_from_message(decision)
        self.decision_id = None if decision is None else decision.get("decision_id")
        self.deadline_ms = None if decision is None else decision.get("deadline_ms")
        self.needs_snapshot = False

    def _event(self, message: Message) -> None:
        if self.needs_snapshot:
            return
        if message["seq"] != self.seq + 1:
            self.needs_snapshot = True
            return
        self.seq = message["seq"]
        event = event_from_message(message)
        self.decoded = (message, event)
        if event is None:
            return
        if self.observation is None:
            self.observation = Observation(self.player)
        self.observation.apply(event)
        if isinstance(event, HandEnded):
            del self.observation.results[:-KEPT_RESULTS]
        if isinstance(event, TableEnded):
            self.seat_over = True
            if self.seats is not None and self.token:
                self.seats.forget(self.token)  # nothing left to resume there
        if (isinstance(event, Waiting) and self.player not in event.players) or isinstance(
            event, HandEnded | TableEnded
        ):
            self.decision = None
