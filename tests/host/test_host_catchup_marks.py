"""Every catch-up log marks exactly the moves made for a seat (issue 40, finding 2).

Bo drops; the turn timer passes for him, then a bot standing in passes twice; he comes
back and passes himself. The engine logs one ``passed`` object for every pass of a seat,
and the snapshot's marks were found by the event's identity: they all landed on Bo's
own last pass. A late arrival, a spectator and Bo back (in a fresh program, and in the
same one after a lost connection) must each see the three moves made for him marked,
and his own pass unmarked; back with his log kept, he reads what was said while he was
away, once."""

from __future__ import annotations

import random
from typing import Any

from harness import Client, Harness, random_chooser

from dalmuti_net.client.model.table_model import TableModel
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import PlayDecision, Rules
from dalmuti_net.host.table import Table
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import Direction, decode, encode

TIMER = "(the turn timer ran out: the default move)"
STAND_IN = "(played by the bot standing in)"
MINE_TIMER = "(not you: the turn timer ran out and made the default move)"
MINE_STAND_IN = "(not you: the bot standing in for you)"


class Watched(Harness):
    """A harness whose clients each feed a table model, as a front end does."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        super().__init__(table, rng)
        self.models: dict[int, TableModel] = {}

    def watch(self, name: str, **options: Any) -> tuple[Client, TableModel]:
        session = ClientSession(name, spectator=options.pop("spectator", False))
        session.token = options.pop("token", None)
        session.table_id = self.table.table_id
        client = Client(self.table, session)
        self.clients.append(client)
        model = self.models[client.connection] = TableModel(Translator("en"), session)
        model.connecting()
        chooser = options.pop("chooser", None)
        if chooser is not None:
            self.choosers[client.connection] = chooser
        self.send(client, session.hello())
        return client, model

    def _flush(self, client: Client) -> None:
        model = self.models.get(client.connection)
        for message in self.table.take_outbox(client.connection):
            decoded = decode(encode(message)[4:], Direction.TO_CLIENT)
            (client.challenges if decoded["type"] == "challenge" else client.received).append(
                decoded
            )
            client.session.receive(decoded)
            if model is not None:
                model.receive(decoded)
        proof, client.session.proof_to_send = client.session.proof_to_send, None
        if proof is not None:
            self.send(client, proof)


def marks_of(model: TableModel, name: str) -> list[str]:
    """The mark after each of ``name``'s plays and passes in the log ("" for none)."""
    starts = (f"{name} plays ", f"{name} passes.", "You play ", "You pass.")
    return [
        line.text.partition(". ")[2]
        for line in model.log
        if line.kind == "event" and line.text.startswith(starts)
    ]


def test_each_catch_up_marks_exactly_the_moves_made_for_a_seat() -> None:
    rng = random.Random(2)
    table = Table("Marks", Rules(), seed=3, headless=True)
    harness = Watched(table, random.Random(1))
    ana, _ = harness.watch("Ana", chooser=random_chooser(rng))
    bo, bo_model = harness.watch("Bo")
    harness.watch("Cy", chooser=random_chooser(rng))
    harness.watch("Eli", chooser=random_chooser(rng))
    harness.start_with_bots(ana, 1)
    game = table.game
    assert game is not None
    player = bo.session.player
    assert player is not None

    def bo_owes_a_play() -> bool:
        return isinstance(game.decision_for(player), PlayDecision) and bool(
            game.decision_for(player).may_pass  # type: ignore[union-attr]
        )

    # Bo plays (passes) himself once, then drops.
    harness.run_until(lambda: isinstance(bo.session.decision, PlayDecision) and bo_owes_a_play())
    harness.send(bo, {"type": "pass", "decision_id": bo.session.decision_id})
    harness.run_until(bo_owes_a_play)
    harness.send(ana, {"type": "chat", "text": "before the drop"})
    bo.closed = True
    table.disconnected(bo.connection)
    harness.deliver()
    table.play_default(player)  # the turn timer passes for him
    harness.deliver()
    table.request_stand_in(player)  # his grace period is over
    harness.deliver()
    made = lambda: [by for *_, whose, by, _ in table._made_for if whose == player]  # noqa: E731
    harness.run_until(lambda: made() == ["timer", "stand_in", "stand_in"] and bo_owes_a_play())
    harness.send(ana, {"type": "chat", "text": "while Bo is away"})

    # Bo back in a fresh program; then in the first one, its log kept, after it
    # reconnects; then a late arrival and a watcher.
    back, back_model = harness.watch("Bo", token=bo.session.token)
    made_for_me = [MINE_TIMER, MINE_STAND_IN, MINE_STAND_IN]
    assert marks_of(back_model, "Bo")[-3:] == made_for_me
    assert set(marks_of(back_model, "Bo")[:-3]) == {""}
    back.closed = True
    table.disconnected(back.connection)
    same = ClientSession("Bo", token=bo.session.token)
    same.table_id = table.table_id
    again = Client(table, same)
    harness.clients.append(again)
    harness.models[again.connection] = bo_model
    bo_model.session = same
    bo_model.reconnected()
    harness.send(again, same.hello())
    assert any(m["type"] == "snapshot" for m in again.received)
    harness.send(again, {"type": "pass", "decision_id": same.decision_id})
    _, fay = harness.watch("Fay")
    _, gus = harness.watch("Gus", spectator=True)

    for watcher in (fay, gus):
        marks = marks_of(watcher, "Bo")
        assert marks[-4:] == [TIMER, STAND_IN, STAND_IN, ""]
        assert set(marks[:-4]) == {""}
    told = [line.text for line in bo_model.log]
    # Passes, each a line of its own, were noise: counted, by whoever made them.
    # Each pass on a line of its own was noise: the passes are counted, by whoever made
    # them; the play is listed.
    away = told.index("While you were away, these moves were made for you:")
    assert told[away + 1 : away + 4] == [
        f"You play Seamstress ×1. {MINE_STAND_IN}",
        "Passes the turn timer made for you: 1.",
        "Passes the bot standing in made for you: 1.",
    ]
    assert marks_of(bo_model, "Bo")[-1] == ""
    # What was said while he was away, once; what he read before, not again.
    assert told.count("Ana: while Bo is away") == 1 and told.count("Ana: before the drop") == 1
    assert told.index("Ana: while Bo is away") > away


