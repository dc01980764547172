"""One chooser per decision the host can ask for: intents in, an action or an explanation out.

A chooser is pure: it holds the selection of the decision owed, says what to show (prompt,
selection, which cards are picked, the legal sets in order) and turns a selecting intent
(``client/model/intents.py``: point at a card, pick or drop one, pick a legal set, commit)
into a ``Result``: nothing, a changed selection, an ``Action`` to send, or a sentence saying
why the selection cannot be sent. Every check here repeats one the host makes, so an
illegal choice is explained before it leaves the client (the host's own refusal is still
shown if it comes). No key is named here: each front end maps its input to intents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine import (
    JESTER,
    Action,
    CardSet,
    Decision,
    actions,
)
from ...engine.actions import legal_answers
from ...engine.cards import JESTERS_IN_DECK, Counts, counts_of
from ...lang.i18n import N_, Nn_, Translator
from ...lang.words import card_label, describe_cards, describe_set
from .intents import (
    Answer,
    Commit,
    CycleJesters,
    DropCard,
    Intent,
    PickCard,
    PickMerchant,
    PickPosition,
    PickSet,
    PointAt,
)


@dataclass(frozen=True)
class Problem:
    """Why a choice cannot be sent: marked text and the values for its placeholders."""

    text: str | tuple[str, str]
    """Marked with ``N_``, or a count's sentence marked with ``Nn_`` (told in the plural
    form its ``n`` (else ``count``) value calls for)."""
    values: dict[str, object] = field(default_factory=dict)

    def show(self, t: Translator) -> str:
        if isinstance(self.text, tuple):
            count = self.values.get("n", self.values.get("count"))
            assert isinstance(count, int)
            return t.n_(*self.text, count).format(**self.values)
        return t._(self.text).format(**self.values)


@dataclass(frozen=True)
class Result:
    handled: bool = True
    action: Action | None = None
    request: dict[str, Any] | None = None
    """A lobby request (not a game action) to send."""
    problem: Problem | None = None


IGNORED = Result(handled=False)
CHANGED = Result()


@dataclass
class Names:
    """How the chooser names players: id -> display name, with the viewer as 'you'."""

    names: dict[int, str] = field(default_factory=dict)

    def __call__(self, player: int) -> str:
        return self.names.get(player, f"#{player}")


NOT_AN_ANSWER = N_("That is not an answer you may give now.")


class Chooser:
    """The shared surface; subclasses answer one decision kind."""

    kind = ""
    """play, taxes, revolution, misdeal, exchange or placement (the typed view's)."""
    decision: Decision

    def apply(self, intent: Intent) -> Result:
        """A selecting intent, ``Commit`` or ``Answer``: what it does to this decision."""
        if isinstance(intent, Answer):
            return self.answer(intent.action)
        if isinstance(intent, Commit):
            return self.commit()
        return self.select(intent)

    def select(self, intent: Intent) -> Result:
        return IGNORED

    def commit(self) -> Result:
        return IGNORED

    def answer(self, action: Action) -> Result:
        """``action`` if it is a legal answer, else why not."""
        if isinstance(action, actions.GiveTax):
            action = actions.GiveTax(tuple(sorted(action.cards)))
        if action in legal_answers(self.decision):
            return Result(action=action)
        return Result(problem=self.explain_answer(action))

    def explain_answer(self, action: Action) -> Problem:
        return Problem(NOT_AN_ANSWER)

    def prompt(self, t: Translator, name: Names) -> str:
        raise NotImplementedError

    def selection(self, t: Translator, name: Names) -> str:
        """The current choice in words ('' when there is nothing to choose)."""
        return ""

    def groups(self) -> list[tuple[int, int]] | None:
        """(card, how many) to show as the hand while choosing, or None for the own hand."""
        return None

    @property
    def cursor_card(self) -> int | None:
        return None

    def picked(self) -> dict[int, int]:
        """Cards picked so far, by card."""
        return {}


def _groups_of(hand: Counts) -> list[tuple[int, int]]:
    return [(card, hand[card]) for card in range(1, JESTER + 1) if hand[card] > 0]


def _likely_gift(groups: list[tuple[int, int]]) -> int:
    """Where a card-giving cursor starts: the worst card that is not a Jester (a Dalmuti
    gives their Peon what they can spare), or the Jesters when nothing else is held."""
    ranks = [index for index, (card, _) in enumerate(groups) if card != JESTER]
    return ranks[-1] if ranks else 0


# --------------------------------------------------------------------------- play


class PlayChooser(Chooser):
    """Pick a rank, how many of it, how many Jesters to add; play it or pass (rule 9).

    Moving to a rank on a follow sizes the set to the set to beat, adding Jesters when
    the rank alone is short; on a lead it takes every card of the rank.
    """

    kind = "play"
    decision: actions.PlayDecision

    def __init__(self, decision: actions.PlayDecision, hand: Counts) -> None:
        self.decision = decision
        self.hand = hand
        self._groups = _groups_of(hand)
        self.index = 0
        self.natural = 0
        self.jesters = 0
        self.offers = self._sensible_order()
        """The legal sets in the order ``Tab`` offers them; the first is selected at once."""
        start = self.offers[0] if self.offers else None
        if start is not None:
            self._select_set(start)
        elif self._groups:
            self._move_to(len(self._groups) - 1)

    @property
    def held_jesters(self) -> int:
        return self.hand[JESTER]

    @property
    def cursor_card(self) -> int | None:
        return self._groups[self.index][0] if self._groups else None

    def groups(self) -> list[tuple[int, int]] | None:
        return self._groups

    @property
    def must_pass(self) -> bool:
        """Nothing in hand beats the table: passing is the one answer, nothing to choose."""
        return not self.decision.sets and self.decision.may_pass

    def picked(self) -> dict[int, int]:
        card = self.cursor_card
        if card is None or self.must_pass:
            return {}
        if card == JESTER:
            return {JESTER: self.natural}
        picked = {card: self.natural}
        if self.jesters:
            picked[JESTER] = self.jesters
        return picked

    def current(self) -> CardSet | None:
        card = self.cursor_card
        if card is None or self.natural == 0:
            return None
        if card == JESTER:
            return CardSet(JESTER, self.natural, self.natural)
        return CardSet(card, self.natural + self.jesters, self.jesters)

    def _sensible_order(self) -> list[CardSet]:
        """Whole ranks without Jesters first (nothing split, nothing wasted), then parts of
        a rank, then sets that spend Jesters; within each, the worst rank first (the
        cheapest way to stay in the trick)."""

        def kind(card_set: CardSet) -> int:
            if card_set.jesters or card_set.rank == JESTER:
                return 2
            return 0 if card_set.count == self.hand[card_set.rank] else 1

        return sorted(self.decision.sets, key=lambda s: (kind(s), -s.rank, -s.count))

    def _select_set(self, card_set: CardSet) -> None:
        for index, (card, _) in enumerate(self._groups):
            if card == card_set.rank:
                self.index = index
        if card_set.rank == JESTER:
            self.natural, self.jesters = card_set.count, 0
        else:
            self.natural, self.jesters = card_set.count - card_set.jesters, card_set.jesters

    def _move_to(self, index: int) -> None:
        self.index = index
        card, held = self._groups[index]
        to_beat = self.decision.to_beat
        if card == JESTER:
            wanted = to_beat.count if to_beat is not None else held
            self.natural, self.jesters = min(held, wanted), 0
            return
        if to_beat is None:
            self.natural, self.jesters = held, 0
            return
        self.natural = min(held, to_beat.count)
        short = to_beat.count - self.natural
        self.jesters = short if short <= min(self.held_jesters, JESTERS_IN_DECK) else 0

    def select(self, intent: Intent) -> Result:
        groups = [card for card, _ in self._groups]
        if isinstance(intent, PickSet):
            if not 0 <= intent.index < len(self.offers):
                return IGNORED
            self._select_set(self.offers[intent.index])
            return CHANGED
        card = getattr(intent, "card", None)
        if not groups or (card is not None and card not in groups):
            return IGNORED
        held = self._groups[self.index][1]
        if isinstance(intent, PointAt):
            self._move_to(groups.index(intent.card))
        elif isinstance(intent, PickCard) and intent.card == self.cursor_card:
            self.natural = min(held, self.natural + 1)
        elif isinstance(intent, DropCard) and intent.card == self.cursor_card:
            self.natural = max(1, self.natural - 1)
        elif isinstance(intent, PickCard) and intent.card == JESTER:
            most = min(self.held_jesters, JESTERS_IN_DECK)
            if self.jesters >= most:
                return Result(problem=Problem(N_("You have no more of that card.")))
            self.jesters += 1
        elif isinstance(intent, DropCard) and intent.card == JESTER:
            self.jesters = max(0, self.jesters - 1)
        elif isinstance(intent, PickCard):
            self._move_to(groups.index(intent.card))
        elif isinstance(intent, CycleJesters):
            return self._cycle_jesters()
        else:
            return IGNORED
        return CHANGED

    def _cycle_jesters(self) -> Result:
        if self.cursor_card == JESTER:
            return Result(
                problem=Problem(
                    N_("These are the Jesters themselves; pick another rank to add Jesters to it.")
                )
            )
        most = min(self.held_jesters, JESTERS_IN_DECK)
        if most == 0:
            return Result(problem=Problem(N_("You hold no Jester.")))
        self.jesters = (self.jesters + 1) % (most + 1)
        return CHANGED

    @property
    def set_index(self) -> int | None:
        """Which of the legal sets offered is selected (None: none of them)."""
        current = self.current()
        return self.offers.index(current) if current in self.offers else None

    def answer(self, action: Action) -> Result:
        if isinstance(action, actions.Pass):
            return self._pass()
        if isinstance(action, actions.Play):
            return self._play(action.set)
        return super().answer(action)

    def commit(self) -> Result:
        return self._play(self.current())

    def _pass(self) -> Result:
        if not self.decision.may_pass:
            return Result(
                problem=Problem(N_("You lead this trick: you must play a set, not pass."))
            )
        return Result(action=actions.Pass())

    def _play(self, chosen: CardSet | None) -> Result:
        if chosen is None:
            return Result(problem=Problem(N_("Choose a set first.")))
        if chosen in self.decision.sets:
            return Result(action=actions.Play(chosen))
        return Result(problem=self.explain(chosen))

    def explain(self, chosen: CardSet) -> Problem:
        """Why ``chosen`` may not be played now."""
        to_beat = self.decision.to_beat
        if not self.decision.sets:
            return Problem(N_("You have no set that beats the table: pass."))
        if to_beat is None:
            return Problem(N_("That set is not one you may play now."))
        if chosen.count != to_beat.count and to_beat.count == 1:
            return Problem(
                N_("The set to beat is a single card; yours has {have}."),
                {"have": chosen.count},
            )
        if chosen.count != to_beat.count:
            return Problem(
                N_("The set to beat has {need} cards; yours has {have}."),
                {"need": to_beat.count, "have": chosen.count},
            )
        if chosen.rank == JESTER:
            return Problem(
                N_("Jesters alone count as 13: they never beat a set, they only lead (rule 2).")
            )
        if chosen.rank >= to_beat.rank:
            return Problem(
                N_("Your rank must be better (lower) than {rank} to beat it."),
                {"rank": to_beat.rank},
            )
        return Problem(N_("That set is not one you may play now."))

    def prompt(self, t: Translator, name: Names) -> str:
        to_beat = self.decision.to_beat
        if to_beat is None:
            return t._("Your lead: play any set.")
        beat = describe_set(t, to_beat)
        if not self.decision.sets:
            return t._("Nothing of yours beats {set}: pass.").format(set=beat)
        return t.n_(
            "Beat {set} with {n} better card, or pass.",
            "Beat {set} with {n} better cards, or pass.",
            to_beat.count,
        ).format(set=beat, n=to_beat.count)

    def selection(self, t: Translator, name: Names) -> str:
        chosen = self.current()
        if chosen is None or self.must_pass:
            return ""
        verdict = t._("legal") if chosen in self.decision.sets else t._("not legal")
        return t._("Selected: {set} ({verdict})").format(
            set=describe_set(t, chosen), verdict=verdict
        )


# --------------------------------------------------------------------------- taxes


class TaxChooser(Chooser):
    """The Greater or Lesser Dalmuti picks the cards they give their Peon (rule 8)."""

    kind = "taxes"
    decision: actions.TaxDecision

    def __init__(self, decision: actions.TaxDecision) -> None:
        self.decision = decision
        self._groups = _groups_of(counts_of(decision.hand))
        self.index = _likely_gift(self._groups)
        self.chosen: dict[int, int] = {}

    @property
    def cursor_card(self) -> int | None:
        return self._groups[self.index][0] if self._groups else None

    def groups(self) -> list[tuple[int, int]] | None:
        return self._groups

    def picked(self) -> dict[int, int]:
        return {card: n for card, n in self.chosen.items() if n}

    @property
    def total(self) -> int:
        return sum(self.chosen.values())

    def select(self, intent: Intent) -> Result:
        groups = [card for card, _ in self._groups]
        if not isinstance(intent, PointAt | PickCard | DropCard) or intent.card not in groups:
            return IGNORED
        self.index = groups.index(intent.card)
        card, held = self._groups[self.index]
        if isinstance(intent, PickCard):
            if self.total >= self.decision.count:
                return Result(
                    problem=Problem(N_("You have already chosen enough cards; take one back."))
                )
            if self.chosen.get(card, 0) >= held:
                return Result(problem=Problem(N_("You have no more of that card.")))
            self.chosen[card] = self.chosen.get(card, 0) + 1
        elif isinstance(intent, DropCard) and self.chosen.get(card, 0):
            self.chosen[card] -= 1
        return CHANGED

    def commit(self) -> Result:
        if self.total != self.decision.count:
            return Result(problem=self._how_many())
        cards = tuple(card for card, n in sorted(self.chosen.items()) for _ in range(n))
        return Result(action=actions.GiveTax(cards))

    def _how_many(self) -> Problem:
        return Problem(
            Nn_(
                "Choose exactly {count} card to give; you have chosen {chosen}.",
                "Choose exactly {count} cards to give; you have chosen {chosen}.",
            ),
            {"count": self.decision.count, "chosen": self.total},
        )

    def explain_answer(self, action: Action) -> Problem:
        if isinstance(action, actions.GiveTax) and len(action.cards) != self.decision.count:
            return Problem(
                Nn_(
                    "Choose exactly {count} card to give; you have chosen {chosen}.",
                    "Choose exactly {count} cards to give; you have chosen {chosen}.",
                ),
                {"count": self.decision.count, "chosen": len(action.cards)},
            )
        return super().explain_answer(action)

    def prompt(self, t: Translator, name: Names) -> str:
        return t.n_(
            "Taxes: give {count} card of your choice to {peon}.",
            "Taxes: give {count} cards of your choice to {peon}.",
            self.decision.count,
        ).format(count=self.decision.count, peon=name(self.decision.receiver))

    def selection(self, t: Translator, name: Names) -> str:
        cards = [card for card, n in self.chosen.items() for _ in range(n)]
        chosen = describe_cards(t, cards) if cards else t._("nothing yet")
        return t._("To give: {cards} ({chosen} of {count})").format(
            cards=chosen, chosen=self.total, count=self.decision.count
        )


# --------------------------------------------------------------------------- revolution


class RevolutionChooser(Chooser):
    """You hold both Jesters: declare a revolution or not (rule 7)."""

    kind = "revolution"
    decision: actions.RevolutionDecision

    def __init__(self, decision: actions.RevolutionDecision) -> None:
        self.decision = decision

    def prompt(self, t: Translator, name: Names) -> str:
        if self.decision.greater:
            return t._(
                "You hold both Jesters and you are the Greater Peon: declare a Greater "
                "Revolution? Everyone swaps roles with their opposite and there are no taxes."
            )
        return t._("You hold both Jesters: declare a revolution? There will be no taxes this hand.")


# --------------------------------------------------------------------------- misdeal


class MisdealChooser(Chooser):
    """Greater Dalmuti: the exposed card goes to its intended receiver or the GP (rule 18)."""

    kind = "misdeal"
    decision: actions.MisdealDecision

    def __init__(self, decision: actions.MisdealDecision) -> None:
        self.decision = decision

    def prompt(self, t: Translator, name: Names) -> str:
        return t._(
            "Misdeal: {card} was exposed while dealing to {intended}. Does it go to "
            "{intended}, or to {peon}, who then gives {intended} a random card instead?"
        ).format(
            card=card_label(t, self.decision.card),
            intended=name(self.decision.intended),
            peon=name(self.decision.peon),
        )


# --------------------------------------------------------------------------- merchant exchange


class ExchangeChooser(Chooser):
    """Top Merchant: decline, or give another Merchant one card for a random one (rule 17)."""

    kind = "exchange"
    decision: actions.ExchangeDecision

    def __init__(self, decision: actions.ExchangeDecision, hand: Counts | None) -> None:
        self.decision = decision
        self.merchant_index = 0
        givable = set(decision.cards)
        held = hand if hand is not None else counts_of(decision.cards)
        self._groups = [(card, n) for card, n in _groups_of(held) if card in givable]
        self.card_index = _likely_gift(self._groups)

    @property
    def merchant(self) -> int | None:
        merchants = self.decision.merchants
        return merchants[self.merchant_index] if merchants else None

    @property
    def cursor_card(self) -> int | None:
        return self._groups[self.card_index][0] if self._groups else None

    def groups(self) -> list[tuple[int, int]] | None:
        return self._groups

    def picked(self) -> dict[int, int]:
        card = self.cursor_card
        return {} if card is None else {card: 1}

    def select(self, intent: Intent) -> Result:
        merchants = self.decision.merchants
        cards = [card for card, _ in self._groups]
        if isinstance(intent, PickMerchant) and intent.player in merchants:
            self.merchant_index = merchants.index(intent.player)
        elif isinstance(intent, PointAt | PickCard) and intent.card in cards:
            self.card_index = cards.index(intent.card)
        else:
            return IGNORED
        return CHANGED

    def commit(self) -> Result:
        if self.merchant is None or self.cursor_card is None:
            return Result(problem=Problem(N_("There is nobody to exchange with: decline.")))
        return Result(action=actions.MerchantExchange(self.merchant, self.cursor_card))

    def prompt(self, t: Translator, name: Names) -> str:
        return t._(
            "Merchant exchange: give another Merchant one card and draw one at random "
            "from their hand, or decline."
        )

    def selection(self, t: Translator, name: Names) -> str:
        if self.merchant is None or self.cursor_card is None:
            return ""
        return t._("Give {card} to {merchant}").format(
            card=card_label(t, self.cursor_card), merchant=name(self.merchant)
        )


# --------------------------------------------------------------------------- placement


class PlacementChooser(Chooser):
    """Greater Dalmuti: where the newcomer sits among the Merchants (rule 12)."""

    kind = "placement"
    decision: actions.PlacementDecision

    def __init__(self, decision: actions.PlacementDecision, order: tuple[int, ...]) -> None:
        self.decision = decision
        self.order = order
        self.index = 0

    @property
    def position(self) -> int:
        return self.decision.positions[self.index]

    def preview(self) -> tuple[int, ...]:
        """The seating, GD first, with the newcomer at the chosen position."""
        order = tuple(p for p in self.order if p != self.decision.newcomer)
        return (*order[: self.position], self.decision.newcomer, *order[self.position :])

    def select(self, intent: Intent) -> Result:
        if not isinstance(intent, PickPosition) or not (
            0 <= intent.index < len(self.decision.positions)
        ):
            return IGNORED
        self.index = intent.index
        return CHANGED

    def commit(self) -> Result:
        return Result(action=actions.PlaceNewcomer(self.position))

    def prompt(self, t: Translator, name: Names) -> str:
        return t._("{newcomer} joins as a Merchant: choose where they sit.").format(
            newcomer=name(self.decision.newcomer)
        )

    def selection(self, t: Translator, name: Names) -> str:
        seating = " › ".join(
            f"[{name(p)}]" if p == self.decision.newcomer else name(p) for p in self.preview()
        )
        return t._("Seating: {seating}").format(seating=seating)


def whole_answers(chooser: Chooser) -> list[tuple[str, Action]]:
    """The answers given whole, with one tap or word (each label marked with ``N_``):
    passing, declaring a revolution or not, the misdeal's two, declining an exchange."""
    if isinstance(chooser, PlayChooser):
        return [(N_("pass"), actions.Pass())] if chooser.decision.may_pass else []
    if isinstance(chooser, RevolutionChooser):
        return [
            (N_("declare"), actions.DeclareRevolution(True)),
            (N_("do not declare"), actions.DeclareRevolution(False)),
        ]
    if isinstance(chooser, MisdealChooser):
        return [
            (N_("to the intended player"), actions.DecideMisdeal(actions.MisdealChoice.INTENDED)),
            (N_("to the Greater Peon"), actions.DecideMisdeal(actions.MisdealChoice.PEON)),
        ]
    if isinstance(chooser, ExchangeChooser):
        return [(N_("decline"), actions.MerchantExchange(None, None))]
    return []


def chooser_for(decision: Decision, hand: Counts | None, order: tuple[int, ...]) -> Chooser:
    if isinstance(decision, actions.PlayDecision):
        return PlayChooser(decision, hand if hand is not None else counts_of(()))
    if isinstance(decision, actions.TaxDecision):
        return TaxChooser(decision)
    if isinstance(decision, actions.RevolutionDecision):
        return RevolutionChooser(decision)
    if isinstance(decision, actions.MisdealDecision):
        return MisdealChooser(decision)
    if isinstance(decision, actions.ExchangeDecision):
        return ExchangeChooser(decision, hand)
    return PlacementChooser(decision, order)
