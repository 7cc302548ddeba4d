"""Column generation over outputs (mechdesign/methods/column_generation.py) against the dense direct LPs
of mechdesign/methods/direct.py and the cvxpy formulations.

Notions: local DP and pointwise (ε, δ)-DP (Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(1)
and 3(2)), maximal leakage (Issa, Wagner & Kamath, Definition 1 / Theorem 1), PML under one prior
(Grosse et al., Definition 1).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DesignProblem,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    PointwiseMaximalLeakage,
    Prior,
    design,
)
from mechdesign.methods import column_generation
from mechdesign.methods.column_generation import (
    ApproximateDpColumnGeneration,
    FloorsProgram,
    INTERIOR_ROUND_TOLERANCE,
    LdpColumnGeneration,
    MaximalLeakageColumnGeneration,
    PML_DROP_FRACTION,
    PRICING_TOLERANCE,
    PmlColumnGeneration,
    STOP_FRACTION,
    _complementary_columns,
    _most_negative_per_row,
    knapsack_vertices,
    negative_staircase_prices,
)
from mechdesign.methods.direct import (
    COLUMN_GENERATION_MIN_INPUTS,
    ApproximateDpLinearProgram,
    DirectSolution,
    LdpLinearProgram,
    MaximalLeakageLinearProgram,
    PmlLinearProgram,
    WarmLinearProgram,
    direct_program_class,
    staircase_per_mass,
)
from mechdesign.exceptions import ProblemTooLargeError
from mechdesign.result import GAP_RTOL
from mechdesign.solvers import CLARABEL_LP_TOLERANCE
from tests.clarabel_doubles import almost_solved_unless_refined
from tests.strategies import full_support_priors

#: Agreement required between column generation and the dense LP (objective values, units of the cost).
PATH_AGREEMENT_ATOL = 1e-8
#: Slack for round-off when comparing a dual bound with a mechanism's value.
BOUND_ROUNDOFF = 1e-12
#: δ of the pointwise approximate-DP notion in these tests.
DELTA = 0.02

NOTIONS = ["dp", "approx_dp", "maximal_leakage", "pml"]


def _instance(n: int, cost_kind: str, seed: int = 0, zero_prior: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A random prior (optionally with zero entries) and a random or Hamming cost matrix."""
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    if zero_prior:
        prior[rng.choice(n, size=max(1, n // 5), replace=False)] = 0.0
        prior /= prior.sum()
    cost = rng.random((n, n)) if cost_kind == "random" else 1.0 - np.eye(n)
    return prior, cost


def _programs(name: str, weights: np.ndarray, prior: np.ndarray):
    """(column generation, dense direct LP) for the notion ``name``."""
    return {
        "dp": (LdpColumnGeneration(weights), LdpLinearProgram(weights)),
        "approx_dp": (ApproximateDpColumnGeneration(weights, DELTA), ApproximateDpLinearProgram(weights, DELTA)),
        "maximal_leakage": (MaximalLeakageColumnGeneration(weights), MaximalLeakageLinearProgram(weights)),
        "pml": (PmlColumnGeneration(weights, prior), PmlLinearProgram(weights, prior)),
    }[name]


def _notion(name: str, prior: np.ndarray):
    return {"dp": DifferentialPrivacy(), "approx_dp": ApproximateDifferentialPrivacy(DELTA),
            "maximal_leakage": MaximalLeakage(), "pml": PointwiseMaximalLeakage(Prior(prior))}[name]


@pytest.mark.parametrize("name", NOTIONS)
@pytest.mark.parametrize("cost_kind", ["random", "hamming"])
@pytest.mark.parametrize("n", [5, 20, 60])
@pytest.mark.parametrize("epsilon", [0.0, 0.7, 12.0])
def test_agrees_with_the_dense_direct_lp(name, cost_kind, n, epsilon):
    prior, cost = _instance(n, cost_kind, seed=n, zero_prior=(name == "pml" and n == 20))
    weights = prior[:, None] * cost
    generated, dense = _programs(name, weights, prior)
    solution, reference = generated.solve(epsilon), dense.solve(epsilon)
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.lower_bound <= reference.value + BOUND_ROUNDOFF
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))
    assert generated.violation(solution.matrix, epsilon) < 1e-8
    assert solution.matrix.shape == weights.shape


@pytest.mark.parametrize("name", NOTIONS)
def test_design_dispatches_to_column_generation_above_the_threshold(name):
    n = COLUMN_GENERATION_MIN_INPUTS
    prior, cost = _instance(n, "random", seed=1)
    notion = _notion(name, prior)
    result = design(notion, 1.0, ExpectedDistortion(Prior(prior), cost))
    assert result.method == "column-generation" and result.status == "optimal" and result.certified
    assert result.gap <= GAP_RTOL * max(1.0, result.objective)
    assert result.measured[notion.label] <= 1.0 + 1e-9
    smaller = ExpectedDistortion(Prior(prior[:10] / prior[:10].sum()), cost[:10, :10])
    assert direct_program_class([_notion(name, prior[:10] / prior[:10].sum())], smaller, []).method == "direct-lp"


@pytest.mark.parametrize("name", NOTIONS)
def test_scale_of_the_cost_does_not_change_the_answer(name):
    prior, cost = _instance(COLUMN_GENERATION_MIN_INPUTS, "random", seed=2)
    notion = _notion(name, prior)
    base = design(notion, 0.8, ExpectedDistortion(Prior(prior), cost))
    scaled = design(notion, 0.8, ExpectedDistortion(Prior(prior), 1000.0 * cost))
    assert base.status == scaled.status == "optimal" and base.method == scaled.method == "column-generation"
    assert scaled.objective == pytest.approx(1000.0 * base.objective, rel=1e-9)


@st.composite
def private_instances(draw):
    """A random cost, a full-support prior and a random mechanism; the budget is the mechanism's own."""
    n = draw(st.integers(2, 7))
    m = draw(st.integers(2, 7))
    prior = np.asarray(draw(full_support_priors(n)))
    cost = np.array(draw(st.lists(st.floats(0.0, 5.0), min_size=n * m, max_size=n * m))).reshape(n, m)
    entries = np.array(draw(st.lists(st.floats(0.05, 1.0), min_size=n * m, max_size=n * m))).reshape(n, m)
    return prior, cost, entries / entries.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("name", NOTIONS)
@given(instance=private_instances())
def test_bound_is_below_every_private_mechanism(name, instance):
    # The certificate of the module docstring: a lower bound over *all* mechanisms within the budget,
    # so below the value of any mechanism whose measured budget is at most the one solved for.
    prior, cost, mechanism = instance
    weights = prior[:, None] * cost
    budget = _notion(name, prior).measure(mechanism)
    generated = _programs(name, weights, prior)[0]
    solution = generated.solve(budget)
    assert solution.lower_bound <= float((weights * mechanism).sum()) + BOUND_ROUNDOFF
    assert solution.lower_bound <= solution.value + BOUND_ROUNDOFF


def test_curves_keep_the_outputs_and_agree_with_cold_solves():
    prior, cost = _instance(40, "random", seed=4)
    weights = prior[:, None] * cost
    warm = LdpColumnGeneration(weights)
    for epsilon in [0.2, 0.6, 1.5, 0.9]:
        value = warm.solve(epsilon).value
        assert value == pytest.approx(LdpColumnGeneration(weights).solve(epsilon, cold=True).value,
                                      abs=PATH_AGREEMENT_ATOL)


class _RestrictedLdp(LdpColumnGeneration):
    """Local DP column generation by the restricted LP of LdpLinearProgram only (no floors master)."""

    floors_master = False


class _PlainBasisLdp(_RestrictedLdp):
    """Local DP column generation whose entering outputs start with every entry at 0 (the base class's basis)."""

    _fresh_column_status = column_generation.OutputGeneration._fresh_column_status
    _fresh_row_status = column_generation.OutputGeneration._fresh_row_status


def test_ldp_entering_staircases_start_basic_and_save_pivots():
    # An entering output's entries u[x, y] with a negative reduced cost start basic (their rows u <= c at the
    # bound), so its floor c_y moves the whole staircase: the same certified optimum in fewer simplex
    # iterations than from every entry at 0 (n = 200, random cost: 1,633 against 2,749 at ε = 1), on a curve too.
    prior, cost = _instance(200, "random", seed=3)
    weights = prior[:, None] * cost
    epsilon = 1.0
    staircase, plain = _RestrictedLdp(weights).solve(epsilon), _PlainBasisLdp(weights).solve(epsilon)
    assert staircase.value == pytest.approx(plain.value, abs=PATH_AGREEMENT_ATOL)
    assert staircase.value - staircase.lower_bound <= GAP_RTOL * max(1.0, abs(staircase.value))
    assert staircase.iterations < 0.8 * plain.iterations
    warm = _RestrictedLdp(weights)
    for budget in [0.4, 3.0]:
        solution = warm.solve(budget)
        assert solution.value == pytest.approx(_PlainBasisLdp(weights).solve(budget).value, abs=PATH_AGREEMENT_ATOL)
        assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))
        assert warm.violation(solution.matrix, budget) < 1e-8


