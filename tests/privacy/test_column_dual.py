"""Tests of mechdesign.privacy.column_dual: the Lagrangian bound of budgets that are sums of column terms (Rényi DP,
Sibson's α-information) and the KKT point polished by Newton's method.

Optima are known independently: randomized response in closed form for two inputs, and Q_D — the product of
per-individual randomized responses of distortion D/n — on PUT's Class I sets (PUT Theorem 7(5): Q_D's value is the
optimum for Rényi DP on every Class I set, docs/errata.md, PUT entry 10; Proposition 8(6) for Sibson, entry 9).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import DesignProblem, ExpectedDistortion, Prior, RenyiDifferentialPrivacy, SibsonMutualInformation, design
from mechdesign.mechanisms.global_framework import hamming_distances, hamming_neighbours, product_mechanism
from mechdesign.privacy.column_dual import (
    KKT_TOLERANCE,
    column_dual_bound,
    fitted_multipliers,
    kkt_point,
    lagrangian_bound,
    least_column_terms,
)

from ..strategies import stochastic_matrices

#: A bound may exceed a feasible objective only by float round-off.
ROUND_OFF = 1e-12
#: The polished point and its bound agree with an exact optimum to round-off (the conic solver's: ~1e-8).
POLISHED_ATOL = 1e-13


def class_one_optimum(m: int, n: int, D: float) -> np.ndarray:
    """Q_D on ``{1..m}^n``: per individual, keep the symbol with probability ``1 − D/n``, else one of the others."""
    per_letter = D / n
    letter = np.full((m, m), per_letter / (m - 1))
    np.fill_diagonal(letter, 1.0 - per_letter)
    return product_mechanism(letter, n).matrix


def perturbed(matrix: np.ndarray, size: float, seed: int = 0) -> np.ndarray:
    """``matrix`` moved by about ``size`` (rows still stochastic, entries positive), as a conic solver leaves it."""
    noisy = matrix * (1.0 + size * np.random.default_rng(seed).standard_normal(matrix.shape))
    return noisy / noisy.sum(axis=1, keepdims=True)


@settings(max_examples=30)
@given(stochastic_matrices(n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 4), allow_zeros=False),
       st.sampled_from([1.5, 2.0, 4.0]), st.integers(0, 2**16))
def test_the_bound_is_below_every_mechanism_within_the_budget(matrix, alpha, seed):
    """Any multipliers and any tangent points give a valid bound: against a mechanism at exactly its own
    budget (the tightest case), with random costs, tangents and multipliers."""
    rng = np.random.default_rng(seed)
    costs = rng.random(matrix.shape)
    for notion in (RenyiDifferentialPrivacy(alpha), SibsonMutualInformation(alpha, rng.dirichlet(np.ones(matrix.shape[0])))):
        budget = notion.measure(matrix)
        sums = notion.column_terms(rng.random(matrix.shape) + 1e-3, budget)
        multipliers = rng.exponential(size=sums.rhs.size) * (rng.random(sums.rhs.size) < 0.7)
        assert lagrangian_bound(costs, multipliers, sums) <= np.sum(costs * matrix) + ROUND_OFF


@pytest.mark.parametrize("m, n", [(2, 2), (3, 2), (2, 3)])
def test_the_kkt_point_restores_the_class_one_optimum(m, n):
    """Issue 32 item 4: from Q_D moved by 1e-7 (a conic solver's accuracy), Newton's method returns Q_D to
    round-off, and the bound is its distortion D (the tangent-plane LP left 1e-7 on these rows)."""
    D, alpha = 0.2, 2.0
    optimum = class_one_optimum(m, n, D)
    notion = RenyiDifferentialPrivacy(alpha, neighbours=hamming_neighbours(m, n))
    budget = notion.measure(optimum)
    costs = ExpectedDistortion(Prior.uniform(m**n), cost=hamming_distances(m, n)).minorant(optimum).grad_q.reshape(
        optimum.shape)
    terms = lambda q: notion.column_terms(q, budget)  # noqa: E731
    point = kkt_point(costs, perturbed(optimum, 1e-7), terms)
    assert point is not None and point.residual <= KKT_TOLERANCE
    assert np.abs(point.matrix - optimum).max() <= POLISHED_ATOL
    assert column_dual_bound(costs, perturbed(optimum, 1e-7), terms) == pytest.approx(D, abs=POLISHED_ATOL)


def test_sibson_randomized_response_is_certified_exactly():
    """PUT Proposition 8(6) (the value is the upper bound, docs/errata.md, PUT entry 9): randomized response of
    distortion D is optimal for Sibson's α-information under the uniform prior on 3 symbols."""
    D, alpha = 0.2, 2.0
    response = class_one_optimum(3, 1, D)
    notion = SibsonMutualInformation(alpha, Prior.uniform(3))
    costs = (1.0 - np.eye(3)) / 3
    bound = notion.linear_objective_bound(costs, perturbed(response, 1e-7), notion.measure(response))
    assert bound == pytest.approx(D, abs=POLISHED_ATOL)


def test_an_unused_output_gets_its_tangent_from_the_dual():
    """Two inputs at ε = log 2, Hamming cost, and a third output costing 1 from either input: randomized response
    with ``p = (1 + 1/√5) / 2`` on the first two outputs stays optimal; the third output's tangent point is where
    its Lagrangian column term is least, and the bound is exact."""
    p = (1 + 1 / math.sqrt(5)) / 2
    optimum = np.array([[p, 1 - p, 0.0], [1 - p, p, 0.0]])
    costs = 0.5 * np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]])
    notion = RenyiDifferentialPrivacy(2.0)
    bound = notion.linear_objective_bound(costs, perturbed(optimum, 1e-8), math.log(2))
    assert bound == pytest.approx(1 - p, abs=POLISHED_ATOL)


