"""The game and its roles in a few sentences: the part of the help every front end shows
(each adds how its own input works: the terminal its keys, the page its buttons)."""

from __future__ import annotations

from ...lang.i18n import N_, Translator

GAME_SECTIONS = (
    N_("The game"),
    N_(
        "Get rid of your cards first. Lower numbers are better: the Dalmuti (1) is "
        "best, the Peasant (12) worst. A Jester alone counts as 13; with other cards "
        "it takes their rank. The leader plays any number of cards of one rank; each "
        "next player plays as many cards of a better rank, or passes. When everyone "
        "else has passed, whoever played last leads the next trick."
    ),
    N_("Roles"),
    N_(
        "The first player out becomes the Greater Dalmuti, the second the Lesser "
        "Dalmuti, the last the Greater Peon. Before play, the Greater Peon gives the "
        "Greater Dalmuti their 2 best cards and gets 2 cards of the Dalmuti's choice; "
        "the Lesser Peon and Lesser Dalmuti do the same with 1 card. Whoever holds "
        "both Jesters may declare a revolution: no taxes; by the Greater Peon, all "
        "roles are reversed."
    ),
)
"""Title, text, title, text: marked with ``N_``."""


def game_sections(t: Translator) -> list[tuple[str, str]]:
    """Titles and texts, in the viewer's language."""
    words = [t._(text) for text in GAME_SECTIONS]
    return list(zip(words[::2], words[1::2], strict=True))
