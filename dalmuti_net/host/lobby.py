"""The lobby and the seats: who sits where, the rules and clocks, bots, the host player's
requests (start, kick, rematch, end), readiness, leaving and who inherits the host role.

A room of its own because these are the changes a table goes through outside the game's
own moves, each checked here and then committed through the journal it is given (so that
a replay takes the same path), on the state it is given: nothing here reaches back into
the table's façade. The handshake seats newcomers through ``reserve_seat`` and
``unique_name``.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..engine import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError
from ..protocol import ErrorCode, ProtocolError
from ..protocol.catalogue import MAX_NAME_CHARS, MAX_PLAYER_ID
from ..protocol.names import free_name, look_alike, normal_name
from .default_moves import default_move
from .journal import Journal
from .records import Connection, Seat, StartBot
from .state import TableState

WATCHING = " (watching)"
"""What a spectator's name ends with in a chat line (beside the message's nil ``player``)."""


class Lobby:
    """Seats, rules, clocks, bots, readiness, leaving and heirs, on the state it is given,
    committing through ``journal``."""

    def __init__(self, state: TableState, journal: Journal) -> None:
        self.state = state
        self.journal = journal

    def readers(self) -> list[Seat]:
        """Between hands, the seats the next deal waits for: people in the game, connected
        or held through a dropped link within their grace period (a phone reloaded or
        asleep comes back to the results it has not read; the pause's own clock still
        deals without them). A seat a stand-in plays or is about to, or one its player
        left, is not reading anything."""
        assert self.state.game is not None
        in_game = set(self.state.game.order) | set(self.state.game.joining)
        return [
            seat
            for seat in self.state.seats.values()
            if seat.player in in_game
            and seat.kind == "human"
            and not seat.gone
            and seat.stand_in is None
            and seat.player not in self.state._awaiting_stand_in
        ]

    def deal_if_all_read(self) -> None:
        if self.state.hand_over() and all(seat.ready for seat in self.readers()):
            self.journal.commit({"op": "next_hand"})

    def reserve_seat(
        self,
        name: str,
        *,
        host: bool = False,
        kind: str = "human",
        strategy: str | None = None,
        connection: Connection | None = None,
    ) -> Seat:
        """A new seat, for ``connection`` if it is taken now (a ``hello``); else the server
        hands its token to a local client (host player, a bot)."""
        if self.state.phase == "ended":
            raise ProtocolError(ErrorCode.TABLE_ENDED, "this table has ended")
        if len(self.state.seated_players) >= MAX_PLAYERS:
            raise ProtocolError(ErrorCode.TABLE_FULL, f"all {MAX_PLAYERS} seats are taken")
        player = self._free_player_number()
        self.state._arriving = connection
        try:
            self.journal.commit(
                {
                    "op": "seat",
                    "player": player,
                    "name": self.unique_name(name, refuse=kind != "bot"),
                    "kind": kind,
                    "token": self.state._new_token(),
                    "host": host,
                    "strategy": strategy,
                }
            )
        finally:
            self.state._arriving = None
        return self.state.seats[player]

    def _free_player_number(self) -> int:
        """In the lobby the lowest number no seat has: a seat left there is forgotten, so
        someone reconnecting over and over without a token never uses up the numbers a
        message may carry (past them every client would refuse the ``table`` message).
        Once a game has begun a number is never given twice (the game and its history
        name players by number), and past the largest the table is full."""
        if self.state.game is None:
            return next(n for n in range(1, MAX_PLAYER_ID + 1) if n not in self.state.seats)
        if self.state._next_player > MAX_PLAYER_ID:
            raise ProtocolError(
                ErrorCode.TABLE_FULL, "this table has seated all the players it can"
            )
        return self.state._next_player

    def unique_name(self, wanted: str, *, refuse: bool = True, spectator: bool = False) -> str:
        """The name rule (``protocol.names``, PROTOCOL.md "Names"): ``wanted`` normalised;
        numbered (`` (2)``...) if it is exactly a name at the table; refused if it only
        looks like one, unless ``refuse`` is false (the host's own bots), when it is
        numbered too. Names are held against each other as chat shows them too (a
        spectator's with ``WATCHING``)."""
        base = normal_name(wanted, MAX_NAME_CHARS) or "Player"
        watching = [c.name for c in self.state.connections.values() if c.spectator and not c.unseen]
        taken = [seat.name for seat in self.state.seats.values()] + watching
        taken += [name + WATCHING for name in watching]
        shown_as = ("", WATCHING) if spectator else ("",)
        other = look_alike(base, taken, shown_as) if refuse else None
        if other is not None:
            raise ProtocolError(
                ErrorCode.NAME_TAKEN,
                f"the name {base!r} looks like {other!r}, who is at this table: names that "
                "differ only in case, invisible characters or look-alike letters (Cyrillic, "
                "Greek, 0 for O, 1 or I for l) are refused; choose another name",
            )
        return free_name(base, taken, MAX_NAME_CHARS, shown_as)

    def held_seat_expired(self, player: int) -> None:
        """A player who dropped in the lobby stayed away for the grace period: their seat
        is let go as by ``leave`` (a host player's role to an heir)."""
        seat = self.state.seats.get(player)
        if seat is not None and self.state.held_in_lobby(seat):
            self.leave(seat)
            if self.state.phase == "lobby" and self.state.rematch and self._all_ready_for_rematch():
                self.start()  # the one the rematch waited for is gone

    def request_stand_in(self, player: int) -> None:
        """Start a bot that plays ``player``'s seat until they come back."""
        seat = self.state.seats.get(player)
        if seat is None or self.state.phase != "playing" or seat.connection is not None:
            return
        if seat.stand_in is not None or player in self.state._awaiting_stand_in:
            return
        self.state._awaiting_stand_in.add(player)
        self.state.effects.append(StartBot(seat.token, seat.strategy, seat.name))

    def ready(self, seat: Seat, ready: bool) -> None:
        if self.state.ended:
            raise ProtocolError(ErrorCode.TABLE_ENDED, "the table has ended")
        if self.state.game is None:
            seat.ready = ready
            self.state._broadcast_table()
            if self.state.rematch and ready and self._all_ready_for_rematch():
                self.start()
            return
        if not self.state.hand_over():
            return  # crossed the next deal (or the end): nothing to wait for any more
        seat.ready = ready
        self.state._broadcast_table()
        self.deal_if_all_read()

    def _all_ready_for_rematch(self) -> bool:
        people = [s for s in self.state.seats.values() if s.kind == "human" and not s.gone]
        return len(self.state.seated_players) >= MIN_PLAYERS and all(s.ready for s in people)

    def start(self) -> None:
        if self.state.game is not None or self.state.ended:
            raise ProtocolError(ErrorCode.WRONG_PHASE, "the table has already started")
        # A seat held for a player who dropped in the lobby is dealt in as any other: its
        # grace period runs on into the game, then a stand-in plays it until they return.
        players = self.state.seated_players
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ProtocolError(
                ErrorCode.NOT_ENOUGH_PLAYERS,
                f"a table starts with {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                f"and {len(players)} are seated",
            )
        self.journal.commit({"op": "start", "seed": self.state.seed, "players": players})

    def add_bot(self, strategy: str | None = None, name: str | None = None) -> Seat:
        known = self.state.known_strategies
        if strategy is not None and strategy not in known:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"unknown bot strategy {strategy!r}; known: {', '.join(known)}",
            )
        if len(self.state.seated_players) >= MAX_PLAYERS:
            raise ProtocolError(
                ErrorCode.TABLE_FULL, f"all {MAX_PLAYERS} seats are taken", fatal=False
            )
        label = name or self.state.bot_names(strategy or known[0])
        try:
            seat = self.reserve_seat(label, kind="bot", strategy=strategy)
        except ProtocolError as error:  # every number used: the host player stays all the same
            raise ProtocolError(error.code, error.message, fatal=False) from None
        self.state.effects.append(StartBot(seat.token, strategy, seat.name))
        return seat

    def remove_bot(self, player: int) -> None:
        seat = self.state.seats.get(player)
        if seat is None or seat.kind != "bot" or seat.gone:
            raise ProtocolError(ErrorCode.UNKNOWN_PLAYER, "no such bot at this table")
        self.leave(seat)

    def kick(self, player: int) -> None:
        seat = self.state.seats.get(player)
        if seat is None or seat.gone:
            raise ProtocolError(ErrorCode.UNKNOWN_PLAYER, "no such player at this table")
        if seat.host:
            raise ProtocolError(ErrorCode.NOT_HOST, "the host player cannot be kicked")
        connection_id = seat.connection
        self.leave(seat)
        if connection_id is not None:
            self.state.refuse(
                connection_id, ProtocolError(ErrorCode.KICKED, "the host player removed you")
            )

    def set_rules(self, changes: dict[str, Any]) -> None:
        if self.state.game is not None or self.state.ended:
            raise ProtocolError(ErrorCode.WRONG_PHASE, "rules change only in the lobby")
        merged = {**self.state.rules.to_dict(), **changes}  # only the options given change
        try:
            rules = Rules.from_dict(merged)
        except RulesError as error:
            raise ProtocolError(ErrorCode.BAD_RULES, str(error)) from None
        self.journal.commit({"op": "rules", "rules": rules.to_dict()})

    def set_timing(self, changes: dict[str, Any]) -> None:
        """The table's clocks (validated by the catalogue: ranges and types)."""
        if self.state.game is not None or self.state.ended:
            raise ProtocolError(ErrorCode.WRONG_PHASE, "the clocks change only in the lobby")
        entry = {
            "op": "timing",
            "turn_timer_ms": changes.get("turn_timer_ms", self.state.limits.turn_timer_ms),
            "results_ms": changes.get("results_ms", self.state.results_ms),
            "bot_pace_ms": changes.get("bot_pace_ms", self.state.bot_pace_ms),
        }
        self.journal.commit(entry)

    def offer_rematch(self, host: Seat) -> None:
        if self.state.phase != "ended" or self.state.game is None:
            raise ProtocolError(ErrorCode.TOO_SOON, "a rematch is offered once the table ended")
        self.journal.commit({"op": "rematch", "host": host.player, "seed": secrets.randbits(63)})
        # Whoever is away is not at the rematch: in the lobby a seat is a place in line.
        for seat in list(self.state.seats.values()):
            if seat.kind == "human" and seat.connection is None and not seat.host:
                self.leave(seat)

    def end_table(self) -> None:
        if self.state.phase == "ended":
            raise ProtocolError(ErrorCode.TABLE_ENDED, "the table has already ended")
        self.journal.commit({"op": "end"})

    def leave(self, seat: Seat, wanted_heir: int | None = None) -> None:
        connection_id = seat.connection
        entry: dict[str, Any] = {"op": "leave", "player": seat.player}
        if seat.host:
            # Who is connected is not in the journal: the heir is, so a replay agrees.
            entry["heir"] = self._heir_for(seat, wanted_heir)
        self.journal.commit(entry)
        if (
            self.state.game is None
            and seat.kind == "bot"
            and connection_id in self.state.connections
        ):
            self.state._close(self.state.connections[connection_id])
        # Nobody to take the host role: the table ends, but for a lobby without a host
        # terminal, whose next player to sit down takes the role.
        waits = self.state.headless and self.state.game is None
        if "heir" in entry and entry["heir"] is None and self.state.phase != "ended" and not waits:
            self._end_without_host(connection_id)

    def _heir_for(self, leaver: Seat, wanted: int | None) -> int | None:
        """The host role goes to the connected human the leaver named, else to the next
        connected human in seat order after the leaver; None when there is nobody."""
        able = self.state._heirs_of(leaver)
        if wanted in able:
            return wanted
        return able[0] if able else None

    def _end_without_host(self, leaver_connection: int | None) -> None:
        """The host player left and nobody can take the role: the table ends, and every
        connection is told why before it is closed."""
        self.journal.commit({"op": "end"})
        for connection in list(self.state.connections.values()):
            if connection.id == leaver_connection or connection.internal or connection.closing:
                continue
            if connection.greeted:
                connection.outbox.append(
                    {
                        "type": "goodbye",
                        "reason": "the host player left and nobody could take over",
                        "code": "host_left",
                    }
                )
            self.state._close(connection)

    def _waited_for(self, player: int, now: float) -> float:
        """How long the table has waited for ``player``'s decision, which must be one
        everyone may know of (a revolution is its holder's secret: rule 20)."""
        seat = self.state.seats.get(player)
        if seat is None or seat.gone:
            raise ProtocolError(ErrorCode.UNKNOWN_PLAYER, "no such player at this table")
        public = {p for p in self.state.pending_players() if p not in self.state.secretly_pending()}
        if player not in public or seat.host:
            raise ProtocolError(ErrorCode.NOT_WAITING, "the table is not waiting for them")
        return self.state.countdowns.waited(player, now)

    def nudge(self, host: Seat, player: int, now: float) -> None:
        waited = self._waited_for(player, now)
        if waited < self.state.countdowns.nudge_after:
            raise ProtocolError(
                ErrorCode.TOO_SOON,
                f"a player may be nudged {self.state.countdowns.nudge_after:g} s into their turn",
            )
        self.state._broadcast({"type": "nudged", "player": player, "by": host.player})

    def skip(self, player: int, now: float) -> None:
        waited = self._waited_for(player, now)
        if waited < self.state.countdowns.skip_after:
            raise ProtocolError(
                ErrorCode.TOO_SOON,
                f"a player may be skipped {self.state.countdowns.skip_after:g} s into their turn",
            )
        assert self.state.game is not None
        decision = self.state.game.decision_for(player)
        assert decision is not None  # owed: ``_waited_for`` said so
        self.journal.act(player, default_move(decision), "host")
