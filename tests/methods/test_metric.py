import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from mechdesign import ExpectedDistortion, Prior, design
from mechdesign.result import within_budget
from mechdesign.methods.metric import (
    cone_closure,
    design_metric_dp,
    dual_bound,
    output_bound,
    spanner_distances,
    transport_pricing,
)
from mechdesign.exceptions import InvalidBudgetError, MechDesignError, ShapeMismatchError
from mechdesign.privacy.metric import MetricDifferentialPrivacy


def full_lp(weights, distances, epsilon):
    """The whole LP, every ordered pair and output a row (what qif solves), by scipy's HiGHS."""
    n, m = weights.shape
    rows, columns, values, k = [], [], [], 0
    for y in range(m):
        for x in range(n):
            for other in range(n):
                if x != other:
                    rows += [k, k]
                    columns += [x * m + y, other * m + y]
                    values += [1.0, -math.exp(epsilon * distances[x, other])]
                    k += 1
    pairs = sp.csr_matrix((values, (rows, columns)), shape=(k, n * m))
    sums = sp.kron(sp.eye(n), np.ones((1, m)))
    result = linprog(weights.ravel(), A_ub=pairs, b_ub=np.zeros(k), A_eq=sums, b_eq=np.ones(n), bounds=(0, None),
                     method="highs")
    return result.fun


@pytest.mark.parametrize("width, epsilon, seed", [(3, 0.3, 1), (4, 1.0, 2), (4, 0.1, 3)])
def test_exact_design_is_the_full_lp_optimum(width, epsilon, seed):
    notion = MetricDifferentialPrivacy.grid(width, width)
    prior = np.random.default_rng(seed).dirichlet(np.full(width * width, 0.5))
    result = design_metric_dp(notion, epsilon, prior=Prior(prior))
    assert result.status == "optimal" and result.method == "metric-cone"
    assert result.objective == pytest.approx(full_lp(prior[:, None] * notion.distances, notion.distances, epsilon),
                                             abs=1e-9)
    assert notion.measure(result.mechanism) <= epsilon + 1e-9
    assert result.bound <= result.objective + 1e-12


def test_any_cost_and_a_graph_metric():
    notion = MetricDifferentialPrivacy.from_graph([(0, 1), (1, 2), (2, 3), (0, 3), (1, 3)], [1, 2, 1, 3, 1.5], 4)
    rng = np.random.default_rng(4)
    prior, cost = rng.dirichlet(np.ones(4)), rng.uniform(0, 1, (4, 3))
    result = design_metric_dp(notion, 0.7, ExpectedDistortion(Prior(prior), cost))
    assert result.status == "optimal" and result.mechanism.matrix.shape == (4, 3)
    assert result.objective == pytest.approx(full_lp(prior[:, None] * cost, notion.distances, 0.7), abs=1e-9)


def test_spanner_mechanism_is_private_and_not_better_than_the_optimum():
    notion = MetricDifferentialPrivacy.grid(4, 4)
    prior = Prior(np.random.default_rng(5).dirichlet(np.ones(16)))
    exact = design_metric_dp(notion, 1.0, prior=prior)
    spanner = design_metric_dp(notion, 1.0, prior=prior, method="spanner")
    assert spanner.method == "metric-spanner" and spanner.success and spanner.status in ("optimal", "suboptimal")
    assert notion.measure(spanner.mechanism) <= 1.0 + 1e-9
    assert spanner.objective >= exact.objective - 1e-12
    assert spanner.bound <= exact.objective + 1e-12  # a bound on the true optimum, not on the spanner LP


def test_spanner_dilation_is_exact():
    notion = MetricDifferentialPrivacy.grid(5, 5)
    edges, distances, dilation = spanner_distances(notion, 4)  # every unit edge of the grid is among them
    off = ~np.eye(25, dtype=bool)
    assert dilation == pytest.approx(math.sqrt(2))
    assert np.all(distances[off] <= dilation * notion.distances[off] + 1e-12)


