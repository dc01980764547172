"""The rate limiter both doors share: a token bucket on the caller's clock."""

from dalmuti_net.host.ratelimit import RateLimiter


def test_a_burst_is_allowed_then_refused_until_time_refills_it() -> None:
    limiter = RateLimiter(rate=2, burst=4, now=10.0)
    assert [limiter.allow(10.0) for _ in range(5)] == [True, True, True, True, False]
    assert not limiter.allow(10.25)  # half a token
    assert limiter.allow(10.5) and not limiter.allow(10.5)
    assert [limiter.allow(100.0) for _ in range(5)] == [True, True, True, True, False]


def test_the_clock_is_the_callers() -> None:
    limiter = RateLimiter(rate=1, burst=1, now=0.0)
    assert limiter.allow(0.0) and not limiter.allow(0.0)
    assert limiter.allow(1.0)
