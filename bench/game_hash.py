"""One digest of many seeded games: the same digest before and after a change to the
engine means the same seeds still give the same games (events, decisions, refusals).

    python bench/game_hash.py              # 300 games of 4 to 8 players, every rule on
    PYTHONPATH=/path/to/old/checkout python bench/game_hash.py   # the same on another engine

Random answers through the public API only (``pending``, ``apply``, ``begin_next_hand``),
with an illegal answer tried now and then (its refusal code is hashed too), newcomers and
leavers between hands, and now and then in play one seat's observation and a save/load
round trip (``to_dict``/``from_dict``) to play on from.
"""

from __future__ import annotations

import argparse
import hashlib
import random

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import Game, IllegalAction, Pass, Phase, Rules


def game_digest(games: int, hands: int) -> str:
    digest = hashlib.sha256()
    for index in range(games):
        players = 4 + index % 5
        rules = Rules.all_optional() if index % 2 == 0 else Rules(scoring=True)
        game = Game(list(range(players)), rules, seed=index)
        rng = random.Random(index)
        digest.update(repr(game.start()).encode())
        played = 0
        while game.phase is not Phase.ENDED and played < hands:
            if game.phase is Phase.HAND_OVER:
                played += 1
                if rng.random() < 0.2:  # a newcomer, or a player leaving
                    if rng.random() < 0.5 and len(game.order) < 8:
                        digest.update(repr(game.request_join(100 + played)).encode())
                    elif len(game.order) > 4:
                        digest.update(repr(game.request_leave(rng.choice(game.order))).encode())
                digest.update(repr(game.begin_next_hand()).encode())
                continue
            if game.phase is Phase.PLAY and rng.random() < 0.01:
                # Mid-hand: what one seat sees, and a save/load round trip to play on from.
                seat = rng.choice(game.order)
                digest.update(repr(game.observation(seat)).encode())
                game = Game.from_dict(game.to_dict())
            pending = sorted(game.pending().items())
            digest.update(repr(pending).encode())
            player, decision = pending[0]
            if rng.random() < 0.02:
                try:
                    game.apply(player, Pass())
                except IllegalAction as refused:
                    digest.update(refused.code.encode())
            if game.decision_for(player) != decision:
                continue
            digest.update(repr(game.apply(player, random_answer(decision, rng))).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--hands", type=int, default=5, help="hands per game (default 5)")
    args = parser.parse_args()
    print(game_digest(args.games, args.hands))


if __name__ == "__main__":
    main()
