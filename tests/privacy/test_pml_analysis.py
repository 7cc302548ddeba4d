"""Tests of mechdesign.privacy.pml_analysis (Grosse et al., "Privacy Mechanism Design based on
Empirical Distributions": Definitions 2, 4, 5, 6 and the polytope of Proposition 2)."""

import itertools
import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import PointwiseMaximalLeakage, SourceSet
from mechdesign.exceptions import MechDesignError
from mechdesign.priors import L1Ball
from mechdesign.privacy.pml_analysis import (
    epsilon_min,
    leakage_capacity,
    leakage_sensitivity,
    output_divergence,
    privacy_region,
    privacy_region_thresholds,
    sufficient_polytope_budget,
    worst_case_prior,
)
from mechdesign.theory.pml import eq13_modified_epsilon

from ..strategies import budgets, full_support_priors, priors_and_matrix, stochastic_matrices

EXACT_ATOL = 1e-12
#: Slack of HiGHS feasibility checks of fixed-Q constraints (nats), as in tests/privacy/protocol.py.
FEASIBLE_MARGIN, INFEASIBLE_MARGIN = 1e-6, 1e-3

#: Grosse et al., Example 1 (from [15, Example 1]): optimal for ε = log 9/8 and P = (2/5, 1/5, 1/5, 1/5).
EXAMPLE1 = np.array([[0.325, 0.225, 0.225, 0.225], [0.45, 0.1, 0.225, 0.225],
                     [0.45, 0.225, 0.1, 0.225], [0.45, 0.225, 0.225, 0.1]])
EXAMPLE1_PRIOR = [0.4, 0.2, 0.2, 0.2]

cases = st.integers(2, 4).flatmap(
    lambda n: st.tuples(full_support_priors(n), st.floats(0.0, 2.2), stochastic_matrices(n_inputs=st.just(n)))
)


def test_epsilon_min_of_example1():
    assert epsilon_min(EXAMPLE1, EXAMPLE1_PRIOR) == pytest.approx(math.log(9 / 8), abs=EXACT_ATOL)


# --- privacy regions (Definition 4) --------------------------------------------------------------------


def test_privacy_region_thresholds_hand_computed():
    thresholds = privacy_region_thresholds(EXAMPLE1_PRIOR)
    assert thresholds == pytest.approx([0.0, -math.log(0.8), -math.log(0.6), -math.log(0.4)], abs=EXACT_ATOL)
    assert privacy_region(0.0, EXAMPLE1_PRIOR) == 1
    assert privacy_region(math.log(9 / 8), EXAMPLE1_PRIOR) == 1  # Example 1 is in the first region
    assert privacy_region(-math.log(0.8), EXAMPLE1_PRIOR) == 2
    assert privacy_region(-math.log(0.4), EXAMPLE1_PRIOR) == 4  # beyond Def. 4's k <= N−1 (errata)


@given(st.integers(2, 5).flatmap(full_support_priors), budgets)
def test_privacy_region_counts_the_zeros_a_column_may_have(prior, budget):
    """[15, Lemma 2] by brute force: in region k, the most zeros of an ε-PML column is k − 1.

    A column vanishing on Z is best as the indicator of Z's complement, whose leakage is
    −log(1 − P(Z)); so j zeros are possible iff some |Z| = j has −log(1 − P(Z)) <= ε.
    """
    n = prior.size
    most_zeros = max(j for j in range(n) for Z in itertools.combinations(range(n), j)
                     if -math.log(1.0 - prior[list(Z)].sum()) <= budget + 1e-13)
    assert privacy_region(budget, prior) - 1 == most_zeros


def test_privacy_region_errors():
    with pytest.raises(MechDesignError, match="epsilon must be a finite number >= 0"):
        privacy_region(-0.1, [0.5, 0.5])


# --- capacity (Definition 5) and sensitivity (Definition 6) ---------------------------------------------


def grid_priors(n: int, steps: int = 20) -> np.ndarray:
    """Every prior with entries in multiples of 1/steps (deterministic grid of the simplex)."""
    return np.array([np.array(c) / steps for c in itertools.product(range(steps + 1), repeat=n) if sum(c) == steps])


@settings(max_examples=25)
@given(cases)
def test_capacity_dominates_every_prior_of_the_ball_and_is_attained(case):
    center, radius, matrix = case
    ball = L1Ball(center, radius)
    capacity = leakage_capacity(matrix, ball)
    inside = [p for p in grid_priors(center.size, 12) if ball.contains(p)]
    assert all(epsilon_min(matrix, p) <= capacity + 1e-12 for p in inside)
    worst = worst_case_prior(matrix, ball)
    assert ball.contains(worst)
    # The worst prior may sit on the simplex's boundary, where ε_min's numerator would skip the inputs it
    # does not charge; the segment [worst, P̂] has full support inside and its measure is the sup over it.
    attained = PointwiseMaximalLeakage(SourceSet([worst, center])).measure(matrix) if radius > 0 else epsilon_min(matrix, worst)
    assert attained == pytest.approx(capacity, abs=1e-12)


@settings(max_examples=25)
@given(priors_and_matrix(st.integers(2, 4), priors=2))
def test_capacity_over_a_segment_of_priors(case):
    first, second, matrix = case
    segment = SourceSet([first, second])
    capacity = leakage_capacity(matrix, segment)
    assert capacity == pytest.approx(max(epsilon_min(matrix, first), epsilon_min(matrix, second)), abs=EXACT_ATOL)
    assert epsilon_min(matrix, worst_case_prior(matrix, segment)) == pytest.approx(capacity, abs=EXACT_ATOL)
    assert leakage_sensitivity(matrix, first, segment) == pytest.approx(capacity - epsilon_min(matrix, first), abs=EXACT_ATOL)


