"""More lobby and game statements: heirs, names of bots and watchers, rematches, the shape
of a hand's taxes and tricks, refusals on a follow and a tax."""

from __future__ import annotations

import contextlib
from collections import Counter

import trio

from ..context import Context
from ..game import autoplay, latest_table, must, new_game, of_type, play_until, request, seat_of
from ..recording import EVENTS, hands, recording
from ..registry import Section, Stage, case
from ..wire import CaseFailed, CaseSkipped, Message, Peer


@case("lobby.heirs", Section.LOBBY, stage=Stage.LOBBY)
async def heirs(ctx: Context) -> None:
    """table.heirs lists who would take over as host player: the connected humans, the one the role
    goes to first."""
    seat = await ctx.lobby_host()
    await must(seat.peer, {"type": "add_bot"}, 1)
    guest = await ctx.join(name=ctx.name("Guest"))
    table = await latest_table(seat.peer, lambda t: seat_of(t, guest.player) is not None)
    if table.get("heirs") != [guest.player]:
        raise CaseFailed(f"heirs is {table.get('heirs')} with one guest and a bot")


@case("lobby.leave-with-heir", Section.LOBBY, stage=Stage.LOBBY)
async def leave_heir(ctx: Context) -> None:
    """When the host player leaves, the role goes to the connected human named in leave.heir."""
    seat = await ctx.lobby_host()
    first = await ctx.join(name=ctx.name("Guest"))
    second = await ctx.join(name=ctx.name("Guest"))
    seat.peer.leave_on_close = False
    await seat.peer.send({"type": "leave", "heir": second.player})
    await seat.peer.expect_closed()
    table = await latest_table(second.peer, lambda t: seat_of(t, seat.player) is None)
    if not (seat_of(table, second.player) or {}).get("host"):
        raise CaseFailed(
            f"the host role went to {[p['player'] for p in table['players'] if p['host']]}"
            f", not the heir {second.player}"
        )
    del first


@case("lobby.next-sitter-is-host", Section.LOBBY, stage=Stage.LOBBY)
async def next_sitter(ctx: Context) -> None:
    """In the lobby of a table without a host terminal, when the host player leaves and nobody can
    take the role, whoever sits down next is its host player."""
    seat = await ctx.lobby_host()
    seat.peer.leave_on_close = False
    await seat.peer.send({"type": "leave"})
    await seat.peer.expect_closed()
    after = await ctx.join(name=ctx.name("Next"))
    if after.welcome.get("host") is not True:
        raise CaseFailed("the next to sit is not the host player")


@case("lobby.can-start", Section.LOBBY, stage=Stage.LOBBY)
async def can_start(ctx: Context) -> None:
    """table.can_start: in the lobby, whether enough players (4 to 8) are seated to start."""
    seat = await ctx.lobby_host()
    if seat.snapshot["table"].get("can_start") is not False:
        raise CaseFailed("can_start with one seat")
    for number in range(3):
        await must(seat.peer, {"type": "add_bot"}, number + 1)
    table = await latest_table(seat.peer, lambda t: len(t["players"]) == 4)
    if table.get("can_start") is not True:
        raise CaseFailed("can_start is not true with four seats")


@case("names.bots-numbered-never-refused", Section.NAMES, stage=Stage.LOBBY)
async def bot_names(ctx: Context) -> None:
    """The host's own bots are never refused: a bot given a name at the table, or a look-alike of
    one, is numbered instead."""
    seat = await ctx.lobby_host()
    await ctx.join(name="Rufus")
    await must(seat.peer, {"type": "add_bot", "name": "Rufus"}, 1)
    await must(seat.peer, {"type": "add_bot", "name": "rufus"}, 2)
    table = await latest_table(seat.peer, lambda t: len(t["players"]) == 4)
    names = sorted(p["name"] for p in table["players"] if p["kind"] == "bot")
    if len(set(names)) != 2 or "Rufus" in names or "rufus" in names:
        raise CaseFailed(f"the bots are named {names} beside Rufus")


