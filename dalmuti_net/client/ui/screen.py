"""The screen as styled text for a given width and height: a pure function of ``ClientUi``.

It fits 80x24 and uses more room when there is more: with more columns the trick and the
chat get panels of their own, with more rows the log grows. Widths are measured in
terminal cells, so Chinese names and emoji symbols line up.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from ...engine import JESTER, Rules
from ...engine.cards import JESTERS_IN_DECK
from ...engine.rules import MAX_HAND_LIMIT, stripped_ranks
from ...lang.i18n import Translator
from ...lang.text import fit, label_gap, tail, tidy, truncate, width, wrap
from ...lang.words import role_symbol
from ..model.display import (
    Display,
    FindingView,
    HandView,
    LobbyView,
    ResultsView,
    SeatRow,
    TableState,
    display,
)
from ..model.rules_menu import (
    rule_value_text,
)
from ..model.seat_marks import Mark
from .confirm import confirmation_lines
from .help import help_screen
from .hints import Hint
from .refusals import refusal_lines, standings_lines
from .state import ClientUi, Overlay, Screen

Fragment = tuple[str, str]
Line = list[Fragment]


WIDE = 110
"""From this many columns on, the trick and the chat get panels beside the seats and log."""


def render(ui: ClientUi, cols: int, rows: int) -> list[Line]:
    """Exactly ``rows`` lines, none wider than ``cols`` cells, drawn from the typed view
    (``client/model/display.display``) with the terminal's keys and widths. The one thing
    it notes on ``ui``: how far its log can scroll at this size (``log_top``), for PgUp to
    stop there."""
    cols, rows = max(cols, 20), max(rows, 5)
    view = display(ui.model)
    footer = _footer(ui, view, cols, rows)
    room = rows - len(footer)
    if ui.overlay is Overlay.HELP:
        body = help_screen(
            ui.t, cols, rows, ui.help_scroll, discover=ui.model.screen is Screen.DISCOVER
        )
    elif view.finding is not None:
        body = _discover(ui, view, view.finding, cols)
    elif view.refusal is not None:
        body = refusal_lines(ui.t, view.refusal, cols)
    elif ui.model.screen is Screen.TABLE:
        body = _table(ui, view, cols, room)
    else:  # joining: a name or code to type (in the footer), or connecting
        body = [plain(view.title, "class:title"), [], *_notice(view, cols)]
    body = body[:room]
    body += [[] for _ in range(room - len(body))]
    return [fit_line(line, cols) for line in body + footer]


# ----------------------------------------------------------------------------- helpers


def line_width(line: Line) -> int:
    return sum(width(text) for _, text in line)


def fit_line(line: Line, cols: int) -> Line:
    """Cut ``line`` to ``cols`` cells (with an ellipsis) and pad it to exactly that."""
    out: Line = []
    used = 0
    for style, text in line:
        room = cols - used
        if room <= 0:
            break
        if width(text) > room:
            cut = truncate(text, room)
            out.append((style, cut))
            used += width(cut)
            break
        out.append((style, text))
        used += width(text)
    if used < cols:
        out.append(("", " " * (cols - used)))
    return out


def plain(text: str, style: str = "") -> Line:
    return [(style, text)]


def rule(title: str, cols: int, style: str = "class:rule") -> Line:
    head = f"── {title} " if title else ""
    return [(style, head + "─" * max(0, cols - width(head)))]


def wrapped(text: str, cols: int, style: str = "") -> list[Line]:
    return [plain(line, style) for line in wrap(text, cols)]


def side_by_side(
    left: list[Line], right: list[Line], left_cols: int, gap: str = " │ "
) -> list[Line]:
    rows = max(len(left), len(right))
    out: list[Line] = []
    for index in range(rows):
        lhs = fit_line(left[index], left_cols) if index < len(left) else plain(" " * left_cols)
        rhs = right[index] if index < len(right) else []
        out.append([*lhs, ("class:rule", gap), *rhs])
    return out


def after(first: Line, text: str, cols: int, style: str = "") -> list[Line]:
    """``text`` wrapped to ``cols`` cells, its first line after ``first`` (kept whole, in
    its own styles) where there is room, else on the lines below it."""
    used = line_width(first)
    gap = label_gap(first[-1][1]) if first else ""  # none after a Chinese "！"
    if used + len(gap) >= cols:
        return [first, *wrapped(text, cols, style)]
    stand_in = "x" * used  # one word as wide as ``first``: ``wrap`` keeps it whole
    lines = wrap(stand_in + gap + tidy(text), cols)
    if not lines[0].startswith(stand_in):
        return [first, *wrapped(text, cols, style)]
    head: Line = [*first, (style, lines[0][used:])]
    return [head, *(plain(line, style) for line in lines[1:])]


def hint_line(t: Translator, hints: Iterable[Hint]) -> Line:
    line: Line = []
    for hint in hints:
        if line:
            line.append(("", "  "))
        line.append(("class:key", t._(hint.keys)))
        line.append(("", " " + t._(hint.label)))
    return line


def wrap_fragments(pieces: list[Line], cols: int, sep: str = "  ") -> list[Line]:
    """Lay out pieces (each kept whole) over as many lines as they need."""
    lines: list[Line] = [[]]
    used = 0
    for piece in pieces:
        piece_width = line_width(piece)
        extra = width(sep) if lines[-1] else 0
        if lines[-1] and used + extra + piece_width > cols:
            lines.append([])
            used, extra = 0, 0
        if extra:
            lines[-1].append(("", sep))
        lines[-1].extend(piece)
        used += extra + piece_width
    return lines


def visible_hints(ui: ClientUi, cols: int, rows: int) -> list[Hint]:
    """The state's hints, less those for keys that do nothing at this size (``m`` where
    the cards played are always on screen)."""
    hints = ui.hints()
    if memory_always_shown(cols, rows):
        hints = [hint for hint in hints if hint.keys != "m"]
    return hints


def _footer(ui: ClientUi, view: Display, cols: int, rows: int = 24) -> list[Line]:
    lines: list[Line] = []
    if view.question is not None:  # over a field being typed in too (Ctrl-C there)
        lines += confirmation_lines(view.question, cols)
    elif ui.editor is not None:
        if ui.editor.field is not None and view.field is not None:  # one the model asks for
            label = view.field.label
        else:  # the terminal's own: a chat line, a rule's value
            label = ui.t._(ui.editor.label).format(**ui.editor.values)
        label += label_gap(label)
        room = max(1, cols - width(label) - 1)  # the cursor's cell
        text = tail(ui.editor.text, room)  # scrolled: the end being typed stays in view
        lines.append([("class:prompt", label), ("class:input", text), ("class:cursor", " ")])
    hints = wrap_fragments([hint_line(ui.t, [h]) for h in visible_hints(ui, cols, rows)], cols)
    return lines + [[("class:hints", ""), *line] for line in hints[:2]]


def _notice(view: Display, cols: int) -> list[Line]:
    """The view's notice (mostly why something was refused), wrapped."""
    notice = view.notice
    return [] if notice is None else wrapped(notice.text, cols, f"class:{notice.level}")


