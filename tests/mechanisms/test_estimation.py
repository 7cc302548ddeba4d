"""Tests of mechdesign.mechanisms.estimation: the frequency oracle of least exact variance for (k, ε)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import DifferentialPrivacy, MaximalLeakage, PointwiseMaximalLeakage, randomized_response
from mechdesign.exceptions import InvalidBudgetError, MechDesignError, ProblemTooLargeError
from mechdesign.frequency import estimation_variance
from mechdesign.mechanisms.estimation import (
    MAX_CALIBRATED_EPSILON,
    EstimationMechanism,
    ReportBudget,
    estimation_mechanism,
    estimation_variances,
    report_probabilities,
    subset_outputs,
    subset_selection,
)
from mechdesign.mechanisms.oracles import (
    HadamardResponse,
    OptimizedLocalHashing,
    OptimizedUnaryEncoding,
    RandomizedResponse,
    SubsetSelection,
)
from mechdesign.result import within_budget

from ..strategies import full_support_priors

#: Relative tolerance between a closed-form variance and the general pseudo-inverse formula.
VARIANCE_RTOL = 1e-8
LDP = DifferentialPrivacy()


@given(st.integers(3, 7).flatmap(lambda k: st.tuples(st.just(k), st.integers(1, k - 1), full_support_priors(k))),
       st.floats(0.1, 3.0))
def test_closed_form_variances_match_the_general_estimator(case, epsilon):
    # Ye & Barg, Optimal Schemes for Discrete Distribution Estimation under LDP: Var = π(1−π)/(N(a−b)²).
    size, subset_size, prior = case
    mechanism = randomized_response(size, epsilon) if subset_size == 1 else subset_selection(size, epsilon, subset_size)
    assert np.allclose(estimation_variances(prior, epsilon, subset_size), estimation_variance(mechanism.matrix, prior),
                       rtol=VARIANCE_RTOL)


@given(st.integers(3, 7).flatmap(lambda k: st.tuples(st.just(k), st.integers(2, k - 1))), st.floats(0.0, 3.0))
def test_subset_selection_is_epsilon_ldp_with_its_report_probabilities(case, epsilon):
    size, subset_size = case
    mechanism = subset_selection(size, epsilon, subset_size)
    assert DifferentialPrivacy().measure(mechanism.matrix) == pytest.approx(epsilon, abs=1e-12)
    membership = np.array([[x in subset for subset in subset_outputs(size, subset_size)] for x in range(size)])
    hit, false_hit = report_probabilities(size, epsilon, subset_size)
    assert (mechanism.matrix * membership).sum(axis=1) == pytest.approx(np.full(size, hit), abs=1e-12)
    assert (mechanism.matrix[0] * membership[1]).sum() == pytest.approx(false_hit, abs=1e-12)


def exhaustive_best(size, epsilon, prior, budget=None):
    """Every oracle at every parameter (subset sizes, hash ranges up to 4 e^ε, block widths), by brute force."""
    oracles = [RandomizedResponse(size, epsilon), OptimizedUnaryEncoding(size, epsilon)]
    oracles += [SubsetSelection(size, epsilon, d) for d in range(1, size)]
    oracles += [OptimizedLocalHashing(size, epsilon, g) for g in range(2, math.ceil(4 * math.exp(epsilon)) + 8)]
    oracles += [HadamardResponse(size, epsilon, 2**power) for power in range(1, size.bit_length() + 2)]
    admitted = [oracle for oracle in oracles if budget is None or not budget.admits(oracle)]
    return min(oracle.total_variance(prior) for oracle in admitted)


@pytest.mark.parametrize("size", [2, 4, 16, 42])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 4.0])
def test_the_choice_is_the_least_exact_variance_of_every_oracle(size, epsilon):
    # Against a brute force over every oracle and parameter, under a skewed public prior.
    prior = np.arange(1, size + 1) / (size * (size + 1) / 2)
    chosen = estimation_mechanism(LDP, epsilon, prior)
    assert chosen.variance == pytest.approx(exhaustive_best(size, epsilon, prior), rel=1e-12)
    assert chosen.variance == pytest.approx(chosen.mechanism.total_variance(prior), rel=1e-12)
    assert chosen.ldp_epsilon == epsilon and chosen.mechanism.local_dp_leakage() == epsilon
    assert chosen.variance == min(candidate.variance for candidate in chosen.candidates if candidate.admitted)
    assert {candidate.name.split("(")[0] for candidate in chosen.candidates} == {
        "randomized-response", "optimized-unary-encoding", "optimized-local-hashing", "hadamard-response"} | (
        {"subset-selection"} if size > 2 else set())


def test_adult_native_country_is_no_longer_held_at_three_symbols():
    """Issue 34: Adult native-country (k = 42) at ε = 0.1 was held at subset selection d = 3 (N·Σ Var 55,378) by
    MAX_SUBSET_OUTPUTS while d = 20 gives 15,996, and the message said "the least estimation variance"."""
    uniform = np.full(42, 1 / 42)
    chosen = estimation_mechanism(LDP, 0.1, uniform)
    assert chosen.name == "subset-selection(d=20)" and chosen.variance == pytest.approx(15_996.28, abs=0.01)
    assert chosen.outputs is None and chosen.mechanism.n_outputs == math.comb(42, 20)
    assert "least exact total variance N·Σ Var(p̂_x) = 15,996.3 among the frequency oracles" in chosen.claim
    assert "no claim of optimality among all mechanisms" in chosen.claim


def test_large_alphabets_are_not_left_with_randomized_response():
    """Issue 34: at k = 1000, ε = 1 only k-RR was available (N·Σ Var 339,522 against 3,675)."""
    chosen = estimation_mechanism(LDP, 1.0, np.full(1000, 1e-3))
    assert chosen.name == "subset-selection(d=269)" and chosen.variance == pytest.approx(3_675.33, abs=0.01)
    rr = next(candidate for candidate in chosen.candidates if candidate.name == "randomized-response")
    assert rr.admitted and rr.variance == pytest.approx(339_522, abs=0.5)


def test_the_default_report_budget_trades_variance_for_size_and_says_so():
    # k = 10⁴ with 10⁶ planned reports: unary reports (1,250 bytes each) do not fit 1 GiB and local hashing
    # decodes in 1.6·10¹¹ operations; Hadamard response's are 8 bytes, decoded by the FWHT.
    uniform = np.full(10_000, 1e-4)
    chosen = estimation_mechanism(LDP, 1.0, uniform)
    lifted = estimation_mechanism(LDP, 1.0, uniform, report_budget=ReportBudget.unlimited())
    assert chosen.name == "hadamard-response(b=16384)" and lifted.name == "subset-selection(d=2689)"
    assert lifted.variance < chosen.variance
    assert (f"The budget trades variance for size: subset-selection(d=2689) would have {lifted.variance:,.6g} "
            f"({1 - lifted.variance / chosen.variance:.1%} less) but its 1,000,000 reports take 1.25e+09 bytes"
            in chosen.claim)
    excluded = {candidate.name for candidate in chosen.candidates if not candidate.admitted}
    assert excluded == {"subset-selection(d=2689)", "optimized-unary-encoding", "optimized-local-hashing(g=4)"}
    assert chosen.variance == pytest.approx(exhaustive_best(10_000, 1.0, uniform, ReportBudget()), rel=1e-12)
    # a budget on a report's bits: randomized response (13.3 bits) and Hadamard response (14 bits) fit 14 bits
    assert estimation_mechanism(LDP, 4.0, uniform, report_budget=ReportBudget(report_bits=14)).name.startswith(
        "hadamard-response")


def test_randomized_response_wins_at_large_budget():
    chosen = estimation_mechanism(LDP, 5.0, np.full(4, 0.25))
    assert chosen.name == "randomized-response" and chosen.mechanism.allclose(randomized_response(4, 5.0))
    assert chosen.outputs == (0, 1, 2, 3)


@pytest.mark.parametrize("notion_factory", [lambda prior: PointwiseMaximalLeakage(prior), lambda prior: MaximalLeakage()])
def test_calibration_to_other_notions_meets_the_budget_tightly(notion_factory):
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    notion = notion_factory(prior)
    budget = 0.3
    chosen = estimation_mechanism(notion, budget, prior)
    assert within_budget(notion.measure(chosen.mechanism), budget)
    assert any(not candidate.admitted and "not calibrated" in candidate.reason for candidate in chosen.candidates)
    # tight: a slightly larger LDP parameter of the same oracle exceeds the budget, unless the oracle
    # stays within it for every ε' (then the largest tried, MAX_CALIBRATED_EPSILON, is used)
    if chosen.ldp_epsilon == MAX_CALIBRATED_EPSILON:
        return
    parameters = {**chosen.mechanism.parameters(), "epsilon": chosen.ldp_epsilon + 1e-6}
    family = type(chosen.mechanism)(**{key: value for key, value in parameters.items() if key != "family"})
    assert notion.measure(family) > budget


def test_one_symbol_is_known_exactly():
    """Issue 34, bad input: k = 1 has nothing to estimate: the exact answer with variance 0."""
    chosen = estimation_mechanism(LDP, 1.0, [1.0])
    assert chosen == EstimationMechanism("constant", chosen.mechanism, 0.0, (0,), 0.0, (), chosen.claim)
    assert chosen.mechanism.matrix.tolist() == [[1.0]] and "variance 0" in chosen.claim


def test_bad_input_is_named():
    """Issue 34, bad input: ε = 0 makes every variance infinite (a named error, not a division by zero)."""
    with pytest.raises(InvalidBudgetError, match="budget = 0 .*every frequency estimator's variance is infinite"):
        estimation_mechanism(LDP, 0.0, [0.5, 0.5])
    with pytest.raises(MechDesignError, match="subset_size must be an integer >= 1 and <= 2, got 3"):
        subset_selection(3, 1.0, 3)
    with pytest.raises(ProblemTooLargeError, match=r"dense matrix of subset-selection\(d=20\) over k = 40"):
        subset_selection(40, 1.0, 20).matrix
    with pytest.raises(MechDesignError, match="report_budget must be a ReportBudget or None, got 5"):
        estimation_mechanism(LDP, 1.0, [0.5, 0.5], report_budget=5)
    with pytest.raises(MechDesignError, match="memory must be a number > 0"):
        ReportBudget(memory=0)
    with pytest.raises(MechDesignError, match="no frequency oracle fits the report budget .*randomized-response: a "
                                              "report takes 1 bits, above the budget of 0.5"):
        estimation_mechanism(LDP, 1.0, [0.5, 0.5], report_budget=ReportBudget(report_bits=0.5))
