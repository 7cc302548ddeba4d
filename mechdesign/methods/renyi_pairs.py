"""Rényi DP with many neighbour pairs by lazy pair generation: what :func:`~mechdesign.solve.design` runs (method
``"pair-generation"``) for one :class:`~mechdesign.privacy.renyi.RenyiDifferentialPrivacy` whose relation is not a
path, from :data:`MIN_INPUTS` inputs on, for expected distortion without limits.

With every pair of ``n`` inputs neighbouring, cvxpy's problem has ``n (n − 1) m`` power cones (at ``n = m = 100``
an estimated 69 GiB, refused); the optimum needs only a fraction of the pairs (random costs, ε = 1, α = 2: 85 of
380 ordered pairs active at n = 20, 177 of 870 at n = 30) and of the outputs. :func:`design_by_pairs` solves the
problem restricted to a **working set** of ordered pairs and outputs (:func:`working_set_solution`: the
interior-point method of :mod:`mechdesign.methods.renyi_newton`, which exploits that the problem separates by output
column but for the row sums and the budgets; where it fails, :func:`solve_working_set`, the conic problem written
straight for Clarabel, no cvxpy), measures every pair of the relation in numpy, adds the most violated
(:data:`ADD_PER_INPUT` per input), drops the pairs far from their budget, and re-solves, until no pair exceeds the
budget by more than :data:`PAIR_ATOL`.

Certificate: the working-set problem has fewer constraints than the full one, so any lower bound of it is a lower
bound of the full optimum; and the final mechanism meets every pair (re-measured by the notion itself in
:func:`~mechdesign.methods.certified.certified_result`). The bound is the column terms' Lagrangian dual
(:mod:`mechdesign.privacy.column_dual`) of the problem with the working set's pairs (both directions) and every
output: :func:`~mechdesign.privacy.column_dual.kkt_point` at the design, the outputs it leaves unused at the points
where their Lagrangian column terms are least, checked in numpy by
:func:`~mechdesign.privacy.column_dual.lagrangian_bound`. Outputs left out of the working set whose least term is
negative there are added and the working set re-solved.

This module does not import :mod:`mechdesign.solve` (tests/test_layers.py).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from .._lazy import scipy_sparse as sp
from ..privacy.column_dual import UNUSED_COLUMN_MASS, kkt_point, lagrangian_bound, least_column_terms
from ..privacy.renyi import (ACTIVE_DUAL_RATIOS, RenyiDifferentialPrivacy, least_pair_column_terms,
                             renyi_log_power_sums)
from ..registry import solver_capability
from ..result import Result, budget_tolerance, clean_mechanism, gap_tolerance
from ..utility.distortion import ExpectedDistortion
from .certified import certified_result, failure_result, single_budget
from .renyi_newton import solve_pairs

#: Fewest inputs at which ``design()`` takes this method for Rényi DP (below, cvxpy's problem with every pair is
#: small: n = 10 in 1–2 s).
MIN_INPUTS = 12
#: A pair is violated when its measured divergence exceeds the budget by more than this (nats), or by more than half
#: the re-measurement's :func:`~mechdesign.result.budget_tolerance` where that is smaller (small budgets).
PAIR_ATOL = 1e-8
#: Violated pairs added per input and round at most (the most violated first). With the working sets solved by
#: mechdesign/methods/renyi_newton.py, n = 50 (random cost, ε = 1): 9 rounds and 18.0 s CPU with 8 (and
#: :data:`KEEP_SLACK` 0.1) against 14 rounds and 19.5 s with 4 (and 1e-2); keeping every pair: 35.5 s.
ADD_PER_INPUT = 8
#: A working-set pair is kept while its power sum is at least ``1 − KEEP_SLACK`` of its budget (scaled form), and
#: always once it has been dropped and found violated again.
KEEP_SLACK = 0.1
#: Rounds at most.
MAX_ROUNDS = 60
#: Clarabel's duality-gap and feasibility tolerances in the rounds that look for violated pairs and missing outputs.
SEARCH_TOLERANCE = 1e-7
#: The same for the working set that has none (whose point and multipliers the certificate starts from).
SOLVE_TOLERANCE = 1e-9
#: Barrier weight (relative) at which the pricing of outputs outside the working set stops
#: (:func:`~mechdesign.privacy.renyi.least_pair_column_terms`: only the sign of their least terms is needed).
PRICE_BARRIER = 1e-10
#: An output outside the working set is added when its least Lagrangian column term is below this (relative to
#: the largest weight).
PRICE_TOLERANCE = 1e-10


def solve_working_set(weights: np.ndarray, first: np.ndarray, second: np.ndarray, outputs: np.ndarray,
                      scale: float, alpha: float, tolerance: float = 1e-9
                      ) -> tuple[str, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """``min weights · Q`` over row-stochastic ``Q`` supported on the columns ``outputs`` with
    ``Σ_y Q[first_k, y]^α (scale · Q[second_k, y])^{1−α} <= 1`` for every ``k``, by Clarabel (no cvxpy) at
    ``tolerance`` (its gap and feasibility tolerances).

    Each term gets an epigraph variable ``t >= a^α c^{1−α}`` (``c = scale · b``): a rotated second-order cone
    ``(t + c, 2a, t − c)`` for α = 2, else the power cone ``t^{1/α} c^{1−1/α} >= |a|``.

    Returns
    -------
    (status, Q, μ, λ)
        Clarabel's status, the ``(n, m)`` point (zero outside ``outputs``), the multipliers of the unit row sums
        (``weights − μ + Σ_k λ_k ∇φ_k >= 0``, equal on the support) and those of the ``k`` budgets; ``None`` unless
        solved.

    Examples
    --------
    Two inputs, Hamming cost, α = 2, ε = log 2: randomized response with ``p = (1 + 1/√5) / 2``.

    >>> status, Q, _, _ = solve_working_set(0.5 * (1 - np.eye(2)), np.array([0, 1]), np.array([1, 0]), np.arange(2), 2.0,
    ...                               2.0)
    >>> status, round(float(Q[0, 0]), 7), round((1 + 1 / math.sqrt(5)) / 2, 7)
    ('Solved', 0.7236068, 0.7236068)
    """
    import clarabel

    n = weights.shape[0]
    m, pairs = outputs.size, first.size
    entries, terms = n * m, pairs * m
    size = entries + terms
    row_sums = sp.csr_matrix((np.ones(entries), (np.repeat(np.arange(n), m), np.arange(entries))), shape=(n, size))
    nonnegative = sp.hstack([-sp.identity(entries), sp.csr_matrix((entries, terms))])
    budgets = sp.csr_matrix((np.ones(terms), (np.repeat(np.arange(pairs), m), entries + np.arange(terms))),
                            shape=(pairs, size))
    pair, output = np.repeat(np.arange(pairs), m), np.tile(np.arange(m), pairs)
    t, a, c = entries + np.arange(terms), first[pair] * m + output, second[pair] * m + output
    base = 3 * np.arange(terms)
    ones = np.ones(terms)
    if alpha == 2.0:  # s = (t + scale b, 2a, t − scale b) in the second-order cone, s = −A x
        rows = np.concatenate([base, base, base + 1, base + 2, base + 2])
        columns = np.concatenate([t, c, a, t, c])
        values = -np.concatenate([ones, scale * ones, 2.0 * ones, ones, -scale * ones])
        cones = [clarabel.SecondOrderConeT(3)] * terms
    else:  # s = (t, scale b, a) in the power cone of exponent 1/α
        rows, columns = np.concatenate([base, base + 1, base + 2]), np.concatenate([t, c, a])
        values = -np.concatenate([ones, scale * ones, ones])
        cones = [clarabel.PowerConeT(1.0 / alpha)] * terms
    matrix = sp.vstack([row_sums, nonnegative, budgets,
                        sp.csr_matrix((values, (rows, columns)), shape=(3 * terms, size))]).tocsc()
    sides = np.concatenate([np.ones(n), np.zeros(entries), np.ones(pairs), np.zeros(3 * terms)])
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = tolerance
    solver = clarabel.DefaultSolver(sp.csc_matrix((size, size)),
                                    np.concatenate([weights[:, outputs].ravel(), np.zeros(terms)]), matrix, sides,
                                    [clarabel.ZeroConeT(n), clarabel.NonnegativeConeT(entries + pairs), *cones],
                                    settings)
    solution = solver.solve()
    status = str(solution.status)
    if status not in ("Solved", "AlmostSolved"):
        return status, None, None, None
    point = np.zeros(weights.shape)
    point[:, outputs] = np.asarray(solution.x)[:entries].reshape(n, m)
    duals = np.asarray(solution.z)
    return status, point, -duals[:n], duals[n + entries: n + entries + pairs]


def working_set_solution(weights: np.ndarray, first: np.ndarray, second: np.ndarray, outputs: np.ndarray,
                         scale: float, alpha: float, tolerance: float
                         ) -> tuple[str, str, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """The working-set problem of :func:`solve_working_set` (same arguments) by the interior-point method of
    :func:`~mechdesign.methods.renyi_newton.solve_pairs` where it applies (``α > 1``, ``scale > 1``: the uniform
    point is strictly feasible) and ends solved, else by Clarabel.

    Returns
    -------
    (solver, status, Q, μ, λ)
        The solver that gave the answer (``"renyi-newton"`` or ``"clarabel"``), then :func:`solve_working_set`'s
        returns.

    Examples
    --------
    >>> solver, status, Q, _, _ = working_set_solution(0.5 * (1 - np.eye(2)), np.array([0, 1]), np.array([1, 0]),
    ...                                                np.arange(2), 2.0, 2.0, 1e-9)
    >>> solver, status, round(float(Q[0, 0]), 7)
    ('renyi-newton', 'Solved', 0.7236068)
    """
    if alpha > 1.0 and scale > 1.0:
        found = solve_pairs(weights, first, second, outputs, scale, alpha, tolerance)
        if found.matrix is not None:
            return "renyi-newton", found.status, found.matrix, found.row_multipliers, found.multipliers
    return ("clarabel", *solve_working_set(weights, first, second, outputs, scale, alpha, tolerance))


def pair_power_sums(matrix: np.ndarray, first: np.ndarray, second: np.ndarray, scale: float, alpha: float
                    ) -> np.ndarray:
    """``log Σ_y Q[first_k, y]^α (scale · Q[second_k, y])^{1−α}`` for every ``k`` (the scaled budget's log: at most 0
    within the budget), by :func:`~mechdesign.privacy.renyi.renyi_log_power_sums`.

    Examples
    --------
    >>> Q = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> round(float(pair_power_sums(Q, np.array([0]), np.array([1]), 1.0, 2.0)[0]), 8)  # log(0.75²/0.25 + 0.25²/0.75)
    0.84729786
    """
    return renyi_log_power_sums(matrix[first], matrix[second], alpha) + (1.0 - alpha) * math.log(scale)


def _priced_outputs(weights: np.ndarray, mu: np.ndarray, multipliers: np.ndarray, first: np.ndarray,
                    second: np.ndarray, outputs: np.ndarray, scale: float, alpha: float, floor: float) -> np.ndarray:
    """The outputs outside ``outputs`` whose least Lagrangian column term ``(weights[:, y] − μ) · v + Σ_k λ_k φ_k(v)``
    on the simplex, at the working set's multipliers, is below ``floor`` (< 0): adding them lowers the working set's
    optimum (column generation; the pricing is approximate, :data:`PRICE_BARRIER`, the certificate's is not)."""
    outside = np.setdiff1d(np.arange(weights.shape[1]), outputs)
    if outside.size == 0:
        return outside
    lam = np.maximum(multipliers, 0.0)
    linear = weights[:, outside] - mu[:, None]
    points = least_pair_column_terms(linear, first, second, lam, scale, alpha, PRICE_BARRIER)
    if points is None:  # overflow: nothing priced in here; the certificate prices every output again
        return outside[:0]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        terms = np.where(points[first] > 0, points[first] ** alpha * (scale * points[second]) ** (1.0 - alpha), 0.0)
    values = np.einsum("xy,xy->y", linear, points) + lam @ terms
    return outside[values < floor]


def _certificate(weights: np.ndarray, matrix: np.ndarray, first: np.ndarray, second: np.ndarray,
                 actives: list[np.ndarray], alpha: float, budget: float, target: float
                 ) -> tuple[float | None, np.ndarray, np.ndarray | None]:
    """The column terms' dual bound (module docstring) at ``matrix`` of the problem with the ordered pairs
    ``(first, second)`` of the working set, both directions, from the first of the guesses ``actives`` (a boolean per
    pair: the pairs active at the optimum; after them ``kkt_point``'s own guess) whose bound reaches ``target`` (else
    the best); and each output's least
    Lagrangian column term at that bound's multipliers (0 for used outputs; ``-inf`` everywhere without a KKT point);
    and that KKT point's mechanism (the optimum to round-off when the guess was right).
    """
    n, m = matrix.shape
    notion = RenyiDifferentialPrivacy(alpha, np.unique(np.sort(np.column_stack([first, second]), axis=1), axis=0), n)
    scale = notion.scaled_budget(budget)
    own_first, own_second = notion.neighbours.ordered_pairs(n)
    index = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(own_first, own_second))}

    def terms(point: np.ndarray) -> Any:
        return notion.column_terms(point, budget, scale)

    best, least, polished = None, np.full(m, -math.inf), None
    unused = matrix.sum(axis=0) <= UNUSED_COLUMN_MASS
    for active in [*actives, None]:  # None: kkt_point's own guess, the terms within ACTIVE_RTOL of their budget
        point = kkt_point(weights, matrix, terms, None if active is None else np.array(
            [index[int(a), int(b)] for a, b in zip(first[active], second[active])], dtype=int))
        if point is None:
            continue
        tangent = point.matrix.copy()
        if unused.any():
            linear = weights[:, unused] - point.row_multipliers[:, None]
            found = least_pair_column_terms(linear, own_first, own_second, point.multipliers, scale, alpha)
            tangent[:, unused] = least_column_terms(linear, point.multipliers, terms) if found is None else found
        sums = terms(tangent)
        bound = lagrangian_bound(weights, point.multipliers, sums)  # any multipliers: negative ones count as 0
        if best is None or bound > best:
            reduced = (weights + (sums.jacobian.T @ np.maximum(point.multipliers, 0.0)).reshape(weights.shape)
                       - point.row_multipliers[:, None])
            best, least = bound, np.where(unused, np.einsum("xy,xy->y", reduced, tangent), 0.0)  # Euler: h_y(v)
            polished = point.matrix
        if best >= target:
            break
    return best, least, polished


