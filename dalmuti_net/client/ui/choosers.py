"""The terminal's keys for the decision being chosen: each key an intent of the model's
chooser (``client/model/choosers.py``), and the footer's hints, only for keys that do
something now."""

from __future__ import annotations

from ...engine import actions
from ...lang.i18n import N_
from ..model import intents as do
from ..model.choosers import (
    Chooser,
    ExchangeChooser,
    MisdealChooser,
    PlacementChooser,
    PlayChooser,
    RevolutionChooser,
    TaxChooser,
)
from .hints import Hint


def _neighbour(groups: list[tuple[int, int]] | None, card: int | None, step: int) -> int | None:
    cards = [held for held, _ in groups or []]
    if not cards:
        return None
    at = cards.index(card) if card in cards else 0
    return cards[(at + step) % len(cards)]


def _step(size: int, at: int | None, step: int) -> int:
    start = at if at is not None else (-1 if step > 0 else 0)
    return (start + step) % size


def key_intent(chooser: Chooser, key: str) -> do.Intent | None:
    """What ``key`` means for the decision being chosen (``None``: nothing)."""
    arrows = {"left": -1, "right": 1}
    if isinstance(chooser, PlayChooser):
        card = chooser.cursor_card
        if key in arrows and card is not None:
            target = _neighbour(chooser.groups(), card, arrows[key])
            return None if target is None else do.PointAt(target)
        if key in ("up", "+") and card is not None:
            return do.PickCard(card)
        if key in ("down", "-") and card is not None:
            return do.DropCard(card)
        if key in ("tab", "s-tab") and chooser.offers:
            step = 1 if key == "tab" else -1
            return do.PickSet(_step(len(chooser.offers), chooser.set_index, step))
        keys: dict[str, do.Intent] = {
            "j": do.CycleJesters(),
            "enter": do.Commit(),
            "p": do.Answer(actions.Pass()),
        }
        return keys.get(key)
    if isinstance(chooser, TaxChooser):
        card = chooser.cursor_card
        if card is None:
            return None
        if key in arrows:
            target = _neighbour(chooser.groups(), card, arrows[key])
            return None if target is None else do.PointAt(target)
        if key in ("up", "+", "space"):
            return do.PickCard(card)
        if key in ("down", "-", "backspace"):
            return do.DropCard(card)
        return do.Commit() if key == "enter" else None
    if isinstance(chooser, RevolutionChooser):
        answers = {"y": True, "n": False}
        return do.Answer(actions.DeclareRevolution(answers[key])) if key in answers else None
    if isinstance(chooser, MisdealChooser):
        choices = {"i": actions.MisdealChoice.INTENDED, "p": actions.MisdealChoice.PEON}
        return do.Answer(actions.DecideMisdeal(choices[key])) if key in choices else None
    if isinstance(chooser, ExchangeChooser):
        merchants = chooser.decision.merchants
        if key in ("up", "down") and merchants:
            at = _step(len(merchants), chooser.merchant_index, -1 if key == "up" else 1)
            return do.PickMerchant(merchants[at])
        if key in arrows:
            target = _neighbour(chooser.groups(), chooser.cursor_card, arrows[key])
            return None if target is None else do.PointAt(target)
        if key == "d":
            return do.Answer(actions.MerchantExchange(None, None))
        return do.Commit() if key == "enter" else None
    if isinstance(chooser, PlacementChooser):
        positions = chooser.decision.positions
        if key in ("left", "up", "right", "down"):
            step = -1 if key in ("left", "up") else 1
            return do.PickPosition(_step(len(positions), chooser.index, step))
        return do.Commit() if key == "enter" else None
    return None


def chooser_hints(chooser: Chooser) -> list[Hint]:
    """The keys of the decision being chosen that do something now: no Jesters key without
    a Jester to add, no choosing at all when passing is the only answer."""
    if isinstance(chooser, PlayChooser):
        if chooser.must_pass:
            return [Hint("p", N_("pass"))]
        hints = [Hint("←→", N_("rank")), Hint("↑↓", N_("how many"))]
        if chooser.held_jesters and len(chooser.groups() or ()) > 1:
            hints.append(Hint("j", N_("Jesters")))
        if len(chooser.decision.sets) > 1:
            hints.append(Hint("Tab", N_("next legal set")))
        hints.append(Hint("Enter", N_("play")))
        if chooser.decision.may_pass:
            hints.append(Hint("p", N_("pass")))
        return hints
    if isinstance(chooser, TaxChooser):
        return [
            Hint("←→", N_("card")),
            Hint(N_("↑/Space"), N_("add")),
            Hint("↓", N_("take back")),
            Hint("Enter", N_("give")),
        ]
    if isinstance(chooser, RevolutionChooser):
        return [Hint("y", N_("declare")), Hint("n", N_("do not declare"))]
    if isinstance(chooser, MisdealChooser):
        return [Hint("i", N_("to the intended player")), Hint("p", N_("to the Greater Peon"))]
    if isinstance(chooser, ExchangeChooser):
        return [
            Hint("↑↓", N_("Merchant")),
            Hint("←→", N_("card")),
            Hint("Enter", N_("exchange")),
            Hint("d", N_("decline")),
        ]
    return [Hint("←→", N_("position")), Hint("Enter", N_("seat them here"))]
