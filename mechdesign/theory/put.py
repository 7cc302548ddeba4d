"""Closed forms of Zhong & Bu, "Privacy-Utility Trade-Off" (the PUT paper).

Every function checks its domain, names the statement it implements, and returns a number or a
``(lower, upper)`` pair for a bound. Logarithms are natural; ``m`` is the size of one attribute's
alphabet, ``n`` the number of attributes (the global framework of Section III works on
``{1..m}^n`` with the Hamming distance, so a distortion ``D`` lies in ``(0, n]``), ``ε`` a budget in
nats, ``δ`` the slack of approximate DP (the pointwise Definition 3(2)), ``α > 1`` a Rényi/Sibson
order. Class I source sets (Definition 1) contain the uniform distribution in their convex hull.

Statements the numerics contradict are implemented in their corrected form; ``docs/errata.md``
(section "PUT (Zhong & Bu)") records each one with the evidence.

Statement → function
--------------------
=====================================  =====================================================================
Lemma 5(2)                             :func:`lemma5_zero_threshold`
Thm 6(1)–(7)                           :func:`thm6_dp_privacy_bounds`, :func:`thm6_approx_dp_privacy_bounds`, :func:`thm6_maximal_information_privacy_bounds`
                                       (:func:`thm6_qd_maximal_information`), :func:`thm6_maximal_leakage_privacy_bounds`,
                                       :func:`thm6_renyi_dp_privacy_bounds` (:func:`thm6_qd_renyi_dp`), :func:`thm6_sibson_privacy_bounds`
                                       (:func:`thm6_qd_sibson`), :func:`thm6_mutual_information_privacy_bounds` (:func:`thm6_qd_mutual_information`)
Thm 7(1)–(7)                           ``thm7_*`` (Theorem 6 with θ* = 1)
Prop. 8(1)–(7)                         ``prop8_*_privacy[_bounds]`` and the inverses :func:`prop8_dp_distortion`,
                                       :func:`prop8_approx_dp_distortion`, :func:`prop8_maximal_leakage_distortion`
Thm 9, Lemma 10, Thm 13                :func:`thm9_approx_dp_privacy`, :func:`lemma10_zero_threshold`, :func:`thm13_dp_privacy`
Prop. 12, Thm 14, Cor. 15              :func:`prop12_approx_dp_privacy`, :func:`thm14_maximal_leakage_privacy`, :func:`cor15_maximal_leakage_distortion`
Lemma 16, Thms 17, 18                  :func:`lemma16_product_privacy`, ``thm17_*``, ``thm18_*``
Lemma 20(4), (8), (9)                  :func:`lemma20_orderings` (the chains of inequalities between the losses)
Lemma 22 (Rényi preservation)          :func:`lemma22_probability_bound`
Lemma 23 (Sibson preservation)         :func:`lemma23_probability_bound`
=====================================  =====================================================================

Conventions shared by every function
------------------------------------
* ``max{0, log x}`` is 0 whenever ``x <= 1`` *or* the expression is undefined because the quantity
  under the logarithm is not positive (the bound is then the trivial one, ε ≥ 0).
* A prior ``P`` over ``{1..m}`` (Section IV) need not be sorted: ε* is invariant under relabelling
  the symbols, so the functions sort it non-increasingly, as the statements assume.
* ``D^(k)`` (Theorem 9) is the total probability of the ``k`` least likely symbols.

Names follow one scheme across ``mechdesign.theory``: the statement's tag, then the quantity (e.g.
``thm6_dp_privacy_bounds``: PUT Thm. 6's bounds on ε* under DP; ``propc1_distortion_bound``: multi-secret
Prop. C.1's bound on the distortion).
The 0.1.0 names still work for one release and warn (``DeprecationWarning``; listed at the end of the file).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from .._lazy import LazyFunction

from .._numeric import exp_budget
from .._validate import as_budget, as_delta, as_finite, as_order, as_positive_int, as_probability_vector
from ..exceptions import MechDesignError
from ._deprecated import deprecated_alias
from ..mechanisms.global_framework import hamming_distances, parallel_composition_factor
from ..priors import as_source_set
from ..privacy.base import PrivacyNotion
from ..source_classes import common_order, contains_uniform

linprog = LazyFunction("scipy.optimize", "linprog")
logsumexp = LazyFunction("scipy.special", "logsumexp")

Bounds = tuple[float, float]

#: A distortion this close below the Lemma 10 threshold (1−δ)(1 − P_1) counts as the threshold: ε*
#: jumps there (from log(P_1/P_2) to 0), and D^(m−1) summed from the small end differs from 1 − P_1
#: by round-off.
THRESHOLD_ATOL = 1e-12
#: An event probability summed from a distribution may leave [0, 1] by this much (round-off); it is clipped.
PROBABILITY_ATOL = 1e-12
#: Width of the α₁ bracket at which the golden-section search of Proposition 12 stops.
PROP12_ALPHA_TOL = 1e-10


# ----------------------------------------------------------------------------------------------
# Domain checks and small shared pieces
# ----------------------------------------------------------------------------------------------
def _check_alphabet(m: int) -> int:
    size = as_positive_int(m, "m")
    if size < 2:
        raise MechDesignError(f"alphabet size m must be at least 2, got {m!r}")
    return size


def _check_distortion(D: float, n: int = 1) -> float:
    value = as_finite(D, "distortion D")
    if not 0.0 < value <= n:
        bound = "1" if n == 1 else f"n = {n}"
        raise MechDesignError(f"distortion D must satisfy 0 < D <= {bound}, got {D!r}")
    return value


def _check_theta(theta: float, name: str = "theta") -> float:
    value = as_finite(theta, name)
    if not 0.0 < value <= 1.0:
        raise MechDesignError(f"{name} must satisfy 0 < {name} <= 1, got {theta!r}")
    return value


def _check_delta(delta: float) -> float:
    value = as_delta(delta)
    if value == 0.0:
        raise MechDesignError("delta must satisfy 0 < delta < 1 for approximate DP (use the DP statement for 0)")
    return value


def _log_pos(x: float) -> float:
    """``max{0, log x}``, and 0 when ``x <= 0`` (the bound is trivial there)."""
    return math.log(x) if x > 1.0 else 0.0


def _sorted_prior(prior: Any) -> np.ndarray:
    """A full-support prior sorted non-increasingly (ε* does not depend on the labels)."""
    vector = as_probability_vector(getattr(prior, "probabilities", prior), "prior", full_support=True)
    if vector.size < 2:
        raise MechDesignError(f"the prior needs at least 2 symbols, got {vector.size}")
    return np.sort(vector)[::-1]


def thm9_breakpoints(prior: Any) -> np.ndarray:
    """``D^(k)`` for ``k = 0..m``: the mass of the ``k`` least likely symbols (PUT Theorem 9).

    Examples
    --------
    >>> thm9_breakpoints([0.1, 0.4, 0.2, 0.3]).round(6).tolist()
    [0.0, 0.1, 0.3, 0.6, 1.0]
    """
    return np.concatenate([[0.0], np.cumsum(_sorted_prior(prior)[::-1])])


def lemma5_zero_threshold(m: int, n: int = 1) -> float:
    """``n(m−1)/m``: from this distortion on, every privacy-distortion function is 0.

    PUT Lemma 5(2) (the uniform mechanism ``Q_U`` is (𝒫, D)-valid). The printed range
    ``n(m−1)/m <= D <= 1`` should read ``<= n`` (errata).

    Examples
    --------
    >>> round(lemma5_zero_threshold(3, 2), 6)
    1.333333
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    return blocks * (size - 1) / size


