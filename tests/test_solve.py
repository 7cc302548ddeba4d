"""Tests of mechdesign.solve: design(), DesignProblem and Result."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DesignProblem,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalInformation,
    MaximalLeakage,
    MutualInformation,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    Prior,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
    SourceSet,
    WorstCaseDistortion,
    WorstCaseInputDistortion,
    design,
    trace_curve,
)
from mechdesign.exceptions import InvalidBudgetError, MechDesignError, ShapeMismatchError
from mechdesign.result import GAP_RTOL
from mechdesign.result import clean_mechanism
from mechdesign.solve import choose_solver

SKEWED = Prior([0.4, 0.3, 0.2, 0.1])
#: Agreement between two solvers on the same LP (objective values).
SOLVER_AGREEMENT_ATOL = 1e-7


def test_result_fields_and_certificate():
    cost = np.array([[0.0, 1.0, 2.0, 3.0], [1.0, 0.0, 1.0, 2.0], [2.0, 1.0, 0.0, 1.0], [3.0, 2.0, 1.0, 0.0]]) / 3
    result = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(SKEWED, cost))
    assert result.success and result.status == "optimal" and result.certified and result.method == "direct-lp"
    assert result.solver == "highs" and result.iterations is not None and result.solve_time > 0
    assert 0 <= result.gap <= GAP_RTOL and result.bound == pytest.approx(result.objective, abs=GAP_RTOL)
    assert result.budgets == {"dp": 1.0} and result.measured["dp"] == pytest.approx(1.0, abs=1e-9)
    assert result.max_violation < 1e-8
    assert result.objective == pytest.approx(ExpectedDistortion(SKEWED, cost).value(result.mechanism), abs=0)
    payload = json.loads(json.dumps(result.to_dict()))
    assert payload["certified"] and len(payload["mechanism"]) == 4
    assert payload["method"] == "direct-lp" and payload["gap"] == result.gap and payload["bound"] == result.bound
    assert "budget 1, measured 1" in result.summary()
    with pytest.raises(AttributeError):
        result.success = False  # frozen


@pytest.mark.parametrize(
    "notion",
    [DifferentialPrivacy(), ApproximateDifferentialPrivacy(0.05), ApproximateDifferentialPrivacy(0.05, "hockey_stick"),
     MaximalLeakage(), PointwiseMaximalLeakage(SKEWED)],
    ids=lambda n: n.label,
)
@pytest.mark.parametrize("budget", [0.0, 0.4, 1.3])
def test_two_solvers_agree_on_the_same_lp(notion, budget):
    values = {solver: design(notion, budget, ExpectedDistortion(SKEWED), solver=solver) for solver in ("highs", "clarabel")}
    assert all(r.success for r in values.values())
    assert values["highs"].objective == pytest.approx(values["clarabel"].objective, abs=SOLVER_AGREEMENT_ATOL)


def test_several_notions_at_once():
    notions = [DifferentialPrivacy(), MutualInformationPrivacy(SKEWED)]
    result = design(notions, [2.0, 0.2], ExpectedDistortion(SKEWED))
    assert result.success and result.solver == "clarabel"
    assert result.measured["dp"] <= 2.0 + 1e-6 and result.measured["mutual_information"] <= 0.2 + 1e-6
    alone = design(DifferentialPrivacy(), 2.0, ExpectedDistortion(SKEWED))
    assert result.objective >= alone.objective - 1e-9  # an extra constraint cannot help


def test_same_label_twice_is_disambiguated():
    result = design([DifferentialPrivacy(), DifferentialPrivacy()], [1.0, 2.0], ExpectedDistortion(SKEWED))
    assert set(result.budgets) == {"dp", "dp'"} and result.success


def test_infeasible_limit_reports_the_smallest_feasible_value():
    distortion = ExpectedDistortion(SKEWED)
    best = design(DifferentialPrivacy(), 0.5, distortion).objective
    result = design(DifferentialPrivacy(), 0.5, MutualInformation(SKEWED), limits=[(distortion, best - 0.05)])
    assert not result.success and result.status == "infeasible"
    assert result.mechanism is None and result.objective is None
    assert result.smallest_feasible == pytest.approx(best, abs=1e-7)
    assert "below the smallest value" in result.message and not result.certified


def test_feasible_limit_is_respected():
    distortion = ExpectedDistortion(SKEWED)
    result = design(DifferentialPrivacy(), 2.0, MutualInformation(SKEWED), limits=[(distortion, 0.3)])
    assert result.success and result.measured_limits["expected_distortion"] <= 0.3 + 1e-7


def test_worst_case_objectives():
    source_set = SourceSet([SKEWED, Prior.uniform(4)])
    worst = design(DifferentialPrivacy(), 1.0, WorstCaseDistortion(source_set))
    uniform = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(Prior.uniform(4)))
    inputs = design(DifferentialPrivacy(), 1.0, WorstCaseInputDistortion(4))
    assert worst.success and uniform.success and inputs.success
    # The uniform prior is in the set, so the worst case is at least its optimum (PUT Lemma 5(1));
    # randomized response has equal row costs, so it is optimal for every one of these.
    assert worst.objective == pytest.approx(uniform.objective, abs=1e-8)
    assert inputs.objective == pytest.approx(3 / (math.e + 3), abs=1e-8)


def test_an_inaccurate_solve_is_repaired_and_reported_suboptimal_with_its_gap():
    # Two SCS iterations cannot reach an accurate solution: the point is mixed with the constant
    # mechanism until private, and the certificate says how far from optimal it is — never "optimal".
    result = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(SKEWED), solver="scs",
                    solver_options={"max_iters": 2})
    assert result.success and result.status == "suboptimal" and result.certified
    assert result.measured["dp"] <= 1.0 + 1e-6
    optimum = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(SKEWED)).objective
    assert result.bound <= optimum + 1e-12 <= result.objective + 1e-12
    assert result.gap == pytest.approx(result.objective - result.bound) and result.gap > GAP_RTOL
    assert "mixed with weight" in result.message and "suboptimal" in result.message


def test_bad_input_raises_named_errors():
    objective = ExpectedDistortion(SKEWED)
    with pytest.raises(InvalidBudgetError, match=r"budget for dp must be a number >= 0 \(or inf\), got -1"):
        design(DifferentialPrivacy(), -1.0, objective)
    with pytest.raises(MechDesignError, match=r"expected 2 budgets \(one per dp, maximal_leakage\), got 1"):
        design([DifferentialPrivacy(), MaximalLeakage()], [1.0], objective)
    with pytest.raises(ShapeMismatchError, match="defined on 3 inputs"):
        design(PointwiseMaximalLeakage([0.2, 0.3, 0.5]), 1.0, objective)
    with pytest.raises(MechDesignError, match="solver must be one of"):
        design(DifferentialPrivacy(), 1.0, objective, solver="gurobi")
    with pytest.raises(MechDesignError, match="notions must be a non-empty sequence, got 'dp'"):
        design("dp", 1.0, objective)
    with pytest.raises(MechDesignError, match="objective must be an instance of Objective"):
        design(DifferentialPrivacy(), 1.0, "hamming")
    with pytest.raises(MechDesignError, match=r"limits\[0\]\[1\] is NaN"):
        design(DifferentialPrivacy(), 1.0, MutualInformation(SKEWED), limits=[(objective, math.nan)])


def test_maximizing_a_convex_utility_is_refused_with_a_pointer():
    class MaximizedInformation(MutualInformation):
        sense = "maximize"

    with pytest.raises(MechDesignError, match="extreme-column LP"):
        DesignProblem(DifferentialPrivacy(), MaximizedInformation(SKEWED))


def test_problem_is_dpp_and_re_solves():
    problem = DesignProblem(MaximalLeakage(), ExpectedDistortion(Prior.uniform(3)))
    assert problem.problem.is_dpp()
    first, second = problem.solve(0.2), problem.solve(0.9)
    assert first.objective > second.objective


@pytest.mark.parametrize("method", ["direct-lp", "cvxpy"])
def test_solve_validated_is_solve_without_the_validation(method):
    """Issue 31 (item 3): ``solve_validated`` (what curves call, their budgets validated once) answers as ``solve``
    does — same mechanism, bound, measures and status, with a limit too; ``solve`` still names a bad budget."""
    rng = np.random.default_rng(3)
    prior = Prior(rng.dirichlet(np.ones(5)))
    objective, other = ExpectedDistortion(prior, rng.random((5, 5))), ExpectedDistortion(prior, rng.random((5, 5)))
    for budget, limit in ((0.3, 0.9), (1.1, 0.4)):  # each on a problem of its own (a re-solve may start warm)
        checked = DesignProblem(MaximalLeakage(), objective, [other], method=method).solve(budget, [limit])
        fast = DesignProblem(MaximalLeakage(), objective, [other], method=method).solve_validated([budget], [limit])
        assert (checked.status, checked.measured, checked.measured_limits, checked.bound) == (
            fast.status, fast.measured, fast.measured_limits, fast.bound)
        assert np.array_equal(checked.mechanism.matrix, fast.mechanism.matrix)
    with pytest.raises(InvalidBudgetError, match="budget for maximal_leakage"):
        DesignProblem(MaximalLeakage(), objective, [other], method=method).solve(-1.0, [0.5])


def test_choose_solver_and_clean_mechanism():
    assert choose_solver(True, 100) == "highs" and choose_solver(False, 100) == "clarabel"
    assert choose_solver(True, 10**6) == "clarabel"
    cleaned = clean_mechanism(np.array([[0.5 + 1e-12, 0.5, 1e-10], [0.6, 0.4 - 1e-12, -1e-11]]))
    assert (cleaned[:, 2] == 0).all() and np.allclose(cleaned.sum(axis=1), 1, atol=1e-15)


def test_mix_with_constant_never_increases_leakage_and_stays_stochastic():
    from mechdesign.result import mix_with_constant

    matrix = np.array([[0.05 + 1e-10, 0.95 - 1e-10], [0.0, 1.0]])
    notion = ApproximateDifferentialPrivacy(0.05)
    assert notion.measure(matrix) == math.inf  # round-off above δ against an exact zero
    mixed = mix_with_constant(matrix, 1e-8)
    assert np.allclose(mixed.sum(axis=1), 1.0, atol=1e-15) and notion.measure(mixed) == 0.0
    for other in (DifferentialPrivacy(), MaximalLeakage(), PointwiseMaximalLeakage([0.5, 0.5])):
        assert other.measure(mixed) <= other.measure(matrix)


def test_refuses_a_problem_larger_than_the_available_memory(monkeypatch):
    import mechdesign.memory as memory_module
    from mechdesign.exceptions import ProblemTooLargeError

    monkeypatch.setattr(memory_module, "available_memory", lambda: 100 * 2**20)  # pretend 100 MiB
    hockey = ApproximateDifferentialPrivacy(0.05, "hockey_stick")
    with pytest.raises(ProblemTooLargeError, match=r"hockey_stick\) design on 40×40 needs an estimated .* GiB"):
        DesignProblem(hockey, ExpectedDistortion(Prior.uniform(40)))
    with pytest.raises(ProblemTooLargeError, match="dp design on 2000×2000"):
        DesignProblem(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2000)))
    assert DesignProblem(hockey, ExpectedDistortion(SKEWED)).solve(1.0).success  # small problems still fit


def test_estimated_nonzeros_grow_like_the_formulation():
    from mechdesign.solve import estimated_nonzeros

    def count(notion, n):
        problem = DesignProblem(notion, ExpectedDistortion(Prior.uniform(n)), solver="clarabel", method="cvxpy")
        return estimated_nonzeros(problem.problem)

    structured = count(DifferentialPrivacy(), 40) / count(DifferentialPrivacy(), 20)
    pairwise = (count(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), 40)
                / count(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), 20))
    assert 3.5 < structured < 4.5 and 7 < pairwise < 9  # n² rows vs n³ rows



def test_solver_ending_without_a_solution_is_a_result_not_an_exception():
    # HiGHS 1.15 ends this near-degenerate LP (global DP on {0,1,2}^3, ε ≈ 1.5e-3) with status UNKNOWN;
    # cvxpy then raises "Cannot unpack invalid solution", which design() must turn into a result.
    from mechdesign.mechanisms import hamming_distances, hamming_neighbours

    result = design(DifferentialPrivacy(hamming_neighbours(3, 3)), 0.0014996253747656138,
                    ExpectedDistortion(Prior.uniform(27), cost=hamming_distances(3, 3)), solver="highs")
    assert result.status == "solver_error" and not result.success and result.mechanism is None
    assert "without a usable solution" in result.message


def test_other_value_errors_from_the_solve_are_not_swallowed(monkeypatch):
    problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)), solver="clarabel",
                            method="cvxpy")

    def broken_solve(*args, **kwargs):
        raise ValueError("something else")

    monkeypatch.setattr(problem.problem, "solve", broken_solve)
    with pytest.raises(ValueError, match="something else"):
        problem.solve(1.0)


# --- certified optimality, as a property (issue: every "optimal" result carries a checked bound) -----

#: Budgets from the degenerate to beyond float64's e^ε.
PROPERTY_BUDGETS = [0.0, 1e-6, 0.5, 5.0, 30.0, 100.0, 1e4, math.inf]
#: Two certified optima of one problem agree within both gaps plus the accepted budget excess.
REFERENCE_ATOL = 1e-6


def _property_notions(prior):
    return [DifferentialPrivacy(), ApproximateDifferentialPrivacy(0.05), ApproximateDifferentialPrivacy(0.05, "hockey_stick"),
            MaximalLeakage(), PointwiseMaximalLeakage(prior), MaximalInformation(prior), RenyiDifferentialPrivacy(2),
            SibsonMutualInformation(2, prior), MutualInformationPrivacy(prior)]


@st.composite
def certification_instances(draw):
    """A seed drives the draw, so every notion, budget and scale is covered evenly (hypothesis's own
    choices shrink towards the first notion, budget 0 and zero costs)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = int(rng.integers(2, 4))
    masses = rng.choice([0.0, 1e-9, 0.05, 0.3, 1.0], size=n)
    masses[rng.integers(n)] = 1.0  # a prior, entries down to 1e-9 and exact zeros
    prior = Prior(masses / masses.sum())
    notions = _property_notions(prior)
    notion = notions[rng.integers(len(notions))]
    epsilon = PROPERTY_BUDGETS[rng.integers(len(PROPERTY_BUDGETS))]
    return prior, rng.random((n, n)), notion, epsilon, 10.0 ** int(rng.integers(-12, 13))


