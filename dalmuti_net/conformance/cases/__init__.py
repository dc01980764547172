from . import (  # noqa: F401
    connection,
    extra,
    final,
    flood,
    framing,
    game_cases,
    game_more,
    lobby,
    more_connection,
    recorded,
    timing,
    websocket,
)
