"""What a history, replay or standings command cannot do, as one sentence in the reader's
language (see ``dalmuti_net.told``)."""

from __future__ import annotations

from ..told import N_, Told

__all__ = ["N_", "Problem"]


class Problem(Told):
    """What a history, replay or standings command cannot do."""