@settings(max_examples=80)
@given(certification_instances())
def test_every_optimal_result_is_certified_and_units_never_matter(instance):
    prior, cost, notion, epsilon, scale = instance
    result = design(notion, epsilon, ExpectedDistortion(prior, scale * cost))  # never raises for valid input
    assert result.success or result.status == "solver_error"
    if not result.success:
        return
    for label, value in result.measured.items():
        assert value <= result.budgets[label] + 1e-6
    unit = max(scale * float(cost.max()), 0.0) or 1.0
    reference = design(notion, epsilon, ExpectedDistortion(prior, cost), solver="clarabel",
                       method="cvxpy")  # normalized units, the other path
    if result.bound is not None and reference.success:  # a bound is below every private mechanism
        assert result.bound / unit <= reference.objective / (unit / scale) + REFERENCE_ATOL
    if result.status == "optimal":
        assert result.gap <= GAP_RTOL * max(unit, abs(result.objective))
        if reference.status == "optimal":
            assert result.objective / unit == pytest.approx(reference.objective * scale / unit, abs=REFERENCE_ATOL)


# --- regressions: each case the certified-optimality issue listed -------------------------------------


def test_pml_at_a_large_budget_is_the_identity_not_the_constant():
    # Was: the constant mechanism (distortion 0.5) reported "optimal"; the identity (0) is feasible.
    uniform = Prior([0.5, 0.5])
    result = design(PointwiseMaximalLeakage(uniform), 30, ExpectedDistortion(uniform))
    assert result.status == "optimal" and result.objective == 0.0 and result.bound == 0.0


