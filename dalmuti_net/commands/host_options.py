"""What `dalmuti host` was asked to do, shared by the command and the running host."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class HostOptions:
    name: str
    port: int | None
    interface: str | None
    announce: bool
    rules: str | None
    bots: int
    bot_strategy: str
    code: str | None
    headless: bool
    player_name: str
    save: Path | None
    resume: Path | None
    autostart: int | None
    seed: int | None
    lang: str | None
    bot_pace: float | None = None
    """Seconds per bot move while the table UI plays a seat; None: the rules file's."""
    bell: bool = True
    """The host player's screen rings the bell on their turn (``--no-bell`` not given)."""
    title: bool = True
    """... and sets the window title (``--no-title`` not given)."""
    web: bool = True
    """Serve the web table for phones too (``--no-web`` not given)."""
    web_port: int | None = None
    """The web table's port; None: the table's port + 1, or a free one if that is busy."""
    plain: bool = False
    """Lines of text only (``--plain``): the web table's address without its QR code."""
    saves_folder: Path | None = None
    """Where a table is saved when ``save`` and ``resume`` name no file: a new file for
    each table (``host.saved_tables``); None: not saved (``--no-save``, or a caller that
    wants no file)."""
