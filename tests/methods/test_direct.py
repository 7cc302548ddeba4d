"""The warm-started direct LPs of mechdesign.methods.direct against the cvxpy formulations.

Local DP: PUT paper (Zhong & Bu), Definition 3(1); maximal leakage and PML as in mechdesign.privacy.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DesignProblem,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    PointwiseMaximalLeakage,
    Prior,
    SourceSet,
    WorstCaseDistortion,
    design,
)
from mechdesign.exceptions import MechDesignError, ShapeMismatchError
from mechdesign.solve import choose_method, design_spec
from mechdesign.result import GAP_RTOL
from mechdesign.methods.direct import (
    MULTIPLIER_SHRINK,
    TIGHT_BOUND_RTOL,
    ApproximateDpLinearProgram,
    LdpLinearProgram,
    LdpSharedExcessProgram,
    MaximalLeakageLinearProgram,
    PmlLinearProgram,
    direct_program,
    direct_program_class,
    staircase_bound,
    staircase_lower_bound,
    staircase_per_mass,
    staircase_quick_bound,
)
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


def _notions(prior):
    return {"dp": DifferentialPrivacy(), "maximal_leakage": MaximalLeakage(), "pml": PointwiseMaximalLeakage(prior)}


@pytest.mark.parametrize("name", ["dp", "maximal_leakage", "pml"])
@given(instance=ldp_instances())
def test_fast_path_matches_cvxpy_path(name, instance):
    prior, cost, epsilon = instance
    notion = _notions(prior)[name]
    objective = ExpectedDistortion(prior, cost)
    fast = design(notion, epsilon, objective)
    reference = design(notion, epsilon, objective, solver="clarabel", method="cvxpy")
    assert fast.method in ("direct-lp", "unconstrained-optimum") and reference.method != "direct-lp"
    assert fast.success and reference.success and fast.certified
    assert fast.status == "optimal" and fast.gap <= GAP_RTOL * max(1.0, fast.objective)
    assert fast.objective == pytest.approx(reference.objective, abs=PATH_AGREEMENT_ATOL)
    assert fast.measured[notion.label] <= epsilon + 1e-9
    if fast.method == "direct-lp":
        assert fast.max_violation < 1e-8


@pytest.mark.parametrize("n", [10, 30])
def test_fast_path_matches_highs_on_zipf_hamming(n):
    weights = 1.0 / np.arange(1, n + 1)
    objective = ExpectedDistortion(Prior(weights / weights.sum()))
    fast = DesignProblem(DifferentialPrivacy(), objective).solve(1.0)  # the direct LP (design() takes the closed form)
    reference = design(DifferentialPrivacy(), 1.0, objective, solver="highs", method="cvxpy")
    assert fast.method == "direct-lp" and fast.status == "optimal"
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


@given(ldp_instances(), st.integers(0, 2**32 - 1))
def test_quick_staircase_bound_is_below_the_staircase_bound_for_any_multipliers(instance, seed):
    prior, cost, epsilon = instance
    weights = prior.probabilities[:, None] * cost
    multipliers = np.random.default_rng(seed).normal(size=weights.shape[0])
    quick = staircase_quick_bound(weights, epsilon, multipliers)
    assert quick <= staircase_lower_bound(weights, epsilon, multipliers) + BOUND_ROUNDOFF
    # Its negative part is at most e^ε times the staircase bound's (a staircase column's mass is at most n e^ε).
    total = multipliers.sum()
    assert total - quick <= np.exp(epsilon) * (total - staircase_lower_bound(weights, epsilon, multipliers)) + 1e-9
    assert quick <= LdpLinearProgram(weights).solve(epsilon).value + BOUND_ROUNDOFF


@given(st.integers(0, 2**32 - 1), budgets)
def test_quick_staircase_bound_takes_the_least_reduced_cost_over_every_set(seed, epsilon):
    # min over all 2^n sets S of Σ a + α Σ_S a, by enumeration, per column; the bound is Σ λ + min(0, that).
    rng = np.random.default_rng(seed)
    weights, multipliers = rng.random((5, 3)), rng.normal(size=5)
    reduced, excess = weights - multipliers[:, None], np.expm1(epsilon)
    sets = [np.array([(k >> x) & 1 for x in range(5)], dtype=bool) for k in range(2**5)]
    least = min(a.sum() + excess * a[s].sum() for a in reduced.T for s in sets)
    expected = multipliers.sum() + min(0.0, least)
    assert staircase_quick_bound(weights, epsilon, multipliers) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_quick_staircase_bound_certifies_a_curve_at_the_simplex_duals():
    # n = 30, random cost, 50 budgets: at HiGHS's optimal duals the quick bound is within TIGHT_BOUND_RTOL of the
    # simplex's value at every point (so the sort of the exact staircase bound is not needed), and equals it.
    rng = np.random.default_rng(0)
    weights = rng.dirichlet(np.ones(30))[:, None] * rng.random((30, 30))
    program = LdpLinearProgram(weights)
    for epsilon in np.linspace(0.1, 5.0, 50):
        solution = program.solve(epsilon)
        duals = solution.row_duals[:30]
        quick = staircase_quick_bound(weights, epsilon, duals)
        assert quick >= solution.value - TIGHT_BOUND_RTOL * max(1.0, solution.value)
        assert quick == pytest.approx(staircase_lower_bound(weights, epsilon, duals), abs=1e-15)
        assert solution.lower_bound >= quick


def test_shared_excess_layout_agrees_with_the_full_layout_and_its_quick_bound_certifies():
    # n = 30, random cost, 26 budgets from ε = 0: the layout with one excess column reaches the optimum of
    # LdpLinearProgram's (both simplex optima: within 1e-12), a private row-stochastic point, and for ε > 0 the quick
    # staircase bound at λ = −τ / (e^ε − 1) (the ties' duals) is within TIGHT_BOUND_RTOL of it (a wrong sign or scale
    # of λ fails this; the safe LP bound would still certify); at ε = 0 (no λ) the safe LP bound certifies.
    rng = np.random.default_rng(0)
    weights = rng.dirichlet(np.ones(30))[:, None] * rng.random((30, 30))
    full, shared = LdpLinearProgram(weights), LdpSharedExcessProgram(weights)
    assert shared._held_lp()[1].shape == (1 + 30 + 900, 30 + 900 + 1)
    for epsilon in np.linspace(0.0, 5.0, 26):
        expected, solution = full.solve(epsilon), shared.solve(epsilon)
        assert solution.value == pytest.approx(expected.value, rel=1e-12, abs=1e-12)
        assert shared.violation(solution.matrix, epsilon) < 1e-9
        assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, solution.value)
        multipliers = shared._row_sum_multipliers(solution.row_duals, epsilon)
        if epsilon == 0.0:
            assert multipliers is None
            continue
        quick = staircase_quick_bound(weights, epsilon, multipliers)
        assert quick >= solution.value - TIGHT_BOUND_RTOL * max(1.0, solution.value)
        assert solution.lower_bound >= quick


@pytest.mark.parametrize("penalty", [None, 10.0])
def test_shared_excess_layout_keeps_the_caps(penalty):
    # A binding cap on a second distortion (halfway from its least value under the budget to its value at the
    # uncapped optimum): the same optimum and cap's value as LdpLinearProgram's, rows and elastic.
    rng = np.random.default_rng(3)
    prior = rng.dirichlet(np.ones(8))
    weights, cap = prior[:, None] * rng.random((8, 8)), prior[:, None] * rng.random((8, 8))
    least, reached = LdpLinearProgram(cap).solve(1.0).value, float((cap * LdpLinearProgram(weights).solve(1.0).matrix).sum())
    limit = least + 0.5 * (reached - least)
    full = LdpLinearProgram(weights, limits=[cap], penalty=penalty)
    shared = LdpSharedExcessProgram(weights, limits=[cap], penalty=penalty)
    for epsilon in (0.5, 1.0, 2.0):
        expected, solution = full.solve(epsilon, limits=[limit]), shared.solve(epsilon, limits=[limit])
        assert solution.value == pytest.approx(expected.value, rel=1e-10)
        assert float((cap * solution.matrix).sum()) <= limit + 1e-9
        assert solution.value - solution.lower_bound <= GAP_RTOL * max(1.0, solution.value)
    assert LdpSharedExcessProgram(weights, limits=[cap]).solve(1.0, limits=[least - 0.01]).status == "Infeasible"


def test_designs_solve_the_shared_excess_layout_and_column_generation_the_full_one():
    objective = ExpectedDistortion(Prior.uniform(4), np.ones((4, 4)) - np.eye(4))
    assert type(DesignProblem(DifferentialPrivacy(), objective, method="direct-lp").direct) is LdpSharedExcessProgram
    assert type(LdpLinearProgram.for_notion(DifferentialPrivacy(), np.eye(4))) is LdpLinearProgram


@pytest.mark.parametrize("program", [LdpLinearProgram, LdpSharedExcessProgram])
def test_shrunk_multipliers_keep_a_tiny_value_exact(program):
    # Uniform prior on 3 inputs, Hamming cost, ε ≈ 19.11 (D* ≈ 1e-8, where tests/checks/test_optimum.py bisects): the
    # bound is within TIGHT_BOUND_RTOL of the value relative to it (not only absolute), and the quick bound at the
    # multipliers shrunk by MULTIPLIER_SHRINK is: the round-off of the reduced costs at the scale of the weights (1e-16)
    # goes (with the shrink set to 0, the quick bound sits up to 1.1e-16 below values of 1e-8 at some of these budgets).
    weights = (np.ones((3, 3)) - np.eye(3)) / 3
    solver = program(weights)
    for epsilon in np.linspace(19.1138279, 19.1138280, 11):
        solution = solver.solve(epsilon)
        assert 0 < solution.value < 2e-8
        assert solution.lower_bound >= solution.value * (1 - TIGHT_BOUND_RTOL)
        multipliers = solver._row_sum_multipliers(solution.row_duals, epsilon)
        shrunk = staircase_quick_bound(weights, epsilon, (1 - MULTIPLIER_SHRINK) * multipliers)
        assert shrunk >= solution.value * (1 - TIGHT_BOUND_RTOL)


@given(st.integers(0, 2**32 - 1), budgets)
def test_staircase_per_mass_is_the_minimum_over_every_set(seed, epsilon):
    # The minimum of (Σ a + α Σ_S a) / (n + α |S|) over all 2^n sets S, by enumeration; S = {a < 0}
    # (the earlier choice) is not always it, and with it the bound exceeded the optimum.
    reduced = np.random.default_rng(seed).normal(size=(5, 3))
    excess = np.expm1(epsilon)
    sets = [np.array([(k >> x) & 1 for x in range(5)], dtype=bool) for k in range(2**5)]
    brute = [min((a.sum() + excess * a[s].sum()) / (5 + excess * s.sum()) for s in sets) for a in reduced.T]
    assert staircase_per_mass(reduced, epsilon) == pytest.approx(brute, abs=1e-12)


def test_uniform_prior_gives_randomized_response():
    # Uniform prior, Hamming distortion: randomized response is optimal, D = (n−1)/(e^ε + n − 1).
    n, epsilon = 6, 0.7
    result = design(DifferentialPrivacy(), epsilon, ExpectedDistortion(Prior.uniform(n)))
    assert result.objective == pytest.approx((n - 1) / (np.exp(epsilon) + n - 1), abs=PATH_AGREEMENT_ATOL)


def test_only_the_exact_structures_take_the_fast_path():
    prior = Prior([0.5, 0.3, 0.2])
    objective = ExpectedDistortion(prior)
    assert direct_program_class([DifferentialPrivacy()], objective, []) is LdpLinearProgram
    assert direct_program_class([MaximalLeakage()], objective, []) is MaximalLeakageLinearProgram
    assert direct_program_class([PointwiseMaximalLeakage(prior)], objective, []) is PmlLinearProgram
    robust = PointwiseMaximalLeakage(SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]))
    for notions, target, limits in [
        ([DifferentialPrivacy([(0, 1), (1, 2)], 3)], objective, []),
        ([robust], objective, []),
        ([DifferentialPrivacy(), MaximalLeakage()], objective, []),
        ([DifferentialPrivacy()], WorstCaseDistortion(prior), []),
        ([DifferentialPrivacy()], objective, [WorstCaseDistortion(prior)]),
    ]:
        assert direct_program(notions, target, limits) is None
    assert isinstance(DesignProblem(DifferentialPrivacy(), objective).direct, LdpLinearProgram)
    # Issue 31 (item 2): a cap on an expected distortion is one more row of the same LP.
    assert direct_program_class([DifferentialPrivacy()], objective, [objective]) is LdpLinearProgram


def test_a_named_solver_chooses_a_solver_not_a_path():
    """Issue 17: naming HiGHS used to turn the direct LP off silently; it is the direct LP's solver. Issue 31
    (item 2): so is Clarabel (its interior point on the same LP), certified the same way; SCS runs through cvxpy."""
    objective = ExpectedDistortion(Prior([0.5, 0.3, 0.2]), [[0, 1, 3], [1, 0, 1], [2, 1, 0]])
    highs = design(DifferentialPrivacy(), 0.4, objective, solver="highs")
    clarabel = design(DifferentialPrivacy(), 0.4, objective, solver="clarabel")
    scs = design(DifferentialPrivacy(), 0.4, objective, solver="scs")
    assert isinstance(DesignProblem(DifferentialPrivacy(), objective, solver="highs").direct, LdpLinearProgram)
    assert (highs.method, highs.solver) == ("direct-lp", "highs")
    assert (clarabel.method, clarabel.solver, clarabel.status) == ("direct-lp", "clarabel", "optimal")
    assert (scs.method, scs.solver) == ("cvxpy", "scs")
    assert highs.objective == pytest.approx(clarabel.objective, abs=PATH_AGREEMENT_ATOL)


def test_pml_leaves_inputs_outside_the_support_unconstrained():
    prior = Prior([0.6, 0.4, 0.0])
    objective = ExpectedDistortion(prior)
    fast = design(PointwiseMaximalLeakage(prior), 0.3, objective)
    reference = design(PointwiseMaximalLeakage(prior), 0.3, objective, solver="clarabel", method="cvxpy")
    assert "PmlLinearProgram" in fast.message and fast.certified
    assert fast.objective == pytest.approx(reference.objective, abs=PATH_AGREEMENT_ATOL)


@pytest.mark.parametrize("program", [LdpLinearProgram, MaximalLeakageLinearProgram, "pml"])
@given(instance=ldp_instances(), epsilons=st.lists(budgets, min_size=2, max_size=5))
def test_warm_started_resolves_match_fresh_solves(program, instance, epsilons):
    prior, cost, _ = instance
    weights = prior.probabilities[:, None] * cost

    def build():
        return PmlLinearProgram(weights, prior.probabilities) if program == "pml" else program(weights)

    warm_program = build()
    for epsilon in epsilons:
        warm = warm_program.solve(epsilon)
        assert warm.value == pytest.approx(build().solve(epsilon).value, abs=PATH_AGREEMENT_ATOL)
        if program is LdpLinearProgram:
            assert warm.value - warm.lower_bound <= PATH_AGREEMENT_ATOL


#: Clarabel's optimum against the simplex's on the same direct LP (absolute; costs up to 5).
INTERIOR_AGREEMENT_ATOL = 1e-7


@pytest.mark.parametrize("program", [LdpLinearProgram, MaximalLeakageLinearProgram, "pml", "approx_dp"])
@given(instance=ldp_instances())
def test_interior_point_solves_agree_with_the_simplex_and_bound_it(program, instance):
    """``solve_interior`` solves the same LP: same optimum when Clarabel reports "optimal", and its duals'
    safe bound never exceeds the simplex's optimum, whatever their accuracy."""
    prior, cost, epsilon = instance
    weights = prior.probabilities[:, None] * cost
    builders = {"pml": lambda: PmlLinearProgram(weights, prior.probabilities),
                "approx_dp": lambda: ApproximateDpLinearProgram(weights, 0.05)}
    build = builders.get(program, lambda: program(weights))
    simplex, interior = build().solve(epsilon), build().solve_interior(epsilon)
    assert interior.lower_bound <= simplex.value + BOUND_ROUNDOFF
    if interior.status == "optimal":
        assert interior.value == pytest.approx(simplex.value, abs=INTERIOR_AGREEMENT_ATOL)
        assert interior.value - interior.lower_bound <= INTERIOR_AGREEMENT_ATOL
        assert interior.row_duals is not None and interior.matrix.shape == weights.shape


