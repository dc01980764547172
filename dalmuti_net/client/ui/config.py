"""What the client remembers between runs: the player's name, in the user's config dir."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

APP_DIR = "dalmuti-net"
FILE = "client.json"


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    return Path(base) / APP_DIR


def _load(environ: Mapping[str, str] | None) -> dict[str, Any]:
    try:
        data = json.loads((config_dir(environ) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(changes: dict[str, Any], environ: Mapping[str, str] | None) -> None:
    """Best effort: a read-only home must not stop anyone from playing. What else the file
    remembers is kept."""
    folder = config_dir(environ)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / FILE
        temporary = path.with_suffix(".tmp")
        data = {**_load(environ), **changes}
        temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        temporary.replace(path)
    except OSError:
        pass


def load_name(environ: Mapping[str, str] | None = None) -> str | None:
    name = _load(environ).get("name")
    return name if isinstance(name, str) and name.strip() else None


def save_name(name: str, environ: Mapping[str, str] | None = None) -> None:
    _save({"name": name}, environ)


class Preferences:
    """The player's table preferences, remembered in the same file as the name."""

    def __init__(self, environ: Mapping[str, str] | None = None, *, stored: bool = True):
        """``stored=False``: kept for this run only (tests, a replay)."""
        self._environ = environ
        self._stored = stored
        data = _load(environ) if stored else {}
        auto_pass = data.get("auto_pass", True)
        self.auto_pass: bool = auto_pass if isinstance(auto_pass, bool) else True
        """Pass by itself when passing is the only legal answer (on unless turned off)."""

    def set_auto_pass(self, on: bool) -> None:
        self.auto_pass = on
        if self._stored:
            _save({"auto_pass": on}, self._environ)


def chosen_name(given: str | None, address_given: bool) -> tuple[str, bool]:
    """The player's name and whether it is settled (not to be asked): one given on the
    command line, remembered from now on, or else the one remembered, settled when the
    table was named by address (there is no list to choose from first)."""
    name = (given or load_name() or "").strip()
    if given:
        save_name(name)
    return name, bool(given) or (address_given and bool(name))
