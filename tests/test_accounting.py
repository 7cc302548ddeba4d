"""Tests of mechdesign.accounting: privacy after k uses, exact (repeated-use mechanism) vs rules vs PLD.

Cross-checks where the methods overlap:

* exact measure of ``Q^(k)`` = ``k ε`` for pure DP (Dwork & Roth, The Algorithmic Foundations of
  Differential Privacy, Theorem 3.16) and ``k ε_α`` for Rényi DP (Mironov, Rényi Differential
  Privacy, Proposition 1);
* exact maximal leakage of ``Q^(k)`` <= the rule ``min(k L, log r)``;
* binary randomized response: the exact (ε, δ) curve of ``k`` uses is the hockey-stick divergence of
  two binomial laws (the worst case of Kairouz, Oh & Viswanath, The Composition Theorem for
  Differential Privacy, Theorem 3.3), for any ``k``;
* the PLD accountant (pessimistic rounding to a grid of width ``w``) brackets the exact value:
  ``δ(ε) <= δ_PLD(ε) <= δ(ε − k w)`` and ``ε(δ) <= ε_PLD(δ) <= ε(δ) + k w``;
* at large ``k``, PLD <= the Rényi conversion ``k ε_α + log(1/δ)/(α − 1)`` (Mironov, Proposition 3)
  and <= ``k ε``.
"""

import math
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binom

from mechdesign import DifferentialPrivacy, MaximalLeakage, RenyiDifferentialPrivacy, randomized_response
from mechdesign.accounting import (
    MAX_REPEATED_OUTPUTS,
    delta_after,
    dp_after,
    epsilon_after,
    exact_after,
    maximal_leakage_after,
    renyi_after,
    repeated_use,
)
from mechdesign.exceptions import InvalidBudgetError, MechDesignError, MissingDependencyError, ProblemTooLargeError
from mechdesign.mechanisms import product_mechanism
from mechdesign.privacy.approx_dp import hockey_stick_delta

from .strategies import stochastic_matrices

#: Relative tolerance between two exact computations of the same quantity (round-off only).
EXACT_RTOL = 1e-9
#: Absolute round-off allowed between an exact δ and the PLD's (sums of ~m^k float products).
ROUND_OFF = 1e-12
#: Grid width used for the PLD cross-checks (nats).
GRID = 1e-4



def binary_rr_delta(epsilon0: float, uses: int, epsilon: float) -> float:
    """δ(ε) of ``k`` uses of binary RR: the hockey-stick divergence of Bin(k, p) vs Bin(k, 1 − p)
    (the number of truthful reports is sufficient), p = e^ε0 / (1 + e^ε0)."""
    p = math.exp(epsilon0) / (1 + math.exp(epsilon0))
    j = np.arange(uses + 1)
    upper, lower = binom.pmf(j, uses, p), binom.pmf(j, uses, 1 - p)
    return float(np.maximum(upper - math.exp(epsilon) * lower, 0.0).sum())


def test_repeated_use_is_the_product_mechanism_on_constant_databases():
    # PUT paper §IV-D: Q^{⊗k}((y_1..y_k) | (x_1..x_k)) = Π Q(y_j | x_j); repeated use is the row x..x.
    matrix = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    uses = 3
    diagonal = [x * (9 + 3 + 1) for x in range(3)]  # lexicographic index of the database (x, x, x)
    assert np.allclose(repeated_use(matrix, uses).matrix, product_mechanism(matrix, uses).matrix[diagonal],
                       rtol=0, atol=1e-15)
    assert repeated_use(matrix, 1).allclose(matrix, atol=0)


@given(stochastic_matrices(), st.integers(1, 3))
def test_pure_dp_exact_equals_k_epsilon(matrix, uses):
    exact, rule = exact_after(DifferentialPrivacy(), matrix, uses), dp_after(matrix, uses)
    assert exact == rule if math.isinf(rule) else exact == pytest.approx(rule, rel=EXACT_RTOL)


@given(stochastic_matrices(allow_zeros=False), st.integers(1, 3), st.sampled_from([1.5, 2.0, 5.0]))
def test_renyi_exact_equals_k_epsilon_alpha(matrix, uses, alpha):
    exact = exact_after(RenyiDifferentialPrivacy(alpha), matrix, uses)
    assert exact == pytest.approx(renyi_after(matrix, uses, alpha), rel=EXACT_RTOL, abs=1e-12)


@given(stochastic_matrices(), st.integers(1, 3))
def test_maximal_leakage_exact_within_rule(matrix, uses):
    exact = exact_after(MaximalLeakage(), matrix, uses)
    assert MaximalLeakage().measure(matrix) - ROUND_OFF <= exact <= maximal_leakage_after(matrix, uses) + ROUND_OFF