@pytest.mark.parametrize("epsilon", [32.0, 33.0, 36.0, 100.0, 1e4, math.inf])
def test_large_budgets_never_fail_and_are_certified(epsilon):
    # Was: InvalidMechanismError (NaN from HiGHS) at ε = 33 and "highs returned status 'Not Set'" from 32–36.
    for notion in (DifferentialPrivacy(), PointwiseMaximalLeakage(SKEWED), ApproximateDifferentialPrivacy(0.05),
                   MaximalInformation(SKEWED)):
        result = design(notion, epsilon, ExpectedDistortion(SKEWED, np.arange(16.0).reshape(4, 4) % 5))
        assert result.status == "optimal" and result.gap <= GAP_RTOL * result.unit, (notion.label, epsilon)


@pytest.mark.parametrize("epsilon", [20.0, 50.0])
def test_renyi_on_a_binary_prior_at_large_budgets(epsilon):
    # Was: a Clarabel error for every ε >= 20.
    result = design(RenyiDifferentialPrivacy(2), epsilon, ExpectedDistortion(Prior([0.5, 0.5])))
    assert result.status == "optimal" and result.objective <= 1e-7


def test_hockey_stick_curve_agrees_with_design_and_both_are_certified():
    # Was: trace_curve gave D*(0) = 0.3201 and D*(20) = 0.4346 while design(…, 20) gave 0.2092.
    rng = np.random.default_rng(0)
    cost, prior = rng.random((5, 5)), Prior(rng.dirichlet(np.ones(5)))
    notion, objective = ApproximateDifferentialPrivacy(0.05, "hockey_stick"), ExpectedDistortion(prior, cost)
    curve = trace_curve(notion, objective, [0.0, 20.0])
    assert curve.optimal
    for budget, value in zip(curve.x, curve.y):
        assert value == pytest.approx(design(notion, budget, objective).objective, abs=REFERENCE_ATOL)
    assert curve.y[1] <= curve.y[0]