# ----------------------------------------------------------------------------- finding


def _discover(ui: ClientUi, view: Display, finding: FindingView, cols: int) -> list[Line]:
    """The tables found on the network (the view's), in columns, the chosen one's notes
    under them; the cursor is the terminal's."""
    lines = [plain(view.title, "class:title"), []]
    if not finding.tables:
        lines.append(plain(finding.looking, "class:dim"))
        for index, sentence in enumerate(finding.slow):
            lines.append([])
            lines += wrapped(sentence, cols, "class:warning" if index == 0 else "")
    else:
        rows_text = [
            [
                f"! {found.name}" if found.claimed else found.name,  # said under the list
                found.address,
                found.seats,
                found.phase,
                found.code,
                f"{found.protocol} {'✓' if found.compatible else '✗'}",
            ]
            for found in finding.tables
        ]
        headers = list(finding.headers)
        widths = [max(width(row[c]) for row in [headers, *rows_text]) for c in range(6)]
        widths[0] = max(10, min(widths[0], cols - 2 - sum(widths[1:]) - 5))
        lines.append(
            plain(
                "  " + " ".join(fit(h, w) for h, w in zip(headers, widths, strict=True)),
                "class:heading",
            )
        )
        for index, (found, row) in enumerate(zip(finding.tables, rows_text, strict=True)):
            chosen = index == ui.discovery_index
            text = " ".join(fit(v, w) for v, w in zip(row[:5], widths, strict=False))
            lines.append(
                [
                    ("class:marker", "▶ " if chosen else "  "),
                    ("class:cursor" if chosen else "", text),
                    ("", " "),
                    ("class:good" if found.compatible else "class:error", row[5]),
                ]
            )
        chosen_one = finding.tables[min(ui.discovery_index, len(finding.tables) - 1)]
        for note in chosen_one.notes:
            lines.append([])
            lines += wrapped(note, cols, "class:warning")
    if view.notice is not None:
        lines.append([])
        lines += _notice(view, cols)
    return lines


