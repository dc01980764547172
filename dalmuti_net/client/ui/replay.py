"""Stepping through a finished table, the screen exactly as one viewer saw it.

A replay is one viewer's messages (rebuilt from a host's save, or recorded by
`dalmuti join --record`). At each step the table screen is that of a ``ClientUi`` fed
those messages up to that moment, so the hand, the trick, the log and the final standings
are drawn by the same code, from the same messages, as they were at the table. Nothing
here imports prompt_toolkit (``replay_app`` does).
"""

from __future__ import annotations

from ...engine.events import HandStarted
from ...lang.i18n import N_, Translator
from ...lang.numbers import decimal
from ...protocol.messages import Message
from ..session import ClientSession
from ..status import Status
from .hints import Hint
from .screen import Line, render
from .state import ClientUi, LineEditor


class Quit:
    pass


class Replay:
    def __init__(
        self,
        t: Translator,
        frames: list[Message],
        *,
        spectator: bool,
        ascii_symbols: bool = False,
    ) -> None:
        self.t = t
        self.frames = frames
        self.spectator = spectator
        self.ascii_symbols = ascii_symbols
        self.hand_starts: list[tuple[int, int]] = []
        """(step, hand) for each step that starts a hand, as the table model saw it."""
        self.steps = self._steps()
        """The messages a step stops at: each one that added a line to the table's log."""
        self.editor: LineEditor | None = None
        self.notice: str | None = None
        self.position = 0
        """Which step is on screen: frames up to ``steps[position]`` have been shown."""
        self._fed = 0
        self.ui = self._fresh()
        self._show(0)

    # ------------------------------------------------------------------ where we are

    @property
    def hand(self) -> int:
        """The hand on screen (0 before the first)."""
        started = [hand for step, hand in self.hand_starts if step <= self.position]
        return started[-1] if started else 0

    @property
    def hands(self) -> list[int]:
        return [hand for _, hand in self.hand_starts]

    def _steps(self) -> list[int]:
        ui = self._fresh()
        assert ui.model.session is not None
        steps: list[int] = []
        for index, frame in enumerate(self.frames):
            before = ui.model.logged
            ui.model.session.receive(frame)
            ui.on_message(frame)
            if ui.model.logged > before:
                steps.append(index)
                started = [e.hand for e in ui.model.new_events if isinstance(e, HandStarted)]
                self.hand_starts += [(len(steps) - 1, hand) for hand in started]
        return steps

    def _fresh(self) -> ClientUi:
        """The table as it was: a table model fed the messages, not live (nothing
        connected, nothing answered), with the replay's keys in its key line."""
        session = ClientSession("replay", spectator=self.spectator)
        ui = ClientUi(
            self.t, session, address="replay", ascii_symbols=self.ascii_symbols, live=False
        )
        ui.own_hints = self._hints
        ui.on_status(Status.CONNECTED)
        self._fed = 0
        return ui

    def _show(self, position: int) -> None:
        """Put step ``position`` on screen, with what followed it until the next step (whose
        turn it is, a decision owed): feed forward, or start again to go back."""
        target = len(self.frames)
        if self.steps:
            position = max(0, min(position, len(self.steps) - 1))
            if position + 1 < len(self.steps):
                target = self.steps[position + 1]
        if target < self._fed:
            self.ui = self._fresh()
        ui = self.ui
        assert ui.model.session is not None
        for frame in self.frames[self._fed : target]:
            ui.model.session.receive(frame)
            ui.on_message(frame)  # its effects (requests to a host) have nowhere to go
        self._fed = target
        self.position = position
        ui.overlay = None
        ui.log_scroll = 0
        ui.editor = self.editor

    # ------------------------------------------------------------------ keys

    def press(self, key: str) -> list[Quit]:
        self.notice = None
        if self.editor is not None:
            outcome = self.editor.press(key)
            if outcome == "done":
                text, self.editor = self.editor.text.strip(), None
                self._jump(text)
            elif outcome == "cancel":
                self.editor = None
            self._show(self.position)
            return []
        if key in ("q", "escape", "c-c"):
            return [Quit()]
        if key in ("right", "space", "n"):
            self._show(self.position + 1)
        elif key in ("left", "p"):
            self._show(self.position - 1)
        elif key == "down":
            self._to_hand(+1)
        elif key == "up":
            self._to_hand(-1)
        elif key == "home":
            self._show(0)
        elif key == "end":
            self._show(len(self.steps) - 1)
        elif key == "g":
            self.editor = LineEditor("hand", N_("Go to hand:"), "", 4)
            self._show(self.position)
        elif key in ("pageup", "pagedown"):
            self.ui.press(key)
        return []

    def _to_hand(self, direction: int) -> None:
        if direction > 0:
            later = [step for step, _ in self.hand_starts if step > self.position]
            self._show(later[0] if later else len(self.steps) - 1)
            return
        # Up: to this hand's start, or, from its start, to the previous hand's.
        earlier = [step for step, _ in self.hand_starts if step < self.position]
        self._show(earlier[-1] if earlier else 0)

    def go_to_hand(self, hand: int) -> bool:
        for step, number in self.hand_starts:
            if number == hand:
                self._show(step)
                return True
        return False

    def _jump(self, text: str) -> None:
        hand = decimal(text)
        if hand is not None and self.go_to_hand(hand):
            return
        hands = self.hands
        if hands:
            self.notice = self.t._("There is no hand {text}: hands {first} to {last}.").format(
                text=text, first=hands[0], last=hands[-1]
            )
        else:
            self.notice = self.t._("No hand was dealt.")

    # ------------------------------------------------------------------ drawing

    def _hints(self) -> list[Hint]:
        t = self.t
        where = t._("Replay: step {step} of {steps}").format(
            step=self.position + 1 if self.steps else 0, steps=len(self.steps)
        )
        hints = [Hint("▶", where)]
        if self.notice is not None:
            hints = [Hint("!", self.notice)]
        return [
            *hints,
            Hint("←→", N_("event")),
            Hint("↑↓", N_("hand")),
            Hint("g", N_("go to hand")),
            Hint("Home/End", N_("first/last")),
            Hint("PgUp/PgDn", N_("scroll the log")),
            Hint("q", N_("quit")),
        ]

    def render(self, cols: int, rows: int) -> list[Line]:
        return render(self.ui, cols, rows)