def design_by_pairs(notion: RenyiDifferentialPrivacy, budget: float, objective: ExpectedDistortion) -> Result:
    """Lazy pair generation (module docstring) for ``notion`` at ``budget`` (finite, ``>= 0``).

    Examples
    --------
    Every pair of 4 inputs, Hamming cost under a uniform prior:

    >>> from mechdesign import Prior
    >>> result = design_by_pairs(RenyiDifferentialPrivacy(2.0), 1.0, ExpectedDistortion(Prior.uniform(4)))
    >>> result.status, result.method
    ('optimal', 'pair-generation')
    """
    start = time.perf_counter()
    n, m = objective.shape
    unit = objective.unit
    weights = objective.prior.probabilities[:, None] * objective.cost / unit
    scale = notion.scaled_budget(budget)
    alpha = notion.alpha
    first, second = notion.neighbours.ordered_pairs(n)
    common: dict = dict(method="pair-generation", solver="renyi-newton")
    solvers: set[str] = set()  # the working sets' solvers (renyi-newton, clarabel where it failed)
    if budget == 0:  # rows equal within each component: its best constant row, exact (the cones have no interior)
        matrix, value = notion.zero_budget_optimum(weights)
        return certified_result(notion, budget, objective, matrix, value * unit, "budget 0: each neighbour "
                                "component's best constant row, exact", start, iterations=0, **common)
    if not math.isfinite(scale):  # no pair binds: the unconstrained optimum
        matrix = objective.unconstrained_optimum()
        return certified_result(notion, budget, objective, matrix, objective.value(matrix), "every row at its least cost",
                                start, iterations=0, **common)
    # Start: each input and the next (both directions), every output.
    working = np.zeros(first.size, dtype=bool)
    pair_index = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(first, second))}
    for x in range(n):
        for key in ((x, (x + 1) % n), ((x + 1) % n, x)):
            if key in pair_index:
                working[pair_index[key]] = True
    outputs = np.arange(m)  # every output, then those used and those priced in
    dropped, sticky = np.zeros(first.size, dtype=bool), np.zeros(first.size, dtype=bool)
    matrix = None
    tolerance, floor = SEARCH_TOLERANCE, -PRICE_TOLERANCE * float(np.abs(weights).max())
    excess = min(PAIR_ATOL, 0.5 * budget_tolerance(budget))
    for round_number in range(1, MAX_ROUNDS + 1):
        solver, status, raw, mu, multipliers = working_set_solution(weights, first[working], second[working],
                                                                    outputs, scale, alpha, tolerance)
        solvers.add(solver)
        common["solver"] = "+".join(sorted(solvers))
        if raw is None:
            return failure_result("solver_error", f"{solver} returned status {status!r} on a working set of "
                                  f"{int(working.sum())} ordered pairs and {outputs.size} outputs", start,
                                  budgets={notion.label: budget}, iterations=round_number, **common)
        matrix = clean_mechanism(raw)
        sums = pair_power_sums(matrix, first, second, scale, alpha)
        # A working-set pair over its budget is the solver's tolerance (the re-measurement judges it), not a cut.
        violated = (sums > (alpha - 1.0) * excess) & ~working
        # Outputs are priced once no pair is violated (before, the working set's multipliers are far from the end's).
        missing = np.array([], dtype=int) if violated.any() else _priced_outputs(
            weights, mu, multipliers, first[working], second[working], outputs, scale, alpha, floor)
        work = (f"pair generation: {round_number} rounds, {int(working.sum())} of {first.size} ordered pairs and "
                f"{outputs.size} of {m} outputs in the working set")
        if not violated.any() and missing.size == 0:
            if tolerance > SOLVE_TOLERANCE:  # the same working set once more, to the certificate's accuracy
                tolerance = SOLVE_TOLERANCE
                continue
            slack = -np.expm1(sums[working])
            value = float(np.sum(weights * matrix))
            bound, least, polished = _certificate(weights, matrix, first[working], second[working],
                                                  [multipliers > ratio * slack for ratio in ACTIVE_DUAL_RATIOS],
                                                  alpha, budget, value - gap_tolerance(value))
            missing = np.setdiff1d(np.flatnonzero(least < floor), outputs)
            if bound is not None and (value - bound <= gap_tolerance(value) or missing.size == 0):
                if polished is not None and np.all(pair_power_sums(polished, first, second, scale, alpha)
                                                   <= (alpha - 1.0) * excess):
                    matrix = polished  # the KKT point: Clarabel's to round-off, within every pair's budget
                return certified_result(notion, budget, objective, matrix, bound * unit, work, start,
                                        iterations=round_number, **common)
            if missing.size == 0:  # no KKT point and nothing to add: a design without a bound
                return certified_result(notion, budget, objective, matrix, -math.inf, work, start,
                                        iterations=round_number, **common)
        # Keep the pairs near their budget, add each input's most violated ones; keep the outputs used and add those
        # whose least Lagrangian column term is negative.
        order = np.lexsort((-np.where(violated, sums, -np.inf), first))  # by input, the most violated first
        rank = np.empty(first.size, dtype=int)
        rank[order] = np.arange(first.size) - np.searchsorted(first[order], first[order])
        added = violated & (rank < ADD_PER_INPUT)
        sticky |= added & dropped  # a pair dropped and violated again stays (else rounds can cycle: n = 12, ε = 5)
        kept = working & ((sums >= math.log1p(-KEEP_SLACK)) | sticky)
        dropped |= working & ~kept
        working = kept | added
        outputs = np.union1d(np.flatnonzero(matrix.sum(axis=0) > UNUSED_COLUMN_MASS), missing)
    return certified_result(notion, budget, objective, matrix, -math.inf,
                            f"pair generation did not converge in {MAX_ROUNDS} rounds", start,
                            iterations=MAX_ROUNDS, **common)


