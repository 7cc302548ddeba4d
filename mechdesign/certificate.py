"""Certified lower bounds on an optimal design, checked in numpy.

Two bounds, both valid for *any* dual point — the solver's duals only make them tight:

* :func:`lp_lower_bound` — for an LP ``min c·x`` with ``L <= A x <= U`` and ``l <= x <= u`` (every
  ``x`` the LP admits, or at least every optimal one, inside finite bounds ``l, u``), and any row
  multipliers ``y``: ``c·x = y·(A x) + (c − Aᵀy)·x``, so the optimum is at least
  ``Σ_i min(y_i L_i, y_i U_i) + Σ_j min(d_j l_j, d_j u_j)`` with ``d = c − Aᵀy`` computed here.
  Residual dual infeasibility is thereby *accounted for*, not ignored (Neumaier & Shcherbina, "Safe
  bounds in linear and mixed-integer linear programming", Math. Programming 99, 2004).
* :func:`relaxation_lower_bound` — for any design: the objective's affine minorant minimized over
  the notions' polyhedral outer approximations (:mod:`mechdesign.relaxation`) is an LP whose optimum
  is at most the design's optimum; solved by HiGHS, its bound is :func:`lp_lower_bound` at HiGHS's
  duals. For LPs the relaxation is the problem itself, so the bound is tight to round-off; for
  convex notions it is tight when the linearization point is optimal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from ._lazy import scipy_sparse as sp

from .solvers import solve_clarabel_lp, solve_highs_lp
from .privacy.column_dual import (ACTIVE_RTOL, COLUMN_FLOOR, UNUSED_COLUMN_MASS, fitted_multipliers,
                                  least_column_terms)
from .relaxation import LinearRelaxation, ObjectiveMinorant, interior_point, stack


#: HiGHS options for certificate LPs: tight tolerances (HiGHS's default 1e-7 leaves reduced costs of
#: −6e-8, which the bound then pays for).
CERTIFICATE_HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
#: Option sets tried in turn when HiGHS does not reach optimality: its default choice, the interior
#: point method (with crossover), primal simplex without presolve.
CERTIFICATE_FALLBACKS = ({}, {"solver": "ipm"}, {"solver": "simplex", "simplex_strategy": 4, "presolve": "off"})
#: Clarabel's factorization for the relaxation LPs of LP notions (:func:`relaxation_lower_bound`'s
#: ``interior_target``): the simplicial one was as fast or faster than its supernodal one on every relaxation
#: measured (cvxpy-path certificates, random costs: local DP n = 100 0.5 s against HiGHS's simplex 5–12 s; PML
#: n = 100 0.68 s against 3.5 s, n = 200 5.7 s (faer 6.4 s) against 102 s; maximal information n = 100 0.59 s
#: against 3.0 s; hockey-stick n = 20 1.8 s (faer 3.5 s) against 1.4 s, n = 30 22.5 s against 75 s; maximal
#: leakage n = 100 0.65 s against 0.47 s; benchmarks/RESULTS.md).
CERTIFICATE_LDL = "qdldl"


def lp_lower_bound(costs: np.ndarray, matrix: sp.spmatrix, row_lower: np.ndarray, row_upper: np.ndarray,
                   col_lower: np.ndarray, col_upper: np.ndarray, row_duals: np.ndarray) -> float:
    """A rigorous lower bound on ``min c·x`` s.t. ``L <= A x <= U``, ``l <= x <= u`` from any multipliers ``y``.

    A multiplier whose row side is infinite in its direction is set to 0 (the projection onto the dual
    cone); a reduced cost pushing towards an infinite column bound gives ``-inf``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> # min x0 + 2 x1 s.t. x0 + x1 = 1, 0 <= x <= 1: optimum 1, dual y = 1.
    >>> lp_lower_bound(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1),
    ...                np.zeros(2), np.ones(2), np.array([1.0]))
    1.0
    """
    y = np.array(row_duals, dtype=float)
    y[(y > 0) & ~np.isfinite(row_lower)] = 0.0
    y[(y < 0) & ~np.isfinite(row_upper)] = 0.0
    reduced = np.asarray(costs, dtype=float) - _transposed_product(matrix, y)
    with np.errstate(invalid="ignore"):
        row_terms = np.where(y > 0, y * row_lower, np.where(y < 0, y * row_upper, 0.0))
        column_terms = np.where(reduced > 0, reduced * col_lower, np.where(reduced < 0, reduced * col_upper, 0.0))
    # Exactly rounded sums of the nonzero terms (most rows are slack and most reduced costs sit at a zero bound).
    total = float(math.fsum(row_terms[row_terms != 0.0]) + math.fsum(column_terms[column_terms != 0.0]))
    return total if not math.isnan(total) else -math.inf


def _transposed_product(matrix: Any, y: np.ndarray) -> np.ndarray:
    """``Aᵀ y``; for a CSC matrix straight from its arrays (the warm LPs hold theirs so, and bound it at every
    budget of a curve: scipy's transpose object cost 0.8 ms per call at n = 30, more than the product).

    Examples
    --------
    >>> matrix = sp.csc_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]]))
    >>> _transposed_product(matrix, np.array([1.0, -1.0])).tolist(), (matrix.T @ np.array([1.0, -1.0])).tolist()
    ([1.0, -3.0, -2.0], [1.0, -3.0, -2.0])
    """
    if not (sp.issparse(matrix) and matrix.format == "csc"):
        return np.asarray(matrix.T @ y, dtype=float).ravel()
    starts = matrix.indptr[:-1]
    nonempty = starts < matrix.indptr[1:]
    product = np.zeros(matrix.shape[1])
    if nonempty.any():  # each nonempty column's sum ends where the next nonempty one starts
        product[nonempty] = np.add.reduceat(matrix.data * y[matrix.indices], starts[nonempty])
    return product


def relaxation_lower_bound(minorant: ObjectiveMinorant, relaxation: LinearRelaxation,
                           shape: tuple[int, int], *, interior_target: float | None = None,
                           time_limit: float | None = None) -> tuple[float, np.ndarray | None]:
    """A lower bound on ``min f(S)`` over row-stochastic ``S`` meeting ``relaxation`` (module docstring),
    and the relaxation's minimizer ``S`` (``None`` if both HiGHS and Clarabel failed).

    The LP has the ``n m`` entries of ``S`` in ``[0, 1]`` and the auxiliaries in their boxes, the
    unit row sums and the relaxation's rows; ``minorant.grad_aux`` covers the relaxation's first
    auxiliaries (the objective's own), the rest cost nothing. If HiGHS fails, the multipliers are
    taken as 0 (the bound is then that of the objective alone: valid, rarely tight).

    With ``interior_target``, Clarabel's interior point solves the LP first (to
    :data:`~mechdesign.solvers.CLARABEL_LP_TOLERANCE`; 10–25× faster than HiGHS's simplex on the relaxations of
    LP notions at n = 100, benchmarks/RESULTS.md): when the safe bound at its duals reaches the target, it is the
    answer (with Clarabel's point as the minimizer); otherwise HiGHS runs as without it, and the larger bound is
    returned (with HiGHS's minimizer, or Clarabel's where HiGHS failed).

    ``time_limit`` (seconds) bounds each HiGHS attempt: a relaxation that HiGHS does not finish in time gives
    the bound at Clarabel's duals, if any, else that of the objective alone (still a bound; the result is then
    at worst "suboptimal", never wrong).

    Examples
    --------
    The ε-DP design of :func:`design_lower_bound`'s example (ε = log 3), whose relaxation is the LP itself:
    the bound is the optimum 1/4 and the minimizer randomized response.

    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> from mechdesign.relaxation import stack
    >>> response = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> minorant = ExpectedDistortion(Prior([0.5, 0.5])).minorant(response)
    >>> relaxation = stack([minorant.relaxation, DifferentialPrivacy().relaxation([response], math.log(3))], 4)
    >>> bound, minimizer = relaxation_lower_bound(minorant, relaxation, (2, 2))
    >>> round(bound, 9), bool(np.allclose(minimizer, response))
    (0.25, True)
    """
    n, m = shape
    lp = _relaxation_lp(minorant, relaxation, shape)
    interior, minimizer = -math.inf, None
    if interior_target is not None:
        _, primal, duals = solve_clarabel_lp(*lp, ldl=CERTIFICATE_LDL)
        if duals is not None:
            interior = minorant.constant + lp_lower_bound(*lp, duals)
            minimizer = primal[: n * m].reshape(shape)
            if interior >= interior_target:
                return interior, minimizer
    limit = {} if time_limit is None else {"time_limit": float(time_limit)}
    _, primal, duals = solve_highs_lp(*lp, tuple({**CERTIFICATE_HIGHS_OPTIONS, **f, **limit}
                                                 for f in CERTIFICATE_FALLBACKS))
    if primal is not None:
        minimizer = primal[: n * m].reshape(shape)
    if duals is None:
        duals = np.zeros(lp[1].shape[0])
    return max(interior, minorant.constant + lp_lower_bound(*lp, duals)), minimizer


def _relaxation_lp(minorant: ObjectiveMinorant, relaxation: LinearRelaxation, shape: tuple[int, int]
                   ) -> tuple[np.ndarray, sp.csr_matrix, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The LP of :func:`relaxation_lower_bound` as ``(costs, matrix, row_lower, row_upper, col_lower, col_upper)``:
    the unit row sums first, then the relaxation's rows; the entries of ``S`` first, then the auxiliaries."""
    n, m = shape
    row_sums = sp.kron(sp.identity(n), np.ones((1, m)))
    matrix = sp.vstack([sp.hstack([row_sums, sp.csr_matrix((n, relaxation.n_aux))]),
                        sp.hstack([relaxation.rows_q, relaxation.rows_aux])]).tocsr()
    costs = np.concatenate([minorant.grad_q, minorant.grad_aux,
                            np.zeros(relaxation.n_aux - minorant.grad_aux.size)])
    row_lower = np.concatenate([np.ones(n), np.full(relaxation.rhs.size, -np.inf)])
    row_upper = np.concatenate([np.ones(n), relaxation.rhs])
    col_lower = np.concatenate([np.zeros(n * m), relaxation.aux_lower])
    col_upper = np.concatenate([np.ones(n * m), relaxation.aux_upper])
    return costs, matrix, row_lower, row_upper, col_lower, col_upper


