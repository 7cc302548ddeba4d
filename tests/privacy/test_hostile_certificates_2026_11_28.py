"""Hostile checks of two certificates added on 2026-11-28 (benchmarks/notes/2026-11-28-hostile-certificates.md).

Rényi DP with neighbours on a path (:meth:`~mechdesign.privacy.renyi.RenyiDifferentialPrivacy.path_dual_bound`)
and metric DP through cvxpy (per-pair cap, balanced rows, the uncapped pairs' certificate). Every check is made
against computations written here: the Rényi divergence and the metric-DP ratio re-measured in numpy, feasible
mechanisms from an independent Clarabel (power-cone) or scipy ``linprog`` solve re-measured before use, and the
certified lower bound ``objective − gap`` compared with their objectives.
"""

import math

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

from mechdesign import ExpectedDistortion, MetricDifferentialPrivacy, Prior, RenyiDifferentialPrivacy, design
from mechdesign.result import within_budget


def _matrix(result) -> np.ndarray:
    mechanism = result.mechanism
    return np.asarray(getattr(mechanism, "matrix", mechanism), dtype=float)


def _renyi_on_pairs(matrix: np.ndarray, alpha: float, pairs) -> float:
    """The largest ``D_α(row x ‖ row x')`` over the pairs in both orders, in log-sum-exp (numpy, written here)."""
    worst = 0.0
    with np.errstate(divide="ignore"):
        logs = np.log(np.clip(matrix, 0.0, None))
    for a, b in pairs:
        for x, z in ((a, b), (b, a)):
            used = matrix[x] > 0
            if np.any(matrix[z][used] <= 0):
                return math.inf
            terms = alpha * logs[x][used] + (1 - alpha) * logs[z][used]
            peak = terms.max()
            worst = max(worst, (peak + math.log(np.exp(terms - peak).sum())) / (alpha - 1))
    return worst


def _renyi_feasible_value(weights: np.ndarray, alpha: float, epsilon: float, pairs) -> float | None:
    """An independent feasible objective: Clarabel on ``Σ_y q_y (p_y / q_y)^α <= e^{(α−1)ε}`` written with 3-D
    power cones, then mixed with the uniform mechanism until the numpy measure is within ε
    (:func:`_feasible_mix`)."""
    n, m = weights.shape
    Q = cp.Variable((n, m), nonneg=True)
    constraints = [cp.sum(Q, axis=1) == 1]
    limit = math.exp((alpha - 1) * epsilon)
    for a, b in pairs:
        for x, z in ((a, b), (b, a)):
            t = cp.Variable(m, nonneg=True)  # t >= p^α q^{1−α}  <=>  p <= t^{1/α} q^{1−1/α}
            constraints += [cp.PowCone3D(t, Q[z], Q[x], 1 / alpha), cp.sum(t) <= limit]
    unit = float(np.abs(weights).max()) or 1.0  # solved in units of the largest weight: cost × 1e±12 alike
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(weights / unit, Q))), constraints)
    try:
        problem.solve(solver="CLARABEL")
    except cp.SolverError:
        return None
    if Q.value is None:
        return None
    return _feasible_mix(weights, Q.value, lambda mixed: _renyi_on_pairs(mixed, alpha, pairs) <= epsilon)


