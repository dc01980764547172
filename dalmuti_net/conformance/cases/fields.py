"""Fields' meanings, ranges and defaults: welcome, table, names, ids, floats, WebSocket."""

from __future__ import annotations

import struct

from ..context import Context
from ..game import latest_table, must, seat_of
from ..recording import EVENTS, recording
from ..registry import Section, Stage, case
from ..wire import CaseFailed, pack, reply_to


@case("states.welcome-fields", Section.STATES)
async def welcome_fields(ctx: Context) -> None:
    """welcome: the host's version, the player id, the token, whether this seat is the host
    player's, the table's name, id and rules, and the limits."""
    seat = await ctx.join(role="spectator")
    welcome = seat.welcome
    kinds = {
        "version": int,
        "host": bool,
        "table": str,
        "table_id": str,
        "software": str,
        "rules": dict,
        "limits": dict,
    }
    wrong = [k for k, kind in kinds.items() if not isinstance(welcome.get(k), kind)]
    if wrong or welcome.get("host") is not False:
        raise CaseFailed(f"welcome's {', '.join(wrong) or 'host'}: {welcome}")


@case("states.second-seat-not-host", Section.STATES, stage=Stage.LOBBY)
async def second_not_host(ctx: Context) -> None:
    """welcome.host says whether this seat is the host player's: false for a second player."""
    await ctx.lobby_host()
    guest = await ctx.join(name=ctx.name("Guest"))
    if guest.welcome.get("host") is not False or not isinstance(guest.welcome.get("token"), str):
        raise CaseFailed(
            f"a second seat's welcome: host {guest.welcome.get('host')},"
            f" token {'present' if guest.welcome.get('token') else 'missing'}"
        )


@case("lobby.timing-in-table", Section.LOBBY, stage=Stage.LOBBY)
async def timing_fields(ctx: Context) -> None:
    """table.timing holds the clocks in force: turn_timer_ms, results_ms, nudge_after_ms,
    skip_after_ms; welcome.limits.turn_timer_ms is the turn timer when the client was welcomed."""
    seat = await ctx.lobby_host()
    await must(seat.peer, {"type": "set_timing", "turn_timer_ms": 45000}, 1)
    await latest_table(seat.peer, lambda t: t["timing"]["turn_timer_ms"] == 45000)
    late = await ctx.join(role="spectator")
    timing = late.snapshot["table"].get("timing") or {}
    for field in ("turn_timer_ms", "results_ms", "nudge_after_ms", "skip_after_ms"):
        if field not in timing:
            raise CaseFailed(f"table.timing lacks {field}")
    if late.welcome["limits"].get("turn_timer_ms") != 45000:
        raise CaseFailed(
            f"welcome.limits.turn_timer_ms is {late.welcome['limits'].get('turn_timer_ms')}"
            " with a 45 s turn timer"
        )


@case("framing.float32-accepted", Section.FRAMING, stage=Stage.LOBBY)
async def float32(ctx: Context) -> None:
    """Floats MAY be float 32 or float 64: set_rules with misdeal_chance as a float 32 is
    accepted."""
    seat = await ctx.lobby_host()
    body = (
        b"\x83"
        + pack("type")
        + pack("set_rules")
        + pack("id")
        + pack(3)
        + pack("rules")
        + b"\x81"
        + pack("misdeal_chance")
        + b"\xca"
        + struct.pack(">f", 0.25)
    )
    await seat.peer.send_body(body)
    reply = await seat.peer.expect(reply_to(3))
    if reply["type"] != "ack":
        raise CaseFailed(f"a float 32 misdeal_chance got {reply.get('code')}")
    await latest_table(seat.peer, lambda t: t["rules"].get("misdeal_chance") == 0.25)
    await must(seat.peer, {"type": "set_rules", "rules": {"misdeal_chance": 0.0}}, 4)


@case("names.lengths", Section.NAMES, stage=Stage.LOBBY)
async def name_lengths(ctx: Context) -> None:
    """A player name is 1..32 characters: 32 is taken, 33 is refused with bad_message (not
    fatal)."""
    await ctx.lobby_host()
    await ctx.join(name="\u00e9" * 32)
    peer = await ctx.connect("long name")
    await peer.send(ctx.hello("w" * 33))
    await peer.expect_error("bad_message", fatal=False)


@case("names.empty-is-player", Section.NAMES, stage=Stage.LOBBY)
async def empty_name(ctx: Context) -> None:
    """A name that normalises to nothing (whitespace, invisible characters) is Player."""
    seat = await ctx.lobby_host()
    guest = await ctx.join(name=" \u200b ")
    table = await latest_table(seat.peer, lambda t: seat_of(t, guest.player) is not None)
    name = (seat_of(table, guest.player) or {}).get("name", "")
    if not name.startswith("Player"):
        raise CaseFailed(f"a blank name became {name!r}")


