"""Hostile sweep of 2026-11-28's local-DP LPs against an independent LP (scipy.optimize.linprog, HiGHS).

Under test: the direct LP with one excess column (mechdesign.methods.direct.LdpSharedExcessProgram, reached by
``design(..., method="direct-lp")``), its quick staircase bound at shrunk multipliers, and column generation's floors
master (mechdesign.methods.column_generation.FloorsProgram, reached by ``LdpColumnGeneration`` and by
``design(..., method="column-generation")`` from 60 inputs on).

The reference is the full local-DP LP of Zhong & Bu (Definition 3(1)), written here from scratch: variables
``Q[x, y]``, rows ``Σ_y Q[x, y] = 1`` and ``Q[x, y] <= e^ε Q[x', y]`` for every ordered pair ``x != x'`` and every
output ``y`` (each row divided by ``e^{ε/2}`` so its coefficients are ``e^{±ε/2}``), objective ``Σ p_x c[x, y] Q[x, y]``.
Past ``ε = REFERENCE_MAX_EPSILON`` that LP is too ill-conditioned for HiGHS, and the optimum is sandwiched instead:
``D_∞ = Σ_x p_x min_y c[x, y] <= D*(ε) <= D_∞ + m e^{-ε} Σ_x p_x max_y c[x, y]`` (the upper end is the mix
``(1 − t) Q_0 + t U`` of the row-wise argmin with the uniform mechanism, ``t = m e^{-ε}``, private since every entry
is at least ``t / m`` and at most 1).

A design is wrong if its value exceeds the reference by more than its stated gap (plus the reference's own
round-off), its bound exceeds the reference, its mechanism measures above the budget in numpy (every pair, every
output, independent of the library), or it is a needless "suboptimal".
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior, design, trace_curve
from mechdesign.methods.column_generation import LdpColumnGeneration
from mechdesign.methods.direct import LdpSharedExcessProgram
from mechdesign.result import GAP_RTOL, gap_tolerance, within_budget

#: Largest budget at which the reference solves the LP itself (e^20 ≈ 4.9e8; rows scaled to e^{±10}).
REFERENCE_MAX_EPSILON = 20.0
#: The reference LP's own error, relative to the objective's scale (HiGHS's primal/dual tolerances are 1e-7 absolute
#: on rows of order 1 after the row scaling; we ask 1e-10 below).
REFERENCE_RTOL = 1e-8

#: HiGHS options of the reference, tried in turn until one ends optimal or infeasible.
REFERENCE_OPTIONS = ({"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
                     {"presolve": False}, {})

BUDGETS = (0.0, 1e-9, 1e-3, 0.1, 1.0, 5.0, 20.0, 30.0, 1e3, math.inf)


def reference_lp(prior: np.ndarray, cost: np.ndarray, epsilon: float, limit=None) -> tuple[float, float]:
    """``(low, high)`` with ``low <= D*(ε) <= high`` up to the reference's round-off (equal where the LP is solved).

    ``limit`` is ``(cost2, value)``: a cap ``Σ p_x cost2[x, y] Q[x, y] <= value`` (then ε <= REFERENCE_MAX_EPSILON).
    Returns ``(nan, nan)`` when the capped LP is infeasible.
    """
    n, m = cost.shape
    weights = prior[:, None] * cost
    if epsilon > REFERENCE_MAX_EPSILON:
        assert limit is None
        least = float(weights.min(axis=1).sum())
        if math.isinf(epsilon):
            return least, least
        return least, least + m * math.exp(-epsilon) * float(weights.max(axis=1).sum())
    if epsilon == 0.0 and limit is None:  # every row equal: the best single output
        value = float(weights.sum(axis=0).min())
        return value, value
    # Rows Q[x, y] e^{-ε/2} − e^{ε/2} Q[x', y] <= 0 for x != x'.
    xs, xps = np.nonzero(~np.eye(n, dtype=bool))
    pairs = xs.size
    row = np.repeat(np.arange(pairs * m), 2)
    ys = np.tile(np.arange(m), pairs)
    first = (np.repeat(xs, m) * m + ys)
    second = (np.repeat(xps, m) * m + ys)
    col = np.stack([first, second], axis=1).ravel()
    half = math.exp(epsilon / 2.0)
    data = np.tile([1.0 / half, -half], pairs * m)
    a_ub = sp.csr_matrix((data, (row, col)), shape=(pairs * m, n * m))
    b_ub = np.zeros(pairs * m)
    if limit is not None:
        cap = (prior[:, None] * limit[0]).ravel()
        a_ub = sp.vstack([a_ub, sp.csr_matrix(cap[None, :])]).tocsr()
        b_ub = np.append(b_ub, limit[1])
    a_eq = sp.kron(sp.eye(n), np.ones((1, m))).tocsr()
    scale = max(float(np.abs(weights).max()), 1e-300)
    for options in REFERENCE_OPTIONS:  # the tight tolerances first; HiGHS's defaults if it ends 'Unknown' there
        result = linprog((weights / scale).ravel(), A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=np.ones(n),
                         bounds=(0, None), method="highs", options=options)
        if result.status in (0, 2):
            break
    if result.status == 2:
        return math.nan, math.nan
    assert result.status == 0, result.message
    value = float(result.fun) * scale
    return value, value


def ldp_measure(matrix: np.ndarray) -> float:
    """The least ε for which ``matrix`` is ε-LDP: max over outputs of log(max_x Q / min_x Q) (inf at a zero
    facing a positive entry), computed here without the library."""
    q = np.asarray(matrix, dtype=float)
    used = q.max(axis=0) > 0
    if not used.any():
        return 0.0
    high, low = q[:, used].max(axis=0), q[:, used].min(axis=0)
    if (low <= 0).any():
        return math.inf
    return float(np.max(np.log(high) - np.log(low)))


def priors(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    zipf = 1.0 / np.arange(1, n + 1) ** 1.3
    zeros = rng.dirichlet(np.ones(n))
    zeros[rng.random(n) < 0.4] = 0.0
    if zeros.sum() == 0:
        zeros[0] = 1.0
    mass = np.zeros(n)
    mass[rng.integers(n)] = 1.0
    return {"dirichlet": rng.dirichlet(np.full(n, 0.5)), "zipf": zipf / zipf.sum(), "zeros": zeros / zeros.sum(),
            "point": mass}


def costs(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    ties = rng.integers(0, 3, size=(n, n)).astype(float)
    zero_rows = rng.random((n, n))
    zero_rows[rng.random(n) < 0.3] = 0.0
    return {"random": rng.random((n, n)), "hamming": 1.0 - np.eye(n), "ties": ties, "zero_rows": zero_rows,
            "tiny": 1e-12 * rng.random((n, n)), "huge": 1e12 * rng.random((n, n))}


def verdict(result, prior: np.ndarray, cost: np.ndarray, epsilon: float, limit=None) -> list[str]:
    """The defects of one design (empty when it is right)."""
    low, high = reference_lp(prior, cost, epsilon, limit)
    if math.isnan(low):
        return [] if not result.success else [f"success on an infeasible cap: {result.status}"]
    scale = max(float((prior[:, None] * cost).max(axis=1).sum()), abs(high), 1e-300)
    slack = REFERENCE_RTOL * scale
    defects = []
    if not result.success:
        return [f"failed: {result.status} {result.message}"]
    if result.status != "optimal":
        defects.append(f"needless {result.status}: gap {result.gap} ({result.message})")
    q = result.mechanism.matrix
    if not within_budget(ldp_measure(q), epsilon):
        defects.append(f"outside the budget: measured {ldp_measure(q)} > {epsilon}")
    value = float((prior[:, None] * cost * q).sum())
    if abs(value - result.objective) > slack:
        defects.append(f"objective {result.objective} is not the mechanism's value {value}")
    if result.status == "optimal":
        gap = max(result.gap, 0.0)
        if result.objective > high + gap + slack:
            defects.append(f"'optimal' {result.objective} above the optimum {high} by more than the gap {gap}")
        if result.bound is not None and result.bound > high + slack:
            defects.append(f"bound {result.bound} above the optimum {high}")
        if result.gap > GAP_RTOL * max(result.unit, abs(result.objective)) * (1 + 1e-12):
            defects.append(f"'optimal' with gap {result.gap} above the tolerance")
    if limit is not None and float((prior[:, None] * limit[0] * q).sum()) > limit[1] + slack:
        defects.append("cap violated")
    return defects


def sweep(seeds, sizes, methods, budgets=BUDGETS, cost_kinds=None, prior_kinds=None):
    """Every combination; returns (number checked, list of (case, defects))."""
    checked, bad = 0, []
    for seed in seeds:
        for n in sizes:
            rng = np.random.default_rng(seed * 1000 + n)
            for pk, prior in priors(rng, n).items():
                if prior_kinds and pk not in prior_kinds:
                    continue
                for ck, cost in costs(rng, n).items():
                    if cost_kinds and ck not in cost_kinds:
                        continue
                    objective = ExpectedDistortion(Prior(prior), cost)
                    for epsilon in budgets:
                        for method in methods:
                            case = (seed, n, pk, ck, epsilon, method)
                            try:
                                result = design(DifferentialPrivacy(), epsilon, objective, method=method)
                            except Exception as error:  # noqa: BLE001 - a crash is a finding
                                bad.append((case, [f"crash: {type(error).__name__}: {error}"]))
                                continue
                            checked += 1
                            defects = verdict(result, prior, cost, epsilon)
                            if defects and known_direct_lp_failure(result, epsilon, method):
                                # the strict xfail test_point_mass_with_a_constant_cost_row_at_large_budgets; "auto"
                                # must certify the same case
                                defects = verdict(design(DifferentialPrivacy(), epsilon, objective), prior, cost, epsilon)
                            if defects:
                                bad.append((case, defects))
    return checked, bad


def known_direct_lp_failure(result, epsilon: float, method: str) -> bool:
    """The known defect of a named direct LP at e^ε >= 1e11 (HiGHS's zero matrix: a solver_error, not a crash)."""
    return (method == "direct-lp" and result.status == "solver_error" and epsilon >= 25.0
            and "no positive mass" in result.message)


def test_reference_lp_matches_the_randomized_response_closed_form():
    # Uniform prior, Hamming cost: D* = (n − 1) / (e^ε + n − 1); the reference must reproduce it (and so can fail).
    n = 5
    for epsilon in (0.0, 0.5, 3.0, 20.0):
        low, high = reference_lp(np.full(n, 1 / n), 1 - np.eye(n), epsilon)
        assert low == high == pytest.approx((n - 1) / (math.exp(epsilon) + n - 1), rel=1e-8)


def test_direct_lp_small_sweep():
    checked, bad = sweep(seeds=[0], sizes=[2, 5], methods=["direct-lp"])
    assert checked > 0
    assert not bad, bad[:5]


def test_column_generation_program_small_sweep():
    # LdpColumnGeneration (floors master) at small n directly: value within its gap of the reference, bound below it,
    # mechanism private in numpy.
    checked = 0
    for seed in range(2):
        rng = np.random.default_rng(seed)
        for n in (2, 5, 12):
            for prior in priors(rng, n).values():
                for cost in costs(rng, n).values():
                    weights = prior[:, None] * cost
                    program = LdpColumnGeneration(weights)
                    for epsilon in (0.0, 1e-9, 1e-3, 0.1, 1.0, 5.0, 20.0):
                        solution = program.solve(epsilon)
                        low, high = reference_lp(prior, cost, epsilon)
                        slack = REFERENCE_RTOL * max(float(weights.max(axis=1).sum()), high, 1e-300)
                        assert solution.lower_bound <= high + slack, (seed, n, epsilon)
                        gap = solution.value - solution.lower_bound
                        assert solution.value <= high + max(gap, 0) + slack
                        assert gap <= GAP_RTOL * max(float(cost.max()) if cost.max() > 0 else 1.0, solution.value) \
                            or gap <= 1e-7 * max(1.0, solution.value), (seed, n, epsilon, gap)
                        assert within_budget(ldp_measure(solution.matrix), epsilon)
                        checked += 1
    assert checked > 0


@pytest.mark.slow
def test_direct_lp_full_sweep():
    checked, bad = sweep(seeds=[1, 2], sizes=[2, 4, 10, 25], methods=["direct-lp"])
    assert not bad, bad[:5]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MECHDESIGN_HOSTILE_FULL"), reason="n = 60 column-generation sweeps against a 212,400-row reference LP take more than 5 min each; run with MECHDESIGN_HOSTILE_FULL=1")
def test_column_generation_design_sweep():
    # n = 60 (column generation's threshold): each reference LP has 212,400 rows (about 20 s at load 6).
    # (cut to two costs and three budgets: the whole grid took 464 s CPU for half of it)
    checked, bad = sweep(seeds=[0], sizes=[60], methods=["column-generation"],
                         budgets=(0.0, 1.0, 30.0), cost_kinds=["random", "ties"], prior_kinds=["dirichlet", "point"])
    assert not bad, bad[:5]


def curve_defects(prior: np.ndarray, cost: np.ndarray, budgets, method: str) -> tuple[int, list]:
    """Trace one warm-started curve and check every point as :func:`verdict` does."""
    curve = trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior(prior), cost), budgets, method=method)
    bad = []
    for epsilon, result in zip(budgets, curve.results):
        defects = verdict(result, prior, cost, float(epsilon))
        if defects:
            bad.append((float(epsilon), defects))
    return len(curve.results), bad


