"""The Great Dalmuti as a PettingZoo AEC environment (``pip install 'dalmuti-net[research]'``).

One episode is one table, from the seating draw to its hand limit, every hand played by
the engine (``dalmuti_net.engine``, the rules the host runs). Agents are ``player_0`` ..
``player_{n-1}``: fixed players whose seats (and roles) change from hand to hand as the
rules say. Every decision kind is an action: the engine's action ids (``NUM_ACTIONS`` of
them, ``ACTION_NAMES[id]`` names one), the legal ones marked in ``action_mask``. The
reward of a step is each player's points by rule 15 (and 16 when on) scored in it, so a
hand's points arrive on the step that ends it.

Each observation is built from the engine's ``Observation`` of that seat alone (RULES.md
rule 20), never from the game's hidden state; the fields are listed in ``FIELDS``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine import NUM_ACTIONS, Action, Decision, Event, Game, Observation, Phase, Rules
from ..engine.hidden import knowledge_of

CARD_KINDS = 13
"""Ranks 1 to 12, then the Jester: every per-card field has these 13 entries, in order."""

PHASES = ("misdeal", "revolution", "taxes", "play")


def fields_for(players: int) -> tuple[tuple[str, int, str], ...]:
    """(name, length, meaning) of each part of the observation vector, in order.

    "Seats" are counted clockwise from the observing seat in this hand's seating: entry 0
    is the observer, entry 1 the next player clockwise, and so on.
    """
    n = players
    return (
        ("hand", CARD_KINDS, "cards of each kind the observer holds"),
        ("played", CARD_KINDS, "cards of each kind played this hand, by anyone"),
        ("played_by", n * CARD_KINDS, "per seat, the cards of each kind it played this hand"),
        ("known", n * CARD_KINDS, "per seat, cards of each kind the observer knows it holds"),
        ("counts", n, "per seat, how many cards it holds"),
        ("position", n, "one-hot: the observer's place in the seating (0 Greater Dalmuti)"),
        ("to_beat", 3, "the set to beat: rank (13 Jesters alone), cards, Jesters; 0s on a lead"),
        ("top_player", n, "one-hot: the seat that played the set to beat"),
        ("passed", n, "per seat, 1 if it passed since the set to beat was played"),
        ("out", n, "per seat, its finishing place this hand (1 first out), 0 while it holds"),
        ("phase", len(PHASES), "one-hot: misdeal, revolution, taxes or play"),
        ("misdeal_card", CARD_KINDS, "one-hot: the card a misdeal exposed this hand, 0s if none"),
        ("misdeal_to", n, "one-hot: the seat that exposed card was dealt to, 0s if none"),
        ("taxes", 1, "1 if this hand has taxes (none after a revolution or a first deal)"),
        ("revolution", 1, "1 if a revolution was declared this hand"),
        ("scores", n, "per seat, its points so far at this table"),
        ("hand_number", 1, "the hand being played, 1 first"),
    )


def env(players: int = 6, rules: Rules | None = None) -> DalmutiEnv:
    """An AEC environment of ``players`` (4 to 8) with ``rules`` (default: scoring, 20
    hands). The rules must end the table: a hand limit (scoring gives one)."""
    return DalmutiEnv(players, rules)


class DalmutiEnv(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "name": "dalmuti_v0",
        "render_modes": [],
        "is_parallelizable": False,
    }

    def __init__(self, players: int = 6, rules: Rules | None = None) -> None:
        super().__init__()
        rules = rules if rules is not None else Rules(scoring=True)
        if rules.hand_limit is None:
            raise ValueError("an episode needs a table that ends: give rules a hand_limit")
        Game(list(range(players)), rules)  # refuses a player count the rules cannot take
        self.players = players
        self.rules = rules
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.fields = fields_for(players)
        size = sum(length for _, length, _ in self.fields)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        game = self.game = Game(list(range(self.players)), self.rules, self._seeds.getrandbits(64))
        game.start()
        for player in range(self.players):
            game.observation(player)  # kept up to date event by event from here on
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._returns = game.returns()
        self._events: list[Event] = []
        self._select()

    def _select(self) -> None:
        game = self.game
        assert game is not None
        player = game.to_move()
        if player is not None:
            self.agent_selection = f"player_{player}"

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        events = self._events
        events.clear()
        game.step(int(action), events)  # IllegalAction, and nothing changed, if not legal
        self._cumulative_rewards[agent] = 0.0
        if game.phase is Phase.HAND_OVER:
            game.begin_next_hand()
        returns = game.returns()
        self.rewards = {
            f"player_{p}": float(returns[p] - self._returns[p]) for p in range(self.players)
        }
        self._returns = returns
        if game.phase is Phase.ENDED:
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        game = self.game
        assert game is not None
        player = int(agent.removeprefix("player_"))
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if game.to_move() == player:
            mask[game.legal_ids()] = 1
        vector = information_state(game.observation(player), self.players)
        return {"observation": vector, "action_mask": mask}

    def decision(self, agent: str) -> tuple[Observation, Decision | None]:
        """What ``agent``'s seat knows (the engine's ``Observation``, rule 20) and the
        decision it owes now (``None`` when it owes none): for policies that score the
        engine's legal answers themselves rather than read the flat vector and mask."""
        game = self.game
        assert game is not None
        player = int(agent.removeprefix("player_"))
        return game.observation(player), game.decision_for(player)

    def action_id(self, action: Action) -> int:
        """The id ``step`` takes for the engine's ``action``."""
        game = self.game
        assert game is not None
        return game.action_id(action)

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def information_state(seen: Observation, players: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The observation vector of ``seen`` (one seat's ``Observation``), as ``fields_for``
    lists it: nothing in it comes from anywhere but that observation."""
    me = seen.viewer
    assert me is not None
    order = seen.order
    start = order.index(me) if me in order else 0
    seats = [order[(start + k) % len(order)] for k in range(len(order))]
    parts: list[list[float]] = []
    hand = seen.hand or (0,) * 14
    parts.append(list(hand[1:]))
    parts.append(list(seen.played[1:]))
    empty = (0,) * 14
    parts.append([n for p in seats for n in seen.played_by.get(p, empty)[1:]])
    known = knowledge_of(seen) if seen.phase in ("revolution", "taxes", "play") else {}
    parts.append(
        [n for p in seats for n in (known[p].known[1:] if p in known else (0,) * CARD_KINDS)]
    )
    parts.append([seen.counts.get(p, 0) for p in seats])
    parts.append([1 if k == start else 0 for k in range(players)])
    top = seen.to_beat
    parts.append([0, 0, 0] if top is None else [top.rank, top.count, top.jesters])
    parts.append([1 if p == seen.top_player else 0 for p in seats])
    parts.append([1 if p in seen.passed else 0 for p in seats])
    parts.append([seen.out.index(p) + 1 if p in seen.out else 0 for p in seats])
    parts.append([1 if seen.phase == phase else 0 for phase in PHASES])
    misdeal = seen.misdeal
    parts.append([1 if misdeal is not None and misdeal.card == k else 0 for k in range(1, 14)])
    parts.append([1 if misdeal is not None and misdeal.intended == p else 0 for p in seats])
    parts.append([1 if seen.taxes else 0])
    parts.append([0 if seen.revolution is None else 1])
    parts.append([seen.scores.get(p, 0) for p in seats])
    parts.append([seen.hand_number])
    return np.asarray([value for part in parts for value in part], dtype=np.float32)
