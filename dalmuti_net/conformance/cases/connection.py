"""The connection's life: about, hello, welcome, refusals, requests and their replies."""

from __future__ import annotations

import secrets

from ..context import VERSION, Context, seat_id
from ..registry import Section, case
from ..wire import CaseFailed, reply_to


@case("versions.mismatch", Section.VERSIONS)
async def mismatch(ctx: Context) -> None:
    """A hello of another version gets version_mismatch (fatal) with host_version and
    client_version."""
    peer = await ctx.connect()
    await peer.send({**ctx.hello(ctx.name(), "spectator"), "version": 99})
    error = await peer.expect_error("version_mismatch", fatal=True)
    if error.get("host_version") != VERSION or error.get("client_version") != 99:
        raise CaseFailed(
            f"host_version {error.get('host_version')!r}, client_version"
            f" {error.get('client_version')!r} (expected {VERSION} and 99)"
        )
    await peer.expect_closed()


@case("versions.welcome-and-about-say-2", Section.VERSIONS)
async def version_two(ctx: Context) -> None:
    """The protocol version is 2: `about` and `welcome` say so."""
    about = await ctx.about()
    seat = await ctx.join(role="spectator")
    if about.get("version") != VERSION or seat.welcome.get("version") != VERSION:
        raise CaseFailed(
            f"about says {about.get('version')}, welcome {seat.welcome.get('version')}"
        )


@case("versions.unknown-fields-ignored", Section.VERSIONS)
async def unknown_fields(ctx: Context) -> None:
    """A receiver MUST ignore fields it does not know: a hello with a field of a later version is
    accepted."""
    peer = await ctx.connect()
    await peer.send({**ctx.hello(ctx.name(), "spectator"), "x_later": {"a": [1, 2]}})
    await peer.expect("welcome")


@case("versions.unknown-type-fatal", Section.VERSIONS)
async def unknown_type(ctx: Context) -> None:
    """A message type a client may not send is refused with unknown_type (fatal)."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "x_teleport"})
    await seat.peer.expect_error("unknown_type", fatal=True)
    await seat.peer.expect_closed()


@case("versions.host-only-type-is-unknown", Section.VERSIONS)
async def host_type(ctx: Context) -> None:
    """A type only the host sends (`welcome`) is not one a client may send: unknown_type."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "table", "table": {}})
    await seat.peer.expect_error("unknown_type", fatal=True)


@case("versions.bad-field-not-fatal", Section.VERSIONS)
async def bad_field(ctx: Context) -> None:
    """A known type that breaks a field's type or range gets bad_message, not fatal, and the
    connection stays."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "chat", "text": 42})
    await seat.peer.expect_error("bad_message", fatal=False)
    await seat.peer.send({"type": "about"})
    await seat.peer.expect("about")


@case("states.about-any-number", Section.STATES)
async def about_many(ctx: Context) -> None:
    """Before hello a client MAY send about any number of times; each gets an about and the
    connection stays open for hello."""
    peer = await ctx.connect()
    for _ in range(3):
        await peer.send({"type": "about"})
        await peer.expect("about")
    await peer.send(ctx.hello(ctx.name(), "spectator"))
    await peer.expect("welcome")


@case("states.about-fields", Section.STATES)
async def about_fields(ctx: Context) -> None:
    """about gives the version, the table's id, name and phase, and whether a join code is
    needed."""
    about = await ctx.about()
    wanted = {"version": int, "table_id": str, "table": str, "phase": str, "code_required": bool}
    for field, kind in wanted.items():
        if not isinstance(about.get(field), kind):
            raise CaseFailed(f"about.{field} is {about.get(field)!r}")
    if about["phase"] not in ("lobby", "playing", "ended"):
        raise CaseFailed(f"about.phase is {about['phase']!r}")
    if ctx.options.code is not None and about["code_required"] is not True:
        raise CaseFailed("--code was given but about says no code is required")


@case("states.table-id-stable", Section.STATES)
async def table_id(ctx: Context) -> None:
    """The table id names a table for its whole life: about and welcome give the same one, every
    time."""
    first = await ctx.about()
    seat = await ctx.join(role="spectator")
    second = await ctx.about()
    ids = {first["table_id"], second["table_id"], seat.welcome.get("table_id")}
    if len(ids) != 1:
        raise CaseFailed(f"the table's id changed: {sorted(map(str, ids))}")


@case("states.not-hello-first", Section.STATES)
async def not_hello(ctx: Context) -> None:
    """A first message other than hello or about gets not_hello (fatal)."""
    peer = await ctx.connect()
    await peer.send({"type": "chat", "text": "hi"})
    await peer.expect_error("not_hello", fatal=True)
    await peer.expect_closed()


@case("states.welcome-then-snapshot", Section.STATES)
async def welcome_snapshot(ctx: Context) -> None:
    """Right after welcome the host sends one snapshot."""
    peer = await ctx.connect()
    await peer.send(ctx.hello(ctx.name(), "spectator"))
    first = await peer.next()
    second = await peer.next()
    kinds = [m.get("type") if m else None for m in (first, second)]
    if kinds != ["welcome", "snapshot"]:
        raise CaseFailed(f"the host sent {kinds} after hello")


@case("states.spectator-welcome", Section.STATES)
async def spectator_welcome(ctx: Context) -> None:
    """A spectator's welcome has player nil and token nil; its snapshot has `you` nil."""
    seat = await ctx.join(role="spectator")
    if seat.welcome.get("player") is not None or seat.welcome.get("token") is not None:
        raise CaseFailed(f"welcome has player {seat.welcome.get('player')!r}, a token or both")
    if seat.snapshot.get("you") is not None:
        raise CaseFailed(f"the snapshot's you is {seat.snapshot.get('you')!r}")


