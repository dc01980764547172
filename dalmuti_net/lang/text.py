"""Terminal text measured in cells, so that wide (CJK, emoji) characters line up."""

from __future__ import annotations

from functools import lru_cache

from wcwidth import wcwidth

ELLIPSIS = "…"


@lru_cache(maxsize=4096)
def char_cells(char: str) -> int:
    """One character's cells: 2 for wide (CJK, most emoji), 0 for combining marks and for
    control characters (``wcwidth`` says -1 for those; prompt_toolkit, which draws the
    table, counts them as 0 too, so our layout and its drawing agree)."""
    return max(0, wcwidth(char))


def width(text: str) -> int:
    return sum(char_cells(char) for char in text)


def truncate(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` cells, with an ellipsis when something was cut."""
    if width(text) <= cells:
        return text
    if cells <= 0:
        return ""
    kept: list[str] = []
    used = 0
    for char in text:
        char_width = char_cells(char)
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
    for paragraph in tidy(text).split("\n"):
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


def tail(text: str, cells: int) -> str:
    """The end of ``text`` in at most ``cells`` cells, after ``…`` when it is cut (a text
    field shows where the typing is)."""
    if width(text) <= cells:
        return text
    kept: list[str] = []
    used = 1
    for char in reversed(text):
        char_width = char_cells(char)
        if used + char_width > cells:
            break
        kept.append(char)
        used += char_width
    return "…" + "".join(reversed(kept))


def truncate_exact(text: str, cells: int) -> str:
    """The longest prefix of ``text`` that fits in ``cells`` cells (at least one char)."""
    kept: list[str] = []
    used = 0
    for char in text:
        char_width = char_cells(char)
        if used + char_width > cells and kept:
            break
        kept.append(char)
        used += char_width
    return "".join(kept)


CLOSING = frozenset("。，、；：！？）」』》〉…．")
"""Full-width punctuation that never starts a line (it stays with what it follows)."""
OPENING = frozenset("（「『《〈")
"""Full-width punctuation that never ends a line (it goes with what follows it)."""


def _pieces(text: str) -> list[str]:
    """Words, single spaces, and each wide character on its own; full-width punctuation
    kept with its neighbour, so that no line starts with ``、`` or ends with ``（``."""
    pieces: list[str] = []
    word = ""
    for char in text:
        if char == " " or char_cells(char) > 1:
            if word:
                pieces.append(word)
                word = ""
            if (char in CLOSING and pieces and pieces[-1] != " ") or (
                pieces and pieces[-1][-1:] in OPENING
            ):
                pieces[-1] += char
            else:
                pieces.append(char)
        elif not word and pieces and pieces[-1][-1:] in OPENING:
            word = pieces.pop() + char  # the word takes its opening bracket with it
        else:
            word += char
    if word:
        pieces.append(word)
    return _numbers_kept_with_their_words(_seat_numbers_kept_with_names(pieces))


def _seat_numbers_kept_with_names(pieces: list[str]) -> list[str]:
    """``Heuristic bot (3)``: a seat's number never starts a line apart from its name."""
    out: list[str] = []
    for piece in pieces:
        number = piece.rstrip(".,;:")
        if (
            len(out) >= 2
            and out[-1] == " "
            and out[-2] != " "
            and number.startswith("(")
            and number.endswith(")")
            and number[1:-1].isdigit()
        ):
            out.pop()
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


def _numbers_kept_with_their_words(pieces: list[str]) -> list[str]:
    """``11 Stonecutter``, ``11 石匠``, ``2 cards``: a number never ends a line apart from
    the word it counts (in Chinese, the run of characters after it)."""
    out: list[str] = []
    index = 0
    while index < len(pieces):
        piece = pieces[index]
        number = piece.rstrip("".join(CLOSING))
        if number.isdigit() and len(out) >= 2 and out[-1] == " " and _is_wide_word(out[-2]):
            out.pop()
            piece = out.pop() + " " + piece  # 規則 15: in Chinese, with the word before it
        if piece.isdigit() and index + 2 < len(pieces) and pieces[index + 1] == " ":
            piece += " " + pieces[index + 2]
            index += 3
            while piece[-1] not in CLOSING and index < len(pieces):
                if char_cells(piece[-1]) < 2 or not _is_wide_word(pieces[index]):
                    break
                piece += pieces[index]
                index += 1
            out.append(piece)
            continue
        out.append(piece)
        index += 1
    return out


def _is_wide_word(piece: str) -> bool:
    return bool(piece) and all(char_cells(char) > 1 for char in piece) and piece[0] not in OPENING


def label_gap(label: str) -> str:
    """What goes between a label and its text: a space, none after ``：`` and its kin."""
    return "" if label[-1:] in CLOSING else " "


def tidy(text: str) -> str:
    """Taiwanese typography: no space between two CJK characters or next to full-width
    punctuation (a template's spaces around a name that turned out to be Chinese)."""
    if " " not in text or all(char_cells(char) < 2 for char in text):
        return text
    out: list[str] = []
    for index, char in enumerate(text):
        if char == " " and 0 < index < len(text) - 1:
            before, after = text[index - 1], text[index + 1]
            if before in CLOSING | OPENING or after in CLOSING | OPENING:
                continue
            if char_cells(before) > 1 and char_cells(after) > 1 and _is_cjk(before + after):
                continue
        out.append(char)
    return "".join(out)


def _is_cjk(chars: str) -> bool:
    """Han characters and kana, not emoji (a role symbol keeps its space)."""
    return all("\u2e80" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" for char in chars)