@pytest.mark.parametrize("kind", ["random", "ties", "zero_rows"])
def test_direct_lp_curve_through_many_budgets(kind):
    # n = 12, Zipf prior, 31 budgets from 0 to 30 and back down (the warm start crosses the same vertices twice).
    rng = np.random.default_rng(5)
    prior, cost = priors(rng, 12)["zipf"], costs(rng, 12)[kind]
    budgets = np.concatenate([np.linspace(0.0, 30.0, 16), np.linspace(29.0, 0.5, 15)])
    checked, bad = curve_defects(prior, cost, budgets, "direct-lp")
    assert checked == budgets.size
    assert not bad, bad[:5]


def capped_defects(seed: int, n: int, method: str = "direct-lp") -> tuple[int, list]:
    """Designs under a distortion cap halfway between the cap's least value under the budget and its value at the
    uncapped optimum (binding), one tighter than its least value (infeasible), and one loose; against the reference
    with the cap as a row."""
    rng = np.random.default_rng(seed)
    prior, cost, other = rng.dirichlet(np.ones(n)), rng.random((n, n)), rng.random((n, n))
    objective, second = ExpectedDistortion(Prior(prior), cost), ExpectedDistortion(Prior(prior), other)
    checked, bad = 0, []
    for epsilon in (0.1, 1.0, 5.0):
        least = reference_lp(prior, other, epsilon)[0]
        free = design(DifferentialPrivacy(), epsilon, objective, method=method)
        reached = float((prior[:, None] * other * free.mechanism.matrix).sum())
        for value in (least + 0.5 * (reached - least), least * (1 - 1e-3) - 1e-3, reached + 1.0):
            result = design(DifferentialPrivacy(), epsilon, objective, limits=[(second, value)], method=method)
            checked += 1
            defects = verdict(result, prior, cost, epsilon, limit=(other, value))
            if defects:
                bad.append(((seed, n, epsilon, value), defects))
    return checked, bad


