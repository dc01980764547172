"""The lobby: the host player, rules, timing, seats, names, chat (the table's first lobby)."""

from __future__ import annotations

import itertools

from ..context import Context, Seat
from ..game import latest_table, messages, must, request, seat_of
from ..registry import Section, Stage, case
from ..wire import CaseFailed, Message


@case("words.first-seat-is-host-player", Section.WORDS, stage=Stage.LOBBY)
async def first_host(ctx: Context) -> None:
    """At a host without a player of its own, the first player to take a seat is the host player
    (`host` in welcome and in its seat); ids start from 1."""
    seat = await ctx.lobby_host()
    mine = seat_of(seat.snapshot["table"], seat.player)
    if mine is None or mine.get("host") is not True:
        raise CaseFailed("the snapshot's table does not mark the seat as the host player's")
    if not 1 <= seat.player <= 9999:
        raise CaseFailed(f"player id {seat.player}")


@case("lobby.only-host-player", Section.LOBBY, stage=Stage.LOBBY)
async def only_host(ctx: Context) -> None:
    """start, set_rules, add_bot... from anyone but the host player are refused with not_host (not
    fatal)."""
    await ctx.lobby_host()
    guest = await ctx.join(name=ctx.name("Guest"))
    for message in (
        {"type": "start"},
        {"type": "add_bot"},
        {"type": "set_rules", "rules": {"scoring": True}},
        {"type": "set_timing", "results_ms": 0},
        {"type": "end_table"},
    ):
        await guest.peer.send(message)
        error = await guest.peer.expect("error")
        if error.get("code") != "not_host" or error.get("fatal") is not False:
            raise CaseFailed(f"{message['type']} from a guest got {error.get('code')!r}")


@case("lobby.not-enough-players", Section.LOBBY, stage=Stage.LOBBY)
async def not_enough(ctx: Context) -> None:
    """start with fewer than 4 seated players is refused with not_enough_players and changes
    nothing."""
    seat = await ctx.lobby_host()
    await must(seat.peer, {"type": "add_bot"}, 1)
    reply = await request(seat.peer, {"type": "start"}, 2)
    if reply.get("code") != "not_enough_players":
        raise CaseFailed(f"start with 2 seats got {reply.get('type')} {reply.get('code', '')}")
    if (await ctx.about())["phase"] != "lobby":
        raise CaseFailed("the table left its lobby")


@case("lobby.set-rules-keeps-others", Section.LOBBY, stage=Stage.LOBBY)
async def rules_others(ctx: Context) -> None:
    """set_rules: only the options given change."""
    seat = await ctx.lobby_host()
    await must(seat.peer, {"type": "set_rules", "rules": {"merchant_exchange": True}}, 1)
    await must(seat.peer, {"type": "set_rules", "rules": {"stripped_decks": True}}, 2)
    table = await latest_table(seat.peer, lambda t: t["rules"].get("stripped_decks"))
    if table["rules"].get("merchant_exchange") is not True:
        raise CaseFailed(f"merchant_exchange was dropped: {table['rules']}")


@case("lobby.set-rules-scoring-keeps-hand-limit", Section.LOBBY, stage=Stage.LOBBY)
async def rules_hand_limit(ctx: Context) -> None:
    """set_rules changes only the options given: {scoring: false} keeps hand_limit (issue 41, wrong
    statement 8)."""
    seat = await ctx.lobby_host()
    await must(seat.peer, {"type": "set_rules", "rules": {"scoring": True, "hand_limit": 5}}, 1)
    await must(seat.peer, {"type": "set_rules", "rules": {"scoring": False}}, 2)
    table = await latest_table(seat.peer, lambda t: t["rules"].get("scoring") is False)
    if table["rules"].get("hand_limit") != 5:
        raise CaseFailed(f"{{scoring: false}} made hand_limit {table['rules'].get('hand_limit')!r}")


