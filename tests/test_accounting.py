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

import functools
import itertools
import json
import math
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binom

from mechdesign import DifferentialPrivacy, MaximalLeakage, RenyiDifferentialPrivacy, randomized_response
from mechdesign import accounting
from mechdesign.accounting import (
    DEFAULT_DISCRETIZATION,
    MAX_REPEATED_OUTPUTS,
    MAX_USES,
    METHODS,
    Ledger,
    account,
    delta_after,
    dp_after,
    epsilon_after,
    epsilon_delta_curve,
    exact_after,
    maximal_leakage_after,
    plot_privacy_curves,
    privacy_loss_distribution,
    renyi_after,
    renyi_curve,
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


# ------------------------------------------------------------------------------ closed forms for the checks


def binary_rr_epsilon_bracket(epsilon0: float, uses: int, delta: float, epsilon: float) -> tuple[float, float]:
    """Exact δ of ``k`` uses of binary RR at ``epsilon`` and just below it, for any ``k``: the privacy loss
    is ``(2J − k) ε0`` with ``J ~ Bin(k, p)`` truthful reports, summed over the ``10 √k`` (more than 20
    standard deviations) values of ``J`` above the level (the mass beyond is far below 1e-50)."""
    p = 1 / (1 + math.exp(-epsilon0))

    def delta_at(level: float) -> float:
        first = math.floor((uses + level / epsilon0) / 2) + 1  # the first J whose loss exceeds the level
        last = min(uses, first + int(10 * math.sqrt(uses)) + 100)
        truthful = np.arange(first, last + 1, dtype=float)
        losses = (2 * truthful - uses) * epsilon0
        return float(np.sum(np.exp(binom.logpmf(truthful, uses, p)) * -np.expm1(level - losses)))

    return delta_at(epsilon), delta_at(epsilon * (1 - 1e-4))


def kary_rr_delta(n: int, epsilon0: float, uses: int, epsilon: float) -> float:
    """δ(ε) of ``k`` uses of ``n``-ary randomized response: every pair of inputs is alike, and its privacy
    loss is +ε0, −ε0 or 0 with probabilities e^ε0/s, 1/s, (n − 2)/s (s = e^ε0 + n − 1): a multinomial sum."""
    total = math.exp(epsilon0) + n - 1
    up, down, zero = math.exp(epsilon0) / total, 1 / total, (n - 2) / total
    delta = 0.0
    for a in range(uses + 1):
        for b in range(uses + 1 - a):
            loss = (a - b) * epsilon0
            if loss > epsilon:
                ways = math.comb(uses, a) * math.comb(uses - a, b)
                delta += ways * up**a * down**b * zero ** (uses - a - b) * -math.expm1(epsilon - loss)
    return delta


def joint_delta_brute_force(matrices, uses, epsilon):
    """δ(ε) of a ledger by brute force: every pair of records of the product of the repeated-use mechanisms."""
    parts = [repeated_use(matrix, k).matrix for matrix, k in zip(matrices, uses)]
    records = list(itertools.product(*[range(part.shape[0]) for part in parts]))
    best = 0.0
    for first in records:
        for second in records:
            if first != second:
                upper = functools.reduce(np.multiply.outer, [part[x] for part, x in zip(parts, first)]).ravel()
                lower = functools.reduce(np.multiply.outer, [part[x] for part, x in zip(parts, second)]).ravel()
                best = max(best, hockey_stick_delta(upper, lower, epsilon))
    return best


# --------------------------------------------------------------------------------- defects of issue 30


def test_m5_huge_use_counts_answer_or_are_named():
    """M5: dp_after(rr, 10**400) raised OverflowError and epsilon_after(rr, 10**5, 1e-6, method="exact") a
    ValueError (Python's int string limit); now a named error, decided before any work."""
    rr = randomized_response(2, 1.0)
    with pytest.raises(MechDesignError, match="uses must be an integer >= 1 and <= 9223372036854775807"):
        dp_after(rr, 10**400)
    with pytest.raises(ProblemTooLargeError, match=r"2\^100000 joint outputs"):
        epsilon_after(rr, 10**5, 1e-6, method="exact")
    assert dp_after(rr, MAX_USES) == pytest.approx(float(MAX_USES), rel=EXACT_RTOL)


def test_m5_a_million_uses_is_a_tight_upper_bound():
    """M5: epsilon_after(rr, 10**6, 1e-6) allocated 24–29 GiB (numpy MemoryError); now the PLD composes by
    repeated squaring on at most MAX_PLD_POINTS points: at the ε returned the exact δ is within the
    target, and 1e-4 below that ε it is not (the bound is tight)."""
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    epsilon = epsilon_after(randomized_response(2, 1.0), 10**6, 1e-6)
    at, below = binary_rr_epsilon_bracket(1.0, 10**6, 1e-6, epsilon)
    assert at <= 1e-6 < below


@pytest.mark.slow
def test_m5_a_trillion_uses_returns_a_tight_upper_bound():
    """M5: epsilon_after(rr, 10**12, 1e-6) never returned; now O(log k) squarings (about a second)."""
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    epsilon = epsilon_after(randomized_response(2, 1.0), 10**12, 1e-6)
    at, below = binary_rr_epsilon_bracket(1.0, 10**12, 1e-6, epsilon)
    assert at <= 1e-6 < below
    assert delta_after(randomized_response(2, 1.0), 10**12, epsilon) <= 1e-6 + ROUND_OFF


def test_m5_identity_mechanism_gives_infinity():
    """M5: epsilon_after(np.eye(2), 3, 0.1, method="pld") raised IndexError; the identity reveals the input."""
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    for method in ["pld", "exact"]:
        assert epsilon_after(np.eye(2), 3, 0.1, method=method) == math.inf
        assert delta_after(np.eye(2), 3, 5.0, method=method) == 1.0
    assert Ledger().record(np.eye(3), uses=2).epsilon(0.1, method="pld") == math.inf


def test_m10_auto_estimates_the_work_of_both_methods(monkeypatch):
    """M10: method="auto" went exact whenever m^k <= 100,000 (120 symbols × 2 uses: 69 s). Now it compares
    the estimated work: randomized response on 120 symbols has one distinct pair, so its PLD is a sum
    over 3 losses, while the exact method would build 14,280 pairs × 14,400 joint outputs."""
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")

    def refuse(*args, **kwargs):
        raise AssertionError("the exact method was chosen")

    monkeypatch.setattr(accounting, "ApproximateDifferentialPrivacy", refuse)
    monkeypatch.setattr(accounting, "pair_divergences", refuse)
    rr = randomized_response(120, 2.0)
    epsilon = epsilon_after(rr, 2, 1e-6)
    assert kary_rr_delta(120, 2.0, 2, epsilon) <= 1e-6 + ROUND_OFF
    assert kary_rr_delta(120, 2.0, 2, epsilon - 2 * GRID) > 1e-6
    assert delta_after(rr, 2, 3.0) == pytest.approx(kary_rr_delta(120, 2.0, 2, 3.0), abs=1e-4)


def test_auto_stays_exact_where_it_is_cheap(monkeypatch):
    """The other side of M10: a small problem is still measured exactly (no PLD involved)."""
    monkeypatch.setattr(accounting, "_import_dp_accounting", None)  # any PLD call would fail
    matrix = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])
    assert epsilon_after(matrix, 3, 0.01) == epsilon_after(matrix, 3, 0.01, method="exact")
    assert delta_after(matrix, 3, 1.0) == delta_after(matrix, 3, 1.0, method="exact")


