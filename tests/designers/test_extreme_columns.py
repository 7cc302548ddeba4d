"""Tests of mechdesign.designers.extreme_columns: the exact LP over extreme columns.

Reproduces Grosse et al., "Privacy Mechanism Design based on Empirical Distributions": Example 1
(the optimal first-region mechanism), Example 2 (k-singular mechanisms optimal at ε = log(N/k) for the
uniform prior, [15, Thm. 4]) and Theorem 5 (the optimal binary mechanism for the ℓ1-ball); and, for
local DP, Kairouz, Oh & Viswanath 2016 (staircase optimum, randomized response for binary inputs),
computed independently by brute force over bases.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    MaximalLeakage,
    PointwiseMaximalLeakage,
    ProblemTooLargeError,
    SourceSet,
    mutual_information,
    randomized_response,
)
from mechdesign.exceptions import MechDesignError, SolverFailedError
from mechdesign.mechanisms.pml import binary_robust_pml_mechanism, k_singular_mechanism
from mechdesign.priors import L1Ball
from mechdesign.result import GAP_RTOL
from mechdesign.result import within_budget
from mechdesign.designers.extreme_columns import (
    column_lp_upper_bound,
    extreme_columns,
    l1_ball_columns,
    maximize_mutual_information,
    maximize_sublinear_utility,
    solve_column_lp,
    source_set_columns,
)
from mechdesign.utility.information import mutual_information_utility
from mechdesign.utility.sublinear import ColumnUtility

from ..strategies import full_support_priors

#: Agreement of the LP optimum with a closed form / brute force (nats).
OPTIMUM_ATOL = 1e-9
#: Agreement of a designed mechanism with a printed one, entry-wise.
MATRIX_ATOL = 1e-9

EXAMPLE_1_PRIOR = np.array([0.4, 0.2, 0.2, 0.2])
EXAMPLE_1 = np.array([
    [0.325, 0.225, 0.225, 0.225],
    [0.45, 0.1, 0.225, 0.225],
    [0.45, 0.225, 0.1, 0.225],
    [0.45, 0.225, 0.225, 0.1],
])


def ball_extreme_points(center, radius):
    """Extreme points P̂ + (β/2)(e_i − e_j) of an ℓ1-ball inside the simplex (Corollary 1)."""
    n = len(center)
    return SourceSet([np.asarray(center) + radius / 2 * (np.eye(n)[i] - np.eye(n)[j])
                      for i in range(n) for j in range(n) if i != j])


def same_up_to_column_order(a, b, atol):
    if a.shape != b.shape:
        return False
    return any(np.allclose(a[:, list(p)], b, atol=atol, rtol=0) for p in itertools.permutations(range(a.shape[1])))


def brute_force_optimum(columns, values):
    """``max values·w`` s.t. ``columns @ w = 1``, ``w >= 0`` by trying every basis (no LP solver)."""
    n, k = columns.shape
    best = -np.inf
    for basis in itertools.combinations(range(k), n):
        sub = columns[:, basis]
        if abs(np.linalg.det(sub)) < 1e-12:
            continue
        weights = np.linalg.solve(sub, np.ones(n))
        if weights.min() >= -1e-12:
            best = max(best, float(values[list(basis)] @ weights))
    return best


def test_example_1_optimal_mechanism_reproduced():
    """Grosse et al., Example 1: P = (2/5, 1/5, 1/5, 1/5), ε = log 9/8."""
    notion = PointwiseMaximalLeakage(EXAMPLE_1_PRIOR)
    result = maximize_mutual_information(notion, math.log(9 / 8), EXAMPLE_1_PRIOR)
    assert result.success, result.message
    assert notion.measure(EXAMPLE_1) == pytest.approx(math.log(9 / 8), abs=1e-12)
    assert same_up_to_column_order(result.mechanism.matrix, EXAMPLE_1, MATRIX_ATOL)
    assert result.objective == pytest.approx(mutual_information(EXAMPLE_1_PRIOR, EXAMPLE_1), abs=OPTIMUM_ATOL)


@pytest.mark.parametrize("n, k", [(4, 2), (6, 2), (6, 3), (8, 3), (10, 2)])
def test_k_singular_mechanisms_are_optimal_for_uniform_prior(n, k):
    """Grosse et al., Example 2 / [15, Thm. 4]: k-singular is optimal at ε = log(N/k), uniform prior."""
    prior = np.full(n, 1 / n)
    notion = PointwiseMaximalLeakage(prior)
    mechanism = k_singular_mechanism(n, k)
    epsilon = math.log(n / k)
    assert notion.measure(mechanism) == pytest.approx(epsilon, abs=1e-12)
    assert mutual_information(prior, mechanism) == pytest.approx(math.log(n / k), abs=1e-12)
    result = maximize_mutual_information(notion, epsilon, prior)
    assert result.success, result.message
    assert result.objective == pytest.approx(mutual_information(prior, mechanism), abs=OPTIMUM_ATOL)


@pytest.mark.parametrize("p1, radius, epsilon", [
    (0.6, 0.2, 0.3), (0.7, 0.3, 0.4), (0.5, 0.4, 0.5), (0.8, 0.1, 0.1), (0.5, 0.999, 1.0), (0.6, 0.2, 0.69),
])
def test_theorem_5_binary_mechanism_is_feasible_and_optimal(p1, radius, epsilon):
    """Grosse et al., Theorem 5 (as printed): row-stochastic, ε-PML over the ball, MI-optimal."""
    estimate = np.array([p1, 1 - p1])
    mechanism = binary_robust_pml_mechanism(estimate, radius, epsilon)
    assert np.allclose(mechanism.matrix.sum(axis=1), 1.0, atol=1e-15)
    ball = PointwiseMaximalLeakage(ball_extreme_points(estimate, radius))
    assert ball.measure(mechanism) <= epsilon + 1e-12
    result = maximize_mutual_information(ball, epsilon, estimate)
    assert result.success, result.message
    assert result.objective == pytest.approx(mutual_information(estimate, mechanism), abs=OPTIMUM_ATOL)


def test_theorem_5_reduces_to_randomized_response_remark_3():
    mechanism = binary_robust_pml_mechanism([0.5, 0.5], 1.0 - 1e-12, 0.7)
    assert mechanism.allclose(randomized_response(2, 0.7), atol=1e-11)


@pytest.mark.parametrize("prior", [[0.5, 0.5], [0.3, 0.7], [0.9, 0.1]])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_ldp_binary_optimum_is_randomized_response(prior, epsilon):
    """Kairouz et al. 2016: for binary inputs randomized response maximizes every sub-convex utility."""
    result = maximize_mutual_information(DifferentialPrivacy(), epsilon, prior)
    assert result.success
    assert result.objective == pytest.approx(mutual_information(prior, randomized_response(2, epsilon)), abs=OPTIMUM_ATOL)


@pytest.mark.parametrize("prior", [[0.25] * 4, [0.1, 0.2, 0.3, 0.4], [0.5, 0.3, 0.2]])
@pytest.mark.parametrize("epsilon", [0.2, 1.0, 2.5])
def test_ldp_optimum_equals_brute_force_staircase_optimum(prior, epsilon):
    """Kairouz et al. 2016: the optimum is a staircase mechanism; found here by trying every
    basis of {1, e^ε}-pattern columns (built independently with itertools)."""
    n, boost = len(prior), math.exp(epsilon)
    patterns = np.array([p for p in itertools.product([1.0, boost], repeat=n) if len(set(p)) == 2]).T
    utility = mutual_information_utility(prior)
    expected = brute_force_optimum(patterns, utility.columns(patterns))
    result = maximize_mutual_information(DifferentialPrivacy(), epsilon, prior)
    assert result.success and within_budget(result.measured["dp"], epsilon)
    assert result.objective == pytest.approx(expected, abs=OPTIMUM_ATOL)


def test_ldp_zero_budget_gives_zero_information():
    result = maximize_mutual_information(DifferentialPrivacy(), 0.0, [0.2, 0.3, 0.5])
    assert result.success and result.objective == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("n, epsilon", [(3, 0.5), (4, 1.0), (4, 0.1)])
def test_ldp_optimum_beats_random_feasible_mechanisms(n, epsilon):
    """No ε-LDP mechanism (random mixtures of staircase columns) has larger MI than the LP optimum."""
    rng = np.random.default_rng(0)
    prior = rng.dirichlet(np.ones(n))
    optimum = maximize_mutual_information(DifferentialPrivacy(), epsilon, prior).objective
    for _ in range(50):
        matrix = np.exp(rng.uniform(0, epsilon, size=(n, 6)))  # every column within ratio e^ε
        matrix /= matrix.sum(axis=1, keepdims=True)
        assert DifferentialPrivacy().measure(matrix) <= epsilon + 1e-12
        assert mutual_information(prior, matrix) <= optimum + OPTIMUM_ATOL


@pytest.mark.parametrize("prior", [[0.5, 0.5], [0.2, 0.3, 0.5], [0.1, 0.2, 0.3, 0.4]])
def test_maximal_leakage_endpoints_and_random_feasible_mechanisms(prior):
    """ε = 0: no information; ε >= log n: the identity (I = H(X)); between: the LP beats random
    mechanisms scaled into the budget, and the optimum meets Σ_y max_x Q <= e^ε."""
    prior = np.array(prior)
    n, notion = prior.size, MaximalLeakage()
    assert maximize_mutual_information(notion, 0.0, prior).objective == pytest.approx(0.0, abs=1e-12)
    entropy = float(-(prior * np.log(prior)).sum())
    assert maximize_mutual_information(notion, math.log(n), prior).objective == pytest.approx(entropy, abs=OPTIMUM_ATOL)
    rng = np.random.default_rng(1)
    for epsilon in (0.2, 0.5 * math.log(n)):
        result = maximize_mutual_information(notion, epsilon, prior)
        assert result.success and within_budget(result.measured["maximal_leakage"], epsilon)
        for _ in range(30):
            mixed = rng.dirichlet(np.ones(n), size=n)
            for weight in np.linspace(1, 0, 101):  # mix with the uniform mechanism until feasible
                candidate = weight * mixed + (1 - weight) / n
                if notion.measure(candidate) <= epsilon:
                    break
            assert mutual_information(prior, candidate) <= result.objective + OPTIMUM_ATOL


@pytest.mark.parametrize("center, radius, epsilon", [
    ([0.5, 0.3, 0.2], 0.2, 0.4), ([0.25] * 4, 0.3, 0.8), ([0.4, 0.3, 0.2, 0.1], 0.15, 1.5), ([0.6, 0.4], 0.3, 0.2),
])
def test_l1_ball_dual_columns_agree_with_extreme_point_enumeration(center, radius, epsilon):
    """The ℓ1-ball's dual description (Appendix D) and its extreme points (Cor. 1) give one optimum."""
    center = np.array(center)
    boost = math.exp(epsilon)
    utility = mutual_information_utility(center)
    dual = l1_ball_columns(center, radius, boost)
    points = source_set_columns(ball_extreme_points(center, radius).extreme_points, boost)
    optima = [float(utility.columns(c) @ solve_column_lp(c, utility.columns(c), None)[0]) for c in (dual, points)]
    assert optima[0] == pytest.approx(optima[1], abs=OPTIMUM_ATOL)


