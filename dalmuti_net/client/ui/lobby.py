"""The lobby's keys: ready for everyone; rules, bots, kicking and starting for the host player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.rules import DEFAULT_HAND_LIMIT, MAX_HAND_LIMIT, MAX_PLAYERS, MIN_PLAYERS
from ...lang.i18n import N_, Nn_, Translator
from ...lang.numbers import NumberRefused, decimal, whole_number
from ...protocol.catalogue import MAX_RESULTS_MS, MAX_TURN_TIMER_MS, MIN_TURN_TIMER_MS
from ..model.views import TableView
from .choosers import CHANGED, IGNORED, Hint, Problem, Result


@dataclass(frozen=True)
class RuleField:
    key: str
    label: str
    """Marked with N_."""


RULE_FIELDS = (
    RuleField("first_deal_revolution", N_("First deal revolution: no taxes in hand 1 (rule 13)")),
    RuleField("stripped_decks", N_("Stripped decks for 4 or 5 players (rule 14)")),
    RuleField("scoring", N_("Scoring (rule 15)")),
    RuleField("hand_limit", N_("Hands to play")),
    RuleField("philanthropic_scoring", N_("Philanthropic scoring (rule 16)")),
    RuleField("merchant_exchange", N_("Merchant exchange (rule 17)")),
    RuleField("misdeal_chance", N_("Misdeal chance per deal (rule 18)")),
    RuleField("turn_timer", N_("Turn timer: then the default move")),
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
"""Numeric options the host player may also type (Enter or a digit opens the field)."""
TYPED_RANGES = {
    "hand_limit": (1, MAX_HAND_LIMIT),
    "misdeal_chance": (0, 100),
    "turn_timer": (MIN_TURN_TIMER_MS // 1000, MAX_TURN_TIMER_MS // 1000),
    "results_pause": (0, MAX_RESULTS_MS // 1000),
}
TURN_TIMER_STEPS: tuple[int | None, ...] = (None, 15, 20, 30, 45, 60, 90, 120, 180, 300)
"""The values ←→ steps through for the turn timer, in seconds (None: no timer)."""
RESULTS_STEPS: tuple[int, ...] = (0, 5, 10, 15, 20, 30, 45, 60, 90, 120, 300)
"""The values ←→ steps through for the longest pause between hands, in seconds."""


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


def typed_rule(key: str, text: str, rules: dict[str, Any]) -> Result:
    """The request for a typed value of ``key``, or why it cannot be."""
    low, high = TYPED_RANGES[key]
    text = text.strip().rstrip("%").removesuffix("s").strip()
    if key == "turn_timer" and decimal(text) == 0:
        return CHANGED if rules.get(key) is None else Result(request=timing_request(key, None))
    if key == "hand_limit" and not text:
        if rules.get("scoring"):
            return Result(problem=Problem(N_("With scoring on, the table plays at least 1 hand.")))
        return Result(request={"type": "set_rules", "rules": {"hand_limit": None}})
    try:
        number = whole_number(text, low, high)
    except NumberRefused as refused:
        return Result(problem=Problem(refused.template, refused.values))
    if key in TIMING_FIELDS:
        return CHANGED if rules.get(key) == number else Result(request=timing_request(key, number))
    value: Any = number if key == "hand_limit" else round(number / 100, 2)
    if rules.get(key) == value:
        return CHANGED
    return Result(request={"type": "set_rules", "rules": {key: value}})


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


class RulesEditor:
    """The host player's rule options: one request per change, sent as the key is pressed."""

    def __init__(self) -> None:
        self.index = 0

    @property
    def field(self) -> RuleField:
        return RULE_FIELDS[self.index]

    def press(self, key: str, rules: dict[str, Any]) -> Result:
        if key == "up":
            self.index = (self.index - 1) % len(RULE_FIELDS)
            return CHANGED
        if key == "down":
            self.index = (self.index + 1) % len(RULE_FIELDS)
            return CHANGED
        name = self.field.key
        value = rules.get(name)
        if key in ("space", "enter") and isinstance(value, bool):
            return self._change(name, not value, rules)
        if key in ("+", "right", "-", "left"):
            up = key in ("+", "right")
            if name in TIMING_FIELDS:
                steps = TURN_TIMER_STEPS if name == "turn_timer" else RESULTS_STEPS
                wanted = _step(steps, value, up)
                if wanted == value:
                    return CHANGED
                return Result(request=timing_request(name, wanted))
            if name == "hand_limit":
                return self._hand_limit(value, up, rules)
            if name == "misdeal_chance":
                chance = round(float(value or 0.0) + (MISDEAL_STEP if up else -MISDEAL_STEP), 2)
                return self._change(name, min(1.0, max(0.0, chance)), rules)
            if isinstance(value, bool):
                return self._change(name, up, rules)
        return IGNORED

    def _hand_limit(self, value: int | None, up: bool, rules: dict[str, Any]) -> Result:
        if value is None:
            if not up:
                return CHANGED
            return self._change("hand_limit", DEFAULT_HAND_LIMIT, rules)
        if not up and value <= 1:
            if rules.get("scoring"):
                return Result(
                    problem=Problem(N_("With scoring on, the table plays at least 1 hand."))
                )
            return self._change("hand_limit", None, rules)
        return self._change("hand_limit", min(MAX_HAND_LIMIT, value + (1 if up else -1)), rules)

    def _change(self, name: str, value: Any, rules: dict[str, Any]) -> Result:
        if name == "philanthropic_scoring" and value and not rules.get("scoring"):
            return Result(
                problem=Problem(N_("Philanthropic scoring needs scoring: turn scoring on first."))
            )
        if rules.get(name) == value:
            return CHANGED
        changes: dict[str, Any] = {name: value}
        if name == "scoring" and not value and rules.get("philanthropic_scoring"):
            changes["philanthropic_scoring"] = False
        return Result(request={"type": "set_rules", "rules": changes})

    def hints(self) -> list[Hint]:
        hints = [Hint("↑↓", N_("option"))]
        if self.field.key in TYPED_FIELDS:
            hints += [Hint("←→", N_("less/more")), Hint(N_("0-9/Enter"), N_("type a number"))]
        else:
            hints.append(Hint(N_("Space"), N_("switch")))
        return [*hints, Hint("o/Esc", N_("close"))]


