"""The SDK's bots (``play_bot``, which ``run_bot`` runs) against a host that lies: each lie
ends in a result that says why, after reconnecting with backoff, never in an exception."""

from __future__ import annotations

import pytest
import trio
from hostile_host import SCENARIOS, chat_flood, hostile_host, quiet, tiny_heartbeats, welcome
from trio.testing import MockClock

from dalmuti_net.client import play_bot
from dalmuti_net.client.runner import UNREADABLE_STRIKES, ClientRunner
from dalmuti_net.client.session import KEPT_CHAT, ClientSession
from dalmuti_net.engine import Action, Decision, Observation
from dalmuti_net.engine.actions import legal_answers
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.messages import Message


def first_legal(observation: Observation, decision: Decision) -> Action:
    return legal_answers(decision)[0]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_a_lie_ends_the_bot_with_a_reason(name: str, autojump_clock: MockClock) -> None:
    # On trio's fake clock: the reconnect backoff is waited for in no wall-clock time, and
    # its total (under 5 s) is measured on that clock.
    async with hostile_host(SCENARIOS[name]) as host:
        started = trio.current_time()
        with trio.fail_after(10):
            result = await play_bot(("127.0.0.1", host.port), first_legal, name="Liar's bot")
        assert trio.current_time() - started < 5
    assert result.closed_reason is not None and "does not fit" in result.closed_reason
    assert host.connections == UNREADABLE_STRIKES  # reconnected, then gave up
    assert not result.finished


async def test_a_welcome_of_another_version_is_refused() -> None:
    async with hostile_host(quiet, welcome(version=PROTOCOL_VERSION + 1)) as host:
        with trio.fail_after(10):
            result = await play_bot(("127.0.0.1", host.port), first_legal)
    assert result.refusal is not None and result.refusal.code == "version_mismatch"
    assert result.refusal.host_version == PROTOCOL_VERSION + 1
    assert result.refusal.client_version == PROTOCOL_VERSION
    assert host.connections == 1 and "hello" in host.received


async def test_heartbeats_of_one_millisecond_are_not_obeyed(autojump_clock: MockClock) -> None:
    # On trio's fake clock: the 2 s below pass at once, and obeyed 1 ms heartbeats would be
    # 2000 of them.
    async with hostile_host(quiet, tiny_heartbeats()) as host, trio.open_nursery() as nursery:
        nursery.start_soon(play_bot, ("127.0.0.1", host.port), first_legal)
        await trio.sleep(2)
        # A 1 ms timeout is not obeyed either: a silent host is kept for 5 s at least.
        assert host.connections == 1
        assert host.heartbeats <= 2 / 0.25 + 1
        nursery.cancel_scope.cancel()


async def test_a_chat_flood_keeps_what_a_client_holds_bounded() -> None:
    """What every client keeps (ClientSession.chat, which grew a bot to 1.19 GB)."""
    seen = 0

    async def count(message: Message) -> None:
        nonlocal seen
        seen += message["type"] == "chat"

    async with hostile_host(chat_flood) as host:
        session = ClientSession("Flooded")

        async def connect() -> trio.abc.Stream:
            return await trio.open_tcp_stream("127.0.0.1", host.port)

        runner = ClientRunner(session, connect, on_message=count)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(runner.run)
            with trio.fail_after(10):
                while seen < KEPT_CHAT * 20:
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
    assert len(session.chat) == KEPT_CHAT


async def test_a_flood_of_frames_in_one_read_lets_other_tasks_run() -> None:
    """A 16 KiB read may hold hundreds of frames: handling them all before anything else
    runs starved the table screen's keys and drawing (q ignored under a flood)."""
    import time

    import trio.testing
    from hostile_host import welcome

    from dalmuti_net.protocol import encode

    client_end, host_end = trio.testing.memory_stream_pair()
    heartbeat = encode({"type": "heartbeat"})
    others_ran = 0
    handled = 0

    async def busy(message: Message) -> None:
        nonlocal handled
        handled += 1
        end = time.perf_counter() + 0.0002  # what drawing a log line costs, say
        while time.perf_counter() < end:
            pass

    async def other() -> None:
        nonlocal others_ran
        while True:
            await trio.lowlevel.checkpoint()
            others_ran += 1

    async def connect() -> trio.abc.Stream:
        return client_end

    session = ClientSession("Ana")
    runner = ClientRunner(session, connect, on_message=busy, reconnect=False)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner.run)
        await host_end.receive_some()  # the hello
        await host_end.send_all(encode(welcome()) + heartbeat * 400)  # one read's worth
        while handled < 401:
            await trio.sleep(0)
        ran_before = others_ran
        nursery.start_soon(other)
        await trio.sleep(0)
        await host_end.send_all(heartbeat * 400)
        while handled < 801:
            await trio.sleep(0)
        # 400 frames at 0.2 ms each: 80 ms, in slices of 10 ms.
        assert others_ran - ran_before >= 4
        nursery.cancel_scope.cancel()
