"""The connection handshake: who may connect, ``hello``, and the ``resume`` proved with a
``challenge`` and its ``prove``, up to the ``welcome`` and the first snapshot.

A room of its own because it is where the table meets strangers: the limits on
connections, per-address places and join-code guesses (``admission``), the version, the
seat a resume names and the proof that its token is held, all decided before a
connection may act. It works on the table's state it is handed (``state.TableState``)
and seats a newcomer through the two callables the lobby gives it (``reserve_seat`` and
``unique_name``), never through the table's façade.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError
from ..protocol.messages import Message
from ..protocol.resume import client_proof, host_proof, proof_matches, seat_ids_match
from ..told import N_, Told
from .admission import Admission, MakeRoom, address_key, is_loopback, same_code
from .records import Challenge, Connection, Seat, Tell
from .snapshot import send_snapshot
from .state import SOFTWARE, TableState

WRONG_CODES = N_("Someone at {address} has tried {count} wrong join codes.")
"""Told to the host player once per step (admission.TELL_AT), never once per try."""


ReserveSeat = Callable[..., Seat]
"""The lobby's ``reserve_seat(name, *, host, connection)``: a new seat for a newcomer."""
UniqueName = Callable[..., str]
"""The lobby's name rule, ``unique_name(wanted, *, spectator)``."""


