"""RULES.md rule 20: nobody but the holder can tell that someone holds both Jesters.

Each case plays the same table twice through the host's table core, with one deal rigged:
in the first run a seat H holds both Jesters (and, when asked, declines the revolution);
in the control run one of those Jesters sits with the next seat X instead, so nobody holds
both. Everything else (seed, seating, every other card, every answer) is the same. Every
frame a viewer whose cards are the same in both runs receives, from its ``hello`` to the
first answer after the revolution check, must then be the same bytes; H and X, whose
cards differ, must receive the same message types with the same fields in the same order
(H also gets its revolution ``decision``). Only timing may differ, which this core has
none of.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgpack
import pytest

from dalmuti_net.engine import JESTER, Game, Phase, Rules
from dalmuti_net.host import journal as journal_module
from dalmuti_net.host.default_moves import default_move
from dalmuti_net.host.table import Close, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, encode
from dalmuti_net.protocol.messages import action_message

SPECTATOR = "spectator"


@dataclass(frozen=True)
class Case:
    seed: int
    players: int
    rules: Rules
    hand: int
    """Which hand is rigged (1 = the first deal)."""
    holder_index: int
    """H's place in that hand's seating (0 = GD, players - 1 = GP)."""
    peon_misdeals: bool
    timer_answers: bool = False
    """The holder says nothing: its turn timer answers the revolution question (a move
    made for a player is announced, but this one to the holder alone)."""


class RiggedRandom(random.Random):
    """The game's own generator, except that one hand's shuffled deck is rearranged."""

    def __init__(self, game: Game, case: Case, holds: bool) -> None:
        super().__init__()
        self.setstate(game._rng.getstate())
        self.game, self.case, self.holds = game, case, holds
        self.swapped: tuple[int, int] | None = None

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        super().shuffle(x)
        # Seating draws shuffle too, before hand 1 (hand_number 0); each hand shuffles once.
        if self.game.hand_number != self.case.hand or self.swapped is not None:
            return
        seats = len(self.game.order)
        h = self.case.holder_index
        h1, h2 = range(h, len(x), seats)[:2]
        x1 = (h + 1) % seats
        for target in (h1, h2):
            if x[target] != JESTER:
                other = next(i for i, card in enumerate(x) if card == JESTER and i not in (h1, h2))
                x[target], x[other] = x[other], x[target]
        self.swapped = (h2, x1)
        if not self.holds:
            x[h2], x[x1] = x[x1], x[h2]


@dataclass
class Run:
    frames: dict[str, list[bytes]]
    holder: int | None
    exposed_card_moved: bool
    names: dict[int, str]


def play(case: Case, holds: bool, monkeypatch: pytest.MonkeyPatch) -> Run:
    rigs: list[RiggedRandom] = []

    class RiggedGame(Game):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._rng = RiggedRandom(self, case, holds)
            rigs.append(self._rng)

    monkeypatch.setattr(journal_module, "Game", RiggedGame)  # the journal starts games
    tokens = (f"token-{n}" for n in itertools.count(1))
    table = Table(
        "rule 20", case.rules, seed=case.seed, token_factory=lambda: next(tokens), table_id="t"
    )
    names = [f"P{n}" for n in range(case.players)]
    connections: dict[str, int] = {}
    frames: dict[str, list[bytes]] = {}

    def flush() -> None:
        for effect in table.take_effects():
            assert isinstance(effect, Close)
        for name, connection in connections.items():
            frames[name].extend(encode(m) for m in table.take_outbox(connection))

    for name in [*names, SPECTATOR]:
        connection = table.connect()
        assert connection is not None
        connections[name] = connection
        frames[name] = []
        role = "spectator" if name == SPECTATOR else "player"
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": role}
        table.receive(connection, hello)
        flush()
    player_names = {seat.player: seat.name for seat in table.seats.values()}
    table.receive(connections[names[0]], {"type": "start"})
    flush()
    game = table.game
    assert game is not None
    rig = rigs[-1]
    while True:
        if game.hand_number == case.hand and game.phase in (Phase.TAXES, Phase.PLAY):
            break
        if table.hand_over():
            table.begin_next_hand()
            flush()
            continue
        player, decision = next(iter(game.pending().items()))
        action = action_message(default_move(decision))
        if decision.__class__.__name__ == "MisdealDecision" and case.peon_misdeals:
            action = {"type": "misdeal", "choice": "peon"}
        if decision.__class__.__name__ == "RevolutionDecision" and case.timer_answers:
            table.play_default(player)
            flush()
            continue
        table.receive(table.seats[player].connection or 0, action)
        flush()
    holder = next((p for p in game.order if game.debug_hands()[p][JESTER] == 2), None)
    exposed = game._exposed_at
    assert rig.swapped is not None
    return Run(
        frames,
        holder,
        exposed is not None and exposed in rig.swapped,
        player_names,
    )


@functools.lru_cache(maxsize=4096)
def _shape(frame: bytes) -> tuple[Any, ...]:
    message = msgpack.unpackb(frame[4:])  # the host's own frames: no need to validate
    players = message.get("players")
    return (
        message["type"],
        tuple(message),
        message.get("phase"),
        message["type"],
        list(message),
        tuple(players or ()),
    )


def _is_revolution_decision(frame: bytes) -> bool:
    return _shape(frame)[0] == "decision" and b"\xaarevolution" in frame


def cases(count: int, seed: int) -> Iterator[Case]:
    rng = random.Random(seed)
    presets = [  # the first four: first deal revolution off or on, misdeals off or always
        Rules(),
        Rules(first_deal_revolution=True),
        Rules(misdeal_chance=1.0),
        Rules.all_optional(misdeal_chance=1.0),
        Rules(first_deal_revolution=True, stripped_decks=True, scoring=True),
        Rules(merchant_exchange=True, first_deal_revolution=True, misdeal_chance=0.5),
    ]
    for n in range(count):
        players = rng.randint(4, 8)
        holder_index = players - 1 if rng.random() < 0.4 else rng.randrange(players)
        rules = rng.choice(presets)
        hand = 1
        if n % 50 == 0:
            # A later hand (taxes, or a revolution after the first deal): fewer, as each
            # plays a whole hand first; they cycle through GP holder or not, four presets.
            k = seed * (count // 50) + n // 50
            hand, rules = 2, presets[(k // 2) % 4]
            holder_index = players - 1 if k % 2 else rng.randrange(players - 1)
        yield Case(
            seed=rng.randrange(2**32),
            players=players,
            rules=rules,
            hand=hand,
            holder_index=holder_index,
            peon_misdeals=rng.random() < 0.5,
            timer_answers=n % 3 == 1,
        )


def check(case: Case, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Compare the two runs of ``case``; false when the rig could not be used."""
    held = play(case, True, monkeypatch)
    control = play(case, False, monkeypatch)
    if held.holder is None or control.holder is not None or held.exposed_card_moved:
        return False  # a misdeal moved or showed one of the rigged cards
    holder = held.names[held.holder]
    if case.timer_answers and any(_is_revolution_decision(f) for f in held.frames[holder]):
        assert any(_shape(f)[0] == "moved_for" for f in held.frames[holder]), "told the holder"
    for viewer, frames in held.frames.items():
        expected = control.frames[viewer]
        if viewer == holder:
            # Its revolution decision, and the note that its timer answered it.
            frames = [
                f for f in frames if not _is_revolution_decision(f) and _shape(f)[0] != "moved_for"
            ]
        if _private(frames) != _private(expected):
            # This viewer's own cards differ between the runs: the same frames but for them.
            assert viewer != SPECTATOR
            assert [_shape(f) for f in frames] == [_shape(f) for f in expected], (case, viewer)
            assert _public(frames) == _public(expected), (case, viewer)
        else:
            assert frames == expected, (case, viewer)
    return True


