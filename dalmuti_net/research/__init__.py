"""Research tools on top of the engine: a PettingZoo AEC environment.

Needs the ``research`` extra (``pip install 'dalmuti-net[research]'``: pettingzoo and
numpy); the game itself never imports this package. It imports only the engine.
"""

from .environment import DalmutiEnv, env, fields_for, information_state

__all__ = ["DalmutiEnv", "env", "fields_for", "information_state"]
