"""More of a game: timers and default moves, stand-ins, nudges, leaving, late arrivals."""

from __future__ import annotations

from collections.abc import Callable

import trio

from ..context import Context
from ..game import (
    answer_only,
    guest_past_revolution_check,
    must,
    new_game,
    of_type,
    owed,
    play_until,
    refuse,
    removed_before_next_hand,
    request,
)
from ..registry import Section, Stage, case
from ..wire import CaseFailed, Message


def worst_set(sets: list[Message]) -> Message:
    return max(sets, key=lambda s: (s["rank"], -s["count"], -s["jesters"]))


@case("liveness.turn-timer-default-move", Section.LIVENESS, stage=Stage.GAME)
async def turn_timer(ctx: Context) -> None:
    """When the turn timer runs out the host plays the default move for the seat, preceded by
    moved_for {by: timer} to everyone (pass when allowed, else the worst set; the worst-ranked cards
    for a tax)."""
    ctx.wait_allowed("the shortest turn timer set_timing allows", 5000)
    game = await new_game(ctx, timing={"turn_timer_ms": 5000}, start=False)
    watcher = await ctx.join(role="spectator")
    peer = game.host.peer
    await peer.send({"type": "start"})
    got = await play_until(peer, of_type("decision"), answer=False, what="a decision")
    decision = got[-1]
    if decision.get("deadline_ms") != 5000:
        raise CaseFailed(f"the decision's deadline_ms is {decision.get('deadline_ms')}")
    me = game.host.player
    started = trio.current_time()
    moved = await peer.expect(
        lambda m: m.get("type") == "moved_for" and m.get("player") == me,
        timeout=8,
        what="moved_for",
    )
    took = trio.current_time() - started
    if moved.get("by") != "timer" or not 4.0 <= took <= 8.0:
        raise CaseFailed(f"moved_for {moved} after {took:.1f} s")
    if decision["kind"] != "revolution":  # a public decision's move: everyone is told
        await watcher.peer.expect(
            lambda m: m.get("type") == "moved_for" and m.get("player") == me,
            what="the spectator's moved_for",
        )
    kind = decision["kind"]
    if kind == "play":
        move = await peer.expect(
            lambda m: m.get("type") in ("played", "passed") and m.get("player") == me
        )
        if decision.get("may_pass") and move["type"] != "passed":
            raise CaseFailed(f"the timer played {move.get('set')} where passing was allowed")
        if not decision.get("may_pass") and move.get("set") != worst_set(decision["sets"]):
            raise CaseFailed(f"the timer played {move.get('set')}, not the worst set")
    elif kind == "tax":
        cards = await peer.expect(lambda m: m.get("type") == "tax_cards" and m.get("giver") == me)
        hand = decision["hand"]
        plain = [c for c in hand if c != 13] or hand
        if sorted(cards["cards"]) != sorted(plain[-decision["count"] :]):
            raise CaseFailed(f"the timer gave {cards['cards']} from {hand}")


@case("liveness.stand-in-after-grace", Section.LIVENESS, stage=Stage.GAME)
async def stand_in(ctx: Context) -> None:
    """A seat dropped for grace_period_ms is played by a bot (stand_in in table), each move preceded
    by moved_for {by: stand_in}; timers.grace counts the grace down."""
    game = await new_game(ctx, bots=2, humans=1, start=False)
    grace = game.host.welcome["limits"]["grace_period_ms"]
    ctx.wait_allowed("the grace period", grace)
    peer = game.host.peer
    await must(peer, {"type": "start"}, 1)
    guest = game.others[0]
    await guest.peer.expect("hand_started")
    await guest.peer.aclose()
    got = await play_until(
        peer,
        lambda m: (
            m.get("type") == "timers" and any(p == guest.player for p, _ in m.get("grace", []))
        ),
        what="timers.grace for the guest",
    )
    left = next(ms for p, ms in got[-1]["grace"] if p == guest.player)
    if not 0 < left <= grace:
        raise CaseFailed(f"timers.grace says {left} ms of {grace}")
    got = await play_until(
        peer,
        lambda m: (
            m.get("type") == "table"
            and any(s["player"] == guest.player and s["stand_in"] for s in m["table"]["players"])
        ),
        timeout=grace / 1000 + 5,
        what="the stand-in",
    )
    got = await play_until(
        peer,
        lambda m: (
            m.get("type") in ("played", "passed", "tax_paid")
            and guest.player in (m.get("player"), m.get("giver"))
        ),
        timeout=15,
        what="a move of the stand-in",
    )
    before = [m for m in got if m.get("type") == "moved_for" and m.get("player") == guest.player]
    if not before or before[-1].get("by") != "stand_in":
        raise CaseFailed("the stand-in's move came without moved_for {by: stand_in}")


