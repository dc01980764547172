"""The names rule (PROTOCOL.md "Names"): the host seats names NFKC-normalised and without
invisible characters, numbers a name that is exactly one at the table, and refuses with
``name_taken`` one that only looks like one (case, invisible characters, Cyrillic or Greek
look-alikes, 0/O, 1/l, I/l), for players and spectators; its own bots are numbered."""

from __future__ import annotations

import pytest
import trio
from harness import Harness
from recording_clients import RecordingClient, join_over_tcp, loopback_server
from test_host_text import RawClient, hello

from dalmuti_net.host.table import Table
from dalmuti_net.protocol.names import free_name, looks_like, normal_name


@pytest.mark.parametrize(
    ("wanted", "seated"),
    [
        ("A\u200bna", "Ana"),  # zero-width space
        ("\u200eAna\u200f", "Ana"),  # bidirectional marks
        ("An\u00ada", "Ana"),  # soft hyphen
        ("\ufeffAna\u2060", "Ana"),  # byte order mark, word joiner
        ("A\u3164na", "Ana"),  # Hangul filler
        ("Ana\U000e0041", "Ana"),  # tag character
        ("\uff21\uff4e\uff41", "Ana"),  # full width
        ("\ufb01fi", "fifi"),  # ligature
        ("Ana\u00a0\u2003Bo", "Ana Bo"),  # other spaces
        (
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        ),
        ("\u2764\ufe0f Ana", "\u2764\ufe0f Ana"),  # emoji presentation kept
        ("A\u200dna", "Ana"),  # a joiner outside an emoji sequence
        ("李小龍", "李小龍"),
        ("José", "José"),
        ("\u200b", ""),
    ],
)
def test_a_name_is_normalised(wanted: str, seated: str) -> None:
    assert normal_name(wanted, 32) == seated


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("\u0410na", "Ana"),  # Cyrillic capital A
        ("\u0430na", "Ana"),  # Cyrillic small a
        ("An\u0430", "Ana"),
        ("\u0391\u03bd\u03b1", "Ana"),  # Greek capitals: no, small nu looks like v
        ("ana", "Ana"),
        ("ANA", "Ana"),
        ("AIex", "Alex"),
        ("A1ex", "Alex"),
        ("B0b", "Bob"),
        ("\u0412\u043e\u0412", "BoB"),  # Cyrillic Ve, o
        ("Jean\u2010Luc", "Jean-Luc"),
        ("A\u200dna", "Ana"),
    ],
)
def test_look_alikes(name: str, other: str) -> None:
    if name == "\u0391\u03bd\u03b1":
        assert not looks_like(name, other)  # Ανα: the nu is a v to the eye
        assert looks_like("\u0391\u03bf", "Ao")
        return
    assert looks_like(name, other) and looks_like(other, name)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Lana", "Iana"),
        ("Ana", "Anna"),
        ("José", "Jose"),
        ("李", "季"),
        ("Ана", "Ana"),
        ("Bo", "Bo2"),
    ],
)
def test_names_that_do_not_look_alike(name: str, other: str) -> None:
    assert not looks_like(name, other)


def test_a_free_name_is_numbered_until_nothing_looks_like_it() -> None:
    assert free_name("Ana", ["Bo"], 32) == "Ana"
    assert free_name("Ana", ["Ana", "ana (2)"], 32) == "Ana (3)"
    assert free_name("x" * 32, ["x" * 32], 32) == "x" * 28 + " (2)"


def test_the_host_seats_numbers_and_refuses_by_the_rule() -> None:
    harness = Harness(Table("Names"))
    ana = harness.join("Ana")
    invisible = harness.join("A\u200bna")  # the same name once the invisible one is gone
    assert [s.name for s in harness.table.seats.values()] == ["Ana", "Ana (2)"]
    assert not invisible.errors
    for look_alike in ("\u0410na", "ana", "\u0410na (2)", "ANA"):
        refused = harness.join(look_alike)
        [error] = refused.errors
        assert error["code"] == "name_taken" and error["fatal"] is True, error
        assert refused.closed
        assert "looks like 'Ana" in error["message"] and "choose another name" in error["message"]
    watcher = harness.join("\u0430NA", spectator=True)
    assert watcher.errors[0]["code"] == "name_taken"
    watcher = harness.join("Ana", spectator=True)
    assert not watcher.errors
    assert len(harness.table.seats) == 2
    # The host's own bots are never refused: a look-alike is numbered.
    bot = harness.table.add_bot("random", "\u0410NA")
    assert bot.name == "\u0410NA (4)"
    assert not ana.errors


async def test_a_look_alike_cannot_chat_as_someone_else_over_tcp() -> None:
    """The issue's case: "A\u200bna" sat beside "Ana" and her chat read "A​na: I am Ana"."""
    table = Table("Names")
    async with loopback_server(table) as (_server, port, nursery):
        ana = await join_over_tcp(port, RecordingClient("Ana"), nursery)
        raw = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        await raw.send(hello("A\u200bna"))
        welcome = await raw.next_of("welcome", "error")
        assert welcome["type"] == "welcome"
        await raw.send({"type": "chat", "text": "I am Ana"})
        await ana.wait_until(lambda: bool(ana.of_type("chat")))
        [chat] = ana.of_type("chat")
        assert chat["name"] == "Ana (2)"
        cyrillic = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        await cyrillic.send(hello("\u0410na", "spectator"))
        error = await cyrillic.next_of("error", "welcome")
        assert error["code"] == "name_taken" and error["fatal"] is True
        assert sorted(seat.name for seat in table.seats.values()) == ["Ana", "Ana (2)"]
        await raw.stream.aclose()
        await cyrillic.stream.aclose()


def test_names_in_an_older_save_are_normalised() -> None:
    old_save = [
        {
            "op": "seat",
            "player": 1,
            "name": "\uff22\u200bea",
            "kind": "human",
            "token": "t" * 24,
            "host": True,
            "strategy": None,
        }
    ]
    assert Table.replay(old_save, name="Old").seats[1].name == "Bea"


def test_names_are_kept_apart_as_chat_shows_them() -> None:
    """A spectator's chat line says "Bo (watching)": a player of that name cannot pass
    for the spectator, nor a spectator for such a player."""
    harness = Harness(Table("Names"))
    harness.join("Ana")
    harness.join("Bo", spectator=True)
    exact = harness.join("Bo (watching)")
    assert not exact.errors
    assert "Bo (watching) (2)" in [s.name for s in harness.table.seats.values()]
    [error] = harness.join("bo (WATCHING)").errors
    assert error["code"] == "name_taken"
    harness.join("Cy (watching)")
    [error] = harness.join("CY", spectator=True).errors  # would chat as "CY (watching)"
    assert error["code"] == "name_taken"
    cy = harness.join("Cy", spectator=True)
    assert not cy.errors
    harness.send(cy, {"type": "chat", "text": "hi"})
    assert cy.of_type("chat")[-1]["name"] == "Cy (2) (watching)"
