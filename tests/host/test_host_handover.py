"""The host player can leave without ending the evening: the host role goes to the human
they name, or to the next connected human in seat order; with nobody to take it the table
ends, and every connection is told why (`goodbye` with code `host_left`)."""

from __future__ import annotations

from pathlib import Path

from harness import Harness

from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table


def seated(*names: str, bots: int = 1) -> tuple[Harness, list]:  # type: ignore[type-arg]
    harness = Harness(Table("Handover", Rules(), seed=4))
    players = [harness.join(name) for name in names]
    harness.start_with_bots(players[0], bots)
    return harness, players


def host_of(harness: Harness) -> str | None:
    return next((s.name for s in harness.table.seats.values() if s.host and not s.gone), None)


def test_the_next_connected_human_in_seat_order_becomes_host() -> None:
    harness, (ana, bea, cai) = seated("Ana", "Bea", "Cai")
    order = harness.table.game.order  # type: ignore[union-attr]
    after = order[order.index(ana.session.player) + 1 :] + order[: order.index(ana.session.player)]
    humans = [p for p in after if p in (bea.session.player, cai.session.player)]
    harness.send(ana, {"type": "leave"})
    assert ana.closed
    expected = harness.table.seats[humans[0]].name
    assert host_of(harness) == expected
    heir = bea if bea.session.player == humans[0] else cai
    assert heir.session.is_host  # told through `table`


def test_the_leaver_may_name_the_heir_and_a_disconnected_one_is_skipped() -> None:
    harness, (ana, bea, _cai) = seated("Ana", "Bea", "Cai")
    harness.drop(bea)
    harness.send(ana, {"type": "leave", "heir": bea.session.player})
    assert host_of(harness) == "Cai"  # Bea is offline: she cannot take it now
    harness2, (dan, _eve, fay) = seated("Dan", "Eve", "Fay")
    harness2.send(dan, {"type": "leave", "heir": fay.session.player})
    assert host_of(harness2) == "Fay"


def test_with_nobody_to_take_over_the_table_ends_with_a_goodbye() -> None:
    harness, (ana,) = seated("Ana", bots=3)
    watcher = harness.join("Gus", spectator=True)
    harness.send(ana, {"type": "leave"})
    assert harness.table.phase == "ended"
    goodbye = watcher.of_type("goodbye")
    assert goodbye and goodbye[-1]["code"] == "host_left"
    assert watcher.of_type("table_ended")  # the standings came first
    assert watcher.closed


def test_a_replayed_journal_gives_the_role_to_the_same_heir() -> None:
    harness, (ana, bea, _cai) = seated("Ana", "Bea", "Cai")
    harness.drop(bea)
    journal = harness.table.take_journal()
    harness.send(ana, {"type": "leave"})
    journal += harness.table.take_journal()
    rebuilt = Table.replay(journal, name="Handover", rules=Rules(), seed=4)
    assert {s.name for s in rebuilt.seats.values() if s.host} == {"Cai"}


def test_every_table_says_who_would_take_over_as_the_host_would_choose() -> None:
    """`table.heirs` is the host's own answer: the heir it picks without `leave.heir` is the
    first, and a dropped human is not among them until they are back."""
    harness, (ana, bea, cai) = seated("Ana", "Bea", "Cai")
    said = bea.session.table.heirs
    assert sorted(said) == sorted([bea.session.player, cai.session.player])
    harness.drop(bea)
    assert cai.session.table.heirs == (cai.session.player,)
    harness.send(ana, {"type": "leave"})
    assert host_of(harness) == "Cai" and cai.session.table.heirs == ()
    assert said[0] in (bea.session.player, cai.session.player)


def test_the_first_heir_said_is_the_one_who_takes_over() -> None:
    harness, (ana, _bea, cai) = seated("Ana", "Bea", "Cai")
    first = cai.session.table.heirs[0]
    harness.send(ana, {"type": "leave"})
    assert harness.table.seats[first].host


def test_each_seat_says_what_its_leave_would_do_to_the_table() -> None:
    harness, (ana, bea) = seated("Ana", "Bea", bots=2)
    seats = {s.name: s for s in bea.session.table.players}
    assert seats["Ana"].leave_ends == "after_hand"  # four players: three would be left
    assert seats["Bea"].leave_ends == "after_hand"
    harness.drop(bea)  # nobody left to take over from Ana
    seats = {s.name: s for s in ana.session.table.players}
    assert seats["Ana"].leave_ends == "now_too_few"
    harness5, (dan,) = seated("Dan", bots=4)
    seats = {s.name: s for s in dan.session.table.players}
    assert seats["Dan"].leave_ends == "now_no_host"
    assert {s.leave_ends for s in seats.values() if s.name != "Dan"} == {None}
    harness5.send(dan, {"type": "leave"})
    assert harness5.table.phase == "ended"  # what the table said


def test_a_resumed_host_does_not_take_the_seat_of_its_heir(tmp_path: Path) -> None:
    """Ana left the table and kept hosting, Bea took the host role, then the host stopped.
    `dalmuti host --resume` used to open the host machine's screen in the seat holding the
    host role: Bea's, her cards shown on Ana's machine while Bea's own client was pushed
    out. The machine's own player left: the table is served without one, as it was."""
    from dalmuti_net.cli import build_parser
    from dalmuti_net.commands.host import options_from
    from dalmuti_net.commands.host_runtime import PreparedHost

    def prepared(*argv: str) -> PreparedHost:
        return PreparedHost.create(options_from(build_parser().parse_args(["host", *argv])))

    save = tmp_path / "table.dat"
    first = prepared("--player-name", "Ana", "--bots", "2", "--save", str(save))
    assert first.save is not None
    harness = Harness(first.table)
    harness.join("Bea")
    first.table.start()
    ana = next(s for s in first.table.seats.values() if s.token == first.host_token)
    first.table.lobby.leave(ana)
    assert host_of(harness) == "Bea"
    first.save.append(first.table.take_journal())
    first.save.close()  # then the host stops

    again = prepared("--resume", str(save))
    assert host_of(Harness(again.table)) == "Bea"
    assert again.host_token is None and again.player_left
    assert again.save is not None
    again.save.close()
