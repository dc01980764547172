"""Bots over standard input and output: any program plays a seat (``dalmuti bot --exec``).

For each decision the seat owes, the program is sent one JSON line on its stdin (the
decision, its legal answers and the seat's observation) and answers with one JSON line on
its stdout. A program that prints garbage, answers illegally, says nothing in time or
exits is reported in one line, and the seat plays the fallback move instead (the host's
default move): the table never waits on a broken program. PROTOCOL.md, "Bots over standard
input and output", is the normative description.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from ..engine import Action, Decision, Observation
from ..engine.actions import is_legal_answer, legal_answers
from ..nurseries import lone_error_as_itself
from ..protocol import Direction, ProtocolError, validate
from ..protocol.messages import (
    ACTION_TYPES,
    Message,
    action_from_message,
    action_message,
    observation_dict,
)
from ..told import N_, Told
from .bot import ReadyInLobby
from .runner import ClientRunner, Connector
from .session import ClientSession

MAX_LINE_BYTES = 64 * 1024
"""Longest answer line read from the program: anything longer is garbage."""
DEFAULT_TIMEOUT_S = 5.0
DEADLINE_MARGIN_S = 0.25
"""With a turn timer, the program's answer is awaited this much less than the time left."""
EXIT_WAIT_S = 2.0
"""How long a program whose output closed is given to end (it is killed after that at the
table's end; during a decision the wait is never longer than the time left to answer)."""

KEPT_REPORTS = 50
Fallback = Callable[[Decision], Action]
Report = Callable[[str], None]

MISBEHAVED = N_("{name}: the program {what}; playing the default move {move}")
EXITED = N_("exited ({status})")
CLOSED_OUTPUT = N_("closed its output")
STATUS = N_("status {code}")
SILENT = N_("said nothing within {seconds} s")
TOO_LONG = N_("printed a line longer than {limit} bytes")
NOT_AN_INDEX = N_("answered {answer}, not an index into the {n} legal answers")
NOT_AN_ANSWER = N_("printed something that is not an answer: {line}")
MALFORMED = N_("printed a malformed answer {line} ({reason})")
ILLEGAL = N_("answered illegally: {line}")


def decision_request(
    player: int | None, decision: Decision, raw: Message, observation: Observation | None
) -> Message:
    """The line a program is sent for one decision (keys in this order, which is
    normative: a line-oriented program may rely on it)."""
    return {
        "type": "decision",
        "you": player,
        "decision_id": raw.get("decision_id"),
        "decision": raw,
        "legal": [action_message(action) for action in legal_answers(decision)],
        "observation": None if observation is None else observation_dict(observation),
    }


def encode_line(message: Message) -> bytes:
    """One JSON line, ASCII only, no spaces: easy to take apart with sed or awk."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class ProgramExited(Exception):
    """The program closed its output (or its input) or ended."""


class LineReader:
    """Lines from a byte stream, each at most ``MAX_LINE_BYTES`` (a longer one is cut off
    and returned as ``None``, the rest of it skipped)."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self._stream = stream
        self._buffer = bytearray()
        self._skipping = False

    async def line(self) -> bytes | None:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                if self._skipping:
                    self._skipping = False
                    continue
                return line
            if len(self._buffer) > MAX_LINE_BYTES:
                self._buffer.clear()
                if not self._skipping:
                    self._skipping = True
                    return None
            chunk = await self._stream.receive_some(16 * 1024)
            if not chunk:
                raise ProgramExited
            self._buffer.extend(chunk)