def test_l1_infinite_epsilon_is_accepted():
    """L1: delta_after(epsilon=inf) was refused; every mechanism is (∞, 0)-DP (the constraint is void).
    Infinite budgets elsewhere in the module: an ∞ spend, an identity mechanism, their curves."""
    rr = randomized_response(3, 1.0)
    for method in METHODS:
        assert delta_after(rr, 2, math.inf, method=method) == 0.0
        assert delta_after(np.eye(2), 2, math.inf, method=method) == 0.0
    ledger = Ledger().record(rr).record_epsilon(math.inf, "published raw")
    assert ledger.pure_epsilon() == math.inf
    assert ledger.delta(math.inf) == 0.0
    assert ledger.epsilon(0.5) == math.inf  # binary RR at ∞ is the identity: δ(ε) = 1 for every finite ε
    assert renyi_curve(ledger, [2.0]).epsilon == (math.inf,)
    assert json.loads(json.dumps(ledger.to_dict(), allow_nan=False))["entries"][1]["epsilon"] == "inf"


# ---------------------------------------------------------------------------------------- PLD export


@pytest.mark.parametrize("n", [2, 3, 5])
def test_exported_pld_matches_dp_accounting_randomized_response(n):
    """Our PLD of n-ary randomized response is dp-accounting's own (REPLACE_ONE) to 1e-9 in δ(ε), alone
    and composed with itself."""
    pld_module = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution",
                                     reason="PLD export needs the optional dp-accounting package")
    epsilon0 = 1.2345678  # off the grid: rounding matters
    ours = privacy_loss_distribution(randomized_response(n, epsilon0), discretization=GRID)
    native = pld_module.from_randomized_response(n / (math.exp(epsilon0) + n - 1), n,
                                                 value_discretization_interval=GRID)
    for epsilon in [-0.5, 0.0, 0.3, 1.0, 1.2]:
        assert ours.get_delta_for_epsilon(epsilon) == pytest.approx(native.get_delta_for_epsilon(epsilon), abs=1e-9)
    ours_4, native_4 = ours.self_compose(4), native.self_compose(4)
    for epsilon in [0.5, 2.0, 4.0]:
        assert ours_4.get_delta_for_epsilon(epsilon) == pytest.approx(native_4.get_delta_for_epsilon(epsilon),
                                                                      abs=1e-9)
    assert ours.get_epsilon_for_delta(1e-3) == pytest.approx(native.get_epsilon_for_delta(1e-3), abs=1e-9)


