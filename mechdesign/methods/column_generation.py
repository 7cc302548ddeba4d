"""Column generation over outputs for distortion-optimal design at large n: any cost matrix, certified.

``min Σ W∘Q`` (``W[x, y] = P(x) d(x, y)``) over row-stochastic ``Q`` whose every column lies in the
notion's set of admissible columns couples the outputs only through the unit row sums (and, for
maximal leakage, one budget row). Optimal mechanisms use few outputs (measured: 6–57 of 150 under
random costs, ``benchmarks/RESULTS.md``), so the dense direct LP of :mod:`mechdesign.methods.direct` is
solved on a *restricted* set of outputs, and every other output is priced exactly in numpy from the
restricted LP's row-sum duals ``u`` (``O(nm)``); the most negative outputs enter and the restricted
LP is solved again. With ``α = e^ε − 1``, ``t = e^ε``, ``a = W[:, y] − u``, an output's best
direction is one of the generators of its column set:

* local ε-DP (complete relation): the staircase rays ``1 + α 1_S`` (Kairouz, Oh & Viswanath,
  "Extremal Mechanisms for Local Differential Privacy"; derivation in :mod:`mechdesign.methods.direct`),
  ranked per unit mass (:func:`~mechdesign.methods.direct.staircase_per_mass`);
* pointwise (ε, δ)-DP (Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(2), complete
  relation): a column ``c <= v <= t c + δ`` splits as ``(c + min(v − c, α c)) + (v − c − min(v − c, α c))``,
  a staircase ray plus a point of ``[0, δ]^n`` (the hull of the vertices ``δ 1_T``), so the
  generators are the staircase rays and, per output, the vertices ``δ 1_T`` with weights summing
  to at most 1. Every output then carries up to ``δ`` per input at no floor, so outputs enter in
  two ways: as *floor* outputs of the restricted LP (a staircase ray prices out) and as single
  entries ``Q[x, y] <= δ`` of the others (``a_xy < 0``; an entry of an output that later gets a
  floor becomes its ``s[x, y]``). An entry has a negative reduced cost when it enters, so it enters
  nonbasic at its upper bound δ, where it is dual feasible (when only entries enter, the whole
  carried-over basis stays dual feasible), and the dual simplex re-solves, taking the surplus mass
  out by bound flips (entering at 0 with the primal simplex took 113,352 iterations against 18,542
  at n = 1000, 93 s against 8 s CPU). At most ``⌈1/δ⌉`` entries of a row enter per round (a row
  holds at most that many at δ);
* maximal leakage ``Σ_y max_x Q[x, y] <= t`` (Issa, Wagner & Kamath, "An Operational Approach to
  Information Leakage", Definition 1 and Theorem 1): by the layer-cake sum a column is
  ``Σ_S λ_S 1_S`` with ``Σ_S λ_S = max_x v_x``, so the generators are ``1_S``, each using one unit of
  the budget;
* PML under one prior ``P`` (Grosse et al., "Privacy Mechanism Design based on Empirical
  Distributions", Definition 1): inputs outside ``supp P`` are unconstrained; on the support a
  nonzero column scaled to ``P·v = 1`` lies in ``{0 <= v <= t, P·v = 1}``, whose vertices are
  fractional-knapsack patterns (:func:`knapsack_vertices`).

**Certificate at every round.** For *any* ``u``, the cost of a mechanism is ``Σ_x u_x`` plus the
generators' weights times their reduced costs at ``u``; bounding the generators' total weight gives
a lower bound on the optimum over *all* outputs, computed in numpy:

* local DP: ``Σ u + n · min(0, min_{y, S} ρ_y(S) / |v_S|_1)`` (the rays' total mass is ``n``;
  :func:`~mechdesign.methods.direct.staircase_lower_bound`);
* pointwise (ε, δ)-DP: the same plus ``δ Σ_{x, y} min(a_xy, 0)`` (the rays' mass is at most ``n``,
  the vertex weights at most 1 per output);
* maximal leakage: ``Σ u + t · min(0, min_y Σ_x min(a_xy, 0))`` (total weight at most ``t``);
* PML: ``Σ_{x ∈ supp} u_x + min_y ρ_y + Σ_{x ∉ supp} min_y W[x, y]``, ``ρ_y`` the cheapest knapsack
  vertex (the columns' ``P``-masses sum to exactly 1; a row outside the support has mass 1).

At the restricted LP's optimum ``Σ u`` is its value, so once no output prices out the bound meets
the value: the rounds stop as soon as the gap is within :data:`STOP_FRACTION` of the tolerance
(the stopping test *is* the certificate). Across budgets (curves) the output set and the
restricted LP (with its basis) are kept. Measured against the dense LPs of :mod:`mechdesign.methods.direct`
in ``benchmarks/column_generation.py``.

**Restricted LPs.** Local DP without caps solves its restricted LPs over the outputs' floors alone
(:class:`FloorsProgram`: each input's row is a fractional knapsack, so the LP is ``n + |K|`` columns and about
``3 n`` cuts instead of ``n |K|`` entries and rows), cuts and outputs joining in the same rounds. The others, and
local DP with caps or when that master stops short, are re-solved by HiGHS's simplex from the previous round's basis
(new outputs enter at 0; under local DP with the entries ``u[x, y]`` of the staircase ``{x : a_xy < 0}`` basic, so
that one pivot of the floor ``c_y`` brings the whole column: :class:`LdpColumnGeneration`), except for PML, whose restricted LPs Clarabel's interior point solves from scratch 3–4×
faster at n = 1000 (:attr:`OutputGeneration.interior_master`): the certificate needs only the row-sum
duals ``u``, and the bound above holds for any ``u``, so an interior point's duals serve as well as a
vertex's (and, being central, price no worse); the rounds before the last only price, so they run to a
loose tolerance (:data:`INTERIOR_ROUND_TOLERANCE`). PML's restricted LPs also hold only part of each output's
column — about its knapsack vertex's entries — and generate the rest by their reduced costs
(:class:`PmlColumnGeneration`).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

import highspy
import numpy as np
from .._lazy import scipy_sparse as sp

from .direct import BYTES_PER_ENTRY as DENSE_BYTES_PER_ENTRY
from .direct import (HIGHS_OPTIONS, ApproximateDpLinearProgram, DirectSolution, LdpLinearProgram,
                     MaximalLeakageLinearProgram,
                      PmlLinearProgram, WarmLinearProgram, staircase_bound, staircase_per_mass)
from ..exceptions import MechDesignError, ShapeMismatchError
from ..memory import check_memory
from ..privacy.approx_dp import ApproximateDifferentialPrivacy
from ..privacy.base import PrivacyNotion
from ..privacy.dp import DifferentialPrivacy
from ..privacy.maximal_leakage import MaximalLeakage
from ..privacy.pml import PointwiseMaximalLeakage
from ..result import GAP_RTOL
from ..solvers import CLARABEL_LP_TOLERANCE, OPTIMAL, quiet_highs, run_highs

#: Rounds stop once ``value − bound <= STOP_FRACTION · GAP_RTOL · max(1, |value|)`` (costs are in
#: units of the largest cost, so 1 is their scale), leaving room for the round-off of cleaning.
STOP_FRACTION = 0.01
#: An output enters only if its reduced cost is below ``−PRICING_TOLERANCE`` (units of the largest cost).
PRICING_TOLERANCE = 1e-12
#: At most this many outputs enter per round (the most negative reduced costs first); 10 beat 20 and 50
#: (maximal leakage, n = 300: 1.2 s, 2.0 s, 4.3 s CPU).
ENTERING_PER_ROUND = 10
#: HiGHS simplex strategy after outputs enter (the carried-over basis is primal feasible): primal.
WARM_SIMPLEX_STRATEGY = 4
#: HiGHS simplex strategy after entries ``Q[x, y] <= δ`` enter at δ (dual feasible there): dual.
DUAL_SIMPLEX_STRATEGY = 1
#: Entries ``Q[x, y] <= δ`` entering per input and round (pointwise (ε, δ)-DP): at most this many
#: times ``⌈1/δ⌉``, the most negative first (a row's entries at δ sum to at most 1, so more cannot all
#: be used; the others wait for the next pricing). n = 1000, δ = 0.01, random cost: 1× took 3.9 s CPU
#: in 9 rounds against 4.9 s (2×), 6.0 s (4×) and 9.6 s uncapped (same rounds; 108k against 542k entries).
ENTRIES_PER_ROW_FACTOR = 1
#: PML: an entering output holds ``PML_ENTRY_FACTOR`` times its knapsack vertex's entries plus
#: ``PML_ENTRY_MARGIN``, next in the vertex's order (the others enter when they price out), or its whole
#: column when that is more than ``PML_WHOLE_COLUMN_FRACTION`` of the support: optimal columns are then
#: mixtures of few outputs' vertices, and partial ones cost rounds (n = 1000, random cost, CPU s against
#: whole columns: uniform prior ε = 1 29 vs 61, Zipf ε = 2 9 vs 36; a fraction of 0.8, uniform ε = 0.5:
#: 20 vs 15; no whole columns at all, uniform ε = 0.1: 603 vs 28; benchmarks/RESULTS.md).
PML_ENTRY_FACTOR = 1.25
PML_ENTRY_MARGIN = 8
PML_WHOLE_COLUMN_FRACTION = 0.5
#: PML: besides the :data:`ENTERING_PER_ROUND` most negative outputs, up to ``PML_ENTERING_PER_ROUND`` in all
#: enter per round from the ``PML_CANDIDATES`` most negative, each one only when at most ``PML_OVERLAP`` of its
#: knapsack vertex's inputs are already covered by the vertices entering before it. At large budgets the
#: vertices are small (``n / e^ε`` inputs under a uniform prior) and the most negative outputs all want the
#: same cheap inputs; outputs that serve other inputs are what the next rounds would bring one by one
#: (n = 1000, random cost, ε = 5: uniform prior 49 → 14 rounds; benchmarks/RESULTS.md).
PML_ENTERING_PER_ROUND = 50
PML_CANDIDATES = 300
PML_OVERLAP = 0.3
#: PML, loose interior-point rounds: a held entry of an output that entered with a small part of its column (at
#: most ``PML_DROP_FRACTION`` of the support) leaves the restricted LP when its value is at most
#: ``PML_DROP_VALUE`` and its reduced cost ``W[x, y] − u_x + P_x λ_y`` (its row ``Q[x, y] <= w_y`` slack) is above
#: ``PML_DROP_COST`` times its input's largest weight: it is zero at the restricted optimum and likely to stay
#: so. It enters again when it prices out; an output left with no entry leaves too (and may enter again by its
#: vertex). Small vertices draw in many more entries by pricing than the optimum keeps, and the interior point's
#: time per iteration grows with them: n = 1000, random cost, uniform prior, ε = 5: 29.5 → 15.5 s CPU (492 → 364
#: iterations). Outputs that entered with large columns (small budgets) drop nothing: dropping from every column
#: cost rounds (Zipf prior, ε = 1: 8 → 18), and so did choosing by a column's current size (at half the support,
#: uniform prior, ε = 1: 681 → 1,147 iterations; at a quarter, no gain left at ε = 5: 492 → 528) and a cost or
#: value threshold of 1e-4 (benchmarks/notes/2026-11-28-pml-reach-2.md). ``PML_DROP_FRACTION`` must stay below 1:
#: the first output's whole column keeps every restricted LP feasible.
PML_DROP_VALUE = 1e-6
PML_DROP_COST = 1e-3
PML_DROP_FRACTION = 0.25
#: Clarabel's tolerance for the interior-point rounds until nothing prices out (then
#: :data:`~mechdesign.solvers.CLARABEL_LP_TOLERANCE`): pricing needs the duals, not their last digits, and
#: the restricted PML LPs take 25–35 % fewer iterations (n = 1000, random cost, Zipf prior, ε = 5: 63 → 47 s
#: wall, a second cost seed 60 → 54 s; ε = 4: 24 → 19 s; within ±10 % at the other budgets and under a uniform
#: prior; benchmarks/RESULTS.md).
INTERIOR_ROUND_TOLERANCE = 1e-6
#: The rounds turn accurate after a loose round whose ``value − bound`` is within this fraction of
#: ``max(1, |value|)`` (it is likely the last to let anything enter; a loose value is itself off by up to about
#: 1e-5 of it), or whose duals price nothing out.
ACCURATE_ROUNDS_GAP = 1e-3
#: Upper limit of rounds per solve (a solve that reaches it returns its certified bound as is).
MAX_ROUNDS = 200
#: Local DP without caps: a round of the floors master (:class:`FloorsProgram`) adds cuts or outputs, and it gives
#: way to the restricted LP of :class:`~mechdesign.methods.direct.LdpLinearProgram` after this many rounds, or as
#: soon as a round adds neither (its HiGHS tolerances reached before the gap closed).
FLOORS_MAX_ROUNDS = MAX_ROUNDS
#: Caps (``limits``) are elastic in the restricted LPs, whose few outputs may not reach them: a slack of this
#: cost (units of the largest cost per unit of the cap's largest cost) relaxes each. When the rounds end with a
#: slack above :data:`CAP_SLACK_TOLERANCE`, the penalty grows by :data:`PENALTY_GROWTH` and the rounds go on, up
#: to :data:`MAX_PENALTY`; a slack still left then means no mechanism meets the caps (status ``"Infeasible"``,
#: which design() checks by the least value of the capped quantity).
CAP_PENALTY = 1e3
PENALTY_GROWTH = 1e3
MAX_PENALTY = 1e9
CAP_SLACK_TOLERANCE = 1e-9
#: Peak bytes per mechanism entry ``n m`` of the weights and the pricing temporaries (about ten
#: ``n × m`` float arrays); the restricted LP is checked separately, as it grows.
BYTES_PER_ENTRY = 100
#: Peak bytes per entry ``n k`` of a restricted LP on ``k`` outputs: the dense direct LPs' (``BYTES_PER_ENTRY`` of
#: mechdesign/methods/direct.py).
RESTRICTED_BYTES_PER_ENTRY = DENSE_BYTES_PER_ENTRY


class OutputGeneration(ABC):
    """``min Σ W∘Q`` under one notion by generating outputs (module docstring), with the interface of
    :class:`~mechdesign.methods.direct.WarmLinearProgram`: :meth:`solve` and :meth:`violation`.

    Subclasses give the restricted LP (a dense direct LP on some outputs) and the exact pricing.
    """

    method = "column-generation"
    bytes_per_entry = BYTES_PER_ENTRY
    #: HiGHS simplex strategy of the re-solves after outputs enter (:meth:`_fresh_column_status` decides
    #: which feasibility the carried-over basis keeps).
    warm_simplex_strategy = WARM_SIMPLEX_STRATEGY
    #: Solve the restricted LPs by Clarabel's interior point (:meth:`~mechdesign.methods.direct.WarmLinearProgram.solve_interior`,
    #: rebuilt each round, the simplex only if it fails) instead of HiGHS's warm simplex.
    interior_master = False
    #: Below this many held outputs the interior point factorizes its KKT systems by Clarabel's simplicial
    #: ``"qdldl"``, from there on by Clarabel's default choice (:data:`~mechdesign.solvers.CLARABEL_LDL_METHODS`).
    simplicial_max_outputs = 0
    #: The dense direct LP of :mod:`mechdesign.methods.direct` that the restricted problem is.
    dense: type[WarmLinearProgram]

    def __init__(self, weights: np.ndarray, *, notion: PrivacyNotion | None = None, limits: Sequence[np.ndarray] = (),
                 options: Mapping[str, Any] | None = None, interior: bool | None = None) -> None:
        n, m = np.shape(weights)
        check_memory(BYTES_PER_ENTRY * n * m * (1 + len(limits)), f"column generation on {n}×{m}")
        self.weights = np.asarray(weights, dtype=float)
        self.notion = notion or self._default_notion()
        #: The caps' weights ``L_k`` (``Σ L_k∘Q <= D_k``, priced with their multipliers) and last values ``D_k``.
        self.limit_weights = [np.asarray(w, dtype=float) for w in limits]
        self.limit_values: np.ndarray | None = None
        self.penalty = CAP_PENALTY
        #: Above every mechanism's cost ``Σ_x max_y W[x, y]`` (by a round-off margin): a bound beyond it proves the
        #: caps infeasible.
        self._ceiling = float(self.weights.max(axis=1).sum()) * (1.0 + 1e-9) + 1e-12
        self.options = dict(options or {})
        if interior is not None:
            self.interior_master = interior
        self._master: WarmLinearProgram | None = None
        self._master_outputs = np.zeros(0, dtype=np.int64)
        self._restart()

    @classmethod
    def applies_to(cls, notion: PrivacyNotion) -> bool:
        """Exactly when the dense LP applies (:meth:`~mechdesign.methods.direct.WarmLinearProgram.applies_to`)."""
        return cls.dense.applies_to(notion)

    @classmethod
    def for_notion(cls, notion: PrivacyNotion, weights: np.ndarray, **settings: Any) -> OutputGeneration:
        """Column generation for ``min Σ weights ∘ Q`` under ``notion`` (one that :meth:`applies_to`); ``settings``
        are the keyword arguments ``limits``, ``options`` and ``interior`` of :class:`OutputGeneration`."""
        return cls(weights, notion=notion, **settings)

    @abstractmethod
    def _default_notion(self) -> PrivacyNotion:
        """The notion built from the constructor's arguments when none is given."""

    def scale(self, epsilon: float) -> float:
        """The notion's constraint scale at ε (``e^ε``), read from the notion."""
        return self.notion.finite_scaled_budget(epsilon)

    def _restricted(self, weights: np.ndarray) -> WarmLinearProgram:
        """The dense direct LP on the columns ``weights`` (the current outputs)."""
        return self.dense.for_notion(self.notion, weights, **self._restricted_settings())

    def _restricted_settings(self) -> dict[str, Any]:
        """The caps on the current outputs (elastic), and the HiGHS options, for a restricted LP."""
        return {"limits": [w[:, self.outputs] for w in self.limit_weights],
                "penalty": self.penalty if self.limit_weights else None, "options": self.options}

    @abstractmethod
    def _pricing(self, multipliers: np.ndarray, weights: np.ndarray, epsilon: float) -> tuple[float, np.ndarray]:
        """At any multipliers ``u`` of the unit row sums and weights ``W`` (the caps' already moved in): a certified
        lower bound on ``min Σ W∘Q`` over every output (module docstring) and each output's price (negative: it
        would improve the restricted LP)."""

    def _price(self, duals: np.ndarray, epsilon: float) -> tuple[float, np.ndarray]:
        """:meth:`_pricing` at the restricted LP's row duals."""
        return self._pricing(duals[: self.weights.shape[0]], self._effective_weights(self._cap_multipliers(duals)),
                             epsilon)

    def lower_bound(self, multipliers: np.ndarray, epsilon: float, cap_multipliers: Sequence[float] = (),
                    limits: Sequence[float] = ()) -> float:
        """A certified lower bound on the optimum at budget ε and the caps' values ``limits``, from any
        multipliers ``u`` of the unit row sums (and ``λ >= 0`` of the caps; negative ones count as 0): the
        pricing bound over every output (module docstring), with no LP solved — e.g. at another solver's
        multipliers for the same problem (the cvxpy path's, :mod:`mechdesign.solve`).

        Examples
        --------
        Uniform prior, Hamming cost, ε = log 3 (optimum 1/4): the row sums' optimal multipliers ``u = (1/8, 1/8)``
        give it; ``u = 0`` a valid, loose bound.

        >>> generation = LdpColumnGeneration(np.array([[0.0, 0.5], [0.5, 0.0]]))
        >>> generation.lower_bound(np.array([0.125, 0.125]), math.log(3)), generation.lower_bound(np.zeros(2), 1.1)
        (0.25, 0.0)
        """
        caps = np.clip(np.asarray(cap_multipliers, dtype=float), 0.0, None)
        if caps.size != len(self.limit_weights) or np.size(limits) != caps.size:
            raise ShapeMismatchError(f"{len(self.limit_weights)} cap multiplier(s) and value(s) are needed, got "
                                     f"{caps.size} and {np.size(limits)}")
        bound, _ = self._pricing(np.asarray(multipliers, dtype=float), self._effective_weights(caps), epsilon)
        return bound - math.fsum(caps * np.asarray(limits, dtype=float))

    @abstractmethod
    def _layout(self, outputs: np.ndarray, master: WarmLinearProgram) -> tuple[list, list]:
        """The column and row blocks of ``master``, the restricted LP on ``outputs``, as :func:`_labels` blocks."""

    @abstractmethod
    def violation(self, matrix: np.ndarray, epsilon: float) -> float:
        """Largest violation of the notion's constraints (and row-stochasticity) by ``matrix`` at ε."""

    def _initial_outputs(self) -> np.ndarray:
        """The output of least total weight: the constant mechanism on it is feasible for every notion."""
        return np.array([int(self.weights.sum(axis=0).argmin())])

    def _restart(self) -> None:
        """Back to the initial outputs, no restricted LP built."""
        self.outputs, self._master = self._initial_outputs(), None

    def _master_is_current(self) -> bool:
        """Whether the restricted LP built last is the one on the current outputs."""
        return self._master is not None and np.array_equal(self._master_outputs, self.outputs)

    def _cap_multipliers(self, duals: np.ndarray) -> np.ndarray:
        """The caps' multipliers ``λ_k >= 0`` in the restricted LP's row duals (HiGHS's sign: ``−y``)."""
        return np.clip(-duals[self._master.limit_rows], 0.0, None)

    def _effective_weights(self, cap_multipliers: np.ndarray) -> np.ndarray:
        """``W + Σ_k λ_k L_k``: the caps moved into the costs with their multipliers (Lagrange), so that the
        pricing of the problem without caps prices the capped one, its bound less ``Σ λ_k D_k``
        (:meth:`_cap_term`)."""
        weights = self.weights
        for multiplier, limit in zip(cap_multipliers, self.limit_weights):
            weights = weights + multiplier * limit
        return weights

    def _cap_term(self, duals: np.ndarray) -> float:
        """``−Σ_k λ_k D_k``, the caps' part of the pricing bound (0 without caps)."""
        if not self.limit_weights:
            return 0.0
        return -math.fsum(self._cap_multipliers(duals) * self.limit_values)

    def _reduced_weights(self, duals: np.ndarray) -> np.ndarray:
        """``a = W + Σ λ_k L_k − u`` for the row-sum duals ``u`` (the restricted LP's first ``n`` rows)."""
        return self._effective_weights(self._cap_multipliers(duals)) - duals[: self.weights.shape[0], None]

    def _cap_layout(self, master: WarmLinearProgram) -> tuple[list, list]:
        """The caps' columns (budget-scaled parts ``t_k``, slacks ``s_k``) and rows (ties, caps) of ``master``,
        as :func:`_labels` blocks, one each (kinds from 100 on: above every notion's)."""
        columns = ([(100 + j, None, None) for j in range(master.scaled_columns.size)]
                   + [(200 + j, None, None) for j in range(master.penalty_columns.size)])
        rows = ([(300 + j, None, None) for j in range(master.tie_rows.size)]
                + [(400 + j, None, None) for j in range(master.limit_rows.size)])
        return columns, rows

    def _caps_met(self, solution: DirectSolution) -> bool:
        """Whether the restricted LP's point meets every cap (its slacks are zero to round-off)."""
        return solution.slacks is None or not np.any(solution.slacks > CAP_SLACK_TOLERANCE)

    def _solve_master(self, epsilon: float, cold: bool, interior: bool, loose: bool) -> tuple[DirectSolution, bool]:
        """The restricted LP on the current outputs solved (the bound comes from pricing), and whether by
        the interior point (asked for by ``interior`` and ``"optimal"``, to :data:`INTERIOR_ROUND_TOLERANCE`
        when ``loose``; else the simplex)."""
        if not self._master_is_current():
            n, k = self.weights.shape[0], self.outputs.size
            check_memory(RESTRICTED_BYTES_PER_ENTRY * n * k, f"the restricted LP on {n}×{k} (column generation)")
            master = self._restricted(self.weights[:, self.outputs])
            if self._master is not None and not cold and not interior:
                master.highs.setBasis(self._extended_basis(master))
                master.highs.setOptionValue("simplex_strategy", self.warm_simplex_strategy)
            self._master, self._master_outputs = master, self.outputs.copy()
        if interior:
            ldl = "qdldl" if self.outputs.size < self.simplicial_max_outputs else "default"
            tolerance = INTERIOR_ROUND_TOLERANCE if loose else CLARABEL_LP_TOLERANCE
            solution = self._master.solve_interior(epsilon, limits=self._cap_values(), bound=False, ldl=ldl,
                                                   tolerance=tolerance)
            if solution.status == OPTIMAL:  # not "optimal_inaccurate": the simplex then
                return solution, True
        return self._master.solve(epsilon, limits=self._cap_values(), cold=cold, bound=False), False

    def _cap_values(self) -> list[float] | None:
        """The caps' values for the restricted LP (``None`` without caps)."""
        return None if self.limit_values is None else list(self.limit_values)

    def _extended_basis(self, master: WarmLinearProgram) -> highspy.HighsBasis:
        """The previous restricted LP's basis carried over to the enlarged output set: old columns and
        rows keep their status, new ones take :meth:`_fresh_column_status` and :meth:`_fresh_row_status`
        (by default at their lower bound 0 and basic slacks: a primal feasible basis, the new outputs carry
        no mass)."""
        extended = highspy.HighsBasis()
        for name, blocks_index in (("col_status", 0), ("row_status", 1)):
            old_keys = _labels(self._layout(self._master_outputs, self._master)[blocks_index], self.weights.shape)
            new_keys = _labels(self._layout(self.outputs, master)[blocks_index], self.weights.shape)
            old_status = list(getattr(self._master.highs.getBasis(), name))
            order = np.argsort(old_keys)
            found = np.searchsorted(old_keys, new_keys, sorter=order)
            found = np.minimum(found, old_keys.size - 1)
            matched = old_keys[order[found]] == new_keys
            fresh_status = (self._fresh_column_status(master) if blocks_index == 0
                            else self._fresh_row_status(master))
            setattr(extended, name, [old_status[order[i]] if hit else fresh_status[j]
                                     for j, (i, hit) in enumerate(zip(found, matched))])
        extended.valid = True
        return extended

    def _fresh_column_status(self, master: WarmLinearProgram) -> list:
        """The status of every column of ``master`` that is new to it: at its lower bound 0."""
        return [highspy.HighsBasisStatus.kLower] * master.highs.getNumCol()

    def _fresh_row_status(self, master: WarmLinearProgram) -> list:
        """The status of every row of ``master`` that is new to it: basic (its slack)."""
        return [highspy.HighsBasisStatus.kBasic] * master.highs.getNumRow()

    def solve(self, epsilon: float, *, limits: Sequence[float] | None = None, cold: bool = False) -> DirectSolution:
        """Solve at budget ε ≥ 0 (nats, validated) and the caps' values ``limits`` (one per cap, solved units;
        ``None`` keeps the last ones), from the previous solve's outputs unless ``cold``.

        Interior-point rounds run to :data:`INTERIOR_ROUND_TOLERANCE` until their duals price nothing out
        (or the gap is down to :data:`ACCURATE_ROUNDS_GAP`), then to Clarabel's full accuracy; only a
        full-accuracy value stops the rounds (the bound is valid at any duals). A solve that starts from the
        previous one's outputs runs accurately throughout. Caps are elastic in the restricted LPs
        (:data:`CAP_PENALTY`); status ``"Infeasible"`` when no mechanism meets them."""
        if limits is not None:
            self.limit_values = np.asarray(limits, dtype=float)
        if self.limit_weights and self.limit_values is None:
            raise MechDesignError(f"limits: {len(self.limit_weights)} cap value(s) are needed, none given")
        if cold:
            self._restart()
        iterations, bound, interior = 0, -math.inf, self.interior_master
        # Loose rounds only from scratch: from a previous solve's outputs (curves) the first round often certifies.
        loose = interior and self._master is None and INTERIOR_ROUND_TOLERANCE > CLARABEL_LP_TOLERANCE
        for round_number in range(MAX_ROUNDS):
            solution, by_interior = self._solve_master(epsilon, cold and round_number == 0, interior, loose)
            iterations += solution.iterations
            if solution.matrix is None:
                return DirectSolution(None, math.nan, -math.inf, iterations, solution.status)
            duals = solution.row_duals
            round_bound, reduced = self._price(duals, epsilon)
            round_bound += self._cap_term(duals)
            bound = max(bound, round_bound)
            if bound > self._ceiling:  # no mechanism costs that much: none meets the caps
                return DirectSolution(None, math.nan, bound, iterations, "Infeasible")
            gap, scale = solution.value - bound, max(1.0, abs(solution.value))
            if by_interior and loose:  # a loose value does not stop the rounds
                loose = self._grow(reduced, duals, epsilon) and gap > ACCURATE_ROUNDS_GAP * scale
                continue
            converged = gap <= STOP_FRACTION * GAP_RTOL * scale
            if not converged and not self._grow(reduced, duals, epsilon):
                # Nothing prices out, yet the interior point's value and duals are not within the tolerance
                # (ill-conditioned LPs, e.g. e^ε near 1 / min P with tiny P): the simplex from here on.
                converged, interior = not by_interior, False
            if converged:
                if self._caps_met(solution):
                    break
                if self.penalty >= MAX_PENALTY:
                    return DirectSolution(None, math.nan, bound, iterations, "Infeasible")
                self.penalty *= PENALTY_GROWTH  # a cap is still relaxed: price it dearer
                self._master.set_penalty(self.penalty)
        return DirectSolution(self._embed(solution.matrix), solution.value, bound, iterations, solution.status)

    def _grow(self, reduced: np.ndarray, duals: np.ndarray, epsilon: float) -> bool:
        """Let the most negative outputs enter (at most :data:`ENTERING_PER_ROUND`; ``reduced`` from
        :meth:`_price` at the row duals ``duals`` and budget ε); whether anything entered."""
        entering = self._most_negative_outputs(reduced, ENTERING_PER_ROUND)
        self.outputs = np.union1d(self.outputs, entering)
        return entering.size > 0

    def _most_negative_outputs(self, reduced: np.ndarray, count: int) -> np.ndarray:
        """Up to ``count`` outputs not held, of reduced cost below ``−PRICING_TOLERANCE``, most negative first."""
        reduced = reduced.copy()
        reduced[self.outputs] = np.inf
        candidates = np.argsort(reduced, kind="stable")[:count]
        return candidates[reduced[candidates] < -PRICING_TOLERANCE]

    def _embed(self, restricted: np.ndarray) -> np.ndarray:
        """The full ``n × m`` mechanism from the restricted LP's (the other outputs unused)."""
        matrix = np.zeros(self.weights.shape)
        matrix[:, self._master_outputs] = restricted
        return matrix


