"""Statements checked on one whole table the suite plays and records: a seat of its own
and a spectator, six seats with the merchant exchange, three hands."""

from __future__ import annotations

import itertools

from ..context import Context
from ..recording import EVENTS, NOT_NUMBERED, PRIVATE, hands, recording
from ..registry import Section, Stage, case
from ..wire import CaseFailed, CaseSkipped, Message


def _no_gaps(messages: list[Message], start: int, who: str) -> None:
    expected = start + 1
    for message in messages:
        if "seq" in message and message.get("type") != "snapshot":
            if message["seq"] != expected:
                raise CaseFailed(
                    f"{who}: after event {expected - 1} came event {message['seq']}"
                    f" ({message.get('type')})"
                )
            expected += 1
    if expected == start + 1:
        raise CaseFailed(f"{who} got no event")


@case("numbering.no-gaps-player", Section.NUMBERING, stage=Stage.GAME)
async def gaps_player(ctx: Context) -> None:
    """A player's events are numbered without gaps: after a snapshot with seq S, S+1, S+2..."""
    rec = await recording(ctx)
    _no_gaps(rec.seat, rec.snapshot_seq, "the seat")


@case("numbering.no-gaps-spectator", Section.NUMBERING, stage=Stage.GAME)
async def gaps_watcher(ctx: Context) -> None:
    """The spectators' events are numbered without gaps from their snapshot's seq."""
    rec = await recording(ctx)
    _no_gaps(rec.watcher, rec.watcher_seq, "the spectator")


@case("numbering.what-carries-seq", Section.NUMBERING, stage=Stage.GAME)
async def what_seq(ctx: Context) -> None:
    """Events carry seq; table, decision, timers, moved_for, chat, ack, error, heartbeat, welcome,
    about, goodbye, challenge and nudged do not; a snapshot carries the seq of the last event it
    includes (issue 41, wrong statement 9)."""
    rec = await recording(ctx)
    for message in rec.seat + rec.watcher:
        kind = message.get("type")
        if kind in EVENTS and not isinstance(message.get("seq"), int):
            raise CaseFailed(f"event {kind} has no seq")
        if kind in NOT_NUMBERED and "seq" in message:
            raise CaseFailed(f"{kind} carries seq")
        if kind == "snapshot" and not isinstance(message.get("seq"), int):
            raise CaseFailed("a snapshot carries no seq")


@case("secrecy.spectator-public-only", Section.SECRECY, stage=Stage.GAME)
async def spectator_public(ctx: Context) -> None:
    """Spectators are sent public events only: no dealt hand, tax or exchange cards, no decision."""
    rec = await recording(ctx)
    for message in rec.watcher:
        if message.get("type") in PRIVATE | {"decision"}:
            raise CaseFailed(f"the spectator was sent {message.get('type')}")


@case("secrecy.own-cards-only", Section.SECRECY, stage=Stage.GAME)
async def own_cards(ctx: Context) -> None:
    """Only the player concerned is sent their dealt hand and the cards of a tax or exchange they
    took part in."""
    rec = await recording(ctx)
    me = rec.player
    for message in rec.seat:
        kind = message.get("type")
        if kind == "cards_dealt" and message.get("player") != me:
            raise CaseFailed("the seat was sent another player's hand")
        if kind in ("tax_cards", "merchant_exchange_cards") and me not in (
            message.get("giver"),
            message.get("receiver"),
            message.get("other"),
        ):
            raise CaseFailed(f"the seat was sent {kind} between two others")


@case("cards.lists-sorted", Section.CARDS, stage=Stage.GAME)
async def sorted_cards(ctx: Context) -> None:
    """Lists of cards are sorted best first, Jesters (13) last (cards_dealt, a decision's hand)."""
    rec = await recording(ctx)
    for message in rec.seat:
        cards = (
            message.get("cards")
            if message.get("type") == "cards_dealt"
            else (message.get("hand") if message.get("type") == "decision" else None)
        )
        if cards is not None and cards != sorted(cards):
            raise CaseFailed(f"{message.get('type')} lists {cards}")


