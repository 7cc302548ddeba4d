"""Tests of mechdesign.utility.information (mutual information value, expression, objective)."""

import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import MutualInformation, design, DifferentialPrivacy, mutual_information

from ..strategies import full_support_priors, stochastic_matrices


def test_hand_computed_values():
    assert mutual_information([0.5, 0.5], np.eye(2)) == pytest.approx(math.log(2), abs=1e-15)
    assert mutual_information([0.3, 0.7], np.full((2, 3), 1 / 3)) == 0.0
    # Erasure channel with erasure probability 1/2: I = (1/2) H(X).
    prior = np.array([0.2, 0.8])
    entropy = -(prior * np.log(prior)).sum()
    erasure = [[0.5, 0.0, 0.5], [0.0, 0.5, 0.5]]
    assert mutual_information(prior, erasure) == pytest.approx(0.5 * entropy, abs=1e-14)


@given(st.integers(2, 5).flatmap(lambda n: st.tuples(full_support_priors(n), stochastic_matrices(n_inputs=st.just(n)))))
def test_expression_equals_value_and_is_bounded_by_entropy(case):
    prior, matrix = case
    expression = MutualInformation(prior, matrix.shape[1]).expression(cp.Constant(matrix))
    assert expression.value == pytest.approx(mutual_information(prior, matrix), abs=1e-12)
    assert mutual_information(prior, matrix) <= -(prior * np.log(prior)).sum() + 1e-12


def test_minimizing_mutual_information_gives_zero_without_other_constraints():
    result = design(DifferentialPrivacy(), 1.0, MutualInformation([0.2, 0.3, 0.5]))
    assert result.success and result.objective == pytest.approx(0.0, abs=1e-7)
