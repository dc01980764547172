"""A nursery as an implementation detail: what fails inside it comes out as itself.

trio wraps whatever a nursery's tasks raise in a ``BaseExceptionGroup``. Where the nursery
only runs a helper task beside the caller's own work (a listing resolver, an announcer,
a bot program's reader), a caller should see the error it would see without it: Ctrl-C
as ``KeyboardInterrupt``, a refused connection as ``OSError``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def lone_error_as_itself() -> Iterator[None]:
    """A group that holds one error, directly or through groups of one (nurseries inside
    nurseries), is raised as that error; any other group as it is."""
    try:
        yield
    except BaseExceptionGroup as group:
        sole = _sole_error(group)
        if sole is None:
            raise
        raise sole from None


def _sole_error(group: BaseExceptionGroup[BaseException]) -> BaseException | None:
    while len(group.exceptions) == 1:
        inner = group.exceptions[0]
        if not isinstance(inner, BaseExceptionGroup):
            return inner
        group = inner
    return None