@case("states.welcome-limits", Section.STATES)
async def limits(ctx: Context) -> None:
    """welcome carries the limits the host enforces, every field of them."""
    seat = await ctx.join(role="spectator")
    limits = seat.welcome.get("limits") or {}
    fields = (
        "max_frame_bytes",
        "heartbeat_interval_ms",
        "heartbeat_timeout_ms",
        "grace_period_ms",
        "turn_timer_ms",
        "max_messages_per_second",
        "max_chat_chars",
    )
    missing = [f for f in fields if f not in limits]
    if missing:
        raise CaseFailed(f"welcome.limits lacks {', '.join(missing)}")


@case("states.already-hello", Section.STATES)
async def already(ctx: Context) -> None:
    """A second hello on a greeted connection is refused with already_hello, not fatal."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send(ctx.hello(ctx.name(), "spectator"))
    await seat.peer.expect_error("already_hello", fatal=False)
    await seat.peer.send({"type": "about"})
    await seat.peer.expect("about")


@case("states.spectator-may-not-act", Section.STATES)
async def spectator_acts(ctx: Context) -> None:
    """A spectator's request other than chat, snapshot_request, heartbeat, goodbye and about is
    refused with spectator (not fatal)."""
    seat = await ctx.join(role="spectator")
    for message in ({"type": "ready", "ready": True}, {"type": "pass"}, {"type": "start"}):
        await seat.peer.send(message)
        error = await seat.peer.expect("error")
        if error.get("code") != "spectator" or error.get("fatal") is not False:
            raise CaseFailed(f"{message['type']} from a spectator got {error.get('code')!r}")


@case("states.spectator-may-watch", Section.STATES)
async def spectator_may(ctx: Context) -> None:
    """A spectator MAY send chat, snapshot_request, heartbeat and about: each is accepted."""
    seat = await ctx.join(role="spectator")
    for number, message in enumerate(
        (
            {"type": "snapshot_request"},
            {"type": "heartbeat"},
            {"type": "about"},
            {"type": "chat", "text": "watching"},
        ),
        start=1,
    ):
        await seat.peer.send({**message, "id": number})
        reply = await seat.peer.expect(reply_to(number))
        if reply["type"] != "ack":
            raise CaseFailed(f"{message['type']} from a spectator got {reply.get('code')!r}")


@case("states.goodbye-closes", Section.STATES)
async def goodbye(ctx: Context) -> None:
    """The client MAY send goodbye and close; the host sends no ack for it (requests that close get
    none) and closes."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "goodbye", "id": 77})
    got = await seat.peer.expect_closed()
    if any(m.get("re") == 77 for m in got):
        raise CaseFailed("goodbye got a reply")


@case("requests.ack-before-about", Section.REQUESTS)
async def ack_about(ctx: Context) -> None:
    """A request with an id gets an ack before what it caused; the about itself carries no re."""
    peer = await ctx.connect()
    await peer.send({"type": "about", "id": 1})
    first = await peer.next()
    second = await peer.next()
    if not (first and first.get("type") == "ack" and first.get("re") == 1):
        raise CaseFailed(f"the first reply was {first!r}")
    if not (second and second.get("type") == "about" and "re" not in second):
        raise CaseFailed(f"then came {second!r}")