def _metric_ratio(matrix: np.ndarray, distances: np.ndarray) -> float:
    """The least ε with ``Q[x, y] <= e^{ε d(x, x')} Q[x', y]`` for every pair and output, in numpy (written here)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(np.clip(matrix, 0.0, None))
        spread = logs[:, None, :] - logs[None, :, :]  # log Q[x, y] − log Q[x', y]
        spread = np.where(np.isneginf(logs)[:, None, :], -np.inf, spread)  # Q[x, y] = 0 needs nothing
    worst = np.max(spread, axis=2)
    off = ~np.eye(len(matrix), dtype=bool)
    if np.any(np.isposinf(worst[off])):
        return math.inf
    return float(np.max(np.where(off, worst / np.where(off, distances, 1.0), -np.inf)))


def _metric_lp(weights: np.ndarray, distances: np.ndarray, epsilon: float, cap: float | None,
               limit: tuple[np.ndarray, float] | None = None) -> float | None:
    """The full metric-DP LP by scipy's ``linprog`` (HiGHS), every ordered pair and output a row
    ``Q[x, y] − s Q[x', y] <= 0`` with ``s = min(e^{ε d}, cap)`` (``cap`` None: rows with ``e^{ε d} > 1e9``
    dropped, a relaxation whose value is below the optimum; ``cap`` a number: a restriction whose point, once
    re-measured in numpy, is a feasible mechanism; ``None`` if it is not or the LP is not solved). ``limit``:
    ``(limit weights, L)``, the row ``Σ limit weights · Q <= L``. Solved in units of the largest weight."""
    n, m = weights.shape
    rows, cols, vals, count = [], [], [], 0
    for x in range(n):
        for z in range(n):
            if x == z:
                continue
            scale = math.exp(min(epsilon * distances[x, z], 700.0))
            if cap is None and scale > 1e9:
                continue
            scale = scale if cap is None else min(scale, cap)
            a, b = (1.0, scale) if scale <= 1e3 else (1 / math.sqrt(scale), math.sqrt(scale))  # balanced as the library's
            for y in range(m):
                rows += [count, count]
                cols += [x * m + y, z * m + y]
                vals += [a, -b]
                count += 1
    if limit is not None:
        rows += [count] * (n * m)
        cols += list(range(n * m))
        vals += list(limit[0].ravel())
        count += 1
    upper = coo_matrix((vals, (rows, cols)), shape=(count, n * m)) if count else None
    bound = np.zeros(count)
    if limit is not None:
        bound[-1] = limit[1]
    equal = np.kron(np.eye(n), np.ones(m))
    unit = float(np.abs(weights).max()) or 1.0
    solved = linprog((weights / unit).ravel(), A_ub=upper, b_ub=bound if count else None, A_eq=equal,
                     b_eq=np.ones(n), bounds=(0, None), method="highs",
                     options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    if solved.status != 0:
        return None
    if cap is None:
        return float(solved.fun) * unit
    within = (lambda mixed: True) if limit is None else (lambda mixed: float((limit[0] * mixed).sum()) <= limit[1])
    return _feasible_mix(weights, solved.x.reshape(n, m),
                         lambda mixed: _metric_ratio(mixed, distances) <= epsilon and within(mixed))


def _feasible_mix(weights: np.ndarray, point: np.ndarray, private) -> float | None:
    """The objective of the least mix of ``point`` (clipped, rows normalized) with the uniform mechanism that
    ``private`` accepts, of 14 tried (``None`` if none is)."""
    start = np.clip(point, 0.0, None)
    start /= start.sum(axis=1, keepdims=True)
    for mix in [0.0] + [10.0**k for k in range(-12, 1)]:
        mixed = (1 - mix) * start + mix / start.shape[1]
        if private(mixed):
            return float((weights * mixed).sum())
    return None


def _renyi_case(seed: int, n: int, alpha: float, epsilon: float, kind: str, scale: float, shuffled: bool):
    """Prior (Dirichlet(1) or Zipf 1.2, by the seed), weights ``prior × cost × scale``, the path's pairs and the
    notion (its pairs in a shuffled order and orientation if asked: the same relation)."""
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n)) if seed % 2 else 1 / np.arange(1, n + 1) ** 1.2
    prior = prior / prior.sum()
    cost = (rng.random((n, n)) if kind == "random" else 1 - np.eye(n)) * scale
    pairs = [(i, i + 1) for i in range(n - 1)]
    given = pairs
    if shuffled:
        given = [(b, a) if rng.random() < 0.5 else (a, b) for a, b in pairs]
        given = [given[k] for k in rng.permutation(len(given))]
    return prior, cost, pairs, RenyiDifferentialPrivacy(alpha, neighbours=given, n_inputs=n)


def _check_renyi_design(seed, n, alpha, epsilon, kind, scale, shuffled) -> str:
    """Design, then: never 'infeasible'; a returned mechanism is re-measured within the budget; the certified
    lower bound ``objective − gap`` and the chain's bound at the design (``path_dual_bound``, not clamped to the
    objective as the gap is) are at most the objective, computed here, of every mechanism re-measured here within
    ε (the design's, and the independent one), within 1e-9 of the largest weight. Returns the status."""
    prior, cost, pairs, notion = _renyi_case(seed, n, alpha, epsilon, kind, scale, shuffled)
    result = design(notion, epsilon, ExpectedDistortion(Prior(prior), cost))
    assert result.status != "infeasible", result.message  # the constant mechanism is always private
    weights = prior[:, None] * cost
    tolerance = 1e-9 * float(np.abs(weights).max())
    feasible = [value for value in (_renyi_feasible_value(weights, alpha, epsilon, pairs),) if value is not None]
    if result.mechanism is not None:
        assert within_budget(_renyi_on_pairs(_matrix(result), alpha, pairs), epsilon)
        if _renyi_on_pairs(_matrix(result), alpha, pairs) <= epsilon:
            feasible.append(float((weights * _matrix(result)).sum()))
        chain = notion.path_dual_bound(weights, _matrix(result), epsilon)
        assert chain is None or not feasible or chain <= min(feasible) + tolerance, (chain, feasible)
    if result.status in ("optimal", "suboptimal") and feasible:
        assert result.objective - result.gap <= min(feasible) + tolerance, (result.objective, result.gap, feasible)
    return result.status


RENYI_CASES = [  # (seed, n, α, ε, cost, cost scale, shuffled order)
    (1, 3, 1.1, 1e-3, "random", 1.0, False), (2, 4, 1.5, 0.1, "hamming", 1e12, True),
    (3, 5, 2.0, 1.0, "random", 1e-12, True), (4, 6, 3.0, 4.0, "random", 1.0, False),
    (5, 8, 5.0, 10.0, "hamming", 1.0, True), (6, 9, 1.1, 4.0, "random", 1e12, False),
    (7, 12, 2.0, 0.1, "random", 1.0, True), (8, 14, 1.5, 10.0, "random", 1e-12, False),
    (9, 20, 3.0, 1.0, "hamming", 1.0, True),
    pytest.param((10, 20, 2.0, 1e-3, "random", 1e12, False), marks=pytest.mark.slow),  # 13 s at load 8
]


@pytest.mark.parametrize("case", RENYI_CASES)
def test_renyi_path_designs_stay_private_and_below_independent_mechanisms(case):
    """Rényi DP on a path (path_dual_bound first, the KKT polish else) over α ∈ {1.1 … 5}, ε ∈ {1e-3 … 10}, random
    and Hamming costs × 1e-12 / 1 / 1e12, Zipf / Dirichlet priors, the path given in a shuffled order: private as
    re-measured here, the bound below the independent Clarabel mechanism's objective."""
    _check_renyi_design(*case)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_renyi_path_designs_random_sweep(seed):
    """The same checks on 40 drawn cases, n from 3 to 60."""
    rng = np.random.default_rng(1000 + seed)
    _check_renyi_design(seed, int(rng.choice([3, 5, 9, 14, 20, 30, 45, 60])), float(rng.choice([1.1, 1.5, 2, 3, 5])),
                        float(rng.choice([1e-3, 0.1, 1, 4, 10])), str(rng.choice(["random", "hamming"])),
                        float(rng.choice([1e-12, 1.0, 1e12])), bool(rng.random() < 0.5))


@pytest.mark.parametrize("alpha, epsilon", [(1.5, 0.1), (2.0, 1.0), (3.0, 4.0), (5.0, 10.0)])
def test_the_path_bound_is_a_bound_at_any_matrix(alpha, epsilon):
    """path_dual_bound holds for any multipliers, so at any matrix it is given: at Dirichlet(0.1 / 1 / 10) rows, the
    uniform mechanism, a near-identity, the design's rows or columns permuted and the design itself, it is at most the objective of
    a mechanism re-measured here within ε (the design's or the independent one, whichever is less)."""
    n = 8
    prior, cost, pairs, notion = _renyi_case(11, n, alpha, epsilon, "random", 1.0, False)
    weights = prior[:, None] * cost
    result = design(notion, epsilon, ExpectedDistortion(Prior(prior), cost))
    feasible = [value for value in (_renyi_feasible_value(weights, alpha, epsilon, pairs),) if value is not None]
    assert result.mechanism is not None, result.message
    if _renyi_on_pairs(_matrix(result), alpha, pairs) <= epsilon:
        feasible.append(result.objective)
    assert feasible
    rng = np.random.default_rng(5)
    base = _matrix(result)
    matrices = [rng.dirichlet(np.full(n, a), size=n) for a in (0.1, 1.0, 10.0)]
    matrices += [np.full((n, n), 1 / n), 0.9 * np.eye(n) + 0.1 / n, base[rng.permutation(n)], base[:, rng.permutation(n)],
                 base]
    bounds = [notion.path_dual_bound(weights, matrix, epsilon) for matrix in matrices]
    assert sum(bound is not None for bound in bounds) >= 4  # the check is not vacuous
    for bound in bounds:
        assert bound is None or bound <= min(feasible) + 1e-10, (bound, feasible)


def test_the_path_bound_is_taken_on_the_path_only():
    """The path's pairs in any order and orientation are the path (its bound is given and equals the ordered one's);
    the path with one more edge, or a path through the inputs in another order, is not."""
    n = 6
    prior, cost, pairs, shuffled = _renyi_case(3, n, 2.0, 1.0, "random", 1.0, True)
    ordered = RenyiDifferentialPrivacy(2.0, pairs, n)
    weights, matrix = prior[:, None] * cost, np.full((n, n), 1 / n)
    assert shuffled.path_dual_bound(weights, matrix, 1.0) == ordered.path_dual_bound(weights, matrix, 1.0) is not None
    for other in (pairs + [(0, n - 1)], pairs + [(1, 3)], [(0, 2), (2, 1), (1, 3), (3, 4), (4, 5)]):
        assert RenyiDifferentialPrivacy(2.0, other, n).path_dual_bound(weights, matrix, 1.0) is None, other


def _metric_case(seed: int, geometry: str, unit: float, per_unit: float, kind: str, scale: float):
    """Points (a line of integers or random reals, a grid, random points in the plane) times ``unit``, ε
    ``per_unit / unit`` (the same problem in every unit), a cost (the distance, random, Hamming) × ``scale``."""
    rng = np.random.default_rng(seed)
    if geometry == "line":
        n = int(rng.integers(3, 16))
        points = (np.arange(float(n)) if seed % 2 else np.sort(rng.random(n)) * n)[:, None]
    elif geometry == "grid":
        width, height = int(rng.integers(2, 5)), int(rng.integers(2, 4))
        points = np.array([[i, j] for j in range(height) for i in range(width)], dtype=float)
    else:
        points = rng.random((int(rng.integers(3, 12)), 2)) * 3
    n = len(points)
    notion = MetricDifferentialPrivacy.from_points(points * unit)
    distances = notion.distances
    cost = {"distance": distances / unit, "random": rng.random((n, n)), "hamming": 1 - np.eye(n)}[kind] * scale
    return rng.dirichlet(np.ones(n)), cost, notion, per_unit / unit


def _check_metric_design(seed, geometry, unit, per_unit, kind, scale, limited=False) -> str:
    """Metric DP through cvxpy against the full LP written here (scipy linprog, every ordered pair and output a
    row): the mechanism re-measured within ε (relative 1e-9 or within_budget); the certified lower bound at most the
    objective of the LP's restriction (pairs capped at 1e6, its point re-measured); the objective at least the
    LP's relaxation (rows with e^{εd} <= 1e9) less the gap tolerance; 'optimal' wherever the two LPs meet within
    1e-8 of the largest weight; no mechanism only where the restricted LP has none either (a limit far below
    1e-12 can leave feasibility undecided in float64). ``limited``: a Hamming-distortion limit at 0.9 × the
    unlimited design's. Returns the status."""
    prior, cost, notion, epsilon = _metric_case(seed, geometry, unit, per_unit, kind, scale)
    objective = ExpectedDistortion(Prior(prior), cost)
    n, weights, distances = prior.size, prior[:, None] * cost, notion.distances
    limits, limit = (), None
    if limited:
        free = design(notion, epsilon, objective, method="cvxpy")
        assert free.mechanism is not None, free.message
        limit = (prior[:, None] * (1 - np.eye(n)), 0.9 * float(((prior[:, None] * (1 - np.eye(n))) * _matrix(free)).sum()))
        limits = [(ExpectedDistortion(Prior(prior), 1 - np.eye(n)), limit[1])]
    result = design(notion, epsilon, objective, limits=limits, method="cvxpy")
    largest = float(np.abs(weights).max())
    upper = _metric_lp(weights, distances, epsilon, 1e6, limit)
    lower = _metric_lp(weights, distances, epsilon, None, limit)
    if result.mechanism is None:  # only where the LP written here finds no re-measured mechanism either
        assert result.status in ("infeasible", "solver_error") and upper is None, (result.message, upper)
        return result.status
    matrix = _matrix(result)
    measured = _metric_ratio(matrix, distances)
    assert measured <= epsilon * (1 + 1e-9) or within_budget(measured, epsilon), (measured, epsilon)
    if limit is not None:
        assert float((limit[0] * matrix).sum()) <= limit[1] + 1e-9 * max(1.0, limit[1])
    if upper is not None and result.status in ("optimal", "suboptimal"):
        assert result.objective - result.gap <= upper + 1e-9 * largest, (result.objective, result.gap, upper)
    if lower is not None:
        assert result.objective >= lower - 1e-7 * max(largest, abs(lower)), (result.objective, lower)
    if upper is not None and lower is not None and upper - lower <= 1e-8 * largest:
        assert result.status == "optimal", ("needless", result.status, result.message)
    return result.status


METRIC_CASES = [  # (seed, geometry, unit, ε per unit, cost, scale)
    (1, "line", 1e-3, 1e-6, "distance", 1.0), (2, "line", 1.0, 2.0, "random", 1e12),
    (3, "line", 1e3, 20.0, "hamming", 1e-12), (4, "grid", 1.0, 0.5, "distance", 1.0),
    (5, "grid", 1e-3, 5.0, "random", 1.0), (6, "random", 1e3, 1.0, "hamming", 1.0),
    (7, "random", 1.0, 1e3, "distance", 1e12), (8, "line", 1.0, 50.0, "random", 1.0),
]


@pytest.mark.parametrize("case", METRIC_CASES)
def test_metric_designs_through_cvxpy_against_the_full_lp(case):
    """Lines, grids and random points in units 1e-3 … 1e3, ε from 1e-6 to 1e3 per unit of distance, three costs
    × 1e-12 / 1 / 1e12: see :func:`_check_metric_design`."""
    _check_metric_design(*case)


@pytest.mark.parametrize("case", METRIC_CASES[:4])
def test_metric_designs_with_a_distortion_limit_against_the_full_lp(case):
    """The same with a Hamming-distortion limit 10 % below the unlimited design's."""
    _check_metric_design(*case, limited=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60))
