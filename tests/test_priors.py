"""Tests of mechdesign.priors: Prior, SourceSet, and the ℓ1-ball of priors and the empirical estimate
(Grosse et al., "Privacy Mechanism Design based on Empirical Distributions", eqs. (3), (5), (7))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from mechdesign import Prior, SourceSet
from mechdesign.exceptions import (
    InvalidBudgetError,
    InvalidDistributionError,
    MechDesignError,
    ProblemTooLargeError,
    ShapeMismatchError,
)
from mechdesign.priors import (
    L1Ball,
    as_prior,
    as_prior_set,
    as_source_set,
    empirical_estimate,
    l1_radius,
    log_subsets,
)

from .strategies import full_support_priors


def test_prior_validation_and_uniform():
    assert np.allclose(Prior.uniform(4).probabilities, 0.25)
    with pytest.raises(InvalidDistributionError, match="sums to 0.9"):
        Prior([0.5, 0.4])
    assert not Prior([1.0, 0.0]).has_full_support


def test_as_prior_checks_size_and_support():
    with pytest.raises(ShapeMismatchError, match="2 entries, expected 3"):
        as_prior([0.5, 0.5], 3)
    with pytest.raises(InvalidDistributionError, match="prior must have full support, but entry 1 is 0"):
        as_prior([1.0, 0.0], full_support=True)


def test_source_set_deduplicates_keeping_order():
    S = SourceSet([[0.5, 0.5], [0.9, 0.1], [0.5, 0.5]])
    assert len(S) == 2 and S.extreme_points.tolist() == [[0.5, 0.5], [0.9, 0.1]]
    assert not S.is_simplex
    assert [p.probabilities.tolist() for p in S] == [[0.5, 0.5], [0.9, 0.1]]


def test_simplex_and_singleton():
    assert SourceSet.simplex(3).is_simplex
    assert SourceSet([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0.2, 0.3, 0.5]]).is_simplex
    assert len(SourceSet.singleton([0.3, 0.7])) == 1
    assert len(as_source_set(Prior([0.3, 0.7]))) == 1


def test_source_set_errors():
    with pytest.raises(InvalidDistributionError, match="extreme_points is empty"):
        SourceSet([])
    with pytest.raises(ShapeMismatchError, match=r"extreme_points\[1\] has 3 entries, expected 2"):
        SourceSet([[0.5, 0.5], [0.2, 0.3, 0.5]])
    with pytest.raises(InvalidDistributionError, match=r"extreme_points\[1\] sums to 1.1"):
        SourceSet([[0.5, 0.5], [0.6, 0.5]])
    with pytest.raises(ShapeMismatchError, match="source set has 2 symbols, expected 3"):
        as_source_set([[0.5, 0.5]], 3)


# --- the ℓ1-ball of priors and the empirical estimate (Grosse et al.) ---------------------------------

#: Agreement of the greedy closed form with HiGHS's LP optimum (both are vertex-exact).
LP_ATOL = 1e-9
EXACT_ATOL = 1e-12


@st.composite
def centers(draw, size):
    """Priors on ``size`` symbols, sometimes with an exact zero entry."""
    prior = draw(full_support_priors(size))
    if draw(st.booleans()):
        prior[draw(st.integers(0, size - 1))] = 0.0
        prior = prior / prior.sum()
    return prior


balls = st.integers(2, 5).flatmap(lambda n: st.tuples(centers(n), st.floats(0.0, 2.5)))


def lp_minimum(center: np.ndarray, radius: float, values: np.ndarray) -> float:
    """``min P·v`` over ``{P >= 0, ΣP = 1, ‖P − P̂‖₁ <= β}`` by scipy's LP (variables P and d >= |P − P̂|)."""
    n = center.size
    eye, zeros = np.eye(n), np.zeros((1, n))
    A_ub = np.block([[eye, -eye], [-eye, -eye], [zeros, np.ones((1, n))]])
    b_ub = np.concatenate([center, -center, [radius]])
    A_eq = np.concatenate([np.ones(n), np.zeros(n)])[None, :]
    result = linprog(np.concatenate([values, np.zeros(n)]), A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0],
                     bounds=[(0, None)] * n + [(None, None)] * n, method="highs")
    assert result.status == 0
    return float(result.fun)


