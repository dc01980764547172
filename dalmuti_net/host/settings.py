"""Table settings from a rules file (TOML) or a named preset, with clear errors.

A rules file has a ``[rules]`` table (the options of ``engine.Rules``) and an optional
``[table]`` table for how the host runs it::

    [rules]
    scoring = true
    merchant_exchange = true
    misdeal_chance = 0.05

    [table]
    turn_timer = 60        # seconds per decision; 0 = no timer (absent: 60)
    grace_period = 60      # seconds a dropped player's seat waits before a bot plays it
    between_hands = 30     # the longest the results stay (everyone ready deals at once)
    bot_pace = 0.8         # seconds per move of the host's bots while a person plays
                           # (a seat not one of its bots); 0 = as fast as they think
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Rules, RulesError
from ..protocol.catalogue import MAX_RESULTS_MS, MAX_TURN_TIMER_MS, MIN_TURN_TIMER_MS
from ..told import N_, Listed, Told

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


DEFAULT_TURN_TIMER = 60.0
"""Seconds per decision at a table the host command opens (a rules file may say 0: none).

Why a minute: an ordinary turn takes a few seconds, and the slowest decisions (the taxes
from a full hand, a Greater Dalmuti seating a newcomer) about twenty; a minute rushes
nobody who is there, chatting included, and the countdown shows from the start. Yet one
player away from the table costs the others at most a minute a turn, and the host player
can nudge (after ``countdowns.NUDGE_AFTER``) or skip (after ``countdowns.SKIP_AFTER``)
sooner."""
DEFAULT_BOT_PACE = 0.8
"""Seconds per answer of the host's own bots while a person plays (``Table.bot_pace``),
unless ``--bot-pace`` or ``bot_pace`` in a rules file says otherwise."""
DEFAULT_BETWEEN_HANDS = 30.0
"""The longest the results stay between hands: everyone ready deals at once, so this only
bounds how long one player who is away (or typing) holds the others."""


@dataclass(frozen=True)
class TableSettings:
    rules: Rules = field(default_factory=Rules)
    turn_timer: float | None = DEFAULT_TURN_TIMER
    grace_period: float = 60.0
    between_hands: float = DEFAULT_BETWEEN_HANDS
    bot_pace: float = DEFAULT_BOT_PACE


TABLE_KEYS: dict[str, str] = {
    "turn_timer": "Seconds per decision, 60 when absent; 0 for none. When it "
    "runs out the host makes the default move. The host player can change it in the lobby.",
    "grace_period": "Seconds a dropped player's seat waits before a bot plays it.",
    "between_hands": "The longest the results stay between hands, in seconds (at most 600); "
    "the next hand is dealt as soon as every player is ready (one whose link dropped is "
    "waited for while their seat is kept). The host player can "
    "change it in the lobby.",
    "bot_pace": "Seconds each move of the host's own bots takes at least while a person "
    "plays a seat or watches (their client's `hello` says `person`: the terminal, plain and "
    "web tables do; bots, `--exec` programs and the SDK do not); 0 off; `--bot-pace` "
    "overrides it, and the host player can change it in the lobby (`set_timing`). A table "
    "of programs, or of the host's bots alone, is never paced.",
}
"""The keys of a rules file's ``[table]`` section and what they mean (host/README.md)."""
MAX_TABLE_SECONDS = 24 * 3600
MIN_TURN_TIMER = MIN_TURN_TIMER_MS // 1000
MAX_TURN_TIMER = MAX_TURN_TIMER_MS // 1000
MAX_BETWEEN_HANDS = MAX_RESULTS_MS // 1000
_TABLE_KEYS = set(TABLE_KEYS)
TABLE_KEY_RANGES = {
    "turn_timer": f"0, or {MIN_TURN_TIMER} to {MAX_TURN_TIMER}",
    "between_hands": f"0 to {MAX_BETWEEN_HANDS}",
}
"""Each ``[table]`` key's seconds where they are not 0 to ``MAX_TABLE_SECONDS``."""


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
    turn_timer = values.get("turn_timer", DEFAULT_TURN_TIMER) or None
    if turn_timer is not None and not MIN_TURN_TIMER <= turn_timer <= MAX_TURN_TIMER:
        raise SettingsError(
            N_("{where}: [table] turn_timer must be 0 (none) or {low} to {high} seconds"),
            where=where,
            low=MIN_TURN_TIMER,
            high=MAX_TURN_TIMER,
        )
    between_hands = values.get("between_hands", DEFAULT_BETWEEN_HANDS) or 0.0
    if between_hands > MAX_BETWEEN_HANDS:
        raise SettingsError(
            N_("{where}: [table] between_hands must be {high} seconds or less"),
            where=where,
            high=MAX_BETWEEN_HANDS,
        )
    return TableSettings(
        rules=rules,
        turn_timer=turn_timer,
        grace_period=values.get("grace_period", 60.0) or 0.0,
        between_hands=between_hands,
        bot_pace=values.get("bot_pace", DEFAULT_BOT_PACE) or 0.0,
    )
