"""What the client remembers between runs: the player's name, in the user's config dir."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

APP_DIR = "dalmuti-net"
FILE = "client.json"


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    return Path(base) / APP_DIR


def load_name(environ: Mapping[str, str] | None = None) -> str | None:
    try:
        data = json.loads((config_dir(environ) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name.strip() else None


def save_name(name: str, environ: Mapping[str, str] | None = None) -> None:
    """Best effort: a read-only home must not stop anyone from playing."""
    folder = config_dir(environ)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / FILE
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"name": name}, ensure_ascii=False), encoding="utf-8")
        temporary.replace(path)
    except OSError:
        pass


def chosen_name(given: str | None, address_given: bool) -> tuple[str, bool]:
    """The player's name and whether it is settled (not to be asked): one given on the
    command line, remembered from now on, or else the one remembered, settled when the
    table was named by address (there is no list to choose from first)."""
    name = (given or load_name() or "").strip()
    if given:
        save_name(name)
    return name, bool(given) or (address_given and bool(name))
