"""The running host: table, server, listeners, announcement, bots and signals together.

Kept apart from the argument parsing so that the terminal UI can run the same host in its
own trio guest run and connect the host player through ``server.connect_local()``
(``served_beside_player``, for the terminal and the plain table alike).
"""

from __future__ import annotations

import errno
import logging
import secrets
import shlex
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import trio

from ..bots import make_strategy
from ..bots.names import bot_name
from ..client.bot import play, stream_connector
from ..client.runner import Connector
from ..client.session import ClientSession
from ..client.ui.state import Quit
from ..faults import MESSAGE_FAILED, fault_line, first_error, log_fault
from ..host.saved_tables import new_save_path
from ..host.savefile import SaveError, SaveFile, summarize
from ..host.server import TableFailed, TableServer
from ..host.settings import SettingsError, TableSettings, load_settings, settings_from_dict
from ..host.table import Limits, StartBot, Table, UnplayableChange
from ..lang.i18n import Translator
from ..lang.text import tidy
from ..protocol import ProtocolError
from ..protocol.catalogue import DEFAULT_PORT
from ..protocol.text import shown
from ..told import N_
from .common import CommandError, ExitCode
from .host_options import HostOptions
from .language import messages

log = logging.getLogger(__name__)


class HostStartError(CommandError):
    """The host could not start serving (port taken, address not on this machine...)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.CANNOT_START)


class HostFailed(CommandError):
    """A task serving the whole table failed (``server.TableFailed``): the evening ended
    there, the save left as a host's that did not end cleanly, in one sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.FAILED)


TABLE_FAILED_SAVED = N_(
    "The host stopped the table after an error it did not foresee ({error}); please report "
    "it. Every acknowledged move is saved: dalmuti host --resume {file} takes the table up "
    "again, for the players to take their seats back."
)
TABLE_FAILED_UNSAVED = N_(
    "The host stopped the table after an error it did not foresee ({error}); please report "
    "it. The table was played without a save, so it cannot be taken up again."
)


