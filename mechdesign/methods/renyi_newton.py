"""An interior-point method for the working-set problems of lazy pair generation
(:mod:`mechdesign.methods.renyi_pairs`): ``min W · Q`` over row-stochastic ``Q`` supported on some outputs with
``g_k(Q) = Σ_y Q[a_k, y]^α (c · Q[b_k, y])^{1−α} <= 1`` for ``K`` ordered pairs ``(a_k, b_k)``.

The problem separates by output column except for the ``n`` row sums and the ``K`` budgets, which sum over
columns: the Hessian of the Lagrangian is block diagonal, one dense ``n × n`` block per output. Each Newton step
eliminates the entries column by column (the blocks' inverses) and solves the Schur complement on the ``K + n``
multipliers (budgets and row sums), dense, by Cholesky: about ``m n³ + 2 K m (K + n) + (K + n)³ / 3`` flops, against
Clarabel's sparse factorization of the conic problem with one cone per pair and output (61 k cones at ``n = 100``,
26–55 s per solve: benchmarks/notes/2026-11-28-renyi-all-pairs-2.md).

The method (:func:`solve_pairs`) follows the central path of the barrier problem
``min W · Q − τ (Σ log Q + Σ_k log(1 − g_k(Q)))`` over the row sums, ``τ`` divided by :data:`BARRIER_FACTOR` once
the point is near its central point (:data:`CENTRE`); each step is the primal–dual Newton step of the barrier
problem's KKT equations, the primal part taken as far as the barrier function decreases (Armijo), the duals to the
boundary and then kept near their central values (:data:`KAPPA`). It is strictly feasible throughout (the uniform
point meets every budget when ``c > 1``).

This module only solves; the certificate is :mod:`~mechdesign.methods.renyi_pairs`' (a KKT point polished and its
Lagrangian bound checked in numpy), which does not trust these multipliers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._lazy import scipy_sparse as sp
from .._threads import single_blas_thread


#: Newton steps at most (then the caller falls back to Clarabel).
MAX_ITERATIONS = 150
#: A barrier stage ends when the point is this close to the central path: the stationarity's violation relative to
#: the largest ``|W|`` and the complementarities' relative deviations from the barrier weight ``τ``.
CENTRE = 0.5
#: The barrier weight is divided by this after each stage (10: 106 steps on a random working set of 200 ordered
#: pairs and 100 outputs, n = 100; 30: 216).
BARRIER_FACTOR = 10.0
#: Fraction of the step to the boundary of the positive orthant taken.
STEP_FRACTION = 0.99
#: Barrier weight of the start relative to the largest ``|W|``.
START_BARRIER = 1.0
#: Sufficient decrease of the barrier function in the primal line search (Armijo), and halvings at most.
ARMIJO = 1e-4
BACKTRACKS = 60
#: After each step every dual is kept within this factor of its primal's central value ``τ / q``, ``τ / s``
#: (as IPOPT does), so that the primal–dual Hessian stays near the barrier's.
KAPPA = 1e10


@dataclass(frozen=True)
class PairsSolution:
    """An interior point of the working-set problem (:func:`solve_pairs`).

    Attributes
    ----------
    status
        ``"Solved"`` (near the central path of a barrier weight within the tolerance), else ``"MaxIterations"`` or
        ``"NumericalError"``.
    matrix
        ``(n, m)``: the point (0 outside the working outputs); ``None`` unless solved.
    row_multipliers
        ``(n,)``: ``μ`` of the unit row sums (``W − μ + Σ_k λ_k ∇g_k = z >= 0``).
    multipliers
        ``(K,)``: ``λ`` of the budgets.
    iterations
        Newton steps taken.
    """

    status: str
    matrix: np.ndarray | None
    row_multipliers: np.ndarray | None
    multipliers: np.ndarray | None
    iterations: int


def _terms(q: np.ndarray, first: np.ndarray, second: np.ndarray, scale: float, alpha: float
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """At the positive ``(n, m)`` point ``q``: the budgets' values ``g (K,)``, the derivatives of each term
    with respect to its numerator and its denominator ``(K, m)`` each, and its curvature ``(K, m)``
    (the Hessian of ``a^α (c b)^{1−α}`` is ``curvature · [[1/a, −1/b], [−1/b, a/b²]]``)."""
    a, b = q[first], q[second]
    ratio = a / (scale * b)
    power = ratio ** (alpha - 1.0)
    values = (a * power).sum(axis=1)
    return values, alpha * power, (1.0 - alpha) * scale * power * ratio, alpha * (alpha - 1.0) * power


def _longest(*pairs_of: tuple[np.ndarray, np.ndarray]) -> float:
    """The longest step in [0, 1] keeping every ``value + step · change`` positive (for each pair given)."""
    length = 1.0
    for value, change in pairs_of:
        falling = change < 0
        if falling.any():
            length = min(length, float(np.min(-value[falling] / change[falling])))
    return length


def solve_pairs(weights: np.ndarray, first: np.ndarray, second: np.ndarray, outputs: np.ndarray, scale: float,
                alpha: float, tolerance: float = 1e-9) -> PairsSolution:
    """``min weights · Q`` over row-stochastic ``Q`` supported on the columns ``outputs`` with
    ``Σ_y Q[first_k, y]^α (scale · Q[second_k, y])^{1−α} <= 1`` for every ``k`` (``α > 1``, ``scale > 1``), by
    the interior-point method of the module docstring from the uniform point, to ``tolerance``: it stops at a point
    near the central path (:data:`CENTRE`) whose barrier weight ``τ`` has ``τ (n m + K)`` (the duality gap on the
    path) at most ``tolerance`` times ``max(1, |objective|)``.

    Examples
    --------
    Two inputs, Hamming cost, α = 2, ε = log 2: randomized response with ``p = (1 + 1/√5) / 2``.

    >>> found = solve_pairs(0.5 * (1 - np.eye(2)), np.array([0, 1]), np.array([1, 0]), np.arange(2), 2.0, 2.0)
    >>> found.status, round(float(found.matrix[0, 0]), 7), round((1 + 1 / math.sqrt(5)) / 2, 7)
    ('Solved', 0.7236068, 0.7236068)
    """
    n = weights.shape[0]
    m, pairs = outputs.size, first.size
    w = weights[:, outputs]
    size = max(float(np.abs(w).max(initial=0.0)), np.finfo(float).tiny)
    q = np.full((n, m), 1.0 / m)
    columns = np.arange(m)
    at_a = (first[:, None] * m + columns).ravel()
    at_b = (second[:, None] * m + columns).ravel()
    term_rows = np.repeat(np.arange(pairs), m)
    block = columns * n * n  # the Hessian's dense block of column y starts at y n²
    flat = np.concatenate([(block + (first * n + first)[:, None]).ravel(),
                           (block + (first * n + second)[:, None]).ravel(),
                           (block + (second * n + first)[:, None]).ravel(),
                           (block + (second * n + second)[:, None]).ravel()])
    diagonal = np.arange(n) * (n + 1)
    # C = [J; −E] ((K + n) × n m, row-major entries): the budgets' gradients, then the row sums.
    pattern = (np.concatenate([term_rows, term_rows, pairs + np.repeat(np.arange(n), m)]),
               np.concatenate([at_a, at_b, np.arange(n * m)]))
    count = n * m + pairs

    def barrier_value(point: np.ndarray, tau: float) -> float:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            slack = 1.0 - _terms(point, first, second, scale, alpha)[0]
            if not (np.all(point > 0) and np.all(slack > 0)):
                return math.inf
            return float(np.sum(w * point) - tau * (np.log(point).sum() + np.log(slack).sum()))

    tau = START_BARRIER * size
    mu = np.zeros(n)
    z = tau / q
    lam = tau / (1.0 - _terms(q, first, second, scale, alpha)[0])
    where = np.concatenate([at_a, at_b])
    iterations, solved = 0, False
    # Imported before the BLAS limit: a BLAS library loaded inside it runs with every thread (scipy.linalg's
    # OpenBLAS is not numpy's; on the shared 2-core machine its Cholesky took 1.6 s instead of 0.02 s).
    from scipy.linalg import cho_factor, cho_solve

    def spread(per_term: np.ndarray, on_a: np.ndarray, on_b: np.ndarray) -> np.ndarray:
        """``Σ_k per_term_k ∇g_k`` as an ``(n, m)`` array."""
        return np.bincount(where, np.concatenate([per_term[:, None] * on_a, per_term[:, None] * on_b]).ravel(),
                           n * m).reshape(n, m)

    with single_blas_thread():
        while iterations < MAX_ITERATIONS:
            values, on_a, on_b, curvature = _terms(q, first, second, scale, alpha)
            s = 1.0 - values
            dual = w - mu[:, None] + spread(lam, on_a, on_b) - z
            row = q.sum(axis=1) - 1.0
            objective = float(np.sum(w * q))
            centre = max(np.abs(dual).max() / size, np.abs(q * z - tau).max() / tau,
                         np.abs(s * lam - tau).max(initial=0.0) / tau)
            if centre <= CENTRE:
                if tau * count <= tolerance * max(1.0, abs(objective)):
                    solved = True
                    break
                tau = max(tau / BARRIER_FACTOR, 0.5 * tolerance * max(1.0, abs(objective)) / count)
                continue
            iterations += 1
            weight = lam[:, None] * curvature
            a, b = q[first], q[second]
            hessian = np.bincount(flat, np.concatenate([(weight / a).ravel(), (-weight / b).ravel(),
                                                        (-weight / b).ravel(), (weight * a / b**2).ravel()]),
                                  m * n * n).reshape(m, n, n)
            hessian.reshape(m, n * n)[:, diagonal] += (z / q).T
            root = np.sqrt(hessian.reshape(m, n * n)[:, diagonal])  # symmetric diagonal scaling
            inverse = np.linalg.inv(hessian / (root[:, :, None] * root[:, None, :]))
            inverse /= root[:, :, None] * root[:, None, :]
            constraint = sp.csr_matrix((np.concatenate([on_a.ravel(), on_b.ravel(), -np.ones(n * m)]), pattern),
                                       shape=(pairs + n, n * m))
            stacked = np.empty((m, n, pairs + n))
            stacked[:, :, :pairs] = (inverse[:, :, first] * on_a.T[:, None, :]
                                     + inverse[:, :, second] * on_b.T[:, None, :])
            stacked[:, :, pairs:] = -inverse
            schur = constraint @ stacked.transpose(1, 0, 2).reshape(n * m, pairs + n)
            schur[np.arange(pairs), np.arange(pairs)] += s / lam
            try:
                factor = cho_factor(schur, lower=True, overwrite_a=True, check_finite=False)
            except np.linalg.LinAlgError:
                return PairsSolution("NumericalError", None, None, None, iterations)
            rho1 = -dual + (tau - q * z) / q
            right = constraint @ np.einsum("ykl,yl->yk", inverse, rho1.T).T.ravel()
            right[:pairs] += (tau - s * lam) / lam
            right[pairs:] -= row
            u = cho_solve(factor, right, check_finite=False)
            d_lam, d_mu = u[:pairs], u[pairs:]
            d_q = np.einsum("ykl,yl->yk", inverse, (rho1 - spread(d_lam, on_a, on_b) + d_mu[:, None]).T).T
            d_z = (tau - q * z - z * d_q) / q
            if not (np.all(np.isfinite(d_q)) and np.all(np.isfinite(u))):
                return PairsSolution("NumericalError", None, None, None, iterations)
            # The primal step: fraction to the boundary, then backtracking on the barrier function at τ.
            length = STEP_FRACTION * _longest((q, d_q))
            slope = float(np.sum((w - tau / q + spread(tau / s, on_a, on_b)) * d_q))
            current = barrier_value(q, tau)
            for _ in range(BACKTRACKS):
                trial = q + length * d_q
                if barrier_value(trial, tau) <= current + ARMIJO * length * min(slope, 0.0):
                    break
                length *= 0.5
            else:
                return PairsSolution("NumericalError", None, None, None, iterations)
            q = trial
            # The dual step: fraction to the boundary, then each dual within a factor KAPPA of its central value.
            dual_length = STEP_FRACTION * _longest((z, d_z), (lam, d_lam))
            z, lam, mu = z + dual_length * d_z, lam + dual_length * d_lam, mu + dual_length * d_mu
            s = 1.0 - _terms(q, first, second, scale, alpha)[0]
            z = np.clip(z, tau / (KAPPA * q), KAPPA * tau / q)
            lam = np.clip(lam, tau / (KAPPA * s), KAPPA * tau / s)
    if not solved:
        return PairsSolution("MaxIterations", None, None, None, iterations)
    point = np.zeros(weights.shape)
    point[:, outputs] = q
    return PairsSolution("Solved", point, mu, lam, iterations)
