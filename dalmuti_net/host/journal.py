"""The table's journal: every change to the table is committed here, applied, shared out
to each viewer, and kept as plain data so that a table can be rebuilt by replaying it.

It exists as a room of its own because the order in which a change is applied and shared
out is where secrecy and replay meet (RULES.md rule 20: where a batch of events ends must
not show; a replayed table must agree with the live one), and that order is decided here
once. It works on the table's state (``state.TableState``) it is handed, and on nothing
else of the table: the lobby, the handshake and the game requests all commit through it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine import Action, Event, Game, IllegalAction, Phase, RevolutionDecision, Rules
from ..engine.events import (
    HandEnded,
    HandStarted,
    NewcomerPlaced,
    PlayerRemoved,
    RolesMirrored,
    SeatingSettled,
    TableEnded,
    Waiting,
)
from ..protocol import ErrorCode, ProtocolError, ViewerFeed
from ..protocol.catalogue import MAX_CHAT_CHARS, MAX_NAME_CHARS
from ..protocol.errors import from_refusal
from ..protocol.messages import Message, action_from_message, action_message, decision_message
from ..protocol.names import normal_name
from ..told import N_, Told
from .records import Departed, Seat
from .state import TableState

_TABLE_CHANGING = (
    HandEnded,
    TableEnded,
    PlayerRemoved,
    NewcomerPlaced,
    SeatingSettled,
    RolesMirrored,
)
"""Events after which the seats, their order (which orders ``heirs``) or the table's phase
have changed: a ``table`` follows."""


class Journal:
    """Commits, applies and shares out the table's changes (``commit``, ``apply``,
    ``distribute``), on the state it is given."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def act(self, player: int, action: Action, by: str | None = None) -> None:
        """A move of ``player``'s, committed as an ``act`` entry. ``by``: a move made for the
        player (``"timer"``, ``"stand_in"``, ``"host"`` at the host player's ``skip``), said
        to all."""
        if self.state.game is None or self.state.game.phase is Phase.ENDED:
            raise ProtocolError(ErrorCode.WRONG_PHASE, "no game is being played")
        entry = {"op": "act", "player": player, "action": action_message(action)}
        if by is not None:  # journaled too: histories and a resumed table say it as well
            entry["by"] = by
        self.commit(entry)

    def commit(self, entry: dict[str, Any]) -> None:
        """Apply one change to the table; journal it only if it was accepted."""
        try:
            self.apply(entry)
        except IllegalAction as refusal:
            raise ProtocolError(from_refusal(refusal.code), refusal.message) from None
        if not self.state._replaying:
            self.state.journal.append(entry)

    def apply(self, entry: dict[str, Any]) -> None:
        op = entry["op"]
        if op == "act":
            self._apply_act(entry)
        elif op == "seat":
            player = entry["player"]
            if self.state.game is not None:
                events = self.state.game.request_join(player)
            self.state._next_player = max(self.state._next_player, player + 1)
            self.state.seats[player] = Seat(
                player,
                # Saves from before names were checked, or normalised as they are now.
                normal_name(entry["name"], MAX_NAME_CHARS) or "Player",
                entry["kind"],
                entry["token"],
                host=entry["host"],
                ready=entry["kind"] == "bot",  # a bot is ready as soon as it is seated
                strategy=entry["strategy"],
            )
            self.state._feeds[player] = ViewerFeed(player)
            if self.state._arriving is not None:
                self.state._attach(self.state._arriving, self.state.seats[player])
            # The table first: whoever is told that a newcomer is joining already has
            # their seat and name (else a client could only call them by number).
            self.state._broadcast_table()
            if self.state.game is not None:
                self.distribute(events)
        elif op == "start":
            self.state.rematch = False
            self.state.game_number += 1
            self.state.seed = entry["seed"]
            self.state.game = Game(entry["players"], self.state.rules, self.state.seed)
            self.state._logs += 1
            self.state._broadcast_table()
            self.distribute(self.state.game.start())
        elif op == "rules":
            self.state.rules = Rules.from_dict(entry["rules"])
            self.state._broadcast_table()
        elif op == "leave":
            self._apply_leave(self.state.seats[entry["player"]], entry)
        elif op == "chat":
            self._apply_chat(entry)
        elif op == "next_hand":
            assert self.state.game is not None
            events = self.state.game.begin_next_hand()
            self._drop_departed()
            # Seats may have gone too: the table follows the new hand's start at the latest.
            self.distribute(events, table_changed=True)
        elif op == "timing":
            self.state.limits = replace(self.state.limits, turn_timer_ms=entry["turn_timer_ms"])
            self.state.results_ms = entry["results_ms"]
            # Older saves lack the bot pace: it stays as it is.
            self.state.bot_pace_ms = entry.get("bot_pace_ms", self.state.bot_pace_ms)
            self.state._broadcast_table()
        elif op == "rematch":
            self._apply_rematch(entry)
        elif op == "end":
            if self.state.game is None:
                self.state.ended = True
                self.state._broadcast_table()
            else:
                self.distribute(self.state.game.end_table())
        else:
            raise ValueError(f"unknown journal entry {op!r}")

    def _apply_act(self, entry: dict[str, Any]) -> None:
        """A move; one made for the player (``by``) is said to all, before its events."""
        assert self.state.game is not None
        player, action = entry["player"], action_from_message(entry["action"])
        by = entry.get("by")
        if by is None:  # the player's own move: nothing to say beside its events
            self.distribute(self.state.game.apply(player, action))
            return
        if by not in ("timer", "stand_in", "host"):
            raise ValueError(f"a move made by {by!r}")
        # Rule 20: that a revolution was asked is the holder's secret, and so is who
        # answered it for them.
        secret = self.state._owed.get(player) is RevolutionDecision
        told = {c.id for c in self.state._connections_of(player)} if secret else None
        marks = {c.id: len(c.outbox) for c in self.state.connections.values()}
        log = self.state.game.log
        logged = len(log)
        self.distribute(self.state.game.apply(player, action))
        # A move that starts a hand (the log begins again) has nothing in this hand's log.
        if self.state.game.log is log and len(log) > logged:
            self.state._made_for.append((logged, len(log), player, by, secret))
        note: Message = {"type": "moved_for", "player": player, "by": by}
        for connection in self.state.connections.values():
            if told is not None and connection.id not in told:
                continue
            if connection.greeted and not connection.closing and connection.id in marks:
                connection.outbox.insert(marks[connection.id], note)

    def _apply_chat(self, entry: dict[str, Any]) -> None:
        player, name, text = entry["player"], str(entry["name"]), str(entry["text"])
        if (player is not None and type(player) is not int) or not text:
            raise ValueError("a chat line without a speaker or text")
        line = {
            "player": player,
            "name": name[: MAX_NAME_CHARS + 16],
            "text": text[:MAX_CHAT_CHARS],
        }
        self.state.chat.append(line)
        self.state._chat_said.append(
            None if self.state.game is None else (self.state._logs, len(self.state.game.log))
        )
        self.state._broadcast({"type": "chat", **line})

    def _apply_leave(self, seat: Seat, entry: dict[str, Any]) -> None:
        if self.state.game is None:
            del self.state.seats[seat.player]
            self.state._feeds.pop(seat.player, None)
            if seat.connection is not None and seat.connection in self.state.connections:
                self.state.connections[seat.connection].player = None
        else:
            in_game = seat.player in self.state.game.order or seat.player in self.state.game.joining
            if in_game and self.state.game.phase is not Phase.ENDED:
                self.distribute(self.state.game.request_leave(seat.player))
            seat.gone = True
        if seat.host:
            seat.host = False
            if "heir" in entry:
                heir = None if entry["heir"] is None else self.state.seats.get(entry["heir"])
            else:  # journals from before heirs were recorded
                heir = next(
                    (s for s in self.state.seats.values() if s.kind == "human" and not s.gone), None
                )
            if heir is not None:
                heir.host = True
        self.state._broadcast_table()

    def _apply_rematch(self, entry: dict[str, Any]) -> None:
        """The same seats, back in the lobby: those who left are gone, the rest wait until
        everyone is ready (the host player, who offered it, and bots already are)."""
        for player, seat in list(self.state.seats.items()):
            if seat.gone:
                del self.state.seats[player]
                self.state._feeds.pop(player, None)
                for connection_id in (seat.connection, seat.stand_in):
                    if connection_id is not None and connection_id in self.state.connections:
                        self.state._close(self.state.connections[connection_id])
                continue
            seat.ready = seat.kind == "bot" or seat.player == entry["host"]
            if seat.stand_in is not None and seat.stand_in in self.state.connections:
                self.state._close(self.state.connections[seat.stand_in])
            seat.stand_in = None
        self.state.game = None
        self.state.ended = False
        self.state.rematch = True
        # The game that ended keeps its leavers and marks; the next one starts afresh.
        self.state.departed = []
        self.state._scores = {}
        self.state._hands_played = {}
        self.state._made_for = []
        self.state._owed = {}
        self.state._awaiting_stand_in.clear()
        self.state.seed = entry.get("seed", self.state.seed)
        self.state._broadcast_table()
        if not self.state._replaying:
            self.state.effects.extend(self.state.bot_seats())  # the host's bots stopped at the end

    def _drop_departed(self) -> None:
        """After a new hand starts, seats that left are gone for good (a player who played
        is remembered among the departed, with their points)."""
        assert self.state.game is not None
        for player, seat in list(self.state.seats.items()):
            if (
                seat.gone
                and player not in self.state.game.order
                and player not in self.state.game.joining
            ):
                del self.state.seats[player]
                if player in self.state._hands_played:
                    self.state.departed.append(
                        Departed(
                            player,
                            seat.name,
                            seat.kind,
                            self.state._scores.get(player, 0),
                            self.state._hands_played[player],
                        )
                    )
                for connection_id in (seat.connection, seat.stand_in):
                    if connection_id is not None and connection_id in self.state.connections:
                        self.state._close(self.state.connections[connection_id])

    def distribute(self, events: list[Event], *, table_changed: bool = False) -> None:
        """Each viewer's visible events, then each newly owed decision to whoever owes it.

        A ``table`` message the events call for goes right after the last event that
        calls for it, never at the end of the batch: where a batch ends can depend on a
        secret (it stops at a revolution check only when someone holds both Jesters), and
        so must not show in anyone's stream (RULES.md rule 20).
        """
        assert self.state.game is not None
        if self.state.on_events is not None:
            self.state.on_events(events)
        for event in events:
            if isinstance(event, HandStarted):
                self.state._made_for = []
                self.state._logs += 1
            if isinstance(event, HandEnded):
                for player, score in zip(event.finishing, event.scores, strict=True):
                    self.state._scores[player] = score
                    self.state._hands_played[player] = self.state._hands_played.get(player, 0) + 1
        if any(isinstance(e, HandEnded | HandStarted) for e in events):
            # Each hand's results are read anew (before the `table` these events bring).
            for seat in self.state.seats.values():
                seat.ready = seat.kind == "bot"
        # A new hand's ``table`` (leavers removed, newcomers seated, ``ready`` cleared)
        # comes right before its ``hand_started``, whatever dealt it; any other right after
        # the last event that changes it.
        started = next((i for i, e in enumerate(events) if isinstance(e, HandStarted)), None)
        changed = max(
            (i + 1 for i, e in enumerate(events) if isinstance(e, _TABLE_CHANGING)), default=None
        )
        cuts = {cut for cut in (started, changed) if cut is not None}
        if table_changed and started is None:
            cuts.add(len(events))
        start = 0
        for cut in sorted(cuts):
            self._deliver(events[start:cut])
            self.state._broadcast_table()
            start = cut
        self._deliver(events[start:])
        pending = self.state.game.pending()
        # A new turn, a new misdeal or a new placement asks again even if the same player
        # owed the last decision; during taxes the same decisions simply stay owed.
        asked_again = any(isinstance(e, Waiting) and e.phase != "taxes" for e in events)
        for player, decision in pending.items():
            if self.state._owed.get(player) is type(decision) and not asked_again:
                continue
            self.state.decisions_asked[player] = self.state.decisions_asked.get(player, 0) + 1
            message = decision_message(
                decision,
                self.state.limits.turn_timer_ms,
                decision_id=self.state.decisions_asked[player],
            )
            for connection in self.state._connections_of(player):
                connection.outbox.append(message)
        self.state._owed = {player: type(decision) for player, decision in pending.items()}

    def _deliver(self, events: list[Event]) -> None:
        fields: dict[int, Message] = {}
        by_viewer = {
            viewer: feed.messages(events, fields) for viewer, feed in self.state._feeds.items()
        }
        for connection in self.state.connections.values():
            if connection.greeted and not connection.closing:
                viewer = None if connection.spectator else connection.player
                connection.outbox.extend(by_viewer.get(viewer, []))


class UnplayableChange(Told):
    """A saved change the table cannot take again (the save was damaged or forged)."""

    def __init__(self, number: int, error: Exception) -> None:
        reason: object
        if isinstance(error, KeyError):
            reason = (
                Told(N_("it lacks {key}"), key=repr(error.args[0]))
                if error.args
                else Told(N_("something is missing"))
            )
        elif isinstance(error, Told):
            reason = error
        else:
            reason = str(error) or Told(N_("it does not fit the table at that point"))
        super().__init__(
            N_("change {number} cannot be played again ({reason})"), number=number, reason=reason
        )
        self.number = number
