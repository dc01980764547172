"""Everything a person can do at the table, as typed data: the intents of the client model.

A front end turns its own input into these (the terminal's keys, the plain table's words,
the page's taps) and hands them to ``ClientModel.intend``, which checks each against what
the client knows, explains an impossible one in the viewer's language before anything is
sent, and builds the request: once, for every front end. No intent names a key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine import Action


@dataclass(frozen=True)
class _Bare:
    """An intent that needs nothing more said."""


@dataclass(frozen=True)
class _OfPlayer:
    player: int


@dataclass(frozen=True)
class _OfCard:
    card: int


@dataclass(frozen=True)
class _OfIndex:
    index: int
    """Of the list the typed view offers, from 0."""


@dataclass(frozen=True)
class _OfText:
    text: str
    """As the person typed it."""


@dataclass(frozen=True)
class _Switch:
    on: bool | None = None
    """``None`` turns it over."""


# ----------------------------------------------------------------------------- the lobby


class Ready(_Switch):
    """Say ready (or not); between hands: the results are read."""


@dataclass(frozen=True)
class Start:
    """The host player starts the table; ``anyway``: even with people not ready."""

    anyway: bool = False


@dataclass(frozen=True)
class AddBot:
    strategy: str | None = None
    """One of ``bots.names.LOBBY_STRATEGIES``; None: the model asks which (a question
    with a choice for each)."""


class RemoveBot(_OfPlayer):
    pass


class Kick(_OfPlayer):
    pass


@dataclass(frozen=True)
class SetRule:
    """Set a rule option or one of the table's clocks to ``value``, in the menu's units: a
    bool, a number of hands (``None``: no limit), a chance from 0 to 1, seconds (the turn
    timer's ``None``: none). ``client/model/rules_menu.py`` names the options; ``TypeRule``
    takes ``text`` as typed (``12``, ``20%``, ``45 s``, empty); ``StepRule`` takes ``up``,
    the option's next value up or down."""

    key: str
    value: Any


@dataclass(frozen=True)
class TypeRule:
    key: str
    text: str


@dataclass(frozen=True)
class StepRule:
    key: str
    up: bool


# ----------------------------------------------------------------------------- at the table


class Chat(_OfText):
    pass


class AutoPass(_Switch):
    """Pass by itself where nothing beats the table. Turned off in auto-pass's pause, the
    decision is the player's again."""


class Nudge(_Bare):
    """The host player nudges whoever the table waits for."""


@dataclass(frozen=True)
class Skip:
    """The host player has the default move made for whoever the table waits for (asked
    first; ``player``: straight away, for that player)."""

    player: int | None = None


class Rematch(_Bare):
    """The host player offers a rematch once the table ended."""


class CloseResults(_Bare):
    """The hand's results read: back to the table (or, after the last, the standings)."""


class Exit(_Bare):
    """Quit this program: at a table being played, asks first what quitting means."""


@dataclass(frozen=True)
class Choose:
    """The answer to the open question (quit, leave, skip, start anyway...) or a refusal's
    choice: one of the ``action`` names the view offers; ``back`` closes a question."""

    action: str


# ----------------------------------------------------------------------------- the decision


@dataclass(frozen=True)
class Answer:
    """Answer the decision owed with this action (checked against its legal answers)."""

    action: Action


class Commit(_Bare):
    """Answer the decision owed with what is selected (the set, the cards, the Merchant)."""


class PointAt(_OfCard):
    """Point at a card of the hand: on a play, that rank sized to the set to beat."""


class PickCard(_OfCard):
    """One more of this card in the selection (on a play, of the rank pointed at; the
    Jester adds a Jester to another rank)."""


class DropCard(_OfCard):
    """One fewer of this card in the selection."""


class CycleJesters(_Bare):
    """On a play: one Jester more added to the rank, back to none after the last."""


class PickSet(_OfIndex):
    """Select one of the legal sets the view offers."""


class PickMerchant(_OfPlayer):
    """The Merchant exchange: whom to give a card to."""


class PickPosition(_OfIndex):
    """Seating a newcomer: one of the positions the decision offers."""


# ----------------------------------------------------------------------------- finding a table


class JoinListing(_OfIndex):
    """Join a table of the list found on the network."""


class JoinAddress(_OfText):
    """Join the table at an address as typed (HOST or HOST:PORT)."""


class GiveName(_OfText):
    pass


class GiveCode(_OfText):
    pass


class CancelForm(_Bare):
    """Leave the name or code asked for: back to the list."""


SELECTING = (PointAt, PickCard, DropCard, CycleJesters, PickSet, PickMerchant, PickPosition)
"""The intents that change the selection of the decision owed, sending nothing."""

Intent = (
    Ready | Start | AddBot | RemoveBot | Kick | SetRule | TypeRule | StepRule
    | Chat | AutoPass | Nudge | Skip | Rematch | CloseResults | Exit | Choose
    | Answer | Commit | PointAt | PickCard | DropCard | CycleJesters | PickSet
    | PickMerchant | PickPosition | JoinListing | JoinAddress | GiveName | GiveCode
    | CancelForm
)  # fmt: skip