class FloorsProgram:
    """The restricted LP of local ε-DP on some outputs ``K`` as an LP over their floors ``c``, held warm in HiGHS.

    With floors ``c`` (``Σ c <= 1 <= e^ε Σ c``) each input's row of ``Q = c + α u`` (``0 <= u[x, y] <= c_y``,
    ``α = e^ε − 1``) is a fractional knapsack: ``u[x, ·] <= c`` filled in increasing ``W[x, y]`` until the row sums
    to 1. Its cost is ``F_x(c) = max_λ λ + Σ_y c_y h(W[x, y] − λ)``, ``h(a) = a + α min(a, 0)`` (LP duality; the
    function of ``λ`` is concave, its slope ``1 − Σ c >= 0`` below every ``W[x, y]`` and ``1 − e^ε Σ c <= 0`` above),
    the maximum reached at a breakpoint ``λ = W[x, b]``, ``b ∈ K``. So the restricted LP is
    ``min Σ_x z_x`` s.t. ``z_x >= W[x, b] + Σ_y c_y h(W[x, y] − W[x, b])`` (a *cut* per input and breakpoint),
    ``Σ c <= 1 <= e^ε Σ c``, ``c >= 0``: ``n + |K|`` columns where :class:`~mechdesign.methods.direct.LdpLinearProgram`
    has ``n |K|`` entries ``u`` and rows. Only the cuts that some floors made active are held (about three per
    input at n = 2,000–5,000; :meth:`knapsacks` names the missing ones), so the held LP is a relaxation whose
    floors ``c`` still give an exact mechanism and its cost (:meth:`knapsacks`); outputs join as columns
    (every held cut stays valid: it is ``F_x``'s function of ``λ`` at one point).

    The row sums' multipliers of the restricted LP are the cuts' duals' averages ``u_x = Σ_b π_xb W[x, b]``
    (``Σ_b π_xb = 1``): at the optimum, when the domain rows do not bind, ``Σ_x h(W[x, y] − u_x) >=
    Σ_{x, b} π_xb h(W[x, y] − W[x, b]) >= 0`` by the concavity of ``h`` (dual feasible) with the value ``Σ u``.
    The certificate does not rest on this: the pricing bound holds at any ``u``.

    Parameters
    ----------
    weights
        ``W`` of shape ``(n, m)`` on every output.
    epsilon
        The budget ε (nats).
    options
        HiGHS options over :data:`~mechdesign.methods.direct.HIGHS_OPTIONS`.

    Examples
    --------
    Uniform prior, Hamming cost on two outputs, ε = log 3: the optimum 1/4 (``Q`` = 3/4 on the diagonal).

    >>> program = FloorsProgram(np.array([[0.0, 0.5], [0.5, 0.0]]), math.log(3))
    >>> program.add_outputs(np.array([0, 1]))
    >>> program.add_cuts(np.array([0, 1]), np.array([0, 1]))   # a cut per input to start
    2
    >>> while True:   # the cuts active at the LP's floors join until none is missing
    ...     floors, heights, multipliers, iterations = program.solve()
    ...     matrix, costs, breakpoints = program.knapsacks(floors)
    ...     if not program.add_cuts(np.arange(2), breakpoints):
    ...         break
    >>> matrix.round(6).tolist(), round(float(costs.sum()), 6), multipliers.round(6).tolist()
    ([[0.75, 0.25], [0.25, 0.75]], 0.25, [0.125, 0.125])
    """

    def __init__(self, weights: np.ndarray, epsilon: float, options: Mapping[str, Any] | None = None) -> None:
        self.weights = weights
        self.epsilon = epsilon
        self.scale = math.exp(epsilon)
        self.excess = math.expm1(epsilon)
        n = weights.shape[0]
        #: The held outputs, in the order of their columns (after the ``n`` columns ``z``).
        self.outputs = np.zeros(0, dtype=np.int64)
        #: The held cuts ``(inputs[i], breakpoints[i])``, in the order of their rows (after the two domain rows).
        self.cut_inputs = self.cut_breakpoints = np.zeros(0, dtype=np.int64)
        self._held = np.zeros(weights.shape, dtype=bool)
        #: Each input's cuts are held divided by its largest weight (its height ``z_x`` in those units: cost ``s_x``), so
        #: that HiGHS's absolute tolerances are relative to the row's own scale (a Zipf prior's weights span decades).
        largest = weights.max(axis=1)
        self._row_scale = np.where(largest > 0.0, largest, 1.0)
        self.highs = quiet_highs({**HIGHS_OPTIONS, **(options or {})})
        infinite = highspy.kHighsInf
        self.highs.addVars(n, np.full(n, -infinite), np.full(n, infinite))
        self.highs.changeColsCost(n, np.arange(n, dtype=np.int32), self._row_scale)
        empty = np.zeros(0, dtype=np.int32)
        self.highs.addRow(-infinite, 1.0, 0, empty, np.zeros(0))  # Σ c <= 1
        self.highs.addRow(1.0, infinite, 0, empty, np.zeros(0))  # e^ε Σ c >= 1

    def _coefficients(self, inputs: np.ndarray, breakpoints: np.ndarray, outputs: np.ndarray) -> np.ndarray:
        """``−h(W[x, y] − W[x, b]) / s_x`` for the cuts ``(inputs, breakpoints)`` (rows) and ``outputs`` (columns)."""
        differences = self.weights[inputs[:, None], outputs[None, :]] - self.weights[inputs, breakpoints][:, None]
        return -np.where(differences >= 0.0, differences, self.scale * differences) / self._row_scale[inputs, None]

    def add_outputs(self, outputs: np.ndarray) -> None:
        """Append the floors ``c_y`` of ``outputs`` (not held yet), nonbasic at 0, in every held cut."""
        outputs = np.asarray(outputs, dtype=np.int64)
        block = sp.csc_matrix(np.vstack([np.ones((1, outputs.size)), np.full((1, outputs.size), self.scale),
                                         self._coefficients(self.cut_inputs, self.cut_breakpoints, outputs)]))
        block.eliminate_zeros()
        block.sort_indices()
        self.highs.addCols(outputs.size, np.zeros(outputs.size), np.zeros(outputs.size),
                           np.full(outputs.size, highspy.kHighsInf), block.nnz, block.indptr[:-1].astype(np.int32),
                           block.indices.astype(np.int32), block.data)
        self.outputs = np.concatenate([self.outputs, outputs])

    def add_cuts(self, inputs: np.ndarray, breakpoints: np.ndarray) -> int:
        """Add the cuts ``(inputs[i], breakpoints[i])`` not held yet (over the held outputs); how many were added."""
        inputs, breakpoints = np.asarray(inputs, dtype=np.int64), np.asarray(breakpoints, dtype=np.int64)
        fresh = ~self._held[inputs, breakpoints]
        inputs, breakpoints = inputs[fresh], breakpoints[fresh]
        if not inputs.size:
            return 0
        n, count = self.weights.shape[0], inputs.size
        self._held[inputs, breakpoints] = True
        coefficients = self._coefficients(inputs, breakpoints, self.outputs)
        rows = sp.csr_matrix((np.concatenate([np.ones(count), coefficients.ravel()]),
                              (np.concatenate([np.arange(count), np.repeat(np.arange(count), self.outputs.size)]),
                               np.concatenate([inputs, n + np.tile(np.arange(self.outputs.size), count)]))),
                             shape=(count, n + self.outputs.size))
        rows.eliminate_zeros()
        rows.sort_indices()
        self.highs.addRows(count, self.weights[inputs, breakpoints] / self._row_scale[inputs],
                           np.full(count, highspy.kHighsInf), rows.nnz,
                           rows.indptr[:-1].astype(np.int32), rows.indices.astype(np.int32), rows.data)
        self.cut_inputs = np.concatenate([self.cut_inputs, inputs])
        self.cut_breakpoints = np.concatenate([self.cut_breakpoints, breakpoints])
        return count

    def solve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
        """Re-solve from the held basis: the floors ``c`` (held outputs' order), the heights ``z``, the row sums'
        multipliers ``u`` (class docstring) and the simplex iterations; ``None`` unless HiGHS reached optimality."""
        outcome = run_highs(self.highs)
        if outcome.status != OPTIMAL:
            return None
        n, solution = self.weights.shape[0], self.highs.getSolution()
        values = np.asarray(solution.col_value)
        duals = np.abs(np.asarray(solution.row_dual)[2:])  # the cuts' π >= 0 (HiGHS's sign is the objective's)
        masses = np.bincount(self.cut_inputs, weights=duals, minlength=n)
        averages = np.bincount(self.cut_inputs, weights=duals * self.weights[self.cut_inputs, self.cut_breakpoints],
                               minlength=n)
        if np.any(masses <= 0.0):
            return None
        return np.clip(values[n:], 0.0, None), values[:n] * self._row_scale, averages / masses, outcome.iterations

    def knapsacks(self, floors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """At floors ``c`` (held outputs' order; first scaled into ``1 / e^ε <= Σ c <= 1`` if round-off left them
        outside): the mechanism on the held outputs (each row's fractional knapsack, class docstring), each row's
        cost ``F_x(c)``, and each row's active breakpoint (the output ``b`` whose cut is ``F_x`` at ``c``)."""
        total = floors.sum()
        floors = floors / total * min(max(total, 1.0 / self.scale), 1.0)
        held = self.weights[:, self.outputs]
        order = np.argsort(held, axis=1, kind="stable")
        ordered, ordered_floors = np.take_along_axis(held, order, axis=1), floors[order]
        room = self.excess * ordered_floors
        before = np.cumsum(room, axis=1) - room
        taken = np.clip(np.minimum(room, 1.0 - floors.sum() - before), 0.0, None)
        matrix = np.empty_like(held)
        np.put_along_axis(matrix, order, taken, axis=1)
        matrix += floors[None, :]
        # Each breakpoint's cut at c, from prefix sums along the sorted row: the largest is F_x(c).
        floor_mass, floor_weight = ordered_floors.sum(axis=1, keepdims=True), (ordered_floors * ordered).sum(axis=1,
                                                                                                          keepdims=True)
        below_mass = np.cumsum(ordered_floors, axis=1) - ordered_floors
        below_weight = np.cumsum(ordered_floors * ordered, axis=1) - ordered_floors * ordered
        cuts = ordered + floor_weight - ordered * floor_mass + self.excess * (below_weight - ordered * below_mass)
        active = cuts.argmax(axis=1)
        rows = np.arange(held.shape[0])
        return matrix, (held * matrix).sum(axis=1), self.outputs[order[rows, active]]


class LdpColumnGeneration(OutputGeneration):
    """Local ε-DP on the complete relation: the restricted LP is :class:`~mechdesign.methods.direct.LdpLinearProgram`,
    outputs priced by the cheapest staircase ray (per unit mass).

    An entering output's entries ``u[x, y]`` with ``a_xy < 0`` start basic, their rows ``u <= c`` at the bound
    (``c_y = 0``: the point does not move and the basis stays valid), so that entering ``c_y`` moves the whole
    staircase ``c_y (1 + α 1_S)``, ``S = {x : a_xy < 0}``, in one pivot instead of one per entry: about half the
    simplex iterations (n = 200–2000, random costs; benchmarks/notes/2026-11-27-reach.md).

    Examples
    --------
    >>> import numpy as np
    >>> weights = np.full((3, 3), 1 / 3) * (1 - np.eye(3))   # uniform prior, Hamming cost
    >>> solution = LdpColumnGeneration(weights).solve(1.0)
    >>> round(solution.value, 6), round(solution.lower_bound, 6)   # (n − 1) / (e^ε + n − 1)
    (0.423883, 0.423883)
    """

    dense = LdpLinearProgram
    #: Solve without caps (and without ``interior``) by the floors master (:class:`FloorsProgram`, :meth:`solve`);
    #: ``False``: by the restricted LP of :class:`~mechdesign.methods.direct.LdpLinearProgram` only.
    floors_master = True

    def _default_notion(self) -> PrivacyNotion:
        return DifferentialPrivacy()

    def _restart(self) -> None:
        super()._restart()
        self._floors: FloorsProgram | None = None

    def solve(self, epsilon: float, *, limits: Sequence[float] | None = None, cold: bool = False) -> DirectSolution:
        """As :meth:`OutputGeneration.solve`; without caps, ``interior`` or ``cold``, the restricted LPs are
        :class:`FloorsProgram`'s (``n + |K|`` columns and about ``3 n`` cuts where
        :class:`~mechdesign.methods.direct.LdpLinearProgram` has ``n |K|`` entries and rows: n = 5,000, random cost,
        ε = 1 through :class:`~mechdesign.DesignProblem`: 50 s against 86 s CPU at load 3.3,
        benchmarks/notes/2026-11-28-reach.md), cuts and outputs joining in the same rounds. If the floors master
        stops short of the gap, the restricted LP of :class:`~mechdesign.methods.direct.LdpLinearProgram` solves from
        scratch, as ``cold`` does (a second path, which :class:`~mechdesign.DesignProblem` takes when a warm solve is
        not certified)."""
        if cold or self.limit_weights or self.interior_master or not self.floors_master:
            return super().solve(epsilon, limits=limits, cold=cold)
        solution = self._solve_by_floors(float(epsilon))
        if solution is not None:
            return solution
        return super().solve(epsilon, limits=limits, cold=True)

    def _solve_by_floors(self, epsilon: float) -> DirectSolution | None:
        """Rounds of :class:`FloorsProgram`: each solves the held LP, adds the cuts its floors make active and the
        outputs its multipliers price out (:data:`ENTERING_PER_ROUND`); stops when the best mechanism so far is
        within the stopping gap of the best pricing bound (``None`` if HiGHS fails or a round adds nothing first)."""
        n = self.weights.shape[0]
        program = self._floors
        if program is None or program.epsilon != epsilon:  # a new budget: the same outputs and cuts, rebuilt
            fresh = FloorsProgram(self.weights, epsilon, self.options)
            fresh.add_outputs(self.outputs)
            if program is not None:
                fresh.add_cuts(program.cut_inputs, program.cut_breakpoints)
            start = np.full(self.outputs.size, 1.0 / ((1.0 + math.expm1(epsilon) / 2.0) * self.outputs.size))
            fresh.add_cuts(np.arange(n), fresh.knapsacks(start)[2])
            program = self._floors = fresh
        program.add_cuts(*self._lowest_cuts(program))
        bound, best, iterations = -math.inf, (math.inf, None, None), 0
        for _ in range(FLOORS_MAX_ROUNDS):
            check_memory(RESTRICTED_BYTES_PER_ENTRY * n * program.outputs.size,
                         f"the restricted LP on {n}×{program.outputs.size} (column generation, floors master)")
            solved = program.solve()
            if solved is None:
                return None
            floors, heights, multipliers, count = solved
            iterations += count
            matrix, costs, breakpoints = program.knapsacks(floors)
            value = math.fsum(costs)
            if value < best[0]:
                best = (value, matrix, program.outputs.copy())
            round_bound, reduced = self._pricing(multipliers, self.weights, epsilon)
            bound = max(bound, round_bound)
            if best[0] - bound <= STOP_FRACTION * GAP_RTOL * max(1.0, abs(best[0])):
                embedded = np.zeros(self.weights.shape)
                embedded[:, best[2]] = best[1]
                return DirectSolution(embedded, best[0], bound, iterations, "Optimal")
            missing = np.flatnonzero(costs - heights > 1e-12 * max(1.0, abs(value)) / n)
            entering = self._most_negative_outputs(reduced, ENTERING_PER_ROUND)
            if entering.size:
                program.add_outputs(entering)
                self.outputs = np.union1d(self.outputs, entering)
                program.add_cuts(*self._lowest_cuts(program))
            if not program.add_cuts(missing, breakpoints[missing]) and not entering.size:
                return None
        return None

    def _lowest_cuts(self, program: FloorsProgram) -> tuple[np.ndarray, np.ndarray]:
        """Each input's cut at its least held weight: ``z_x >= W[x, b] + Σ_y c_y (W[x, y] − W[x, b]) >= min_y W[x, y]``
        keeps the held LP bounded (with only cuts higher up, ``z_x`` reaches ``−e^ε max W`` at large budgets: HiGHS
        called the LP unbounded at ε = 20)."""
        inputs = np.arange(self.weights.shape[0])
        return inputs, program.outputs[np.argmin(self.weights[:, program.outputs], axis=1)]

    def _layout(self, outputs: np.ndarray, master: WarmLinearProgram) -> tuple[list, list]:
        inputs = np.arange(self.weights.shape[0])  # columns c, u, r, caps'; rows Σ = 1, r = Σ u, u <= c, caps'
        cap_columns, cap_rows = self._cap_layout(master)
        return ([(0, None, outputs), (1, inputs, outputs), (2, inputs, None), *cap_columns],
                [(3, inputs, None), (4, inputs, None), (5, inputs, outputs), *cap_rows])

    def _pricing(self, multipliers: np.ndarray, weights: np.ndarray, epsilon: float) -> tuple[float, np.ndarray]:
        per_mass = negative_staircase_prices(weights - multipliers[:, None], epsilon)
        return staircase_bound(multipliers, per_mass), per_mass

    def _grow(self, reduced: np.ndarray, duals: np.ndarray, epsilon: float) -> bool:
        # Each entering output's staircase S = {x : a_xy < 0} is remembered: its entries u[x, y] start basic.
        before = self.outputs
        grew = super()._grow(reduced, duals, epsilon)
        entering = np.setdiff1d(self.outputs, before)
        weights = self._effective_weights(self._cap_multipliers(duals))[:, entering]
        inputs, which = np.nonzero(weights - duals[: self.weights.shape[0], None] < 0.0)
        self._staircase = (inputs, entering[which])
        return grew

    def _staircase_slots(self, master: WarmLinearProgram) -> np.ndarray:
        """Positions ``x k + j`` (``k`` outputs held, ``j`` the output's place among them) of the entering
        outputs' staircase entries in ``master``'s block ``u`` (and in its block of rows ``u <= c``)."""
        inputs, outputs = self._staircase
        return inputs * self.outputs.size + np.searchsorted(self.outputs, outputs)

    def _fresh_column_status(self, master: WarmLinearProgram) -> list:
        # The staircase entries u[x, y] basic (at c_y = 0), the rest at 0: entering c_y then moves the
        # whole staircase column, one pivot instead of one per entry.
        status = np.full(master.highs.getNumCol(), highspy.HighsBasisStatus.kLower, dtype=object)
        status[self.outputs.size + self._staircase_slots(master)] = highspy.HighsBasisStatus.kBasic
        return status.tolist()

    def _fresh_row_status(self, master: WarmLinearProgram) -> list:
        # Their rows u[x, y] − c_y <= 0 at the bound (the basis keeps its size).
        status = np.full(master.highs.getNumRow(), highspy.HighsBasisStatus.kBasic, dtype=object)
        status[2 * self.weights.shape[0] + self._staircase_slots(master)] = highspy.HighsBasisStatus.kUpper
        return status.tolist()

    violation = LdpLinearProgram.violation


class _BoxedApproximateDpProgram(ApproximateDpLinearProgram):
    """:class:`~mechdesign.methods.direct.ApproximateDpLinearProgram` on some outputs plus, appended, entries
    ``Q[x, y] ∈ [0, δ]`` of outputs outside them (columns of floor ``c_y = 0``: ``Q[x, y] <= δ``).

    Parameters
    ----------
    weights
        ``W`` restricted to the floor outputs.
    delta
        The notion's δ.
    all_weights
        ``W`` on every output (the entries' costs).
    box_inputs, box_outputs
        The entries ``(x, y)`` outside the floor outputs.
    all_limits
        The caps' weights on every output (the entries' coefficients in the caps' rows); ``settings``
        (``limits`` on the floor outputs, ``penalty``, ``options``) as for the base class.
    """

    def __init__(self, weights: np.ndarray, delta: float, all_weights: np.ndarray, box_inputs: np.ndarray,
                 box_outputs: np.ndarray, *, notion: PrivacyNotion | None = None, all_limits: Sequence[np.ndarray] = (),
                 **settings: Any) -> None:
        super().__init__(weights, delta, notion=notion, **settings)
        self.all_weights = all_weights
        self.all_limits = list(all_limits)
        self.n_dense = self.highs.getNumCol()
        self.box_inputs = self.box_outputs = np.zeros(0, dtype=np.int64)
        self.add_boxes(box_inputs, box_outputs)

    def add_boxes(self, inputs: np.ndarray, outputs: np.ndarray) -> None:
        """Append the entries ``(inputs[i], outputs[i])`` (nonbasic at 0: the basis stays valid): each in its
        input's row sum and, with its cap weight, in every cap's row."""
        count = inputs.size
        rows = [np.asarray(inputs)] + [np.full(count, row) for row in self.limit_rows]
        values = [np.ones(count)] + [limit[inputs, outputs] for limit in self.all_limits]
        columns = np.tile(np.arange(count), len(rows))
        block = sp.csc_matrix((np.concatenate(values), (np.concatenate(rows), columns)),
                              shape=(self.highs.getNumRow(), count))
        self._add_columns(self.all_weights[inputs, outputs], np.zeros(count), np.full(count, self.delta), block)
        self.box_inputs = np.concatenate([self.box_inputs, inputs])
        self.box_outputs = np.concatenate([self.box_outputs, outputs])

    def raise_last(self, count: int) -> None:
        """Make the last ``count`` columns (entries just added) nonbasic at their upper bound δ, the rest
        of the basis kept."""
        basis = self.highs.getBasis()
        status = list(basis.col_status)
        status[len(status) - count:] = [highspy.HighsBasisStatus.kUpper] * count
        basis.col_status = status
        self.highs.setBasis(basis)

    def box_values(self) -> np.ndarray:
        """The entries' values at the last solve (simplex or interior point)."""
        return self.column_values[self.n_dense:]

    def _upper_bounds(self, epsilon: float) -> np.ndarray:
        return np.concatenate([super()._upper_bounds(epsilon), np.full(self.box_inputs.size, self.delta)])


class ApproximateDpColumnGeneration(OutputGeneration):
    """Pointwise (ε, δ)-DP on the complete relation: floor outputs (staircase rays, entering as
    outputs of :class:`~mechdesign.methods.direct.ApproximateDpLinearProgram`) and entries ``Q[x, y] <= δ``
    of the other outputs (the vertices ``δ 1_T``, entering one by one at their upper bound δ, at most
    ``⌈1/δ⌉`` per input and round; the re-solves run the dual simplex).

    Parameters
    ----------
    weights
        The weights ``W[x, y] = P(x) d(x, y)`` on every output.
    delta
        δ of ``ApproximateDifferentialPrivacy(δ, "pointwise")``.

    Examples
    --------
    >>> import numpy as np
    >>> weights = np.full((3, 3), 1 / 3) * (1 - np.eye(3))   # uniform prior, Hamming cost
    >>> solution = ApproximateDpColumnGeneration(weights, 0.05).solve(math.log(2))
    >>> solution.matrix.diagonal().round(6).tolist()   # e^ε · 0.2375 + δ off the diagonal's 0.2375
    [0.525, 0.525, 0.525]
    >>> round(solution.value, 6), round(solution.lower_bound, 6)
    (0.475, 0.475)
    """

    dense = ApproximateDpLinearProgram
    warm_simplex_strategy = DUAL_SIMPLEX_STRATEGY

    def __init__(self, weights: np.ndarray, delta: float, *, notion: PrivacyNotion | None = None,
                 **settings: Any) -> None:
        self.delta = float(delta)
        self._pending = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))  # entries for the next build
        super().__init__(weights, notion=notion, **settings)

    @classmethod
    def for_notion(cls, notion: PrivacyNotion, weights: np.ndarray, **settings: Any) -> OutputGeneration:
        return cls(weights, notion.delta, notion=notion, **settings)

    def _default_notion(self) -> PrivacyNotion:
        return ApproximateDifferentialPrivacy(self.delta)

    def _restricted(self, weights: np.ndarray) -> WarmLinearProgram:
        inputs, outputs = self._pending
        if self._master is not None:
            inputs = np.concatenate([self._master.box_inputs, inputs])
            outputs = np.concatenate([self._master.box_outputs, outputs])
        kept = ~np.isin(outputs, self.outputs)  # an entry of a floor output is that output's s[x, y]
        self._pending = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        return _BoxedApproximateDpProgram(weights, self.delta, self.weights, inputs[kept], outputs[kept],
                                          notion=self.notion, all_limits=self.limit_weights,
                                          **self._restricted_settings())

    def _layout(self, outputs: np.ndarray, master: WarmLinearProgram) -> tuple[list, list]:
        # Columns c, h, s, r, caps', the entries; rows Σ = 1, r = Σ s, h = α c + δ, s <= h, caps'.
        inputs = np.arange(self.weights.shape[0])
        cap_columns, cap_rows = self._cap_layout(master)
        return ([(0, None, outputs), (1, None, outputs), (2, inputs, outputs), (3, inputs, None), *cap_columns,
                 (2, master.box_inputs, master.box_outputs, True)],
                [(4, inputs, None), (5, inputs, None), (6, None, outputs), (7, inputs, outputs), *cap_rows])

    def _pricing(self, multipliers: np.ndarray, weights: np.ndarray, epsilon: float) -> tuple[float, np.ndarray]:
        reduced = weights - multipliers[:, None]
        per_mass = negative_staircase_prices(reduced, epsilon)
        bound = staircase_bound(multipliers, per_mass) + self.delta * math.fsum(np.minimum(reduced, 0.0).ravel())
        return bound, per_mass

    def _grow(self, reduced: np.ndarray, duals: np.ndarray, epsilon: float) -> bool:
        entries = self._reduced_weights(duals)
        entries[:, self.outputs] = np.inf
        entries[self._master.box_inputs, self._master.box_outputs] = np.inf
        inputs, outputs = _most_negative_per_row(entries, _entries_per_row(self.delta))
        before = self.outputs
        grew = super()._grow(reduced, duals, epsilon)
        fresh = ~np.isin(outputs, self.outputs)
        inputs, outputs = inputs[fresh], outputs[fresh]
        if not np.array_equal(before, self.outputs):
            self._pending = (inputs, outputs)  # built into the next restricted LP
        elif inputs.size:  # the same restricted LP: the entries join it warm
            self._master.add_boxes(inputs, outputs)
            self._master.raise_last(inputs.size)
            self._master.highs.setOptionValue("simplex_strategy", self.warm_simplex_strategy)
        return grew or inputs.size > 0

    def _fresh_column_status(self, master: WarmLinearProgram) -> list:
        # Entries enter at their upper bound δ (their reduced cost is negative: dual feasible there).
        return ([highspy.HighsBasisStatus.kLower] * master.n_dense
                + [highspy.HighsBasisStatus.kUpper] * master.box_inputs.size)

    def _embed(self, restricted: np.ndarray) -> np.ndarray:
        matrix = super()._embed(restricted)
        np.add.at(matrix, (self._master.box_inputs, self._master.box_outputs), self._master.box_values())
        return matrix

    def violation(self, matrix: np.ndarray, epsilon: float) -> float:
        return ApproximateDpLinearProgram.violation(self, matrix, epsilon)


