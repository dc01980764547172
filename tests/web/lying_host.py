"""A program that took the web table's address while its host was away (issue 38): it
serves the real page, says on ``/table`` that it runs the table the page was at (a table
id is public: ``about``, mDNS), and writes down every message the page sends it, one a
line. It lies one of two ways:

- ``challenge``: a seat asked back gets a challenge it cannot prove;
- ``seats``: a table without a code, that refuses every seat asked back and hands a new
  seat to every join, then hangs up, over and over (to push the real seat out of the
  page's storage).

``python -m tests.web.lying_host PORT TABLE_ID RECORD WAY``; prints ``listening`` when
ready.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

import trio
from trio_websocket import WebSocketConnection

from dalmuti_net.lang.i18n import Translator
from dalmuti_net.web.server import TableDoor, WebServer
from dalmuti_net.web.view import page_strings


class LyingServer(WebServer):
    def __init__(self, table_id: str, record: Path, way: str) -> None:
        def connect(address: str) -> trio.abc.Stream:
            raise OSError("no table behind this one")

        door = TableDoor(
            connect=connect,
            table_name=lambda: "Phones",
            table_id=table_id,
            code="tulip",
            max_frame_bytes=65536,
            rate=100.0,
        )
        super().__init__(door)
        self.record = record
        self.way = way

    async def _table(self, ws: WebSocketConnection, address: str, language: str) -> None:
        hello = {
            "table": "Phones",
            "table_id": self.door.table_id,
            "code_required": self.way == "challenge",
            "strings": page_strings(Translator(language)),
            "lang": language,
        }
        await ws.send_message(json.dumps({"hello": hello}))
        while True:
            message = await ws.get_message()
            text = message if isinstance(message, str) else message.decode("utf-8", "replace")
            with self.record.open("a", encoding="utf-8") as record:
                record.write(text + "\n")
            join = json.loads(text).get("join")
            if not isinstance(join, dict):
                continue
            if self.way == "challenge" and "resume" in join:
                # The proof of a token it does not have: anything at all.
                lie = {"nonce": secrets.token_hex(16), "proof": secrets.token_hex(32)}
                await ws.send_message(json.dumps({"challenge": lie}))
            elif self.way == "seats" and "resume" in join:
                await ws.send_message(json.dumps({"refused": "seat"}))
            elif self.way == "seats":
                seat = {"token": secrets.token_urlsafe(16), "table_id": self.door.table_id}
                await ws.send_message(json.dumps({"seat": seat}))
                await ws.aclose()
                return


async def main(port: int, table_id: str, record: Path, way: str) -> None:
    listeners = await trio.open_tcp_listeners(port, host="127.0.0.1")
    print("listening", flush=True)
    await LyingServer(table_id, record, way).serve(listeners)


if __name__ == "__main__":
    trio.run(main, int(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), sys.argv[4])