READY_HINT = Hint("r", N_("ready"))
START_HINT = Hint("s", N_("start"))
"""The lobby's keys the lobby's sentences name too (the web table by their buttons)."""


class LobbyKeys:
    """Seats cursor and the lobby requests."""

    def __init__(self) -> None:
        self.index = 0

    def press(self, key: str, table: TableView, me: int | None, is_host: bool) -> Result:
        players = table.players
        if key == "up" and players:
            self.index = (self.index - 1) % len(players)
            return CHANGED
        if key == "down" and players:
            self.index = (self.index + 1) % len(players)
            return CHANGED
        if key == "r":
            seat = table.seat(me)
            if seat is None:
                return Result(problem=Problem(N_("Spectators have no seat to get ready in.")))
            return Result(request={"type": "ready", "ready": not seat.ready})
        if key not in ("s", "b", "B", "x", "k"):
            return IGNORED
        if not is_host:
            return Result(problem=Problem(N_("Only the host player may do that.")))
        if key == "s":
            seated = len(players)
            if not MIN_PLAYERS <= seated <= MAX_PLAYERS:
                return Result(
                    problem=Problem(
                        Nn_(
                            "A table starts with {low} to {high} players; {n} is seated.",
                            "A table starts with {low} to {high} players; {n} are seated.",
                        ),
                        {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "n": seated},
                    )
                )
            return Result(request={"type": "start"})
        if key in ("b", "B"):
            if len(players) >= MAX_PLAYERS:
                return Result(
                    problem=Problem(N_("All {high} seats are taken."), {"high": MAX_PLAYERS})
                )
            strategy = "heuristic" if key == "b" else "random"
            return Result(request={"type": "add_bot", "strategy": strategy})
        if not players:
            return IGNORED
        seat = players[min(self.index, len(players) - 1)]
        if key == "x":
            if not seat.is_bot:
                return Result(problem=Problem(N_("Choose a bot with ↑↓ to remove it.")))
            return Result(request={"type": "remove_bot", "player": seat.player})
        if seat.host or seat.player == me:
            return Result(problem=Problem(N_("The host player cannot be removed.")))
        return Result(request={"type": "kick", "player": seat.player})

    def hints(self, is_host: bool) -> list[Hint]:
        hints = [READY_HINT] if not is_host else []
        if is_host:
            hints += [
                START_HINT,
                Hint("b/B", N_("add bot (good/random)")),
                Hint("↑↓ x", N_("remove bot")),
                Hint("k", N_("kick")),
                Hint("o", N_("rules")),
            ]
        return hints
