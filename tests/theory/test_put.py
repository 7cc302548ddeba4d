"""Closed forms of the PUT paper (Zhong & Bu) against the optimizer.

Proposition 8(1) (DP) and 8(4) (maximal leakage) for a class-I source set; the uniform prior is the
singleton class-I set. Tolerance: 1e-8 in distortion (HiGHS simplex solutions are vertex-exact to
about 1e-10 on these sizes).
"""

import math

import numpy as np
import pytest

from mechdesign import DifferentialPrivacy, ExpectedDistortion, MaximalLeakage, Prior, design
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.theory import put

CLOSED_FORM_ATOL = 1e-8
ALPHABETS = [2, 3, 5, 8]


def epsilon_grid(m: int) -> list[float]:
    """Budgets including the breakpoint ε = log m of Prop. 8(4) and both sides of it."""
    breakpoint = math.log(m)
    return [0.0, 0.1, 0.5, 1.0, breakpoint - 1e-3, breakpoint, breakpoint + 1e-3, 3.0]


@pytest.mark.parametrize("m", ALPHABETS)
def test_prop8_1_randomized_response_is_optimal(m):
    """PUT Prop. 8(1): D*_DP(ε) = (m−1)/(e^ε + m − 1) at the uniform prior."""
    for eps in epsilon_grid(m):
        result = design(DifferentialPrivacy(), eps, ExpectedDistortion(Prior.uniform(m)))
        assert result.success
        assert result.objective == pytest.approx(put.prop8_distortion_dp(m, eps), abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("m", ALPHABETS)
def test_prop8_4_maximal_leakage(m):
    """PUT Prop. 8(4): D*_ML(ε) = 1 − e^ε/m for e^ε <= m, else 0, at the uniform prior."""
    for eps in epsilon_grid(m):
        result = design(MaximalLeakage(), eps, ExpectedDistortion(Prior.uniform(m)))
        assert result.success
        assert result.objective == pytest.approx(put.prop8_distortion_ml(m, eps), abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("m", ALPHABETS)
def test_prop8_epsilon_forms_invert_the_distortion_forms(m):
    breakpoint = (m - 1) / m
    for D in [0.01, 0.2, breakpoint - 1e-6, breakpoint, breakpoint + 1e-6, 1.0]:
        if D > 1:
            continue
        eps_dp, eps_ml = put.prop8_epsilon_dp(m, D), put.prop8_epsilon_ml(m, D)
        assert put.prop8_distortion_dp(m, eps_dp) == pytest.approx(min(D, breakpoint), abs=1e-12)
        assert put.prop8_distortion_ml(m, eps_ml) == pytest.approx(min(D, breakpoint), abs=1e-12)


def test_domain_errors():
    with pytest.raises(MechDesignError, match="0 < D <= 1"):
        put.prop8_epsilon_dp(3, 0.0)
    with pytest.raises(MechDesignError, match="0 < D <= 1"):
        put.prop8_epsilon_ml(3, 1.5)
    with pytest.raises(MechDesignError, match="at least 2"):
        put.prop8_distortion_dp(1, 1.0)
    with pytest.raises(InvalidBudgetError):
        put.prop8_distortion_ml(3, -0.5)


@pytest.mark.slow
@pytest.mark.parametrize("m", [12, 20, 30])
def test_prop8_1_larger_alphabets(m):
    """PUT Prop. 8(1) on larger alphabets (about 10 s in all; marked slow)."""
    for eps in np.linspace(0, 4, 9):
        result = design(DifferentialPrivacy(), eps, ExpectedDistortion(Prior.uniform(m)))
        assert result.success
        assert result.objective == pytest.approx(put.prop8_distortion_dp(m, eps), abs=CLOSED_FORM_ATOL)
