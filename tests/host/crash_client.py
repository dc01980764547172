"""A bot client in its own process, for kill -9 tests: ``python crash_client.py PORT NAME
[TOKEN]`` joins the table on 127.0.0.1:PORT (resuming TOKEN's seat if given) with
``dalmuti_net.client.bot.play``, prints ``welcome PLAYER TOKEN`` once welcomed and
``ended HAND_NUMBER`` when the table is over."""

from __future__ import annotations

import sys

import trio

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play
from dalmuti_net.protocol import FrameReader, unpack


class WelcomeTap(trio.abc.Stream):
    """Passes a stream through, printing the welcome it carries (play keeps the session)."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self._stream = stream
        self._frames = FrameReader()
        self._seen = False

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        data = await self._stream.receive_some(max_bytes)
        if not self._seen:
            for body in self._frames.feed(data):
                message = unpack(body)
                if message.get("type") == "welcome":
                    # A seat taken back is not sent its token again: the host proved it.
                    shown = message["token"] or "resumed"
                    print("welcome", message["player"], shown, flush=True)
                    self._seen = True
        return bytes(data)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self._stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self._stream.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        await self._stream.aclose()


async def main(port: int, name: str, token: str | None) -> None:
    async def connect() -> trio.abc.Stream:
        return WelcomeTap(await trio.open_tcp_stream("127.0.0.1", port))

    session = await play(connect, make_strategy("random", port), name, token=token)
    observation = session.observation
    print("ended", observation.hand_number if observation else -1, flush=True)


if __name__ == "__main__":
    token_given = sys.argv[3] if len(sys.argv) > 3 else None
    trio.run(main, int(sys.argv[1]), sys.argv[2], token_given)
