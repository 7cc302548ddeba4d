"""Tests of mechdesign.privacy.pml (Grosse et al., Definition 1, eq. (1))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import ExpectedDistortion, MaximalLeakage, PointwiseMaximalLeakage, Prior
from mechdesign import DesignProblem, DifferentialPrivacy, SourceSet, design
from mechdesign.priors import L1Ball

from ..strategies import budgets, full_support_priors, priors_and_matrix, stochastic_matrices
from .protocol import (
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)


def test_hand_computed_values():
    bsc = [[0.75, 0.25], [0.25, 0.75]]
    assert PointwiseMaximalLeakage([0.5, 0.5]).measure(bsc) == pytest.approx(math.log(1.5), abs=1e-15)
    # Prior (0.8, 0.2): P_Y = (0.65, 0.35); leakages log(0.75/0.65) and log(0.75/0.35).
    assert PointwiseMaximalLeakage([0.8, 0.2]).measure(bsc) == pytest.approx(math.log(0.75 / 0.35), abs=1e-14)
    # Identity: leakage to y = x is log(1/P(x)); the largest is at the least likely input.
    assert PointwiseMaximalLeakage([0.7, 0.2, 0.1]).measure(np.eye(3)) == pytest.approx(math.log(10), abs=1e-14)


def test_inputs_outside_the_support_are_unconstrained():
    notion = PointwiseMaximalLeakage([0.5, 0.5, 0.0])
    matrix = np.array([[0.5, 0.5], [0.5, 0.5], [1.0, 0.0]])
    assert notion.measure(matrix) == 0.0
    assert_constraints_match_measure(notion, matrix)


@given(priors_and_matrix())
def test_maximal_leakage_never_exceeds_pml(case):
    """``Σ_y max_x Q[x,y] = Σ_y P_Y(y) e^{ℓ(X→y)} <= max_y e^{ℓ(X→y)}``: ML is at most the PML measure."""
    prior, matrix = case
    assert MaximalLeakage().measure(matrix) <= PointwiseMaximalLeakage(prior).measure(matrix) + 1e-12


@settings(max_examples=25)
@given(priors_and_matrix())
def test_constraints_match_measure(case):
    prior, matrix = case
    assert_constraints_match_measure(PointwiseMaximalLeakage(prior), matrix)


@given(priors_and_matrix(), st.data())
def test_post_processing_never_increases(case, data):
    prior, matrix = case
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(PointwiseMaximalLeakage(prior), matrix, channel)


@settings(max_examples=20)
@given(st.integers(2, 6).flatmap(full_support_priors), budgets)
def test_round_trip(prior, budget):
    assert_round_trip(PointwiseMaximalLeakage(prior), budget, ExpectedDistortion(Prior(prior)))


# --- PML over a source set (Grosse et al., Corollary 1) ---------------------------------------------


@given(stochastic_matrices())
def test_pml_over_the_whole_simplex_is_local_dp(matrix):
    """Over every prior, the worst-case PML is ``max_y log max_x Q[x,y] / min_x' Q[x',y]`` = ε-LDP."""
    from mechdesign import DifferentialPrivacy, SourceSet

    robust = PointwiseMaximalLeakage(SourceSet.simplex(matrix.shape[0]))
    assert robust.measure(matrix) == pytest.approx(DifferentialPrivacy().measure(matrix), abs=1e-12)


@given(priors_and_matrix(st.integers(2, 4), priors=2))
def test_source_set_measure_is_the_worst_extreme_point_and_dominates_the_hull(case):
    from mechdesign import SourceSet

    first, second, matrix = case
    robust = PointwiseMaximalLeakage(SourceSet([first, second]))
    worst = max(PointwiseMaximalLeakage(first).measure(matrix), PointwiseMaximalLeakage(second).measure(matrix))
    assert robust.measure(matrix) == pytest.approx(worst, abs=1e-12)
    for weight in np.linspace(0, 1, 7):  # every prior of the hull leaks at most the worst case
        inside = PointwiseMaximalLeakage(weight * first + (1 - weight) * second).measure(matrix)
        assert inside <= robust.measure(matrix) + 1e-12


@settings(max_examples=15)
@given(priors_and_matrix(st.integers(2, 4), priors=2))
def test_source_set_constraints_match_measure(case):
    from mechdesign import SourceSet

    first, second, matrix = case
    assert_constraints_match_measure(PointwiseMaximalLeakage(SourceSet([first, second])), matrix)


@settings(max_examples=10)
@given(st.integers(2, 4).flatmap(lambda n: st.tuples(full_support_priors(n), full_support_priors(n))), budgets)
def test_source_set_round_trip(priors, budget):
    from mechdesign import SourceSet, WorstCaseDistortion

    source_set = SourceSet(list(priors))
    assert_round_trip(PointwiseMaximalLeakage(source_set), budget, WorstCaseDistortion(source_set))


def test_prior_property_only_for_a_single_prior():
    from mechdesign import SourceSet

    assert PointwiseMaximalLeakage([0.5, 0.5]).prior.probabilities.tolist() == [0.5, 0.5]
    with pytest.raises(AttributeError, match="source set of 2"):
        PointwiseMaximalLeakage(SourceSet([[0.5, 0.5], [0.2, 0.8]])).prior


# --- PML over an ℓ1-ball of priors (Grosse et al., eq. (5)), every radius ----------------------------

#: Radii from 0 to beyond 2 (whole simplex), including balls that leave the simplex (β >= 2 min P̂).
radii = st.floats(0.0, 2.2)
ball_cases = st.integers(2, 4).flatmap(
    lambda n: st.tuples(full_support_priors(n), radii, stochastic_matrices(n_inputs=st.just(n)))
)


@settings(max_examples=30)
@given(ball_cases)
def test_ball_measure_is_the_worst_vertex(case):
    """Corollary 1: the exact ball measure equals PML over the ball's enumerated vertices."""
    center, radius, matrix = case
    ball = L1Ball(center, radius)
    assert PointwiseMaximalLeakage(ball).measure(matrix) == pytest.approx(
        PointwiseMaximalLeakage(ball.to_source_set()).measure(matrix), abs=1e-12)