def pricing_lp(reduced, scales):
    """min r · q over q in the cone within the unit box, every pair a row."""
    n = reduced.size
    rows, columns, values, k = [], [], [], 0
    for x in range(n):
        for other in range(n):
            if x != other:
                rows += [k, k]
                columns += [x, other]
                values += [1.0, -scales[x, other]]
                k += 1
    result = linprog(reduced, A_ub=sp.csr_matrix((values, (rows, columns)), shape=(k, n)), b_ub=np.zeros(k),
                     bounds=(0, 1), method="highs")
    return result.fun


@pytest.mark.parametrize("seed", range(4))
def test_transport_pricing_is_exact(seed):
    notion = MetricDifferentialPrivacy.grid(3, 3)
    scales = np.exp(0.5 * notion.distances)
    reduced = np.random.default_rng(seed).normal(size=9) + 0.3 * seed  # from many deficits to none
    term, column = transport_pricing(reduced, scales)
    assert term == pytest.approx(pricing_lp(reduced, scales), abs=1e-9)
    assert output_bound(reduced, scales) <= term + 1e-12  # the greedy flow is a weaker valid bound
    if column is None:  # every deficit covered: q = 0 is the minimum
        assert term == 0.0
    else:
        assert reduced @ column == pytest.approx(term, abs=1e-9)  # the entering column attains it
        assert np.all(column[:, None] <= scales * column[None, :] * (1 + 1e-12))  # in the cone


def pricing_case(output):
    """An 8 × 8 grid's pricing instance for ``output`` (seeded by it): the notion, ``e^d``, the prior, row duals near
    the prior times the ninth-nearest distance (a few deficits near the output) and the generator."""
    notion = MetricDifferentialPrivacy.grid(8, 8)
    scales = np.exp(notion.distances)
    rng = np.random.default_rng(output)
    prior = rng.dirichlet(np.full(64, 2.0))
    duals = prior * np.sort(notion.distances, axis=1)[:, 9] * (1 + 0.3 * rng.random(64))
    return notion, scales, prior, duals, rng


@pytest.mark.parametrize("output, guessed", [(27, False), (27, True), (0, False), (63, True)])
def test_arc_generated_pricing_is_exact_where_its_first_arcs_are_not(monkeypatch, output, guessed):
    """A pricing problem like a design round's on the 8 × 8 grid (ε = 1, row duals a few times the prior, so that
    6–20 inputs near the output have deficits and the others surpluses): the arc-generated flow's term equals the
    pricing LP with every pair a row (scipy's HiGHS, an independent LP), and its column attains it. With arc
    generation stopped after the first solve (ARC_TOL = inf) the term is lower on every case (asserted last): the
    check fails if the generation loop ends early."""
    from mechdesign.methods import metric

    notion, scales, prior, duals, rng = pricing_case(output)
    reduced = prior * notion.distances[:, output] - duals
    guess = np.exp(-notion.distances[:, (output + 9) % 64]) if guessed else None
    expected = pricing_lp(reduced, scales)
    term, column = transport_pricing(reduced, scales, guess)
    assert expected < -1e-3 and 3 <= (reduced < 0).sum() <= 24
    assert term == pytest.approx(expected, abs=1e-12 * abs(expected) + 1e-15)
    assert reduced @ column == pytest.approx(expected, rel=1e-9)
    monkeypatch.setattr(metric, "ARC_TOL", math.inf)
    assert transport_pricing(reduced, scales, guess)[0] < expected - 1e-6 * abs(expected)  # less flow: lower