@pytest.mark.parametrize("scale", [1e-12, 1.0, 1e12])
def test_the_units_of_the_cost_do_not_change_the_answer(scale):
    # Was: Hamming × 1e-12 under 1-LDP gave 0.654 (rescaled) as "optimal" instead of 0.4815; × 1e12
    # gave "unbounded"/"infeasible". Checked on the general LP path (solver named) and by default.
    for solver in (None, "highs", "clarabel"):
        for notion in (DifferentialPrivacy(), ApproximateDifferentialPrivacy(0.05, "hockey_stick"),
                       MaximalInformation(SKEWED), MutualInformationPrivacy(SKEWED)):
            if solver == "highs" and not notion.is_linear:
                continue
            result = design(notion, 1.0, ExpectedDistortion(SKEWED, scale * (1 - np.eye(4))), solver=solver)
            reference = design(notion, 1.0, ExpectedDistortion(SKEWED))
            assert result.status == "optimal", (notion.label, solver, result.message)
            assert result.objective / scale == pytest.approx(reference.objective, abs=REFERENCE_ATOL)


def test_privacy_distortion_on_the_global_framework_is_exact():
    # Was: ε* = 0.0136 with success=True at D = 1.998; PUT paper Thm. 7: ε* = log(2.002/1.998).
    from mechdesign import privacy_distortion
    from mechdesign.mechanisms import hamming_distances, hamming_neighbours

    value = privacy_distortion(DifferentialPrivacy(hamming_neighbours(2, 4)), 1.998,
                               ExpectedDistortion(Prior.uniform(16), hamming_distances(2, 4)))
    assert value.success and value.epsilon == pytest.approx(math.log(2.002 / 1.998), abs=1e-8)


