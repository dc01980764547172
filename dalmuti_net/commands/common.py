"""What every subcommand shares: exit codes, the one-line failure, the logging options.

A command that cannot do what it was asked raises ``CommandError`` (a sentence saying what
is wrong and what to do, and an exit code); ``cli.main`` prints it as one line and exits
with that code. Only ``--debug`` shows a traceback.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from ..lang.i18n import N_
from ..protocol.text import shown
from ..told import told_record

if TYPE_CHECKING:
    from ..lang.i18n import Translator

E = TypeVar("E", bound=BaseException)


class ExitCode(IntEnum):
    """The exit status of every subcommand (documented in ``dalmuti --help``)."""

    OK = 0
    FAILED = 1
    """It started, but could not go on (connection lost, a bot's strategy failed)."""
    USAGE = 2
    """The command line is wrong: an option, an argument, or a file or folder it names."""
    CANNOT_START = 3
    """This machine cannot do it: port busy, address not here, no terminal."""
    NOT_FOUND = 4
    """No host could be reached, or no table was found on the network."""
    REFUSED = 5
    """The host refused: table full, wrong join code, another protocol version..."""
    INTERRUPTED = 130
    """Ctrl-C."""


EXIT_CODES_HELP = N_("""\
exit status (the same for every command):
  0    done
  1    started, but could not go on (connection lost, a bot's strategy failed)
  2    wrong command line: an option, an argument, or a file or folder it names
  3    this machine cannot do it: port busy, address not here, no terminal
  4    no host could be reached, or no table was found on the network
  5    the host refused: table full, wrong join code, another protocol version
  130  interrupted (Ctrl-C)
Every failure is one line on stderr; --debug shows the traceback as well.""")


class CommandError(Exception):
    """A failure the user can fix: ``message`` says what is wrong and what to do."""

    def __init__(self, message: str, exit_code: ExitCode = ExitCode.USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def leaves(group: BaseExceptionGroup[E]) -> list[E]:
    """Every exception in ``group``, however deeply trio's nurseries nested it."""
    found: list[E] = []
    for inner in group.exceptions:
        found += leaves(inner) if isinstance(inner, BaseExceptionGroup) else [inner]
    return found


def has_a_terminal() -> bool:
    """Whether a full-screen table can be drawn: input and output are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """``-v/--verbose``, ``--log-file`` and ``--debug``, the same on every subcommand."""
    group = parser.add_argument_group(N_("diagnostics"))
    group.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help=N_(
            "log more: -v what the program does, -vv also zeroconf and the details "
            "(on stderr, or only to --log-file while a table is on screen)"
        ),
    )
    group.add_argument(
        "--log-file",
        metavar="FILE",
        type=Path,
        help=N_("append the log to FILE (warnings, or more with -v)"),
    )
    group.add_argument(
        "--debug", action="store_true", help=N_("show the traceback when something fails")
    )


def configure_logging(
    args: argparse.Namespace, *, screen: bool, t: Translator | None = None
) -> None:
    """Send the project's log where ``-v``/``--log-file`` ask.

    Without a screen, warnings (and with ``-v`` more) go to stderr, a warning logged as a
    ``Told`` in ``t``'s language. ``screen``: a full-screen table will own the terminal, so
    nothing is written to stderr (warnings are shown in the table's own log there, in its
    language); the file gets everything, in English. Called again (``cli.main`` in one
    process, as tests do), it replaces what it set up before.
    """
    stop_logging()
    verbosity: int = getattr(args, "verbose", 0) or 0
    log_file: Path | None = getattr(args, "log_file", None)
    level = logging.WARNING if verbosity == 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    handlers: list[logging.Handler] = []
    if log_file is not None:
        try:
            handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
        except OSError as error:
            sentence = N_(
                "cannot write the log file {file}: {reason}; give a file in a folder "
                "you can write to"
            )
            raise CommandError(
                (sentence if t is None else t._(sentence)).format(
                    file=log_file, reason=error.strerror
                ),
                ExitCode.USAGE,
            ) from None
        handlers[-1].setFormatter(logging.Formatter(LOG_FORMAT))
    if not screen:
        console = _Console()
        console.setFormatter(_ToldFormatter(t, LOG_FORMAT if verbosity else "%(message)s"))
        handlers.append(console)
    names = ["dalmuti_net"] + (["zeroconf", "trio"] if verbosity >= 2 else [])
    for handler in handlers:
        handler.setLevel(level)
    for name in names:
        logger = logging.getLogger(name)
        _installed.append((logger, logger.level, handlers))
        logger.setLevel(level)
        for handler in handlers:
            logger.addHandler(handler)


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_installed: list[tuple[logging.Logger, int, list[logging.Handler]]] = []


def stop_logging() -> None:
    """Undo ``configure_logging``: its handlers taken away and closed, the levels back."""
    while _installed:
        logger, level, handlers = _installed.pop()
        logger.setLevel(level)
        for handler in handlers:
            logger.removeHandler(handler)
            handler.close()


class _Console(logging.StreamHandler):  # type: ignore[type-arg]
    """stderr as it is when a record comes (as ``logging.lastResort``), not as it was."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


class _ToldFormatter(logging.Formatter):
    """The message of a warning logged as a ``Told`` in the reader's language."""

    def __init__(self, t: Translator | None, fmt: str) -> None:
        super().__init__(fmt)
        self._translate = (lambda text: text) if t is None else t._

    def formatMessage(self, record: logging.LogRecord) -> str:
        from ..lang.text import tidy  # no space left between Chinese words

        record.message = tidy(told_record(record, self._translate))
        return super().formatMessage(record)


def add_address_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """The optional ``HOST[:PORT]`` of the commands that reach one host (``join``, ``bot``,
    ``conformance``); ``help`` says what the command does without it."""
    parser.add_argument("address", nargs="?", metavar="HOST[:PORT]", help=help)


def add_player_name_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--player-name`` for the commands that take a seat (``join``, ``bot``), and
    ``--name``, its old spelling: still taken, no longer shown."""
    parser.add_argument("--player-name", metavar="NAME", help=help)
    parser.add_argument("--name", dest="player_name", help=argparse.SUPPRESS)


def add_find_interface_argument(parser: argparse.ArgumentParser) -> None:
    """``--interface`` for the commands that find a table on the LAN to join (``join``,
    ``bot``); ``check_interfaces`` checks what it was given."""
    parser.add_argument(
        "--interface",
        metavar="ADDRESS",
        action="append",
        help=N_("look for tables on this interface address only (repeatable; default: all)"),
    )


def check_interfaces(addresses: list[str] | None, t: Translator) -> None:
    """Each ``--interface`` one address of this machine, else a ``CommandError`` saying so
    (before discovery, which would fail on it with the system's words). Binding a UDP
    socket to it for a moment tells, and sends nothing."""
    import errno
    import ipaddress
    import socket

    for text in addresses or []:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            address = None
        if address is None or address.is_unspecified or address.is_multicast:
            raise CommandError(
                t._(
                    "{option} wants an IP address of this machine, such as 127.0.0.1 or "
                    "192.168.1.20, not {value}"
                ).format(option="--interface", value=text)
            )
        family = socket.AF_INET if address.version == 4 else socket.AF_INET6
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            try:
                probe.bind((text, 0))
            except OSError as error:
                if error.errno != errno.EADDRNOTAVAIL:
                    raise
                raise CommandError(
                    t._(
                        "{address} is not an address of this machine; give --interface one "
                        "of its addresses, or leave it out for every interface"
                    ).format(address=text),
                    ExitCode.CANNOT_START,
                ) from None


def say(text: str, stream: TextIO | None = None) -> None:
    """Print ``text`` (to stdout by default), each of its lines through ``shown``: whatever
    a file or the network put in it, no escape sequence reaches the terminal."""
    stream = sys.stdout if stream is None else stream
    print("\n".join(shown(line) for line in text.split("\n")), file=stream)


def tell(text: str, stream: TextIO | None = None) -> None:
    """Print a sentence for the user (to stderr by default): wrapped at spaces (and between
    Chinese characters) to the terminal's width when ``stream`` is a terminal, so no word is
    cut at its edge; one line for a pipe or a file. Through ``shown``, as ``say``."""
    stream = sys.stderr if stream is None else stream
    text = "\n".join(shown(line) for line in text.split("\n"))
    if stream.isatty():
        from ..lang.text import wrap

        text = "\n".join(wrap(text, shutil.get_terminal_size().columns))
    print(text, file=stream, flush=True)