@pytest.mark.parametrize("priors, epsilon", [
    ([[0.5, 0.3, 0.2], [0.2, 0.5, 0.3]], 0.5),
    ([[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]], 0.9),
])
def test_source_set_columns_lie_in_the_cone_and_solve_to_a_certified_optimum(priors, epsilon):
    notion = PointwiseMaximalLeakage(SourceSet(priors))
    columns, _ = extreme_columns(notion, epsilon, len(priors[0]))
    masses = np.array(priors) @ columns
    assert (columns >= 0).all()
    assert (columns.max(axis=0) <= math.exp(epsilon) * masses.min(axis=0) * (1 + 1e-9)).all()
    result = maximize_mutual_information(notion, epsilon, priors[0])
    assert result.success and within_budget(result.measured[notion.label], epsilon)
    # the robust optimum is at most the optimum for the first prior alone
    single = maximize_mutual_information(PointwiseMaximalLeakage(priors[0]), epsilon, priors[0])
    assert result.objective <= single.objective + OPTIMUM_ATOL


def test_user_supplied_sublinear_utility():
    """μ(v) = max v − min v (sub-linear): the LP value matches the utility of its own mechanism and beats
    randomized response."""
    spread = ColumnUtility(lambda c: c.max(axis=0) - c.min(axis=0), 3, "spread")
    result = maximize_sublinear_utility(DifferentialPrivacy(), 1.0, spread)
    assert result.success
    assert result.objective == pytest.approx(spread.value(result.mechanism.matrix), abs=1e-12)
    assert result.objective >= spread.value(randomized_response(3, 1.0).matrix) - OPTIMUM_ATOL