def test_maximize_mutual_information_is_exact_at_n16():
    # Was: 1.2e-8 short of the optimum (HiGHS's default 1e-7 tolerances) while reporting an exact optimum.
    from mechdesign import maximize_mutual_information

    prior = np.full(16, 1 / 16)
    result = maximize_mutual_information(DifferentialPrivacy(), 1.0, prior)
    assert result.status == "optimal" and result.method == "extreme-columns"
    assert result.bound - result.objective <= GAP_RTOL


# --- design(method=...): the method table (issue 17, item 2) -----------------------------------------

#: Agreement between two design methods on the same problem (objective values).
METHOD_AGREEMENT_ATOL = 1e-8
RANDOM_COST = np.array([[0.0, 1.0, 3.0, 2.0], [1.0, 0.0, 1.0, 4.0], [2.0, 1.0, 0.0, 1.0], [0.5, 2.0, 1.0, 0.0]])


@pytest.mark.parametrize("notion", [DifferentialPrivacy(), MaximalLeakage()], ids=["dp", "maximal_leakage"])
@pytest.mark.parametrize("epsilon", [0.0, 0.3, 1.2])
def test_every_applicable_method_gives_the_same_certified_optimum(notion, epsilon):
    objective = ExpectedDistortion(SKEWED)
    results = {method: design(notion, epsilon, objective, method=method)
               for method in ("auto", "closed-form", "direct-lp", "cvxpy")}
    assert results["auto"].method == "closed-form"  # the documented order: closed form first
    for method, result in results.items():
        assert result.status == "optimal", (method, result.message)
        assert result.method in (method, "unconstrained-optimum") or method == "auto"
        assert result.objective == pytest.approx(results["closed-form"].objective, abs=METHOD_AGREEMENT_ATOL)


