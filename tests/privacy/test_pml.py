"""Tests of mechdesign.privacy.pml (Grosse et al., Definition 1, eq. (1))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import ExpectedDistortion, MaximalLeakage, PointwiseMaximalLeakage, Prior

from ..strategies import budgets, full_support_priors, stochastic_matrices
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


@given(st.integers(2, 5).flatmap(lambda n: st.tuples(full_support_priors(n), stochastic_matrices(n_inputs=st.just(n)))))
def test_maximal_leakage_never_exceeds_pml(case):
    """``Σ_y max_x Q[x,y] = Σ_y P_Y(y) e^{ℓ(X→y)} <= max_y e^{ℓ(X→y)}``: ML is at most the PML measure."""
    prior, matrix = case
    assert MaximalLeakage().measure(matrix) <= PointwiseMaximalLeakage(prior).measure(matrix) + 1e-12


@settings(max_examples=25)
@given(st.integers(2, 5).flatmap(lambda n: st.tuples(full_support_priors(n), stochastic_matrices(n_inputs=st.just(n)))))
def test_constraints_match_measure(case):
    prior, matrix = case
    assert_constraints_match_measure(PointwiseMaximalLeakage(prior), matrix)


@given(st.integers(2, 5).flatmap(lambda n: st.tuples(full_support_priors(n), stochastic_matrices(n_inputs=st.just(n)))), st.data())
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


@given(st.integers(2, 4).flatmap(lambda n: st.tuples(full_support_priors(n), full_support_priors(n),
                                                      stochastic_matrices(n_inputs=st.just(n)))))
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
@given(st.integers(2, 4).flatmap(lambda n: st.tuples(full_support_priors(n), full_support_priors(n),
                                                      stochastic_matrices(n_inputs=st.just(n)))))
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