def _in_zero_region(m: int, n: int, D: float) -> bool:
    return D >= lemma5_zero_threshold(m, n)


def _source_points(source: Any, size: int | None = None) -> np.ndarray:
    return as_source_set(source, size).extreme_points


# ----------------------------------------------------------------------------------------------
# Section III — global framework on {1..m}^n
# ----------------------------------------------------------------------------------------------
def thm6_dp_privacy_bounds(m: int, n: int, D: float, theta: float) -> Bounds:
    """Bounds on ε̃*_DP(𝒫, D): PUT Theorem 6(1).

    ``max{0, log((m−1)(θ*n − D)/D)} <= ε̃* <= max{0, log((m−1)(n − D)/D)}``, with
    ``θ* = m^n max_{P∈𝒫} min_x P(x)``; both are 0 for ``D >= n(m−1)/m``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm6_dp_privacy_bounds(2, 2, 0.4, 0.64))
    (0.788457, 1.386294)
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    D, theta = _check_distortion(D, blocks), _check_theta(theta)
    if _in_zero_region(size, blocks, D):
        return 0.0, 0.0
    return _log_pos((size - 1) * (theta * blocks - D) / D), _log_pos((size - 1) * (blocks - D) / D)


def thm6_approx_dp_privacy_bounds(m: int, n: int, D: float, delta: float, theta: float) -> Bounds:
    """Bounds on ε̃*_δ(𝒫, D): PUT Theorem 6(2).

    Lower ``max{0, log((m−1)(θ*n(1 − δm^{n−1}) − D)/D)}``; upper
    ``max{0, log((m−1)(n − D)/D · (1 − δ(1 − D/n)^{−n}))}`` (the loss of ``Q_D``).

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm6_approx_dp_privacy_bounds(2, 2, 0.4, 0.05, 0.64))
    (0.631272, 1.304949)
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    D, theta, delta = _check_distortion(D, blocks), _check_theta(theta), _check_delta(delta)
    if _in_zero_region(size, blocks, D):
        return 0.0, 0.0
    lower = (size - 1) * (theta * blocks * (1 - delta * size ** (blocks - 1)) - D) / D
    upper = (size - 1) * (blocks - D) / D * (1 - delta * (1 - D / blocks) ** (-blocks))
    return _log_pos(lower), _log_pos(upper)


def thm6_qd_maximal_information(m: int, n: int, D: float, source: Any) -> float:
    """ε̃_MI(Q_D) over a source set: ``−log min_{P∈𝒫, y} Σ_{l=0}^{n} A^{−l} P(N_l(y))``.

    PUT Theorem 6(3)/7(3) upper bound, ``A = (m−1)(n−D)/D``; the printed sum runs to ``m``, which
    should read ``n`` (the distances ``l`` go from 0 to n; errata). ``source`` is a prior, a
    :class:`~mechdesign.priors.SourceSet` or an array of priors over the ``m^n`` inputs (ordered as
    :func:`~mechdesign.mechanisms.global_framework.hamming_distances`). The minimum over the convex hull is attained at an extreme point.

    Examples
    --------
    >>> round(thm6_qd_maximal_information(2, 2, 0.4, [0.25] * 4), 6)
    0.940007
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    D = _check_distortion(D, blocks)
    points = _source_points(source, size**blocks)
    if _in_zero_region(size, blocks, D):
        return 0.0
    ratio = (size - 1) * (blocks - D) / D
    weights = ratio ** (-hamming_distances(size, blocks))
    return max(0.0, -math.log(float((points @ weights).min())))


def thm6_maximal_information_privacy_bounds(m: int, n: int, D: float, theta: float, source: Any) -> Bounds:
    """Bounds on ε̃*_MI(𝒫, D): PUT Theorem 6(3).

    Lower ``max{0, log(m(1 − D/(θ*n)))}``; upper :func:`thm6_qd_maximal_information`.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm6_maximal_information_privacy_bounds(2, 2, 0.4, 1.0, [0.25] * 4))
    (0.470004, 0.940007)
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    D, theta = _check_distortion(D, blocks), _check_theta(theta)
    upper = thm6_qd_maximal_information(size, blocks, D, source)
    if _in_zero_region(size, blocks, D):
        return 0.0, 0.0
    return _log_pos(size * (1 - D / (theta * blocks))), upper


