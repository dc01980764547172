"""A history file's messages, taken as a client takes them live, before any is shown: the
file is hostile like a host, so one that does not fit what came before it (``fits``: lists
of one message that do not align, a card from a hand that does not hold it...) refuses
the file in one sentence naming its line, never an error halfway through telling it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..client.session import ClientSession
from ..history.problems import N_
from ..protocol import ProtocolError
from ..rerun.sources import HistoryError

if TYPE_CHECKING:
    from ..protocol.messages import Message
    from ..rerun.sources import TableHistory


def check_fits(history: TableHistory, frames: list[Message]) -> None:
    """Raise ``HistoryError`` at the first of ``frames`` that does not fit. A save's
    messages come from the table core itself and are not checked again."""
    if history.record is None:
        return
    session = ClientSession("history", spectator=True)
    for index, frame in enumerate(frames):
        try:
            session.receive(frame)
        except ProtocolError as error:
            raise HistoryError(
                N_("{path}, line {line}: {reason}"),
                path=history.path,
                line=index + 2,  # the header is line 1
                reason=error.message,
            ) from None