@dataclass
class StdioBot:
    """A program answering decisions; ``fallback`` answers whenever it does not."""

    command: str
    fallback: Fallback
    report: Report
    name: str = "bot"
    timeout_s: float = DEFAULT_TIMEOUT_S
    process: trio.Process | None = None
    reader: LineReader | None = None
    exited: bool = False
    misbehaviours: deque[str] = field(default_factory=lambda: deque(maxlen=KEPT_REPORTS))
    """The last reports (each was told as it happened); a host may ask without end."""
    translate: Callable[[str], str] = field(default=lambda text: text)
    """The reports' language (a ``Translator._``; English by default)."""

    async def start(self, nursery: trio.Nursery) -> None:
        self.process = await nursery.start(
            _run_process, self.command, name=f"dalmuti bot --exec {self.command!r}"
        )
        assert self.process.stdout is not None
        self.reader = LineReader(self.process.stdout)

    def _misbehaved(self, what: Told, decision: Decision) -> Action:
        move = self.fallback(decision)
        shown = json.dumps(action_message(move), separators=(",", ":"))
        line = Told(MISBEHAVED, name=self.name, what=what, move=shown).told(self.translate)
        self.misbehaviours.append(line)
        self.report(line)
        return move

    async def answer(self, session: ClientSession, decision: Decision, raw: Message) -> Action:
        """The program's answer to ``decision`` (``raw``: its message from the host), or
        the fallback move when the program misbehaves."""
        if self.exited:
            return self.fallback(decision)
        request = decision_request(session.player, decision, raw, session.observation)
        legal: list[Message] = request["legal"]
        decision_id = request["decision_id"]
        timeout = self.timeout_s
        deadline_ms = raw.get("deadline_ms")
        if deadline_ms is not None:
            timeout = min(timeout, max(0.05, deadline_ms / 1000 - DEADLINE_MARGIN_S))
        answer: Any = _NOTHING
        line: bytes | None = None
        deadline = trio.current_time() + timeout
        try:
            with trio.move_on_at(deadline):
                # The request's write is timed too: a program that reads nothing fills
                # its input's pipe, and the table never waits on a broken program.
                await self._write(request)
                while answer is _NOTHING:
                    line = await self._read()
                    answer = _parse(line)
                    if isinstance(answer, dict) and answer.get("decision_id") not in (
                        None,
                        decision_id,
                    ):
                        answer = _NOTHING  # a late answer to an earlier decision: dropped
        except ProgramExited:
            # Its output closed: the program is gone, whether or not its process has
            # ended yet. Reported once; every later decision gets the default move.
            self.exited = True
            return self._misbehaved(await self._gone(deadline), decision)
        if answer is _NOTHING:
            return self._misbehaved(Told(SILENT, seconds=f"{timeout:g}"), decision)
        return self._check(answer, line, legal, decision)

    def _check(
        self, answer: Any, line: bytes | None, legal: list[Message], decision: Decision
    ) -> Action:
        if line is None:
            return self._misbehaved(Told(TOO_LONG, limit=MAX_LINE_BYTES), decision)
        if isinstance(answer, int) and not isinstance(answer, bool):
            if 0 <= answer < len(legal):
                return action_from_message(legal[answer])
            return self._misbehaved(Told(NOT_AN_INDEX, answer=answer, n=len(legal)), decision)
        shown = _shown(line)
        if not isinstance(answer, dict):
            return self._misbehaved(Told(NOT_AN_ANSWER, line=shown), decision)
        message = {k: v for k, v in answer.items() if k not in ("decision_id", "id")}
        if message.get("type") not in ACTION_TYPES:
            return self._misbehaved(Told(NOT_AN_ANSWER, line=shown), decision)
        try:
            validate(message, Direction.TO_HOST)
        except ProtocolError as error:
            return self._misbehaved(Told(MALFORMED, line=shown, reason=error.message), decision)
        action = action_from_message(message)
        if not is_legal_answer(decision, action):
            return self._misbehaved(Told(ILLEGAL, line=shown), decision)
        return action

    async def _write(self, message: Message) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            await self.process.stdin.send_all(encode_line(message))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise ProgramExited from None

    async def _read(self) -> bytes | None:
        assert self.reader is not None
        try:
            return await self.reader.line()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise ProgramExited from None

    async def _gone(self, deadline: float) -> Told:
        """What became of a program whose output closed: its exit status if it ends by
        ``deadline`` (at most ``EXIT_WAIT_S`` from now), else that it closed its output."""
        assert self.process is not None
        with trio.move_on_at(min(deadline, trio.current_time() + EXIT_WAIT_S)):
            await self.process.wait()
        code = self.process.returncode
        return Told(CLOSED_OUTPUT) if code is None else Told(EXITED, status=Told(STATUS, code=code))

    async def finish(self, last: Message | None) -> None:
        """Tell the program the table is over (``last``), close its input, let it end; a
        program that does not end in time is killed, with whatever it started."""
        if self.process is None:
            return
        # One deadline for all of it: a program that never reads has a full pipe, and
        # the last line would wait forever (this runs shielded from cancellation).
        with trio.move_on_after(EXIT_WAIT_S):
            if last is not None and not self.exited:
                with contextlib.suppress(ProgramExited):
                    await self._write(last)
            assert self.process.stdin is not None
            await self.process.stdin.aclose()
            await self.process.wait()
        _kill_group(self.process)