@case("lobby.bad-rules-change-nothing", Section.LOBBY, stage=Stage.LOBBY)
async def bad_rules(ctx: Context) -> None:
    """An impossible combination of rules is refused with bad_rules and nothing changes."""
    seat = await ctx.lobby_host()
    await must(
        seat.peer, {"type": "set_rules", "rules": {"scoring": False, "merchant_exchange": False}}, 1
    )
    reply = await request(
        seat.peer,
        {"type": "set_rules", "rules": {"philanthropic_scoring": True, "merchant_exchange": True}},
        2,
    )
    if reply.get("code") != "bad_rules":
        raise CaseFailed(
            f"philanthropic scoring without scoring got {reply.get('type')} {reply.get('code', '')}"
        )
    await seat.peer.send({"type": "snapshot_request"})
    rules = (await seat.peer.expect("snapshot"))["table"]["rules"]
    if rules.get("merchant_exchange") or rules.get("philanthropic_scoring"):
        raise CaseFailed(f"a refused set_rules changed the rules: {rules}")


@case("lobby.set-rules-unknown-option", Section.LOBBY, stage=Stage.LOBBY)
async def unknown_option(ctx: Context) -> None:
    """rules' keys are option names: an unknown one is refused with bad_rules and nothing
    changes."""
    seat = await ctx.lobby_host()
    reply = await request(
        seat.peer, {"type": "set_rules", "rules": {"x_bonus": True, "stripped_decks": True}}, 1
    )
    if reply.get("code") != "bad_rules":
        raise CaseFailed(f"an unknown option got {reply.get('type')} {reply.get('code', '')}")


@case("lobby.set-timing-ranges", Section.LOBBY, stage=Stage.LOBBY)
async def timing_ranges(ctx: Context) -> None:
    """set_timing: turn_timer_ms 5 s to 1 h or nil, results_ms 0 to 10 min, bot_pace_ms 0 to 60 s;
    out of range is bad_message."""
    seat = await ctx.lobby_host()
    for number, fields in enumerate(
        messages(
            {"turn_timer_ms": 4999},
            {"turn_timer_ms": 3_600_001},
            {"results_ms": 600_001},
            {"bot_pace_ms": 60_001},
            {"results_ms": -1},
        ),
        start=1,
    ):
        reply = await request(seat.peer, {"type": "set_timing", **fields}, number)
        if reply.get("code") != "bad_message":
            raise CaseFailed(f"set_timing {fields} got {reply.get('type')} {reply.get('code', '')}")
    for number, fields in enumerate(
        messages(
            {"turn_timer_ms": 5000},
            {"turn_timer_ms": None},
            {"results_ms": 600_000},
            {"bot_pace_ms": 60_000},
        ),
        start=10,
    ):
        await must(seat.peer, {"type": "set_timing", **fields}, number)


@case("lobby.set-timing-fields-stay", Section.LOBBY, stage=Stage.LOBBY)
async def timing_stay(ctx: Context) -> None:
    """set_timing: fields left out stay; table.timing holds the values in force."""
    seat = await ctx.lobby_host()
    await must(seat.peer, {"type": "set_timing", "results_ms": 1234, "turn_timer_ms": 6000}, 1)
    await must(seat.peer, {"type": "set_timing", "bot_pace_ms": 7}, 2)
    table = await latest_table(seat.peer, lambda t: (t.get("timing") or {}).get("bot_pace_ms") == 7)
    timing = table["timing"]
    if timing.get("results_ms") != 1234 or timing.get("turn_timer_ms") != 6000:
        raise CaseFailed(f"table.timing is {timing}")


@case("lobby.remove-unknown-bot", Section.LOBBY, stage=Stage.LOBBY)
async def remove_unknown(ctx: Context) -> None:
    """remove_bot naming no such bot gets unknown_player."""
    seat = await ctx.lobby_host()
    reply = await request(seat.peer, {"type": "remove_bot", "player": seat.player}, 1)
    if reply.get("code") != "unknown_player":
        raise CaseFailed(f"remove_bot of a human got {reply.get('type')} {reply.get('code', '')}")
    reply = await request(seat.peer, {"type": "remove_bot", "player": 9999}, 2)
    if reply.get("code") != "unknown_player":
        raise CaseFailed(f"remove_bot 9999 got {reply.get('type')} {reply.get('code', '')}")


