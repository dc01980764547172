"""Tables the suite starts through the protocol: the host player's seat, bots, a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from .context import Context, Seat
from .wire import CaseFailed, CaseSkipped, Message, Peer, describe_type

RULES_OFF: dict[str, Any] = {
    "first_deal_revolution": False,
    "stripped_decks": False,
    "scoring": True,
    "hand_limit": 3,
    "philanthropic_scoring": False,
    "merchant_exchange": False,
    "misdeal_chance": 0.0,
}
"""Every rule option, given whole so that no earlier case's choice stays."""


def owed(message: Message) -> Message | None:
    """The decision a message says is owed (a `decision`, or a snapshot's), if any."""
    if message.get("type") == "decision":
        return message
    if message.get("type") == "snapshot":
        decision = message.get("decision")
        return decision if isinstance(decision, dict) else None
    return None


def first_answer(decision: Message) -> Message:
    """A legal answer picked from the options the decision lists."""
    kind = decision.get("kind")
    answer: Message
    if kind == "play":
        sets = decision.get("sets") or []
        answer = {"type": "play", "set": sets[0]} if sets else {"type": "pass"}
    elif kind == "revolution":
        answer = {"type": "revolution", "declare": False}
    elif kind == "tax":
        answer = {"type": "tax", "cards": decision["hand"][-decision["count"] :]}
    elif kind == "exchange":
        answer = {"type": "exchange", "merchant": None, "card": None}
    elif kind == "misdeal":
        answer = {"type": "misdeal", "choice": "intended"}
    elif kind == "placement":
        answer = {"type": "place", "position": decision["positions"][0]}
    else:
        raise CaseFailed(f"a decision of unknown kind {kind!r}")
    answer["decision_id"] = decision["decision_id"]
    return answer


async def play_until(
    peer: Peer,
    stop: Callable[[Message], bool],
    timeout: float = 20.0,
    ready: bool = True,
    answer: bool = True,
    what: str = "the awaited message",
) -> list[Message]:
    """Answer every decision owed (and say `ready` after each `hand_ended` if ``ready``)
    until ``stop`` is true of a message; every message read, that one last."""
    got: list[Message] = []
    answered: set[int] = set()
    deadline = trio.current_time() + timeout
    while True:
        left = deadline - trio.current_time()
        if left <= 0:
            last = [describe_type(m) for m in got[-6:]]
            timers = next((m for m in reversed(got) if m.get("type") == "timers"), None)
            raise CaseFailed(
                f"{peer.label}: {what} did not come within {timeout:g} s (last: {', '.join(last)}"
                + (f"; timers {timers}" if timers else "")
                + ")"
            )
        message = await peer.maybe_next(left)
        if message is None:
            raise CaseFailed(f"{peer.label}: the host closed the connection before {what}")
        if message is False:
            continue
        assert isinstance(message, dict)
        got.append(message)
        if stop(message):
            return got
        decision = owed(message)
        if answer and decision is not None and decision.get("decision_id") not in answered:
            answered.add(decision["decision_id"])
            await peer.send(first_answer(decision))
        if ready and message.get("type") == "hand_ended":
            await peer.send({"type": "ready", "ready": True})


async def autoplay(peer: Peer) -> None:
    """Play ``peer``'s seat in the background (answers and ready) while a case reads
    another connection; the case's end stops it."""
    await play_until(peer, lambda m: False, timeout=60, what="the case's end")


async def answer_only(peer: Peer, kinds: frozenset[str]) -> None:
    """Answer ``peer``'s decisions of ``kinds`` only, in the background (a seat that plays
    out its secret revolution decision, then is waited for)."""
    while True:
        message = await peer.next(timeout=60)
        if message is None:
            return
        decision = owed(message)
        if decision is not None and decision.get("kind") in kinds:
            await peer.send(first_answer(decision))


def of_type(*types: str) -> Callable[[Message], bool]:
    return lambda m: m.get("type") in types


