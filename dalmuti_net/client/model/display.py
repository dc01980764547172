"""What a front end shows, from the client model, as frozen typed data (the typed view)."""

from __future__ import annotations

from ...lang.i18n import N_

PHASE_TEXT = {
    "dealing": N_("The cards are being dealt."),
    "placement": N_("The Greater Dalmuti is seating a newcomer."),
    "misdeal": N_("A misdeal: the Greater Dalmuti decides."),
    "revolution": N_("The holder of both Jesters may declare a revolution."),
    "taxes": N_("Taxes are being paid."),
    "play": N_("The table is empty."),
}
