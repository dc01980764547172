"""The table, sans-I/O: seats, lobby, the game, and what every connection is sent.

The trio server feeds it validated messages per connection and takes what they produced as
one ``Batch`` (``take_batch``); it never touches a socket or a clock. Things only the server
can do (start a bot client, close a connection) come out as ``effects``. Every input that
changes the table is also appended to ``journal`` as plain data, so that a table can be
rebuilt after a crash by replaying it (``replay``).

Time is an input like the others, as in h11: the table decides every deadline (turn
timers, grace periods, the pause between hands, how long a decision has been waited for,
the hello a new connection owes) and says when it next needs to act (``next_deadline``);
the server calls ``tick(now)`` then, and after every batch it delivers, with its clock's
time in seconds.

``Table`` is the façade, as h11's ``Connection`` is: the server and the commands call it and
nothing behind it. Its rooms each do one job on the table's state (``state.TableState``),
which they are handed: the connection handshake (``handshake.py``: admission, ``hello``,
a resume's ``challenge`` and ``prove``), the journal (``journal.py``: commit, apply,
distribute, and so replay), the lobby (``lobby.py``: seats, rules, clocks, bots,
readiness, leaving, heirs) and the snapshot (``snapshot.py``). What stays here is what
only the façade does: routing each request to its room, the game's moves, time (``tick``)
and the batch the server takes.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..engine import (
    Phase,
)
from ..protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError
from ..protocol.messages import (
    ACTION_TYPES,
    Message,
    action_from_message,
)
from .countdowns import timers_message
from .default_moves import default_move
from .handshake import WRONG_CODES, Handshake
from .journal import Journal, UnplayableChange
from .lobby import WATCHING, Lobby
from .records import (
    Batch,
    Challenge,
    Close,
    Connection,
    Departed,
    Effect,
    Limits,
    Seat,
    StartBot,
    Tell,
)
from .snapshot import send_snapshot
from .state import SOFTWARE, TableState

__all__ = [
    "WRONG_CODES",
    "Batch",
    "Challenge",
    "Close",
    "Connection",
    "Departed",
    "Effect",
    "Limits",
    "Seat",
    "StartBot",
    "Table",
    "Tell",
    "UnplayableChange",
]

HOST_ONLY = frozenset(
    {
        "start",
        "add_bot",
        "remove_bot",
        "set_rules",
        "set_timing",
        "kick",
        "end_table",
        "nudge",
        "skip",
        "rematch",
    }
)


class Table(TableState):
    """The table core's façade: what the server and the commands call."""

    @cached_property
    def changes(self) -> Journal:
        """The journal: every change to the table goes through ``changes.commit``."""
        return Journal(self)

    @cached_property
    def lobby(self) -> Lobby:
        """Seats, rules, clocks, bots, readiness, leaving and heirs."""
        return Lobby(self, self.changes)

    @cached_property
    def handshake(self) -> Handshake:
        """Admission, ``hello``, and a resume's ``challenge`` and ``prove``."""
        return Handshake(self, self.lobby.reserve_seat, self.lobby.unique_name)

    def connect(
        self,
        *,
        internal: bool = False,
        address: str | None = None,
        now: float = 0.0,
        unseen: bool = False,
    ) -> int:
        """A new connection's id (``Handshake.connect``); ``now``: the server's clock."""
        return self.handshake.connect(internal=internal, address=address, now=now, unseen=unseen)

    # ------------------------------------------------------------------ state

    @property
    def results_key(self) -> str:
        """Names this table's current game among finished tables (a league keeps one entry
        each): the table's id, and after a rematch the game's number too."""
        if self.game_number <= 1:
            return self.table_id
        return f"{self.table_id}-{self.game_number}"

    def closing_goodbye(self) -> tuple[str, str]:
        """What a host that stops tells everyone (reason in English, goodbye code): a table
        that ended is over, not stopped (nothing is left to resume)."""
        if self.phase == "ended":
            return "the table has ended; the host closed it", "table_ended"
        return "the host is closing the table", "shutting_down"

    def about_message(self) -> Message:
        return {
            "type": "about",
            "version": PROTOCOL_VERSION,
            "table_id": self.table_id,
            "table": self.name,
            "phase": self.phase,
            "code_required": self.code is not None,
            "software": SOFTWARE,
        }

    def owes_decision(self, connection_id: int) -> bool:
        """Whether this connection's seat owes a decision: its answer is never rate limited."""
        connection = self.connections.get(connection_id)
        if connection is None or connection.player is None or connection.spectator:
            return False
        return connection.player in self.pending_players()

    def bot_pace(self) -> float:
        """Seconds each answer of the host's own bots should take now, counted from its
        decision's arrival: the table's ``bot_pace_ms`` while a person plays a seat (its
        connection's ``hello`` said ``person``; a stand-in does not count) or watches,
        else 0. Three bot moves within 63 ms leave a person nothing to follow; programs
        (a stranger's bot, ``--exec``, the SDK) play flat out, so a table of them needs
        no option to be fast."""
        if not self.bot_pace_ms:
            return 0.0
        for connection in self.connections.values():
            if not connection.person or not connection.greeted or connection.closing:
                continue
            seat = self.seats.get(connection.player) if connection.player is not None else None
            playing = seat is not None and not seat.gone and seat.connection == connection.id
            if playing or connection.spectator:
                return self.bot_pace_ms / 1000
        return 0.0

    def unplayed_seats(self) -> list[tuple[int, bool]]:
        """Seats in the game that nobody plays now, each with whether a stand-in is due at
        once (the player left or was kicked) rather than after the grace period; in the
        lobby, the seats held for players who dropped (``held_in_lobby``: let go after
        the grace period)."""
        if self.phase == "lobby":
            return [(p, False) for p, seat in self.seats.items() if self.held_in_lobby(seat)]
        if self.phase != "playing":
            return []
        return [
            (player, seat.gone)
            for player, seat in self.seats.items()
            if seat.connection is None
            and seat.stand_in is None
            and player not in self._awaiting_stand_in
        ]

    # ------------------------------------------------------------------ seats

    def reserve_seat(
        self,
        name: str,
        *,
        host: bool = False,
        kind: str = "human",
        strategy: str | None = None,
    ) -> Seat:
        """A new seat whose token the server hands to a local client (the host player, a
        bot): ``Lobby.reserve_seat``."""
        return self.lobby.reserve_seat(name, host=host, kind=kind, strategy=strategy)

    def add_bot(self, strategy: str | None = None, name: str | None = None) -> Seat:
        return self.lobby.add_bot(strategy, name)

    def request_stand_in(self, player: int) -> None:
        """Start a bot that plays ``player``'s seat until they come back."""
        self.lobby.request_stand_in(player)

    def start(self) -> None:
        self.lobby.start()

    def set_timing(self, changes: dict[str, Any]) -> None:
        self.lobby.set_timing(changes)

    def end_table(self) -> None:
        self.lobby.end_table()

    # ------------------------------------------------------------------ connections

    def listening(self, connection_id: int) -> bool:
        """Whether the connection said hello and is not being closed: the server sends it
        what it sends everyone (timers, a save problem)."""
        connection = self.connections.get(connection_id)
        return connection is not None and connection.greeted and not connection.closing

    def greeted_from_outside(self, connection_id: int) -> bool:
        connection = self.connections.get(connection_id)
        return connection is not None and connection.greeted and not connection.internal

    def take_outbox(self, connection_id: int) -> list[Message]:
        connection = self.connections.get(connection_id)
        if connection is None:
            return []
        out, connection.outbox = connection.outbox, []
        return out

    def take_outboxes(self) -> dict[int, list[Message]]:
        """Every connection's messages since the last call, for those that have any."""
        taken = {}
        for connection_id, connection in self.connections.items():
            if connection.outbox:
                taken[connection_id], connection.outbox = connection.outbox, []
        return taken

    def take_effects(self) -> list[Effect]:
        out, self.effects = self.effects, []
        return out

    def take_journal(self) -> list[dict[str, Any]]:
        out, self.journal = self.journal, []
        return out

    def take_batch(self) -> Batch:
        """The journal, the outboxes and the effects produced since the last call, taken
        in one step: an ordinary function, so no other task can feed the table between
        the three takes, and what it returns is exactly what those inputs produced."""
        return Batch(self.take_journal(), self.take_outboxes(), self.take_effects())

    def unsaved(self) -> bool:
        """Whether the table accepted inputs whose journal entries are not taken yet: its
        state is ahead of the last batch taken."""
        return bool(self.journal)

    def disconnected(self, connection_id: int) -> None:
        self.countdowns.no_hello_due(connection_id)
        connection = self.connections.pop(connection_id, None)
        if connection is None:
            return
        for seat in list(self.seats.values()):
            if seat.stand_in == connection_id:
                seat.stand_in = None
            if seat.connection != connection_id:
                continue
            seat.connection = None
            if self.rematch and seat.kind == "bot" and not seat.gone:
                # The host's bots stop when a table ends: the rematch seats them again.
                self.effects.append(StartBot(seat.token, seat.strategy, seat.name))
            # In the lobby too the seat outlives its connection (a phone's screen locked,
            # a page reloaded, a Wi-Fi blip): held for the grace period, for its token to
            # take back (``held_in_lobby``; ``tick`` lets it go then, and a host player's
            # role passes on); a ``leave`` lets it go at once.
        if connection.greeted:
            self._broadcast_table()
        self.lobby.deal_if_all_read()  # the one still reading went away

    def receive(self, connection_id: int, message: Message, now: float = 0.0) -> None:
        """One validated message from a connection, at ``now`` (the server's clock, in
        seconds: ``nudge`` and ``skip`` ask how long a decision has been owed)."""
        connection = self.connections.get(connection_id)
        if connection is None or connection.closing:
            return
        self._now = max(self._now, now)
        request_id = message.get("id")
        first_reply = len(connection.outbox)
        try:
            self._handle(connection, message, now)
        except ProtocolError as error:
            version = message.get("version") if message["type"] == "hello" else None
            self.refuse(connection_id, error, request_id, version)
            return
        if request_id is not None and not connection.closing:
            connection.outbox.insert(first_reply, {"type": "ack", "re": request_id})

    # ------------------------------------------------------------------ requests

    def _handle(self, connection: Connection, message: Message, now: float) -> None:
        kind = message["type"]
        if kind == "about":
            connection.outbox.append(self.about_message())
            return
        if not connection.greeted:
            if kind == "prove":
                self.handshake.prove(connection, message["proof"])
            elif kind == "hello":
                connection.challenge = None
                self.handshake.hello(connection, message, now)
            else:
                raise ProtocolError(ErrorCode.NOT_HELLO, "send hello first")
            return
        if kind == "prove":
            raise ProtocolError(ErrorCode.BAD_PROOF, "no challenge is pending on this connection")
        if kind == "hello":
            raise ProtocolError(ErrorCode.ALREADY_HELLO, "this connection already said hello")
        if kind == "heartbeat":
            return
        if kind == "goodbye":
            self._close(connection)
            return
        if kind == "snapshot_request":
            send_snapshot(self, connection)
            return
        if kind == "chat":
            if self.handshake.held_to_address_caps(connection) and not self._chat_budget.allow(
                connection.address, now
            ):
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED, "too many chat lines from your address; slow down"
                )
            self._chat(connection, message["text"])
            return
        seat = None if connection.player is None else self.seats.get(connection.player)
        if seat is None or connection.spectator:
            raise ProtocolError(ErrorCode.SPECTATOR, "spectators may watch and chat, not act")
        if kind in HOST_ONLY and not seat.host:
            raise ProtocolError(ErrorCode.NOT_HOST, "only the host player may do that")
        if kind in ACTION_TYPES:
            self._check_fresh(seat.player, message.get("decision_id"))
            by = "stand_in" if seat.stand_in == connection.id else None
            self.changes.act(seat.player, action_from_message(message), by)
        elif kind == "ready":
            self.lobby.ready(seat, message["ready"])
        elif kind == "leave":
            self.lobby.leave(seat, message.get("heir"))
            self._close(connection)
        elif kind == "start":
            self.lobby.start()
        elif kind == "add_bot":
            self.lobby.add_bot(message.get("strategy"), message.get("name"))
        elif kind == "remove_bot":
            self.lobby.remove_bot(message["player"])
        elif kind == "set_rules":
            self.lobby.set_rules(message["rules"])
        elif kind == "kick":
            self.lobby.kick(message["player"])
        elif kind == "end_table":
            self.lobby.end_table()
        elif kind == "set_timing":
            self.lobby.set_timing(message)
        elif kind == "nudge":
            self.lobby.nudge(seat, message["player"], now)
        elif kind == "skip":
            self.lobby.skip(message["player"], now)
        elif kind == "rematch":
            self.lobby.offer_rematch(seat)
        else:  # pragma: no cover - the codec lets only catalogue types through
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"no request {kind!r}")

    def decision_id(self, player: int) -> int | None:
        """The id of the decision ``player`` owes now (their count of decisions asked)."""
        if self.game is None or self.game.phase is Phase.ENDED:
            return None
        if player not in self._owed:  # what the last batch left owed: no engine call
            return None
        return self.decisions_asked.get(player)

    def _check_fresh(self, player: int, decision_id: int | None) -> None:
        """An answer naming a decision must name the one owed now."""
        if decision_id is None:
            return
        owed = self.decision_id(player)
        if decision_id != owed:
            now = "none is owed now" if owed is None else f"decision {owed} is owed now"
            raise ProtocolError(
                ErrorCode.STALE_DECISION, f"decision {decision_id} is no longer owed; {now}"
            )

    def _chat(self, connection: Connection, text: str) -> None:
        """Chat is part of the table: journaled (so saved, and in histories and replays),
        and its last lines are in every snapshot."""
        name = connection.name + WATCHING if connection.spectator else connection.name
        self.changes.commit(
            {
                "op": "chat",
                "player": None if connection.spectator else connection.player,
                "name": name,
                "text": text[: self.limits.max_chat_chars],
            }
        )

    # ------------------------------------------------------------------ the game

    def play_default(self, player: int) -> None:
        """The turn timer ran out: make the documented default move for ``player``."""
        if self.game is None or self.game.phase is Phase.ENDED:
            return
        decision = self.game.decision_for(player)
        if decision is not None:
            self.changes.act(player, default_move(decision), "timer")

    def begin_next_hand(self) -> None:
        if self.hand_over():
            self.changes.commit({"op": "next_hand"})

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        """When the table next needs ``tick`` (the server's clock, in seconds), or None
        while no countdown runs."""
        return self.countdowns.next_deadline()

    def tick(self, now: float) -> None:
        """Time has come to ``now``: start the countdowns the table's state calls for
        (a decision newly owed, a seat nobody plays, results to read), act on every one
        that ran out (the default move, a stand-in, the next deal, a connection closed
        for saying no hello in time), and tell everyone the countdowns when they changed
        (and each new viewer once). What it does comes out in the next batch, like the
        effects of any input.

        The countdowns are announced only while the table's state has nothing newer than
        the last batch taken (no journal entry waits): the server calls ``tick`` right
        after delivering a batch, so they are told together with the state they are of."""
        self._now = max(self._now, now)
        self._follow_clocks(now)
        due = self.countdowns.due(now)
        for player in due.turn:
            self.play_default(player)
        for player in due.grace:
            if self.game is None:
                self.lobby.held_seat_expired(player)
            else:
                self.lobby.request_stand_in(player)
        if due.grace and self.game is not None:
            self.lobby.deal_if_all_read()  # a seat held through the results is let go
        for connection_id in due.hello:
            self.handshake.hello_overdue(connection_id)
        game = self.game
        if due.next_hand is not None and game is not None and game.hand_number == due.next_hand:
            self.begin_next_hand()  # unless everyone's being ready dealt it already
        if not self.unsaved():
            self._announce_timers(now)

    def _follow_clocks(self, now: float) -> None:
        away = []
        for player, immediately in self.unplayed_seats():
            if immediately:  # left or kicked: nobody will come back to it
                self.lobby.request_stand_in(player)
            else:
                away.append(player)
        allowed = self.limits.turn_timer_ms
        game = self.game
        self.countdowns.follow(
            now,
            owed={player: self.decisions_asked.get(player, 0) for player in self.pending_players()},
            turn_seconds=None if allowed is None else allowed / 1000,
            away=away,
            grace_seconds=self.limits.grace_period_ms / 1000,
            results_of=game.hand_number if game is not None and self.hand_over() else None,
            results_seconds=self.results_ms / 1000,
        )

    def _announce_timers(self, now: float) -> None:
        """Everyone sees every running countdown: to all when they change, and after
        every snapshot (empty when nothing counts down), so a viewer that arrives or asks
        for a snapshot again has them too."""
        announcement = self.countdowns.announcement(
            now, humans=self.human_players(), secret=self.secretly_pending()
        )
        changed = announcement is not None and announcement.changed
        message = announcement.message if announcement is not None else None
        for connection in self.connections.values():
            if not connection.greeted or connection.closing:
                continue
            if changed or not connection.timers_told:
                connection.timers_told = True
                if message is None:  # nothing runs: the same empty message for all
                    message = timers_message({}, {}, now=now)
                connection.outbox.append(message)

    # ------------------------------------------------------------------ rebuilding

    def apply_saved(self, entry: dict[str, Any]) -> None:
        """Apply one entry of a save as it happened live: unlike ``replay``, its messages go
        to the connections attached now (this is how hand histories listen to a table)."""
        self.changes.apply(entry)

    @classmethod
    def replay(cls, journal: list[dict[str, Any]], **settings: Any) -> Table:
        """The table as it was after ``journal`` (written by an earlier run), to resume."""
        table = cls(**settings)
        table._replaying = True
        try:
            for number, entry in enumerate(journal, start=1):
                try:
                    table.changes.apply(entry)
                except Exception as error:  # a save is a file: anything in it may be wrong
                    raise UnplayableChange(number, error) from error
        finally:
            table._replaying = False
        return table
