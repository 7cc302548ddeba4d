"""Exact maximization of sub-convex utilities: a linear program over the extreme columns.

A utility is *sub-convex* (Kairouz, Oh & Viswanath 2016; Grosse et al., "Privacy Mechanism Design
based on Empirical Distributions", eq. (2)) if ``U(Q) = Σ_y μ(Q[:, y])`` with ``μ`` *sub-linear*:
positively homogeneous (``μ(c v) = c μ(v)``, ``c ≥ 0``) and convex. Mutual information is one
(``μ(v) = Σ_x P(x) v_x log(v_x / P·v)``). Maximizing a convex function is not a convex program, but
for a *column-separable* privacy notion — every column of ``Q`` must lie in one convex cone ``K``,
as for local DP, PML under a prior, a finite set of priors or an ℓ1-ball, and maximal information — it is
solved exactly by a linear program (Kairouz et al. 2016 for local DP: staircase mechanisms; for PML
Grosse, Saeidian & Oechtering 2024, "Extremal mechanisms for PML", Theorem 6, cited as [15, Thm. 6]):

* write each column as ``v = w u`` with ``u`` an extreme ray of ``K`` (any positive scaling);
  by convexity and homogeneity ``μ(Σ λ_k u_k) <= Σ λ_k μ(u_k)``, so an optimum uses extreme rays only;
* solve ``max Σ_k w_k μ(u_k)`` s.t. ``Σ_k w_k u_k = 1`` (row sums), ``w >= 0``;
* the mechanism is ``Q[:, k] = w_k u_k`` over the used ``k`` (at most ``n`` of them: a basic solution).

Maximal leakage (``Σ_y max_x Q[x, y] <= e^ε``) couples the columns, but normalizing each column by its
maximum gives the same kind of LP: every ``u ∈ [0, 1]^n`` with ``max u = 1`` lies in a face
``{u_i = 1}`` of the cube whose vertices (0/1 vectors) all have maximum 1, so the candidates are the
non-zero 0/1 vectors and the budget is one more row, ``Σ_k w_k <= e^ε`` (``w_k`` is column ``k``'s
maximum).

The extreme rays are enumerated exactly (closed-form patterns, no floating-point vertex search);
their number grows exponentially with the alphabet size, so :func:`extreme_columns` refuses, with
:class:`ProblemTooLargeError` and before enumerating, problems whose estimated memory
(:data:`BYTES_PER_CANDIDATE_ENTRY` per entry of the candidate matrix) exceeds the memory available.
Every candidate is checked against the cone's inequalities before it enters the LP, and the designed
mechanism is re-measured with the notion's own measure, as :func:`~mechdesign.solve.design` does.

The optimum is certified by the column LP's dual, checked in numpy (:func:`column_lp_upper_bound`):
for any prices ``π`` of the row sums (and ``ν >= 0`` of the budget row), every feasible ``w`` has
``values·w = Σ π + ν Σ w + Σ_k w_k r_k`` with reduced costs ``r_k = μ(u_k) − u_k·π − ν``, and
``Σ_k w_k |u_k|_1 = n``, so ``values·w <= Σ π + ν e^ε + n · max(0, max_k r_k / |u_k|_1)``. The result is
``"optimal"`` only when this bound is within ``GAP_RTOL`` of the mechanism's utility.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable

import highspy
import numpy as np
from .._lazy import scipy_sparse as sparse

from .._validate import as_budget, as_positive_int
from ..exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError, SolverFailedError
from ..mechanism import Mechanism
from ..privacy.base import PrivacyNotion, as_notion
from ..privacy.pml import support_of
from ..priors import L1Ball, PriorLike
from ..memory import check_memory
from ..progress import Progress, report
from ..registry import capabilities, resolve
from ..solvers import highs_model, quiet_highs, run_highs
from ..utility.information import mutual_information_utility
from ..utility.sublinear import ColumnUtility
from ..result import Result, certify_mechanism, clean_mechanism
from ..methods.certified import exceeded, failure_result, mechanism_result

#: Bytes of peak memory per entry of the ``n × k`` candidate matrix (enumeration, feasibility check,
#: utility values, LP). Measured (benchmarks/RESULTS.md): local DP at N = 18 (262,142 columns) 0.9 GB,
#: N = 19 (524,286) 1.8 GB — 180–190 bytes per entry; PML at N = 16 (589,824 candidates) 368 MB.
BYTES_PER_CANDIDATE_ENTRY = 200
#: Largest number of (free coordinates, binding priors) choices of the general source-set enumeration.
MAX_ACTIVE_SETS = 200_000
#: Relative tolerance of the cone-membership check of a candidate column.
MEMBERSHIP_RTOL = 1e-9
#: HiGHS options of the column LP: few rows, many columns favour the primal simplex (3–6× faster than
#: HiGHS's default dual simplex at N = 15; benchmarks/mi_extreme_columns.py, benchmarks/RESULTS.md).
#: Feasibility tolerances of 1e-10 (default 1e-7) so that the numpy dual bound certifies the optimum.
HIGHS_OPTIONS = {"simplex_strategy": 4, "primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
#: Weights below this (relative to the largest) are LP round-off; their columns are dropped.
NEGLIGIBLE_WEIGHT = 1e-12


# --- extreme rays of the feasible column cone --------------------------------------------------


def _binary_patterns(n: int) -> np.ndarray:
    """Every 0/1 vector of length ``n`` as the columns of an ``(n, 2^n)`` array."""
    codes = np.arange(2**n)
    return ((codes[None, :] >> np.arange(n)[:, None]) & 1).astype(float)


def _check_count(count: int, what: str, n: int) -> None:
    """Refuse, before enumerating, ``count`` candidates of length ``n`` that would not fit in memory."""
    check_memory(BYTES_PER_CANDIDATE_ENTRY * count * n,
                 f"the exact extreme-column LP for {what} on n = {n} inputs ({count:,} candidate columns)")


def ldp_columns(n: int, boost: float) -> np.ndarray:
    """Extreme rays of ``{v >= 0 : max v <= e^ε min v}`` (ε-LDP): the ``{1, e^ε}`` patterns.

    Kairouz et al. 2016 (staircase patterns): ``2^n − 2`` non-constant patterns for ε > 0;
    the constant column alone for ε = 0 or a single input.

    Parameters
    ----------
    n
        Input alphabet size.
    boost
        ``e^ε``.

    Returns
    -------
    numpy.ndarray
        ``(n, k)`` columns.

    Examples
    --------
    >>> ldp_columns(2, 3.0)  # randomized response's two columns at e^ε = 3
    array([[3., 1.],
           [1., 3.]])
    >>> ldp_columns(3, 1.0).T  # ε = 0: the constant column
    array([[1., 1., 1.]])
    """
    if boost == 1.0 or n == 1:
        return np.ones((n, 1))
    _check_count(2**n - 2, "local DP", n)
    patterns = _binary_patterns(n)[:, 1:-1]
    return 1.0 + (boost - 1.0) * patterns


def maximal_leakage_columns(n: int) -> np.ndarray:
    """The non-zero 0/1 vectors: extreme points of ``{u ∈ [0, 1]^n : max u = 1}``'s faces.

    Parameters
    ----------
    n
        Input alphabet size.

    Returns
    -------
    numpy.ndarray
        ``(n, 2^n − 1)`` columns.

    Examples
    --------
    >>> maximal_leakage_columns(2)
    array([[1., 0., 1.],
           [0., 1., 1.]])
    """
    _check_count(2**n - 1, "maximal leakage", n)
    return _binary_patterns(n)[:, 1:]


def source_set_columns(priors: np.ndarray, boost: float, progress: Progress | None = None) -> np.ndarray:
    """Extreme rays of ``{v >= 0 : v_x <= e^ε P_k·v for all x, k}`` (PML over the priors ``P_k``).

    Lift with ``h >= max v``: the cone ``{(v, h) : 0 <= v <= h, h <= e^ε P_k·v}``. Scaled to
    ``h = 1``, an extreme ray has every coordinate at 0 or 1 except a set ``F`` of free coordinates,
    fixed by ``|F|`` binding priors ``P_k·v = e^{-ε}`` (``|B| = |F|``, non-singular). Enumerating
    ``(F, B)`` and the 0/1 pattern of the rest gives a superset of the extreme rays, of which the
    feasible ones are kept (Grosse et al., Cor. 1; for one prior ``|F| <= 1``, as in [15, Thm. 6]).
    ``progress`` (a :class:`~mechdesign.progress.Progress` or ``None``) hears of every ``(F, B)`` choice.

    Parameters
    ----------
    priors
        ``(k, n)`` priors, one per row.
    boost
        ``e^ε``.
    progress
        A progress callback, or ``None``.

    Returns
    -------
    numpy.ndarray
        ``(n, k')`` feasible columns with maximum 1, de-duplicated.

    Examples
    --------
    Under the uniform prior at ``e^ε = 1.5`` a column with a 1 needs ``1 <= 1.5 (1 + v)/2``, so the
    other entry is at least 1/3:

    >>> source_set_columns(np.array([[0.5, 0.5]]), 1.5).round(6)
    array([[0.333333, 1.      , 1.      ],
           [1.      , 0.333333, 1.      ]])
    """
    k, n = priors.shape
    floor = 1.0 / boost
    sizes = range(min(n, k) + 1)
    active_sets = sum(math.comb(n, f) * math.comb(k, f) for f in sizes)
    _check_count(sum(math.comb(n, f) * math.comb(k, f) * 2 ** (n - f) for f in sizes), f"PML over {k} priors", n)
    if active_sets > MAX_ACTIVE_SETS:
        raise ProblemTooLargeError(
            f"PML over {k} priors on n = {n} inputs has {active_sets:,} choices of binding priors, more than "
            f"MAX_ACTIVE_SETS = {MAX_ACTIVE_SETS:,}"
        )
    blocks, done = [], 0
    for f in sizes:
        for free in itertools.combinations(range(n), f):
            rest = [i for i in range(n) if i not in free]
            patterns = _binary_patterns(len(rest))
            for binding in itertools.combinations(range(k), f):
                block = _solve_free(priors, floor, list(free), rest, list(binding), patterns)
                if block is not None:
                    blocks.append(block)
            done += math.comb(k, f)
            report(progress, done, active_sets, f"extreme columns: {f} free coordinates")
    return _feasible(np.hstack(blocks), lambda U: priors @ U, boost)


def _solve_free(priors: np.ndarray, floor: float, free: list[int], rest: list[int], binding: list[int],
                patterns: np.ndarray) -> np.ndarray | None:
    """Columns with ``v[rest] = patterns`` and ``v[free]`` solving ``P_b·v = floor`` for ``b ∈ binding``."""
    n = priors.shape[1]
    columns = np.zeros((n, patterns.shape[1]))
    columns[rest] = patterns
    if free:
        system = priors[np.ix_(binding, free)]
        if abs(np.linalg.det(system)) < 1e-12:
            return None
        rhs = floor - priors[np.ix_(binding, rest)] @ patterns
        columns[free] = np.linalg.solve(system, rhs)
    return columns


def l1_ball_columns(center: np.ndarray, radius: float, boost: float) -> np.ndarray:
    """Extreme rays of the PML cone for every prior in the ℓ1-ball ``‖P − P̂‖₁ <= β`` (ball ⊂ simplex).

    For ``β/2 <= min P̂`` the worst prior has ``min_P P·v = P̂·v − (β/2)(max v − min v)`` (Grosse et
    al., Appendix D), so the cone is ``(1 + βe^ε/2) max v <= e^ε (P̂·v + (β/2) min v)``. Lifted with
    ``l <= v <= h`` and scaled to ``h = 1``, its extreme rays are: 0/1 patterns; ``{l, 1}`` patterns
    with the constraint binding (``l`` solved); and 0/1 patterns with one free coordinate solving the
    binding constraint with ``l = 0``. Infeasible candidates are dropped; feasible candidates that are
    not extreme may remain (they do not change the LP's optimum).

    Parameters
    ----------
    center
        ``(n,)`` the ball's centre ``P̂``.
    radius
        ``β``, with ``β/2 <= min P̂``.
    boost
        ``e^ε``.

    Returns
    -------
    numpy.ndarray
        ``(n, k)`` feasible columns with maximum 1, de-duplicated.

    Examples
    --------
    Around the uniform prior with ``β = 0.2`` at ``e^ε = 1.5``: ``1.15 <= 1.5 (0.6 v + 0.5)`` gives the
    smallest entry ``4/9`` beside a 1 (the column with ``8/15`` is feasible, not extreme):

    >>> l1_ball_columns(np.array([0.5, 0.5]), 0.2, 1.5).round(6)
    array([[0.444444, 0.533333, 1.      , 1.      , 1.      ],
           [1.      , 1.      , 0.444444, 0.533333, 1.      ]])
    """
    n = center.size
    half = radius / 2.0
    _check_count(2**n + 2**n + n * 2 ** (n - 1), "PML over an l1-ball", n)
    patterns = _binary_patterns(n)
    mass = center @ patterns  # P̂(S) for S = pattern's ones
    with np.errstate(divide="ignore", invalid="ignore"):
        low = (1.0 - boost * (mass - half)) / (boost * (1.0 - mass + half))
    finite = np.isfinite(low)  # S = every input with β = 0 leaves l undetermined
    two_level = low[None, finite] + (1.0 - low[None, finite]) * patterns[:, finite]
    blocks = [patterns[:, 1:], two_level]
    for i in range(n):
        rest = [j for j in range(n) if j != i]
        sub = _binary_patterns(n - 1)
        block = np.zeros((n, sub.shape[1]))
        block[rest] = sub
        block[i] = (1.0 / boost - center[rest] @ sub + half) / center[i]
        blocks.append(block)

    def worst_mass(U: np.ndarray) -> np.ndarray:
        return (center @ U - half * (U.max(axis=0) - U.min(axis=0)))[None, :]

    return _feasible(np.hstack(blocks), worst_mass, boost)


def _feasible(candidates: np.ndarray, masses: Callable[[np.ndarray], np.ndarray], boost: float) -> np.ndarray:
    """The candidates in the cone ``{v >= 0 : max v <= e^ε · every mass}``, de-duplicated, max = 1."""
    candidates = candidates[:, np.isfinite(candidates).all(axis=0)]
    largest = candidates.max(axis=0)
    scale = np.maximum(largest, 1e-300)
    ok = (candidates.min(axis=0) >= -MEMBERSHIP_RTOL * scale) & (largest > 0)
    ok &= (largest <= boost * masses(candidates).min(axis=0) * (1 + MEMBERSHIP_RTOL) + 1e-15)
    kept = np.clip(candidates[:, ok], 0.0, None) / largest[ok]
    return np.unique(np.round(kept, 12), axis=1)


def extreme_columns(notion: PrivacyNotion, budget: float, n_inputs: int,
                    progress: Progress | None = None) -> tuple[np.ndarray, bool]:
    """Candidate columns whose conic hull is the notion's feasible column set, exactly.

    Parameters
    ----------
    notion
        Local DP (complete neighbour relation), maximal information (Zhong & Bu, Def. 3(3); a prior or
        a source set), PML (a prior, a finite source set or an ℓ1-ball
        :class:`~mechdesign.priors.L1Ball`; every input must be charged by some prior), or maximal
        leakage. A ball inside the simplex uses its dual description (:func:`l1_ball_columns`); a ball
        cut by the simplex boundary uses its extreme points (``L1Ball.extreme_points``, n <= 12).
    budget
        ε in nats. When the identity meets it (always at ``inf``) the notion constrains nothing — every
        column of the identity, hence every non-negative column, is feasible — and the candidates are the
        unit vectors.
    n_inputs
        Input alphabet size.
    progress
        A :class:`~mechdesign.progress.Progress` callback for the enumeration over binding priors
        (maximal information and PML over several priors, the slow cases); ``None`` is silent.

    Returns
    -------
    columns, budget_row
        ``(n_inputs, k)`` candidates; ``budget_row`` is True for maximal leakage, whose columns have
        maximum 1 and whose LP gets the extra row ``Σ_k w_k <= e^ε``.

    Raises
    ------
    MechDesignError
        If the notion is not column-separable.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, MaximalLeakage
    >>> extreme_columns(DifferentialPrivacy(), math.log(3), 2)
    (array([[3., 1.],
           [1., 3.]]), False)
    >>> extreme_columns(MaximalLeakage(), 0.5, 2)[1]  # below log 2: the budget binds
    True
    >>> extreme_columns(DifferentialPrivacy(), math.inf, 2)
    (array([[1., 0.],
           [0., 1.]]), False)
    """
    epsilon = as_budget(budget, f"{as_notion(notion).name} budget", infinite=True)
    n = as_positive_int(n_inputs, "n_inputs")
    notion.check_shape(n)
    entry = capabilities(notion)
    if entry.column_cone is None:
        raise MechDesignError(f"no exact extreme-column LP for {notion!r}: it is not column-separable "
                              "(supported: local DP, PML, robust PML, maximal information, maximal leakage)")
    if notion.measure(np.eye(n)) <= epsilon:
        return np.eye(n), False
    return resolve(entry.column_cone)(notion, notion.finite_scaled_budget(epsilon), n, progress)  # e^ε here


def maximal_leakage_cone(notion: PrivacyNotion, boost: float, n: int,
                         progress: Progress | None) -> tuple[np.ndarray, bool]:
    """Maximal leakage's columns (maximum 1) and its budget row (registered in :mod:`mechdesign.registry`).

    Parameters
    ----------
    notion
        The maximal-leakage notion.
    boost
        ``e^ε`` (it enters the budget row, not the columns).
    n
        Input alphabet size.
    progress
        Unused.

    Returns
    -------
    columns, budget_row
        :func:`maximal_leakage_columns` and ``True``.

    Examples
    --------
    >>> from mechdesign import MaximalLeakage
    >>> columns, budget_row = maximal_leakage_cone(MaximalLeakage(), 2.0, 2, None)
    >>> columns.shape, budget_row
    ((2, 3), True)
    """
    return maximal_leakage_columns(n), True


def local_dp_cone(notion: PrivacyNotion, boost: float, n: int, progress: Progress | None) -> tuple[np.ndarray, bool]:
    """Local DP's staircase columns (every pair of inputs neighbouring).

    Parameters
    ----------
    notion
        The DP notion; its neighbour relation must be complete.
    boost
        ``e^ε``.
    n
        Input alphabet size.
    progress
        Unused.

    Returns
    -------
    columns, budget_row
        :func:`ldp_columns` and ``False``.

    Raises
    ------
    MechDesignError
        For an incomplete neighbour relation.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy
    >>> local_dp_cone(DifferentialPrivacy([(0, 1)], 3), 3.0, 3, None)
    Traceback (most recent call last):
        ...
    mechdesign.exceptions.MechDesignError: the exact extreme-column LP supports local DP (every pair of inputs neighbours), not dp(1 pairs)
    """
    if not notion.neighbours.is_complete:
        raise MechDesignError(f"the exact extreme-column LP supports local DP (every pair of inputs "
                              f"neighbours), not {notion.label}")
    return ldp_columns(n, boost), False


def maximal_information_cone(notion: PrivacyNotion, boost: float, n: int,
                             progress: Progress | None) -> tuple[np.ndarray, bool]:
    """Maximal information: PML's cone with the numerator over every input.

    Parameters
    ----------
    notion
        The maximal-information notion.
    boost
        ``e^ε``.
    n
        Input alphabet size.
    progress
        A progress callback, or ``None``.

    Returns
    -------
    columns, budget_row
        :func:`source_set_columns` of the notion's priors and ``False``.

    Examples
    --------
    >>> from mechdesign import MaximalInformation, Prior
    >>> columns, _ = maximal_information_cone(MaximalInformation(Prior([0.5, 0.5])), 1.5, 2, None)
    >>> bool(np.array_equal(columns, source_set_columns(np.array([[0.5, 0.5]]), 1.5)))
    True
    """
    return source_set_columns(notion.source_set.extreme_points, boost, progress), False


def pml_cone(notion: PrivacyNotion, boost: float, n: int, progress: Progress | None) -> tuple[np.ndarray, bool]:
    """PML under a prior, a finite source set or an ℓ1-ball (every input charged by some prior).

    Parameters
    ----------
    notion
        The PML notion.
    boost
        ``e^ε``.
    n
        Input alphabet size.
    progress
        A progress callback, or ``None``.

    Returns
    -------
    columns, budget_row
        The feasible columns and ``False``.

    Raises
    ------
    MechDesignError
        If an input has probability 0 under every prior.

    Examples
    --------
    >>> from mechdesign import PointwiseMaximalLeakage
    >>> columns, _ = pml_cone(PointwiseMaximalLeakage([0.5, 0.5]), 1.5, 2, None)
    >>> columns.round(6)  # see source_set_columns
    array([[0.333333, 1.      , 1.      ],
           [1.      , 0.333333, 1.      ]])
    """
    uncharged = np.setdiff1d(np.arange(n), support_of(notion.prior_set))
    if uncharged.size:
        raise MechDesignError(f"the exact extreme-column LP needs every input charged by some prior; "
                              f"input {int(uncharged[0])} has probability 0 under every prior of {notion.label}")
    prior_set = notion.prior_set
    if isinstance(prior_set, L1Ball):
        center = prior_set.center.probabilities
        if prior_set.half_radius <= center.min():
            return l1_ball_columns(center, prior_set.radius, boost), False
        return source_set_columns(prior_set.extreme_points(), boost, progress), False
    return source_set_columns(prior_set.extreme_points, boost, progress), False


# --- the LP -------------------------------------------------------------------------------------


def solve_column_lp(
    columns: np.ndarray, values: np.ndarray, total_weight: float | None
) -> tuple[np.ndarray, int, np.ndarray]:
    """``max values·w`` s.t. ``columns @ w = 1``, ``w >= 0`` (and ``Σ w <= total_weight``) with HiGHS.

    Parameters
    ----------
    columns
        ``(n, k)`` candidate columns.
    values
        ``(k,)`` their utilities ``μ(u_k)``.
    total_weight
        ``T`` of the budget row ``Σ w <= T``, or ``None`` for none.

    Returns
    -------
    weights, iterations, prices
        The optimal weights, the simplex iteration count and the row prices of the maximization
        (``π`` for the row sums, then ``ν`` for the budget row if any).

    Raises
    ------
    SolverFailedError
        If HiGHS does not report optimality (cannot happen for a feasible notion: the constant
        mechanism is in the cone's hull).

    Examples
    --------
    Maximal leakage's columns ``e₀, e₁, (1, 1)`` with ``Σ w <= 1.5``: row sums force ``w₂ >= 1/2``,
    and ``values`` favour the first two:

    >>> columns, values = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]), np.array([1.0, 1.0, 0.0])
    >>> weights, _, prices = solve_column_lp(columns, values, 1.5)
    >>> weights, column_lp_upper_bound(columns, values, 1.5, prices)  # optimum 1, certified
    (array([0.5, 0.5, 0.5]), 1.0)
    """
    n, k = columns.shape
    matrix = sparse.csc_matrix(columns)
    row_lower, row_upper = np.ones(n), np.ones(n)
    if total_weight is not None:
        matrix = sparse.vstack([matrix, sparse.csr_matrix(np.ones((1, k)))]).tocsc()
        row_lower, row_upper = np.append(row_lower, 0.0), np.append(row_upper, total_weight)
    lp = highs_model(-np.asarray(values, dtype=float), matrix, row_lower, row_upper, np.zeros(k),
                     np.full(k, highspy.kHighsInf))
    highs = quiet_highs(HIGHS_OPTIONS)
    highs.passModel(lp)
    outcome = run_highs(highs)
    if not outcome.solved:
        raise SolverFailedError(outcome.note)
    solution = highs.getSolution()
    # HiGHS minimizes −values·w: the maximization's prices are the negated row duals.
    prices = -np.asarray(solution.row_dual)
    return np.asarray(solution.col_value), int(highs.getInfo().simplex_iteration_count), prices


def column_lp_upper_bound(columns: np.ndarray, values: np.ndarray, total_weight: float | None,
                          prices: np.ndarray) -> float:
    """``Σ π + ν T + n · max(0, max_k r_k / |u_k|_1)``: an upper bound on the column LP for any prices.

    ``prices`` holds ``π`` (one per row sum) and, with a budget row ``Σ w <= T``, ``ν`` last (clipped
    at 0, which keeps the bound valid); see the module docstring.

    Examples
    --------
    >>> columns = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> column_lp_upper_bound(columns, np.array([1.0, 2.0]), None, np.array([1.0, 2.0]))
    3.0
    """
    n = columns.shape[0]
    row_prices = prices[:n]
    budget_price = max(0.0, float(prices[n])) if total_weight is not None else 0.0
    reduced = values - row_prices @ columns - budget_price
    per_mass = reduced / columns.sum(axis=0)
    budget_term = budget_price * total_weight if budget_price > 0 else 0.0
    return float(row_prices.sum() + budget_term + n * max(0.0, float(per_mass.max())))


def maximize_sublinear_utility(notion: PrivacyNotion, budget: float, utility: ColumnUtility,
                               progress: Progress | None = None) -> Result:
    """The mechanism maximizing a sub-convex utility under a privacy budget, exactly (an LP).

    Parameters
    ----------
    notion
        A column-separable notion (local DP, PML for a prior or a finite set of priors) or maximal
        leakage; see :func:`extreme_columns`.
    budget
        ε in nats; where the identity meets it (always at ``inf``) the identity, optimal for every
        sub-linear ``μ`` (``μ(v) <= Σ_x v_x μ(e_x)``).
    utility
        The column utility ``μ`` (see :class:`~mechdesign.utility.sublinear.ColumnUtility`, or
        :func:`~mechdesign.utility.information.mutual_information_utility`).
    progress
        A :class:`~mechdesign.progress.Progress` callback for the extreme-column enumeration;
        ``None`` is silent.

    Returns
    -------
    Result
        As :func:`~mechdesign.solve.design`: the mechanism re-measured with ``notion.measure``, the
        utility recomputed on it as ``objective``, solver ``"highs"``. The message gives the number
        of candidate columns.

    Raises
    ------
    ProblemTooLargeError
        When the enumeration's estimated memory exceeds the memory available.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy
    >>> from mechdesign.utility.information import mutual_information_utility
    >>> result = maximize_sublinear_utility(DifferentialPrivacy(), 1.0, mutual_information_utility([0.5, 0.5]))
    >>> result.status, result.method
    ('optimal', 'extreme-columns')
    """
    if not isinstance(utility, ColumnUtility):
        raise MechDesignError(f"utility must be a ColumnUtility, got {utility!r}")
    budget = as_budget(budget, f"{as_notion(notion).name} budget", infinite=True)
    if notion.n_inputs is not None and notion.n_inputs != utility.n_inputs:
        raise ShapeMismatchError(f"{notion.label} is on {notion.n_inputs} inputs, {utility.label} on {utility.n_inputs}")
    start = time.perf_counter()
    columns, budget_row = extreme_columns(notion, budget, utility.n_inputs, progress)
    values = utility.columns(columns)
    doubled = utility.columns(2.0 * columns)
    if not np.allclose(doubled, 2.0 * values, rtol=1e-9, atol=1e-12):
        worst = int(np.argmax(np.abs(doubled - 2.0 * values)))
        raise MechDesignError(f"{utility.label} is not positively homogeneous: μ(2v) = {doubled[worst]:.9g} but "
                              f"2μ(v) = {2 * values[worst]:.9g} for v = {columns[:, worst]}")
    total_weight = notion.finite_scaled_budget(budget) if budget_row else None
    try:
        weights, iterations, prices = solve_column_lp(columns, values, total_weight)
    except SolverFailedError as exc:
        return failure_result("solver_error", f"{exc} on {columns.shape[1]:,} candidate columns", start,
                              budgets={notion.label: float(budget)}, solver="highs", method="extreme-columns")
    residual = float(np.max(np.abs(columns @ weights - 1.0)))
    used = weights > NEGLIGIBLE_WEIGHT * weights.max()
    matrix = clean_mechanism(columns[:, used] * weights[used])
    label = notion.label
    matrix, _, note = certify_mechanism(matrix, lambda m: exceeded({label: notion.measure(m)}, {label: budget}))
    mechanism = Mechanism(matrix)
    objective = utility.value(matrix)
    bound = column_lp_upper_bound(columns, values, total_weight, prices)
    counts = f"{columns.shape[1]:,} candidate columns, {int(used.sum())} used"
    return mechanism_result(
        mechanism, objective, bound, f"LP over {counts}", start, measured={label: notion.measure(mechanism)},
        budgets={label: float(budget)}, solver="highs", iterations=iterations, max_violation=residual,
        method="extreme-columns",
        verdict=lambda certified, gap: (
            f"exact optimum over {counts}, gap {gap:.1e} certified by the column LP's dual; budget re-measured and "
            f"respected{note}" if certified else f"LP over {counts}; budget re-measured and respected{note}; the dual "
            f"bound {bound:.12g} leaves a gap of {gap:.3g}, above GAP_RTOL"))


def maximize_mutual_information(notion: PrivacyNotion, budget: float, prior: PriorLike,
                                progress: Progress | None = None) -> Result:
    """The mechanism maximizing ``I(X; Y)`` under ``prior`` within a privacy budget, exactly.

    The exact LP over extreme columns (:func:`maximize_sublinear_utility`);
    the notion may be local DP, PML (prior or finite set of priors) or maximal leakage. ``progress``
    (a :class:`~mechdesign.progress.Progress` or ``None``) hears of the column enumeration.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy
    >>> result = maximize_mutual_information(DifferentialPrivacy(), 1.0, [0.5, 0.5])
    >>> bool(result.success), round(result.objective, 6)  # binary randomized response
    (True, 0.110944)
    >>> result = maximize_mutual_information(DifferentialPrivacy(), math.inf, [0.5, 0.5])
    >>> result.status, round(result.objective, 6) == round(math.log(2), 6)  # the identity: I = H(X)
    ('optimal', True)
    """
    return maximize_sublinear_utility(notion, budget, mutual_information_utility(prior), progress)
