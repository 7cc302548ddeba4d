"""Tests of mechdesign.privacy.max_information (PUT paper, Definition 3(3): maximal information)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import (
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalInformation,
    PointwiseMaximalLeakage,
    Prior,
    SourceSet,
    WorstCaseDistortion,
)
from mechdesign.exceptions import InvalidDistributionError, ShapeMismatchError

from ..strategies import budgets, full_support_priors, priors_and_matrix, stochastic_matrices
from .protocol import (
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)

BSC = [[0.75, 0.25], [0.25, 0.75]]


def test_hand_computed_values():
    # Uniform prior: E_P Q[:, y] = 1/2 for both outputs, largest entry 3/4.
    assert MaximalInformation([0.5, 0.5]).measure(BSC) == pytest.approx(math.log(1.5), abs=1e-15)
    # Prior (0.8, 0.2): averages (0.65, 0.35); the worst ratio is 0.75 / 0.35.
    assert MaximalInformation([0.8, 0.2]).measure(BSC) == pytest.approx(math.log(0.75 / 0.35), abs=1e-14)
    # A zero average under a used output: no finite budget.
    assert MaximalInformation([1.0, 0.0]).measure([[1.0, 0.0], [0.0, 1.0]]) == math.inf
    assert MaximalInformation(Prior.uniform(3)).measure(np.full((3, 2), 0.5)) == 0.0


def test_numerator_ranges_over_every_input_unlike_pml():
    """Definition 3(3) bounds Q[x, y] for every x ∈ 𝒳; PML only for x in the prior's support."""
    prior = [0.5, 0.5, 0.0]
    matrix = np.array([[0.5, 0.5], [0.5, 0.5], [1.0, 0.0]])
    assert PointwiseMaximalLeakage(prior).measure(matrix) == 0.0
    assert MaximalInformation(prior).measure(matrix) == pytest.approx(math.log(2), abs=1e-15)
    assert_constraints_match_measure(MaximalInformation(prior), matrix)


@given(priors_and_matrix())
def test_equals_pml_for_full_support_priors(case):
    prior, matrix = case
    assert MaximalInformation(prior).measure(matrix) == pytest.approx(
        PointwiseMaximalLeakage(prior).measure(matrix), abs=1e-12)


@given(stochastic_matrices())
def test_over_the_whole_simplex_is_local_dp(matrix):
    """No prior knowledge: the worst prior is a point mass, so ε_MI = max_y log max_x Q / min_x Q."""
    notion = MaximalInformation(SourceSet.simplex(matrix.shape[0]))
    assert notion.measure(matrix) == pytest.approx(DifferentialPrivacy().measure(matrix), abs=1e-12)


@given(priors_and_matrix(st.integers(2, 4), priors=2))
def test_source_set_measure_is_the_worst_extreme_point_and_dominates_the_hull(case):
    """PUT proof of Theorem 6 (1.7): the worst prior of the set; the average is linear in P."""
    first, second, matrix = case
    robust = MaximalInformation(SourceSet([first, second]))
    worst = max(MaximalInformation(first).measure(matrix), MaximalInformation(second).measure(matrix))
    assert robust.measure(matrix) == pytest.approx(worst, abs=1e-12)
    for weight in np.linspace(0, 1, 7):
        assert MaximalInformation(weight * first + (1 - weight) * second).measure(matrix) <= worst + 1e-12


def test_bad_input_is_rejected():
    with pytest.raises(InvalidDistributionError, match="sums to 0.9"):
        MaximalInformation([0.5, 0.4])
    with pytest.raises(ShapeMismatchError, match="defined on 2 inputs"):
        MaximalInformation([0.5, 0.5]).measure(np.eye(3))
    with pytest.raises(AttributeError, match="source set of 2"):
        MaximalInformation(SourceSet.simplex(2)).prior
    assert MaximalInformation([0.5, 0.5]).prior == Prior([0.5, 0.5])


@settings(max_examples=25)
@given(priors_and_matrix())
def test_constraints_match_measure(case):
    prior, matrix = case
    assert_constraints_match_measure(MaximalInformation(prior), matrix)


@settings(max_examples=15)
@given(priors_and_matrix(st.integers(2, 4), priors=2))
def test_source_set_constraints_match_measure(case):
    first, second, matrix = case
    assert_constraints_match_measure(MaximalInformation(SourceSet([first, second])), matrix)


@given(priors_and_matrix(), st.data())
def test_post_processing_never_increases(case, data):
    prior, matrix = case
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(MaximalInformation(prior), matrix, channel)


@settings(max_examples=20)
@given(st.integers(2, 6).flatmap(full_support_priors), budgets)
def test_round_trip(prior, budget):
    assert_round_trip(MaximalInformation(prior), budget, ExpectedDistortion(Prior(prior)))


@settings(max_examples=10)
@given(st.integers(2, 4).flatmap(lambda n: st.tuples(full_support_priors(n), full_support_priors(n))), budgets)
def test_source_set_round_trip(priors, budget):
    source_set = SourceSet(list(priors))
    assert_round_trip(MaximalInformation(source_set), budget, WorstCaseDistortion(source_set))


@pytest.mark.parametrize("source", [None, 0.5, "uniform", 5])
def test_a_source_that_is_not_a_distribution_is_named(source):
    with pytest.raises(InvalidDistributionError, match=f"prior must be a Prior, a probability vector or a SourceSet, got {source!r}"):
        MaximalInformation(source)