def multiplier_lower_bound(minorant: ObjectiveMinorant, relaxation: LinearRelaxation, shape: tuple[int, int],
                           multipliers: np.ndarray, row_multipliers: np.ndarray | None = None) -> float:
    """The bound of :func:`relaxation_lower_bound` at given multipliers of the relaxation's rows, without an LP:
    :func:`lp_lower_bound` with ``y = −multipliers`` on the relaxation's rows (``multipliers >= 0`` for rows
    ``<= rhs``, e.g. a solver's for the same constraints) and, on the unit row sums, the best ``y`` for them:
    ``u_x = min_y d_xy`` over the reduced costs ``d`` of row ``x``'s entries (the bound is concave in ``u_x``
    with slope ``1 − #{y : d_xy < u_x}``).

    A multiplier given as NaN is unknown (a solver that hides an epigraph variable, e.g. cvxpy's ``max``, gives
    none for the rows ``S[x, y] <= M_y`` that define it): such a row with one mechanism entry, of coefficient
    ``a > 0``, gets ``max(0, −d) / a`` for that entry's reduced cost ``d`` at the other multipliers, which zeroes
    a negative ``d`` (at an optimum these are the KKT multipliers: the entries at the column maximum carry the
    column's multiplier); other unknown rows get 0. With ``row_multipliers`` (the solver's of the unit row sums,
    in HiGHS's sign) the bound at them, so repaired, is also computed, and the larger bound is returned.

    Valid for any multipliers, tight when they are optimal ones: for an LP notion the relaxation is the
    problem itself, so the multipliers of a solver that solved it (in the same row order) certify its point
    at the cost of a matrix product.

    Examples
    --------
    The ε-DP design of :func:`design_lower_bound`'s example (ε = log 3): its relaxation's rows are
    ``c_y − S[x, y] <= 0`` then ``S[x, y] − 3 c_y <= 0``; the multipliers of ``S[0, 0] <= 3 c_0`` and
    ``S[1, 1] <= 3 c_1`` (1/8 each) and of the floors ``c_0 <= S[1, 0]``, ``c_1 <= S[0, 1]`` (3/8 each)
    certify randomized response:

    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> from mechdesign.relaxation import stack
    >>> response = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> minorant = ExpectedDistortion(Prior([0.5, 0.5])).minorant(response)
    >>> relaxation = stack([minorant.relaxation, DifferentialPrivacy().relaxation([response], math.log(3))], 4)
    >>> multipliers = np.array([0, 3, 3, 0, 1, 0, 0, 1]) / 8
    >>> round(multiplier_lower_bound(minorant, relaxation, (2, 2), multipliers), 12)
    0.25
    >>> multiplier_lower_bound(minorant, relaxation, (2, 2), np.zeros(8))  # valid, loose
    0.0

    Pointwise maximal leakage ``log 1.5`` under the uniform prior (rows ``S[x, y] <= M_y``, then
    ``M_y <= 1.5 P·S[:, y]``): randomized response is optimal with the multipliers 1/2 of the second rows and
    1/8 of the row sums; the first rows' are unknown, and repaired to 1/2 at the diagonal entries, 0 elsewhere:

    >>> from mechdesign import PointwiseMaximalLeakage
    >>> minorant = ExpectedDistortion(Prior([0.5, 0.5])).minorant(response)
    >>> rows = PointwiseMaximalLeakage([0.5, 0.5]).relaxation([response], math.log(1.5))
    >>> unknown = np.array([np.nan] * 4 + [0.5, 0.5])
    >>> round(multiplier_lower_bound(minorant, rows, (2, 2), unknown, np.full(2, 0.125)), 12)
    0.25
    """
    n, m = shape
    costs, matrix, row_lower, row_upper, col_lower, col_upper = _relaxation_lp(minorant, relaxation, shape)
    given = -np.asarray(multipliers, dtype=float)
    unknown = np.isnan(given)
    duals = np.concatenate([np.zeros(n), np.where(unknown, 0.0, given)])
    reduced = costs[: n * m] - _transposed_product(matrix, duals)[: n * m]
    duals[:n] = reduced.reshape(n, m).min(axis=1)
    best = lp_lower_bound(costs, matrix, row_lower, row_upper, col_lower, col_upper, duals)
    if row_multipliers is not None:
        duals[:n] = row_multipliers
        if unknown.any():
            _repair_hinges(relaxation, unknown, costs, matrix, row_upper, col_upper, duals, shape)
            _repair_unknown(relaxation, unknown, costs[: n * m], matrix, duals)
        best = max(best, lp_lower_bound(costs, matrix, row_lower, row_upper, col_lower, col_upper, duals))
    return minorant.constant + best


