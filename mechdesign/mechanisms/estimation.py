"""Mechanisms for estimating frequencies: k-ary randomized response and subset selection.

Both are ε-LDP and of full rank, so every category's frequency has an unbiased estimator
(:mod:`mechdesign.frequency`). With ``N`` records, ``a = P(x reported | X = x)`` and
``b = P(x reported | X ≠ x)``, the estimator ``p̂_x = (f_x − b) / (a − b)`` of the fraction ``f_x`` of
reports containing ``x`` has variance ``π_x (1 − π_x) / (N (a − b)²)``, ``π_x = b + (a − b) p_x``:

* k-ary randomized response (Kairouz, Bonawitz & Ramage, Discrete Distribution Estimation under
  Local Privacy, §2): a report is one symbol, ``a = e^ε / (e^ε + k − 1)``, ``b = 1 / (e^ε + k − 1)``;
* subset selection (Ye & Barg, Optimal Schemes for Discrete Distribution Estimation under Locally
  Differential Privacy; Wang et al., Mutual Information Optimally Local Private Discrete Distribution
  Estimation): a report is a set of ``d`` symbols, ``Q[x, S] ∝ e^ε`` if ``x ∈ S`` else 1, so
  ``a = d e^ε / (d e^ε + k − d)`` and ``b = d ((d − 1) e^ε + k − d) / ((k − 1)(d e^ε + k − d))``.
  With ``d = 1`` it is randomized response; ``d ≈ k / (e^ε + 1)`` is order-optimal, and better than
  randomized response for large ``k`` at small ε.

:func:`estimation_mechanism` picks, under any privacy notion and budget, the one of these of least
total variance ``Σ_x Var(p̂_x)`` under a prior: each candidate's LDP parameter is calibrated to the
notion's budget by bisection on the notion's own measure (exact for local DP: ``ε`` itself).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from .._validate import as_budget, as_positive_int
from ..exceptions import MechDesignError, ProblemTooLargeError
from ..mechanism import Mechanism
from ..priors import PriorLike, as_prior
from ..privacy.base import PrivacyNotion
from ..privacy.dp import DifferentialPrivacy
from .basic import randomized_response

#: Largest number of outputs ``C(k, d)`` of a subset-selection mechanism that is built.
MAX_SUBSET_OUTPUTS = 20_000
#: Largest LDP parameter tried when calibrating to another notion (nats; e^40 is deterministic to 1e-17).
MAX_CALIBRATED_EPSILON = 40.0
#: Bisection steps of the calibration (the bracket shrinks to 40 · 2^-60 nats).
CALIBRATION_STEPS = 60


@dataclass(frozen=True)
class EstimationMechanism:
    """A mechanism chosen for frequency estimation.

    Attributes
    ----------
    name
        ``"randomized-response"`` or ``"subset-selection(d=…)"``.
    mechanism
        The mechanism; output ``j`` reports the input symbols ``outputs[j]``.
    ldp_epsilon
        Its LDP parameter ε (equal to the budget under local DP; calibrated to other notions).
    outputs
        For every output, the tuple of input symbols it reports (one symbol for randomized response).
    variance
        ``N · Σ_x Var(p̂_x)`` under the prior it was chosen for.
    """

    name: str
    mechanism: Mechanism
    ldp_epsilon: float
    outputs: tuple[tuple[int, ...], ...]
    variance: float


def subset_outputs(size: int, subset_size: int) -> tuple[tuple[int, ...], ...]:
    """The ``d``-subsets of ``{0, …, k−1}`` in lexicographic order: the outputs of subset selection.

    Examples
    --------
    >>> subset_outputs(3, 2)
    ((0, 1), (0, 2), (1, 2))
    """
    symbols, chosen = _sizes(size, subset_size)
    return tuple(combinations(range(symbols), chosen))


def subset_selection(size: int, epsilon: float, subset_size: int) -> Mechanism:
    """Subset selection: report ``d`` symbols, ``Q[x, S] = e^ε / Z`` if ``x ∈ S``, else ``1 / Z``.

    ``Z = C(k−1, d−1) e^ε + C(k−1, d)``; outputs are :func:`subset_outputs` (Ye & Barg, eq. (4)).

    Examples
    --------
    >>> subset_selection(3, 0.0, 2).matrix.round(4).tolist()[0]
    [0.3333, 0.3333, 0.3333]
    """
    return _subset_mechanism(_membership(size, subset_size), epsilon)


def report_probabilities(size: int, epsilon: float, subset_size: int = 1) -> tuple[float, float]:
    """``(a, b)``: probabilities that a report contains ``x`` when ``X = x`` and when ``X ≠ x``.

    Examples
    --------
    >>> [round(v, 6) for v in report_probabilities(2, math.log(3))]  # binary RR with e^ε = 3
    [0.75, 0.25]
    """
    symbols, chosen = _sizes(size, subset_size)
    boost = math.exp(as_budget(epsilon))
    denominator = chosen * boost + symbols - chosen
    hit = chosen * boost / denominator
    false_hit = chosen * ((chosen - 1) * boost + symbols - chosen) / ((symbols - 1) * denominator)
    return hit, false_hit


def estimation_variances(prior: PriorLike, epsilon: float, subset_size: int = 1) -> np.ndarray:
    """``N · Var(p̂_x) = π_x (1 − π_x) / (a − b)²`` for every symbol (module notes; ``d = 1``: k-RR).

    Examples
    --------
    >>> estimation_variances([0.5, 0.5], math.log(3)).round(6).tolist()  # 0.25 / 0.5²
    [1.0, 1.0]
    """
    probabilities = as_prior(prior).probabilities
    hit, false_hit = report_probabilities(probabilities.size, epsilon, subset_size)
    reported = false_hit + (hit - false_hit) * probabilities
    return reported * (1.0 - reported) / (hit - false_hit) ** 2


def estimation_mechanism(notion: PrivacyNotion, budget: float, prior: PriorLike) -> EstimationMechanism:
    """The estimation mechanism of least total variance under ``prior`` that meets ``notion``'s budget.

    Candidates: randomized response and subset selection for every ``d`` with at most
    :data:`MAX_SUBSET_OUTPUTS` outputs, each at the largest LDP parameter the budget allows.

    Parameters
    ----------
    notion
        Any privacy notion on the prior's alphabet.
    budget
        Its budget (nats).
    prior
        The prior under which the variance is compared (e.g. the empirical one).

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy
    >>> estimation_mechanism(DifferentialPrivacy(), 4.0, [0.25] * 4).name  # large ε: randomized response
    'randomized-response'
    >>> estimation_mechanism(DifferentialPrivacy(), 0.5, [1 / 16] * 16).name  # large k, small ε
    'subset-selection(d=6)'
    """
    probabilities = as_prior(prior).probabilities
    limit = as_budget(budget)
    size = probabilities.size
    if size < 2:
        raise MechDesignError(f"estimation needs at least 2 symbols, got {size}")
    candidates = []
    for subset_size in range(1, size):
        if math.comb(size, subset_size) > MAX_SUBSET_OUTPUTS:
            continue
        build = _family(size, subset_size)
        epsilon = _calibrate(build, notion, limit)
        variance = float(estimation_variances(probabilities, epsilon, subset_size).sum())
        candidates.append((variance, subset_size, epsilon, build))
    variance, subset_size, epsilon, build = min(candidates, key=lambda c: c[0])
    name = "randomized-response" if subset_size == 1 else f"subset-selection(d={subset_size})"
    return EstimationMechanism(name, build(epsilon), epsilon, subset_outputs(size, subset_size), variance)


def _family(size: int, subset_size: int) -> Callable[[float], Mechanism]:
    if subset_size == 1:
        return lambda epsilon: randomized_response(size, epsilon)
    membership = _membership(size, subset_size)
    return lambda epsilon: _subset_mechanism(membership, epsilon)


def _calibrate(build: Callable[[float], Mechanism], notion: PrivacyNotion, budget: float) -> float:
    """The largest LDP parameter ε' with ``notion.measure(build(ε')) <= budget`` (bisection).

    Both families are garblings of themselves at a larger ε' (a mixture with the uniform
    mechanism), so every notion that satisfies post-processing is non-decreasing in ε'. Local DP is
    exact: ε' = budget.
    """
    if isinstance(notion, DifferentialPrivacy) and notion.neighbours.is_complete:
        return budget

    def within(epsilon: float) -> bool:
        return notion.measure(build(epsilon)) <= budget

    if within(MAX_CALIBRATED_EPSILON):
        return MAX_CALIBRATED_EPSILON
    low, high = 0.0, MAX_CALIBRATED_EPSILON
    for _ in range(CALIBRATION_STEPS):
        middle = (low + high) / 2
        low, high = (middle, high) if within(middle) else (low, middle)
    return low


def _subset_mechanism(membership: np.ndarray, epsilon: float) -> Mechanism:
    weights = np.where(membership, math.exp(as_budget(epsilon)), 1.0)
    return Mechanism(weights / weights.sum(axis=1, keepdims=True))


def _sizes(size: int, subset_size: int) -> tuple[int, int]:
    symbols = as_positive_int(size, "size", minimum=2)
    return symbols, as_positive_int(subset_size, "subset_size", maximum=symbols - 1)


def _membership(size: int, subset_size: int) -> np.ndarray:
    """``membership[x, j]``: whether symbol ``x`` is in the ``j``-th subset of :func:`subset_outputs`."""
    symbols, chosen = _sizes(size, subset_size)
    if math.comb(symbols, chosen) > MAX_SUBSET_OUTPUTS:
        raise ProblemTooLargeError(f"subset selection with k = {symbols}, d = {chosen} has "
                                   f"{math.comb(symbols, chosen)} outputs, more than {MAX_SUBSET_OUTPUTS}")
    outputs = subset_outputs(symbols, chosen)
    membership = np.zeros((symbols, len(outputs)), dtype=bool)
    for column, subset in enumerate(outputs):
        membership[list(subset), column] = True
    return membership