def thm6_maximal_leakage_privacy_bounds(m: int, n: int, D: float, theta: float) -> Bounds:
    """Bounds on ε̃*_ML(𝒫, D): PUT Theorem 6(4).

    ``max{0, log(m(1 − D/(θ*n)))} <= ε̃* <= max{0, n log(m(1 − D/n))}``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm6_maximal_leakage_privacy_bounds(2, 2, 0.4, 0.64))
    (0.318454, 0.940007)
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    D, theta = _check_distortion(D, blocks), _check_theta(theta)
    if _in_zero_region(size, blocks, D):
        return 0.0, 0.0
    return _log_pos(size * (1 - D / (theta * blocks))), blocks * _log_pos(size * (1 - D / blocks))


def thm6_qd_renyi_dp(m: int, n: int, D: float, alpha: float) -> float:
    """ε̃_{α,DP}(Q_D) = (1/(α−1)) log[D/(n(m−1)) (m − 2 + A^α + A^{1−α})], ``A = (n−D)(m−1)/D``.

    PUT Theorem 6(5) upper bound (proof step 1.1); clipped at 0.

    Examples
    --------
    >>> round(thm6_qd_renyi_dp(3, 1, 0.2, 2.0), 6)
    1.873723
    """
    size, blocks, order = _check_alphabet(m), as_positive_int(n, "n"), as_order(alpha)
    D = _check_distortion(D, blocks)
    if _in_zero_region(size, blocks, D):
        return 0.0
    log_ratio = math.log((blocks - D) * (size - 1) / D)
    terms = [order * log_ratio, (1 - order) * log_ratio] + ([math.log(size - 2)] if size > 2 else [])
    log_inner = math.log(D / (blocks * (size - 1))) + float(logsumexp(terms))
    return max(0.0, log_inner / (order - 1))


def thm6_renyi_dp_privacy_bounds(m: int, n: int, D: float, alpha: float, theta: float) -> Bounds:
    """Bounds on ε̃*_{α,DP}(𝒫, D): PUT Theorem 6(5).

    Lower ``max{0, log[(m−1)(n − D/θ*)^{α/(α−1)} / (D/θ*)] − log(n m^{n−1})/(α−1)}``; upper
    :func:`thm6_qd_renyi_dp`.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm6_renyi_dp_privacy_bounds(3, 1, 0.2, 2.0, 1.0))
    (1.856298, 1.873723)
    """
    size, blocks, order = _check_alphabet(m), as_positive_int(n, "n"), as_order(alpha)
    D, theta = _check_distortion(D, blocks), _check_theta(theta)
    upper = thm6_qd_renyi_dp(size, blocks, D, order)
    scaled = D / theta
    if _in_zero_region(size, blocks, D) or scaled >= blocks:
        return 0.0, upper
    lower = (math.log(size - 1) + order / (order - 1) * math.log(blocks - scaled) - math.log(scaled)
             - math.log(blocks * size ** (blocks - 1)) / (order - 1))
    return max(0.0, lower), upper


def thm6_qd_sibson(m: int, n: int, D: float, alpha: float) -> float:
    """ε̃_{α,M}(Q_D) = ``n log(m((n−D)^α + D^α(m−1)^{1−α})^{1/(α−1)}) − α n log(n)/(α−1)``.

    PUT Theorem 6(6)/7(6) upper bound, clipped at 0: the Sibson information of ``Q_D`` (the product
    of ``n`` randomized responses of distortion ``D/n``) at the uniform prior, which maximizes it.

    Examples
    --------
    >>> round(thm6_qd_sibson(3, 1, 0.2, 2.0), 6)
    0.683097
    """
    size, blocks, order = _check_alphabet(m), as_positive_int(n, "n"), as_order(alpha)
    D = _check_distortion(D, blocks)
    if _in_zero_region(size, blocks, D):
        return 0.0
    log_inner = float(logsumexp([order * math.log(blocks - D), order * math.log(D) + (1 - order) * math.log(size - 1)]))
    value = blocks * (math.log(size) + log_inner / (order - 1)) - order / (order - 1) * blocks * math.log(blocks)
    return max(0.0, value)


def thm6_sibson_privacy_bounds(m: int, n: int, D: float, alpha: float, theta: float) -> Bounds:
    """Bounds on ε̃*_{α,M}(𝒫, D): PUT Theorem 6(6).

    Lower ``max{0, (α−n)/(α−1) log m + α/(α−1) log[(1 − D/n) / (½(1−θ*)(n+1)m + θ*)]}``; upper
    :func:`thm6_qd_sibson`.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm6_sibson_privacy_bounds(3, 1, 0.2, 2.0, 1.0))
    (0.652325, 0.683097)
    """
    size, blocks, order = _check_alphabet(m), as_positive_int(n, "n"), as_order(alpha)
    D, theta = _check_distortion(D, blocks), _check_theta(theta)
    upper = thm6_qd_sibson(size, blocks, D, order)
    if _in_zero_region(size, blocks, D):
        return 0.0, 0.0
    spread = 0.5 * (1 - theta) * (blocks + 1) * size + theta
    lower = ((order - blocks) / (order - 1) * math.log(size)
             + order / (order - 1) * math.log((1 - D / blocks) / spread))
    return max(0.0, lower), upper


def thm6_qd_mutual_information(m: int, n: int, D: float) -> float:
    """``n log(m(1 − D/n)) + D log(D/((m−1)(n−D)))``, clipped at 0: I(P_U; Q_D), PUT Thm 6(7)/7(7).

    Examples
    --------
    >>> round(thm6_qd_mutual_information(2, 1, 0.1), 6)
    0.368064
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    D = _check_distortion(D, blocks)
    if _in_zero_region(size, blocks, D):
        return 0.0
    return max(0.0, blocks * math.log(size * (1 - D / blocks)) + D * math.log(D / ((size - 1) * (blocks - D))))


def thm6_mutual_information_privacy_bounds(m: int, n: int, D: float, theta: float, eta: float) -> Bounds:
    """Bounds on ε̃*_M(𝒫, D): PUT Theorem 6(7).

    Lower ``max{0, θ*n log(η^{−1/n}(1 − D/(nθ*))) + θ*D log(D/((m−1)(nθ* − D)))}`` with
    ``η = max_x P'(x)``, ``P'`` the maximizer of ``min_x P(x)``; upper :func:`thm6_qd_mutual_information`.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm6_mutual_information_privacy_bounds(2, 2, 0.4, 0.64, 0.36))
    (0.0, 0.38549)
    """
    size, blocks = _check_alphabet(m), as_positive_int(n, "n")
    D, theta = _check_distortion(D, blocks), _check_theta(theta)
    eta = _check_theta(eta, "eta")
    upper = thm6_qd_mutual_information(size, blocks, D)
    if _in_zero_region(size, blocks, D) or D >= theta * blocks:
        return 0.0, upper
    lower = (theta * blocks * math.log(eta ** (-1 / blocks) * (1 - D / (blocks * theta)))
             + theta * D * math.log(D / ((size - 1) * (blocks * theta - D))))
    return max(0.0, lower), upper


def thm7_dp_privacy(m: int, n: int, D: float) -> float:
    """ε̃*_DP(𝒫, D) = max{0, log((m−1)(n − D)/D)} for Class I: PUT Theorem 7(1).

    Examples
    --------
    >>> round(thm7_dp_privacy(2, 2, 0.4), 6)
    1.386294
    """
    lower, upper = thm6_dp_privacy_bounds(m, n, D, 1.0)
    return upper


def thm7_approx_dp_privacy_bounds(m: int, n: int, D: float, delta: float) -> Bounds:
    """Bounds on ε̃*_δ(𝒫, D) for Class I: PUT Theorem 7(2) (Theorem 6(2) with θ* = 1).

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm7_approx_dp_privacy_bounds(2, 2, 0.4, 0.05))
    (1.252763, 1.304949)
    """
    return thm6_approx_dp_privacy_bounds(m, n, D, delta, 1.0)


def thm7_maximal_information_privacy_bounds(m: int, n: int, D: float, source: Any) -> Bounds:
    """Bounds on ε̃*_MI(𝒫, D) for Class I: PUT Theorem 7(3) (Theorem 6(3) with θ* = 1).

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm7_maximal_information_privacy_bounds(2, 2, 0.4, [0.25] * 4))
    (0.470004, 0.940007)
    """
    return thm6_maximal_information_privacy_bounds(m, n, D, 1.0, _class_one(source, m, n))


