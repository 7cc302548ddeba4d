"""Design under hockey-stick (ε, δ)-DP: a certified sandwich first, lazy constraint generation otherwise.

The hockey-stick form of (ε, δ)-DP (Dwork & Roth, "The Algorithmic Foundations of Differential
Privacy", Definition 2.4, on a finite output space) asks ``Σ_y max(0, Q[i, y] − e^ε Q[j, y]) <= δ``
for every ordered neighbour pair ``(i, j)``.

**Sandwich** (:func:`sandwich`, complete relation). Two ``O(n m)`` LPs bracket the optimum: the
restriction :func:`leak_restriction` (``Q = P + L``, ``P`` ε-DP, each row's leak ``L`` of mass at most
δ: a hockey-stick mechanism) from above, and the pointwise form ``Q[x, y] <= e^ε Q[x', y] + δ`` (implied
by the hockey-stick form) from below, through its certified LP bound and, better,
:func:`hockey_stick_dual_bound` at its multipliers (each pair charged ``δ max_y μ`` instead of
``δ Σ_y μ``). When they meet within ``GAP_RTOL`` the restriction's mechanism is optimal. With Hamming
cost they met in every case measured (n = 20 … 200, ε ∈ {0.5, 1, 2}, δ ∈ {10⁻³, 10⁻²}); with random
costs they usually do not (benchmarks/RESULTS.md), and constraint generation runs.

**Constraint generation.** The hinge sum is the largest of the linear forms
``Σ_{y ∈ S} (Q[i, y] − e^ε Q[j, y])`` over output subsets ``S``, so the constraint is equivalent to the
*subset cuts*

    Σ_{y ∈ S} Q[i, y] − e^ε Σ_{y ∈ S} Q[j, y] <= δ      for every pair (i, j) and every S,

and for a given ``Q`` the most violated cut of a pair is ``S = {y : Q[i, y] > e^ε Q[j, y]}``, whose
left side is the pair's hockey-stick divergence. The full problem has ``n (n − 1) 2^m`` such cuts
(or, with hinge auxiliaries, ``n (n − 1) m`` variables: 8·10⁶ at n = 200); only few are active at the
optimum. Here the LP lives in one HiGHS model holding the row sums and a working set of cuts; each
round computes every pair's divergence exactly in numpy
(:func:`~mechdesign.privacy.approx_dp.pair_divergences`), adds the most violated pairs' cuts as rows,
and re-solves by the dual simplex from the previous basis, until every divergence is within
:data:`CUT_TOLERANCE` of δ — or until ``time_limit`` (:data:`CUTS_TIME_LIMIT` by default) runs out: the
rounds' LPs grow degenerate with random costs beyond n ≈ 40, and the result is then the restriction's
private mechanism with the best certified bound, ``"suboptimal"`` with its gap.

Certificate: the pointwise LP and the working-set LP are relaxations of the full problem (they keep
constraints it implies), so the safe bound :func:`~mechdesign.certificate.lp_lower_bound` at HiGHS's
duals is a lower bound on the full optimum. The final mechanism is cleaned, re-measured with the
notion's own numpy measure (and repaired by mixing in the constant mechanism if round-off needs it,
through :func:`~mechdesign.result.certify_mechanism`), and reported ``"optimal"`` only when the bound is
within ``GAP_RTOL`` of its objective.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, Union

import highspy
import numpy as np
from .._lazy import scipy_sparse as sp
from .._validate import (as_budget, as_cost_matrix, as_delta, as_finite, as_instance, as_real_array,
                         as_time_limit)

from ..certificate import lp_lower_bound
from .direct import HIGHS_OPTIONS, ApproximateDpLinearProgram
from ..exceptions import MechDesignError
from ..privacy.approx_dp import ApproximateDifferentialPrivacy, pair_divergences
from ..privacy.base import PrivacyNotion
from ..registry import solver_capability
from ..result import Result, clean_mechanism, is_certified_optimal
from ..solvers import highs_model, quiet_highs, run_highs
from ..utility.base import Objective
from ..utility.distortion import ExpectedDistortion
from .certified import certified_result, failure_result, single_budget

#: A pair's cut is added when its divergence exceeds δ by more than this; rounds stop when none does.
CUT_TOLERANCE = 1e-9
#: Most cuts added per round, as a multiple of the number of inputs (the most violated pairs first).
CUTS_PER_INPUT = 4
#: Rounds before constraint generation gives up (the result then says so; never reached in the tests).
MAX_ROUNDS = 500
#: Default seconds for constraint generation (:func:`design_hockey_stick`'s ``time_limit``): beyond it
#: the restriction's private mechanism is returned with the best certified bound, as ``"suboptimal"``.
#: Random costs at n = 60 need rounds of 10–130 s each (benchmarks/RESULTS.md); Hamming costs at n = 40
#: certify in under 5 s.
CUTS_TIME_LIMIT = 60.0
#: Rows of the pairwise multiplier array handled at once by :func:`hockey_stick_dual_bound`
#: (``rows × n × m`` entries).
PAIR_BLOCK_ENTRIES = 2_000_000
#: Largest ``e^ε`` the cuts are written with; larger budgets are solved at ``log`` of it (a mechanism within
#: the smaller budget is within the one asked) and certified by the unconstrained optimum's value.
MAX_CUT_SCALE = 1e12
#: Smallest number of inputs routed here by :func:`~mechdesign.solve.design`; below it the cvxpy path with
#: hinge auxiliaries is as fast (benchmarks/hockey_stick.py, benchmarks/RESULTS.md).
MIN_INPUTS = 8


def applies(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]], objective: Objective,
            limits: Sequence[Any] = ()) -> bool:
    """Whether :func:`design_hockey_stick` handles the problem, and whether ``design`` should route it here.

    One :class:`~mechdesign.privacy.approx_dp.ApproximateDifferentialPrivacy` in its ``"hockey_stick"``
    variant, an :class:`~mechdesign.utility.distortion.ExpectedDistortion` objective, no limits, and
    at least :data:`MIN_INPUTS` inputs.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> applies(ApproximateDifferentialPrivacy(0.1, "hockey_stick"), ExpectedDistortion(Prior.uniform(10)))
    True
    >>> applies(ApproximateDifferentialPrivacy(0.1), ExpectedDistortion(Prior.uniform(10)))  # pointwise
    False
    """
    return _hockey_stick_notion(notions, objective, limits) is not None and objective.shape[0] >= MIN_INPUTS


def _hockey_stick_notion(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]], objective: Objective,
                         limits: Sequence[Any] = ()) -> ApproximateDifferentialPrivacy | None:
    """The one hockey-stick notion of a problem this module solves (any size), else ``None``."""
    notion_list = [notions] if isinstance(notions, PrivacyNotion) else list(notions)
    if limits or len(notion_list) != 1 or type(objective) is not ExpectedDistortion:
        return None
    notion = notion_list[0]
    if solver_capability(notion, "hockey_stick_cuts") is None or notion.variant != "hockey_stick":
        return None
    return notion


def leak_restriction(weights: np.ndarray, scale: float, delta: float) -> np.ndarray | None:
    """``argmin Σ W ∘ Q`` over the mechanisms ``Q = P + L`` with ``P`` ε-DP and ``L >= 0`` of row sums ``<= δ``.

    Every such ``Q`` meets hockey-stick (ε, δ)-DP for every pair ``(i, j)`` (any neighbour relation):
    ``P[i, y] <= e^ε P[j, y]`` gives ``Q[i, y] − e^ε Q[j, y] <= L[i, y]`` for each output, so the
    divergence is at most ``Σ_y L[i, y] <= δ``. It is a *restriction* (each row's leak is charged in full
    against every other row), exact in most cases measured but not all (tests/methods/test_hockey_stick.py).
    Its LP is ``O(n m)``: ``P = c + s`` with the column floor ``c`` and ``0 <= s[x, y] <= (e^ε − 1) c_y``
    (``P[x, y] <= e^ε P[x', y]`` for all pairs, as in :class:`~mechdesign.methods.direct.LdpLinearProgram`).
    Returns the raw ``Q`` (``None`` if HiGHS failed).

    Examples
    --------
    >>> weights = np.array([[0.0, 0.5], [0.5, 0.0]])  # uniform prior, Hamming cost, ε = 0
    >>> matrix = leak_restriction(weights, 1.0, 0.2)  # e.g. half each plus δ on the own output
    >>> round(float((weights * matrix).sum()), 9)
    0.4
    """
    n, m = weights.shape
    row_sums = sp.kron(sp.identity(n), np.ones((1, m)))
    # Columns: c (m), s (n m, row-major), L (n m). Rows: Σ_y c_y + Σ_y s[x, y] + Σ_y L[x, y] = 1 (n);
    # s[x, y] − (e^ε − 1) c_y <= 0 (n m); Σ_y L[x, y] <= δ (n).
    matrix = sp.bmat([
        [sp.coo_matrix(np.ones((n, m))), row_sums, row_sums],
        [-(scale - 1.0) * sp.kron(np.ones((n, 1)), sp.identity(m)), sp.identity(n * m), None],
        [None, None, row_sums],
    ])
    lp = highs_model(np.concatenate([weights.sum(axis=0), weights.ravel(), weights.ravel()]), matrix,
                     np.concatenate([np.ones(n), np.full(n * m + n, -highspy.kHighsInf)]),
                     np.concatenate([np.ones(n), np.zeros(n * m), np.full(n, delta)]),
                     np.zeros(matrix.shape[1]), np.ones(matrix.shape[1]))
    highs = quiet_highs(HIGHS_OPTIONS)
    highs.passModel(lp)
    if not run_highs(highs).solved:
        return None
    values = np.asarray(highs.getSolution().col_value)
    return values[:m][None, :] + values[m:m + n * m].reshape(n, m) + values[m + n * m:].reshape(n, m)


def hockey_stick_dual_bound(weights: np.ndarray, scale: float, delta: float, a: np.ndarray, b: np.ndarray) -> float:
    """A lower bound on the hockey-stick optimum (complete relation) from pointwise multipliers.

    The hinge LP ``min Σ W ∘ Q`` s.t. ``Σ_y Q[x, y] = 1``, ``Q[i, y] − e^ε Q[j, y] <= h[i, j, y]``,
    ``Σ_y h[i, j, y] <= δ`` (``Q, h >= 0``) has, for any ``μ >= 0``, the dual-feasible point
    ``λ[i, j] = max_y μ[i, j, y]`` and ``u_x = min_y (W[x, y] + Σ_j μ[x, j, y] − e^ε Σ_i μ[i, x, y])``,
    so ``Σ_x u_x − δ Σ_{i≠j} λ[i, j]`` bounds the optimum from below (weak duality). Here
    ``μ[i, j, y] = a[i, y] b[j, y] / Σ_k b[k, y]`` for ``i ≠ j``, built from the pointwise LP's multipliers
    (:meth:`~mechdesign.methods.direct.ApproximateDpLinearProgram.pair_multipliers`): with ``Σ_y μ`` in place of
    ``max_y μ`` (and self-pairs kept) this is the pointwise bound itself, so charging the maximum can only
    raise it. Computed in numpy in ``O(n² m)`` time and ``O(n m)`` memory (blocks of rows); valid for any
    non-negative ``a`` and ``b`` (a negative multiplier would not be dual feasible: it is refused, as are
    shapes other than ``weights``'s, ``scale < 1`` and ``δ`` outside ``[0, 1)``).

    Examples
    --------
    >>> weights = np.array([[0.1, 0.5, 0.3], [0.2, 0.0, 0.4], [0.3, 0.2, 0.0]])
    >>> pointwise = ApproximateDpLinearProgram(weights, 0.05)
    >>> round(pointwise.solve(0.5).lower_bound, 6)
    0.540604
    >>> round(hockey_stick_dual_bound(weights, math.exp(0.5), 0.05, *pointwise.pair_multipliers()), 6)
    0.541065
    """
    weights = as_real_array(weights, "weights", 2)
    a, b = (as_cost_matrix(values, weights.shape, name) for values, name in ((a, "a"), (b, "b")))
    scale, delta = as_finite(scale, "scale", minimum=1.0), as_delta(delta)
    totals = b.sum(axis=0)
    per_mass = np.divide(b, totals, out=np.zeros_like(b), where=totals > 0)  # b[j, y] / Σ_k b[k, y]
    outgoing = a * (1.0 - per_mass)  # Σ_{j ≠ x} μ[x, j, y]
    incoming = per_mass * (a.sum(axis=0) - a)  # Σ_{i ≠ x} μ[i, x, y]
    floors = (weights + outgoing - scale * incoming).min(axis=1)
    n, m = a.shape
    block = max(1, PAIR_BLOCK_ENTRIES // max(1, n * m))
    charged = 0.0
    for start in range(0, n, block):
        rows = np.arange(start, min(start + block, n))
        largest = (a[rows, None, :] * per_mass[None, :, :]).max(axis=2)  # λ[i, j] for i in rows
        largest[np.arange(rows.size), rows] = 0.0  # no self-pairs
        charged += math.fsum(largest.ravel())
    return float(math.fsum(floors) - delta * charged)


def sandwich_sides(notion: ApproximateDifferentialPrivacy, weights: np.ndarray,
                   epsilon: float) -> tuple[np.ndarray | None, float]:
    """:func:`leak_restriction`'s mechanism (cleaned; ``None`` if its LP failed) and a certified lower
    bound on the optimum (``-inf`` if none): the better of the pointwise relaxation's LP bound and
    :func:`hockey_stick_dual_bound` at its multipliers.

    The pointwise form ``Q[x, y] <= e^ε Q[x', y] + δ`` (every pair) is implied by the hockey-stick form
    (one output's hinge is at most their sum), so its LP
    (:class:`~mechdesign.methods.direct.ApproximateDpLinearProgram`) is a relaxation; it has this compact form only
    on the complete relation (elsewhere the bound is ``-inf``).

    Examples
    --------
    >>> weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    >>> matrix, bound = sandwich_sides(ApproximateDifferentialPrivacy(0.2, "hockey_stick"), weights, 0.0)
    >>> round(float((weights * matrix).sum()), 9), round(bound, 9)
    (0.4, 0.4)
    """
    notion = as_instance(notion, ApproximateDifferentialPrivacy, "notion")
    weights, epsilon = as_real_array(weights, "weights", 2), as_budget(epsilon)
    raw = leak_restriction(weights, math.exp(epsilon), notion.delta)
    matrix = None if raw is None else clean_mechanism(raw)
    if not notion.neighbours.is_complete:
        return matrix, -math.inf
    program = ApproximateDpLinearProgram(weights, notion.delta)
    relaxation = program.solve(epsilon)
    if relaxation.matrix is None:
        return matrix, -math.inf
    return matrix, max(relaxation.lower_bound,
                       hockey_stick_dual_bound(weights, math.exp(epsilon), notion.delta, *program.pair_multipliers()))


def sandwich(notion: ApproximateDifferentialPrivacy, weights: np.ndarray,
             epsilon: float) -> tuple[np.ndarray, float] | None:
    """:func:`sandwich_sides` when its two sides meet within ``GAP_RTOL``, else ``None``.

    The restriction's value is above the optimum and the bound below it; when they meet, the
    restriction's mechanism is optimal and no constraint generation is needed. With Hamming cost they
    met in every case measured (benchmarks/RESULTS.md).

    Examples
    --------
    >>> weights = np.array([[0.0, 0.5], [0.5, 0.0]])
    >>> matrix, bound = sandwich(ApproximateDifferentialPrivacy(0.2, "hockey_stick"), weights, 0.0)
    >>> round(float((weights * matrix).sum()), 9), round(bound, 9)
    (0.4, 0.4)
    """
    matrix, bound = sandwich_sides(notion, weights, epsilon)
    if matrix is None or not is_certified_optimal(float((weights * matrix).sum()), bound):
        return None
    return matrix, bound


class LazyHingeProgram:
    """``min Σ W ∘ Q`` over row-stochastic ``Q`` under the hinge rows of a growing working set of (pair, output)s.

    Pair ``k = (i, j)`` of the neighbour relation enters with the row ``Σ_{y ∈ Y_k} h[k, y] <= δ``; each
    output ``y`` added to ``Y_k`` brings a column ``h[k, y] ∈ [0, 1]`` and the row
    ``Q[i, y] − e^ε Q[j, y] − h[k, y] <= 0``. With ``Y_k`` every output this is the hockey-stick
    constraint itself; with fewer it is a relaxation (every hinge term is non-negative).

    Parameters
    ----------
    weights
        ``W[x, y] = P(x) d(x, y)`` (in the objective's unit).
    first, second
        The ordered neighbour pairs ``(first[k], second[k])``.
    scale
        ``e^ε`` (finite).
    delta
        δ.

    Examples
    --------
    >>> program = LazyHingeProgram(np.array([[0.0, 0.5], [0.5, 0.0]]), np.array([0, 1]), np.array([1, 0]), 1.0, 0.25)
    >>> program.add_hinges(np.array([0, 1]), np.array([0, 1]))
    >>> matrix = program.solve()
    >>> round(program.objective_value(), 9), round(program.lower_bound(), 9)  # Q[x, x] − Q[x', x] <= 1/4
    (0.375, 0.375)
    """

    def __init__(self, weights: np.ndarray, first: np.ndarray, second: np.ndarray, scale: float,
                 delta: float) -> None:
        n, m = weights.shape
        self.shape, self.scale, self.delta = (n, m), scale, delta
        self.first, self.second = first, second
        self.pair_row = np.full(first.size, -1, dtype=np.int64)  # the row of Σ_y h[k, y] <= δ, once added
        self.included = np.zeros((first.size, m), dtype=bool)  # y ∈ Y_k
        self.highs = quiet_highs(HIGHS_OPTIONS)
        self.n_columns, self.n_rows = n * m, 0
        self.costs = [weights.ravel().astype(float)]
        self.row_lower: list[np.ndarray] = []
        self.row_upper: list[np.ndarray] = []
        self.triplets: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (row, column, value) of A
        self.highs.addCols(n * m, self.costs[0], np.zeros(n * m), np.ones(n * m), 0,
                           np.array([], dtype=np.int32), np.array([], dtype=np.int32), np.array([]))
        rows = np.repeat(np.arange(n), m)
        self._add_rows(n, rows, np.arange(n * m), np.ones(n * m), np.ones(n), np.ones(n))

    @property
    def hinges(self) -> int:
        """The number of (pair, output) hinge terms held."""
        return int(np.count_nonzero(self.included))

    def _add_rows(self, count: int, rows: np.ndarray, columns: np.ndarray, values: np.ndarray,
                  lower: np.ndarray, upper: np.ndarray) -> None:
        """Add ``count`` rows given by local row indices, global columns and values (sorted by row here)."""
        order = np.argsort(rows, kind="stable")
        rows, columns, values = rows[order], columns[order], values[order]
        starts = np.searchsorted(rows, np.arange(count)).astype(np.int32)
        self.highs.addRows(count, lower, upper, values.size, starts, columns.astype(np.int32), values)
        self.triplets.append((rows + self.n_rows, columns, values))
        self.row_lower.append(lower)
        self.row_upper.append(upper)
        self.n_rows += count

    def add_hinges(self, pairs: np.ndarray, outputs: np.ndarray) -> None:
        """Add the hinge terms ``(pairs[t], outputs[t])`` (not yet held), and the sum rows of new pairs."""
        new_pairs = np.unique(pairs[self.pair_row[pairs] < 0])
        if new_pairs.size:
            self.pair_row[new_pairs] = self.n_rows + np.arange(new_pairs.size)
            empty = np.array([], dtype=np.int64)
            self._add_rows(new_pairs.size, empty, empty, np.array([]), np.full(new_pairs.size, -np.inf),
                           np.full(new_pairs.size, self.delta))
        count, m = pairs.size, self.shape[1]
        self.included[pairs, outputs] = True
        columns = self.n_columns + np.arange(count)
        sum_rows = self.pair_row[pairs]
        self.highs.addCols(count, np.zeros(count), np.zeros(count), np.ones(count), count,
                           np.arange(count, dtype=np.int32), sum_rows.astype(np.int32), np.ones(count))
        self.triplets.append((sum_rows, columns, np.ones(count)))
        self.costs.append(np.zeros(count))
        self.n_columns += count
        local = np.arange(count)
        self._add_rows(count, np.concatenate([local, local, local]),
                       np.concatenate([self.first[pairs] * m + outputs, self.second[pairs] * m + outputs, columns]),
                       np.concatenate([np.ones(count), np.full(count, -self.scale), -np.ones(count)]),
                       np.full(count, -np.inf), np.zeros(count))

    def solve(self) -> np.ndarray | None:
        """Re-solve from the previous basis: the mechanism part of HiGHS's optimum (``None`` if HiGHS failed)."""
        if not run_highs(self.highs).solved:
            return None
        n, m = self.shape
        return np.asarray(self.highs.getSolution().col_value)[: n * m].reshape(n, m)

    def objective_value(self) -> float:
        """HiGHS's optimal value of the working-set LP."""
        return float(self.highs.getInfo().objective_function_value)

    def lower_bound(self) -> float:
        """:func:`~mechdesign.certificate.lp_lower_bound` at HiGHS's duals: a lower bound on the full problem."""
        rows, columns, values = (np.concatenate(parts) for parts in zip(*self.triplets))
        matrix = sp.csr_matrix((values, (rows, columns)), shape=(self.n_rows, self.n_columns))
        return lp_lower_bound(np.concatenate(self.costs), matrix, np.concatenate(self.row_lower),
                              np.concatenate(self.row_upper), np.zeros(self.n_columns), np.ones(self.n_columns),
                              np.asarray(self.highs.getSolution().row_dual))

    def missing_hinges(self, matrix: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray, float]:
        """The hinge terms ``(pairs, outputs)`` to add for the ``limit`` most violated pairs, and the largest
        divergence: every output where ``Q[i, y] > e^ε Q[j, y]`` that the pair does not hold yet."""
        divergences = pair_divergences(matrix, self.first, self.second, self.scale)
        worst = float(divergences.max(initial=0.0))
        violated = np.flatnonzero(divergences > self.delta + CUT_TOLERANCE)
        if violated.size > limit:
            violated = violated[np.argpartition(-divergences[violated], limit - 1)[:limit]]
        positive = matrix[self.first[violated]] > self.scale * matrix[self.second[violated]]
        rows, outputs = np.nonzero(positive & ~self.included[violated])
        return violated[rows], outputs, worst


def design_hockey_stick(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]],
                        budgets: Union[float, Sequence[float]], objective: Objective, *,
                        restriction_first: bool = True, time_limit: float | None = CUTS_TIME_LIMIT) -> Result:
    """:func:`sandwich` when it certifies, else constraint generation on :class:`LazyHingeProgram`,
    separated exactly by every pair's divergence, for at most ``time_limit`` seconds.

    Parameters
    ----------
    notions
        One hockey-stick :class:`~mechdesign.privacy.approx_dp.ApproximateDifferentialPrivacy` (any
        neighbour relation); see :func:`applies`.
    budgets
        ε in nats; ``inf`` allowed (an ``e^ε`` beyond :data:`MAX_CUT_SCALE` is solved at the cap).
    objective
        The :class:`~mechdesign.utility.distortion.ExpectedDistortion` to minimize (any cost matrix).
    restriction_first
        Try :func:`sandwich` first (the default); ``False`` runs constraint generation alone (the path
        the sandwich is tested against).
    time_limit
        Seconds for constraint generation (each HiGHS solve gets what is left); ``None`` for no limit.
        When it runs out (or after :data:`MAX_ROUNDS` rounds) the result is :func:`leak_restriction`'s
        mechanism — hockey-stick private by construction — with the best certified bound found (the
        sandwich's and the working-set LP's), reported ``"suboptimal"`` with its gap unless they meet.

    Returns
    -------
    Result
        ``method="hockey-stick-cuts"``; ``"optimal"`` when the certified bound is within ``GAP_RTOL`` of
        the re-measured mechanism's objective; the message says which path ran.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> result = design_hockey_stick(ApproximateDifferentialPrivacy(0.1, "hockey_stick"), 1.0,
    ...                              ExpectedDistortion(Prior.uniform(3)))
    >>> result.status, result.method, round(result.objective, 6)
    ('optimal', 'hockey-stick-cuts', 0.381495)
    """
    start = time.perf_counter()
    notion = _hockey_stick_notion(notions, objective)
    if notion is None:
        raise MechDesignError(f"design_hockey_stick needs one hockey-stick ApproximateDifferentialPrivacy notion and "
                              f"an ExpectedDistortion objective, got {notions!r} and {objective!r}")
    budget = single_budget(budgets, notion.label)
    time_limit = as_time_limit(time_limit)
    n, m = objective.shape
    notion.check_shape(n)
    solved = min(budget, math.log(MAX_CUT_SCALE))
    scale = math.exp(solved)
    weights = objective.prior.probabilities[:, None] * objective.cost / objective.unit
    first, second = notion.neighbours.ordered_pairs(n)
    common_fields = dict(solver="highs", method="hockey-stick-cuts")
    restricted, sandwich_bound = (sandwich_sides(notion, weights, solved) if restriction_first and solved == budget
                                  else (None, -math.inf))
    if restricted is not None and is_certified_optimal(float((weights * restricted).sum()), sandwich_bound):
        return certified_result(notion, budget, objective, restricted, sandwich_bound * objective.unit,
                                "ε-DP plus a private leak of δ per row (leak_restriction) meets the bound from the "
                                "pointwise relaxation's multipliers", start, iterations=1, **common_fields)
    program = LazyHingeProgram(weights, first, second, scale, notion.delta)
    common: dict = dict(budgets={notion.label: budget}, unit=objective.unit, **common_fields)
    raw, rounds, stopped = _cut_rounds(program, CUTS_PER_INPUT * n, time_limit)
    if raw is None and not stopped:
        status = program.highs.modelStatusToString(program.highs.getModelStatus())
        return failure_result("solver_error", f"highs returned status {status!r} in round {rounds}: a solver failure "
                              "(the constant mechanism is always feasible)", start, iterations=rounds, **common)
    bound = program.lower_bound() if program.highs.getSolution().dual_valid else -math.inf
    work = (f"constraint generation: {rounds} rounds, {np.count_nonzero(program.pair_row >= 0)} pairs, "
            f"{program.hinges} hinge terms held" + (f" ({stopped})" if stopped else ""))
    if solved < budget:  # the LP at the smaller budget bounds nothing at the budget asked
        bound = objective.value(objective.unconstrained_optimum()) / objective.unit
        work += (f"; budget solved at {solved:.6g} (e^ε capped at {MAX_CUT_SCALE:g}), bounded by the unconstrained "
                 "optimum's value")
    if not stopped:
        return certified_result(notion, budget, objective, clean_mechanism(raw), bound * objective.unit,
                                work + "; bound: the working-set LP's dual bound", start, iterations=rounds,
                                **common_fields)
    if restricted is None:  # the sandwich did not run (restriction_first=False or a capped budget)
        raw = leak_restriction(weights, scale, notion.delta)
        restricted = None if raw is None else clean_mechanism(raw)
    if restricted is None:
        return failure_result("solver_error", f"{work}; HiGHS failed on the restriction LP too (a solver failure: the "
                              "constant mechanism is always feasible)", start, iterations=rounds, **common)
    return certified_result(notion, budget, objective, restricted, max(bound, sandwich_bound) * objective.unit,
                            work + "; the mechanism is leak_restriction's (ε-DP plus a private leak of δ per row); "
                            "bound: the better of the working-set LP's and the pointwise multipliers'", start,
                            iterations=rounds, **common_fields)


def _cut_rounds(program: LazyHingeProgram, cuts_per_round: int,
                time_limit: float | None) -> tuple[np.ndarray | None, int, str]:
    """Constraint generation on ``program``: the last round's raw mechanism (``None`` if HiGHS failed or no
    round finished), the rounds run, and why it stopped before converging (``""`` if it converged or
    HiGHS failed)."""
    start, raw = time.perf_counter(), None
    for round_number in range(1, MAX_ROUNDS + 1):
        left = math.inf if time_limit is None else time_limit - (time.perf_counter() - start)
        if left <= 0:
            return raw, round_number, f"time limit of {time_limit:g} s reached"
        # HiGHS compares time_limit with its run clock, cumulative over the model's runs (HiGHS issue #1477).
        program.highs.setOptionValue("time_limit", program.highs.getRunTime() + left)
        raw = program.solve()
        if program.highs.getModelStatus() == highspy.HighsModelStatus.kTimeLimit:
            return raw, round_number, f"time limit of {time_limit:g} s reached"
        if raw is None:
            return None, round_number, ""
        pairs, outputs, _ = program.missing_hinges(clean_mechanism(raw), cuts_per_round)
        if pairs.size == 0:
            return raw, round_number, ""
        program.add_hinges(pairs, outputs)
    return raw, MAX_ROUNDS, f"did not converge in {MAX_ROUNDS} rounds"
