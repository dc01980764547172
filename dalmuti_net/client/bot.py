"""Bots as ordinary protocol clients: the bot SDK's core.

``play(connect, strategy, name)`` keeps a bot connected and answers every decision with
``strategy.choose(observation, decision)``; the strategy sees only what its seat may know.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from ..bots.base import Strategy
from ..protocol.messages import Message, action_message
from .runner import ClientRunner, Connector
from .session import ClientSession


class ReadyInLobby:
    """When a bot program says ready in a lobby: once in each lobby it sits in, as soon as
    the table shows its seat not ready. A bot has nothing to read there; the host player
    would otherwise read "not ready yet" beside it and have to start anyway. Not as the
    host player (who starts), and not again after a refusal. Every bot loop we ship asks
    it (``play``, the SDK's, ``--exec``'s ``play_stdio``)."""

    def __init__(self) -> None:
        self.said = False

    def owed(self, session: ClientSession, message: Message) -> bool:
        """Whether ``message`` (already received by ``session``) makes ready owed now."""
        if message["type"] == "welcome":
            self.said = False  # a new connection: the lobby may have forgotten it
            return False
        table = session.table
        if message["type"] not in ("table", "snapshot") or table is None:
            return False
        if not table.lobby:
            self.said = False  # the next lobby (a rematch) is owed it again
            return False
        mine = table.by_player.get(session.player) if session.player is not None else None
        if mine is None or mine.ready or mine.host or self.said:
            return False
        self.said = True
        return True


async def play(
    connect: Connector,
    strategy: Strategy,
    name: str,
    *,
    token: str | None = None,
    code: str | None = None,
    reconnect: bool = True,
    pace: Callable[[], float] | None = None,
    leave_lobby_on_quit: bool = False,
) -> ClientSession:
    """Play until the table ends or the host refuses us; returns the final session.

    ``pace`` (the host's own bots) says how many seconds an answer should take at least,
    counted from the decision's arrival. ``leave_lobby_on_quit``: a bot stopped in the
    lobby (cancelled, Ctrl-C) gives its seat up first (``ClientRunner``): a program run
    by a person, not the host's own bots, whose seats the table keeps."""
    session = ClientSession(
        name, token=token, code=code, software=f"dalmuti-net bot/{strategy.name}"
    )
    runner: ClientRunner
    answered: int | None = None
    """The id of the decision last answered: a snapshot that crossed the answer still
    holds that decision, and it is not answered twice."""
    lobby = ReadyInLobby()

    async def answer(message: Message) -> None:
        nonlocal answered
        if message["type"] == "welcome":
            answered = None  # a new connection: an answer cut off with the last is owed again
        if lobby.owed(session, message):
            await runner.send({"type": "ready", "ready": True})
        if message["type"] == "error" and not message["fatal"]:
            if message["code"] != "stale_decision":
                answered = None  # refused: the decision is still owed, answer it again
            # The snapshot brings the decision owed now, if any.
            await runner.send({"type": "snapshot_request"})
            return
        decision, observation = session.decision, session.observation
        if message["type"] == "hand_ended":
            # A bot has read the results at once: the next deal need not wait for it.
            await runner.send({"type": "ready", "ready": True})
        if message["type"] == "table" and session.table is not None and session.table.ended:
            runner.stop()
            return
        if decision is None or observation is None or session.needs_snapshot:
            return
        decision_id = session.decision_id
        if decision_id is not None and decision_id == answered:
            return
        # In a worker thread: a slow strategy (a Monte Carlo bot seated by the host, say)
        # must not stall heartbeats or, in the host's process, the whole table. The receive
        # loop awaits this answer, so the observation does not change meanwhile.
        arrived = trio.current_time()
        action = await trio.to_thread.run_sync(strategy.choose, observation, decision)
        if pace is not None:
            await trio.sleep_until(arrived + pace())
        session.decision = None
        answered = decision_id
        reply = action_message(action)
        if decision_id is not None:
            reply["decision_id"] = decision_id
        await runner.send(reply)

    runner = ClientRunner(
        session,
        connect,
        on_message=answer,
        reconnect=reconnect,
        leave_lobby_on_quit=leave_lobby_on_quit,
    )
    await runner.run()
    return session


def stream_connector(stream: trio.abc.Stream) -> Connector:
    """A connector for one already-open stream (an in-process bot): no reconnecting."""
    used = False

    async def connect() -> trio.abc.Stream:
        nonlocal used
        if used:
            raise OSError("an in-process connection cannot be reopened")
        used = True
        return stream

    return connect
