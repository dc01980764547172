"""A table rebuilt from its save tells each viewer exactly what that viewer was sent live.

Many recorded games (4 to 8 seats, every optional rule, spectators, a newcomer, a drop and
resume, a leaver): for every connection the host served, its live capture is held against
that viewer's history rebuilt from the save, through the table core. The same numbered
events (nothing more, nothing less over the time it was connected), the same decisions,
the same snapshots; and the rebuilt histories pass the secrecy checker themselves.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from harness import Client, Harness
from secrecy import check_capture
from test_host_secrecy import all_optional, eventful_game

from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine.views import can_see
from dalmuti_net.history.hands import event_frames, hand_spans
from dalmuti_net.protocol.messages import event_from_message, observation_dict
from dalmuti_net.rerun.frames import HOST, Rerun, rerun
from dalmuti_net.rerun.save import SavedTable

NOT_IN_A_SAVE = {"table", "ack", "chat", "error"}
"""Who was connected (the table message), acks and chat: a save does not hold them."""


def recorded_game(seed: int) -> tuple[Harness, Rerun]:
    harness, _ = eventful_game(seed)
    saved = SavedTable(
        1,
        "Secrets",
        {
            "name": "Secrets",
            "rules": all_optional(hand_limit=3),
            "seed": seed,
            "table_id": harness.table.table_id,
        },
        tuple(harness.table.take_journal()),
    )
    return harness, rerun(saved)


def observations_by_seq(
    frames: list[dict[str, Any]], viewer: int | None, wanted: set[int]
) -> dict[int, Any]:
    """The client's view after the numbered events ``wanted`` of ``frames``, folded by the
    client's own session."""
    session = ClientSession("replayer", spectator=viewer is None)
    seen: dict[int, Any] = {}
    for frame in frames:
        session.receive(frame)
        if frame.get("seq") in wanted and session.observation is not None:
            seen[frame["seq"]] = observation_dict(session.observation)
    return seen


def comparable(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as a save can tell them: no token, no table message inside a snapshot."""
    kept = []
    for message in messages:
        if message["type"] in NOT_IN_A_SAVE:
            continue
        if message["type"] == "welcome":
            message = {**message, "token": None}
        elif message["type"] == "snapshot":
            message = {**message, "table": None}
        kept.append(message)
    return kept


def check_client(
    client: Client, history: list[dict[str, Any]], me: int | None, whole: bool
) -> Counter[str]:
    checked: Counter[str] = Counter()
    live_events = event_frames(client.received)
    rebuilt = {frame["seq"]: frame for frame in event_frames(history)}
    for frame in live_events:
        assert rebuilt.get(frame["seq"]) == frame, f"viewer {me}: {frame}"
    snapshots = client.of_type("snapshot")
    first_seq = snapshots[0]["seq"]
    last_seq = live_events[-1]["seq"] if live_events else first_seq
    connected_for = {seq for seq in rebuilt if first_seq < seq <= last_seq}
    # Nothing more, nothing less: over the time this client was attached, the same events.
    # (A snapshot after a gap stands in for what was missed, as it does live.)
    missed = connected_for - {frame["seq"] for frame in live_events}
    for snapshot in snapshots[1:]:
        missed = {seq for seq in missed if seq > snapshot["seq"]}
    assert not missed, f"viewer {me} was sent events {sorted(missed)} its history lacks"
    checked["events"] += len(live_events)
    views = observations_by_seq(history, me, {snapshot["seq"] for snapshot in snapshots})
    for snapshot in snapshots:
        if snapshot["game"] is not None and snapshot["seq"] in views:
            assert views[snapshot["seq"]] == snapshot["game"], f"viewer {me} at {snapshot}"
            checked["snapshots"] += 1
    if whole:
        # Attached from its seat's first moment to the end: the very same messages.
        assert comparable(history) == comparable(client.received), f"viewer {me}"
        checked["whole"] += 1
    return checked


def attached_all_along(client: Client, harness: Harness) -> bool:
    """A seat's first connection, never dropped: in ``eventful_game`` the one dropped
    comes back as "Back" (a stand-in, or a leaver's connection, ends with the seat)."""
    me = client.received[0]["player"]
    if me is None:
        return False
    seat_clients = [c for c in harness.clients if c.received and c.received[0]["player"] == me]
    resumed = any(c.session.name == "Back" for c in seat_clients)
    return seat_clients[0] is client and not resumed


@pytest.mark.parametrize("seeds", [range(0, 6)], ids=["6 games"])
def test_every_viewer_is_told_what_it_was_sent_live(seeds: range) -> None:
    checked: Counter[str] = Counter()
    for seed in seeds:
        harness, history = recorded_game(seed)
        tokens = {seat.token for seat in harness.table.seats.values()}
        for client in harness.clients:
            welcome = client.received[0] if client.received else None
            if welcome is None or welcome["type"] != "welcome":
                continue
            me = welcome["player"]
            checked.update(
                check_client(client, history.frames[me], me, attached_all_along(client, harness))
            )
            checked["clients"] += 1
        for viewer, frames in history.frames.items():
            if viewer != HOST:
                check_capture(frames, viewer, tokens)
    assert checked["clients"] > 30 and checked["whole"] > 20
    assert checked["events"] > 5000 and checked["snapshots"] > 5


@pytest.mark.slow
def test_every_viewer_is_told_what_it_was_sent_live_over_many_games() -> None:
    test_every_viewer_is_told_what_it_was_sent_live(range(100, 300))


def test_the_operator_sees_every_event_and_each_viewer_its_share() -> None:
    """The host's view holds every event; each seat's and the spectator's events are
    exactly those of the host's that the engine lets them see, in the same order."""
    _, history = recorded_game(5)
    everything = [event_from_message(f) for f in event_frames(history.frames[HOST])]
    assert all(event is not None for event in everything)
    checked = 0
    for viewer, frames in history.frames.items():
        if viewer == HOST:
            continue
        share = [event_from_message(f) for f in event_frames(frames)]
        visible = [e for e in everything if e is not None and can_see(e, viewer)]
        # A seat's feed begins when its seat is made and ends when it leaves: a run.
        starts = [k for k, event in enumerate(visible) if share and event == share[0]]
        assert any(visible[k : k + len(share)] == share for k in starts), f"viewer {viewer}"
        checked += 1
    assert checked >= 5
    assert any(f["type"] == "cards_dealt" for f in history.frames[HOST])


def test_hands_split_where_each_hand_starts() -> None:
    _, history = recorded_game(2)
    frames = history.frames[None]
    spans = hand_spans(frames)
    assert [span.number for span in spans] == list(range(len(spans)))
    assert spans[0].start == 0 and spans[-1].end == len(frames)
    for span in spans[1:]:
        assert frames[span.start]["type"] == "hand_started"


def test_the_comparison_catches_another_seats_history() -> None:
    """Held against a different seat's history, a live capture fails the check."""
    harness, history = recorded_game(1)
    client = next(c for c in harness.clients if c.received and c.received[0]["player"] == 1)
    check_client(client, history.frames[1], 1, True)
    with pytest.raises(AssertionError):
        check_client(client, history.frames[2], 1, False)
    with pytest.raises(AssertionError):
        check_client(client, history.frames[HOST], 1, False)