@pytest.mark.parametrize("uses", [1, 2, 4])
def test_exported_pld_brackets_the_exact_k_fold_product(uses):
    """privacy_loss_distribution(Q, uses=k) against the exact k-fold product: never below it, and for
    randomized response (one pair is worst at every ε) within the rounding of k losses."""
    pytest.importorskip("dp_accounting", reason="PLD export needs the optional dp-accounting package")
    rr = randomized_response(3, 0.9)
    pld = privacy_loss_distribution(rr, uses=uses, discretization=GRID)
    for epsilon in [0.0, 0.5, 1.5, 2.5]:
        exact = kary_rr_delta(3, 0.9, uses, epsilon)
        assert exact - ROUND_OFF <= pld.get_delta_for_epsilon(epsilon)
        assert pld.get_delta_for_epsilon(epsilon) <= kary_rr_delta(3, 0.9, uses, epsilon - uses * GRID) + ROUND_OFF
    asymmetric = np.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
    pld = privacy_loss_distribution(asymmetric, uses=uses, discretization=GRID)
    for epsilon in [0.0, 0.7, 1.4]:
        exact = delta_after(asymmetric, uses, epsilon, method="exact")
        assert exact - ROUND_OFF <= pld.get_delta_for_epsilon(epsilon)
        assert pld.get_delta_for_epsilon(epsilon) <= hockey_stick_delta_at(asymmetric, uses,
                                                                          epsilon - (uses + 1) * GRID) + ROUND_OFF


@given(stochastic_matrices(n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 4)))
def test_envelope_is_the_worst_pair_at_every_epsilon(matrix):
    """The exported PLD of one use dominates every ordered pair of rows at every ε (negative too) and is
    the worst pair's up to one grid step: the upper concave hull of the pairs' ROC points."""
    pytest.importorskip("dp_accounting", reason="PLD export needs the optional dp-accounting package")
    pld = privacy_loss_distribution(matrix, discretization=GRID)
    for epsilon in [-2.0, -0.3, 0.0, 0.2, 0.9, 2.5]:
        worst = hockey_stick_delta_at(matrix, 1, epsilon)
        assert worst - ROUND_OFF <= pld.get_delta_for_epsilon(epsilon)
        assert pld.get_delta_for_epsilon(epsilon) <= hockey_stick_delta_at(matrix, 1, epsilon - GRID) + ROUND_OFF