# ----------------------------------------------------------------------------- the table


def _header(ui: ClientUi, view: Display, cols: int) -> Line:
    parts = [view.name]
    if view.lobby is not None:
        parts.append(ui.t._("Lobby"))
    elif view.table is not None:
        parts.append(view.table.heading)
    left = " · ".join(p for p in parts if p)
    connection = view.connection
    right = "● " + connection.text if ui.model.live else connection.text  # (a replay)
    room = cols - width(right) - 1
    return [("class:title", fit(left, room)), ("", " "), (f"class:{connection.tone}", right)]


def _turn_line(state: TableState) -> Line:
    """What the table waits for, and on your turn how long you have."""
    if not state.turn:
        return []
    line: Line = [(f"class:{state.turn_tone}", state.turn)]
    if state.time_left is not None:
        line += [("", "  "), (f"class:{state.time_left.tone}", state.time_left.text)]
    return line


def _table(ui: ClientUi, view: Display, cols: int, rows: int) -> list[Line]:
    """The table's body in ``rows`` rows (the footer is drawn apart), from the typed
    view."""
    lines: list[Line] = [_header(ui, view, cols)]
    if ui.model.session is None or ui.model.table is None:
        return lines
    if view.lobby is not None:
        return lines + _lobby(ui, view.lobby, cols, rows - 1)
    state = view.table
    if state is None:
        lines.append(plain(ui.t._("Waiting for the first hand…"), "class:dim"))
        return lines + _log_block(ui, cols, rows - 2)
    if state.results is not None:  # the last hand's too, before the final standings
        lines += _results(ui, state.results, cols)
        return lines + _log_block(ui, cols, rows - len(lines))
    top: list[Line] = []
    hand: list[Line] = []
    decision: list[Line] = []
    memory: list[Line] = []
    for squeeze in range(SQUEEZES + 1):
        top, hand, decision = _table_parts(ui, view, state, cols, squeeze)
        if ui.model.in_hand and (ui.show_memory or memory_always_shown(cols, rows)):
            memory = _memory(ui, cols)
        room = rows - len(lines) - len(top) - len(hand) - len(decision) - len(memory)
        if room > LOG_MIN_LINES:  # its title and the lines
            break
    return lines + top + hand + decision + memory + _log_block(ui, cols, max(room, 0))


LOG_MIN_LINES = 3
"""Log lines a small screen (60x20) keeps under the table, squeezing the rest to make room."""
SQUEEZES = 4
"""How far the table may be squeezed for the log: 1, the trick's story in one line and
"Your turn!" on the prompt's line; 2, the seats without their columns' headings; 3, the
hand's cards by number only (``12 ×2``, the names are in the prompt and the selection);
4, the hand's title on the cards' line instead of a rule of its own. Each step loses
more than the one before; none is taken where the log has room (eight seats at 60x20
take them all)."""


def _table_parts(
    ui: ClientUi, view: Display, state: TableState, cols: int, squeeze: int
) -> tuple[list[Line], list[Line], list[Line]]:
    """The seats and trick, the hand, and the decision, ``squeeze`` steps squeezed."""
    seat_cols = min(84, cols - 40) if cols >= WIDE else cols
    seats = _seats(ui, state, cols, seat_cols, heading=squeeze < 2)
    if cols >= WIDE:
        top = side_by_side(seats, _trick_panel(state, cols - seat_cols - 3), seat_cols)
    else:
        top = seats + _trick_story(state, cols, 1 if squeeze else STORY_LINES)
    hand = _hand(ui, state.hand, cols, numbers_only=squeeze >= 3, inline=squeeze >= 4)
    return top, hand, _decision(ui, view, state, cols, joined=squeeze >= 1)


MEMORY_ALWAYS_ROWS = 34
"""From this many rows (or WIDE columns) on, the cards played are always on screen."""