@dataclass
class Game:
    host: Seat
    bots: list[int]
    others: list[Seat] = field(default_factory=list)
    started: list[Message] = field(default_factory=list)
    """What the host player's connection read from `start` to its ack's effects."""


async def request(peer: Peer, message: Message, rid: int) -> Message:
    """Send ``message`` with id ``rid`` and return its reply (ack or error)."""
    await peer.send({**message, "id": rid})
    return await peer.expect(
        lambda m: m.get("type") in ("ack", "error") and m.get("re") == rid,
        what=f"the reply to {message['type']}",
        keep=True,
    )


async def must(peer: Peer, message: Message, rid: int) -> None:
    reply = await request(peer, message, rid)
    if reply["type"] != "ack":
        raise CaseFailed(
            f"{message['type']} was refused: {reply.get('code')} ({reply.get('message')})"
        )


async def host_seat(ctx: Context) -> Seat:
    """The host player's seat in a lobby, for a new game: the first lobby's first seat, or
    the seat the suite took there, taken back, its table ended and a rematch offered."""
    about = await ctx.about()
    shared = ctx.shared
    if shared.host_token is None:
        if about.get("phase") != "lobby":
            raise CaseSkipped(
                "the table is already "
                f"{about.get('phase')!r} and the suite holds no seat there: start a fresh"
                " headless host"
            )
        seat = await ctx.lobby_host(first=not shared.lost)
        seat.peer.leave_on_close = False  # once the game begins, the seat outlives it
        shared.host_token, shared.host_player = seat.token, seat.player
        return seat
    found = await ctx.try_resume(shared.host_token, "host player")
    if isinstance(found, str):
        if about.get("phase") != "lobby":
            raise CaseSkipped(f"the suite's host player seat is lost: {found}")
        # Lost in a lobby (an earlier case's drop): the next to sit is the host player.
        shared.host_token = None
        shared.lost = True
        return await host_seat(ctx)
    seat = found
    phase = seat.snapshot["table"]["phase"]
    if phase == "playing":
        await must(seat.peer, {"type": "end_table"}, 9001)
        await seat.peer.expect("table_ended")
        phase = "ended"
    if phase == "ended":
        await must(seat.peer, {"type": "rematch"}, 9002)
        table = await seat.peer.expect(
            lambda m: m.get("type") == "table" and m["table"]["phase"] == "lobby",
            what="the rematch's lobby",
        )
    else:
        table = seat.snapshot
    for player in table["table"]["players"]:
        if player["kind"] == "bot":
            await must(seat.peer, {"type": "remove_bot", "player": player["player"]}, 9003)
    return seat


async def new_game(
    ctx: Context,
    bots: int = 3,
    rules: dict[str, Any] | None = None,
    timing: dict[str, Any] | None = None,
    humans: int = 0,
    start: bool = True,
) -> Game:
    """A game started by the suite's host player with ``bots`` of the host's bots and
    ``humans`` more raw seats of the suite's; the host's bots play flat out."""
    seat = await host_seat(ctx)
    peer = seat.peer
    await must(peer, {"type": "set_rules", "rules": {**RULES_OFF, **(rules or {})}}, 9010)
    settings = {"bot_pace_ms": 0, "results_ms": 30000, "turn_timer_ms": 60000}
    await must(peer, {"type": "set_timing", **settings, **(timing or {})}, 9011)
    game = Game(seat, [])
    # Tables from before (a rematch's bots being removed) are not this game's: each
    # table is the whole state, so dropping the older ones loses nothing.
    peer.unread = [m for m in peer.unread if m.get("type") != "table"]
    for number in range(bots):
        await must(peer, {"type": "add_bot"}, 9020 + number)
    for _ in range(humans):
        game.others.append(await ctx.join(name=ctx.name("Guest")))
    mine = {seat.player} | {other.player for other in game.others}

    def complete(m: Message) -> bool:
        if m.get("type") != "table":
            return False
        players = m["table"]["players"]
        return sum(p["kind"] == "bot" for p in players) == bots and mine <= {
            p["player"] for p in players
        }

    table = await peer.expect(complete, what="the table with every seat")
    game.bots = [p["player"] for p in table["table"]["players"] if p["kind"] == "bot"]
    if start:
        await peer.send({"type": "start", "id": 9030})
        game.started = await peer.quiet(0)  # nothing read yet: the caller reads on
    return game


