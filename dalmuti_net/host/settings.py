"""Table settings from a rules file (TOML) or a named preset, with clear errors.

A rules file has a ``[rules]`` table (the options of ``engine.Rules``) and an optional
``[table]`` table for how the host runs it::

    [rules]
    scoring = true
    merchant_exchange = true
    misdeal_chance = 0.05

    [table]
    turn_timer = 60        # seconds per decision; absent or 0 = no timer
    grace_period = 60      # seconds a dropped player's seat waits before a bot plays it
    between_hands = 4      # seconds to look at the results before the next deal
    bot_pace = 0.8         # seconds per move of the host's bots while a person plays
                           # from the table screen; 0 = as fast as they think
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Rules, RulesError
from .pacing import DEFAULT_BOT_PACE

PRESETS: dict[str, Rules] = {
    "basic": Rules(),
    "scoring": Rules(scoring=True),
    "party": Rules(scoring=True, first_deal_revolution=True, stripped_decks=True),
    "all": Rules.all_optional(misdeal_chance=0.05),
}
PRESET_HELP = {
    "basic": "the basic rules only",
    "scoring": "points per hand, 20 hands",
    "party": "scoring, first deal revolution, stripped decks",
    "all": "every optional rule, misdeals at 5%",
}


class SettingsError(ValueError):
    """A rules file or preset that cannot be used; the message says why and where."""


@dataclass(frozen=True)
class TableSettings:
    rules: Rules = field(default_factory=Rules)
    turn_timer: float | None = None
    grace_period: float = 60.0
    between_hands: float = 4.0
    bot_pace: float = DEFAULT_BOT_PACE


TABLE_KEYS: dict[str, str] = {
    "turn_timer": "Seconds per decision; absent or 0 for none. When it runs out the host "
    "makes the default move.",
    "grace_period": "Seconds a dropped player's seat waits before a bot plays it.",
    "between_hands": "Seconds to look at the results before the next deal.",
    "bot_pace": "Seconds each move of the host's own bots takes at least while a seat is "
    "played from the table screen (`dalmuti join` or the host player's); 0 off; "
    "`--bot-pace` overrides it. Tables of protocol clients only are never paced.",
}
"""The keys of a rules file's ``[table]`` section and what they mean (host/README.md)."""
MAX_TABLE_SECONDS = 24 * 3600
_TABLE_KEYS = set(TABLE_KEYS)


def load_settings(choice: str | None) -> TableSettings:
    """``choice`` is a preset name, a path to a TOML rules file, or ``None`` (basic)."""
    if choice is None:
        return TableSettings()
    if choice in PRESETS:
        return TableSettings(rules=PRESETS[choice])
    path = Path(choice)
    if not path.exists():
        raise SettingsError(
            f"{choice!r} is neither a rules file nor a preset (presets: {', '.join(PRESETS)})"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"cannot read {path}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path} is not valid TOML: {error}") from None
    return settings_from_dict(data, str(path))


def settings_from_dict(data: dict[str, Any], where: str = "rules file") -> TableSettings:
    unknown = sorted(set(data) - {"rules", "table"})
    if unknown:
        raise SettingsError(
            f"{where}: unknown section(s) {', '.join(unknown)}; expected [rules] and [table]"
        )
    rules_data = data.get("rules", {})
    table_data = data.get("table", {})
    if not isinstance(rules_data, dict) or not isinstance(table_data, dict):
        raise SettingsError(f"{where}: [rules] and [table] must be tables")
    try:
        rules = Rules.from_dict(rules_data)
    except (RulesError, TypeError) as error:
        raise SettingsError(f"{where}: [rules]: {error}") from None
    unknown = sorted(set(table_data) - _TABLE_KEYS)
    if unknown:
        raise SettingsError(
            f"{where}: [table]: unknown key(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(_TABLE_KEYS))}"
        )
    values: dict[str, float | None] = {}
    for key, value in table_data.items():
        if type(value) not in (int, float) or value < 0 or value > MAX_TABLE_SECONDS:
            raise SettingsError(f"{where}: [table] {key} must be a number of seconds, 0 or more")
        values[key] = float(value)
    turn_timer = values.get("turn_timer") or None
    return TableSettings(
        rules=rules,
        turn_timer=turn_timer,
        grace_period=values.get("grace_period", 60.0) or 0.0,
        between_hands=values.get("between_hands", 4.0) or 0.0,
        bot_pace=values.get("bot_pace", DEFAULT_BOT_PACE) or 0.0,
    )
