"""The replay on the terminal: one full-screen window drawn by ``Replay.render``, keys to
``Replay.press`` (the table's own styles and key names, plus Home and End)."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, UIContent, UIControl, Window
from prompt_toolkit.output import Output

from .app import NAMED_KEYS, STYLE
from .replay import Quit, Replay

REPLAY_KEYS = {**NAMED_KEYS, Keys.Home: "home", Keys.End: "end"}


class ReplayControl(UIControl):
    def __init__(self, replay: Replay) -> None:
        self.replay = replay

    def create_content(self, width: int, height: int | None) -> UIContent:
        lines: list[StyleAndTextTuples] = [
            list(line) for line in self.replay.render(width, height or 24)
        ]
        return UIContent(
            get_line=lambda index: lines[index],
            line_count=len(lines),
            cursor_position=Point(0, 0),
            show_cursor=False,
        )

    def is_focusable(self) -> bool:
        return True


def build_replay_application(
    replay: Replay, *, input: Input | None = None, output: Output | None = None
) -> Application[None]:
    bindings = KeyBindings()

    def carry_out(effects: list[Quit]) -> None:
        if effects:
            application.exit()

    def handler(name: str) -> Callable[[KeyPressEvent], None]:
        def press(event: KeyPressEvent) -> None:
            carry_out(replay.press(name))

        return press

    for key, name in REPLAY_KEYS.items():
        bindings.add(key)(handler(name))

    @bindings.add(Keys.Any)
    def _typed(event: KeyPressEvent) -> None:
        for char in event.data:
            if char.isprintable():
                carry_out(replay.press("space" if char == " " else char))

    application: Application[None] = Application(
        layout=Layout(Window(ReplayControl(replay), always_hide_cursor=True)),
        key_bindings=bindings,
        style=STYLE,
        full_screen=True,
        mouse_support=False,
        input=input,
        output=output,
    )
    application.ttimeoutlen = 0.05
    return application
