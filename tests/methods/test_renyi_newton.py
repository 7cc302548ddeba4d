"""The interior-point method for pair generation's working sets (mechdesign/methods/renyi_newton.py), against the same
working-set problem written independently here in cvxpy (quadratic over linear terms) and solved by Clarabel."""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest

from mechdesign.methods.renyi_newton import solve_pairs


def working_set_optimum(weights: np.ndarray, first: np.ndarray, second: np.ndarray, outputs: np.ndarray,
                        scale: float) -> float:
    """``min weights · Q`` over row-stochastic ``Q`` on ``outputs`` with ``Σ_y Q[a, y]² / (scale Q[b, y]) <= 1`` for
    the pairs given (α = 2), in cvxpy, Clarabel at tight tolerances."""
    n = weights.shape[0]
    Q = cp.Variable((n, outputs.size), nonneg=True)
    constraints = [cp.sum(Q, axis=1) == 1]
    for a, b in zip(first, second):
        constraints.append(sum(cp.quad_over_lin(Q[a, j], scale * Q[b, j]) for j in range(outputs.size)) <= 1)
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(weights[:, outputs], Q))), constraints)
    problem.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    assert problem.status == "optimal"
    return float(problem.value)


@pytest.mark.parametrize("n, share, seed, epsilon", [(8, 0.4, 1, 1.0), (9, 0.7, 2, 0.3), (10, 0.25, 3, 3.0)])
def test_the_working_set_optimum_and_its_multipliers(n, share, seed, epsilon):
    """Random pairs and outputs: the point meets the row sums and every budget, its value is the reference's to 1e-8
    (a value 1e-6 off would fail), and the multipliers satisfy stationarity (``W − μ + Σ λ ∇g >= 0``, 0 on the support)
    and complementary slackness to 1e-6 of the largest weight."""
    rng = np.random.default_rng(seed)
    weights = rng.dirichlet(np.ones(n))[:, None] * rng.random((n, n))
    every = np.array([(a, b) for a in range(n) for b in range(n) if a != b])
    chosen = every[rng.random(len(every)) < share]
    first, second = chosen[:, 0], chosen[:, 1]
    outputs = np.sort(rng.choice(n, n - 2, replace=False))
    scale = math.exp(epsilon)
    found = solve_pairs(weights, first, second, outputs, scale, 2.0, 1e-9)
    assert found.status == "Solved"
    Q = found.matrix
    assert np.all(Q >= 0) and np.allclose(Q.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all(Q[:, np.setdiff1d(np.arange(n), outputs)] == 0)
    terms = (Q[first][:, outputs] ** 2 / (scale * Q[second][:, outputs])).sum(axis=1)
    assert np.all(terms <= 1.0)
    reference = working_set_optimum(weights, first, second, outputs, scale)
    value = float(np.sum(weights * Q))
    assert abs(value - reference) <= 1e-8
    assert abs(value * (1.0 + 1e-5) - reference) > 1e-8  # the check above can fail
    # Stationarity at the point: W − μ + Σ_k λ_k ∇g_k >= 0 on the working outputs, ≈ 0 where Q is used.
    lam, mu = found.multipliers, found.row_multipliers
    a, b = Q[first][:, outputs], Q[second][:, outputs]
    reduced = weights[:, outputs] - mu[:, None]
    np.add.at(reduced, first, lam[:, None] * 2.0 * a / (scale * b))
    np.add.at(reduced, second, -lam[:, None] * a**2 / (scale * b**2))
    size = float(weights.max())
    assert reduced.min() >= -1e-6 * size
    assert np.all(np.abs(reduced[Q[:, outputs] > 1e-4]) <= 1e-6 * size)
    assert np.all(lam >= 0) and np.all(lam * (1.0 - terms) <= 1e-6 * size)


def test_randomized_response_between_two_inputs():
    """Hamming cost, ε = log 2, both directions: the optimum is randomized response with ``p = (1 + 1/√5) / 2`` (the
    budget ``p²/(2(1 − p)) + (1 − p)²/(2p) = 1``), and by symmetry the two multipliers are equal, summing to
    ``2 / (5 √5)`` (column_dual's fitted_multipliers example)."""
    found = solve_pairs(0.5 * (1.0 - np.eye(2)), np.array([0, 1]), np.array([1, 0]), np.arange(2), 2.0, 2.0, 1e-10)
    p = (1.0 + 1.0 / math.sqrt(5.0)) / 2.0
    assert np.allclose(found.matrix, [[p, 1 - p], [1 - p, p]], rtol=0, atol=1e-8)
    assert found.multipliers.sum() == pytest.approx(2.0 / (5.0 * math.sqrt(5.0)), rel=1e-6)