@pytest.mark.parametrize("delta", [0.0, 0.005, 0.02, 0.2])
def test_approx_dp_curve_keeps_the_entries_and_agrees_with_the_dense_lp(delta):
    # Entries Q[x, y] <= δ enter at their upper bound and the re-solves run the dual simplex, across
    # budgets too (the restricted LP, its entries and its basis are kept): every point must still be
    # the dense LP's optimum, certified and private.
    prior, cost = _instance(80, "random", seed=8)
    weights = prior[:, None] * cost
    warm = ApproximateDpColumnGeneration(weights, delta)
    for epsilon in [0.3, 1.2, 0.0, 2.5, 0.7]:
        solution = warm.solve(epsilon)
        reference = ApproximateDpLinearProgram(weights, delta).solve(epsilon)
        assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
        assert solution.lower_bound <= reference.value + BOUND_ROUNDOFF
        assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))
        assert warm.violation(solution.matrix, epsilon) < 1e-8


def test_approx_dp_entries_enter_at_most_one_over_delta_per_row_and_round():
    # With δ = 0.25 at most ⌈1/δ⌉ = 4 entries of each row enter per round; the rest must enter in later
    # rounds until none prices out, so the answer is still the dense LP's, certified.
    prior, cost = _instance(40, "random", seed=9)
    weights = prior[:, None] * cost
    generated = ApproximateDpColumnGeneration(weights, 0.25)
    solution = generated.solve(0.5)
    reference = ApproximateDpLinearProgram(weights, 0.25).solve(0.5)
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))
    assert generated.violation(solution.matrix, 0.5) < 1e-8


@given(st.integers(1, 12), st.integers(1, 12), st.floats(-3.0, 3.0), st.sampled_from([0.0, 1e-9, 0.3, 1.0, 5.0, 12.0]),
       st.integers(0, 2**32 - 1))
