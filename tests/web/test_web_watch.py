"""The pages that watch in one language are drawn from one client of the table, their
watch, fed each message once; each page keeps its own presence and what is its own (its
notice, the results it closed), and a seated page never shares (issue 43). On trio's fake
clock."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import trio
import trio.testing

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play, stream_connector
from dalmuti_net.engine import Rules
from dalmuti_net.host.records import Limits
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.web.seat import TICK, WATCHING_GAP, WebSeat
from dalmuti_net.web.watch import Watches


class Page:
    """The page's side of the WebSocket: says ``join``, then what the test gives it;
    keeps what it is sent."""

    def __init__(self, join: dict[str, Any]) -> None:
        self.to_host, self._from_test = trio.open_memory_channel[str](10)
        self.to_host.send_nowait(json.dumps({"join": join}))
        self.sent: list[dict[str, Any]] = []
        self.views_at: list[float] = []

    async def get_message(self) -> str:
        return await self._from_test.receive()

    async def send_message(self, text: str) -> None:
        self.sent.append(json.loads(text))
        if "view" in self.sent[-1]:
            self.views_at.append(trio.current_time())

    def view(self) -> dict[str, Any]:
        return next(told["view"] for told in reversed(self.sent) if "view" in told)

    def says(self, message: dict[str, Any]) -> None:
        self.to_host.send_nowait(json.dumps(message))


def bot_table(table: Table) -> TableServer:
    async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
        strategy = make_strategy(bot.strategy or "random", 1)
        await play(stream_connector(stream), strategy, bot.name, token=bot.token, reconnect=False)

    return TableServer(table, run_bot=run_bot, between_hands=3600)


async def played(table: Table) -> None:
    """Until the table's one hand is over (the bots think in worker threads, which the
    fake clock does not wait for: it is looked at again and again), and its results
    drawn."""
    with trio.fail_after(3600):
        while table.phase != "ended":
            await trio.sleep(0.1)
    await trio.sleep(1)


def unseen(table: Table) -> list[str]:
    return [c.name for c in table.connections.values() if c.unseen]


def watching(server: TableServer, table: Table, pages: list[Page]) -> tuple[Watches, list[WebSeat]]:
    """The web table's watches and a web seat for each page, over in-process connections
    to ``server`` (each page's own; its watch's, unseen)."""

    async def connect() -> trio.abc.Stream:
        await trio.lowlevel.checkpoint()
        return server.connect_local()

    async def listen() -> trio.abc.Stream:
        await trio.lowlevel.checkpoint()
        return server.connect_local(unseen=True)

    watches = Watches(listen, gap=WATCHING_GAP, tick=TICK)
    webs = [
        WebSeat(
            page,  # type: ignore[arg-type]
            connect,
            table_name="Web",
            table_id=table.table_id,
            code=None,
            rate=1000.0,
            watches=watches,
        )
        for page in pages
    ]
    return watches, webs


async def test_watching_pages_share_one_watch_a_language_each_seen_by_name(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Three pages watch a table of four bots through one hand: the two Spanish ones are
    drawn from one watch and the Chinese one from another, each watch an unseen listener
    that takes no spectator's place (three places, all taken by the pages); the table
    names the three pages as its watchers, none of their own clients follows the play,
    and the Spanish pages are sent the same view. When they go, so do the watches."""
    limits = Limits(max_spectators=3)
    table = Table("Web", Rules(hand_limit=1), seed=3, headless=True, limits=limits, bot_pace_ms=0)
    server = bot_table(table)

    joins = [("Ana", "es"), ("Bea", "es"), ("Cai", "zh_Hant")]
    pages = [Page({"name": name, "lang": lang, "spectator": True}) for name, lang in joins]
    watches, webs = watching(server, table, pages)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        await nursery.start(watches.run)
        for web, (_, lang) in zip(webs, joins, strict=True):
            nursery.start_soon(web._run, lang)
        await trio.sleep(1)
        assert sorted(unseen(table)) == ["web", "web"]  # one a language
        assert [view["watching"] for view in (page.view() for page in pages)] == [True] * 3
        for _ in range(4):
            table.add_bot("random")
        await server.flush()
        table.start()
        await server.flush()
        started = trio.current_time()
        await played(table)
        assert sorted(table.table_message()["watching"]) == ["Ana", "Bea", "Cai"]
        assert table.table_message()["spectators"] == 3
        for web in webs:
            assert web.runner is not None
            session = web.runner.session
            assert session.seq == 0 and session.observation is None  # the watch's to follow
            assert session.table is not None and len(session.table.players) == 4
        ana, bea, cai = (page.view() for page in pages)
        assert ana["table"] is not None and ana["table"]["results"] is not None
        assert ana == bea
        assert cai["table"]["heading"] != ana["table"]["heading"]  # in Chinese
        assert len(ana["log"]) > 10  # the hand's moves, told once for both
        watch = webs[0]._watch
        assert watch is not None and watch is webs[1]._watch
        # Drawn together, from one frame of the watch at most every watching gap, and
        # one text made for both.
        ana_at, bea_at = ([when for when in page.views_at if when >= started] for page in pages[:2])
        assert ana_at == bea_at and len(ana_at) >= 2
        assert all(later - earlier >= WATCHING_GAP - 1e-9 for earlier, later in pairwise(ana_at))
        assert watch.texts_made <= watch.frames + 3  # + the views before the pages' join
        for page in pages:
            page.says({"do": "exit"})
        await trio.sleep(1)
        assert unseen(table) == []
        nursery.cancel_scope.cancel()