def memory_always_shown(cols: int, rows: int) -> bool:
    return rows >= MEMORY_ALWAYS_ROWS or cols >= WIDE


def styled(marks: Iterable[Mark]) -> list[Fragment]:
    """Seat marks as the screen styles them."""
    return [(f"class:{mark.tone}", mark.text) for mark in marks]


NAME_MIN_COLS = 10
"""A seat's name is cut to no less than this to make room for its tags."""


def fit_name(name: str, cells: int) -> str:
    """``name`` in ``cells`` cells; cut, it keeps a number at its end (``Random… (3)``):
    that is what tells two bots, or two Anas, apart."""
    if width(name) <= cells:
        return fit(name, cells)
    head, space, number = name.rpartition(" ")
    if space and head and number.startswith("(") and width(number) + 3 <= cells:
        cut = truncate(head, cells - width(number) - 1)
        if cut.endswith(" …"):
            cut = cut[:-2] + "…"
        return fit(cut + " " + number, cells)
    return fit(name, cells)


def _seat_columns(
    heading: tuple[str, ...],
    seats: tuple[SeatRow, ...],
    cols: int,
    room: int,
    fixed: int,
) -> tuple[int, int]:
    """The name and role columns' widths for seat rows in ``room`` cells, of which
    ``fixed`` go to the marker, symbol and figures (``heading``: the columns' headings).
    A seat's tags ("bot stands in", "bot in 42 s") matter more than whole names and role
    names: where they would not fit, the names are cut (to ``NAME_MIN_COLS``), then the
    role names give way (the symbol before each name still shows the role); 0 for the
    role: no role column."""
    name_cols = 20 if cols >= 90 else 18
    role_cols = 16
    tags = max((sum(2 + width(flag.text) for flag in seat.flags) for seat in seats), default=0)
    if fixed + name_cols + 1 + role_cols + tags <= room:
        return name_cols, role_cols
    names = [width(seat.name) for seat in seats]
    roles = [width(seat.role_name) for seat in seats]
    role_cols = max([width(heading[1]), *roles])  # no wider than its widest role
    name_cols = min(name_cols, max([width(heading[0]), *names]))
    shrunk = min(name_cols, room - fixed - 1 - role_cols - tags)
    if shrunk >= min(NAME_MIN_COLS, name_cols):
        return shrunk, role_cols
    return max(NAME_MIN_COLS, min(name_cols, room - fixed - tags)), 0


def _seats(
    ui: ClientUi, state: TableState, cols: int, room: int, heading: bool = True
) -> list[Line]:
    """The view's seat rows (``client/model/display.seat_rows``), one a row, in ``room``
    cells (the trick's panel beside them when wide); ``cols`` sets the name column's
    width; ``heading``: with the columns' headings (player, role, cards, score)."""
    player, role, cards, *score = state.columns
    seats = state.seats
    cards_cols = max(3, width(cards))
    score_cols = max([3, *(width(title) for title in score)])
    fixed = 2 + 2 + 1 + 1 + cards_cols + (1 + score_cols if score else 0)
    name_cols, role_cols = _seat_columns(state.columns, seats, cols, room, fixed)
    header = f"     {fit(player, name_cols)} "
    if role_cols:
        header += f"{fit(role, role_cols)} "
    header += fit(cards, cards_cols, "right")
    if score:
        header += f" {fit(score[0], score_cols, 'right')}"
    lines: list[Line] = [plain(header, "class:heading")] if heading else []
    for seat in seats:
        marker = ("class:turn", "▶ ") if seat.turn else ("", "  ")
        symbol = fit(role_symbol(seat.role, ui.ascii_symbols), 2)
        row: Line = [
            marker,
            ("class:symbol", symbol),
            ("", " "),
            ("class:me" if seat.me else "", fit_name(seat.name, name_cols)),
            ("", " "),
        ]
        if role_cols:
            row += [("class:role", fit(seat.role_name, role_cols)), ("", " ")]
        row.append(("", fit(str(seat.cards), cards_cols, "right")))
        if seat.score is not None:
            row.append(("", " " + fit(str(seat.score), score_cols, "right")))
        used = line_width(row)
        for style, flag in styled(seat.flags):
            if used + 2 + width(flag) > room:
                continue  # whole flags only: the least needed ("bot") come last
            row += [("", "  "), (style, flag)]
            used += 2 + width(flag)
        lines.append(row)
    if state.joining is not None:
        lines.append(plain("  " + state.joining, "class:dim"))
    return lines


