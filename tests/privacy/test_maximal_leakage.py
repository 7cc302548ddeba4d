"""Tests of mechdesign.privacy.maximal_leakage (PUT paper Def. 3(4))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import ExpectedDistortion, MaximalLeakage, Prior

from ..strategies import budgets, full_support_priors, stochastic_matrices
from .protocol import (
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)


def test_hand_computed_values():
    assert MaximalLeakage().measure([[0.75, 0.25], [0.25, 0.75]]) == pytest.approx(math.log(1.5), abs=1e-15)
    assert MaximalLeakage().measure(np.eye(5)) == pytest.approx(math.log(5), abs=1e-15)
    assert MaximalLeakage().measure(np.full((3, 4), 0.25)) == 0.0


@settings(max_examples=25)
@given(stochastic_matrices())
def test_constraints_match_measure(matrix):
    assert_constraints_match_measure(MaximalLeakage(), matrix)


@given(stochastic_matrices(), st.data())
def test_post_processing_never_increases(matrix, data):
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(MaximalLeakage(), matrix, channel)


@settings(max_examples=20)
@given(st.integers(2, 6).flatmap(full_support_priors), budgets)
def test_round_trip(prior, budget):
    assert_round_trip(MaximalLeakage(), budget, ExpectedDistortion(Prior(prior)))


def test_leakage_expression_and_scale_round_trip():
    import cvxpy as cp

    matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
    notion = MaximalLeakage()
    value = notion.leakage_expression(cp.Constant(matrix)).value
    assert notion.budget_from_scaled(value) == pytest.approx(notion.measure(matrix), abs=1e-15)
    assert notion.budget_from_scaled(notion.scaled_budget(0.7)) == pytest.approx(0.7, abs=1e-15)