def thm7_maximal_leakage_privacy_bounds(m: int, n: int, D: float) -> Bounds:
    """Bounds on ε̃*_ML(𝒫, D) for Class I: PUT Theorem 7(4).

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm7_maximal_leakage_privacy_bounds(2, 2, 0.4))
    (0.470004, 0.940007)
    """
    return thm6_maximal_leakage_privacy_bounds(m, n, D, 1.0)


def thm7_renyi_dp_privacy_bounds(m: int, n: int, D: float, alpha: float) -> Bounds:
    """Bounds on ε̃*_{α,DP}(𝒫, D) for Class I: PUT Theorem 7(5).

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm7_renyi_dp_privacy_bounds(2, 2, 0.4, 2.0))
    (0.470004, 1.178655)
    """
    return thm6_renyi_dp_privacy_bounds(m, n, D, alpha, 1.0)


def thm7_sibson_privacy_bounds(m: int, n: int, D: float, alpha: float) -> Bounds:
    """Bounds on ε̃*_{α,M}(𝒫, D) for Class I: PUT Theorem 7(6).

    Lower ``max{0, ε̃*_M(𝒫, D), log(m^{α−n}(1 − D/n)^α)/(α−1)}`` (Sibson information is at least
    mutual information, Lemma 20(9)); upper :func:`thm6_qd_sibson`.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm7_sibson_privacy_bounds(2, 2, 0.4, 2.0))
    (0.38549, 0.614969)
    """
    lower, upper = thm6_sibson_privacy_bounds(m, n, D, alpha, 1.0)
    return max(lower, thm7_mutual_information_privacy(m, n, D)), upper


def thm7_mutual_information_privacy(m: int, n: int, D: float) -> float:
    """ε̃*_M(𝒫, D) = max{0, n log(m(1 − D/n)) + D log(D/((m−1)(n−D)))} for Class I: PUT Thm 7(7).

    Examples
    --------
    >>> round(thm7_mutual_information_privacy(2, 2, 0.4), 6)
    0.38549
    """
    return thm6_qd_mutual_information(m, n, D)


def _class_one(source: Any, m: int, n: int) -> np.ndarray:
    """The extreme points of ``source`` over ``m^n`` inputs, which must form a Class I set."""
    points = _source_points(source, _check_alphabet(m) ** as_positive_int(n, "n"))
    if not contains_uniform(points):
        raise MechDesignError("the source set is not Class I: its convex hull misses the uniform distribution")
    return points


# ----------------------------------------------------------------------------------------------
# Section IV-A — local framework, Class I (n = 1 in Theorem 7)
# ----------------------------------------------------------------------------------------------
def prop8_dp_privacy(m: int, D: float) -> float:
    """ε*_DP(𝒫, D) for a class-I source set: PUT Proposition 8(1).

    ``log((m−1)(1−D)/D)`` for ``0 < D < (m−1)/m``, and 0 for ``(m−1)/m <= D <= 1``.

    Examples
    --------
    >>> round(prop8_dp_privacy(3, 0.2), 6)
    2.079442
    """
    return thm7_dp_privacy(m, 1, D)


def prop8_dp_distortion(m: int, epsilon: float) -> float:
    """D*_DP(𝒫, ε), the inverse of Proposition 8(1): ``(m−1)/(e^ε + m − 1)`` (randomized response).

    Examples
    --------
    >>> round(prop8_dp_distortion(3, 2.0), 6)
    0.213014
    """
    size, budget = _check_alphabet(m), as_budget(epsilon)
    return (size - 1) / (exp_budget(budget) + size - 1)


def prop8_approx_dp_privacy(m: int, D: float, delta: float) -> float:
    """ε*_δ(𝒫, D) for a class-I source set: PUT Proposition 8(2).

    ``log((m−1)(1−D−δ)/D)`` for ``0 < D < (1−δ)(m−1)/m``, else 0 (the lower and upper bounds of
    Theorem 7(2) coincide for ``n = 1``).

    Examples
    --------
    >>> round(prop8_approx_dp_privacy(3, 0.2, 0.1), 6)
    1.94591
    """
    lower, upper = thm7_approx_dp_privacy_bounds(m, 1, D, delta)
    return upper


def prop8_approx_dp_distortion(m: int, epsilon: float, delta: float) -> float:
    """D*_δ(𝒫, ε), the inverse of Proposition 8(2): ``(m−1)(1−δ)/(e^ε + m − 1)``.

    Examples
    --------
    >>> round(prop8_approx_dp_distortion(3, 1.0, 0.1), 6)
    0.381495
    """
    size, budget, slack = _check_alphabet(m), as_budget(epsilon), _check_delta(delta)
    return (size - 1) * (1 - slack) / (exp_budget(budget) + size - 1)


def prop8_maximal_information_privacy_bounds(m: int, D: float, source: Any) -> Bounds:
    """Bounds on ε*_MI(𝒫, D) for a class-I source set: PUT Proposition 8(3).

    ``log(m(1−D)) <= ε* <= log[(1−D) / (P*(1 − D − D/(m−1)) + D/(m−1))]`` for
    ``D < (m−1)/m`` (0 beyond), with ``P* = min_{P∈𝒫} min_i P_i``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in prop8_maximal_information_privacy_bounds(3, 0.2, [1 / 3] * 3))
    (0.875469, 0.875469)
    """
    return thm7_maximal_information_privacy_bounds(m, 1, D, source)


def prop8_maximal_leakage_privacy(m: int, D: float) -> float:
    """ε*_ML(𝒫, D) for a class-I source set: PUT Proposition 8(4).

    ``log(m(1−D))`` for ``0 < D < (m−1)/m``, and 0 for ``(m−1)/m <= D <= 1``.

    Examples
    --------
    >>> round(prop8_maximal_leakage_privacy(3, 0.2), 6)
    0.875469
    """
    lower, upper = thm7_maximal_leakage_privacy_bounds(m, 1, D)
    return upper


def prop8_maximal_leakage_distortion(m: int, epsilon: float) -> float:
    """D*_ML(𝒫, ε), the inverse of Proposition 8(4): ``1 − e^ε/m`` for ``e^ε <= m``, else 0.

    Examples
    --------
    >>> round(prop8_maximal_leakage_distortion(3, 0.5), 6)
    0.450426
    """
    size, budget = _check_alphabet(m), as_budget(epsilon)
    return max(0.0, 1.0 - exp_budget(budget) / size)


def prop8_renyi_dp_privacy_bounds(m: int, D: float, alpha: float) -> Bounds:
    """Bounds on ε*_{α,DP}(𝒫, D) for Class I: PUT Proposition 8(5).

    ``max{0, log((m−1)(1−D)^{α/(α−1)}/D)} <= ε* <= max{0, ε_{α,DP}(Q_D)}``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in prop8_renyi_dp_privacy_bounds(3, 0.2, 2.0))
    (1.856298, 1.873723)
    """
    return thm7_renyi_dp_privacy_bounds(m, 1, D, alpha)


