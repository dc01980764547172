"""What a history, replay or standings command cannot do, as one sentence in the reader's
language (see ``dalmuti_net.told``)."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from ..told import N_, Told

__all__ = ["N_", "Problem", "too_large"]


class Problem(Told):
    """What a history, replay or standings command cannot do."""


P = TypeVar("P", bound=Told)

TOO_LARGE = N_("{path} is too large to read: {size} MiB, and at most {limit} MiB is read")


def too_large(kind: type[P], path: Path, size: int, limit: int) -> P:
    """A file of ``size`` bytes refused before it is read, as ``kind`` (the reader's error)."""
    return kind(TOO_LARGE, path=path, size=_mib(size), limit=_mib(limit))


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.0f}" if size >= 1024 * 1024 else f"{size / (1024 * 1024):.2f}"
