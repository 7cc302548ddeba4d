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