def prop8_sibson_privacy_bounds(m: int, D: float, alpha: float) -> Bounds:
    """Bounds on ε*_{α,M}(𝒫, D) for Class I: PUT Proposition 8(6).

    ``max{ε*_M, log(m(1−D)^{α/(α−1)})} <= ε* <= log(m((1−D)^α + D^α(m−1)^{1−α})^{1/(α−1)})``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in prop8_sibson_privacy_bounds(3, 0.2, 2.0))
    (0.652325, 0.683097)
    """
    return thm7_sibson_privacy_bounds(m, 1, D, alpha)


def prop8_mutual_information_privacy(m: int, D: float) -> float:
    """ε*_M(𝒫, D) for Class I: PUT Proposition 8(7), ``log(m(1−D)(D/((m−1)(1−D)))^D)``, 0 beyond.

    Examples
    --------
    >>> round(prop8_mutual_information_privacy(3, 0.2), 6)
    0.45958
    """
    return thm7_mutual_information_privacy(m, 1, D)


# ----------------------------------------------------------------------------------------------
# Section IV-B — local framework, known prior and Class II
# ----------------------------------------------------------------------------------------------
def lemma10_zero_threshold(prior: Any, delta: float) -> float:
    """``(1−δ)D^(m−1) = (1−δ)(1 − P_1)``: ε*_δ(P, D) = 0 iff D is at least this (PUT Lemma 10).

    Also valid for ``δ = 0`` (Theorem 13).

    Examples
    --------
    >>> round(lemma10_zero_threshold([0.4, 0.3, 0.2, 0.1], 0.1), 6)
    np.float64(0.54)
    """
    return (1 - as_delta(delta)) * (1 - _sorted_prior(prior)[0])


def thm9_approx_dp_privacy(prior: Any, D: float, delta: float) -> float:
    """ε*_δ(P, D) for a known prior: PUT Theorem 9.

    ``max{0, min_{k: D > (1−δ)D^(k−1)} log[(m−k)(1−D−δ) / (D − (1−δ)D^(k−1))]}`` for
    ``D < (1−δ)D^(m−1)``, and 0 from there on (Lemma 10; within ``THRESHOLD_ATOL``, as ε* jumps
    there). The minimum runs over *every* ``k`` with
    ``D > (1−δ)D^(k−1)``; the summary at the end of the printed proof drops the last such ``k``,
    which the numerics refute (errata).

    Examples
    --------
    >>> round(thm9_approx_dp_privacy([0.5, 0.3, 0.2], 0.4, 0.1), 6)
    0.820981
    """
    slack = as_delta(delta)
    P = _sorted_prior(prior)
    D = _check_distortion(D)
    if D >= lemma10_zero_threshold(P, slack) - THRESHOLD_ATOL:
        return 0.0
    levels = thm9_breakpoints(P)
    m = P.size
    values = [math.log((m - k) * (1 - D - slack) / (D - (1 - slack) * levels[k - 1]))
              for k in range(1, m) if D > (1 - slack) * levels[k - 1]]
    return max(0.0, min(values))


def thm13_dp_privacy(prior: Any, D: float) -> float:
    """ε*_DP(P, D) = max{0, min_{D > D^(k−1)} log[(m−k)(1−D)/(D − D^(k−1))]}: PUT Theorem 13.

    Examples
    --------
    >>> round(thm13_dp_privacy([0.4, 0.3, 0.2, 0.1], 0.2), 6)
    2.484907
    """
    return thm9_approx_dp_privacy(prior, D, 0.0)


def _ordered_points(source: Any) -> np.ndarray:
    """The extreme points of a source set with a common order (Class II), columns sorted by it."""
    points = _source_points(source)
    order = common_order(points)
    if order is None:
        raise MechDesignError(
            f"the source set is not Class II: its {len(points)} priors have no common non-increasing order"
        )
    return points[:, order]


def _prop12_dual_value(levels: np.ndarray, alpha1: float, D: float, delta: float) -> float:
    """The LP of Proposition 12 for fixed α₁: min over γ_P, γ₂, γ₃ ≥ 0 (γ₂ folded in)."""
    n_priors, m = levels.shape[0], levels.shape[1] - 1
    j = np.arange(1, m)
    cost = np.concatenate([np.full(n_priors, alpha1 - 1 + D), [m * (alpha1 - delta) - 1 + delta, alpha1 - delta]])
    # Σ_P D_P^(j) γ_P + j γ₂ + γ₃ >= j  for j = 1..m−1, written as −(…) <= −j.
    A = np.column_stack([levels[:, 1:m].T, j, np.ones(m - 1)])
    result = linprog(cost, A_ub=-A, b_ub=-j.astype(float), bounds=(0, None), method="highs")
    if result.status != 0:  # pragma: no cover - the LP is feasible (γ₂ = 1) and bounded (cost >= 0)
        raise MechDesignError(f"Proposition 12 LP failed at alpha1 = {alpha1!r}: {result.message}")
    return float(result.fun)


def prop12_approx_dp_privacy(source: Any, D: float, delta: float) -> float:
    """ε*_δ(𝒫, D) for a Class II source set, as the LP of PUT Proposition 12.

    ``min_{1−D <= α₁ < 1} log[((m−1)(α₁−δ) − d(α₁)) / (1 − α₁)]``, clipped at 0, where ``d(α₁)``
    is the optimum of the stated LP ``min (α₁−1+D)Σ_P γ_P + (m(α₁−δ)−1+δ)γ₂ + (α₁−δ)γ₃`` subject to
    ``Σ_P D_P^(j) γ_P + jγ₂ + γ₃ >= j`` (``1 <= j <= m−1``), all variables ≥ 0 — the paper's
    ``min_{γ₂≥0} d(α₁, γ₂)`` with the ``γ₂`` term of (12) included. The ratio is quasi-convex in
    α₁ (a convex numerator over a positive affine denominator), so α₁ is found by golden section.
    The value is 0 when ``D >= (1−δ)(1 − P_1)`` for every prior (Lemma 10's ``Q_δ`` is valid).

    Examples
    --------
    >>> round(prop12_approx_dp_privacy([[0.4, 0.3, 0.2, 0.1], [0.5, 0.3, 0.1, 0.1]], 0.2, 0.1), 6)
    2.351375
    """
    slack = as_delta(delta)
    D = _check_distortion(D)
    points = _ordered_points(source)
    m = points.shape[1]
    if D >= (1 - slack) * float((1 - points[:, 0]).max()) - THRESHOLD_ATOL:
        return 0.0
    levels = np.concatenate([np.zeros((points.shape[0], 1)), np.cumsum(points[:, ::-1], axis=1)], axis=1)

    def log_ratio(alpha1: float) -> float:
        numerator = (m - 1) * (alpha1 - slack) - _prop12_dual_value(levels, alpha1, D, slack)
        return math.log(numerator / (1 - alpha1)) if numerator > 0 else -math.inf

    best = _golden_section_min(log_ratio, max(1 - D, slack), 1.0 - PROP12_ALPHA_TOL)
    return max(0.0, best)