def test_the_least_column_terms_are_their_minimizers():
    """Each column's point (found all at once) is no worse than any point of a grid on the simplex (three inputs,
    Rényi α = 2 and Sibson α = 3)."""
    linear = np.array([[0.3, -0.1, 0.2], [-0.2, 0.0, -0.3], [0.1, -0.15, 0.05]])
    grid = np.array([[a, b, 1 - a - b] for a in np.linspace(0.005, 0.99, 80) for b in np.linspace(0.005, 0.99, 80)
                     if a + b < 0.995]).T
    for notion, multipliers in ((RenyiDifferentialPrivacy(2.0), np.array([0.05, 0.0, 0.02, 0.1, 0.0, 0.03])),
                                (SibsonMutualInformation(3.0, [0.5, 0.3, 0.2]), np.array([0.4]))):
        terms = lambda q, notion=notion: notion.column_terms(q, 0.5)  # noqa: E731
        found = least_column_terms(linear, multipliers, terms)
        for j in range(linear.shape[1]):
            assert column_term(linear[:, j], found[:, j:j + 1], multipliers, terms) <= min(
                column_term(linear[:, j], grid, multipliers, terms)) + 1e-9


def column_term(linear, points, multipliers, terms):
    """``linear · v + Σ_k λ_k φ_k(v)`` at each column ``v`` of ``points`` (``φ_k(v) = ∇φ_k(v) · v``, Euler)."""
    sums = terms(points)
    gradients = sums.jacobian.toarray().reshape(-1, *points.shape)
    return linear @ points + multipliers @ np.einsum("knj,nj->kj", gradients, points)


def test_no_kkt_point_where_the_solver_point_does_not_reveal_the_support():
    """Rényi α = 2, random costs (n = 10, seed 1, ε = 1): Clarabel leaves outputs of mass 2e-5 and 2e-4 whose
    ratios it has not settled; Newton's method does not converge from there, so no bound is claimed from it, and the
    design is certified by the tangent-plane LP instead."""
    rng = np.random.default_rng(1)
    prior = Prior(rng.dirichlet(np.ones(10)))
    objective = ExpectedDistortion(prior, rng.random((10, 10)))
    notion = RenyiDifferentialPrivacy(2.0)
    result = design(notion, 1.0, objective)
    costs = objective.minorant(result.mechanism.matrix).grad_q.reshape(10, 10)
    assert kkt_point(costs, result.mechanism.matrix, lambda q: notion.column_terms(q, 1.0)) is None
    assert result.status == "optimal"