@case("cards.deal-counts", Section.CARDS, stage=Stage.GAME)
async def deal_counts(ctx: Context) -> None:
    """deal_finished gives everyone's count aligned with hand_started.order; they add up to
    deck_size."""
    rec = await recording(ctx)
    for hand in hands(rec.watcher):
        started = hand[0]
        dealt = next((m for m in hand if m.get("type") == "deal_finished"), None)
        if dealt is None:
            raise CaseFailed(f"hand {started.get('hand')} has no deal_finished")
        if (
            len(dealt["counts"]) != len(started["order"])
            or sum(dealt["counts"]) != started["deck_size"]
        ):
            raise CaseFailed(
                f"counts {dealt['counts']} for order {started['order']}, deck"
                f" {started['deck_size']}"
            )


@case("decisions.ids-count-up", Section.DECISIONS, stage=Stage.GAME)
async def ids_up(ctx: Context) -> None:
    """Every decision carries a decision_id: the seat's decision number, then 2, 3...: a new
    decision always has a new, higher id."""
    rec = await recording(ctx)
    ids = [m["decision_id"] for m in rec.seat if m.get("type") == "decision"]
    if not ids:
        raise CaseFailed("the seat owed no decision")
    for before, after in itertools.pairwise(ids):
        if after != before + 1:
            raise CaseFailed(f"decision {before} was followed by decision {after}")


@case("decisions.sets-order", Section.DECISIONS, stage=Stage.GAME)
async def sets_order(ctx: Context) -> None:
    """play.sets: best rank first; within a rank fewest cards first; within a count fewest Jesters
    first."""
    rec = await recording(ctx)
    for message in rec.seat:
        if message.get("type") == "decision" and message.get("kind") == "play":
            keys = [(s["rank"], s["count"], s["jesters"]) for s in message["sets"]]
            if keys != sorted(keys) or len(set(keys)) != len(keys):
                raise CaseFailed(f"sets in the order {keys}")


@case("decisions.lead-must-play", Section.DECISIONS, stage=Stage.GAME)
async def lead(ctx: Context) -> None:
    """On a lead may_pass is false and sets is not empty; every list of options is non-empty except
    sets on a follow."""
    rec = await recording(ctx)
    for message in rec.seat:
        if message.get("type") != "decision" or message.get("kind") != "play":
            continue
        lead = message.get("to_beat") is None
        if lead and (message.get("may_pass") is not False or not message.get("sets")):
            raise CaseFailed(f"a lead offered may_pass {message.get('may_pass')}")
        if not lead and message.get("may_pass") is not True:
            raise CaseFailed("a follow did not allow passing")


@case("shape.deal-then-revolution-check", Section.SHAPE, stage=Stage.GAME)
async def deal_shape(ctx: Context) -> None:
    """Each hand: hand_started, the deal (cards_dealt, deal_finished), then a public waiting with
    phase revolution and players empty."""
    rec = await recording(ctx)
    for hand in hands(rec.seat):
        kinds = [m.get("type") for m in hand if m.get("type") in EVENTS]
        try:
            dealt, finished = kinds.index("cards_dealt"), kinds.index("deal_finished")
            waiting = next(
                i
                for i, m in enumerate(m for m in hand if m.get("type") in EVENTS)
                if m.get("type") == "waiting"
            )
        except (ValueError, StopIteration):
            raise CaseFailed(f"a hand went {kinds[:8]}") from None
        first_wait = next(m for m in hand if m.get("type") == "waiting")
        if (
            not 0 < dealt < finished < waiting
            or first_wait.get("phase") != "revolution"
            or first_wait.get("players") != []
        ):
            raise CaseFailed(f"a hand began {kinds[:6]}, then {first_wait}")


@case("shape.tax-transfer-order", Section.SHAPE, stage=Stage.GAME)
async def tax_order(ctx: Context) -> None:
    """When all taxes are in: the Greater Peon's tax to the Greater Dalmuti, the GD's to the GP, the
    Lesser Peon's to the LD, the LD's to the LP."""
    rec = await recording(ctx)
    checked = 0
    for hand in hands(rec.watcher):
        order = hand[0]["order"]
        pays = [(m["giver"], m["receiver"]) for m in hand if m.get("type") == "tax_paid"]
        if not pays:
            continue
        gd, ld, lp, gp = order[0], order[1], order[-2], order[-1]
        if pays != [(gp, gd), (gd, gp), (lp, ld), (ld, lp)]:
            raise CaseFailed(f"taxes paid {pays} for order {order}")
        checked += 1
    if not checked:
        raise CaseSkipped("no hand of the recorded table paid taxes")