@settings(max_examples=25)
@given(ball_cases)
def test_ball_constraints_match_measure(case):
    """The LP-dual constraints accept the measured budget and reject 1e-3 below it."""
    center, radius, matrix = case
    assert_constraints_match_measure(PointwiseMaximalLeakage(L1Ball(center, radius)), matrix)


@given(ball_cases, st.data())
def test_ball_post_processing_never_increases(case, data):
    center, radius, matrix = case
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(PointwiseMaximalLeakage(L1Ball(center, radius)), matrix, channel)


@settings(max_examples=15)
@given(st.integers(2, 4).flatmap(lambda n: st.tuples(full_support_priors(n), radii)), budgets)
def test_ball_round_trip_and_vertex_design_agree(ball_case, budget):
    """Design over the ball (LP dual) = design over its vertices (Cor. 1), and re-measures within budget."""
    center, radius = ball_case
    ball = L1Ball(center, radius)
    notion = PointwiseMaximalLeakage(ball)
    objective = ExpectedDistortion(Prior(center))
    assert_round_trip(notion, budget, objective)
    dual, vertices = design(notion, budget, objective), design(PointwiseMaximalLeakage(ball.to_source_set()), budget, objective)
    assert dual.objective == pytest.approx(vertices.objective, abs=1e-8)


@given(stochastic_matrices())
def test_ball_covering_the_simplex_is_local_dp(matrix):
    """β >= 2(1 − min P̂): the ball is the simplex and robust PML is ε-LDP (Grosse et al., Remark 1)."""
    n = matrix.shape[0]
    ball = L1Ball(np.full(n, 1.0 / n), 2.0)
    assert ball.covers_simplex
    assert PointwiseMaximalLeakage(ball).measure(matrix) == pytest.approx(DifferentialPrivacy().measure(matrix), abs=1e-12)


@given(priors_and_matrix(st.integers(2, 4)))
def test_ball_of_radius_zero_is_the_center(case):
    center, matrix = case
    assert PointwiseMaximalLeakage(L1Ball(center, 0.0)).measure(matrix) == pytest.approx(
        PointwiseMaximalLeakage(center).measure(matrix), abs=1e-12)


def test_ball_measure_is_monotone_in_the_radius():
    matrix = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    values = [PointwiseMaximalLeakage(L1Ball([0.5, 0.3, 0.2], r)).measure(matrix) for r in np.linspace(0, 2, 21)]
    assert all(b >= a - 1e-15 for a, b in zip(values, values[1:]))
    assert values[-1] == pytest.approx(DifferentialPrivacy().measure(matrix), abs=1e-12)


def test_ball_hand_computed_value():
    """BSC, P̂ = (1/2, 1/2), β = 0.4: the worst prior (0.3, 0.7) gives P_Y(0) = 0.4, leakage log(0.75/0.4)."""
    bsc = [[0.75, 0.25], [0.25, 0.75]]
    assert PointwiseMaximalLeakage(L1Ball([0.5, 0.5], 0.4)).measure(bsc) == pytest.approx(math.log(0.75 / 0.4), abs=1e-14)


def test_ball_mass_vanishing_on_the_support_is_infinite():
    """β/2 covers all the mass where a column is positive: a prior of the ball gives that output mass 0."""
    matrix = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert PointwiseMaximalLeakage(L1Ball([0.7, 0.3], 0.6)).measure(matrix) == np.inf
    assert_constraints_match_measure(PointwiseMaximalLeakage(L1Ball([0.7, 0.3], 0.6)), matrix)


def test_ball_constraints_are_dpp_and_resolve_along_a_curve():
    """One compiled problem (budget as a Parameter) gives the same optima as fresh solves."""
    import cvxpy as cp

    ball = L1Ball([0.5, 0.3, 0.2], 0.9)  # leaves the simplex: 0.9 > 2 * 0.2
    notion = PointwiseMaximalLeakage(ball)
    problem = DesignProblem(notion, ExpectedDistortion(Prior([0.5, 0.3, 0.2])))
    assert problem.problem.is_dpp()
    Q = cp.Variable((3, 3), nonneg=True)
    assert all(c.is_dpp() for c in notion.constraints(Q, notion.parameter()))
    for budget in [0.0, 0.4, 1.0, 2.5]:
        again = problem.solve(budget)
        fresh = design(notion, budget, ExpectedDistortion(Prior([0.5, 0.3, 0.2])))
        assert again.success and again.objective == pytest.approx(fresh.objective, abs=1e-9)


