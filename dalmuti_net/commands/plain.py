"""`dalmuti join --plain` and `dalmuti host --plain`: the table as lines of text."""

from __future__ import annotations

import argparse
import signal
from typing import TYPE_CHECKING

import trio

from ..client.model.client_model import Quit
from ..client.plain.narrator import PlainTable
from ..client.plain.runtime import PLAIN_SOFTWARE, PlainClient, prepare_stdout
from ..client.seats import SeatStore
from ..client.ui.config import Preferences, chosen_name, save_name
from ..lang.i18n import Translator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""What ends a host whose player has left the table (and its lines) behind."""

if TYPE_CHECKING:
    from ..client.recorder import Recorder
    from .host_runtime import PreparedHost


def join_plain(
    args: argparse.Namespace,
    t: Translator,
    target: tuple[str, int] | None,
    default_name: str,
    recorder: Recorder | None = None,
) -> int:
    """Join ``target`` (or a table found on the LAN) and play it in lines of text; with
    ``recorder``, keep what the client is sent (``dalmuti join --record``)."""
    prepare_stdout()
    name, name_given = chosen_name(args.player_name, target is not None)
    table = PlainTable(
        t,
        preferences=Preferences(),
        name=name,
        name_given=name_given,
        code=args.code,
        lists_tables=target is None,  # a table given by address: no list to go back to
    )
    client = PlainClient(table)
    client.seats = SeatStore()
    client.recorder = recorder

    async def main() -> int:
        if target is None:
            return await client.run(
                None,
                None,
                interfaces=args.interface,
                spectator=args.spectate,
                on_join=lambda join: save_name(join.name),
            )
        host, port = target
        display = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        session = client.new_session(name or default_name, args.spectate, args.code)
        table.connecting(session, display)
        client.flush()

        async def connect() -> trio.abc.Stream:
            return await trio.open_tcp_stream(host, port)

        return await client.run(session, connect)

    return trio.run(main)


def host_plain(host: PreparedHost, t: Translator) -> int:
    """The host player's table in lines of text, the host running beside it in one trio
    run; the host's own messages are printed among the table's lines."""
    prepare_stdout()
    session = host.player_session(PLAIN_SOFTWARE)
    table = PlainTable(t, session, address="localhost", local_host=True, preferences=Preferences())
    # Whoever joins before this table's first lobby (the host's first second) is told.
    table.model.opened = host.options.resume is None
    client = PlainClient(table)
    host.say = client.print_line
    host.table_on_screen = True

    async def main() -> int:
        async with host.served_beside_player() as (server, connect):
            detached = False

            async def say_goodbye(quit: Quit) -> None:
                nonlocal detached
                # True: the table goes on without its host player's lines.
                detached = await host.host_player_quits(quit, server)

            client.before_exit = say_goodbye
            table.connecting(session, "localhost")
            client.flush()
            status = await client.run(session, connect)
            if detached:
                with trio.open_signal_receiver(*STOP_SIGNALS) as signals:

                    async def next_signal() -> signal.Signals:
                        async for signum in signals:
                            return signal.Signals(signum)
                        raise AssertionError("signals never end")  # pragma: no cover

                    await host.serve_without_player(server, next_signal)
            return status

    return host.run_with_player(lambda: trio.run(main))
