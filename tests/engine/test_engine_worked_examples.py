"""The rulebook's worked examples (seeds/: the Chinese and Spanish texts), replayed exactly."""

from __future__ import annotations

from engine_helpers import PASS, StackedRandom, game_in_play, play, refused, run, stacked

from dalmuti_net.engine import CardSet, Game, PlayDecision, Refusal, Role, roles_of
from dalmuti_net.engine.cards import JESTER
from dalmuti_net.engine.events import (
    HandEnded,
    Passed,
    Played,
    SeatingDraw,
    SeatingSettled,
    TrickWon,
    WentOut,
)

# The rulebook's five players, as player ids.
AMITY, SANDRA, ANTON, CHERISE, DANA = 1, 2, 3, 4, 5
# The table of the play examples, clockwise from the Greater Dalmuti, as the book seats it.
BOOK_TABLE = (SANDRA, ANTON, AMITY, CHERISE, DANA)


def test_seating_draw_with_the_jester_tie_break() -> None:
    """Amity 12, Cherise 6, Sandra 1, Dana 12, Anton 2; Amity and Dana redraw: 5 and a Jester.

    The rulebook then seats Amity as the Merchant and Cherise as the Lesser Peon, which
    contradicts its own rule that seats follow the draw, best card first (Cherise's 6 beats
    Amity's 12). RULES.md rules 4 and 5 decide: seat strictly by the draw, so Cherise is
    the Merchant and Amity the Lesser Peon; this test follows RULES.md.
    """
    players = [AMITY, CHERISE, SANDRA, DANA, ANTON]
    game = Game(players)
    rng = StackedRandom(decks=[stacked([12, 6, 1, 12, 2]), stacked([5, JESTER])])
    game._rng = rng
    events = game.start()

    draws = [e for e in events if isinstance(e, SeatingDraw)]
    assert draws == [
        SeatingDraw(1, ((AMITY, 12), (CHERISE, 6), (SANDRA, 1), (DANA, 12), (ANTON, 2))),
        SeatingDraw(2, ((AMITY, 5), (DANA, JESTER))),
    ]
    # Every round draws from a fresh, full deck (the third shuffle is the deal's).
    assert [len(deck) for deck in rng.shuffled[:2]] == [80, 80]
    assert SeatingSettled((SANDRA, ANTON, CHERISE, AMITY, DANA)) in events
    assert roles_of(game.order) == {
        SANDRA: Role.GREATER_DALMUTI,
        ANTON: Role.LESSER_DALMUTI,
        CHERISE: Role.MERCHANT,
        AMITY: Role.LESSER_PEON,
        DANA: Role.GREATER_PEON,
    }