@settings(max_examples=60)
@given(balls, st.data())
def test_greedy_minimum_matches_the_linear_program(ball, data):
    """The greedy transport (move min(β/2, 1) from the largest v to the smallest) is the LP optimum,
    also for balls leaving the simplex (β >= 2 min P̂) and for ties in v."""
    center, radius = ball
    values = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 1.0]) | st.floats(0, 1),
                                         min_size=center.size, max_size=center.size)))
    B = L1Ball(center, radius)
    assert B.min_expectation(values) == pytest.approx(lp_minimum(center, radius, values), abs=LP_ATOL)
    minimizer = B.minimizer(values)
    assert B.contains(minimizer)
    assert minimizer.probabilities @ values == pytest.approx(B.min_expectation(values), abs=EXACT_ATOL)


@settings(max_examples=40)
@given(balls, st.data())
def test_extreme_points_give_the_same_minimum(ball, data):
    """Grosse et al., Corollary 1: a linear function's minimum over the ball is at a vertex."""
    center, radius = ball
    B = L1Ball(center, radius)
    matrix = np.array(data.draw(st.lists(st.lists(st.floats(0, 1), min_size=3, max_size=3),
                                         min_size=center.size, max_size=center.size)))
    points = B.extreme_points()
    assert all(B.contains(point, atol=1e-12) for point in points)
    assert np.allclose((points @ matrix).min(axis=0), B.min_expectation(matrix), atol=EXACT_ATOL, rtol=0)


def test_hand_computed_ball():
    B = L1Ball([0.5, 0.3, 0.2], 0.2)
    # v = (1, 0.5, 0): move 0.1 from input 0 to input 2: 0.4*1 + 0.3*0.5 = 0.55.
    assert B.min_expectation([1.0, 0.5, 0.0]) == pytest.approx(0.55, abs=EXACT_ATOL)
    # Radius 1.8 leaves the simplex: s = 0.9 empties inputs 0 (0.5) and 1 (0.3) and 0.1 of input 2... onto input 2.
    wide = L1Ball([0.5, 0.3, 0.2], 1.8)
    assert wide.min_expectation([1.0, 0.5, 0.0]) == pytest.approx(0.0, abs=EXACT_ATOL)
    assert wide.minimizer([1.0, 0.5, 0.0]).probabilities.tolist() == [0.0, 0.0, 1.0]
    assert wide.covers_simplex and not B.covers_simplex
    assert L1Ball([0.5, 0.3, 0.2], 0.0).support.tolist() == [0, 1, 2]
    assert L1Ball([0.5, 0.5, 0.0], 0.0).support.tolist() == [0, 1]
    assert L1Ball([0.5, 0.5, 0.0], 0.1).support.tolist() == [0, 1, 2]


def test_ball_covering_the_simplex_has_every_point_mass_as_vertex():
    B = L1Ball([0.25, 0.25, 0.5], 1.5)  # 2(1 − min P̂) = 1.5
    assert B.covers_simplex
    assert SourceSet(B.extreme_points()).is_simplex


def test_radius_zero_is_the_center():
    B = L1Ball([0.6, 0.4], 0.0)
    assert B.extreme_points().tolist() == [[0.6, 0.4]]
    assert B.min_expectation(np.array([[1.0, 0.0], [0.0, 1.0]])).tolist() == pytest.approx([0.6, 0.4])


def test_ball_errors():
    with pytest.raises(InvalidBudgetError, match="radius beta must be a finite number >= 0, got -0.1"):
        L1Ball([0.5, 0.5], -0.1)
    with pytest.raises(InvalidBudgetError, match="NaN"):
        L1Ball([0.5, 0.5], float("nan"))
    with pytest.raises(InvalidBudgetError, match="inf"):
        L1Ball([0.5, 0.5], math.inf)
    with pytest.raises(MechDesignError, match="sums to 0.9"):
        L1Ball([0.5, 0.4], 0.1)
    with pytest.raises(ProblemTooLargeError, match="13 symbols"):
        L1Ball(Prior.uniform(13), 0.1).extreme_points()
    with pytest.raises(ShapeMismatchError, match="ℓ1-ball has 2 symbols, expected 3"):
        as_prior_set(L1Ball([0.5, 0.5], 0.1), 3)
    assert isinstance(as_prior_set([0.5, 0.5]), SourceSet)


# --- empirical estimate (eq. (3)) and radius (eq. (7)) ---------------------------------------------


def test_empirical_estimate_counts_frequencies():
    assert empirical_estimate([0, 1, 1, 2, 1, 0], 4).probabilities.tolist() == pytest.approx([2 / 6, 3 / 6, 1 / 6, 0])
    assert empirical_estimate(np.array([1.0, 0.0]), 2).probabilities.tolist() == [0.5, 0.5]


