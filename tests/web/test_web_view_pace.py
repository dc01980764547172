"""How often a page is sent its view: at once after a quiet spell, then at most one every
gap while the table keeps changing, the latest state always arriving (issue 43). On
trio's fake clock: the times are the scheduler's, never the machine's."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import trio
import trio.testing

from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, encode
from dalmuti_net.web.seat import VIEW_GAP, WATCHING_GAP, WebSeat


async def no_bots(stream: trio.abc.Stream, bot: StartBot) -> None:
    await trio.sleep_forever()


class Page:
    """The page's side of the WebSocket: says ``join`` once, keeps what it is sent."""

    def __init__(self, join: dict[str, Any]) -> None:
        self.join: str | None = json.dumps({"join": join})
        self.sent: list[tuple[float, dict[str, Any]]] = []

    async def get_message(self) -> str:
        if self.join is None:
            await trio.sleep_forever()
        join, self.join = self.join, None
        assert join is not None
        return join

    async def send_message(self, text: str) -> None:
        self.sent.append((trio.current_time(), json.loads(text)))

    def views(self) -> list[tuple[float, str]]:
        return [(when, json.dumps(told["view"])) for when, told in self.sent if "view" in told]


def seat_for(page: Page, connect: Any) -> WebSeat:
    return WebSeat(
        page,  # type: ignore[arg-type]
        connect,
        table_name="Web",
        table_id="t1",
        code=None,
        rate=1000.0,
    )


async def test_a_burst_is_drawn_at_the_gaps_pace_and_its_last_state_always_arrives(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A change every 2 ms for a second: the first is drawn at once, then at most one view
    every gap, each change on the page within the gap, and the last one drawn after the
    burst ends. A change after a quiet spell is drawn at once again."""
    state = [0]
    drawn: list[tuple[float, int]] = []
    web = seat_for(Page({}), None)

    async def draw() -> None:
        drawn.append((trio.current_time(), state[0]))

    web._draw = draw  # type: ignore[method-assign]
    changes: list[tuple[float, int]] = []

    def change() -> None:
        state[0] += 1
        changes.append((trio.current_time(), state[0]))
        web._changed.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(web._views)
        start = trio.current_time()
        for _ in range(500):
            change()
            await trio.sleep(0.002)
        await trio.sleep(5)
        quiet = trio.current_time()
        change()
        await trio.sleep(1)
        nursery.cancel_scope.cancel()

    assert drawn[0] == (start, 1)  # at once after the quiet before
    assert drawn[-1] == (quiet, 501)  # at once after the quiet after
    assert drawn[-2][1] == 500  # the burst's last state arrived
    burst = [moment for moment, _ in drawn if moment < quiet]
    assert len(burst) <= 1.0 / VIEW_GAP + 2
    assert all(later - earlier >= VIEW_GAP - 1e-9 for earlier, later in pairwise(burst))
    for moment, number in changes:  # a decision owed is one of these changes
        shown = next(when for when, seen in drawn if seen >= number)
        assert shown - moment <= VIEW_GAP + 1e-9


async def test_a_watcher_at_a_busy_table_gets_few_views_and_the_last_chat_line(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Two pages watch a real table while someone chats 30 lines 10 ms apart: each page's
    views come at most one every watching gap, and each shows the last line once the
    burst ends."""
    table = Table("Web")
    server = TableServer(table, run_bot=no_bots, between_hands=0)
    pages = [Page({"name": f"Watcher {n}", "lang": "en", "spectator": True}) for n in (1, 2)]

    async def connect() -> trio.abc.Stream:
        return server.connect_local()

    webs = [seat_for(page, connect) for page in pages]
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        for web in webs:
            nursery.start_soon(web._run, "en")
        chatter = server.connect_local()
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "role": "player", "name": "Chatty"}
        await chatter.send_all(encode(hello))

        async def drain() -> None:
            while await chatter.receive_some():
                pass

        nursery.start_soon(drain)
        await trio.sleep(2)
        rendered = [web.views_rendered for web in webs]
        start = trio.current_time()
        for n in range(30):
            await chatter.send_all(encode({"type": "chat", "text": f"line {n}"}))
            await trio.sleep(0.01)
        await trio.sleep(2)
        nursery.cancel_scope.cancel()

    for page, web, before in zip(pages, webs, rendered, strict=True):
        during = [when for when, _ in page.views() if when >= start]
        assert all(b - a >= WATCHING_GAP - 1e-9 for a, b in pairwise(during))
        assert web.views_rendered - before <= 0.3 / WATCHING_GAP + 2  # not one a line
        assert "line 29" in page.views()[-1][1]


async def test_what_the_page_does_is_drawn_at_once_even_within_the_gap(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A tap is answered at once, however busy the table: the gap holds back only the
    table's own changes."""
    drawn: list[float] = []
    web = seat_for(Page({}), None)

    async def draw() -> None:
        drawn.append(trio.current_time())

    web._draw = draw  # type: ignore[method-assign]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(web._views)
        web._changed.set()
        await trio.sleep(0.01)
        tapped = trio.current_time()
        web._answer = True  # as _choices marks a page's message
        web._changed.set()
        await trio.sleep(0.01)
        table = trio.current_time()
        web._changed.set()
        await trio.sleep(1)
        nursery.cancel_scope.cancel()
    assert drawn[1] == tapped
    assert drawn[2] == tapped + VIEW_GAP
    assert table < drawn[2]


class Seated:
    """What the pace reads of a seated page's client model: its session, the decision
    being chosen, its countdowns."""

    def __init__(self) -> None:
        self.session = type("Session", (), {"spectator": False})()
        self.choosing: object | None = None
        self.countdowns = type("Countdowns", (), {"running": False})()


async def test_a_seat_that_owes_nothing_follows_at_the_watching_gap_and_a_decision_at_once(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """At a busy table (a change every 10 ms), a seat that owes nothing is drawn as a
    watcher is, at most one view every watching gap; a decision it newly owes is drawn the
    moment it arrives, gap or not; while it chooses, the table's changes come every
    view gap."""
    drawn: list[float] = []
    web = seat_for(Page({}), None)
    model = Seated()
    web.model = model  # type: ignore[assignment]

    async def draw() -> None:
        drawn.append(trio.current_time())

    web._draw = draw  # type: ignore[method-assign]

    async def busy(seconds: float) -> list[float]:
        start = trio.current_time()
        while trio.current_time() - start < seconds:
            web._change()
            await trio.sleep(0.01)
        return [when for when in drawn if when >= start]

    async with trio.open_nursery() as nursery:
        nursery.start_soon(web._views)
        following = await busy(1.0)
        model.choosing = object()  # a decision arrives, 10 ms after a view at most
        owed = trio.current_time()
        web._change()
        choosing = await busy(1.0)
        nursery.cancel_scope.cancel()

    assert all(b - a >= WATCHING_GAP - 1e-9 for a, b in pairwise(following))
    assert len(following) <= 1.0 / WATCHING_GAP + 1
    assert choosing[0] == owed  # at once, however recent the view before
    assert all(b - a >= VIEW_GAP - 1e-9 for a, b in pairwise(choosing))
    assert len(choosing) >= 1.0 / VIEW_GAP - 1  # the table's changes, every view gap