@pytest.mark.parametrize("seed", [0, 1])
def test_direct_lp_distortion_caps(seed):
    checked, bad = capped_defects(seed, 6)
    assert checked == 9
    assert not bad, bad


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MECHDESIGN_HOSTILE_FULL"), reason="n = 60 column-generation sweeps against a 212,400-row reference LP take more than 5 min each; run with MECHDESIGN_HOSTILE_FULL=1")
def test_column_generation_curve_through_many_budgets():
    rng = np.random.default_rng(7)
    for kind in ("random", "ties"):
        prior, cost = priors(rng, 60)["dirichlet"], costs(rng, 60)[kind]
        budgets = np.concatenate([np.linspace(0.0, 25.0, 11), np.linspace(24.0, 0.5, 8)])
        checked, bad = curve_defects(prior, cost, budgets, "column-generation")
        assert not bad, bad[:5]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MECHDESIGN_HOSTILE_FULL"), reason="n = 60 column-generation sweeps against a 212,400-row reference LP take more than 5 min each; run with MECHDESIGN_HOSTILE_FULL=1")
def test_column_generation_distortion_caps():
    checked, bad = capped_defects(3, 60, method="column-generation")
    assert not bad, bad


@pytest.mark.xfail(strict=True, reason="defect found 2026-11-28 (pre-dates today's commits, same at a4c85f5^): at "
                   "e^eps >= 1e13 HiGHS ends 'Optimal' on both LdpLinearProgram and LdpSharedExcessProgram with the "
                   "zero matrix (eps = 30) or 'Not Set' (eps = 36, 700); design(method='direct-lp') raised "
                   "InvalidMechanismError until the coordinator's 6f8638f-era change, now ends solver_error "
                   "(method='auto' recovers through cvxpy: optimal 2.0)")