@pytest.mark.parametrize("samples, match", [
    ([0, 1, 3], r"samples\[2\] must be an integer in 0..2, got 3 \(1 bad of 3\)"),
    ([0, -1], r"samples\[1\] must be an integer in 0..2, got -1"),
    ([0, 1.5], r"samples\[1\] must be an integer in 0..2, got 1.5"),
    ([0, float("nan")], r"samples\[1\] must be an integer in 0..2, got nan"),
    ([], r"samples must be a non-empty 1-D sequence of indices, got shape \(0,\)"),
    ([[0, 1]], r"samples must be a non-empty 1-D sequence of indices, got shape \(1, 2\)"),
    (["a", "b"], "samples must hold integer indices, got dtype <U1"),
    ([True, False], "samples must hold integer indices, got dtype bool"),
])
def test_samples_outside_the_alphabet_are_errors(samples, match):
    with pytest.raises(MechDesignError, match=match):
        empirical_estimate(samples, 3)


def test_radius_eq7_and_the_binary_case_eq14():
    """eq. (7) with the square root over both factors; for N = 2 it is eq. (14)."""
    m, delta = 1000, 1e-6
    assert l1_radius(delta, m, 5) == pytest.approx(math.sqrt(2 / m * (math.log(2**5 - 2) - math.log(delta))), rel=1e-14)
    assert l1_radius(delta, m, 2) == pytest.approx(math.sqrt(2 * (math.log(2) - math.log(delta)) / m), rel=1e-14)
    # A known φ(κ) > 2 shrinks the radius by sqrt(2 / φ).
    assert l1_radius(delta, m, 5, phi=8.0) == pytest.approx(l1_radius(delta, m, 5) / 2, rel=1e-14)
    assert log_subsets(2000) == pytest.approx(2000 * math.log(2), rel=1e-15)


@pytest.mark.parametrize("delta", [0.0, 1.0, -0.5, 2.0, float("nan")])
def test_radius_rejects_delta_outside_the_open_unit_interval(delta):
    with pytest.raises(InvalidBudgetError, match="delta"):
        l1_radius(delta, 100, 3)


def test_radius_errors():
    with pytest.raises(MechDesignError, match="size must be an integer >= 2, got 1"):
        l1_radius(0.1, 100, 1)
    with pytest.raises(MechDesignError, match="n_samples must be an integer >= 1, got 0"):
        l1_radius(0.1, 0, 3)
    with pytest.raises(MechDesignError, match="phi must be a finite number >= 2, got 1.5"):
        l1_radius(0.1, 100, 3, phi=1.5)
    with pytest.raises(MechDesignError, match="phi must be finite, got inf"):
        l1_radius(0.1, 100, 3, phi=math.inf)
    with pytest.raises(MechDesignError, match="phi must be a number"):
        l1_radius(0.1, 100, 3, phi=True)


def test_ball_from_samples():
    samples = [0] * 60 + [1] * 40
    B = L1Ball.from_samples(samples, 2, 0.01)
    assert B.center.probabilities.tolist() == [0.6, 0.4]
    assert B.radius == pytest.approx(l1_radius(0.01, 100, 2), rel=1e-15)


def test_hostile_priors_and_sizes_are_named():
    from mechdesign import ProblemTooLargeError, empirical_estimate

    with pytest.raises(ProblemTooLargeError, match=r"Prior.uniform\(1000000000000\) needs an estimated"):
        Prior.uniform(10**12)
    with pytest.raises(ProblemTooLargeError, match=r"SourceSet.simplex\(1000000\) needs an estimated"):
        SourceSet.simplex(10**6)
    with pytest.raises(ProblemTooLargeError, match=r"empirical_estimate\(samples, 1000000000000\)"):
        empirical_estimate([0, 1], 10**12)
    with pytest.raises(InvalidDistributionError, match="extreme_points must be a non-empty sequence, got 5"):
        SourceSet(5)
    with pytest.raises(InvalidDistributionError, match="extreme_points must be a non-empty sequence, got 'ab'"):
        SourceSet("ab")
    with pytest.raises(InvalidDistributionError, match="prior must be numeric"):
        Prior([0.5 + 0j, 0.5])
    with pytest.raises(InvalidDistributionError, match="prior must be a Prior, a probability vector or a SourceSet, got None"):
        as_source_set(None)
