"""What a browser shows, built from the client's table model, and what its taps mean.

Sans-I/O: ``render_view`` turns a ``ClientUi`` into one JSON-able dict, already in the
viewer's language; ``choose`` turns a choice from the page into the same key presses the
terminal sends, so every check (an illegal set explained before anything is sent, the
lobby's and the rules' checks) and every sentence (narration, seat status, results,
standings, help) is the terminal's own, written once. The screen itself is the terminal
screen's text at the width the page measured; the page adds touch: a button for each key
the footer offers, the cards of the hand to point at, the legal sets to pick.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..client.model import intents as do
from ..client.model.choosers import PlayChooser
from ..client.model.display import next_deal, seat_rows
from ..client.model.story import describe_event
from ..client.ui.confirm import confirmation_lines
from ..client.ui.help import help_text_lines
from ..client.ui.hints import Hint, button
from ..client.ui.screen import (
    cards_played,
    final_standings,
    header_line,
    render,
    results_rows,
    trick_story,
    turn_line,
    visible_hints,
)
from ..client.ui.state import (
    FINAL_STANDINGS_HINT,
    READ_RESULTS_HINT,
    ClientUi,
    Effect,
    Overlay,
    Screen,
)
from ..engine import JESTER
from ..lang.i18n import LANGUAGE_TAGS, LANGUAGES, N_
from ..lang.text import tidy
from ..lang.words import card_label, describe_set

MIN_COLS, MAX_COLS = 30, 160
MIN_ROWS, MAX_ROWS = 12, 80

KEY_NAMES = {
    "Enter": "enter",
    "Esc": "escape",
    "Tab": "tab",
    "Space": "space",
    "PgUp": "pageup",
    "PgDn": "pagedown",
}
"""A key as the footer names it, and as ``ClientUi.press`` knows it."""
ARROWS = {"←": "left", "→": "right", "↑": "up", "↓": "down"}
ARROW_GLYPHS = {"left": "◀", "right": "▶", "up": "▲", "down": "▼"}

PRESSABLE = frozenset({*KEY_NAMES.values(), *ARROWS.values(), "backspace", "s-tab", "+", "-", "?"})
"""Named keys a page may send; any single printable character may be sent too."""


@dataclass(frozen=True)
class Button:
    key: str
    label: str


def hint_buttons(hint: Hint, translate: Any) -> list[Button]:
    """The touch buttons for one footer hint. Words apart name keys doing different
    things ("↑↓ x": move, then remove); a slash names keys doing one thing ("b/B",
    "↑/Space", "o/Esc"): the first is enough; a pair of arrows is a pair of buttons.
    "any key" is Enter's button."""
    label = translate(hint.label)
    if hint.keys == FINAL_STANDINGS_HINT.keys:
        return [Button("enter", label)]
    keys: list[str] = []
    for word in hint.keys.split():
        part = word.split("/")[0]
        if part in KEY_NAMES:
            keys.append(KEY_NAMES[part])
        elif part and all(char in ARROWS for char in part):
            keys += [ARROWS[char] for char in part]
        elif part == "0-9":
            keys.append("enter")  # a number is typed in the field that Enter opens
        elif len(part) == 1:
            keys.append(part)
    arrows = [key for key in keys if key in ARROW_GLYPHS]
    if len(arrows) == 2 and len(keys) == 2:
        first, second = arrows
        return [
            Button(first, f"{ARROW_GLYPHS[first]} {label}"),
            Button(second, f"{label} {ARROW_GLYPHS[second]}"),
        ]
    if arrows and len(keys) > len(arrows):  # "↑↓ x": move the cursor, then the key
        rest = next(key for key in keys if key not in ARROW_GLYPHS)
        return [Button(key, ARROW_GLYPHS[key]) for key in arrows] + [Button(rest, label)]
    return [Button(keys[0], label)] if keys else []


def _fragments(line: list[tuple[str, str]]) -> list[list[str]]:
    """A styled line as [class, text] pairs: ``class:turn`` becomes ``turn``."""
    out: list[list[str]] = []
    for style, text in line:
        name = style.split()[-1].removeprefix("class:") if style else ""
        if out and out[-1][0] == name:
            out[-1][1] += text
        else:
            out.append([name, text])
    return out


def _hand(ui: ClientUi) -> dict[str, Any] | None:
    """The viewer's cards; while choosing, the chooser's groups (what may be pointed at),
    its cursor and the picks."""
    chooser = ui.model.choosing
    groups = None if chooser is None else chooser.groups()
    session = ui.model.session
    observation = None if session is None else session.observation
    if not groups:
        hand = None if observation is None or ui.model.me is None else observation.hand
        if hand is None:
            return None
        groups = [(card, hand[card]) for card in range(1, JESTER + 1) if hand[card] > 0]
    picked = {} if chooser is None else chooser.picked()
    cursor = None if chooser is None else chooser.cursor_card
    total = sum(count for _, count in groups)
    return {
        "title": ui.t.n_("Your hand: {n} card", "Your hand: {n} cards", total).format(n=total),
        "tap": chooser is not None and chooser.groups() is not None,
        "cards": [
            {
                "card": card,
                "label": card_label(ui.t, card),
                "rank": ui.t._("J") if card == JESTER else str(card),
                "name": ui.t.card(card),
                "count": count,
                "cursor": card == cursor,
                "picked": picked.get(card, 0),
            }
            for card, count in groups
        ],
    }


