"""A seat taken back with a proof is the player's own seat: the client says "welcome
back", never that the earlier seat is gone (issue 40, finding 2). A newer remembered seat
the host did not know, refused just before, made a proven resume of the older one read
"Your earlier seat at this table is gone: you have a new one"."""

from __future__ import annotations

import random
from pathlib import Path

from harness import Client, Harness, random_chooser

from dalmuti_net.client.model.table_model import TableModel
from dalmuti_net.client.seats import SeatStore
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table
from dalmuti_net.lang.i18n import Translator


def connect(harness: Harness, session: ClientSession) -> tuple[Client, TableModel]:
    """A connection of a client with remembered seats: `about` first, then `hello`, as
    the runner does; its table model is fed what the runner passes on."""
    client = Client(harness.table, session)
    harness.clients.append(client)
    model = TableModel(Translator("en"), session)
    session.about({"type": "about", "table_id": harness.table.table_id})
    harness.send(client, session.hello())
    for message in client.received:
        if session.seat_lost and message["type"] == "error":
            break  # the runner connects again at once, with the same session
        model.receive(message)
    return client, model


def test_a_proven_resume_after_a_refused_seat_is_a_welcome_back(tmp_path: Path) -> None:
    rng = random.Random(5)
    table = Table("Back", Rules(), seed=5, headless=True)
    harness = Harness(table, rng)
    ana = harness.join("Ana", chooser=random_chooser(rng))
    store = SeatStore(tmp_path)
    bo, _ = connect(harness, ClientSession("Bo", seats=store))
    harness.start_with_bots(ana, 2)
    assert table.game is not None and bo.session.player is not None
    player = bo.session.player
    harness.drop(bo)
    # A newer seat this host never gave (another host's, at this table id), asked first.
    store.remember(table.table_id, "a-token-this-host-never-gave", "Bo", "Back")
    session = ClientSession("Bo", seats=store)
    refused, _ = connect(harness, session)
    assert [error["code"] for error in refused.errors] == ["bad_token"]
    assert refused.session.seat_lost
    table.disconnected(refused.connection)

    _, model = connect(harness, session)
    assert session.proven and session.player == player
    assert not session.seat_was_lost
    told = [line.text for line in model.log]
    assert "Welcome back: this is your seat, as you left it." in told
    assert not any("is gone" in text for text in told)