def applies(notions: Any, objective: Any, limits: Any) -> bool:
    """Whether :func:`design_renyi_pairs` solves the problem: one
    :class:`~mechdesign.privacy.renyi.RenyiDifferentialPrivacy` (exactly that class) whose neighbours are not a
    path, an :class:`~mechdesign.utility.distortion.ExpectedDistortion` on at least :data:`MIN_INPUTS` inputs, no
    limits.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> objective = ExpectedDistortion(Prior.uniform(MIN_INPUTS))
    >>> applies([RenyiDifferentialPrivacy(2.0)], objective, []), applies([RenyiDifferentialPrivacy(2.0)], objective,
    ...                                                                  [(objective, 0.5)])
    (True, False)
    """
    if not (len(notions) == 1 and solver_capability(notions[0], "pair_generation") is not None and not limits
            and isinstance(objective, ExpectedDistortion) and objective.shape[0] >= MIN_INPUTS):
        return False
    return not notions[0].on_path(objective.shape[0])


def design_renyi_pairs(notions: Any, budgets: Any, objective: ExpectedDistortion) -> Result:
    """:func:`design_by_pairs` for a problem :func:`applies` accepts (the form of ``design()``'s methods).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> design_renyi_pairs([RenyiDifferentialPrivacy(2.0)], [1.0], ExpectedDistortion(Prior.uniform(3))).method
    'pair-generation'
    """
    return design_by_pairs(notions[0], single_budget(budgets, notions[0].label), objective)