@pytest.mark.parametrize("kwargs, named", [
    (dict(method="closed-form", objective=ExpectedDistortion(SKEWED, RANDOM_COST)), "it needs one notion"),
    (dict(method="direct-lp", solver="scs"), "not solver='scs'"),
    (dict(method="closed-form", solver="highs"), "runs no solver"),
    (dict(method="closed-form", solver_options={"time_limit": 5}), "takes no solver_options"),
    (dict(method="direct-lp", solver="clarabel", solver_options={"max_iter": 5}), "solver_options only for HiGHS"),
    (dict(method="direct-lp", objective=WorstCaseInputDistortion(4)), "it needs one notion"),
])
def test_an_inapplicable_method_is_a_named_error_listing_those_that_apply(kwargs, named):
    from mechdesign import MethodNotApplicableError

    objective = kwargs.pop("objective", ExpectedDistortion(SKEWED))
    with pytest.raises(MethodNotApplicableError, match=rf"method='{kwargs['method']}' .*{named}.*methods that apply: \["):
        design(DifferentialPrivacy(), 0.5, objective, **kwargs)


@pytest.mark.parametrize("method", ["simplex", None, 3])
def test_an_unknown_method_is_a_named_error(method):
    from mechdesign import MethodNotApplicableError

    with pytest.raises(MethodNotApplicableError, match=r"method must be 'auto' or one of \['closed-form', 'hockey-stick-cuts', 'blahut-arimoto', 'metric-cone', 'column-generation', 'direct-lp', 'constraint-generation', 'pair-generation', 'cvxpy'\]"):
        design(DifferentialPrivacy(), 0.5, ExpectedDistortion(SKEWED), method=method)
    with pytest.raises(MethodNotApplicableError, match="method must be"):
        DesignProblem(DifferentialPrivacy(), ExpectedDistortion(SKEWED), method="closed-form")  # not compiled


def test_the_dispatch_runs_once_per_design_and_the_direct_path_builds_no_cvxpy_problem(monkeypatch):
    import mechdesign.problem as problem_module
    import mechdesign.solve as solve_module

    calls = {"hamming": 0, "direct": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(solve_module, "hamming_problem", counted("hamming", solve_module.hamming_problem))
    monkeypatch.setattr(problem_module, "direct_program_class", counted("direct", problem_module.direct_program_class))
    result = design(DifferentialPrivacy(), 0.5, ExpectedDistortion(SKEWED, RANDOM_COST))
    assert result.method == "direct-lp" and calls == {"hamming": 1, "direct": 1}
    problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(SKEWED, RANDOM_COST))
    assert problem.solve(0.5).method == "direct-lp" and problem._problem is None


def test_a_named_method_runs_alone_while_auto_falls_back(monkeypatch):
    from mechdesign.problem import _Attempt

    def stalls(self, budget, limits, cold):
        return _Attempt("solver_error", None, None, None, "highs", "direct-lp", "simulated stall")

    monkeypatch.setattr(DesignProblem, "_run_direct", stalls)
    objective = ExpectedDistortion(SKEWED, RANDOM_COST)
    fallback = design(DifferentialPrivacy(), 0.5, objective)
    alone = design(DifferentialPrivacy(), 0.5, objective, method="direct-lp")
    assert fallback.status == "optimal" and (fallback.method, fallback.solver) == ("cvxpy", "clarabel")
    assert alone.status == "solver_error" and alone.method == "direct-lp" and "cvxpy" not in alone.message


def test_max_violation_means_the_same_on_both_solver_paths():
    objective = ExpectedDistortion(SKEWED, RANDOM_COST)
    direct = design(PointwiseMaximalLeakage(SKEWED), 0.4, objective, method="direct-lp")
    via_cvxpy = design(PointwiseMaximalLeakage(SKEWED), 0.4, objective, method="cvxpy")
    closed = design(DifferentialPrivacy(), 0.4, ExpectedDistortion(SKEWED))
    assert 0.0 <= direct.max_violation < 1e-8 and 0.0 <= via_cvxpy.max_violation < 1e-6
    assert closed.method == "closed-form" and closed.max_violation is None


