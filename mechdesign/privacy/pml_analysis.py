"""Analysis of a fixed mechanism's PML across priors: exact, for finite source sets and ℓ1-balls.

Grosse et al., "Privacy Mechanism Design based on Empirical Distributions":

* ``ε_min(Q, P)`` (Definition 2 and the line after Definition 3) — the smallest ε with ε-PML;
* the privacy regions ``[ε_{k−1}(P), ε_k(P))`` (Definition 4);
* the 𝒫-local leakage capacity ``C(Q, 𝒫) = sup_{P ∈ 𝒫} ε_min(Q, P)`` (Definition 5);
* the local leakage sensitivity ``S_P(Q, 𝒫) = sup_{P' ∈ 𝒫} ε_min(Q, P') − ε_min(Q, P)`` (Definition 6);
* the polytope (10)–(12) of Proposition 2, through the smallest budget that puts ``Q`` in it.

Nothing is sampled: ``min_{P ∈ 𝒫} P·Q[:, y]`` is exact (extreme points, or the ℓ1-ball's greedy
closed form), and ``C`` is the worst-case PML measure of
:class:`~mechdesign.privacy.pml.PointwiseMaximalLeakage` on the set.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validate import as_budget
from ..exceptions import MechDesignError
from ..mechanism import MechanismLike, as_mechanism
from ..priors import L1Ball, Prior, PriorLike, as_prior, as_prior_set
from .pml import PointwiseMaximalLeakage, min_output_masses, support_of


def epsilon_min(mechanism: MechanismLike, prior: PriorLike) -> float:
    """``ε_min(Q, P)``: the smallest ε such that ``Q`` is ε-PML w.r.t. ``P`` (Grosse et al., Def. 2).

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> round(epsilon_min(randomized_response(3, 1.0), [0.5, 0.3, 0.2]), 6)
    0.704605
    """
    return PointwiseMaximalLeakage(as_prior(prior)).measure(mechanism)


def privacy_region_thresholds(prior: PriorLike) -> np.ndarray:
    """``ε_k(P) = −log Σ_{i <= N−k} P(x_i)`` for ``k = 0, …, N−1``, ``P`` sorted decreasingly (Def. 4).

    ``ε_0 = 0`` and ``ε_{N−1} = −log max P``. A column of an ε-PML mechanism can vanish on a set ``Z``
    of inputs only if ``P(Z) <= 1 − e^{−ε}``, so ``ε >= ε_j`` is exactly what allows ``j`` zeros in a
    column (Grosse et al. [15], Lemma 2).

    Examples
    --------
    >>> privacy_region_thresholds([0.5, 0.3, 0.2]).round(6)
    array([0.      , 0.223144, 0.693147])
    """
    probabilities = np.sort(as_prior(prior).probabilities)[::-1]
    kept = np.cumsum(probabilities)[::-1]  # Σ of the N−k largest, k = 0 … N−1
    kept[0] = 1.0  # the whole prior, without round-off
    with np.errstate(divide="ignore"):
        return np.maximum(-np.log(np.minimum(kept, 1.0)), 0.0)


def privacy_region(epsilon: float, prior: PriorLike) -> int:
    """The privacy region ``k`` of ``ε`` (Def. 4): ``ε ∈ [ε_{k−1}, ε_k)``; columns then have <= k−1 zeros.

    Definition 4 lists ``k ∈ [N−1]``, which covers ``[0, −log max P)`` only; budgets at or above
    ``ε_{N−1} = −log max P`` (where a column may vanish on all inputs but one) are region ``N`` here
    (docs/errata.md).

    Examples
    --------
    >>> privacy_region(0.3, [0.5, 0.3, 0.2])
    2
    """
    budget = as_budget(epsilon)
    thresholds = privacy_region_thresholds(prior)
    return int(np.searchsorted(thresholds, budget, side="right"))


def leakage_capacity(mechanism: MechanismLike, prior_set: Any) -> float:
    """``C(Q, 𝒫) = sup_{P ∈ 𝒫} ε_min(Q, P)``, the 𝒫-local leakage capacity (Grosse et al., Def. 5).

    ``prior_set`` is a prior, a :class:`~mechdesign.priors.SourceSet` (convex hull of its points) or
    an :class:`~mechdesign.priors.L1Ball`; the supremum is computed exactly.

    Examples
    --------
    >>> from mechdesign import SourceSet, randomized_response
    >>> round(leakage_capacity(randomized_response(3, 1.0), SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])), 6)
    0.704605
    """
    return PointwiseMaximalLeakage(prior_set).measure(mechanism)


def leakage_sensitivity(mechanism: MechanismLike, reference: PriorLike, prior_set: Any) -> float:
    """``S_P(Q, 𝒫) = C(Q, 𝒫) − ε_min(Q, P)``, the local leakage sensitivity (Grosse et al., Def. 6).

    ``ε_min(Q, P)`` does not depend on the supremum's variable, so the supremum of the difference is
    the capacity minus it.

    Examples
    --------
    >>> from mechdesign import SourceSet, randomized_response
    >>> round(leakage_sensitivity(randomized_response(3, 1.0), [0.4, 0.3, 0.3], SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])), 6)
    0.120341
    """
    return leakage_capacity(mechanism, prior_set) - epsilon_min(mechanism, reference)


def worst_case_prior(mechanism: MechanismLike, prior_set: Any) -> Prior:
    """A prior of the set attaining ``C(Q, 𝒫)`` (Def. 5): it minimizes ``P_Y(y*)`` at the worst output ``y*``.

    Examples
    --------
    >>> from mechdesign import SourceSet, randomized_response
    >>> worst_case_prior(randomized_response(3, 1.0), SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]))
    Prior([0.2 0.3 0.5])
    """
    matrix = as_mechanism(mechanism).matrix
    priors = as_prior_set(prior_set, matrix.shape[0])
    largest = matrix[support_of(priors)].max(axis=0)
    masses = min_output_masses(priors, matrix)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(largest > 0, largest / masses, 0.0)
    worst = int(np.argmax(ratios))
    if isinstance(priors, L1Ball):
        return priors.minimizer(matrix[:, worst])
    return Prior(priors.extreme_points[int(np.argmin(priors.extreme_points @ matrix[:, worst]))])


def output_divergence(mechanism: MechanismLike, reference: PriorLike, prior_set: Any) -> float:
    """``sup_{P' ∈ 𝒫} D_∞(P_Y ‖ P'_Y)`` with ``P_Y = P·Q``: ``max_y log P_Y(y) / min_{P'} P'_Y(y)``.

    Grosse et al. state (Section IV-C) that this equals the sensitivity ``S_P(Q, 𝒫)``; it is an upper
    bound on it, with equality when the output maximizing the ratio also has leakage ``ε_min(Q, P)``
    (e.g. for extremal mechanisms), see docs/errata.md.

    Parameters
    ----------
    mechanism
        The mechanism ``Q``.
    reference
        The prior ``P``.
    prior_set
        The set ``𝒫`` (a source set, an ℓ1-ball, …).

    Returns
    -------
    float
        The divergence (nats); ``inf`` if some prior of the set misses an output ``P`` reaches.

    Examples
    --------
    Randomized response with ``1 − p = 3/4``, ``P`` uniform: over the ℓ1-ball of radius 0.2 the least
    output mass is ``0.6·0.25 + 0.4·0.75 = 0.45``, over every prior ``0.25``:

    >>> import math
    >>> from mechdesign.priors import L1Ball, SourceSet
    >>> matrix = [[0.75, 0.25], [0.25, 0.75]]
    >>> round(output_divergence(matrix, [0.5, 0.5], L1Ball([0.5, 0.5], 0.2)), 9) == round(math.log(0.5 / 0.45), 9)
    True
    >>> round(output_divergence(matrix, [0.5, 0.5], SourceSet.simplex(2)), 9) == round(math.log(2), 9)
    True
    """
    matrix = as_mechanism(mechanism).matrix
    outputs = as_prior(reference, matrix.shape[0]).probabilities @ matrix
    masses = min_output_masses(as_prior_set(prior_set, matrix.shape[0]), matrix)
    used = outputs > 0
    if (masses[used] <= 0).any():
        return np.inf
    return float(np.max(np.log(outputs[used] / masses[used])))


def sufficient_polytope_budget(mechanism: MechanismLike, ball: L1Ball) -> float:
    """The smallest ε for which ``Q`` lies in the polytope (10)–(12) of Proposition 2, with ε' of eq. (13).

    With ``e^{ε'} = e^ε / (1 + (β/2) e^ε)``, constraint (10) for all ``i, i'`` reads, per column,
    ``max_i p_ij <= e^ε (P̂·p_j − (β/2)(max_i p_ij − min_i p_ij))``, i.e. ``ε >= log(M / (P̂·p − (β/2)(M − m)))``.
    That denominator is ``min P·p`` over the un-truncated ball ``{P̂ + ω : Σω = 0, ‖ω‖₁ <= β}``; it
    equals the minimum over ``B_β(P̂) ∩ simplex`` when ``β <= 2 min P̂`` (Proposition 2's hypothesis)
    and is smaller otherwise, so this budget is always at least the exact capacity (the polytope is
    inside the exact set) and equal to it under the hypothesis. ``inf`` if a denominator is <= 0.

    Parameters
    ----------
    mechanism
        The mechanism ``Q``.
    ball
        The ℓ1-ball ``B_β(P̂)`` of priors.

    Returns
    -------
    float
        The budget ε (nats).

    Raises
    ------
    MechDesignError
        If ``ball`` is not an :class:`~mechdesign.priors.L1Ball`.

    Examples
    --------
    Randomized response with ``1 − p = 3/4`` around the uniform prior: ``M = 3/4``, ``m = 1/4``, so
    ``ε = log(0.75 / (0.5 − (β/2)·0.5))``:

    >>> import math
    >>> matrix = [[0.75, 0.25], [0.25, 0.75]]
    >>> round(sufficient_polytope_budget(matrix, L1Ball([0.5, 0.5], 0.0)), 9) == round(math.log(1.5), 9)
    True
    >>> round(sufficient_polytope_budget(matrix, L1Ball([0.5, 0.5], 0.2)), 9) == round(math.log(0.75 / 0.45), 9)
    True
    """
    matrix = as_mechanism(mechanism).matrix
    if not isinstance(ball, L1Ball):
        raise MechDesignError(f"Proposition 2 is about an ℓ1-ball of priors, got {ball!r}")
    largest, smallest = matrix.max(axis=0), matrix.min(axis=0)
    denominators = ball.center.probabilities @ matrix - ball.radius / 2.0 * (largest - smallest)
    used = largest > 0
    if (denominators[used] <= 0).any():
        return np.inf
    return max(0.0, float(np.max(np.log(largest[used] / denominators[used]))))
