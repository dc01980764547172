"""Cards, sets and roles in words and symbols, in the chosen language."""

from __future__ import annotations

from ..engine import JESTER, CardSet, Role
from .i18n import Translator

ROLE_SYMBOLS: dict[Role, str] = {
    Role.GREATER_DALMUTI: "♔",  # the king: the crown (rule 19)
    Role.LESSER_DALMUTI: "♕",
    Role.MERCHANT: "♗",
    Role.LESSER_PEON: "♙",
    Role.GREATER_PEON: "♟",  # the lowest piece: the straw hat (rule 19)
}
"""Chess pieces, one family from king to pawn: one cell wide in every terminal (East
Asian width neutral), and drawn by the fonts a system has without an emoji font (DejaVu
Sans and Sans Mono, which Debian's chromium brings), where the emoji they replace were
empty boxes."""
ASCII_ROLE_SYMBOLS: dict[Role, str] = {
    Role.GREATER_DALMUTI: "GD",
    Role.LESSER_DALMUTI: "LD",
    Role.MERCHANT: "M ",
    Role.LESSER_PEON: "LP",
    Role.GREATER_PEON: "GP",
}


def role_symbol(role: Role, ascii_only: bool = False) -> str:
    return (ASCII_ROLE_SYMBOLS if ascii_only else ROLE_SYMBOLS)[role]


def card_label(t: Translator, card: int) -> str:
    """``9 Cook``; the Jester has no number."""
    if card == JESTER:
        return t.card(card)
    return f"{card} {t.card(card)}"


def cards_count(t: Translator, card: int, count: int) -> str:
    return f"{t.card(card)} ×{count}"


def describe_set(t: Translator, card_set: CardSet) -> str:
    """``Cook ×3``, ``Cook ×3 (1 Jester)``, ``Jester ×2``."""
    text = cards_count(t, card_set.rank, card_set.count)
    if card_set.jesters and card_set.rank != JESTER:
        jesters = t.n_("{n} Jester", "{n} Jesters", card_set.jesters).format(n=card_set.jesters)
        text = t._("{set} ({jesters})").format(set=text, jesters=jesters)
    return text


def describe_cards(t: Translator, cards: tuple[int, ...] | list[int]) -> str:
    """Cards grouped: ``Dalmuti ×1, Cook ×2``."""
    counts: dict[int, int] = {}
    for card in sorted(cards):
        counts[card] = counts.get(card, 0) + 1
    return t.list_separator.join(cards_count(t, card, n) for card, n in counts.items())


def terminal_is_utf8() -> bool:
    """Whether stdout takes UTF-8: if not, roles get letters instead of symbols."""
    import sys

    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding == "utf8"
