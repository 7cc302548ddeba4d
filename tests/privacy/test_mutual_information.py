"""Tests of mechdesign.privacy.mutual_information (PUT paper Def. 3(7))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import ExpectedDistortion, MutualInformationPrivacy, Prior
from mechdesign.exceptions import ShapeMismatchError

from ..strategies import full_support_priors, stochastic_matrices
from .protocol import (
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)


def binary_entropy(p: float) -> float:
    return -(p * math.log(p) + (1 - p) * math.log(1 - p))


def test_hand_computed_values():
    notion = MutualInformationPrivacy([0.5, 0.5])
    # Binary symmetric channel with crossover 1/4 and uniform input: log 2 − h(1/4).
    assert notion.measure([[0.75, 0.25], [0.25, 0.75]]) == pytest.approx(math.log(2) - binary_entropy(0.25), abs=1e-14)
    assert notion.measure(np.eye(2)) == pytest.approx(math.log(2), abs=1e-14)
    assert MutualInformationPrivacy([0.2, 0.3, 0.5]).measure(np.full((3, 2), 0.5)) == 0.0
    # Z-channel, prior (0.5, 0.5): I = h(P_Y(0)) − 0.5 h(0.5) with P_Y(0) = 0.75.
    z = [[1.0, 0.0], [0.5, 0.5]]
    assert notion.measure(z) == pytest.approx(binary_entropy(0.75) - 0.5 * math.log(2), abs=1e-14)


def test_prior_fixes_the_alphabet():
    with pytest.raises(ShapeMismatchError, match="defined on 2 inputs"):
        MutualInformationPrivacy([0.5, 0.5]).measure(np.eye(3))


@settings(max_examples=15)
@given(st.integers(2, 4).flatmap(lambda n: st.tuples(full_support_priors(n), stochastic_matrices(n_inputs=st.just(n)))))
def test_constraints_match_measure(case):
    prior, matrix = case
    assert_constraints_match_measure(MutualInformationPrivacy(prior), matrix)


@given(st.integers(2, 5).flatmap(lambda n: st.tuples(full_support_priors(n), stochastic_matrices(n_inputs=st.just(n)))), st.data())
def test_post_processing_never_increases(case, data):
    prior, matrix = case
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(MutualInformationPrivacy(prior), matrix, channel)


@settings(max_examples=15)
@given(st.integers(2, 5).flatmap(full_support_priors), st.floats(0.0, 1.5))
def test_round_trip(prior, budget):
    assert_round_trip(MutualInformationPrivacy(prior), budget, ExpectedDistortion(Prior(prior)))


def test_leakage_expression_and_scale_round_trip():
    import cvxpy as cp

    notion = MutualInformationPrivacy([0.3, 0.7])
    matrix = np.array([[0.9, 0.1], [0.2, 0.8]])
    value = notion.leakage_expression(cp.Constant(matrix)).value
    assert notion.budget_from_scaled(value) == pytest.approx(notion.measure(matrix), abs=1e-12)
    assert notion.budget_from_scaled(notion.scaled_budget(0.7)) == 0.7


# --- worst case over a source set (capacity) --------------------------------------------------------

#: Largest accepted excess of the set measure (a dual bound) over the value at the worst prior, nats.
CAPACITY_GAP = 1e-8
BSC = np.array([[0.75, 0.25], [0.25, 0.75]])


def test_capacity_of_the_binary_symmetric_channel():
    """Over every prior, the worst case is the capacity ``log 2 − h(1/4)`` (uniform prior), although
    the extreme points (point masses) leak nothing: the maximum is not at an extreme point."""
    from mechdesign import SourceSet

    capacity = MutualInformationPrivacy(SourceSet.simplex(2))
    assert capacity.measure(BSC) == pytest.approx(math.log(2) - binary_entropy(0.25), abs=1e-9)
    assert MutualInformationPrivacy([1.0, 0.0]).measure(BSC) == 0.0
    # Z-channel capacity: log(1 + 2^{-h(1/2)/(1/2)}) in bits = log(1 + 1/4)·… ; in nats log(5/4).
    z = [[1.0, 0.0], [0.5, 0.5]]
    assert capacity.measure(z) == pytest.approx(math.log(1.25), abs=1e-9)
    assert capacity.label == "mutual_information(source set of 2)"
    with pytest.raises(AttributeError, match="source set of 2"):
        capacity.prior


def source_set_and_matrix():
    return st.integers(2, 4).flatmap(lambda n: st.tuples(
        st.lists(full_support_priors(n), min_size=2, max_size=3), stochastic_matrices(n_inputs=st.just(n))))


@settings(max_examples=20)
@given(source_set_and_matrix())
def test_source_set_measure_is_the_worst_prior_of_the_hull(case):
    import cvxpy as cp
    from scipy.special import rel_entr

    from mechdesign import SourceSet, mutual_information

    from .hull import primal_worst_prior

    priors, matrix = case
    source_set = SourceSet(priors)
    measured = MutualInformationPrivacy(source_set).measure(matrix)
    entropies = -rel_entr(matrix, 1.0).sum(axis=1)
    worst = primal_worst_prior(source_set.extreme_points, lambda p: cp.sum(cp.entr(p @ matrix)) - p @ entropies)
    candidates = [worst, *source_set.extreme_points, *np.random.default_rng(0).dirichlet(
        np.ones(len(source_set)), size=50) @ source_set.extreme_points]
    values = [mutual_information(prior, matrix) for prior in candidates]
    assert max(values) <= measured + 1e-12  # an upper bound on every prior of the hull …
    assert measured - max(values) <= CAPACITY_GAP  # … and attained within the gap


@settings(max_examples=15)
@given(source_set_and_matrix())
def test_source_set_constraints_match_measure(case):
    from mechdesign import SourceSet

    priors, matrix = case
    assert_constraints_match_measure(MutualInformationPrivacy(SourceSet(priors)), matrix)


@settings(max_examples=8)
@given(source_set_and_matrix(), st.floats(0.0, 1.0))
def test_source_set_round_trip(case, budget):
    from mechdesign import SourceSet, WorstCaseDistortion

    source_set = SourceSet(case[0])
    assert_round_trip(MutualInformationPrivacy(source_set), budget, WorstCaseDistortion(source_set))


def test_source_set_leakage_expression_is_the_capacity():
    import cvxpy as cp

    from mechdesign import SourceSet

    notion = MutualInformationPrivacy(SourceSet.simplex(2))
    value = notion.leakage_expression(cp.Constant(BSC)).value
    assert value == pytest.approx(math.log(2) - binary_entropy(0.25), abs=1e-7)
