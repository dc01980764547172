"""The announcer's rate limit and the browser's bookkeeping, without any network."""

from __future__ import annotations

import asyncio
import errno
import logging
import threading
from typing import Any

import pytest
import trio
import trio.testing
from zeroconf import ServiceInfo, ServiceStateChange

from dalmuti_net.client.discovery import MAX_KNOWN_NAMES, TableBrowser
from dalmuti_net.host.announce import (
    TableAnnouncer,
    _say_goodbye_and_close,
    advertised_addresses,
    announce_table,
)
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol.discovery import SERVICE_TYPE, TableInfo, encode_txt
from dalmuti_net.told import told_record


async def test_a_burst_of_updates_becomes_few_announcements(
    autojump_clock: trio.testing.MockClock,
) -> None:
    published: list[tuple[float, TableInfo]] = []

    async def publish(info: TableInfo) -> None:
        published.append((trio.current_time(), info))
        await trio.sleep(0.45)  # zeroconf's update repeats the announcement for this long

    first = TableInfo("t", seats_taken=0)
    announcer = TableAnnouncer(first, publish, instance_name="t." + SERVICE_TYPE, min_interval=1)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(announcer.publish_changes)
        announcer.mark_published_now()
        for taken in range(1, 8):
            await announcer.update(TableInfo("t", seats_taken=taken))
            await trio.sleep(0.3)
        await trio.sleep(5)
        assert announcer.published == TableInfo("t", seats_taken=7)
        await announcer.update(TableInfo("t", seats_taken=7))  # no change: nothing to send
        await trio.sleep(5)
        nursery.cancel_scope.cancel()

    times = [at for at, _ in published]
    assert [info.seats_taken for _, info in published] == [4, 7]
    assert times[0] >= 1 and times[1] - times[0] >= 1


async def test_a_failed_announcement_is_retried(autojump_clock: trio.testing.MockClock) -> None:
    attempts: list[TableInfo] = []

    async def flaky_publish(info: TableInfo) -> None:
        attempts.append(info)
        if len(attempts) == 1:
            raise OSError("network unreachable")

    announcer = TableAnnouncer(TableInfo("t"), flaky_publish, instance_name="t", min_interval=1)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(announcer.publish_changes)
        await announcer.update(TableInfo("t", seats_taken=1))
        await trio.sleep(3)
        nursery.cancel_scope.cancel()
    assert attempts == [TableInfo("t", seats_taken=1)] * 2
    assert announcer.published == TableInfo("t", seats_taken=1)


