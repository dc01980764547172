"""Write a bot in a few lines: a function from what your seat knows to your answer.

    from dalmuti_net.client import Pass, Play, PlayDecision, legal_actions, run_bot

    def worst_first(observation, decision):
        if isinstance(decision, PlayDecision) and decision.sets:
            return Play(max(decision.sets))        # the worst rank there is to play
        return legal_actions(decision)[0]          # anything else: the first legal answer

    result = run_bot("192.168.1.20", worst_first, name="Shedder")
    print(result.place, result.standings)

``run_bot`` connects (to an address, or to a table found on the LAN when the address is
``None``), takes a seat, and calls the bot with the seat's ``Observation`` and the
``Decision`` it owes, whose fields list every legal answer; the bot returns an ``Action``.
Heartbeats, snapshots and reconnecting with the resume token are handled here. The bot is
a plain function, an object with a ``choose(observation, decision)`` method (a
``dalmuti_net.bots.Strategy``), or the name of a built-in strategy.

The ``BotResult`` it returns holds the last table the host sent (``result.table``) as a
frozen ``TableView``: its seats (``SeatView``), rules (``RulesView``) and clocks
(``TimingView``), read by attribute (``result.table.players[0].name``, not
``["players"][0]["name"]``: the table is no longer the host's message as a dict). A program
that drives ``client.bot.play`` itself reads ``session.table`` the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial, update_wrapper
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import trio

from ..bots import Strategy, make_strategy
from ..engine import (
    Action,
    Decision,
    Observation,
)
from ..engine.actions import is_legal_answer, legal_answers
from ..nurseries import lone_error_as_itself
from .address import parse_address
from .bot import play
from .session import ClientSession, HostError
from .table_view import TableView

if TYPE_CHECKING:
    from ..protocol.discovery import TableListing

BotFunction = Callable[[Observation, Decision], Action]
"""A bot as a plain function: the seat's observation and the decision owed, to an answer."""
Address = str | tuple[str, int]
DEFAULT_FIND_TIMEOUT = 2.0
P = ParamSpec("P")
R = TypeVar("R")


