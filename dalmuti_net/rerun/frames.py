"""What each viewer of a saved table was sent: the redaction core of histories and replays.

The table is built again and fed its save's accepted changes one by one through the table
core (``Table.apply_saved``), with a listening connection for every seat and one
spectator attached all along. Each listener receives what the table's own per-viewer code
(``engine.views`` through ``protocol.ViewerFeed``, the decisions routed to a seat's
connections) sends it, through the codec, exactly as a client attached all evening. So a
seat's history can hold nothing that seat was not sent, and nothing it was sent is missing.

What a save does not hold is not here either: who was connected when, reconnects (chat is
saved, so it is here).
Resume tokens are blanked, so a history can be shared. The operator's view (``HOST``) is
every engine event, numbered in order, with the spectator's table messages around them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .. import __version__
from ..engine import Event
from ..host.table import Table
from ..protocol import PROTOCOL_VERSION, Direction, decode, encode
from ..protocol.messages import Message, event_message
from ..protocol.resume import client_proof, new_nonce, seat_id
from .save import SavedTable

HOST: Literal["host"] = "host"
Viewer = int | None | Literal["host"]
"""A seat's player id, ``None`` for a spectator, or ``HOST`` for the operator's view."""

SOFTWARE = f"dalmuti-net-history/{__version__}"


@dataclass(frozen=True)
class SeatRecord:
    player: int
    name: str
    kind: str
    """human or bot"""
    played: bool
    """Whether the seat was dealt into the game (lobby seats that left before are not)."""


class DamagedSave(Exception):
    """A change in the save that the table cannot take: the file was damaged or forged."""

    def __init__(self, change: int, reason: str) -> None:
        super().__init__(f"change {change} cannot be played again ({reason})")
        self.change = change
        self.reason = reason


@dataclass
class Rerun:
    """A saved table played again: each viewer's messages, in the order they were sent."""

    table: SavedTable
    name: str
    frames: dict[Viewer, list[Message]] = field(default_factory=dict)
    seats: dict[int, SeatRecord] = field(default_factory=dict)
    after_leaving: dict[int, list[Message]] = field(default_factory=dict)
    """For a player who left mid-game, what a spectator arriving then was sent, to the
    table's end: a replay as them goes on to the final standings (their own history ends
    where their connection did)."""

    def viewer_named(self, name: str) -> int | None:
        """The player id of the seat called ``name`` (the one that played, if several
        seats had that name in turn), or ``None``."""
        matches = [seat for seat in self.seats.values() if seat.name == name]
        if not matches:
            folded = name.casefold()
            matches = [seat for seat in self.seats.values() if seat.name.casefold() == folded]
        matches.sort(key=lambda seat: not seat.played)
        return matches[0].player if matches else None


def rerun(saved: SavedTable) -> Rerun:
    """Every viewer's messages for the table ``saved``, through the table core."""
    table = Table(**saved.settings)
    result = Rerun(saved, table.name, {None: [], HOST: []})
    listening: dict[int | None, int] = {}
    host_seq = 0

    def drain(viewer: int | None) -> None:
        for message in table.take_outbox(listening[viewer]):
            delivered = _delivered(message)
            result.frames[viewer].append(delivered)
            if viewer is None and "seq" not in delivered:
                result.frames[HOST].append(delivered)

    def everything(events: list[Event]) -> None:
        nonlocal host_seq
        drain(None)  # what the spectator was sent before these events, in order
        for event in events:
            host_seq += 1
            result.frames[HOST].append(_delivered(event_message(event, host_seq)))

    def listen(viewer: int | None, token: str | None = None) -> None:
        connection = table.connect(internal=True, unseen=True)
        assert connection is not None  # internal connections are never refused
        listening[viewer] = connection
        hello: Message = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": "history",
            "role": "spectator" if viewer is None else "player",
            "software": SOFTWARE,
        }
        if token is not None:
            hello["resume"] = {"seat": seat_id(token), "nonce": new_nonce()}
        if table.code is not None:
            hello["code"] = table.code
        table.receive(connection, hello)
        if token is not None:
            # The seat is taken back as any client does: the host's challenge answered.
            challenge = (table.take_outbox(connection) or [{}])[-1]
            if challenge.get("type") != "challenge":
                raise ValueError(f"the seat of player {viewer} cannot be taken back")
            nonce = hello["resume"]["nonce"]
            proof = client_proof(token, table.table_id, nonce, challenge["nonce"])
            table.receive(connection, {"type": "prove", "proof": proof})
        if viewer is not None:
            result.frames[viewer] = []
        drain(viewer)

    listen(None)
    table.on_events = everything
    watching_after: dict[int, int] = {}

    def watch_after(player: int) -> None:
        connection = table.connect(internal=True, unseen=True)
        assert connection is not None
        hello: Message = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": "history",
            "role": "spectator",
            "software": SOFTWARE,
        }
        if table.code is not None:
            hello["code"] = table.code
        table.receive(connection, hello)
        watching_after[player] = connection
        result.after_leaving[player] = []

    def apply(entry: dict[str, Any]) -> None:
        table.apply_saved(entry)
        op = entry["op"]
        if op == "seat":
            player = entry["player"]
            result.seats[player] = SeatRecord(
                player, entry["name"], entry["kind"], table.game is not None
            )
            listen(player, entry["token"])
        elif op == "start":
            for player in entry["players"]:
                seat = result.seats[player]
                result.seats[player] = SeatRecord(player, seat.name, seat.kind, True)
        for viewer in listening:
            drain(viewer)
        if op == "leave" and entry["player"] in listening:
            # Live, the connection of a seat that leaves (or is kicked) closes here.
            table.disconnected(listening.pop(entry["player"]))
            if table.game is not None and table.phase != "ended":
                watch_after(entry["player"])
        for player, connection in watching_after.items():
            result.after_leaving[player] += map(_delivered, table.take_outbox(connection))
        table.take_effects()

    for number, entry in enumerate(saved.entries, start=1):
        try:
            apply(entry)
        except Exception as error:  # a save is a file: anything in it may be wrong
            raise DamagedSave(number, _reason(error)) from error
    return result


def _reason(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"it lacks {error.args[0]!r}" if error.args else "something is missing"
    return str(error) or type(error).__name__


def _delivered(message: Message) -> Message:
    """``message`` as a client decodes it off the wire, without any resume token."""
    decoded = decode(encode(message)[4:], Direction.TO_CLIENT)
    if decoded.get("type") == "welcome" and decoded.get("token") is not None:
        decoded = {**decoded, "token": None}
    return decoded
