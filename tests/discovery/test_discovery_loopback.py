"""Real zeroconf on 127.0.0.1: announce, discover, update, withdraw.

Other tests (or people) on this machine may announce tables at the same time, so every
check looks only at the instance this test announced.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

import pytest
import trio
from outcome import Outcome
from zeroconf import ServiceInfo, Zeroconf

from dalmuti_net.client.discovery import TableBrowser, browse_tables, find_tables
from dalmuti_net.host.announce import announce_table
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.discovery import (
    HOST_SOFTWARE,
    SERVICE_TYPE,
    TableInfo,
    TableListing,
    TablePhase,
)

# Registration alone takes about 1.7 s (zeroconf probes for name clashes first).
STEP_TIMEOUT = 6


def unique_name() -> str:
    return f"Test table {secrets.token_hex(4)}"


async def wait_for(
    browser: TableBrowser, predicate: Callable[[list[TableListing]], bool]
) -> list[TableListing]:
    with trio.fail_after(STEP_TIMEOUT):
        async for tables in browser:
            if predicate(tables):
                return tables
    raise AssertionError("the browser stopped")  # pragma: no cover


def named(tables: list[TableListing], instance_name: str) -> TableListing | None:
    return next((t for t in tables if t.instance_name == instance_name), None)


async def test_a_table_appears_changes_and_says_goodbye_on_cancellation(
    loopback: list[str],
) -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    name = unique_name()
    async with browse_tables(interfaces=loopback) as browser:
        with trio.CancelScope() as announcing:
            info = TableInfo(name, seats_taken=1, seats_total=6, code_required=True)
            async with announce_table(
                info, port, interfaces=loopback, min_update_interval=0.2
            ) as announcer:
                instance = announcer.instance_name
                assert instance == f"{name}.{SERVICE_TYPE}"
                tables = await wait_for(browser, lambda ts: named(ts, instance) is not None)
                listing = named(tables, instance)
                assert listing is not None and listing.usable
                assert listing.name == name
                assert (listing.addresses, listing.port) == (("127.0.0.1",), port)
                assert listing.protocol_version == PROTOCOL_VERSION
                assert (listing.phase, listing.seats_taken, listing.seats_total) == (
                    TablePhase.LOBBY,
                    1,
                    6,
                )
                assert listing.code_required is True
                assert listing.software == HOST_SOFTWARE

                # The listing leads to the table's port.
                with trio.fail_after(STEP_TIMEOUT):
                    stream = await trio.open_tcp_stream(listing.addresses[0], listing.port)
                    accepted = await listeners[0].accept()
                await stream.aclose()
                await accepted.aclose()

                await announcer.update(
                    TableInfo(name, TablePhase.PLAYING, seats_taken=6, seats_total=6)
                )
                await wait_for(
                    browser,
                    lambda ts: (
                        (listing := named(ts, instance)) is not None
                        and listing.seats_taken == 6
                        and listing.phase is TablePhase.PLAYING
                    ),
                )
                announcing.cancel()
                await trio.sleep_forever()
        assert announcing.cancelled_caught
        await wait_for(browser, lambda ts: named(ts, instance) is None)
    await listeners[0].aclose()


async def test_same_names_are_made_unique_and_errors_still_say_goodbye(
    loopback: list[str],
) -> None:
    class Boom(Exception):
        pass

    name = unique_name()
    async with (
        browse_tables(interfaces=loopback) as browser,
        announce_table(TableInfo(name), 4001, interfaces=loopback) as first,
    ):
        # At once, though a responder multicasts a record at most once a second (RFC
        # 6762 section 6.2): the second table asks from a port of its own and is
        # answered by unicast (see _ask_for_tables).
        await wait_for(browser, lambda ts: named(ts, first.instance_name) is not None)
        with pytest.raises(Boom):
            async with announce_table(TableInfo(name), 4002, interfaces=loopback) as second:
                assert second.instance_name != first.instance_name
                assert second.instance_name.startswith(name)
                await wait_for(browser, lambda ts: named(ts, second.instance_name) is not None)
                raise Boom
        tables = await wait_for(browser, lambda ts: named(ts, second.instance_name) is None)
        survivor = named(tables, first.instance_name)
        assert survivor is not None and survivor.port == 4001


async def test_a_garbled_listing_is_shown_as_unusable(loopback: list[str]) -> None:
    # A foreign responder with a hostile TXT record, registered with zeroconf directly.
    instance = f"{unique_name()}.{SERVICE_TYPE}"
    hostile = ServiceInfo(
        SERVICE_TYPE,
        instance,
        port=4003,
        server="hostile.local.",
        properties={b"pv": b"\xff\xfe", b"seats": b"12/3", b"phase": b"\x1b[2J", b"name": None},
        parsed_addresses=["127.0.0.1"],
    )
    zc = await trio.to_thread.run_sync(lambda: Zeroconf(loopback, use_asyncio=False))
    try:
        async with browse_tables(interfaces=loopback) as browser:
            await trio.to_thread.run_sync(
                lambda: zc.register_service(hostile, cooperating_responders=True)
            )
            tables = await wait_for(browser, lambda ts: named(ts, instance) is not None)
    finally:
        await trio.to_thread.run_sync(zc.close)
    listing = named(tables, instance)
    assert listing is not None and not listing.usable
    assert listing.protocol_version is None and listing.phase is None
    assert listing.seats_taken is None and listing.seats_total is None
    assert listing.name == instance.removesuffix("." + SERVICE_TYPE)
    assert len(listing.issues) >= 4


def test_discovery_works_with_trio_as_a_guest_of_asyncio(loopback: list[str]) -> None:
    """The terminal client runs trio inside asyncio (prompt_toolkit); so must discovery."""
    name = unique_name()

    async def trio_main() -> tuple[str, list[TableListing]]:
        async with announce_table(TableInfo(name), 4004, interfaces=loopback) as announcer:
            # Just after registering, a responder holds back answers for a second (it has
            # just multicast them), so the browser's second query, ~1.1 s in, finds it;
            # on a busy machine (another test run announcing its own tables on this
            # loopback too) an answer can miss one window, so look again, a few times.
            for _ in range(4):
                tables = await find_tables(1.5, interfaces=loopback)
                if named(tables, announcer.instance_name) is not None:
                    break
            return announcer.instance_name, tables

    async def asyncio_main() -> tuple[str, list[TableListing]]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Outcome[tuple[str, list[TableListing]]]] = loop.create_future()
        trio.lowlevel.start_guest_run(
            trio_main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            done_callback=done.set_result,
            host_uses_signal_set_wakeup_fd=True,
        )
        outcome = await asyncio.wait_for(done, STEP_TIMEOUT * 2)
        return outcome.unwrap()

    instance, tables = asyncio.run(asyncio_main())
    listing = named(tables, instance)
    assert listing is not None and listing.usable and listing.port == 4004