@given(instance=ldp_instances(), seed=st.integers(0, 2**32 - 1))
def test_pml_lp_on_held_entries_is_the_lp_with_the_others_fixed_at_zero(instance, seed):
    """``PmlLinearProgram(entries=mask)`` (column generation's restricted LPs) solves the full PML LP with the
    entries outside ``mask`` bounded to 0: same optimum, the mechanism zero there, its safe bound below."""
    prior, cost, epsilon = instance
    weights = prior.probabilities[:, None] * cost
    rng = np.random.default_rng(seed)
    mask = rng.random(weights.shape) < 0.5
    mask[:, rng.integers(weights.shape[1])] = True  # one whole column: the constant mechanism on it is feasible
    held = PmlLinearProgram(weights, prior.probabilities, entries=mask).solve(epsilon)
    full = PmlLinearProgram(weights, prior.probabilities)
    outside = np.flatnonzero(~mask.ravel())  # row-major: the dense LP's first n m columns are Q
    full.highs.changeColsBounds(outside.size, outside.astype(np.int32), np.zeros(outside.size), np.zeros(outside.size))
    reference = full.solve(epsilon)
    assert held.value == pytest.approx(reference.value, abs=PATH_AGREEMENT_ATOL)
    assert np.all(held.matrix[~mask] == 0.0)
    assert held.lower_bound <= reference.value + BOUND_ROUNDOFF


