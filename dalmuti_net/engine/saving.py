"""The whole game as plain data (str keys, ints, lists) and back, mid-hand included."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CardSet
from .events import event_from_dict, event_to_dict
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

FORMAT = 1


def _set_to_list(value: CardSet | None) -> list[int] | None:
    return None if value is None else [value.rank, value.count, value.jesters]


def _set_from_list(value: list[int] | None) -> CardSet | None:
    return None if value is None else CardSet(*value)


def game_to_dict(game: Game) -> dict[str, Any]:
    version, internal, gauss = game._rng.getstate()
    return {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "rng": [version, list(internal), gauss],
        "phase": str(game.phase),
        "order": list(game.order),
        "hand_number": game.hand_number,
        "scores": [[p, s] for p, s in game.scores.items()],
        "hands": [[p, list(counts)] for p, counts in game.hands.items()],
        "taxes_this_hand": game.taxes_this_hand,
        "deck": list(game._deck),
        "dealt": game._dealt,
        "exposed_at": game._exposed_at,
        "revolution_holder": game._revolution_holder,
        "tax_waiting": list(game._tax_waiting),
        "tax_given": [[p, list(cards)] for p, cards in game._tax_given.items()],
        "exchange": None if game._exchange is None else list(game._exchange),
        "turn": game.turn,
        "top": _set_to_list(game.top),
        "top_player": game.top_player,
        "passed": sorted(game.passed),
        "out": list(game.out),
        "joining": list(game.joining),
        "leaving": list(game.leaving),
        "ended_reason": game.ended_reason,
        "log": [event_to_dict(event) for event in game.log],
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    from .game import Game, Phase

    if data.get("format") != FORMAT:
        raise ValueError(f"unsupported saved game format {data.get('format')!r}")
    game = Game.__new__(Game)
    game._init_state(tuple(data["order"]), Rules.from_dict(data["rules"]), data["seed"])
    version, internal, gauss = data["rng"]
    game._rng.setstate((version, tuple(internal), gauss))
    game.phase = Phase(data["phase"])
    game.order = tuple(data["order"])
    game.hand_number = data["hand_number"]
    game.scores = {p: s for p, s in data["scores"]}
    game.hands = {p: tuple(counts) for p, counts in data["hands"]}
    game.taxes_this_hand = data["taxes_this_hand"]
    game._deck = list(data["deck"])
    game._dealt = data["dealt"]
    game._exposed_at = data["exposed_at"]
    game._revolution_holder = data["revolution_holder"]
    game._tax_waiting = list(data["tax_waiting"])
    game._tax_given = {p: tuple(cards) for p, cards in data["tax_given"]}
    game._exchange = (
        None if data["exchange"] is None else (data["exchange"][0], data["exchange"][1])
    )
    game.turn = data["turn"]
    game.top = _set_from_list(data["top"])
    game.top_player = data["top_player"]
    game.passed = set(data["passed"])
    game.out = list(data["out"])
    game._holding = len(game.in_hand)
    # Older saves listed the newcomers being placed apart, under "placing".
    game.joining = [*data.get("placing", ()), *data["joining"]]
    game.leaving = list(data["leaving"])
    game.ended_reason = data["ended_reason"]
    game.log = [event_from_dict(event) for event in data["log"]]
    return game
