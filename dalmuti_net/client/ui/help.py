"""The help screen: keys, the game and the roles, scrolled with its own keys.

Pure: the lines for a width, and which of them a screen of a given height shows. The
title stays on the first row, the keys to scroll and close in the footer (``ClientUi``
hints), and the rows between show the text from ``scroll`` on.
"""

from __future__ import annotations

from ...lang.i18n import N_, Translator
from ...lang.text import width, wrap
from ..model.help import game_sections
from .hints import Hint

Line = list[tuple[str, str]]

HINTS = (Hint(N_("↑↓ PgUp/PgDn"), N_("scroll")), Hint("Esc", N_("close")))
"""The keys are translated too (a Spanish keyboard says RePág/AvPág)."""
FOOTER_ROWS = 1
"""The help's footer is one line of hints at every width the screen supports."""


def discover_sections(t: Translator) -> list[tuple[str, str]]:
    """The table list's own help: its keys and what its columns say."""
    return [
        (
            t._("Keys"),
            t._(
                "↑↓ choose a table, Enter joins it, asking for your name (unless --player-name "
                "gave it) and for the join code if the table needs one (unless --code gave "
                "it). a joins by address (HOST or HOST:PORT), for a table that is not listed. "
                "q or Esc quits."
            ),
        ),
        (
            t._("The list"),
            t._(
                "Tables announce themselves on this network. Seats: taken of total. Phase: "
                "lobby (not started yet), playing or ended. Code: whether joining needs the "
                "table's join code. Protocol: the host's protocol version, ✓ if this program "
                "can play with it, ✗ if not. A table that is not listed can still be joined "
                "by address: a here, or dalmuti join HOST[:PORT]."
            ),
        ),
    ]


def discover_help_text_lines(t: Translator, cols: int) -> list[Line]:
    """The table list's help below its title, wrapped to ``cols`` cells."""
    return _section_lines(discover_sections(t), cols)


def help_text_lines(t: Translator, cols: int, *, discover: bool = False) -> list[Line]:
    """The help below its title, wrapped to ``cols`` cells: the game's, or with
    ``discover`` the table list's."""
    if discover:
        return discover_help_text_lines(t, cols)
    return _section_lines(help_sections(t), cols)


def help_sections(t: Translator) -> list[tuple[str, str]]:
    """The terminal's help: titles and texts."""
    return [
        (
            t._("Keys"),
            t._(
                "Play: ←→ choose a rank in your hand, ↑↓ how many cards, j adds Jesters, "
                "Tab jumps to the next legal set, Enter plays, p passes. Taxes: ←→ a card, "
                "↑ or Space picks it, ↓ puts it back, Enter gives. y/n answers a revolution, "
                "i/p a misdeal, d declines a Merchant exchange. Lobby: r ready; the host "
                "player has s start, b/B bots, x remove a bot, k kick, o rules. t chats, "
                "PgUp/PgDn scroll the log, End goes back to its newest line, q quits."
            ),
        ),
        (
            t._("On screen"),
            t._(
                "The trick in progress is told turn by turn: who played what and who passed; "
                "the last trick stays until the next lead. m shows the cards played so far "
                "by rank (always shown on a large screen). At the end of each hand a results "
                "screen shows the finishing order, the next hand's roles, the points and the "
                "taxes; any key goes back to the table."
            ),
        ),
        (
            t._("Clocks and the evening"),
            t._(
                "A turn timer (the host player's o menu) makes the default move for whoever "
                "runs out of time; everyone sees the countdown. When nothing of yours beats "
                "the table, auto-pass passes for you after a moment, once you have seen what "
                "beat you: a turns it on or off, and it is remembered. The host player can "
                "nudge whoever the table waits for with n and, a little later, skip their "
                "turn with N. Between hands, Enter says you "
                "have read the results: the next hand is dealt once everyone is ready, or "
                "when the pause runs out. After the last hand's points come the final "
                "standings; then the host player can offer a rematch with r, which the "
                "others accept with r."
            ),
        ),
        *game_sections(t),
    ]


def _section_lines(sections: list[tuple[str, str]], cols: int) -> list[Line]:
    lines: list[Line] = []
    for title, text in sections:
        if lines:
            lines.append([])
        lines.append([("class:heading", title)])
        lines += [[("", line)] for line in wrap(text, cols)]
    return lines


def body_rows(rows: int) -> int:
    """Rows for the help's text on a screen of ``rows`` rows (title and footer apart)."""
    return max(1, rows - 1 - FOOTER_ROWS)


def max_scroll(t: Translator, cols: int, rows: int, *, discover: bool = False) -> int:
    return max(0, len(help_text_lines(t, cols, discover=discover)) - body_rows(rows))


def help_screen(
    t: Translator, cols: int, rows: int, scroll: int, *, discover: bool = False
) -> list[Line]:
    """The title row, then the text from ``scroll`` (kept in range) for ``rows`` rows
    less the footer's."""
    text = help_text_lines(t, cols, discover=discover)
    room = body_rows(rows)
    scroll = min(max(0, scroll), max(0, len(text) - room))
    shown = text[scroll : scroll + room]
    title = t._("Help — press ? or Esc to close")
    where = ""
    if len(text) > room:
        where = t._("lines {first}–{last} of {total}").format(
            first=scroll + 1, last=scroll + len(shown), total=len(text)
        )
    gap = cols - width(title) - width(where)
    head: Line = [("class:title", title)]
    if where and gap >= 2:
        head += [("", " " * gap), ("class:dim", where)]
    return [head, *shown]
