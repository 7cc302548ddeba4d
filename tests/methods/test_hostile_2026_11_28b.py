"""Hostile pass on the 2026-11-28 methods (second pass): Rényi DP by lazy pair generation
(mechdesign/methods/renyi_pairs.py, ``method="auto"`` from ``MIN_INPUTS`` inputs), metric DP by column generation
over the cone (mechdesign/methods/metric.py, ``"metric-cone"``) and curve points through
``DesignProblem.solve_point`` (mechdesign/curves.py).

Every reference is written here from the definitions, independently of the library: the whole Rényi problem in cvxpy
(every ordered pair and output, Clarabel), the whole metric-DP problem in cvxpy (Clarabel: scipy's HiGHS returned a
wrong "optimal" on near-duplicate points, benchmarks/notes/2026-11-28-hostile-2026-11-28b.md), the full local-DP /
PML / maximal-leakage LPs in ``scipy.optimize.linprog``, each notion's measure in numpy, and feasible mechanisms (the
unconstrained optimum mixed with the uniform row) whose value every certified bound must stay below.

Perturbation checks (run by hand, the note records them): with the Rényi reference solved at 1.001 ε, the metric
reference at 1.001 ε (9 of 12 cases), or the curve's reference LP at 1.01 ε, the value checks below fail; with any
numpy measure multiplied by 1.001, the privacy checks fail.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
from scipy import sparse
from scipy.optimize import linprog

from mechdesign import (DifferentialPrivacy, ExpectedDistortion, MaximalLeakage, PointwiseMaximalLeakage, Prior,
                        RenyiDifferentialPrivacy, design)
from mechdesign.curves import trace_curve
from mechdesign.methods import metric
from mechdesign.methods.renyi_pairs import MIN_INPUTS
from mechdesign.privacy.metric import MetricDifferentialPrivacy
from mechdesign.result import gap_tolerance
from mechdesign.solve import PAIRS_FALLBACK_INPUTS



def privacy_slack(budget: float) -> float:
    """The excess of a numpy-measured value over its budget these checks accept: 1e-6 nats up to budget 1 and 1e-6
    of the budget above (never looser than the library's own acceptance, absolute or relative to the budget)."""
    return 1e-6 * max(1.0, budget)


CLARABEL_TIGHT = dict(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10, max_iter=500)


# ---------------------------------------------------------------------------------------------- Rényi DP, every pair

def renyi_measure(matrix: np.ndarray, alpha: float) -> float:
    """The largest Rényi divergence of order ``alpha`` between two rows (every ordered pair), in numpy."""
    p, q = matrix[:, None, :], matrix[None, :, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p ** alpha * q ** (1.0 - alpha), 0.0)
    sums = terms.sum(axis=2)
    np.fill_diagonal(sums, 1.0)
    return float(np.log(sums.max()) / (alpha - 1.0))


def renyi_optimum(weights: np.ndarray, alpha: float, epsilon: float) -> float | None:
    """``min Σ W∘Q`` with ``Σ_y Q[x,y]^α Q[x',y]^{1−α} <= e^{(α−1)ε}`` for every ordered pair, in cvxpy (Clarabel at
    1e-10, else at 1e-8, in units of the largest weight); ``None`` where neither is solved to its tolerance."""
    n, m = weights.shape
    Q = cp.Variable((n, m), nonneg=True)
    limit = math.exp((alpha - 1.0) * epsilon)
    constraints = [cp.sum(Q, axis=1) == 1]
    for x in range(n):
        for other in range(n):
            if x == other:
                continue
            if alpha == 2.0:
                constraints.append(sum(cp.quad_over_lin(Q[x, y], Q[other, y]) for y in range(m)) <= limit)
            else:  # t_y >= Q[x,y]^α Q[x',y]^{1−α}  <=>  t_y^{1/α} Q[x',y]^{1−1/α} >= Q[x,y]
                t = cp.Variable(m)
                constraints += [cp.PowCone3D(t, Q[other, :], Q[x, :], 1.0 / alpha), cp.sum(t) <= limit]
    unit = float(weights.max())
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(weights / unit, Q))), constraints)
    for tolerance in (1e-10, 1e-8):
        try:
            problem.solve(solver="CLARABEL", tol_gap_abs=tolerance, tol_gap_rel=tolerance, tol_feas=tolerance,
                          max_iter=500)
        except cp.error.SolverError:
            continue
        if problem.status == "optimal":
            return float(problem.value) * unit
    return None


