"""Whether a host's message fits what this client knows, before anything is taken in.

The codec has checked each field's type and range; this module checks what a schema
cannot: that the lists of one message align, that the players an event names sit at the
table, that a card leaves a hand that holds it, that a decision has a legal answer. A host
is not trusted (anyone on the LAN can pretend to be one): a message that does not fit is
refused here, in one place, as a ``HostUnfit`` (a protocol error: the connection is
closed), so that no front end ever folds, draws or answers an impossible state.

Every check is one that a real host's messages always pass (tests/hostile/test_fits.py
plays whole tables through it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..engine import Observation
from ..engine import cards as c
from ..engine.actions import (
    ExchangeDecision,
    PlacementDecision,
    PlayDecision,
    TaxDecision,
)
from ..engine.cards import CardSet, playable_sets
from ..protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError
from ..protocol.messages import Message, card_set_from, decision_from_message
from .table_view import TableView, decode_table

if TYPE_CHECKING:
    from ..engine import Decision

MAX_TRANSFERS = 16
"""Card movements a viewer may see in one hand (taxes, an exchange, a misdeal: at most 6)."""
MAX_GIFTS = 32
"""Taxes and exchanges in one hand, without cards (at most 4 taxes and 2 halves of one
exchange)."""
PHASES = frozenset(
    (
        "not_started",
        "dealing",
        "placement",
        "misdeal",
        "revolution",
        "taxes",
        "play",
        "hand_over",
        "ended",
    )
)


class HostUnfit(ProtocolError):
    """A schema-valid message from the host that does not fit the state: the host is
    broken or hostile, and the connection to it is closed."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_MESSAGE, message, fatal=True)


class HostVersion(ProtocolError):
    """A ``welcome`` in another protocol version than this client's: refused, as the host
    refuses a ``hello`` of another version."""

    def __init__(self, host_version: int) -> None:
        super().__init__(
            ErrorCode.VERSION_MISMATCH,
            f"the host speaks protocol version {host_version}, this client {PROTOCOL_VERSION}",
            fatal=True,
            details={"host_version": host_version, "client_version": PROTOCOL_VERSION},
        )


def check_welcome(message: Message) -> None:
    if message["version"] != PROTOCOL_VERSION:
        raise HostVersion(message["version"])


def _unfit(kind: str, why: str) -> HostUnfit:
    return HostUnfit(f"a `{kind}` that does not fit the table: {why}")


def _aligned(kind: str, **lists: Sequence[Any]) -> None:
    lengths = {name: len(items) for name, items in lists.items()}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{name} {n}" for name, n in lengths.items())
        raise _unfit(kind, f"its lists differ in length ({shown})")


def _distinct(kind: str, name: str, players: Sequence[int]) -> None:
    if len(set(players)) != len(players):
        raise _unfit(kind, f"{name} names a player twice")


def _seated(kind: str, order: Sequence[int], *players: int | None) -> None:
    """Each of ``players`` sits in ``order`` (when the order is known at all)."""
    if not order:
        return
    for player in players:
        if player is not None and player not in order:
            raise _unfit(kind, f"player {player} is not at the table")


def _all_seated(kind: str, order: Sequence[int], players: Iterable[int]) -> None:
    _seated(kind, order, *players)


def _well_formed(kind: str, card_set: CardSet) -> None:
    if not card_set.is_well_formed():
        raise _unfit(kind, f"{card_set} is not a set of cards")


def _holds(kind: str, hand: c.Counts | None, cards: Iterable[int], whose: str) -> None:
    if hand is not None and not c.holds(hand, cards):
        raise _unfit(kind, f"{whose} hand does not hold those cards")


# ---------------------------------------------------------------------- the table


def fit_table(kind: str, table: dict[str, Any]) -> TableView:
    """The ``table`` of a ``table`` or ``snapshot`` message, checked and decoded once."""
    _distinct(kind, "the table", [seat["player"] for seat in table["players"]])
    return decode_table(table)


# ---------------------------------------------------------------------- decisions


