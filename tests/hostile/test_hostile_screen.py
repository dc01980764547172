"""The table screen (prompt_toolkit reading a pipe, trio as its guest) against a lying
host in its own process: a lie ends on a screen that says why, never an exception; under
a flood, what it keeps stays bounded and `q` is honoured within a second."""

from __future__ import annotations

import resource
from collections.abc import Callable

import pytest
import trio
from hostile_host import FLOODS, SCENARIOS, liar_in_process
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from dalmuti_net.client.model.table_model import LOG_LINES
from dalmuti_net.client.session import KEPT_CHAT, ClientSession
from dalmuti_net.client.ui.runtime import TerminalClient, run_with_trio
from dalmuti_net.client.ui.screen import render
from dalmuti_net.client.ui.state import ClientUi, Screen
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION


def screen_text(ui: ClientUi) -> str:
    return "\n".join("".join(text for _, text in line) for line in render(ui, 100, 40))


class Run:
    """The table screen connected to ``port``; ``script`` types into it."""

    def __init__(self, port: int, language: str = "en") -> None:
        self.port = port
        self.ui = ClientUi(Translator(language), ClientSession("Ana"), address=f"127.0.0.1:{port}")
        self.keys_ended_it = False
        """The keys pressed at the end ended the program (within fail_after's 10 s)."""
        self.connects = 0
        """Connection attempts made so far (counted once each has succeeded or failed)."""

    def run(
        self,
        script_seconds: float,
        keys_at_end: str = "",
        at: tuple[float, Callable[[ClientUi], None]] | None = None,
        until: Callable[[], bool] | None = None,
    ) -> None:
        """Run for ``script_seconds`` (or, with ``until``, as soon as it holds, within
        them), calling ``at``'s function on the way; then press ``keys_at_end``."""
        ui = self.ui
        with create_pipe_input() as pipe, open("/dev/null", "w") as null:
            # A real terminal's output (escape sequences and all), to nowhere.
            output = Vt100_Output(null, lambda: Size(rows=40, columns=100), term="xterm")
            client = TerminalClient(ui, input=pipe, output=output)
            pressed: list[str] = []

            async def connect() -> trio.abc.Stream:
                try:
                    return await trio.open_tcp_stream("127.0.0.1", self.port)
                finally:
                    self.connects += 1

            async def main() -> None:
                assert ui.model.session is not None
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(client.play, ui.model.session, connect)
                    if at is not None:
                        await trio.sleep(at[0])
                        at[1](ui)
                    left = script_seconds - (0 if at is None else at[0])
                    if until is None:
                        await trio.sleep(left)
                    else:
                        with trio.fail_after(left):
                            while not until():
                                await trio.sleep(0.05)
                        await trio.sleep(0.1)  # what the client makes of it, said
                    for key in keys_at_end:
                        pressed.append(key)
                        pipe.send_text(key)
                        await trio.sleep(0.2)
                    # Until the keys end the program: the floods and the mute host never
                    # stop, so keys starved by them, or read only once connected, would
                    # never end it and this fails.
                    with trio.fail_after(10):
                        await trio.sleep_forever()

            run_with_trio(client, main)
            self.keys_ended_it = bool(pressed)


def wait_for_problem(run: Run, timeout: float = 8.0) -> None:
    """Run until the problem screen shows (then `q` leaves it)."""
    ui = run.ui
    with create_pipe_input() as pipe, open("/dev/null", "w") as null:
        output = Vt100_Output(null, lambda: Size(rows=40, columns=100), term="xterm")
        client = TerminalClient(ui, input=pipe, output=output)

        async def connect() -> trio.abc.Stream:
            return await trio.open_tcp_stream("127.0.0.1", run.port)

        async def main() -> None:
            assert ui.model.session is not None
            async with trio.open_nursery() as nursery:
                nursery.start_soon(client.play, ui.model.session, connect)
                with trio.fail_after(timeout):
                    while ui.model.screen is not Screen.PROBLEM:
                        await trio.sleep(0.05)
                pipe.send_text("q")
                with trio.fail_after(2):
                    await trio.sleep_forever()

        run_with_trio(client, main)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_lie_ends_on_a_screen_that_says_why(name: str, liars: dict[str, int]) -> None:
    port = liars[name]
    run = Run(port, "es")
    wait_for_problem(run)
    screen = screen_text(run.ui)
    assert "El anfitrión envió mensajes que no encajan con la mesa" in screen
    assert "does not fit" in screen  # the detail, as the client found it
    assert run.ui.model.session is not None and run.ui.model.session.broken is not None


def test_a_welcome_of_another_version_shows_both_versions(liars: dict[str, int]) -> None:
    port = liars["other_version"]
    run = Run(port)
    wait_for_problem(run)
    screen = screen_text(run.ui)
    assert f"protocol version {PROTOCOL_VERSION + 1}" in screen
    assert f"version {PROTOCOL_VERSION}:" in screen


@pytest.mark.parametrize("name", sorted(FLOODS))
def test_under_a_flood_q_is_honoured_and_memory_stays_bounded(
    name: str, liars: dict[str, int]
) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    port = liars[name]
    run = Run(port)
    # Two seconds of flood, then q (the question at a table), q (quit, keeping the seat).
    run.run(2.0, "qq")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert run.keys_ended_it
    session = run.ui.model.session
    assert session is not None and len(session.chat) <= KEPT_CHAT
    assert len(run.ui.model.log) <= LOG_LINES
    assert grown_mb < 100


def test_q_quits_while_connecting_to_a_host_that_never_answers(liars: dict[str, int]) -> None:
    port = liars["mute"]
    run = Run(port)
    run.run(1.0, "q")
    assert run.keys_ended_it
    assert run.ui.model.screen is not Screen.TABLE


def test_reconnecting_says_why_and_not_again_for_the_same_reason() -> None:
    """The host vanishes: the drop is said with its reason, once ("Connection lost" twice
    read as two drops); the connection refused each time after is said once, as still
    reconnecting, however often it is tried again."""
    with liar_in_process("quiet") as (port, process):
        run = Run(port)

        def vanish(ui: ClientUi) -> None:
            process.kill()

        # The first connection, then three tries refused (0.5, 1 and 2 s apart).
        run.run(10.0, "qq", at=(1.0, vanish), until=lambda: run.connects >= 4)
    lines = [
        line.text
        for line in run.ui.model.log
        if line.text.startswith(("Connection lost", "Still reconnecting"))
    ]
    assert lines == [  # tried 3 times by then
        "Connection lost (the host closed the connection); reconnecting…",
        "Still reconnecting (nothing answers on that port: the table may be closed, or the "
        "port is wrong)…",
    ], lines