def test_rejects_bad_utilities_and_notions():
    squared = ColumnUtility(lambda c: (c**2).sum(axis=0), 3, "squared")
    with pytest.raises(MechDesignError, match="not positively homogeneous"):
        maximize_sublinear_utility(DifferentialPrivacy(), 1.0, squared)
    with pytest.raises(MechDesignError, match="one per column"):
        maximize_sublinear_utility(DifferentialPrivacy(), 1.0, ColumnUtility(lambda c: np.zeros(2), 3))
    with pytest.raises(MechDesignError, match="not column-separable"):
        maximize_mutual_information(ApproximateDifferentialPrivacy(0.1), 1.0, [0.5, 0.5])
    with pytest.raises(MechDesignError, match="local DP"):
        maximize_mutual_information(DifferentialPrivacy([(0, 1)], 3), 1.0, [0.2, 0.3, 0.5])
    with pytest.raises(MechDesignError, match="input 2 has probability 0"):
        maximize_mutual_information(PointwiseMaximalLeakage([0.5, 0.5, 0.0]), 0.5, [0.5, 0.5, 0.0])  # < log 2
    with pytest.raises(MechDesignError, match="budget"):
        maximize_mutual_information(DifferentialPrivacy(), -1.0, [0.5, 0.5])


def test_refusal_is_sized_on_estimated_memory(monkeypatch):
    """Refused before enumerating when BYTES_PER_CANDIDATE_ENTRY × candidates × n exceeds available memory."""
    monkeypatch.setattr("mechdesign.memory.available_memory", lambda: 2**30)  # 1 GiB
    # PML (one prior) at N = 16: 589,824 candidates × 16 × 200 B = 1.9 GB > 1 GiB.
    with pytest.raises(ProblemTooLargeError, match=r"n = 16 inputs \(589,824 candidate columns\) needs an estimated"):
        maximize_mutual_information(PointwiseMaximalLeakage(np.full(16, 1 / 16)), 1.0, np.full(16, 1 / 16))
    # Local DP at N = 40 would need 2^40 candidates: refused instantly, nothing enumerated.
    with pytest.raises(ProblemTooLargeError, match="n = 40 inputs"):
        maximize_mutual_information(DifferentialPrivacy(), 1.0, np.full(40, 1 / 40))
    with pytest.raises(ProblemTooLargeError, match="n = 19 inputs"):
        maximize_mutual_information(MaximalLeakage(), 1.0, np.full(19, 1 / 19))
    with pytest.raises(ProblemTooLargeError, match="n = 16 inputs"):
        maximize_mutual_information(PointwiseMaximalLeakage(L1Ball(np.full(16, 1 / 16), 0.05)), 1.0, np.full(16, 1 / 16))


