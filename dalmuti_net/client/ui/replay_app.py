"""The replay on the terminal: one full-screen window drawn by ``Replay.render``, keys to
``Replay.press`` (the table's own styles and key names, plus Home and End)."""

from __future__ import annotations

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.output import Output

from .app import NAMED_KEYS, STYLE, ScreenControl, key_bindings
from .replay import Replay

REPLAY_KEYS = {**NAMED_KEYS, Keys.Home: "home", Keys.End: "end"}


def build_replay_application(
    replay: Replay, *, input: Input | None = None, output: Output | None = None
) -> Application[None]:
    def press(key: str) -> None:
        if replay.press(key):  # a Quit
            application.exit()

    application: Application[None] = Application(
        layout=Layout(Window(ScreenControl(replay.render), always_hide_cursor=True)),
        key_bindings=key_bindings(REPLAY_KEYS, press, _named_space),
        style=STYLE,
        full_screen=True,
        mouse_support=False,
        input=input,
        output=output,
    )
    application.ttimeoutlen = 0.05
    return application


def _named_space(char: str) -> str:
    """The replay steps on the space bar, which it calls ``space``."""
    return "space" if char == " " else char
