"""What every room of the table shares: its state, the readings of it every room asks for,
and the one way anything is sent to a connection's outbox.

``Table`` (``table.py``) is the façade the server and the rest of the project talk to; its
rooms (the connection handshake, the journal, the lobby, the snapshot) each do one job on
this state, which they are handed explicitly rather than reaching back into the façade, so
that a room can only use what is here and the table's surface stays narrow. Sans-I/O: no
clock (time comes in as ``now``), no socket.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from typing import Any

from .. import __version__
from ..bots.names import LOBBY_STRATEGIES, bot_name
from ..engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Event,
    Game,
    Phase,
    RevolutionDecision,
    Rules,
    observe,
)
from ..protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, ViewerFeed
from ..protocol.catalogue import (
    MAX_DEPARTED,
    MAX_SNAPSHOT_CHAT,
    MAX_TABLE_NAME_CHARS,
    MAX_WATCHING,
)
from ..protocol.messages import Message
from ..protocol.resume import new_nonce
from ..protocol.text import clean_text
from .admission import ChatBudget, CodeGuesses, address_key
from .countdowns import Countdowns
from .records import Close, Connection, Departed, Effect, Limits, Seat, StartBot

SOFTWARE = f"dalmuti-net/{__version__}"
"""What the host says it runs, in ``about`` and ``welcome``."""


class TableState:
    """The table's data (seats, connections, the game, the chat, the journal and what is
    owed), with the readings of it and the outbox writes that several rooms need."""

    def __init__(
        self,
        name: str = "Dalmuti table",
        rules: Rules | None = None,
        *,
        code: str | None = None,
        limits: Limits | None = None,
        seed: int | None = None,
        headless: bool = True,
        max_frame_bytes: int = 64 * 1024,
        known_strategies: tuple[str, ...] = LOBBY_STRATEGIES,
        bot_names: Callable[[str], str] = bot_name,
        token_factory: Callable[[], str] = lambda: secrets.token_urlsafe(24),
        table_id: str | None = None,
        nonce_factory: Callable[[], str] = new_nonce,
        results_ms: int = 3_000,
        bot_pace_ms: int = 0,
    ) -> None:
        self.table_id = table_id or secrets.token_hex(8)
        """Names this table for its whole life (a resumed host keeps it): clients key the
        resume tokens they remember by it, never by the host's address."""
        self.name = clean_text(name)[:MAX_TABLE_NAME_CHARS] or "Dalmuti table"
        self.rules = rules if rules is not None else Rules()
        self.code = code
        self.limits = limits if limits is not None else Limits()
        self.results_ms = results_ms
        """Between hands, the longest the results stay (everyone ready deals at once)."""
        self.bot_pace_ms = bot_pace_ms
        """How long each answer of the host's own bots takes at least while a person plays
        (``bot_pace``); 0: never paced."""
        self.game_number = 0
        """How many games this table has started: 2 and more after a rematch."""
        self.rematch = False
        """The host player offered a rematch: back in the lobby with the same seats, the
        game starts as soon as every seated human is ready."""
        self.countdowns = Countdowns()
        """Every deadline, on the server's clock (``tick``, ``next_deadline``)."""
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.headless = headless
        """Headless: no local host player, so the first human to sit becomes the host player."""
        self.max_frame_bytes = max_frame_bytes
        self.known_strategies = known_strategies
        self.bot_names = bot_names
        """A strategy's bots' name in the table's language (``bots.names.bot_name`` in the
        host's): the name an ``add_bot`` without one sits down with."""
        self._new_token = token_factory
        self._new_nonce = nonce_factory
        self.seats: dict[int, Seat] = {}
        self.connections: dict[int, Connection] = {}
        self.game: Game | None = None
        self.ended = False
        self.effects: list[Effect] = []
        self.journal: list[dict[str, Any]] = []
        self._next_player = 1
        self._next_connection = 1
        self._feeds: dict[int | None, ViewerFeed] = {None: ViewerFeed(None)}
        self._owed: dict[int, type] = {}
        self._awaiting_stand_in: set[int] = set()
        self._made_for: list[tuple[int, int, int, str, bool]] = []
        """This hand's moves made for a player: (where their events start and end in the
        game's log, player, by, secret), for snapshots (a secret one, a revolution answer,
        is told only to that seat). Places, not the events: the engine logs one ``passed``
        object for every pass of a seat."""
        self.chat: deque[dict[str, Any]] = deque(maxlen=MAX_SNAPSHOT_CHAT)
        """The table's last chat lines (``player``, ``name``, ``text``), for snapshots."""
        self._chat_said: deque[tuple[int, int] | None] = deque(maxlen=MAX_SNAPSHOT_CHAT)
        """Where in the game each of ``chat`` was said: (the game's log, as numbered by
        ``_logs``, and how long it was then), ``None`` outside a game; a snapshot tells
        each line among the hand's events where it was said."""
        self._logs = 0
        """The game's logs so far: one more at each new game and each new hand (whose log
        starts again)."""
        self.departed: list[Departed] = []
        """Players removed from the seating after leaving, oldest first."""
        self._scores: dict[int, int] = {}
        self._hands_played: dict[int, int] = {}
        """Each player's total and hands finished, from the results (the engine forgets a
        leaver's score when it removes them)."""
        self.decisions_asked: dict[int, int] = {}
        """How many decisions each player has been asked for: a turn timer restarts on a new one."""
        self._replaying = False
        self.guesses = CodeGuesses()
        """Wrong join codes per address: each address waits longer after each."""
        self._chat_budget = ChatBudget()
        """Chat lines per address."""
        self._arriving: Connection | None = None
        """The connection a seat being reserved is for: attached before the table is shared,
        so nobody is shown a newcomer who is "offline" for a moment and then "back"."""
        self._table_sent: dict[str, Any] | None = None
        self._now = 0.0
        """The server's clock at the last input or tick (a snapshot's time left)."""
        self.on_events: Callable[[list[Event]], None] | None = None
        """Told every batch of engine events before it is shared out: the operator's view
        (everything) of a hand history."""

    @property
    def phase(self) -> str:
        if self.ended or (self.game is not None and self.game.phase is Phase.ENDED):
            return "ended"
        return "lobby" if self.game is None else "playing"

    @property
    def seated_players(self) -> list[int]:
        """Players whose seats count towards the table's size (leavers excluded)."""
        return [p for p, seat in self.seats.items() if not seat.gone]

    def held_in_lobby(self, seat: Seat) -> bool:
        """Whether ``seat`` is a lobby seat held for its player's return: a person's seat
        whose connection dropped, kept for the grace period (then let go as by ``leave``).
        The host terminal's own player's seat is kept without end: this process is it."""
        return (
            self.phase == "lobby"
            and seat.kind == "human"
            and seat.connection is None
            and not seat.gone
            and not (seat.host and not self.headless)
        )

    def present_players(self) -> list[int]:
        """Seated players but for those held away in the lobby: who is here to play now
        (the host's bots count, connected or about to be)."""
        return [p for p in self.seated_players if not self.held_in_lobby(self.seats[p])]

    def table_message(self) -> dict[str, Any]:
        in_game = set(self.game.order) if self.game is not None else set()
        host = next((s for s in self.seats.values() if s.host and not s.gone), None)
        heirs = self._heirs_of(host) if host is not None else []
        seats = [
            {
                "player": seat.player,
                "name": seat.name,
                "kind": seat.kind,
                "connected": seat.connection is not None,
                "ready": seat.ready,
                "host": seat.host,
                "seated": self.game is None or seat.player in in_game,
                "stand_in": seat.stand_in is not None,
                "program": seat.program,
                "left": seat.gone,
                "leave_ends": self._leave_ends(seat, heirs),
            }
            for seat in self.seats.values()
        ]
        return {
            "name": self.name,
            "phase": self.phase,
            "players": seats,
            "spectators": sum(1 for c in self.connections.values() if c.spectator and not c.unseen),
            "rules": self.rules.to_dict(),
            "code_required": self.code is not None,
            "can_start": self.game is None and MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS,
            "departed": [d.message() for d in self.departed[-MAX_DEPARTED:]],
            "watching": [
                c.name
                for c in self.connections.values()
                if c.spectator and c.greeted and not c.unseen
            ][:MAX_WATCHING],
            "heirs": heirs,
            "timing": {
                "turn_timer_ms": self.limits.turn_timer_ms,
                "results_ms": self.results_ms,
                "nudge_after_ms": round(self.countdowns.nudge_after * 1000),
                "skip_after_ms": round(self.countdowns.skip_after * 1000),
                "bot_pace_ms": self.bot_pace_ms,
            },
            "rematch": self.rematch,
        }

    def _leave_ends(self, seat: Seat, heirs: list[int]) -> str | None:
        """How ``seat`` leaving now would end the table (the seat's ``leave_ends``), given
        the host player's ``heirs``; None where it would not."""
        if seat.gone or self.phase == "ended":
            return None
        # The host role with nobody to take it ends the table at once (``_leave``), but
        # in the lobby of a table without a host terminal, which waits for a newcomer.
        no_host = seat.host and not heirs and not (self.headless and self.game is None)
        too_few = False
        if self.game is not None:  # rule 12: the next hand needs four (``_place_newcomers``)
            staying = {*self.game.order, *self.game.joining}
            staying -= {*self.game.leaving, seat.player}
            too_few = len(staying) < MIN_PLAYERS
        if no_host:
            return "now_too_few" if too_few else "now_no_host"
        return "after_hand" if too_few else None

    def _heirs_of(self, leaver: Seat) -> list[int]:
        """Who may take the host role from ``leaver``, the one it goes to by default
        first: the connected humans in seat order after the leaver (``table.heirs``)."""
        order = list(self.game.order) + list(self.game.joining) if self.game else []
        players = order + [p for p in self.seats if p not in order]
        if leaver.player in players:
            at = players.index(leaver.player)
            players = players[at + 1 :] + players[:at]
        able = [
            p
            for p in players
            if (s := self.seats.get(p)) is not None
            and s.kind == "human"
            and not s.gone
            and s.connection is not None
            and p != leaver.player
        ]
        return able

    def _final_standings(self) -> dict[str, Any]:
        ended = observe(self.game, None).ended if self.game is not None else None
        if ended is None:
            return {}
        names = {seat.player: seat.name for seat in self.seats.values()}
        return {
            "standings": [
                {"name": names.get(player, f"#{player}"), "score": score, "place": place}
                for player, score, place in ended.standings
            ],
            "scoring": self.rules.scoring,
        }

    # What is owed is read from what the last batch left owed (``_owed``, set by every
    # change to the game): asking the engine would work out every legal answer again,
    # several times for each move.

    def pending_players(self) -> list[int]:
        """Players who owe a decision now (for the server's turn timer)."""
        if self.game is None or self.game.phase is Phase.ENDED:
            return []
        return list(self._owed)

    def secretly_pending(self) -> set[int]:
        """Players owing a decision nobody else may know of (rule 20: only the holder of
        both Jesters learns that a revolution may be declared): no public turn timer."""
        if self.game is None or self.game.phase is Phase.ENDED:
            return set()
        return {p for p, kind in self._owed.items() if kind is RevolutionDecision}

    def hand_over(self) -> bool:
        """Between hands: the server calls ``begin_next_hand`` after a pause (``results_ms``)
        unless every human it waits for (``Lobby.readers``) said ``ready`` first."""
        return self.game is not None and self.game.phase is Phase.HAND_OVER

    def human_players(self) -> set[int]:
        """The players whose seats a human plays (a bot's seat has no grace period)."""
        return {p for p, seat in self.seats.items() if seat.kind == "human"}

    def _connections_of(self, player: int) -> list[Connection]:
        seat = self.seats.get(player)
        if seat is None:
            return []
        found = []
        for connection_id in (seat.connection, seat.stand_in):
            connection = self.connections.get(connection_id) if connection_id else None
            if connection is not None and not connection.closing:
                found.append(connection)
        return found

    def _broadcast(self, message: Message, but: Connection | None = None) -> None:
        """The same object to every outbox (the server encodes it once): never change a
        message once it is in an outbox."""
        for connection in self.connections.values():
            if connection.greeted and not connection.closing and connection is not but:
                connection.outbox.append(message)

    def _broadcast_table(self, but: Connection | None = None) -> None:
        """A ``table`` to everyone, when it differs from the last one sent: every
        connection that said hello since then had the current one in its snapshot."""
        if self._replaying:
            return
        table = self.table_message()
        if table == self._table_sent:
            return
        self._table_sent = table
        self._broadcast({"type": "table", "table": table}, but)

    def _close(self, connection: Connection) -> None:
        self.countdowns.no_hello_due(connection.id)
        if not connection.closing:
            connection.closing = True
            self.effects.append(Close(connection.id))

    def refuse(
        self,
        connection_id: int,
        error: ProtocolError,
        re: Any = None,
        client_version: int | None = None,
    ) -> None:
        """Send ``error``; a fatal one closes the connection."""
        connection = self.connections.get(connection_id)
        if connection is None or connection.closing:
            return
        message: Message = error.message_to_send(re)
        if error.code is ErrorCode.VERSION_MISMATCH:
            message["host_version"] = PROTOCOL_VERSION
            if client_version is not None:
                message["client_version"] = client_version
        connection.outbox.append(message)
        if error.fatal:
            self._close(connection)

    def _attach(self, connection: Connection, seat: Seat) -> None:
        seat.address_key = None if connection.internal else address_key(connection.address)
        # A replay's listeners (rerun) and the host's own clients are internal: no program.
        seat.program = seat.kind == "human" and not connection.internal and not connection.person
        seat.connection = connection.id
        connection.player = seat.player
        connection.name = seat.name

    def bot_seats(self) -> list[StartBot]:
        """Bots to (re)start, e.g. after a table is rebuilt from its journal."""
        return [
            StartBot(seat.token, seat.strategy, seat.name)
            for seat in self.seats.values()
            if seat.kind == "bot" and seat.connection is None and not seat.gone
        ]
