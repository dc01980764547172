"""A `dalmuti host`'s options for a test: on 127.0.0.1, on a free port, announced nowhere,
saved nowhere, in English, with a fixed seed; each test says only what it is about."""

from __future__ import annotations

from typing import Any

from dalmuti_net.commands.host_options import HostOptions


def loopback_options(name: str, **changes: Any) -> HostOptions:
    settled: dict[str, Any] = {
        "port": 0,
        "interface": "127.0.0.1",
        "announce": False,
        "rules": None,
        "bots": 0,
        "bot_strategy": "heuristic",
        "code": None,
        "headless": True,
        "player_name": "Ana",
        "save": None,
        "resume": None,
        "autostart": None,
        "seed": 3,
        "lang": "en",
    }
    return HostOptions(name=name, **{**settled, **changes})
