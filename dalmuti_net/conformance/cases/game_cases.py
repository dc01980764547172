"""Statements about a game in progress, each on a game of its own."""

from __future__ import annotations

import secrets

import trio

from ..context import Context, seat_id
from ..game import (
    first_answer,
    fresh_snapshot,
    game_until,
    in_hand,
    is_lead,
    must,
    new_game,
    of_type,
    owed,
    play_until,
    refuse,
    request,
)
from ..registry import Section, Stage, case
from ..wire import CaseFailed, Message


def is_decision(message: Message) -> bool:
    return owed(message) is not None


@case("decisions.stale-answer", Section.DECISIONS, stage=Stage.GAME)
async def stale(ctx: Context) -> None:
    """An answer naming a decision no longer owed is refused with stale_decision (not fatal) and
    changes nothing."""
    game, decision = await game_until(ctx)
    answer = first_answer(decision)
    await game.host.peer.send(answer)
    await refuse(game.host.peer, answer, 71, "stale_decision", "a second answer")


@case("decisions.refused-answer-still-owed", Section.DECISIONS, stage=Stage.GAME)
async def must_lead(ctx: Context) -> None:
    """A refused answer (pass on a lead: must_lead) changes nothing; the decision stays owed and is
    answered again."""
    game, decision = await game_until(ctx, is_lead, answer=True, what="a lead")
    pass_ = {"type": "pass", "decision_id": decision["decision_id"]}
    await refuse(game.host.peer, pass_, 72, "must_lead", "pass on a lead")
    await must(game.host.peer, first_answer(decision), 73)


@case("decisions.wrong-answer-type", Section.DECISIONS, stage=Stage.GAME)
async def wrong_kind(ctx: Context) -> None:
    """An answer of another kind than the decision owed is refused with wrong_decision."""
    game = await new_game(ctx)
    peer = game.host.peer
    got = await play_until(
        peer,
        lambda m: m.get("type") == "decision" and m.get("kind") == "play",
        what="a play decision",
    )
    await peer.send(
        {"type": "misdeal", "choice": "intended", "id": 74, "decision_id": got[-1]["decision_id"]}
    )
    reply = await peer.expect(lambda m: m.get("re") == 74)
    if reply.get("code") != "wrong_decision":
        raise CaseFailed(f"a misdeal answer to a play decision got {reply.get('code')!r}")


@case("decisions.illegal-sets", Section.DECISIONS, stage=Stage.GAME)
async def illegal(ctx: Context) -> None:
    """A play that is not a set, of cards not held, is refused (not_a_set, not_held) and the
    decision stays owed."""
    game = await new_game(ctx)
    peer = game.host.peer
    got = await play_until(
        peer,
        lambda m: (
            m.get("type") == "decision" and m.get("kind") == "play" and m.get("to_beat") is None
        ),
        what="a lead",
    )
    decision = got[-1]
    await peer.send({"type": "play", "set": {"rank": 5, "count": 3, "jesters": 3}, "id": 75})
    first = await peer.expect(lambda m: m.get("re") == 75)
    await peer.send({"type": "play", "set": {"rank": 1, "count": 2, "jesters": 0}, "id": 76})
    second = await peer.expect(lambda m: m.get("re") == 76)
    codes = (first.get("code"), second.get("code"))
    held = await request(peer, {"type": "snapshot_request"}, 77)
    snapshot = await peer.expect("snapshot")
    if codes[0] not in ("not_a_set", "bad_message") or codes[1] not in ("not_held", "not_better"):
        raise CaseFailed(f"the illegal plays got {codes}")
    if (
        held.get("type") != "ack"
        or (snapshot.get("decision") or {}).get("decision_id") != decision["decision_id"]
    ):
        raise CaseFailed("the decision is no longer owed after refused answers")


@case("decisions.snapshot-keeps-id", Section.DECISIONS, stage=Stage.GAME)
async def keeps_id(ctx: Context) -> None:
    """A decision keeps its id as long as it is owed: a snapshot holds the same decision_id."""
    game, decision = await game_until(ctx)
    snapshot = await fresh_snapshot(game.host.peer)
    if (snapshot.get("decision") or {}).get("decision_id") != decision["decision_id"]:
        raise CaseFailed(f"the snapshot's decision is {snapshot.get('decision')}")


@case("liveness.snapshot-deadline-is-time-left", Section.LIVENESS, stage=Stage.GAME)
async def deadline(ctx: Context) -> None:
    """A snapshot's decision carries deadline_ms, the time left on the turn timer, not the whole
    timer; a decision message the whole timer (issue 41, wrong statement 5)."""
    game, decision = await game_until(ctx, timing={"turn_timer_ms": 60000})
    if decision.get("deadline_ms") != 60000:
        raise CaseFailed(f"the decision says deadline_ms {decision.get('deadline_ms')}")
    await trio.sleep(1.5)
    snapshot = await fresh_snapshot(game.host.peer)
    left = (snapshot.get("decision") or {}).get("deadline_ms")
    if not isinstance(left, int) or left > 60000 - 1000:
        raise CaseFailed(f"1.5 s into the turn the snapshot's deadline_ms is {left}")