def check_decision(
    message: Message, player: int | None, observation: Observation | None
) -> Decision:
    """The decision in ``message`` if it fits: owed by a seat, with a legal answer, made
    of cards this seat holds."""
    kind = "decision"
    if player is None:
        raise _unfit(kind, "a spectator owes no decision")
    decision = decision_from_message(message)
    order = () if observation is None else observation.order
    hand = None if observation is None else observation.hand
    if isinstance(decision, PlayDecision):
        if not decision.sets and not decision.may_pass:
            raise _unfit(kind, "it has no legal answer (nothing to play, and no pass)")
        if decision.may_pass != (decision.to_beat is not None):
            raise _unfit(kind, "passing is allowed exactly when there is a set to beat")
        for card_set in decision.sets:
            _well_formed(kind, card_set)
        if decision.to_beat is not None:
            _well_formed(kind, decision.to_beat)
        if observation is not None:
            if hand is None:
                raise _unfit(kind, "a seat without cards is asked to play")
            if decision.to_beat != observation.to_beat:
                raise _unfit(kind, "its set to beat is not the one on the table")
            # Exactly the sets this hand may play, as the rules make them: a bot may rely
            # on the list being whole (a Jester set of all one's Jesters, say).
            if set(decision.sets) != set(playable_sets(hand, decision.to_beat)):
                raise _unfit(kind, "its sets are not the ones this seat's hand may play")
    elif isinstance(decision, TaxDecision):
        if len(decision.hand) < decision.count:
            raise _unfit(kind, "it has no legal answer (too few cards to pay the tax)")
        _seated(kind, order, decision.receiver)
    elif isinstance(decision, ExchangeDecision):
        _all_seated(kind, order, decision.merchants)
    elif isinstance(decision, PlacementDecision):
        past = [position for position in decision.positions if position > len(order)]
        if order and past:
            raise _unfit(kind, "a position is past the end of the table")
    return decision


# ---------------------------------------------------------------------- the snapshot


def check_game(game: dict[str, Any]) -> None:
    """A snapshot's ``game``: aligned lists, players who sit at the table."""
    kind = "snapshot"
    order = game["order"]
    _distinct(kind, "the order", order)
    _aligned(kind, order=order, scores=game["scores"], counts=game["counts"])
    if game["phase"] not in PHASES:
        raise _unfit(kind, f"no game is in phase {game['phase']!r}")
    for name in ("waiting", "passed", "out", "joining", "leaving"):
        _distinct(kind, name, game[name])
    # Between hands the last hand's `out` and trick may name a player already removed:
    # only who owes a decision and who leaves are held against the order.
    for name in ("waiting", "leaving"):
        _all_seated(kind, order, game[name])
    for player, card_set in game["trick"]:
        if type(player) is not int or not isinstance(card_set, dict):
            raise _unfit(kind, "a trick's entry is not [player, set]")
        _well_formed(kind, card_set_from(card_set))
    if game["to_beat"] is not None:
        _well_formed(kind, card_set_from(game["to_beat"]))
    if sum(game["counts"]) > c.FULL_DECK_SIZE:
        raise _unfit(kind, "the players hold more cards than a deck has")


# ---------------------------------------------------------------------- events


def check_told(event: dict[str, Any]) -> None:
    """An event that is told but not folded into the observation (a snapshot's
    ``hand_events``, or one out of its turn): it must at least fit itself, its lists
    aligned and its set a set, for a front end to tell it."""
    kind = event["type"]
    if kind in _TOLD_CHECKS:
        _EVENT_CHECKS[kind](kind, event, _NOTHING_YET)
    elif kind == "played":
        _well_formed(kind, card_set_from(event["set"]))


def check_event(message: Message, observation: Observation | None) -> None:
    """An event message (already known to be the next one) against the observation it
    is about to be folded into."""
    kind = message["type"]
    check = _EVENT_CHECKS.get(kind)
    if check is not None:
        check(kind, message, observation if observation is not None else _NOTHING_YET)


_NOTHING_YET = Observation(None)
"""What a client knows before its first event (read only): no order, no hand."""


def _order_event(kind: str, m: Message, o: Observation) -> None:
    _distinct(kind, "the order", m["order"])
    if kind == "roles_mirrored" and o.order and sorted(m["order"]) != sorted(o.order):
        raise _unfit(kind, "it seats other players than the table's")


def _seating_draw(kind: str, m: Message, o: Observation) -> None:
    _distinct(kind, "the draw", [player for player, _ in m["draws"]])
    if any(card not in c.CARDS for _, card in m["draws"]):
        raise _unfit(kind, "a card drawn is no card of the deck")


def _hand_started(kind: str, m: Message, o: Observation) -> None:
    _distinct(kind, "the order", m["order"])
    _aligned(kind, order=m["order"], scores=m["scores"])


def _joining(kind: str, m: Message, o: Observation) -> None:
    player = m["player"]
    if player in o.joining or player in o.order:
        raise _unfit(kind, f"player {player} is already at the table")


def _leaving(kind: str, m: Message, o: Observation) -> None:
    player = m["player"]
    if player in o.leaving or (player not in o.joining and o.order and player not in o.order):
        raise _unfit(kind, f"player {player} cannot leave")


def _placed(kind: str, m: Message, o: Observation) -> None:
    if m["player"] in o.order:
        raise _unfit(kind, f"player {m['player']} is already seated")
    if m["position"] > len(o.order):
        raise _unfit(kind, "the position is past the end of the table")


def _misdeal(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m.get("intended"), m.get("peon"), m.get("receiver"))
    if kind == "misdeal_replacement" and len(o.transfers) >= MAX_TRANSFERS:
        raise _unfit(kind, "more cards moved this hand than a hand has transfers")