class MaximalLeakageColumnGeneration(OutputGeneration):
    """Maximal leakage ``Σ_y max_x Q[x, y] <= e^ε``: the restricted LP is
    :class:`~mechdesign.methods.direct.MaximalLeakageLinearProgram`, outputs priced by their cheapest ``1_S``
    against the budget row's dual.

    Examples
    --------
    >>> import numpy as np
    >>> weights = np.full((3, 3), 1 / 3) * (1 - np.eye(3))
    >>> round(MaximalLeakageColumnGeneration(weights).solve(math.log(2)).value, 6)   # 1 − e^ε / n
    0.333333
    """

    dense = MaximalLeakageLinearProgram

    def _default_notion(self) -> PrivacyNotion:
        return MaximalLeakage()

    def _layout(self, outputs: np.ndarray, master: WarmLinearProgram) -> tuple[list, list]:
        inputs = np.arange(self.weights.shape[0])  # columns Q, M, caps'; rows Σ = 1, Q <= M, Σ M <= e^ε, caps'
        cap_columns, cap_rows = self._cap_layout(master)
        return ([(0, inputs, outputs), (1, None, outputs), *cap_columns],
                [(2, inputs, None), (3, inputs, outputs), (4, None, None), *cap_rows])

    def _pricing(self, multipliers: np.ndarray, weights: np.ndarray, epsilon: float) -> tuple[float, np.ndarray]:
        negative = np.minimum(weights - multipliers[:, None], 0.0).sum(axis=0)
        return math.fsum(multipliers) + self.scale(epsilon) * min(0.0, float(negative.min())), negative

    def _price(self, duals: np.ndarray, epsilon: float) -> tuple[float, np.ndarray]:
        bound, negative = super()._price(duals, epsilon)
        return bound, negative - duals[self._master.budget_row]  # the budget's row Σ_y M_y <= e^ε

    violation = MaximalLeakageLinearProgram.violation