@case("names.watching-suffix", Section.NAMES, stage=Stage.LOBBY)
async def watching(ctx: Context) -> None:
    """A spectator's chat goes out under its name and ' (watching)': names are held against that
    form too ('Bo (watching)' as a player beside the spectator Bo is numbered, 'bo (watching)'
    refused)."""
    seat = await ctx.lobby_host()
    await ctx.join(role="spectator", name="Bo")
    numbered = await ctx.join(name="Bo (watching)")
    table = await latest_table(seat.peer, lambda t: seat_of(t, numbered.player) is not None)
    name = (seat_of(table, numbered.player) or {}).get("name")
    if name == "Bo (watching)":
        raise CaseFailed("a player took the name the spectator Bo chats under")
    peer = await ctx.connect("look-alike")
    await peer.send(ctx.hello("bo (watching)"))
    reply = await peer.expect(lambda m: m.get("type") in ("welcome", "error"))
    peer.leave_on_close = reply["type"] == "welcome"
    if reply.get("code") != "name_taken":
        raise CaseFailed(f"'bo (watching)' beside the spectator Bo got {reply.get('type')}")


@case("words.ids-distinct", Section.WORDS, stage=Stage.LOBBY)
async def ids(ctx: Context) -> None:
    """A player id is an integer from 1 up (at most 9999); seats at the table have distinct ids."""
    seat = await ctx.lobby_host()
    for number in range(3):
        await must(seat.peer, {"type": "add_bot"}, number + 1)
    await ctx.join(name=ctx.name("Guest"))
    table = await latest_table(seat.peer, lambda t: len(t["players"]) == 5)
    found = [p["player"] for p in table["players"]]
    if len(set(found)) != 5 or not all(1 <= i <= 9999 for i in found):
        raise CaseFailed(f"the ids are {found}")


@case("lobby.rematch", Section.LOBBY, stage=Stage.GAME)
async def rematch(ctx: Context) -> None:
    """rematch once the table ended: back to the lobby with the same seats (table.rematch true), the
    host's bots sit down again, the host player counts as ready."""
    game = await new_game(ctx)
    peer = game.host.peer
    await peer.expect("hand_started")
    await must(peer, {"type": "end_table"}, 1)
    await play_until(peer, of_type("table_ended"), what="table_ended")
    await must(peer, {"type": "rematch"}, 2)
    table = await latest_table(
        peer,
        lambda t: (
            t["phase"] == "lobby"
            and sum(p["kind"] == "bot" and p["connected"] for p in t["players"]) == 3
        ),
        what="the rematch's lobby with the bots back",
    )
    mine = seat_of(table, game.host.player) or {}
    if table.get("rematch") is not True or mine.get("ready") is not True:
        raise CaseFailed(f"rematch {table.get('rematch')}, host player ready {mine.get('ready')}")


@case("lobby.rematch-starts-when-ready", Section.LOBBY, stage=Stage.GAME)
async def rematch_ready(ctx: Context) -> None:
    """A rematch starts by itself once every seated human has sent ready (a new seating draw, hand
    1)."""
    game = await new_game(ctx, bots=2, humans=1)
    peer = game.host.peer
    guest = game.others[0]
    await peer.expect("hand_started")
    await must(peer, {"type": "end_table"}, 1)
    await play_until(peer, of_type("table_ended"), what="table_ended")
    await must(peer, {"type": "rematch"}, 2)
    await latest_table(guest.peer, lambda t: t["phase"] == "lobby")
    await guest.peer.send({"type": "ready", "ready": True})
    got = await play_until(peer, of_type("hand_started"), what="the rematch's first hand")
    if "seating_draw" not in [m.get("type") for m in got] or got[-1].get("hand") != 1:
        raise CaseFailed(f"the rematch began with hand {got[-1].get('hand')}")