def _golden_section_min(f: Callable[[float], float], low: float, high: float) -> float:
    """Minimum of a quasi-convex ``f`` on ``[low, high]`` (golden section to ``PROP12_ALPHA_TOL``)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    while b - a > PROP12_ALPHA_TOL:
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
    return min(fc, fd, f(low), f(high))


def thm14_maximal_leakage_privacy(prior: Any, D: float) -> float:
    """ε*_ML(P, D) = max{0, log(m − k − (D − D^(k))/(D^(k) − D^(k−1)))} on ``D^(k−1) < D <= D^(k)``.

    PUT Theorem 14 (Saeidian et al.): linear interpolation of ``e^ε`` between ``m − k`` at
    ``D^(k)`` and ``m − k + 1`` at ``D^(k−1)``.

    Examples
    --------
    >>> round(thm14_maximal_leakage_privacy([0.4, 0.3, 0.2, 0.1], 0.2), 6)
    0.916291
    """
    P = _sorted_prior(prior)
    D = _check_distortion(D)
    levels = thm9_breakpoints(P)
    m = P.size
    k = int(np.searchsorted(levels, D, side="left"))  # D^(k−1) < D <= D^(k)
    k = min(max(k, 1), m)
    return _log_pos(m - k - (D - levels[k]) / (levels[k] - levels[k - 1]))


def cor15_maximal_leakage_distortion(source: Any, epsilon: float) -> float:
    """D*_ML(𝒫, ε) = max_{P∈𝒫} D*_ML(P, ε) for Class II: PUT Corollary 15 (Saeidian et al.).

    ``D*_ML(P, ε) = D^(m−k) + P_{k+1}(k − e^ε)`` for ``log k <= ε < log(k+1)``, ``1 <= k < m``, and 0
    for ``ε >= log m``. It is linear in P for a fixed order, so the maximum is over extreme points.

    Examples
    --------
    >>> round(cor15_maximal_leakage_distortion([[0.4, 0.3, 0.2, 0.1], [0.5, 0.3, 0.1, 0.1]], 1.0), 6)
    0.156344
    """
    budget = as_budget(epsilon)
    return max(_ml_distortion(p, budget) for p in _ordered_points(source))


def _ml_distortion(P: np.ndarray, epsilon: float) -> float:
    m = P.size
    scale = exp_budget(epsilon)
    if scale >= m:
        return 0.0
    k = int(math.floor(scale))
    levels = np.concatenate([[0.0], np.cumsum(P[::-1])])
    return float(levels[m - k] + P[k] * (k - scale))


# ----------------------------------------------------------------------------------------------
# Section IV-D — parallel composition on X^n (i.i.d. inputs, product mechanisms)
# ----------------------------------------------------------------------------------------------
def lemma16_product_privacy(notion: PrivacyNotion, n: int, single_letter_epsilon: float) -> float:
    """ε̂*(𝒫, D) over product mechanisms from ε*(𝒫, D/n): PUT Lemma 16.

    ``ε*(D/n)`` for DP and Rényi DP (Hamming neighbours), ``n ε*(D/n)`` for maximal information,
    maximal leakage, Sibson and mutual information; the factor is
    :func:`~mechdesign.mechanisms.global_framework.parallel_composition_factor`. Approximate DP is
    not covered (see :func:`thm17_approx_dp_privacy_bounds`).

    Examples
    --------
    >>> from mechdesign.privacy import MaximalLeakage
    >>> lemma16_product_privacy(MaximalLeakage(), 3, 0.5)
    1.5
    """
    return parallel_composition_factor(notion, n) * as_budget(single_letter_epsilon, "single_letter_epsilon")


def _per_letter(n: int, D: float) -> tuple[int, float]:
    blocks = as_positive_int(n, "n")
    return blocks, _check_distortion(D, blocks) / blocks


def _additive_bounds(single_letter: Callable[..., Bounds], m: int, n: int, D: float, *args: Any) -> Bounds:
    """``n ×`` a single-letter bound at ``D/n`` (Lemma 16(2): additive notions)."""
    blocks, d = _per_letter(n, D)
    lower, upper = single_letter(m, d, *args)
    return blocks * lower, blocks * upper


def thm17_dp_privacy(m: int, n: int, D: float) -> float:
    """ε̂*_DP(𝒫, D) = log((m−1)(n−D)/D) for D < n(m−1)/m, else 0: PUT Theorem 17(1), Class I.

    Proposition 8(1) at ``D/n`` (Lemma 16(1)).

    Examples
    --------
    >>> round(thm17_dp_privacy(2, 2, 0.4), 6)
    1.386294
    """
    _, d = _per_letter(n, D)
    return prop8_dp_privacy(m, d)


def thm17_approx_dp_privacy_bounds(m: int, n: int, D: float, delta: float) -> Bounds:
    """Bounds on ε̂*_δ(𝒫, D) over product mechanisms: PUT Theorem 17(2), Class I.

    The printed bounds are Theorem 7(2)'s: the lower bound is ε*_{δm^{n−1}}(D/n) (the proof's
    bracket ``ε_{δm^{n−1}}(Q) <= ε̂_δ(Q^{⊗n}) <= ε_δ(Q)``), the upper one ε̂_δ of the product of
    randomized responses ``Q_D``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm17_approx_dp_privacy_bounds(2, 2, 0.4, 0.05))
    (1.252763, 1.304949)
    """
    return thm7_approx_dp_privacy_bounds(m, n, D, delta)


def thm17_maximal_information_privacy_bounds(m: int, n: int, D: float, source: Any) -> Bounds:
    """Bounds on ε̂*_MI(𝒫, D): PUT Theorem 17(3), ``n ×`` Proposition 8(3) at ``D/n``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm17_maximal_information_privacy_bounds(2, 2, 0.4, [0.5, 0.5]))
    (0.940007, 0.940007)
    """
    return _additive_bounds(prop8_maximal_information_privacy_bounds, m, n, D, source)


def thm17_maximal_leakage_privacy(m: int, n: int, D: float) -> float:
    """ε̂*_ML(𝒫, D) = n log(m(1 − D/n)) for D < n(m−1)/m, else 0: PUT Theorem 17(4) (Lemma 16(2)).

    Examples
    --------
    >>> round(thm17_maximal_leakage_privacy(2, 2, 0.4), 6)
    0.940007
    """
    blocks, d = _per_letter(n, D)
    return blocks * prop8_maximal_leakage_privacy(m, d)


def thm17_renyi_dp_privacy_bounds(m: int, n: int, D: float, alpha: float) -> Bounds:
    """Bounds on ε̂*_{α,DP}(𝒫, D): PUT Theorem 17(5), Proposition 8(5) at ``D/n``.

    Lower ``max{0, log(n(m−1)(1 − D/n)^{α/(α−1)}/D)}`` — the printed bound lacks the ``log``
    (errata).

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm17_renyi_dp_privacy_bounds(2, 2, 0.4, 2.0))
    (1.163151, 1.178655)
    """
    _, d = _per_letter(n, D)
    return prop8_renyi_dp_privacy_bounds(m, d, alpha)


def thm17_sibson_privacy_bounds(m: int, n: int, D: float, alpha: float) -> Bounds:
    """Bounds on ε̂*_{α,M}(𝒫, D): PUT Theorem 17(6), ``n ×`` Proposition 8(6) at ``D/n``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm17_sibson_privacy_bounds(2, 2, 0.4, 2.0))
    (0.49372, 0.614969)
    """
    return _additive_bounds(prop8_sibson_privacy_bounds, m, n, D, alpha)


def thm17_mutual_information_privacy(m: int, n: int, D: float) -> float:
    """ε̂*_M(𝒫, D) = n log(m(1−D/n)) + D log(D/((m−1)(n−D))), 0 beyond: PUT Theorem 17(7) (Lemma 16(2)).

    Examples
    --------
    >>> round(thm17_mutual_information_privacy(2, 2, 0.4), 6)
    0.38549
    """
    blocks, d = _per_letter(n, D)
    return blocks * prop8_mutual_information_privacy(m, d)


def thm18_approx_dp_privacy_bounds(prior: Any, n: int, D: float, delta: float) -> Bounds:
    """Bounds on ε̂*_δ(P, nD) over product mechanisms (per-letter distortion ``D``): PUT Theorem 18(1).

    The paper states equality with Theorem 9's ε*_δ(P, D). On a product mechanism the slack of one
    coordinate is divided by the other coordinates' probabilities, so
    ``ε_{δm^{n−1}}(Q) <= ε̂_δ(Q^{⊗n}) <= ε_δ(Q)``, and the optimum only lies between Theorem 9 at
    ``δm^{n−1}`` (0 if that is ≥ 1) and Theorem 9 at ``δ``; the printed equality fails (errata).

    Examples
    --------
    >>> tuple(round(v, 6) for v in thm18_approx_dp_privacy_bounds([0.6, 0.4], 2, 0.1, 0.1))
    (1.94591, 2.079442)
    """
    blocks = as_positive_int(n, "n")
    slack = _check_delta(delta)
    upper = thm9_approx_dp_privacy(prior, D, slack)
    widened = slack * _sorted_prior(prior).size ** (blocks - 1)
    lower = thm9_approx_dp_privacy(prior, D, widened) if widened < 1 else 0.0
    return lower, upper


def thm18_maximal_leakage_privacy(prior: Any, n: int, D: float) -> float:
    """ε̂*_ML(P, nD) = n × Theorem 14 at per-letter distortion ``D``: PUT Theorem 18(2).

    Examples
    --------
    >>> round(thm18_maximal_leakage_privacy([0.4, 0.3, 0.2, 0.1], 2, 0.2), 6)
    1.832581
    """
    return as_positive_int(n, "n") * thm14_maximal_leakage_privacy(prior, D)


# ----------------------------------------------------------------------------------------------
# From ε*(D) to D*(ε)
# ----------------------------------------------------------------------------------------------
#: Bisection steps of :func:`def4_distortion` (the bracket shrinks by 2^-60).
INVERSION_STEPS = 60


def def4_distortion(epsilon_of_D: Callable[[float], float], epsilon: float, upper: float = 1.0) -> float:
    """``D*(ε) = inf{D ∈ (0, upper] : ε*(D) <= ε}`` from a non-increasing ``ε*(D)`` (PUT Definition 4).

    Used to draw a privacy-distortion function as a distortion-privacy function (and to compare it
    with the optimizer's ``D*(ε)``), including flat stretches where ``ε*`` jumps (Theorem 9 at
    ``(1−δ)D^(m−1)``). Returns 0 if every ``D > 0`` meets ε.

    Examples
    --------
    >>> round(def4_distortion(lambda D: prop8_dp_privacy(3, D), 1.0), 6)
    0.423883
    """
    budget = as_budget(epsilon)
    if epsilon_of_D(upper) > budget:
        raise MechDesignError(f"no distortion up to {upper!r} meets epsilon = {budget!r}")
    low, high = 0.0, float(upper)
    for _ in range(INVERSION_STEPS):
        middle = 0.5 * (low + high)
        low, high = (low, middle) if epsilon_of_D(middle) <= budget else (middle, high)
    return high



# ----------------------------------------------------------------------------------------------
# Appendix A — relations between the losses, probability preservation
# ----------------------------------------------------------------------------------------------
def lemma20_orderings(losses: dict[str, float]) -> list[tuple[str, str]]:
    """The pairs ``(smaller, larger)`` that PUT Lemma 20 orders, among the given losses (nats).

    Keys: ``"dp"`` (ε_DP), ``"approx:<δ>"`` (ε_δ), ``"renyi:<α>"`` (ε_{α,DP}), ``"sibson:<α>"`` (ε_{α,M}),
    ``"mi"`` (ε_M), ``"ml"`` (ε_ML). Lemma 20(4): ``ε_{δ₂} <= ε_{δ₁}`` for ``δ₁ <= δ₂`` (``δ = 0`` is DP);
    (8): ``ε_{α,DP}`` non-decreasing in α and ``<= ε_DP`` (its limit, (5)); (9): ``ε_{α,M}`` non-decreasing in
    α, ``>= ε_M`` (its limit at α → 1, (6)) and ``<= ε_DP``; with (7), ``ε_{α,M} <= ε_ML``.

    Examples
    --------
    >>> lemma20_orderings({"dp": 1.0, "renyi:2": 0.5, "renyi:4": 0.7})
    [('renyi:2', 'dp'), ('renyi:4', 'dp'), ('renyi:2', 'renyi:4')]
    """
    def order(kind: str) -> list[tuple[float, str]]:
        return sorted((float(key.split(":")[1]), key) for key in losses if key.startswith(kind + ":"))

    pairs: list[tuple[str, str]] = []
    approx, renyi, sibson = order("approx"), order("renyi"), order("sibson")
    if "dp" in losses:
        pairs += [(key, "dp") for _, key in approx + renyi + sibson]
    pairs += [(larger_delta, smaller_delta) for (_, smaller_delta), (_, larger_delta) in zip(approx, approx[1:])]
    for chain in (renyi, sibson):
        pairs += [(low, high) for (_, low), (_, high) in zip(chain, chain[1:])]
    if "mi" in losses:
        pairs += [("mi", key) for _, key in sibson]
    if "ml" in losses:
        pairs += [(key, "ml") for _, key in sibson]
    return pairs


def lemma22_probability_bound(divergence: float, q_event: float, alpha: float) -> float:
    """``(e^{D_α(P‖Q)} Q(A))^{(α−1)/α}``: the bound on ``P(A)`` of PUT Lemma 22(2) (Rényi divergence).

    Examples
    --------
    >>> round(lemma22_probability_bound(0.0, 0.25, 2.0), 6)
    0.5
    """
    order = as_order(alpha)
    value = as_budget(divergence, "divergence")
    probability = as_finite(q_event, "q_event")
    if not -PROBABILITY_ATOL <= probability <= 1.0 + PROBABILITY_ATOL:
        raise MechDesignError(f"q_event must be a probability, got {q_event!r}")
    return (math.exp(value) * min(max(probability, 0.0), 1.0)) ** ((order - 1) / order)


def lemma23_probability_bound(sibson: float, largest_section: float, alpha: float) -> float:
    """``(max_y P_X(E_y) · e^{I_α(X;Y)})^{(α−1)/α}``: the bound on ``P_XY(E)`` of PUT Lemma 23.

    ``largest_section`` is ``max_y P_X(E_y)``, the largest prior mass of a section ``E_y = {x : (x, y) ∈ E}``.

    Examples
    --------
    >>> round(lemma23_probability_bound(0.0, 0.25, 2.0), 6)
    0.5
    """
    return lemma22_probability_bound(sibson, largest_section, alpha)


# Names of 0.1.0, renamed to the statement-tag scheme in 0.2.0: each warns (DeprecationWarning) and calls the new one.
zero_threshold = deprecated_alias(lemma5_zero_threshold, "zero_threshold")
breakpoints = deprecated_alias(thm9_breakpoints, "breakpoints")
distortion_from_epsilon = deprecated_alias(def4_distortion, "distortion_from_epsilon")
theorem6_dp = deprecated_alias(thm6_dp_privacy_bounds, "theorem6_dp")
theorem6_approx_dp = deprecated_alias(thm6_approx_dp_privacy_bounds, "theorem6_approx_dp")
theorem6_maximal_information = deprecated_alias(thm6_maximal_information_privacy_bounds, "theorem6_maximal_information")
theorem6_maximal_leakage = deprecated_alias(thm6_maximal_leakage_privacy_bounds, "theorem6_maximal_leakage")
theorem6_renyi_dp = deprecated_alias(thm6_renyi_dp_privacy_bounds, "theorem6_renyi_dp")
theorem6_sibson = deprecated_alias(thm6_sibson_privacy_bounds, "theorem6_sibson")
theorem6_mutual_information = deprecated_alias(thm6_mutual_information_privacy_bounds, "theorem6_mutual_information")
qd_maximal_information = deprecated_alias(thm6_qd_maximal_information, "qd_maximal_information")
qd_renyi_dp = deprecated_alias(thm6_qd_renyi_dp, "qd_renyi_dp")
qd_sibson = deprecated_alias(thm6_qd_sibson, "qd_sibson")
qd_mutual_information = deprecated_alias(thm6_qd_mutual_information, "qd_mutual_information")
theorem7_dp = deprecated_alias(thm7_dp_privacy, "theorem7_dp")
theorem7_approx_dp = deprecated_alias(thm7_approx_dp_privacy_bounds, "theorem7_approx_dp")
theorem7_maximal_information = deprecated_alias(thm7_maximal_information_privacy_bounds, "theorem7_maximal_information")
theorem7_maximal_leakage = deprecated_alias(thm7_maximal_leakage_privacy_bounds, "theorem7_maximal_leakage")
theorem7_renyi_dp = deprecated_alias(thm7_renyi_dp_privacy_bounds, "theorem7_renyi_dp")
theorem7_sibson = deprecated_alias(thm7_sibson_privacy_bounds, "theorem7_sibson")
theorem7_mutual_information = deprecated_alias(thm7_mutual_information_privacy, "theorem7_mutual_information")
prop8_epsilon_dp = deprecated_alias(prop8_dp_privacy, "prop8_epsilon_dp")
prop8_distortion_dp = deprecated_alias(prop8_dp_distortion, "prop8_distortion_dp")
prop8_epsilon_approx_dp = deprecated_alias(prop8_approx_dp_privacy, "prop8_epsilon_approx_dp")
prop8_distortion_approx_dp = deprecated_alias(prop8_approx_dp_distortion, "prop8_distortion_approx_dp")
prop8_maximal_information = deprecated_alias(prop8_maximal_information_privacy_bounds, "prop8_maximal_information")
prop8_epsilon_ml = deprecated_alias(prop8_maximal_leakage_privacy, "prop8_epsilon_ml")
prop8_distortion_ml = deprecated_alias(prop8_maximal_leakage_distortion, "prop8_distortion_ml")
prop8_renyi_dp = deprecated_alias(prop8_renyi_dp_privacy_bounds, "prop8_renyi_dp")
prop8_sibson = deprecated_alias(prop8_sibson_privacy_bounds, "prop8_sibson")
prop8_mutual_information = deprecated_alias(prop8_mutual_information_privacy, "prop8_mutual_information")
theorem9_approx_dp = deprecated_alias(thm9_approx_dp_privacy, "theorem9_approx_dp")
theorem13_dp = deprecated_alias(thm13_dp_privacy, "theorem13_dp")
prop12_approx_dp = deprecated_alias(prop12_approx_dp_privacy, "prop12_approx_dp")
theorem14_maximal_leakage = deprecated_alias(thm14_maximal_leakage_privacy, "theorem14_maximal_leakage")
cor15_distortion_ml = deprecated_alias(cor15_maximal_leakage_distortion, "cor15_distortion_ml")
lemma16_product_epsilon = deprecated_alias(lemma16_product_privacy, "lemma16_product_epsilon")
theorem17_dp = deprecated_alias(thm17_dp_privacy, "theorem17_dp")
theorem17_approx_dp = deprecated_alias(thm17_approx_dp_privacy_bounds, "theorem17_approx_dp")
theorem17_maximal_information = deprecated_alias(thm17_maximal_information_privacy_bounds, "theorem17_maximal_information")
theorem17_maximal_leakage = deprecated_alias(thm17_maximal_leakage_privacy, "theorem17_maximal_leakage")
theorem17_renyi_dp = deprecated_alias(thm17_renyi_dp_privacy_bounds, "theorem17_renyi_dp")
theorem17_sibson = deprecated_alias(thm17_sibson_privacy_bounds, "theorem17_sibson")
theorem17_mutual_information = deprecated_alias(thm17_mutual_information_privacy, "theorem17_mutual_information")
theorem18_approx_dp = deprecated_alias(thm18_approx_dp_privacy_bounds, "theorem18_approx_dp")
theorem18_maximal_leakage = deprecated_alias(thm18_maximal_leakage_privacy, "theorem18_maximal_leakage")