@case("lobby.players-in-order-taken", Section.LOBBY, stage=Stage.LOBBY)
async def order_taken(ctx: Context) -> None:
    """table.players lists the seats in the order they were taken."""
    seat = await ctx.lobby_host()
    await must(seat.peer, {"type": "add_bot"}, 1)
    guest = await ctx.join(name=ctx.name("Guest"))
    await must(seat.peer, {"type": "add_bot"}, 2)
    table = await latest_table(seat.peer, lambda t: len(t["players"]) == 4)
    ids = [p["player"] for p in table["players"]]
    kinds = [p["kind"] for p in table["players"]]
    if ids[0] != seat.player or ids[2] != guest.player or kinds != ["human", "bot", "human", "bot"]:
        raise CaseFailed(f"table.players is {list(zip(ids, kinds, strict=True))}")


@case("lobby.tables-differ", Section.LOBBY, stage=Stage.LOBBY)
async def tables_differ(ctx: Context) -> None:
    """Two table messages in a row to one connection always differ."""
    seat = await ctx.lobby_host()
    watcher = await ctx.join(role="spectator")
    for number, message in enumerate(
        messages(
            {"type": "add_bot"},
            {"type": "set_rules", "rules": {"scoring": True}},
            {"type": "set_rules", "rules": {"scoring": True}},
            {"type": "ready", "ready": True},
            {"type": "ready", "ready": True},
            {"type": "set_timing", "results_ms": 5000},
            {"type": "set_timing", "results_ms": 5000},
        ),
        start=1,
    ):
        await request(seat.peer, message, number)
    await ctx.join(name=ctx.name("Guest"))
    for peer in (seat.peer, watcher.peer):
        await peer.quiet(0.3)
        tables = [m["table"] for m in peer.received if m.get("type") == "table"]
        if not tables:
            raise CaseFailed(f"{peer.label} got no table")
        for before, after in itertools.pairwise(tables):
            if before == after:
                raise CaseFailed(f"{peer.label} got the same table twice in a row")


@case("lobby.ready-shown", Section.LOBBY, stage=Stage.LOBBY)
async def ready_shown(ctx: Context) -> None:
    """ready in the lobby is a courtesy shown to others (the seat's ready in table)."""
    seat = await ctx.lobby_host()
    guest = await ctx.join(name=ctx.name("Guest"))
    await guest.peer.send({"type": "ready", "ready": True})
    table = await latest_table(
        seat.peer,
        lambda t: (seat_of(t, guest.player) or {}).get("ready") is True,
        what="a table showing the guest ready",
    )
    if table["phase"] != "lobby":
        raise CaseFailed("ready started the table")


@case("lobby.kick", Section.LOBBY, stage=Stage.LOBBY)
async def kick(ctx: Context) -> None:
    """kick removes a player: their connection is closed with kicked (fatal); the host player cannot
    be kicked."""
    seat = await ctx.lobby_host()
    guest = await ctx.join(name=ctx.name("Guest"))
    await must(seat.peer, {"type": "kick", "player": guest.player}, 1)
    await guest.peer.expect_error("kicked", fatal=True)
    await guest.peer.expect_closed()
    await latest_table(
        seat.peer,
        lambda t: seat_of(t, guest.player) is None,
        what="a table without the kicked guest",
    )
    reply = await request(seat.peer, {"type": "kick", "player": seat.player}, 2)
    if reply["type"] != "error" or reply.get("fatal") is not False:
        raise CaseFailed(f"kicking the host player got {reply.get('type')}")


@case("lobby.leave", Section.LOBBY, stage=Stage.LOBBY)
async def leave(ctx: Context) -> None:
    """leave gives up the seat: in the lobby at once; the host closes the connection."""
    seat = await ctx.lobby_host()
    guest = await ctx.join(name=ctx.name("Guest"))
    await guest.peer.send({"type": "leave"})
    await guest.peer.expect_closed()
    await latest_table(
        seat.peer,
        lambda t: seat_of(t, guest.player) is None,
        what="a table without the guest who left",
    )


