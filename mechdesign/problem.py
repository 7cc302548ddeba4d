"""The compiled design problem: one convex problem, solved and then independently re-measured.

:class:`DesignProblem` builds the cvxpy problem once, with every budget and limit as a cvxpy ``Parameter``
(DPP), so that curves re-solve it without recompiling; :data:`COMPILED_METHODS` are the methods it runs (the
entries of ``solve.METHODS`` that are re-solvable at new budgets).

Every solution is cleaned (round-off negatives clipped, outputs of negligible mass dropped, rows
renormalized — differences far below the tolerances), then re-measured with each notion's own
numpy :meth:`~mechdesign.privacy.base.PrivacyNotion.measure`. If it misses a budget by round-off,
mixing a tiny weight (at most ``1e-7``) of the constant mechanism into it is tried, which the
message reports. A solution whose measured privacy still exceeds its budget by more than
:func:`~mechdesign.result.budget_tolerance` (relative to the budget) is reported as ``success=False``, status ``"inaccurate"``, whatever the solver
said.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from ._lazy import cvxpy as cp
import numpy as np

from ._validate import (
    as_budget,
    as_finite,
)
from .certificate import design_lower_bound
from .methods.certified import exceeded, failure_result, mechanism_result
from .methods.direct import (WarmLinearProgram, check_highs_options, column_generation_class, direct_program,
                     direct_program_class, highs_option_error)
from .exceptions import InvalidMechanismError, MechDesignError, ProblemTooLargeError
from .mechanism import Mechanism, as_mechanism
from .memory import check_memory
from .privacy.base import BudgetParameter, PrivacyNotion
from .solvers import (INFEASIBLE, INFEASIBLE_INACCURATE, OPTIMAL, OPTIMAL_INACCURATE, largest_violation, solve_cvxpy,
                      solver_option_names, unknown_solver_options)
from .result import (
    GAP_RTOL,
    LIMIT_ATOL,
    Result,
    certify_mechanism,
    clean_mechanism,
    gap_tolerance,
    is_certified_optimal,
    mix_with_constant,
)
from .specification import DesignMethod, DesignSpec, MethodChoice, choose_method, design_spec
from .utility.base import Objective


#: Largest constraint scale (``e^ε`` for most notions) a budget is solved at: beyond it, the budget
#: is reduced to where it is reached (still within the budget asked; see DesignProblem's notes).
MAX_CONSTRAINT_SCALE = 1e12
#: LPs with at most this many mechanism entries go to HiGHS, larger ones to Clarabel
#: (measured in benchmarks/ldp_formulations.py; see benchmarks/RESULTS.md).
HIGHS_MAX_ENTRIES = 2_500

#: Bytes of peak memory per estimated nonzero (:func:`estimated_nonzeros`): an upper envelope of
#: cvxpy canonicalization plus solver measured in benchmarks/scaling.py (peak / nonzeros at n = 100–200:
#: LPs 0.34–0.43 kB, mutual information on exponential cones 2.4 kB; see benchmarks/RESULTS.md).
BYTES_PER_NONZERO = 3_000

def _unique_labels(items: Sequence[Any]) -> list[str]:
    labels: list[str] = []
    for item in items:
        label = item.label
        while label in labels:
            label += "'"
        labels.append(label)
    return labels


def estimated_nonzeros(problem: cp.Problem) -> int:
    """Sum of the sizes of every node of the objective's and constraints' expression trees.

    Each node becomes at least one row or column entry of the canonical problem (an atom such as
    ``pos`` or ``rel_entr`` adds an auxiliary variable and a row per entry), so this tracks the
    number of nonzeros cvxpy and the solver hold, without canonicalizing.

    Parameters
    ----------
    problem
        A cvxpy problem.

    Returns
    -------
    int
        The estimate.

    Examples
    --------
    ``minimize Σ x`` subject to ``x >= 1`` for ``x ∈ ℝⁿ``: the objective, the sum and ``x``
    (``1 + 1 + n``), the constraint, ``x`` and the constant (``n + n + 1``), so ``3n + 3``:

    >>> x = cp.Variable(30)
    >>> estimated_nonzeros(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1]))
    93
    """
    total, stack = 0, [problem.objective, *problem.constraints]
    while stack:
        node = stack.pop()
        total += int(getattr(node, "size", 1))
        stack.extend(node.args)
    return total


def choose_solver(is_linear: bool, n_entries: int) -> str:
    """Default solver: HiGHS for small LPs, Clarabel for large LPs and for conic problems.

    Parameters
    ----------
    is_linear
        Whether the problem is an LP.
    n_entries
        The number of entries of the mechanism.

    Returns
    -------
    str
        ``"highs"`` for an LP of at most :data:`HIGHS_MAX_ENTRIES` entries, else ``"clarabel"``.

    Examples
    --------
    >>> choose_solver(True, 100), choose_solver(True, HIGHS_MAX_ENTRIES + 1), choose_solver(False, 4)
    ('highs', 'clarabel', 'clarabel')
    """
    return "highs" if is_linear and n_entries <= HIGHS_MAX_ENTRIES else "clarabel"


#: The message of a result certified optimal (what follows it says how it was found).
_OPTIMAL_NOTE = f"optimal (gap within {GAP_RTOL:g} relative); every budget re-measured and respected"
#: The status of an attempt that was not made (the cvxpy fallback of a direct LP too large for memory).
NOT_TRIED = "not tried"


@dataclass(frozen=True)
class _Attempt:
    """One solver run's raw outcome (before cleaning and certification)."""

    status: str
    matrix: np.ndarray | None
    max_violation: float | None
    iterations: int | None
    solver: str
    method: str
    note: str = ""
    bound: float | None = None  # a certified bound from the solver's own duals, in solved units
    multipliers: list[np.ndarray | None] | None = None  # cvxpy's, per notion then per limit (the certificate's)
    row_multipliers: np.ndarray | None = None  # cvxpy's of the unit row sums, HiGHS's sign (``c − Aᵀy``)