class Handshake:
    """Admits connections and answers ``hello`` and ``prove`` on the state it is given."""

    def __init__(
        self, state: TableState, reserve_seat: ReserveSeat, unique_name: UniqueName
    ) -> None:
        self.state = state
        self._reserve_seat = reserve_seat
        self._unique_name = unique_name

    def connect(
        self,
        *,
        internal: bool = False,
        address: str | None = None,
        now: float = 0.0,
        unseen: bool = False,
    ) -> int:
        """A new connection's id; room may be made for it by closing the oldest idle
        connection that has not said hello (``admission``): a newcomer is never refused
        here, so that nothing locks out a resume. ``now``: the server's clock, in seconds.
        The limit on connections that said hello applies at ``hello``."""
        if not internal:
            # One that awaits its prove named a real seat: not waiting, never closed here.
            waiting = [
                c
                for c in self.state.connections.values()
                if not (c.internal or c.greeted or c.closing or c.challenge is not None)
            ]
            verdict = self.admission.arrive(waiting, address, now)
            if isinstance(verdict, MakeRoom):
                self.state.refuse(verdict.oldest.id, verdict.error)
        connection = Connection(self.state._next_connection, internal, address=address)
        connection.unseen = internal and unseen
        connection.connected_at = now
        self.state._next_connection += 1
        self.state.connections[connection.id] = connection
        if not internal:
            self.state.countdowns.expect_hello(
                connection.id, now + self.state.limits.hello_timeout_ms / 1000
            )
        return connection.id

    def hello_overdue(self, connection_id: int) -> None:
        """The hello deadline has passed for this connection (``tick``): it is refused,
        whatever it sent meanwhile."""
        connection = self.state.connections.get(connection_id)
        if connection is not None and not connection.greeted:
            seconds = self.state.limits.hello_timeout_ms / 1000
            self.state.refuse(
                connection_id,
                ProtocolError(ErrorCode.TIMEOUT, f"no hello within {seconds:g} s of connecting"),
            )

    @property
    def admission(self) -> Admission:
        """The admission limits, from the limits in force."""
        limits = self.state.limits
        return Admission(
            limits.max_connections,
            limits.max_unwelcomed,
            limits.max_unwelcomed_per_address,
            limits.max_seats_per_address,
            limits.max_spectators_per_address,
        )

    def held_to_address_caps(self, connection: Connection) -> bool:
        """Whether the per-address caps on seats, spectators and chat apply (not to a
        connection whose address is unknown: nothing to count it by)."""
        if connection.internal or connection.address is None:
            return False
        return not (self.state.limits.loopback_exempt and is_loopback(connection.address))

    def hello(self, connection: Connection, message: Message, now: float = 0.0) -> None:
        if message["version"] != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION_MISMATCH,
                f"this host speaks protocol version {PROTOCOL_VERSION}, "
                f"the client version {message['version']}",
            )
        connection.person = message.get("person") is True
        resume = message.get("resume")
        if self.state.code is not None and resume is None:
            # A resume is judged by its proof of the seat's token (``_prove``), which says
            # more than the code could: the player whose client restarted has the token,
            # not always the code (a page's seat comes back so through the web port).
            self._check_code(connection, message.get("code"), now=now)
        if resume is None and not connection.internal:
            outside = sum(
                1
                for c in self.state.connections.values()
                if c.greeted and not c.internal and not c.closing
            )
            self.admission.check_hello(outside)
        if resume is not None:
            seat = self._resumable(connection, resume["seat"])
            host_nonce = self.state._new_nonce()
            connection.challenge = Challenge(seat.player, message, resume["nonce"], host_nonce)
            proof = host_proof(seat.token, self.state.table_id, resume["nonce"], host_nonce)
            connection.outbox.append({"type": "challenge", "nonce": host_nonce, "proof": proof})
            return
        spectator = message["role"] == "spectator"
        if self.held_to_address_caps(connection):
            self.admission.check_place(spectator, self._taken_from(connection, spectator))
        if spectator and connection.unseen:
            # A listener for others who each hold a place of their own: it takes none,
            # and its name is shown nowhere (``Connection.unseen``).
            connection.spectator = True
            connection.name = message["name"]
        elif spectator:
            spectators = sum(
                1 for c in self.state.connections.values() if c.spectator and not c.unseen
            )
            if spectators >= self.state.limits.max_spectators:
                raise ProtocolError(ErrorCode.TABLE_FULL, "no spectator place is left")
            connection.spectator = True
            connection.name = self._unique_name(message["name"], spectator=True)
        else:
            if self.state.phase == "ended":
                raise ProtocolError(
                    ErrorCode.TABLE_ENDED,
                    "this table has ended",
                    fatal=True,
                    details=self.state._final_standings(),
                )
            becomes_host = self.state.headless and not any(
                s.host for s in self.state.seats.values() if not s.gone
            )
            self._reserve_seat(message["name"], host=becomes_host, connection=connection)
        self._welcome(connection, resumed=False)

    def _check_code(self, connection: Connection, given: object, *, now: float) -> None:
        """The join code of a new seat or place, slowed per address
        (``admission.CodeGuesses``): while an address waits its codes are not looked at (a
        resume needs none, so a neighbour guessing codes behind the same address never
        locks a seat out)."""
        assert self.state.code is not None
        address = None if connection.internal else connection.address
        wait = self.state.guesses.wait_left(address, now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.BAD_CODE,
                f"too many wrong join codes from your address: try again in {math.ceil(wait)} s",
            )
        if same_code(given, self.state.code):
            return
        told = self.state.guesses.wrong(address, now)
        if told is not None:
            self.state.effects.append(
                Tell(Told(WRONG_CODES, address=told.address, count=told.count))
            )
        raise ProtocolError(ErrorCode.BAD_CODE, "this table needs the right join code")

    def _taken_from(self, connection: Connection, spectator: bool) -> int:
        """Seats (or spectator places) taken by connections from ``connection``'s address:
        a seat counts while it is held (connected, or kept for its player's return)."""
        key = address_key(connection.address)
        if spectator:
            return sum(
                1
                for c in self.state.connections.values()
                if c.spectator and not c.internal and address_key(c.address) == key
            )
        return sum(
            1
            for seat in self.state.seats.values()
            if not seat.gone and seat.kind == "human" and seat.address_key == key
        )

    def _resumable(self, connection: Connection, seat_id: str) -> Seat:
        """The seat a ``resume`` names, if this connection may take it back."""
        seat = next(
            (s for s in self.state.seats.values() if seat_ids_match(s.token, seat_id)), None
        )
        # A seat that left keeps being played until the hand ends: by its stand-in only.
        stand_in = seat is not None and self._stand_in_due(connection, seat)
        if (
            seat is None
            or (seat.gone and not stand_in)
            or (seat.kind == "bot" and not connection.internal)
        ):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "that seat is not one this table gives back")
        return seat

    def prove(self, connection: Connection, proof: str) -> None:
        """The client's answer to the challenge: the seat is its own only if the proof is
        right for this connection's two nonces (and the seat is still there to take)."""
        challenge, connection.challenge = connection.challenge, None
        if challenge is None:
            raise ProtocolError(ErrorCode.BAD_PROOF, "no challenge is pending on this connection")
        seat = self.state.seats.get(challenge.player)
        if seat is None:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "that seat is not one this table gives back")
        expected = client_proof(
            seat.token, self.state.table_id, challenge.client_nonce, challenge.host_nonce
        )
        if not proof_matches(expected, proof):
            raise ProtocolError(ErrorCode.BAD_PROOF, "that proof does not match the challenge")
        # Checked again: the seat may have gone, or its stand-in come, since the challenge.
        seat = self._resumable(connection, challenge.hello["resume"]["seat"])
        self._resume(connection, seat)
        self._welcome(connection, resumed=True)

    def _welcome(self, connection: Connection, *, resumed: bool) -> None:
        connection.greeted = True
        self.state.countdowns.no_hello_due(connection.id)
        seat = None if connection.spectator else self.state.seats.get(connection.player or -1)
        connection.outbox.append(
            {
                "type": "welcome",
                "version": PROTOCOL_VERSION,
                "player": None if seat is None else seat.player,
                # Sent once, to the seat's new player; a resumed seat proved it has it.
                "token": None if seat is None or resumed else seat.token,
                "host": seat is not None and seat.host,
                "table": self.state.name,
                "table_id": self.state.table_id,
                "software": SOFTWARE,
                "rules": self.state.rules.to_dict(),
                "limits": self.state.limits.message(self.state.max_frame_bytes),
            }
        )
        send_snapshot(self.state, connection)
        self.state._broadcast_table(connection)  # its snapshot has the table already

    def _stand_in_due(self, connection: Connection, seat: Seat) -> bool:
        return connection.internal and seat.player in self.state._awaiting_stand_in

    def _resume(self, connection: Connection, seat: Seat) -> None:
        if self._stand_in_due(connection, seat):
            self.state._awaiting_stand_in.discard(seat.player)
            if seat.connection is not None:
                # The player came back between the stand-in's start and its hello.
                raise ProtocolError(ErrorCode.REPLACED, "the seat's player is back")
            seat.stand_in = connection.id
            connection.player = seat.player
            connection.name = seat.name
            return
        for previous, why in (
            (seat.connection, "this seat was resumed by another connection"),
            (seat.stand_in, "the seat's player is back"),
        ):
            if previous is not None and previous in self.state.connections:
                self.state.refuse(previous, ProtocolError(ErrorCode.REPLACED, why))
        seat.stand_in = None
        self.state._attach(connection, seat)