def mixed_feasible_value(weights: np.ndarray, cost: np.ndarray, measure, epsilon: float) -> float:
    """The value of the unconstrained optimum mixed with the uniform row, least mixture within ``epsilon`` by
    ``measure`` (bisection): a feasible mechanism no certified bound may exceed."""
    n, m = weights.shape
    best = np.zeros((n, m))
    best[np.arange(n), cost.argmin(axis=1)] = 1.0
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = 0.5 * (low + high)
        low, high = (low, middle) if measure((1 - middle) * best + middle / m) <= epsilon else (middle, high)
    return float(np.sum(weights * ((1 - high) * best + high / m)))


def random_objective(n: int, seed: int) -> ExpectedDistortion:
    rng = np.random.default_rng(seed)
    return ExpectedDistortion(Prior(rng.dirichlet(np.ones(n))), rng.random((n, n)))


def check_renyi(result, objective: ExpectedDistortion, alpha: float, epsilon: float, reference: float | None):
    """The checks every Rényi design passes: private by the numpy measure, its bound below a feasible mechanism's
    value and below the reference optimum, an optimal value within the gap tolerance of it."""
    weights = objective.prior.probabilities[:, None] * objective.cost
    if result.mechanism is not None:
        assert renyi_measure(np.asarray(result.mechanism.matrix), alpha) <= epsilon + privacy_slack(epsilon)
    if result.bound is not None and math.isfinite(epsilon):
        feasible = mixed_feasible_value(weights, objective.cost, lambda q: renyi_measure(q, alpha), epsilon)
        assert result.bound <= feasible + 1e-12 * max(1.0, feasible)
    if reference is not None:
        assert result.bound is None or result.bound <= reference + 1e-9 * max(1.0, abs(reference))
        if result.status == "optimal":
            assert abs(result.objective - reference) <= gap_tolerance(reference)


def test_pair_generation_at_its_threshold_agrees_with_the_whole_problem():
    """``design`` at ``MIN_INPUTS`` inputs runs pair generation; its optimum is the whole problem's (cvxpy, every
    ordered pair), its bound below it and below a feasible mixture, its mechanism private by the numpy measure."""
    objective = random_objective(MIN_INPUTS, 0)
    result = design(RenyiDifferentialPrivacy(2.0), 1.0, objective)
    assert result.method == "pair-generation" and result.status == "optimal"
    reference = renyi_optimum(objective.prior.probabilities[:, None] * objective.cost, 2.0, 1.0)
    assert reference is not None
    check_renyi(result, objective, 2.0, 1.0, reference)


@pytest.mark.parametrize("alpha", [1.01, 2.0, 8.0])
def test_pair_generation_at_budget_zero_is_the_best_constant_mechanism(alpha):
    """ε = 0 makes every row the same: the optimum is the best constant mechanism, ``min_y Σ_x W[x, y]``."""
    objective = random_objective(MIN_INPUTS, 0)
    result = design(RenyiDifferentialPrivacy(alpha), 0.0, objective)  # auto: pair generation, then cvxpy (n <= 20)
    assert result.status == "optimal"
    constant = float((objective.prior.probabilities @ objective.cost).min())
    check_renyi(result, objective, alpha, 0.0, constant)


@pytest.mark.slow
@pytest.mark.parametrize("n, seed, alpha, epsilon", [
    (MIN_INPUTS, 1, 1.01, 1.0), (MIN_INPUTS, 1, 3.0, 1.0), (MIN_INPUTS, 0, 2.0, 1e-3), (MIN_INPUTS, 0, 2.0, 1e-6),
    (MIN_INPUTS + 1, 4, 2.0, 0.5), (MIN_INPUTS, 3, 2.0, 1.0)])
def test_pair_generation_sweep_is_never_wrong(n, seed, alpha, epsilon):
    """Edge budgets and orders: whatever the status, nothing wrong (checks of :func:`check_renyi`; against the
    reference optimum only where cvxpy solves it, else against the feasible mixture alone)."""
    objective = random_objective(n, seed)
    result = design(RenyiDifferentialPrivacy(alpha), epsilon, objective, method="pair-generation")
    check_renyi(result, objective, alpha, epsilon,
                renyi_optimum(objective.prior.probabilities[:, None] * objective.cost, alpha, epsilon))


