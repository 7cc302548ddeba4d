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

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior, design, trace_curve
from mechdesign.methods.column_generation import LdpColumnGeneration
from mechdesign.methods.direct import LdpSharedExcessProgram
from mechdesign.result import BUDGET_ATOL, GAP_RTOL

#: Largest budget at which the reference solves the LP itself (e^20 ≈ 4.9e8; rows scaled to e^{±10}).
REFERENCE_MAX_EPSILON = 20.0
#: The reference LP's own error, relative to the objective's scale (HiGHS's primal/dual tolerances are 1e-7 absolute
#: on rows of order 1 after the row scaling; we ask 1e-10 below).
REFERENCE_RTOL = 1e-8

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
    result = linprog((weights / scale).ravel(), A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=np.ones(n), bounds=(0, None),
                     method="highs", options={"primal_feasibility_tolerance": 1e-10,
                                              "dual_feasibility_tolerance": 1e-10})
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
    if ldp_measure(q) > epsilon + BUDGET_ATOL:
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
                            if defects:
                                bad.append((case, defects))
    return checked, bad


def test_reference_lp_matches_the_randomized_response_closed_form():
    # Uniform prior, Hamming cost: D* = (n − 1) / (e^ε + n − 1); the reference must reproduce it (and so can fail).
    n = 5
    for epsilon in (0.0, 0.5, 3.0, 20.0):
        low, high = reference_lp(np.full(n, 1 / n), 1 - np.eye(n), epsilon)
        assert low == high == pytest.approx((n - 1) / (math.exp(epsilon) + n - 1), rel=1e-8)


def test_direct_lp_small_sweep():
    checked, bad = sweep(seeds=[0], sizes=[2, 3, 7], methods=["direct-lp"])
    assert checked > 0
    assert not bad, bad[:5]


def test_column_generation_program_small_sweep():
    # LdpColumnGeneration (floors master) at small n directly: value within its gap of the reference, bound below it,
    # mechanism private in numpy.
    checked = 0
    for seed in range(3):
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
                        assert ldp_measure(solution.matrix) <= epsilon + BUDGET_ATOL
                        checked += 1
    assert checked > 0


@pytest.mark.slow
def test_direct_lp_full_sweep():
    checked, bad = sweep(seeds=[1, 2], sizes=[2, 4, 10, 25], methods=["direct-lp"])
    assert not bad, bad[:5]


@pytest.mark.slow
def test_column_generation_design_sweep():
    checked, bad = sweep(seeds=[0], sizes=[60, 90], methods=["column-generation", "direct-lp"],
                         budgets=(0.0, 1e-3, 1.0, 5.0, 20.0, 30.0, math.inf))
    assert not bad, bad[:5]