@case("liveness.nudge-skip-refusals", Section.LIVENESS, stage=Stage.GAME)
async def nudges(ctx: Context) -> None:
    """nudge or skip before the grace is too_soon; for a player who owes no public decision, or the
    host player, not_waiting."""
    game = await new_game(ctx, bots=2, humans=1, timing={"turn_timer_ms": None})
    peer = game.host.peer
    guest = game.others[0]
    ctx.helpers.start_soon(answer_only, guest.peer, frozenset({"revolution"}))
    await play_until(
        peer,
        lambda m: m.get("type") == "waiting" and guest.player in m.get("players", []),
        what="a public decision owed by the guest (who never answers)",
    )
    for number, kind in enumerate(("nudge", "skip"), start=1):
        await refuse(peer, {"type": kind, "player": guest.player}, number, "too_soon")
    nudge_host = {"type": "nudge", "player": game.host.player}
    await refuse(peer, nudge_host, 3, "not_waiting", "nudging the host player")
    reply = await request(peer, {"type": "skip", "player": game.bots[0]}, 4)
    if reply.get("code") not in ("not_waiting", "too_soon"):
        raise CaseFailed(f"skipping a bot that owes nothing got {reply.get('code')!r}")


@case("lobby.leave-mid-game", Section.LOBBY, stage=Stage.GAME)
async def leave_mid(ctx: Context) -> None:
    """leave in a game: player_leaving, the seat's left is true until the hand is over, then
    player_removed; the connection is closed."""
    game, guest = await guest_past_revolution_check(ctx)
    peer = game.host.peer
    await guest.peer.send({"type": "leave"})
    await guest.peer.expect_closed()
    await play_until(
        peer,
        lambda m: m.get("type") == "player_leaving" and m.get("player") == guest.player,
        what="player_leaving",
    )
    await play_until(
        peer,
        lambda m: (
            m.get("type") == "table"
            and any(s["player"] == guest.player and s.get("left") for s in m["table"]["players"])
        ),
        what="a table with the guest's left true",
    )
    await removed_before_next_hand(peer, guest.player, "the leaver")


@case("decisions.no-decision-owed", Section.DECISIONS, stage=Stage.GAME)
async def nothing_owed(ctx: Context) -> None:
    """An answer while the seat owes nothing is refused with no_decision_owed (a newcomer before its
    first hand)."""
    game = await new_game(ctx)
    await game.host.peer.expect("hand_started")
    late = await ctx.join(name=ctx.name("Late"))
    await late.peer.send({"type": "pass", "id": 3})
    reply = await late.peer.expect(lambda m: m.get("re") == 3)
    if reply.get("code") != "no_decision_owed" or reply.get("fatal") is not False:
        raise CaseFailed(f"an answer owed nothing got {reply.get('code')!r}")


@case("numbering.arriving-mid-hand", Section.NUMBERING, stage=Stage.GAME)
async def mid_hand(ctx: Context) -> None:
    """A spectator arriving mid-hand: its snapshot's hand_events retell the hand so far, without seq
    and without waiting events; hand nil and no transfers (Secrecy)."""
    game = await new_game(ctx)
    peer = game.host.peer
    await play_until(
        peer,
        lambda m: m.get("type") == "decision" and m.get("kind") == "play",
        answer=True,
        what="a play decision",
    )
    watcher = await ctx.join(role="spectator")
    events = watcher.snapshot.get("hand_events") or []
    kinds = [e.get("type") for e in events]
    if not events or kinds[0] != "hand_started":
        raise CaseFailed(f"hand_events begin {kinds[:3]}")
    if any("seq" in e for e in events) or "waiting" in kinds:
        raise CaseFailed("hand_events carry seq or waiting events")
    if "cards_dealt" in kinds or "tax_cards" in kinds:
        raise CaseFailed("a spectator's hand_events hold someone's cards")
    state = watcher.snapshot.get("game") or {}
    if state.get("hand") is not None or state.get("transfers"):
        raise CaseFailed("a spectator's snapshot holds a hand or transfers")


