"""Closed forms of Zhong & Bu, "Privacy-Utility Trade-Off" (the PUT paper).

Every function checks its domain and names the statement it implements. Logarithms are natural;
``m`` is the input alphabet size, ``D`` an expected Hamming distortion, ``ε`` a budget in nats.
Class I source sets (Definition 1) contain the uniform distribution.
"""

from __future__ import annotations

import math

from .._validate import as_budget, as_positive_int
from ..exceptions import MechDesignError


def _check_distortion(D: float) -> float:
    value = float(D)
    if not 0.0 < value <= 1.0:
        raise MechDesignError(f"distortion D must satisfy 0 < D <= 1, got {D!r}")
    return value


def _check_alphabet(m: int) -> int:
    size = as_positive_int(m, "m")
    if size < 2:
        raise MechDesignError(f"alphabet size m must be at least 2, got {m!r}")
    return size


def prop8_epsilon_dp(m: int, D: float) -> float:
    """ε*_DP(𝒫, D) for a class-I source set: PUT paper, Proposition 8(1).

    ``log((m−1)(1−D)/D)`` for ``0 < D < (m−1)/m``, and 0 for ``(m−1)/m <= D <= 1``.
    """
    size, distortion = _check_alphabet(m), _check_distortion(D)
    if distortion >= (size - 1) / size:
        return 0.0
    return math.log((size - 1) * (1 - distortion) / distortion)


def prop8_distortion_dp(m: int, epsilon: float) -> float:
    """D*_DP(𝒫, ε), the inverse of Proposition 8(1): ``(m−1)/(e^ε + m − 1)`` (randomized response)."""
    size, budget = _check_alphabet(m), as_budget(epsilon)
    return (size - 1) / (math.exp(budget) + size - 1)


def prop8_epsilon_ml(m: int, D: float) -> float:
    """ε*_ML(𝒫, D) for a class-I source set: PUT paper, Proposition 8(4).

    ``log(m(1−D))`` for ``0 < D < (m−1)/m``, and 0 for ``(m−1)/m <= D <= 1``.
    """
    size, distortion = _check_alphabet(m), _check_distortion(D)
    if distortion >= (size - 1) / size:
        return 0.0
    return math.log(size * (1 - distortion))


def prop8_distortion_ml(m: int, epsilon: float) -> float:
    """D*_ML(𝒫, ε), the inverse of Proposition 8(4): ``1 − e^ε/m`` for ``e^ε <= m``, else 0."""
    size, budget = _check_alphabet(m), as_budget(epsilon)
    return max(0.0, 1.0 - math.exp(budget) / size)