@pytest.mark.parametrize("notion", [DifferentialPrivacy(), MaximalLeakage(), PointwiseMaximalLeakage([0.5, 0.3, 0.2])])
@pytest.mark.parametrize("epsilon", [0.0, 0.4, 1.5])
def test_optimum_is_certified_by_the_column_lp_dual(notion, epsilon):
    """The numpy dual bound (module docstring of mechdesign.designers.extreme_columns) is within GAP_RTOL."""
    result = maximize_mutual_information(notion, epsilon, [0.5, 0.3, 0.2])
    assert result.method == "extreme-columns" and result.status == "optimal", result.message
    assert result.bound >= result.objective - 1e-12
    assert result.gap <= GAP_RTOL * max(1.0, result.objective)


@given(seed=st.integers(0, 2**32 - 1))
def test_column_lp_upper_bound_holds_for_any_prices(seed):
    """Weak duality: the bound with random prices is never below the LP optimum (local DP, N = 4)."""
    columns, _ = extreme_columns(DifferentialPrivacy(), 0.7, 4)
    values = mutual_information_utility(np.full(4, 0.25)).columns(columns)
    weights, _, _ = solve_column_lp(columns, values, None)
    prices = np.random.default_rng(seed).normal(size=4)
    assert column_lp_upper_bound(columns, values, None, prices) >= values @ weights - 1e-12