class PmlColumnGeneration(OutputGeneration):
    """PML under one prior: the restricted LP is :class:`~mechdesign.methods.direct.PmlLinearProgram` on some
    outputs *and some of their entries*, outputs priced by their cheapest fractional-knapsack vertex (and,
    outside the support, entry).

    A knapsack vertex at ``t = e^ε`` fills only the inputs holding ``1 / t`` of the prior's mass (``n / e^ε``
    under a uniform prior), and at large budgets optimal columns are close to such patterns, so an output
    enters with about its vertex's entries (:data:`PML_ENTRY_FACTOR`, :data:`PML_ENTRY_MARGIN`; its whole
    column when the vertex covers most of the support) and the rest of its column fixed at 0. A held
    output's missing entry ``Q[x, y]`` then has the reduced cost ``W[x, y] − u_x + P_x λ_y`` (``λ_y`` the
    dual of the row ``z_y = P·Q[:, y]``; its new row ``Q[x, y] <= w_y`` starts slack) and enters when
    negative. At large budgets the most negative outputs want the same few cheap inputs, so outputs whose
    vertices cover other inputs enter in the same round (``_complementary_columns``,
    :data:`PML_ENTERING_PER_ROUND`). After a loose interior-point round, entries of outputs that entered with small
    columns leave again when they are zero and priced well above it (:data:`PML_DROP_COST`). The certificate is the
    same: the pricing bound covers every output and every entry.

    Parameters
    ----------
    weights
        ``W`` of shape ``(n, m)``.
    prior
        The notion's prior ``P``.

    Examples
    --------
    >>> import numpy as np
    >>> weights = np.full((3, 3), 1 / 3) * (1 - np.eye(3))
    >>> solution = PmlColumnGeneration(weights, np.full(3, 1 / 3)).solve(math.log(2))
    >>> round(solution.value, 6), round(solution.lower_bound, 6)
    (0.333333, 0.333333)
    """

    def __init__(self, weights: np.ndarray, prior: np.ndarray, *, notion: PrivacyNotion | None = None,
                 **settings: Any) -> None:
        self.prior = np.asarray(prior, dtype=float)
        self.support = np.flatnonzero(self.prior > 0)
        self.outside = np.flatnonzero(self.prior == 0)
        super().__init__(weights, notion=notion, **settings)

    def _restart(self) -> None:
        # The least-weight output whole (every row holds an entry) and each input outside the support's
        # cheapest entry (those rows are unconstrained: no other entry of theirs ever prices out).
        super()._restart()
        cheapest = self.weights[self.outside].argmin(axis=1)
        #: The held entries of ``Q`` (``(n, m)`` mask; only the held outputs' columns hold any).
        self.held = np.zeros(self.weights.shape, dtype=bool)
        self.held[:, self.outputs] = True
        self.held[self.outside, cheapest] = True
        self.outputs = np.union1d(self.outputs, cheapest)
        #: The entries each output entered with (those held from the start: more than the support, never dropped).
        self.entered_with = np.zeros(self.weights.shape[1])
        self.entered_with[self.outputs] = np.inf
        self._held_built: np.ndarray | None = None
        self._droppable: np.ndarray | None = None

    def _master_is_current(self) -> bool:
        return (super()._master_is_current() and self._held_built is not None
                and np.array_equal(self._held_built, self.held))

    def _solve_master(self, epsilon: float, cold: bool, interior: bool, loose: bool) -> tuple[DirectSolution, bool]:
        # Entries may leave after a loose interior-point round (PML_DROP_VALUE): those of value at most that.
        solution, by_interior = super()._solve_master(epsilon, cold, interior, loose)
        self._held_built = self.held.copy()
        self._droppable = (solution.matrix <= PML_DROP_VALUE
                           if by_interior and loose and solution.matrix is not None else None)
        return solution, by_interior

    dense = PmlLinearProgram
    #: The restricted LPs by the interior point: their simplex needs about ``n / e^ε`` pivots per entering
    #: output (each nonzero entry of a knapsack vertex is a variable of its own). n = 1000, Zipf prior, random
    #: cost, side by side with the warm dual simplex: ε = 1 81 → 25 s CPU, ε = 2 180 → 58 s (uniform prior, ε = 1:
    #: > 300 s → 96 s), then 1.4–1.5× less with Clarabel's iterative refinement off (benchmarks/RESULTS.md).
    interior_master = True
    #: Clarabel's automatic choice (0.11) takes its supernodal factorization once the restricted LP holds ~ 200
    #: outputs (n = 1000), where the simplicial one is still up to 3.4× faster per iteration; where the supernodal
    #: one starts to win depends on the instance (Zipf prior, ε = 5: from ~ 250 outputs; uniform prior, ε = 3: not
    #: up to 321; ~ 400 outputs: 2×). n = 1000, random cost, uniform prior, ε = 3: 59.7 → 40.8 s wall
    #: (benchmarks/RESULTS.md).
    simplicial_max_outputs = 300

    @classmethod
    def for_notion(cls, notion: PrivacyNotion, weights: np.ndarray, **settings: Any) -> OutputGeneration:
        return cls(weights, notion.prior.probabilities, notion=notion, **settings)

    def _default_notion(self) -> PrivacyNotion:
        return PointwiseMaximalLeakage(self.prior)

    def _restricted(self, weights: np.ndarray) -> WarmLinearProgram:
        return PmlLinearProgram(weights, self.prior, entries=self.held[:, self.outputs], notion=self.notion,
                                **self._restricted_settings())

    def _layout(self, outputs: np.ndarray, master: WarmLinearProgram) -> tuple[list, list]:
        # Columns Q (held entries), z, w, caps'; rows Σ = 1, z = P·Q, w = e^ε z, Q <= w (held entries in the
        # support), caps'.
        inputs, entry_outputs = master.entry_inputs, outputs[master.entry_outputs]
        constrained = master.constrained_entries
        cap_columns, cap_rows = self._cap_layout(master)
        return ([(0, inputs, entry_outputs, True), (1, None, outputs), (2, None, outputs), *cap_columns],
                [(3, np.arange(self.weights.shape[0]), None), (4, None, outputs), (5, None, outputs),
                 (6, inputs[constrained], entry_outputs[constrained], True), *cap_rows])

    def _pricing(self, multipliers: np.ndarray, weights: np.ndarray, epsilon: float) -> tuple[float, np.ndarray]:
        reduced = weights - multipliers[:, None]
        order, values = knapsack_vertices(reduced[self.support], self.prior[self.support], self.scale(epsilon))
        vertex_costs = np.einsum("ij,ij->j", np.take_along_axis(reduced[self.support], order, axis=0), values)
        bound = (math.fsum(multipliers[self.support]) + float(vertex_costs.min())
                 + math.fsum(weights[self.outside].min(axis=1)))
        return bound, np.minimum(vertex_costs, reduced[self.outside].min(axis=0, initial=0.0))

    def _grow(self, reduced: np.ndarray, duals: np.ndarray, epsilon: float) -> bool:
        # Missing entries of the held outputs with a negative reduced cost join. Outputs enter by their
        # reduced cost and their vertices' complementarity (PML_ENTERING_PER_ROUND), each with about its
        # knapsack vertex's entries, next in the vertex's order (or its whole column; PML_ENTRY_FACTOR).
        # After a loose interior-point round, held entries of outputs that entered with a small part of their
        # column, priced well above zero, leave (PML_DROP_COST), and outputs left with no entry. The outputs held
        # from the start keep their entries: the first one's whole column keeps the restricted LP feasible.
        n, held_outputs, reduced_weights = self.weights.shape[0], self.outputs, self._reduced_weights(duals)
        entry_costs = (reduced_weights[:, held_outputs]
                       + self.prior[:, None] * duals[n: n + held_outputs.size][None, :])
        held = self.held[:, held_outputs]
        partial = self.entered_with[held_outputs] <= PML_DROP_FRACTION * self.support.size
        missing = ~held & (entry_costs < -PRICING_TOLERANCE)
        held |= missing
        if self._droppable is not None:
            held &= ~(self._droppable & partial[None, :]
                      & (entry_costs > PML_DROP_COST * self.weights.max(axis=1)[:, None]))
            self.outputs = held_outputs[held.any(axis=0)]
        self.held[:, held_outputs] = held
        candidates = self._most_negative_outputs(reduced, PML_CANDIDATES)
        order, values = knapsack_vertices(reduced_weights[np.ix_(self.support, candidates)],
                                          self.prior[self.support], self.scale(epsilon))
        chosen = _complementary_columns(values > 0, order, ENTERING_PER_ROUND, PML_ENTERING_PER_ROUND, PML_OVERLAP)
        entering, order, values = candidates[chosen], order[:, chosen], values[:, chosen]
        self.outputs = np.union1d(self.outputs, entering)
        depth = np.ceil(PML_ENTRY_FACTOR * np.count_nonzero(values > 0, axis=0)) + PML_ENTRY_MARGIN
        depth[depth > PML_WHOLE_COLUMN_FRACTION * self.support.size] = self.support.size
        self.entered_with[entering] = depth
        within = np.arange(self.support.size)[:, None] < depth[None, :]
        self.held[self.support[order[within]], np.broadcast_to(entering, order.shape)[within]] = True
        return entering.size > 0 or bool(missing.any())

    scale = PmlLinearProgram.scale
    violation = PmlLinearProgram.violation


