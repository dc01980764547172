"""The host player's rule options and the table's clocks: their names, values in words,
ranges and steps, and the checks a change must pass before it is sent (for every front
end: the terminal's menu, the plain table's ``rule N VALUE``, the page's controls).

Values are the menu's: bools, a number of hands (``None``: no limit), a chance from 0 to
1, seconds for the clocks (the turn timer's ``None``: none).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.rules import DEFAULT_HAND_LIMIT, MAX_HAND_LIMIT
from ...lang.i18n import N_, Nn_, Translator
from ...lang.numbers import WHOLE_NUMBER, NumberRefused, decimal, whole_number
from ...lang.text import label_gap
from ...protocol.catalogue import MAX_RESULTS_MS, MAX_TURN_TIMER_MS, MIN_TURN_TIMER_MS
from .choosers import CHANGED, IGNORED, Problem, Result
from .views import TableView


@dataclass(frozen=True)
class RuleField:
    key: str
    label: str
    """Marked with N_."""


RULE_FIELDS = (
    RuleField("first_deal_revolution", N_("First deal revolution, no taxes in hand 1 (rule 13)")),
    RuleField("stripped_decks", N_("Stripped decks for 4 or 5 players (rule 14)")),
    RuleField("scoring", N_("Scoring (rule 15)")),
    RuleField("hand_limit", N_("Hands to play")),
    RuleField("philanthropic_scoring", N_("Philanthropic scoring (rule 16)")),
    RuleField("merchant_exchange", N_("Merchant exchange (rule 17)")),
    RuleField("misdeal_chance", N_("Misdeal chance per deal (rule 18)")),
    RuleField("turn_timer", N_("Turn timer (the default move when it runs out)")),
    RuleField("results_pause", N_("Results between hands, at most")),
)
"""The options of the host player's menu: the rules, then the table's clocks (which the
host keeps apart from the rules: ``timing``, changed with ``set_timing``)."""
RULE_LABELS = {option.key: option.label for option in RULE_FIELDS}
TIMING_FIELDS = ("turn_timer", "results_pause")
MISDEAL_STEP = 0.05
TYPED_FIELDS = {
    "hand_limit": N_("Hands to play ({low}–{high}; empty: no limit):"),
    "misdeal_chance": N_("Misdeal chance per deal, in percent ({low}–{high}):"),
    "turn_timer": N_("Seconds per decision ({low}–{high}; 0: no turn timer):"),
    "results_pause": N_("Seconds the results stay at most ({low}–{high}):"),
}
"""The numeric options, whose value may be typed: the field's label."""
TYPED_RANGES = {
    "hand_limit": (1, MAX_HAND_LIMIT),
    "misdeal_chance": (0, 100),
    "turn_timer": (MIN_TURN_TIMER_MS // 1000, MAX_TURN_TIMER_MS // 1000),
    "results_pause": (0, MAX_RESULTS_MS // 1000),
}
"""The typed values' ranges, in the field's units (hands, percent, seconds)."""
TURN_TIMER_STEPS: tuple[int | None, ...] = (None, 15, 20, 30, 45, 60, 90, 120, 180, 300)
"""The values a step up or down goes through for the turn timer, in seconds (None: no
timer)."""
RESULTS_STEPS: tuple[int, ...] = (0, 5, 10, 15, 20, 30, 45, 60, 90, 120, 300)
"""The values a step goes through for the longest pause between hands, in seconds."""
AT_LEAST_ONE_HAND = N_("With scoring on, the table plays at least 1 hand.")


def menu_values(table: TableView | None) -> dict[str, Any]:
    """The menu's values: the rules in force and the table's clocks, in seconds (no
    table yet: no rules, and the clocks' defaults)."""
    if table is None:
        return {"turn_timer": None, "results_pause": 0}
    turn_ms = table.timing.turn_timer_ms
    return {
        **table.rules.values(),
        "turn_timer": None if turn_ms is None else round(turn_ms / 1000),
        "results_pause": round(table.timing.results_ms / 1000),
    }


def clocks_text(t: Translator, table: TableView | None) -> str:
    """The table's clocks in one sentence (the lobby's rules summary, the plain table)."""
    values = menu_values(table)
    turn = values["turn_timer"]
    timer = (
        t._("No turn timer")
        if not turn
        else t.n_(
            "Turn timer: {n} second per decision",
            "Turn timer: {n} seconds per decision",
            turn,
        ).format(n=turn)
    )
    pause = values["results_pause"]
    results = t.n_(
        "results stay until everyone is ready, {n} second at most",
        "results stay until everyone is ready, {n} seconds at most",
        pause,
    ).format(n=pause)
    return t._("{timer}; {results}.").format(timer=timer, results=results)


def rules_summary(t: Translator, table: TableView | None) -> str:
    """The rules in force in one sentence, the optional rules that are on and how many
    hands (every front end's lobby; the clocks apart, ``clocks_text``)."""
    rules = menu_values(table)
    on = [
        t._(option.label)
        for option in RULE_FIELDS
        if option.key not in (*TIMING_FIELDS, "hand_limit", "misdeal_chance")
        and rules.get(option.key)
    ]
    # The hands to play are said with scoring (a table that keeps scores says whether it
    # stops: "no limit" too), or wherever there is a limit.
    for key, said in (
        ("misdeal_chance", bool(rules.get("misdeal_chance"))),
        ("hand_limit", bool(rules.get("hand_limit") or rules.get("scoring"))),
    ):
        if said:
            label = t._("{label}:").format(label=t._(RULE_LABELS[key]))
            on.append(label + label_gap(label) + rule_value_text(t, key, rules.get(key)))
    if not on:
        return t._("The basic rules, no optional rule.")
    return t._("; ").join(on) + t._(".")


def rule_value_text(t: Translator, key: str, value: Any) -> str:
    if isinstance(value, bool):
        return t._("on") if value else t._("off")
    if key == "hand_limit":
        return t._("no limit") if value is None else str(value)
    if key == "misdeal_chance":
        return t._("off") if not value else f"{round(value * 100)}%"
    if key == "turn_timer":
        return t._("off") if not value else t._("{n} s").format(n=value)
    if key == "results_pause":
        return t._("{n} s").format(n=value or 0)
    return str(value)


def not_applicable(key: str, seated: int) -> Problem | None:
    """Why an option in force does nothing with this many seats (rules 14 and 17)."""
    if key == "stripped_decks" and seated > 5:
        return Problem(
            Nn_(
                "Stripped decks apply to 4 or 5 players only: {n} is seated.",
                "Stripped decks apply to 4 or 5 players only: {n} are seated.",
            ),
            {"n": seated},
        )
    if key == "merchant_exchange" and seated < 6:
        return Problem(
            Nn_(
                "The Merchant exchange needs 6 players or more: {n} is seated.",
                "The Merchant exchange needs 6 players or more: {n} are seated.",
            ),
            {"n": seated},
        )
    return None


def timing_request(key: str, seconds: int | None) -> dict[str, Any]:
    if key == "turn_timer":
        return {"type": "set_timing", "turn_timer_ms": None if not seconds else seconds * 1000}
    return {"type": "set_timing", "results_ms": (seconds or 0) * 1000}


def timing_sent(request: dict[str, Any]) -> dict[str, Any]:
    """A ``set_timing`` request as the menu's values it will bring, in seconds."""
    sent: dict[str, Any] = {}
    if "turn_timer_ms" in request:
        turn = request["turn_timer_ms"]
        sent["turn_timer"] = None if turn is None else round(turn / 1000)
    if "results_ms" in request:
        sent["results_pause"] = round(request["results_ms"] / 1000)
    return sent


def _step(steps: tuple[Any, ...], value: Any, up: bool) -> Any:
    """The next value of ``steps`` above (or below) ``value``, which may be between two."""
    numbers = [(-1 if s is None else s) for s in steps]
    now = -1 if value is None else value
    if up:
        above = [i for i, n in enumerate(numbers) if n > now]
        return steps[above[0]] if above else value
    below = [i for i, n in enumerate(numbers) if n < now]
    return steps[below[-1]] if below else value


def _whole_number(key: str) -> Result:
    low, high = TYPED_RANGES[key]
    return Result(problem=Problem(WHOLE_NUMBER, {"low": low, "high": high}))


def set_rule(key: str, value: Any, rules: dict[str, Any]) -> Result:
    """The request that sets ``key`` to ``value`` (the menu's units), nothing where it is
    so already, or why it cannot be: every check of a rule change, for every front end."""
    if key not in RULE_LABELS:
        return IGNORED
    now = rules.get(key)
    if key in TIMING_FIELDS:
        low, high = TYPED_RANGES[key]
        if value is not None and (not _is_int(value) or not low <= value <= high):
            return _whole_number(key)
        if key == "results_pause" and value is None:
            return _whole_number(key)
        return CHANGED if now == value else Result(request=timing_request(key, value))
    if key == "hand_limit":
        if value is None and rules.get("scoring"):
            return Result(problem=Problem(AT_LEAST_ONE_HAND))
        if value is not None and (not _is_int(value) or not 1 <= value <= MAX_HAND_LIMIT):
            return _whole_number(key)
    elif key == "misdeal_chance":
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            return _whole_number(key)
        value = round(float(value), 2)
    elif not isinstance(value, bool):
        return IGNORED
    if key == "philanthropic_scoring" and value and not rules.get("scoring"):
        return Result(
            problem=Problem(N_("Philanthropic scoring needs scoring: turn scoring on first."))
        )
    if now == value:
        return CHANGED
    changes: dict[str, Any] = {key: value}
    if key == "scoring" and not value and rules.get("philanthropic_scoring"):
        changes["philanthropic_scoring"] = False
    return Result(request={"type": "set_rules", "rules": changes})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def step_rule(key: str, up: bool, rules: dict[str, Any]) -> Result:
    """The option's next value up or down: a switch turned on or off, a number stepped."""
    value = rules.get(key)
    if key in TIMING_FIELDS:
        steps = TURN_TIMER_STEPS if key == "turn_timer" else RESULTS_STEPS
        return set_rule(key, _step(steps, value, up), rules)
    if key == "hand_limit":
        if value is None:
            return CHANGED if not up else set_rule(key, DEFAULT_HAND_LIMIT, rules)
        if not up and value <= 1:
            return set_rule(key, None, rules)
        return set_rule(key, min(MAX_HAND_LIMIT, value + (1 if up else -1)), rules)
    if key == "misdeal_chance":
        chance = round(float(value or 0.0) + (MISDEAL_STEP if up else -MISDEAL_STEP), 2)
        return set_rule(key, min(1.0, max(0.0, chance)), rules)
    if isinstance(value, bool) or key in RULE_LABELS:
        return set_rule(key, up, rules)
    return IGNORED


def typed_value(key: str, text: str) -> Any | Problem:
    """A value as a person typed it, in the menu's units, or why it is not one: hands
    (empty: no limit), a percent (``20%``), seconds (``45 s``; the turn timer's 0:
    none)."""
    text = text.strip().rstrip("%").removesuffix("s").strip()
    if key == "hand_limit" and not text:
        return None
    if key == "turn_timer" and decimal(text) == 0:
        return None
    low, high = TYPED_RANGES[key]
    try:
        number = whole_number(text, low, high)
    except NumberRefused as refused:
        return Problem(refused.template, refused.values)
    if key == "misdeal_chance":
        return round(number / 100, 2)
    return number


def typed_rule(key: str, text: str, rules: dict[str, Any]) -> Result:
    """The request for a typed value of ``key``, or why it cannot be."""
    if key not in TYPED_FIELDS:
        return IGNORED
    value = typed_value(key, text)
    if isinstance(value, Problem):
        return Result(problem=value)
    return set_rule(key, value, rules)
