"""Tests of mechdesign.mechanisms.estimation: k-RR and subset selection for frequency estimation."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import DifferentialPrivacy, MaximalLeakage, PointwiseMaximalLeakage, randomized_response
from mechdesign.exceptions import MechDesignError, ProblemTooLargeError
from mechdesign.frequency import estimation_variance
from mechdesign.mechanisms.estimation import (
    MAX_CALIBRATED_EPSILON,
    estimation_mechanism,
    estimation_variances,
    report_probabilities,
    subset_outputs,
    subset_selection,
)
from mechdesign.result import BUDGET_ATOL

from ..strategies import full_support_priors

#: Relative tolerance between a closed-form variance and the general pseudo-inverse formula.
VARIANCE_RTOL = 1e-8


@given(st.integers(3, 7).flatmap(lambda k: st.tuples(st.just(k), st.integers(1, k - 1), full_support_priors(k))),
       st.floats(0.1, 3.0))
def test_closed_form_variances_match_the_general_estimator(case, epsilon):
    # Ye & Barg, Optimal Schemes for Discrete Distribution Estimation under LDP: Var = π(1−π)/(N(a−b)²).
    size, subset_size, prior = case
    mechanism = randomized_response(size, epsilon) if subset_size == 1 else subset_selection(size, epsilon, subset_size)
    assert np.allclose(estimation_variances(prior, epsilon, subset_size), estimation_variance(mechanism, prior),
                       rtol=VARIANCE_RTOL)


@given(st.integers(3, 7).flatmap(lambda k: st.tuples(st.just(k), st.integers(2, k - 1))), st.floats(0.0, 3.0))
def test_subset_selection_is_epsilon_ldp_with_its_report_probabilities(case, epsilon):
    size, subset_size = case
    mechanism = subset_selection(size, epsilon, subset_size)
    assert DifferentialPrivacy().measure(mechanism) == pytest.approx(epsilon, abs=1e-12)
    membership = np.array([[x in subset for subset in subset_outputs(size, subset_size)] for x in range(size)])
    hit, false_hit = report_probabilities(size, epsilon, subset_size)
    assert (mechanism.matrix * membership).sum(axis=1) == pytest.approx(np.full(size, hit), abs=1e-12)
    assert (mechanism.matrix[0] * membership[1]).sum() == pytest.approx(false_hit, abs=1e-12)


def test_subset_selection_beats_randomized_response_for_large_alphabets_at_small_budget():
    # Ye & Barg: d ≈ k / (e^ε + 1) is order-optimal; with k = 16, ε = 0.5 that is 6.
    uniform = np.full(16, 1 / 16)
    chosen = estimation_mechanism(DifferentialPrivacy(), 0.5, uniform)
    assert chosen.name == "subset-selection(d=6)" and chosen.ldp_epsilon == 0.5
    assert chosen.variance < estimation_variances(uniform, 0.5).sum()
    assert chosen.variance == pytest.approx(estimation_variances(uniform, 0.5, 6).sum(), rel=1e-12)
    assert len(chosen.outputs) == math.comb(16, 6) == chosen.mechanism.n_outputs


def test_randomized_response_wins_at_large_budget():
    chosen = estimation_mechanism(DifferentialPrivacy(), 5.0, np.full(4, 0.25))
    assert chosen.name == "randomized-response" and chosen.mechanism.allclose(randomized_response(4, 5.0))
    assert chosen.outputs == ((0,), (1,), (2,), (3,))


@pytest.mark.parametrize("notion_factory", [lambda prior: PointwiseMaximalLeakage(prior), lambda prior: MaximalLeakage()])
def test_calibration_to_other_notions_meets_the_budget_tightly(notion_factory):
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    notion = notion_factory(prior)
    budget = 0.3
    chosen = estimation_mechanism(notion, budget, prior)
    assert notion.measure(chosen.mechanism) <= budget + BUDGET_ATOL
    # tight: a slightly larger LDP parameter of the same family exceeds the budget, unless the family
    # stays within it for every ε' (then the largest tried, MAX_CALIBRATED_EPSILON, is used)
    if chosen.ldp_epsilon == MAX_CALIBRATED_EPSILON:
        return
    family = (randomized_response(4, chosen.ldp_epsilon + 1e-6) if chosen.name == "randomized-response"
              else subset_selection(4, chosen.ldp_epsilon + 1e-6, len(chosen.outputs[0])))
    assert notion.measure(family) > budget


def test_bad_input_is_named():
    with pytest.raises(MechDesignError, match="subset_size must be an integer >= 1 and <= 2, got 3"):
        subset_selection(3, 1.0, 3)
    with pytest.raises(ProblemTooLargeError, match="more than 20000"):
        subset_selection(40, 1.0, 20)
    with pytest.raises(MechDesignError, match="at least 2 symbols"):
        estimation_mechanism(DifferentialPrivacy(), 1.0, [1.0])
