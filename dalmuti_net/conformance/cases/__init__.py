from . import connection, flood, framing, game_cases, lobby, recorded, websocket  # noqa: F401