@case("secrecy.snapshot-own-hand", Section.SECRECY, stage=Stage.GAME)
async def own_hand(ctx: Context) -> None:
    """A player's snapshot holds its own hand (as its cards_dealt and moves left it) and no one
    else's cards."""
    game = await new_game(ctx)
    peer = game.host.peer
    got = await play_until(peer, of_type("decision"), answer=False, what="a decision")
    await peer.send({"type": "snapshot_request"})
    snapshot = await peer.expect("snapshot")
    hand = (snapshot.get("game") or {}).get("hand")
    dealt = next(m for m in got if m.get("type") == "cards_dealt")
    if hand is None or (got[-1].get("hand") is not None and hand != got[-1]["hand"]):
        raise CaseFailed(f"the snapshot's hand {hand} is not the decision's")
    if sorted(hand) != sorted(dealt["cards"]) and got[-1]["kind"] != "play":
        raise CaseFailed("the snapshot's hand is not the dealt hand")
    for transfer in (snapshot.get("game") or {}).get("transfers") or []:
        if game.host.player not in (
            transfer.get("giver"),
            transfer.get("receiver"),
            transfer.get("other"),
        ):
            raise CaseFailed(f"the snapshot shows a transfer between others: {transfer}")


@case("cards.state-after-hand-ended", Section.CARDS, stage=Stage.GAME)
async def hand_over(ctx: Context) -> None:
    """After hand_ended the game's phase is hand_over and order is already the next hand's seating
    (the finishing order), scores aligned."""
    game = await new_game(ctx, timing={"results_ms": 60000})
    peer = game.host.peer
    got = await play_until(peer, of_type("hand_ended"), ready=False, timeout=20, what="hand_ended")
    ended = got[-1]
    await peer.send({"type": "snapshot_request"})
    state = (await peer.expect("snapshot")).get("game") or {}
    if state.get("phase") != "hand_over" or state.get("order") != ended["finishing"]:
        raise CaseFailed(
            f"after hand_ended the game is {state.get('phase')} with order"
            f" {state.get('order')} (finishing {ended['finishing']})"
        )
    if state.get("scores") != ended["scores"]:
        raise CaseFailed(f"scores {state.get('scores')} against hand_ended's {ended['scores']}")


@case("between.results-countdown", Section.BETWEEN_HANDS, stage=Stage.GAME)
async def results(ctx: Context) -> None:
    """Between hands the results stay until every human seat is ready or results_ms runs out
    (timers.results counts it down); then the next hand is dealt."""
    game = await new_game(ctx, timing={"results_ms": 1500})
    peer = game.host.peer
    await play_until(peer, of_type("hand_ended"), ready=False, timeout=20, what="hand_ended")
    started = trio.current_time()
    got = await play_until(
        peer, of_type("hand_started"), ready=False, timeout=6, what="the next hand without ready"
    )
    took = trio.current_time() - started
    timers = [m for m in got if m.get("type") == "timers" and m.get("results") is not None]
    if not timers or not 0 < timers[0]["results"] <= 1500:
        raise CaseFailed(f"timers.results: {[m.get('results') for m in timers]}")
    if not 1.0 <= took <= 5.0:
        raise CaseFailed(f"the next hand came {took:.1f} s after hand_ended, not 1.5 s")