def flow_on_pairs(reduced, scales, pairs):
    """The pricing term of the transport LP restricted to the arcs ``pairs`` (``(deficit, surplus)`` inputs): the
    deficits' sum plus the most flow those arcs carry (scipy's HiGHS)."""
    deficits = reduced < 0
    k = len(pairs)
    rows = np.concatenate([pairs[:, 0], pairs[:, 1]])
    values = np.concatenate([np.ones(k), scales[pairs[:, 0], pairs[:, 1]]])
    capacity = sp.csr_matrix((values, (rows, np.tile(np.arange(k), 2))), shape=(reduced.size, k))
    result = linprog(-np.ones(k), A_ub=capacity, b_ub=np.abs(reduced), bounds=(0, None), method="highs")
    return reduced[deficits].sum() - result.fun


@pytest.mark.parametrize("output", [27, 0, 63])
def test_pricing_from_the_last_rounds_arcs_is_exact(output):
    """The arcs carrying flow at the end of a pricing (``_transport``'s third value) join a deficit to a surplus and
    carry the whole optimal flow (the transport LP on them alone, in scipy, reaches the every-pair optimum); priced
    again from them at duals moved by up to 5 % (as the next round's are), the term is still the every-pair LP's."""
    from mechdesign.methods.metric import _transport

    notion, scales, prior, duals, rng = pricing_case(output)
    reduced = prior * notion.distances[:, output] - duals
    term, column, pairs = _transport(reduced, scales, None, None)
    expected = pricing_lp(reduced, scales)
    assert np.all(reduced[pairs[:, 0]] < 0) and np.all(reduced[pairs[:, 1]] > 0)
    assert flow_on_pairs(reduced, scales, pairs) == pytest.approx(expected, abs=1e-12 * abs(expected) + 1e-15)
    moved = prior * notion.distances[:, output] - duals * (1 + 0.05 * rng.uniform(-1, 1, 64))
    again = pricing_lp(moved, scales)
    assert transport_pricing(moved, scales, column, pairs)[0] == pytest.approx(again, abs=1e-12 * abs(again) + 1e-15)


def test_cone_closure_is_the_largest_member_below():
    scales = np.exp(MetricDifferentialPrivacy.from_points([0.0, 1.0, 3.0]).distances)
    q = cone_closure(np.array([1.0, 0.01, 1.0]), scales)
    assert q.tolist() == pytest.approx([math.e * 0.01, 0.01, math.e ** 2 * 0.01])
    assert np.array_equal(cone_closure(q, scales), q)


def test_dual_bound_at_the_optimal_duals_is_the_optimum():
    weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    scales = np.array([[1.0, 3.0], [3.0, 1.0]])
    assert dual_bound(weights, np.array([0.125, 0.125]), scales) == pytest.approx(0.25)
    assert dual_bound(weights, np.array([0.2, 0.2]), scales) < 0.25


def test_bad_input():
    notion = MetricDifferentialPrivacy.grid(2, 2)
    prior = Prior.uniform(4)
    with pytest.raises(MechDesignError, match="MetricDifferentialPrivacy"):
        design_metric_dp(object(), 1.0, prior=prior)
    with pytest.raises(MechDesignError, match="objective or a prior"):
        design_metric_dp(notion, 1.0)
    with pytest.raises(MechDesignError, match="4 rows .*expected 3"):
        design_metric_dp(notion, 1.0, prior=Prior.uniform(3))
    with pytest.raises(ShapeMismatchError, match="the objective has 3 inputs"):
        design_metric_dp(notion, 1.0, ExpectedDistortion(Prior.uniform(3)))
    with pytest.raises(InvalidBudgetError):
        design_metric_dp(notion, -1.0, prior=prior)
    with pytest.raises(MechDesignError, match="method"):
        design_metric_dp(notion, 1.0, prior=prior, method="fast")