def test_negative_staircase_prices_are_the_exact_prices_where_negative(n, m, shift, epsilon, seed):
    # The sort is skipped only for columns whose every staircase has a non-negative reduced cost: the prices
    # (hence the pricing bound and the entering outputs) are min(0, staircase_per_mass) to round-off.
    reduced = np.random.default_rng(seed).normal(size=(n, m)) + shift
    exact = np.minimum(staircase_per_mass(reduced, epsilon), 0.0)
    np.testing.assert_allclose(negative_staircase_prices(reduced, epsilon), exact, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("count", [0, 1, 3, 7, 9])
def test_most_negative_per_row_is_the_sorted_prefix(count):
    reduced = np.random.default_rng(10).normal(size=(6, 7))
    rows, columns = _most_negative_per_row(reduced, count)
    expected = {(x, y) for x in range(6) for y in np.argsort(reduced[x])[:count] if reduced[x, y] < -PRICING_TOLERANCE}
    assert set(zip(rows.tolist(), columns.tolist())) == expected and len(rows) == len(expected)


def test_knapsack_vertex_is_the_lp_minimum():
    rng = np.random.default_rng(5)
    reduced, prior = rng.normal(size=(8, 3)), rng.dirichlet(np.ones(8))
    order, values = knapsack_vertices(reduced, prior, 2.5)
    for y in range(3):
        v = np.zeros(8)
        v[order[:, y]] = values[:, y]
        assert prior @ v == pytest.approx(1.0) and v.max() <= 2.5
        # No feasible exchange improves it: every pair (i filled less, j filled more) costs more.
        ratios = reduced[:, y] / prior
        assert ratios[v > 0].max() <= ratios[v < 2.5].min() + 1e-12


def test_memory_is_checked_before_anything_large_is_built():
    objective = ExpectedDistortion(Prior.uniform(10**6))  # Hamming, built lazily: 8 TB if built
    with pytest.raises(ProblemTooLargeError):
        DesignProblem(DifferentialPrivacy(), objective)


@pytest.mark.parametrize("generation", [LdpColumnGeneration, _RestrictedLdp])
def test_memory_of_the_restricted_lp_is_checked_as_it_grows(monkeypatch, generation):
    from mechdesign.methods import column_generation

    monkeypatch.setattr(column_generation, "RESTRICTED_BYTES_PER_ENTRY", 2**70)
    prior, cost = _instance(8, "random")
    with pytest.raises(ProblemTooLargeError, match="restricted LP"):
        generation(prior[:, None] * cost).solve(1.0)


@pytest.mark.parametrize(("n", "epsilon"), [(30, 0.3), (60, 1.0), (60, 4.0)])
def test_floors_program_with_every_cut_is_the_restricted_lp(n, epsilon):
    # Holding every cut (each input at each held output's breakpoint), FloorsProgram is the restricted LP: its
    # value is LdpLinearProgram's on the same outputs (an independent LP), the mechanism at its floors is ε-LDP and
    # costs that value, and the cuts' averaged duals are the row sums' optimal multipliers (dual feasible:
    # Σ_x h(W[x, y] − u_x) >= 0 for every held output; Σ u the value).
    prior, cost = _instance(n, "random", seed=2)
    weights = prior[:, None] * cost
    outputs = np.arange(0, n, 3)
    program = FloorsProgram(weights, epsilon)
    program.add_outputs(outputs)
    program.add_cuts(np.repeat(np.arange(n), outputs.size), np.tile(outputs, n))
    floors, heights, multipliers, _ = program.solve()
    matrix, costs, _ = program.knapsacks(floors)
    restricted = LdpLinearProgram(weights[:, outputs])
    optimum = restricted.solve(epsilon).value
    assert math.fsum(costs) == pytest.approx(optimum, abs=1e-11)
    assert float((weights[:, outputs] * matrix).sum()) == pytest.approx(optimum, abs=1e-11)
    assert restricted.violation(matrix, epsilon) < 1e-12
    reduced = weights[:, outputs] - multipliers[:, None]
    assert float((reduced + math.expm1(epsilon) * np.minimum(reduced, 0.0)).sum(axis=0).min()) >= -1e-10
    assert math.fsum(multipliers) == pytest.approx(optimum, abs=1e-11)
    assert math.fsum(heights) == pytest.approx(optimum, abs=1e-9)


@pytest.mark.parametrize("cost_kind", ["random", "hamming"])
def test_floors_master_reaches_the_restricted_lps_certified_optimum_along_a_curve(cost_kind):
    # The floors master (cuts and outputs joining in the same rounds, its outputs and cuts kept across budgets) ends
    # certified at the optimum that the restricted LP of LdpLinearProgram reaches cold, without giving way to it.
    prior, cost = _instance(150, cost_kind, seed=5)
    weights = prior[:, None] * cost
    floors = LdpColumnGeneration(weights)
    for epsilon in [0.05, 1.0, 3.0, 8.0, 0.5]:
        solution = floors.solve(epsilon)
        assert floors._master is None and floors._floors.epsilon == epsilon  # no restricted LP was built
        reference = _RestrictedLdp(weights).solve(epsilon, cold=True)
        assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
        assert solution.lower_bound <= reference.value + BOUND_ROUNDOFF
        assert solution.value - solution.lower_bound <= STOP_FRACTION * GAP_RTOL * max(1.0, abs(solution.value))
        assert float((weights * solution.matrix).sum()) == pytest.approx(solution.value, abs=BOUND_ROUNDOFF)
        assert floors.violation(solution.matrix, epsilon) < 1e-12


def test_floors_master_certifies_at_a_large_budget():
    # ε = 20 (e^ε ≈ 4.9e8, within DesignProblem's largest constraint scale), costs in {0, 1, 2}: with only the
    # knapsacks' cuts HiGHS called the held LP unbounded (z_x down to −e^ε max W) and the floors master gave way;
    # each input's cut at its least held weight keeps it bounded, and it certifies a mechanism no worse than the
    # restricted LP's (which stops there with the bound 0).
    rng = np.random.default_rng(1)
    prior, cost = rng.dirichlet(np.ones(40)), rng.integers(0, 3, (40, 40)).astype(float)
    weights, epsilon = prior[:, None] * cost, 20.0
    generation = LdpColumnGeneration(weights)
    solution = generation.solve(epsilon)
    assert generation._master is None  # no restricted LP was built
    assert solution.value - solution.lower_bound <= STOP_FRACTION * GAP_RTOL * max(1.0, abs(solution.value))
    assert generation.violation(solution.matrix, epsilon) < 1e-12
    assert solution.value <= _RestrictedLdp(weights).solve(epsilon).value + BOUND_ROUNDOFF


@pytest.mark.parametrize("failure", ["highs", "rounds"])
def test_the_restricted_lp_takes_over_when_the_floors_master_stops_short(monkeypatch, failure):
    # HiGHS failing on the floors master, or its rounds running out before the gap closes: the restricted LP of
    # LdpLinearProgram solves from the floors master's outputs, to the same certified optimum.
    prior, cost = _instance(120, "random", seed=8)
    weights = prior[:, None] * cost
    reference = _RestrictedLdp(weights).solve(1.0)
    if failure == "highs":
        monkeypatch.setattr(FloorsProgram, "solve", lambda self: None)
    else:
        monkeypatch.setattr(column_generation, "FLOORS_MAX_ROUNDS", 2)
    generation = LdpColumnGeneration(weights)
    solution = generation.solve(1.0)
    assert generation._master is not None  # the restricted LP was built
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= STOP_FRACTION * GAP_RTOL * max(1.0, abs(solution.value))


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTIONS)
def test_certified_at_n_300(name):
    prior, cost = _instance(300, "random", seed=6)
    notion = _notion(name, prior)
    result = design(notion, 1.0, ExpectedDistortion(Prior(prior), cost))
    assert result.method == "column-generation" and result.status == "optimal" and result.certified
    assert result.gap <= GAP_RTOL * max(1.0, result.objective)
    assert result.measured[notion.label] <= 1.0 + 1e-9
    assert math.isfinite(result.bound)