def test_ball_label_and_attributes():
    notion = PointwiseMaximalLeakage(L1Ball([0.5, 0.5], 0.25))
    assert notion.label == "pml(l1-ball radius 0.25)"
    assert isinstance(notion.prior_set, L1Ball)
    with pytest.raises(AttributeError, match="ℓ1-ball"):
        notion.source_set
    with pytest.raises(AttributeError, match="ℓ1-ball"):
        notion.prior
    assert isinstance(PointwiseMaximalLeakage([0.5, 0.5]).source_set, SourceSet)


@pytest.mark.parametrize("center", [[0.6, 0.4, 0.0], [0.0, 0.0, 1.0], [0.5, 0.0, 0.3, 0.2]])
@pytest.mark.parametrize("radius", [0.0, 0.1, 0.9, 2.0])
def test_ball_around_a_center_without_full_support(center, radius):
    """Balls around estimates with unseen symbols (P̂(x) = 0): for β > 0 every input is constrained."""
    ball = L1Ball(center, radius)
    notion = PointwiseMaximalLeakage(ball)
    # The identity leaks log 1/P(x) at each charged x; with β > 0 the unseen symbol's column has mass 0 for P̂.
    smallest_charged = min(p for p in center if p > 0)
    assert notion.measure(np.eye(len(center))) == (np.inf if radius > 0 else pytest.approx(-math.log(smallest_charged)))
    matrix = np.full((len(center), 2), 0.5)
    matrix[0] = [0.9, 0.1]
    assert notion.measure(matrix) == pytest.approx(PointwiseMaximalLeakage(ball.to_source_set()).measure(matrix), abs=1e-12)
    assert_constraints_match_measure(notion, matrix)
    assert_round_trip(notion, 0.7, ExpectedDistortion(Prior(center)))


@pytest.mark.parametrize("prior", [None, 0.5, "uniform", {"p": 1.0}, [[0.5, 0.5], [1.0]]])
def test_a_prior_that_is_not_a_distribution_is_named(prior):
    from mechdesign.exceptions import InvalidDistributionError

    with pytest.raises(InvalidDistributionError, match="prior"):
        PointwiseMaximalLeakage(prior)


@pytest.mark.parametrize("cost_kind", ["hamming", "random"])
def test_a_ball_design_is_certified_at_the_priors_of_the_solvers_multipliers(cost_kind):
    """Issue 31 (PML over an ℓ1-ball): the relaxation at each column's minimizing prior of the solver's point took
    a wrong vertex among ties and left the design "suboptimal" (n = 6, Zipf center, β = 0.5, ε = 1, Hamming: gap
    0.033; n = 60: 4.9e-3 relative). At the priors the solver's multipliers imply (pulled into the ball) it
    certifies, and the optimum is the one over the ball's enumerated vertices (Corollary 1)."""
    n = 6
    weights = 1.0 / np.arange(1, n + 1)
    prior = Prior(weights / weights.sum())
    cost = 1.0 - np.eye(n) if cost_kind == "hamming" else np.random.default_rng(3).random((n, n))
    ball = L1Ball(prior.probabilities, 0.5)
    result = design(PointwiseMaximalLeakage(ball), 1.0, ExpectedDistortion(prior, cost))
    assert result.status == "optimal" and result.gap <= 1e-7 * max(1.0, abs(result.objective))
    vertices = design(PointwiseMaximalLeakage(ball.to_source_set()), 1.0, ExpectedDistortion(prior, cost))
    assert result.objective == pytest.approx(vertices.objective, abs=1e-7)


def test_the_multiplier_relaxation_pulls_priors_into_the_ball_and_keeps_the_minimizer_without_multipliers():
    """A multiplier prior outside the ball is moved toward the center until inside (any prior of the ball gives valid
    rows); a column whose multipliers are all zero keeps the ball's minimizer at the point; a finite set has none."""
    ball = L1Ball([0.5, 0.5], 0.2)
    notion = PointwiseMaximalLeakage(ball)
    matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
    multipliers = np.r_[np.zeros(14), 1.0, 0.0, 0.0, 0.0]  # output 0: the point mass on input 0 (outside); output 1: none
    relaxation, _ = notion.multiplier_relaxation([matrix], 0.0, multipliers)
    rows = -relaxation.rows_q.toarray()[-2:]
    first, second = rows[0, [0, 2]], rows[1, [1, 3]]
    assert first.sum() == pytest.approx(1.0) and np.abs(first - 0.5).sum() <= 0.2 and first[0] > 0.5
    np.testing.assert_allclose(second, ball.minimizers(matrix)[:, 1])
    assert PointwiseMaximalLeakage([0.5, 0.5]).multiplier_relaxation([matrix], 0.0, multipliers) is None