@case("numbering.spectators-share", Section.NUMBERING, stage=Stage.GAME)
async def spectators_share(ctx: Context) -> None:
    """All spectators share one numbering of the public events: two spectators are sent the same
    events under the same numbers."""
    game = await new_game(ctx, start=False)
    one = await ctx.join(role="spectator")
    two = await ctx.join(role="spectator")
    await must(game.host.peer, {"type": "start"}, 1)
    await play_until(game.host.peer, of_type("went_out"), what="a player going out")
    await one.peer.expect("went_out")
    await two.peer.expect("went_out")
    seen = [
        [(m["seq"], m["type"]) for m in p.received if m.get("type") in EVENTS]
        for p in (one.peer, two.peer)
    ]
    if seen[0] != seen[1]:
        raise CaseFailed("two spectators got different events or numbers")


@case("decisions.follow-refusals", Section.DECISIONS, stage=Stage.GAME)
async def follow(ctx: Context) -> None:
    """On a follow a set of another size is refused with wrong_size, one not strictly better with
    not_better; the decision stays owed."""
    game = await new_game(ctx, rules={"hand_limit": 5})
    peer = game.host.peer
    for _ in range(200):
        got = await play_until(
            peer,
            lambda m: (
                m.get("type") == "decision"
                and m.get("kind") == "play"
                and m.get("to_beat") is not None
            ),
            timeout=20,
            what="a follow",
        )
        decision = got[-1]
        beat = decision["to_beat"]
        await peer.send({"type": "snapshot_request"})
        hand = Counter(((await peer.expect("snapshot")).get("game") or {}).get("hand") or [])
        worse = [r for r, n in hand.items() if r != 13 and r >= beat["rank"] and n >= beat["count"]]
        other = [r for r, n in hand.items() if r != 13 and n >= 1 and beat["count"] > 1]
        if worse and other:
            break
        await peer.send({"type": "pass", "decision_id": decision["decision_id"]})
    else:
        raise CaseSkipped("no follow came where the seat held a worse set")
    tries = (
        ({"rank": worse[0], "count": beat["count"], "jesters": 0}, "not_better"),
        ({"rank": other[0], "count": 1, "jesters": 0}, "wrong_size"),
    )
    for number, (card_set, code) in enumerate(tries, start=1):
        reply = await request(
            peer, {"type": "play", "set": card_set, "decision_id": decision["decision_id"]}, number
        )
        if reply.get("code") != code:
            raise CaseFailed(f"playing {card_set} on {beat} got {reply.get('code')!r}")
    await must(peer, {"type": "pass", "decision_id": decision["decision_id"]}, 3)


@case("decisions.tax-bad-cards", Section.DECISIONS, stage=Stage.GAME)
async def tax(ctx: Context) -> None:
    """A tax with the wrong number of cards is refused with bad_cards; the decision stays owed."""
    game = await new_game(ctx, bots=0, humans=3)  # every seat the suite's: one owes a tax
    found: list[tuple[Peer, Message]] = []
    seen = trio.Event()

    async def watch(peer: Peer) -> None:
        with contextlib.suppress(CaseFailed):
            got = await play_until(
                peer,
                lambda m: m.get("type") == "decision" and m.get("kind") == "tax",
                timeout=20,
                what="a tax",
            )
            found.append((peer, got[-1]))
            seen.set()

    for seat in [game.host, *game.others]:
        ctx.helpers.start_soon(watch, seat.peer)
    with trio.move_on_after(20):
        await seen.wait()
    if not found:
        raise CaseFailed("no seat was asked for a tax in the first hand")
    peer, decision = found[0]
    cards = decision["hand"][: decision["count"] + 1]
    reply = await request(
        peer, {"type": "tax", "cards": cards, "decision_id": decision["decision_id"]}, 1
    )
    if reply.get("code") not in ("bad_cards", "bad_message"):
        raise CaseFailed(
            f"a tax of {len(cards)} cards for {decision['count']} got {reply.get('code')!r}"
        )
    await must(
        peer,
        {
            "type": "tax",
            "cards": decision["hand"][-decision["count"] :],
            "decision_id": decision["decision_id"],
        },
        2,
    )