@dataclass(frozen=True)
class _Shortcut:
    """The unconstrained optimum of a problem, its value, each notion's leakage of it, and the same for its mix
    with the least weight of the constant mechanism that leaves the gap within tolerance (``mixed`` ``None`` when
    that weight is not below 1)."""

    optimum: Mechanism
    floor: float
    leakages: tuple[float, ...]
    weight: float
    mixed: Mechanism | None
    mixed_leakages: tuple[float, ...] | None


@dataclass(frozen=True)
class _Candidate:
    """A cleaned, re-measured solution of one attempt."""

    attempt: _Attempt
    mechanism: Mechanism | None
    exceeded: list[str]
    note: str
    value: float = math.nan  # the solved objective's value (computed once)
    measured: tuple[dict[str, float], dict[str, float]] | None = None  # the notions' and limits' (computed once)

    @property
    def private(self) -> bool:
        return self.mechanism is not None and not self.exceeded


class DesignProblem:
    """A compiled design problem: minimize an objective over mechanisms subject to privacy budgets and
    limits on other quantities, re-solvable for new budgets and limits, every answer certified.

    Parameters
    ----------
    notions
        Privacy notions (one or several); each gets a budget at :meth:`solve`.
    objective
        What to minimize; its ``shape`` fixes the mechanism's shape.
    limits
        Quantities to cap (objectives, e.g. a distortion); each gets a limit value at :meth:`solve`.
    solver
        ``"highs"``, ``"clarabel"`` or ``"scs"``; by default chosen by :func:`choose_solver`, and a
        solve that cannot be certified is retried with the other solvers. A named solver is used alone;
        it chooses a solver, not a path (as for :func:`~mechdesign.solve.design`: ``"highs"`` and ``"clarabel"`` keep the
        direct LP).
    solver_options
        Extra keyword arguments for the solver: HiGHS options on the direct LPs, any solver's through cvxpy
        (Clarabel's only there).
    method
        ``"auto"`` (the direct LP where it applies, else cvxpy), ``"direct-lp"`` or ``"cvxpy"``: the
        compiled methods of :data:`~mechdesign.solve.METHODS` (:data:`COMPILED_METHODS`); a named one runs without
        fallback, and one that does not apply raises :class:`~mechdesign.exceptions.MethodNotApplicableError`.

    Notes
    -----
    How a budget is solved (``Result.method``):

    * ``"unconstrained-optimum"`` — without limits, when the objective's unconstrained optimum (each
      input to its cheapest output), or it mixed with a weight of the constant mechanism small enough
      for the gap to be within :data:`~mechdesign.result.GAP_RTOL`, meets every budget: then it is
      optimal, certified by the unconstrained optimum's value as the lower bound. This is how large
      budgets (up to ``math.inf``, beyond what float64 ``e^ε`` can express) are solved.
    * ``"direct-lp"`` — an :class:`~mechdesign.utility.distortion.ExpectedDistortion` under one notion
      with a registered warm LP (:mod:`mechdesign.registry`: local ε-DP, maximal leakage, PML under one
      prior, pointwise (ε, δ)-DP on the complete relation), limits (if any) on other expected
      distortions (each one row of the LP), solver HiGHS (``solver_options`` are HiGHS options) or
      Clarabel (its interior point on the same LP; Clarabel's options go through cvxpy): the
      warm-started LP of :mod:`mechdesign.methods.direct` (no cvxpy), certified by the safe bound at the
      solver's duals; a warm solve that is not certified is re-solved cold, then (``method="auto"``
      only) through cvxpy with the named solver or Clarabel. The cvxpy problem is built only for that
      fallback.
    * ``"column-generation"`` — the same problems from
      :data:`~mechdesign.methods.direct.COLUMN_GENERATION_MIN_INPUTS` inputs on: the direct LP restricted to
      generated outputs (:mod:`mechdesign.methods.column_generation`), certified by exact pricing
      (a limit's multiplier prices it).
    * ``"cvxpy"`` — the cvxpy problem (DPP: budgets and limits are Parameters), certified by
      :func:`~mechdesign.certificate.design_lower_bound` (for LPs from the solver's own multipliers
      first).

    Costs are solved in units of the objective's :attr:`~mechdesign.utility.base.Objective.unit`
    (and limits in theirs), so the scale of the cost never changes the answer. Budgets whose
    constraint scale (e.g. ``e^ε``) exceeds :data:`MAX_CONSTRAINT_SCALE` are solved at the smaller
    budget where it is reached (a mechanism within it is within the budget asked) and the message
    says so. Problems whose estimated memory exceeds :func:`available_memory` raise
    :class:`~mechdesign.exceptions.ProblemTooLargeError`.
    """

    def __init__(
        self,
        notions: Union[PrivacyNotion, Sequence[PrivacyNotion]],
        objective: Objective,
        limits: Sequence[Objective] = (),
        *,
        solver: str | None = None,
        solver_options: Mapping[str, Any] | None = None,
        method: str = "auto",
    ) -> None:
        spec = design_spec(notions, objective, limits, solver, solver_options)
        self._setup(spec, choose_method(spec, method, COMPILED_METHODS))

    @classmethod
    def planned(cls, spec: DesignSpec, choice: MethodChoice) -> "DesignProblem":
        """The problem for a method already chosen by :func:`~mechdesign.specification.choose_method` (no second dispatch).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
        >>> spec = design_spec(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.5])))
        >>> problem = DesignProblem.planned(spec, choose_method(spec, "direct-lp", COMPILED_METHODS))
        >>> problem.method
        'direct-lp'
        """
        problem = cls.__new__(cls)
        problem._setup(spec, choice)
        return problem

    def _setup(self, spec: DesignSpec, choice: MethodChoice) -> None:
        self.notions: list[PrivacyNotion] = spec.notions
        self.objective = objective = spec.objective
        self.limits = spec.limits
        self.shape = tuple(objective.shape)
        self.notion_labels = _unique_labels(self.notions)
        self.limit_labels = _unique_labels(self.limits)
        # Solved in units of the objective (and of each limit): the cost's scale never matters.
        self.unit = objective.unit
        self.solved_objective = objective.rescaled(1.0 / self.unit)
        self.limit_units = [limit.unit for limit in self.limits]
        self.solved_limits = [limit.rescaled(1.0 / unit) for limit, unit in zip(self.limits, self.limit_units)]

        self.is_linear = all(n.is_linear for n in self.notions) and all(
            o.is_linear for o in [objective, *self.limits]
        )
        self.method = choice.method.name
        self.fallback = not choice.named  # a named method runs alone; "auto" falls back to cvxpy
        self.named_solver = spec.solver is not None
        use_direct = self.method in ("direct-lp", "column-generation")
        self.solver = spec.solver or ("highs" if use_direct else choose_solver(self.is_linear, int(np.prod(self.shape))))
        # A direct LP's fallback through cvxpy: the named solver, else HiGHS if the options are its, else Clarabel.
        self.fallback_solver = spec.solver or ("highs" if use_direct and spec.solver_options else "clarabel")
        self.user_solver_options = dict(spec.solver_options or {})
        self.what = (f"the {'/'.join(self.notion_labels) or 'unconstrained'} design on "
                     f"{self.shape[0]}×{self.shape[1]}")
        self._problem: cp.Problem | None = None
        if use_direct:
            settings: dict[str, Any] = {"options": self.user_solver_options}  # HiGHS's (Clarabel's go through cvxpy)
            check_highs_options(self.user_solver_options)
            if self.method == "column-generation":
                settings["interior"] = True if self.solver == "clarabel" else None  # None: the notion's own choice
            check_memory(choice.plan.bytes_per_entry * int(np.prod(self.shape)) * (1 + len(self.limits)), self.what)
            self.direct = direct_program(self.notions, self.solved_objective, self.solved_limits, choice.plan,
                                         **settings)
        else:
            self.direct = None
            self._build_cvxpy()

    # --- the cvxpy problem (built only when it will be solved) --------------------------------------

    @property
    def problem(self) -> cp.Problem:
        """The DPP-compiled cvxpy problem (built on first use; the direct LP path never needs it).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
        >>> problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.5])), method="cvxpy")
        >>> problem.problem.is_dpp()  # the budget is a parameter: re-solved without recompiling
        True
        """
        if self._problem is None:
            self._build_cvxpy()
        return self._problem

    def _build_cvxpy(self) -> None:
        self.Q = cp.Variable(self.shape, nonneg=True, name="Q")
        self.budget_parameters: list[BudgetParameter] = [n.parameter() for n in self.notions]
        self.limit_parameters = [cp.Parameter(name=f"limit_{i}") for i in range(len(self.limits))]
        constraints = [cp.sum(self.Q, axis=1) == 1]
        self._blocks: list[slice] = []  # each notion's constraints, then each limit's
        for notion, parameter in zip(self.notions, self.budget_parameters):
            own = notion.constraints(self.Q, parameter)
            self._blocks.append(slice(len(constraints), len(constraints) + len(own)))
            constraints += own
        for limit, parameter in zip(self.solved_limits, self.limit_parameters):
            self._blocks.append(slice(len(constraints), len(constraints) + 1))
            constraints.append(limit.expression(self.Q) <= parameter)
        problem = cp.Problem(cp.Minimize(self.solved_objective.expression(self.Q)), constraints)
        if not problem.is_dcp():
            raise MechDesignError(f"the design problem for {self.objective.label} is not convex (DCP)")
        check_memory(BYTES_PER_NONZERO * estimated_nonzeros(problem), self.what)
        self._problem = problem

    # --- solving ------------------------------------------------------------------------------------

    def solve(self, budgets: Union[float, Sequence[float]], limits: Sequence[float] = (), *,
              threshold: float | None = None) -> Result:
        """Solve for the given budgets (one per notion, nats; ``math.inf`` allowed) and limit values.

        ``threshold`` (for bisection, which only asks on which side of it the optimum lies): the
        certificate is not computed when the mechanism's objective is at most ``threshold``, and stops
        as soon as its bound exceeds it; the result is then ``"suboptimal"`` unless certified anyway.

        Parameters
        ----------
        budgets
            One budget per notion (nats), or a single number for a single notion.
        limits
            One value per limited quantity, in its own unit.
        threshold
            See above; ``None`` for a full certificate.

        Returns
        -------
        Result
            The certified result.

        Examples
        --------
        Hamming distortion under local DP on two equally likely symbols: randomized response,
        ``P(Y ≠ X) = 1/(1 + e^ε)``:

        >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
        >>> problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.5])), method="direct-lp")
        >>> result = problem.solve(math.log(3))
        >>> result.status, round(result.objective, 9)
        ('optimal', 0.25)
        >>> round(problem.solve(0.0).objective, 9)  # ε = 0: nothing better than guessing
        0.5
        """
        budget_values = self._as_values(budgets, self.notion_labels, "budget",
                                        lambda value, name: as_budget(value, name, infinite=True))
        limit_values = self._as_values(limits, self.limit_labels, "limit", as_finite)
        return self.solve_validated(budget_values, limit_values,
                                    None if threshold is None else as_finite(threshold, "threshold"))

    def solve_validated(self, budget_values: list[float], limit_values: list[float],
                        threshold: float | None = None) -> Result:
        """:meth:`solve` at values already validated (one budget per notion, ``as_budget(..., infinite=True)``; one
        finite limit per limited quantity; a finite threshold or ``None``): what a curve calls at every point, its
        budgets validated once for the whole curve.

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
        >>> problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.5])), method="direct-lp")
        >>> round(problem.solve_validated([math.log(3)], []).objective, 9)
        0.25
        """
        budget_map = dict(zip(self.notion_labels, budget_values))
        limit_map = dict(zip(self.limit_labels, limit_values))
        start = time.perf_counter()
        solved, capped_note = self._solvable_budgets(budget_values)
        shortcut = None if self.limits else self._unconstrained_result(budget_values, start)
        if shortcut is not None:
            return shortcut
        solved_limits = [value / unit for value, unit in zip(limit_values, self.limit_units)]
        candidates = (self._candidate(run(solved, solved_limits), budget_map, limit_map) for run in self._attempts)
        return self._certified(candidates, solved, solved_limits, budget_map, limit_map, capped_note, threshold, start)

    def unconstrained_result(self, budget_values: list[float]) -> Result | None:
        """The certified result of the objective's unconstrained optimum (or of its smallest certified mix with the
        constant mechanism) where it meets every budget, without running any solver; ``None`` where it does not,
        and for a problem with limits. ``budget_values`` as for :meth:`solve_validated`. Designers that do not
        compile the problem (``"pair-generation"``) take large budgets from it.

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
        >>> problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.5])))
        >>> problem.unconstrained_result([50.0]).method, problem.unconstrained_result([1.0])
        ('unconstrained-optimum', None)
        """
        start = time.perf_counter()
        self._solvable_budgets(budget_values)  # the notions' own validation, as solve_validated does
        return None if self.limits else self._unconstrained_result(budget_values, start)

    def _unconstrained_result(self, budget_values: list[float], start: float) -> Result | None:
        zero = self._zero_budget_optimum(budget_values)
        if zero is not None:
            matrix, bound = zero
            return self._result(matrix, bound, True, "budget 0: the rows equal within each component of the neighbour "
                                "relation, each component's best constant row (exact)", "closed-form", "",
                                dict(zip(self.notion_labels, budget_values)), {}, start)
        shortcut = self._unconstrained_optimum(budget_values)
        if shortcut is None:
            return None
        matrix, bound, note = shortcut
        return self._result(matrix, bound, True, note, "unconstrained-optimum", "",
                            dict(zip(self.notion_labels, budget_values)), {}, start)

    def _zero_budget_optimum(self, budgets: list[float]) -> tuple[np.ndarray, float] | None:
        """At budget 0 of a single notion that has its exact optimum there (``zero_budget_optimum``: Rényi DP, whose
        conic formulation has no interior at ε = 0), under a linear objective without limits: that optimum and its
        value, in the solved units; ``None`` otherwise."""
        own = getattr(self.notions[0], "zero_budget_optimum", None) if len(self.notions) == 1 else None
        if own is None or budgets[0] != 0:
            return None
        minorant = self.solved_objective.minorant(np.full(self.shape, 1.0 / self.shape[1]))
        if not self.solved_objective.is_linear or minorant is None or minorant.relaxation.n_aux or minorant.constant:
            return None
        return own(minorant.grad_q.reshape(self.shape))

    def solve_point(self, budget: float) -> Result:
        """:meth:`solve_validated` at one budget of a problem with one notion and no limits (``budget`` validated,
        ``as_budget(..., infinite=True)``): a curve's point, with only what depends on the budget done per point.

        The same :class:`Result` as ``solve_validated([budget], [])``, reached with less bookkeeping where the first
        solver run is certified by its own bound (a warm direct LP, usually): its candidate, cleaned and re-measured
        as every candidate is, goes straight to the result. Anything else — a budget the unconstrained optimum meets
        or whose constraint scale exceeds :data:`MAX_CONSTRAINT_SCALE`, a first run not certified so — continues as
        :meth:`solve_validated` does (the first run is not repeated).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
        >>> problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.5])), method="direct-lp")
        >>> result = problem.solve_point(math.log(3))
        >>> result.status, round(result.objective, 9), result.method
        ('optimal', 0.25, 'direct-lp')
        """
        if len(self.notions) != 1 or self.limits:
            raise MechDesignError(f"solve_point solves one budget without limits; {self.what} has "
                                  f"{len(self.notions)} notions and {len(self.limits)} limits (use solve_validated)")
        shortcut = self._shortcut  # met where _unconstrained_optimum answers (its leakages, or its mix's, within)
        if not budget <= self._budget_caps[0] or budget == 0 or shortcut is not None and (
                shortcut.leakages[0] <= budget or shortcut.mixed_leakages is not None
                and shortcut.mixed_leakages[0] <= budget):
            return self.solve_validated([budget], [])  # the shortcut, or a budget solved at a smaller one
        self.notions[0].scaled_budget(budget)  # the notion's own validation, as _solvable_budgets makes it
        start = time.perf_counter()
        budgets: dict[str, float] = {self.notion_labels[0]: budget}
        runs = self._attempts
        first = self._candidate(runs[0]([budget], []), budgets, {})
        bound = first.attempt.bound
        if first.private and bound is not None and is_certified_optimal(first.value, bound):
            return self._assemble([first], bound, "", "", budgets, {}, start)
        later = (self._candidate(run([budget], []), budgets, {}) for run in runs[1:])
        return self._certified(itertools.chain([first], later), [budget], [], budgets, {}, "", None, start)

    def _certified(self, candidates: Iterable[_Candidate], solved: list[float], solved_limits: list[float],
                   budget_map: dict[str, float], limit_map: dict[str, float], capped_note: str,
                   threshold: float | None, start: float) -> Result:
        """The result of :meth:`solve_validated`'s attempts, each candidate made only when the ones before it were not
        certified (``candidates``: lazily, in :attr:`_attempts`' order): each private one bounded (its run's own
        bound, the pricing bound, :func:`~mechdesign.certificate.design_lower_bound`) until one is certified."""
        best_bound, bound_note = -math.inf, ""
        decision = None if threshold is None else threshold / self.unit
        made: list[_Candidate] = []
        for candidate in candidates:
            attempt = candidate.attempt
            made.append(candidate)
            if attempt.status == INFEASIBLE and attempt.method != "cvxpy":
                break  # the caps proven out of reach (by HiGHS, or column generation's bound): no retry finds a point
            if not candidate.private:
                continue
            value = candidate.value
            if decision is not None and value <= decision:
                bound_note = "not certified: below the threshold asked, which is all a bisection needs"
                break
            bound = attempt.bound
            if (bound is None or not is_certified_optimal(value, bound)) and decision is None:
                bound = max(-math.inf if bound is None else bound, self._pricing_bound(attempt, solved, solved_limits))
            if bound is None or not is_certified_optimal(value, bound):
                target = value - gap_tolerance(value)
                certified, bound_note = design_lower_bound(
                    self.solved_objective, list(zip(self.notions, solved)),
                    list(zip(self.solved_limits, solved_limits)), candidate.mechanism.matrix,
                    target=target if decision is None else min(target, decision + gap_tolerance(decision)),
                    # A bisection decides on the bound's last digits: the LP's, not the solver's multipliers'.
                    multipliers=attempt.multipliers if decision is None else None, row_multipliers=attempt.row_multipliers)
                bound = max(bound if bound is not None else -math.inf,
                            certified if certified is not None else -math.inf)
            if capped_note:  # a bound at the smaller budget is no bound at the budget asked
                bound = self._unconstrained_value()
            best_bound = max(best_bound, bound)
            if is_certified_optimal(self._best_value(made), best_bound) or (
                    decision is not None and best_bound > decision + gap_tolerance(decision)):
                break
        return self._assemble(made, best_bound, bound_note, capped_note, budget_map, limit_map, start)

    @functools.cached_property
    def _attempts(self) -> list[Callable[[list[float], list[float]], _Attempt]]:
        """The solver runs to try in turn until one is certified: the default path first, then cold or
        other solvers (unless a solver was named); the same at every budget (built once)."""
        if self.direct is not None:
            direct = [lambda b, l: self._run_direct(b[0], l, cold=False)]
            if self.solver == "highs" or not isinstance(self.direct, WarmLinearProgram):  # an interior point has no warm start
                direct.append(lambda b, l: self._run_direct(b[0], l, cold=True))
            return direct + ([lambda b, l: self._run_cvxpy(self.fallback_solver, b, l)] if self.fallback else [])
        others = [] if self.named_solver else [s for s in ("clarabel", "highs") if s != self.solver
                                                 and (self.is_linear or s != "highs")]
        return [lambda b, l, s=solver: self._run_cvxpy(s, b, l) for solver in [self.solver, *others]]

    def _solvable_budgets(self, budgets: list[float]) -> tuple[list[float], str]:
        """Budgets capped where a notion's constraint scale would exceed :data:`MAX_CONSTRAINT_SCALE`."""
        solved, capped = [], []
        for notion, label, budget, cap in zip(self.notions, self.notion_labels, budgets, self._budget_caps):
            if math.isfinite(budget):
                notion.scaled_budget(budget)  # the notion's own validation (e.g. a probability in [0, 1])
            if budget > cap:
                capped.append(f"{label} budget {budget:g} solved at {cap:.6g}")
            solved.append(min(budget, cap))
        note = ("; " + ", ".join(capped) + " (its constraint scale would exceed float64's accurate range; a "
                "mechanism within the smaller budget is within the one asked)") if capped else ""
        return solved, note

    @functools.cached_property
    def _budget_caps(self) -> list[float]:
        """Each notion's largest budget solved as asked: where its constraint scale reaches :data:`MAX_CONSTRAINT_SCALE`."""
        return [notion.budget_from_scaled(MAX_CONSTRAINT_SCALE) for notion in self.notions]

    @functools.cached_property
    def _pricing(self) -> Any:
        """Column generation's pricing for this problem (the notion's registered one, when the direct LP applies), built
        without an LP: a bound at any row-sum multipliers (``None`` where none applies)."""
        generation = column_generation_class(self.notions, self.solved_objective, self.solved_limits, min_inputs=0)
        if generation is None:
            return None
        return direct_program(self.notions, self.solved_objective, self.solved_limits, generation)

    def _pricing_bound(self, attempt: _Attempt, budgets: list[float], limits: list[float]) -> float:
        """The pricing bound (:meth:`~mechdesign.methods.column_generation.OutputGeneration.lower_bound`) at the
        cvxpy solver's multipliers of the row sums and caps: certifies an LP with a warm LP's structure without a
        second LP (``-inf`` where it does not apply)."""
        caps = attempt.multipliers[len(self.notions):] if attempt.multipliers is not None else []
        if attempt.row_multipliers is None or self._pricing is None or any(c is None or c.size != 1 for c in caps):
            return -math.inf
        return self._pricing.lower_bound(attempt.row_multipliers, budgets[0], [float(c[0]) for c in caps], limits)

    def _unconstrained_value(self) -> float:
        shortcut = self._shortcut
        return -math.inf if shortcut is None else shortcut.floor

    @functools.cached_property
    def _shortcut(self) -> _Shortcut | None:
        """The budget-independent part of :meth:`_unconstrained_optimum`, computed once per problem (curves ask
        at every budget): the optimum, its value and leakages, and the same for its first mix."""
        optimum = self.solved_objective.unconstrained_optimum()
        if optimum is None:
            return None
        optimum = Mechanism(optimum)
        floor = self.solved_objective.value(optimum)
        spread = self.solved_objective.value(mix_with_constant(optimum.matrix, 1.0)) - floor
        # a millionth below the tolerance: the gap is reported in the caller's units, after a rescaling whose round-off
        # (1e-16 of the value, 1e-9 of a gap of 1e-7) put one mix 4e-18 above its tolerance
        weight = (1.0 - 1e-6) * gap_tolerance(floor) / spread if spread > 0 else math.inf
        mixed = Mechanism(mix_with_constant(optimum.matrix, weight)) if weight < 1.0 else None
        return _Shortcut(optimum, floor, self._leakages(optimum), weight, mixed,
                         None if mixed is None else self._leakages(mixed))

    def _leakages(self, mechanism: Mechanism) -> tuple[float, ...]:
        return tuple(float(notion.measure(mechanism)) for notion in self.notions)

    def _unconstrained_optimum(self, budgets: list[float]) -> tuple[np.ndarray, float, str] | None:
        """The objective's unconstrained optimum, or its smallest certified mix with the constant
        mechanism, if it meets every budget (class notes); ``None`` otherwise."""
        shortcut = self._shortcut
        if shortcut is None:
            return None
        if _within(shortcut.leakages, budgets):
            return shortcut.optimum.matrix, shortcut.floor, (
                "the unconstrained optimum (every input to its cheapest output) meets every budget: optimal, gap 0")
        if shortcut.mixed_leakages is None or not _within(shortcut.mixed_leakages, budgets):
            return None
        weight = shortcut.weight
        while self._private(mix_with_constant(shortcut.optimum.matrix, weight / 2.0), budgets) and weight > 1e-300:
            weight /= 2.0
        return (mix_with_constant(shortcut.optimum.matrix, weight), shortcut.floor,
                f"the unconstrained optimum mixed with weight {weight:.3g} of the constant mechanism meets every "
                "budget and is within the gap tolerance of the unconstrained optimum")

    def _private(self, matrix: np.ndarray, budgets: list[float]) -> bool:
        return all(n.measure(matrix) <= b for n, b in zip(self.notions, budgets))

    def _run_cvxpy(self, solver: str, budgets: list[float], limits: list[float]) -> _Attempt:
        """Solve the compiled cvxpy problem with ``solver`` at (solvable) budgets and (solved-unit) limits.

        The problem is built here only as the fallback of a direct LP; if it would not fit in memory, the
        attempt is not made and says so (the direct LP's candidates stand, reported as they are).
        """
        try:
            problem = self.problem
        except ProblemTooLargeError as exc:
            return _Attempt(NOT_TRIED, None, None, None, solver, "cvxpy", f"; the cvxpy fallback was not tried: {exc}")
        for parameter, budget in zip(self.budget_parameters, budgets):
            parameter.set(budget)
        for parameter, value in zip(self.limit_parameters, limits):
            parameter.value = value
        unknown = unknown_solver_options(solver, self.user_solver_options)
        if unknown:
            raise MechDesignError(f"solver_options {unknown} are not options of {solver}; its options: "
                                  f"{', '.join(solver_option_names(solver))}")
        outcome = solve_cvxpy(problem, solver, self.user_solver_options)
        if outcome.status == "solver_error":
            return _Attempt("solver_error", None, None, None, solver, "cvxpy", outcome.note)
        iterations = outcome.iterations
        matrix = self.Q.value
        if matrix is None or not np.all(np.isfinite(matrix)):
            return _Attempt(problem.status, None, None, iterations, solver, "cvxpy")
        violation = max(largest_violation(problem), -float(matrix.min()), 0.0)  # Q >= 0 is a variable attribute
        rows = problem.constraints[0].dual_value
        return _Attempt(problem.status, matrix, violation, iterations, solver, "cvxpy",
                        multipliers=self._multipliers(problem),
                        row_multipliers=None if rows is None else -np.ravel(np.asarray(rows, dtype=float)))

    def _multipliers(self, problem: cp.Problem) -> list[np.ndarray | None] | None:
        """For an LP, the solver's multipliers of each notion's constraints (concatenated, row-major) and of each
        limit, for :func:`~mechdesign.certificate.design_lower_bound` (``None`` where the solver gave none); for a
        problem that is not an LP (its relaxation is not its constraints), those of each block's last constraint —
        a convex notion's budget after its cones (Rényi DP's ``Σ_y φ_k <= 1``), which its own dual bound starts
        from."""
        blocks = []
        for block in self._blocks:
            values = [constraint.dual_value for constraint in problem.constraints[block]]
            values = values if self.is_linear else values[-1:]
            blocks.append(None if any(v is None for v in values)
                          else np.concatenate([np.ravel(np.asarray(v, dtype=float)) for v in values]))
        return blocks

    def _run_direct(self, budget: float, limits: list[float], cold: bool) -> _Attempt:
        """Solve the warm-started LP of :mod:`mechdesign.methods.direct` (cold: from scratch) at the caps' ``limits``:
        by HiGHS's simplex, or with ``solver="clarabel"`` by Clarabel's interior point (the whole LP, or column
        generation's restricted LPs)."""
        if self.solver == "clarabel" and isinstance(self.direct, WarmLinearProgram):
            solution = self.direct.solve_interior(budget, limits=limits)
        elif isinstance(self.direct, WarmLinearProgram):  # the bound, not the duals: only the duals it reads converted
            solution = self.direct.solve(budget, limits=limits, cold=cold, duals=False)
        else:
            solution = self.direct.solve(budget, limits=limits, cold=cold)
        if solution.matrix is None or not np.isfinite(solution.matrix).all():
            status = INFEASIBLE if solution.status == "Infeasible" else "solver_error"
            return _Attempt(status, None, None, solution.iterations, self.solver, self.direct.method,
                            f"{self.solver} returned status {solution.status!r}")
        note = f"; direct LP ({type(self.direct).__name__}, {type(self.direct).__module__}{', cold start' if cold else ''})"
        violation = max([self.direct.violation(solution.matrix, budget)]  # the raw point: numpy, not validated
                        + [float(np.sum(weights * solution.matrix)) - value
                           for weights, value in zip(self.direct.limit_weights, limits)])
        return _Attempt(OPTIMAL, solution.matrix, violation, solution.iterations, self.solver, self.direct.method, note,
                        solution.lower_bound)

    def _candidate(self, attempt: _Attempt, budgets: dict[str, float], limits: dict[str, float]) -> _Candidate:
        """The attempt's point cleaned and re-measured; for one notion given by column terms (Rényi DP,
        Sibson) under an expected distortion, also its KKT point polished by Newton's method
        (:func:`~mechdesign.privacy.column_dual.kkt_point`: the conic solver stops ~1e-7 short of the
        optimum there), kept if it is private and no worse."""
        candidate = self._measured_candidate(attempt, budgets, limits)
        if candidate.mechanism is None:  # not solved, or no mechanism (nothing to polish)
            return candidate
        polished = self._polished_point(attempt, budgets)
        if polished is None:
            return candidate
        other = self._measured_candidate(dataclasses.replace(attempt, matrix=polished), budgets, limits)
        return other if other.private and (not candidate.private or other.value <= candidate.value) else candidate

    def _polished_point(self, attempt: _Attempt, budgets: dict[str, float]) -> np.ndarray | None:
        """The KKT point near the attempt's point (see :meth:`_candidate`), or ``None`` where it does not apply."""
        if (len(self.notions) != 1 or not hasattr(self.notions[0], "column_terms") or self.limits
                or attempt.status not in (OPTIMAL, OPTIMAL_INACCURATE) or attempt.matrix is None):
            return None  # the cheap tests first: a curve's every point asks
        from .privacy.column_dual import kkt_point
        from .utility.distortion import ExpectedDistortion

        if not isinstance(self.solved_objective, ExpectedDistortion):
            return None
        notion, budget = self.notions[0], next(iter(budgets.values()))
        start, scale = clean_mechanism(attempt.matrix), notion.scaled_budget(budget)  # scaled once, not per call
        if notion.column_terms(start, budget, scale) is None:  # e.g. Sibson over a source set
            return None
        costs = self.solved_objective.minorant(start).grad_q.reshape(start.shape)
        point = kkt_point(costs, start, lambda q: notion.column_terms(q, budget, scale))
        if point is None:
            return None
        matrix = np.clip(point.matrix, 0.0, None)
        sums = matrix.sum(axis=1, keepdims=True)
        return matrix / sums if np.all(sums > 0) else None

    def _measured_candidate(self, attempt: _Attempt, budgets: dict[str, float], limits: dict[str, float]
                            ) -> _Candidate:
        if attempt.status not in (OPTIMAL, OPTIMAL_INACCURATE) or attempt.matrix is None:
            return _Candidate(attempt, None, [], "")
        try:
            cleaned = clean_mechanism(attempt.matrix)
        except InvalidMechanismError as error:  # the solver said "optimal" of a point that is no mechanism
            failed = dataclasses.replace(attempt, status="solver_error", note=f"{attempt.solver}: {error}")
            return _Candidate(failed, None, [], "")
        mechanism: Mechanism | None = Mechanism.from_cleaned(cleaned)
        measured: tuple[dict[str, float], dict[str, float]] | None = self._measures(mechanism)
        problems, repair_note = exceeded(measured[0], budgets, measured[1], limits), ""
        if problems:  # round-off, perhaps: certify_mechanism mixes in the constant mechanism
            # Each matrix certify_mechanism measured: validated and measured once (the result reports the measures).
            checked = [(cleaned, mechanism, measured)]

            def misses(matrix: np.ndarray) -> list[str]:
                mechanism = Mechanism.from_cleaned(matrix)  # a mix of the cleaned point with the constant mechanism
                measured, measured_limits = self._measures(mechanism)
                checked.append((matrix, mechanism, (measured, measured_limits)))
                return exceeded(measured, budgets, measured_limits, limits)

            matrix, problems, repair_note = certify_mechanism(cleaned, misses, problems)
            _, mechanism, measured = next((entry for entry in checked if entry[0] is matrix), (None, None, None))
            mechanism = mechanism or Mechanism.from_cleaned(matrix)
        return _Candidate(attempt, mechanism, problems, repair_note, self.solved_objective.value(mechanism), measured)

    def _best_value(self, candidates: list[_Candidate]) -> float | None:
        """The least solved objective of the private candidates (``None`` if there is none)."""
        values = [c.value for c in candidates if c.private]
        return min(values) if values else None

    def _assemble(self, candidates: list[_Candidate], bound: float, bound_note: str, capped_note: str,
                  budgets: dict[str, float], limits: dict[str, float], start: float) -> Result:
        private = [c for c in candidates if c.private]
        if private:
            best = min(private, key=lambda c: c.value)
            value = best.value
            optimal = is_certified_optimal(value, bound)
            tries = f" after {len(candidates)} attempts" if len(candidates) > 1 else ""
            if optimal:
                note = _OPTIMAL_NOTE + tries
            else:
                reason = bound_note or (f"the best lower bound found leaves a gap of {value - bound:.3g}"
                                        if math.isfinite(bound) else "no lower bound could be computed")
                skipped = "".join(c.attempt.note for c in candidates if c.attempt.status == NOT_TRIED)
                note = f"suboptimal: {reason}; every budget re-measured and respected{tries}{skipped}"
            return self._result(best.mechanism, bound if math.isfinite(bound) else None, optimal,
                                note + best.attempt.note + best.note + capped_note, best.attempt.method,
                                best.attempt.solver, budgets, limits, start, best.attempt, best.measured)
        claimed = [c for c in candidates if c.mechanism is not None]
        if claimed:
            last = claimed[-1]
            return self._result(last.mechanism, None, False,
                                f"{last.attempt.solver} reported {last.attempt.status} but the mechanism fails",
                                last.attempt.method, last.attempt.solver, budgets, limits, start, last.attempt,
                                last.measured)
        return self._failure(candidates[-1].attempt, candidates, budgets, limits, start)

    def _result(self, matrix: np.ndarray | Mechanism, bound: float | None, certified: bool, message: str,
                method: str, solver: str, budgets: dict[str, float], limits: dict[str, float], start: float,
                attempt: _Attempt | None = None,
                measures: tuple[dict[str, float], dict[str, float]] | None = None) -> Result:
        """The certified :class:`Result` (:func:`~mechdesign.methods.certified.mechanism_result`) in the caller's
        units: objective re-computed with the original objective, ``certified`` judged in the solved units,
        ``message`` the whole message of a private result and what precedes the exceeded budgets of one that is
        not (``measures``: :meth:`_measures` of ``matrix`` where already computed)."""
        mechanism = as_mechanism(matrix)
        measured, measured_limits = measures or self._measures(mechanism)
        return mechanism_result(
            mechanism, self.objective.value(mechanism), None if bound is None else bound * self.unit, message, start,
            measured=measured, budgets=budgets, measured_limits=measured_limits, limits=limits, unit=self.unit,
            certified=certified, verdict=lambda *_: message, method=method, solver=solver,
            max_violation=None if attempt is None else attempt.max_violation,
            iterations=None if attempt is None else attempt.iterations)

    def _measures(self, mechanism: Mechanism) -> tuple[dict[str, float], dict[str, float]]:
        """Every notion's measure and every limited quantity's value (caller's units) of ``mechanism``."""
        return ({label: notion.measure(mechanism) for label, notion in zip(self.notion_labels, self.notions)},
                {label: quantity.value(mechanism) for label, quantity in zip(self.limit_labels, self.limits)})

    def _failure(self, attempt: _Attempt, candidates: list[_Candidate], budgets: dict[str, float],
                 limits: dict[str, float], start: float) -> Result:
        """No attempt gave a mechanism: infeasible only when proven, never unbounded (the objectives here
        are bounded below); otherwise a solver error naming every attempt."""
        common = dict(budgets=budgets, limits=limits, solver=attempt.solver, iterations=attempt.iterations,
                      method=attempt.method)
        statuses = "; ".join(f"{c.attempt.solver} ({c.attempt.method}): {c.attempt.status}"
                             + (f" — {c.attempt.note}" if c.attempt.note else "") for c in candidates)
        if any(c.attempt.status in (INFEASIBLE, INFEASIBLE_INACCURATE) for c in candidates) and self.limits:
            smallest = self._smallest_feasible_limit(list(budgets.values()))
            if smallest is not None and len(self.limits) == 1:
                label = self.limit_labels[0]
                if smallest.bound is not None and smallest.bound > limits[label] + LIMIT_ATOL * max(1.0, abs(limits[label])):
                    message = (f"infeasible: {label} limit {limits[label]:.9g} is below the smallest value "
                               f"{smallest.objective:.9g} any mechanism within the budgets reaches (certified lower "
                               f"bound {smallest.bound:.9g})")
                    return failure_result("infeasible", message, start, smallest_feasible=smallest.objective, **common)
        why = ("every notion admits the constant mechanism, so this is a solver failure, not infeasibility"
               if not self.limits else "infeasibility of the limits was not proven, so this is a solver failure")
        return failure_result("solver_error", f"no solver attempt gave a usable solution ({statuses}); {why}", start,
                              **common)

    def _smallest_feasible_limit(self, budget_values: list[float]) -> Result | None:
        """With a single limit, the least value of the limited quantity within the budgets (certified)."""
        if len(self.limits) != 1:
            return None
        relaxed = DesignProblem(self.notions, self.limits[0],
                                solver=self.solver if self.named_solver else None,
                                solver_options=self.user_solver_options or None)
        result = relaxed.solve(budget_values)
        return result if result.success else None

    @staticmethod
    def _as_values(values: Any, labels: list[str], kind: str, validate: Callable[[Any, str], float]) -> list[float]:
        """One validated value per label, named "<kind> for <label>" in errors."""
        sequence = [values] if np.ndim(values) == 0 else list(values)
        if len(sequence) != len(labels):
            raise MechDesignError(f"expected {len(labels)} {kind}s (one per {', '.join(labels) or 'nothing'}), got {len(sequence)}")
        return [validate(value, f"{kind} for {label}") for value, label in zip(sequence, labels)]


