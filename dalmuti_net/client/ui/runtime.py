"""prompt_toolkit on asyncio, with trio as its guest (``trio.lowlevel.start_guest_run``).

Both run on one thread: trio's tasks (the connection, discovery, and for `dalmuti host`
the server itself) update ``ClientUi`` and ask for a redraw; key presses on the asyncio
side hand their effects to trio through the run's ``TrioToken``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import trio
from outcome import Outcome
from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from ...faults import MESSAGE_FAILED, log_fault
from ...lang.text import tidy
from ...protocol.discovery import TableListing
from ...protocol.messages import Message
from ...told import told_record
from ..discovery import showing_tables
from ..runner import QUIT_PATIENCE, CannotConnect, ClientRunner, Connector
from ..session import ClientSession
from ..status import Status
from .alerts import Alert, TurnAlerts
from .app import build_application
from .state import BackToList, ClientUi, Effect, Join, Quit, Rejoin, Send, Wake

NextStep = BackToList | Rejoin

log = logging.getLogger(__name__)


class TerminalClient:
    """One terminal table: the application, and the trio tasks that feed it."""

    def __init__(
        self, ui: ClientUi, *, input: Input | None = None, output: Output | None = None
    ) -> None:
        self.ui = ui
        self.alerts = TurnAlerts(ui.t)
        """The bell and the window title on your turn (``--no-bell``, ``--no-title``)."""
        self.app: Application[None] = build_application(
            ui, self.carry_out, input=input, output=output
        )
        self._token: trio.lowlevel.TrioToken | None = None
        self._next_step: NextStep | None = None
        self._requests_in, self._requests = trio.open_memory_channel[Effect](math.inf)
        self.runner: ClientRunner | None = None
        self.on_join: Callable[[Join], None] | None = None
        """Called when the player has picked a table and a name (to remember the name)."""
        self.before_exit: Callable[[Quit], Awaitable[None]] | None = None
        """Run on the trio side before the application exits (the host player's terminal
        says goodbye to everyone with it)."""
        self.detached = False
        """Set (by ``before_exit``) when the trio run outlives the screen: the host goes on
        serving after its player left the table, until a signal (``next_signal``)."""
        self._signals_in, self._signals = trio.open_memory_channel[int](math.inf)
        self._screen_closed: trio.Event | None = None

    # ------------------------------------------------------------------ both sides

    def carry_out(self, effects: list[Effect]) -> None:
        """Effects of a key press (asyncio side) or of a message (trio side)."""
        for effect in effects:
            if isinstance(effect, Quit) and (self.runner is None or self._token is None):
                self.exit()
            elif self._token is not None:
                # At a table, quitting waits in line behind what is being sent (a `leave`).
                self._token.run_sync_soon(self._requests_in.send_nowait, effect)
        self.refresh()

    def refresh(self) -> None:
        self._alert()
        self.app.invalidate()

    def _alert(self) -> None:
        ui = self.ui
        table = ui.model.table
        alert = self.alerts.update(
            ui.model.choosing is not None, "" if table is None else table.name
        )
        if ui.model.nudged:  # the host player's nudge rings once more
            ui.model.nudged = False
            if self.alerts.bell:
                alert = Alert(bell=True, title=None if alert is None else alert.title)
        if alert is None or not self.app.is_running:
            return
        output = self.app.output
        if alert.title is not None:
            output.set_title(alert.title)
        if alert.bell:
            output.bell()
        output.flush()

    def exit(self) -> None:
        future = self.app.future
        if self.app.is_running and future is not None and not future.done():
            self.app.exit()

    # ------------------------------------------------------------------ trio side

    def attach(self) -> None:
        """Call first thing in the trio run."""
        self._token = trio.lowlevel.current_trio_token()
        self._screen_closed = trio.Event()

    async def screen_closed(self) -> None:
        """Once the application has ended and the terminal is the console again."""
        assert self._screen_closed is not None, "attach() first"
        await self._screen_closed.wait()

    async def next_signal(self) -> signal.Signals:
        """After detaching: the next SIGINT (Ctrl-C), SIGTERM or SIGHUP."""
        return signal.Signals(await self._signals.receive())

    async def play(self, session: ClientSession, connect: Connector) -> NextStep | None:
        """Keep ``session`` connected and on screen until the application ends, or until
        the player picks what to do next on a refusal screen (which is returned)."""
        ui = self.ui

        async def on_message(message: Message) -> None:
            try:
                effects = ui.on_message(message)
            except Exception as error:
                # One message this screen cannot show never ends the program: when it
                # runs the host too, that would end the table for everyone.
                log_fault(log, MESSAGE_FAILED, error)
                effects = []
            self.refresh()
            for effect in effects:
                if isinstance(effect, Send):
                    await runner.send(effect.message)
                elif isinstance(effect, Wake):
                    self._requests_in.send_nowait(effect)

        def on_status(status: Status) -> None:
            ui.on_status(status)
            self.refresh()

        runner = ClientRunner(session, connect, on_message=on_message, on_status=on_status)
        self.runner = runner
        self._next_step = None
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._send_requests, runner, nursery)
                try:
                    await runner.run()
                except CannotConnect as error:
                    ui.model.cannot_connect(str(error), error.kind)
                    self.refresh()
                await trio.sleep_forever()  # the screen says what happened until a key says
        finally:
            self.runner = None
        return self._next_step

    async def quit(self, quit: Quit) -> None:
        """Quit from the trio side: what must be said first is said, then the app exits."""
        if self.before_exit is not None:
            with trio.move_on_after(QUIT_PATIENCE):
                await self.before_exit(quit)
        self.exit()

    async def _send_requests(self, runner: ClientRunner, nursery: trio.Nursery) -> None:
        async for effect in self._requests:
            if isinstance(effect, Quit):
                await self.quit(effect)
            elif isinstance(effect, BackToList | Rejoin):
                self._next_step = effect
                runner.stop()
                nursery.cancel_scope.cancel()
                return
            elif isinstance(effect, Wake):
                nursery.start_soon(self._wake, effect)
            elif isinstance(effect, Send) and not await runner.send(effect.message):
                self.ui.model.say(self.ui.t._("Not connected: that was not sent."), "error")
                self.refresh()

    async def _wake(self, wake: Wake) -> None:
        await trio.sleep(wake.after_s)
        self.carry_out(self.ui.wake())

    async def find_table(self, interfaces: Sequence[str] | None) -> Join:
        """Show the tables on the LAN until the player picks one (and gives a name)."""
        ui = self.ui

        def show(listings: list[TableListing]) -> None:
            ui.set_listings(listings)
            self.refresh()

        def slow() -> None:
            ui.model.note_discovery_slow()
            self.refresh()

        async with showing_tables(show, slow, interfaces=interfaces):
            async for effect in self._requests:
                if isinstance(effect, Join):
                    return effect
        raise AssertionError("the request channel never closes")  # pragma: no cover


class _LogToScreen(logging.Handler):
    """While the screen is ours, warnings go to the table's log, not over the drawing."""

    def __init__(self, client: TerminalClient) -> None:
        super().__init__(logging.WARNING)
        self.client = client

    def emit(self, record: logging.LogRecord) -> None:
        message = told_record(record, self.client.ui.t._)  # a Told in the player's language
        if self.client.detached:  # no screen any more: the console
            print(tidy(message), file=sys.stderr, flush=True)
            return
        self.client.ui.model.add_log("error", message)
        self.client.refresh()