def _repair_hinges(relaxation: LinearRelaxation, unknown: np.ndarray, costs: np.ndarray, matrix: sp.csr_matrix,
                   row_upper: np.ndarray, col_upper: np.ndarray, duals: np.ndarray, shape: tuple[int, int]) -> None:
    """Set, in place, the duals (HiGHS's sign) of the row sums and of the ``unknown`` rows of ``relaxation`` with
    several mechanism entries and one auxiliary of its own (no other unknown row has it), e.g. hockey-stick's
    hinges ``S[a, y] − e^ε S[b, y] − h <= 0`` (cvxpy's ``pos`` hides ``h``), to the best ones with the other rows'
    multipliers fixed: ``max Σ_x u_x − Σ_i ν_i rhs_i − Σ_j ub_j max(0, −d_j)`` over the mechanism's entries'
    reduced costs ``d`` (``ub``: their upper bounds), free ``u`` and ``0 <= ν_i <= d_h / c_i`` — the auxiliary's
    reduced cost ``d_h`` at the fixed multipliers over its coefficient ``−c_i``, so that it stays ``>= 0`` — an LP
    over the rows' multipliers alone, much smaller than the relaxation (one row per entry). Unchanged when HiGHS
    fails; any multipliers give a valid bound (:func:`lp_lower_bound`)."""
    n, m = shape
    offset = n
    rows_q, rows_aux = relaxation.rows_q, relaxation.rows_aux
    candidates = np.flatnonzero(unknown & (np.diff(rows_q.indptr) >= 2) & (np.diff(rows_aux.indptr) == 1))
    if not candidates.size:
        return
    aux = rows_aux.indices[rows_aux.indptr[candidates]]
    coefficients = rows_aux.data[rows_aux.indptr[candidates]]
    owners = np.bincount(rows_aux[np.flatnonzero(unknown)].indices, minlength=relaxation.n_aux)
    keep = (coefficients < 0) & (owners[aux] == 1) & (relaxation.aux_lower[aux] == 0)
    candidates, aux, coefficients = candidates[keep], aux[keep], coefficients[keep]
    if not candidates.size:
        return
    held = duals.copy()
    held[:n] = 0.0
    reduced = costs - _transposed_product(matrix, held)
    caps = np.maximum(reduced[n * m + aux], 0.0) / -coefficients
    # Columns: ν (candidates), e (entries), u (row sums); rows: −(A_νᵀ ν)_j − e_j + u_x(j) <= d_j, one per entry.
    hinges = rows_q[candidates].T.tocsr()  # (n m, candidates)
    entries = n * m
    lp_matrix = sp.hstack([-hinges, -sp.identity(entries), sp.kron(sp.identity(n), np.ones((m, 1)))]).tocsr()
    lp_costs = np.concatenate([relaxation.rhs[candidates], col_upper[:entries], -np.ones(n)])
    outcome, values, _ = solve_highs_lp(
        lp_costs, lp_matrix, np.full(entries, -np.inf), reduced[:entries],
        np.concatenate([np.zeros(candidates.size + entries), np.full(n, -np.inf)]),
        np.concatenate([caps, np.full(entries, np.inf), np.full(n, np.inf)]), (CERTIFICATE_HIGHS_OPTIONS,))
    if values is None:
        return
    duals[:n] = values[-n:]
    duals[offset + candidates] = -np.clip(values[: candidates.size], 0.0, caps)


