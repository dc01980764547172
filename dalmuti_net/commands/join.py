"""`dalmuti join`: find a table on the LAN (or go to HOST[:PORT]) and play it in the terminal."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING

from ..lang.i18n import N_
from .common import (
    CommandError,
    ExitCode,
    add_address_argument,
    add_find_interface_argument,
    add_player_name_argument,
    check_interfaces,
    has_a_terminal,
)
from .language import add_lang_argument, messages
from .person import login_name, settled_name
from .screen_options import add_ascii_argument, add_turn_alert_arguments

if TYPE_CHECKING:
    from ..client.session import ClientSession

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_address_argument(
        parser,
        N_(
            "join this host directly (port 7341 if none); without it, pick a table found "
            "on the local network"
        ),
    )
    add_player_name_argument(parser, N_("your name at the table (remembered for next time)"))
    parser.add_argument("--code", help=N_("the table's join code, if it has one"))
    parser.add_argument(
        "--spectate", action="store_true", help=N_("watch instead of taking a seat")
    )
    add_lang_argument(parser)
    add_find_interface_argument(parser)
    add_ascii_argument(parser)
    parser.add_argument(
        "--record",
        metavar="FILE",
        help=N_("keep what this client is sent in FILE, for dalmuti replay (a new file)"),
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help=N_("the table as lines of text (screen readers, braille, pipes), not a full screen"),
    )
    add_turn_alert_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..client.address import BadAddress, parse_address

    try:
        t = messages(args.lang)
    except ValueError as error:
        print(f"dalmuti join: {error}", file=sys.stderr)
        return 2
    try:
        target = parse_address(args.address) if args.address else None
    except BadAddress as error:
        print(f"dalmuti join: {error.told(t._)}", file=sys.stderr)
        return 2
    if args.player_name is not None and not args.player_name.strip():
        print("dalmuti join: " + t._("--player-name cannot be empty"), file=sys.stderr)
        return 2
    if target is None:
        check_interfaces(args.interface, t)
    else:
        # Named by address there is no list to type a name in first: ask it here, once
        # (a --player-name is remembered by chosen_name, below).
        if not args.player_name:
            settled_name(None, t, offered=login_name("Player"))
    recorder = None
    if args.record is not None:
        from pathlib import Path

        from ..client.recorder import Recorder, RecordError

        try:
            recorder = Recorder(Path(args.record))
        except RecordError as error:
            print(f"dalmuti join: {error.told(t._)}", file=sys.stderr)
            return 2
    if args.plain:
        from .plain import join_plain

        try:
            return join_plain(args, t, target, login_name("Player"), recorder)
        finally:
            if recorder is not None:
                recorder.close()
    import trio

    if not has_a_terminal():
        raise CommandError(
            t._(
                "there is no terminal here to show the table in; add --plain for a "
                "line-by-line table"
            ),
            ExitCode.CANNOT_START,
        )
    from ..client.recorder import RecordingSession
    from ..client.seats import SeatStore
    from ..client.session import TABLE_UI_SOFTWARE
    from ..client.ui.config import Preferences, chosen_name, save_name
    from ..client.ui.runtime import TerminalClient, run_with_trio
    from ..client.ui.state import BackToList, ClientUi, Rejoin
    from ..lang.words import terminal_is_utf8

    name, name_given = chosen_name(args.player_name, target is not None)
    ui = ClientUi(
        t,
        preferences=Preferences(),
        name=name,
        name_given=name_given,
        code=args.code,
        ascii_symbols=args.ascii or not terminal_is_utf8(),
        lists_tables=target is None,  # a table given by address: no list to go back to
    )
    ui.model.seats = SeatStore()  # the table list shows a listing claiming a seat's table id
    client = TerminalClient(ui)
    client.alerts.bell, client.alerts.title = not args.no_bell, not args.no_title

    sessions: list[ClientSession] = []

    async def main() -> None:
        place = target
        spectate = args.spectate
        while True:
            if place is not None:
                host, port = place
                display = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
                player_name = ui.model.name or login_name("Player")
            else:
                join = await client.find_table(args.interface)
                host, port, display = join.host, join.port, ui.model.address
                player_name = join.name
                save_name(player_name)
                ui.model.name, ui.model.name_given = player_name, True
            log.info("joining %s as %r", display, player_name)
            session = RecordingSession(
                player_name,
                spectator=spectate,
                code=ui.model.code,
                seats=SeatStore(),
                software=TABLE_UI_SOFTWARE,
                person=True,
            )
            session.recorder = recorder
            sessions.append(session)
            ui.connecting(session, display)
            client.refresh()

            async def connect(host: str = host, port: int = port) -> trio.abc.Stream:
                return await trio.open_tcp_stream(host, port)

            next_step = await client.play(session, connect)
            if isinstance(next_step, Rejoin):
                place, spectate = (host, port), next_step.spectator
                ui.model.code = next_step.code
            elif isinstance(next_step, BackToList):
                place, spectate = None, args.spectate
                ui.back_to_list()
                client.refresh()
            else:
                return

    try:
        run_with_trio(client, main)
    finally:
        if recorder is not None:
            recorder.close()
    if ui.model.farewell is not None:  # leaving ended the table, or ends it: said once it closed
        print(ui.model.farewell, flush=True)
    return exit_code(sessions[-1] if sessions else None)


def exit_code(last: ClientSession | None) -> ExitCode:
    """How ``join`` ends, from its last connection: refused before taking a seat (table
    full, wrong code, another version) is 5, never let in at all is 4, else 0."""
    if last is None or last.welcome is not None:
        return ExitCode.OK
    if last.errors and last.errors[-1].fatal:
        return ExitCode.REFUSED
    return ExitCode.NOT_FOUND