@dataclass
class PreparedHost:
    options: HostOptions
    settings: TableSettings
    table: Table
    save: SaveFile | None
    host_token: str | None = None
    port: int | None = None
    web_port: int | None = None
    web_url: str | None = None
    server: TableServer | None = None
    say: Callable[[str], None] = field(default=lambda line: print(line, flush=True))
    show_drawing: Callable[[list[str]], None] | None = None
    """Where a drawing (the web table's QR code) goes whole; by default line by line to
    ``say``. The host player's table shows it in its log, whole or not at all."""
    t: Translator = field(default_factory=Translator)
    """The host console's language (``--lang``)."""
    table_on_screen: bool = False
    """The host player's table runs in this process and tells the seats, the hands and the
    end itself: the console's reports of them would say everything twice."""
    ports: tuple[int | None, int | None] = (None, None)
    """The ports a resumed table was served on (TCP, web), served on again if free: the
    players' clients and pages come back there by themselves."""
    save_kept: bool = True
    """False once a save of the folder was let go at the clean stop (no hand was dealt)."""
    unsaved_because: str | None = None
    """Why the saves folder could not take the table, which is then played unsaved."""
    player_left: bool = False
    """A resumed table whose host machine's player had left it before the stop (and kept
    hosting): served on without a seat of theirs."""
    code_not_used: bool = False
    """A --code was given for a table taken up again, which keeps the code it had."""
    _save_closed: bool = field(default=False, init=False, repr=False)

    @classmethod
    def create(cls, options: HostOptions) -> PreparedHost:
        if options.resume is not None:
            try:
                ports = summarize(options.resume).ports or {}
            except SaveError:
                ports = {}  # and opening it says what is wrong, in full
            resumed, saved = SaveFile.resume(options.resume)
            try:
                settings, table = _rebuild(
                    options.resume, saved.header, saved.entries, messages(options.lang)
                )
            except BaseException:
                resumed.close()
                raise
            if options.bot_pace is not None:  # the operator's word now, over the save's
                table.bot_pace_ms = round(options.bot_pace * 1000)
            host_token = None if saved.header.get("headless") else _own_seat(saved.entries, table)
            # The players know the code the table was opened with, and their clients and
            # pages come back with it: a table taken up again keeps it. The host's own
            # player, bots and join line use it too (a --code given now would lock the host
            # player out of their own table).
            code_not_used = options.code is not None and options.code != table.code
            options.code = table.code
            prepared = cls(options, settings, table, resumed, t=messages(options.lang))
            prepared.code_not_used = code_not_used
            prepared.host_token = host_token
            prepared.player_left = host_token is None and not saved.header.get("headless")
            prepared.ports = (_port(ports.get("port")), _port(ports.get("web_port")))
            return prepared
        settings = load_settings(options.rules)
        if options.bot_pace is not None:
            settings = replace(settings, bot_pace=options.bot_pace)
        opened = datetime.now().astimezone()
        header = {
            "table_id": secrets.token_hex(8),
            "opened": opened.isoformat(timespec="seconds"),
            "name": options.name,
            "code": options.code,
            "seed": options.seed,
            "headless": options.headless,
            "rules": settings.rules.to_dict(),
            "table": {
                "turn_timer": settings.turn_timer or 0,
                "grace_period": settings.grace_period,
                "between_hands": settings.between_hands,
                "bot_pace": settings.bot_pace,
            },
        }
        t = messages(options.lang)
        table = Table(**_table_arguments(header, settings, t))
        if options.bot_strategy not in table.known_strategies:
            # --strategy was checked when the command started (any registered name or a
            # module:attr): the table seats it as it seats its own.
            table.known_strategies = (*table.known_strategies, options.bot_strategy)
        save, prepared_problem = _new_save(options, header, opened)
        prepared = cls(options, settings, table, save, t=t)
        prepared.unsaved_because = prepared_problem
        if not options.headless:
            prepared.host_token = table.reserve_seat(options.player_name, host=True).token
        for _ in range(options.bots):
            table.add_bot(options.bot_strategy)
        return prepared

    @property
    def in_saves_folder(self) -> bool:
        """The save is one of the folder's (``--save FILE`` elsewhere is the user's own)."""
        folder = self.options.saves_folder
        return self.save is not None and folder is not None and self.save.path.parent == folder

    @property
    def kept_save(self) -> Path | None:
        """The file the table is kept in, once the host stopped (None: none)."""
        return self.save.path if self.save is not None and self.save_kept else None

    def close_save(self) -> None:
        """The clean stop: the save is marked so (whether the table had ended) and folded
        into one file. A save of the folder whose table never dealt a hand is let go:
        there is nothing in it to look back on, or worth taking up again. Once only."""
        if self.save is None or self._save_closed:
            return
        if self.server is not None and self.server.failure is not None:
            # Not a clean stop: kept whole and unmarked, so that `dalmuti host` offers it
            # again (and `--resume` with no file takes it), however few hands it holds.
            self._save_closed = True
            self.save.release()
            return
        self._save_closed = True
        self.save.close(finished=self.table.phase == "ended")
        if self.in_saves_folder and self.save.hands == 0:
            try:
                self.save.path.unlink()
            except OSError as error:
                log.warning("could not delete %s: %s", self.save.path, error)
            else:
                self.save_kept = False

    # ------------------------------------------------------------------ running

    async def serve(
        self, task_status: trio.TaskStatus[TableServer] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Serve until cancelled; ``task_status`` gets the running server."""
        table = self.table
        server = TableServer(
            table,
            save=self.save,
            run_bot=self._run_bot,
            on_change=self._on_change,
            on_save_problem=self._on_save_problem,
        )
        self.server = server
        try:
            await self._serve(server, task_status)
        except* TableFailed as failed:
            raise self._failed(first_error(failed)) from None

    def _failed(self, failed: BaseException) -> HostFailed:
        """What the host player is told when the table failed (``server.TableFailed``)."""
        error = fault_line(failed.error if isinstance(failed, TableFailed) else failed)
        log.debug("the table failed", exc_info=failed)
        self.close_save()
        if self.save is None:
            return HostFailed(self.t._(TABLE_FAILED_UNSAVED).format(error=error))
        file = shlex.quote(shown(str(self.save.path)))
        return HostFailed(self.t._(TABLE_FAILED_SAVED).format(error=error, file=file))

    async def _serve(self, server: TableServer, task_status: trio.TaskStatus[TableServer]) -> None:
        table = self.table
        async with AsyncExitStack() as stack:
            nursery = await stack.enter_async_context(trio.open_nursery())
            await nursery.start(server.run)
            wanted = self.ports[0] or DEFAULT_PORT
            listeners = await self._listen(self.options.port, wanted, "--port")
            self.port = listeners[0].socket.getsockname()[1]
            log.info(
                "table %r listening on %s port %d",
                table.name,
                self.options.interface or "every interface",
                self.port,
            )
            nursery.start_soon(server.serve_tcp, listeners)
            await server.flush()  # start the bots seated before anyone connected
            _ = self.t._
            where = self.options.interface or _("every interface")
            self.say(
                _("Table “{name}” is open on port {port} ({where}).").format(
                    name=table.name, port=self.port, where=where
                )
            )
            self.say(_("Players join with: {command}").format(command=self._join_command()))
            if self.options.web:
                await self._serve_web(nursery)
            if self.save is not None:
                await trio.to_thread.run_sync(self.save.note_ports, self.port, self.web_port)
            if self.options.announce:
                from ..host.announce import announce_table

                interfaces = [self.options.interface] if self.options.interface else None
                self._announcer = await stack.enter_async_context(
                    announce_table(self._table_info(), self.port, interfaces=interfaces)
                )
                self.say(_("Announced on the local network."))
            self._nursery = nursery
            task_status.started(server)
            await trio.sleep_forever()

    async def _serve_web(self, nursery: trio.Nursery) -> None:
        """The web table beside the TCP port: its address as a URL, and as a QR code for
        phones (not in --plain, where a drawing means nothing)."""
        from ..web.qr import qr_lines
        from ..web.server import TableDoor, WebServer

        server = self.server
        assert server is not None and self.port is not None
        door = replace(TableDoor.of(server), tcp_port=self.port)
        wanted = self.ports[1] or self.port + 1
        listeners = await self._listen(self.options.web_port, wanted, "--web-port")
        self.web_port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(WebServer(door).serve, listeners)
        address = self.options.interface or _lan_address()
        host = f"[{address}]" if ":" in address else address
        url = f"http://{host}:{self.web_port}/"
        self.web_url = url
        self.say(self.t._("Phones join at: {url}").format(url=url))
        if not self.options.plain:
            drawing = qr_lines(url)
            if self.show_drawing is not None:
                self.show_drawing(drawing)
            else:
                for line in drawing:
                    self.say(line)

    async def serve_until_signal(self) -> None:
        """The headless host: serve until Ctrl-C or SIGTERM, then close cleanly."""
        # Signals are caught from before the table opens: a SIGTERM right after the first
        # line still closes the table cleanly.
        try:
            with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async with trio.open_nursery() as nursery:
                    server = await nursery.start(self.serve)
                    if self.player_left:
                        self._say_player_left()
                    async for signum in signals:
                        self.say(
                            self.t._("Closing the table ({signal}).").format(
                                signal=signal.Signals(signum).name
                            )
                        )
                        break
                    await server.shutdown()
                    nursery.cancel_scope.cancel()
        finally:
            self.close_save()

    def player_session(self, software: str) -> ClientSession:
        """The host player's session, for their table in this process (``software``: the
        front end's name, as its hello gives it)."""
        return ClientSession(
            self.options.player_name,
            token=self.host_token,
            code=self.options.code,
            software=software,
            person=True,
        )

    @asynccontextmanager
    async def served_beside_player(self) -> AsyncIterator[tuple[TableServer, Connector]]:
        """Serve the table while the host player's front end plays it in this trio run:
        the running server and how the front end connects to it (in process). However the
        block ends, the server is shut down and stops serving."""
        async with trio.open_nursery() as nursery:
            server = await nursery.start(self.serve)

            async def connect() -> trio.abc.Stream:
                stream: trio.abc.Stream = server.connect_local()
                return stream

            try:
                yield server, connect
            finally:
                with trio.CancelScope(shield=True):
                    await server.shutdown()
                nursery.cancel_scope.cancel()

    def run_with_player(self, run: Callable[[], int]) -> int:
        """Run the host player's front end with the table served beside it (``run``, one
        trio run), then close the save. A ``HostStartError`` or ``HostFailed`` is raised
        alone, however deeply trio nested it: ``cli.main`` tells it in one line (exit 3,
        1), once the screen is the console again."""
        failures: list[BaseException] = []
        status = 1
        try:
            status = run()
        except* (HostStartError, HostFailed) as group:
            failures.append(first_error(group))
        finally:
            self.close_save()
        if failures:
            raise failures[0]
        return status

    async def host_player_quits(self, quit: Quit, server: TableServer) -> bool:
        """What the host player's quit does to the table, from the screen or from lines:
        True when they left it and it goes on without them (keep hosting); otherwise the
        table is ended for everyone (its final standings first, when asked to end it)."""
        if quit.keep_hosting and await self.host_seat_given_up():
            return True
        if quit.end_table and self.table.phase != "ended":
            self.table.end_table()
            await server.flush()
            await server.shutdown("the host player ended the table", "table_ended")
        else:
            await server.shutdown()
        return False

    async def host_seat_given_up(self) -> bool:
        """After the host player's own `leave`: wait until the table has let the seat go.
        True when the table goes on with another host player, False when it ended."""
        while self.table.phase != "ended":
            seat = next((s for s in self.table.seats.values() if s.token == self.host_token), None)
            if seat is None or seat.gone:
                return any(s.host for s in self.table.seats.values())
            await trio.sleep(0.02)
        return False

    async def serve_without_player(
        self,
        server: TableServer,
        next_signal: Callable[[], Awaitable[signal.Signals]],
        say: Callable[[str], None] = lambda line: print(line, flush=True),
    ) -> None:
        """The host player has left the table and closed its screen: the console reports
        what happens, one line each, until a signal; then everyone is told goodbye."""
        self.say = say
        self.show_drawing = None
        self.table_on_screen = False
        self._last_report = self._report_key()
        self._say_player_left()
        signum = await next_signal()
        _ = self.t._
        self.say(_("Closing the table ({signal}).").format(signal=signum.name))
        await server.shutdown()

    def _say_player_left(self) -> None:
        """This machine's player has left the table, which goes on without them."""
        _ = self.t._
        heir = next((s for s in self.table.seats.values() if s.host and not s.gone), None)
        if heir is not None:
            self.say(
                tidy(_("You left the table; {name} is the host player now.").format(name=heir.name))
            )
        self.say(_("This program keeps the table running; Ctrl-C closes it for everyone."))

    async def _listen(
        self, given: int | None, default: int, option: str
    ) -> list[trio.SocketListener]:
        """Listeners on the port ``option`` gave, else on ``default`` or a free port."""
        wanted = given if given is not None else default
        host = self.options.interface
        try:
            return await trio.open_tcp_listeners(wanted, host=host)
        except OSError as error:
            if error.errno == errno.EADDRINUSE and given is None:
                listeners = await trio.open_tcp_listeners(0, host=host)
                port = listeners[0].socket.getsockname()[1]
                self.say(
                    self.t._("Port {wanted} is busy; using port {port} instead.").format(
                        wanted=wanted, port=port
                    )
                )
                return listeners
            _ = self.t._
            if error.errno == errno.EADDRINUSE:
                busy = (
                    _("port {port} is already in use; try another --port")
                    if option == "--port"
                    else _("port {port} is already in use; try another --web-port")
                )
                raise HostStartError(busy.format(port=wanted)) from None
            if error.errno == errno.EADDRNOTAVAIL:
                raise HostStartError(
                    _(
                        "{address} is not an address of this machine; give --interface one "
                        "of its addresses, or leave it out for every interface"
                    ).format(address=host)
                ) from None
            raise HostStartError(
                _("cannot listen on port {port}: {reason}").format(
                    port=wanted, reason=error.strerror
                )
            ) from None

    def _join_command(self) -> str:
        """What a player types to join: the address, and the join code when there is one
        (the host player chose it; without it the command would be refused)."""
        address = self.options.interface or _lan_address()
        where = address if self.port == DEFAULT_PORT else f"{address}:{self.port}"
        command = f"dalmuti join {where}"
        if self.options.code is not None:
            command += f" --code {shlex.quote(self.options.code)}"
        return command

    async def _run_bot(self, stream: trio.abc.Stream, bot: StartBot) -> None:
        strategy = make_strategy(bot.strategy or self.options.bot_strategy)
        await play(
            stream_connector(stream),
            strategy,
            bot.name,
            token=bot.token,
            code=self.options.code,
            reconnect=False,
            pace=self.table.bot_pace,
        )

    # ------------------------------------------------------------------ reacting to changes

    _announcer: Any = None
    _nursery: trio.Nursery | None = None
    _last_report: tuple[Any, ...] = ()

    def _table_info(self) -> Any:
        from ..protocol.discovery import TableInfo, TablePhase

        return TableInfo(
            name=self.table.name,
            phase=TablePhase(self.table.phase),
            seats_taken=len(self.table.seated_players),
            seats_total=8,
            code_required=self.table.code is not None,
            web_port=self.web_port,
            table_id=self.table.table_id,
        )

    def _on_change(self) -> None:
        table = self.table
        if self._announcer is not None and self._nursery is not None:
            self._nursery.start_soon(self._announcer.update, self._table_info())
        autostart = self.options.autostart
        # Seats taken by someone here now: a seat held for a player who dropped counts
        # once they are back (a start deals it in all the same).
        if (
            autostart is not None
            and table.phase == "lobby"
            and len(table.present_players()) >= autostart
            and self._nursery is not None
        ):
            try:
                table.start()
            except ProtocolError as error:
                self.say(self.t._("Cannot start yet: {reason}").format(reason=error.message))
            else:
                assert self.server is not None
                self._nursery.start_soon(self.server.flush)
        try:
            self._report()
        except Exception as error:  # a line not shown: the table goes on (one in the log)
            log_fault(log, MESSAGE_FAILED, error)

    def _on_save_problem(self, reason: str | None) -> None:
        """The operator sees why the table waits, and when it goes on."""
        assert self.save is not None
        _ = self.t._
        if reason is None:
            self.say(
                _("The table is saved again to {file}; play goes on.").format(file=self.save.path)
            )
            return
        self.say(
            _(
                "Cannot save the table to {file}: {reason}. The table waits (players are "
                "told) and goes on as soon as the file can be written; free some space, or "
                "stop the host with Ctrl-C: the save keeps every acknowledged move."
            ).format(file=self.save.path, reason=reason)
        )

    def _report_key(self) -> tuple[Any, ...]:
        """What the console's reports follow: the phase, the seats' names, the hand."""
        table = self.table
        names = tuple(s.name for s in table.seats.values())
        hand = table.game.hand_number if table.game is not None else 0
        return (table.phase, names, hand)

    def _report(self) -> None:
        """One line on the console whenever the seats, phase or hand change."""
        if self.table_on_screen:
            return
        table = self.table
        _ = self.t._
        report = self._report_key()
        if report == self._last_report:
            return
        previous, self._last_report = self._last_report, report
        _phase, names, hand = report
        if previous and previous[1] != names and table.phase == "lobby":
            self.say(
                _("Seated ({n}): {names}").format(
                    n=len(names), names=self.t.list_separator.join(names)
                )
            )
        if table.phase == "playing" and (not previous or previous[2] != hand):
            self.say(_("Hand {hand} is being dealt.").format(hand=hand))
        if table.phase == "ended" and (not previous or previous[0] != "ended"):
            self.say(_("The table has ended."))
            if table.game is not None:
                for seat_line in _standings(table, self.t):
                    self.say(seat_line)


def _own_seat(entries: list[dict[str, Any]], table: Table) -> str | None:
    """The token of this machine's player's seat in a resumed table, if they still hold it.

    Theirs is the seat the table opened with as its host player's: not the seat that holds
    the host role now, which after a handover (the host player left and kept hosting) is
    another player's, whose cards this machine must never show. None once they have left:
    the table is then served without a player of its own, as it was before the stop."""
    first = next((e for e in entries if e.get("op") == "seat" and e.get("host")), None)
    if first is None:
        return None
    mine = next((s for s in table.seats.values() if s.token == first.get("token")), None)
    return None if mine is None or mine.gone else mine.token


def _rebuild(
    path: Path, header: dict[str, Any], entries: list[dict[str, Any]], t: Translator | None = None
) -> tuple[TableSettings, Table]:
    """The table a save holds, or a ``SaveError`` in one sentence saying what is wrong."""
    try:
        settings = settings_from_dict(
            {"rules": header["rules"], "table": header["table"]}, str(path)
        )
        arguments = _table_arguments(header, settings, t)
    except (KeyError, TypeError, ValueError, SettingsError) as error:
        reason = error if isinstance(error, SettingsError) else repr(error)
        raise SaveError(
            N_("{path} has damaged table settings ({reason})"), path=path, reason=reason
        ) from None
    try:
        table = Table.replay(entries, **arguments)
    except UnplayableChange as error:
        raise SaveError(N_("{path} is damaged: {reason}"), path=path, reason=error) from None
    return settings, table


def _new_save(
    options: HostOptions, header: dict[str, Any], opened: datetime
) -> tuple[SaveFile | None, str | None]:
    """The new table's save: ``--save FILE``, else a new file of the saves folder (named
    by when the table opened and its name), else none (``--no-save``). A folder that
    cannot be written does not stop the evening, as a read-only home stops no game: the
    table is played unsaved, and the second value says why."""
    if options.save is not None:
        return SaveFile.create(options.save, header), None
    if options.saves_folder is None:
        return None, None
    try:
        path = new_save_path(options.saves_folder, options.name, opened)
    except OSError as error:
        return None, str(error.strerror or error)
    try:
        return SaveFile.create(path, header), None
    except SaveError as error:
        path.unlink(missing_ok=True)  # the empty file that kept the name
        return None, error.told(messages(options.lang)._)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def _port(value: object) -> int | None:
    """A port a save noted, if it is one (a file is hostile)."""
    return value if type(value) is int and 0 < value <= 65535 else None


def _table_arguments(
    header: dict[str, Any], settings: TableSettings, t: Translator | None = None
) -> dict[str, Any]:
    """The table's arguments; its bots are named in the host's language (``t``; English
    without), its host player's, whose table it is (``bots/names.py``)."""
    turn_timer = settings.turn_timer
    return {
        "bot_names": bot_name if t is None else partial(bot_name, translate=t._),
        "table_id": header.get("table_id"),  # saves from before table ids get a new one
        "name": header["name"],
        "rules": settings.rules,
        "code": header["code"],
        "seed": header["seed"],
        "headless": header["headless"],
        "limits": Limits(
            grace_period_ms=int(settings.grace_period * 1000),
            turn_timer_ms=None if not turn_timer else int(turn_timer * 1000),
        ),
        "results_ms": int(settings.between_hands * 1000),
        "bot_pace_ms": round(settings.bot_pace * 1000),
    }


def _standings(table: Table, t: Translator) -> list[str]:
    """The final scores in two columns, best first."""
    from ..lang.text import fit, width

    assert table.game is not None
    names = {s.player: s.name for s in table.seats.values()}
    ranked = sorted(table.game.scores.items(), key=lambda item: -item[1])
    labels = [str(names.get(p, p)) for p, _ in ranked]
    name_cols = max((width(label) for label in labels), default=0)
    score_cols = max((len(str(score)) for _, score in ranked), default=0)
    return [
        f"  {fit(label, name_cols)}  {str(score).rjust(score_cols)}"
        for label, (_, score) in zip(labels, ranked, strict=True)
    ]


def _lan_address() -> str:
    """This machine's address on the LAN, as far as the routing table tells (no traffic)."""
    import socket

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP sends nothing
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()