def _play_pieces(state: TableState) -> list[Line]:
    """The trick's plays as the screen styles them: the set to beat stressed, passes and
    a trick over dimmed."""
    pieces: list[Line] = []
    for play in state.trick:
        if not state.trick_current or not play.played:
            style = "class:dim"
        else:
            style = "class:trick" if play.top else ""
        pieces.append([(style, play.text)])
    return pieces


STORY_LINES = 2
"""Lines the trick's story may take at 80 columns; older turns give way to newer ones
and the set on top (what is to beat) stays."""


def _trick_story(state: TableState, cols: int, max_lines: int = STORY_LINES) -> list[Line]:
    """The trick as it happened, after its title: ``On the table: Bo: Cook ×2 · Cy
    passes · You: …``; when it is over, the last trick (dimmed) with who took it."""
    if not state.trick:  # the table is over: nothing is on it
        return []
    title: Line = [("class:heading", state.trick_title)]
    pieces = _play_pieces(state)
    top = next((i for i, play in enumerate(state.trick) if play.top), None)
    # Older turns give way first, then the newest; the set on top (what is to beat, and
    # who played it) stays longest. Each run of turns left out shows as "…".
    order = [i for i in range(len(pieces)) if i != top]
    gap = label_gap(state.trick_title)
    lines: list[Line] = []
    for dropped in range(len(order) + 1):
        gone = set(order[:dropped])
        shown: list[Line] = []
        for index, piece in enumerate(pieces):
            if index not in gone:
                shown.append(list(piece))
            elif index == 0 or index - 1 not in gone:
                shown.append([("class:dim", "…")])
        first = shown.pop(0)
        lines = wrap_fragments([[*title, ("", gap), *first], *shown], cols, " · ")
        if len(lines) <= max_lines:
            break
    return lines[:max_lines]


def _trick_panel(state: TableState, cols: int) -> list[Line]:
    """Beside the seats on a wide screen: the trick turn by turn, under its title (none
    once the table is over: nothing is on it)."""
    if not state.trick:
        return []
    lines = [plain(state.trick_title, "class:heading")]
    pieces = _play_pieces(state)
    if len(pieces) > 9:
        pieces = [[("class:dim", "…")], *pieces[-8:]]
    return lines + [fit_line(piece, cols) for piece in pieces]


def _memory(ui: ClientUi, cols: int) -> list[Line]:
    """The cards played so far, by rank: how many are gone and how many are still unseen
    (in other hands), Jesters included; ranks a stripped deck lacks show a dash."""
    t = ui.t
    session = ui.model.session
    observation = None if session is None else session.observation
    if observation is None:
        return []
    stripped_decks = ui.model.table is not None and ui.model.table.rules.stripped_decks
    stripped = set(stripped_ranks(Rules(stripped_decks=stripped_decks), len(observation.order)))
    hand = observation.hand
    labels = [t._("Rank"), t._("Played"), t._("Unseen")]
    label_cols = max(width(label) for label in labels) + 1
    cell = 3
    ranks: Line = [("class:heading", fit(labels[0], label_cols))]
    played: Line = [("", fit(labels[1], label_cols))]
    unseen: Line = [("class:dim", fit(labels[2], label_cols))]
    for card in range(1, JESTER + 1):
        total = 0 if card in stripped else (JESTERS_IN_DECK if card == JESTER else card)
        name = t._("J") if card == JESTER else str(card)
        ranks.append(("class:heading", fit(name, cell, "right")))
        if not total:
            played.append(("class:dim", fit("-", cell, "right")))
            unseen.append(("class:dim", fit("-", cell, "right")))
            continue
        gone = observation.played[card]
        mine = 0 if hand is None else hand[card]
        left = total - gone - mine
        played.append(("class:dim" if gone == 0 else "", fit(str(gone), cell, "right")))
        unseen.append(("class:good" if left == 0 else "", fit(str(left), cell, "right")))
    return [rule(t._("Cards played so far"), cols), ranks, played, unseen]


NAME_COLS = 22
"""A player's name in a table of results is cut to this, where the screen has no more room."""


