"""Exact designs for multi-secret summary statistic privacy (Wang et al., "Guarding Multiple Secrets").

The least attacker success at a worst-case distortion threshold is one LP (:func:`minimum_privacy`,
with the numpy-checked lower bound :func:`minimum_privacy_lower_bound`); the worst-case distortion
``Δ`` (Wang et al. eq. (3)) takes only the distinct distances of the parameter space, so the exact
privacy–distortion trade-off is one LP per distance (:func:`worst_case_tradeoff`) and the least
distortion under a privacy budget is a bisection over them (:func:`design_worst_case_distortion`).
The notions are in :mod:`mechdesign.privacy.summary`.
"""

from __future__ import annotations

import time
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np
from .._lazy import scipy_sparse as sp

from .._validate import as_choice, as_finite
from ..certificate import relaxation_lower_bound
from ..exceptions import MechDesignError, SolverFailedError
from ..mechanism import Mechanism
from ..parameter_spaces import ParameterSpace, SupportDistortion
from ..privacy.summary import SummaryStatisticPrivacy
from ..relaxation import ObjectiveMinorant, entry_index, linear_rows, stack
from ..result import Result, clean_mechanism, within_budget
from ..solvers import solve_cvxpy
from ..methods.certified import failure_result, mechanism_result

#: Two distances closer than this are one distortion threshold.
THRESHOLD_ATOL = 1e-12
#: The LP solvers :func:`minimum_privacy` and :func:`design_worst_case_distortion` accept.
SOLVERS = ("highs", "clarabel")


def _check_notion(notion: Any) -> None:
    if not isinstance(notion, SummaryStatisticPrivacy):
        raise MechDesignError(f"expected a summary statistic privacy notion (union, intersection, group, ℓp), got {notion!r}")


def minimum_privacy(notion: SummaryStatisticPrivacy, threshold: float, solver: str = "highs") -> tuple[float, np.ndarray | None]:
    """The least attacker success ``min Π(Q)`` over mechanisms with worst-case distortion ≤ ``threshold``.

    One LP: ``Q[θ, θ'] = 0`` wherever ``θ`` is in the prior's support and ``𝔇(θ, θ') > threshold``.
    Returns the optimum and the (cleaned) minimizer, or ``(inf, None)`` when no mechanism has this
    distortion (some supported input has no output within ``threshold``). Raises
    :class:`~mechdesign.exceptions.SolverFailedError` when the solver gives no solution (the LP is
    always feasible and bounded then: a failure is the solver's, never "no mechanism").

    Examples
    --------
    >>> from mechdesign import IntersectionPrivacy, ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])
    >>> value, matrix = minimum_privacy(IntersectionPrivacy(space), 1.0)
    >>> round(value, 6), matrix.round(3).tolist()  # everyone released as the middle mean
    (0.333333, [[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
    """
    _check_notion(notion)
    space = notion.space
    forbidden = np.zeros(space.cost.shape, dtype=bool)
    forbidden[space.support] = space.cost[space.support] > threshold + THRESHOLD_ATOL
    if forbidden.all(axis=1).any():
        return np.inf, None
    Q = cp.Variable(space.cost.shape, nonneg=True)
    problem = cp.Problem(cp.Minimize(notion.leakage_expression(Q)),
                         [cp.sum(Q, axis=1) == 1, Q[forbidden] == 0] if forbidden.any() else [cp.sum(Q, axis=1) == 1])
    outcome = solve_cvxpy(problem, as_choice(solver, SOLVERS, "solver"))
    if not outcome.solved or Q.value is None:
        raise SolverFailedError(f"minimum_privacy at threshold {threshold:g}: {solver} returned {outcome.status}"
                                + (f" ({outcome.note})" if outcome.note else ""))
    matrix = np.where(forbidden, 0.0, np.clip(Q.value, 0.0, None))
    return float(problem.value), clean_mechanism(matrix)


def minimum_privacy_lower_bound(notion: SummaryStatisticPrivacy, threshold: float) -> float:
    """A certified lower bound on :func:`minimum_privacy` (``inf`` when no mechanism has the distortion).

    The LP dual bound of :func:`~mechdesign.certificate.relaxation_lower_bound` on ``min Σ_y M_y``
    over :meth:`~SummaryStatisticPrivacy.attacker_rows` with the forbidden entries at 0.

    Examples
    --------
    >>> from mechdesign import IntersectionPrivacy, ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])
    >>> round(minimum_privacy_lower_bound(IntersectionPrivacy(space), 1.0), 6)
    0.333333
    """
    space = notion.space
    shape = space.cost.shape
    forbidden = np.zeros(shape, dtype=bool)
    forbidden[space.support] = space.cost[space.support] > threshold + THRESHOLD_ATOL
    if forbidden.all(axis=1).any():
        return np.inf
    rows, columns = np.nonzero(forbidden)
    zeros = sp.csr_matrix((np.ones(rows.size), (np.arange(rows.size), entry_index(shape, rows, columns))),
                          shape=(rows.size, shape[0] * shape[1]))
    relaxation = stack([notion.attacker_rows(shape), linear_rows(zeros, np.zeros(rows.size))], shape[0] * shape[1])
    minorant = ObjectiveMinorant(0.0, np.zeros(shape[0] * shape[1]), np.ones(shape[1]), relaxation)
    bound, _ = relaxation_lower_bound(minorant, relaxation, shape)
    return bound