def negative_staircase_prices(reduced: np.ndarray, epsilon: float) -> np.ndarray:
    """Per column, :func:`~mechdesign.methods.direct.staircase_per_mass` (the cheapest staircase column's reduced cost per
    unit mass) where it may be negative, 0 where it is not: the same pricing bound and the same entering outputs,
    with the sort only over the columns that need it.

    A column's staircases all have non-negative reduced costs exactly when the least of them,
    ``Σ_x a_x + α Σ_x min(a_x, 0)`` (``S = {x : a_x < 0}``; no sort), is; columns where it is not clearly
    positive (beyond ``1e-9 Σ_x |a_x|``, far above its round-off) are sorted exactly. Near the optimum few are
    (n = 2000, random cost: the last rounds sort 0–2 % of the columns).

    Examples
    --------
    >>> reduced = np.array([[-1.0, 1.0], [-0.1, 2.0]])
    >>> negative_staircase_prices(reduced, math.log(3)).tolist()   # (−1.1 − 2) / 4; the second column 0
    [-0.775, 0.0]
    """
    cheapest = reduced.sum(axis=0) + math.expm1(epsilon) * np.minimum(reduced, 0.0).sum(axis=0)
    maybe_negative = np.flatnonzero(cheapest <= 1e-9 * np.abs(reduced).sum(axis=0))
    prices = np.zeros(reduced.shape[1])
    if maybe_negative.size:
        prices[maybe_negative] = np.minimum(staircase_per_mass(reduced[:, maybe_negative], epsilon), 0.0)
    return prices