@case("requests.ids-need-not-be-unique", Section.REQUESTS)
async def same_ids(ctx: Context) -> None:
    """The host does not check that ids are unique: two requests with one id each get their
    reply."""
    seat = await ctx.join(role="spectator")
    for _ in range(2):
        await seat.peer.send({"type": "heartbeat", "id": "same"})
    for _ in range(2):
        reply = await seat.peer.expect(reply_to("same"))
        if reply["type"] != "ack":
            raise CaseFailed(f"a repeated id got {reply.get('code')}")


@case("requests.software-field", Section.REQUESTS)
async def software(ctx: Context) -> None:
    """hello.software is for logs: at most 64 characters (65 is bad_message); it changes nothing."""
    peer = await ctx.connect()
    await peer.send(ctx.hello(ctx.name(), "spectator", software="s" * 65))
    await peer.expect_error("bad_message", fatal=False)
    await peer.send(ctx.hello(ctx.name(), "spectator", software="conformance/1 " + "s" * 50))
    await peer.expect("welcome")


@case("lobby.snapshot-chat-bounded", Section.LOBBY, stage=Stage.LOBBY)
async def chat_bounded(ctx: Context) -> None:
    """A snapshot's chat holds at most 2,000 characters of names and texts."""
    seat = await ctx.lobby_host()
    for number in range(6):
        await seat.peer.send({"type": "chat", "text": f"{number} " + "long " * 99})
        await seat.peer.expect("chat")
    watcher = await ctx.join(role="spectator")
    lines = watcher.snapshot.get("chat") or []
    size = sum(len(line.get("name", "")) + len(line.get("text", "")) for line in lines)
    if not lines or size > 2000:
        raise CaseFailed(f"the snapshot's chat has {len(lines)} lines, {size} characters")


@case("between.ready-reset-at-new-hand", Section.BETWEEN_HANDS, stage=Stage.GAME)
async def ready_reset(ctx: Context) -> None:
    """The host resets every seat's ready but its own bots' when a hand starts: the table sent with
    a new hand shows no seat ready but those of kind bot (always ready); in a game every seat is
    seated."""
    rec = await recording(ctx)
    messages = rec.seat
    starts = [i for i, m in enumerate(messages) if m.get("type") == "hand_started"]
    for index in starts[1:]:
        tables = [m for m in messages[:index] if m.get("type") in EVENTS | {"table"}]
        if tables[-1].get("type") != "table":
            continue
        players = tables[-1]["table"]["players"]
        ready = [
            f"{p['player']} ({p['kind']})" for p in players if p["ready"] and p["kind"] != "bot"
        ]
        bots_not_ready = [
            str(p["player"]) for p in players if p["kind"] == "bot" and not p["ready"]
        ]
        unseated = [str(p["player"]) for p in players if not p["seated"]]
        if ready or unseated or bots_not_ready:
            hand = messages[index].get("hand")
            raise CaseFailed(
                f"the table sent right before hand {hand}'s hand_started shows"
                + (f" still ready: {', '.join(ready)}" if ready else "")
                + (f"; not seated: {', '.join(unseated)}" if unseated else "")
                + (f"; bots not ready: {', '.join(bots_not_ready)}" if bots_not_ready else "")
            )


@case("ws.rate-limit", Section.WEBSOCKET, transport="ws")
async def ws_rate(ctx: Context) -> None:
    """Every other limit is the TCP one: over the rate, a message is refused with rate_limited (not
    fatal)."""
    peer = await ctx.ws()
    await peer.send(ctx.hello(ctx.name(), "spectator"))
    welcome = await peer.expect("welcome")
    burst = welcome["limits"]["max_messages_per_second"] * 2 + 10
    for number in range(burst):
        await peer.send({"type": "heartbeat", "id": number})
    error = await peer.expect("error")
    if error.get("code") != "rate_limited" or error.get("fatal") is not False:
        raise CaseFailed(f"a burst of {burst} got {error.get('code')}")


@case("ws.goodbye-closes-1000", Section.WEBSOCKET, transport="ws")
async def ws_goodbye(ctx: Context) -> None:
    """After goodbye the host closes the WebSocket (code 1000)."""
    peer = await ctx.ws()
    await peer.send(ctx.hello(ctx.name(), "spectator"))
    await peer.expect("welcome")
    await peer.send({"type": "goodbye"})
    await peer.expect_closed()
    if peer.close_code != 1000:
        raise CaseFailed(f"the WebSocket closed with code {peer.close_code}")