@case("requests.ack-before-welcome", Section.REQUESTS)
async def ack_welcome(ctx: Context) -> None:
    """hello with an id: ack first, then welcome and snapshot, which carry no re."""
    peer = await ctx.connect()
    await peer.send({**ctx.hello(ctx.name(), "spectator"), "id": "h-1"})
    got = [await peer.next() for _ in range(3)]
    kinds = [(m or {}).get("type") for m in got]
    if kinds != ["ack", "welcome", "snapshot"] or got[0].get("re") != "h-1":  # type: ignore[union-attr]
        raise CaseFailed(f"the host sent {kinds}")
    if any("re" in m for m in got[1:] if m):
        raise CaseFailed("welcome or snapshot carries re")


@case("requests.error-carries-re", Section.REQUESTS)
async def error_re(ctx: Context) -> None:
    """A refused request with an id gets exactly one error carrying it as re."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "ready", "ready": True, "id": 2024})
    error = await seat.peer.expect("error")
    if error.get("re") != 2024:
        raise CaseFailed(f"the error's re is {error.get('re')!r}")
    extra = await seat.peer.quiet(0.3)
    if any(m.get("re") == 2024 for m in extra):
        raise CaseFailed("a second reply carried the same re")


@case("requests.no-id-no-reply", Section.REQUESTS)
async def no_id(ctx: Context) -> None:
    """An accepted request without an id gets no reply of its own."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "heartbeat"})
    await seat.peer.send({"type": "about"})
    got = await seat.peer.quiet(0.4)
    if any(m.get("type") == "ack" for m in got):
        raise CaseFailed("an ack came for a request without id")


@case("requests.refused-without-id", Section.REQUESTS)
async def refused_no_id(ctx: Context) -> None:
    """A refused request without an id still gets an error, without re."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "ready", "ready": True})
    error = await seat.peer.expect("error")
    if "re" in error:
        raise CaseFailed(f"the error carries re {error['re']!r}")


@case("requests.id-kinds", Section.REQUESTS)
async def id_kinds(ctx: Context) -> None:
    """An id is an int 0..2147483647 or a str of at most 64 characters: both limits are echoed."""
    seat = await ctx.join(role="spectator")
    for rid in (0, 2147483647, "", "q" * 64):
        await seat.peer.send({"type": "heartbeat", "id": rid})
        ack = await seat.peer.expect("ack")
        if ack.get("re") != rid:
            raise CaseFailed(f"id {rid!r} came back as {ack.get('re')!r}")


@case("requests.invalid-id-not-echoed", Section.REQUESTS)
async def invalid_id(ctx: Context) -> None:
    """An invalid id (negative, float, 65 characters, a list, a control character) gets bad_message
    with no re."""
    seat = await ctx.join(role="spectator")
    for rid in (-1, 1.5, "q" * 65, [1], "a\x07", 2147483648):
        await seat.peer.send({"type": "heartbeat", "id": rid})
        error = await seat.peer.expect("error")
        if error.get("code") != "bad_message" or error.get("fatal") is not False:
            raise CaseFailed(f"id {rid!r} got {error.get('code')!r}")
        if "re" in error:
            raise CaseFailed(f"id {rid!r} was echoed as re {error['re']!r}")


@case("requests.error-fields", Section.REQUESTS)
async def error_fields(ctx: Context) -> None:
    """An error carries a code, a message for people and fatal."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "start"})
    error = await seat.peer.expect("error")
    if not (
        isinstance(error.get("code"), str)
        and isinstance(error.get("message"), str)
        and isinstance(error.get("fatal"), bool)
    ):
        raise CaseFailed(f"the error is {error!r}")


@case("seat-back.unknown-seat", Section.SEAT_BACK)
async def unknown_seat(ctx: Context) -> None:
    """A resume naming no seat gets bad_token (fatal), with no challenge."""
    peer = await ctx.connect()
    resume = {"seat": seat_id(secrets.token_urlsafe(16)), "nonce": secrets.token_hex(16)}
    await peer.send(ctx.hello(ctx.name(), resume=resume))
    await peer.expect_error("bad_token", fatal=True)
    await peer.expect_closed()


@case("seat-back.prove-without-challenge", Section.SEAT_BACK)
async def prove_first(ctx: Context) -> None:
    """A prove with no challenge pending gets bad_proof (fatal)."""
    peer = await ctx.connect()
    await peer.send({"type": "about"})
    await peer.expect("about")
    await peer.send({"type": "prove", "proof": "0" * 64})
    await peer.expect_error("bad_proof", fatal=True)
    await peer.expect_closed()