def test_pml_lp_entries_of_another_shape_are_a_named_error():
    weights = np.full((3, 2), 1 / 6)
    with pytest.raises(ShapeMismatchError, match=r"entries must have the shape of weights \(3, 2\), got \(2, 3\)"):
        PmlLinearProgram(weights, np.full(3, 1 / 3), entries=np.ones((2, 3), dtype=bool))


def test_pml_budget_beyond_the_smallest_prior_mass_is_capped_without_changing_the_lp():
    """From ``e^ε = 1 / min P`` on, every mechanism meets PML (``Q[x, y] <= P_x^{-1} · P_x Q[x, y]``), so the
    scale stops there and the optimum is the unconstrained one (each row's cheapest output)."""
    prior = np.array([0.5, 0.3, 0.2])
    cost = np.random.default_rng(0).random((3, 3))
    weights = prior[:, None] * cost
    program = PmlLinearProgram(weights, prior)
    assert program.scale(np.log(2.0)) == pytest.approx(2.0) and program.scale(30.0) == pytest.approx(5.0)
    assert program.solve(30.0).value == pytest.approx(weights.min(axis=1).sum(), abs=PATH_AGREEMENT_ATOL)
    assert program.solve(np.log(5.0)).value == pytest.approx(weights.min(axis=1).sum(), abs=PATH_AGREEMENT_ATOL)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("epsilon", [27.6, 50.0])