def test_trace_curve_takes_a_method():
    objective, budgets = ExpectedDistortion(SKEWED), [0.2, 0.9]
    automatic = trace_curve(MaximalLeakage(), objective, budgets)
    via_cvxpy = trace_curve(MaximalLeakage(), objective, budgets, method="cvxpy")
    assert {r.method for r in automatic.results} == {"closed-form"}
    assert {r.method for r in via_cvxpy.results} == {"cvxpy"}
    np.testing.assert_allclose(via_cvxpy.y, automatic.y, atol=METHOD_AGREEMENT_ATOL)


def test_an_uncertified_direct_lp_whose_cvxpy_fallback_would_not_fit_is_a_suboptimal_result(monkeypatch):
    # The direct LP's private mechanism stands when the dense cvxpy fallback is too large to build: the
    # result says "suboptimal" and why, instead of raising ProblemTooLargeError mid-solve.
    import dataclasses

    from mechdesign import problem as module
    from mechdesign.exceptions import ProblemTooLargeError

    run_direct = module.DesignProblem._run_direct
    monkeypatch.setattr(module.DesignProblem, "_run_direct",
                        lambda self, budget, limits, cold: dataclasses.replace(run_direct(self, budget, limits, cold),
                                                                               bound=None))
    monkeypatch.setattr(module, "design_lower_bound", lambda *args, **kwargs: (-math.inf, "no bound in this test"))

    def refuse(nbytes, what):
        raise ProblemTooLargeError(f"{what} needs an estimated {nbytes} bytes (test)")

    cost = np.random.default_rng(3).uniform(size=(5, 5))
    objective = ExpectedDistortion(Prior.uniform(5), cost)
    problem = module.DesignProblem(PointwiseMaximalLeakage(Prior.uniform(5)), objective)
    assert problem.method == "direct-lp"
    monkeypatch.setattr(module, "check_memory", refuse)  # after the direct LP's own check
    result = problem.solve(0.5)
    assert (result.status, result.success, result.method) == ("suboptimal", True, "direct-lp")
    assert "the cvxpy fallback was not tried" in result.message and "(test)" in result.message
    assert result.measured[problem.notion_labels[0]] <= 0.5 + 1e-6


def test_a_distortion_cap_keeps_the_fast_path_and_its_certificate():
    """Issue 31 (item 2): a cap on an expected distortion used to send the design through cvxpy and a second, cold
    LP for its certificate (41× slower at n = 100); it is a row of the direct LP, a priced row of column
    generation, the same optimum either way, and an unreachable cap is "infeasible" with the least value."""
    rng = np.random.default_rng(11)
    n = 60  # column generation's threshold
    prior = Prior(rng.dirichlet(np.ones(n)))
    objective, other = ExpectedDistortion(prior, rng.random((n, n))), ExpectedDistortion(prior, rng.random((n, n)))
    least = design(DifferentialPrivacy(), 1.0, other).objective
    reached = other.value(design(DifferentialPrivacy(), 1.0, objective).mechanism)
    for limit in (reached + 0.05, 0.5 * (least + reached)):
        fast = design(DifferentialPrivacy(), 1.0, objective, limits=[(other, limit)])
        dense = design(DifferentialPrivacy(), 1.0, objective, limits=[(other, limit)], method="direct-lp")
        assert (fast.method, fast.status, dense.status) == ("column-generation", "optimal", "optimal"), fast.message
        assert fast.objective == pytest.approx(dense.objective, abs=1e-9)
        assert fast.measured_limits[other.label] <= limit + 1e-9
    unreachable = design(DifferentialPrivacy(), 1.0, objective, limits=[(other, least - 1e-3)])
    assert unreachable.status == "infeasible" and unreachable.smallest_feasible == pytest.approx(least, abs=1e-9)