def test_metric_designs_random_sweep(seed):
    """The checks on 60 drawn cases, ε per unit of distance 10^U(−6, 3), half of them with the limit."""
    rng = np.random.default_rng(2000 + seed)
    _check_metric_design(seed, str(rng.choice(["line", "grid", "random"])), float(rng.choice([1e-3, 1.0, 1e3])),
                         float(10.0 ** rng.uniform(-6, 3)), str(rng.choice(["distance", "random", "hamming"])),
                         float(rng.choice([1e-12, 1.0, 1e12])), bool(seed % 2))


@pytest.mark.xfail(strict=True, reason="defect found 2026-11-28 (benchmarks/notes/2026-11-28-hostile-certificates.md): "
                   "Rényi DP on a path, n = 30, alpha = 1.1, eps = 4, random cost: the design at cost x 1e-12 is another "
                   "mechanism (0.0514122 against 0.0513769 at x 1 and x 1e12) and 'suboptimal' (gap 3.7e-5) where x 1 "
                   "and x 1e12 are certified optimal; the solver's point already differed before 1e550bb")
def test_renyi_path_design_does_not_depend_on_the_cost_unit():
    """Units never change the answer: the same problem with its cost × 1 and × 1e-12 has one status and one
    objective (relative 1e-7). Draw of the exploratory sweep, seed 933108754."""
    rng = np.random.default_rng(933108754)
    n = int(rng.choice([5, 12, 20, 30, 45, 60]))
    alpha, epsilon = float(rng.choice([1.1, 1.5, 2, 3, 5])), float(rng.choice([1e-3, 0.1, 1, 4, 10]))
    cost = rng.random((n, n)) if rng.choice(["random", "hamming"]) == "random" else 1 - np.eye(n)
    prior = rng.dirichlet(np.ones(n)) if rng.random() < 0.5 else 1 / np.arange(1, n + 1) ** 1.2
    assert (n, alpha, epsilon) == (30, 1.1, 4.0)
    notion = RenyiDifferentialPrivacy(alpha, [(i, i + 1) for i in range(n - 1)], n)
    plain = design(notion, epsilon, ExpectedDistortion(Prior(prior / prior.sum()), cost))
    small = design(notion, epsilon, ExpectedDistortion(Prior(prior / prior.sum()), cost * 1e-12))
    assert plain.status == "optimal", plain.message
    assert small.status == plain.status, small.message
    assert small.objective * 1e12 == pytest.approx(plain.objective, rel=1e-7)


