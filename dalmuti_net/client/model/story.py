"""What happened, in sentences: host events, chat and errors for the log; the trick in
progress as a story (who played what, who passed), kept for any front end to show.

Each event is told from the viewer's side, in the second person for the viewer ("You win
the trick; you lead."): the cards of a tax or exchange appear only when the viewer saw
them (rule 20), because only then does the host send them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...engine import CardSet, Event, Observation
from ...engine import events as ev
from ...lang.i18n import N_, Translator
from ...lang.words import card_label, describe_cards, describe_set

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
        draws = t.list_separator.join(
            t._("{name}: {card}").format(name=name(p), card=card_label(t, card))
            for p, card in event.draws
        )
        if event.round == 1:
            return t._(
                "Seating draw (the best card, the lowest, seats its player first): {draws}."
            ).format(draws=draws)
        return t._("A tie: {names} drew the same card, so they draw again: {draws}.").format(
            names=t.conjoined(name(p) for p, _ in event.draws), draws=draws
        )
    if isinstance(event, ev.SeatingSettled):
        if event.order[0] == me:
            return t._("You are the Greater Dalmuti.")
        return t._("{name} is the Greater Dalmuti.").format(name=name(event.order[0]))
    if isinstance(event, ev.PlayerJoining):
        if event.player == me:
            return t._("You will join at the start of the next hand.")
        return t._("{name} will join at the start of the next hand.").format(
            name=name(event.player)
        )
    if isinstance(event, ev.PlayerLeaving):
        if event.player == me:
            return t._("You are leaving the table.")
        return t._("{name} is leaving the table.").format(name=name(event.player))
    if isinstance(event, ev.NewcomerPlaced):
        if event.player == me:
            return t._("You now sit in seat {seat}.").format(seat=event.position + 1)
        return t._("{name} now sits in seat {seat}.").format(
            name=name(event.player), seat=event.position + 1
        )
    if isinstance(event, ev.MisdealExposed):
        if event.intended == me:
            return t._("Misdeal! {card} was exposed as it was dealt to you.").format(
                card=card_label(t, event.card)
            )
        return t._("Misdeal! {card} was exposed, dealt to {name}.").format(
            card=card_label(t, event.card), name=name(event.intended)
        )
    if isinstance(event, ev.MisdealResolved):
        goes_to = event.intended if event.choice == "intended" else event.peon
        if goes_to == me:
            return t._("The exposed card goes to you.")
        return t._("The exposed card goes to {name}.").format(name=name(goes_to))
    if isinstance(event, ev.MisdealReplacement):
        if event.peon == me:
            return t._("You gave {name} {card} in its place.").format(
                name=name(event.receiver), card=card_label(t, event.card)
            )
        if event.receiver == me:
            return t._("{peon} gave you {card} in its place.").format(
                peon=name(event.peon), card=card_label(t, event.card)
            )
        return t._("{peon} gave {name} {card} in its place.").format(
            peon=name(event.peon), name=name(event.receiver), card=card_label(t, event.card)
        )
    if isinstance(event, ev.DealFinished):
        return t._("The cards are dealt.")
    if isinstance(event, ev.RevolutionDeclared):
        if event.greater and event.player == me:
            return t._("You declare a Greater Revolution! Roles are reversed; no taxes.")
        if event.greater:
            return t._(
                "{name} declares a Greater Revolution! Roles are reversed; no taxes."
            ).format(name=name(event.player))
        if event.player == me:
            return t._("You declare a revolution: no taxes this hand.")
        return t._("{name} declares a revolution: no taxes this hand.").format(
            name=name(event.player)
        )
    if isinstance(event, ev.TaxesSkipped):
        if event.reason == "first_deal":
            return t._("No taxes in the first hand.")
        if event.reason == "revolution":
            return None  # the revolution's own line says so
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
        if event.player == me:
            return t._("You declined the Merchant exchange.")
        return t._("{name} declined the Merchant exchange.").format(name=name(event.player))
    if isinstance(event, ev.MerchantExchanged):
        if me in (event.giver, event.other):
            return None
        return t._("{giver} exchanged a card with {other}.").format(
            giver=name(event.giver), other=name(event.other)
        )
    if isinstance(event, ev.MerchantExchangeCards) and event.giver == me:
        return t._("Exchange: you gave {given} to {other} and drew {received}.").format(
            other=name(event.other),
            given=card_label(t, event.given),
            received=card_label(t, event.received),
        )
    if isinstance(event, ev.MerchantExchangeCards) and event.other == me:
        return t._("Exchange: {giver} gave you {given} and drew {received} from you.").format(
            giver=name(event.giver),
            given=card_label(t, event.given),
            received=card_label(t, event.received),
        )
    if isinstance(event, ev.MerchantExchangeCards):
        return t._("Exchange: {giver} gave {given} to {other} and drew {received}.").format(
            giver=name(event.giver),
            other=name(event.other),
            given=card_label(t, event.given),
            received=card_label(t, event.received),
        )
    if isinstance(event, ev.Played):
        if event.player == me:
            return t._("You play {set}.").format(set=describe_set(t, event.set))
        return t._("{name} plays {set}.").format(
            name=name(event.player), set=describe_set(t, event.set)
        )
    if isinstance(event, ev.Passed):
        if event.player == me:
            return t._("You pass.")
        return t._("{name} passes.").format(name=name(event.player))
    if isinstance(event, ev.TrickWon):
        return describe_trick_won(t, event, name, me)
    if isinstance(event, ev.WentOut):
        if event.player == me:
            return t._("You are out, {place}.").format(place=t.ordinal(event.place))
        return t._("{name} is out, {place}.").format(
            name=name(event.player), place=t.ordinal(event.place)
        )
    if isinstance(event, ev.HandEnded):
        return t._("Hand {hand} is over. Next seating: {order}.").format(
            hand=event.hand, order=t.list_separator.join(name(p) for p in event.finishing)
        )
    if isinstance(event, ev.TableEnded):
        reason = t._(END_REASONS.get(event.reason, event.reason))
        return t._("The table is over: {reason}.").format(reason=reason)
    return None


def describe_trick_won(t: Translator, event: ev.TrickWon, name: Namer, me: int | None) -> str:
    """``You win the trick; you lead.`` and the other three ways round."""
    if event.winner == me and event.leader == me:
        return t._("You win the trick; you lead.")
    if event.winner == me:
        return t._("You win the trick; {leader} leads.").format(leader=name(event.leader))
    if event.leader == me:
        return t._("{name} wins the trick; you lead.").format(name=name(event.winner))
    if event.winner == event.leader:
        return t._("{name} wins the trick and leads.").format(name=name(event.winner))
    return t._("{name} wins the trick; {leader} leads.").format(
        name=name(event.winner), leader=name(event.leader)
    )


# ----------------------------------------------------------------------------- the trick


@dataclass(frozen=True)
class TrickStep:
    """One turn of a trick: ``set`` played by ``player``, or ``None`` when they passed."""

    player: int
    set: CardSet | None


@dataclass
class TrickStory:
    """The trick in progress as it happened, and the last one, kept until the next lead.

    Fed every event the viewer sees (``feed``); ``sync`` rebuilds the plays from an
    observation after a snapshot (who passed before then is not in a snapshot).
    """

    steps: list[TrickStep] = field(default_factory=list)
    last: list[TrickStep] = field(default_factory=list)
    last_winner: int | None = None

    def feed(self, event: Event) -> None:
        if isinstance(event, ev.HandStarted):
            self.steps, self.last, self.last_winner = [], [], None
        elif isinstance(event, ev.Played):
            if not self.steps:  # a lead: the last trick has had its time
                self.last, self.last_winner = [], None
            self.steps.append(TrickStep(event.player, event.set))
        elif isinstance(event, ev.Passed):
            self.steps.append(TrickStep(event.player, None))
        elif isinstance(event, ev.TrickWon):
            self.last, self.last_winner = self.steps, event.winner
            self.steps = []
        elif isinstance(event, ev.HandEnded) and self.steps:
            plays = [step for step in self.steps if step.set is not None]
            self.last = self.steps
            self.last_winner = plays[-1].player if plays else None
            self.steps = []

    def sync(self, observation: Observation) -> None:
        plays = [(step.player, step.set) for step in self.steps if step.set is not None]
        if plays != observation.trick:
            self.steps = [TrickStep(player, card_set) for player, card_set in observation.trick]


def describe_step(t: Translator, step: TrickStep, name: Namer, me: int | None) -> str:
    """``Bo: Cook ×2``, ``You: Knight ×2``, ``Cy passes``, ``You pass``."""
    if step.set is None:
        return (
            t._("You pass")
            if step.player == me
            else t._("{name} passes").format(name=name(step.player))
        )
    if step.player == me:
        return t._("You: {set}").format(set=describe_set(t, step.set))
    return t._("{name}: {set}").format(name=name(step.player), set=describe_set(t, step.set))


def describe_last_trick(t: Translator, story: TrickStory, name: Namer, me: int | None) -> str:
    """Who took the last trick, for the line that keeps it visible until the next lead."""
    if story.last_winner is None:
        return t._("Last trick")
    if story.last_winner == me:
        return t._("Last trick, won by you")
    return t._("Last trick, won by {name}").format(name=name(story.last_winner))