async def latest_table(peer: Peer, test: Any = None, what: str = "the table") -> Message:
    found = await peer.expect(
        lambda m: m.get("type") == "table" and (test is None or test(m["table"])), what=what
    )
    table: Message = found["table"]
    return table


def seat_of(table: Message, player: int) -> Message | None:
    return next((p for p in table["players"] if p["player"] == player), None)


def messages(*items: Message) -> tuple[Message, ...]:
    """Messages to send one after another (typed for the checker)."""
    return items


def is_lead(message: Message) -> bool:
    """A play decision on a lead (nothing to beat)."""
    return (
        message.get("type") == "decision"
        and message.get("kind") == "play"
        and message.get("to_beat") is None
    )


async def game_until(
    ctx: Context,
    stop: Callable[[Message], bool] | None = None,
    answer: bool = False,
    what: str = "a decision",
    **options: Any,
) -> tuple[Game, Message]:
    """A new game (``options`` as ``new_game``'s), its host seat played until ``stop``;
    the game and that message."""
    game = await new_game(ctx, **options)
    got = await play_until(game.host.peer, stop or of_type("decision"), answer=answer, what=what)
    return game, got[-1]


async def in_hand(ctx: Context, **options: Any) -> Game:
    """A new game whose first hand has begun."""
    game = await new_game(ctx, **options)
    await game.host.peer.expect("hand_started")
    return game


async def refuse(peer: Peer, message: Message, rid: int, code: str, what: str = "") -> Message:
    """Send ``message`` with id ``rid``: the reply must be an error ``code``, not fatal."""
    reply = await request(peer, message, rid)
    if reply.get("type") != "error" or reply.get("code") != code or reply.get("fatal"):
        raise CaseFailed(
            f"{what or message['type']} got {reply.get('type')} {reply.get('code', '')}"
            f" (fatal {reply.get('fatal')}), not {code}"
        )
    return reply


async def fresh_snapshot(peer: Peer) -> Message:
    """A snapshot asked for now."""
    await peer.send({"type": "snapshot_request"})
    return await peer.expect("snapshot")


async def guest_past_revolution_check(ctx: Context) -> tuple[Game, Seat]:
    """A game of the host player, one guest and three bots, played (the host's seat) until
    its first hand is past the revolution check, the guest answering its secret revolution
    decision in the background: a seat that leaves while it owes that decision is not what
    a case about leaving is about. Three hands, and a short pause between them: such a
    case is not about readiness, and the pause bounds it."""
    game = await new_game(
        ctx, bots=3, humans=1, rules={"hand_limit": 3}, timing={"results_ms": 3000}
    )
    guest = game.others[0]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(answer_only, guest.peer, frozenset({"revolution"}))
        await play_until(
            game.host.peer,
            lambda m: m.get("type") == "waiting" and m.get("phase") in ("taxes", "play"),
            what="the hand past its revolution check",
        )
        nursery.cancel_scope.cancel()  # the guest's connection is the case's again
    return game, guest


async def removed_before_next_hand(host: Peer, player: int, who: str) -> None:
    """Play the host's seat until ``player``'s player_removed: no hand may begin before it."""
    got = await play_until(
        host,
        lambda m: m.get("type") == "player_removed" and m.get("player") == player,
        timeout=20,
        what="player_removed",
    )
    if any(m.get("type") == "hand_started" for m in got):
        raise CaseFailed(f"a hand began before {who} was removed")