@pytest.mark.parametrize("center, radius, epsilon", [([0.6, 0.4], 0.2, 0.3), ([0.7, 0.3], 0.3, 0.4)])
def test_theorem_5_with_l1_ball_notion(center, radius, epsilon):
    """Theorem 5 against PML over the L1Ball prior set itself (dual description of the ball)."""
    from mechdesign.priors import L1Ball

    notion = PointwiseMaximalLeakage(L1Ball(center, radius))
    mechanism = binary_robust_pml_mechanism(center, radius, epsilon)
    assert notion.measure(mechanism) <= epsilon + 1e-12
    result = maximize_mutual_information(notion, epsilon, center)
    assert result.success, result.message
    assert result.objective == pytest.approx(mutual_information(center, mechanism), abs=OPTIMUM_ATOL)


@pytest.mark.parametrize("center, radius", [([0.5, 0.3, 0.2], 0.2), ([0.7, 0.2, 0.1], 0.5), ([0.6, 0.3, 0.1], 1.5)])
def test_l1_ball_notion_inside_or_cut_by_the_simplex(center, radius):
    """Balls inside the simplex (dual columns) and cut by it (extreme points): certified optima equal to
    the optimum over the ball's extreme points as a source set."""
    from mechdesign.priors import L1Ball

    ball = L1Ball(center, radius)
    result = maximize_mutual_information(PointwiseMaximalLeakage(ball), 0.6, center)
    reference = maximize_mutual_information(PointwiseMaximalLeakage(ball.to_source_set()), 0.6, center)
    assert result.success and reference.success
    assert result.objective == pytest.approx(reference.objective, abs=OPTIMUM_ATOL)


def test_theorem_5_appendix_c_printed_p11_is_feasible_but_not_optimal():
    """docs/errata.md: Appendix C ends with p11 = e^ε(1 − p − β/2)/(1 + βe^ε); with p21 as printed
    (which matches Theorem 5) that mechanism is feasible but strictly worse than Theorem 5's, whose
    entry is e^ε(1 − p1 + β/2)/(1 + βe^ε) (the sign of β/2 differs)."""
    p1, radius, epsilon = 0.6, 0.2, 0.3
    boost = math.exp(epsilon)
    p11 = boost * (1 - p1 - radius / 2) / (1 + radius * boost)
    p21 = 1 - boost * (p1 + radius / 2) / (1 + radius * boost)
    appendix = np.array([[p11, 1 - p11], [p21, 1 - p21]])
    estimate = np.array([p1, 1 - p1])
    ball = PointwiseMaximalLeakage(ball_extreme_points(estimate, radius))
    assert ball.measure(appendix) < epsilon
    theorem = binary_robust_pml_mechanism(estimate, radius, epsilon)
    assert theorem.matrix[1, 0] == pytest.approx(p21, abs=1e-15)  # the printed p21 agrees
    assert mutual_information(estimate, appendix) < mutual_information(estimate, theorem) - 1e-3