class NoTableFound(Exception):
    """Discovery saw no table this bot could join: ``seen`` names the tables it saw."""

    def __init__(self, message: str, seen: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.seen = seen


class IllegalAnswer(Exception):
    """The bot answered a decision with something it does not allow; nothing was sent."""


@dataclass(frozen=True)
class BotResult:
    """How a bot's session ended."""

    name: str
    player: int | None
    """The bot's player id at the table (``None`` if it was never seated)."""
    standings: tuple[tuple[int, int, int], ...] | None
    """(player, score, place) best first, once the table has ended; else ``None``."""
    names: dict[int, str] = field(default_factory=dict)
    """Player id -> name, as the last table said (``table.players``)."""
    closed_reason: str | None = None
    refusal: HostError | None = None
    """The host's fatal error, if it refused or closed the connection with one."""
    table: TableView | None = None
    """The last ``table`` the host sent this bot, as frozen typed data (``None`` if none
    came): ``name``, ``phase``, ``players`` (one ``SeatView`` a seat: ``player``,
    ``name``, ``kind``, ``host``, ``connected``, ``ready``, ...), ``rules`` (a
    ``RulesView``), ``timing``, ``departed``, ``spectators``. Read it by attribute:
    ``result.table.players[0].name``."""

    @property
    def finished(self) -> bool:
        """The table ended with this bot seated."""
        return self.standings is not None

    @property
    def place(self) -> int | None:
        return next((p for player, _, p in self.standings or () if player == self.player), None)

    @property
    def score(self) -> int | None:
        return next((s for player, s, _ in self.standings or () if player == self.player), None)


class FunctionStrategy:
    """A plain function used as a ``Strategy``."""

    def __init__(self, function: BotFunction, name: str | None = None) -> None:
        self.function = function
        self.name: str = name or str(getattr(function, "__name__", "function"))

    def choose(self, observation: Observation, decision: Decision) -> Action:
        return self.function(observation, decision)


def as_strategy(bot: Strategy | BotFunction | str, seed: int | None = None) -> Strategy:
    """A ``Strategy`` from a strategy, a plain function, or a strategy's name (or
    ``package.module:attr``), made with ``seed``."""
    if isinstance(bot, str):
        return make_strategy(bot, seed)
    choose = getattr(bot, "choose", None)
    if callable(choose):
        if isinstance(getattr(bot, "name", None), str):
            return bot  # type: ignore[return-value]
        return FunctionStrategy(choose, type(bot).__name__)
    if callable(bot):
        return FunctionStrategy(bot)
    raise TypeError(f"a bot is a function (observation, decision) -> action, not {bot!r}")


class _Checked:
    """Refuses, locally and loudly, an answer the decision does not allow: a bot bug is
    clearer as an exception here than as the host's refusal asked again and again."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = strategy.name

    def choose(self, observation: Observation, decision: Decision) -> Action:
        action = self.strategy.choose(observation, decision)
        if not is_legal(decision, action):
            raise IllegalAnswer(f"bot {self.name!r} answered {decision!r} with {action!r}")
        return action


# ---------------------------------------------------------------------- legal answers


def legal_actions(decision: Decision) -> list[Action]:
    """Every legal answer to ``decision`` (the engine's list: passing first where allowed,
    then the sets; for a tax, every distinct choice of cards)."""
    return legal_answers(decision)


def is_legal(decision: Decision, action: Action) -> bool:
    """Whether the host would accept ``action`` as the answer to ``decision``."""
    return is_legal_answer(decision, action)


# ---------------------------------------------------------------------- finding a table


async def find_table(
    name: str | None = None,
    *,
    timeout: float = DEFAULT_FIND_TIMEOUT,
    interfaces: Sequence[str] | None = None,
    code: str | None = None,
) -> TableListing:
    """A table on the LAN this bot can join: named ``name`` if given (any, else), with a
    free seat, speaking our protocol, and asking for no join code unless ``code`` is given.
    Tables still in their lobby come first. ``interfaces``: addresses to browse on."""
    from .discovery import find_tables

    listings = await find_tables(timeout, interfaces=interfaces)
    wanted = [
        listing
        for listing in listings
        if listing.usable
        and (name is None or listing.name.casefold() == name.casefold())
        and (code is not None or not listing.code_required)
        and not (
            listing.seats_taken is not None
            and listing.seats_total is not None
            and listing.seats_taken >= listing.seats_total
        )
        and listing.phase != "ended"
    ]
    if not wanted:
        seen = ", ".join(repr(listing.name) for listing in listings) or "none"
        which = f"named {name!r} " if name is not None else ""
        raise NoTableFound(
            f"no table {which}to join was found (tables seen: {seen})",
            tuple(listing.name for listing in listings),
        )
    wanted.sort(key=lambda listing: listing.phase != "lobby")
    return wanted[0]


async def _open(addresses: Sequence[str], port: int) -> trio.abc.Stream:
    error: OSError | None = None
    for address in addresses:
        try:
            return await trio.open_tcp_stream(address, port)
        except OSError as failure:
            error = failure
    raise error or OSError("the table announced no address")


# ---------------------------------------------------------------------- playing


async def play_bot(
    address: Address | None,
    bot: Strategy | BotFunction | str,
    *,
    name: str = "Bot",
    code: str | None = None,
    token: str | None = None,
    table: str | None = None,
    seed: int | None = None,
    find_timeout: float = DEFAULT_FIND_TIMEOUT,
    interfaces: Sequence[str] | None = None,
    reconnect: bool = True,
) -> BotResult:
    """Seat ``bot`` at a table and play until the table ends or the host refuses it.

    ``address`` is ``"HOST[:PORT]"`` or ``(host, port)``; ``None`` finds a table on the
    LAN (named ``table``, if given). ``token`` resumes a seat from an earlier session.
    Raises ``CannotConnect`` if the first connection fails, ``NoTableFound`` if
    discovery finds nothing to join, ``IllegalAnswer`` if the bot breaks the rules.
    A bot stopped in the lobby (cancelled, Ctrl-C) gives its seat up on the way out; a
    dropped link keeps it for the host's grace period, for ``token`` to take back.
    """
    strategy = _Checked(as_strategy(bot, seed))
    if address is None:
        listing = await find_table(table, timeout=find_timeout, interfaces=interfaces, code=code)
        addresses: Sequence[str] = listing.addresses
        port = listing.port
    elif isinstance(address, str):
        host, port = parse_address(address)
        addresses = (host,)
    else:
        host, port = address
        addresses = (host,)
    # The connection's tasks are an implementation detail: a lone error comes out as
    # itself (a bot's own exception, IllegalAnswer, ...).
    with lone_error_as_itself():
        session = await play(
            partial(_open, addresses, port),
            strategy,
            name,
            token=token,
            code=code,
            reconnect=reconnect,
            leave_lobby_on_quit=True,
        )
    return _result(name, session)


def _blocking(play: Callable[P, Awaitable[R]], name: str, doc: str) -> Callable[P, R]:
    """The trio function ``play`` as a plain one, called ``name``: the same parameters
    (written once, on ``play``), and a call runs trio until it is over."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return trio.run(partial(play, *args, **kwargs))

    update_wrapper(run, play)  # play's signature for help() and editors
    run.__name__ = run.__qualname__ = name
    run.__doc__ = doc
    return run


run_bot = _blocking(
    play_bot,
    "run_bot",
    """``play_bot`` for programs that do not run trio themselves: blocks until it is over.""",
)


def _result(name: str, session: ClientSession) -> BotResult:
    ended = session.observation.ended if session.observation is not None else None
    refusal = next((error for error in reversed(session.errors) if error.fatal), None)
    return BotResult(
        name=name,
        player=session.player,
        standings=None if ended is None else tuple(ended.standings),
        names=session.names,
        closed_reason=session.closed_reason,
        refusal=refusal,
        table=session.table,
    )