def test_a_master_lp_failure_is_a_failed_result_not_bad_input(monkeypatch):
    """A solver failure is never reported as bad input: the design returns a "solver_error" result."""
    from mechdesign import Prior
    from mechdesign.methods import metric
    from mechdesign.exceptions import SolverFailedError
    from mechdesign.privacy.metric import MetricDifferentialPrivacy

    def fail(*args, **kwargs):
        raise SolverFailedError("the metric-DP master LP failed: status kSolveError")

    monkeypatch.setattr(metric, "_pattern_design", fail)
    notion = MetricDifferentialPrivacy.from_points([0.0, 1.0, 2.0])
    result = metric.design_metric_dp(notion, 1.0, prior=Prior.uniform(3))
    assert result.status == "solver_error" and not result.success and "kSolveError" in result.message


def test_design_routes_metric_dp_to_the_cone_method():
    """design() takes the certified metric-cone method for one MetricDifferentialPrivacy (read from the registry's
    solver-side map), with the optimum of design_metric_dp."""
    from mechdesign import ExpectedDistortion, Prior, design
    from mechdesign.methods import metric
    from mechdesign.privacy.metric import MetricDifferentialPrivacy

    notion = MetricDifferentialPrivacy.from_points([0.0, 1.0, 3.0, 4.0])
    objective = ExpectedDistortion(Prior([0.1, 0.4, 0.3, 0.2]), notion.distances)
    routed = design(notion, 0.7, objective)
    direct = metric.design_metric_dp(notion, 0.7, objective)
    assert routed.method == "metric-cone" and routed.status == "optimal"
    assert routed.objective == pytest.approx(direct.objective, abs=1e-12)


LINE = MetricDifferentialPrivacy.from_points([0.0, 1.0, 2.0, 3.0, 4.0])


@pytest.mark.parametrize("epsilon", [0.0, 1e-6, 1.0, 30.0, 1e4, math.inf])
def test_every_budget_is_certified_in_every_unit(epsilon):
    """Points 0…4, uniform prior, the cost times 1e-12, 1 or 1e12: the same certified optimum (divided by the scale,
    relative 1e-9) and a mechanism within the budget; ε = 0 is the best constant mechanism (loss 1.2: output 2),
    ε = 1 the full LP's optimum, ε = inf the unconstrained optimum (0), huge budgets capped but certified."""
    values = []
    for scale in (1e-12, 1.0, 1e12):
        result = design_metric_dp(LINE, epsilon, ExpectedDistortion(Prior.uniform(5), scale * LINE.distances))
        assert result.status == "optimal", (scale, result.message)
        assert LINE.measure(result.mechanism) <= epsilon + 1e-12  # the re-measure's rounding
        values.append(result.objective / scale)
    assert values == pytest.approx([values[1]] * 3, rel=1e-9, abs=0.0)
    expected = {0.0: 1.2, 1.0: full_lp(np.full((5, 1), 0.2) * LINE.distances, LINE.distances, 1.0), math.inf: 0.0}
    if epsilon in expected:
        assert values[1] == pytest.approx(expected[epsilon], rel=1e-9, abs=1e-15)
    if epsilon == 1e4:  # the cap's ratio e^300: 2 · (4 ⋅ 0.2) · e^-300 of loss at most, and more than nothing
        assert 0.0 < values[1] < 1e-129


def test_design_takes_infinite_and_huge_budgets():
    """design(..., method="metric-cone") answers ε = inf and ε = 1e4 (refused before) with certified optima."""
    from mechdesign import design

    objective = ExpectedDistortion(Prior([0.1, 0.2, 0.3, 0.2, 0.2]), LINE.distances)
    for epsilon in (1e4, math.inf):
        result = design(LINE, epsilon, objective, method="metric-cone")
        assert result.status == "optimal" and LINE.measure(result.mechanism) <= epsilon + 1e-12
        assert result.objective == pytest.approx(0.0, abs=1e-120)