def test_back_at_a_table_that_ended_meanwhile_a_player_learns_why() -> None:
    """Found by hand: Bo came back after the last hand and read "The table is over: ."
    (the snapshot has the scores, not the `table_ended` event, which its hand tells)."""
    rng = random.Random(4)
    table = Table("Over", Rules(scoring=True, hand_limit=1), seed=4, headless=True)
    harness = Watched(table, random.Random(4))
    ana, _ = harness.watch("Ana", chooser=random_chooser(rng))
    bo, _ = harness.watch("Bo")
    harness.start_with_bots(ana, 2)
    player = bo.session.player
    assert player is not None
    harness.drop(bo)
    table.request_stand_in(player)
    harness.deliver()
    harness.run()
    assert table.phase == "ended"
    _, back = harness.watch("Bo", token=bo.session.token)
    assert back.session is not None and back.session.observation is not None
    ended = back.session.observation.ended
    assert ended is not None and ended.reason == "hand_limit"


def test_back_after_a_drop_a_player_is_not_told_again_what_was_made_for_him_live() -> None:
    """Found by hand: after a host was killed and resumed (and after any dropped link),
    "While you were away, these moves were made for you:" listed every move the turn
    timer had made for the seat in the hand, those the player had read as they were
    made too. Only what was made while he was away is news."""
    rng = random.Random(2)
    table = Table("Marks", Rules(), seed=3, headless=True)
    harness = Watched(table, random.Random(1))
    ana, _ = harness.watch("Ana", chooser=random_chooser(rng))
    bo, bo_model = harness.watch("Bo")
    harness.watch("Cy", chooser=random_chooser(rng))
    harness.watch("Eli", chooser=random_chooser(rng))
    harness.start_with_bots(ana, 1)
    game = table.game
    assert game is not None
    player = bo.session.player
    assert player is not None

    def bo_owes_a_play() -> bool:
        decision = game.decision_for(player)
        return isinstance(decision, PlayDecision) and bool(decision.may_pass)

    harness.run_until(bo_owes_a_play)
    table.play_default(player)  # the turn timer passes for him while he is there
    harness.deliver()
    assert marks_of(bo_model, "Bo")[-1] == MINE_TIMER
    harness.run_until(bo_owes_a_play)
    bo.closed = True
    table.disconnected(bo.connection)
    harness.deliver()
    table.play_default(player)  # and once more while he is away
    harness.deliver()
    harness.run_until(bo_owes_a_play)

    same = ClientSession("Bo", token=bo.session.token)
    same.table_id = table.table_id
    again = Client(table, same)
    harness.clients.append(again)
    harness.models[again.connection] = bo_model
    bo_model.session = same
    bo_model.reconnected()
    harness.send(again, same.hello())
    told = [line.text for line in bo_model.log]
    # Only the one made while he was away (the one made while he was there he read).
    away = told.index("While you were away, these moves were made for you:")
    assert told[away + 1 : away + 2] == ["Passes the turn timer made for you: 1."]
    assert sum(text.endswith(MINE_TIMER) for text in told) == 1


def test_back_after_a_drop_no_heading_over_moves_the_log_does_not_mention() -> None:
    """Found by hand (host killed and resumed): "While you were away, these moves were made
    for you:" stood over nothing, for the timer's tax whose cards' line was read live (its
    public `tax_paid` twin is not told to the two who saw the cards)."""
    from dalmuti_net.engine.events import Passed, TaxCards, TaxPaid

    session = ClientSession("Chen")
    session.player = 2
    model = TableModel(Translator("en"), session)
    events = (TaxCards(2, 3, (12,)), TaxPaid(2, 3, 1))
    model._tell_moves_made_for_me(events, {1: (2, "timer")})
    assert [line.text for line in model.log] == []
    model._tell_moves_made_for_me((*events, Passed(2)), {1: (2, "timer"), 2: (2, "timer")})
    assert [line.text for line in model.log] == [
        "While you were away, these moves were made for you:",
        "Passes the turn timer made for you: 1.",
    ]
