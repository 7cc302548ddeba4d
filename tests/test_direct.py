"""The compact LDP LP of mechdesign.direct against the cvxpy formulation (PUT paper, Definition 3(1))."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import (
    DesignProblem,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    Prior,
    WorstCaseDistortion,
    design,
)
from mechdesign.direct import LdpLinearProgram, staircase_lower_bound, staircase_weights
from tests.strategies import budgets, full_support_priors

#: Agreement required between the fast path and the cvxpy path (objective values).
PATH_AGREEMENT_ATOL = 1e-8
#: Slack for round-off when comparing a dual bound with the optimum.
BOUND_ROUNDOFF = 1e-12


@st.composite
def ldp_instances(draw):
    """A full-support prior, a random non-negative cost matrix (possibly non-square) and a budget."""
    n = draw(st.integers(2, 7))
    m = draw(st.integers(2, 7))
    prior = draw(full_support_priors(n))
    cost = np.array(draw(st.lists(st.floats(0.0, 5.0), min_size=n * m, max_size=n * m))).reshape(n, m)
    return Prior(prior), cost, draw(budgets)


@given(ldp_instances())
def test_fast_path_matches_cvxpy_path(instance):
    prior, cost, epsilon = instance
    objective = ExpectedDistortion(prior, cost)
    fast = design(DifferentialPrivacy(), epsilon, objective)
    reference = design(DifferentialPrivacy(), epsilon, objective, solver="clarabel")
    assert "compact LDP LP" in fast.message and "compact" not in reference.message
    assert fast.success and reference.success and fast.certified
    assert fast.objective == pytest.approx(reference.objective, abs=PATH_AGREEMENT_ATOL)
    assert fast.measured["dp"] <= epsilon + 1e-9


@pytest.mark.parametrize("n", [10, 30])
def test_fast_path_matches_highs_on_zipf_hamming(n):
    weights = 1.0 / np.arange(1, n + 1)
    objective = ExpectedDistortion(Prior(weights / weights.sum()))
    fast = design(DifferentialPrivacy(), 1.0, objective)
    reference = design(DifferentialPrivacy(), 1.0, objective, solver="highs")
    assert fast.objective == pytest.approx(reference.objective, abs=PATH_AGREEMENT_ATOL)
    assert fast.max_violation < 1e-9


@given(ldp_instances(), st.integers(0, 2**32 - 1))
def test_staircase_bound_is_below_the_optimum_for_any_multipliers(instance, seed):
    prior, cost, epsilon = instance
    weights = prior.probabilities[:, None] * cost
    optimum = LdpLinearProgram(weights).solve(epsilon)
    multipliers = np.random.default_rng(seed).normal(size=weights.shape[0])
    assert staircase_lower_bound(weights, epsilon, multipliers) <= optimum.value + BOUND_ROUNDOFF
    assert optimum.value - optimum.lower_bound <= PATH_AGREEMENT_ATOL  # the bound is tight at the duals


def test_uniform_prior_gives_randomized_response():
    # Uniform prior, Hamming distortion: randomized response is optimal, D = (n−1)/(e^ε + n − 1).
    n, epsilon = 6, 0.7
    result = design(DifferentialPrivacy(), epsilon, ExpectedDistortion(Prior.uniform(n)))
    assert result.objective == pytest.approx((n - 1) / (np.exp(epsilon) + n - 1), abs=PATH_AGREEMENT_ATOL)


def test_only_exact_local_dp_with_expected_distortion_takes_the_fast_path():
    prior = Prior([0.5, 0.3, 0.2])
    objective = ExpectedDistortion(prior)
    assert staircase_weights([DifferentialPrivacy()], objective, []) is not None
    assert staircase_weights([DifferentialPrivacy([(0, 1), (1, 2)], 3)], objective, []) is None
    assert staircase_weights([MaximalLeakage()], objective, []) is None
    assert staircase_weights([DifferentialPrivacy(), MaximalLeakage()], objective, []) is None
    assert staircase_weights([DifferentialPrivacy()], WorstCaseDistortion(prior), []) is None
    assert staircase_weights([DifferentialPrivacy()], objective, [objective]) is None
    assert DesignProblem(DifferentialPrivacy(), objective, solver="highs").direct is None
    assert DesignProblem(DifferentialPrivacy(), objective).direct is not None


@given(ldp_instances(), st.lists(budgets, min_size=2, max_size=5))
def test_warm_started_resolves_match_fresh_solves(instance, epsilons):
    prior, cost, _ = instance
    weights = prior.probabilities[:, None] * cost
    program = LdpLinearProgram(weights)
    for epsilon in epsilons:
        warm = program.solve(epsilon)
        assert warm.value == pytest.approx(LdpLinearProgram(weights).solve(epsilon).value, abs=PATH_AGREEMENT_ATOL)
        assert warm.value - warm.lower_bound <= PATH_AGREEMENT_ATOL
