"""What went wrong, in one line: for the log, when serving one connection (or one key, one
typed line) failed in a way nothing foresaw.

The host never lets such an error reach its top nursery: it ends that connection only and
writes one line with what a bug report needs (the exception's type, its message and the
innermost place it was raised in); the traceback goes to the log at debug level (``-vv``,
``--log-file``), never over a player's screen.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import PurePath

from .protocol.text import shown
from .told import N_, Told

MAX_FAULT_CHARS = 300
"""The exception's message, at most (a message can quote what a client sent)."""

CONNECTION_FAILED = N_(
    "A connection from {address} was closed after an error in the host ({error}); the "
    "table goes on. Please report it."
)
"""The host's one line when serving a connection failed."""
KEY_FAILED = N_(
    "That key could not be handled because of an error ({error}); the table goes on. "
    "Please report it."
)
"""A player's own key that failed (the terminal table, the host player's included)."""
LINE_FAILED = N_(
    "That line could not be handled because of an error ({error}); the table goes on. "
    "Please report it."
)
"""A line typed at the plain table that failed."""

MESSAGE_FAILED = N_(
    "A message from the host could not be shown because of an error ({error}); the table "
    "goes on. Please report it."
)
"""A message the terminal table failed on (the host player's own screen included)."""

LOCAL = N_("this computer")
"""The address of an in-process connection (the host player's table, a bot)."""


def first_error(error: BaseException) -> BaseException:
    """The first error a group holds (groups nest, nursery in nursery), or ``error``."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def fault_line(error: BaseException) -> str:
    """``ValueError: invalid literal for int() with base 10: '²' (lobby.py:151 in
    typed_rule)``: one line, safe for a terminal, whatever the message quotes."""
    error = first_error(error)
    message = " ".join(shown(str(error)).split())
    if len(message) > MAX_FAULT_CHARS:
        message = message[: MAX_FAULT_CHARS - 1] + "…"
    name = type(error).__name__
    text = f"{name}: {message}" if message else name
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return text
    # The innermost place in this program, then the innermost of all when that was in a
    # library (the json module's decoder, msgpack's packer).
    ours = [f for f in frames if _PACKAGE in PurePath(f.filename).parents]
    places = [ours[-1]] if ours else []
    if not ours or ours[-1] is not frames[-1]:
        places.append(frames[-1])
    where = ", then ".join(f"{PurePath(f.filename).name}:{f.lineno} in {f.name}" for f in places)
    return f"{text} ({where})"


_PACKAGE = PurePath(__file__).parent


def log_fault(log: logging.Logger, template: str, error: BaseException, **values: object) -> None:
    """One warning line (a ``Told``: in the reader's language on a console or a table's
    screen, English in a log file) and, at debug level, the whole traceback."""
    log.warning(Told(template, error=fault_line(error), **values))
    log.debug("the error in full", exc_info=first_error(error))
