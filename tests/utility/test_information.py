"""Tests of mechdesign.utility.information (mutual information value, expression, objective)."""

import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given

from mechdesign import MutualInformation, design, DifferentialPrivacy, mutual_information
from mechdesign.exceptions import InvalidDistributionError, InvalidMechanismError, ShapeMismatchError
from mechdesign.utility.information import mutual_information_utility

from ..strategies import priors_and_matrix


def test_hand_computed_values():
    assert mutual_information([0.5, 0.5], np.eye(2)) == pytest.approx(math.log(2), abs=1e-15)
    assert mutual_information([0.3, 0.7], np.full((2, 3), 1 / 3)) == 0.0
    # Erasure channel with erasure probability 1/2: I = (1/2) H(X).
    prior = np.array([0.2, 0.8])
    entropy = -(prior * np.log(prior)).sum()
    erasure = [[0.5, 0.0, 0.5], [0.0, 0.5, 0.5]]
    assert mutual_information(prior, erasure) == pytest.approx(0.5 * entropy, abs=1e-14)


@given(priors_and_matrix())
def test_expression_equals_value_and_is_bounded_by_entropy(case):
    prior, matrix = case
    expression = MutualInformation(prior, matrix.shape[1]).expression(cp.Constant(matrix))
    assert expression.value == pytest.approx(mutual_information(prior, matrix), abs=1e-12)
    assert mutual_information(prior, matrix) <= -(prior * np.log(prior)).sum() + 1e-12


def test_minimizing_mutual_information_gives_zero_without_other_constraints():
    result = design(DifferentialPrivacy(), 1.0, MutualInformation([0.2, 0.3, 0.5]))
    assert result.success and result.objective == pytest.approx(0.0, abs=1e-7)


def test_bad_input():
    with pytest.raises(ShapeMismatchError, match="prior has 2 entries, expected 3"):
        mutual_information([0.5, 0.5], np.eye(3))
    with pytest.raises(InvalidMechanismError, match="row 0 sums to 0.9"):
        mutual_information([0.5, 0.5], [[0.5, 0.4], [0.0, 1.0]])
    with pytest.raises(InvalidDistributionError, match="sums to 1.1"):
        mutual_information_utility([0.5, 0.6])


@pytest.mark.parametrize("notion", ["dp", "maximal_leakage", "pml", "max_information"])
def test_maximize_mutual_information_on_one_symbol_is_zero(notion):
    """One input: every mechanism is constant in X, so I(X; Y) = 0 is the optimum (and it is found)."""
    from mechdesign import MaximalInformation, MaximalLeakage, PointwiseMaximalLeakage, maximize_mutual_information

    notions = {"dp": DifferentialPrivacy(), "maximal_leakage": MaximalLeakage(),
               "pml": PointwiseMaximalLeakage([1.0]), "max_information": MaximalInformation([1.0])}
    result = maximize_mutual_information(notions[notion], 1.0, [1.0])
    assert result.success and result.objective == 0.0 and result.mechanism.matrix.tolist() == [[1.0]]


def test_maximize_mutual_information_beyond_the_float_range_is_named():
    from mechdesign import maximize_mutual_information
    from mechdesign.exceptions import InvalidBudgetError

    with pytest.raises(InvalidBudgetError, match="budget 800.0 is too large"):
        maximize_mutual_information(DifferentialPrivacy(), 800.0, [0.5, 0.5])


def test_maximize_mutual_information_where_the_identity_meets_the_budget_is_the_identity():
    """L1: maximal leakage at 800 nats (log 2 suffices for the identity on two symbols) is the identity, whose
    I(X; Y) = H(X) = log 2 is the largest any mechanism reaches; it was refused as beyond the float range."""
    from mechdesign import MaximalLeakage, maximize_mutual_information

    result = maximize_mutual_information(MaximalLeakage(), 800.0, [0.5, 0.5])
    assert result.success and result.mechanism.matrix.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert result.objective == pytest.approx(math.log(2), rel=1e-12)


@pytest.mark.parametrize("n_outputs", [0, -1, 2.5, "x", True, [2]])
def test_output_alphabet_size_must_be_a_positive_integer(n_outputs):
    from mechdesign.exceptions import MechDesignError

    with pytest.raises(MechDesignError, match="n_outputs must be an integer >= 1, got "):
        MutualInformation([0.5, 0.5], n_outputs)