def _within(leakages: Sequence[float], budgets: Sequence[float]) -> bool:
    """Whether every leakage is at most its budget (a NaN leakage is not), in Python floats: a curve asks at every point.

    Examples
    --------
    >>> _within((0.5, 1.0), [1.0, 1.0]), _within((math.nan,), [1.0])
    (True, False)
    """
    return all(leakage <= budget for leakage, budget in zip(leakages, budgets))


def _fast_plan(spec: DesignSpec, find: Callable[..., Any]) -> Any:
    """The warm LP (``find``: :func:`~mechdesign.methods.direct.direct_program_class` or
    :func:`~mechdesign.methods.direct.column_generation_class`) for ``spec``, unless options are not HiGHS's: named for
    Clarabel (which takes them through cvxpy only), or, with no solver named, options HiGHS rejects (they are then
    the default cvxpy solver's). Named for HiGHS, a rejected option is a named error (``DesignProblem``)."""
    if spec.solver_options is not None and (
            spec.solver == "clarabel" or (spec.solver is None and highs_option_error(spec.solver_options))):
        return None
    return find(spec.notions, spec.objective, spec.limits)


def _run_compiled(spec: DesignSpec, choice: MethodChoice, budgets: Any, limit_values: list[float]) -> Result:
    return DesignProblem.planned(spec, choice).solve(budgets, limit_values)

