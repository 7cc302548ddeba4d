"""Tests of mechdesign.mechanisms.basic."""


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
    with pytest.raises(MechDesignError, match="positive integer"):
        randomized_response(0, 1.0)
    with pytest.raises(MechDesignError, match="positive integer"):
        uniform_mechanism(2, 0)
