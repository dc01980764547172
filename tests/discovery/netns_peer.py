"""One side of the network-namespace discovery test, run inside a namespace.

netns_peer.py announce ADDRESS NAME   serve TCP on ADDRESS, announce the table there,
                                      print "ready INSTANCE PORT", say goodbye on SIGTERM
netns_peer.py watch ADDRESS INSTANCE  print "seen {listing as JSON}" once INSTANCE shows
                                      up (after connecting to it), then "gone" when it
                                      vanishes
"""

from __future__ import annotations

import json
import signal
import sys

import trio

from dalmuti_net.client.discovery import browse_tables
from dalmuti_net.host.announce import announce_table
from dalmuti_net.protocol.discovery import TableInfo

WATCH_TIMEOUT = 15


async def close_at_once(stream: trio.SocketStream) -> None:
    await stream.aclose()


async def announce(address: str, name: str) -> None:
    listeners = await trio.open_tcp_listeners(0, host=address)
    port = listeners[0].socket.getsockname()[1]
    with trio.open_signal_receiver(signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.serve_listeners, close_at_once, listeners)
            info = TableInfo(name, seats_taken=2, seats_total=5)
            async with announce_table(info, port, interfaces=[address]) as announcer:
                print("ready", announcer.instance_name, port, flush=True)
                async for _ in signals:
                    break
            nursery.cancel_scope.cancel()


async def watch(address: str, instance: str) -> None:
    seen = False
    with trio.fail_after(WATCH_TIMEOUT):
        async with browse_tables(interfaces=[address]) as browser:
            async for tables in browser:
                listing = next((t for t in tables if t.instance_name == instance), None)
                if listing is not None and not seen:
                    stream = await trio.open_tcp_stream(listing.addresses[0], listing.port)
                    await stream.aclose()
                    seen = True
                    fields = {
                        "addresses": list(listing.addresses),
                        "port": listing.port,
                        "usable": listing.usable,
                        "seats": [listing.seats_taken, listing.seats_total],
                    }
                    print("seen", json.dumps(fields), flush=True)
                elif listing is None and seen:
                    print("gone", flush=True)
                    return


def main() -> None:
    mode, address, text = sys.argv[1:4]
    trio.run(announce if mode == "announce" else watch, address, text)


if __name__ == "__main__":
    main()
