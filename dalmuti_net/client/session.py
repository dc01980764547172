"""A client's side of the protocol, sans-I/O: what it sends first, and what it knows.

Feed it each validated message from the host; it keeps the table, this seat's
``Observation`` (from the snapshot, then from numbered events) and the decision owed, and
notices a gap in the event numbers so that the caller can ask for a fresh snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..engine import Decision, Observation
from ..engine.events import HandEnded, TableEnded, Waiting
from ..engine.game import final_standings
from ..protocol import PROTOCOL_VERSION
from ..protocol.messages import (
    Message,
    decision_from_message,
    event_from_message,
    observation_from_dict,
)
from ..protocol.text import clean_text
from .seats import SeatStore

SOFTWARE = f"dalmuti-net/{__version__}"
TABLE_UI_SOFTWARE = f"dalmuti-net table/{__version__}"
"""The table UI's name in its hello: the host paces its bots for it (host/pacing.py)."""


@dataclass
class HostError:
    code: str
    message: str
    fatal: bool
    host_version: int | None = None
    client_version: int | None = None
    standings: list[tuple[str, int, int]] = field(default_factory=list)
    """With table_ended: (name, score, place) best first, when the host still has them."""


@dataclass
class ClientSession:
    name: str
    spectator: bool = False
    token: str | None = None
    code: str | None = None
    software: str = SOFTWARE
    welcome: dict[str, Any] | None = None
    player: int | None = None
    is_host: bool = False
    table: dict[str, Any] | None = None
    observation: Observation | None = None
    decision: Decision | None = None
    decision_id: int | None = None
    """The owed decision's id (from the host's ``decision`` or the snapshot's)."""
    deadline_ms: int | None = None
    seq: int = 0
    chat: list[dict[str, Any]] = field(default_factory=list)
    errors: list[HostError] = field(default_factory=list)
    needs_snapshot: bool = False
    closed_reason: str | None = None
    goodbye_code: str | None = None
    seats: SeatStore | None = None
    """Where this user's seats are remembered: with one, the client asks the host which
    table it runs (``about``) before ``hello``, and resumes the seat it holds there."""
    table_id: str | None = None
    token_from_store: bool = False
    seat_lost: bool = False
    seat_was_lost: bool = False
    """The remembered seat is gone from the table (left, kicked, or removed): the next
    connection takes a new seat."""

    @property
    def asks_about(self) -> bool:
        """Whether to ask which table this is before ``hello``: with remembered seats, and
        before offering a token again (the host at this address may run another table now)."""
        return self.seats is not None or (self.token is not None and self.table_id is not None)

    def about(self, message: Message) -> None:
        """The host said which table it runs: pick this table's token, never another's."""
        table_id = message["table_id"]
        if self.table_id is not None and table_id != self.table_id:
            # Another table answers at this address now: our seat is not there.
            self.token = None
            self.token_from_store = False
        self.table_id = table_id
        if self.token is None and self.seats is not None and not self.spectator:
            remembered = self.seats.seat_for(table_id)
            if remembered is not None:
                self.token = remembered.token
                self.token_from_store = True

    def forget_seat(self) -> None:
        """The seat is given up (or gone): do not offer its token again."""
        if self.seats is not None and self.table_id is not None:
            self.seats.forget(self.table_id)
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
        if self.token is not None:
            message["token"] = self.token
        if self.code is not None:
            message["code"] = self.code
        return message

    @property
    def names(self) -> dict[int, str]:
        if self.table is None:
            return {}
        return {seat["player"]: seat["name"] for seat in self.table["players"]}

    def receive(self, message: Message) -> None:
        """Take one validated host message into account."""
        kind = message["type"]
        if kind == "about":
            self.about(message)
        elif kind == "welcome":
            self.welcome = message
            self.player = message["player"]
            self.is_host = message["host"]
            self.table_id = message["table_id"]
            self.seat_was_lost, self.seat_lost = self.seat_lost, False
            if message["token"] is not None:
                self.token = message["token"]
                if self.seats is not None:
                    self.seats.remember(self.table_id, self.token, self.name, message["table"])
        elif kind == "snapshot":
            self._snapshot(message)
        elif kind == "table":
            self._table(message["table"])
        elif kind == "decision":
            self.decision = decision_from_message(message)
            self.decision_id = message.get("decision_id")
            self.deadline_ms = message.get("deadline_ms")
        elif kind == "chat":
            self.chat.append(message)
        elif kind == "error":
            if message["code"] == "bad_token" and self.token_from_store:
                self.forget_seat()
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
                )
            )
            if message["fatal"]:
                self.closed_reason = message["message"]
        elif kind == "goodbye":
            self.closed_reason = message["reason"]
            self.goodbye_code = message.get("code")
        elif "seq" in message:
            self._event(message)

    def skip_event(self, seq: int) -> None:
        """An event of a type this client does not know arrived: count it, ignore it."""
        if not self.needs_snapshot and seq == self.seq + 1:
            self.seq = seq

    def _table(self, table: dict[str, Any]) -> None:
        self.table = table
        me = next((s for s in table["players"] if s["player"] == self.player), None)
        if me is not None:
            self.is_host = me["host"]

    def _snapshot(self, message: Message) -> None:
        self.seq = message["seq"]
        self.player = message["you"]
        self._table(message["table"])
        game = message["game"]
        self.observation = None if game is None else observation_from_dict(game, self.player)
        observation = self.observation
        if observation is not None and observation.phase == "ended" and observation.ended is None:
            # Back at a table that ended while this client was away: the snapshot has the
            # scores, not the `table_ended` event; the standings are the same either way.
            standings = final_standings(observation.scores, observation.order)
            observation.ended = TableEnded("", standings)
            if self.seats is not None and self.table_id:
                self.seats.forget(self.table_id)  # nothing left to resume there
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
        if event is None:
            return
        if self.observation is None:
            self.observation = Observation(self.player)
        self.observation.apply(event)
        if isinstance(event, TableEnded) and self.seats is not None and self.table_id:
            self.seats.forget(self.table_id)  # nothing left to resume there
        if (isinstance(event, Waiting) and self.player not in event.players) or isinstance(
            event, HandEnded | TableEnded
        ):
            self.decision = None