@pytest.mark.parametrize("prior", ["point", "near-point"])
def test_pair_generation_on_a_point_mass_prior_is_never_wrong(prior):
    """A point-mass prior (and 1 − 1e-12 on one input): only that row's cost counts; the design is private and its
    bound, if any, below a feasible mixture's value."""
    n = MIN_INPUTS
    probabilities = np.full(n, 0.0 if prior == "point" else 1e-12 / (n - 1))
    probabilities[0] = 1.0 - probabilities[1:].sum()
    objective = ExpectedDistortion(Prior(probabilities), np.random.default_rng(2).random((n, n)))
    result = design(RenyiDifferentialPrivacy(2.0), 1.0, objective, method="pair-generation")
    assert result.success
    check_renyi(result, objective, 2.0, 1.0, None)


def test_pair_generation_at_an_infinite_budget_is_the_unconstrained_optimum():
    objective = random_objective(MIN_INPUTS, 0)
    result = design(RenyiDifferentialPrivacy(2.0), math.inf, objective)
    least = float(objective.prior.probabilities @ objective.cost.min(axis=1))
    assert result.status == "optimal" and abs(result.objective - least) <= 1e-15 and result.bound == result.objective


def relation_optimum(weights: np.ndarray, epsilon: float, pairs: list[tuple[int, int]]) -> float:
    """The Rényi problem of order 2 on the pairs of a relation (both directions), in cvxpy at 1e-10."""
    n, m = weights.shape
    Q = cp.Variable((n, m), nonneg=True)
    limit = math.exp(epsilon)
    constraints = [cp.sum(Q, axis=1) == 1]
    constraints += [sum(cp.quad_over_lin(Q[x, y], Q[other, y]) for y in range(m)) <= limit
                    for a, b in pairs for x, other in ((a, b), (b, a))]
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(weights, Q))), constraints)
    problem.solve(**CLARABEL_TIGHT)
    assert problem.status == "optimal"
    return float(problem.value)


def relation_measure(matrix: np.ndarray, pairs: list[tuple[int, int]]) -> float:
    """The largest Rényi divergence of order 2 over a relation's pairs (both directions), in numpy."""
    first, second = np.array(pairs).T
    rows, others = np.concatenate([first, second]), np.concatenate([second, first])
    with np.errstate(divide="ignore", invalid="ignore"):
        sums = np.where(matrix[rows] > 0, matrix[rows] ** 2 / matrix[others], 0.0).sum(axis=1)
    return float(np.log(sums.max()))


RELATIONS = {"cycle": [(i, (i + 1) % MIN_INPUTS) for i in range(MIN_INPUTS)],
             "star": [(0, i) for i in range(1, MIN_INPUTS)],
             "two cliques": [(i, j) for part in (range(6), range(6, MIN_INPUTS)) for i in part for j in part if i < j],
             "one pair": [(0, 1)]}


@pytest.mark.parametrize("relation", ["cycle", "star", "one pair",
                                      pytest.param("two cliques", marks=pytest.mark.slow)])
def test_pair_generation_on_relations_that_are_not_every_pair(relation):
    """Neighbour relations other than every pair (not a path, so auto runs pair generation): a cycle, a star, two
    disconnected cliques, a single pair (10 inputs unconstrained). Against the relation's own problem in cvxpy: the
    bound below it, an optimal value within the gap tolerance, private on the relation's pairs by the numpy measure
    (cycle and star are certified; the other two end 'suboptimal', bound −inf or 6 % short, at HEAD 6f04532). With
    the reference at 1.001 ε the cycle and the star fail; with the measure × 1.001, the cycle and the single pair."""
    pairs = RELATIONS[relation]
    rng = np.random.default_rng(1)
    prior, cost = rng.dirichlet(np.ones(MIN_INPUTS)), rng.random((MIN_INPUTS, MIN_INPUTS))
    result = design(RenyiDifferentialPrivacy(2.0, pairs, MIN_INPUTS), 1.0, ExpectedDistortion(Prior(prior), cost),
                    method="pair-generation")
    assert result.success
    reference = relation_optimum(prior[:, None] * cost, 1.0, pairs)
    assert relation_measure(np.asarray(result.mechanism.matrix), pairs) <= 1.0 + privacy_slack(1.0)
    assert result.bound <= reference + 1e-9 * max(1.0, reference)
    if result.status == "optimal":
        assert abs(result.objective - reference) <= gap_tolerance(reference)
    if relation in ("cycle", "star"):
        assert result.status == "optimal"


