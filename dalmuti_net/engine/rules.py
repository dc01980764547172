"""The table's rule options (RULES.md rules 13-18) and the player counts they allow."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..told import N_, Listed, Told

MIN_PLAYERS = 4
MAX_PLAYERS = 8
DEFAULT_HAND_LIMIT = 20
MAX_HAND_LIMIT = 1000


class RulesError(Told, ValueError):
    """A rule option, or a combination of them, that a table cannot use (one sentence, told
    in the reader's language where it is shown: ``dalmuti_net.told``)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Optional rules; every one is off unless a table turns it on.

    ``hand_limit`` is how many hands the table plays before it ends. With scoring on and
    no limit given it is 20 (RULES.md rule 15); without scoring, ``None`` plays on until
    the host ends the table.
    """

    first_deal_revolution: bool = False
    stripped_decks: bool = False
    scoring: bool = False
    hand_limit: int | None = None
    philanthropic_scoring: bool = False
    merchant_exchange: bool = False
    misdeal_chance: float = 0.0

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name == "hand_limit":
                if value is not None and (type(value) is not int or value < 1):
                    raise RulesError(N_("hand_limit must be a whole number of hands, at least 1"))
                if value is not None and value > MAX_HAND_LIMIT:
                    raise RulesError(N_("hand_limit may be at most {limit}"), limit=MAX_HAND_LIMIT)
            elif field.name == "misdeal_chance":
                if type(value) not in (int, float) or not 0.0 <= value <= 1.0:
                    raise RulesError(N_("misdeal_chance must be a number from 0 (off) to 1"))
            elif type(value) is not bool:
                raise RulesError(N_("{name} must be true or false"), name=field.name)
        if self.philanthropic_scoring and not self.scoring:
            raise RulesError(N_("philanthropic_scoring needs scoring to be on"))
        if self.scoring and self.hand_limit is None:
            object.__setattr__(self, "hand_limit", DEFAULT_HAND_LIMIT)
        object.__setattr__(self, "misdeal_chance", float(self.misdeal_chance))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(N_("unknown rule option(s): {names}"), names=Listed(unknown))
        return cls(**data)

    @classmethod
    def all_optional(cls, misdeal_chance: float = 0.2) -> Rules:
        """Every optional rule on: the configuration the tests and benchmarks stress."""
        return cls(
            first_deal_revolution=True,
            stripped_decks=True,
            scoring=True,
            philanthropic_scoring=True,
            merchant_exchange=True,
            misdeal_chance=misdeal_chance,
        )


def check_player_count(count: int) -> None:
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RulesError(
            N_("a table needs {low} to {high} players, not {count}"),
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
            count=count,
        )


def stripped_ranks(rules: Rules, players: int) -> tuple[int, ...]:
    """Ranks removed from the deck for this many players (RULES.md rule 14)."""
    if not rules.stripped_decks:
        return ()
    if players == 4:
        return (11, 12)
    if players == 5:
        return (12,)
    return ()