#: The methods :class:`DesignProblem` runs, in the order ``method="auto"`` tries them (each is also an entry of
#: ``solve.METHODS``, at its place there).
COLUMN_GENERATION = DesignMethod("column-generation",
                 "what direct-lp applies to, from direct.COLUMN_GENERATION_MIN_INPUTS inputs on (outputs generated "
                 "by exact pricing, caps priced with their multipliers)",
                 lambda spec: _fast_plan(spec, column_generation_class),
                 _run_compiled, solvers=("highs", "clarabel"), takes_options=True, compiled=True)
DIRECT_LP = DesignMethod("direct-lp",
                 "one notion with a registered warm LP (local DP, maximal leakage, PML under one prior, pointwise "
                 "approximate DP), an ExpectedDistortion, limits (if any) on ExpectedDistortions, and solver_options "
                 "only for HiGHS",
                 lambda spec: _fast_plan(spec, direct_program_class),
                 _run_compiled, solvers=("highs", "clarabel"), takes_options=True, compiled=True)
CVXPY = DesignMethod("cvxpy", "a convex problem (every notion and objective of the package)",
                 lambda spec: spec, _run_compiled, solvers=("highs", "clarabel", "scs"), takes_options=True,
                 compiled=True)
COMPILED_METHODS: tuple[DesignMethod, ...] = (COLUMN_GENERATION, DIRECT_LP, CVXPY)