def _pml_prior(n: int, kind: str, seed: int) -> np.ndarray:
    """Zipf, uniform, or random with a fifth of the inputs at probability 0 (PML leaves those rows free)."""
    if kind == "zipf":
        weights = 1.0 / np.arange(1, n + 1)
    elif kind == "uniform":
        weights = np.ones(n)
    else:
        weights = np.random.default_rng(seed).dirichlet(np.ones(n))
        weights[np.random.default_rng(seed + 1).choice(n, size=max(1, n // 5), replace=False)] = 0.0
    return weights / weights.sum()


@pytest.mark.parametrize("n", [5, 20, 80])
@pytest.mark.parametrize("prior_kind", ["zipf", "uniform", "zeros"])
@pytest.mark.parametrize("epsilon", [0.0, 0.1, 1.0, 2.0, 12.0])
def test_pml_agrees_with_the_dense_direct_lp_on_random_costs(n, prior_kind, epsilon):
    # ε = 12: e^ε = 1.6e5 exceeds 1 / min P(x) for every prior here, so the budget no longer binds.
    prior = _pml_prior(n, prior_kind, seed=n)
    weights = prior[:, None] * np.random.default_rng(n + 7).random((n, n))
    generated = PmlColumnGeneration(weights, prior)
    solution, reference = generated.solve(epsilon), PmlLinearProgram(weights, prior).solve(epsilon)
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.lower_bound <= reference.value + BOUND_ROUNDOFF
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))
    assert generated.violation(solution.matrix, epsilon) < 1e-8


@pytest.mark.parametrize("interior", [True, False])
@pytest.mark.parametrize("prior_kind", ["zipf", "uniform"])
def test_pml_both_restricted_lp_solvers_reach_the_dense_optimum(interior, prior_kind):
    """The interior-point restricted LPs (the default) and the warm simplex ones give the same certified optimum."""
    n, epsilon = 70, 1.0
    prior = _pml_prior(n, prior_kind, seed=2)
    weights = prior[:, None] * np.random.default_rng(9).random((n, n))
    generated = PmlColumnGeneration(weights, prior)
    assert generated.interior_master
    generated.interior_master = interior
    solution, reference = generated.solve(epsilon), PmlLinearProgram(weights, prior).solve(epsilon)
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.lower_bound <= reference.value + BOUND_ROUNDOFF
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))


def _count_simplex_calls(monkeypatch):
    """Count the simplex solves of every direct LP: ``(the real solve, the list of their budgets)``."""
    simplex_solve, simplex_calls = WarmLinearProgram.solve, []

    def counted(self, epsilon, **options):
        simplex_calls.append(epsilon)
        return simplex_solve(self, epsilon, **options)

    monkeypatch.setattr(WarmLinearProgram, "solve", counted)
    return simplex_solve, simplex_calls


