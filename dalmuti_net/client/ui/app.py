"""The prompt_toolkit side: one full-screen window drawn by ``screen.render``, keys to
``ClientUi.press``. Colors are ANSI names plus bold/reverse, so they follow the terminal's
palette, and NO_COLOR (honoured by prompt_toolkit) still leaves every mark visible."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, UIContent, UIControl, Window
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from ...faults import KEY_FAILED, log_fault
from .screen import Line, render
from .state import ClientUi, Effect

log = logging.getLogger(__name__)

STYLE = Style.from_dict(
    {
        "title": "bold",
        "heading": "bold",
        "rule": "ansibrightblack",
        "dim": "ansibrightblack",
        "turn": "bold ansiyellow",
        "me": "bold ansicyan",
        "marker": "bold",
        "cursor": "reverse bold",
        "picked": "bold ansigreen",
        "trick": "bold ansimagenta",
        "selection": "bold",
        "warning": "ansiyellow",
        "error": "bold ansired",
        "good": "ansigreen",
        "key": "bold underline",
        "chat": "ansicyan",
        "prompt": "bold",
        "input": "underline",
        "role": "",
        "symbol": "",
        "card": "",
    }
)

NAMED_KEYS: dict[Keys, str] = {
    Keys.Left: "left",
    Keys.Right: "right",
    Keys.Up: "up",
    Keys.Down: "down",
    Keys.Enter: "enter",
    Keys.Escape: "escape",
    Keys.Tab: "tab",
    Keys.BackTab: "s-tab",
    Keys.Backspace: "backspace",
    Keys.PageUp: "pageup",
    Keys.PageDown: "pagedown",
    Keys.End: "end",
    Keys.ControlC: "c-c",
}


class ScreenControl(UIControl):
    """Draws the whole screen with ``draw(cols, rows)`` for the size prompt_toolkit gives it
    (so resizing redraws): the table's screen, or the replay's."""

    def __init__(self, draw: Callable[[int, int], list[Line]]) -> None:
        self.draw = draw

    def create_content(self, width: int, height: int | None) -> UIContent:
        lines: list[StyleAndTextTuples] = [list(line) for line in self.draw(width, height or 24)]
        return UIContent(
            get_line=lambda index: lines[index],
            line_count=len(lines),
            cursor_position=Point(0, 0),
            show_cursor=False,
        )

    def is_focusable(self) -> bool:
        return True


def key_bindings(
    names: Mapping[Keys, str], press: Callable[[str], None], typed: Callable[[str], str]
) -> KeyBindings:
    """Each named key to ``press`` by its name, each printable character typed to ``press``
    as ``typed`` names it."""
    bindings = KeyBindings()

    def handler(name: str) -> Callable[[KeyPressEvent], None]:
        def pressed(event: KeyPressEvent) -> None:
            press(name)

        return pressed

    for key, name in names.items():
        bindings.add(key)(handler(name))

    @bindings.add(Keys.Any)
    def _typed(event: KeyPressEvent) -> None:
        for char in event.data:
            if char.isprintable():
                press(typed(char))

    return bindings


def guarded_press(
    ui: ClientUi, on_effects: Callable[[list[Effect]], None]
) -> Callable[[str], None]:
    """A key to ``ui.press``, its effects to ``on_effects``. A key whose handling fails
    in a way nothing foresaw is one line in the table's log (and the host's, when this
    terminal runs it), never a traceback over the screen: the table goes on."""

    def press(key: str) -> None:
        try:
            on_effects(ui.press(key))
        except Exception as error:
            log_fault(log, KEY_FAILED, error)

    return press


def _as_typed(char: str) -> str:
    return char


def build_application(
    ui: ClientUi,
    on_effects: Callable[[list[Effect]], None],
    *,
    input: Input | None = None,
    output: Output | None = None,
) -> Application[None]:

    def draw(cols: int, rows: int) -> list[Line]:
        ui.size = (cols, rows)
        return render(ui, cols, rows)

    application: Application[None] = Application(
        layout=Layout(Window(ScreenControl(draw), always_hide_cursor=True)),
        key_bindings=key_bindings(NAMED_KEYS, guarded_press(ui, on_effects), _as_typed),
        style=STYLE,
        full_screen=True,
        mouse_support=False,
        refresh_interval=1.0,  # countdowns tick on screen
        # A flood of messages asks for a redraw each: at most one every 50 ms is drawn.
        min_redraw_interval=0.05,
        input=input,
        output=output,
    )
    application.ttimeoutlen = 0.05  # Esc alone should not wait half a second
    return application
