"""Every validator's error path names the offending value (DESIGN.md, error rules)."""

import math

import numpy as np
import pytest

from mechdesign import _validate as v
from mechdesign.exceptions import (
    InvalidBudgetError,
    InvalidDistributionError,
    InvalidMechanismError,
    MechDesignError,
    ShapeMismatchError,
)


def test_probability_vector_accepts_and_copies():
    values = [0.25, 0.75]
    vector = v.as_probability_vector(values)
    assert vector.tolist() == values


@pytest.mark.parametrize(
    "values, match",
    [
        ([0.5, 0.6], "sums to 1.1"),
        ([0.5, float("nan")], "non-finite"),
        ([1.5, -0.5], "negative entry -0.5"),
        ([], "empty"),
        ([[0.5, 0.5]], "1-D"),
        (["a", "b"], "numeric"),
    ],
)
def test_probability_vector_errors(values, match):
    with pytest.raises(InvalidDistributionError, match=match):
        v.as_probability_vector(values)


def test_probability_vector_size_and_support():
    with pytest.raises(ShapeMismatchError, match="3 entries, expected 2"):
        v.as_probability_vector([0.2, 0.3, 0.5], size=2)
    with pytest.raises(InvalidDistributionError, match="full support.*entry 1"):
        v.as_probability_vector([1.0, 0.0], full_support=True)


def test_round_off_negatives_are_zeroed_not_rejected():
    vector = v.as_probability_vector([1.0 + 1e-13, -1e-13])
    assert vector[1] == 0.0


@pytest.mark.parametrize(
    "matrix, match",
    [
        ([[0.5, 0.5], [0.3, 0.6]], "row 1 sums to 0.9"),
        ([[0.5, 0.5], [1.2, -0.2]], r"negative entry -0.2 at index \(1, 1\)"),
        ([[np.nan, 1.0]], "non-finite"),
        ([[np.inf, 1.0]], "non-finite"),
        ([0.5, 0.5], "2-D"),
    ],
)
def test_stochastic_matrix_errors(matrix, match):
    with pytest.raises(InvalidMechanismError, match=match):
        v.as_stochastic_matrix(matrix)


@pytest.mark.parametrize("value", [-0.1, math.inf, math.nan, "x", True])
def test_budget_errors(value):
    with pytest.raises(InvalidBudgetError):
        v.as_budget(value)


def test_budget_error_names_the_budget():
    with pytest.raises(InvalidBudgetError, match="epsilon must be a finite number >= 0, got -1.0"):
        v.as_budget(-1)


def test_budget_or_infinity_accepts_infinity():
    assert v.as_budget_or_infinity(math.inf) == math.inf and v.as_budget_or_infinity(0) == 0.0


@pytest.mark.parametrize("value, match", [(-1.0, "got -1.0"), (-math.inf, "got -inf"), (math.nan, "NaN"), ("x", "number")])
def test_budget_or_infinity_errors(value, match):
    with pytest.raises(InvalidBudgetError, match=match):
        v.as_budget_or_infinity(value, "epsilon")


@pytest.mark.parametrize("value", [-0.01, 1.0, 1.5, math.nan])
def test_delta_errors(value):
    with pytest.raises(InvalidBudgetError, match="delta"):
        v.as_delta(value)


def test_delta_accepts_zero():
    assert v.as_delta(0) == 0.0


@pytest.mark.parametrize("value", [1.0, 0.5, -2, math.inf])
def test_order_errors(value):
    with pytest.raises(InvalidBudgetError, match="alpha must be a finite number > 1"):
        v.as_order(value)


def test_cost_matrix_errors():
    with pytest.raises(MechDesignError, match="negative entry"):
        v.as_cost_matrix([[0, -1], [1, 0]])
    with pytest.raises(ShapeMismatchError, match=r"shape \(2, 2\), expected \(3, 3\)"):
        v.as_cost_matrix(np.zeros((2, 2)), shape=(3, 3))


def test_positive_int_errors():
    for value in (0, -3, 2.5, True, "4"):
        with pytest.raises(MechDesignError, match="positive integer"):
            v.as_positive_int(value, "n")


def test_neighbour_pairs():
    pairs = v.as_neighbour_pairs([(1, 0), (0, 1), (2, 1)], 3)
    assert pairs.tolist() == [[0, 1], [1, 2]]
    adjacency = np.zeros((3, 3), dtype=bool)
    adjacency[0, 2] = True
    assert v.as_neighbour_pairs(adjacency, 3).tolist() == [[0, 2]]
    with pytest.raises(MechDesignError, match="itself"):
        v.as_neighbour_pairs([(1, 1)], 3)
    with pytest.raises(MechDesignError, match=r"\[0, 2\]"):
        v.as_neighbour_pairs([(0, 3)], 3)
    with pytest.raises(MechDesignError, match="empty"):
        v.as_neighbour_pairs([], 3)