def test_pml_lp_at_huge_budgets_is_the_unconstrained_optimum(seed, epsilon):
    """Before the cap, e^ε >= 5e8 made HiGHS report wrong "Optimal" values (n = 5, ε = 27.6: 0.187 against
    0.130; benchmarks/RESULTS.md); capped at 1 / min P it solves the same LP, whose optimum is each row's cheapest."""
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(5))
    weights = prior[:, None] * rng.random((5, 5))
    solution = PmlLinearProgram(weights, prior).solve(epsilon)
    assert solution.value == pytest.approx(weights.min(axis=1).sum(), abs=PATH_AGREEMENT_ATOL)
    assert solution.lower_bound <= solution.value + BOUND_ROUNDOFF


@pytest.mark.parametrize(("n", "method"), [(20, "direct-lp"), (70, "column-generation")])
@pytest.mark.parametrize("tiny", [5e-10, 5e-11])
@pytest.mark.parametrize("epsilon", [0.0, 1e-12])
def test_pml_with_prior_masses_near_1e_minus_10_is_certified_at_budget_zero(n, method, tiny, epsilon):
    """HiGHS drops matrix coefficients below its ``small_matrix_value`` (default 1e-9): the masses ``P_x`` in
    ``z = P·Q``. Dropping one of 5e-10 makes the constant mechanism miss ``Q[x, y] <= e^ε z_y`` by 5e-10, above the
    feasibility tolerance 1e-10, so HiGHS called the LP at ε = 0 "Infeasible" and design() fell back to an
    uncertified cvxpy point. At ε = 0 every support row is the same: the optimum is the cheapest constant column."""
    rng = np.random.default_rng(3)
    masses = rng.dirichlet(np.ones(n))
    masses[:3] = tiny
    prior = Prior(masses / masses.sum())
    cost = rng.random((n, n))
    result = design(PointwiseMaximalLeakage(prior), epsilon, ExpectedDistortion(prior, cost))
    weights = prior.probabilities[:, None] * cost
    assert (result.status, result.method) == ("optimal", method)
    assert result.objective == pytest.approx(weights.sum(axis=0).min(), rel=PATH_AGREEMENT_ATOL)


