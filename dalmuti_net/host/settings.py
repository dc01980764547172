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
from ..told import N_, Listed, Told
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


class SettingsError(Told, ValueError):
    """A rules file or preset that cannot be used: one sentence saying why and where, told
    in the reader's language where it is shown (``dalmuti_net.told``)."""


RULES_FILE = Told(N_("rules file"))
"""Where settings not read from a file of their own came from."""


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
            N_("{choice} is neither a rules file nor a preset (presets: {presets})"),
            choice=repr(choice),
            presets=Listed(PRESETS),
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SettingsError(
            N_("cannot read {path}: {reason}"), path=path, reason=error.strerror or error
        ) from None
    except UnicodeDecodeError:
        raise SettingsError(N_("{path} is not UTF-8 text"), path=path) from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(
            N_("{path} is not valid TOML: {reason}"), path=path, reason=error
        ) from None
    return settings_from_dict(data, str(path))


def settings_from_dict(data: dict[str, Any], where: object = RULES_FILE) -> TableSettings:
    unknown = sorted(set(data) - {"rules", "table"})
    if unknown:
        raise SettingsError(
            N_("{where}: unknown section(s) {names}; expected [rules] and [table]"),
            where=where,
            names=Listed(unknown),
        )
    rules_data = data.get("rules", {})
    table_data = data.get("table", {})
    if not isinstance(rules_data, dict) or not isinstance(table_data, dict):
        raise SettingsError(N_("{where}: [rules] and [table] must be tables"), where=where)
    try:
        rules = Rules.from_dict(rules_data)
    except (RulesError, TypeError) as error:
        raise SettingsError(N_("{where}: [rules]: {reason}"), where=where, reason=error) from None
    unknown = sorted(set(table_data) - _TABLE_KEYS)
    if unknown:
        raise SettingsError(
            N_("{where}: [table]: unknown key(s) {names}; known: {known}"),
            where=where,
            names=Listed(unknown),
            known=Listed(sorted(_TABLE_KEYS)),
        )
    values: dict[str, float | None] = {}
    for key, value in table_data.items():
        if type(value) not in (int, float) or value < 0 or value > MAX_TABLE_SECONDS:
            raise SettingsError(
                N_("{where}: [table] {key} must be a number of seconds, 0 or more"),
                where=where,
                key=key,
            )
        values[key] = float(value)
    turn_timer = values.get("turn_timer") or None
    return TableSettings(
        rules=rules,
        turn_timer=turn_timer,
        grace_period=values.get("grace_period", 60.0) or 0.0,
        between_hands=values.get("between_hands", 4.0) or 0.0,
        bot_pace=values.get("bot_pace", DEFAULT_BOT_PACE) or 0.0,
    )
