"""Lazy constraint generation for hockey-stick (ε, δ)-DP (mechdesign.methods.hockey_stick).

Dwork & Roth, "The Algorithmic Foundations of Differential Privacy", Definition 2.4 (the hockey-stick
form on a finite output space); the optimum is compared with the general cvxpy path (every pair's
hinge terms, HiGHS) and certified by weak LP duality on the working-set relaxation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mechdesign import ApproximateDifferentialPrivacy, ExpectedDistortion, Prior, design
from mechdesign.methods.hockey_stick import (
    MIN_INPUTS,
    LazyHingeProgram,
    applies,
    design_hockey_stick,
    hockey_stick_dual_bound,
    leak_restriction,
    sandwich,
    sandwich_sides,
)
from mechdesign.privacy.approx_dp import pair_divergences
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.result import GAP_RTOL, within_budget
from mechdesign.methods.direct import ApproximateDpLinearProgram
from mechdesign.solve import DesignProblem
from mechdesign.utility.distortion import hamming_cost

#: Agreement of two exact designs (HiGHS dual simplex here, the cvxpy path's HiGHS there).
DESIGN_AGREEMENT_ATOL = 1e-7
#: Round-off allowed in a pair's divergence of the restriction's raw solution (HiGHS's feasibility tolerance 1e-10).
DIVERGENCE_ATOL = 1e-9
#: (δ, ε) pairs: pure DP (δ = 0), small and large δ, small and large ε.
BUDGETS = [(0.0, 0.5), (0.05, 0.2), (0.1, 1.0), (0.95, 0.3)]


def zipf(n: int) -> Prior:
    weights = 1.0 / np.arange(1, n + 1)
    return Prior(weights / weights.sum())


def random_problem(n: int, seed: int) -> ExpectedDistortion:
    rng = np.random.default_rng(seed)
    return ExpectedDistortion(Prior(rng.dirichlet(np.ones(n))), rng.random((n, n)))


def assert_matches_general_path(notion: ApproximateDifferentialPrivacy, budget: float,
                                objective: ExpectedDistortion) -> None:
    lazy = design_hockey_stick(notion, budget, objective)
    general = DesignProblem(notion, objective).solve(budget)
    assert lazy.status == "optimal" and lazy.method == "hockey-stick-cuts", lazy.message
    assert general.status == "optimal", general.message
    assert lazy.objective == pytest.approx(general.objective, abs=DESIGN_AGREEMENT_ATOL * objective.unit)
    assert lazy.gap <= GAP_RTOL * max(objective.unit, lazy.objective)
    assert lazy.bound <= lazy.objective + GAP_RTOL * objective.unit
    assert within_budget(notion.measure(lazy.mechanism), budget)


@pytest.mark.parametrize("delta, budget", BUDGETS)
@pytest.mark.parametrize("n, seed", [(8, 0), (12, 1)])
def test_random_costs_match_the_general_path(n, seed, delta, budget):
    assert_matches_general_path(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget, random_problem(n, seed))


@pytest.mark.parametrize("delta, budget", BUDGETS)
def test_hamming_cost_matches_the_general_path(delta, budget):
    assert_matches_general_path(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget,
                                ExpectedDistortion(zipf(10)))


@pytest.mark.slow
@pytest.mark.parametrize("delta, budget", [(0.05, 0.5), (0.5, 1.0)])
def test_twenty_inputs_match_the_general_path(delta, budget):
    assert_matches_general_path(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget, random_problem(20, 3))


def test_a_path_neighbour_relation_matches_the_general_path():
    n = 10
    path = [(i, i + 1) for i in range(n - 1)]
    notion = ApproximateDifferentialPrivacy(0.1, "hockey_stick", neighbours=path, n_inputs=n)
    assert_matches_general_path(notion, 0.5, random_problem(n, 4))


def test_rectangular_costs_match_the_general_path():
    rng = np.random.default_rng(5)
    objective = ExpectedDistortion(Prior(rng.dirichlet(np.ones(9))), rng.random((9, 5)))
    assert_matches_general_path(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), 0.7, objective)


@pytest.mark.parametrize("budget", [40.0, math.inf])
def test_budgets_beyond_the_cut_scale_are_solved_and_certified(budget):
    objective = random_problem(9, 6)
    result = design_hockey_stick(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), budget, objective)
    unconstrained = objective.value(objective.unconstrained_optimum())
    assert result.status == "optimal", result.message
    assert result.objective == pytest.approx(unconstrained, abs=GAP_RTOL)


@pytest.mark.parametrize("scale", [1e-9, 1e9])
def test_the_units_of_the_cost_do_not_change_the_answer(scale):
    notion, prior = ApproximateDifferentialPrivacy(0.05, "hockey_stick"), zipf(9)
    scaled = design_hockey_stick(notion, 0.5, ExpectedDistortion(prior, scale * hamming_cost(9)))
    reference = design_hockey_stick(notion, 0.5, ExpectedDistortion(prior))
    assert scaled.status == "optimal", scaled.message
    assert scaled.objective / scale == pytest.approx(reference.objective, abs=DESIGN_AGREEMENT_ATOL)


def test_design_routes_hockey_stick_problems_from_the_minimum_size():
    notion = ApproximateDifferentialPrivacy(0.05, "hockey_stick")
    assert design(notion, 0.5, ExpectedDistortion(zipf(MIN_INPUTS))).method == "hockey-stick-cuts"
    assert design(notion, 0.5, ExpectedDistortion(zipf(MIN_INPUTS - 1))).method == "cvxpy"
    assert design(notion, 0.5, ExpectedDistortion(zipf(MIN_INPUTS)), solver="clarabel").method == "cvxpy"
    assert not applies(ApproximateDifferentialPrivacy(0.05), ExpectedDistortion(zipf(MIN_INPUTS)))
    assert not applies(notion, ExpectedDistortion(zipf(MIN_INPUTS)), limits=[ExpectedDistortion(zipf(MIN_INPUTS))])


def test_bad_input_gets_a_named_error():
    objective = ExpectedDistortion(zipf(9))
    with pytest.raises(MechDesignError, match="one hockey-stick"):
        design_hockey_stick(ApproximateDifferentialPrivacy(0.05), 1.0, objective)
    with pytest.raises(MechDesignError, match="expected 1 budget"):
        design_hockey_stick(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), [1.0, 2.0], objective)
    with pytest.raises(InvalidBudgetError, match="budget for"):
        design_hockey_stick(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), -1.0, objective)


def test_every_hinge_held_makes_the_working_set_the_full_problem():
    # With every (pair, output) the relaxation is the cvxpy problem itself: the same optimum in one solve.
    objective = random_problem(6, 8)
    notion = ApproximateDifferentialPrivacy(0.1, "hockey_stick")
    first, second = notion.neighbours.ordered_pairs(6)
    weights = objective.prior.probabilities[:, None] * objective.cost
    program = LazyHingeProgram(weights, first, second, math.exp(0.4), 0.1)
    pairs, outputs = np.nonzero(np.ones((first.size, 6), dtype=bool))
    program.add_hinges(pairs, outputs)
    matrix = program.solve()
    general = DesignProblem(notion, objective).solve(0.4)
    assert program.missing_hinges(matrix, 10**6)[0].size == 0
    assert program.objective_value() == pytest.approx(general.objective, abs=DESIGN_AGREEMENT_ATOL)
    assert program.lower_bound() == pytest.approx(general.objective, abs=DESIGN_AGREEMENT_ATOL)


def took_the_sandwich(result) -> bool:
    return "leak_restriction" in result.message


@pytest.mark.parametrize("delta, budget", BUDGETS + [(1e-3, 2.0), (1e-2, 0.5)])
def test_hamming_cost_takes_the_sandwich(delta, budget):
    # Zipf prior, Hamming cost: the restriction met the pointwise bound in every case measured.
    result = design_hockey_stick(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget,
                                 ExpectedDistortion(zipf(12)))
    assert result.status == "optimal" and took_the_sandwich(result), result.message


@pytest.mark.parametrize("n, seed", [(8, 0), (12, 1), (10, 2)])
@pytest.mark.parametrize("delta, budget", BUDGETS)
def test_the_leak_restriction_is_private_and_above_the_optimum(n, seed, delta, budget):
    objective = random_problem(n, seed)
    weights = objective.prior.probabilities[:, None] * objective.cost
    matrix = leak_restriction(weights, math.exp(budget), delta)
    first, second = ApproximateDifferentialPrivacy(delta, "hockey_stick").neighbours.ordered_pairs(n)
    assert pair_divergences(matrix, first, second, math.exp(budget)).max() <= delta + DIVERGENCE_ATOL
    np.testing.assert_allclose(matrix.sum(axis=1), 1.0, rtol=0, atol=DIVERGENCE_ATOL)
    optimum = design_hockey_stick(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget, objective,
                                  restriction_first=False)
    assert float((weights * matrix).sum()) >= optimum.objective - DESIGN_AGREEMENT_ATOL


def test_a_restriction_above_the_optimum_falls_back_to_constraint_generation():
    # random_problem(4, 2) at (δ, ε) = (0.1, 1): the restriction is 1.2e-3 above the optimum (every row's
    # leak is charged against every other row), so the sandwich does not certify and the cuts run.
    notion, objective = ApproximateDifferentialPrivacy(0.1, "hockey_stick"), random_problem(4, 2)
    weights = objective.prior.probabilities[:, None] * objective.cost
    general = DesignProblem(notion, objective).solve(1.0)
    assert float((weights * leak_restriction(weights, math.e, 0.1)).sum()) > general.objective + 1e-4
    assert sandwich(notion, weights, 1.0) is None
    result = design_hockey_stick(notion, 1.0, objective)
    assert result.status == "optimal" and not took_the_sandwich(result), result.message
    assert result.objective == pytest.approx(general.objective, abs=DESIGN_AGREEMENT_ATOL)


@pytest.mark.parametrize("n, seed", [(5, 0), (8, 1), (12, 2), (16, 3)])
@pytest.mark.parametrize("delta, budget", [(0.01, 1.0), (0.05, 0.5), (0.1, 2.0)])
def test_the_multiplier_bound_lies_between_the_pointwise_bound_and_the_optimum(n, seed, delta, budget):
    # Weak duality for any μ >= 0 (hockey_stick_dual_bound's docstring): never above the certified optimum of
    # constraint generation; charging max_y μ instead of Σ_y μ never lowers the pointwise LP's bound.
    objective = random_problem(n, seed)
    weights = objective.prior.probabilities[:, None] * objective.cost
    pointwise = ApproximateDpLinearProgram(weights, delta)
    relaxed = pointwise.solve(budget).lower_bound
    bound = hockey_stick_dual_bound(weights, math.exp(budget), delta, *pointwise.pair_multipliers())
    optimum = design_hockey_stick(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget, objective,
                                  restriction_first=False, time_limit=None)
    assert optimum.status == "optimal", optimum.message
    assert relaxed - DESIGN_AGREEMENT_ATOL <= bound <= optimum.objective + DESIGN_AGREEMENT_ATOL


def test_the_multiplier_bound_is_valid_for_any_multipliers():
    # Arbitrary non-negative multipliers give a (weak) bound, never above the optimum.
    objective = random_problem(8, 4)
    weights = objective.prior.probabilities[:, None] * objective.cost
    optimum = design_hockey_stick(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), 1.0, objective,
                                  restriction_first=False, time_limit=None)
    rng = np.random.default_rng(5)
    for scale in (1e-3, 1e-1, 10.0):
        a, b = scale * rng.random((8, 8)), scale * rng.random((8, 8))
        assert hockey_stick_dual_bound(weights, math.e, 0.05, a, b) <= optimum.objective + DESIGN_AGREEMENT_ATOL


@pytest.mark.parametrize("weights, scale, delta, a, b, match", [
    (np.ones((2, 2)), math.e, 0.1, -np.ones((2, 2)), np.ones((2, 2)), "a has a negative entry"),
    (np.ones((2, 2)), math.e, 0.1, np.ones((2, 2)), np.ones((3, 2)), "b has shape"),
    (np.ones((2, 2)), 0.5, 0.1, np.ones((2, 2)), np.ones((2, 2)), "scale must be"),
    (np.ones((2, 2)), math.inf, 0.1, np.ones((2, 2)), np.ones((2, 2)), "scale must be finite"),
    (np.ones((2, 2)), math.e, 1.0, np.ones((2, 2)), np.ones((2, 2)), "delta must satisfy"),
    (np.full((2, 2), np.nan), math.e, 0.1, np.ones((2, 2)), np.ones((2, 2)), "weights has a non-finite entry"),
    (np.ones((2, 2)), math.e, 0.1, np.ones((2, 2)) * 1j, np.ones((2, 2)), "a must be numeric"),
])
def test_the_multiplier_bound_names_bad_input(weights, scale, delta, a, b, match):
    with pytest.raises(MechDesignError, match=match):
        hockey_stick_dual_bound(weights, scale, delta, a, b)


@pytest.mark.parametrize("notion, weights, epsilon, match", [
    (ApproximateDifferentialPrivacy(0.1, "hockey_stick"), np.ones((2, 2)), -1.0, "epsilon must be"),
    (ApproximateDifferentialPrivacy(0.1, "hockey_stick"), np.ones(2), 1.0, "weights must be a 2-D array"),
    ("approx", np.ones((2, 2)), 1.0, "notion"),
])
def test_the_sandwich_names_bad_input(notion, weights, epsilon, match):
    with pytest.raises(MechDesignError, match=match):
        sandwich_sides(notion, weights, epsilon)


def test_the_multiplier_bound_narrows_the_random_cost_gap():
    # Zipf prior, random cost, n = 30, ε = 1, δ = 0.01 (benchmarks/RESULTS.md): the pointwise bound leaves
    # 4.0 % below the restriction, the multiplier bound 0.62 % (its validity: the test above).
    n = 30
    objective = ExpectedDistortion(zipf(n), np.random.default_rng(n).random((n, n)))
    weights = objective.prior.probabilities[:, None] * objective.cost
    notion = ApproximateDifferentialPrivacy(0.01, "hockey_stick")
    matrix, bound = sandwich_sides(notion, weights, 1.0)
    pointwise = ApproximateDpLinearProgram(weights, 0.01).solve(1.0).lower_bound
    restricted = float((weights * matrix).sum())
    assert (restricted - bound) / restricted < 0.25 * (restricted - pointwise) / restricted


def test_a_time_limit_returns_the_private_restriction_with_its_certified_gap():
    # random_problem(4, 2) at (δ, ε) = (0.1, 1): the sandwich does not meet, constraint generation is cut off
    # before its first solve; the result is the restriction's mechanism, private, "suboptimal" with a valid bound.
    notion, objective = ApproximateDifferentialPrivacy(0.1, "hockey_stick"), random_problem(4, 2)
    optimum = DesignProblem(notion, objective).solve(1.0)
    stopped = design_hockey_stick(notion, 1.0, objective, time_limit=1e-12)
    assert stopped.success and stopped.status == "suboptimal", stopped.message
    assert "time limit" in stopped.message and "leak_restriction" in stopped.message
    assert within_budget(notion.measure(stopped.mechanism), 1.0)
    assert stopped.bound <= optimum.objective + DESIGN_AGREEMENT_ATOL < stopped.objective
    assert stopped.gap > GAP_RTOL


@pytest.mark.parametrize("time_limit", [0, -1.0, math.inf, math.nan, "1"])
def test_a_bad_time_limit_is_named(time_limit):
    with pytest.raises(MechDesignError, match="time_limit"):
        design_hockey_stick(ApproximateDifferentialPrivacy(0.1, "hockey_stick"), 1.0, random_problem(4, 2),
                            time_limit=time_limit)


def test_no_sandwich_on_other_neighbour_relations():
    # The pointwise relaxation has no compact LP here off the complete relation: constraint generation runs.
    path = [(i, i + 1) for i in range(9)]
    notion = ApproximateDifferentialPrivacy(0.05, "hockey_stick", neighbours=path, n_inputs=10)
    assert sandwich(notion, np.ones((10, 10)) - np.eye(10), 0.5) is None


def sandwich_against_constraint_generation(notion, budget, objective):
    fast = design_hockey_stick(notion, budget, objective)
    cuts = design_hockey_stick(notion, budget, objective, restriction_first=False)
    assert fast.status == "optimal" and cuts.status == "optimal", (fast.message, cuts.message)
    assert took_the_sandwich(fast) and not took_the_sandwich(cuts)
    assert fast.objective == pytest.approx(cuts.objective, abs=DESIGN_AGREEMENT_ATOL * objective.unit)


@pytest.mark.parametrize("n, delta, budget", [(16, 1e-3, 0.5), (16, 1e-2, 1.0), (16, 0.05, 2.0), (30, 1e-3, 0.5),
                                              (30, 1e-2, 1.0)])
def test_the_sandwich_matches_constraint_generation(n, delta, budget):
    sandwich_against_constraint_generation(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget,
                                           ExpectedDistortion(zipf(n)))


@pytest.mark.slow
@pytest.mark.parametrize("delta, budget", [(1e-3, 1.0), (1e-2, 2.0)])
def test_the_sandwich_matches_constraint_generation_at_forty_inputs(delta, budget):
    sandwich_against_constraint_generation(ApproximateDifferentialPrivacy(delta, "hockey_stick"), budget,
                                           ExpectedDistortion(zipf(40)))