@settings(max_examples=30)
@given(cases)
def test_sensitivity_is_nonnegative_and_below_the_output_divergence(case):
    """S_P(Q, B) >= 0 (P is in its ball) and S <= sup D_∞(P_Y ‖ P'_Y) (Remark 2's inequality)."""
    center, radius, matrix = case
    ball = L1Ball(center, radius)
    sensitivity = leakage_sensitivity(matrix, center, ball)
    assert sensitivity >= -EXACT_ATOL
    assert sensitivity <= output_divergence(matrix, center, ball) + EXACT_ATOL


def test_output_divergence_equals_sensitivity_for_the_extremal_example1():
    ball = L1Ball(EXAMPLE1_PRIOR, 0.2)
    assert output_divergence(EXAMPLE1, EXAMPLE1_PRIOR, ball) == pytest.approx(
        leakage_sensitivity(EXAMPLE1, EXAMPLE1_PRIOR, ball), abs=EXACT_ATOL)


def test_output_divergence_can_exceed_the_sensitivity():
    """Erratum (Section IV-C): S_P(Q, 𝒫) = max D_∞(P_Y ‖ Q_Y) fails when the most sensitive output
    is not the most leaking one; here S = 0.03666 < 0.07242 = max D_∞."""
    prior = [0.17, 0.63, 0.2]
    matrix = np.array([[0.9, 0.09, 0.01], [0.48, 0.16, 0.36], [0.64, 0.25, 0.11]])
    ball = L1Ball(prior, 0.1)
    sensitivity, divergence = leakage_sensitivity(matrix, prior, ball), output_divergence(matrix, prior, ball)
    assert sensitivity == pytest.approx(0.0366597169, abs=1e-9)
    assert divergence == pytest.approx(0.0724204670, abs=1e-9)


# --- the polytope (10)–(12) of Proposition 2 with ε' of eq. (13) ----------------------------------------


def prop2_feasible(matrix: np.ndarray, ball: L1Ball, budget: float) -> bool:
    """Constraints (10)–(12) exactly as printed, for every i, i', j, with e^{ε'} of eq. (13)."""
    scaled = math.exp(eq13_modified_epsilon(budget, ball.radius))
    Q = cp.Constant(matrix)
    center, half = ball.center.probabilities, ball.radius / 2
    constraints = [Q[i, j] <= scaled * (center @ Q[:, j] + half * Q[k, j])
                   for i in range(matrix.shape[0]) for k in range(matrix.shape[0]) for j in range(matrix.shape[1])]
    problem = cp.Problem(cp.Minimize(0), constraints + [cp.Constant(0) <= 1])
    problem.solve(solver=cp.HIGHS)
    return problem.status == cp.OPTIMAL


@settings(max_examples=20)
@given(cases)
def test_sufficient_polytope_budget_matches_the_printed_constraints(case):
    center, radius, matrix = case
    ball = L1Ball(center, radius)
    budget = sufficient_polytope_budget(matrix, ball)
    if math.isinf(budget):
        assert not prop2_feasible(matrix, ball, 20.0)
        return
    assert prop2_feasible(matrix, ball, budget + FEASIBLE_MARGIN)
    if budget > INFEASIBLE_MARGIN:
        assert not prop2_feasible(matrix, ball, budget - INFEASIBLE_MARGIN)


@settings(max_examples=60)
@given(cases)
def test_prop2_polytope_is_exact_inside_the_hypothesis_and_sufficient_beyond(case):
    """Proposition 2: for β <= 2 min P̂ the polytope is M(ε, B_β(P̂)) exactly; for larger β it is a
    subset (its budget is at least the exact capacity), since the un-truncated ℓ1-ball reaches
    below the simplex."""
    center, radius, matrix = case
    ball = L1Ball(center, radius)
    exact, polytope = leakage_capacity(matrix, ball), sufficient_polytope_budget(matrix, ball)
    assert polytope >= exact - EXACT_ATOL
    if radius <= 2 * center.min():
        assert polytope == pytest.approx(exact, abs=1e-10)


def test_prop2_polytope_is_strictly_inside_beyond_the_hypothesis():
    """β = 0.6 > 2 min P̂ = 0.4: the un-truncated ball would take 0.3 from input 1, which has 0.2."""
    ball = L1Ball([0.8, 0.2], 0.6)
    matrix = np.array([[0.9, 0.1], [0.3, 0.7]])
    exact, polytope = leakage_capacity(matrix, ball), sufficient_polytope_budget(matrix, ball)
    # Exact worst prior for output 1 is (1, 0): P_Y(1) = 0.1, leakage log 7. The polytope's
    # denominator is P̂·q − (β/2)(max − min) = 0.22 − 0.3 * 0.6 = 0.04: budget log(0.7 / 0.04).
    assert exact == pytest.approx(math.log(7.0), abs=EXACT_ATOL)
    assert polytope == pytest.approx(math.log(0.7 / 0.04), abs=1e-12)
    assert polytope > exact + 0.9


def test_sufficient_polytope_needs_a_ball():
    with pytest.raises(MechDesignError, match="ℓ1-ball"):
        sufficient_polytope_budget(np.eye(2), SourceSet([[0.5, 0.5]]))
