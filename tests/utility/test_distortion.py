"""Tests of mechdesign.utility.distortion."""

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import (
    ExpectedDistortion,
    Prior,
    SourceSet,
    WorstCaseDistortion,
    WorstCaseInputDistortion,
    hamming_cost,
)
from mechdesign.exceptions import MechDesignError, ShapeMismatchError
from mechdesign.utility.distortion import hamming_scale

from ..strategies import full_support_priors, stochastic_matrices

BSC = np.array([[0.75, 0.25], [0.25, 0.75]])


def test_hamming_cost():
    assert hamming_cost(3).tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    assert hamming_cost(2, 3).tolist() == [[0, 1, 1], [1, 0, 1]]
    with pytest.raises(MechDesignError, match="n_inputs must be an integer >= 1, got 0"):
        hamming_cost(0)


def test_hand_computed_values():
    matrix = np.array([[0.9, 0.1], [0.4, 0.6]])
    assert ExpectedDistortion([0.5, 0.5]).value(matrix) == pytest.approx(0.25, abs=1e-15)
    assert WorstCaseInputDistortion(2).value(matrix) == pytest.approx(0.4, abs=1e-15)
    source_set = SourceSet([[0.5, 0.5], [0.8, 0.2]])
    assert WorstCaseDistortion(source_set).value(matrix) == pytest.approx(0.25, abs=1e-15)  # max(0.25, 0.16)
    cost = [[0.0, 2.0], [3.0, 0.0]]
    assert ExpectedDistortion([0.5, 0.5], cost).value(matrix) == pytest.approx(0.5 * 0.2 + 0.5 * 1.2, abs=1e-15)


@given(st.integers(2, 5).flatmap(lambda n: st.tuples(stochastic_matrices(n_inputs=st.just(n), n_outputs=st.just(n)), full_support_priors(n))))
def test_expressions_equal_values(case):
    matrix, prior = case
    n = matrix.shape[0]
    objectives = [
        ExpectedDistortion(prior),
        WorstCaseDistortion(SourceSet([prior, np.full(n, 1 / n)])),
        WorstCaseInputDistortion(n),
        WorstCaseDistortion(SourceSet.simplex(n)),
    ]
    for objective in objectives:
        assert objective.expression(cp.Constant(matrix)).value == pytest.approx(objective.value(matrix), abs=1e-12)
    # The worst case over the simplex is the worst case over inputs (SML paper, Lemma 1).
    assert objectives[2].value(matrix) == pytest.approx(objectives[3].value(matrix), abs=1e-15)
    assert objectives[0].value(matrix) <= objectives[1].value(matrix) + 1e-15 <= objectives[2].value(matrix) + 2e-15


def test_shape_errors():
    with pytest.raises(ShapeMismatchError, match=r"cost matrix has 3 rows \(one per prior entry\), expected 2"):
        ExpectedDistortion([0.5, 0.5], np.zeros((3, 3)))
    with pytest.raises(ShapeMismatchError, match="applies to 2×2 mechanisms, got 3×3"):
        ExpectedDistortion(Prior.uniform(2)).value(np.eye(3))
    with pytest.raises(MechDesignError, match="negative"):
        WorstCaseInputDistortion([[0.0, -1.0], [1.0, 0.0]])
    with pytest.raises(ShapeMismatchError, match="3 rows"):
        WorstCaseDistortion(SourceSet.simplex(2), np.ones((3, 3)))


def test_hostile_costs_and_sizes_are_named():
    from mechdesign.exceptions import ProblemTooLargeError

    with pytest.raises(ProblemTooLargeError, match=r"hamming_cost\(10000000, 10000000\) needs an estimated"):
        hamming_cost(10**7)
    with pytest.raises(MechDesignError, match="cost must be numeric"):
        ExpectedDistortion([0.5, 0.5], np.array([[0, 1], [1, 0]]) + 1e-3j)
    with pytest.raises(MechDesignError, match="cost must be numeric"):
        WorstCaseInputDistortion([["0", "1"], ["1", "0"]])
@pytest.mark.parametrize("scale", [1.0, 1e-12, 3.5, 1e12])
def test_hamming_scale_detects_scaled_hamming_exactly(scale):
    assert hamming_scale(scale * hamming_cost(4)) == scale
    assert ExpectedDistortion(Prior.uniform(4), scale * hamming_cost(4)).hamming_scale == scale


def test_hamming_scale_rejects_anything_else():
    perturbed = hamming_cost(3)
    perturbed[2, 0] = 1.0 + 1e-15
    diagonal = hamming_cost(3) + 1e-300 * np.eye(3)
    for cost in (perturbed, diagonal, hamming_cost(3, 4), np.zeros((3, 3)), np.zeros((1, 1))):
        assert hamming_scale(cost) is None


def test_default_hamming_cost_is_built_only_when_read():
    # An n × n matrix at n = 10⁵ would be 80 GB: the default cost stays implicit until .cost is read.
    objective = ExpectedDistortion(Prior.uniform(100_000))
    assert objective.shape == (100_000, 100_000) and objective.hamming_scale == 1.0
    small = ExpectedDistortion(Prior.uniform(3))
    assert np.array_equal(small.cost, hamming_cost(3))