@case("between.dropped-seat-held", Section.BETWEEN_HANDS, stage=Stage.GAME)
async def dropped_held(ctx: Context) -> None:
    """Between hands a seat whose link dropped is held: the next hand is not dealt while its
    grace period runs, though everyone else is ready; once the grace is out it is not waited
    for."""
    game = await new_game(ctx, bots=2, humans=1, timing={"results_ms": 30000}, start=False)
    grace = game.host.welcome["limits"]["grace_period_ms"]
    ctx.wait_allowed("the grace period", grace)
    peer, guest = game.host.peer, game.others[0]
    await must(peer, {"type": "start"}, 1)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(
            lambda: play_until(guest.peer, of_type("hand_ended"), ready=False, what="hand_ended")
        )
        await play_until(peer, of_type("hand_ended"), ready=False, what="hand_ended")
    guest.peer.leave_on_close = False  # a dropped link, not a leave
    await guest.peer.aclose()
    got = await play_until(
        peer,
        lambda m: (
            m.get("type") == "timers" and any(p == guest.player for p, _ in m.get("grace", []))
        ),
        ready=False,
        what="timers.grace for the dropped guest",
    )
    left = next(ms for p, ms in got[-1]["grace"] if p == guest.player)
    counted = trio.current_time()
    await peer.send({"type": "ready", "ready": True})
    got = await play_until(
        peer,
        of_type("hand_started"),
        ready=False,
        timeout=left / 1000 + 10,
        what="the next hand once the guest's grace ran out",
    )
    took = trio.current_time() - counted
    # Only a lower bound is checked: a busy host or link can make the deal later, never
    # earlier. A host that counted the dropped seat as ready deals at once.
    if took < left / 2000:
        raise CaseFailed(
            f"the next hand was dealt {took:.1f} s after everyone else was ready, while the"
            f" dropped guest still had {left / 1000:g} s of grace"
        )


@case("between.ready-mid-game", Section.LOBBY, stage=Stage.GAME)
async def ready_mid(ctx: Context) -> None:
    """ready at any other time in a game is accepted and changes nothing."""
    game = await new_game(ctx)
    peer = game.host.peer
    await peer.expect("hand_started")
    await must(peer, {"type": "ready", "ready": True}, 5)


@case("quickstart.bot-plays-a-table", Section.QUICK_START, stage=Stage.GAME)
async def quick_start(ctx: Context) -> None:
    """A bot that does only what the quick start says (answer each decision with its table's answer,
    naming decision_id; ready after hand_ended) plays a table to its table_ended."""
    game = await new_game(ctx, rules={"hand_limit": 2, "merchant_exchange": True}, bots=5)
    peer = game.host.peer
    answers: dict[str, Callable[[Message], Message]] = {
        "play": lambda d: {"type": "play", "set": d["sets"][-1]} if d["sets"] else {"type": "pass"},
        "revolution": lambda d: {"type": "revolution", "declare": True},
        "tax": lambda d: {"type": "tax", "cards": d["hand"][-d["count"] :]},
        "exchange": lambda d: {"type": "exchange", "merchant": None, "card": None},
        "misdeal": lambda d: {"type": "misdeal", "choice": "intended"},
        "placement": lambda d: {"type": "place", "position": d["positions"][0]},
    }
    answered: set[int] = set()
    deadline = trio.current_time() + 30
    while trio.current_time() < deadline:
        message = await peer.next(timeout=10)
        if message is None:
            raise CaseFailed("the host closed the connection")
        kind = message.get("type")
        decision = owed(message)
        if decision is not None and decision["decision_id"] not in answered:
            answered.add(decision["decision_id"])
            answer = answers[decision["kind"]](decision)
            await peer.send({**answer, "decision_id": decision["decision_id"]})
        elif kind == "hand_ended":
            await peer.send({"type": "ready", "ready": True})
        elif kind == "error" and message.get("code") != "stale_decision":
            raise CaseFailed(f"the quick start's answer was refused: {message.get('code')}")
        elif kind == "table_ended":
            return
    raise CaseFailed("the table did not end within 30 s")


@case("cards.stripped-deck", Section.CARDS, stage=Stage.GAME)
async def stripped(ctx: Context) -> None:
    """stripped_decks (rule 14): 4 players play without the 12s and 11s: hand_started.deck_size 57,
    and nobody is dealt a 12 or an 11."""
    game = await new_game(ctx, rules={"stripped_decks": True})
    got = await play_until(game.host.peer, of_type("cards_dealt"), what="the deal")
    started = next(m for m in got if m.get("type") == "hand_started")
    if started.get("deck_size") != 57 or {11, 12} & set(got[-1]["cards"]):
        raise CaseFailed(f"deck_size {started.get('deck_size')}, dealt {got[-1]['cards']}")


