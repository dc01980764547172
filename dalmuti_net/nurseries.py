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
    """A group of exactly one error (not itself a group) is raised as that error; any
    other group as it is."""
    try:
        yield
    except BaseExceptionGroup as group:
        if len(group.exceptions) != 1 or isinstance(group.exceptions[0], BaseExceptionGroup):
            raise
        raise group.exceptions[0] from None
