"""What the client remembers between runs: the player's name, in the user's config dir.

The folder is the platform's own for the user's settings (platformdirs): on Linux and
the BSDs ``$XDG_CONFIG_HOME/dalmuti-net``, else ``~/.config/dalmuti-net``; on macOS
``~/Library/Application Support/dalmuti-net``; on Windows under ``%LOCALAPPDATA%``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

APP_DIR = "dalmuti-net"
FILE = "client.json"


def config_dir() -> Path:
    return user_config_path(APP_DIR, appauthor=False)


def _load(folder: Path | None) -> dict[str, Any]:
    try:
        data = json.loads(((folder or config_dir()) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(changes: dict[str, Any], folder: Path | None) -> None:
    """Best effort: a read-only home must not stop anyone from playing. What else the file
    remembers is kept."""
    folder = folder or config_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / FILE
        temporary = path.with_suffix(".tmp")
        data = {**_load(folder), **changes}
        temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        temporary.replace(path)
    except OSError:
        pass


def load_name(folder: Path | None = None) -> str | None:
    """The remembered name, from ``folder`` (the config dir unless given)."""
    name = _load(folder).get("name")
    return name if isinstance(name, str) and name.strip() else None


def save_name(name: str, folder: Path | None = None) -> None:
    _save({"name": name}, folder)


class Preferences:
    """The player's table preferences, remembered in the same file as the name."""

    def __init__(self, folder: Path | None = None, *, stored: bool = True):
        """In ``folder`` (the config dir unless given); ``stored=False``: kept for this run
        only (tests, a replay)."""
        self._folder = folder
        self._stored = stored
        data = _load(folder) if stored else {}
        auto_pass = data.get("auto_pass", True)
        self.auto_pass: bool = auto_pass if isinstance(auto_pass, bool) else True
        """Pass by itself when passing is the only legal answer (on unless turned off)."""

    def set_auto_pass(self, on: bool) -> None:
        self.auto_pass = on
        if self._stored:
            _save({"auto_pass": on}, self._folder)


def chosen_name(given: str | None, address_given: bool) -> tuple[str, bool]:
    """The player's name and whether it is settled (not to be asked): one given on the
    command line, remembered from now on, or else the one remembered, settled when the
    table was named by address (there is no list to choose from first)."""
    name = (given or load_name() or "").strip()
    if given:
        save_name(name)
    return name, bool(given) or (address_given and bool(name))