@case("shape.misdeal", Section.SHAPE, stage=Stage.GAME)
async def misdeal(ctx: Context) -> None:
    """A misdeal (rule 18): misdeal_exposed; if needs_decision a waiting misdeal and the decision to
    the Greater Dalmuti; then misdeal_resolved, then cards_dealt and deal_finished."""
    game = await new_game(ctx, rules={"misdeal_chance": 1.0})
    got = await play_until(
        game.host.peer, of_type("deal_finished"), timeout=15, what="the deal's end"
    )
    hand = [m.get("type") for m in got if m.get("type") != "table"]
    hand = hand[hand.index("hand_started") :]
    if "misdeal_exposed" not in hand:
        raise CaseFailed("misdeal_chance 1.0 dealt without a misdeal")
    exposed = next(m for m in got if m.get("type") == "misdeal_exposed")
    order = [
        k
        for k in hand
        if k in ("misdeal_exposed", "misdeal_resolved", "cards_dealt", "deal_finished")
    ]
    if order != ["misdeal_exposed", "misdeal_resolved", "cards_dealt", "deal_finished"]:
        raise CaseFailed(f"the deal went {order}")
    if exposed.get("needs_decision"):
        between = hand[hand.index("misdeal_exposed") : hand.index("misdeal_resolved")]
        if "waiting" not in between:
            raise CaseFailed("a misdeal that needs a decision showed no waiting")
    resolved = next(m for m in got if m.get("type") == "misdeal_resolved")
    if not exposed.get("needs_decision") and resolved.get("choice") != "intended":
        raise CaseFailed("nobody was asked, yet the choice is not intended")


@case("liveness.stand-in-ends-on-resume", Section.LIVENESS, stage=Stage.GAME)
async def stand_in_ends(ctx: Context) -> None:
    """A stand-in plays a dropped seat until its player comes back with the token, which ends the
    stand-in at once."""
    game = await new_game(ctx, bots=2, humans=1, start=False)
    ctx.wait_allowed("the grace period", game.host.welcome["limits"]["grace_period_ms"])
    peer = game.host.peer
    await must(peer, {"type": "start"}, 1)
    guest = game.others[0]
    await guest.peer.expect("hand_started")
    await guest.peer.aclose()
    await play_until(
        peer,
        lambda m: (
            m.get("type") == "table"
            and any(s["player"] == guest.player and s["stand_in"] for s in m["table"]["players"])
        ),
        timeout=10,
        what="the stand-in",
    )
    back = await ctx.resume(guest.token, "guest again")
    mine = next(s for s in back.snapshot["table"]["players"] if s["player"] == guest.player)
    if mine["stand_in"] or not mine["connected"]:
        raise CaseFailed(f"after the resume the seat is {mine}")


@case("liveness.nudge-after-wait", Section.LIVENESS, stage=Stage.GAME)
async def nudge(ctx: Context) -> None:
    """Once a player has owed a decision for timing.nudge_after_ms, the host player MAY nudge them:
    everyone gets nudged {player, by}."""
    game = await new_game(ctx, bots=2, humans=1, timing={"turn_timer_ms": None}, start=False)
    after = game.host.snapshot["table"]["timing"]["nudge_after_ms"]
    ctx.wait_allowed("nudge_after_ms", after)
    watcher = await ctx.join(role="spectator")
    peer = game.host.peer
    await must(peer, {"type": "start"}, 1)
    guest = game.others[0]
    ctx.helpers.start_soon(answer_only, guest.peer, frozenset({"revolution"}))
    await play_until(
        peer,
        lambda m: m.get("type") == "waiting" and guest.player in m.get("players", []),
        what="a public decision owed by the guest (who never answers)",
    )
    await trio.sleep(after / 1000 + 0.3)
    await must(peer, {"type": "nudge", "player": guest.player}, 2)
    nudged = await watcher.peer.expect("nudged", what="nudged, at a spectator")
    if nudged.get("player") != guest.player or nudged.get("by") != game.host.player:
        raise CaseFailed(f"nudged is {nudged}")