def _repair_unknown(relaxation: LinearRelaxation, unknown: np.ndarray, entry_costs: np.ndarray,
                    matrix: sp.csr_matrix, duals: np.ndarray) -> None:
    """Set, in place, the duals (HiGHS's sign, after the ``n`` row sums) of the ``unknown`` rows of ``relaxation``
    with one mechanism entry of positive coefficient to ``−max(0, −d) / a`` (:func:`multiplier_lower_bound`); an
    entry in several such rows is repaired in the first."""
    rows_q = relaxation.rows_q
    counts = np.diff(rows_q.indptr)
    single = np.flatnonzero(unknown & (counts == 1))
    entries, coefficients = rows_q.indices[rows_q.indptr[single]], rows_q.data[rows_q.indptr[single]]
    keep = coefficients > 0
    single, entries, coefficients = single[keep], entries[keep], coefficients[keep]
    entries, first = np.unique(entries, return_index=True)
    single, coefficients = single[first], coefficients[first]
    offset = duals.size - unknown.size
    reduced = entry_costs[entries] - _transposed_product(matrix, duals)[entries]
    duals[offset + single] = np.minimum(reduced, 0.0) / coefficients


#: Weight of the uniform mechanism mixed into a solution before linearizing (gradients finite).
INTERIOR_WEIGHT = 1e-9
#: Cutting-plane rounds for convex notions: each adds tangent planes at the last relaxation's minimizer.
CUTTING_PLANE_ROUNDS = 8
#: No new cutting-plane round starts after this many seconds (the first always runs): a bound that is
#: still short of the gap tolerance then leaves the result "suboptimal", with its gap.
CUTTING_PLANE_SECONDS = 2.0
#: Seconds each HiGHS attempt at a cutting-plane round's relaxation may take (convex notions; an LP notion's
#: relaxation is the LP itself and has none). Clarabel's interior point runs first: Rényi DP α = 2 on {1,2,3}³
#: with Hamming neighbours near ε = 1.5e-6 (PUT Thm 7(5), D = 1.999), a 4,563 × 5,103 relaxation, took
#: HiGHS's dual simplex 40 s or ended "Solve error" after 52 s and then ran on through its fallbacks for minutes
#: (the slow suite's PUT grid did not finish); Clarabel's duals bound it within 3e-7 in 0.9–2.0 s.
CUTTING_PLANE_LP_SECONDS = 60.0


