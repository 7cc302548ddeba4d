"""Closed forms of Grosse, Saeidian, Oechtering & Skoglund, "Privacy Mechanism Design based on
Empirical Distributions" (PML under an uncertain, estimated prior).

Every function checks its domain and names the statement it implements. Logarithms are natural; ``ε``
is a PML budget in nats, ``β`` an ℓ1-radius, ``m`` a number of samples and ``N`` the alphabet size.
Exact values to compare with live in :mod:`mechdesign.privacy.pml_analysis`.

Statement → function:

=================================  =====================================================================
Thm. 2 (Weissman et al.), φ, κ     :func:`thm2_deviation_bound`, :func:`thm2_weissman_phi`, :func:`thm2_weissman_kappa`
Eqs. (7), (8), Cor. 3              :func:`~mechdesign.priors.l1_radius` (eq. (7)), :func:`eq8_epsilon_prime`,
                                   :func:`cor3_delta_min_bound`
Thm. 3                             :func:`thm3_lipschitz_bound`
Thm. 4, eq. (6); Cor. 2            :func:`thm4_sensitivity_bound`, :func:`cor2_leakage_bound`
Prop. 2, eq. (13)                  :func:`eq13_modified_epsilon`
Thm. 5 (binary mechanism)          :func:`~mechdesign.mechanisms.binary_robust_pml_mechanism`
=================================  =====================================================================

Names follow one scheme across ``mechdesign.theory``: the statement's tag, then the quantity (e.g.
``thm6_dp_privacy_bounds``: PUT Thm. 6's bounds on ε* under DP; ``propc1_distortion_bound``: multi-secret
Prop. C.1's bound on the distortion).
The 0.1.0 names still work for one release and warn (``DeprecationWarning``; listed at the end of the file).
"""

from __future__ import annotations

import math

import numpy as np

from .._numeric import exp_budget
from .._validate import as_budget, as_finite, as_positive_int
from ..exceptions import MechDesignError, ProblemTooLargeError
from ._deprecated import deprecated_alias
from ..priors import PriorLike, as_prior, l1_radius, log_subsets
from ..privacy.pml_analysis import privacy_region

#: Budgets above ε_max = −log p_min by at most this are ε_max up to round-off (Theorem 4's domain).
EPSILON_MAX_ATOL = 1e-12
#: Largest alphabet for which :func:`thm2_weissman_kappa` enumerates the 2^N subsets.
KAPPA_MAX_SIZE = 22


def thm3_lipschitz_bound(capacity: float, distance: float) -> float:
    """Theorem 3: ``|ε_min(Q, P) − ε_min(Q, P')| <= exp(C(Q, 𝒫)) ‖P − P'‖₁`` for ``P, P' ∈ 𝒫``.

    Parameters
    ----------
    capacity
        The 𝒫-local leakage capacity ``C(Q, 𝒫)`` (Definition 5); ``inf`` gives the vacuous bound ``inf``.
    distance
        ``‖P − P'‖₁``.

    Examples
    --------
    >>> round(thm3_lipschitz_bound(0.5, 0.1), 6)
    0.164872
    """
    radius = as_budget(distance, "distance")
    if capacity == math.inf:
        return math.inf if radius > 0 else 0.0
    return exp_budget(as_budget(capacity, "capacity")) * radius if radius > 0 else 0.0


