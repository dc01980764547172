"""How fast a connection may send, sans-I/O: a token bucket fed the caller's clock.

It exists apart from the server so that both doors of a host (the TCP server, ``server.py``,
and the web table, ``web/seat.py``) hold their peers to the same rule, and so that it can be
tested without a clock: time is an input (``now``, in seconds, from whichever clock the
caller keeps), as it is for the table core.
"""

from __future__ import annotations


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``; full at ``now``."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = now

    def allow(self, now: float) -> bool:
        """Whether one more message may be taken at ``now`` (it then uses a token)."""
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
