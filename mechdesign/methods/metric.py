"""Certified optimal design under metric differential privacy (d-privacy, geo-indistinguishability).

The problem is ``min Σ_{x,y} W[x, y] Q[x, y]`` (``W = prior ∘ cost``) over row-stochastic ``Q`` with
``Q[x, y] <= e^{ε d(x, x')} Q[x', y]`` for every pair and output: ``n² m`` rows, 8·10⁹ at 2,025
locations. Every column of ``Q`` lies in the same cone ``K`` (its logarithm is ε-Lipschitz), and only the
unit row sums couple the columns. :func:`design_metric_dp` solves it by

* **column generation over the cone**: the master LP holds a few columns ``(y, q)`` — ``q ∈ K`` placed in
  output ``y``'s column, any amount — under the unit row sums; every column it returns is in ``K``, so
  every mechanism it returns is ε-d-private, whatever the solver's accuracy (rebuilt in numpy);
* **exact pricing by the dual flow**: for the master's row-sum duals ``u`` and ``r = W[:, y] − u``,
  ``min_{q ∈ K, q <= 1} r · q`` is, by LP duality, minus the part of the deficits ``r_x < 0`` that a flow
  can cover from the surpluses ``r_{x'} > 0`` at ``e^{ε d(x, x')}`` per unit (a flow on the pair row
  ``(x, x')`` raises ``r_x`` by λ and lowers ``r_{x'}`` by ``e^{ε d(x, x')} λ``; by the triangle inequality
  a direct pair is never worse than a path). HiGHS solves that transport LP per output on arcs it generates
  until no left-out arc improves it (:func:`transport_pricing`); its duals give the entering column, made exactly
  a member of ``K`` (:func:`cone_closure`);
* **a dual bound checked in numpy**: the flow, made feasible in numpy, is a dual point of the full LP
  (``n² m`` pair rows) together with ``u``; ``Σ u + Σ_y Σ_x min(0, r'_{xy})`` is a rigorous lower bound
  (:func:`dual_bound`), and the design stops when it meets the master's value.

Columns are priced at the master's duals smoothed towards those of the best bound so far (Wentges), which
damps their oscillation. Measured (benchmarks/notes/2026-11-27-metric-dp.md): certified optima equal to the
full LP's and qif's; the 8 × 8 grid in 11–500 s by ε; the design does not reach thousands of locations.

The **spanner mechanism** (Bordenabe, Chatzikokolakis & Palamidessi, "Optimal geo-indistinguishable
mechanisms for location privacy", CCS 2014) constrains only the edges of a graph ``G`` at ``ε / δ``,
``δ = max_{x ≠ x'} d_G(x, x') / d(x, x')`` its dilation: chaining edges along a shortest path of ``G``
gives ``Q[x, y] <= e^{ε d_G(x, x') / δ} Q[x', y] <= e^{ε d(x, x')} Q[x', y]``, so it is ε-d-private,
but not optimal. Here ``G`` is the ``k``-nearest-neighbour graph and ``δ`` is computed exactly; the
design is the exact design for the metric ``d_G / δ`` (whose edges suffice).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .._lazy import scipy_sparse as sp
from .._validate import as_budget, as_choice, as_positive_int, as_time_limit
from .direct import HIGHS_OPTIONS
from ..exceptions import MechDesignError, ShapeMismatchError, SolverFailedError
from ..privacy.metric import MetricDifferentialPrivacy, shortest_path
from ..registry import solver_capability
from ..result import Result, clean_mechanism
from ..solvers import highs_model, quiet_highs, run_highs
from ..utility.distortion import ExpectedDistortion
from .certified import certified_result, failure_result, single_budget

#: The methods of :func:`design_metric_dp`.
METHODS = ("exact", "spanner")
#: Column entries below this are left out of HiGHS's copy of the master (the mechanism is rebuilt exactly).
ENTRY_FLOOR = 1e-13
#: A pattern enters the master when its reduced cost is below ``-PRICE_RTOL`` times the largest weight.
PRICE_RTOL = 1e-12
#: HiGHS options of the master over :data:`~mechdesign.methods.direct.HIGHS_OPTIONS`: the primal simplex, as added
#: columns keep the last solution feasible (16 × 16 grid, ε = 1, clustered prior: the master's 31 solves took 3.7 s
#: of CPU against 8.0 s with the dual simplex, the same rounds and optimum;
#: benchmarks/notes/2026-11-28-metric-dp-scale-2.md).
MASTER_OPTIONS = {**HIGHS_OPTIONS, "simplex_strategy": 4}
#: HiGHS options of the master's last tries when its solve fails cold too: the simplex it does not run (a line of 21
#: points at ε = 1e-6, columns e^{-εd} within 2e-5 of each other, was a "Solve error" of the dual simplex without
#: presolve; the primal simplex and presolve each solve it), then presolve. Every key is one of
#: :data:`MASTER_OPTIONS`, restored after the try; a try equal to the warm solves' options is skipped.
MASTER_RETRY_OPTIONS = ({"simplex_strategy": 1}, {"simplex_strategy": 4}, {"presolve": "on"})
#: Passes of the flow that covers an output's deficits (:func:`output_bound`).
FLOW_PASSES = 12
#: The design stops when the certified bound is within this fraction of ``max(unit, |value|)`` of the master's
#: value (GAP_RTOL is 1e-7: the tail's re-measure and repair must still fit).
STOP_RTOL = 1e-9
#: Weight of the best bound's duals in the point where columns are priced (Wentges' smoothing of the master's
#: oscillating duals).
SMOOTHING = 0.5
#: Neighbours of each point in the spanner mechanism's graph.
SPANNER_NEIGHBOURS = 8
#: Pair rates ``e^{ε d}`` above this are left out of the pricing flows (a flow on such a pair moves less than
#: 1e-12 of a surplus; leaving arcs out keeps every bound valid); HiGHS refuses matrix entries above 1e15.
MAX_RATE = 1e12
#: Arcs of each deficit in the pricing flow's first solve (:func:`transport_pricing`).
FIRST_ARCS = 4
#: A left-out arc of the pricing flow enters when its profit ``1 − α_x − e^{ε d} β_x'`` exceeds this (the flow
#: LP's arcs gain 1 each; HiGHS's dual feasibility tolerance is 1e-10).
ARC_TOL = 1e-9
#: HiGHS options of the pricing flow over :data:`~mechdesign.methods.direct.HIGHS_OPTIONS`: the primal simplex, as
#: added arcs keep the flow feasible (at 20 × 20, round 1: 8 ms per output against 18 ms with the dual simplex).
ARC_OPTIONS = {"simplex_strategy": 4}
#: ``ε d`` is capped here in the cone (ratios ``e^{min(ε d, cap)}`` are at most ``e^{ε d}``: a mechanism of the
#: capped cone is ε-d-private), so that huge budgets keep ``e^{ε d}`` finite and entries far above float64's
#: smallest normal number (e^-708) whatever the master's weights.
LOG_SCALE_CAP = 300.0


def output_bound(reduced: np.ndarray, scales: np.ndarray, passes: int = FLOW_PASSES) -> float:
    """A lower bound on ``min r · q`` over ``q`` in the d-privacy cone with ``0 <= q <= 1`` (module docstring).

    Parameters
    ----------
    reduced
        ``r``, an output's costs less the row-sum duals, ``(n,)``.
    scales
        ``e^{ε d}``, ``(n, n)`` (every pair's constraint; pairs above :data:`MAX_RATE` carry no flow).
    passes
        Rounds of the flow: each covers every deficit from its cheapest surplus, scaled down where a
        surplus would be overdrawn.

    Returns
    -------
    float
        ``Σ_x min(0, r'_x)`` for the flow's reduced costs ``r'`` (0 when every deficit is covered).

    Examples
    --------
    A deficit of 1 at input 0 and a surplus of 3 at input 1, where covering costs ``e^{ε d} = 2`` per unit:

    >>> scales = np.array([[1.0, 2.0], [2.0, 1.0]])
    >>> output_bound(np.array([-1.0, 3.0]), scales), output_bound(np.array([-1.0, 1.0]), scales)
    (0.0, -0.5)
    """
    r = np.array(reduced, dtype=float)
    for _ in range(passes):
        deficit, surplus = np.flatnonzero(r < 0), np.flatnonzero(r > 0)
        if not deficit.size or not surplus.size:
            break
        costs = scales[np.ix_(deficit, surplus)]
        cheapest = costs.argmin(axis=1)
        rate = costs[np.arange(deficit.size), cheapest]
        usable = rate <= MAX_RATE
        rate, wanted = np.where(usable, rate, 0.0), np.where(usable, -r[deficit], 0.0)
        drawn = np.bincount(cheapest, weights=rate * wanted, minlength=surplus.size)
        flow = wanted * _shrink(r[surplus], drawn)[cheapest]
        r[deficit] += flow
        r[surplus] -= np.bincount(cheapest, weights=rate * flow, minlength=surplus.size)
    return float(math.fsum(r[r < 0]))


def transport_pricing(reduced: np.ndarray, scales: np.ndarray, guess: np.ndarray | None = None,
                      previous: np.ndarray | None = None) -> tuple[float, np.ndarray | None]:
    """``min r · q`` over the d-privacy cone within the unit box, exactly, by its dual: the largest part of the
    deficits ``r_x < 0`` a flow covers from the surpluses ``r_{x'} > 0`` at ``e^{ε d(x, x')}`` a unit.

    The flow LP is solved on a few arcs, which grow until no left-out arc would improve it (**arc generation**):
    first each deficit's :data:`FIRST_ARCS` cheapest surpluses and each surplus's arc to the deficit where
    ``guess`` (or 1) divided by the rate is largest; then, after each solve, the arc of each surplus and of each
    deficit whose dual constraint ``α_x + e^{ε d(x, x')} β_{x'} >= 1`` is most violated (``α, β`` the rows' duals),
    until none is violated by more than :data:`ARC_TOL` — the restricted LP's optimum is then the full one's.
    When the value is negative every surplus with an arc to a deficit left uncovered is exhausted (what it had left
    could cover more), so the flow needs about one arc per surplus: at 20 × 20 a tenth to a quarter of the
    ``deficits × surpluses`` arcs (benchmarks/notes/2026-11-28-metric-dp-scale-2.md). Added arcs keep the flow
    feasible, so HiGHS's primal simplex re-solves warm.

    The flow is HiGHS's, made feasible in numpy; its bound term ``Σ_x min(0, r'_x)`` (``r'``: the reduced costs
    after the flow) is a valid lower bound whatever its accuracy and whichever arcs it has. The minimizing vertex
    ``e^{-ε d(·, T)}`` comes from the flow LP's duals.

    Parameters
    ----------
    reduced
        ``r``, ``(n,)``.
    scales
        ``e^{ε d}``, ``(n, n)``.
    guess
        A cone member near the expected vertex (the output's last column), ``(n,)``, or ``None``; it only
        chooses the first arcs.
    previous
        ``(k, 2)`` input pairs ``(deficit, surplus)`` that carried flow in the output's last pricing
        (:func:`_transport`'s third value), or ``None``: those still joining a deficit to a surplus are among the
        first arcs too (fewer generation rounds; the optimum is the same).

    Returns
    -------
    term, column
        The bound term (``<= 0``) and the minimizing vertex, made exactly a member of the cone by
        :func:`cone_closure` (``None`` when no input has a deficit).

    Examples
    --------
    A deficit of 1 at input 0 against a surplus of 1 at input 1, at ``e^{ε d} = 2``: half is covered,
    and the vertex is ``q = (1, 1/2)``, ``T = {0}``:

    >>> term, column = transport_pricing(np.array([-1.0, 1.0]), np.array([[1.0, 2.0], [2.0, 1.0]]))
    >>> term, column.tolist()
    (-0.5, [1.0, 0.5])
    """
    return _transport(reduced, scales, guess, previous)[:2]


def _transport(reduced: np.ndarray, scales: np.ndarray, guess: np.ndarray | None, previous: np.ndarray | None
               ) -> tuple[float, np.ndarray | None, np.ndarray]:
    """:func:`transport_pricing`, and the ``(deficit, surplus)`` input pairs of the arcs carrying flow at the end
    (its ``previous`` at the output's next pricing)."""
    none = np.zeros((0, 2), dtype=np.int64)
    deficit, surplus = np.flatnonzero(reduced < 0), np.flatnonzero(reduced > 0)
    if not deficit.size or output_bound(reduced, scales) == 0.0:  # every deficit covered: the minimum is q = 0
        return 0.0, None, none
    if not surplus.size:
        return float(math.fsum(reduced[deficit])), np.ones(reduced.size), none
    a, b = deficit.size, surplus.size
    rates = scales[np.ix_(deficit, surplus)]
    usable = rates <= MAX_RATE  # the others carry no flow: a valid, barely weaker bound
    upper = np.concatenate([-reduced[deficit], reduced[surplus]])
    first = min(FIRST_ARCS, b)
    chosen = np.zeros((a, b), dtype=bool)
    chosen[np.repeat(np.arange(a), first), np.argpartition(rates, first - 1, axis=1)[:, :first].ravel()] = True
    weight = np.ones(a) if guess is None else guess[deficit]
    chosen[np.argmax(weight[:, None] / rates, axis=0), np.arange(b)] = True
    if previous is not None and previous.size:
        at = np.full((2, reduced.size), -1)
        at[0, deficit], at[1, surplus] = np.arange(a), np.arange(b)
        lines, columns = at[0, previous[:, 0]], at[1, previous[:, 1]]
        still = (lines >= 0) & (columns >= 0)
        chosen[lines[still], columns[still]] = True
    new = np.flatnonzero((chosen & usable).ravel())
    highs = quiet_highs({**HIGHS_OPTIONS, **ARC_OPTIONS})
    highs.passModel(highs_model(np.zeros(0), sp.csr_matrix((a + b, 0)), np.full(a + b, -np.inf), upper,
                                np.zeros(0), np.zeros(0)))
    # No usable arc at all: no flow, and q is 1 on the deficits and as small as the cone allows elsewhere.
    arcs, solved_flow, duals = np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(a + b)
    while new.size:
        k = new.size
        rows = np.column_stack([new // b, a + new % b])  # every arc: its deficit's row, then its surplus's
        highs.addCols(k, -np.ones(k), np.zeros(k), np.full(k, np.inf), 2 * k, np.arange(0, 2 * k, 2, dtype=np.int32),
                      rows.ravel().astype(np.int32), np.column_stack([np.ones(k), rates.ravel()[new]]).ravel())
        arcs = np.concatenate([arcs, new])
        if not run_highs(highs).solved:
            return output_bound(reduced, scales), None, none
        solution = highs.getSolution()
        # The rows' duals are ≤ 0 (≤ rows of a minimization): α = −duals[:a], β = −duals[a:].
        solved_flow, duals = np.asarray(solution.col_value), np.asarray(solution.row_dual)
        profit = 1.0 + duals[:a, None] + rates * duals[None, a:]  # 1 − α_x − e^{ε d} β_{x'}: > 0 where violated
        profit.ravel()[arcs] = 0.0
        violated = (profit > ARC_TOL) & usable
        if not violated.any():
            break
        # Each surplus's and each deficit's most violated arc, measured on the cone constraint q_x <= e^{ε d} q_x'
        # (q_x = 1 − α_x, q_x' = β_x'): (1 − α_x) / e^{ε d} − β_x'. (The arc's profit would rank a surplus with
        # β = 0 the same at every deficit, however costly: arcs of rate 5e11 entered, and HiGHS ended "Unknown".)
        excess = np.where(violated, (1.0 + duals[:a, None]) / rates + duals[None, a:], -np.inf)
        columns, lines = np.flatnonzero(violated.any(axis=0)), np.flatnonzero(violated.any(axis=1))
        new = np.unique(np.concatenate([np.argmax(excess[:, columns], axis=0) * b + columns,
                                        lines * b + np.argmax(excess[lines], axis=1)]))
    carrying = arcs[solved_flow > 0]
    pairs = np.column_stack([deficit[carrying // b], surplus[carrying % b]])
    flow = np.zeros(a * b)
    flow[arcs] = np.maximum(solved_flow, 0.0)
    flow = flow.reshape(a, b)
    rates = np.where(usable, rates, 0.0)
    flow *= _shrink(upper[:a], flow.sum(axis=1))[:, None]  # no deficit overfilled
    flow *= _shrink(upper[a:], (rates * flow).sum(axis=0))[None, :]  # no surplus overdrawn
    after = np.array(reduced, dtype=float)
    after[deficit] += flow.sum(axis=1)
    after[surplus] -= (rates * flow).sum(axis=0)
    q = np.ones(reduced.size)  # inputs of zero reduced cost are free: the closure below sets them
    q[deficit] = 1.0 + duals[:a]  # 1 − α, α = −dual (HiGHS's duals of ≤ rows in a minimization are ≤ 0)
    q[surplus] = -duals[a:]
    # Inputs no kept arc reaches (rates above MAX_RATE) get no dual: 0, whose lower closure would be the zero column.
    # Lifted first to the least cone member above (the smallest values the cone lets them take).
    return (float(math.fsum(after[after < 0])), cone_closure(cone_lift(np.clip(q, 0.0, 1.0), scales), scales),
            pairs)


def _shrink(capacity: np.ndarray, load: np.ndarray) -> np.ndarray:
    """``min(1, capacity / load)`` (1 where nothing is loaded)."""
    share = np.ones(load.size)
    over = load > capacity
    share[over] = capacity[over] / load[over]
    return share


def cone_closure(q: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """The largest vector below ``q`` in the d-privacy cone: ``min_z q_z e^{ε d(·, z)}`` (its logarithm is the
    least of ε-Lipschitz functions, hence ε-Lipschitz).

    Examples
    --------
    >>> cone_closure(np.array([1.0, 0.1]), np.array([[1.0, 2.0], [2.0, 1.0]])).tolist()
    [0.2, 0.1]
    """
    return (scales * q[None, :]).min(axis=1)


def cone_lift(q: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """The least vector above ``q`` in the d-privacy cone: ``max_z q_z e^{-ε d(·, z)}`` (its logarithm is the
    largest of ε-Lipschitz functions, hence ε-Lipschitz; at most ``max q``).

    Examples
    --------
    An input with no value of its own (0) gets the least the cone allows beside the other:

    >>> cone_lift(np.array([1.0, 0.0]), np.array([[1.0, 4.0], [4.0, 1.0]])).tolist()
    [1.0, 0.25]
    """
    return (q[None, :] / scales).max(axis=1)


class _Master:
    """The master LP over columns of the d-privacy cone: column ``(y, q)`` puts ``q`` in output ``y``'s column at
    cost ``W[:, y] · q``; rows are the unit row sums. One warm HiGHS model; the mechanism is rebuilt in numpy from
    the exact columns."""

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = weights
        self.n = weights.shape[0]
        self.patterns: list[tuple[int, np.ndarray]] = []
        #: ``(output, column bytes)`` of every pattern: one priced again at unchanged duals does not enter twice
        #: (HiGHS's dual tolerance, 1e-10, can leave a reduced cost of -1e-11 unpivoted: the rounds cycled forever).
        self.keys: set[tuple[int, bytes]] = set()
        #: The options of the warm solves: :data:`MASTER_OPTIONS` until :meth:`to_dual_simplex`.
        self.options = dict(MASTER_OPTIONS)
        self.highs = quiet_highs(self.options)
        ones = np.ones(self.n)
        self.highs.passModel(highs_model(np.zeros(0), sp.csr_matrix((self.n, 0)), ones, ones, np.zeros(0), np.zeros(0)))

    def add(self, patterns: list[tuple[int, np.ndarray]]) -> None:
        """Append ``(output, column)`` patterns (entries below :data:`ENTRY_FLOOR` left out of HiGHS's copy,
        whose row sums they move by less than its tolerance)."""
        block = np.column_stack([column for _, column in patterns])
        costs = np.einsum("ij,ij->j", self.weights[:, [y for y, _ in patterns]], block)
        columns = sp.csc_matrix(np.where(block >= ENTRY_FLOOR, block, 0.0))
        self.highs.addCols(len(patterns), costs, np.zeros(len(patterns)), np.full(len(patterns), np.inf), columns.nnz,
                           columns.indptr[:-1].astype(np.int32), columns.indices.astype(np.int32), columns.data)
        self.patterns += patterns
        self.keys.update((y, column.tobytes()) for y, column in patterns)

    def solve(self) -> tuple[np.ndarray, np.ndarray, float]:
        """Solve (warm; then cold, then cold with each of :data:`MASTER_RETRY_OPTIONS`): the patterns' weights, the
        row duals and the value."""
        outcome = run_highs(self.highs)
        for options in ({}, *MASTER_RETRY_OPTIONS):
            if outcome.solved:
                break
            if options and all(self.options[name] == value for name, value in options.items()):
                continue
            self.highs.clearSolver()
            for name, value in options.items():
                self.highs.setOptionValue(name, value)
            outcome = run_highs(self.highs)
            for name in options:  # back to the design's options for the next warm solve
                self.highs.setOptionValue(name, self.options[name])
        if not outcome.solved:
            raise SolverFailedError(f"the metric-DP master LP failed: {outcome.note}")
        solution = self.highs.getSolution()
        return (np.asarray(solution.col_value), np.asarray(solution.row_dual),
                float(self.highs.getInfo().objective_function_value))

    def to_dual_simplex(self) -> bool:
        """Solve with HiGHS's dual simplex from now on (from a cold start at the next solve); ``False`` if it
        already does. Where no pattern enters but the bound leaves a gap, the primal simplex's duals may be the
        cause (the line of :data:`MASTER_RETRY_OPTIONS` at ε = 1e-6: a gap of 1.2e-5 at its duals, none at the
        dual simplex's)."""
        if self.options["simplex_strategy"] == 1:
            return False
        self.options["simplex_strategy"] = 1
        self.highs.setOptionValue("simplex_strategy", 1)
        self.highs.clearSolver()
        return True

    def mechanism(self, weights: np.ndarray, m: int) -> np.ndarray:
        """``Q[:, y] = Σ λ_{y, q} q`` over the patterns in use."""
        matrix = np.zeros((self.n, m))
        for (y, column), weight in zip(self.patterns, weights):
            if weight > 0:
                matrix[:, y] += weight * column
        return matrix


def _pattern_design(weights: np.ndarray, log_scales: np.ndarray, time_limit: float | None,
                    progress: Callable[[int, int, str], Any] | None, start: float
                    ) -> tuple[np.ndarray, float, np.ndarray, int, str]:
    """Column generation over the cone's vertices, priced exactly (module docstring): the mechanism, its certified
    bound, the row-sum duals, the rounds and how it ended."""
    n, m = weights.shape
    scales = np.exp(log_scales)
    master = _Master(weights)
    seeds = [(int(np.argmin(weights.sum(axis=0))), np.ones(n))]  # the best constant mechanism
    if m == n:  # the Laplace-shaped columns e^{-ε d(·, y)} of every output y
        seeds += [(y, np.exp(-log_scales[:, y])) for y in range(n)]
    master.add(seeds)
    scale = float(np.abs(weights).max())
    rounds, ending, bound, best = 0, "certified", -math.inf, None
    latest: dict[int, np.ndarray] = {}  # each output's last priced vertex: the first arcs of its next pricing
    carried: dict[int, np.ndarray] = {}  # each output's arcs that carried flow: first arcs of its next pricing too
    while True:
        rounds += 1
        values, duals, value = master.solve()
        # Price at the duals smoothed towards those of the best bound (Wentges); if no column found there improves
        # the master at its own duals, price at those.
        for point in ([duals] if best is None else [SMOOTHING * best + (1 - SMOOTHING) * duals, duals]):
            terms, found = [], []
            reduced = weights - point[:, None]
            for y in np.flatnonzero(reduced.min(axis=0) < 0):
                term, column, carried[int(y)] = _transport(reduced[:, y], scales, latest.get(int(y)),
                                                           carried.get(int(y)))
                terms.append(term)
                if column is not None:
                    latest[int(y)] = column
                if (column is not None and (weights[:, y] - duals) @ column < -PRICE_RTOL * scale
                        and (int(y), column.tobytes()) not in master.keys):
                    found.append((int(y), column))
            candidate = float(math.fsum(point)) + float(math.fsum(terms))
            if candidate > bound:
                bound, best = candidate, point
            if found:
                break
        if progress is not None:
            progress(rounds, rounds + 1, f"metric-DP design: {len(master.patterns)} patterns, gap {value - bound:.2e}")
        # The weights are in units of the largest cost: the certificate's gap is relative to max(1, |value|).
        if value - bound > STOP_RTOL * max(1.0, abs(value)) and not found and master.to_dual_simplex():
            continue  # the same master again, at the dual simplex's duals
        if value - bound <= STOP_RTOL * max(1.0, abs(value)) or not found:
            if value - bound > STOP_RTOL * max(1.0, abs(value)):
                ending = "no new pattern enters, but the flow bound leaves a gap"
            break
        if time_limit is not None and time.perf_counter() - start > time_limit:
            ending = f"stopped at the time limit of {time_limit:g} s"
            break
        master.add(found)
    # HiGHS's row sums hold to its feasibility tolerance (1 + 1.4e-9 was seen): cleaned like every solver's point
    return clean_mechanism(master.mechanism(values, m)), bound, duals if best is None else best, rounds, ending


def spanner_distances(notion: MetricDifferentialPrivacy, neighbours: int = SPANNER_NEIGHBOURS
                      ) -> tuple[np.ndarray, np.ndarray, float]:
    """The ``neighbours``-nearest-neighbour graph of the notion's metric (made connected), its edges and dilation.

    Returns
    -------
    edges, distances, dilation
        ``(K, 2)`` edges, the graph's shortest-path distances ``d_G`` and ``δ = max d_G / d``.

    Examples
    --------
    The 8 neighbours of each point of a grid give the dilation ``(1 + √2) / √5`` of the knight's move:

    >>> edges, distances, dilation = spanner_distances(MetricDifferentialPrivacy.grid(4, 4), 8)
    >>> round(dilation, 6) == round((1 + math.sqrt(2)) / math.sqrt(5), 6)
    True
    """
    d = notion.distances
    n = d.shape[0]
    k = min(as_positive_int(neighbours, "neighbours"), n - 1)
    while True:
        nearest = np.argsort(d, axis=1, kind="stable")[:, 1:k + 1]
        edges = np.unique(np.sort(np.column_stack([np.repeat(np.arange(n), k), nearest.ravel()]), axis=1), axis=0)
        graph = sp.coo_matrix((d[edges[:, 0], edges[:, 1]], (edges[:, 0], edges[:, 1])), shape=(n, n)).tocsr()
        distances = shortest_path(graph, directed=False)
        if np.isfinite(distances).all():
            break
        k = min(2 * k, n - 1)
    off = ~np.eye(n, dtype=bool)
    return edges, distances, float((distances[off] / d[off]).max()) if n > 1 else 1.0


def design_metric_dp(notion: MetricDifferentialPrivacy, budget: float, objective: ExpectedDistortion | None = None,
                     *, prior: Any = None, method: str = "exact", time_limit: float | None = None,
                     progress: Callable[[int, int, str], Any] | None = None) -> Result:
    """The mechanism of least expected distortion under ε-d-privacy, certified (module docstring).

    Parameters
    ----------
    notion
        The metric.
    budget
        ε per unit of distance, ``>= 0``: 0 gives the best constant mechanism, ``inf`` (or any budget the
        unconstrained optimum meets) each input to its cheapest output; ``ε d`` beyond :data:`LOG_SCALE_CAP` is
        solved at the cap (a stricter constraint, certified against the unconstrained optimum's value).
    objective
        An :class:`~mechdesign.utility.distortion.ExpectedDistortion` with any ``(n, m)`` cost; ``None``:
        the metric itself as cost (Euclidean quality loss for points) under ``prior``.
    prior
        The prior when ``objective`` is ``None``.
    method
        ``"exact"`` (the certified optimum) or ``"spanner"`` (the spanner mechanism: ε-d-private, not optimal,
        a baseline — the same column generation on the metric ``d_G / δ``, no faster; its result carries a bound on
        the exact optimum).
    time_limit
        Seconds after which the best mechanism so far is returned (``"suboptimal"`` if not certified).
    progress
        ``progress(outputs in the master, outputs, description)`` after every pricing round.

    Returns
    -------
    Result
        ``method`` ``"metric-cone"`` or ``"metric-spanner"``; ``"optimal"`` when the bound certifies it.

    Examples
    --------
    Three points on a line, uniform prior, ε = 1 per unit, the line metric as loss:

    >>> from mechdesign import Prior
    >>> notion = MetricDifferentialPrivacy.from_points([0.0, 1.0, 2.0])
    >>> result = design_metric_dp(notion, 1.0, prior=Prior.uniform(3))
    >>> result.status, round(notion.measure(result.mechanism), 6) <= 1.0
    ('optimal', True)
    """
    start = time.perf_counter()
    if not isinstance(notion, MetricDifferentialPrivacy):
        raise MechDesignError(f"notion must be a MetricDifferentialPrivacy, got {notion!r}")
    epsilon = as_budget(budget, f"budget for {notion.label}", infinite=True)
    method = as_choice(method, METHODS, "method")
    time_limit = as_time_limit(time_limit)
    if objective is None:
        if prior is None:
            raise MechDesignError("design_metric_dp needs an objective or a prior")
        objective = ExpectedDistortion(prior, notion.distances)
    elif not isinstance(objective, ExpectedDistortion):
        raise MechDesignError(f"objective must be an ExpectedDistortion, got {objective!r}")
    if objective.shape[0] != notion.n_inputs:
        raise ShapeMismatchError(f"the objective has {objective.shape[0]} inputs, {notion.label} {notion.n_inputs}")
    # Solved in units of the largest cost (as DesignProblem does): the cost's scale never changes the answer.
    solved = objective.rescaled(1.0 / objective.unit)
    weights = solved.prior.probabilities[:, None] * solved.cost
    shortcut = _closed_form(notion, epsilon, solved)
    if shortcut is not None:
        matrix, work = shortcut
        return certified_result(notion, epsilon, objective, matrix, objective.value(matrix), work, start,
                                method="metric-spanner" if method == "spanner" else "metric-cone", solver="")
    try:
        return _design(notion, epsilon, objective, weights, method, time_limit, progress, start)
    except SolverFailedError as exc:  # a solver failure is a failed result, never bad input
        return failure_result("solver_error", str(exc), start, budgets={notion.label: epsilon},
                              method="metric-spanner" if method == "spanner" else "metric-cone", solver="highs")


def _closed_form(notion: MetricDifferentialPrivacy, epsilon: float, objective: ExpectedDistortion
                 ) -> tuple[np.ndarray, str] | None:
    """The optimum where it needs no LP, with how it was found: at ε = 0 every row is the same (distinct points are
    at positive distance), so the best constant mechanism; at a budget the unconstrained optimum meets (every
    finite one when ε = inf), that optimum. ``None`` otherwise.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> notion, objective = MetricDifferentialPrivacy.from_points([0.0, 1.0]), ExpectedDistortion(Prior.uniform(2))
    >>> _closed_form(notion, 0.0, objective)[0].tolist(), _closed_form(notion, math.inf, objective)[0].tolist()
    ([[1.0, 0.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]])
    >>> _closed_form(notion, 1.0, objective) is None
    True
    """
    n, m = objective.shape
    if epsilon == 0.0:
        matrix = np.zeros((n, m))
        matrix[:, int(np.argmin(objective.prior.probabilities @ objective.cost))] = 1.0
        return matrix, "ε = 0: every row the same, the best constant mechanism (exact)"
    matrix = objective.unconstrained_optimum()
    if notion.measure(matrix) <= epsilon:
        return matrix, "the unconstrained optimum (every input to its cheapest output) meets the budget (exact)"
    return None


def _log_scales(distances: np.ndarray, epsilon: float) -> np.ndarray:
    """``min(ε d, LOG_SCALE_CAP)``: the logarithms of the cone's ratios, ``ε d`` where it fits (module constants).

    Examples
    --------
    >>> _log_scales(np.array([[0.0, 1.0], [1.0, 0.0]]), 1e4).tolist()
    [[0.0, 300.0], [300.0, 0.0]]
    """
    return np.minimum(epsilon * distances, LOG_SCALE_CAP)


def _design(notion: MetricDifferentialPrivacy, epsilon: float, objective: ExpectedDistortion, weights: np.ndarray,
            method: str, time_limit: float | None, progress: Callable[[int, int, str], Any] | None,
            start: float) -> Result:
    """:func:`design_metric_dp` on validated input (a master-LP failure raises :class:`SolverFailedError`)."""
    unit = objective.unit
    capped = (f"; ε d capped at {LOG_SCALE_CAP:g} (a stricter constraint) beyond d = {LOG_SCALE_CAP / epsilon:.6g}"
              if epsilon * notion.largest_distance > LOG_SCALE_CAP else "")
    if method == "spanner":
        edges, distances, dilation = spanner_distances(notion)
        matrix, _, duals, rounds, ending = _pattern_design(weights, _log_scales(distances / dilation, epsilon),
                                                           time_limit, progress, start)
        bound = dual_bound(weights, duals, np.exp(_log_scales(notion.distances, epsilon)))
        work = (f"spanner mechanism: {len(edges)} edges of the {SPANNER_NEIGHBOURS}-nearest-neighbour graph at ε/δ, "
                f"dilation δ = {dilation:.6g} ({rounds} rounds, {ending}{capped}); bound on the optimum from the "
                "spanner LP's row-sum duals")
        return certified_result(notion, epsilon, objective, matrix, bound * unit, work, start,
                                method="metric-spanner", solver="highs", iterations=rounds)
    matrix, bound, _, rounds, ending = _pattern_design(weights, _log_scales(notion.distances, epsilon), time_limit,
                                                       progress, start)
    work = f"column generation over the cone's vertices ({rounds} rounds, {ending}{capped})"
    return certified_result(notion, epsilon, objective, matrix, bound * unit, work, start, method="metric-cone",
                            solver="highs", iterations=rounds)


def applies(notions: Any, objective: Any, limits: Any) -> bool:
    """Whether :func:`design_metric` solves the problem: one :class:`MetricDifferentialPrivacy`, an
    :class:`~mechdesign.utility.distortion.ExpectedDistortion` on its inputs, no limits.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> notion = MetricDifferentialPrivacy.grid(2, 1)
    >>> applies([notion], ExpectedDistortion(Prior.uniform(2)), []), applies([notion], None, [])
    (True, False)
    """
    return (len(notions) == 1 and solver_capability(notions[0], "metric_cone") is not None and not limits
            and isinstance(objective, ExpectedDistortion) and objective.shape[0] == notions[0].n_inputs)


def design_metric(notions: Any, budgets: Any, objective: ExpectedDistortion) -> Result:
    """:func:`design_metric_dp` for a problem :func:`applies` accepts (the form of ``design()``'s methods).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> notion = MetricDifferentialPrivacy.from_points([0.0, 1.0])
    >>> design_metric([notion], [1.0], ExpectedDistortion(Prior.uniform(2))).method
    'metric-cone'
    """
    return design_metric_dp(notions[0], single_budget(budgets, notions[0].label), objective)


def dual_bound(weights: np.ndarray, duals: np.ndarray, scales: np.ndarray) -> float:
    """A lower bound on ``min Σ W∘Q`` under the d-privacy cone of ``scales`` (``e^{ε d}``) at any row-sum
    multipliers ``u``: ``Σ u`` plus every output's :func:`transport_pricing` term.

    Examples
    --------
    Two points at ``e^{ε d} = 3``, Hamming cost under the uniform prior: the optimum is randomized response's
    1/4, and ``u = (1/8, 1/8)`` proves it:

    >>> weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    >>> dual_bound(weights, np.array([0.125, 0.125]), np.array([[1.0, 3.0], [3.0, 1.0]]))
    0.25
    """
    reduced = weights - np.asarray(duals, dtype=float)[:, None]
    terms = [transport_pricing(reduced[:, y], scales)[0] for y in np.flatnonzero(reduced.min(axis=0) < 0)]
    return float(math.fsum(duals)) + float(math.fsum(terms))