def test_maximal_leakage_tends_to_log_distinct_rows():
    # Σ_{y^k} max_x Q^(k)[x, y^k] grows to the number of distinct rows (2 here): the rule's cap.
    channel = np.array([[0.75, 0.25], [0.25, 0.75]])
    values = [exact_after(MaximalLeakage(), channel, k) for k in range(1, 14)]
    assert all(a <= b + ROUND_OFF for a, b in zip(values, values[1:]))
    assert math.log(2) - 0.05 < values[-1] <= math.log(2) + ROUND_OFF
    assert maximal_leakage_after(channel, 13) == pytest.approx(math.log(2), rel=EXACT_RTOL)


@pytest.mark.parametrize("uses", [1, 2, 5, 10])
def test_binary_rr_exact_delta_matches_binomial_closed_form(uses):
    rr = randomized_response(2, 0.7)
    for epsilon in [0.0, 0.35, 1.0, 2.5, 0.7 * uses]:
        assert delta_after(rr, uses, epsilon, method="exact") == pytest.approx(
            binary_rr_delta(0.7, uses, epsilon), abs=ROUND_OFF)


def test_pld_brackets_binary_rr_at_many_uses():
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    epsilon0, uses = 0.123456789, 300  # off the grid, so rounding matters
    rr = randomized_response(2, epsilon0)
    for epsilon in [1.0, 2.0, 4.0]:
        pld = delta_after(rr, uses, epsilon, method="pld", discretization=GRID)
        assert binary_rr_delta(epsilon0, uses, epsilon) - ROUND_OFF <= pld
        assert pld <= binary_rr_delta(epsilon0, uses, epsilon - uses * GRID) + ROUND_OFF


def test_auto_uses_pld_beyond_the_exact_size():
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    uses = 20
    assert 2**uses > MAX_REPEATED_OUTPUTS
    rr = randomized_response(2, 0.5)
    auto = delta_after(rr, uses, 3.0)
    assert binary_rr_delta(0.5, uses, 3.0) - ROUND_OFF <= auto <= binary_rr_delta(0.5, uses, 3.0 - uses * GRID) + ROUND_OFF
    with pytest.raises(ProblemTooLargeError, match="1048576 joint outputs"):
        delta_after(rr, uses, 3.0, method="exact")


@given(stochastic_matrices(n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 3), allow_zeros=False),
       st.integers(1, 3), st.floats(0.01, 0.3))
def test_pld_brackets_exact_on_random_mechanisms(matrix, uses, delta):
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    exact = epsilon_after(matrix, uses, delta, method="exact")
    pld = epsilon_after(matrix, uses, delta, method="pld", discretization=GRID)
    assert exact - ROUND_OFF <= pld <= exact + uses * GRID + ROUND_OFF
    level = exact / 2
    exact_delta = delta_after(matrix, uses, level, method="exact")
    pld_delta = delta_after(matrix, uses, level, method="pld", discretization=GRID)
    assert exact_delta - ROUND_OFF <= pld_delta <= hockey_stick_delta_at(matrix, uses, level - uses * GRID) + ROUND_OFF


def hockey_stick_delta_at(matrix, uses, epsilon):
    """The exact δ of ``k`` uses at any real ε (also ε < 0, which delta_after rejects as a budget)."""
    rows = repeated_use(matrix, uses).matrix
    return max(hockey_stick_delta(p, q, epsilon) for i, p in enumerate(rows) for j, q in enumerate(rows) if i != j)


def test_pld_at_large_k_below_renyi_conversion_and_pure_dp():
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    matrix = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])
    uses, delta, grid = 500, 1e-6, 1e-3
    pld = epsilon_after(matrix, uses, delta, discretization=grid)
    renyi = min(renyi_after(matrix, uses, alpha) + math.log(1 / delta) / (alpha - 1) for alpha in [2, 4, 8, 16, 32])
    assert pld <= renyi
    assert pld <= dp_after(matrix, uses)
    assert pld > 0.1 * renyi  # not vacuous


def test_errors_are_named():
    rr = randomized_response(3, 1.0)
    with pytest.raises(MechDesignError, match="uses must be an integer >= 1 and <= 9223372036854775807, got 0"):
        dp_after(rr, 0)
    with pytest.raises(MechDesignError, match="uses must be an integer >= 1 and <= 9223372036854775807, got -2"):
        delta_after(rr, -2, 1.0)
    with pytest.raises(InvalidBudgetError, match="delta must satisfy"):
        epsilon_after(rr, 2, 1.0)
    with pytest.raises(MechDesignError, match=r"method must be one of \('auto', 'exact', 'pld'\), got 'moments'"):
        epsilon_after(rr, 2, 0.1, method="moments")
    with pytest.raises(MechDesignError, match="discretization must be > 0, got 0.0"):
        epsilon_after(rr, 2, 0.1, method="pld", discretization=0.0)
    with pytest.raises(ProblemTooLargeError):
        repeated_use(rr, 20)


def test_missing_dp_accounting_is_a_named_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "dp_accounting.pld", None)
    with pytest.raises(MissingDependencyError, match=r"mechdesign\[accounting\]"):
        epsilon_after(randomized_response(2, 1.0), 3, 0.1, method="pld")