def dual_tangent_point(costs: np.ndarray, notion: Any, budget: float, matrix: np.ndarray) -> np.ndarray:
    """Where to place the tangent planes of a notion whose budget is ``Σ_y φ_k(Q[:, y]) <= rhs_k`` with
    convex, 1-homogeneous ``φ_k`` (``notion.column_terms(matrix, budget, scale)``, :mod:`mechdesign.privacy.column_dual`;
    ``scale = notion.scaled_budget(budget)``, computed once here), for the linear objective ``costs · Q``.

    The used columns of ``matrix`` are their own tangent points. At an unused column ``y`` the
    tangent of ``φ_k`` is not determined by the column (every ratio of ``0/0`` is a limit), and a wrong
    one makes the relaxation's optimum move mass there: the right one is where the Lagrangian's column
    term ``h_y(v) = (costs[:, y] − μ) · v + Σ_k λ_k φ_k(v)`` is least on the simplex
    (:func:`~mechdesign.privacy.column_dual.least_column_terms`), with the multipliers ``μ`` (unit row sums)
    and ``λ >= 0`` (active budget terms) that make the Lagrangian stationary at the used entries
    (:func:`~mechdesign.privacy.column_dual.fitted_multipliers`). Any point gives a valid relaxation; this one
    makes it tight when ``matrix`` is optimal (the relaxation's LP dual then contains the KKT multipliers).

    Returns the point (every entry positive), equal to :func:`~mechdesign.relaxation.interior_point`
    of ``matrix`` when every column is used.

    Examples
    --------
    >>> from mechdesign import ExpectedDistortion, Prior, RenyiDifferentialPrivacy
    >>> matrix = np.array([[0.7, 0.3, 0.0], [0.3, 0.7, 0.0], [0.5, 0.5, 0.0]])  # output 2 unused
    >>> costs = ExpectedDistortion(Prior.uniform(3)).minorant(matrix).grad_q.reshape(3, 3)
    >>> point = dual_tangent_point(costs, RenyiDifferentialPrivacy(2.0), 0.5, matrix)
    >>> bool(np.all(point > 0)), bool(np.allclose(point[:, :2], matrix[:, :2], atol=1e-8))
    (True, True)
    """
    point = interior_point(matrix, INTERIOR_WEIGHT)
    used = matrix.sum(axis=0) > UNUSED_COLUMN_MASS
    if used.all() or not used.any():
        return point
    scale = notion.scaled_budget(budget)  # once: the column terms are evaluated at every step of the search below
    sums = notion.column_terms(point, budget, scale)
    if sums is None:
        return point
    active = np.flatnonzero(sums.values >= sums.rhs * (1.0 - ACTIVE_RTOL))
    mu, lam = fitted_multipliers(costs, point, np.broadcast_to(used, matrix.shape), sums, active)
    multipliers = np.zeros(sums.rhs.size)
    multipliers[active] = lam
    linear = costs[:, ~used] - mu[:, None]
    own = getattr(notion, "least_column_terms", None)  # Sibson's: a root in one variable per output, no search
    found = None if own is None else own(linear, multipliers)
    if found is None:
        found = least_column_terms(linear, multipliers, lambda v: notion.column_terms(v, budget, scale))
    found = np.maximum(found, COLUMN_FLOOR)  # every entry positive, as the search's
    point[:, ~used] = INTERIOR_WEIGHT * found / found.sum(axis=0)
    return point