@pytest.mark.parametrize("failure", ["solver_error", "inaccurate duals"])
def test_pml_rounds_finish_with_the_simplex_when_the_interior_point_falls_short(monkeypatch, failure):
    """An interior solve that fails, or whose duals are off (so no output prices out while the gap stays
    open), hands the restricted LP to the simplex: the rounds still reach the dense optimum, certified."""
    n, epsilon = 40, 1.0
    prior = _pml_prior(n, "zipf", seed=4)
    weights = prior[:, None] * np.random.default_rng(5).random((n, n))
    interior_solve = WarmLinearProgram.solve_interior

    def faulty(self, epsilon, **options):
        solution = interior_solve(self, epsilon, **options)
        if failure == "solver_error":
            return DirectSolution(None, math.nan, -math.inf, 0, "clarabel returned status 'MaxIterations'")
        duals = solution.row_duals - 1e-4  # still valid multipliers, a weaker bound; nothing prices out
        return DirectSolution(solution.matrix, solution.value, -math.inf, 0, solution.status, duals)

    monkeypatch.setattr(WarmLinearProgram, "solve_interior", faulty)
    simplex_solve, simplex_calls = _count_simplex_calls(monkeypatch)
    solution = PmlColumnGeneration(weights, prior).solve(epsilon)
    reference = simplex_solve(PmlLinearProgram(weights, prior), epsilon)
    assert simplex_calls
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))


def test_pml_outputs_hold_only_their_vertex_entries_and_still_reach_the_dense_optimum():
    """An entering output holds its knapsack vertex's entries (``n / e^ε`` under a uniform prior) plus a
    margin, not its whole column; the optimum is the dense LP's, certified."""
    n, epsilon = 80, 2.0
    prior = _pml_prior(n, "uniform", seed=0)
    weights = prior[:, None] * np.random.default_rng(3).random((n, n))
    generated = PmlColumnGeneration(weights, prior)
    solution, reference = generated.solve(epsilon), PmlLinearProgram(weights, prior).solve(epsilon)
    held_entries = np.count_nonzero(generated.held[:, generated.outputs])
    assert held_entries < 0.5 * n * generated.outputs.size
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))


@pytest.mark.parametrize("prior_kind", ["zipf", "uniform", "zeros"])
def test_pml_missing_entries_enter_when_they_price_out(monkeypatch, prior_kind):
    """With no margin beyond the vertices and no whole columns, the optimum needs entries the outputs did
    not bring: they enter by their reduced cost ``W[x, y] − u_x + P_x λ_y``, and the rounds reach the dense
    optimum, certified."""
    monkeypatch.setattr(column_generation, "PML_ENTRY_FACTOR", 1.0)
    monkeypatch.setattr(column_generation, "PML_ENTRY_MARGIN", 0)
    monkeypatch.setattr(column_generation, "PML_WHOLE_COLUMN_FRACTION", 1.0)
    n, epsilon = 60, 1.0
    prior = _pml_prior(n, prior_kind, seed=6)
    weights = prior[:, None] * np.random.default_rng(8).random((n, n))
    generated = PmlColumnGeneration(weights, prior)
    entries_joined = []
    grow = PmlColumnGeneration._grow

    def counted(self, reduced, duals, epsilon):
        before, outputs = self.held.copy(), self.outputs.copy()
        grew = grow(self, reduced, duals, epsilon)
        if np.isin(self.outputs, outputs).all():  # no output entered: what joined were entries of held outputs
            entries_joined.append(np.count_nonzero(self.held & ~before))
        return grew

    monkeypatch.setattr(PmlColumnGeneration, "_grow", counted)
    solution, reference = generated.solve(epsilon), PmlLinearProgram(weights, prior).solve(epsilon)
    assert entries_joined and max(entries_joined) > 0
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))


def _rounds(generated: PmlColumnGeneration, epsilon: float) -> tuple[DirectSolution, int]:
    """Solve and count the rounds (pricings)."""
    price, rounds = generated._price, []

    def counted(duals, epsilon):
        rounds.append(epsilon)
        return price(duals, epsilon)

    generated._price = counted
    return generated.solve(epsilon), len(rounds)


def test_pml_outputs_with_complementary_vertices_enter_together_at_large_budgets(monkeypatch):
    """At e^ε = 90 a knapsack vertex holds about n / e^ε = 2 inputs of the uniform prior, and the most negative
    outputs want the same cheap inputs: outputs whose vertices cover other inputs enter in the same round
    (PML_ENTERING_PER_ROUND), in fewer rounds than the ten most negative alone (9 against 14 measured), to the
    dense optimum, certified."""
    n, epsilon = 200, 4.5
    prior = _pml_prior(n, "uniform", seed=0)
    weights = prior[:, None] * np.random.default_rng(3).random((n, n))
    complementary, rounds = _rounds(PmlColumnGeneration(weights, prior), epsilon)
    monkeypatch.setattr(column_generation, "PML_ENTERING_PER_ROUND", column_generation.ENTERING_PER_ROUND)
    most_negative, baseline_rounds = _rounds(PmlColumnGeneration(weights, prior), epsilon)
    reference = PmlLinearProgram(weights, prior).solve(epsilon)
    assert rounds < baseline_rounds
    for solution in (complementary, most_negative):
        assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
        assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))


def test_pml_small_restricted_lps_are_factorized_by_the_simplicial_ldl(monkeypatch):
    """Restricted LPs holding fewer than ``simplicial_max_outputs`` outputs go to Clarabel's "qdldl", larger ones
    to Clarabel's default choice; both reach the dense optimum, certified."""
    n, epsilon = 80, 2.0
    prior = _pml_prior(n, "zipf", seed=1)
    weights = prior[:, None] * np.random.default_rng(2).random((n, n))
    interior_solve, methods = WarmLinearProgram.solve_interior, []

    def recorded(self, epsilon, **options):
        methods.append((self.weights.shape[1], options["ldl"]))
        return interior_solve(self, epsilon, **options)

    monkeypatch.setattr(WarmLinearProgram, "solve_interior", recorded)
    generated = PmlColumnGeneration(weights, prior)
    generated.simplicial_max_outputs = 12
    solution, reference = generated.solve(epsilon), PmlLinearProgram(weights, prior).solve(epsilon)
    assert {ldl for _, ldl in methods} == {"qdldl", "default"}
    assert all((ldl == "qdldl") == (outputs < 12) for outputs, ldl in methods)
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))


