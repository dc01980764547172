"""Accepting connections, as ``trio.serve_listeners`` does, but quiet when descriptors run
out.

When the process has no descriptor left (``EMFILE``; ``ENFILE``, ``ENOMEM``, ``ENOBUFS``
likewise), ``accept`` fails while the waiting connection stays in the kernel's queue.
trio's own loop then logs a traceback every 100 ms (186 of them in issue 38's test). This
one waits the same 100 ms and tries again, and tells the operator once, in one sentence in
their language, then once more when connections are accepted again. The host's limits
(``admission``, the web server's slots) keep the descriptors it holds well under the usual
1,024; this is for when something else took them.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import NoReturn

import trio

from ..told import N_, Told

log = logging.getLogger(__name__)

CAPACITY_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
RETRY_S = 0.1
OUT_OF_DESCRIPTORS = N_(
    "The host cannot accept new connections for now ({reason}): it has too many open. "
    "It keeps trying; those already connected are not affected."
)
ACCEPTING_AGAIN = N_("The host accepts new connections again.")

Handler = Callable[[trio.SocketStream], Awaitable[object]]


async def serve_listeners(
    handler: Handler, listeners: Sequence[trio.abc.Listener[trio.SocketStream]]
) -> NoReturn:
    """Run ``handler`` for each connection accepted on ``listeners``, each in its own task;
    every stream is closed when its handler returns."""
    async with trio.open_nursery() as nursery:
        for listener in listeners:
            nursery.start_soon(_accept_forever, listener, handler, nursery)
    raise AssertionError("the accept loops never end")  # pragma: no cover


async def _accept_forever(
    listener: trio.abc.Listener[trio.SocketStream], handler: Handler, nursery: trio.Nursery
) -> NoReturn:
    full = False
    async with listener:
        while True:
            try:
                stream = await listener.accept()
            except OSError as error:
                if error.errno not in CAPACITY_ERRNOS:
                    raise
                if not full:
                    full = True
                    reason = errno.errorcode.get(error.errno or 0, str(error.errno))
                    log.warning(Told(OUT_OF_DESCRIPTORS, reason=reason))
                await trio.sleep(RETRY_S)
                continue
            if full:
                full = False
                log.warning(Told(ACCEPTING_AGAIN))
            nursery.start_soon(_run, handler, stream)


async def _run(handler: Handler, stream: trio.SocketStream) -> None:
    try:
        await handler(stream)
    finally:
        await trio.aclose_forcefully(stream)
