"""A seat you never lose: `dalmuti join` remembers each table's resume token by the host's
table id, privately, takes the seat back after a restart with its points, and never sends
one table's token to another host."""

from __future__ import annotations

import random
import stat
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio
from trio.testing import MockClock

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.bot import play, stream_connector
from dalmuti_net.client.runner import ClientRunner, Status
from dalmuti_net.client.seats import SeatStore, state_dir
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.protocol.messages import Message, action_message
from dalmuti_net.protocol.resume import seat_id

STEP = 10.0


async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
    from dalmuti_net.bots import make_strategy

    strategy = make_strategy("random", 3)
    await play(stream_connector(stream), strategy, bot.name, token=bot.token, reconnect=False)


class RecordingTable(Table):
    """A table that remembers every message it was sent, to check what clients said."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heard: list[Message] = []

    def receive(self, connection_id: int, message: Message, now: float = 0.0) -> None:
        self.heard.append(message)
        super().receive(connection_id, message, now)


@asynccontextmanager
async def served(table: Table) -> AsyncIterator[tuple[int, trio.Nursery]]:
    server = TableServer(table, run_bot=run_bot, between_hands=0.05)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(server.serve_tcp, listeners)
        yield port, nursery
        nursery.cancel_scope.cancel()


def tcp(port: int) -> Callable[[], Awaitable[trio.abc.Stream]]:
    async def connect() -> trio.abc.Stream:
        return await trio.open_tcp_stream("127.0.0.1", port)

    return connect


class Player:
    """One run of `dalmuti join`: a session with the user's seat store, answering its
    decisions at random, until it is cancelled (the process is killed)."""

    def __init__(self, store: SeatStore, name: str = "Bea", seed: int = 1) -> None:
        self.session = ClientSession(name, seats=store)
        self.rng = random.Random(seed)
        self.scope = trio.CancelScope()
        self.answering = True
        self.runner: ClientRunner | None = None

    async def run(self, connect: Callable[[], Awaitable[trio.abc.Stream]]) -> None:
        async def on_message(message: Message) -> None:
            decision = self.session.decision
            if self.answering and decision is not None and message["type"] == "decision":
                await runner.send(action_message(random_answer(decision, self.rng)))

        runner = ClientRunner(self.session, connect, on_message=on_message)
        self.runner = runner
        with self.scope:
            await runner.run()

    async def until(self, condition: Callable[[], bool]) -> None:
        with trio.fail_after(STEP):
            while not condition():
                await trio.sleep(0.01)


def test_the_state_file_is_private(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "state" / "dalmuti-net")
    store.remember("table-1", "secret-token", "Bea", "Friday table")
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.folder.stat().st_mode) == 0o700
    store.path.chmod(0o644)  # a file made by hand, too open: the next write closes it
    store.remember("table-2", "other", "Bea", "Saturday table")
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert store.seat_for("table-1") is not None and store.seat_for("table-1").token == (
        "secret-token"
    )
    store.forget("secret-token")
    assert store.seat_for("table-1") is None and store.seat_for("table-2") is not None
    store.path.write_text("not json", encoding="utf-8")
    assert store.seat_for("table-2") is None  # a damaged file is no seat, not a crash


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
def test_the_state_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where seats were remembered before platformdirs found the folder, so an upgrade
    loses none."""
    monkeypatch.setenv("XDG_STATE_HOME", "/x")
    assert state_dir() == Path("/x/dalmuti-net")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", "/home/bea")
    assert state_dir() == Path("/home/bea/.local/state/dalmuti-net")