@pytest.mark.parametrize("prior_kind, epsilon", [("zipf", 3.0), ("uniform", 1.0)])
def test_pml_rounds_run_loose_until_nothing_prices_out_then_accurately(monkeypatch, prior_kind, epsilon):
    """From scratch, the interior-point rounds solve to ``INTERIOR_ROUND_TOLERANCE`` first and to Clarabel's full
    accuracy last (the loose ones a prefix); from a previous solve's outputs, accurately throughout. The value
    that stops the rounds is an accurate one: the dense optimum, certified."""
    n = 80
    prior = _pml_prior(n, prior_kind, seed=6)
    weights = prior[:, None] * np.random.default_rng(7).random((n, n))
    interior_solve, tolerances = WarmLinearProgram.solve_interior, []

    def recorded(self, epsilon, **options):
        tolerances.append(options["tolerance"])
        return interior_solve(self, epsilon, **options)

    monkeypatch.setattr(WarmLinearProgram, "solve_interior", recorded)
    generated = PmlColumnGeneration(weights, prior)
    for budget in (epsilon, 1.2 * epsilon):  # the second from the first's outputs: accurate throughout
        tolerances.clear()
        solution, reference = generated.solve(budget), PmlLinearProgram(weights, prior).solve(budget)
        loose = tolerances.count(INTERIOR_ROUND_TOLERANCE)
        assert loose >= 2 if budget == epsilon else loose == 0
        assert tolerances[loose:] and set(tolerances[loose:]) == {CLARABEL_LP_TOLERANCE}
        assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
        assert solution.value - solution.lower_bound <= STOP_FRACTION * GAP_RTOL * max(1.0, abs(solution.value))


@pytest.mark.parametrize("prior_kind, epsilon", [("uniform", 3.0), ("zipf", 3.0), ("zeros", 2.0)])
def test_pml_entries_priced_well_above_zero_leave_after_loose_rounds(monkeypatch, prior_kind, epsilon):
    """After a loose interior-point round, held entries of outputs that entered with at most PML_DROP_FRACTION of the
    support, with a value at most PML_DROP_VALUE and a reduced cost above PML_DROP_COST times their input's largest
    weight, leave the restricted LP (outputs left empty too); outputs that entered larger keep their entries, among
    them the first output's whole column (which keeps the restricted LP feasible). The rounds still reach the dense
    optimum, certified.

    Checked to fail: with nothing dropped (``PML_DROP_COST`` infinite), ``sum(left) > 0``; with the fraction left
    out of the drop, the first output's whole column loses entries (the check inside ``recorded``)."""
    n = 120
    prior = _pml_prior(n, prior_kind, seed=6)
    weights = prior[:, None] * np.random.default_rng(7).random((n, n))
    generated = PmlColumnGeneration(weights, prior)
    first = int(weights.sum(axis=0).argmin())  # the initial output (least total weight), held whole
    grow, left, whole_lost = PmlColumnGeneration._grow, [], []
    entered = dict.fromkeys(generated.outputs.tolist(), math.inf)  # output -> entries it entered with

    def recorded(self, reduced, duals, epsilon):
        before, outputs = self.held.copy(), self.outputs.copy()
        large = [y for y in outputs if entered[y] > PML_DROP_FRACTION * self.support.size]
        grew = grow(self, reduced, duals, epsilon)
        entered.update({y: np.count_nonzero(self.held[:, y]) for y in np.setdiff1d(self.outputs, outputs).tolist()})
        left.append(np.count_nonzero(before & ~self.held))
        whole_lost.append(np.count_nonzero(before[:, large] & ~self.held[:, large]))
        assert self.held[:, first].all()
        return grew

    monkeypatch.setattr(PmlColumnGeneration, "_grow", recorded)
    solution, reference = generated.solve(epsilon), PmlLinearProgram(weights, prior).solve(epsilon)
    assert sum(left) > 0
    assert sum(whole_lost) == 0
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= STOP_FRACTION * GAP_RTOL * max(1.0, abs(solution.value))
    assert generated.violation(solution.matrix, epsilon) < 1e-8


@given(data=st.data())
def test_complementary_columns_takes_the_first_then_only_columns_mostly_uncovered(data):
    inputs, candidates = data.draw(st.integers(1, 8)), data.draw(st.integers(0, 8))
    order = np.array([data.draw(st.permutations(range(inputs))) for _ in range(candidates)], dtype=np.int64).T
    order = order.reshape(inputs, candidates)
    depth = np.array(data.draw(st.lists(st.integers(1, inputs), min_size=candidates, max_size=candidates)))
    filled = np.arange(inputs)[:, None] < depth[None, :]
    first = data.draw(st.integers(0, 4))
    most = data.draw(st.integers(max(first, 1), 6))
    overlap = data.draw(st.sampled_from([0.0, 0.3, 1.0]))
    taken = _complementary_columns(filled, order, first, most, overlap).tolist()
    assert taken == sorted(taken) and len(taken) <= most
    assert taken[:first] == list(range(min(first, candidates, most)))
    covered = np.zeros(inputs, dtype=bool)
    for column in range(candidates):
        column_inputs = order[filled[:, column], column]
        if column in taken:
            assert taken.index(column) < first or covered[column_inputs].mean() <= overlap
            covered[column_inputs] = True
        elif len([t for t in taken if t < column]) < most:
            assert covered[column_inputs].mean() > overlap and len([t for t in taken if t < column]) >= first


