"""Tests of mechdesign._numeric: ``e^ε`` of a budget never raises."""

import math

import pytest

from mechdesign._numeric import exp_budget


@pytest.mark.parametrize("exponent", [-800.0, -1.0, 0.0, 1.0, 709.0])
def test_exp_budget_is_exp_within_the_float_range(exponent):
    assert exp_budget(exponent) == math.exp(exponent)


@pytest.mark.parametrize("exponent", [709.79, 800.0, 1e308, math.inf])
def test_exp_budget_is_infinite_beyond_it(exponent):
    assert exp_budget(exponent) == math.inf
