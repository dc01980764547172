"""Terminal text measured in cells, so that wide (CJK, emoji) characters line up."""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

ELLIPSIS = "…"


def width(text: str) -> int:
    return sum(get_cwidth(char) for char in text)


def truncate(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` cells, with an ellipsis when something was cut."""
    if width(text) <= cells:
        return text
    if cells <= 0:
        return ""
    kept: list[str] = []
    used = 0
    for char in text:
        char_width = get_cwidth(char)
        if used + char_width > cells - 1:
            break
        kept.append(char)
        used += char_width
    return "".join(kept) + ELLIPSIS


def fit(text: str, cells: int, align: str = "left") -> str:
    """``text`` cut or padded with spaces to exactly ``cells`` cells."""
    text = truncate(text, cells)
    gap = " " * (cells - width(text))
    return gap + text if align == "right" else text + gap


def wrap(text: str, cells: int) -> list[str]:
    """Lines of at most ``cells`` cells, broken at spaces where there are any and anywhere
    between wide characters (Chinese has no spaces between words)."""
    if cells <= 0:
        return [text]
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0
        for word in _pieces(paragraph):
            word_width = width(word)
            if used + word_width > cells and line:
                if line.strip():  # spaces alone before a word that does not fit: dropped
                    lines.append(line.rstrip())
                line, used = "", 0
                if word == " ":
                    continue
            while word_width > cells:
                head = truncate_exact(word, cells)
                lines.append(head)
                word = word[len(head) :]
                word_width = width(word)
            line += word
            used += word_width
        lines.append(line.rstrip())
    return lines


def truncate_exact(text: str, cells: int) -> str:
    """The longest prefix of ``text`` that fits in ``cells`` cells (at least one char)."""
    kept: list[str] = []
    used = 0
    for char in text:
        char_width = get_cwidth(char)
        if used + char_width > cells and kept:
            break
        kept.append(char)
        used += char_width
    return "".join(kept)


def _pieces(text: str) -> list[str]:
    """Words, single spaces, and each wide character on its own."""
    pieces: list[str] = []
    word = ""
    for char in text:
        if char == " " or get_cwidth(char) > 1:
            if word:
                pieces.append(word)
                word = ""
            pieces.append(char)
        else:
            word += char
    if word:
        pieces.append(word)
    return pieces
