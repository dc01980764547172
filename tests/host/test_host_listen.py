"""Accepting when the process is out of descriptors: one sentence, no traceback, and the
connections waiting in the kernel are taken as soon as descriptors are free again."""

from __future__ import annotations

import errno
import logging

import pytest
import trio
import trio.testing

from dalmuti_net.host.listen import ACCEPTING_AGAIN, OUT_OF_DESCRIPTORS, serve_listeners


class Exhausted(trio.abc.Listener[trio.SocketStream]):
    """Fails ``failures`` accepts with EMFILE, then hands out the streams it was given."""

    def __init__(self, failures: int, streams: list[trio.SocketStream]) -> None:
        self.failures = failures
        self.streams = streams

    async def accept(self) -> trio.SocketStream:
        await trio.lowlevel.checkpoint()
        if self.failures:
            self.failures -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        if not self.streams:
            await trio.sleep_forever()
        return self.streams.pop(0)

    async def aclose(self) -> None:
        await trio.lowlevel.checkpoint()


async def test_out_of_descriptors_is_told_once_without_a_traceback(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    served: list[trio.SocketStream] = []
    a, b = trio.socket.socketpair()
    streams = [trio.SocketStream(a), trio.SocketStream(b)]

    async def handler(stream: trio.SocketStream) -> None:
        served.append(stream)
        await trio.lowlevel.checkpoint()

    caplog.set_level(logging.DEBUG)
    with trio.move_on_after(60):
        await serve_listeners(handler, [Exhausted(300, list(streams))])
    assert served == streams
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.msg.template for r in records] == [OUT_OF_DESCRIPTORS, ACCEPTING_AGAIN]
    assert "EMFILE" in records[0].getMessage()
    assert all(r.exc_info is None for r in caplog.records)
