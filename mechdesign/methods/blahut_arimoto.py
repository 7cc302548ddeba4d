"""Mutual-information privacy with expected distortion: the distortion–rate function, by Blahut's slopes.

``min E[d(X, Y)]`` subject to ``I(X; Y) <= ε`` under one prior ``P`` (Zhong & Bu, "Privacy-Utility
Trade-Off", Definition 3(7)) is the distortion–rate function ``D(R)`` at ``R = ε`` (Cover & Thomas,
*Elements of Information Theory*, §10). At a slope ``s > 0`` the channels minimizing ``I + s E[d]``
are ``Q[x, y] = q_y e^{−s d(x, y)} / Z_x`` for the output distribution ``q`` minimizing

    G_s(q) = −Σ_x P(x) log Z_x(q),      Z_x(q) = Σ_y q_y e^{−s d(x, y)},

over the simplex (Blahut, "Computation of channel capacity and rate-distortion functions", IEEE Trans.
IT 18(4), 1972, Theorem 6), and *any* ``q`` gives the dual line ``R(D) >= b − s D`` with
``b = −Σ_x P(x) log Z_x − log max_y c_y``, ``c_y = Σ_x P(x) e^{−s d(x, y)} / Z_x`` (Theorem 8;
:func:`~mechdesign.utility.rate_distortion.blahut_intercept`).

Blahut–Arimoto's multiplicative update ``q <- q ∘ c`` needs 10⁴ iterations per slope on random costs
(measured: 5–65 s per slope at n = 300). Here ``G_s`` is minimized instead by Newton's method on the
support of ``q`` (the optimal output distribution has few outputs on random costs: 6–68 of 300
measured; all of them for a uniform prior with Hamming cost), with a ratio test that drops outputs
reaching 0 and pricing that adds the outputs with ``c_y > 1`` (at most doubling the support per Newton
step); it stops when the certified rate gap ``log max_y c_y`` is below what the distortion tolerance
allows at that slope. Each slope starts from the support of its neighbours (the first from the largest
masses of a few Blahut–Arimoto steps), so Newton's systems stay of the support's size: memory
``O(n·support)`` beside the ``n × m`` kernel, and the channel itself is built only for the final
bracket. The slope is searched (bracketing by extrapolating ``log R`` against ``log s``, then the Illinois
variant of regula falsi) until two channels at slopes ``s_lo < s_hi`` bracket the rate ε; their mix with
rates averaging to ε has mutual information at most ε (``I`` is convex in the channel) and distortion
the same mix of theirs. Slopes go up to the one beyond which the kernel no longer changes (its
off-minimum entries underflow), so budgets close to the unconstrained optimum's rate are bracketed too.
The lower bound is the best dual line of every slope tried, evaluated at ε. The result is re-measured in
numpy (and mixed toward the constant mechanism if round-off needs it) and ``"optimal"`` when the gap is
within ``GAP_RTOL``. Rate 0 (the best constant mechanism) and rates at which the unconstrained optimum
is private are exact.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, Union

import numpy as np

from .._threads import single_blas_thread
from ..exceptions import MechDesignError
from ..privacy.base import PrivacyNotion
from ..privacy.mutual_information import MutualInformationPrivacy  # noqa: F401 (the doctests' notion)
from ..registry import solver_capability
from ..result import GAP_RTOL, Result
from ..utility.base import Objective
from ..utility.distortion import ExpectedDistortion
from ..utility.rate_distortion import SlopePoint, SlopeSolver
from .certified import certified_result, single_budget


#: Smallest slope tried; below it the rate is below every budget of interest (``R <= s · max cost``).
MIN_SLOPE = 1e-9
#: Slopes evaluated at most by the search.
MAX_SLOPES = 80
#: Round-off of a measured rate: a channel of rate 0 (every input's cheapest output the same) measures ~1e-16.
RATE_ROUND_OFF = 1e-12
#: Rates below this count as this in the slope search's ``log R`` (a channel of rate 0 has one output).
RATE_FLOOR = 1e-300


def applies(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]], objective: Objective,
            limits: Sequence[Any] = ()) -> bool:
    """Whether the problem is the distortion–rate function: one :class:`MutualInformationPrivacy` under one
    prior, an :class:`~mechdesign.utility.distortion.ExpectedDistortion` under the same prior, no limits.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> prior = Prior([0.5, 0.3, 0.2])
    >>> applies(MutualInformationPrivacy(prior), ExpectedDistortion(prior))
    True
    >>> applies(MutualInformationPrivacy(prior), ExpectedDistortion(Prior.uniform(3)))  # another prior
    False
    """
    notion_list = [notions] if isinstance(notions, PrivacyNotion) else list(notions)
    if limits or len(notion_list) != 1 or type(objective) is not ExpectedDistortion:
        return False
    notion = notion_list[0]
    if solver_capability(notion, "distortion_rate") is None or len(notion.source_set) != 1:
        return False
    prior = notion.source_set.extreme_points[0]
    return prior.shape == objective.prior.probabilities.shape and bool(
        np.array_equal(prior, objective.prior.probabilities))


def mix_weight(low: SlopePoint, high: SlopePoint, rate: float) -> float:
    """The weight on ``high`` (rate ≥ ``rate``) in the mix with ``low`` (rate ≤ ``rate``) whose rates average to
    ``rate``: the mixed channel's mutual information is at most ``rate`` (convexity in the channel).

    Examples
    --------
    >>> low = SlopePoint(1.0, rate=0.25, distortion=0.5, intercept=0.75, output=np.array([1.0]))
    >>> high = SlopePoint(2.0, rate=0.75, distortion=0.3, intercept=1.35, output=np.array([1.0]))
    >>> mix_weight(low, high, 0.375)
    0.25
    """
    spread = high.rate - low.rate
    return 0.0 if spread <= 0 else min(1.0, max(0.0, (rate - low.rate) / spread))


def design_distortion_rate(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]],
                           budgets: Union[float, Sequence[float]], objective: Objective) -> Result:
    """``D(ε)`` by Newton on Blahut's output distribution and a slope search (module docstring), certified.

    Parameters
    ----------
    notions
        One :class:`MutualInformationPrivacy` under the objective's prior (see :func:`applies`).
    budgets
        Its ε (nats, ``inf`` allowed).
    objective
        An :class:`~mechdesign.utility.distortion.ExpectedDistortion`.

    Returns
    -------
    Result
        ``method="blahut-arimoto"``; ``"optimal"`` when Blahut's dual bound at ε is within ``GAP_RTOL``
        of the re-measured mechanism's distortion.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> prior = Prior([0.5, 0.5])
    >>> result = design_distortion_rate(MutualInformationPrivacy(prior), math.log(2) - 0.5004024235381879,
    ...                                 ExpectedDistortion(prior))  # log 2 − h(0.2): D = 0.2 (Cover & Thomas 10.3.1)
    >>> result.status, result.method, round(result.objective, 7)
    ('optimal', 'blahut-arimoto', 0.2)
    """
    start = time.perf_counter()
    if not applies(notions, objective):
        raise MechDesignError(f"design_distortion_rate needs one MutualInformationPrivacy notion under the "
                              f"ExpectedDistortion's prior, got {notions!r} and {objective!r}")
    notion = notions if isinstance(notions, PrivacyNotion) else list(notions)[0]
    budget = single_budget(budgets, notion.label)
    prior = objective.prior.probabilities
    cost = objective.cost / objective.unit
    used = prior > 0
    n = prior.size
    unconstrained = objective.unconstrained_optimum()
    if notion.measure(unconstrained) <= budget + RATE_ROUND_OFF:
        return certified_result(notion, budget, objective, unconstrained, objective.value(unconstrained),
                                "the unconstrained optimum (every input to its cheapest output) meets the budget",
                                start, method="blahut-arimoto", iterations=0)
    constant_costs = prior @ cost
    if budget == 0:
        row = np.zeros(cost.shape[1])
        row[int(np.argmin(constant_costs))] = 1.0
        constant = np.tile(row, (n, 1))
        return certified_result(notion, budget, objective, constant, float(constant_costs.min()) * objective.unit,
                                "rate 0: the best constant mechanism (Y independent of X), exact", start,
                                method="blahut-arimoto", iterations=0)
    # The objective's Prior as it is when every input has mass (no new Prior per slope, issue 33 item 4).
    solver = SlopeSolver(objective.prior if used.all() else prior[used], cost[used])
    with single_blas_thread():  # many small factorizations (mechdesign/_threads.py)
        points, low, high = _search(solver, budget)
    weight = mix_weight(low, high, budget) if high is not None else 0.0
    full = np.empty_like(unconstrained)
    full[used] = _mixed_channel(solver, low, high, weight)
    full[~used] = unconstrained[~used]
    bound = max(point.distortion_bound(budget) for point in points) * objective.unit
    slopes = f"{len(points)} slopes, bracket [{low.slope:.9g}, {high.slope if high else math.inf:.9g}]"
    return certified_result(notion, budget, objective, full, bound,
                            f"Newton on Blahut's output distribution: {slopes}, channels mixed with weight "
                            f"{weight:.6g}; bound: Blahut's dual line at ε", start, method="blahut-arimoto",
                            iterations=len(points))


def _mixed_channel(solver: SlopeSolver, low: SlopePoint, high: SlopePoint | None, weight: float) -> np.ndarray:
    """``(1 − weight) · channel(low) + weight · channel(high)``, building only the channels with positive weight."""
    if high is None or weight == 0:
        return solver.channel(low)
    if weight == 1:
        return solver.channel(high)
    return (1.0 - weight) * solver.channel(low) + weight * solver.channel(high)


def _search(solver: SlopeSolver, budget: float) -> tuple[list[SlopePoint], SlopePoint, SlopePoint | None]:
    """Slopes tried, and the last bracket ``(low, high)`` with ``low.rate <= budget <= high.rate``.

    ``high`` is ``None`` when even ``solver.max_slope`` stays below the budget (``low`` is then the answer).
    Each slope starts from the output distribution of its neighbours (few outputs). The bracket is found
    by extrapolating the rate (:func:`_bracketing_slope`), then narrowed by the Illinois variant of regula
    falsi on ``(log s, log R)`` (Dowell & Jarratt, "A modified regula falsi method for computing the root of an
    equation", BIT 11, 1971): superlinear, and never stalling at one end. It stops when the mix of the
    bracket is within half the gap tolerance of the best dual line.
    """
    points: list[SlopePoint] = []

    def evaluate(slope: float, start: np.ndarray) -> SlopePoint:
        point = solver.solve(slope, start / start.sum(), 0.25 * slope * GAP_RTOL)
        points.append(point)
        return point

    point = evaluate(1.0, solver.warm_start(1.0))
    low: SlopePoint | None = None
    high: SlopePoint | None = None
    scale = {True: 1.0, False: 1.0}  # Illinois: the weight of each end's rate residual
    moved: list[bool] = []  # which end each slope in the bracket replaced (True: low)
    while len(points) < MAX_SLOPES:
        below = point.rate <= budget
        if below and (low is None or point.slope > low.slope):
            low = point
        elif not below and (high is None or point.slope < high.slope):
            high = point
        if low is None or high is None:
            slope = _bracketing_slope(points, budget, solver.max_slope)
            if slope is None:
                break
            point = evaluate(slope, point.output)
            continue
        if _bracket_certified(points, low, high, budget) or high.slope - low.slope <= 1e-13 * high.slope:
            break
        moved.append(below)
        scale[below] = 1.0
        if len(moved) >= 2 and moved[-1] == moved[-2]:
            scale[not below] *= 0.5
        slope = _next_slope(low, high, budget, scale[True], scale[False])
        t = math.log(slope / low.slope) / math.log(high.slope / low.slope)
        point = evaluate(slope, (1.0 - t) * low.output + t * high.output)  # q interpolated in log s
    if low is None:
        low = min(points, key=lambda p: p.rate)
    return points, low, high


def _bracket_certified(points: list[SlopePoint], low: SlopePoint, high: SlopePoint, budget: float) -> bool:
    """Whether the mix of the bracket at rate ``budget`` is within half the gap tolerance of the best dual line."""
    weight = mix_weight(low, high, budget)
    distortion = (1.0 - weight) * low.distortion + weight * high.distortion
    bound = max(p.distortion_bound(budget) for p in points)
    return distortion - bound <= 0.5 * GAP_RTOL * max(1.0, distortion)


def _bracketing_slope(points: list[SlopePoint], budget: float, max_slope: float) -> float | None:
    """The next slope while every slope tried is on one side of the budget (``None`` at :data:`MIN_SLOPE` or
    ``max_slope``): a step of at most ×8 (÷8) on ``s``, by extrapolating the last two rates linearly in
    ``(log s, log R)`` (``R ∝ s²`` near rate 0), overshot by a quarter so that the next slope likely brackets
    the budget."""
    last = points[-1]
    upward = last.rate <= budget
    if (last.slope >= max_slope) if upward else (last.slope <= MIN_SLOPE):
        return None
    step = math.log(8.0)
    if len(points) >= 2:
        run = math.log(last.slope / points[-2].slope)
        rise = _log_rate(last.rate) - _log_rate(points[-2].rate)
        if rise * run > 0:
            need = abs(math.log(budget) - _log_rate(last.rate))
            step = min(step, max(math.log(1.25), 1.25 * need * abs(run / rise)))
    return min(max_slope, last.slope * math.exp(step)) if upward else max(MIN_SLOPE, last.slope * math.exp(-step))


def _next_slope(low: SlopePoint, high: SlopePoint, budget: float, low_scale: float, high_scale: float) -> float:
    """Regula falsi on ``(log s, log R)`` between the bracket's residuals, each weighted by its Illinois scale."""
    a, b = math.log(low.slope), math.log(high.slope)
    target = math.log(budget)
    below = low_scale * (target - _log_rate(low.rate))
    above = high_scale * (_log_rate(high.rate) - target)
    if not below + above > 0:
        return math.exp(0.5 * (a + b))
    t = min(0.99, max(0.01, below / (below + above)))
    return math.exp(a + t * (b - a))


def _log_rate(rate: float) -> float:
    """``log R``, with rates below :data:`RATE_FLOOR` (rate 0: a one-output channel) at ``log RATE_FLOOR``."""
    return math.log(max(rate, RATE_FLOOR))