async def test_a_watching_page_keeps_its_own_notice_and_closes_its_own_results(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Two pages in one language watch one hand: what one is told (a refusal of what a
    watcher cannot do) and the results it closes are its own; the other's view keeps the
    results and shows no notice. A seated page has no watch."""
    table = Table("Web", Rules(hand_limit=1), seed=5, headless=True, bot_pace_ms=0)
    server = bot_table(table)

    pages = [Page({"name": name, "lang": "en", "spectator": True}) for name in ("Ana", "Bea")]
    seated = Page({"name": "Dai", "lang": "en"})
    watches, webs = watching(server, table, [*pages, seated])
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        await nursery.start(watches.run)
        for web in webs:
            nursery.start_soon(web._run, "en")
        await trio.sleep(1)
        assert webs[2]._watch is None and webs[0]._watch is webs[1]._watch is not None
        assert seated.view()["lobby"] is not None and not seated.view()["watching"]
        seated.says({"do": "exit"})  # Dai leaves the lobby: the table is the bots'
        await trio.sleep(1)
        for _ in range(4):
            table.add_bot("random")
        await server.flush()
        table.start()
        await server.flush()
        await played(table)
        ana, bea = pages
        assert ana.view()["table"]["results"] is not None
        ana.says({"do": "ready"})
        ana.says({"do": "close_results"})
        await trio.sleep(1)
        assert ana.view()["notice"] is not None  # a watcher has no seat to be ready in
        assert ana.view()["table"]["results"] is None
        assert "close_results" not in ana.view()["can"]
        assert bea.view()["notice"] is None
        assert bea.view()["table"]["results"] is not None
        assert "close_results" in bea.view()["can"]
        nursery.cancel_scope.cancel()


async def test_watching_pages_say_the_table_closed_when_the_host_does(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The host closes: the watch is over with every connection, and each watching page
    shows the table closed from its own client (its goodbye), as a page that follows the
    play itself does."""
    table = Table("Web")
    server = bot_table(table)

    pages = [Page({"name": name, "lang": "en", "spectator": True}) for name in ("Ana", "Bea")]
    watches, webs = watching(server, table, pages)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        await nursery.start(watches.run)
        for web in webs:
            nursery.start_soon(web._run, "en")
        await trio.sleep(1)
        assert [page.view()["screen"] for page in pages] == ["table", "table"]
        await server.shutdown()
        await trio.sleep(1)
        for page in pages:
            view = page.view()
            assert view["screen"] == "problem" and view["refusal"] is not None, view
        assert unseen(table) == []
        nursery.cancel_scope.cancel()