def _entries_per_row(delta: float) -> int:
    """How many entries ``Q[x, y] <= δ`` may enter per input and round (:data:`ENTRIES_PER_ROW_FACTOR`).

    Examples
    --------
    >>> _entries_per_row(0.01), _entries_per_row(0.3)
    (100, 4)
    """
    return ENTRIES_PER_ROW_FACTOR * math.ceil(1.0 / delta) if delta > 0 else 0


def _most_negative_per_row(reduced: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, columns)`` of the entries of ``reduced`` below ``−PRICING_TOLERANCE`` that are among
    the ``count`` smallest of their row, in row-major order.

    Examples
    --------
    >>> rows, columns = _most_negative_per_row(np.array([[-3.0, -1.0, -2.0], [1.0, -1.0, 0.0]]), 2)
    >>> rows.tolist(), columns.tolist()
    ([0, 0, 1], [0, 2, 1])
    """
    if count < reduced.shape[1]:
        smallest = np.argpartition(reduced, count, axis=1)[:, :count]
        kept = np.full(reduced.shape, np.inf)
        np.put_along_axis(kept, smallest, np.take_along_axis(reduced, smallest, axis=1), axis=1)
        reduced = kept
    return np.nonzero(reduced < -PRICING_TOLERANCE)


def _labels(blocks: list, shape: tuple[int, int]) -> np.ndarray:
    """Integer labels of a restricted LP's columns (or rows), block after block: a block
    ``(kind, inputs, outputs)`` is one entry per input (``outputs`` ``None``), per output (``inputs``
    ``None``), per pair in row-major order, or a single one (both ``None``); a block
    ``(kind, inputs, outputs, True)`` one entry per ``(inputs[i], outputs[i])``.

    Examples
    --------
    >>> _labels([(0, np.arange(2), None), (1, np.arange(2), np.array([0, 2]))], (2, 3)).tolist()
    [4, 8, 17, 19, 21, 23]
    """
    n, m = shape
    parts = []
    for kind, inputs, outputs, *paired in blocks:
        xs = np.full(1, -1) if inputs is None else np.asarray(inputs)
        ys = np.full(1, -1) if outputs is None else np.asarray(outputs)
        if paired:  # one entry per (inputs[i], outputs[i])
            parts.append((kind * (n + 1) + xs + 1) * (m + 1) + ys + 1)
        else:
            parts.append(((kind * (n + 1) + xs[:, None] + 1) * (m + 1) + ys[None, :] + 1).ravel())
    return np.concatenate(parts).astype(np.int64)


def _complementary_columns(filled: np.ndarray, order: np.ndarray, first: int, most: int, overlap: float) -> np.ndarray:
    """Columns of a ranked candidate list to take: the ``first`` ones, then (up to ``most`` in all, in rank
    order) each whose inputs are at most the fraction ``overlap`` covered by the columns taken before it.

    Parameters
    ----------
    filled
        ``filled[k, j]``: whether candidate ``j`` holds the input ``order[k, j]`` (its knapsack vertex is
        positive there; :func:`knapsack_vertices`).
    order
        ``order[:, j]``: candidate ``j``'s inputs, as :func:`knapsack_vertices` returns them.
    first, most, overlap
        As above (``first <= most``).

    Examples
    --------
    Three candidates on four inputs, each holding its first two: ``{0, 1}``, ``{1, 0}`` (covered by the
    first) and ``{2, 3}``:

    >>> order = np.array([[0, 1, 2], [1, 0, 3], [2, 2, 0], [3, 3, 1]])
    >>> filled = np.arange(4)[:, None] < 2 * np.ones((1, 3), dtype=int)
    >>> _complementary_columns(filled, order, 1, 3, 0.3).tolist()
    [0, 2]
    >>> _complementary_columns(filled, order, 2, 3, 0.3).tolist()   # the first two whatever they cover
    [0, 1, 2]
    >>> _complementary_columns(filled, order, 1, 1, 0.3).tolist()
    [0]
    """
    covered = np.zeros(order.shape[0], dtype=bool)
    taken: list[int] = []
    for column in range(order.shape[1]):
        inputs = order[filled[:, column], column]
        if len(taken) < first or covered[inputs].mean() <= overlap:
            taken.append(column)
            covered[inputs] = True
        if len(taken) == most:
            break
    return np.array(taken, dtype=np.int64)


def knapsack_vertices(reduced: np.ndarray, prior: np.ndarray, ceiling: float) -> tuple[np.ndarray, np.ndarray]:
    """Per column ``y``, the minimizer of ``a·v`` over ``{0 <= v <= ceiling, P·v = 1}`` (``ceiling >= 1``,
    ``P > 0`` summing to 1): inputs in increasing ``a_x / P_x`` filled to ``ceiling`` until
    ``P·v = 1``, the last one fractionally (the fractional knapsack, exact for this LP).

    Returns
    -------
    (order, values)
        ``order[:, y]`` the inputs in filling order and ``values[:, y]`` their entries of ``v``.

    Examples
    --------
    >>> order, values = knapsack_vertices(np.array([[1.0], [-1.0], [0.0]]), np.array([0.5, 0.25, 0.25]), 2.0)
    >>> order[:, 0].tolist(), values[:, 0].tolist()   # 0.25·2 + 0.25·2 = 1
    ([1, 2, 0], [2.0, 2.0, 0.0])
    """
    order = np.argsort(reduced / prior[:, None], axis=0, kind="stable")
    masses = prior[order]
    filled_before = np.cumsum(ceiling * masses, axis=0) - ceiling * masses
    values = np.minimum(ceiling, np.clip(1.0 - filled_before, 0.0, None) / masses)
    return order, values
