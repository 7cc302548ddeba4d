"""Certified optimal design under metric differential privacy at thousands of locations.

The problem is ``min Σ_{x,y} W[x, y] Q[x, y]`` (``W = prior ∘ cost``) over row-stochastic ``Q`` with
``Q[x, y] <= e^{ε d(x, x')} Q[x', y]`` for every pair and output: ``n² m`` rows, 8·10⁹ at 2,025
locations. Every column of ``Q`` lies in the same cone ``K`` (its logarithm is ε-Lipschitz), and only the
unit row sums couple the columns. :func:`design_metric_dp` solves it by

* **output generation**: a master LP over a few outputs' columns, grown by pricing the others;
* **lazy pair rows** in the master: after each solve, exact separation in numpy finds for every input
  and master column the most violated pair (``max_{x'} Q[x, y] − e^{ε d(x, x')} Q[x', y]``, over all
  pairs, or over a graph's edges, which are exact, :mod:`mechdesign.privacy.metric`); HiGHS's dual
  simplex re-solves from its basis;
* **a dual bound checked in numpy**: every pair row is a true constraint, so the master LP with any
  subset of them is a relaxation of the master; its safe bound at HiGHS's duals
  (:func:`~mechdesign.certificate.lp_lower_bound`) plus, for each output outside the master, a lower
  bound on ``min_{q ∈ K, q <= 1} (W[:, y] − u) · q`` is a lower bound on the optimum. That term comes
  from a feasible dual point too: a deficit ``r_x < 0`` is covered by flow on the pair ``(x, x')``,
  which raises ``r_x`` by λ and lowers a surplus ``r_{x'}`` by ``e^{ε d(x, x')} λ``
  (:func:`output_bound`); what stays negative is the bound. An output whose bound is negative
  enters the master.

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

import highspy
import numpy as np

from .._lazy import LazyFunction
from .._lazy import scipy_sparse as sp
from .._validate import as_budget, as_choice, as_positive_int, as_time_limit
from ..certificate import lp_lower_bound
from ..direct import HIGHS_OPTIONS
from ..exceptions import MechDesignError, ShapeMismatchError
from ..privacy.metric import MetricDifferentialPrivacy
from ..result import Result
from ..solvers import highs_model, quiet_highs, run_highs
from ..utility.distortion import ExpectedDistortion
from .certified import certified_result

shortest_path = LazyFunction("scipy.sparse.csgraph", "shortest_path")

#: The methods of :func:`design_metric_dp`.
METHODS = ("exact", "spanner")
#: A pair row enters the master when ``log Q[x, y] − log Q[x', y] − ε d(x, x')`` exceeds this (nats): HiGHS's
#: feasibility tolerance (1e-10, :data:`~mechdesign.direct.HIGHS_OPTIONS`) leaves rows it holds within it.
SEPARATION_LOG_ATOL = 1e-9
#: Master entries below this are zeros of the simplex (not basic), whose pairs the separation skips.
ENTRY_FLOOR = 1e-13
#: Outputs that enter the master per pricing round, at most.
OUTPUT_BATCH = 64
#: Passes of the flow that covers an output's deficits (:func:`output_bound`).
FLOW_PASSES = 12
#: The design stops when the certified bound is within this fraction of ``max(unit, |value|)`` of the master's
#: value (GAP_RTOL is 1e-7: the tail's re-measure and repair must still fit).
STOP_RTOL = 1e-9
#: Neighbours of each point in the spanner mechanism's graph.
SPANNER_NEIGHBOURS = 8


def output_bound(reduced: np.ndarray, scales: np.ndarray, passes: int = FLOW_PASSES) -> float:
    """A lower bound on ``min r · q`` over ``q`` in the d-privacy cone with ``0 <= q <= 1`` (module docstring).

    Parameters
    ----------
    reduced
        ``r``, an output's costs less the row-sum duals, ``(n,)``.
    scales
        ``e^{ε d}``, ``(n, n)`` (every pair's constraint).
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
        wanted = -r[deficit]
        drawn = np.bincount(cheapest, weights=rate * wanted, minlength=surplus.size)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(drawn > r[surplus], r[surplus] / drawn, 1.0)
        flow = wanted * share[cheapest]
        r[deficit] += flow
        r[surplus] -= np.bincount(cheapest, weights=rate * flow, minlength=surplus.size)
    return float(math.fsum(r[r < 0]))


class _Master:
    """The master LP: the columns of the outputs in ``self.outputs`` (block ``j`` holds output ``outputs[j]``'s
    ``n`` entries), the unit row sums, and the pair rows found so far, in one warm HiGHS model."""

    def __init__(self, weights: np.ndarray, log_scales: np.ndarray, edges: np.ndarray | None,
                 outputs: np.ndarray) -> None:
        self.weights, self.log_scales, self.edges = weights, log_scales, edges
        self.n = weights.shape[0]
        self.outputs = np.zeros(0, dtype=np.int64)
        self.pair_rows: list[np.ndarray] = []  # (x, x', block) triples
        self.highs = quiet_highs(HIGHS_OPTIONS)
        ones = np.ones(self.n)
        self.highs.passModel(highs_model(np.zeros(0), sp.csr_matrix((self.n, 0)), ones, ones, np.zeros(0), np.zeros(0)))
        self.add_outputs(outputs)

    def add_outputs(self, outputs: np.ndarray) -> None:
        """Append the columns of ``outputs`` (entries in ``[0, 1]``, one in each row sum)."""
        n, k = self.n, len(outputs)
        costs = self.weights[:, outputs].T.ravel()
        starts = np.arange(n * k, dtype=np.int32)
        rows = np.tile(np.arange(n, dtype=np.int32), k)
        self.highs.addCols(n * k, costs, np.zeros(n * k), np.ones(n * k), n * k, starts, rows, np.ones(n * k))
        self.outputs = np.concatenate([self.outputs, np.asarray(outputs, dtype=np.int64)])

    def solve(self) -> tuple[np.ndarray, np.ndarray, float]:
        """Solve (warm): the master's columns ``(n, k)``, the row duals and the value."""
        outcome = run_highs(self.highs)
        if not outcome.solved:
            self.highs.clearSolver()
            outcome = run_highs(self.highs)
            if not outcome.solved:
                raise MechDesignError(f"the metric-DP master LP failed: {outcome.note}")
        solution = self.highs.getSolution()
        columns = np.asarray(solution.col_value).reshape(len(self.outputs), self.n).T
        return columns, np.asarray(solution.row_dual), float(self.highs.getInfo().objective_function_value)

    def separate(self, columns: np.ndarray) -> int:
        """Add the most violated pair row of every (input, master column); the number added."""
        found = []
        for block in np.flatnonzero(columns.max(axis=0) > ENTRY_FLOOR):
            q = columns[:, block]
            with np.errstate(divide="ignore"):
                logs = np.log(np.where(q > ENTRY_FLOOR, q, 0.0))
            if self.edges is None:
                slack = self.log_scales + logs[None, :]  # log(e^{ε d(x, x')} q_x') for every x, x'
                partner = slack.argmin(axis=1)
                with np.errstate(invalid="ignore"):  # -inf - -inf: a zero entry against a zero is no violation
                    excess = logs - slack[np.arange(self.n), partner]
                inputs = np.flatnonzero(excess > SEPARATION_LOG_ATOL)
                partners = partner[inputs]
            else:
                first, second, log_scale = self.edges
                both_first, both_second = np.concatenate([first, second]), np.concatenate([second, first])
                with np.errstate(invalid="ignore"):
                    excess = logs[both_first] - logs[both_second] - np.concatenate([log_scale, log_scale])
                hit = excess > SEPARATION_LOG_ATOL
                inputs, partners = both_first[hit], both_second[hit]
            if inputs.size:
                found.append(np.column_stack([inputs, partners, np.full(inputs.size, block)]))
        if not found:
            return 0
        triples = np.concatenate(found)
        self.pair_rows.append(triples)
        count = len(triples)
        columns_of = triples[:, 2] * self.n
        scale = np.exp(self.log_scales[triples[:, 0], triples[:, 1]])
        indices = np.column_stack([columns_of + triples[:, 0], columns_of + triples[:, 1]]).ravel().astype(np.int32)
        values = np.column_stack([np.ones(count), -scale]).ravel()
        self.highs.addRows(count, np.full(count, -highspy.kHighsInf), np.zeros(count), 2 * count,
                           np.arange(0, 2 * count, 2, dtype=np.int32), indices, values)
        return count

    def bound(self, duals: np.ndarray) -> float:
        """The safe bound of the master LP at ``duals`` (:func:`~mechdesign.certificate.lp_lower_bound`)."""
        n, k = self.n, len(self.outputs)
        triples = np.concatenate(self.pair_rows) if self.pair_rows else np.zeros((0, 3), dtype=np.int64)
        count = len(triples)
        sums = sp.csr_matrix((np.ones(n * k), (np.tile(np.arange(n), k), np.arange(n * k))), shape=(n, n * k))
        scale = np.exp(self.log_scales[triples[:, 0], triples[:, 1]])
        rows = np.repeat(np.arange(count), 2)
        columns = np.column_stack([triples[:, 2] * n + triples[:, 0], triples[:, 2] * n + triples[:, 1]]).ravel()
        pairs = sp.csr_matrix((np.column_stack([np.ones(count), -scale]).ravel(), (rows, columns)), shape=(count, n * k))
        matrix = sp.vstack([sums, pairs]).tocsc()
        lower = np.concatenate([np.ones(n), np.full(count, -np.inf)])
        upper = np.concatenate([np.ones(n), np.zeros(count)])
        costs = self.weights[:, self.outputs].T.ravel()
        return lp_lower_bound(costs, matrix, lower, upper, np.zeros(n * k), np.ones(n * k), duals)


def _lazy_design(weights: np.ndarray, log_scales: np.ndarray, edges: tuple | None, time_limit: float | None,
                 progress: Callable[[int, int, str], Any] | None, start: float
                 ) -> tuple[np.ndarray, float, np.ndarray, int, str]:
    """Output generation with lazy pair rows (module docstring): the mechanism, its certified bound, the row-sum
    duals, the rounds and how it ended."""
    n, m = weights.shape
    scales = np.exp(log_scales)
    first = np.array([int(np.argmin(weights.sum(axis=0)))])  # the best constant mechanism's output
    master = _Master(weights, log_scales, edges, first)
    rounds, bound, ending = 0, -math.inf, "certified"
    while True:
        rounds += 1
        columns, duals, value = master.solve()
        if master.separate(columns):
            if time_limit is not None and time.perf_counter() - start > time_limit:
                ending = f"stopped at the time limit of {time_limit:g} s with pair rows still violated"
                break
            continue
        u = duals[:n]
        reduced = weights - u[:, None]
        outside = np.setdiff1d(np.arange(m), master.outputs)
        candidates = outside[reduced[:, outside].min(axis=0) < 0]
        terms = np.array([output_bound(reduced[:, y], scales) for y in candidates])
        bound = master.bound(duals) + float(math.fsum(terms))
        if progress is not None:
            progress(len(master.outputs), m, f"metric-DP design: {len(master.outputs)} outputs, gap {value - bound:.2e}")
        if value - bound <= STOP_RTOL * max(abs(value), float(np.abs(weights).max())) or not candidates.size:
            break
        if time_limit is not None and time.perf_counter() - start > time_limit:
            ending = f"stopped at the time limit of {time_limit:g} s"
            break
        order = np.argsort(terms)[:OUTPUT_BATCH]
        master.add_outputs(candidates[order[terms[order] < 0]] if (terms[order] < 0).any() else candidates[order])
    matrix = np.zeros((n, m))
    matrix[:, master.outputs] = columns
    return matrix, bound, duals[:n], rounds, ending


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
        nearest = np.argsort(d, axis=1)[:, 1:k + 1]
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
        ε per unit of distance (finite: ``e^{ε d}`` must fit float64 for every pair).
    objective
        An :class:`~mechdesign.utility.distortion.ExpectedDistortion` with any ``(n, m)`` cost; ``None``:
        the metric itself as cost (Euclidean quality loss for points) under ``prior``.
    prior
        The prior when ``objective`` is ``None``.
    method
        ``"exact"`` (the certified optimum) or ``"spanner"`` (the spanner mechanism: ε-d-private, faster to
        solve, not optimal; its gap to the optimum's bound is reported when the cost is square).
    time_limit
        Seconds after which the best mechanism so far is returned (``"suboptimal"`` if not certified).
    progress
        ``progress(outputs in the master, outputs, description)`` after every pricing round.

    Returns
    -------
    Result
        ``method`` ``"metric-lazy"`` or ``"metric-spanner"``; ``"optimal"`` when the bound certifies it.

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
    epsilon = as_budget(budget, f"budget for {notion.label}")
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
    notion.finite_scaled_budget(epsilon)  # e^{ε D} must fit float64 (the budget rule of every notion)
    weights = objective.prior.probabilities[:, None] * objective.cost
    if method == "spanner":
        edges, distances, dilation = spanner_distances(notion)
        log_scales = epsilon * distances / dilation
        pair_logs = log_scales[edges[:, 0], edges[:, 1]]
        matrix, _, duals, rounds, ending = _lazy_design(weights, log_scales, (edges[:, 0], edges[:, 1], pair_logs),
                                                        time_limit, progress, start)
        bound = dual_bound(weights, duals, np.exp(epsilon * notion.distances))
        work = (f"spanner mechanism: {len(edges)} edges of the {SPANNER_NEIGHBOURS}-nearest-neighbour graph at ε/δ, "
                f"dilation δ = {dilation:.6g} ({rounds} rounds, {ending}); bound on the optimum from the "
                "spanner LP's row-sum duals")
        return certified_result(notion, epsilon, objective, matrix, bound, work, start, method="metric-spanner",
                                solver="highs", iterations=rounds)
    first, second, pair_distances = notion.constraint_pairs()
    edges = None if notion.has_all_pairs else (first, second, epsilon * pair_distances)
    matrix, bound, _, rounds, ending = _lazy_design(weights, epsilon * notion.distances, edges, time_limit, progress,
                                                 start)
    work = f"output generation with lazy pair rows ({rounds} rounds, {ending})"
    return certified_result(notion, epsilon, objective, matrix, bound, work, start, method="metric-lazy",
                            solver="highs", iterations=rounds)


def dual_bound(weights: np.ndarray, duals: np.ndarray, scales: np.ndarray) -> float:
    """A lower bound on ``min Σ W∘Q`` under the d-privacy cone of ``scales`` (``e^{ε d}``) at any row-sum
    multipliers ``u``: ``Σ u`` plus every output's :func:`output_bound`.

    Examples
    --------
    Two points at ``e^{ε d} = 3``, Hamming cost under the uniform prior: the optimum is randomized response's
    1/4, and ``u = (1/4, 1/4)`` proves it:

    >>> weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    >>> dual_bound(weights, np.array([0.25, 0.25]), np.array([[1.0, 3.0], [3.0, 1.0]]))
    0.25
    """
    reduced = weights - np.asarray(duals, dtype=float)[:, None]
    terms = [output_bound(reduced[:, y], scales) for y in np.flatnonzero(reduced.min(axis=0) < 0)]
    return float(math.fsum(duals)) + float(math.fsum(terms))