@case("liveness.timers-after-every-snapshot", Section.STATES, stage=Stage.GAME)
async def timers_after(ctx: Context) -> None:
    """A timers message follows every snapshot (empty when nothing counts down): after a resume with
    no turn timer too (issue 41, wrong statement 11)."""
    game, _ = await game_until(ctx, timing={"turn_timer_ms": None})
    await fresh_snapshot(game.host.peer)
    timers = await game.host.peer.expect("timers", timeout=3, what="a timers after the snapshot")
    if timers.get("turn"):
        raise CaseFailed(f"with no turn timer, timers.turn is {timers.get('turn')}")


@case("seat-back.resume-mid-game", Section.NUMBERING, stage=Stage.GAME)
async def resume(ctx: Context) -> None:
    """A seat outlives its connection: proving the token takes it back; welcome.token is nil; the
    snapshot holds the decision owed, same id."""
    game, decision = await game_until(ctx)
    await game.host.peer.aclose()
    back = await ctx.resume(
        game.host.token if game.host.welcome.get("token") else ctx.shared.host_token or ""
    )
    if back.welcome.get("token") is not None:
        raise CaseFailed("the welcome after a resume carries a token")
    if (back.snapshot.get("decision") or {}).get("decision_id") != decision["decision_id"]:
        raise CaseFailed(f"the snapshot's decision is {back.snapshot.get('decision')}")


@case("seat-back.replaced", Section.SEAT_BACK, stage=Stage.GAME)
async def replaced(ctx: Context) -> None:
    """Only a right proof takes the seat, closing the connection that held it with replaced
    (fatal)."""
    game = await new_game(ctx)
    token = ctx.shared.host_token or ""
    await ctx.resume(token, "second")
    await game.host.peer.expect_error("replaced", fatal=True)
    await game.host.peer.expect_closed()


@case("seat-back.wrong-proof", Section.SEAT_BACK, stage=Stage.GAME)
async def wrong_proof(ctx: Context) -> None:
    """A wrong prove gets bad_proof (fatal); nothing changes and the seat's holder keeps it."""
    game = await new_game(ctx)
    token = ctx.shared.host_token or ""
    peer = await ctx.connect("thief")
    await peer.send(
        ctx.hello(ctx.name(), resume={"seat": seat_id(token), "nonce": secrets.token_hex(16)})
    )
    await peer.expect("challenge")
    await peer.send({"type": "prove", "proof": "ab" * 32})
    await peer.expect_error("bad_proof", fatal=True)
    await game.host.peer.send({"type": "heartbeat", "id": 5})
    await game.host.peer.expect(lambda m: m.get("re") == 5, what="the holder's ack")


@case("seat-back.nonce-fresh", Section.SEAT_BACK, stage=Stage.GAME)
async def nonces(ctx: Context) -> None:
    """The host's nonce is 32 hex digits, new for every attempt, and never the client's."""
    await new_game(ctx, start=False)
    token = ctx.shared.host_token or ""
    seen = set()
    for attempt in range(2):
        peer = await ctx.connect(f"attempt {attempt}")
        nonce = secrets.token_hex(16)
        await peer.send(ctx.hello(ctx.name(), resume={"seat": seat_id(token), "nonce": nonce}))
        challenge = await peer.expect("challenge")
        host_nonce = challenge.get("nonce", "")
        if host_nonce == nonce or len(host_nonce) != 32 or host_nonce in seen:
            raise CaseFailed(f"the host's nonce {host_nonce!r}")
        seen.add(host_nonce)
        await peer.aclose()


@case("lobby.wrong-phase", Section.LOBBY, stage=Stage.GAME)
async def wrong_phase(ctx: Context) -> None:
    """set_rules and set_timing are lobby only: wrong_phase later."""
    game = await in_hand(ctx)
    await refuse(
        game.host.peer, {"type": "set_rules", "rules": {"scoring": True}}, 1, "wrong_phase"
    )
    await refuse(game.host.peer, {"type": "set_timing", "results_ms": 0}, 2, "wrong_phase")


@case("lobby.rematch-too-soon", Section.ERROR_CODES, stage=Stage.GAME)
async def rematch_soon(ctx: Context) -> None:
    """rematch before the table ended is refused with too_soon."""
    game = await in_hand(ctx)
    await refuse(game.host.peer, {"type": "rematch"}, 1, "too_soon")


@case("lobby.end-table", Section.LOBBY, stage=Stage.GAME)
async def end_table(ctx: Context) -> None:
    """end_table ends the table now (table_ended, reason host_ended); a second one gets table_ended,
    not fatal."""
    peer = (await in_hand(ctx)).host.peer
    await must(peer, {"type": "end_table"}, 1)
    ended = await play_until(peer, of_type("table_ended"), what="table_ended")
    if ended[-1].get("reason") != "host_ended":
        raise CaseFailed(f"the table ended with reason {ended[-1].get('reason')!r}")
    await refuse(peer, {"type": "end_table"}, 2, "table_ended", "a second end_table")