def test_exported_pld_composes_with_dp_accountings_own():
    """A user composes our PLD with a dp-accounting mechanism of the same grid: δ never drops."""
    pld_module = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution",
                                     reason="PLD export needs the optional dp-accounting package")
    ours = privacy_loss_distribution(randomized_response(4, 1.0))
    laplace = pld_module.from_laplace_mechanism(2.0, value_discretization_interval=DEFAULT_DISCRETIZATION)
    both = ours.compose(laplace)
    for epsilon in [0.5, 1.0, 2.0]:
        assert both.get_delta_for_epsilon(epsilon) >= max(ours.get_delta_for_epsilon(epsilon),
                                                           laplace.get_delta_for_epsilon(epsilon)) - ROUND_OFF


# ------------------------------------------------------------------------------------------------ ledger


def test_ledger_records_and_reports_basic_composition():
    ledger = Ledger().record(randomized_response(2, 1.0), uses=3, name="smoker")
    assert ledger.record_epsilon(0.5, "survey", uses=2) is ledger
    assert [(e.name, e.uses, e.epsilon, e.mechanism is None) for e in ledger.entries] == [
        ("smoker", 3, pytest.approx(1.0, rel=EXACT_RTOL), False), ("survey", 2, 0.5, True)]
    assert ledger.pure_epsilon() == pytest.approx(4.0, rel=EXACT_RTOL)
    assert ledger.epsilon(0.0) == ledger.pure_epsilon()
    assert ledger.delta(4.0) == 0.0
    assert Ledger().epsilon(1e-6) == 0.0 and Ledger().delta(0.0) == 0.0


def test_ledger_of_one_entry_is_the_repeated_use_answer():
    matrix = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])
    ledger = Ledger().record(matrix, uses=3)
    assert ledger.epsilon(0.01, "exact") == epsilon_after(matrix, 3, 0.01, method="exact")
    assert ledger.delta(1.0, "exact") == pytest.approx(delta_after(matrix, 3, 1.0, method="exact"), abs=ROUND_OFF)


def test_ledger_exact_is_the_worst_pair_of_records():
    """Two mechanisms on two columns (one used twice): the exact ledger δ is the brute-force maximum over
    every pair of records of the product mechanism."""
    first = np.array([[0.7, 0.3], [0.2, 0.8]])
    second = np.array([[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.3, 0.3, 0.4]])
    ledger = Ledger().record(first, uses=2).record(second)
    for epsilon in [0.0, 0.8, 1.6, 2.4]:
        assert ledger.delta(epsilon, "exact") == pytest.approx(
            joint_delta_brute_force([first, second], [2, 1], epsilon), abs=ROUND_OFF)


def test_ledger_pld_brackets_exact_for_randomized_response():
    """Entries of randomized response (one worst pair at every ε): the composed PLD is the exact worst case
    of the product within the rounding of every loss; a spend known by ε is binary randomized response."""
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    ledger = Ledger().record(randomized_response(3, 0.8), uses=2).record_epsilon(0.6)
    twin = Ledger().record(randomized_response(3, 0.8), uses=2).record(randomized_response(2, 0.6))
    total_uses = 3
    for epsilon in [0.3, 1.0, 1.8]:
        exact = twin.delta(epsilon, "exact")
        assert ledger.delta(epsilon, "exact") == pytest.approx(exact, abs=ROUND_OFF)
        pld = ledger.delta(epsilon, "pld", discretization=GRID)
        assert exact - ROUND_OFF <= pld <= twin.delta(epsilon - total_uses * GRID, "exact") + ROUND_OFF


def test_ledger_queries_agree_with_its_exported_pld():
    """The ledger's own ε(δ), δ(ε) are dp-accounting's on the exported PLD (vectorized here), capped by
    the pure-DP sum."""
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    ledger = Ledger().record([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]], uses=5).record_epsilon(0.4)
    pld = ledger.privacy_loss_distribution()
    for delta in [1e-9, 1e-6, 1e-3, 0.2]:
        assert ledger.epsilon(delta, "pld") == pytest.approx(
            min(ledger.pure_epsilon(), pld.get_epsilon_for_delta(delta)), abs=1e-9)
    for epsilon in [0.5, 2.0, 5.0]:
        assert ledger.delta(epsilon, "pld") == pytest.approx(pld.get_delta_for_epsilon(epsilon), abs=1e-12)


