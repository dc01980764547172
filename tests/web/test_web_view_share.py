"""The pages that watch in one language are sent one text, made once, while their views
are equal; a view that differs in anything is made for its page alone (issue 43)."""

from __future__ import annotations

import json

import trio
import trio.testing

from dalmuti_net.client.model.display import LOG_SHOWN, display
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Table
from dalmuti_net.protocol import PROTOCOL_VERSION, encode
from dalmuti_net.web.seat import WebSeat
from dalmuti_net.web.view import SharedTexts, view_text
from tests.web.test_web_view_pace import Page, no_bots


async def test_watchers_in_one_language_share_their_views_text_and_only_that(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Web")
    server = TableServer(table, run_bot=no_bots, between_hands=0)
    shared = SharedTexts()
    joins = [
        {"name": "Ana", "lang": "es", "spectator": True},
        {"name": "Bea", "lang": "es", "spectator": True},
        {"name": "Cai", "lang": "zh_Hant", "spectator": True},
    ]
    pages = [Page(join) for join in joins]

    async def connect() -> trio.abc.Stream:
        return server.connect_local()

    webs = [
        WebSeat(
            page,  # type: ignore[arg-type]
            connect,
            table_name="Web",
            table_id="t1",
            code=None,
            rate=1000.0,
            shared_texts=shared,
        )
        for page in pages
    ]
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        for web in webs:
            nursery.start_soon(web._run, "en")
            await trio.sleep(1)  # each joins after the one before: their logs differ
        chatter = server.connect_local()
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "role": "player", "name": "Dai"}
        await chatter.send_all(encode(hello))

        async def drain() -> None:
            while await chatter.receive_some():
                pass

        nursery.start_soon(drain)
        await trio.sleep(2)
        made, sharing = shared.made, shared.shared
        for n in range(LOG_SHOWN + 20):  # the lines before scroll out of the log
            await chatter.send_all(encode({"type": "chat", "text": f"line {n}"}))
            await trio.sleep(0.3)
        await trio.sleep(2)
        last = []
        for web in webs:
            assert web.model is not None
            last.append(view_text(display(web.model)))
        nursery.cancel_scope.cancel()

    assert shared.shared > sharing  # Ana's and Bea's views came to be equal, and shared
    # Each line drawn once for Ana and Bea (once theirs are equal), once for Cai.
    assert shared.made - made >= LOG_SHOWN + 20
    for page, text in zip(pages, last, strict=True):
        assert json.dumps(page.sent[-1][1], ensure_ascii=False) == text
    ana, bea, cai = (page.sent[-1][1]["view"] for page in pages)
    assert ana == bea and f"line {LOG_SHOWN + 19}" in json.dumps(ana)
    assert cai != ana  # another language: never the Spanish text