@case("shape.tax-counts", Section.SHAPE, stage=Stage.GAME)
async def tax_counts(ctx: Context) -> None:
    """The Peons' taxes: the Greater Peon gives the Greater Dalmuti 2 cards and gets 2 back, the
    Lesser Peon and Lesser Dalmuti 1 each (rule 8)."""
    rec = await recording(ctx)
    paid = [m for hand in hands(rec.watcher) for m in hand if m.get("type") == "tax_paid"]
    if not paid:
        raise CaseSkipped("the recorded table paid no taxes")
    counts = [m["count"] for m in paid]
    if counts[:4] != [2, 2, 1, 1]:
        raise CaseFailed(f"the first hand's taxes moved {counts[:4]} cards")


@case("shape.tricks-and-places", Section.SHAPE, stage=Stage.GAME)
async def tricks(ctx: Context) -> None:
    """Play: trick_won names the next leader; went_out places count 1, 2, 3...; hand_ended's
    finishing lists every seat, points, bonus and scores aligned with it."""
    rec = await recording(ctx)
    for hand in hands(rec.watcher):
        order = hand[0]["order"]
        places = [m["place"] for m in hand if m.get("type") == "went_out"]
        if places != list(range(1, len(places) + 1)):
            raise CaseFailed(f"went_out places {places}")
        for won in (m for m in hand if m.get("type") == "trick_won"):
            if won.get("leader") not in order:
                raise CaseFailed(f"trick_won names leader {won.get('leader')}")
        ended = next((m for m in hand if m.get("type") == "hand_ended"), None)
        if ended is None:
            continue
        if sorted(ended["finishing"]) != sorted(order) or not (
            len(ended["points"]) == len(ended["bonus"]) == len(ended["scores"]) == len(order)
        ):
            raise CaseFailed(f"hand_ended {ended} for order {order}")


@case("cards.roles-from-order", Section.CARDS, stage=Stage.GAME)
async def roles(ctx: Context) -> None:
    """Roles follow from order: the taxes are owed by order[0] (Greater Dalmuti) and order[1]
    (Lesser Dalmuti), with the merchant exchange by order[2] (the top Merchant)."""
    rec = await recording(ctx)
    checked = 0
    for hand in hands(rec.watcher):
        order = hand[0]["order"]
        waits = [m for m in hand if m.get("type") == "waiting" and m.get("phase") == "taxes"]
        if not waits:
            continue
        owing = set(waits[0]["players"])
        if not {order[0], order[1]} <= owing <= {order[0], order[1], order[2]}:
            raise CaseFailed(f"taxes owed by {sorted(owing)} for order {order}")
        checked += 1
    if not checked:
        raise CaseSkipped("the recorded table paid no taxes")


@case("numbering.newcomer-numbered", Section.NUMBERING, stage=Stage.GAME)
async def newcomer_numbers(ctx: Context) -> None:
    """A newcomer's events are numbered from its own snapshot's seq, with no gaps."""
    game = await new_game(ctx, rules={"hand_limit": 3})
    await game.host.peer.expect("hand_started")
    ctx.helpers.start_soon(autoplay, game.host.peer)
    late = await ctx.join(name=ctx.name("Late"))
    start = late.snapshot["seq"]
    got = await play_until(
        late.peer, of_type("hand_started"), timeout=20, what="the newcomer's first hand"
    )
    numbers = [m["seq"] for m in got if m.get("type") in EVENTS]
    if numbers != list(range(start + 1, start + 1 + len(numbers))):
        raise CaseFailed(f"after snapshot {start} the newcomer got {numbers[:8]}")
