"""Small statistics for comparing strategies: Student's t for 95% confidence intervals."""

from __future__ import annotations

import math

T_975_SMALL = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}
"""Student's t, 97.5th percentile, for the few degrees of freedom its expansion misses."""
Z_975 = 1.959964


def t_975(freedom: int) -> float:
    """Student's t quantile: a table for tiny samples, else the Cornish-Fisher expansion
    (within 0.003 of the exact value from 5 degrees of freedom on)."""
    if freedom in T_975_SMALL:
        return T_975_SMALL[freedom]
    z = Z_975
    return (
        z
        + (z**3 + z) / (4 * freedom)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * freedom**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * freedom**3)
    )


def mean_interval(samples: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (Student's t; NaN for one)."""
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return mean, math.nan
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1)
    return mean, t_975(n - 1) * math.sqrt(variance / n)