def thm4_sensitivity_bound(prior: PriorLike, epsilon: float, beta: float) -> float:
    """Theorem 4, eq. (6): the bound on the sensitivity ``S_P(Q, B_β(P))`` of an ε-PML mechanism.

    ``−log(1 − (β/2)(e^ε − 1)/p_min)`` if ε is in the first privacy region (``ε < −log(1 − p_min)``),
    else ``−log(1 − β e^ε / 2)``. Equality: in region 1 for extremal mechanisms (some column with
    ``max = e^ε P_Y`` and ``min = (1 − e^ε(1 − p_min)) P_Y / p_min``); in the other regions when
    ``ε = ε_min(Q, P)`` and every column has a zero (docs/errata.md).

    Domain: ``P`` of full support, ``0 <= β < 2 p_min`` and ``ε <= ε_max = −log p_min``.

    Examples
    --------
    >>> round(thm4_sensitivity_bound([0.4, 0.2, 0.2, 0.2], math.log(9 / 8), 0.1), 6)
    0.031749
    """
    probabilities = as_prior(prior, full_support=True).probabilities
    p_min = float(probabilities.min())
    budget, radius = as_budget(epsilon), as_budget(beta, "radius beta")
    if radius >= 2 * p_min:
        raise MechDesignError(f"Theorem 4 needs beta < 2 p_min = {2 * p_min:.12g}, got beta = {radius!r}")
    epsilon_max = -math.log(p_min)
    if budget > epsilon_max + EPSILON_MAX_ATOL:
        raise MechDesignError(
            f"Theorem 4 needs epsilon <= epsilon_max = -log p_min = {epsilon_max:.12g}, got {budget!r} "
            "(every mechanism satisfies epsilon_max-PML)"
        )
    budget = min(budget, epsilon_max)
    if privacy_region(budget, probabilities) == 1:
        return -math.log1p(-radius / 2 * math.expm1(budget) / p_min)
    return -math.log1p(-radius * math.exp(budget) / 2)


def cor2_leakage_bound(epsilon: float, distance: float) -> float:
    """Corollary 2: ``ε_min(Q, P') <= ε + log(1 − e^ε ‖P − P'‖₁ / 2)^{−1}`` for ε-PML ``Q`` w.r.t. ``P``.

    Domain: ``‖P − P'‖₁ < 2 e^{−ε}``. (The proof of Theorem 4's second case holds for any such
    ``P'``; ``‖P − P'‖₁ < 2 p_min`` is not needed.)

    Examples
    --------
    >>> round(cor2_leakage_bound(0.5, 0.1), 6)
    0.586033
    """
    budget, radius = as_budget(epsilon), as_budget(distance, "distance")
    if radius == 0:
        return budget
    if radius * exp_budget(budget) >= 2:
        raise MechDesignError(
            f"Corollary 2 needs distance < 2 e^-epsilon = {2 * math.exp(-budget):.12g}, got {radius!r}"
        )
    return budget - math.log1p(-radius * math.exp(budget) / 2)


def eq13_modified_epsilon(epsilon: float, beta: float) -> float:
    """Eq. (13) of Proposition 2: ``ε' = log(e^ε / (1 + (β/2) e^ε))``, the budget of constraint (10).

    ``M(ε', P̂) ⊆ M(ε, B_β(P̂))``: a mechanism that is ε'-PML for ``P̂`` is ε-PML for the whole ball.
    ``ε'`` is negative when ``e^ε (1 − β/2) < 1`` (then no mechanism is ε'-PML for ``P̂``).

    Examples
    --------
    >>> round(eq13_modified_epsilon(1.0, 0.2), 6)
    0.759545
    """
    budget, radius = as_budget(epsilon), as_budget(beta, "radius beta")
    return budget - math.log1p(radius / 2 * math.exp(budget))


def eq8_epsilon_prime(epsilon: float, delta: float, n_samples: int, size: int) -> float:
    """Eq. (8): ``ε'(δ) = ε + log(1 − β*(δ) e^ε / 2)^{−1}`` with ``β*(δ)`` of eq. (7).

    A mechanism that is ε-PML for an estimate from ``m`` samples is ε'(δ)-PML for the true prior
    with probability at least ``1 − δ``. Domain: ``β*(δ) e^ε < 2`` (else the bound is vacuous).

    Examples
    --------
    >>> round(eq8_epsilon_prime(1.0, 0.01, 10000, 4), 6)
    1.05312
    """
    return cor2_leakage_bound(epsilon, l1_radius(delta, n_samples, size))