@pytest.mark.parametrize("epsilon", [30.0, 36.0, 700.0])
def test_point_mass_with_a_constant_cost_row_at_large_budgets(epsilon):
    # Prior on input 1 only, its cost row constant (2, 2): D* = 2 at every budget (the reference says so at ε <= 20).
    prior, cost = np.array([0.0, 1.0]), np.array([[2.0, 1.0], [2.0, 2.0]])
    assert reference_lp(prior, cost, 20.0) == pytest.approx((2.0, 2.0), rel=1e-9)
    result = design(DifferentialPrivacy(), epsilon, ExpectedDistortion(Prior(prior), cost), method="direct-lp")
    assert not verdict(result, prior, cost, epsilon)


def test_unconstrained_optimum_gap_is_within_its_tolerance():
    """Found 2026-11-28: the unconstrained optimum's mix at ε = 20 (n = 60, Dirichlet prior, random cost) was
    'optimal' with a gap 4.3e-18 above gap_tolerance (the mix was sized to the tolerance itself); now sized a
    millionth below it (mechdesign/problem.py, DesignProblem._shortcut)."""
    rng = np.random.default_rng(7)
    prior, cost = priors(rng, 60)["dirichlet"], costs(rng, 60)["random"]
    result = design(DifferentialPrivacy(), 20.0, ExpectedDistortion(Prior(prior), cost))
    assert result.status == "optimal"
    assert result.gap <= gap_tolerance(result.objective, result.unit)