def _dealt(kind: str, m: Message, o: Observation) -> None:
    if o.viewer is not None and m["player"] != o.viewer:
        raise _unfit(kind, "another seat's cards were sent here")


def _deal_finished(kind: str, m: Message, o: Observation) -> None:
    _aligned(kind, order=o.order, counts=m["counts"])
    if sum(m["counts"]) > c.FULL_DECK_SIZE:
        raise _unfit(kind, "the players hold more cards than a deck has")


def _one_player(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m["player"])


def _tax_paid(kind: str, m: Message, o: Observation) -> None:
    giver, receiver = m["giver"], m["receiver"]
    if giver == receiver or giver not in o.counts or receiver not in o.counts:
        raise _unfit(kind, "its giver and receiver are not two players holding cards")
    if o.counts[giver] < m["count"]:
        raise _unfit(kind, "the giver holds fewer cards than the tax")
    if len(o.gifts) >= MAX_GIFTS:
        raise _unfit(kind, "more taxes were paid this hand than a hand has")


def _tax_cards(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m["giver"], m["receiver"])
    if len(o.transfers) >= MAX_TRANSFERS:
        raise _unfit(kind, "more cards moved this hand than a hand has transfers")
    if m["giver"] == o.viewer:
        _holds(kind, o.hand, m["cards"], "the giver's")


def _exchanged(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m["giver"], m["other"])
    if len(o.gifts) >= MAX_GIFTS:
        raise _unfit(kind, "more exchanges were made this hand than a hand has")


def _exchange_cards(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m["giver"], m["other"])
    if len(o.transfers) >= MAX_TRANSFERS:
        raise _unfit(kind, "more cards moved this hand than a hand has transfers")
    if o.viewer == m["giver"]:
        _holds(kind, o.hand, (m["given"],), "the giver's")
    elif o.viewer == m["other"]:
        _holds(kind, o.hand, (m["received"],), "the other Merchant's")


def _waiting(kind: str, m: Message, o: Observation) -> None:
    _distinct(kind, "its players", m["players"])
    _all_seated(kind, o.order, m["players"])


def _played(kind: str, m: Message, o: Observation) -> None:
    player, card_set = m["player"], card_set_from(m["set"])
    _seated(kind, o.order, player)
    _well_formed(kind, card_set)
    held = o.counts.get(player)
    if held is None or held - card_set.count != m["remaining"]:
        # Every play takes its cards from the count the deal (and the taxes) left: this
        # is also what bounds a trick, however long a host makes it.
        raise _unfit(kind, f"player {player} does not hold {card_set.count} more cards")
    if o.to_beat is not None and not card_set.beats(o.to_beat):
        raise _unfit(kind, f"{card_set} does not beat {o.to_beat}")
    if player == o.viewer:
        _holds(kind, o.hand, card_set.cards(), "the player's")


def _passed(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m["player"])
    if o.to_beat is None or m["player"] in o.passed:
        # A pass answers a play, once: this bounds a trick's passes as plays bound it.
        raise _unfit(kind, f"player {m['player']} has nothing to pass on")


def _went_out(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m["player"])
    if m["player"] in o.out:
        raise _unfit(kind, f"player {m['player']} is already out")


def _trick_won(kind: str, m: Message, o: Observation) -> None:
    _seated(kind, o.order, m["winner"], m["leader"])


def _hand_ended(kind: str, m: Message, o: Observation) -> None:
    _distinct(kind, "the finishing order", m["finishing"])
    _aligned(
        kind, finishing=m["finishing"], points=m["points"], bonus=m["bonus"], scores=m["scores"]
    )


def _table_ended(kind: str, m: Message, o: Observation) -> None:
    _distinct(kind, "the standings", [row[0] for row in m["standings"]])


_EVENT_CHECKS = {
    "seating_draw": _seating_draw,
    "seating_settled": _order_event,
    "roles_mirrored": _order_event,
    "hand_started": _hand_started,
    "player_joining": _joining,
    "player_leaving": _leaving,
    "newcomer_placed": _placed,
    "misdeal_exposed": _misdeal,
    "misdeal_resolved": _misdeal,
    "misdeal_replacement": _misdeal,
    "cards_dealt": _dealt,
    "deal_finished": _deal_finished,
    "revolution_declared": _one_player,
    "tax_paid": _tax_paid,
    "tax_cards": _tax_cards,
    "merchant_exchanged": _exchanged,
    "merchant_exchange_cards": _exchange_cards,
    "merchant_exchange_declined": _one_player,
    "waiting": _waiting,
    "played": _played,
    "passed": _passed,
    "trick_won": _trick_won,
    "went_out": _went_out,
    "hand_ended": _hand_ended,
    "table_ended": _table_ended,
}

_TOLD_CHECKS = frozenset(
    (
        "seating_draw",
        "hand_started",
        "hand_ended",
        "seating_settled",
        "roles_mirrored",
        "table_ended",
        "waiting",
    )
)
