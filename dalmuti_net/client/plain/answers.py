"""A decision as a numbered list of its legal answers, and a typed line as one of them.

Every list is built from the engine's ``legal_answers`` (what the SDK's ``legal_actions``
gives bots), the one list of what the host accepts, so nothing here repeats a rule.
Decisions with many combined answers (the taxes, the Merchant exchange) are asked in
small steps: one card at a time, or the Merchant first and then the card, each step
narrowing the same legal list. Nothing here does I/O.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...engine import (
    JESTER,
    Action,
    CardSet,
    Decision,
    actions,
)
from ...engine.actions import legal_answers
from ...engine.cards import Counts
from ...lang.i18n import N_, Translator
from ...lang.numbers import decimal
from ...lang.words import card_label, describe_cards, describe_set
from ..model.choosers import Names, chooser_for

# Short words for an answer, "|"-separated: the English ones are always understood too.
PASS_WORDS = N_("pass|p")
YES_WORDS = N_("yes|y")
NO_WORDS = N_("no|n")
INTENDED_WORDS = N_("intended|i")
PEON_WORDS = N_("peon|p")
DECLINE_WORDS = N_("decline|d")
BACK_WORDS = N_("back|b")

HOW_TO_ANSWER = N_("Type a number from 1 to {n}, or help.")
HOW_TO_ANSWER_OR_BACK = N_("Type a number from 1 to {n}, {back} to choose again, or help.")
HOW_TO_CONFIRM = N_("Type a number from 1 to {n}, or {back} to go back.")
ONLY_ONE: dict[str, str] = {
    HOW_TO_ANSWER: N_("Type 1, or help."),
    HOW_TO_ANSWER_OR_BACK: N_("Type 1, {back} to choose again, or help."),
    HOW_TO_CONFIRM: N_("Type 1, or {back} to go back."),
}
"""The same when the list has one item (not "from 1 to 1")."""


def how_to_answer(t: Translator, template: str, n: int, **values: str) -> str:
    """How to answer a numbered list of ``n`` items (``template``: one of ``ONLY_ONE``)."""
    return t._(ONLY_ONE[template] if n == 1 else template).format(n=n, **values)


def words_for(t: Translator, marked: str) -> tuple[str, ...]:
    """The words a ``|``-separated marked string stands for, translated and in English."""
    found: list[str] = []
    for text in (t._(marked), marked):
        for word in text.split("|"):
            word = word.strip().casefold()
            if word and word not in found:
                found.append(word)
    return tuple(found)


def set_label(t: Translator, card_set: CardSet) -> str:
    """A set as the log words it, with its rank's number first (``9 Cook ×3``), as the
    hand is listed: the number is what beats what."""
    text = describe_set(t, card_set)
    return text if card_set.rank == JESTER else f"{card_set.rank} {text}"


@dataclass(frozen=True)
class Option:
    label: str
    """The answer in words, in the player's language."""
    action: Action | None = None
    """The answer to send; ``None`` for a step that narrows the choice."""
    step: object = None
    """What a narrowing step picks (a card, a Merchant)."""
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What a typed answer did: an action to send, a sentence why not, or a new step."""

    action: Action | None = None
    problem: str | None = None
    stepped: bool = False


@dataclass
class Question:
    """One decision owed, asked as numbered options, step by step where it needs steps."""

    t: Translator
    decision: Decision
    names: Names
    hand: Counts | None = None
    order: tuple[int, ...] = ()
    picked: list[object] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.legal: list[Action] = legal_answers(self.decision)

    # ------------------------------------------------------------------ what to show

    def prompt(self) -> str:
        """The decision's sentence (the table screen's own wording) and the step's."""
        t = self.t
        text = chooser_for(self.decision, self.hand, self.order).prompt(t, self.names)
        decision = self.decision
        if isinstance(decision, actions.TaxDecision):
            cards = [card for card in self.picked if isinstance(card, int)]
            chosen = describe_cards(t, cards) if cards else t._("nothing yet")
            text += " " + t._("To give: {cards} ({chosen} of {count})").format(
                cards=chosen, chosen=len(cards), count=decision.count
            )
            text += t._(".")  # the screen shows it on a line of its own: here, a sentence
            text += " " + t._("Choose card {k} of {count}.").format(
                k=len(cards) + 1, count=decision.count
            )
        elif isinstance(decision, actions.ExchangeDecision) and self.picked:
            other = self.picked[0]
            assert isinstance(other, int)
            text = t._("Which card do you give {name}?").format(name=self.names(other))
        return text

    def options(self) -> list[Option]:
        decision = self.decision
        if isinstance(decision, actions.TaxDecision):
            return self._tax_options(decision)
        if isinstance(decision, actions.ExchangeDecision):
            return self._exchange_options()
        return [self._option(action) for action in self.legal]

    def lines(self) -> list[str]:
        """The prompt, the numbered options and how to answer."""
        t = self.t
        options = self.options()
        lines = [self.prompt()]
        lines += [f"{number}. {option.label}" for number, option in enumerate(options, 1)]
        if self.picked:
            back = words_for(t, BACK_WORDS)[0]
            lines.append(how_to_answer(t, HOW_TO_ANSWER_OR_BACK, len(options), back=back))
        else:
            lines.append(how_to_answer(t, HOW_TO_ANSWER, len(options)))
        return lines

    # ------------------------------------------------------------------ answering

    def answer(self, text: str) -> Outcome:
        """A typed line: a number or a short word per step (``3 5`` answers two steps)."""
        tokens = text.split()
        if not tokens:
            return Outcome(problem=self._how())
        if len(tokens) > 1 and all(decimal(token) is not None for token in tokens):
            picked_before = list(self.picked)
            for index, token in enumerate(tokens):
                outcome = self.answer(token)
                if outcome.problem is not None or (
                    outcome.action is not None and index < len(tokens) - 1
                ):
                    self.picked = picked_before
                    return outcome if outcome.problem is not None else Outcome(problem=self._how())
                if outcome.action is not None:
                    return outcome
            return Outcome(stepped=True)
        word = " ".join(tokens).casefold()
        if self.picked and word in words_for(self.t, BACK_WORDS):
            self.picked.pop()
            return Outcome(stepped=True)
        options = self.options()
        chosen: Option | None = None
        number = decimal(word)
        if number is not None:
            if 1 <= number <= len(options):
                chosen = options[number - 1]
        else:
            chosen = next((option for option in options if word in option.words), None)
        if chosen is None:
            return Outcome(problem=self._how())
        if chosen.action is not None:
            return Outcome(action=chosen.action)
        self.picked.append(chosen.step)
        finished = self._finished()
        if finished is not None:
            return Outcome(action=finished)
        return Outcome(stepped=True)

    def _how(self) -> str:
        return how_to_answer(self.t, HOW_TO_ANSWER, len(self.options()))

    def _finished(self) -> Action | None:
        """The tax's answer once every card is picked."""
        decision = self.decision
        if isinstance(decision, actions.TaxDecision) and len(self.picked) == decision.count:
            wanted = Counter(self.picked)
            return next(
                a
                for a in self.legal
                if isinstance(a, actions.GiveTax) and Counter(a.cards) == wanted
            )
        return None

    # ------------------------------------------------------------------ the options

    def _option(self, action: Action) -> Option:
        t = self.t
        name = self.names
        if isinstance(action, actions.Pass):
            return Option(t._("pass"), action, words=words_for(t, PASS_WORDS))
        if isinstance(action, actions.Play):
            return Option(set_label(t, action.set), action)
        if isinstance(action, actions.DeclareRevolution):
            if action.declare:
                return Option(t._("declare"), action, words=words_for(t, YES_WORDS))
            return Option(t._("do not declare"), action, words=words_for(t, NO_WORDS))
        if isinstance(action, actions.DecideMisdeal):
            decision = self.decision
            assert isinstance(decision, actions.MisdealDecision)
            if action.choice is actions.MisdealChoice.INTENDED:
                label = t._("to the intended player, {name}").format(name=name(decision.intended))
                return Option(label, action, words=words_for(t, INTENDED_WORDS))
            label = t._("to the Greater Peon, {name}").format(name=name(decision.peon))
            return Option(label, action, words=words_for(t, PEON_WORDS))
        assert isinstance(action, actions.PlaceNewcomer)
        return Option(self._seat_label(action.position), action)

    def _seat_label(self, position: int) -> str:
        decision = self.decision
        assert isinstance(decision, actions.PlacementDecision)
        others = [p for p in self.order if p != decision.newcomer]
        before = others[position - 1] if 0 < position <= len(others) else None
        after = others[position] if position < len(others) else None
        t, name = self.t, self.names
        if before is not None and after is not None:
            return t._("between {before} and {after}").format(
                before=name(before), after=name(after)
            )
        if before is not None:
            return t._("last, after {before}").format(before=name(before))
        return t._("first, before {after}").format(after=name(after) if after is not None else "")

    def _tax_options(self, decision: actions.TaxDecision) -> list[Option]:
        picked = Counter(card for card in self.picked if isinstance(card, int))
        held = Counter(decision.hand)
        cards: set[int] = set()
        for action in self.legal:
            assert isinstance(action, actions.GiveTax)
            rest = Counter(action.cards) - picked
            if sum(rest.values()) == len(action.cards) - len(self.picked):
                cards.update(rest)
        t = self.t
        return [
            Option(
                t.n_(
                    "{card} (you hold {n})", "{card} (you hold {n})", held[card] - picked[card]
                ).format(card=card_label(t, card), n=held[card] - picked[card]),
                step=card,
            )
            for card in sorted(cards)
        ]

    def _exchange_options(self) -> list[Option]:
        t = self.t
        exchanges = [a for a in self.legal if isinstance(a, actions.MerchantExchange)]
        if not self.picked:
            options = [
                Option(t._("decline"), a, words=words_for(t, DECLINE_WORDS))
                for a in exchanges
                if a.other is None
            ]
            merchants = dict.fromkeys(a.other for a in exchanges if a.other is not None)
            options += [
                Option(t._("exchange with {name}").format(name=self.names(m)), step=m)
                for m in merchants
                if m is not None
            ]
            return options
        other = self.picked[0]
        by_card = {a.card: a for a in exchanges if a.other == other and a.card is not None}
        return [Option(card_label(t, card), a) for card, a in sorted(by_card.items())]
