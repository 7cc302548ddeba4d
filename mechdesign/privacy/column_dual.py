"""The Lagrangian dual of a budget that is a sum over outputs of convex, 1-homogeneous column terms.

Rényi DP (a term per ordered neighbour pair, :class:`~mechdesign.privacy.renyi.RenyiDifferentialPrivacy`) and
Sibson's α-information under one prior (one term, :class:`~mechdesign.privacy.sibson.SibsonMutualInformation`)
bound a mechanism ``Q`` by ``Σ_y φ_k(Q[:, y]) <= b_k`` with every ``φ_k`` convex and 1-homogeneous; the notion's
``column_terms(matrix, budget)`` describes the terms at a matrix by a :class:`ColumnSums`. For a linear
objective ``C · Q`` over row-stochastic ``Q``, every ``λ >= 0`` and every tangent point ``R`` (any matrix) give

``min C · Q  >=  Σ_x min_y W[x, y] − λ · b``,  with ``W = C + Σ_k λ_k ∇φ_k(R[:, y])``,

because ``φ_k(v) >= ∇φ_k(r) · v`` for all ``v, r >= 0`` (the tangent of a 1-homogeneous convex function passes
through the origin) and ``λ · (b − Σ_y φ(Q[:, y])) >= 0`` within the budget: :func:`lagrangian_bound`, numpy, no
LP, valid for any ``λ`` and ``R``. At a KKT point (``R`` the optimum, ``λ`` its multipliers) it is the optimum:
``W[x, y]`` is the same at every output row ``x`` uses, and ``Σ_k λ_k Σ_y ∇φ_k · Q[:, y] = λ · b`` (Euler).

The bound loses to first order in the error of ``R`` and ``λ``, and a conic solver's point is accurate to about
1e-8 (the tangent-plane LP of :mod:`mechdesign.certificate`, whose duals optimize ``λ`` at fixed tangents, left
gaps of 1e-7 on PUT Theorem 7(5)). :func:`polished_kkt_point` first takes the point to round-off by Newton's method
on the KKT equations of its support and active terms — quadratic convergence, a regularized (quasi-definite)
system so that redundant active terms do no harm; outputs the point leaves unused get the tangent point where
their Lagrangian column term is least (:func:`least_column_terms`). :func:`column_dual_bound` does it all;
:func:`kkt_point` is the polished point itself (a private mechanism at the optimum to round-off).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._lazy import LazyFunction
from .._lazy import scipy_sparse as sp
from .._threads import single_blas_thread

lsq_linear = LazyFunction("scipy.optimize", "lsq_linear")
minimize = LazyFunction("scipy.optimize", "minimize")
splu = LazyFunction("scipy.sparse.linalg", "splu")

#: An output of a (near-)optimal mechanism with less mass than this is unused: its tangent point is where the
#: Lagrangian's column term is least (:func:`least_column_terms`), not the column.
UNUSED_COLUMN_MASS = 1e-6
#: An entry of a used output at most this is off the support: Newton's method keeps it at 0 (a conic solver leaves
#: the zeros of a sparse optimum at 1e-12 to 1e-8: Sibson, random costs, n = 30).
SUPPORT_ENTRY = 1e-7
#: A budget term counts as active (its multiplier may be positive) within this relative slack (the mechanism
#: certified is a cleaned, possibly repaired solver point, so active terms are met with slack).
ACTIVE_RTOL = 1e-3
#: Newton steps on the KKT equations at most (from a conic solver's point 2–4 reach round-off where the optimum is
#: a vertex of its face; where the optimal set is a face (Rényi DP at budgets near 0 on {1,2,3}^3) the regularized
#: steps converge linearly, 30–40 to 1e-10).
NEWTON_STEPS = 60
#: A step progresses when it divides the least residual so far by at least this much; the iteration stops after
#: :data:`NEWTON_PATIENCE` steps without progress (a point outside Newton's region of convergence, or round-off).
NEWTON_PROGRESS = 0.9
NEWTON_PATIENCE = 3
#: Largest violation of the KKT equations at which a polished point counts as a KKT point: its bound is then within
#: about that of the optimum (whether it certifies is the gap tolerance's call). From a conic solver's point Newton's
#: steps reach 1e-15 where the optimum is a vertex of its face, 1e-11 on a face (Rényi DP near ε = 0 on {1,2,3}^3),
#: and stall at 1e-5 to 1e-2 where the point does not reveal the support.
KKT_TOLERANCE = 1e-8
#: Regularization of the KKT system relative to its largest entry: ``+δ`` on the mechanism's block, ``−δ`` on the
#: multipliers' (quasi-definite, so solvable whatever the rank of the active terms; the residual is exact, so the
#: iteration's fixed point is the KKT point itself).
NEWTON_REGULARIZATION = 1e-13
#: A rejected step is retried with the regularization this many times larger (Levenberg–Marquardt; an accepted step
#: divides it back, down to :data:`NEWTON_REGULARIZATION`).
NEWTON_DAMPING = 1e3
#: The steps' largest growth of the residual, in turn (:func:`kkt_point`): any (plain Newton, whose steps may increase
#: the residual on the way), then none (each step reduces it, damped until it does). On a face of optima the system
#: is singular along the face; from a conic solver's point a plain step can move the multipliers by 10 and the
#: residual from 5e-4 to 1e20 (PUT's {1,2}^4, Rényi DP at ε = 1e-6), where the damped steps reach 8e-11; where the
#: plain steps converge they are the more accurate ({1,2,3}^2 near ε = 0: 6e-14 against 1.6e-8 off the bound).
NEWTON_GROWTHS = (math.inf, 1.0)
#: Active-set steps of :func:`kkt_point` at most (each drops the active terms whose multipliers are negative).
ACTIVE_SET_ROUNDS = 5
#: Largest KKT system (unknowns) solved by Newton's method (a larger problem has no :func:`kkt_point`).
NEWTON_UNKNOWNS = 40_000
#: Bounded least squares of the multipliers' fit by a dense solver up to this many matrix entries.
DENSE_FIT_ENTRIES = 4_000_000
#: Smallest entry of a least column term's point (the terms' gradients stay finite there).
COLUMN_FLOOR = 1e-9
#: L-BFGS iterations of :func:`least_column_terms` at most.
LEAST_TERM_ITERATIONS = 2000


@dataclass(frozen=True)
class ColumnSums:
    """A budget ``Σ_y φ_k(Q[:, y]) <= rhs_k`` (``k = 1..K``) described at one ``(n, m)`` matrix ``Q``.

    Attributes
    ----------
    values
        ``(K,)``: ``Σ_y φ_k(Q[:, y])`` (``inf`` where ``Q`` leaves the terms' domain).
    rhs
        ``(K,)`` right-hand sides.
    jacobian
        ``(K, n m)`` sparse: ``∂ values_k / ∂ Q[x, y]`` at column ``x m + y`` (row-major), i.e. the gradients
        ``∇φ_k(Q[:, y])``; where ``Q``'s entries leave a gradient undetermined (``0/0``), 0 — a valid subgradient
        of the nonnegative terms at 0.
    hessian
        ``λ (K,) ↦ (n m, n m)`` sparse Hessian of ``Σ_k λ_k values_k`` (0 in the rows and columns of zero
        entries, where it may not exist).

    Examples
    --------
    Rényi DP of order 2 between two inputs at ε = 0 on one column ``(1/2, 1/4)``: the terms ``v_0² / v_1 = 1``
    (gradient ``(4, −4)``) and ``v_1² / v_0 = 1/8`` (gradient ``(−1/4, 1)``).

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> sums = RenyiDifferentialPrivacy(2.0).column_terms(np.array([[0.5], [0.25]]), 0.0)
    >>> sums.values.tolist(), sums.jacobian.toarray().tolist(), sums.rhs.tolist()
    ([1.0, 0.125], [[4.0, -4.0], [-0.25, 1.0]], [1.0, 1.0])
    """

    values: np.ndarray
    rhs: np.ndarray
    jacobian: sp.csr_matrix
    hessian: Callable[[np.ndarray], sp.spmatrix]


#: A notion's column terms at its budget, ``matrix ↦`` :class:`ColumnSums`.
ColumnTerms = Callable[[np.ndarray], ColumnSums]


def lagrangian_bound(costs: np.ndarray, multipliers: np.ndarray, sums: ColumnSums) -> float:
    """``Σ_x min_y W[x, y] − λ · rhs`` with ``W = costs + Σ_k λ_k ∇φ_k`` at the matrix ``sums`` describes, the
    tangent point (module docstring): a lower bound on ``min costs · Q`` over row-stochastic ``Q`` within the
    budget, for any tangent point and any multipliers (negative ones count as 0).

    Examples
    --------
    Rényi DP of order 2 between two inputs at ε = log 2, Hamming cost under a uniform prior: randomized response
    ``[[p, 1 − p], [1 − p, p]]`` with ``p² / (2 (1 − p)) + (1 − p)² / (2 p) = 1``, i.e. ``p = (1 + 1/√5) / 2``, is
    optimal. At its tangents and its multipliers (equal by symmetry, the value that makes ``W[0, 0] = W[0, 1]``) the
    bound is its distortion ``1 − p``; with ``λ = 0`` it is the unconstrained bound 0.

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> p = (1 + 1 / math.sqrt(5)) / 2
    >>> sums = RenyiDifferentialPrivacy(2.0).column_terms(np.array([[p, 1 - p], [1 - p, p]]), math.log(2))
    >>> costs = 0.5 * (1.0 - np.eye(2))
    >>> gradient = sums.jacobian.toarray()
    >>> lam = 0.5 / (gradient[:, 0].sum() - gradient[:, 1].sum())
    >>> round(lagrangian_bound(costs, np.array([lam, lam]), sums), 12), round(1 - p, 12)
    (0.27639320225, 0.27639320225)
    >>> lagrangian_bound(costs, np.zeros(2), sums)
    0.0
    """
    weights = np.asarray(multipliers, dtype=float)
    positive = np.flatnonzero(weights > 0)  # a term without a multiplier is left out (its gradient may be infinite)
    reduced = costs + (sums.jacobian[positive].T @ weights[positive]).reshape(costs.shape)
    bound = math.fsum(reduced.min(axis=1)) - math.fsum(weights[positive] * sums.rhs[positive])
    return bound if math.isfinite(bound) else -math.inf


def fitted_multipliers(costs: np.ndarray, point: np.ndarray, entries: np.ndarray, sums: ColumnSums,
                       active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(μ, λ)``, ``λ >= 0`` for the ``active`` terms only, fitting the KKT stationarity
    ``costs[x, y] − μ_x + Σ_k λ_k ∂φ_k/∂Q[x, y] = 0`` at the ``entries`` (a boolean ``(n, m)`` mask) of ``point``
    by bounded least squares, each equation weighted by the square root of its entry (small entries' ratios are
    the least accurate).

    Examples
    --------
    The optimum of :func:`lagrangian_bound`'s example: both terms are active, with multipliers ``1 / (5 √5)``
    (by symmetry only their sum is determined by stationarity), and ``μ_x = W[x, y]``:

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> p = (1 + 1 / math.sqrt(5)) / 2
    >>> point = np.array([[p, 1 - p], [1 - p, p]])
    >>> sums = RenyiDifferentialPrivacy(2.0).column_terms(point, math.log(2))
    >>> mu, lam = fitted_multipliers(0.5 * (1.0 - np.eye(2)), point, point > 0, sums, np.array([0, 1]))
    >>> round(float(lam.sum()), 12), round(2 / (5 * math.sqrt(5)), 12)
    (0.1788854382, 0.1788854382)
    """
    n, m = costs.shape
    index = np.flatnonzero(entries.ravel())
    rows = sp.hstack([-sp.csr_matrix((np.ones(index.size), (np.arange(index.size), index // m)), shape=(index.size, n)),
                      sums.jacobian[active][:, index].T]).tocsr()
    weights = np.sqrt(point.ravel()[index])
    system = sp.diags(weights) @ rows
    lower = np.concatenate([np.full(n, -np.inf), np.zeros(active.size)])
    # The system is rank-deficient wherever the multipliers are not unique (symmetric terms, as in the example; a face
    # of optima near ε = 0, PUT's {1,2}^2: the last singular value 6e-16). Along such a flat direction of free
    # variables the trust-region reflective method's reflected candidate step never meets a bound, and scipy's
    # select_step (scipy/optimize/_lsq/trf_linear.py) evaluates it at stride inf: 0 · inf in its step and in its
    # 1-D quadratic's value, a RuntimeWarning "invalid value encountered in multiply". Harmless, provably: that
    # quadratic's curvature is >= 0, so its value at stride inf is +inf or NaN, and select_step takes the reflected
    # step only if its value is less than both other candidates' (finite) — false for +inf and NaN — so the step taken
    # is finite and the fit unchanged. Hence the warning is silenced for this call only. (Not replaced by the
    # active-set method: on an underdetermined fit — Rényi DP, n = 10, 30 equations, 54 unknowns — it finds another
    # exact fit, whose multipliers left tests/test_certificate.py::test_unused_outputs_get_tangents_from_the_dual's
    # design "suboptimal", gap 4.7e-3, against 1.8e-8.)
    with single_blas_thread(), np.errstate(invalid="ignore"):  # small dense steps (mechdesign/_threads.py)
        fit = lsq_linear(system.toarray() if system.shape[0] * system.shape[1] <= DENSE_FIT_ENTRIES else system,
                         -weights * costs.ravel()[index], bounds=(lower, np.inf))
    return fit.x[:n], fit.x[n:]


def polished_kkt_point(costs: np.ndarray, point: np.ndarray, entries: np.ndarray, terms: ColumnTerms,
                       active: np.ndarray, mu: np.ndarray, lam: np.ndarray, growth: float = math.inf
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Newton's method on the KKT equations of ``min costs · Q`` over row-stochastic ``Q`` supported on ``entries``
    with the ``active`` terms at their right-hand sides, from ``(point, μ, λ)``:

    ``costs − μ_x + Σ_{k active} λ_k ∂φ_k/∂Q = 0`` on the entries, unit row sums, ``values_k = rhs_k`` (active ``k``).

    Each step solves the regularized system ``[[H + δ, Bᵀ], [B, −δ]]`` (:data:`NEWTON_REGULARIZATION`, larger by
    :data:`NEWTON_DAMPING` after each rejected step). The residual is the largest violation of the equations (the
    stationarity's relative to the largest cost); a step is taken only if it leaves the residual at most ``growth``
    times the least so far (else it is retried with the larger ``δ``). The iteration stops at round-off, after
    :data:`NEWTON_PATIENCE` steps in a row without progress (:data:`NEWTON_PROGRESS`) or rejected — round-off, or a
    start outside Newton's region of convergence, which the caller sees in the residual — or after
    :data:`NEWTON_STEPS` steps.

    Returns
    -------
    (point, μ, λ, residual)
        The iterate of least residual, and that residual.

    Examples
    --------
    From :func:`lagrangian_bound`'s optimum perturbed by 1e-6, Newton's steps restore it to round-off:

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> notion, p = RenyiDifferentialPrivacy(2.0), (1 + 1 / math.sqrt(5)) / 2
    >>> start = np.array([[p + 1e-6, 1 - p - 1e-6], [1 - p, p]])
    >>> costs = 0.5 * (1.0 - np.eye(2))
    >>> terms = lambda q: notion.column_terms(q, math.log(2))
    >>> mu, lam = fitted_multipliers(costs, start, start > 0, terms(start), np.array([0, 1]))
    >>> point, mu, lam, residual = polished_kkt_point(costs, start, start > 0, terms, np.array([0, 1]), mu, lam)
    >>> residual < 1e-15, bool(np.allclose(point, [[p, 1 - p], [1 - p, p]], rtol=0, atol=1e-15))
    (True, True)
    """
    n, m = costs.shape
    index = np.flatnonzero(entries.ravel())
    rows = index // m
    scale = max(float(np.abs(costs).max()), np.finfo(float).tiny)
    negative_sums = sp.csr_matrix((-np.ones(index.size), (rows, np.arange(index.size))), shape=(n, index.size))

    def equations(q: np.ndarray, mu: np.ndarray, lam: np.ndarray) -> tuple[float, np.ndarray, ColumnSums, np.ndarray]:
        """The largest violation, the equations' values (stationarity, row sums, active terms), the terms, the point."""
        current = np.zeros(n * m)
        current[index] = q
        matrix = current.reshape(n, m)
        sums = terms(matrix)
        values = np.concatenate([costs.ravel()[index] - mu[rows] + sums.jacobian[active][:, index].T @ lam,
                                 matrix.sum(axis=1) - 1.0, sums.values[active] - sums.rhs[active]])
        violation = max(np.abs(values[: index.size]).max(initial=0.0) / scale,
                        np.abs(values[index.size: index.size + n]).max(initial=0.0),
                        np.abs(values[index.size + n:] / sums.rhs[active]).max(initial=0.0))
        return (float(violation) if np.all(np.isfinite(values)) else math.inf), values, sums, matrix

    q, mu, lam = point.ravel()[index].copy(), mu.copy(), lam.copy()
    residual, values, sums, matrix = equations(q, mu, lam)
    best, waiting, damping = (matrix, mu, lam, residual), 0, NEWTON_REGULARIZATION
    # One BLAS limit around all the steps: entering threadpoolctl's context reads the process's library map,
    # 17 ms a time (55 steps on PUT's {1,2}^4 near ε = 0: 1.0 s of the polish's 3.8 s).
    with single_blas_thread():
        for _ in range(NEWTON_STEPS):
            if not residual > np.finfo(float).eps or waiting >= NEWTON_PATIENCE:
                break
            multipliers = np.zeros(sums.rhs.size)
            multipliers[active] = lam
            hessian = sums.hessian(multipliers)[index][:, index]
            constraints = sp.vstack([negative_sums, sums.jacobian[active][:, index]])
            delta = damping * max(1.0, abs(hessian).max(), abs(constraints).max())
            system = sp.bmat([[hessian + delta * sp.identity(index.size), constraints.T],
                              [constraints, -delta * sp.identity(n + active.size)]], format="csc")
            right = -values
            right[index.size: index.size + n] *= -1.0  # the row sums' block of the system is −E
            move = splu(system).solve(right)
            trial = (q + move[: index.size], mu + move[index.size: index.size + n], lam + move[index.size + n:])
            found = equations(*trial)
            if not (math.isfinite(found[0]) and found[0] <= growth * best[3]):  # out of the domain, or grown too much
                damping, waiting = damping * NEWTON_DAMPING, waiting + 1
                continue
            damping = max(NEWTON_REGULARIZATION, damping / NEWTON_DAMPING)
            (q, mu, lam), (residual, values, sums, matrix) = trial, found
            waiting = 0 if residual < NEWTON_PROGRESS * best[3] else waiting + 1
            if residual < best[3]:
                best = (matrix, mu, lam, residual)
    return best


def least_column_terms(linear: np.ndarray, multipliers: np.ndarray, terms: ColumnTerms) -> np.ndarray:
    """(Approximate) minimizers on the simplex of the Lagrangian's column terms ``linear[:, j] · v + Σ_k λ_k φ_k(v)``,
    one per column of the ``(n, u)`` array ``linear``, every entry at least :data:`COLUMN_FLOOR`. Any points are
    valid tangent points; these make the bound tight when the multipliers are optimal.

    The terms are separable and 1-homogeneous, so all columns are found at once by L-BFGS-B over the box
    ``[floor, 1]`` minimizing each term at ``v / Σ v`` (no equality constraint left), the terms of every column
    evaluated in one call of ``terms``.

    Examples
    --------
    Without multipliers a term is linear: the vertex of its least entry.

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> terms = lambda v: RenyiDifferentialPrivacy(2.0).column_terms(v, 1.0)
    >>> linear = np.array([[0.5, 0.3], [-0.3, -0.2], [0.0, -0.4]])
    >>> np.argmax(least_column_terms(linear, np.zeros(6), terms), axis=0).tolist()
    [1, 2]
    """
    n, count = linear.shape
    positive = np.flatnonzero(multipliers > 0)
    if positive.size == 0:  # linear terms: their least entries' vertices (kept off 0)
        points = np.full((n, count), COLUMN_FLOOR)
        points[np.argmin(linear, axis=0), np.arange(count)] = 1.0
        return points / points.sum(axis=0)
    weights = np.where(multipliers > 0, multipliers, 0.0)

    def value(flat: np.ndarray) -> tuple[float, np.ndarray]:
        v = flat.reshape(n, count)
        scale = v.sum(axis=0)
        gradient = linear + (terms(v).jacobian.T @ weights).reshape(n, count)
        # Each column's term is its gradient times the column (Euler: the terms are 1-homogeneous), no second product
        # of the Jacobian (its rows of positive multipliers, per column, took half of each evaluation).
        per_column = np.sum(gradient * v, axis=0)
        ratio = per_column / scale  # the term at v / Σ v, on the simplex (1-homogeneous)
        return float(ratio.sum()), ((gradient - ratio) / scale).ravel()

    start = np.full(n * count, 1.0 / n)
    # The terms of steep notions (Rényi at large α) overflow away from the start: the search backs off from there.
    with single_blas_thread(), np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        found = minimize(value, start, jac=True, method="L-BFGS-B", bounds=[(COLUMN_FLOOR, 1.0)] * (n * count),
                         options={"maxiter": LEAST_TERM_ITERATIONS, "ftol": 1e-15, "gtol": 1e-13})
    points = (found.x if np.all(np.isfinite(found.x)) else start).reshape(n, count)
    return points / points.sum(axis=0)


@dataclass(frozen=True)
class KKTPoint:
    """A KKT point of ``min costs · Q`` over row-stochastic ``Q`` within a budget of column terms (to ``residual``).

    Attributes
    ----------
    matrix
        ``(n, m)``: the optimal mechanism (its active terms at their right-hand sides, its rows summing to 1).
    row_multipliers
        ``(n,)``: ``μ``, the multipliers of the unit row sums.
    multipliers
        ``(K,)``: ``λ``, the multipliers of the terms (0 for inactive ones).
    residual
        The largest violation of the KKT equations (:func:`polished_kkt_point`).
    """

    matrix: np.ndarray
    row_multipliers: np.ndarray
    multipliers: np.ndarray
    residual: float


def fitted_start(costs: np.ndarray, matrix: np.ndarray, terms: ColumnTerms, largest: int | None = None,
                 active: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray, ColumnSums, np.ndarray, np.ndarray, np.ndarray] | None:
    """The support, active terms and fitted multipliers of the near-optimal ``matrix``, where :func:`kkt_point`
    starts: the used outputs' entries above :data:`SUPPORT_ENTRY` (every positive entry of a used output where the
    budget needs the smaller ones), the terms within :data:`ACTIVE_RTOL` of their right-hand sides (or the indices
    ``active`` where the caller knows them, e.g. from a conic solver's multipliers), and :func:`fitted_multipliers`
    there.

    Returns
    -------
    (point, entries, sums, active, μ, λ) or None
        ``point`` is ``matrix`` on ``entries`` with unit row sums, ``sums`` the terms at ``matrix`` on ``entries``,
        ``λ`` the multipliers of the ``active`` terms.
        ``None`` when ``matrix`` is outside the terms' domain, leaves a row without entries, or when the KKT system
        would have more than ``largest`` unknowns.

    Examples
    --------
    :func:`lagrangian_bound`'s optimum: both terms active, multipliers summing to ``2 / (5 √5)``.

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> p = (1 + 1 / math.sqrt(5)) / 2
    >>> terms = lambda q: RenyiDifferentialPrivacy(2.0).column_terms(q, math.log(2))
    >>> point, entries, sums, active, mu, lam = fitted_start(0.5 * (1.0 - np.eye(2)),
    ...                                                      np.array([[p, 1 - p], [1 - p, p]]), terms)
    >>> active.tolist(), round(float(lam.sum()), 12) == round(2 / (5 * math.sqrt(5)), 12)
    ([0, 1], True)
    """
    n, m = matrix.shape
    used = matrix.sum(axis=0) > UNUSED_COLUMN_MASS
    entries = (matrix > SUPPORT_ENTRY) & used
    sums = terms(np.where(entries, matrix, 0.0))
    if not np.all(np.isfinite(sums.values)):  # a tiny entry the budget needs (Rényi: a neighbour's is positive)
        entries = (matrix > 0) & used
        sums = terms(np.where(entries, matrix, 0.0))
    point = np.where(entries, matrix, 0.0)
    if active is None:
        active = np.flatnonzero(sums.values >= sums.rhs * (1.0 - ACTIVE_RTOL))
    if not (np.all(np.isfinite(sums.values)) and np.all(point.any(axis=1))
            and (largest is None or entries.sum() + n + active.size <= largest)):
        return None
    point /= point.sum(axis=1, keepdims=True)
    mu, lam = fitted_multipliers(costs, point, entries, sums, active)
    return point, entries, sums, active, mu, lam


def kkt_point(costs: np.ndarray, matrix: np.ndarray, terms: ColumnTerms, active: np.ndarray | None = None
              ) -> KKTPoint | None:
    """The KKT point near the near-optimal ``matrix`` (module docstring): its support (used outputs, entries above
    :data:`SUPPORT_ENTRY` — or every positive entry of a used output where the budget needs the smaller ones) and
    active terms (``active`` if given, else those within :data:`ACTIVE_RTOL` of their right-hand sides), multipliers fitted there (:func:`fitted_multipliers`), then polished
    by Newton's method (:func:`polished_kkt_point`: plain steps, then damped ones if those fail,
    :data:`NEWTON_GROWTHS`); negative multipliers of redundant active terms are refitted nonnegative at the polished
    point and polished again. ``None`` when ``matrix`` is outside the terms' domain, when the
    KKT system is larger than :data:`NEWTON_UNKNOWNS`, or when Newton's method does not reach
    :data:`KKT_TOLERANCE` (a support or an active set that the conic solver's point does not reveal: tiny outputs
    whose ratios it has not settled).

    Examples
    --------
    :func:`lagrangian_bound`'s optimum, 1e-6 off, is restored to round-off:

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> p = (1 + 1 / math.sqrt(5)) / 2
    >>> terms = lambda q: RenyiDifferentialPrivacy(2.0).column_terms(q, math.log(2))
    >>> point = kkt_point(0.5 * (1.0 - np.eye(2)), np.array([[p - 1e-6, 1 - p + 1e-6], [1 - p, p]]), terms)
    >>> float(np.abs(point.matrix - [[p, 1 - p], [1 - p, p]]).max()) < 1e-15, point.residual < 1e-15
    (True, True)
    """
    start = fitted_start(costs, matrix, terms, NEWTON_UNKNOWNS, active)
    if start is None:
        return None
    point, entries, sums, active, mu, lam = start
    active, lam = active[lam > 0], lam[lam > 0]
    for growth in NEWTON_GROWTHS:
        polished = polished_kkt_point(costs, point, entries, terms, active, mu, lam, growth)
        if polished[3] <= KKT_TOLERANCE:
            break
    point, mu, lam, residual = polished
    if not (np.isfinite(point).all() and point.min() >= 0.0):
        # Newton converged outside the terms' domain (a negative entry: Rényi DP, all pairs, n = 10, random cost,
        # where the refit below took the square root of it and lstsq raised LinAlgError): no KKT point of the problem.
        return None
    if residual <= KKT_TOLERANCE and np.any(lam < 0):
        # Redundant active terms (a face of optima: Rényi DP near ε = 0 on {1,2}^4, all 64 pairs active): Newton's
        # multipliers are one solution of many, some negative, which the bound drops (1.7e-4 short). Nonnegative
        # ones refitted at the polished point and polished again make it tight (4e-11).
        refitted = polished_kkt_point(costs, point, entries, terms, active,
                                      *fitted_multipliers(costs, point, entries, terms(point), active), growth)
        if refitted[3] <= KKT_TOLERANCE:
            point, mu, lam, residual = refitted
    for _ in range(ACTIVE_SET_ROUNDS):
        if not (residual <= KKT_TOLERANCE and np.any(lam < 0)):
            break
        # Still negative: no nonnegative multipliers at this point, whose active set the conic solver's point got
        # wrong (Rényi DP, all pairs, n = 20, random cost: two terms within ACTIVE_RTOL of their budget with
        # multipliers −6e-5; their nonnegative refit leaves the stationarity 2.5e-2 off, the bound 1.5e-3 short). The
        # point improves by leaving those terms: they are dropped and the rest polished again (a primal active-set
        # step), kept if Newton's method converges and the new point meets the dropped terms.
        kept = active[lam >= 0]
        polished = polished_kkt_point(costs, point, entries, terms, kept,
                                      *fitted_multipliers(costs, point, entries, terms(point), kept), growth)
        current = terms(polished[0]) if np.isfinite(polished[0]).all() and polished[0].min() >= 0.0 else None
        if not (current is not None and polished[3] <= KKT_TOLERANCE
                and np.all(current.values <= current.rhs * (1.0 + KKT_TOLERANCE))):
            break
        active, (point, mu, lam, residual) = kept, polished
    if not residual <= KKT_TOLERANCE:
        return None
    multipliers = np.zeros(sums.rhs.size)
    multipliers[active] = lam
    return KKTPoint(point, mu, multipliers, residual)


#: ``(linear (n, u), multipliers (K,)) ↦ (n, u)`` points of the simplex where the Lagrangian's column terms are least
#: (:func:`least_column_terms`), where a notion finds them without a search (``None`` where it cannot).
LeastColumnTerms = Callable[[np.ndarray, np.ndarray], np.ndarray]


def column_dual_bound(costs: np.ndarray, matrix: np.ndarray, terms: ColumnTerms,
                      least: LeastColumnTerms | None = None, active: np.ndarray | None = None) -> float | None:
    """A lower bound on ``min costs · Q`` over row-stochastic ``Q`` within the budget ``terms`` describes, from the
    near-optimal ``matrix`` (module docstring): :func:`lagrangian_bound` at the :func:`kkt_point` (its active terms
    ``active`` where the caller knows them, e.g. from a conic solver's multipliers), whose unused
    outputs get the tangent points the dual places (``least`` where the notion finds them without a search, else
    :func:`least_column_terms`' search). ``None`` where there is no KKT point (the bound would not be tight).

    Examples
    --------
    :func:`lagrangian_bound`'s optimum, 1e-6 off: the bound is the optimum to round-off.

    >>> from mechdesign import RenyiDifferentialPrivacy
    >>> p = (1 + 1 / math.sqrt(5)) / 2
    >>> terms = lambda q: RenyiDifferentialPrivacy(2.0).column_terms(q, math.log(2))
    >>> bound = column_dual_bound(0.5 * (1.0 - np.eye(2)), np.array([[p - 1e-6, 1 - p + 1e-6], [1 - p, p]]), terms)
    >>> abs(bound - (1 - p)) < 1e-15  # the optimum, 1 − p
    True
    """
    point = kkt_point(costs, matrix, terms, active)
    if point is None:
        return None
    tangent = point.matrix.copy()
    unused = matrix.sum(axis=0) <= UNUSED_COLUMN_MASS
    if unused.any():
        linear = costs[:, unused] - point.row_multipliers[:, None]
        found = None if least is None else least(linear, point.multipliers)
        tangent[:, unused] = least_column_terms(linear, point.multipliers, terms) if found is None else found
    return lagrangian_bound(costs, point.multipliers, terms(tangent))