@case("lobby.chat-to-everyone", Section.LOBBY, stage=Stage.LOBBY)
async def chat(ctx: Context) -> None:
    """chat goes to everyone at the table, spectators too, with the speaker's player id and name; a
    spectator's with player nil and its name and ' (watching)'."""
    seat = await ctx.lobby_host()
    watcher = await ctx.join(role="spectator", name="Cyd")
    await seat.peer.send({"type": "chat", "text": "hello all"})
    for peer in (seat.peer, watcher.peer):
        line = await peer.expect("chat")
        if line.get("player") != seat.player or line.get("text") != "hello all":
            raise CaseFailed(f"{peer.label} got {line}")
    await watcher.peer.send({"type": "chat", "text": "just looking"})
    line = await seat.peer.expect("chat")
    if line.get("player") is not None or line.get("name") != "Cyd (watching)":
        raise CaseFailed(f"a spectator's chat came as {line}")


@case("lobby.chat-length", Section.LOBBY, stage=Stage.LOBBY)
async def chat_length(ctx: Context) -> None:
    """chat text is 1 to limits.max_chat_chars (500) characters; outside that, bad_message."""
    seat = await ctx.lobby_host()
    top = seat.welcome["limits"]["max_chat_chars"]
    await must(seat.peer, {"type": "chat", "text": "\u00e9" * top}, 1)
    for number, text in ((2, ""), (3, "x" * (top + 1))):
        reply = await request(seat.peer, {"type": "chat", "text": text}, number)
        if reply.get("code") != "bad_message":
            raise CaseFailed(f"a chat of {len(text)} characters got {reply.get('type')}")


@case("lobby.snapshot-chat", Section.LOBBY, stage=Stage.LOBBY)
async def snapshot_chat(ctx: Context) -> None:
    """every snapshot carries the last chat lines (at most 20)."""
    seat = await ctx.lobby_host()
    for number in range(22):
        await seat.peer.send({"type": "chat", "text": f"line {number}"})
        await seat.peer.expect("chat")
    watcher = await ctx.join(role="spectator")
    lines = watcher.snapshot.get("chat") or []
    if not 1 <= len(lines) <= 20 or lines[-1].get("text") != "line 21":
        raise CaseFailed(f"the snapshot's chat has {len(lines)} lines, last {lines[-1:]}")


@case("lobby.seat-kept-through-drop", Section.NUMBERING, stage=Stage.LOBBY)
async def lobby_token(ctx: Context) -> None:
    """In the lobby a dropped seat is kept (connected false, counted down in timers.grace) and
    taken back with its token; a leave gives it up at once: its token then names nothing
    (bad_token)."""
    seat = await ctx.lobby_host()
    guest = await ctx.join(name=ctx.name("Guest"))
    guest.peer.leave_on_close = False
    await guest.peer.aclose()
    await latest_table(
        seat.peer,
        lambda t: (s := seat_of(t, guest.player)) is not None and s.get("connected") is False,
        what="the dropped guest's seat, kept and not connected",
    )
    timers = await seat.peer.expect(
        lambda m: (
            m.get("type") == "timers" and any(p == guest.player for p, _ in m.get("grace", []))
        ),
        what="timers.grace for the dropped guest",
    )
    grace = seat.welcome["limits"]["grace_period_ms"]
    left = next(ms for p, ms in timers["grace"] if p == guest.player)
    if not 0 < left <= grace:
        raise CaseFailed(f"timers.grace says {left} ms of {grace}")
    back = await ctx.resume(guest.token, "guest again")
    if back.welcome.get("player") != guest.player:
        raise CaseFailed(f"the seat came back as {back.welcome.get('player')}")
    back.peer.leave_on_close = False
    await back.peer.send({"type": "leave"})
    await back.peer.expect_closed()
    again = await ctx.try_resume(guest.token, "guest after leave")
    if not isinstance(again, str) or "bad_token" not in again:
        raise CaseFailed(f"a token whose seat was left still names it ({again})")