def test_ledger_round_trips_through_strict_json():
    ledger = (Ledger().record([[0.75, 0.25], [0.25, 0.75]], uses=2, name="a")
              .record(np.eye(2), name="raw").record_epsilon(0.5, "b", uses=3).record_epsilon(math.inf))
    text = json.dumps(ledger.to_dict(), allow_nan=False)
    again = Ledger.from_dict(json.loads(text))
    assert again.entries == ledger.entries
    assert again.to_dict() == ledger.to_dict()


def test_ledger_from_dict_refuses_bad_input():
    good = Ledger().record([[0.75, 0.25], [0.25, 0.75]], name="a").to_dict()
    with pytest.raises(MechDesignError, match="version 1"):
        Ledger.from_dict({**good, "version": 2})
    with pytest.raises(MechDesignError, match=r"exactly the fields"):
        Ledger.from_dict({**good, "extra": 1})
    tampered = json.loads(json.dumps(good))
    tampered["entries"][0]["epsilon"] = 0.1
    with pytest.raises(MechDesignError, match=r"data\['entries'\]\[0\]\['epsilon'\] is 0.1 but the mechanism"):
        Ledger.from_dict(tampered)
    broken = json.loads(json.dumps(good))
    broken["entries"][0]["epsilon"] = "Infinity"
    with pytest.raises(MechDesignError, match="must be a number or \"inf\""):
        Ledger.from_dict(broken)
    broken["entries"][0].update(epsilon=0.5, mechanism=[[0.5, 0.4], [0.5, 0.5]])
    with pytest.raises(MechDesignError, match=r"data\['entries'\]\[0\]: mechanism is not row-stochastic"):
        Ledger.from_dict(broken)
    with pytest.raises(MechDesignError, match="name must be a string, got 3"):
        Ledger().record([[1.0], [1.0]], name=3)
    with pytest.raises(InvalidBudgetError, match="epsilon must be a number >= 0"):
        Ledger().record_epsilon(-1.0)


def test_ledger_summary_lists_entries_total_and_curve():
    text = Ledger().record(randomized_response(2, 1.0), uses=2, name="smoker").record_epsilon(0.5).summary()
    lines = text.splitlines()
    assert lines[0].split() == ["entry", "uses", "ε", "each", "uses·ε"]
    assert lines[1].split() == ["smoker", "2", "1.0000", "2.0000"]
    assert lines[2].split() == ["#2", "1", "0.5000", "0.5000"]
    assert lines[3].split() == ["total", "2.5000"]
    assert lines[4].startswith("ε(δ) of the whole: δ = 1e-09: ")


@given(st.lists(st.tuples(st.one_of(stochastic_matrices(n_inputs=st.integers(2, 3), n_outputs=st.integers(2, 3)),
                                    st.sampled_from(["identity", "constant", 0.0, 0.7, math.inf])),
                          st.integers(1, 2)), min_size=1, max_size=3),
       stochastic_matrices(n_inputs=st.just(3), n_outputs=st.integers(2, 3)))
def test_ledger_properties(entries, channel):
    """ε(δ) of a ledger (identity, constant mechanisms and infinite spends included) is non-increasing in δ,
    at least every entry's own, never below the exact value, and post-processing a mechanism by any
    channel never increases the exact value (data processing)."""
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    ledger, alone, processed = Ledger(), [], Ledger()
    for item, uses in entries:
        if isinstance(item, float):
            for target in (ledger, processed):
                target.record_epsilon(item, uses=uses)
            alone.append(Ledger().record_epsilon(item, uses=uses))
            continue
        matrix = {"identity": np.eye(3), "constant": np.full((3, 3), 1 / 3)}.get(item) if isinstance(item, str) else item
        ledger.record(matrix, uses)
        alone.append(Ledger().record(matrix, uses))
        processed.record(matrix @ channel[: matrix.shape[1]] / (matrix @ channel[: matrix.shape[1]]).sum(axis=1)[:, None]
                         if matrix.shape[1] <= 3 else matrix, uses)
    deltas = [0.0, 1e-6, 1e-3, 0.1, 0.5]
    curve = [ledger.epsilon(delta) for delta in deltas]
    assert all(a >= b - ROUND_OFF for a, b in zip(curve, curve[1:]))
    for single in alone:
        assert all(value >= single.epsilon(delta) - ROUND_OFF for value, delta in zip(curve, deltas))
    for delta in deltas[1:]:
        exact = ledger.epsilon(delta, "exact")
        assert ledger.epsilon(delta, "pld") >= exact - ROUND_OFF
        assert processed.epsilon(delta, "exact") <= exact + ROUND_OFF