def test_pml_an_almost_solved_interior_point_is_solved_again_with_refinement(monkeypatch):
    """Clarabel's "AlmostSolved" is run again with iterative refinement (inside ``solve_clarabel_lp``) before the
    simplex is called (n = 1000, uniform prior, ε = 0.1: one such round cost 24.7 s by the simplex, 1.3 s refined)."""
    n, epsilon = 40, 1.0
    prior = _pml_prior(n, "uniform", seed=4)
    weights = prior[:, None] * np.random.default_rng(5).random((n, n))
    refinements = almost_solved_unless_refined(monkeypatch)
    simplex_solve, simplex_calls = _count_simplex_calls(monkeypatch)
    solution = PmlColumnGeneration(weights, prior).solve(epsilon)
    reference = simplex_solve(PmlLinearProgram(weights, prior), epsilon)
    assert refinements.count(True) == refinements.count(False) > 0 and not simplex_calls
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))


#: Cost scales of the scale-invariance test: the answer must not move with the cost's unit.
COST_SCALES = [1e-12, 1e12]


@pytest.mark.parametrize("scale", COST_SCALES)
@pytest.mark.parametrize("prior_kind", ["zipf", "zeros"])
def test_pml_column_generation_is_scale_invariant_and_agrees_with_direct_lp(scale, prior_kind):
    n = 80
    prior = _pml_prior(n, prior_kind, seed=3)
    cost = np.random.default_rng(4).random((n, n))
    notion = PointwiseMaximalLeakage(Prior(prior))
    base = design(notion, 0.5, ExpectedDistortion(Prior(prior), cost), method="direct-lp")
    scaled = design(notion, 0.5, ExpectedDistortion(Prior(prior), scale * cost), method="column-generation")
    assert base.status == scaled.status == "optimal" and scaled.method == "column-generation"
    assert scaled.objective == pytest.approx(scale * base.objective, rel=1e-9)
    assert scaled.bound == pytest.approx(scale * base.bound, rel=1e-9)


@pytest.mark.parametrize("epsilon", [50.0, math.inf])
def test_pml_huge_budget_is_solved_and_certified(epsilon):
    # A budget beyond every mechanism's PML: design() answers with the unconstrained optimum, whose
    # value the column generation reaches once the budget stops binding (ε = 12 at this prior).
    n = COLUMN_GENERATION_MIN_INPUTS
    prior = _pml_prior(n, "zipf", seed=0)
    objective = ExpectedDistortion(Prior(prior), np.random.default_rng(5).random((n, n)))
    result = design(PointwiseMaximalLeakage(Prior(prior)), epsilon, objective)
    generated = PmlColumnGeneration(prior[:, None] * objective.cost / objective.unit, prior).solve(12.0)
    assert result.status == "optimal"
    assert result.objective == pytest.approx(generated.value * objective.unit, abs=PATH_AGREEMENT_ATOL)


# --- issue 31: caps (limits) priced with their multipliers -------------------------------------------------

def _capped(name: str, weights: np.ndarray, prior: np.ndarray, caps: list[np.ndarray]):
    """(column generation, dense direct LP) for ``name``, with the caps ``Σ L∘Q <= D`` for ``L`` in ``caps``."""
    return {
        "dp": (LdpColumnGeneration(weights, limits=caps), LdpLinearProgram(weights, limits=caps)),
        "approx_dp": (ApproximateDpColumnGeneration(weights, DELTA, limits=caps),
                      ApproximateDpLinearProgram(weights, DELTA, limits=caps)),
        "maximal_leakage": (MaximalLeakageColumnGeneration(weights, limits=caps),
                            MaximalLeakageLinearProgram(weights, limits=caps)),
        "pml": (PmlColumnGeneration(weights, prior, limits=caps), PmlLinearProgram(weights, prior, limits=caps)),
    }[name]


@pytest.mark.parametrize("name", NOTIONS)
@pytest.mark.parametrize("where", [1.2, 0.5, 1e-4, -1e-3])
@pytest.mark.parametrize("n", [20, pytest.param(70, marks=pytest.mark.slow)])
def test_caps_are_priced_to_the_dense_optimum(name, where, n):
    """Issue 31 (item 2): a cap in column generation is an elastic row of the restricted LPs whose multiplier
    moves into the pricing (``W + λ L``, the bound less ``λ D``): the same optimum and a bound below it as the dense
    LP with the cap as a row — not binding (1.2), binding (0.5), nearly unreachable (1e-4 of the way from its least
    value: a large multiplier) and unreachable (below its least value: "Infeasible" on both)."""
    prior, cost = _instance(n, "random", seed=n + 1, zero_prior=(name == "pml"))
    weights = prior[:, None] * cost
    cap = prior[:, None] * np.random.default_rng(n).random((n, n))
    epsilon = 0.7
    least = _programs(name, cap, prior)[1].solve(epsilon).value
    reached = float((cap * _programs(name, weights, prior)[1].solve(epsilon).matrix).sum())
    limit = least + where * (reached - least) if where > 0 else least + where
    generated, dense = _capped(name, weights, prior, [cap])
    solution, reference = generated.solve(epsilon, limits=[limit]), dense.solve(epsilon, limits=[limit])
    if where < 0:
        assert (solution.status, reference.status, solution.matrix) == ("Infeasible", "Infeasible", None)
        return
    assert solution.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert solution.lower_bound <= reference.value + BOUND_ROUNDOFF
    assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, abs(solution.value))
    assert float((cap * solution.matrix).sum()) <= limit + 1e-9
    assert generated.violation(solution.matrix, epsilon) < 1e-8