@pytest.mark.parametrize("epsilon", [20.0, 30.0])
def test_pair_generation_at_large_budgets_certifies_like_cvxpy(epsilon):
    """Defect H-1: pair generation solved e^{(α−1)ε} = e^30 as it is and Clarabel failed on the first working set
    ('solver_error'); b5c47f0's cvxpy retry covered 20 inputs, not 21. Under "auto" the unconstrained optimum (mixed
    with the constant mechanism) is now tried first, as the compiled problem does: certified at 20 and 21 inputs."""
    at_fallback = design(RenyiDifferentialPrivacy(2.0), epsilon, ExpectedDistortion(Prior.uniform(PAIRS_FALLBACK_INPUTS)))
    assert at_fallback.status == "optimal"
    result = design(RenyiDifferentialPrivacy(2.0), epsilon, ExpectedDistortion(Prior.uniform(PAIRS_FALLBACK_INPUTS + 1)))
    assert result.status == "optimal", result.message


# ---------------------------------------------------------------------------------------------- metric DP

def metric_measure(matrix: np.ndarray, distances: np.ndarray) -> float:
    """The least ε with ``Q[x, y] <= e^{ε d(x, x')} Q[x', y]`` for every pair and output, in numpy."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(matrix)
        ratios = np.where(matrix[:, None, :] > 0, logs[:, None, :] - logs[None, :, :], -np.inf).max(axis=2)
    np.fill_diagonal(ratios, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_unit = np.where(ratios > 0, ratios / distances, 0.0)
    return float(per_unit.max())


def metric_optimum(weights: np.ndarray, distances: np.ndarray, epsilon: float) -> float:
    """The whole metric-DP problem in cvxpy (every ordered pair and output a row), by Clarabel, in units of the
    largest weight (its tolerances are absolute)."""
    n, m = weights.shape
    unit = float(weights.max())
    Q = cp.Variable((n, m), nonneg=True)
    constraints = [cp.sum(Q, axis=1) == 1]
    constraints += [Q[x] <= math.exp(epsilon * distances[x, o]) * Q[o] for x in range(n) for o in range(n) if x != o]
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(weights / unit, Q))), constraints)
    problem.solve(**CLARABEL_TIGHT)
    assert problem.status == "optimal"
    return float(problem.value) * unit


LINE = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
NEAR = [0.0, 1e-9, 1.0, 2.0, 2.0 + 1e-9, 3.0]
GRID = [[i, j] for i in range(3) for j in range(3)]


@pytest.mark.parametrize("points, epsilon", [(LINE, 0.5), (LINE, 0.05), (NEAR, 1.0), (NEAR, 0.5), (GRID, 1.0),
                                             (GRID, 0.2)])
@pytest.mark.parametrize("cost", ["distance", "random"])
def test_metric_cone_agrees_with_the_whole_problem(points, epsilon, cost):
    """``design`` (auto: metric-cone) against the whole LP in cvxpy: private by the numpy measure, the bound below
    the optimum, an optimal value within the gap tolerance of it; and the same at cost × 1e-12 and × 1e12. (With the
    reference at 1.001 ε, 9 of the 12 cases fail; the random costs on the near points and on the line at ε = 0.05
    barely depend on ε there and stay for the measure and bound checks.)"""
    notion = MetricDifferentialPrivacy.from_points(points)
    n = notion.n_inputs
    rng = np.random.default_rng(n)
    prior = rng.dirichlet(np.ones(n))
    # random: zero on the diagonal (each input has its own best output) and a uniform prior, so that the budget binds
    costs = notion.distances if cost == "distance" else rng.random((n, n)) * (1.0 - np.eye(n))
    prior = prior if cost == "distance" else np.full(n, 1.0 / n)
    reference = metric_optimum(prior[:, None] * costs, notion.distances, epsilon)
    values = []
    for scale in (1.0, 1e-12, 1e12):
        result = design(notion, epsilon, ExpectedDistortion(Prior(prior), costs * scale))
        assert result.method == "metric-cone" and result.success
        assert metric_measure(np.asarray(result.mechanism.matrix), notion.distances) <= epsilon + privacy_slack(epsilon)
        assert result.bound / scale <= reference + 1e-9 * max(1.0, reference)
        if result.status == "optimal":
            assert abs(result.objective / scale - reference) <= gap_tolerance(reference)
        values.append((result.status, result.objective / scale))
    assert len({status for status, _ in values}) == 1, values


@pytest.mark.parametrize("epsilon", [0.0, 30.0, 1e4, math.inf])
def test_metric_cone_at_edge_budgets(epsilon):
    """ε = 0: the best constant mechanism; large ε (capped at LOG_SCALE_CAP inside) and ∞: within the gap tolerance
    of the unconstrained optimum, private by the numpy measure."""
    notion = MetricDifferentialPrivacy.from_points(GRID)
    prior = np.random.default_rng(1).dirichlet(np.ones(9))
    objective = ExpectedDistortion(Prior(prior), notion.distances)
    result = design(notion, epsilon, objective)
    assert result.status == "optimal" and result.method == "metric-cone"
    assert metric_measure(np.asarray(result.mechanism.matrix), notion.distances) <= epsilon + privacy_slack(epsilon)
    expected = float((prior @ notion.distances).min()) if epsilon == 0.0 else 0.0
    assert abs(result.objective - expected) <= gap_tolerance(expected) and result.bound <= expected + 1e-15


def test_metric_cone_survives_the_masters_row_sum_round_off(monkeypatch):
    """The row-sum residual observed in the sweep, 1.41e-9 on row 0 (seen twice in 300 random designs with points
    1.41e-9 apart, m = 2: InvalidMechanismError from the re-measurement, defect H-2), given to the certification tail
    (simulated: the master's mechanism with row 0 scaled by it): a Result, private."""
    rebuilt = metric._Master.mechanism

    def with_residual(self, weights, m):
        matrix = rebuilt(self, weights, m)
        matrix[0] *= 1.0 + 1.41e-9
        return matrix

    monkeypatch.setattr(metric._Master, "mechanism", with_residual)
    notion = MetricDifferentialPrivacy.from_points([0.0, 1e-9, 1.0, 2.0])
    result = design(notion, 1.0, ExpectedDistortion(Prior.uniform(4), np.random.default_rng(0).random((4, 2))))
    assert result.success and result.method == "metric-cone"
    assert metric_measure(np.asarray(result.mechanism.matrix), notion.distances) <= 1.0 + privacy_slack(1.0)


@pytest.mark.xfail(strict=True, reason="defect H-3 (benchmarks/notes/2026-11-28-hostile-2026-11-28b.md): on points 1e-12 apart the "
                   "metric-cone master's point exceeds the budget (1.0000889 > 1), is mixed with 9e-5 of the constant "
                   "mechanism and ends 'suboptimal' 1.3e-4 above the optimum that method='cvxpy' certifies")
def test_metric_cone_certifies_on_near_duplicate_points():
    notion = MetricDifferentialPrivacy.from_points([0.0, 1e-12, 1.0, 2.0, 2.0 + 1e-12, 3.0])
    objective = ExpectedDistortion(Prior.uniform(6), notion.distances)
    through_cvxpy = design(notion, 1.0, objective, method="cvxpy")
    assert through_cvxpy.status == "optimal"
    result = design(notion, 1.0, objective)
    assert result.method == "metric-cone"
    assert result.status == "optimal" and abs(result.objective - through_cvxpy.objective) <= gap_tolerance(
        through_cvxpy.objective)


# ---------------------------------------------------------------------------------------------- curve points

def full_lp(weights: np.ndarray, kind: str, epsilon: float, prior: np.ndarray) -> float:
    """The whole LP from the definition (scipy HiGHS, in units of the largest weight): local DP
    ``Q[x,y] <= e^ε Q[x',y]``; PML ``Q[x,y] <= e^ε Σ_x' P_x' Q[x',y]`` on the support; maximal leakage
    ``Σ_y max_x Q[x,y] <= e^ε`` (``t_y >= Q[x,y]``)."""
    n, m = weights.shape
    unit = float(weights.max())
    scale = math.exp(epsilon)
    entries = n * m
    sums = sparse.kron(sparse.eye(n), np.ones((1, m)))
    costs = (weights / unit).ravel()
    if kind == "dp":
        rows = [(x * m + y, o * m + y) for x in range(n) for o in range(n) if x != o for y in range(m)]
        upper = sparse.csr_matrix((np.tile([1.0, -scale], len(rows)), (np.repeat(np.arange(len(rows)), 2),
                                                                          np.ravel(rows))), shape=(len(rows), entries))
    elif kind == "pml":
        blocks = []
        for x in np.flatnonzero(prior > 0):
            block = -scale * np.kron(prior[None, :], np.eye(m))
            block[:, x * m: (x + 1) * m] += np.eye(m)
            blocks.append(block)
        upper = sparse.csr_matrix(np.vstack(blocks))
    else:
        costs = np.concatenate([costs, np.zeros(m)])
        sums = sparse.hstack([sums, sparse.csr_matrix((n, m))])
        upper = sparse.vstack([sparse.hstack([sparse.eye(entries), -sparse.kron(np.ones((n, 1)), sparse.eye(m))]),
                               sparse.hstack([sparse.csr_matrix((1, entries)), np.ones((1, m))])])
    right = np.zeros(upper.shape[0])
    if kind == "maxl":
        right[-1] = scale
    solution = linprog(costs, A_ub=upper, b_ub=right, A_eq=sums, b_eq=np.ones(n), bounds=(0, None), method="highs")
    assert solution.status == 0
    return float(solution.fun) * unit


def measure_of(kind: str, matrix: np.ndarray, prior: np.ndarray) -> float:
    """Local DP, PML and maximal leakage measured in numpy."""
    with np.errstate(divide="ignore"):
        if kind == "dp":
            used = matrix.max(axis=0) > 0
            return float(np.max(np.log(matrix[:, used].max(axis=0)) - np.log(matrix[:, used].min(axis=0))))
        if kind == "pml":
            outputs = prior @ matrix
            used = outputs > 0
            return float(np.log((matrix[prior > 0][:, used] / outputs[used]).max()))
        return float(np.log(matrix.max(axis=0).sum()))


CURVE_BUDGETS = [1.0, 1e-6, 30.0, 0.0, 1e-3, 0.5, 1e4, math.inf, 5.0, 2.0, 20.0, 0.05]


@pytest.mark.parametrize("kind", ["dp", "pml", "maxl"])
@pytest.mark.parametrize("cost", ["random", "ties"])
def test_curve_points_in_any_order_agree_with_lone_designs_and_the_full_lp(kind, cost):
    """A curve over unsorted edge budgets (0, 1e-6, …, 1e4, ∞, up and down: warm starts across jumps) gives at every
    point the lone design's status and value, a mechanism private by the numpy measure, and, for ε <= 5, the full LP's
    optimum within the gap tolerance with the bound below it."""
    n = 5
    rng = np.random.default_rng(11 + len(cost))
    prior = rng.dirichlet(np.ones(n))
    costs = rng.random((n, n)) if cost == "random" else np.round(2 * rng.random((n, n)))
    objective = ExpectedDistortion(Prior(prior), costs)
    notion = {"dp": DifferentialPrivacy(), "pml": PointwiseMaximalLeakage(Prior(prior)), "maxl": MaximalLeakage()}[kind]
    curve = trace_curve(notion, objective, CURVE_BUDGETS)
    for epsilon, result in zip(CURVE_BUDGETS, curve.results):
        alone = design(notion, epsilon, objective)
        assert result.status == alone.status == "optimal", (epsilon, result.message)
        assert abs(result.objective - alone.objective) <= gap_tolerance(alone.objective)
        assert measure_of(kind, np.asarray(result.mechanism.matrix), prior) <= epsilon + privacy_slack(epsilon)
        if epsilon <= 5.0:
            reference = full_lp(prior[:, None] * costs, kind, epsilon, prior)
            assert abs(result.objective - reference) <= gap_tolerance(reference), epsilon
            assert result.bound <= reference + 1e-9 * max(1.0, reference)