def limit_relaxation(quantity: Any, matrix: np.ndarray, limit: float) -> LinearRelaxation | None:
    """Rows meaning ``quantity(S) <= limit`` below ``quantity``'s minorant at ``matrix`` (``None`` without one).

    Examples
    --------
    Expected Hamming distortion at most 0.3 under a uniform binary prior (a linear quantity: one row,
    ``0.5 S[0, 1] + 0.5 S[1, 0] <= 0.3``), met by randomized response (0.25), not by the uniform mechanism (0.5).

    >>> from mechdesign import ExpectedDistortion, Prior
    >>> response = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> rows = limit_relaxation(ExpectedDistortion(Prior([0.5, 0.5])), response, 0.3)
    >>> rows.rows_q.toarray().tolist(), rows.rhs.tolist()
    ([[0.0, 0.5, 0.5, 0.0]], [0.3])
    >>> [bool((rows.rows_q @ s.ravel() <= rows.rhs).all()) for s in (response, np.full((2, 2), 0.5))]
    [True, False]
    """
    minorant = quantity.minorant(matrix)
    if minorant is None:
        return None
    own = minorant.relaxation
    row_q = sp.csr_matrix(minorant.grad_q[None, :])
    row_aux = sp.csr_matrix(np.concatenate([minorant.grad_aux, np.zeros(own.n_aux - minorant.grad_aux.size)])[None, :])
    return LinearRelaxation(sp.csr_matrix(sp.vstack([own.rows_q, row_q])), sp.csr_matrix(sp.vstack([own.rows_aux, row_aux])),
                            np.concatenate([own.rhs, [limit - minorant.constant]]), own.aux_lower, own.aux_upper)


