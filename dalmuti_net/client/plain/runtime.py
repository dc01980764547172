"""The plain table's trio shell: lines from standard input, lines to standard output.

Standard input is read a line at a time in a worker thread (``trio.to_thread``), so it
works the same from a terminal, a pipe or a screen reader's console; nothing is ever
drawn, moved or coloured. ``PlainTable`` decides every line; this module only carries
them, runs the connection (``ClientRunner``: heartbeats, reconnecting with the seat's
token) and the turn timer's warnings.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, TextIO

import trio

from ...protocol.messages import Message
from ..model.client_model import BackToList, Effect, Join, Quit, Rejoin, Send, Wake
from ..recorder import Recorder, RecordingSession
from ..runner import QUIT_PATIENCE, CannotConnect, ClientRunner, Connector
from ..seats import SeatStore
from ..session import TABLE_UI_SOFTWARE, ClientSession
from ..status import Status
from .narrator import TIMER_WARNINGS, PlainTable, warns_at

if TYPE_CHECKING:
    from ...protocol.discovery import TableListing

PLAIN_SOFTWARE = f"{TABLE_UI_SOFTWARE} plain"
"""The hello's software, for the host's logs (the host paces its bots for whoever plays a
seat, whatever program they use)."""


class PlainClient:
    """One plain-text table: lines in, lines out, the connection in between."""

    def __init__(
        self,
        table: PlainTable,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        self.table = table
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self._lines_in, self._lines = trio.open_memory_channel[str | None](math.inf)
        self.runner: ClientRunner | None = None
        self.seats: SeatStore | None = None
        """Where the resume tokens of a table found on the LAN are remembered."""
        self._scope = trio.CancelScope()
        self._nursery: trio.Nursery | None = None
        self._serial_timed = 0
        self.before_exit: Callable[[Quit], Awaitable[None]] | None = None
        """Run before quitting (the host player's terminal says goodbye to everyone)."""
        self.recorder: Recorder | None = None
        """Where ``dalmuti join --record`` keeps what every session is sent."""

    # ------------------------------------------------------------------ output

    def flush(self) -> None:
        """Print what the table has to say, and start the timer of a new question."""
        lines = self.table.lines()
        for line in lines:
            self.stdout.write(line + "\n")
        if lines:
            self.stdout.flush()
        table = self.table
        if (
            self._nursery is not None
            and table.question_serial != self._serial_timed
            and table.deadline_ms
        ):
            self._serial_timed = table.question_serial
            self._nursery.start_soon(self._warn, table.question_serial, table.deadline_ms)

    def print_line(self, line: str) -> None:
        """A line from elsewhere (the host's own messages, for the host player)."""
        self.table.say(line)
        self.flush()

    async def _warn(self, serial: int, deadline_ms: int) -> None:
        end = trio.current_time() + deadline_ms / 1000
        for seconds in TIMER_WARNINGS:
            if warns_at(deadline_ms, seconds):
                await trio.sleep_until(end - seconds)
                self.table.timer_warning(serial, seconds)
                self.flush()

    # ------------------------------------------------------------------ input

    async def _read_stdin(self) -> None:
        while True:
            line = await trio.to_thread.run_sync(self.stdin.readline, abandon_on_cancel=True)
            if not line:
                await self._lines_in.send(None)
                return
            await self._lines_in.send(line.rstrip("\r\n"))

    async def _next_line(self) -> str | None:
        return await self._lines.receive()

    # ------------------------------------------------------------------ running

    async def run(
        self,
        session: ClientSession | None,
        connect: Connector | None,
        *,
        interfaces: Sequence[str] | None = None,
        spectator: bool = False,
        on_join: Callable[[Join], None] | None = None,
    ) -> int:
        """Play until the player quits or standard input ends. Without a session, find a
        table on the LAN first (browsing on ``interfaces``); a refusal's answer may connect
        again (to watch, with a code typed again) or go back to the list of tables."""
        table = self.table
        with self._scope:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self._read_stdin)
                while True:
                    if session is None or connect is None:
                        join = await self._find_table(interfaces)
                        if join is None:
                            break
                        if on_join is not None:
                            on_join(join)
                        session = self.new_session(join.name, spectator, join.code)
                        connect = _tcp(join.host, join.port)
                        table.connecting(session, table.model.address)
                        self.flush()
                    status, step = await self._play(session, connect)
                    if isinstance(step, Rejoin):
                        token = None if step.spectator else session.token
                        session = self.new_session(session.name, step.spectator, step.code, token)
                        table.connecting(session, table.model.address)
                        self.flush()
                    elif isinstance(step, BackToList):
                        table.back_to_list()
                        session = connect = None
                    else:
                        nursery.cancel_scope.cancel()
                        return status
                nursery.cancel_scope.cancel()
        return 0

    def new_session(
        self, name: str, spectator: bool, code: str | None, token: str | None = None
    ) -> ClientSession:
        session = RecordingSession(
            name,
            spectator=spectator,
            token=token,
            code=code,
            seats=self.seats,
            software=PLAIN_SOFTWARE,
            person=True,
        )
        session.recorder = self.recorder
        return session

    async def _find_table(self, interfaces: Sequence[str] | None) -> Join | None:
        from ..discovery import showing_tables

        table = self.table
        table.model.seats = self.seats  # a listing claiming a seat's table id is said as such
        table.looking()
        self.flush()

        def show(listings: list[TableListing]) -> None:
            table.set_listings(listings)
            self.flush()

        def slow() -> None:
            table.looking_slow()
            self.flush()

        async with showing_tables(show, slow, interfaces=interfaces):
            while True:
                line = await self._next_line()
                if line is None:
                    return None
                effects = table.on_line(line)
                self.flush()
                for effect in effects:
                    if isinstance(effect, Quit):
                        return None
                    if isinstance(effect, Join):
                        return effect
        return None  # pragma: no cover

    async def _play(
        self, session: ClientSession, connect: Connector
    ) -> tuple[int, BackToList | Rejoin | None]:
        """One session at the table: its exit status, and what the player chose to do
        next on a refusal (None: quit)."""
        table = self.table
        seated = trio.Event()
        """Set once the table is shown (or the connection is over): lines typed before
        (a script does not wait) are taken in then, not refused as unsent."""
        done = trio.Event()
        quit_connecting = trio.Event()
        chosen: list[BackToList | Rejoin] = []

        async def on_message(message: Message) -> None:
            effects = table.on_message(message)
            self.flush()
            if table.model.snapshots:  # the table is there: what is typed now goes to it
                seated.set()
            await self._carry_out(effects, runner)

        def on_status(status: Status) -> None:
            table.on_status(status)
            self.flush()
            if status is Status.CLOSED:
                seated.set()

        runner = ClientRunner(session, connect, on_message=on_message, on_status=on_status)
        self.runner = runner

        async def connection() -> None:
            try:
                await runner.run()
            except CannotConnect as error:
                table.cannot_connect(str(error), error.kind)
                self.flush()
            seated.set()
            if table.model.refusal is None:
                done.set()  # nothing left to choose: the session is simply over

        async def typing() -> None:
            held = await self._lines_while_connecting(seated)
            if held and held[-1] is not None and table.is_quit(held[-1]):
                # Quit while connecting (a host that never lets us in): at once.
                effects = table.on_line(held[-1])
                self.flush()
                await self._carry_out(effects, runner)
                quit_connecting.set()  # the player's choice, not a failure: status 0
                done.set()
                return
            while True:
                line = held.pop(0) if held else await self._next_line()
                if line is None:
                    table.end_of_input()
                    self.flush()
                    break
                effects = table.on_line(line)
                self.flush()
                step = next((e for e in effects if isinstance(e, BackToList | Rejoin)), None)
                if step is not None:
                    chosen.append(step)
                    runner.stop()
                    break
                if await self._carry_out(effects, runner):
                    break
            done.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(connection)
            nursery.start_soon(typing)
            await done.wait()
            nursery.cancel_scope.cancel()
        self.runner = None
        if chosen:
            return 0, chosen[0]
        if quit_connecting.is_set():
            return 0, None
        # The exit statuses of `dalmuti join` (commands.common.ExitCode): refused before
        # taking a seat 5, never let in at all 4, the connection lost later 1.
        if table.finished and session.welcome is None:
            if session.errors and session.errors[-1].fatal:
                return 5, None
            return 4, None
        lost = table.finished and table.model.problem is not None and not table.model.ended
        return (1 if lost and not table.quitting else 0), None

    async def _lines_while_connecting(self, seated: trio.Event) -> list[str | None]:
        """The lines typed before the table is shown, held for it (a script does not wait
        to be seated; the end of its input neither), up to a line that quits, which is
        last in the list: quitting is honoured while connecting too."""
        held: list[str | None] = []
        async with trio.open_nursery() as nursery:

            async def until_seated() -> None:
                await seated.wait()
                nursery.cancel_scope.cancel()

            nursery.start_soon(until_seated)
            while held[-1:] != [None]:
                line = await self._next_line()
                held.append(line)
                if line is not None and self.table.is_quit(line):
                    nursery.cancel_scope.cancel()
                    break
        return held

    async def _carry_out(self, effects: list[Effect], runner: ClientRunner) -> bool:
        """Send what is to be sent; True when the player quits."""
        for effect in effects:
            if isinstance(effect, Quit):
                if self.before_exit is not None:
                    with trio.move_on_after(QUIT_PATIENCE):
                        await self.before_exit(effect)
                return True
            if isinstance(effect, Send) and not await runner.send(effect.message):
                self.table.say(self.table.t._("Not connected: that was not sent."))
                self.flush()
            if isinstance(effect, Wake):
                # No pause here: auto-pass's is for a screen that changes under the
                # player's eyes; these lines stay, what beat you among them.
                effects = self.table.wake()
                self.flush()
                if await self._carry_out(effects, runner):
                    return True
        return False


def _tcp(host: str, port: int) -> Connector:
    async def connect() -> trio.abc.Stream:
        return await trio.open_tcp_stream(host, port)

    return connect


def prepare_stdout() -> None:
    """Never fail on a character the output cannot encode (an ASCII console, say)."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace", line_buffering=True)
