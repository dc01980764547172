"""`dalmuti host`: run a table on this machine and announce it on the LAN."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..lang.i18n import N_
from ..protocol.catalogue import DEFAULT_PORT
from ..protocol.text import shown
from .common import CommandError, ExitCode, has_a_terminal, tell
from .host_options import HostOptions
from .language import Told, add_lang_argument, messages
from .screen_options import add_turn_alert_arguments

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from ..lang.i18n import Translator
    from .host_runtime import PreparedHost


MAKE_CODE = "\0make"
"""``--code`` given alone: the host makes the code (no argument can hold a NUL)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--table-name",
        metavar="NAME",
        help=N_("the table's name (default: named after the host player, as in Ana's table)"),
    )
    parser.add_argument("--name", dest="table_name", help=argparse.SUPPRESS)  # old spelling
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=Told(
            N_(
                "TCP port (default {port}, or a free port if {port} is busy; a port given "
                "here is used or the host does not start)"
            ),
            port=DEFAULT_PORT,
        ),
    )
    parser.add_argument(
        "--interface",
        metavar="ADDRESS",
        help=N_(
            "bind and announce on this address only (e.g. 192.168.1.20, or 127.0.0.1 to "
            "stay on this machine); default: every interface"
        ),
    )
    parser.add_argument(
        "--no-announce",
        action="store_true",
        help=N_("do not announce the table on the LAN (players join by address)"),
    )
    parser.add_argument(
        "--no-web",
        action="store_true",
        help=N_("do not serve the web table (the page phones join from)"),
    )
    parser.add_argument(
        "--web-port",
        type=int,
        default=None,
        metavar="PORT",
        help=N_("the web table's port (default: the table's port + 1, or a free port)"),
    )
    parser.add_argument(
        "--rules",
        metavar="FILE|PRESET",
        help=N_("a TOML rules file, or a preset: basic, scoring, party, all"),
    )
    parser.add_argument(
        "--bots", type=int, default=0, metavar="N", help=N_("seat N bots before anyone joins")
    )
    parser.add_argument(
        "--strategy",
        default="heuristic",
        metavar="NAME|MODULE:ATTR",
        help=N_("strategy of the bots added with --bots (default heuristic)"),
    )
    parser.add_argument("--bot-strategy", dest="strategy", help=argparse.SUPPRESS)  # old
    parser.add_argument(
        "--code",
        nargs="?",
        const=MAKE_CODE,
        metavar="CODE",
        help=N_(
            "a join code players must give; --code alone makes a 12-digit one that cannot "
            "be guessed in an evening"
        ),
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help=N_("no local player: the first player to join becomes the host player"),
    )
    parser.add_argument(
        "--player-name",
        metavar="NAME",
        help=N_(
            "your name at the table, remembered for next time as dalmuti join's (default: "
            "the remembered name; else asked once, your login name offered)"
        ),
    )
    from ..host.saved_tables import KEEP_FINISHED, tables_folder
    from .host_saves import LATEST

    parser.add_argument(
        "--save",
        metavar="FILE",
        type=Path,
        help=N_(
            "save the table in FILE rather than in the saves folder (every accepted move, "
            "to --resume FILE after a crash)"
        ),
    )
    parser.add_argument(
        "--no-save",
        action="store_true",
        help=Told(
            N_(
                "do not save the table. By default every table is saved, one file each, in "
                "{folder} (dalmuti history lists them); the saves of the {keep} newest "
                "finished tables are kept, older finished ones deleted; an unfinished table's "
                "save is never deleted, but for a table stopped before any hand was dealt"
            ),
            folder=tables_folder(),
            keep=KEEP_FINISHED,
        ),
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        type=Path,
        nargs="?",
        const=LATEST,
        help=N_(
            "continue the table saved in FILE (and keep saving to it); with no FILE, the "
            "latest unfinished table of the saves folder"
        ),
    )
    parser.add_argument(
        "--autostart", type=int, metavar="N", help=N_("start as soon as N seats (4 to 8) are taken")
    )
    parser.add_argument(
        "--bot-pace",
        type=float,
        metavar="SECONDS",
        help=N_(
            "while someone plays a seat that is not one of this host's bots, each move of "
            "its bots takes at least SECONDS (default 0.8, or bot_pace in the rules file; "
            "0 is off)"
        ),
    )
    parser.add_argument(
        "--league",
        metavar="FILE",
        help=N_("add each finished table's results to FILE, for dalmuti standings"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help=N_("seed the seating draw and the deals (the same seed deals the same cards)"),
    )
    add_lang_argument(parser)
    parser.add_argument(
        "--plain",
        action="store_true",
        help=N_("your table as lines of text (screen readers, braille, pipes), not a full screen"),
    )
    add_turn_alert_arguments(parser)


def options_from(args: argparse.Namespace) -> HostOptions:
    from ..client.ui.config import load_name
    from ..host.admission import new_join_code
    from ..host.saved_tables import tables_folder
    from .host_saves import LATEST
    from .person import login_name

    user = login_name("Host")
    player = (args.player_name or "").strip() or load_name() or user
    return HostOptions(
        # A headless host has nobody playing at it: its table is the login's.
        name=args.table_name or _table_of(args, user if args.headless else player),
        port=args.port,
        interface=args.interface,
        announce=not args.no_announce,
        rules=args.rules,
        bots=args.bots,
        bot_strategy=args.strategy,
        code=new_join_code() if args.code == MAKE_CODE else args.code,
        headless=args.headless,
        player_name=player,
        save=args.save,
        resume=None if args.resume == LATEST else args.resume,
        autostart=args.autostart,
        seed=args.seed,
        lang=args.lang,
        bot_pace=args.bot_pace,
        bell=not args.no_bell,
        title=not args.no_title,
        web=not args.no_web,
        web_port=args.web_port,
        plain=args.plain,
        saves_folder=None if args.no_save or args.save is not None else tables_folder(),
    )


def _known(lang: str | None) -> bool:
    from ..lang.i18n import normalize_language

    return normalize_language(lang) is not None


def settle_player_name(
    args: argparse.Namespace,
    options: HostOptions,
    t: Translator,
    *,
    interactive: bool | None = None,
    read: Callable[[str], str] = input,
) -> HostOptions:
    """The host player is one person, as in ``dalmuti join`` (see ``commands.person``)."""
    from .person import settled_name

    name = settled_name(
        args.player_name, t, offered=options.player_name, interactive=interactive, read=read
    )
    if name is None or name == options.player_name:
        return options
    table = options.name if args.table_name else _table_of(args, name)
    return replace(options, player_name=name, name=table)


def _table_of(args: argparse.Namespace, person: str) -> str:
    """The table's name when none is given: the host player's, in the table's language."""
    from ..lang.text import tidy

    translator = messages(args.lang if _known(args.lang) else None)
    return tidy(translator._("{user}'s table").format(user=person))  # 阿明的牌桌, Ana 的牌桌


def check_options(options: HostOptions, t: Translator | None = None) -> str | None:
    """A sentence saying what is wrong with the options (in ``t``'s language), or None."""
    _ = (t or messages(None))._
    if options.port is not None and not 0 <= options.port <= 65535:
        return _("{option} must be from {low} to {high}").format(option="--port", low=0, high=65535)
    if options.web_port is not None and not 0 <= options.web_port <= 65535:
        return _("{option} must be from {low} to {high}").format(
            option="--web-port", low=0, high=65535
        )
    if not 0 <= options.bots <= 7:
        return _("{option} must be from {low} to {high}").format(option="--bots", low=0, high=7)
    if options.autostart is not None and not 4 <= options.autostart <= 8:
        return _("{option} must be from {low} to {high}").format(
            option="--autostart", low=4, high=8
        )
    if options.bot_pace is not None and not 0 <= options.bot_pace <= 60:
        return _("{option} must be from {low} to {high}").format(
            option="--bot-pace", low=0, high=60
        )
    if options.interface is not None and not _is_ip_address(options.interface):
        return _(
            "{option} wants an IP address of this machine, such as 127.0.0.1 or "
            "192.168.1.20, not {value}"
        ).format(option="--interface", value=options.interface)
    if options.save is not None and not options.save.parent.is_dir():
        return _(
            "the folder {folder} does not exist; create it first, or give --save a file "
            "in another folder"
        ).format(folder=options.save.parent)
    if options.save is not None and options.resume is not None:
        return _("give --save or --resume, not both (--resume keeps saving to its file)")
    if options.save is not None and options.save.is_file() and options.save.stat().st_size:
        from ..host.savefile import in_use

        # A save in use by another host is refused as such when it is opened (--resume
        # would be refused too); a folder, when it cannot be opened as a file.
        if not in_use(options.save):
            return _("{file} already holds a table; use --resume {file} to continue it").format(
                file=options.save
            )
    if options.resume is not None and not options.resume.exists():
        return _("{file} does not exist").format(file=options.resume)
    return None


def _is_ip_address(text: str) -> bool:
    """One interface's address: not 0.0.0.0 or :: (every interface is --interface left
    out), nor a multicast group."""
    import ipaddress

    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return not (address.is_unspecified or address.is_multicast)


def run(args: argparse.Namespace) -> int:
    options = options_from(args)
    try:
        t = messages(options.lang)
    except ValueError as error:
        print(f"dalmuti host: {error}", file=sys.stderr)
        return 2
    problem = _save_conflict(args, t) or check_options(options, t)
    if problem is not None:
        print(f"dalmuti host: {problem}", file=sys.stderr)
        return 2
    options = _which_table(args, options, t)
    if not options.headless and options.resume is None:
        options = settle_player_name(args, options, t)
    import trio

    from ..bots import UnknownStrategy, resolve_strategy
    from ..host.savefile import SaveBusy, SaveError
    from ..host.settings import SettingsError
    from .host_runtime import PreparedHost

    try:
        resolve_strategy(options.bot_strategy)
        host = PreparedHost.create(options)
    except SaveBusy as error:
        raise CommandError(error.told(t._), ExitCode.CANNOT_START) from None
    except UnknownStrategy as error:
        tell(f"dalmuti host: {error.told(t._)}")
        return 2
    except (SettingsError, SaveError) as error:
        tell(f"dalmuti host: {error.told(t._)}")
        return 2
    except OSError as error:
        raise CommandError(
            t._("cannot write {file}: {reason}").format(
                file=options.save or options.resume or options.saves_folder,
                reason=error.strerror or error,
            )
        ) from error
    if host.code_not_used:
        tell(
            "dalmuti host: "
            + t._(
                "a table taken up again keeps the join code it was opened with; "
                "the --code given is not used"
            )
        )
    if host.unsaved_because is not None:
        tell(
            "dalmuti host: "
            + t._(
                "cannot save the table in {folder} ({reason}); it is played without a save "
                "(--save FILE saves it elsewhere)"
            ).format(folder=options.saves_folder, reason=host.unsaved_because)
        )
    elif options.saves_folder is not None:
        _prune(options.saves_folder)
    try:
        if host.host_token is not None and not args.plain and not has_a_terminal():
            raise CommandError(
                t._(
                    "there is no terminal here to show the table in; add --headless to host "
                    "without playing here, or --plain for a line-by-line table"
                ),
                ExitCode.CANNOT_START,
            )
        if args.league is not None:
            from ..history.league import LeagueError
            from ..rerun.keeper import keep_league

            try:
                keep_league(host.table, Path(args.league), options.resume)
            except LeagueError as error:
                raise CommandError(error.told(t._)) from None
        if host.host_token is not None:
            # A local host player: asked for now, or the resumed table was saved with one.
            if args.plain:
                from .plain import host_plain

                status = host_plain(host, t)
            else:
                status = run_with_local_player(host, t)
        else:
            trio.run(host.serve_until_signal)  # a HostStartError is shown by cli.main
            status = 0
    finally:
        host.close_save()  # closed already, but for a table that could not open
    league = None if args.league is None else Path(args.league)
    save = host.kept_save
    for line in where_the_table_is_kept(t, save, league, ended=host.table.phase == "ended"):
        print(line, flush=True)
    return status


def _save_conflict(args: argparse.Namespace, t: Translator) -> str | None:
    if args.save is not None and args.resume is not None:  # --resume with no file too
        return t._("give --save or --resume, not both (--resume keeps saving to its file)")
    if args.no_save and args.save is not None:
        return t._("give --save or --no-save, not both")
    if args.no_save and args.resume is not None:
        return t._("give --resume or --no-save, not both (--resume keeps saving to its file)")
    return None


def _which_table(args: argparse.Namespace, options: HostOptions, t: Translator) -> HostOptions:
    """``--resume`` with no file takes the latest unfinished table; a new table in the
    saves folder is first offered the one whose host did not end cleanly."""
    from .host_saves import LATEST, latest_unfinished, offer_interrupted

    if options.saves_folder is None:
        return options
    if args.resume == LATEST:
        return latest_unfinished(options, t)
    if options.resume is None:
        return offer_interrupted(options, t)
    return options


def _prune(folder: Path) -> None:
    """The saves folder's pruning (``host.saved_tables``), best effort."""
    import logging

    from ..host.saved_tables import prune

    try:
        for path in prune(folder):
            logging.getLogger(__name__).info("deleted an old finished table's save: %s", path)
    except OSError as error:
        logging.getLogger(__name__).warning("could not prune %s: %s", folder, error)


def where_the_table_is_kept(
    t: Translator, save: Path | None, league: Path | None, *, ended: bool
) -> list[str]:
    """What the host says as it closes: where the evening went, and the command that
    reads it back (the screen that showed it is gone)."""
    lines = []
    if save is not None:
        file = shlex.quote(shown(str(save)))
        if ended:
            line = t._(
                "The table is saved in {file}: dalmuti history {file} lists its hands, "
                "dalmuti replay {file} shows them again."
            )
        else:
            line = t._(
                "The table is saved in {file}: dalmuti host --resume {file} goes on with it."
            )
        lines.append(line.format(file=file))
    if league is not None:
        file = shlex.quote(shown(str(league)))
        lines.append(
            t._("The league in {file} has its results: dalmuti standings {file}.").format(file=file)
        )
    return lines


def run_with_local_player(
    host: PreparedHost, t: Translator, *, input: Input | None = None, output: Output | None = None
) -> int:
    """The host player's table UI in this terminal, the host running beside it: one trio
    guest run holds the server and the UI's client, connected through ``connect_local``.
    Should the player leave the table and keep hosting, the screen closes and the host
    goes on serving until Ctrl-C or SIGTERM. ``input``/``output``: another terminal (tests)."""
    import trio

    from ..client.session import TABLE_UI_SOFTWARE
    from ..client.ui.config import Preferences
    from ..client.ui.runtime import TerminalClient, run_with_trio
    from ..client.ui.state import ClientUi, Quit
    from ..lang.words import terminal_is_utf8

    options = host.options
    session = host.player_session(TABLE_UI_SOFTWARE)
    ui = ClientUi(t, session, address="localhost", local_host=True, preferences=Preferences())
    ui.ascii_symbols = not terminal_is_utf8()
    # Whoever joins before this terminal's first table (the host's first second) is told.
    ui.model.opened = options.resume is None
    client = TerminalClient(ui, input=input, output=output)
    client.alerts.bell, client.alerts.title = options.bell, options.title

    def say(line: str) -> None:
        ui.model.add_log("info", line)
        client.refresh()

    def show_drawing(lines: list[str]) -> None:
        ui.model.add_log("drawing", "\n".join(lines))
        client.refresh()

    host.say = say
    host.show_drawing = show_drawing
    host.table_on_screen = True

    async def main() -> None:
        async with host.served_beside_player() as (server, connect):
            screen = trio.CancelScope()

            async def say_goodbye(quit: Quit) -> None:
                if await host.host_player_quits(quit, server):
                    client.detached = True  # the screen closes, the table goes on
                    screen.cancel()

            client.before_exit = say_goodbye
            with screen:
                await client.play(session, connect)
            if client.detached:
                await client.screen_closed()
                await host.serve_without_player(server, client.next_signal)

    def run() -> int:
        run_with_trio(client, main)
        return 0

    return host.run_with_player(run)