def design_lower_bound(objective: Any, constraints: Sequence[tuple[Any, float]],
                       limits: Sequence[tuple[Any, float]], matrix: np.ndarray,
                       target: float | None = None,
                       multipliers: Sequence[np.ndarray | None] | None = None,
                       row_multipliers: np.ndarray | None = None) -> tuple[float | None, str]:
    """A certified lower bound on ``min objective`` s.t. every notion within its budget and every limit.

    Parameters
    ----------
    objective
        The objective (:meth:`~mechdesign.utility.base.Objective.minorant`).
    constraints
        ``(notion, budget)`` pairs, budgets finite (nats).
    limits
        ``(quantity, limit)`` pairs.
    matrix
        A (near-)optimal mechanism: the relaxations are linearized at it (mixed with
        :data:`INTERIOR_WEIGHT` of the uniform mechanism).
    target
        Stop refining once the bound reaches it (the objective minus the allowed gap).
    multipliers
        The solver's multipliers (``>= 0``) of each notion's constraints, then of each limit, in the order of
        the relaxations' rows (``None`` for a block without); for a convex notion those of its budget, which its own
        dual bound starts from (``multiplier_dual_bound``, with ``row_multipliers``). For an LP they are tried first
        (:func:`multiplier_lower_bound`, no LP solved); a block whose size is not its relaxation's gets 0.
        Then, if the target is not reached, the relaxation LP by Clarabel, then by HiGHS.
    row_multipliers
        The solver's multipliers of the unit row sums (HiGHS's sign), with ``multipliers``: the rows the solver
        gave none for are repaired at them (:func:`multiplier_lower_bound`).

    Returns
    -------
    (bound, reason)
        A single notion's own dual bound (``linear_objective_bound``, for a linear objective without limits) is
        tried first and returned if it reaches ``target``. Otherwise ``bound`` is ``None`` when some notion, limit or
        the objective offers no relaxation; ``reason`` then says which. For convex notions up to :data:`CUTTING_PLANE_ROUNDS` rounds
        (within :data:`CUTTING_PLANE_SECONDS`) add tangent planes at the previous relaxation's
        minimizer (Kelley's cutting planes); the best bound of any round is returned.

    Examples
    --------
    Binary input, uniform prior, Hamming distortion under ε-DP with ε = log 3: randomized response
    (distortion ``1 / (1 + e^ε) = 1/4``) is optimal, and the bound certifies it.

    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> response = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> bound, reason = design_lower_bound(ExpectedDistortion(Prior([0.5, 0.5])),
    ...                                    [(DifferentialPrivacy(), math.log(3))], [], response)
    >>> round(bound, 9), reason
    (0.25, '')
    """
    start = time.perf_counter()
    linear = all(n.is_linear for n, _ in constraints) and all(q.is_linear for q, _ in limits) and objective.is_linear
    # The notion's own dual first: where it reaches the target the relaxation's first point (the tangent search at
    # unused outputs, 3.2 s of Sibson's 7.0 s certificate at n = 100) is not needed.
    best = _notion_dual_bound(objective, constraints, limits, matrix, multipliers, row_multipliers, target)
    if target is not None and best >= target:
        return best, ""
    if not linear:  # a convex notion's multipliers are its budget's, for its own dual only (not its relaxation's rows)
        multipliers = None
    points = [_first_point(objective, constraints, limits, matrix)]
    relaxed = [_notion_relaxation(n, points, budget, block)
               for (n, budget), block in zip(constraints, multipliers or [None] * len(constraints))]
    blocks = [block for block, _ in relaxed]
    if multipliers is not None:  # each notion's, for its relaxation's rows; then the limits'
        multipliers = [given for _, given in relaxed] + list(multipliers[len(constraints):])
    missing = [n.label for (n, _), block in zip(constraints, blocks) if block is None]
    missing += [q.label for q, _ in limits if q.minorant(points[0]) is None]
    if objective.minorant(points[0]) is None:
        missing.append(objective.label)
    if missing:
        return None, f"no certificate is implemented for {', '.join(missing)}"
    for round_number in range(1 if linear else CUTTING_PLANE_ROUNDS):
        if round_number:
            blocks = [n.relaxation(points, budget) for n, budget in constraints]
        minorant = objective.minorant(points[-1])
        limit_blocks = [limit_relaxation(q, p, value) for q, value in limits for p in points]
        relaxation = stack([minorant.relaxation, *blocks, *limit_blocks], matrix.size)
        if linear and multipliers is not None:
            best = max(best, multiplier_lower_bound(minorant, relaxation, matrix.shape,
                                                    _stacked_multipliers(minorant, [*blocks, *limit_blocks], multipliers),
                                                    row_multipliers))
            if target is not None and best >= target:
                break
        bound, minimizer = relaxation_lower_bound(minorant, relaxation, matrix.shape, interior_target=target,
                                                  time_limit=None if linear else CUTTING_PLANE_LP_SECONDS)
        best = max(best, bound)
        if (minimizer is None or (target is not None and best >= target)
                or time.perf_counter() - start > CUTTING_PLANE_SECONDS):
            break
        points.append(interior_point(np.clip(minimizer, 0.0, None), INTERIOR_WEIGHT))
    return best, ""


def _notion_relaxation(notion: Any, points: Sequence[np.ndarray], budget: float, multipliers: np.ndarray | None
                       ) -> tuple[LinearRelaxation | None, np.ndarray | None]:
    """The notion's relaxation at ``points`` and the solver's ``multipliers`` for its rows: where the notion builds
    one from the multipliers of its constraints (``multiplier_relaxation``: PML over an ℓ1-ball, at their priors),
    that one and the multipliers it gives its rows; else its own relaxation and the multipliers as given."""
    build = getattr(notion, "multiplier_relaxation", None)
    built = None if multipliers is None or build is None else build(points, budget, multipliers)
    return built if built is not None else (notion.relaxation(points, budget), multipliers)


