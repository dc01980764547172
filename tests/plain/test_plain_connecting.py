"""The plain table while it connects, in process under the fake clock: what it says when
the host never lets it in."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import pytest
import trio
import trio.testing
from test_silent_host import unwelcoming_host

from dalmuti_net.client.plain.narrator import PlainTable
from dalmuti_net.client.plain.runtime import PlainClient
from dalmuti_net.client.seats import SeatStore
from dalmuti_net.lang.i18n import Translator


@pytest.fixture
def typing_nothing() -> Iterator[TextIO]:
    """A standard input nobody types on (it neither ends nor gives a line)."""
    read, write = os.pipe()
    with os.fdopen(read) as stdin:
        try:
            yield stdin
        finally:
            os.close(write)


async def plain_at_unwelcoming_host(stdin: TextIO, tmp_path: Path) -> list[str]:
    """What `join --plain` prints at a host that answers `about` and heartbeats, never the
    hello, in its first 40 s."""
    out = io.StringIO()
    table = PlainTable(Translator("en"), name="Ana", name_given=True)
    client = PlainClient(table, stdin=stdin, stdout=out)
    client.seats = SeatStore(tmp_path)  # as `join --plain`: it asks which table first
    session = client.new_session("Ana", False, None)
    table.connecting(session, "127.0.0.1:7341")
    async with trio.open_nursery() as nursery:

        async def connect() -> trio.abc.Stream:
            client_end, host_end = trio.testing.memory_stream_pair()
            nursery.start_soon(unwelcoming_host, host_end)
            return client_end

        with trio.move_on_after(40):
            await client.run(session, connect)
        nursery.cancel_scope.cancel()
    return out.getvalue().splitlines()


async def test_a_host_that_never_lets_in_is_said_once_as_no_host(
    autojump_clock: trio.testing.MockClock, typing_nothing: TextIO, tmp_path: Path
) -> None:
    """It used to say the connection was closed (after 20 s of no welcome) and offer to
    try again: the same host, for ever. Now it is given up as the bot gives it up, in one
    sentence, said once."""
    lines = await plain_at_unwelcoming_host(typing_nothing, tmp_path)
    assert "The host cannot be reached" in lines, lines
    assert sum("it is not a dalmuti-net table" in line for line in lines) == 1, lines
    assert "The connection to the host is closed." not in lines  # one failure, one screen