def column_widths(rows: list[list[str]], cols: int) -> list[int]:
    """Each column as wide as its widest cell; the names (the second column) cut to what
    the screen has room for, at least ``NAME_COLS``."""
    widths = [max(width(row[column]) for row in rows) for column in range(len(rows[0]))]
    room = cols - 2 - sum(widths) + widths[1] - 2 * (len(widths) - 1)
    widths[1] = min(widths[1], max(NAME_COLS, room))
    return widths


def columns(cells: list[str], widths: list[int], right: Collection[int], style: str) -> Line:
    """One row of a table of results: two cells in, each cell fitted to its column, two
    cells apart; the columns in ``right`` right-aligned (figures)."""
    fitted = (
        fit(cell, cells_wide, "right" if index in right else "left")
        for index, (cell, cells_wide) in enumerate(zip(cells, widths, strict=True))
    )
    return plain("  " + "  ".join(fitted), style)


def results_rows(ui: ClientUi, results: ResultsView) -> list[list[str]]:
    """The view's results as the table's rows, each next hand's role with its symbol."""
    rows = []
    for row in results.rows:
        cells = list(row.cells)
        if row.role is not None:
            cells[2] = f"{role_symbol(row.role, ui.ascii_symbols)} {cells[2]}"
        rows.append(cells)
    return rows


def _results(ui: ClientUi, results: ResultsView, cols: int) -> list[Line]:
    """The hand just over (``display.results_view``): finishing order, next hand's roles,
    points and totals (with scoring), the cards that changed hands with you, and who the
    next deal waits for; until the next deal or a key."""
    t = ui.t
    lines: list[Line] = [rule(results.title, cols)]
    headers, rows = list(results.headers), results_rows(ui, results)
    widths = column_widths([headers, *rows], cols)
    figures = (t._("Points"), t._("Total"))
    right = {index for index, heading in enumerate(headers) if heading in figures}
    lines.append(columns(headers, widths, right, "class:heading"))
    for view_row, row in zip(results.rows, rows, strict=True):
        lines.append(columns(row, widths, right, "class:me" if view_row.me else ""))
    for note in results.notes:
        lines += wrapped(note, cols)
    if results.next:
        lines += wrapped(results.next, cols, "class:dim")
    return lines


def _hand(
    ui: ClientUi,
    hand: HandView | None,
    cols: int,
    numbers_only: bool = False,
    inline: bool = False,
) -> list[Line]:
    """The view's hand under its title; ``numbers_only``: ``12 ×2`` for ``12 Peasant
    ×2``; ``inline``: the title on the cards' first line, not a rule above them."""
    t = ui.t
    if hand is None:
        return [rule(t._("You are watching"), cols)]
    pieces: list[Line] = []
    for card in hand.cards:
        text = f"{card.rank if numbers_only else card.label} ×{card.count}"
        piece: Line = [("class:cursor" if card.pointed else "class:card", text)]
        if card.picked:
            piece.append(("class:picked", f" ✓{card.picked}"))
        pieces.append(piece)
    if inline:
        heading = [("class:heading", hand.title)]
        empty = [] if pieces else [[("class:dim", t._("(no cards)"))]]
        return wrap_fragments([heading, *pieces, *empty], cols)
    lines = [rule(hand.title, cols)]
    if not pieces:
        return [*lines, plain(t._("(no cards)"), "class:dim")]
    return lines + wrap_fragments(pieces, cols)


def _decision(
    ui: ClientUi, view: Display, state: TableState, cols: int, joined: bool = False
) -> list[Line]:
    """What is asked of the viewer; ``joined``: the turn line and the question share
    their first line (``Your turn! Your lead: play any set.``) where they fit."""
    lines: list[Line] = []
    turn = _turn_line(state)
    decision = state.decision
    prompt = None if decision is None else decision.prompt
    if turn and prompt is not None and joined:
        # "Your turn!" alone: the time left is on the seat's row too ("◷ 42 s").
        lines += after(turn[:1], prompt, cols)[:3]
    else:
        if turn:
            lines.append(turn)
        if prompt is not None:
            lines += wrapped(prompt, cols)[:3]
    if decision is not None and decision.selection:
        lines += wrapped(decision.selection, cols, "class:selection")[:2]
    if view.notice is not None:
        lines += wrapped(view.notice.text, cols, f"class:{view.notice.level}")[:2]
    if not state.standings:
        return lines
    return [*lines, rule(ui.t._("Final standings"), cols), *standings_lines(state.standings, cols)]