@pytest.mark.parametrize("tolerance", [0.0, -1e-6, float("nan"), float("inf")])
def test_interior_solve_names_a_tolerance_that_is_not_positive(tolerance):
    program = LdpLinearProgram(np.array([[0.0, 0.5], [0.5, 0.0]]))
    with pytest.raises(MechDesignError, match="tolerance"):
        program.solve_interior(1.0, tolerance=tolerance)


@given(instance=ldp_instances())
def test_a_loose_interior_solve_still_bounds_the_optimum_safely(instance):
    """At Clarabel's tolerance 1e-4 the point is rough, but the safe bound at its duals stays below the
    simplex's optimum (column generation's rounds rely on this)."""
    prior, cost, epsilon = instance
    program = PmlLinearProgram(prior.probabilities[:, None] * cost, prior.probabilities)
    optimum = program.solve(epsilon).value
    assert program.solve_interior(epsilon, tolerance=1e-4).lower_bound <= optimum + BOUND_ROUNDOFF


def test_interior_solve_names_an_unknown_factorization():
    program = LdpLinearProgram(np.array([[0.0, 0.5], [0.5, 0.0]]))
    with pytest.raises(MechDesignError, match="ldl must be one of .*got 'cholmod'"):
        program.solve_interior(1.0, ldl="cholmod")


