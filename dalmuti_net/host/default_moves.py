"""The move the host makes for a player whose turn timer ran out (documented in PROTOCOL.md).

Pass when allowed, else the worst legal set (highest rank number, then fewest cards, then
fewest Jesters); tax the worst ranked cards (Jesters only if nothing else); no revolution;
decline the exchange; the misdeal card goes to its intended receiver; a newcomer takes the
first position offered.
"""

from __future__ import annotations

from ..engine import (
    JESTER,
    Action,
    Decision,
    actions,
)


def default_move(decision: Decision) -> Action:
    if isinstance(decision, actions.PlayDecision):
        if decision.may_pass:
            return actions.Pass()
        worst = max(decision.sets, key=lambda s: (s.rank, -s.count, -s.jesters))
        return actions.Play(worst)
    if isinstance(decision, actions.TaxDecision):
        worst_first = sorted(decision.hand, key=lambda card: (card == JESTER, -card))
        return actions.GiveTax(tuple(worst_first[: decision.count]))
    if isinstance(decision, actions.ExchangeDecision):
        return actions.MerchantExchange(None, None)
    if isinstance(decision, actions.RevolutionDecision):
        return actions.DeclareRevolution(False)
    if isinstance(decision, actions.MisdealDecision):
        return actions.DecideMisdeal(actions.MisdealChoice.INTENDED)
    assert isinstance(decision, actions.PlacementDecision)
    return actions.PlaceNewcomer(decision.positions[0])
