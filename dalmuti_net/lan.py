"""zeroconf as this project uses it, for the host's announcement and the client's browser."""

from __future__ import annotations

from collections.abc import Sequence

from zeroconf import InterfaceChoice, IPVersion, Zeroconf


def open_zeroconf(interfaces: Sequence[str] | None) -> Zeroconf:
    """A zeroconf instance on its own thread and loop (``use_asyncio=False``: the client
    runs trio as a guest of asyncio, and zeroconf's blocking calls must never run on that
    loop), IPv4 on every interface, or only on the given addresses."""
    if interfaces is None:
        return Zeroconf(InterfaceChoice.All, ip_version=IPVersion.V4Only, use_asyncio=False)
    return Zeroconf(list(interfaces), use_asyncio=False)
