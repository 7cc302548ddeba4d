"""Tests of mechdesign.empirical: samples → (P̂, β) → mechanism → (ε', δ)-PML guarantee
(Grosse et al., "Privacy Mechanism Design based on Empirical Distributions", Fig. 1)."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import ExpectedDistortion, PointwiseMaximalLeakage
from mechdesign.empirical import EmpiricalDesign, design_from_samples
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.priors import L1Ball, empirical_estimate, l1_radius
from mechdesign.privacy.pml_analysis import leakage_capacity
from mechdesign.theory.pml import cor2_leakage_bound

#: A designed mechanism re-measures within its budget up to mechdesign.result.budget_tolerance.
DESIGN_ATOL = 1e-6


def draw_samples(prior, m, seed):
    return np.random.default_rng(seed).choice(len(prior), size=m, p=prior)


@settings(max_examples=12)
@given(st.sampled_from([[0.5, 0.5], [0.7, 0.3], [0.5, 0.3, 0.2], [0.4, 0.3, 0.2, 0.1]]),
       st.sampled_from([50, 500, 5000]), st.floats(0.0, 3.0), st.sampled_from([1e-9, 1e-3, 0.1]),
       st.integers(0, 3))
def test_robust_round_trip(prior, m, budget, delta, seed):
    """The certified worst-case PML over the ball of the robust design is at most ε."""
    samples = draw_samples(prior, m, seed)
    outcome = design_from_samples(samples, len(prior), budget, delta)
    assert outcome.success, outcome.result.message
    assert outcome.radius == pytest.approx(l1_radius(delta, m, len(prior)), rel=1e-15)
    assert outcome.estimate == empirical_estimate(samples, len(prior))
    assert outcome.worst_case_pml == pytest.approx(leakage_capacity(outcome.mechanism, outcome.ball), abs=0)
    assert outcome.epsilon_prime <= budget + DESIGN_ATOL
    assert outcome.paper_bound == budget


@settings(max_examples=12)
@given(st.sampled_from([[0.5, 0.5], [0.5, 0.3, 0.2]]), st.sampled_from([2000, 20000]),
       st.floats(0.0, 1.5), st.integers(0, 3))
def test_design_for_the_estimate_is_within_the_paper_bound(prior, m, budget, seed):
    """Designed ε-PML for P̂: the exact worst case over the ball is at most eq. (8)'s ε'(δ)."""
    outcome = design_from_samples(draw_samples(prior, m, seed), len(prior), budget, 1e-6, robust=False)
    assert outcome.success
    assert outcome.paper_bound == pytest.approx(cor2_leakage_bound(budget, outcome.radius), abs=0)
    assert outcome.epsilon_prime <= outcome.paper_bound + DESIGN_ATOL
    assert PointwiseMaximalLeakage(outcome.estimate).measure(outcome.mechanism) <= budget + DESIGN_ATOL


def test_robust_design_costs_distortion_and_shrinks_with_more_samples():
    """Robustness costs utility: the robust optimum is at least the estimate's, and the gap closes as m grows."""
    prior, budget = [0.5, 0.3, 0.2], 1.0
    gaps = []
    for m in [100, 1000, 100000]:
        samples = draw_samples(prior, m, 0)
        robust = design_from_samples(samples, 3, budget, 1e-6)
        plain = design_from_samples(samples, 3, budget, 1e-6, robust=False)
        gaps.append(robust.result.objective - plain.result.objective)
    assert all(gap >= -1e-9 for gap in gaps)
    assert gaps[0] > gaps[1] > gaps[2]


def test_vacuous_paper_bound_is_none_and_the_exact_guarantee_remains():
    outcome = design_from_samples([0, 1, 1, 0, 1], 2, 2.0, 0.1, robust=False)
    assert outcome.radius * math.exp(2.0) >= 2
    assert outcome.paper_bound is None
    assert outcome.worst_case_pml == pytest.approx(leakage_capacity(outcome.mechanism, outcome.ball), abs=0)


def test_objective_as_a_callable_of_the_estimate_and_result_is_frozen():
    samples = draw_samples([0.6, 0.4], 300, 1)
    outcome = design_from_samples(samples, 2, 0.5, 0.01, objective=lambda estimate: ExpectedDistortion(estimate))
    assert isinstance(outcome, EmpiricalDesign) and outcome.success
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.delta = 0.5
    summary = outcome.summary()
    assert "guarantee" in summary and "radius beta" in summary
    assert isinstance(outcome.ball, L1Ball)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(samples=[0, 1, 2], size=2), MechDesignError, r"samples\[2\] must be an integer in 0..1, got 2"),
    (dict(delta=0.0), InvalidBudgetError, "0 < delta < 1"),
    (dict(delta=1.0), InvalidBudgetError, "0 < delta < 1"),
    (dict(epsilon=-1.0), InvalidBudgetError, "epsilon must be a finite number >= 0"),
    (dict(size=1, samples=[0, 0]), MechDesignError, "size must be an integer >= 2, got 1"),
])
def test_bad_input(kwargs, error, match):
    arguments = dict(samples=[0, 1, 1], size=2, epsilon=1.0, delta=0.1) | kwargs
    with pytest.raises(error, match=match):
        design_from_samples(**arguments)


def test_hostile_design_arguments_are_named():
    samples = [0, 1, 1, 0, 1]
    cases = [
        (lambda: design_from_samples(samples, 2, 1.0, 0.1, objective=5), "objective must be callable, got 5"),
        (lambda: design_from_samples(samples, 2, 1.0, 0.1, objective=lambda estimate: None),
         r"objective\(estimate\) must be an instance of Objective, got None"),
        (lambda: design_from_samples(samples, 2, 1.0, 0.1, solver=True), "solver must be one of"),
    ]
    for call, match in cases:
        with pytest.raises(MechDesignError, match=match):
            call()


def test_a_budget_beyond_the_float_range_is_a_correct_design_or_a_named_error():
    """ε = 800 nats: e^ε overflows. Either the design layer solves it (then the result keeps its budget)
    or the notion refuses it by name; never a raw OverflowError."""
    try:
        design = design_from_samples([0, 1, 1, 0, 1], 2, 800.0, 0.1)
    except InvalidBudgetError as exc:
        assert "budget 800.0 is too large for constraints" in str(exc)
        return
    result = design.result
    for label, budget in result.budgets.items():
        assert not result.success or result.measured[label] <= budget + 1e-9