@settings(max_examples=10, deadline=None)
@given(st.floats(-12, 12), st.floats(0.05, 3.0), st.integers(0, 2**16))
def test_the_cost_unit_never_changes_the_answer(exponent, epsilon, seed):
    prior = Prior(np.random.default_rng(seed).dirichlet(np.ones(5)))
    base = design_metric_dp(LINE, epsilon, ExpectedDistortion(prior, LINE.distances))
    scaled = design_metric_dp(LINE, epsilon, ExpectedDistortion(prior, 10.0 ** exponent * LINE.distances))
    assert (base.status, scaled.status) == ("optimal", "optimal")
    assert scaled.objective / 10.0 ** exponent == pytest.approx(base.objective, rel=1e-9)


def relaxed_lp(weights, distances, epsilon, largest_rate=1e9):
    """The whole LP, every ordered pair and output a row (scipy's HiGHS, tolerances 1e-10), leaving out the rows whose
    ratio e^{ε d} exceeds ``largest_rate`` (HiGHS cannot hold e^{40}): a relaxation, so its optimum is at most the true
    one, and a private mechanism within 1e-9 of it is optimal to 1e-9."""
    n, m = weights.shape
    x, other = np.nonzero(~np.eye(n, dtype=bool) & (epsilon * distances <= math.log(largest_rate)))
    k = x.size
    output = np.repeat(np.arange(m), k)
    rows = np.concatenate([np.arange(k * m)] * 2)
    columns = np.concatenate([np.tile(x, m) * m + output, np.tile(other, m) * m + output])
    values = np.concatenate([np.ones(k * m), -np.tile(np.exp(epsilon * distances[x, other]), m)])
    pairs = sp.csr_matrix((values, (rows, columns)), shape=(k * m, n * m))
    sums = sp.kron(sp.eye(n), np.ones((1, m)))
    result = linprog(weights.ravel(), A_ub=pairs if k else None, b_ub=np.zeros(k * m) if k else None, A_eq=sums,
                     b_eq=np.ones(n), bounds=(0, None), method="highs",
                     options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    assert result.status == 0, result.message
    return result.fun


LARGE_BUDGETS = (6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 30.0, 50.0, 100.0, 1e3)


def non_metric_cost_design(epsilon, method="metric-cone"):
    """Points 0…4, a random cost that is not the metric, prior (0.4, 0.2, 0.2, 0.1, 0.1)."""
    from mechdesign import design

    cost = np.random.default_rng(0).random((5, 5))
    prior = np.array([0.4, 0.2, 0.2, 0.1, 0.1])
    return design(LINE, epsilon, ExpectedDistortion(Prior(prior), cost), method=method), prior[:, None] * cost


@pytest.mark.parametrize("epsilon", LARGE_BUDGETS)
def test_large_budgets_with_a_non_metric_cost_are_certified(epsilon):
    """From ε = 8 the pricing's flow drops the pairs above MAX_RATE; their inputs got no dual (0), and the lower
    closure of a column with a zero is the zero column: no pattern entered, "suboptimal" at 0.21674 from ε = 10
    (the optimum is 0.13629). The lifted column enters; the value is the relaxed full LP's to 1e-9."""
    result, weights = non_metric_cost_design(epsilon)
    assert result.status == "optimal", result.message
    assert LINE.measure(result.mechanism) <= epsilon * (1 + 1e-12)
    assert result.objective == pytest.approx(relaxed_lp(weights, LINE.distances, epsilon), rel=1e-9, abs=0.0)


def test_large_budgets_with_a_non_metric_cost_are_monotone():
    """The certified optimum never rises with the budget (a larger ε only relaxes the constraints)."""
    values = [non_metric_cost_design(epsilon)[0].objective for epsilon in LARGE_BUDGETS]
    assert all(later <= earlier * (1 + 1e-12) for earlier, later in zip(values, values[1:])), values


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 12), st.integers(2, 12), st.floats(-2.0, 3.0), st.sampled_from([1e-12, 1.0, 1e12]),
       st.integers(0, 2**16))