def test_a_renyi_design_scales_its_budget_once_per_evaluation_site(monkeypatch):
    """Issue 33 item 4: the KKT polish (``DesignProblem._polished_point``) and the certificate hand the notion's
    column terms the budget already scaled, instead of re-scaling it at every one of Newton's evaluations."""
    from mechdesign import RenyiDifferentialPrivacy

    unscaled = []
    original = RenyiDifferentialPrivacy.column_terms

    def recording(self, matrix, budget, scale=None):
        unscaled.append(scale is None)
        return original(self, matrix, budget, scale)

    monkeypatch.setattr(RenyiDifferentialPrivacy, "column_terms", recording)
    result = design(RenyiDifferentialPrivacy(2.0), 1.0, ExpectedDistortion(Prior([0.5, 0.3, 0.2])))
    assert result.status == "optimal" and len(unscaled) > 2 and not any(unscaled)


@pytest.mark.parametrize("epsilon", [27.0, 30.0, 700.0])
def test_a_solver_point_that_is_no_mechanism_is_a_failed_attempt(epsilon):
    """Prior on one input whose cost row is constant, e^ε >= 5e11: HiGHS's direct LP ends "Optimal" with the zero
    matrix (its rows met within the 1e-10 tolerance by an excess of 1/(e^ε − 1)); clean_mechanism's 0/0 escaped as an
    InvalidMechanismError from design(). Now that attempt is a solver failure: "auto" goes on to cvxpy (optimal,
    D* = 2 at every budget), a named "direct-lp" returns a solver_error result (found by the hostile LP sweep)."""
    objective = ExpectedDistortion(Prior([0.0, 1.0]), np.array([[2.0, 1.0], [2.0, 2.0]]))
    result = design(DifferentialPrivacy(), epsilon, objective)
    assert result.status == "optimal" and result.objective == pytest.approx(2.0, rel=1e-12)
    named = design(DifferentialPrivacy(), epsilon, objective, method="direct-lp")
    assert named.status == "solver_error" and named.mechanism is None and "no positive mass" in named.message
    assert named.message.endswith("every notion admits the constant mechanism, so this is a solver failure, not "
                                  "infeasibility")
    # with a limit the constant mechanism may miss it: the message does not claim it is feasible
    cap = ExpectedDistortion(Prior([0.5, 0.5]), np.array([[0.0, 1.0], [1.0, 0.0]]))
    capped = design(DifferentialPrivacy(), epsilon, objective, limits=[(cap, 0.9)], method="direct-lp")
    assert capped.status == "solver_error"
    assert capped.message.endswith("infeasibility of the limits was not proven, so this is a solver failure")


def test_auto_retries_through_cvxpy_what_pair_generation_does_not_certify():
    """Hostile pass H-1: at ε = 30 (n = 12, every pair neighbouring) Clarabel fails on pair generation's first working
    set, and "auto" returned that solver_error where the compiled problem certifies the unconstrained optimum mixed
    with the constant mechanism. Under "auto" that optimum is tried first (DesignProblem.unconstrained_result), and a
    design pair generation does not certify (n <= solve.PAIRS_FALLBACK_INPUTS) is retried through cvxpy; named, pair
    generation runs alone (fails on the code with neither: status solver_error)."""
    from mechdesign import ExpectedDistortion, Prior, RenyiDifferentialPrivacy, design

    rng = np.random.default_rng(0)
    objective = ExpectedDistortion(Prior(rng.dirichlet(np.ones(12))), rng.random((12, 12)))
    alone = design(RenyiDifferentialPrivacy(2.0), 30.0, objective, method="pair-generation")
    assert alone.method == "pair-generation" and alone.status != "optimal"
    result = design(RenyiDifferentialPrivacy(2.0), 30.0, objective)
    assert result.status == "optimal" and result.method != "pair-generation"
    assert RenyiDifferentialPrivacy(2.0).measure(result.mechanism) <= 30.0


def test_no_notion_at_all_is_the_unconstrained_optimum():
    """No notion and no budget (the slow fuzz's ``distortion_privacy([], [], …)``): nothing constrains the design,
    so the answer is the objective's unconstrained optimum — it once raised IndexError in the budget-0 shortcut."""
    result = design([], [], ExpectedDistortion(Prior([0.7, 0.3])))
    assert (result.status, result.method, result.objective) == ("optimal", "unconstrained-optimum", 0.0)


def test_a_budget_that_is_not_a_number_is_a_named_error():
    """A Prior passed as the budget (array-like, not a sequence) is refused by name, not with a TypeError."""
    with pytest.raises(MechDesignError, match="budget for dp must be a number"):
        design(DifferentialPrivacy(), Prior([1.0]), ExpectedDistortion(Prior.uniform(2)))