@case("lobby.table-full-hello", Section.ERROR_CODES, stage=Stage.LOBBY)
async def full_hello(ctx: Context) -> None:
    """A table has at most 8 seats: a hello for a ninth gets table_full, fatal."""
    seat = await ctx.lobby_host()
    for number in range(7):
        await must(seat.peer, {"type": "add_bot"}, number + 1)
    peer = await ctx.connect("ninth")
    await peer.send(ctx.hello(ctx.name()))
    await peer.expect_error("table_full", fatal=True)
    await peer.expect_closed()


@case("lobby.table-full-add-bot", Section.ERROR_CODES, stage=Stage.LOBBY)
async def full_add_bot(ctx: Context) -> None:
    """add_bot at a full table gets table_full with fatal false: the host player's connection stays
    (issue 41, wrong statement 1)."""
    seat = await ctx.lobby_host()
    for number in range(7):
        await must(seat.peer, {"type": "add_bot"}, number + 1)
    reply = await request(seat.peer, {"type": "add_bot"}, 8)
    if reply.get("code") != "table_full" or reply.get("fatal") is not False:
        raise CaseFailed(
            f"add_bot at a full table got {reply.get('code')!r} fatal {reply.get('fatal')!r}"
        )
    await seat.peer.stays_open(0.3)


async def _names(ctx: Context, first: str, second: str) -> tuple[Seat, Message]:
    seat = await ctx.lobby_host()
    await ctx.join(name=first)
    peer = await ctx.connect("second")
    await peer.send(ctx.hello(second))
    reply = await peer.expect(lambda m: m.get("type") in ("welcome", "error"))
    peer.leave_on_close = reply["type"] == "welcome"
    return seat, reply


@case("names.same-name-numbered", Section.NAMES, stage=Stage.LOBBY)
async def numbered(ctx: Context) -> None:
    """A name that is exactly one at the table gets the first free ' (2)'."""
    seat, reply = await _names(ctx, "Tomas", "Tomas")
    if reply["type"] != "welcome":
        raise CaseFailed(f"the second Tomas got {reply.get('code')}")
    table = await latest_table(seat.peer, lambda t: len(t["players"]) == 3)
    names = [p["name"] for p in table["players"]]
    if "Tomas (2)" not in names:
        raise CaseFailed(f"the names are {names}")


@case("names.look-alike-refused", Section.NAMES, stage=Stage.LOBBY)
async def lookalike(ctx: Context) -> None:
    """A name that only looks like one at the table (case, Cyrillic letters) is refused with
    name_taken, fatal."""
    _, reply = await _names(ctx, "Marta", "M\u0430rta")
    if reply.get("code") != "name_taken" or reply.get("fatal") is not True:
        raise CaseFailed(f"a Cyrillic look-alike got {reply.get('type')} {reply.get('code', '')}")


@case("names.normalised", Section.NAMES, stage=Stage.LOBBY)
async def normalised(ctx: Context) -> None:
    """Names are normalised: runs of whitespace become one space, none at either end; NFKC makes
    full-width letters plain."""
    seat = await ctx.lobby_host()
    await ctx.join(name="  Rosa   Lee ")
    await ctx.join(name="\uff2b\uff49\uff4d")
    table = await latest_table(seat.peer, lambda t: len(t["players"]) == 3)
    names = [p["name"] for p in table["players"]]
    if "Rosa Lee" not in names or "Kim" not in names:
        raise CaseFailed(f"the names are {names}")


@case("lobby.host-player-seat-kept", Section.NUMBERING, stage=Stage.LOBBY)
async def host_kept(ctx: Context) -> None:
    """At a host without a player of its own, the host player's lobby seat is kept through a drop
    for the grace period and taken back with its token, host role included (issue 41, wrong
    statement 7)."""
    seat = await ctx.lobby_host()
    seat.peer.leave_on_close = False
    await seat.peer.aclose()
    back = await ctx.resume(seat.token, "host player again")
    back.peer.leave_on_close = True
    if back.welcome.get("host") is not True or back.welcome.get("player") != seat.player:
        raise CaseFailed(
            f"the seat came back as {back.welcome.get('player')}, host {back.welcome.get('host')}"
        )