def test_trick_sequence_stonecutters_peasants_to_abbesses_then_the_lone_jester() -> None:
    """Sandra leads four Stonecutters and keeps the lead; three Peasants are topped by
    Shepherdesses, Masons, Knights (a Jester as a Knight) and Abbesses; Cherise leads a
    Cook, topped by a Mason and an Archbishop; Amity's lone Jester (13) cannot be played
    over the Archbishop, and Anton takes the lead."""
    game = game_in_play(
        BOOK_TABLE,
        {
            SANDRA: [11, 11, 11, 11, 12, 12, 12, 6, 6, JESTER, 8, 7],
            ANTON: [10, 10, 10, 2, 3],
            AMITY: [JESTER, 9],
            CHERISE: [8, 8, 8, 5, 5, 5, 9, 4],
            DANA: [12, 7],
        },
    )
    first = run(
        game,
        [(SANDRA, play(11, 4)), (ANTON, PASS), (AMITY, PASS), (CHERISE, PASS), (DANA, PASS)],
    )
    assert TrickWon(SANDRA, SANDRA) in first
    assert game.turn == SANDRA and game.top is None

    second = run(
        game,
        [
            (SANDRA, play(12, 3)),
            (ANTON, play(10, 3)),
            (AMITY, PASS),
            (CHERISE, play(8, 3)),
            (DANA, PASS),
            (SANDRA, play(6, 3, jesters=1)),
            (ANTON, PASS),
            (AMITY, PASS),
            (CHERISE, play(5, 3)),
            (DANA, PASS),
            (SANDRA, PASS),
            (ANTON, PASS),
            (AMITY, PASS),
        ],
    )
    assert Played(SANDRA, CardSet(6, 3, 1), remaining=2) in second
    assert second[-2] == TrickWon(CHERISE, CHERISE)
    assert game.turn == CHERISE

    third = run(game, [(CHERISE, play(9)), (DANA, PASS), (SANDRA, play(8)), (ANTON, play(2))])
    assert [e.player for e in third if isinstance(e, Played)] == [CHERISE, SANDRA, ANTON]
    decision = game.pending()[AMITY]
    assert isinstance(decision, PlayDecision)
    assert decision.sets == () and decision.may_pass
    refused(game, AMITY, play(JESTER, 1, jesters=1), Refusal.NOT_BETTER)
    last = run(game, [(AMITY, PASS), (CHERISE, PASS), (DANA, PASS), (SANDRA, PASS)])
    assert [e.player for e in last if isinstance(e, Passed)] == [AMITY, CHERISE, DANA, SANDRA]
    assert TrickWon(ANTON, ANTON) in last
    assert game.turn == ANTON


def test_going_out_passes_the_lead_to_the_next_player_with_cards() -> None:
    """Amity plays her last card, a Baroness: first out. Sandra plays an Archbishop and
    Anton tops it with his last card, the Dalmuti: second out. Nobody can top a Dalmuti;
    the lead would be Anton's, but he is out, so it passes clockwise to the next player
    still holding cards: Cherise (Amity, between them, is out too)."""
    game = game_in_play(
        BOOK_TABLE,
        {SANDRA: [2, 12, 12], ANTON: [1], AMITY: [4], CHERISE: [7, 7], DANA: [11, 12]},
        leader=AMITY,
    )
    events = run(
        game,
        [
            (AMITY, play(4)),
            (CHERISE, PASS),
            (DANA, PASS),
            (SANDRA, play(2)),
            (ANTON, play(1)),
            (CHERISE, PASS),
            (DANA, PASS),
            (SANDRA, PASS),
        ],
    )
    assert [e for e in events if isinstance(e, WentOut)] == [WentOut(AMITY, 1), WentOut(ANTON, 2)]
    assert TrickWon(winner=ANTON, leader=CHERISE) in events
    assert game.turn == CHERISE and game.out == [AMITY, ANTON]
    assert not any(isinstance(e, HandEnded) for e in events)


def test_spanish_example_a_jester_completes_a_pair_and_four_abbesses_are_kept() -> None:
    """Five players: the GD leads two 9s, the next plays two 7s, the third a 6 and a Jester
    as a pair of 6s; the fourth keeps four 5s together and passes; the fifth has no pair
    better than 6s and passes; play comes back to the GD (seeds/, Spanish text, rule 3)."""
    gd, second, third, fourth, fifth = 10, 11, 12, 13, 14
    game = game_in_play(
        (gd, second, third, fourth, fifth),
        {
            gd: [9, 9, 3],
            second: [7, 7, 10],
            third: [6, JESTER, 12],
            fourth: [5, 5, 5, 5],
            fifth: [6, 8, 8],
        },
    )
    run(game, [(gd, play(9, 2)), (second, play(7, 2)), (third, play(6, 2, jesters=1))])
    fourth_options = game.pending()[fourth]
    assert isinstance(fourth_options, PlayDecision)
    assert CardSet(5, 2) in fourth_options.sets
    run(game, [(fourth, PASS)])
    fifth_options = game.pending()[fifth]
    assert isinstance(fifth_options, PlayDecision)
    assert fifth_options.sets == ()
    run(game, [(fifth, PASS)])
    assert game.turn == gd and game.top == CardSet(6, 2, 1)