def _stacked_multipliers(minorant: ObjectiveMinorant, blocks: Sequence[LinearRelaxation],
                         multipliers: Sequence[np.ndarray | None]) -> np.ndarray:
    """Multipliers for the rows of ``stack([minorant.relaxation, *blocks])``: 0 on the objective's own rows,
    each block's given ones where their size is the block's; fewer given than the block's rows go on its last rows
    and its first are unknown (NaN, :func:`multiplier_lower_bound`): a limit's one multiplier after its quantity's
    own rows, the rows of a notion's constraints after the rows ``S[x, y] <= M_y`` of the epigraph variables
    its cvxpy constraints hide (``cp.max``: maximal information, PML over a set); else 0.

    Examples
    --------
    >>> from mechdesign import ExpectedDistortion, MaximalInformation, Prior
    >>> response = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> minorant = ExpectedDistortion(Prior([0.5, 0.5])).minorant(response)
    >>> block = MaximalInformation(Prior([0.5, 0.5])).relaxation([response], 0.5)  # 4 + 2 rows
    >>> _stacked_multipliers(minorant, [block], [np.array([0.5, 0.5])]).tolist()
    [nan, nan, nan, nan, 0.5, 0.5]
    """
    parts = [np.zeros(minorant.relaxation.rhs.size)]
    for block, given in zip(blocks, multipliers):
        size = block.rhs.size
        given = None if given is None else np.asarray(given, dtype=float).ravel()
        if given is not None and given.size < size:
            given = np.concatenate([np.full(size - given.size, np.nan), given])
        parts.append(given if given is not None and given.size == size else np.zeros(size))
    return np.concatenate(parts)


def _first_point(objective: Any, constraints: Sequence[tuple[Any, float]], limits: Sequence[tuple[Any, float]],
                 matrix: np.ndarray) -> np.ndarray:
    """The first linearization point: :func:`dual_tangent_point` for a single notion with column terms and a
    linear objective without auxiliaries or limits, else ``matrix`` mixed with the uniform mechanism."""
    costs = _linear_costs(objective, constraints, limits, matrix)
    notion, budget = constraints[0] if constraints else (None, None)
    if costs is None or not hasattr(notion, "column_terms"):
        return interior_point(matrix, INTERIOR_WEIGHT)
    return dual_tangent_point(costs, notion, budget, matrix)


def _linear_costs(objective: Any, constraints: Sequence[tuple[Any, float]], limits: Sequence[tuple[Any, float]],
                  matrix: np.ndarray) -> np.ndarray | None:
    """The costs ``C`` of an objective ``C · Q`` (no auxiliaries, no constant) under one notion without
    limits; ``None`` otherwise."""
    if len(constraints) != 1 or limits or not objective.is_linear:
        return None
    minorant = objective.minorant(matrix)
    if minorant is None or minorant.relaxation.n_aux or minorant.constant != 0:
        return None
    return minorant.grad_q.reshape(matrix.shape)


def _notion_dual_bound(objective: Any, constraints: Sequence[tuple[Any, float]], limits: Sequence[tuple[Any, float]],
                       matrix: np.ndarray, multipliers: Sequence[np.ndarray | None] | None = None,
                       row_multipliers: np.ndarray | None = None, target: float | None = None) -> float:
    """A single notion's own dual bound for a linear objective without auxiliaries and without limits: first, where
    the solver gave the multipliers of its budget and of the row sums and the notion bounds from them
    (``multiplier_dual_bound``, Rényi DP), that bound; then, unless it reaches ``target``,
    :meth:`~mechdesign.privacy.base.PrivacyNotion.linear_objective_bound`; the better; ``-inf`` where none applies."""
    costs = _linear_costs(objective, constraints, limits, matrix)
    if costs is None:
        return -math.inf
    notion, budget = constraints[0]
    best = -math.inf
    own = getattr(notion, "multiplier_dual_bound", None)
    if own is not None and multipliers is not None and multipliers[0] is not None and row_multipliers is not None:
        bound = own(costs, matrix, budget, multipliers[0], row_multipliers)
        best = -math.inf if bound is None else bound
        if target is not None and best >= target:
            return best
    bound = notion.linear_objective_bound(costs, matrix, budget)
    return best if bound is None else max(best, bound)
