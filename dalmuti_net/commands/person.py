"""Who is sitting down: the one name a person plays under, asked once and remembered.

``dalmuti host`` and ``dalmuti join HOST`` both seat the person at this keyboard before a
table screen exists, so both ask here, the same way: a name given on the command line is
remembered from now on; else the remembered one is used; else, at a terminal, the name is
asked once (the login name offered) and remembered. A script without a terminal is seated
under the login name and nothing is remembered, so a test or a cron job never names the
person who later plays from the same account.
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..lang.i18n import Translator


def login_name(fallback: str) -> str:
    """The account's login name, or ``fallback`` where there is none (a container)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return fallback


def settled_name(
    given: str | None,
    t: Translator,
    *,
    offered: str,
    interactive: bool | None = None,
    read: Callable[[str], str] = input,
) -> str | None:
    """The name to play under, or None when ``offered`` stands and nothing was settled
    (no terminal to ask at). ``given`` is ``--player-name``; ``offered`` is what Enter
    keeps at the question."""
    from ..client.ui.config import load_name, save_name
    from ..protocol.catalogue import MAX_NAME_CHARS
    from ..protocol.text import clean_text

    if given and given.strip():
        save_name(given.strip())
        return given.strip()
    remembered = load_name()
    if remembered is not None:
        return remembered.strip()
    if not (sys.stdin.isatty() if interactive is None else interactive):
        return None
    try:
        typed = read(t._("Your name at the table [{name}]: ").format(name=offered))
    except EOFError:
        typed = ""
    name = clean_text(typed.strip())[:MAX_NAME_CHARS].strip() or offered
    save_name(name)
    return name