def test_random_metrics_costs_and_budgets_match_the_full_lp(n, m, log_budget, scale, seed):
    """Random points in the plane, a random cost (not the metric) on m outputs, a random prior, ε from 0.01 to 1e3
    per unit, the cost times 1e-12, 1 or 1e12: "optimal", private, never below the relaxed full LP's optimum, and
    above it by at most the design's stated gap (1e-9 of the larger of the largest cost and the value: seeds 194 and
    379 of a 400-case sweep stopped 6e-9 and 4e-9 above it, relative, at values 0.16-0.3 of the largest cost)."""
    rng = np.random.default_rng(seed)
    notion = MetricDifferentialPrivacy.from_points(rng.uniform(0.0, 5.0, (n, 2)))
    prior, cost = rng.dirichlet(np.full(n, 0.7)), rng.random((n, m))
    epsilon = 10.0 ** log_budget
    result = design_metric_dp(notion, epsilon, ExpectedDistortion(Prior(prior), scale * cost))
    assert result.status == "optimal", result.message
    assert notion.measure(result.mechanism) <= epsilon * (1 + 1e-12)
    expected = relaxed_lp(prior[:, None] * cost, notion.distances, epsilon)
    assert result.objective / scale >= expected * (1 - 1e-12)
    assert result.objective / scale == pytest.approx(expected, rel=1e-9, abs=1e-9 * cost.max())


def test_a_pattern_the_master_priced_out_does_not_enter_again():
    """10 random points, 3 outputs, ε = 10.7 (seed 171 of the sweep): the pricing returned two columns of reduced
    cost -1e-11 and -7e-11, inside HiGHS's dual tolerance (1e-10), so the master did not move and the same two
    columns entered every round, forever (2,013 rounds in 30 s). Now it ends in a few rounds, within the stated gap
    of the relaxed full LP's optimum."""
    rng = np.random.default_rng(171)
    n, m = int(rng.integers(3, 13)), int(rng.integers(2, 13))
    notion = MetricDifferentialPrivacy.from_points(rng.uniform(0, 5, (n, 2)))
    epsilon = float(10 ** rng.uniform(-2, 3))
    rng.choice([1e-12, 1.0, 1e12])
    prior, cost = rng.dirichlet(np.full(n, 0.7)), rng.random((n, m))
    result = design_metric_dp(notion, epsilon, ExpectedDistortion(Prior(prior), cost), time_limit=60.0)
    assert (n, m, round(epsilon, 3)) == (10, 3, 10.713)
    assert result.status == "optimal" and result.iterations < 100, result.message
    assert result.objective == pytest.approx(relaxed_lp(prior[:, None] * cost, notion.distances, epsilon), rel=1e-9,
                                             abs=1e-9 * cost.max())


def test_a_master_lp_the_dual_simplex_fails_is_solved_with_other_options():
    """A line of 21 points at ε = 1e-6: the master's columns e^{-εd} are within 2e-5 of each other and HiGHS's dual
    simplex without presolve ended "Solve error" warm and cold (the design was a solver_error); the primal simplex
    solves it, and the design is certified, equal to the cvxpy path's (the best constant mechanism's value here).
    The master now runs the primal simplex warm: its duals end with no pattern entering and a gap of 1.2e-5, and the
    design switches the master to the dual simplex (``_Master.to_dual_simplex``), which certifies it (without the
    switch: "suboptimal", checked)."""
    notion = MetricDifferentialPrivacy.from_points(np.arange(21.0))
    objective = ExpectedDistortion(Prior(np.random.default_rng(0).dirichlet(np.ones(21))), notion.distances)
    result = design(notion, 1e-6, objective, method="metric-cone")
    assert result.status == "optimal", result.message
    assert within_budget(notion.measure(result.mechanism), 1e-6)
    reference = design(notion, 1e-6, objective, method="cvxpy")
    assert reference.status == "optimal"
    assert result.objective == pytest.approx(reference.objective, rel=1e-9)
    constant = float((objective.prior.probabilities @ notion.distances).min())
    assert result.objective <= constant + 1e-12
