"""Tests of mechdesign.mechanisms.basic."""


import math

import numpy as np
import pytest

from mechdesign import DifferentialPrivacy, MaximalLeakage, randomized_response, uniform_mechanism
from mechdesign.exceptions import InvalidBudgetError, MechDesignError


def test_randomized_response_is_exactly_epsilon_ldp():
    for n, eps in [(2, 0.0), (3, 1.0), (7, 2.5)]:
        mechanism = randomized_response(n, eps)
        assert DifferentialPrivacy().measure(mechanism) == pytest.approx(eps, abs=1e-14)
        assert np.allclose(mechanism.matrix.sum(axis=1), 1.0)


def test_uniform_mechanism_leaks_nothing():
    mechanism = uniform_mechanism(3, 5)
    assert mechanism.shape == (3, 5)
    assert DifferentialPrivacy().measure(mechanism) == 0.0 and MaximalLeakage().measure(mechanism) == 0.0


def test_errors():
    with pytest.raises(InvalidBudgetError):
        randomized_response(3, -1.0)
    with pytest.raises(MechDesignError, match="n must be an integer >= 1, got 0"):
        randomized_response(0, 1.0)
    with pytest.raises(MechDesignError, match="n_outputs must be an integer >= 1, got 0"):
        uniform_mechanism(2, 0)


@pytest.mark.parametrize("epsilon", [0.0, 0.3, 2.0, 30.0])
def test_randomized_response_matches_the_e_epsilon_form(epsilon):
    """``Q[x, x] = e^ε/(e^ε + n − 1)`` (PUT paper, Prop. 8(1)), computed as ``1/(1 + (n − 1) e^{-ε})``."""
    n, boost = 4, math.exp(epsilon)
    matrix = randomized_response(n, epsilon).matrix
    assert np.allclose(np.diag(matrix), boost / (boost + n - 1), rtol=1e-14, atol=0)
    assert np.allclose(matrix[~np.eye(n, dtype=bool)], 1 / (boost + n - 1), rtol=1e-14, atol=0)
    assert DifferentialPrivacy().measure(matrix) == pytest.approx(epsilon, abs=1e-12)


@pytest.mark.parametrize("epsilon", [746.0, 800.0, 1e308])
def test_randomized_response_beyond_the_float_range_of_e_epsilon_is_the_identity(epsilon):
    """``e^ε`` overflows but ``e^{-ε}`` underflows to 0: the limit of RR as ε → ∞ is the identity."""
    assert randomized_response(3, epsilon).matrix.tolist() == np.eye(3).tolist()


def test_randomized_response_just_past_the_overflow_of_e_epsilon():
    """At ε = 709.8, ``e^ε`` overflows while ``Q[x, y] = e^{-ε}/(1 + 2e^{-ε})`` is a subnormal number."""
    matrix = randomized_response(3, 709.8).matrix
    assert matrix[0, 1] == pytest.approx(math.exp(-709.8), rel=1e-6) and matrix[0, 0] == 1.0


def test_huge_alphabets_are_refused_before_allocating():
    from mechdesign.exceptions import ProblemTooLargeError

    with pytest.raises(ProblemTooLargeError, match=r"randomized_response\(1000000, …\) needs an estimated"):
        randomized_response(10**6, 1.0)
    with pytest.raises(ProblemTooLargeError, match=r"uniform_mechanism\(10000000, 10000000\)"):
        uniform_mechanism(10**7)


def test_randomized_response_at_an_infinite_budget_is_the_identity():
    """L1: ``randomized_response(n, inf)`` was refused while 800 nats gave the identity, its limit."""
    assert np.array_equal(randomized_response(3, math.inf).matrix, np.eye(3))
    assert np.array_equal(randomized_response(3, 10**400).matrix, np.eye(3))
