"""The distortion–rate design under mutual-information privacy (mechdesign.methods.blahut_arimoto).

Checked against the conic cvxpy path (Clarabel) and against closed forms: the binary source with
Hamming distortion, ``D(R) = h^{-1}(h(p) − R)`` (Cover & Thomas, *Elements of Information Theory*,
Theorem 10.3.1), and the uniform m-ary source with Hamming distortion,
``R(D) = log m − h(D) − D log(m − 1)`` (Cover & Thomas, Problem 10.5); every result is certified by
Blahut's dual bound (Blahut 1972, Theorem 8).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq

from mechdesign import ExpectedDistortion, MutualInformationPrivacy, Prior, design
from mechdesign.methods.blahut_arimoto import SlopeSolver, applies, design_distortion_rate
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.result import GAP_RTOL, within_budget
from mechdesign.solve import DesignProblem
from mechdesign.utility.distortion import hamming_cost
from mechdesign.utility.information import mutual_information

#: Agreement with the conic path (Clarabel at 1e-10, certified within GAP_RTOL on both sides).
CONIC_AGREEMENT_ATOL = 2 * GAP_RTOL
#: Agreement with a closed form evaluated by root finding to 1e-14.
CLOSED_FORM_ATOL = 2 * GAP_RTOL
#: Floating-point round-off of a rate of order 1 computed two ways.
ROUND_OFF = 1e-13


def binary_entropy(t: float) -> float:
    return -sum(v * math.log(v) for v in (t, 1 - t) if v > 0)


def assert_certified(result, notion, budget, unit=1.0):
    assert result.status == "optimal" and result.method == "blahut-arimoto", result.message
    assert result.gap <= GAP_RTOL * max(unit, result.objective)
    assert result.bound <= result.objective + GAP_RTOL * unit
    assert within_budget(notion.measure(result.mechanism), budget)


@pytest.mark.parametrize("p", [0.5, 0.3, 0.1])
@pytest.mark.parametrize("rate_fraction", [0.1, 0.5, 0.9])
def test_binary_source_meets_cover_thomas_theorem_10_3_1(p, rate_fraction):
    rate = rate_fraction * binary_entropy(p)
    prior = Prior([1 - p, p])
    notion = MutualInformationPrivacy(prior)
    result = design_distortion_rate(notion, rate, ExpectedDistortion(prior))
    expected = brentq(lambda d: binary_entropy(d) - (binary_entropy(p) - rate), 0.0, min(p, 1 - p), xtol=1e-15)
    assert_certified(result, notion, rate)
    assert result.objective == pytest.approx(expected, abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("m", [3, 10, 40])
@pytest.mark.parametrize("distortion", [0.05, 0.3])
def test_uniform_m_ary_hamming_source(m, distortion):
    rate = math.log(m) - binary_entropy(distortion) - distortion * math.log(m - 1)
    prior = Prior.uniform(m)
    notion = MutualInformationPrivacy(prior)
    result = design_distortion_rate(notion, rate, ExpectedDistortion(prior))
    assert_certified(result, notion, rate)
    assert result.objective == pytest.approx(distortion, abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("budget", [0.05, 0.5, 1.5])
@pytest.mark.parametrize("n, seed", [(6, 0), (15, 1)])
def test_random_costs_match_the_conic_path(n, seed, budget):
    rng = np.random.default_rng(seed)
    prior = Prior(rng.dirichlet(np.ones(n)))
    objective, notion = ExpectedDistortion(prior, rng.random((n, n))), MutualInformationPrivacy(prior)
    result = design_distortion_rate(notion, budget, objective)
    conic = DesignProblem(notion, objective).solve(budget)
    assert_certified(result, notion, budget)
    assert conic.status == "optimal", conic.message
    assert result.objective == pytest.approx(conic.objective, abs=CONIC_AGREEMENT_ATOL)


def test_zipf_prior_with_hamming_cost_matches_the_conic_path():
    weights = 1.0 / np.arange(1, 13)
    prior = Prior(weights / weights.sum())
    notion = MutualInformationPrivacy(prior)
    for budget in (0.05, 0.5, 1.5):
        result = design_distortion_rate(notion, budget, ExpectedDistortion(prior))
        conic = DesignProblem(notion, ExpectedDistortion(prior)).solve(budget)
        assert_certified(result, notion, budget)
        assert result.objective == pytest.approx(conic.objective, abs=CONIC_AGREEMENT_ATOL)


def test_rate_zero_and_rates_beyond_the_entropy_are_exact():
    prior = Prior([0.5, 0.3, 0.2])
    notion, objective = MutualInformationPrivacy(prior), ExpectedDistortion(prior)
    zero = design_distortion_rate(notion, 0.0, objective)
    assert zero.status == "optimal" and zero.objective == pytest.approx(0.5, abs=1e-15) and zero.gap == 0
    entropy = -sum(v * math.log(v) for v in prior.probabilities)
    for budget in (entropy, 5.0, math.inf):
        full = design_distortion_rate(notion, budget, objective)
        assert full.status == "optimal" and full.objective == 0.0 and full.gap == 0


def test_zero_probability_inputs_are_handled():
    prior = Prior([0.5, 0.0, 0.3, 0.2, 0.0])
    rng = np.random.default_rng(3)
    objective, notion = ExpectedDistortion(prior, rng.random((5, 4))), MutualInformationPrivacy(prior)
    result = design_distortion_rate(notion, 0.3, objective)
    conic = DesignProblem(notion, objective).solve(0.3)
    assert_certified(result, notion, 0.3)
    assert result.objective == pytest.approx(conic.objective, abs=CONIC_AGREEMENT_ATOL)


@pytest.mark.parametrize("scale", [1e-12, 1e-9, 1e9, 1e12])
def test_the_units_of_the_cost_do_not_change_the_answer(scale):
    prior = Prior([0.4, 0.3, 0.2, 0.1])
    notion = MutualInformationPrivacy(prior)
    scaled = design_distortion_rate(notion, 0.4, ExpectedDistortion(prior, scale * hamming_cost(4)))
    reference = design_distortion_rate(notion, 0.4, ExpectedDistortion(prior))
    assert_certified(scaled, notion, 0.4, unit=scale)
    assert scaled.objective / scale == pytest.approx(reference.objective, abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("scale", [1e-12, 1e12])
@pytest.mark.parametrize("budget", [0.1, 2.0])
def test_the_units_of_a_random_cost_do_not_change_the_answer(scale, budget):
    # 2.0 nats on 12 inputs needs slopes beyond 700 per unit of the largest cost (close cheapest costs).
    rng = np.random.default_rng(7)
    prior, cost = Prior(rng.dirichlet(np.ones(12))), rng.random((12, 12))
    notion = MutualInformationPrivacy(prior)
    scaled = design_distortion_rate(notion, budget, ExpectedDistortion(prior, scale * cost))
    reference = design_distortion_rate(notion, budget, ExpectedDistortion(prior, cost))
    assert_certified(scaled, notion, budget, unit=scale * cost.max())
    assert_certified(reference, notion, budget, unit=cost.max())
    assert scaled.objective / scale == pytest.approx(reference.objective, abs=CONIC_AGREEMENT_ATOL)


def test_design_routes_the_distortion_rate_problem():
    prior = Prior([0.4, 0.3, 0.2, 0.1])
    notion = MutualInformationPrivacy(prior)
    assert design(notion, 0.4, ExpectedDistortion(prior)).method == "blahut-arimoto"
    assert design(notion, 0.4, ExpectedDistortion(prior), solver="clarabel").method == "cvxpy"
    other_prior = ExpectedDistortion(Prior.uniform(4))
    assert not applies(notion, other_prior)
    assert design(notion, 0.4, other_prior).method == "cvxpy"
    assert not applies(notion, ExpectedDistortion(prior), limits=[ExpectedDistortion(prior)])


def test_bad_input_gets_a_named_error():
    prior = Prior([0.4, 0.3, 0.2, 0.1])
    notion, objective = MutualInformationPrivacy(prior), ExpectedDistortion(prior)
    with pytest.raises(MechDesignError, match="one MutualInformationPrivacy"):
        design_distortion_rate(notion, 0.4, ExpectedDistortion(Prior.uniform(4)))
    with pytest.raises(MechDesignError, match="expected 1 budget"):
        design_distortion_rate(notion, [0.4, 0.5], objective)
    with pytest.raises(InvalidBudgetError, match="budget for"):
        design_distortion_rate(notion, -0.1, objective)


def test_the_slope_solver_certifies_its_rate_gap():
    # Blahut 1972, Theorem 8: I(P, Q) <= b + log max_y c_y − s D; the solver stops at log max c <= tolerance.
    rng = np.random.default_rng(4)
    p, cost = rng.dirichlet(np.ones(30)), rng.random((30, 30))
    solver = SlopeSolver(p, cost)
    for slope in (0.5, 5.0, 50.0):
        point = solver.solve(slope, solver.warm_start(slope), 1e-12)
        assert -ROUND_OFF <= point.rate - (point.intercept - slope * point.distortion) <= 1e-10


def zipf(n):
    weights = 1.0 / np.arange(1, n + 1)
    return weights / weights.sum()


#: The budgets of issue 13 item 5 (those that were slow at n = 1000), at n = 20: 0.9 log 20 ≈ 2.7 nats.
SLOW_BUDGETS = (0.01, 0.1, 0.5, 1.0, 2.0, 0.9 * math.log(20))


@pytest.mark.parametrize("prior_kind", ["zipf", "uniform"])
@pytest.mark.parametrize("cost_kind", ["random", "hamming"])
def test_every_budget_matches_the_conic_path(prior_kind, cost_kind):
    n = 20
    prior = Prior(zipf(n) if prior_kind == "zipf" else np.full(n, 1.0 / n))
    cost = np.random.default_rng(n).random((n, n)) if cost_kind == "random" else hamming_cost(n)
    notion, objective = MutualInformationPrivacy(prior), ExpectedDistortion(prior, cost)
    for budget in SLOW_BUDGETS:
        result = design_distortion_rate(notion, budget, objective)
        conic = DesignProblem(notion, objective).solve(budget)
        assert_certified(result, notion, budget, unit=objective.unit)
        assert conic.status == "optimal", conic.message
        assert result.objective == pytest.approx(conic.objective, abs=CONIC_AGREEMENT_ATOL * objective.unit)


@settings(max_examples=25)
@given(st.integers(2, 12), st.integers(0, 2**32 - 1), st.one_of(st.just(0.0), st.floats(1e-3, 1.0)), st.booleans())
def test_the_certificate_holds(n, seed, fraction, hamming):
    # Blahut 1972, Theorem 8: the bound is a dual value, below the re-measured distortion; the mechanism
    # meets the budget when measured again here, independently of the designer's own re-measure. Budgets
    # strictly between 0 and the rate at MIN_SLOPE (~1e-18 nats) are left out: no slope brackets them, and
    # the dual line at s = 1e-9 carries a round-off of 1e-16 / s (a known limitation, not yet handled).
    rng = np.random.default_rng(seed)
    prior = Prior(rng.dirichlet(np.ones(n)))
    cost = hamming_cost(n) if hamming else rng.random((n, n))
    objective, notion = ExpectedDistortion(prior, cost), MutualInformationPrivacy(prior)
    budget = fraction * mutual_information(prior.probabilities, objective.unconstrained_optimum())
    result = design_distortion_rate(notion, budget, objective)
    matrix = result.mechanism.matrix
    assert result.status == "optimal", result.message
    assert result.objective == pytest.approx(float(prior.probabilities @ (matrix * cost).sum(axis=1)), abs=ROUND_OFF)
    assert result.bound <= result.objective + ROUND_OFF * objective.unit
    assert within_budget(mutual_information(prior.probabilities, matrix), budget)


def test_a_starved_start_at_the_largest_slope_is_fed():
    # At max_slope the kernel is 0 off each input's cheapest output: a start on one output leaves every
    # other input with Z_x = 0 until its cheapest output joins the support.
    rng = np.random.default_rng(5)
    p, cost = rng.dirichlet(np.ones(25)), rng.random((25, 25))
    solver = SlopeSolver(p, cost)
    start = np.zeros(25)
    start[0] = 1.0
    point = solver.solve(solver.max_slope, start, 1e-12)
    round_off = ROUND_OFF * abs(point.intercept)  # b ≈ s D + R: its round-off grows with the slope (here 1e6)
    assert math.isfinite(point.intercept)
    assert -round_off <= point.rate - (point.intercept - solver.max_slope * point.distortion) <= 1e-10 + round_off


@pytest.mark.parametrize("budget", [0.05, 0.3, 1.0])
def test_the_prior_is_wrapped_once_at_the_boundary(budget, monkeypatch):
    """Issue 33 item 4 (typed inputs once): a design under a full-support prior builds no Prior at all —
    the objective's Prior is passed inward as it is, not re-wrapped at every slope (7 to 9 before)."""
    prior = Prior([0.4, 0.3, 0.2, 0.1])
    notion, objective = MutualInformationPrivacy(prior), ExpectedDistortion(prior)
    built = []
    original = Prior.__init__

    def counting(self, *args, **kwargs):
        built.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Prior, "__init__", counting)
    result = design(notion, budget, objective)
    assert result.method == "blahut-arimoto" and result.status == "optimal" and built == []