def brute_force_vertices(inequalities):
    """Vertices of ``{v : inequalities @ v <= 0, Σ v = 1}`` by trying every set of n − 1 active rows."""
    m, n = inequalities.shape
    found = []
    for active in itertools.combinations(range(m), n - 1):
        system = np.vstack([inequalities[list(active)], np.ones(n)])
        if abs(np.linalg.det(system)) < 1e-10:
            continue
        vertex = np.linalg.solve(system, np.eye(n)[-1])
        if (inequalities @ vertex <= 1e-10).all():
            found.append(np.clip(vertex, 0.0, None) / vertex.max())  # round-off negatives → 0
    return np.array(found).T


def pml_inequalities(priors, boost):
    """Rows of ``-v <= 0`` and ``v_x − e^ε P_k·v <= 0`` for every input x and prior k."""
    n = priors.shape[1]
    rows = [-np.eye(n)] + [np.eye(n) - boost * np.outer(np.ones(n), prior) for prior in priors]
    return np.vstack(rows)


def contains_every_column(candidates, vertices, atol=1e-8):
    return all(np.abs(candidates - v[:, None]).max(axis=0).min() <= atol for v in vertices.T)


@given(st.integers(2, 4).flatmap(lambda n: st.tuples(
    st.lists(full_support_priors(n), min_size=1, max_size=3), st.floats(0.0, 2.5))))
def test_source_set_candidates_contain_every_vertex_of_the_normalized_column_polytope(case):
    """Every vertex found by brute force (all active sets) is among the enumerated candidates."""
    priors, epsilon = case
    priors = np.array(priors)
    boost = math.exp(epsilon)
    vertices = brute_force_vertices(pml_inequalities(priors, boost))
    assert contains_every_column(source_set_columns(priors, boost), vertices)


@given(full_support_priors(3), st.one_of(st.just(0.0), st.floats(0.01, 1.0)), st.floats(0.0, 2.5))
def test_l1_ball_candidates_contain_every_vertex(center, fraction, epsilon):
    """The dual description's candidates contain every vertex of the ball's column polytope (brute force
    over the ball's extreme points, Cor. 1). Radii in (0, 0.01·2 min P̂) are left out: their extreme
    points nearly coincide and the brute force's near-singular systems lose the 1e-8 agreement."""
    radius = 2 * fraction * center.min()
    boost = math.exp(epsilon)
    vertices = brute_force_vertices(pml_inequalities(ball_extreme_points(center, radius).extreme_points, boost))
    assert contains_every_column(l1_ball_columns(center, radius, boost), vertices)


def test_solver_failure_is_a_result_not_an_exception(monkeypatch):
    from mechdesign.designers import extreme_columns as module

    def failing(*args):
        raise SolverFailedError("HiGHS returned Time limit reached")

    monkeypatch.setattr(module, "solve_column_lp", failing)
    result = maximize_mutual_information(DifferentialPrivacy(), 1.0, [0.5, 0.5])
    assert not result.success and result.status == "solver_error" and result.mechanism is None
    assert "Time limit" in result.message


@pytest.mark.parametrize("notion_factory, budget_row", [
    (lambda p: PointwiseMaximalLeakage(p), False), (lambda p: DifferentialPrivacy(), False), (lambda p: MaximalLeakage(), True),
])
def test_column_lp_agrees_with_clarabel(notion_factory, budget_row):
    """Solver independence: HiGHS (primal simplex) and Clarabel (interior point) reach one optimum."""
    import cvxpy as cp

    prior = np.array([0.3, 0.25, 0.2, 0.15, 0.1])
    columns, row = extreme_columns(notion_factory(prior), 0.8, prior.size)
    assert row == budget_row
    values = mutual_information_utility(prior).columns(columns)
    total = math.exp(0.8) if row else None
    weights, _, _ = solve_column_lp(columns, values, total)
    w = cp.Variable(columns.shape[1], nonneg=True)
    constraints = [columns @ w == 1] + ([cp.sum(w) <= total] if row else [])
    problem = cp.Problem(cp.Maximize(values @ w), constraints)
    problem.solve(solver=cp.CLARABEL)
    assert float(values @ weights) == pytest.approx(problem.value, abs=1e-7)