@pytest.mark.slow
def test_a_face_of_optima_near_zero_budget_is_certified():
    """Issue 32 item 4: Rényi DP on PUT's {1,2}^4 at ε = 1.0002e-6 (a step of the bisection of ε*(1.999)), where every
    pair is active and the optima form a face. Clarabel's first point: Newton's multipliers solve the KKT equations
    to 5e-12 but two are negative (−0.039), and the bound without them was 1.7e-4 short; refitted nonnegative ones
    make it tight. The same problem re-solved: plain Newton steps from that point move the multipliers by 10 and the
    residual to 1e20 (no bound, then minutes of HiGHS on the tangent-plane LP); damped steps reach the KKT point."""
    m, n, epsilon = 2, 4, 1.000240445137024e-06
    notion = RenyiDifferentialPrivacy(2.0, neighbours=hamming_neighbours(m, n))
    objective = ExpectedDistortion(Prior.uniform(m**n), cost=hamming_distances(m, n))
    problem = DesignProblem(notion, objective)
    terms = lambda q: notion.column_terms(q, epsilon)  # noqa: E731
    for threshold in (1.999 * (1 + 1e-9), None):
        matrix = problem.solve(epsilon, threshold=threshold).mechanism.matrix
        costs = objective.minorant(matrix).grad_q.reshape(matrix.shape)
        point = kkt_point(costs, matrix, terms)
        assert point is not None and np.all(point.multipliers >= 0)
        value = float(np.sum(costs * point.matrix))
        assert column_dual_bound(costs, matrix, terms) == pytest.approx(value, abs=1e-9)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_a_rank_deficient_fit_is_the_least_squares_optimum_and_warns_nothing():
    """Issue 32 item 4 follow-up: the multipliers' fit at a point near ε = 0 (PUT's {1,2}^2 single letter in the theory
    tests: two inputs, rows equal to 4e-6, both ordered pairs active) is rank-deficient (4 equations, 4 unknowns,
    rank 3), and scipy's reflective method evaluated a rejected candidate step at stride inf (a RuntimeWarning,
    harmless: mechdesign/privacy/column_dual.py). No warning escapes, ``λ >= 0``, and the fit is the bounded least
    squares optimum: its weighted residual is that of scipy's active-set method (BVLS) on the same system, built
    here from the stationarity ``costs − μ_x + Σ_k λ_k ∂φ_k/∂Q[x, y]``."""
    from scipy.optimize import lsq_linear

    notion = RenyiDifferentialPrivacy(2.0)
    point = np.array([[0.8004559244865225, 0.19954407551347758], [0.8004521605441111, 0.19954783945588903]])
    costs = 0.5 * (1.0 - np.eye(2))
    sums = notion.column_terms(point, notion.measure(point))
    assert np.all(sums.values >= sums.rhs * (1 - 1e-3))  # both terms active
    mu, lam = fitted_multipliers(costs, point, point > 0, sums, np.array([0, 1]))
    assert np.all(lam >= 0) and np.all(np.isfinite(mu))
    weights = np.sqrt(point.ravel())
    system = weights[:, None] * np.hstack([-np.repeat(np.eye(2), 2, axis=0), sums.jacobian.toarray().T])
    target = -weights * costs.ravel()
    residual = np.linalg.norm(system @ np.concatenate([mu, lam]) - target)
    reference = lsq_linear(system, target, bounds=([-np.inf, -np.inf, 0, 0], np.inf), method="bvls")
    assert residual <= np.linalg.norm(system @ reference.x - target) * (1 + 1e-3) + 1e-15
    assert residual < 1e-5 * np.abs(np.concatenate([mu, lam])).max()  # the terms' 1e4 cancel to 1e-6


@pytest.mark.slow
def test_an_active_set_the_conic_solver_got_wrong_is_corrected():
    """Rényi DP α = 2, every pair of inputs neighbours, n = 20, random cost (seed 1), ε = 1 (~30 s): two terms end
    within ACTIVE_RTOL of their budget at Clarabel's point but are inactive at the optimum; Newton's point with them
    active had multipliers −6e-5, no nonnegative ones fit it (stationarity 2.5e-2 off), and the design ended
    "suboptimal", gap 1.2e-5. Dropping them (kkt_point's active-set step) gives the optimum, certified: its bound is
    within the gap and below the distortion of randomized response and of the constant mechanism at the same budget
    (independent private mechanisms, measured here)."""
    from mechdesign import randomized_response
    from mechdesign.result import GAP_RTOL

    rng = np.random.default_rng(1)
    n = 20
    objective = ExpectedDistortion(Prior(rng.dirichlet(np.ones(n))), rng.random((n, n)))
    notion = RenyiDifferentialPrivacy(2.0)
    result = design(notion, 1.0, objective, solver="clarabel")
    assert result.status == "optimal", result.message
    assert result.gap <= GAP_RTOL * max(1.0, result.objective)
    keep = 0.0
    for step in np.linspace(0.0, 1.0, 41):  # the largest randomized response within the budget, by a grid
        if notion.measure(randomized_response(n, step * 3).matrix) <= 1.0:
            keep = step * 3
    for private in (randomized_response(n, keep).matrix, np.full((n, n), 1.0 / n)):
        assert notion.measure(private) <= 1.0
        assert result.bound <= objective.value(private) + ROUND_OFF