async def test_an_announcement_that_keeps_failing_is_told_once_then_once_fixed(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    attempts: list[TableInfo] = []

    async def flaky_publish(info: TableInfo) -> None:
        attempts.append(info)
        if len(attempts) <= 5:
            raise OSError(errno.ENETUNREACH, "Network is unreachable")

    announcer = TableAnnouncer(TableInfo("t"), flaky_publish, instance_name="t", min_interval=1)
    with caplog.at_level(logging.WARNING, logger="dalmuti_net"):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(announcer.publish_changes)
            await announcer.update(TableInfo("t", seats_taken=1))
            await trio.sleep(10)
            nursery.cancel_scope.cancel()
    assert len(attempts) == 6
    said = [told_record(record, Translator("es")._) for record in caplog.records]
    assert said == [
        "No se pudo actualizar el anuncio de la mesa en la red local (Network is unreachable); "
        "quienes buscan mesas pueden verla desactualizada hasta que vuelva a funcionar.",
        "El anuncio de la mesa en la red local vuelve a estar al día.",
    ]
    assert told_record(caplog.records[1], Translator("zh_Hant")._) == (
        "牌桌在區域網路上的公告已恢復為最新。"
    )


def test_a_goodbye_that_cannot_be_sent_is_told_with_how_long_the_listing_lasts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Unreachable:
        """Its goodbye, in its own loop and thread as zeroconf's, fails."""

        closed = False

        def __init__(self) -> None:
            self.loop = asyncio.new_event_loop()
            self.thread = threading.Thread(target=self.loop.run_forever)
            self.thread.start()

        def generate_unregister_all_services(self) -> None:
            raise OSError(errno.ENETUNREACH, "Network is unreachable")

        def close(self) -> None:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join()
            self.loop.close()
            self.closed = True

    zc = Unreachable()
    with caplog.at_level(logging.WARNING, logger="dalmuti_net"):
        _say_goodbye_and_close(zc)  # type: ignore[arg-type]
    assert zc.closed
    [record] = caplog.records
    assert told_record(record, Translator("zh_Hant")._) == (
        "無法通知區域網路這桌已經關閉（Network is unreachable）；其他電腦最多還會列出這桌 120 秒。"
    )


async def test_a_port_outside_the_tcp_range_is_refused() -> None:
    with pytest.raises(ValueError):
        async with announce_table(TableInfo("t"), 0, interfaces=["127.0.0.1"]):
            pass  # pragma: no cover


def test_advertised_addresses_are_the_chosen_interfaces() -> None:
    assert advertised_addresses(["127.0.0.1"]) == ["127.0.0.1"]
    with pytest.raises(ValueError):
        advertised_addresses(["eth0"])
    with pytest.raises(ValueError):
        advertised_addresses([])
    with pytest.raises(ValueError):
        advertised_addresses(["0.0.0.0"])
    every = advertised_addresses(None)
    assert every and (every == ["127.0.0.1"] or "127.0.0.1" not in every)


class FakeZeroconf:
    """Answers get_service_info from a dict; a name in ``held`` blocks until released."""

    def __init__(self) -> None:
        self.infos: dict[str, ServiceInfo | None] = {}
        self.held: dict[str, threading.Event] = {}

    def get_service_info(self, type_: str, name: str, **_: Any) -> ServiceInfo | None:
        if name in self.held:
            self.held[name].wait(5)
        return self.infos.get(name)


def service(label: str, seats_taken: int = 0) -> ServiceInfo:
    return ServiceInfo(
        SERVICE_TYPE,
        f"{label}.{SERVICE_TYPE}",
        port=4242,
        server="h.local.",
        properties=encode_txt(TableInfo(label, seats_taken=seats_taken)),
        parsed_addresses=["127.0.0.1"],
    )


async def browse(zc: FakeZeroconf, nursery: trio.Nursery) -> TableBrowser:
    browser = TableBrowser(zc, trio.lowlevel.current_trio_token())  # type: ignore[arg-type]
    for _ in range(2):
        nursery.start_soon(browser.resolve_pending)
    return browser


async def settle() -> None:
    # Long enough for queued work to hop through a worker thread and back.
    for _ in range(20):
        await trio.sleep(0.01)


async def test_changes_from_zeroconfs_thread_reach_the_listing() -> None:
    zc = FakeZeroconf()
    zc.infos["a." + SERVICE_TYPE] = service("a")
    async with trio.open_nursery() as nursery:
        browser = await browse(zc, nursery)
        await trio.to_thread.run_sync(
            browser.on_service_state_change,
            zc,
            SERVICE_TYPE,
            "a." + SERVICE_TYPE,
            ServiceStateChange.Added,
        )
        with trio.fail_after(2):
            async for tables in browser:
                if tables:
                    break
        assert [t.name for t in tables] == ["a"]
        nursery.cancel_scope.cancel()


async def test_a_removal_during_a_slow_resolution_wins() -> None:
    zc = FakeZeroconf()
    name = "slow." + SERVICE_TYPE
    zc.infos[name] = service("slow")
    zc.held[name] = threading.Event()
    async with trio.open_nursery() as nursery:
        browser = await browse(zc, nursery)
        browser.note_change(name, removed=False)
        await settle()
        browser.note_change(name, removed=True)
        await settle()
        zc.held[name].set()
        await settle()
        assert browser.snapshot() == []
        nursery.cancel_scope.cancel()


async def test_updates_replace_and_unresolvable_names_are_skipped() -> None:
    zc = FakeZeroconf()
    name = "a." + SERVICE_TYPE
    zc.infos[name] = service("a", seats_taken=1)
    zc.infos["ghost." + SERVICE_TYPE] = None
    async with trio.open_nursery() as nursery:
        browser = await browse(zc, nursery)
        browser.note_change(name, removed=False)
        browser.note_change("ghost." + SERVICE_TYPE, removed=False)
        await settle()
        zc.infos[name] = service("a", seats_taken=2)
        browser.note_change(name, removed=False)
        await settle()
        assert [(t.name, t.seats_taken) for t in browser.snapshot()] == [("a", 2)]
        nursery.cancel_scope.cancel()


async def test_a_flood_of_names_is_capped() -> None:
    zc = FakeZeroconf()
    async with trio.open_nursery() as nursery:
        browser = await browse(zc, nursery)
        for number in range(MAX_KNOWN_NAMES + 50):
            name = f"t{number}.{SERVICE_TYPE}"
            zc.infos[name] = service(f"t{number}")
            browser.note_change(name, removed=False)
        with trio.fail_after(10):
            while len(browser.snapshot()) < MAX_KNOWN_NAMES:
                await trio.sleep(0.01)
        await settle()
        assert len(browser.snapshot()) == MAX_KNOWN_NAMES
        nursery.cancel_scope.cancel()