def distortion_thresholds(space: ParameterSpace) -> np.ndarray:
    """The distinct distances from supported inputs to outputs: the only values eq. (2) can take.

    Examples
    --------
    >>> from mechdesign import ParameterSpace
    >>> distortion_thresholds(ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])).tolist()
    [0.0, 1.0, 2.0]
    """
    values = np.sort(space.cost[space.support].ravel())
    keep = np.concatenate([[True], np.diff(values) > THRESHOLD_ATOL])
    return values[keep]


def worst_case_tradeoff(notion: SummaryStatisticPrivacy, thresholds: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The exact privacy–distortion trade-off: ``min Π`` at each distortion threshold (one LP each).

    ``Δ*(T) = min{t : value(t) ≤ T}`` for the returned step function. Thresholds default to every
    distinct distance (:func:`distortion_thresholds`).

    Examples
    --------
    >>> from mechdesign import IntersectionPrivacy, ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])
    >>> thresholds, privacy = worst_case_tradeoff(IntersectionPrivacy(space))
    >>> thresholds.tolist(), privacy.round(6).tolist()
    ([0.0, 1.0, 2.0], [1.0, 0.333333, 0.333333])
    """
    _check_notion(notion)
    grid = (distortion_thresholds(notion.space) if thresholds is None
            else np.array([as_finite(t, "distortion threshold") for t in np.ravel(np.asarray(thresholds, dtype=object))]))
    values = np.array([minimum_privacy(notion, t)[0] for t in grid])
    return grid, values


def design_worst_case_distortion(notion: SummaryStatisticPrivacy, budget: float, solver: str = "highs") -> Result:
    """Minimize the worst-case distortion Δ (Wang et al. eq. (3)) subject to ``Π ≤ T``, exactly.

    Δ takes one of the distinct distances; the set of mechanisms with ``Δ ≤ t`` grows with ``t``, so
    a bisection over the sorted distances with one LP each (:func:`minimum_privacy`) finds the
    least feasible one. The mechanism is re-measured (privacy by the notion's own measure,
    distortion by :class:`~mechdesign.parameter_spaces.SupportDistortion`).

    Examples
    --------
    >>> from mechdesign import IntersectionPrivacy, ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])  # three means, one σ
    >>> result = design_worst_case_distortion(IntersectionPrivacy(space), 0.5)
    >>> result.success, result.objective  # the attacker's success at most 1/2 costs W2 distortion 1
    (True, 1.0)
    """
    _check_notion(notion)
    T = notion.scaled_budget(budget)
    solver = as_choice(solver, SOLVERS, "solver")
    start = time.perf_counter()
    grid = distortion_thresholds(notion.space)
    budgets = {notion.label: T}
    floor = notion.prior_vulnerability()
    if not within_budget(floor, T):
        return failure_result("infeasible", f"infeasible: T = {T:.9g} is below {floor:.9g}, the success of an "
                              "attacker who sees nothing", start, budgets=budgets, solver=solver, smallest_feasible=floor)
    low, high, best, solves = 0, grid.size - 1, None, 0
    while low <= high:
        middle = (low + high) // 2
        try:
            _, matrix = minimum_privacy(notion, grid[middle], solver)
        except SolverFailedError as failure:  # a failed LP decides nothing: never read as "not reached"
            return failure_result("solver_error", f"{failure}; the bisection cannot continue", start,
                                  budgets=budgets, solver=solver, iterations=solves, method="bisection")
        solves += 1
        if matrix is not None and within_budget(notion.measure(matrix), T):
            best, high = matrix, middle - 1
        else:
            low = middle + 1
    if best is None:
        return failure_result("inaccurate", "no threshold's LP solution re-measured within the budget", start,
                              budgets=budgets, solver=solver, iterations=solves)
    mechanism = Mechanism(best)
    distortion = SupportDistortion(notion.space).value(mechanism)
    # Δ takes only the grid's values: the optimum is certified when the next smaller one is proven out of
    # reach (its least attacker success, bounded below in numpy, exceeds T).
    below = grid[grid < distortion - THRESHOLD_ATOL]
    bound = distortion if below.size == 0 or not within_budget(minimum_privacy_lower_bound(notion, below[-1]), T) else None
    return mechanism_result(
        mechanism, distortion, bound, f"worst-case distortion by bisection over {grid.size} thresholds", start,
        measured={notion.label: notion.measure(mechanism)}, budgets=budgets, solver=solver, iterations=solves,
        method="bisection",
        verdict=lambda certified, _: ("optimal worst-case distortion" if certified else "suboptimal: the next smaller "
                                      "distortion could not be proven out of reach; worst-case distortion")
        + f" by bisection over {grid.size} thresholds ({solves} LPs); privacy re-measured and respected")