def thm2_weissman_phi(p: float) -> float:
    """``φ(p) = log((1 − p)/p) / (1 − 2p)`` on ``[0, 1/2]``, ``φ(1/2) = 2`` (Section II-B, Weissman et al.).

    Written as ``2 atanh(u)/u`` with ``u = 1 − 2p``, stable near ``p = 1/2``; ``φ(0) = inf``.

    Examples
    --------
    >>> round(thm2_weissman_phi(0.25), 6)
    2.197225
    """
    value = as_finite(p, "p")
    if not 0.0 <= value <= 0.5:
        raise MechDesignError(f"phi is defined on [0, 1/2], got p = {p!r}")
    u = 1.0 - 2.0 * value
    if u == 0.0:
        return 2.0
    if u == 1.0:
        return math.inf
    return 2.0 * math.atanh(u) / u


def thm2_weissman_kappa(prior: PriorLike) -> float:
    """``κ_P = max_{A ⊆ 𝒳} min(P(A), 1 − P(A))`` (Section II-B): the subset mass closest to 1/2.

    Exact, by enumerating the 2^N subset sums (``N <= KAPPA_MAX_SIZE``).

    Examples
    --------
    >>> round(thm2_weissman_kappa([0.6, 0.3, 0.1]), 6)
    0.4
    """
    probabilities = as_prior(prior).probabilities
    if probabilities.size > KAPPA_MAX_SIZE:
        raise ProblemTooLargeError(f"kappa enumerates 2^N subsets; N = {probabilities.size} > {KAPPA_MAX_SIZE}")
    sums = np.zeros(1)
    for probability in probabilities:
        sums = np.concatenate([sums, sums + probability])
    return float(np.max(np.minimum(sums, 1.0 - sums)))


def thm2_deviation_bound(beta: float, n_samples: int, size: int, phi: float = 2.0) -> float:
    """Theorem 2 (Weissman et al.): ``P{‖P − P̂‖₁ >= β} <= (2^N − 2) exp(−m φ(κ_P) β² / 4)``.

    With the default ``φ = 2`` (``φ(κ) >= 2``) the bound holds for every prior. Returned as printed,
    so it may exceed 1 (vacuous).

    Examples
    --------
    >>> round(thm2_deviation_bound(0.3, 100, 3), 6)
    0.066654
    """
    radius = as_budget(beta, "radius beta")
    m, n = as_positive_int(n_samples, "n_samples"), as_positive_int(size, "size", minimum=2)
    return math.exp(log_subsets(n) - m * as_finite(phi, "phi", minimum=2.0) * radius**2 / 4.0)


def cor3_delta_min_bound(epsilon: float, epsilon_prime: float, n_samples: int, size: int) -> float:
    """Corollary 3: ``δ_min(ε') <= (2^N − 2) exp(−2m (e^{−ε} − e^{−ε'})²)`` for ``ε' > ε``.

    A mechanism that is ε-PML for an estimate from ``m`` samples is ε'-PML for the true prior except
    with probability at most this (eqs. (7) and (8) solved for δ). May exceed 1 (vacuous).

    Examples
    --------
    >>> round(cor3_delta_min_bound(1.0, 1.2, 10000, 4), 6)
    0.0
    """
    budget, target = as_budget(epsilon), as_budget(epsilon_prime, "epsilon_prime")
    if target <= budget:
        raise MechDesignError(f"Corollary 3 needs epsilon_prime > epsilon = {budget!r}, got {target!r}")
    gap = math.exp(-budget) - math.exp(-target)
    return thm2_deviation_bound(2.0 * gap, n_samples, size)


# Names of 0.1.0, renamed to the statement-tag scheme in 0.2.0: each warns (DeprecationWarning) and calls the new one.
weissman_phi = deprecated_alias(thm2_weissman_phi, "weissman_phi")
weissman_kappa = deprecated_alias(thm2_weissman_kappa, "weissman_kappa")