@case("shape.merchant-exchange-place", Section.SHAPE, stage=Stage.GAME)
async def merchant_place(ctx: Context) -> None:
    """merchant_exchange_declined comes before the first tax_paid; merchant_exchanged after the four
    tax transfers (issue 41, wrong statement 3)."""
    rec = await recording(ctx)
    seen = 0
    for hand in hands(rec.watcher):
        kinds = [m.get("type") for m in hand]
        if "tax_paid" not in kinds:
            continue
        first_tax = kinds.index("tax_paid")
        last_tax = len(kinds) - 1 - kinds[::-1].index("tax_paid")
        if "merchant_exchange_declined" in kinds:
            seen += 1
            if kinds.index("merchant_exchange_declined") > first_tax:
                raise CaseFailed("merchant_exchange_declined came after a tax_paid")
        if "merchant_exchanged" in kinds:
            seen += 1
            if kinds.index("merchant_exchanged") < last_tax:
                raise CaseFailed("merchant_exchanged came before the last tax_paid")
    if not seen:
        raise CaseSkipped("no hand of the recorded table had a merchant exchange")
    ctx.notes.append(f"{seen} merchant exchanges (declined or made) looked at")


@case("shape.table-right-before-hand-started", Section.SHAPE, stage=Stage.GAME)
async def table_before(ctx: Context) -> None:
    """At a new hand the table (when it differs) comes right before hand_started, no event between
    (issue 41, wrong statement 4)."""
    rec = await recording(ctx)
    messages = rec.seat
    starts = [i for i, m in enumerate(messages) if m.get("type") == "hand_started"]
    for index in starts:
        before = [m for m in messages[:index] if m.get("type") in EVENTS | {"table"}]
        if index != starts[0] and before[-1].get("type") != "table":
            raise CaseFailed(f"hand_started came after {before[-1].get('type')}, not a table")
        after = next(
            (m for m in messages[index + 1 :] if m.get("type") in EVENTS | {"table"}), None
        )
        if after is not None and after.get("type") == "table":
            raise CaseFailed(
                f"a table came right after hand {messages[index].get('hand')}'s"
                " hand_started, not before it"
            )


@case("shape.last-hand-then-table-ended", Section.SHAPE, stage=Stage.GAME)
async def last_hand(ctx: Context) -> None:
    """After the last hand, hand_ended then table_ended."""
    rec = await recording(ctx)
    events = [m for m in rec.watcher if m.get("type") in EVENTS]
    if [m.get("type") for m in events[-2:]] != ["hand_ended", "table_ended"]:
        raise CaseFailed(f"the table ended with {[m.get('type') for m in events[-3:]]}")
    standings = events[-1].get("standings") or []
    scores = [s[1] for s in standings]
    if scores != sorted(scores, reverse=True):
        raise CaseFailed(f"standings are not best first: {standings}")


@case("lobby.start-seating-draw", Section.LOBBY, stage=Stage.GAME)
async def seating(ctx: Context) -> None:
    """start is followed by seating_draw events and one seating_settled with the first hand's
    order."""
    rec = await recording(ctx)
    events = [m for m in rec.watcher if m.get("type") in EVENTS]
    kinds = [m.get("type") for m in events]
    settled = kinds.index("seating_settled") if "seating_settled" in kinds else -1
    if settled < 1 or set(kinds[:settled]) != {"seating_draw"}:
        raise CaseFailed(f"the game began {kinds[: settled + 2]}")
    first = next(m for m in events if m.get("type") == "hand_started")
    if first["order"] != events[settled]["order"]:
        raise CaseFailed("the first hand's order is not seating_settled's")
    if events[0].get("round") != 1:
        raise CaseFailed("the first draw is not round 1")


@case("between.ready-deals-at-once", Section.BETWEEN_HANDS, stage=Stage.GAME)
async def ready_deals(ctx: Context) -> None:
    """Between hands, once every human seat has sent ready, the next hand is dealt (no
    wait for results_ms)."""
    rec = await recording(ctx)
    kinds = [m.get("type") for m in rec.seat]
    if kinds.count("hand_started") < 2:
        raise CaseFailed("the recorded table never reached a second hand")
