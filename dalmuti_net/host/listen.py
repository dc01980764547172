"""Accepting connections, as ``trio.serve_listeners`` does, but quiet when descriptors run
out.

When the process has no descriptor left (``EMFILE``; ``ENFILE``, ``ENOMEM``, ``ENOBUFS``
likewise), ``accept`` fails while the waiting connection stays in the kernel's queue.
trio's own loop then logs a traceback every 100 ms (186 of them in issue 38's test). This
one waits the same 100 ms and tries again, and tells the operator once, in one sentence in
their language, then once more when connections are accepted again. The host's limits
(``admission``, the web server's slots) keep the descriptors it holds well under the usual
1,024; this is for when something else took them.

Any other failure of ``accept`` (one nothing foresaw) is told once the same way, with the
error in one line (``faults.log_fault``), and the loop goes on trying: a door that fails
must not end the evening for everyone already seated, as it would if it reached the
host's top nursery.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import NoReturn

import trio

from ..faults import log_fault
from ..told import N_, Told

log = logging.getLogger(__name__)

CAPACITY_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
RETRY_S = 0.1
OUT_OF_DESCRIPTORS = N_(
    "The host cannot accept new connections for now ({reason}): it has too many open. "
    "It keeps trying; those already connected are not affected."
)
ACCEPTING_AGAIN = N_("The host accepts new connections again.")
CANNOT_ACCEPT = N_(
    "The host could not accept a connection ({error}); those already connected are not "
    "affected, and it keeps trying. Please report it."
)
"""An accept that failed in a way nothing foresaw: told once, until one succeeds."""

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
    full = failing = False
    async with listener:
        while True:
            try:
                stream = await listener.accept()
            except OSError as error:
                if error.errno not in CAPACITY_ERRNOS:
                    failing = _failed_once(error, failing)
                elif not full:
                    full = True
                    reason = errno.errorcode.get(error.errno or 0, str(error.errno))
                    log.warning(Told(OUT_OF_DESCRIPTORS, reason=reason))
                await trio.sleep(RETRY_S)
                continue
            except Exception as error:
                # A door that fails is the door's problem: the table goes on for everyone
                # seated (an error here would otherwise reach the host's top nursery).
                failing = _failed_once(error, failing)
                await trio.sleep(RETRY_S)
                continue
            if full or failing:
                full = failing = False
                log.warning(Told(ACCEPTING_AGAIN))
            nursery.start_soon(_run, handler, stream)


def _failed_once(error: BaseException, failing: bool) -> bool:
    """Tell an accept that failed (once until one succeeds); True: failing now."""
    if not failing:
        log_fault(log, CANNOT_ACCEPT, error)
    return True


async def _run(handler: Handler, stream: trio.SocketStream) -> None:
    try:
        await handler(stream)
    finally:
        await trio.aclose_forcefully(stream)
