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
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)


def default_move(decision: Decision) -> Action:
    if isinstance(decision, PlayDecision):
        if decision.may_pass:
            return Pass()
        worst = max(decision.sets, key=lambda s: (s.rank, -s.count, -s.jesters))
        return Play(worst)
    if isinstance(decision, TaxDecision):
        worst_first = sorted(decision.hand, key=lambda card: (card == JESTER, -card))
        return GiveTax(tuple(worst_first[: decision.count]))
    if isinstance(decision, ExchangeDecision):
        return MerchantExchange(None, None)
    if isinstance(decision, RevolutionDecision):
        return DeclareRevolution(False)
    if isinstance(decision, MisdealDecision):
        return DecideMisdeal(MisdealChoice.INTENDED)
    assert isinstance(decision, PlacementDecision)
    return PlaceNewcomer(decision.positions[0])