def _legal_sets(ui: ClientUi) -> list[dict[str, Any]]:
    chooser = ui.model.choosing
    if not isinstance(chooser, PlayChooser) or chooser.must_pass:
        return []
    current = chooser.current()
    return [
        {"label": describe_set(ui.t, card_set), "chosen": card_set == current}
        for card_set in chooser.offers
    ]


def _table(ui: ClientUi, cols: int) -> dict[str, Any] | None:
    """The table while a hand is played or over, laid out by the page: the seats with the
    terminal's own seat flags, the trick's story, the decision, the log. None where the
    terminal's screen is shown as it is (the lobby, results, help, problems)."""
    session, table = ui.model.session, ui.model.table
    observation = None if session is None else session.observation
    if (
        ui.model.screen is not Screen.TABLE
        or session is None
        or table is None
        or table.lobby
        or observation is None
        or not observation.order
        or ui.overlay is not None
    ):
        return None
    t = ui.t
    scoring = table.rules.scoring
    seats = [
        {
            "name": seat.name,
            "me": seat.me,
            "turn": seat.turn,
            "symbol": seat.symbol,
            "role": seat.role_name,
            "cards": seat.cards,
            "score": seat.score,
            "flags": [[mark.tone, mark.text] for mark in seat.flags],
        }
        for seat in seat_rows(ui.model, observation)
    ]
    chooser = ui.model.choosing
    names = ui.model.namer()
    memory = cards_played(ui, observation, 48) if ui.model.in_hand and ui.show_memory else []
    results = _results(ui, observation)  # in place of the turn line and the standings
    return {
        "results": results,
        "header": _fragments(header_line(ui, cols)),
        "headings": [t._("Player"), t._("Role"), t._("Cards"), t._("Score") if scoring else ""],
        "seats": seats,
        "trick": [_fragments(line) for line in trick_story(ui, observation, cols)],
        "turn": [] if results else _fragments(turn_line(ui, touch=True)),
        "prompt": "" if chooser is None else chooser.prompt(t, names),
        "selection": "" if chooser is None else chooser.selection(t, names),
        "memory": [_fragments(line) for line in memory],
        "standings": [] if results else [_fragments(line) for line in final_standings(ui, cols)],
        "log_title": t._("Log and chat"),
        "log": [[line.kind, tidy(line.text)] for line in list(ui.model.log)[-LOG_SHOWN:]],
    }


FOOTER_STYLES = ("class:hints", "class:prompt")
"""The terminal footer's key hints and text field: the page has buttons and a field."""


def _results(ui: ClientUi, observation: Any) -> dict[str, Any] | None:
    """The hand just over, between the hands (until the next deal or a tap): the
    terminal's own rows, its sentences for the cards that changed hands with you."""
    result = ui.model.results
    if result is None:
        return None
    t = ui.t
    if observation.ended is not None:  # the last hand's points, then the standings
        tap = t._("That was the last hand: tap {button} for the final standings.")
        after = tap.format(button=button(t, FINAL_STANDINGS_HINT.label))
    else:
        after = next_deal(ui.model)
        if ui.model.reading_results():
            tap = t._("Tap {button} when you have read them.")
            after += " " + tap.format(button=button(t, READ_RESULTS_HINT.label))
    headers, rows = results_rows(ui)
    notes = [
        describe_event(t, transfer, ui.model.name_of, ui.model.me)
        for transfer in observation.transfers
    ]
    return {
        "title": t._("Hand {hand} is over").format(hand=result.hand),
        "headers": headers,
        "rows": [
            {"cells": row, "me": player == ui.model.me}
            for player, row in zip(result.finishing, rows, strict=True)
        ],
        "notes": [note for note in notes if note is not None],
        "next": tidy(after),
    }


LOG_SHOWN = 80
"""The log's last lines on the page (the terminal keeps more, to scroll back)."""