async def test_a_restarted_client_takes_its_seat_back_with_its_points(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    rules = Rules(scoring=True, hand_limit=5)
    table = RecordingTable("Resume table", rules, seed=8)
    async with served(table) as (port, nursery):
        first = Player(store)
        nursery.start_soon(first.run, tcp(port))
        await first.until(lambda: first.session.is_host)
        assert first.runner is not None
        for _ in range(3):
            await first.runner.send({"type": "add_bot", "strategy": "random"})
        await first.until(lambda: len(table.seats) == 4)
        await first.runner.send({"type": "start"})
        observation = lambda: first.session.observation  # noqa: E731
        await first.until(lambda: (o := observation()) is not None and o.hand_number >= 2)
        player = first.session.player
        assert player is not None and table.table_id == first.session.table_id
        assert store.seat_for(table.table_id) is not None
        first.answering = False
        first.scope.cancel()  # kill -9: no goodbye, no leave
        await first.until(lambda: table.seats[player].connection is None)
        score = table.game.scores[player] if table.game else None
        seats = len(table.seats)

        again = Player(store, name="Someone else", seed=2)  # a new process, a new name
        nursery.start_soon(again.run, tcp(port))
        await again.until(lambda: again.runner is not None)
        await again.until(
            lambda: again.runner is not None and again.runner.status is Status.CONNECTED
        )
        await again.until(lambda: again.session.observation is not None)
        assert again.session.player == player
        assert len(table.seats) == seats  # no newcomer "Bea (2)"
        resumed = again.session.observation
        assert resumed is not None and resumed.scores[player] == score
        assert table.seats[player].connection is not None
        hellos = [m for m in table.heard if m["type"] == "hello"]
        assert "resume" not in hellos[0]
        assert hellos[-1]["resume"]["seat"] == seat_id(table.seats[player].token)
        assert all(table.seats[player].token not in str(m) for m in table.heard)
        again.scope.cancel()


async def test_a_token_for_one_table_is_never_sent_to_another(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    first_table = RecordingTable("First", seed=1)
    other_table = RecordingTable("Other", seed=2)
    async with (
        served(first_table) as (first_port, nursery),
        served(other_table) as (other_port, _),
    ):
        bea = Player(store)
        nursery.start_soon(bea.run, tcp(first_port))
        await bea.until(lambda: bea.session.welcome is not None)
        first_token = bea.session.token
        assert first_token is not None
        # Bea stays at the first table (a lobby frees the seat of whoever goes).

        # The same user at another table: a new seat there, the first token unsent.
        elsewhere = Player(store)
        nursery.start_soon(elsewhere.run, tcp(other_port))
        await elsewhere.until(lambda: elsewhere.session.welcome is not None)
        assert elsewhere.session.table_id == other_table.table_id
        elsewhere.scope.cancel()

        # A host that was at the first one's address now runs the other table: a
        # reconnecting client asks first, and keeps its token to itself.
        addresses = [first_port, other_port]

        async def moved() -> trio.abc.Stream:
            return await trio.open_tcp_stream("127.0.0.1", addresses.pop(0))

        session = ClientSession("Bea", token=first_token)
        session.table_id = first_table.table_id
        runner = ClientRunner(session, moved, max_reconnect_attempts=1)
        with trio.move_on_after(STEP):
            nursery.start_soon(runner.run)
            while session.table_id != other_table.table_id or session.welcome is None:
                await trio.sleep(0.01)
                if addresses and session.welcome is not None:
                    await runner._connection.aclose()  # type: ignore[union-attr]
                    session.welcome = None
        runner.stop()
        bea.scope.cancel()
        assert session.table_id == other_table.table_id
    said = [m for m in other_table.heard if m["type"] == "hello"]
    assert len(said) == 2 and all("resume" not in m for m in said)
    assert all(first_token not in str(m) for m in other_table.heard)
    assert any(m["type"] == "about" for m in other_table.heard)


async def test_the_host_at_a_new_address_gives_the_same_seat_back(tmp_path: Path) -> None:
    """After a Wi-Fi change the host answers at another address: the token is found by the
    table's id, not by the address it was first reached at."""
    store = SeatStore(tmp_path)
    table = RecordingTable("Moving table", Rules(scoring=True), seed=5)
    server = TableServer(table, run_bot=run_bot, between_hands=0.05)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        old = await trio.open_tcp_listeners(0, host="127.0.0.1")
        new = await trio.open_tcp_listeners(0, host="127.0.0.2")
        nursery.start_soon(server.serve_tcp, old + new)

        def at(listeners: list[trio.SocketListener]) -> Callable[[], Awaitable[trio.abc.Stream]]:
            host, port = listeners[0].socket.getsockname()[:2]

            async def connect() -> trio.abc.Stream:
                return await trio.open_tcp_stream(host, port)

            return connect

        first = Player(store)
        nursery.start_soon(first.run, at(old))
        await first.until(lambda: first.session.is_host)
        assert first.runner is not None
        for _ in range(3):
            await first.runner.send({"type": "add_bot", "strategy": "random"})
        await first.until(lambda: len(table.seats) == 4)
        await first.runner.send({"type": "start"})
        await first.until(lambda: first.session.observation is not None)
        player = first.session.player
        first.answering = False
        first.scope.cancel()
        assert player is not None
        await first.until(lambda: table.seats[player].connection is None)

        again = Player(store, seed=3)
        nursery.start_soon(again.run, at(new))
        await again.until(lambda: again.session.welcome is not None)
        assert again.session.player == player and len(table.seats) == 4
        assert again.session.token_from_store
        again.scope.cancel()
        nursery.cancel_scope.cancel()


def test_the_host_players_own_seat_comes_back_with_host_resume(tmp_path: Path) -> None:
    """`dalmuti host --save`, a crash, `dalmuti host --resume`: the host player's terminal
    gets the token of the same seat (its name, its place in the game) back."""
    from dalmuti_net.cli import build_parser
    from dalmuti_net.commands.host import options_from
    from dalmuti_net.commands.host_runtime import PreparedHost

    save = tmp_path / "table.dat"
    argv = ["host", "--player-name", "Ana", "--bots", "3", "--rules", "scoring"]
    first = PreparedHost.create(
        options_from(build_parser().parse_args([*argv, "--save", str(save)]))
    )
    assert first.save is not None and first.host_token is not None
    first.table.start()
    game = first.table.game
    assert game is not None
    host_seat = next(seat for seat in first.table.seats.values() if seat.host)
    first.save.append(first.table.take_journal())
    first.save.close()  # then the process dies: nothing more is written

    again = PreparedHost.create(
        options_from(build_parser().parse_args(["host", "--resume", str(save)]))
    )
    assert again.host_token == first.host_token
    seat = next(seat for seat in again.table.seats.values() if seat.token == again.host_token)
    assert seat.host and seat.name == "Ana" and seat.player == host_seat.player
    assert again.table.game is not None and again.table.game.hand_number == game.hand_number
    assert again.save is not None
    again.save.close()


async def test_a_client_restarted_in_the_lobby_takes_its_held_seat_back(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """In the lobby a dropped seat is held for the grace period, so the restarted client's
    remembered token takes the same seat back, once, and it stays in it. (It used to be
    refused, and take a new seat under the same name: a phone's Wi-Fi blip cost its
    place.)"""
    store = SeatStore(tmp_path)
    table = RecordingTable("Lobby", seed=4)
    async with served(table) as (port, nursery):
        ana = Player(SeatStore(tmp_path / "ana"), "Ana")
        nursery.start_soon(ana.run, tcp(port))
        await ana.until(lambda: ana.session.is_host)
        bo = Player(store, "Bo")
        nursery.start_soon(bo.run, tcp(port))
        await bo.until(lambda: bo.session.welcome is not None)
        player = bo.session.player
        bo.scope.cancel()  # the terminal was closed
        await ana.until(lambda: ana.session.table.players[1].connected is False)

        again = Player(store, "Bo")
        nursery.start_soon(again.run, tcp(port))
        await again.until(lambda: again.session.welcome is not None)
        # A second on trio's fake clock (the client's reconnect backoff runs on it too): a
        # client reconnecting in a loop says hello again meanwhile.
        await trio.sleep(1.0)
        hellos = [m for m in table.heard if m["type"] == "hello" and m["name"] == "Bo"]
        assert len(hellos) == 2 and "resume" in hellos[1], "the first run, then the resume"
        assert [s.name for s in table.seats.values()] == ["Ana", "Bo"]
        assert again.session.player == player and not again.session.seat_was_lost
        assert [seat.token for seat in store.seats_for(table.table_id)] == [again.session.token]
        assert ana.session.table.players[1].connected is True
        again.scope.cancel()


async def test_a_player_who_drops_in_the_rematch_lobby_takes_the_seat_back(
    tmp_path: Path,
) -> None:
    """A table that ended is over for the seat store, until its host player offers a
    rematch: the seat is a seat again, kept by the host through a drop in the rematch's
    lobby and remembered by the client, so a restarted `join` takes it back."""
    table = RecordingTable("Again", Rules(hand_limit=1), seed=8)
    async with served(table) as (port, nursery):
        ana = Player(SeatStore(tmp_path / "ana"), name="Ana")
        nursery.start_soon(ana.run, tcp(port))
        await ana.until(lambda: ana.session.is_host)
        store = SeatStore(tmp_path / "bea")
        bea = Player(store, seed=2)
        nursery.start_soon(bea.run, tcp(port))
        await bea.until(lambda: bea.session.welcome is not None)
        assert ana.runner is not None and bea.runner is not None
        for _ in range(2):
            await ana.runner.send({"type": "add_bot", "strategy": "random"})
        await ana.until(lambda: len(table.seats) == 4)
        await ana.runner.send({"type": "start"})
        await bea.until(lambda: table.phase == "ended")
        await bea.until(lambda: store.seat_for(table.table_id) is None)  # over: forgotten
        await ana.runner.send({"type": "rematch"})
        await bea.until(lambda: bool(bea.session.table and bea.session.table.rematch))
        player = bea.session.player
        assert player is not None
        await bea.until(lambda: store.seat_for(table.table_id) is not None)  # a seat again
        bea.scope.cancel()  # kill -9 in the rematch's lobby
        await bea.until(lambda: table.seats[player].connection is None)
        assert player in table.seats  # kept for her, as during a game
        seats = len(table.seats)

        again = Player(store, seed=3)  # `dalmuti join` once more
        nursery.start_soon(again.run, tcp(port))
        await again.until(lambda: again.session.welcome is not None)
        assert again.session.player == player
        assert len(table.seats) == seats  # no newcomer "Bea (2)"
        await again.runner.send({"type": "ready", "ready": True})  # type: ignore[union-attr]
        await again.until(lambda: table.phase == "playing")  # she accepted: it starts
        assert player in table.game.order  # type: ignore[union-attr]
        again.scope.cancel()
        ana.scope.cancel()


async def test_who_is_still_away_when_the_rematch_starts_is_dealt_in(
    tmp_path: Path,
) -> None:
    """A seat held in a rematch's lobby is a seat, as in any lobby: the start deals it in
    (its grace period runs on; a stand-in plays it after), for its player to take back."""
    table = RecordingTable("Again", Rules(hand_limit=1), seed=8)
    async with served(table) as (port, nursery):
        ana = Player(SeatStore(tmp_path / "ana"), name="Ana")
        nursery.start_soon(ana.run, tcp(port))
        await ana.until(lambda: ana.session.is_host)
        bea = Player(SeatStore(tmp_path / "bea"), seed=2)
        nursery.start_soon(bea.run, tcp(port))
        await bea.until(lambda: bea.session.welcome is not None)
        assert ana.runner is not None
        for _ in range(3):
            await ana.runner.send({"type": "add_bot", "strategy": "random"})
        await ana.until(lambda: len(table.seats) == 5)
        await ana.runner.send({"type": "start"})
        await ana.until(lambda: table.phase == "ended")
        await ana.runner.send({"type": "rematch"})
        await bea.until(lambda: bool(bea.session.table and bea.session.table.rematch))
        player = bea.session.player
        bea.scope.cancel()
        await ana.until(lambda: table.seats[player].connection is None)  # type: ignore[index]
        await ana.runner.send({"type": "start"})  # the host player starts without her
        await ana.until(lambda: table.phase == "playing")
        assert table.game is not None and player in table.game.order
        assert table.seats[player].connection is None  # type: ignore[index]
        ana.scope.cancel()


async def test_a_bot_stopped_in_the_lobby_gives_its_seat_up_and_a_dropped_one_keeps_it(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """The host holds a lobby seat through a dropped link (the grace period); a program
    stopped on purpose (the SDK's ``play_bot`` cancelled, as Ctrl-C does to ``dalmuti
    bot``) says ``leave`` on its way out, so its seat is free at once. The host's own
    bots never do: a host that stops must find them seated when it resumes."""
    from dalmuti_net.client import play_bot

    table = RecordingTable("Lobby", seed=4)
    async with served(table) as (port, nursery):
        ana = Player(SeatStore(tmp_path / "ana"), "Ana")
        nursery.start_soon(ana.run, tcp(port))
        await ana.until(lambda: ana.session.is_host)
        stopped = trio.CancelScope()

        async def sdk_bot() -> None:
            with stopped:
                await play_bot(("127.0.0.1", port), "random", name="Sdk")

        nursery.start_soon(sdk_bot)
        await ana.until(lambda: [s.name for s in table.seats.values()] == ["Ana", "Sdk"])
        began = trio.current_time()
        stopped.cancel()
        await ana.until(lambda: [s.name for s in table.seats.values()] == ["Ana"])
        assert trio.current_time() - began < table.limits.grace_period_ms / 1000
        assert [m["type"] for m in table.heard][-1] == "leave"

        dropped = Player(SeatStore(tmp_path / "bo"), "Bo")
        nursery.start_soon(dropped.run, tcp(port))
        await ana.until(lambda: len(table.seats) == 2)
        dropped.scope.cancel()  # a runner without the flag: a link that went
        await ana.until(lambda: ana.session.table.players[1].connected is False)
        assert "leave" not in [m["type"] for m in table.heard][-2:]
        assert [s.name for s in table.seats.values()] == ["Ana", "Bo"]
        ana.scope.cancel()