PRIVATE = ("cards_dealt", "misdeal_replacement", "tax_cards", "decision", "snapshot")


def _private(frames: list[bytes]) -> list[bytes]:
    return [f for f in frames if _shape(f)[0] in PRIVATE]


def _public(frames: list[bytes]) -> list[bytes]:
    return [f for f in frames if _shape(f)[0] not in PRIVATE]


CHUNK = 250


@pytest.mark.parametrize("chunk", range(4))
def test_no_frame_tells_anyone_but_the_holder_that_both_jesters_are_held(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    used = sum(check(case, monkeypatch) for case in cases(CHUNK, seed=chunk))
    assert used >= CHUNK * 0.8, f"only {used} of {CHUNK} deals could be rigged"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4, 24))
def test_no_frame_tells_anyone_but_the_holder_over_many_more_deals(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    used = sum(check(case, monkeypatch) for case in cases(CHUNK, seed=chunk))
    assert used >= CHUNK * 0.8, f"only {used} of {CHUNK} deals could be rigged"


def test_the_cases_cover_every_kind_of_hand() -> None:
    kinds = set()
    for case in itertools.chain.from_iterable(cases(CHUNK, seed=chunk) for chunk in range(4)):
        gp = case.holder_index == case.players - 1
        kinds.add((case.hand, gp, case.rules.first_deal_revolution, case.rules.misdeal_chance > 0))
    assert len(kinds) == 16