def test_ledger_with_a_huge_count_of_a_trivial_mechanism():
    """Huge counts are immediate where the answer does not need a composition: a constant mechanism leaks
    nothing however often it is used, an identity reveals everything at once."""
    ledger = Ledger().record(np.full((3, 2), 0.5), uses=MAX_USES)
    assert ledger.pure_epsilon() == 0.0 and ledger.epsilon(1e-9) == 0.0 and ledger.delta(0.0) == 0.0
    ledger.record(np.eye(2), uses=MAX_USES)
    assert ledger.epsilon(1e-9) == math.inf and ledger.delta(10.0) == 1.0


# ------------------------------------------------------------------------------------- curves and account


def test_curves_as_data_and_plot():
    pytest.importorskip("dp_accounting", reason="PLD accounting needs the optional dp-accounting package")
    import matplotlib

    matplotlib.use("Agg")
    rr = randomized_response(2, 1.0)
    ledger = Ledger().record(rr, uses=3).record(randomized_response(3, 0.5))
    curve = epsilon_delta_curve(ledger, [1e-6, 1e-3, 0.1], label="ledger")
    assert curve.epsilon == tuple(ledger.epsilon(delta) for delta in [1e-6, 1e-3, 0.1])
    renyi = renyi_curve(ledger, [1.5, 2.0, 8.0])
    for alpha, value in zip(renyi.x, renyi.epsilon):
        assert value == pytest.approx(renyi_after(rr, 3, alpha) + renyi_after(randomized_response(3, 0.5), 1, alpha),
                                      rel=EXACT_RTOL)
    assert json.dumps(curve.to_dict(), allow_nan=False)
    ax = plot_privacy_curves([curve, epsilon_delta_curve(rr, [1e-6, 1e-3, 0.0])])
    assert ax.get_xscale() == "log" and len(ax.get_lines()) == 2
    assert plot_privacy_curves(renyi).get_xlabel() == "order α"
    with pytest.raises(MechDesignError, match="curves must all be of one kind"):
        plot_privacy_curves([curve, renyi])
    with pytest.raises(InvalidBudgetError, match="orders must be a finite number > 1"):
        renyi_curve(rr, [1.0])


def test_account_reports_the_whole_in_strict_json():
    rr = randomized_response(2, 1.0)
    report = account([(rr, 3, "rr.json"), (np.eye(2), 1, "raw.json")], deltas=[1e-6, 0.5])
    assert [entry.name for entry in report.ledger.entries] == ["rr.json", "raw.json"]
    assert report.pure_epsilon == math.inf and report.epsilons == (math.inf, math.inf)
    payload = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert payload["pure_epsilon"] == "inf" and payload["epsilon_at_delta"][1] == {"delta": 0.5, "epsilon": "inf"}
    assert Ledger.from_dict(payload["ledger"]).entries == report.ledger.entries
    report = account([(rr, 2, "rr.json")], deltas=[0.05])
    assert report.epsilons[0] == pytest.approx(epsilon_after(rr, 2, 0.05), rel=EXACT_RTOL)
    with pytest.raises(MechDesignError, match=r"files_and_uses\[0\] must be \(mechanism, uses, name\)"):
        account([(rr, 2)])
    with pytest.raises(InvalidBudgetError, match="deltas must satisfy"):
        account([(rr, 2, "x")], deltas=[1.0])