@pytest.mark.xfail(strict=True, reason="defect found 2026-11-28 (benchmarks/notes/2026-11-28-hostile-certificates.md): "
                   "metric DP through cvxpy on 21 points of a line, random cost, eps = 8: 'suboptimal' 0.0340525 (gap "
                   "1.4e-5) where the optimum is 0.0340384 (metric-cone certifies it; the full LP written here with "
                   "pairs capped at 1e11 finds 0.03403836, re-measured private) — a needless 'suboptimal'")
def test_metric_dp_through_cvxpy_finds_the_optimum_on_a_line_at_eps_8():
    """The first case of the exploratory curve sweep (its draws replayed): the design through cvxpy is certified
    and within 1e-7 of the largest weight of the independent LP's re-measured mechanism."""
    rng = np.random.default_rng(1)
    assert float(rng.choice([1e-3, 1, 1e3])) == 1.0
    rng.random((25, 2))  # the sweep's random points, drawn for every geometry
    notion = MetricDifferentialPrivacy.from_points(np.arange(21.0))
    prior = rng.dirichlet(np.ones(21))
    assert rng.random() < 0.5
    cost = rng.random((21, 21))
    weights = prior[:, None] * cost
    independent = _metric_lp(weights, notion.distances, 8.0, 1e11)
    assert independent is not None
    result = design(notion, 8.0, ExpectedDistortion(Prior(prior), cost), method="cvxpy")
    assert result.status == "optimal", result.message
    assert result.objective <= independent + 1e-7 * float(weights.max())


@pytest.mark.parametrize("unit", [1e-3, 1e3])
def test_metric_privacy_distortion_scales_with_the_unit(unit):
    """57c0892's bracket in the budget unit, in thousandths and thousands (its test: hundredths): seven random
    points of the plane, half the prior's Hamming distortion; ε* × unit is the unit-1 ε* and the brackets, scaled
    to unit 1, overlap."""
    from mechdesign.curves import privacy_distortion
    rng = np.random.default_rng(4)
    points, prior = rng.random((7, 2)) * 3, rng.dirichlet(np.ones(7))
    objective = ExpectedDistortion(Prior(prior), 1 - np.eye(7))
    target = 0.5 * (1 - float(prior.max()))
    plain = privacy_distortion(MetricDifferentialPrivacy.from_points(points), target, objective)
    scaled = privacy_distortion(MetricDifferentialPrivacy.from_points(points * unit), target, objective)
    low, high = (value * unit for value in scaled.bracket)
    assert max(low, plain.bracket[0]) <= min(high, plain.bracket[1]), (scaled.bracket, plain.bracket)
    assert scaled.epsilon * unit == pytest.approx(plain.epsilon, rel=1e-8)