@case("states.new-seat-at-ended-table", Section.ERROR_CODES, stage=Stage.GAME)
async def ended_hello(ctx: Context) -> None:
    """A hello for a new seat at a table that has ended gets table_ended, fatal, with the final
    standings."""
    peer = (await in_hand(ctx)).host.peer
    await must(peer, {"type": "end_table"}, 1)
    await peer.expect("table_ended")
    late = await ctx.connect("latecomer")
    await late.send(ctx.hello(ctx.name()))
    error = await late.expect_error("table_ended", fatal=True)
    if not isinstance(error.get("standings"), list):
        raise CaseFailed("the refusal carries no standings")


@case("lobby.newcomer", Section.LOBBY, stage=Stage.GAME)
async def newcomer(ctx: Context) -> None:
    """A new seat while a game is on is a newcomer: everyone is sent a table listing it seated
    false, then a player_joining event."""
    game = await new_game(ctx)
    peer = game.host.peer
    await peer.expect("hand_started")
    guest = await ctx.join(name=ctx.name("Late"))
    mine = next(
        (p for p in guest.snapshot["table"]["players"] if p["player"] == guest.player), None
    )
    if mine is None or mine.get("seated") is not False:
        raise CaseFailed(f"the newcomer's seat is {mine}")
    got = await play_until(
        peer,
        lambda m: m.get("type") == "player_joining" and m.get("player") == guest.player,
        what="player_joining",
    )
    tables = [
        m
        for m in got
        if m.get("type") == "table"
        and any(p["player"] == guest.player for p in m["table"]["players"])
    ]
    if not tables:
        raise CaseFailed("player_joining came before any table listing the newcomer")


@case("seat-back.refused-start-keeps-seats", Section.NUMBERING, stage=Stage.GAME)
async def refused_start(ctx: Context) -> None:
    """A refused start changes nothing: in a rematch's lobby, a dropped seat is still taken back
    with its token after a start refused with not_enough_players (issue 41, wrong statement 10)."""
    game = await new_game(ctx, bots=2, humans=1)
    peer = game.host.peer
    await peer.expect("hand_started")
    guest = game.others[0]
    await must(peer, {"type": "end_table"}, 1)
    await peer.expect("table_ended")
    await must(peer, {"type": "rematch"}, 2)
    await peer.expect(lambda m: m.get("type") == "table" and m["table"]["phase"] == "lobby")
    await guest.peer.aclose()
    await peer.expect(
        lambda m: (
            m.get("type") == "table"
            and any(
                p["player"] == guest.player and not p["connected"] for p in m["table"]["players"]
            )
        ),
        what="a table showing the guest away",
    )
    for number, bot in enumerate(game.bots):
        await must(peer, {"type": "remove_bot", "player": bot}, 10 + number)
    reply = await request(peer, {"type": "start"}, 3)
    if reply.get("code") != "not_enough_players":
        raise CaseFailed(f"start with two seats got {reply.get('type')} {reply.get('code', '')}")
    back = await ctx.resume(guest.token, "guest again")
    if back.welcome.get("player") != guest.player:
        raise CaseFailed("the guest's seat came back as another")


@case("liveness.rate-limit", Section.LIVENESS, stage=Stage.CONNECTION)
async def rate(ctx: Context) -> None:
    """Over max_messages_per_second (bursts of twice that), a message is dropped and refused with
    rate_limited (not fatal)."""
    seat = await ctx.join(role="spectator")
    rate_ = seat.welcome["limits"]["max_messages_per_second"]
    sent = rate_ * 2 + 10
    for number in range(sent):
        await seat.peer.send({"type": "heartbeat", "id": number})
    got: list[Message] = []
    while len({m.get("re") for m in got if m.get("type") in ("ack", "error")}) < sent:
        got.append(
            await seat.peer.expect(
                lambda m: m.get("type") in ("ack", "error"),
                what=f"a reply to each of {sent} heartbeats",
            )
        )
    codes = [m.get("code") for m in got if m.get("type") == "error"]
    if "rate_limited" not in codes:
        raise CaseFailed(f"{rate_ * 2 + 10} messages at once were all taken")
    if any(m.get("type") == "error" and m.get("fatal") for m in got):
        raise CaseFailed("rate_limited was fatal")
    acks = sum(1 for m in got if m.get("type") == "ack")
    if acks < rate_ * 2 - 1:
        raise CaseFailed(f"only {acks} of a burst of {rate_ * 2} were taken")


@case("seat-back.rematch-lobby-keeps-dropped-seat", Section.NUMBERING, stage=Stage.GAME)
async def rematch_keeps(ctx: Context) -> None:
    """A rematch's lobby keeps the seats of the game that ended through a drop, to be taken back
    with their tokens (the host player's too)."""
    game = await new_game(ctx, start=False)
    if not (game.host.snapshot["table"].get("rematch") or ctx.shared.host_token):
        raise CaseFailed("the suite is not in a rematch's lobby")
    token = ctx.shared.host_token or ""
    await game.host.peer.aclose()
    import trio

    await trio.sleep(0.3)
    found = await ctx.try_resume(token, "host player again")
    if isinstance(found, str):
        raise CaseFailed(f"after a drop in the rematch's lobby, {found}")