def test_a_stalled_warm_start_is_retried_cold():
    # e^ε − 1 = 1e-9 after ε = 1 left HiGHS's warm start with status "Unknown" (found by hypothesis).
    program = LdpLinearProgram(np.zeros((2, 2)))
    assert program.solve(1.0).status == "Optimal"
    solution = program.solve(1e-9)
    assert solution.status == "Optimal" and solution.value == 0.0


@pytest.mark.parametrize("epsilon", [0.0, 0.4, 2.0])
@pytest.mark.parametrize("delta", [0.0, 0.05, 0.3])
def test_pointwise_approximate_dp_lp_matches_cvxpy(epsilon, delta):
    # PUT paper (Zhong & Bu), Definition 3(2) on the complete relation, random cost.
    rng = np.random.default_rng(3)
    objective = ExpectedDistortion(Prior(rng.dirichlet(np.ones(6))), rng.random((6, 6)))
    notion = ApproximateDifferentialPrivacy(delta)
    fast = design(notion, epsilon, objective)
    reference = design(notion, epsilon, objective, solver="clarabel", method="cvxpy")
    assert fast.method in ("direct-lp", "unconstrained-optimum") and reference.method == "cvxpy"
    assert fast.status == "optimal" and reference.success
    assert fast.objective == pytest.approx(reference.objective, abs=PATH_AGREEMENT_ATOL)
    assert direct_program_class([ApproximateDifferentialPrivacy(delta, "hockey_stick")], objective, []) is None


def test_staircase_bound_is_the_dense_bound_from_its_per_mass_costs():
    weights = np.random.default_rng(3).random((6, 6)) / 6
    multipliers = np.random.default_rng(4).random(6) / 6
    per_mass = staircase_per_mass(weights - multipliers[:, None], 1.0)
    assert staircase_bound(multipliers, per_mass) == staircase_lower_bound(weights, 1.0, multipliers)


@pytest.mark.parametrize("multipliers, per_mass, match", [
    (np.array([]), np.zeros(2), "multipliers is empty"),
    (np.zeros(2), np.array([np.nan]), "per_mass has a non-finite entry"),
    (np.zeros(2), np.array([1j]), "per_mass must be numeric"),
])
def test_staircase_bound_names_bad_input(multipliers, per_mass, match):
    with pytest.raises(MechDesignError, match=match):
        staircase_bound(multipliers, per_mass)


# --- issue 31: caps (limits) on expected distortions are rows of the same LP -----------------------------

def _programs(prior):
    return {"dp": lambda w, **k: LdpLinearProgram(w, **k),
            "maximal_leakage": lambda w, **k: MaximalLeakageLinearProgram(w, **k),
            "pml": lambda w, **k: PmlLinearProgram(w, prior.probabilities, **k),
            "approx_dp": lambda w, **k: ApproximateDpLinearProgram(w, 0.05, **k)}


@pytest.mark.parametrize("name", ["dp", "maximal_leakage", "pml"])
@settings(max_examples=15)  # each example runs the cvxpy path too
@given(instance=ldp_instances(), seed=st.integers(0, 2**32 - 1), where=st.sampled_from([0.1, 0.5, 1.2]))
def test_a_cap_is_a_row_of_the_direct_lp_and_agrees_with_cvxpy(name, instance, seed, where):
    """Issue 31 (item 2): a cap ``E_L[d] <= D`` on another distortion takes the direct LP (one more row), binding
    (``where`` < 1: between its least value and its value at the uncapped optimum) or not, certified as without it."""
    prior, cost, epsilon = instance
    notion = _notions(prior)[name]
    objective = ExpectedDistortion(prior, cost)
    other = ExpectedDistortion(prior, np.random.default_rng(seed).random(cost.shape))
    least, free = design(notion, epsilon, other).objective, design(notion, epsilon, objective)
    limit = least + where * (other.value(free.mechanism) - least) + 1e-6
    fast = design(notion, epsilon, objective, limits=[(other, limit)])
    reference = design(notion, epsilon, objective, limits=[(other, limit)], method="cvxpy", solver="clarabel")
    assert fast.method == "direct-lp" and fast.status == "optimal", fast.message
    assert fast.gap <= GAP_RTOL * max(1.0, fast.objective) and fast.max_violation < 1e-8
    assert fast.measured_limits[other.label] <= limit + 1e-9
    assert fast.objective == pytest.approx(reference.objective, abs=PATH_AGREEMENT_ATOL)