@pytest.mark.parametrize("priors", [[[0.4, 0.3, 0.2, 0.1]], [[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]], [[0.6, 0.4, 0.0]]])
@pytest.mark.parametrize("epsilon", [0.3, 1.2])
def test_maximal_information_optimum(priors, epsilon):
    """Maximal information (Zhong & Bu, Def. 3(3)): same optimum as PML for full-support priors; with a
    zero-probability input (where PML leaves that row free) the optimum equals the LP over the vertices
    found by brute force, and the mechanism is certified."""
    from mechdesign.privacy.max_information import MaximalInformation

    priors = np.array(priors)
    notion = MaximalInformation(SourceSet(priors))
    reference = priors[0]
    result = maximize_mutual_information(notion, epsilon, reference)
    assert result.success and within_budget(result.measured[notion.label], epsilon)
    if priors.min() > 0:
        pml = maximize_mutual_information(PointwiseMaximalLeakage(SourceSet(priors)), epsilon, reference)
        assert result.objective == pytest.approx(pml.objective, abs=OPTIMUM_ATOL)
    vertices = brute_force_vertices(pml_inequalities(priors, math.exp(epsilon)))
    values = mutual_information_utility(reference).columns(vertices)
    weights, _, _ = solve_column_lp(vertices, values, None)
    assert result.objective == pytest.approx(float(values @ weights), abs=OPTIMUM_ATOL)


def test_source_set_enumeration_reports_progress_up_to_the_number_of_active_sets():
    # 4 inputs, 3 priors: Σ_f C(4, f) C(3, f) = 1 + 12 + 18 + 4 = 35 choices of (free, binding) sets.
    priors = [[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]]
    reports = []
    result = maximize_mutual_information(PointwiseMaximalLeakage(SourceSet(priors)), 0.9, priors[0],
                                         progress=lambda done, total, text: reports.append((done, total, text)))
    assert result.success
    done = [d for d, _, _ in reports]
    assert done == sorted(done) and done[-1] == 35
    assert {total for _, total, _ in reports} == {35}


@pytest.mark.parametrize("notion", [DifferentialPrivacy(), MaximalLeakage(), PointwiseMaximalLeakage([0.5, 0.3, 0.2])],
                         ids=["dp", "maximal-leakage", "pml"])
@pytest.mark.parametrize("budget", [math.inf, 10**400], ids=["inf", "10**400"])
def test_an_infinite_budget_gives_the_identity(notion, budget):
    """L1: ``maximize_mutual_information`` refused an infinite budget; without a constraint the identity
    is optimal (I = H(X), the most any channel reaches), certified by the column LP's dual."""
    prior = [0.5, 0.3, 0.2]
    result = maximize_mutual_information(notion, budget, prior)
    assert result.status == "optimal" and result.budgets == {notion.label: math.inf}
    assert np.array_equal(result.mechanism.matrix, np.eye(3))
    entropy = -sum(p * math.log(p) for p in prior)
    assert result.objective == pytest.approx(entropy, abs=1e-12) and result.bound == pytest.approx(entropy, abs=1e-12)


def test_a_finite_budget_the_identity_meets_gives_the_identity():
    """L1: maximal leakage never exceeds log n, so at 800 nats (e^800 overflows a float) nothing binds."""
    result = maximize_mutual_information(MaximalLeakage(), 800.0, [0.5, 0.5])
    assert result.status == "optimal" and np.array_equal(result.mechanism.matrix, np.eye(2))


def test_a_notion_class_is_named():
    """L5: a class instead of an instance is told to be called."""
    with pytest.raises(MechDesignError, match="got the class itself: call it"):
        maximize_mutual_information(DifferentialPrivacy, 1.0, [0.5, 0.5])
