from ..registry import CASES, Case
from . import (  # noqa: F401
    connection,
    extra,
    fields,
    final,
    flood,
    framing,
    game_cases,
    game_more,
    lobby,
    more_connection,
    pace,
    recorded,
    seats,
    timing,
    websocket,
)


def all_cases() -> list[Case]:
    """Every case, in the order they run: by stage, then as registered."""
    return sorted(CASES, key=lambda c: c.stage)
