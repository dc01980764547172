"""The help screen: keys, the game and the roles, scrolled with its own keys.

Pure: the lines for a width, and which of them a screen of a given height shows. The
title stays on the first row, the keys to scroll and close in the footer (``ClientUi``
hints), and the rows between show the text from ``scroll`` on.
"""

from __future__ import annotations

from ...lang.i18n import N_, Translator
from ...lang.text import width, wrap
from ..model.help import Section, clocks_section, game_sections, sections
from .hints import Hint

Line = list[tuple[str, str]]

HINTS = (Hint(N_("↑↓ PgUp/PgDn"), N_("scroll")), Hint("Esc", N_("close")))
"""The keys are translated too (a Spanish keyboard says RePág/AvPág)."""
FOOTER_ROWS = 1
"""The help's footer is one line of hints at every width the screen supports."""


DISCOVER_SECTIONS: tuple[Section, ...] = (
    (
        N_("Keys"),
        N_(
            "↑↓ choose a table, Enter joins it, asking for your name (unless --player-name "
            "gave it) and for the join code if the table needs one (unless --code gave "
            "it). a joins by address (HOST or HOST:PORT), for a table that is not listed. "
            "q or Esc quits."
        ),
    ),
    (
        N_("The list"),
        N_(
            "Tables announce themselves on this network. Seats: taken of total. Phase: "
            "lobby (not started yet), playing or ended. Code: whether joining needs the "
            "table's join code. Protocol: the host's protocol version, ✓ if this program "
            "can play with it, ✗ if not. A table that is not listed can still be joined "
            "by address: a here, or dalmuti join HOST[:PORT]."
        ),
    ),
)
"""The table list's own help: its keys and what its columns say."""

TABLE_SECTIONS: tuple[Section, ...] = (
    (
        N_("Keys"),
        N_(
            "Play: ←→ choose a rank in your hand, ↑↓ how many cards, j adds Jesters, "
            "Tab jumps to the next legal set, Enter plays, p passes. Taxes: ←→ a card, "
            "↑ or Space picks it, ↓ puts it back, Enter gives. y/n answers a revolution, "
            "i/p a misdeal, d declines a Merchant exchange. Lobby: r ready; the host "
            "player has s start, b bots (1-4 picks one), x remove a bot, k kick, o rules. t chats, "
            "PgUp/PgDn scroll the log, End goes back to its newest line, q quits."
        ),
    ),
    (
        N_("On screen"),
        N_(
            "The trick in progress is told turn by turn: who played what and who passed; "
            "the last trick stays until the next lead. m shows the cards played so far "
            "by rank (always shown on a large screen). At the end of each hand a results "
            "screen shows the finishing order, the next hand's roles, the points and the "
            "taxes; any key goes back to the table."
        ),
    ),
)
"""The table's help of the terminal's own: its keys and what its screen shows."""

CLOCK_KEYS = {
    "rules": "o",
    "auto_pass": "a",
    "nudge": "n",
    "skip": "N",
    "read": "Enter",
    "rematch": "r",
    "ready": "r",
}
"""The keys the clocks' help names (``client/model/help.CLOCK_INPUTS``)."""
KEY_NAME = N_("the {key} key")


def discover_help_text_lines(t: Translator, cols: int) -> list[Line]:
    """The table list's help below its title, wrapped to ``cols`` cells."""
    return _section_lines(sections(t, DISCOVER_SECTIONS), cols)


def help_text_lines(t: Translator, cols: int, *, discover: bool = False) -> list[Line]:
    """The help below its title, wrapped to ``cols`` cells: the game's, or with
    ``discover`` the table list's."""
    if discover:
        return discover_help_text_lines(t, cols)
    return _section_lines(help_sections(t), cols)


def help_sections(t: Translator) -> list[Section]:
    """The terminal's help: its keys and screen, then what every front end's help says
    (the clocks naming the terminal's keys, the game, the roles)."""
    keys = {name: t._(KEY_NAME).format(key=key) for name, key in CLOCK_KEYS.items()}
    return [*sections(t, TABLE_SECTIONS), clocks_section(t, keys), *game_sections(t)]


def _section_lines(told: list[Section], cols: int) -> list[Line]:
    lines: list[Line] = []
    for title, text in told:
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