@pytest.mark.parametrize("name", ["dp", "maximal_leakage", "pml", "approx_dp"])
def test_a_cap_below_every_mechanism_is_infeasible_on_the_direct_lp(name):
    """Issue 31: a cap no mechanism within the budget meets is "infeasible" with the least value it could have
    (HiGHS's dual simplex calls such LPs "Unknown"; the primal simplex proves them infeasible)."""
    rng = np.random.default_rng(5)
    prior = Prior(rng.dirichlet(np.ones(6)))
    objective, other = ExpectedDistortion(prior, rng.random((6, 6))), ExpectedDistortion(prior, rng.random((6, 6)))
    notion = {**_notions(prior), "approx_dp": ApproximateDifferentialPrivacy(0.05)}[name]
    least = design(notion, 0.5, other, method="direct-lp").objective
    result = design(notion, 0.5, objective, limits=[(other, least - 1e-3)], method="direct-lp")
    assert (result.status, result.method, result.success) == ("infeasible", "direct-lp", False)
    assert result.smallest_feasible == pytest.approx(least, abs=PATH_AGREEMENT_ATOL)


@pytest.mark.parametrize("name", ["dp", "maximal_leakage", "pml", "approx_dp"])
def test_the_held_lp_is_the_model_highs_holds(name):
    """Issue 31 (item 3): the model is kept in numpy beside HiGHS (the safe bound reads it at every budget, no
    longer copying the LP back); after budgets and caps change it must be the LP HiGHS holds."""
    rng = np.random.default_rng(2)
    prior = Prior(rng.dirichlet(np.ones(5)))
    weights, cap = prior.probabilities[:, None] * rng.random((5, 4)), prior.probabilities[:, None] * rng.random((5, 4))
    program = _programs(prior)[name](weights, limits=[cap, 2 * cap], penalty=10.0)
    for epsilon, limits in [(0.3, [0.4, 0.9]), (2.0, [0.2, 0.5]), (0.0, [1.0, 2.0])]:
        program.solve(epsilon, limits=limits)
        costs, matrix, row_lower, row_upper, col_lower, col_upper = program._held_lp()
        lp = program.highs.getLp()
        held = sp.csc_matrix((np.asarray(lp.a_matrix_.value_), np.asarray(lp.a_matrix_.index_),
                              np.asarray(lp.a_matrix_.start_)), shape=(lp.num_row_, lp.num_col_))
        assert abs(held - matrix).max() == 0.0  # HiGHS drops a coefficient set to 0; numpy keeps an explicit 0
        for mine, theirs in [(costs, lp.col_cost_), (row_lower, lp.row_lower_), (row_upper, lp.row_upper_),
                             (col_lower, lp.col_lower_), (col_upper, lp.col_upper_)]:
            np.testing.assert_array_equal(mine, np.asarray(theirs))


def test_an_elastic_cap_reports_its_slack_and_keeps_the_bound_safe():
    """With ``penalty`` (column generation's restricted LPs) a cap no mechanism meets is relaxed at that cost:
    the slack says by how much, and the safe bound is still below the elastic LP's optimum."""
    weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    program = LdpLinearProgram(weights, limits=[weights], penalty=10.0)
    solution = program.solve(np.log(3), limits=[0.1])  # the least Hamming distortion at ε = log 3 is 1/4
    assert solution.slacks.tolist() == pytest.approx([0.15], abs=1e-9)
    assert solution.value == pytest.approx(0.25 + 10.0 * 0.15, abs=1e-9)
    assert solution.lower_bound <= solution.value + BOUND_ROUNDOFF
    assert LdpLinearProgram(weights, limits=[weights]).solve(np.log(3), limits=[0.1]).status == "Infeasible"


