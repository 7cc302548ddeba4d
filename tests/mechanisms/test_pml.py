"""Tests of mechdesign.mechanisms.pml (Grosse et al., Example 2 and Theorem 5).

Optimality of both constructions is tested against the exact LP in tests/designers/test_extreme_columns.py.
"""

import math

import numpy as np
import pytest

from mechdesign import PointwiseMaximalLeakage
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.mechanisms.pml import binary_robust_pml_mechanism, k_singular_mechanism


@pytest.mark.parametrize("n, k", [(1, 1), (5, 1), (5, 5), (10, 2), (7, 3)])
def test_k_singular_is_doubly_stochastic_with_entries_zero_or_one_over_k(n, k):
    matrix = k_singular_mechanism(n, k).matrix
    assert np.allclose(matrix.sum(axis=0), 1.0) and np.allclose(matrix.sum(axis=1), 1.0)
    assert set(np.unique(matrix)) <= {0.0, 1.0 / k}
    assert PointwiseMaximalLeakage(np.full(n, 1 / n)).measure(matrix) == pytest.approx(math.log(n / k), abs=1e-12)


def test_binary_robust_mechanism_hand_computed():
    # p1 = 0.6, β = 0.2, ε = log 2: 1/(1 + 0.4) [[2·0.5, 1 − 2·0.3], [1 − 2·0.5, 2·0.7]]
    matrix = binary_robust_pml_mechanism([0.6, 0.4], 0.2, math.log(2)).matrix
    assert np.allclose(matrix, np.array([[1.0, 0.4], [0.0, 1.4]]) / 1.4, atol=1e-15)


def test_rejects_out_of_domain_parameters():
    with pytest.raises(MechDesignError, match="k must be at most"):
        k_singular_mechanism(3, 4)
    with pytest.raises(MechDesignError, match="p1 >= p2"):
        binary_robust_pml_mechanism([0.4, 0.6], 0.1, 0.1)
    with pytest.raises(InvalidBudgetError, match="radius must be below"):
        binary_robust_pml_mechanism([0.6, 0.4], 0.8, 0.1)
    with pytest.raises(InvalidBudgetError, match="epsilon must be at most"):
        binary_robust_pml_mechanism([0.6, 0.4], 0.2, 1.0)


def test_k_singular_mechanism_refuses_a_huge_alphabet_before_allocating():
    from mechdesign.exceptions import ProblemTooLargeError

    with pytest.raises(ProblemTooLargeError, match=r"k_singular_mechanism\(10000000, 1\)"):
        k_singular_mechanism(10**7, 1)
