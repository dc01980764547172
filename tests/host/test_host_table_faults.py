"""Fault isolation of what serves the whole table (the delivery task, the time keeper, a
delivery done at once without a save, the doors' accept loops, the announcement): an
error nothing foresaw there either ends the evening with the save intact and one sentence
for the host player, or is told once in the log while the table goes on. Each case
injects the fault and checks which."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from loopback_options import loopback_options

from dalmuti_net.commands.host_options import HostOptions
from dalmuti_net.commands.host_runtime import HostFailed, PreparedHost
from dalmuti_net.faults import first_error
from dalmuti_net.host.listen import ACCEPTING_AGAIN, CANNOT_ACCEPT, serve_listeners
from dalmuti_net.host.savefile import SaveFile, read_save, summarize
from dalmuti_net.host.server import TableFailed, TableServer
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack


def hello(name: str) -> bytes:
    return encode({"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": "player"})


async def until(stream: trio.abc.Stream, wanted: str, within: float = 5) -> list[dict[str, Any]]:
    """Messages up to one of type ``wanted`` (or the host's close)."""
    frames = FrameReader()
    messages: list[dict[str, Any]] = []
    with trio.fail_after(within):
        while not any(m["type"] == wanted for m in messages):
            data = await stream.receive_some(65536)
            if not data:
                break
            messages.extend(unpack(body) for body in frames.feed(data))
    return messages


async def serve_until_failed(
    server: TableServer, play: Any
) -> tuple[BaseException | None, list[dict[str, Any]]]:
    """Serve ``server`` on 127.0.0.1, run ``play(port, opened)`` beside it (it keeps the
    streams it opens in ``opened``, closed here); what ``run`` raised (or None) and what
    ``play`` returned."""
    failed: BaseException | None = None
    seen: list[dict[str, Any]] = []
    opened: list[trio.abc.Stream] = []
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
            nursery.start_soon(server.serve_tcp, listeners)
            try:
                seen = await play(listeners[0].socket.getsockname()[1], opened)
            finally:
                for stream in opened:
                    await trio.aclose_forcefully(stream)
            with trio.fail_after(5):
                await trio.sleep_forever()  # until the table fails
    except* TableFailed as group:
        failed = first_error(group)
    return failed, seen


async def connect(port: int, opened: list[trio.abc.Stream]) -> trio.abc.Stream:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    opened.append(stream)
    return stream


async def test_a_fault_in_the_delivery_task_ends_the_evening_with_the_save_intact(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The save failed in a way nothing foresaw (not a full disk): the batch is not
    delivered (its chat is never acknowledged), everyone is told the host stopped the
    table, and the save holds everything acknowledged before, unmarked (its host did
    not end cleanly, so it is offered again)."""
    path = tmp_path / "table.dat"
    table = Table("Faulty save")
    save = SaveFile.create(path, {"name": "Faulty save", "table_id": table.table_id})
    server = TableServer(table, save=save, save_in_thread=False)
    append = save.append

    def buggy(entries: list[dict[str, Any]]) -> None:
        if any(entry.get("text") == "boom" for entry in entries):
            raise KeyError("a bug in the save")
        append(entries)

    save.append = buggy  # type: ignore[method-assign]

    async def play(port: int, opened: list[trio.abc.Stream]) -> list[dict[str, Any]]:
        ana = await connect(port, opened)
        await ana.send_all(hello("Ana"))
        await until(ana, "snapshot")
        await ana.send_all(encode({"type": "chat", "text": "before"}))
        await until(ana, "chat")
        await ana.send_all(encode({"type": "chat", "text": "boom"}))
        return await until(ana, "goodbye")

    failed, seen = await serve_until_failed(server, play)
    assert isinstance(failed, TableFailed) and isinstance(failed.error, KeyError)
    assert seen[-1]["code"] == "shutting_down"
    assert not [m for m in seen if m["type"] == "chat"], "the failed batch was not delivered"
    save.release()
    texts = [e.get("text") for e in read_save(path).entries if e["op"] == "chat"]
    assert texts == ["before"]
    assert summarize(path).stopped is None, "not a clean stop: offered again"
    assert not [r for r in caplog.records if "after an error" in r.getMessage()]


async def test_a_fault_in_the_time_keeper_ends_the_evening(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A deadline the table acts on (a lobby seat's grace period) fails in the table core:
    the evening ends (without a save: nothing to keep), everyone told."""
    table = Table("Faulty clock", limits=Limits(grace_period_ms=5_000))  # within the silence

    def buggy(player: int) -> None:
        raise IndexError("a bug in the table's clock")

    table.lobby.held_seat_expired = buggy  # type: ignore[method-assign]
    server = TableServer(table)

    async def play(port: int, opened: list[trio.abc.Stream]) -> list[dict[str, Any]]:
        ana = await connect(port, opened)
        await ana.send_all(hello("Ana"))
        await until(ana, "snapshot")
        bo = await connect(port, opened)
        await bo.send_all(hello("Bo"))
        await until(bo, "snapshot")
        await bo.aclose()  # held for the grace period, then the fault
        return await until(ana, "goodbye", within=15)

    failed, seen = await serve_until_failed(server, play)
    assert isinstance(failed, TableFailed) and isinstance(failed.error, IndexError)
    assert seen[-1]["type"] == "goodbye" and seen[-1]["code"] == "shutting_down"


async def test_without_a_save_a_fault_delivering_is_the_tables_not_the_connections(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Without a save the batch is delivered in the task of the connection that changed
    the table: a fault there (here the host's own report of the change) still ends the
    evening, not only that connection (whose reader would log it as its own)."""
    table = Table("Faulty report")
    calls = 0

    def on_change() -> None:
        nonlocal calls
        calls += 1
        if calls > 3:
            raise ZeroDivisionError("a bug in the report")

    server = TableServer(table, on_change=on_change)

    async def play(port: int, opened: list[trio.abc.Stream]) -> list[dict[str, Any]]:
        ana = await connect(port, opened)
        await ana.send_all(hello("Ana"))
        await until(ana, "snapshot")
        for number in range(5):
            await ana.send_all(encode({"type": "chat", "text": f"line {number}"}))
        return await until(ana, "goodbye")

    failed, seen = await serve_until_failed(server, play)
    assert isinstance(failed, TableFailed) and isinstance(failed.error, ZeroDivisionError)
    assert seen[-1]["code"] == "shutting_down"
    assert not [r for r in caplog.records if "connection from" in r.getMessage()]


def options(tmp_path: Path) -> HostOptions:
    return loopback_options("Faulty evening", web=False, saves_folder=tmp_path)


async def test_the_host_says_in_one_sentence_where_the_failed_table_is_kept(
    tmp_path: Path,
) -> None:
    """The command's side: one sentence (a ``HostFailed``, which ``cli.main`` prints),
    naming the error and the command that takes the table up again; the save of the
    saves folder is kept though no hand was dealt, and left unmarked."""
    host = PreparedHost.create(options(tmp_path))
    assert host.save is not None
    path = host.save.path
    table = host.table

    tick = table.tick

    def buggy(now: float) -> None:
        if table.seats:  # once Bo is seated (and saved)
            raise RuntimeError("a bug in tick")
        tick(now)

    failures: list[BaseException] = []
    try:
        async with trio.open_nursery() as nursery:
            server = await nursery.start(host.serve)
            table.tick = buggy  # type: ignore[method-assign]
            stream = await trio.open_tcp_stream("127.0.0.1", host.port)  # type: ignore[arg-type]
            async with stream:
                await stream.send_all(hello("Bo"))
                await until(stream, "goodbye")
            assert server.failure is not None
    except* HostFailed as group:
        failures.append(first_error(group))
    finally:
        host.close_save()
    assert len(failures) == 1
    sentence = str(failures[0])
    assert "RuntimeError: a bug in tick" in sentence
    assert f"dalmuti host --resume {path}" in sentence and "\n" not in sentence
    assert path.exists() and summarize(path).stopped is None
    assert [e["name"] for e in read_save(path).entries if e["op"] == "seat"] == ["Bo"]


class Failing(trio.abc.Listener[trio.SocketStream]):
    """Fails ``failures`` accepts with an error nothing foresaw, then hands out streams."""

    def __init__(self, failures: int, streams: list[trio.SocketStream]) -> None:
        self.failures = failures
        self.streams = streams

    async def accept(self) -> trio.SocketStream:
        await trio.lowlevel.checkpoint()
        if self.failures:
            self.failures -= 1
            raise ValueError("a bug in accept")
        if not self.streams:
            await trio.sleep_forever()
        return self.streams.pop(0)

    async def aclose(self) -> None:
        await trio.lowlevel.checkpoint()


async def test_an_accept_that_fails_is_told_once_and_the_door_stays_open(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A door is not the table: its accept loop failing is told once (one line, the
    traceback at debug), and whoever is already connected plays on; it keeps trying."""
    served: list[trio.SocketStream] = []
    a, b = trio.socket.socketpair()
    streams = [trio.SocketStream(a), trio.SocketStream(b)]

    async def handler(stream: trio.SocketStream) -> None:
        served.append(stream)
        await trio.lowlevel.checkpoint()

    caplog.set_level(logging.DEBUG)
    with trio.move_on_after(60):
        await serve_listeners(handler, [Failing(50, list(streams))])
    assert served == streams
    told = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.msg.template for r in told] == [CANNOT_ACCEPT, ACCEPTING_AGAIN]
    assert "ValueError: a bug in accept" in told[0].getMessage()


async def test_an_announcement_that_fails_unforeseen_is_told_once_and_the_table_goes_on(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A listing on the LAN is a hint: an error nothing foresaw in publishing it is told
    once in a line (not a traceback), retried, and never reaches the host's nursery."""
    from dalmuti_net.host.announce import CANNOT_UPDATE, UPDATED_AGAIN, TableAnnouncer
    from dalmuti_net.protocol.discovery import TableInfo

    attempts: list[TableInfo] = []

    async def buggy_publish(info: TableInfo) -> None:
        attempts.append(info)
        if len(attempts) <= 3:
            raise AttributeError("a bug in the announcement")

    announcer = TableAnnouncer(TableInfo("t"), buggy_publish, instance_name="t", min_interval=1)
    with caplog.at_level(logging.WARNING, logger="dalmuti_net"):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(announcer.publish_changes)
            await announcer.update(TableInfo("t", seats_taken=1))
            await trio.sleep(10)
            nursery.cancel_scope.cancel()
    assert len(attempts) == 4 and announcer.published == TableInfo("t", seats_taken=1)
    assert [r.msg.template for r in caplog.records] == [CANNOT_UPDATE, UPDATED_AGAIN]
    assert "AttributeError: a bug in the announcement" in caplog.records[0].getMessage()