def render_view(ui: ClientUi, cols: int, rows: int) -> dict[str, Any]:
    """Everything the page draws, in the viewer's language."""
    cols = min(MAX_COLS, max(MIN_COLS, cols))
    rows = min(MAX_ROWS, max(MIN_ROWS, rows))
    t = ui.t
    table = _table(ui, cols)
    screen: list[list[list[str]]] = []
    question: list[list[list[str]]] = []
    helping = ui.overlay is Overlay.HELP and ui.model.screen is Screen.TABLE
    if helping:
        # The whole help, for the page to scroll, without the keyboard's section.
        title = [("class:title", t._("Help"))]
        screen = [_fragments(line) for line in [title, *help_text_lines(t, cols, keys=False)]]
    elif table is None:
        lines = render(ui, cols, rows, touch=True)
        # The footer's key hints are the buttons below; the rest is the screen.
        screen = [_fragments(line) for line in lines if not (line and line[0][0] in FOOTER_STYLES)]
        while screen and all(not text.strip() for _, text in screen[-1]):
            screen.pop()
    elif ui.model.question is not None:
        question = [_fragments(line) for line in confirmation_lines(ui.model.question, cols)]
    hints = [Hint("Esc", N_("close"))] if helping else visible_hints(ui, cols, rows)
    buttons = [
        {"key": button.key, "label": button.label}
        for hint in hints
        for button in hint_buttons(hint, t._)
    ]
    editor = None
    if ui.editor is not None:
        editor = {
            "label": t._(ui.editor.label).format(**ui.editor.values),
            "text": ui.editor.text,
            "max": ui.editor.max_chars,
            "chat": ui.editor.purpose == "chat",
        }
    notice = None
    if ui.model.notice is not None and table is not None:  # the terminal's screen shows its own
        notice = {"text": ui.model.notice.text, "level": ui.model.notice.level}
    return {
        "screen": screen,
        "table": table,
        "question": question,
        "buttons": buttons,
        "hand": _hand(ui),
        "sets": _legal_sets(ui),
        "sets_title": t._("Legal sets"),
        "editor": editor,
        "notice": notice,
        "turn": ui.model.choosing is not None,
        "lang": LANGUAGE_TAGS[t.language],
        "languages": [[LANGUAGE_TAGS[code], name] for code, name in LANGUAGES.items()],
    }


class BadChoice(ValueError):
    """What the page sent is not a choice it can make (a hostile or broken page)."""


def choose(ui: ClientUi, choice: object) -> list[Effect]:
    """A choice from the page, as key presses of the terminal's model.

    ``{"key": K}`` presses K; ``{"card": C}`` moves the chooser's cursor to card C (by its
    own arrow keys, so nothing is chosen that the arrows could not choose);
    ``{"set": I}`` selects the I-th legal set offered (by its own Tab); ``{"text": S}``
    fills the open text field with S and accepts it."""
    if not isinstance(choice, dict) or len(choice) != 1:
        raise BadChoice("a choice is an object with one member")
    ((kind, value),) = choice.items()
    if kind == "key":
        if not isinstance(value, str) or not (
            value in PRESSABLE or (len(value) == 1 and value.isprintable())
        ):
            raise BadChoice("no such key")
        return ui.press(value)
    if kind == "card":
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadChoice("a card is a number")
        return _point_at(ui, value)
    if kind == "set":
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadChoice("a set is a number")
        return _pick_set(ui, value)
    if kind == "text":
        if not isinstance(value, str):
            raise BadChoice("text is a string")
        editor = ui.editor
        if editor is None:
            return []
        editor.text = "".join(c for c in value if c.isprintable())[: editor.max_chars]
        return ui.press("enter")
    raise BadChoice("no such choice")


def _pointing(ui: ClientUi) -> bool:
    """Nothing over the table would take a tap instead of the chooser."""
    return ui.model.question is None and ui.editor is None and ui.overlay is None


def _point_at(ui: ClientUi, card: int) -> list[Effect]:
    ui.model.results = None  # the results screen gives way to the table at any touch
    if not _pointing(ui) or ui.model.choosing is None:
        return []
    return ui.model.intend(do.PointAt(card))


def _pick_set(ui: ClientUi, index: int) -> list[Effect]:
    ui.model.results = None
    if not _pointing(ui) or not isinstance(ui.model.choosing, PlayChooser):
        return []
    return ui.model.intend(do.PickSet(index))


PAGE_STRINGS = {
    "name": N_("Your name:"),
    "code": N_("Join code:"),
    "join": N_("Join the table"),
    "watch": N_("Watch"),
    "language": N_("Language"),
    "connecting": N_("connecting…"),
    "reconnecting": N_("connection lost, reconnecting…"),
    "closed": N_("The connection to the host is closed."),
    "again": N_("Join again"),
    "empty_name": N_("Your name cannot be empty."),
    "unproven": N_(
        "The host at this address could not prove that it holds your seat, so nothing more "
        "was sent to it. It may be another program standing in for your table: ask whoever "
        "hosts it."
    ),
    "seat_gone": N_("This table no longer has a seat for you. Join it again?"),
    "other_table": N_(
        "Another table is open at this address now, not the one you were at. Join it?"
    ),
    "send": N_("accept"),
    "cancel": N_("cancel"),
}
"""The page's own words (its join form and connection line), in the catalogs."""


def page_strings(translate: Any) -> dict[str, str]:
    return {key: translate(text) for key, text in PAGE_STRINGS.items()}
