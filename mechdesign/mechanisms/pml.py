"""Named mechanisms for pointwise maximal leakage (Grosse et al., "Privacy Mechanism Design based on
Empirical Distributions", Example 2 and Theorem 5)."""

from __future__ import annotations

import math

import numpy as np

from .._validate import as_budget, as_positive_int, as_probability_vector
from ..exceptions import InvalidBudgetError, MechDesignError
from ..mechanism import Mechanism
from ..memory import check_array


def k_singular_mechanism(n: int, k: int) -> Mechanism:
    """A k-singular mechanism on ``n`` symbols (Grosse et al., Example 2): the circulant
    ``Q[x, y] = 1/k`` if ``(y − x) mod n < k``, else 0.

    It is doubly stochastic with entries in ``{0, 1/k}``; under the uniform prior its PML is
    ``log(n/k)`` at every output, and it is optimal for sub-convex utilities at ``ε = log(n/k)``
    (Grosse et al. 2024, Theorem 4).

    Examples
    --------
    >>> k_singular_mechanism(4, 2).matrix
    array([[0.5, 0.5, 0. , 0. ],
           [0. , 0.5, 0.5, 0. ],
           [0. , 0. , 0.5, 0.5],
           [0.5, 0. , 0. , 0.5]])
    """
    size = as_positive_int(n, "n")
    width = as_positive_int(k, "k")
    if width > size:
        raise MechDesignError(f"k must be at most n = {size}, got k = {width}")
    check_array((size, size), f"k_singular_mechanism({size}, {width})", copies=6)  # int offsets too
    offsets = (np.arange(size)[None, :] - np.arange(size)[:, None]) % size
    return Mechanism(np.where(offsets < width, 1.0 / width, 0.0))


def binary_robust_pml_mechanism(estimate: object, radius: float, epsilon: float) -> Mechanism:
    """The optimal binary mechanism for ε-PML over the ℓ1-ball ``B_β(P̂)`` (Grosse et al., Theorem 5).

    ``Q = 1/(1 + βe^ε) [[e^ε(1 − p1 + β/2), 1 − e^ε(1 − p1 − β/2)], [1 − e^ε(p1 − β/2), e^ε(p1 + β/2)]]``
    with ``p1 = P̂(x1) >= P̂(x2)``; it maximizes every sub-convex utility over the mechanisms that are
    ε-PML for every prior of the ball (checked against the exact LP in the tests).

    Parameters
    ----------
    estimate
        ``P̂ = (p1, p2)`` with ``p1 >= p2 > 0``.
    radius
        ``β`` with ``0 <= β < 2 p2``.
    epsilon
        ``0 <= ε <= −log(p1 − β/2)`` (the first privacy region for every prior of the ball).

    Examples
    --------
    >>> binary_robust_pml_mechanism([0.6, 0.4], 0.1, 0.3).matrix.round(4)
    array([[0.5352, 0.4648],
           [0.2269, 0.7731]])
    """
    p1, p2 = as_probability_vector(estimate, "estimate", size=2, full_support=True)
    if p1 < p2:
        raise MechDesignError(f"Theorem 5 orders the estimate with p1 >= p2, got ({p1}, {p2})")
    beta = as_budget(radius, "radius")
    if beta >= 2 * p2:
        raise InvalidBudgetError(f"radius must be below 2·p2 = {2 * p2:.6g}, got {beta!r}")
    eps = as_budget(epsilon)
    if eps > -math.log(p1 - beta / 2) + 1e-12:
        raise InvalidBudgetError(f"epsilon must be at most -log(p1 - β/2) = {-math.log(p1 - beta / 2):.6g}, got {eps!r}")
    boost, half = math.exp(eps), beta / 2
    matrix = np.array([
        [boost * (1 - p1 + half), 1 - boost * (1 - p1 - half)],
        [1 - boost * (p1 - half), boost * (p1 + half)],
    ]) / (1 + beta * boost)
    return Mechanism(matrix)