def run_with_trio(client: TerminalClient, trio_main: Callable[[], Awaitable[None]]) -> None:
    """Run the application with ``trio_main`` as trio's guest; return when the player quits
    (``trio_main`` is then cancelled) or when ``trio_main`` returns or fails."""
    logger = logging.getLogger("dalmuti_net")
    handler = _LogToScreen(client)
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        asyncio.run(_host_loop(client, trio_main))
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


async def _host_loop(client: TerminalClient, trio_main: Callable[[], Awaitable[None]]) -> None:
    loop = asyncio.get_running_loop()
    finished: asyncio.Future[Outcome[Any]] = loop.create_future()
    scope_box: list[trio.CancelScope] = []

    async def trio_root() -> None:
        client.attach()
        with trio.CancelScope() as scope:
            scope_box.append(scope)
            await trio_main()
        client.exit()

    def done(outcome: Outcome[Any]) -> None:
        if not finished.done():
            finished.set_result(outcome)
        client.exit()

    trio.lowlevel.start_guest_run(
        trio_root,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        run_sync_soon_not_threadsafe=loop.call_soon,
        done_callback=done,
        host_uses_signal_set_wakeup_fd=True,
    )
    # SIGTERM or a closed terminal quits as `q` would, after what must be said is said.
    stop_signals = [signal.SIGTERM, signal.SIGHUP]

    def stop() -> None:
        client.carry_out([Quit()])

    for signum in stop_signals:
        loop.add_signal_handler(signum, stop)
    try:
        if not finished.done():
            await client.app.run_async()
    finally:
        if client.alerts.title:
            client.app.output.clear_title()
            client.app.output.flush()
        for signum in stop_signals:
            loop.remove_signal_handler(signum)
        token = client._token
        if not finished.done() and token is not None:
            if client.detached:
                await _serve_detached(client, token, finished)
            else:
                token.run_sync_soon(lambda: [scope.cancel() for scope in scope_box])
        outcome = await finished
    outcome.unwrap()


async def _serve_detached(
    client: TerminalClient, token: trio.lowlevel.TrioToken, finished: asyncio.Future[Any]
) -> None:
    """The screen is closed but the trio run goes on (the host serves its table): the
    signals that stop it are handed to trio (``next_signal``) until the run ends."""
    loop = asyncio.get_running_loop()
    signals = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]

    def hand_over(signum: int) -> None:
        token.run_sync_soon(client._signals_in.send_nowait, signum)

    for signum in signals:
        loop.add_signal_handler(signum, hand_over, signum)
    closed = client._screen_closed
    if closed is not None:
        token.run_sync_soon(closed.set)
    try:
        await asyncio.shield(finished)
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)