def test_a_cap_relaxed_too_cheaply_is_priced_dearer_until_it_holds(monkeypatch):
    """Issue 31: when the rounds end with a cap's slack positive (its penalty below its multiplier), the penalty
    grows and the rounds go on: at a starting penalty of 1e-6 the answer is still the dense LP's."""
    monkeypatch.setattr(column_generation, "CAP_PENALTY", 1e-6)
    prior, cost = _instance(30, "random", seed=3)
    weights, cap = prior[:, None] * cost, prior[:, None] * np.random.default_rng(4).random((30, 30))
    least = LdpLinearProgram(cap).solve(1.0).value
    reached = float((cap * LdpLinearProgram(weights).solve(1.0).matrix).sum())
    generated, dense = _capped("dp", weights, prior, [cap])
    limit = 0.5 * (least + reached)
    solution = generated.solve(1.0, limits=[limit])
    assert generated.penalty > 1e-6 and solution.value == pytest.approx(dense.solve(1.0, limits=[limit]).value,
                                                                          abs=PATH_AGREEMENT_ATOL)


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTIONS)
def test_design_with_a_cap_takes_column_generation_and_clarabel_its_interior_point(name):
    """Issue 31 (item 2): from COLUMN_GENERATION_MIN_INPUTS inputs on, a cap and a named Clarabel keep column
    generation (Clarabel solving the restricted LPs), certified "optimal", against the cvxpy path."""
    n = COLUMN_GENERATION_MIN_INPUTS
    prior, cost = _instance(n, "random", seed=7)
    objective = ExpectedDistortion(Prior(prior), cost)
    other = ExpectedDistortion(Prior(prior), np.random.default_rng(8).random((n, n)))
    notion = _notion(name, prior)
    free = design(notion, 0.7, objective)
    limit = 0.5 * (design(notion, 0.7, other).objective + other.value(free.mechanism))
    capped = design(notion, 0.7, objective, limits=[(other, limit)])
    by_clarabel = design(notion, 0.7, objective, limits=[(other, limit)], solver="clarabel")
    assert (capped.method, capped.status) == ("column-generation", "optimal"), capped.message
    assert (by_clarabel.method, by_clarabel.solver, by_clarabel.status) == ("column-generation", "clarabel", "optimal")
    assert capped.measured_limits[other.label] <= limit + 1e-9
    assert by_clarabel.objective == pytest.approx(capped.objective, abs=PATH_AGREEMENT_ATOL)
    unreachable = design(notion, 0.7, objective, limits=[(other, design(notion, 0.7, other).objective - 1e-3)],
                         method="column-generation")
    assert (unreachable.status, unreachable.success) == ("infeasible", False)


def test_approx_dp_entries_join_the_caps_rows():
    """Entries ``Q[x, y] <= δ`` of outputs without a floor enter the restricted LP after it is built: each with its
    cap weight in the cap's row, so the model HiGHS holds is the one kept in numpy (the safe bound reads it)."""
    prior, cost = _instance(12, "random", seed=2)
    weights, cap = prior[:, None] * cost, prior[:, None] * np.random.default_rng(5).random((12, 12))
    generated = ApproximateDpColumnGeneration(weights, 0.1, limits=[cap])
    generated.solve(0.5, limits=[float((cap * LdpLinearProgram(weights).solve(0.5).matrix).sum())])
    master = generated._master
    assert master.box_inputs.size > 0
    lp = master.highs.getLp()
    held = master._held_lp()[1]
    highs = sp.csc_matrix((np.asarray(lp.a_matrix_.value_), np.asarray(lp.a_matrix_.index_),
                           np.asarray(lp.a_matrix_.start_)), shape=(lp.num_row_, lp.num_col_))
    assert abs(highs - held).max() == 0.0
    row = held.getrow(master.limit_rows[0]).toarray().ravel()[master.n_dense:]
    np.testing.assert_array_equal(row, cap[master.box_inputs, master.box_outputs])


@pytest.mark.parametrize("name", NOTIONS)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_pricing_bound_at_any_multipliers_is_below_the_optimum(name, seed):
    """``lower_bound`` (the cvxpy path's certificate for these notions) holds at any row-sum multipliers and any
    cap multipliers: never above the capped optimum, and equal to it at the dense LP's own duals."""
    generation, dense, limit, optimum = _small_capped_problem(name)
    rng = np.random.default_rng(seed)
    assert generation.lower_bound(rng.normal(size=6), 0.7, [rng.exponential()], [limit]) <= optimum.value + BOUND_ROUNDOFF
    at_duals = generation.lower_bound(optimum.row_duals[:6], 0.7, [-optimum.row_duals[dense.limit_rows[0]]], [limit])
    assert at_duals == pytest.approx(optimum.value, abs=PATH_AGREEMENT_ATOL)


@functools.lru_cache(maxsize=None)
def _small_capped_problem(name: str):
    """Column generation and the dense LP for ``name`` at n = 6 with a binding cap, its value and the dense optimum."""
    prior, cost = _instance(6, "random", seed=1, zero_prior=(name == "pml"))
    weights, cap = prior[:, None] * cost, prior[:, None] * np.random.default_rng(2).random((6, 6))
    generation, dense = _capped(name, weights, prior, [cap])
    limit = 0.5 * (_programs(name, cap, prior)[1].solve(0.7).value + float(cap.sum(axis=0).min()))
    return generation, dense, limit, dense.solve(0.7, limits=[limit])