async def play_stdio(
    connect: Connector,
    bot: StdioBot,
    name: str,
    *,
    token: str | None = None,
    code: str | None = None,
    reconnect: bool = True,
) -> ClientSession:
    """Seat ``bot``'s program at a table and play until the table ends or the host refuses
    the seat; returns the final session. The program is started first and ended last."""
    session = ClientSession(name, token=token, code=code, software="dalmuti-net bot/exec")
    runner: ClientRunner
    raw: Message | None = None
    answered: int | None = None
    """The id of the decision last answered: a snapshot that still holds it (the answer
    is on its way) is not answered twice."""
    lobby = ReadyInLobby()

    async def on_message(message: Message) -> None:
        nonlocal raw, answered
        kind = message["type"]
        if lobby.owed(session, message):
            await runner.send({"type": "ready", "ready": True})
        if kind == "welcome":
            answered = None  # a new connection: an answer cut off with the last is owed again
        elif kind == "decision":
            raw = message
        elif kind == "snapshot":
            raw = message["decision"]
        elif kind == "error" and not message["fatal"]:
            if message["code"] != "stale_decision":
                answered = None  # refused: the decision is still owed, answer it again
            await runner.send({"type": "snapshot_request"})
            return
        if kind == "hand_ended":
            # A bot has read the results at once: the next deal need not wait for it.
            await runner.send({"type": "ready", "ready": True})
        if kind == "table" and session.table is not None and session.table.ended:
            runner.stop()
            return
        decision = session.decision
        if decision is None or raw is None or session.observation is None:
            return
        decision_id = raw.get("decision_id")
        if session.needs_snapshot or (decision_id is not None and decision_id == answered):
            return
        action = await bot.answer(session, decision, raw)
        session.decision = None
        answered = decision_id
        reply = action_message(action)
        if decision_id is not None:
            reply["decision_id"] = decision_id
        await runner.send(reply)

    # The program's task is an implementation detail: a lone error (Ctrl-C, the host
    # unreachable) comes out as itself, as it does for any other bot.
    with lone_error_as_itself():
        async with trio.open_nursery() as nursery:
            await bot.start(nursery)
            runner = ClientRunner(
                session,
                connect,
                on_message=on_message,
                reconnect=reconnect,
                leave_lobby_on_quit=True,
            )
            try:
                await runner.run()
            finally:
                with trio.CancelScope(shield=True):
                    await bot.finish(_ending(session))
                nursery.cancel_scope.cancel()
    return session


def _ending(session: ClientSession) -> Message | None:
    ended = session.observation.ended if session.observation is not None else None
    if ended is None:
        return None
    return {
        "type": "table_ended",
        "you": session.player,
        "standings": [list(row) for row in ended.standings],
    }


def _parse(line: bytes | None) -> Any:
    if line is None:
        return None
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return _GARBAGE


_GARBAGE = object()
_NOTHING = object()


def _shown(line: bytes) -> str:
    text = line.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")


_PUNCTUATION = re.compile(r"[();<>|&\n]+")
_REDIRECTIONS = frozenset({"<", ">", ">>", "<<", "<<-", "<>", ">|", "<&", ">&"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_SHELL_ONLY = (
    "! { } [[ ]] if then else elif fi case esac for select while until do done function in"
    " . : alias bg break cd command continue eval exec exit export fg getopts hash jobs local"
    " read readonly return set shift source times trap type ulimit umask unalias unset wait"
)
"""Reserved words and builtins that no executable stands in for: ``exec`` cannot run them."""
_NOT_EXECUTABLE = frozenset(_SHELL_ONLY.split())


def shell_command(command: str) -> str:
    """What ``/bin/sh -c`` is given for ``command``: ``exec COMMAND`` when it is one
    simple command, so that the program runs in the shell's place. A shell that waited on
    it instead (dash does) would hold the program's stdout open, and the program closing
    its output would not be seen until the shell ended. Anything else (a list, a pipeline,
    a compound command, a builtin, an assignment, what shlex cannot read) is left as it
    is, for the shell to run as written."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="();<>|&\n")
    lexer.whitespace = " \t"  # a newline outside quotes ends a command: an operator here
    lexer.whitespace_split = True
    lexer.commenters = ""  # a comment would hide the newline that ends it
    try:
        words = list(lexer)
    except ValueError:
        return command
    if not words or any(_is_operator(word) for word in words):
        return command
    first = words[0]
    if first in _NOT_EXECUTABLE or _ASSIGNMENT.match(first):
        return command
    return f"exec {command}"


def _is_operator(word: str) -> bool:
    """Whether shlex's ``word`` is a control operator (a quoted one counts too: such a
    command is left to the shell, which is always right)."""
    return _PUNCTUATION.fullmatch(word) is not None and word not in _REDIRECTIONS


def _kill_group(process: trio.Process) -> None:
    """Kill the program and every process it started (it leads a process group of its
    own): a shell's children, or a program's forked helper, do not outlive the bot."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()


async def _kill_group_on_cancel(process: trio.Process) -> None:
    _kill_group(process)


async def _run_process(
    command: str, *, task_status: trio.TaskStatus[trio.Process] = trio.TASK_STATUS_IGNORED
) -> None:
    await trio.run_process(
        shell_command(command),
        shell=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        check=False,
        task_status=task_status,
        deliver_cancel=_kill_group_on_cancel,
        start_new_session=True,  # its own process group, killed as one (_kill_group)
    )
