"""The help every front end shows: the game and its roles, and the clocks of an evening,
in a few sentences (each front end adds how its own input works, and names its own keys
or buttons in the clocks' text: the terminal its keys, the page its buttons)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...lang.i18n import N_, Translator
from ...lang.text import tidy

Section = tuple[str, str]
"""A title and its text."""

GAME_SECTIONS: tuple[Section, ...] = (
    (
        N_("The game"),
        N_(
            "Get rid of your cards first. Lower numbers are better: the Dalmuti (1) is "
            "best, the Peasant (12) worst. A Jester alone counts as 13; with other cards "
            "it takes their rank. The leader plays any number of cards of one rank; each "
            "next player plays as many cards of a better rank, or passes. When everyone "
            "else has passed, whoever played last leads the next trick."
        ),
    ),
    (
        N_("Roles"),
        N_(
            "The first player out becomes the Greater Dalmuti, the second the Lesser "
            "Dalmuti, the last the Greater Peon. Before play, the Greater Peon gives the "
            "Greater Dalmuti their 2 best cards and gets 2 cards of the Dalmuti's choice; "
            "the Lesser Peon and Lesser Dalmuti do the same with 1 card. Whoever holds "
            "both Jesters may declare a revolution: no taxes; by the Greater Peon, all "
            "roles are reversed."
        ),
    ),
)
"""Titles and texts, marked with ``N_``."""

CLOCKS = (
    N_("Clocks and the evening"),
    N_(
        "A turn timer (the host player sets it with {rules}) makes the default move for "
        "whoever runs out of time; everyone sees the countdown. When nothing of yours beats "
        "the table, auto-pass passes for you after a moment, once you have seen what beat "
        "you: {auto_pass} turns it on or off. The host player can nudge whoever the table "
        "waits for with {nudge} and, a little later, skip their turn with {skip}. Between "
        "hands, {read} says you have read the results: the next hand is dealt once everyone "
        "is ready, or when the pause runs out. After the last hand's points come the final "
        "standings; then the host player can offer a rematch with {rematch}, which the "
        "others accept with {ready}."
    ),
)
"""The clocks of an evening; a front end names its own keys or buttons for each
placeholder (``CLOCK_INPUTS``)."""
CLOCK_INPUTS = ("rules", "auto_pass", "nudge", "skip", "read", "rematch", "ready")


def sections(t: Translator, marked: Iterable[Section]) -> list[Section]:
    """Titles and texts marked with ``N_``, in the viewer's language."""
    return [(t._(title), t._(text)) for title, text in marked]


def game_sections(t: Translator) -> list[Section]:
    """The game and its roles, in the viewer's language."""
    return sections(t, GAME_SECTIONS)


def clocks_section(t: Translator, inputs: Mapping[str, str]) -> Section:
    """The clocks of an evening, each of ``CLOCK_INPUTS`` named as a front end offers it
    (already in the viewer's language)."""
    title, text = CLOCKS
    return t._(title), tidy(t._(text).format(**{name: inputs[name] for name in CLOCK_INPUTS}))