def test_highs_options_reach_the_direct_lp_and_a_rejected_one_is_named():
    """Issue 31 (item 2): solver_options on an LP notion are HiGHS's options on the direct LP (not a reason to
    take cvxpy); one HiGHS rejects is a MechDesignError naming it, before any LP is built."""
    objective = ExpectedDistortion(Prior([0.5, 0.3, 0.2]), [[0, 1, 3], [1, 0, 1], [2, 1, 0]])
    result = design(DifferentialPrivacy(), 0.4, objective, solver_options={"time_limit": 100.0})
    assert (result.method, result.solver, result.status) == ("direct-lp", "highs", "optimal")
    for options, named in [({"presolve": "maybe"}, "presolve='maybe'"), ({"no_such_option": 1}, "no_such_option=1")]:
        with pytest.raises(MechDesignError, match=rf"solver_options: HiGHS rejects {named}"):
            design(DifferentialPrivacy(), 0.4, objective, solver="highs", solver_options=options)
    # With no solver named, options HiGHS rejects are left to the cvxpy path (its solver's, as before issue 31).
    assert choose_method(design_spec(DifferentialPrivacy(), objective, solver_options={"max_iter": 200})
                         ).method.name == "cvxpy"


def test_a_new_ldp_budget_writes_only_the_floor_costs_and_reports_true_units():
    """Issue 31 (item 3): local DP's LP holds its objective divided by e^ε − 1, so a new budget (after the first)
    writes the m costs of the floors c, not all n m + m + n; the solution's value and row duals are still those of
    Σ W∘Q (uniform binary prior, Hamming cost, ε = log 3: value 1/4, row-sum duals 1/8 each, where the model's own
    duals are 1/16), on both solvers, and ε = 0 (no division) solves as before."""
    weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    program = LdpLinearProgram(weights)
    written = []
    change = program.highs.changeColsCost
    program.highs.changeColsCost = lambda count, *rest: written.append(count) or change(count, *rest)
    program.solve(0.7)
    written.clear()
    for solution in (program.solve(np.log(3)), program.solve_interior(np.log(3))):
        assert solution.value == pytest.approx(0.25, abs=1e-12)
        np.testing.assert_allclose(solution.row_duals[:2], [0.125, 0.125], atol=1e-9)
        assert solution.lower_bound == pytest.approx(0.25, abs=1e-12)
    assert written == [2, 2]  # two solves, m = 2 costs each (not n m + m + n = 8)
    constant = program.solve(0.0)
    assert program.objective_scale == 1.0 and constant.value == pytest.approx(0.5, abs=1e-12)  # constant
    np.testing.assert_allclose(constant.matrix.sum(axis=1), 1.0)


def test_a_scaled_ldp_lp_keeps_the_elastic_caps_cost_in_true_units():
    """Issue 31 (item 3): with its objective divided by e^ε − 1 the elastic caps' cost is divided too, so a cap no
    mechanism meets costs ``penalty`` per unit of slack in Σ W∘Q's units at every budget."""
    weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    program = LdpLinearProgram(weights, limits=[weights], penalty=10.0)
    for epsilon in (np.log(3), 2.0):
        solution = program.solve(epsilon, limits=[0.1])
        least = 1 / (1 + np.exp(epsilon))  # the least Hamming distortion at ε
        assert solution.slacks[0] == pytest.approx(least - 0.1, abs=1e-9)
        assert solution.value == pytest.approx(least + 10.0 * (least - 0.1), abs=1e-9)
        assert solution.lower_bound <= solution.value + 1e-12
        assert program._held_lp()[0][program.penalty_columns] * program.objective_scale == pytest.approx([10.0])


def test_a_warm_resolve_that_stalls_is_solved_in_a_fresh_model():
    """Local DP at ε = 1e-9 after ε = 0 (uniform prior on 4 inputs, two outputs, a 0/1 cost): HiGHS's warm re-solve and
    its clearSolver retry both ended "Unknown" (the value right, the status not), so the solve returned NaN where a
    fresh program is optimal — the case test_warm_started_resolves_match_fresh_solves drew in full test runs only.
    The same LP in a fresh HiGHS model is now the third try (fails without it: value NaN, status "Unknown")."""
    weights = 0.25 * np.array([[0.0, 0.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0]])
    program = LdpLinearProgram(weights)
    assert program.solve(0.0).value == pytest.approx(0.25, abs=1e-15)
    warm = program.solve(1e-9)
    assert warm.status == "Optimal" and warm.value == pytest.approx(LdpLinearProgram(weights).solve(1e-9).value,
                                                                     abs=PATH_AGREEMENT_ATOL)
    assert warm.lower_bound <= warm.value and program.solve(0.5).status == "Optimal"  # the fresh model stays warm