def _log_block(ui: ClientUi, cols: int, rows: int) -> list[Line]:
    t = ui.t
    if rows <= 1:
        return []
    body_rows = rows - 1
    if cols >= WIDE:
        left_cols = cols - max(36, cols // 3) - 3
        events = [line for line in ui.model.log if line.kind != "chat"]
        chats = [line for line in ui.model.log if line.kind == "chat"]
        ui.log_top = log_top(events, left_cols, body_rows)
        left = _log_lines(events, left_cols, body_rows, ui.log_scroll)
        right = _log_lines(chats, cols - left_cols - 3, body_rows, 0)
        title = [
            rule(_log_title(ui, t._("Log")), left_cols)[0],
            ("class:rule", "─┼─"),
            rule(t._("Chat"), cols - left_cols - 3)[0],
        ]
        return [title, *side_by_side(left, right, left_cols)]
    ui.log_top = log_top(list(ui.model.log), cols, body_rows)
    entries = _log_lines(list(ui.model.log), cols, body_rows, ui.log_scroll)
    return [rule(_log_title(ui, t._("Log and chat")), cols), *entries]


def _log_title(ui: ClientUi, title: str) -> str:
    """The log's title, saying so when PgUp has hidden newer entries (End shows them)."""
    hidden = min(ui.log_scroll, ui.log_top or 0)
    if not hidden:
        return title
    return ui.t.n_(
        "{title} · {n} newer entry below, End shows it",
        "{title} · {n} newer entries below, End shows them",
        hidden,
    ).format(title=title, n=hidden)


def log_top(entries: list[Any], cols: int, rows: int) -> int:
    """The scroll (entries left out below) that shows the first page of the log: as many
    of its earliest entries as fit whole. Scrolled further, the page would not be full."""
    used = 0
    for index, entry in enumerate(entries):
        used += len(_entry_lines(entry, cols, rows))
        if used > rows:
            return len(entries) - max(index, 1)
    return 0


LOG_STYLES = {"chat": "class:chat", "error": "class:error", "info": "class:dim", "event": ""}


def _entry_lines(entry: Any, cols: int, rows: int) -> list[Line]:
    """A log entry's lines in ``cols`` cells: a sentence wrapped; a drawing (``drawing``:
    the web table's QR code, one line a row) as it is, whole or not at all, since a QR
    code cut by the log's edge, or wrapped, cannot be scanned (its address is told in
    words too)."""
    if entry.kind == "drawing":
        drawn = entry.text.split("\n")
        if len(drawn) > rows or any(width(line) > cols for line in drawn):
            return []
        return [plain(line) for line in drawn]
    return wrapped(entry.text, cols, LOG_STYLES.get(entry.kind, ""))


def _log_lines(entries: list[Any], cols: int, rows: int, scroll: int) -> list[Line]:
    out: list[Line] = []
    top = log_top(entries, cols, rows)
    if top and scroll >= top:  # the first page: full, its last entry cut if it must be
        for entry in entries:
            out += _entry_lines(entry, cols, rows)
            if len(out) >= rows:
                return out[:rows]
    end = len(entries) - scroll
    for entry in reversed(entries[:end]):
        block = _entry_lines(entry, cols, rows)
        if len(out) + len(block) > rows:
            if not out:  # one entry longer than the whole log: its end
                out = block[-rows:]
            break  # never half an entry at the top
        out = block + out
    else:
        return out if rows > 0 else []  # everything fits: from the top
    return [[] for _ in range(rows - len(out))] + out  # the newest lines stay at the bottom


# ----------------------------------------------------------------------------- lobby


def _lobby(ui: ClientUi, lobby: LobbyView, cols: int, rows: int) -> list[Line]:
    """The lobby of the typed view (``display.lobby_view``): its seats with their marks,
    watchers, the rules in force and the clocks, and what it waits for."""
    lines: list[Line] = [rule(lobby.heading, cols)]
    seat_rows = _lobby_seats(ui, lobby, LOBBY_NAME_COLS)
    lines += seat_rows
    if lobby.watchers is not None:
        lines += wrapped("  " + lobby.watchers, cols, "class:dim")
    lines.append(rule(lobby.rules_title, cols))
    if ui.overlay is Overlay.RULES:
        lines += _rules_panel(ui, lobby, cols)
    else:
        lines += wrapped(lobby.summary, cols)[:4]
        lines += wrapped(lobby.clocks, cols, "class:dim")[:3]
        lines += _rules_idle(lobby, cols)
    if lobby.waiting:
        lines += wrapped(lobby.waiting, cols, f"class:{lobby.waiting_tone}")[:2]
    if ui.model.notice is not None and ui.overlay is not Overlay.RULES:  # there: in the panel
        lines += wrapped(ui.model.notice.text, cols, f"class:{ui.model.notice.level}")[:2]
    room = rows - len(lines)
    if room <= LOG_MIN_LINES and len(seat_rows) > 4 and cols < WIDE:
        # Short of rows (60x20, eight seats): the seats in two columns, so that what the
        # lobby waits for (the last lines above the log) stays on screen.
        longest = max(width(seat.name) for seat in lobby.seats)
        paired = _lobby_seats(ui, lobby, min(LOBBY_NAME_COLS, longest))
        column_cols = (cols - 3) // 2
        if all(line_width(row) <= column_cols for row in paired):  # marks kept whole
            half = (len(paired) + 1) // 2
            columns = side_by_side(paired[:half], paired[half:], column_cols)
            lines = [lines[0], *columns, *lines[1 + len(seat_rows) :]]
            room = rows - len(lines)
    return lines + _log_block(ui, cols, room)


LOBBY_NAME_COLS = 24
"""A lobby seat's name column, where there is room."""


def _lobby_seats(ui: ClientUi, lobby: LobbyView, name_cols: int) -> list[Line]:
    """The lobby's seats, one a row: the name, then its marks (host, bot, ready...); the
    host player's cursor on one of them."""
    rows: list[Line] = []
    for index, seat in enumerate(lobby.seats):
        chosen = (
            ui.model.is_host
            and ui.overlay is not Overlay.RULES  # one cursor: the rules panel has it
            and index == ui.lobby.index
        )
        name_style = "class:cursor" if chosen else ("class:me" if seat.me else "")
        row: Line = [
            ("class:marker", "▶ " if chosen else "  "),
            (name_style, fit_name(seat.name, name_cols)),
        ]
        for style, mark in styled(seat.marks):
            row += [("", "  "), (style, mark)]
        rows.append(row)
    return rows


def _rules_panel(ui: ClientUi, lobby: LobbyView, cols: int) -> list[Line]:
    """The host player's menu: the typed view's rule rows, a value column, a cursor."""
    t = ui.t
    lines: list[Line] = [plain(t._("Rule options (the host player's)"), "class:heading")]
    labels = [row.label for row in lobby.rules]
    # The values in one column right after the longest label, as wide as any value may be
    # (it stays put as values change); a label longer than the room left is wrapped whole.
    value_cols = max(
        width(value) for value in [*(r.value for r in lobby.rules), *_widest_values(t)]
    )
    label_cols = max(1, min(max(width(label) for label in labels), cols - 3 - value_cols))
    for index, row in enumerate(lobby.rules):
        chosen = index == ui.rules_editor.index
        style = "class:cursor" if chosen else ""
        first, *more = wrap(row.label, label_cols)
        lines.append(
            [
                ("class:marker", "▶ " if chosen else "  "),
                (style, fit(first, label_cols)),
                ("", " "),
                ("class:heading", row.value),
            ]
        )
        lines += [[("", "  "), (style, fit(part, label_cols))] for part in more]
    lines += _rules_idle(lobby, cols)
    if ui.model.notice is not None:
        lines += wrapped(ui.model.notice.text, cols, f"class:{ui.model.notice.level}")[:2]
    return lines


def _widest_values(t: Translator) -> list[str]:
    """Every kind of value a rule option shows, at its widest."""
    return [
        rule_value_text(t, key, value)
        for key, value in (
            ("scoring", True),
            ("scoring", False),
            ("hand_limit", None),
            ("hand_limit", MAX_HAND_LIMIT),
            ("misdeal_chance", 1.0),
            ("turn_timer", None),
            ("turn_timer", 3600),
        )
    ]


def _rules_idle(lobby: LobbyView, cols: int) -> list[Line]:
    """Options that are on but do nothing with the seats there are, each said once."""
    lines: list[Line] = []
    for row in lobby.rules:
        if row.idle is not None:
            lines += wrapped(row.idle, cols, "class:warning")[:2]
    return lines


__all__ = ["Line", "render", "results_rows", "visible_hints"]
