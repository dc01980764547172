"""What happened, in sentences: host events, chat and errors for the log.

Each event is told from the viewer's side: the cards of a tax or exchange appear only
when the viewer saw them (rule 20), because only then does the host send them.
"""

from __future__ import annotations

from collections.abc import Callable

from ...engine import Event
from ...engine import events as ev
from .i18n import N_, Translator
from .words import card_label, describe_cards, describe_set

Namer = Callable[[int], str]

END_REASONS = {
    "hand_limit": N_("every hand has been played"),
    "host_ended": N_("the host player ended it"),
    "too_few_players": N_("too few players are left"),
}


def describe_event(t: Translator, event: Event, name: Namer, me: int | None) -> str | None:
    """One log line for ``event``, or ``None`` for events the log does not mention."""
    if isinstance(event, ev.HandStarted):
        if event.hand_limit is not None:
            return t._("Hand {hand} of {limit} begins.").format(
                hand=event.hand, limit=event.hand_limit
            )
        return t._("Hand {hand} begins.").format(hand=event.hand)
    if isinstance(event, ev.SeatingDraw):
        draws = ", ".join(f"{name(p)}: {card_label(t, card)}" for p, card in event.draws)
        return t._("Seating draw: {draws}").format(draws=draws)
    if isinstance(event, ev.SeatingSettled):
        return t._("{name} is the Greater Dalmuti.").format(name=name(event.order[0]))
    if isinstance(event, ev.PlayerJoining):
        return t._("{name} will join at the start of the next hand.").format(
            name=name(event.player)
        )
    if isinstance(event, ev.PlayerLeaving):
        return t._("{name} is leaving the table.").format(name=name(event.player))
    if isinstance(event, ev.NewcomerPlaced):
        return t._("{name} now sits in seat {seat}.").format(
            name=name(event.player), seat=event.position + 1
        )
    if isinstance(event, ev.MisdealExposed):
        return t._("Misdeal! {card} was exposed, dealt to {name}.").format(
            card=card_label(t, event.card), name=name(event.intended)
        )
    if isinstance(event, ev.MisdealResolved):
        goes_to = event.intended if event.choice == "intended" else event.peon
        return t._("The exposed card goes to {name}.").format(name=name(goes_to))
    if isinstance(event, ev.MisdealReplacement):
        return t._("{peon} gave {name} {card} in its place.").format(
            peon=name(event.peon), name=name(event.receiver), card=card_label(t, event.card)
        )
    if isinstance(event, ev.DealFinished):
        return t._("The cards are dealt.")
    if isinstance(event, ev.RevolutionDeclared):
        if event.greater:
            return t._("{name} declares a Greater Revolution! Roles are reversed.").format(
                name=name(event.player)
            )
        return t._("{name} declares a revolution: no taxes this hand.").format(
            name=name(event.player)
        )
    if isinstance(event, ev.TaxesSkipped):
        if event.reason == "first_deal":
            return t._("No taxes in the first hand.")
        return t._("No taxes this hand.")
    if isinstance(event, ev.TaxCards):
        if event.giver == me:
            return t._("You gave {name}: {cards}.").format(
                name=name(event.receiver), cards=describe_cards(t, event.cards)
            )
        return t._("{name} gave you: {cards}.").format(
            name=name(event.giver), cards=describe_cards(t, event.cards)
        )
    if isinstance(event, ev.TaxPaid):
        if me in (event.giver, event.receiver):
            return None  # the tax_cards line says it with the cards
        return t.n_(
            "{giver} gave {receiver} {n} card.", "{giver} gave {receiver} {n} cards.", event.count
        ).format(giver=name(event.giver), receiver=name(event.receiver), n=event.count)
    if isinstance(event, ev.MerchantExchangeDeclined):
        return t._("{name} declined the Merchant exchange.").format(name=name(event.player))
    if isinstance(event, ev.MerchantExchanged):
        if me in (event.giver, event.other):
            return None
        return t._("{giver} exchanged a card with {other}.").format(
            giver=name(event.giver), other=name(event.other)
        )
    if isinstance(event, ev.MerchantExchangeCards):
        return t._("Exchange: {giver} gave {given} to {other} and drew {received}.").format(
            giver=name(event.giver),
            other=name(event.other),
            given=card_label(t, event.given),
            received=card_label(t, event.received),
        )
    if isinstance(event, ev.Played):
        return t._("{name} plays {set}.").format(
            name=name(event.player), set=describe_set(t, event.set)
        )
    if isinstance(event, ev.Passed):
        return t._("{name} passes.").format(name=name(event.player))
    if isinstance(event, ev.TrickWon):
        return t._("{name} wins the trick; {leader} leads.").format(
            name=name(event.winner), leader=name(event.leader)
        )
    if isinstance(event, ev.WentOut):
        return t._("{name} is out, {place}.").format(
            name=name(event.player), place=t.ordinal(event.place)
        )
    if isinstance(event, ev.HandEnded):
        return t._("Hand {hand} is over. Next seating: {order}.").format(
            hand=event.hand, order=", ".join(name(p) for p in event.finishing)
        )
    if isinstance(event, ev.TableEnded):
        reason = t._(END_REASONS.get(event.reason, event.reason))
        return t._("The table is over: {reason}.").format(reason=reason)
    return None
