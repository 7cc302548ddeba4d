"""Privacy–utility curves traced by re-solving one compiled (DPP) problem.

:func:`trace_curve` computes ``D*(ε)`` — the optimal objective as a function of a privacy budget —
at many budgets, changing only a cvxpy ``Parameter`` between solves (PUT paper, eq. (3)).
"""

from __future__ import annotations

import csv
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._lazy import cvxpy as cp
import numpy as np

from ._validate import (
    as_budget,
    as_executor,
    as_finite,
    as_number_list,
    as_options,
    as_positive_int,
    as_solver,
)
from .methods.certified import failure_result
from .methods.closed_form import HammingProblem, hamming_problem, solve_hamming
from .exceptions import InvalidBudgetError, InvalidMechanismError
from .outputs import atomic_output
from .progress import Progress, report
from .mechanism import Mechanism
from .privacy.base import PrivacyNotion, as_notion
from .registry import capabilities
from .result import clean_mechanism
from .solve import LIMIT_ATOL, DesignProblem, DesignSpec, MethodChoice, Result, choose_method, design, design_spec
from .solvers import solve_cvxpy
from .utility.base import Objective, as_objective


@dataclass(frozen=True)
class Curve:
    """A traced curve: ``y[i]`` is the optimum at ``x[i]``; failed points hold NaN in ``y``.

    Attributes
    ----------
    x, y
        Abscissae (budgets) and optimal values; ``y[i]`` is NaN where ``results[i].success`` is
        False (the result says why).
    x_name, y_name
        Axis names, e.g. ``"epsilon"`` and ``"expected_distortion"``.
    label
        Legend label (usually the notion's label).
    results
        The full :class:`~mechdesign.solve.Result` of every point.
    """

    x: np.ndarray
    y: np.ndarray
    x_name: str
    y_name: str
    label: str
    results: tuple[Result, ...]

    @property
    def success(self) -> bool:
        """Whether every point has a private mechanism (every budget re-measured)."""
        return all(result.success for result in self.results)

    @property
    def optimal(self) -> bool:
        """Whether every point is certified optimal (``status == "optimal"``: bound within the gap tolerance)."""
        return all(result.optimal for result in self.results)

    def rows(self) -> list[dict[str, Any]]:
        """One dictionary per point: x, y, success, status, certified bound, gap, method and the measured privacy."""
        return [
            {self.x_name: float(x), self.y_name: float(y), "success": r.success, "status": r.status,
             "bound": r.bound, "gap": r.gap, "method": r.method,
             **{f"measured[{k}]": v for k, v in r.measured.items()}}
            for x, y, r in zip(self.x, self.y, self.results)
        ]

    def to_csv(self, path: str | Path) -> Path:
        """Write :meth:`rows` to ``path`` as CSV, atomically (:func:`~mechdesign.files.atomic_output`: an
        interrupted write leaves the old file), and return the path.

        Examples
        --------
        >>> import tempfile
        >>> point = Result(Mechanism([[1.0]]), 0.0, "optimal", True, "", bound=0.0, gap=0.0)
        >>> curve = Curve(np.array([1.0]), np.array([0.0]), "epsilon", "distortion", "dp", (point,))
        >>> curve.to_csv(Path(tempfile.mkdtemp()) / "curve.csv").read_text().splitlines()[0]
        'epsilon,distortion,success,status,bound,gap,method'
        """
        rows = self.rows()
        target = Path(path)
        with atomic_output(target, newline="") as handle:
            # A failed point has no measured values: the header is the union of every row's fields.
            writer = csv.DictWriter(handle, fieldnames=list(dict.fromkeys(k for row in rows for k in row)))
            writer.writeheader()
            writer.writerows(rows)
        return target

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Plot the curve on a matplotlib ``ax`` (a new figure if None); returns the axes."""
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots()
        ax.plot(self.x, self.y, label=kwargs.pop("label", self.label), **kwargs)
        ax.set_xlabel(self.x_name)
        ax.set_ylabel(self.y_name)
        return ax


def _solve_budgets(
    notion: PrivacyNotion,
    objective: Objective,
    budgets: np.ndarray,
    solver: str | None,
    solver_options: Mapping[str, Any] | None,
    method: str,
    progress: Progress | None = None,
) -> list[Result]:
    """Build and compile one problem, then solve it at each budget (one worker's share of a curve)."""
    problem = DesignProblem(notion, objective, solver=solver, solver_options=solver_options, method=method)
    return _each_budget(lambda budget: problem.solve_point(float(budget)), budgets, progress)


def _each_budget(solve: Any, budgets: np.ndarray, progress: Progress | None) -> list[Result]:
    """``solve(budget)`` at each budget in turn, reporting progress."""
    results = []
    for budget in budgets:
        results.append(solve(budget))
        report(progress, len(results), len(budgets), f"D*(ε) at ε = {budget:g}")
    return results


def _point_solver(spec: DesignSpec, choice: MethodChoice) -> Callable[[float], Result]:
    """``solve(budget)`` for the points of a curve (budgets validated once, by the caller): a compiled method's one
    problem re-solved at every budget (:meth:`~mechdesign.problem.DesignProblem.solve_point`), any other method run
    afresh."""
    if choice.method.compiled:
        problem = DesignProblem.planned(spec, choice)
        return lambda budget: problem.solve_point(float(budget))
    return lambda budget: choice.method.run(spec, choice, budget, [])


def trace_curve(
    notion: PrivacyNotion,
    objective: Objective,
    budgets: Sequence[float],
    *,
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
    executor: Executor | None = None,
    chunks: int | None = None,
    progress: Progress | None = None,
    method: str = "auto",
) -> Curve:
    """The optimal objective ``D*(ε)`` at each budget ε, re-solving one DPP-compiled problem.

    Parameters
    ----------
    notion
        The privacy notion whose budget is swept.
    objective
        The objective to optimize, e.g. expected Hamming distortion.
    budgets
        Budgets ε (nats), each ≥ 0.
    solver, solver_options, method
        As for :func:`~mechdesign.solve.design`, the method chosen once for the whole curve
        (``method="auto"``: the closed form where it applies — every point from the formula, no
        executor needed — then the warm-started direct LP, then cvxpy; with an ``executor`` each worker
        compiles its own problem).
    executor
        Any :class:`concurrent.futures.Executor` (a ``ProcessPoolExecutor``, or Dask's
        ``Client(...).get_executor()``): the budgets are split into ``chunks`` contiguous pieces,
        each worker builds and compiles its own problem for its piece. The notion, objective and
        results must pickle (they do). The optimal values equal the serial run's (to round-off;
        where the LP has several optimal vertices the mechanism may be another one, since a
        piece's first solve starts cold). Worth it when solves are expensive (conic notions,
        large n); the warm-started local-DP path is usually faster serially (see
        ``benchmarks/RESULTS.md``).
    chunks
        Number of pieces for ``executor`` (default: the number of CPUs, at most one per budget).
    progress
        Optional callback ``progress(done, total, description)`` (:mod:`mechdesign.progress`), called
        after each point (each piece with an executor); ``None`` is silent.

    Examples
    --------
    >>> from concurrent.futures import ProcessPoolExecutor
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> with ProcessPoolExecutor(2) as pool:  # doctest: +SKIP
    ...     curve = trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(4)),
    ...                         [0.5, 1.0, 1.5, 2.0], executor=pool)
    """
    notion, objective = as_notion(notion), as_objective(objective)
    solver, solver_options, executor = as_solver(solver), as_options(solver_options), as_executor(executor)
    values = np.array(as_number_list(budgets, "budgets", lambda b, name: as_budget(b, name, infinite=True)),
                      dtype=float)
    pieces = None if executor is None else as_positive_int(chunks if chunks is not None else os.cpu_count() or 1,
                                                           "chunks")
    spec = design_spec(notion, objective, (), solver, solver_options)
    choice = choose_method(spec, method)
    if choice.method.name == "closed-form":
        return hamming_curve(choice.plan, values, objective.label)
    if pieces is None or not choice.method.compiled:
        results = tuple(_each_budget(_point_solver(spec, choice), values, progress))
    else:
        splits = [part for part in np.array_split(values, min(pieces, max(values.size, 1))) if part.size]
        futures = [executor.submit(_solve_budgets, notion, objective, part, solver, solver_options, method)
                   for part in splits]
        gathered: list[Result] = []
        for future in futures:
            gathered += future.result()
            report(progress, len(gathered), values.size, f"D*(ε): {len(gathered)} of {values.size} points")
        results = tuple(gathered)
    optimum = np.array([r.objective if r.success else np.nan for r in results], dtype=float)
    return Curve(values, optimum, "epsilon", objective.label, notion.label, results)


def closed_form_curve(notion: PrivacyNotion, objective: Objective, budgets: Sequence[float]) -> Curve | None:
    """``D*(ε)`` from the closed form at every budget (``None`` when no closed form applies).

    The prior is sorted once; each point costs ``O(n)`` and carries its own certified :class:`Result`.

    Examples
    --------
    >>> from mechdesign import ExpectedDistortion, MaximalLeakage, Prior
    >>> curve = closed_form_curve(MaximalLeakage(), ExpectedDistortion(Prior([0.5, 0.3, 0.2])), [0.0, np.log(2)])
    >>> curve.y.round(6).tolist(), curve.success
    ([0.5, 0.2], True)
    """
    problem = hamming_problem(notion, objective)
    return None if problem is None else hamming_curve(problem, budgets, objective.label)


def hamming_curve(problem: HammingProblem, budgets: Sequence[float], y_name: str) -> Curve:
    """``D*(ε)`` of a :class:`HammingProblem` at every budget (validated here; ``inf`` allowed), the
    objective named ``y_name``.

    Examples
    --------
    >>> from mechdesign import ExpectedDistortion, MaximalLeakage, Prior
    >>> objective = ExpectedDistortion(Prior.uniform(2))
    >>> hamming_curve(hamming_problem(MaximalLeakage(), objective), [0.0], objective.label).y.tolist()
    [0.5]
    """
    label = problem.notion.label
    values = [as_budget(budget, f"budget for {label}", infinite=True) for budget in budgets]
    results = tuple(solve_hamming(problem, budget) for budget in values)
    y = np.array([result.objective if result.success else np.nan for result in results])
    return Curve(np.array(values), y, "epsilon", y_name, label, results)


# --- privacy–distortion functions (PUT paper, Definition 4) -----------------------------------------

#: Default width of the bisection bracket on ε* (nats; per :meth:`~mechdesign.privacy.base.PrivacyNotion.nats_per_budget_unit`
#: for a budget in other units).
PRIVACY_DISTORTION_TOLERANCE = 1e-9
#: Relative slack with which a solved least distortion counts as reaching the limit ``D`` in bisection:
#: ``D*(ε) <= D (1 + REACH_ATOL)`` (solver round-off: without it, D exactly at a kink of D*(ε), e.g. D*(0),
#: is missed by ~1e-10). Relative to ``D`` itself at every scale: near ε*, ``dε* ≈ −dD / (D |d log D*/dε|)``,
#: so a slack absolute in distortion would move ε*(D) by ≈ slack / D at small D (1e-3 at D = 1e-6).
REACH_ATOL = 1e-9
#: The direct method's ε* is checked from below at ``ε* − DIRECT_PROBE`` (nats): the conic solver's
#: leakage can exceed the optimum by ~1e-6 (Rényi DP at α = 1.01), which only a design there reveals.
DIRECT_PROBE = 1e-7
#: Default largest budget searched by bisection (nats, as :data:`PRIVACY_DISTORTION_TOLERANCE`); beyond it the
#: constraint scale e^ε is far outside the solvers' accurate range.
MAX_BUDGET = 20.0


@dataclass(frozen=True)
class PrivacyDistortion:
    """The value of a privacy–distortion function ``ε*(𝒫, D)`` (PUT paper, Definition 4, eq. (2)).

    Attributes
    ----------
    epsilon
        ``ε*`` in nats: the least budget at which some mechanism has distortion at most ``D``
        (the upper end of ``bracket``); ``None`` when ``D`` is not reached.
    distortion
        The limit ``D``.
    success
        Whether ``epsilon`` was found and its certificate reaches ``D`` (within ``LIMIT_ATOL``).
    mechanism
        The certificate's mechanism.
    certificate
        The design :class:`~mechdesign.solve.Result` at ``epsilon``: least distortion within that
        budget, every notion re-measured.
    method
        ``"direct"`` (the notion's leakage expression minimized under the distortion limit) or
        ``"bisection"`` (on the budget, re-solving one DPP-compiled problem).
    bracket
        ``(lower, upper)`` with ``ε*`` in between: ``upper`` is reached (``epsilon``) and ``lower`` is
        certified not to reach ``D`` (or is 0). ``upper - lower <= tolerance`` for bisection unless some
        budget in between was undecided (the least distortion there within its certified gap of ``D``;
        the message says so), ``lower == upper`` for the direct method (accurate to the solver's
        tolerance).
    message
        What happened.
    smallest_distortion
        When ``D`` is not reached: the least distortion reached (with no privacy constraint if ``D``
        is below it, else within ``max_budget``).
    """

    epsilon: float | None
    distortion: float
    success: bool
    mechanism: Mechanism | None
    certificate: Result | None
    method: str
    bracket: tuple[float, float]
    message: str
    smallest_distortion: float | None = None


class _PrivacyDistortionSolver:
    """Compiled problems for ``ε*(D)`` at many ``D``: the direct one (distortion limit as a Parameter)
    when the notion has a leakage expression, and ``D*(ε)`` (budget as a Parameter) for certificates
    and bisection."""

    def __init__(self, notion: PrivacyNotion, objective: Objective, tolerance: float | None, max_budget: float | None,
                 solver: str | None, solver_options: Mapping[str, Any] | None) -> None:
        self.notion, self.objective = as_notion(notion), as_objective(objective)
        solver, solver_options = as_solver(solver), as_options(solver_options)
        # The defaults are in nats at the closest constrained inputs: in the notion's budget unit, divided by the
        # nats one unit allows there (metric DP: the nearest pair's distance), so units never change ε*(D).
        nats = self.notion.nats_per_budget_unit()
        tolerance = PRIVACY_DISTORTION_TOLERANCE / nats if tolerance is None else tolerance
        max_budget = MAX_BUDGET / nats if max_budget is None else max_budget
        self.tolerance = as_budget(tolerance, "tolerance")
        if self.tolerance <= 0:
            raise InvalidBudgetError(f"tolerance must be positive, got {tolerance!r}")
        self.max_budget = as_budget(max_budget, "max_budget")
        self.distortion_at = DesignProblem(notion, objective, solver=solver, solver_options=solver_options)
        self._solver, self._solver_options = solver, solver_options
        self._resolving: DesignProblem | None = None
        self.unconstrained = _least_distortion(objective)
        entry = capabilities(self.notion)
        self.has_direct = entry is not None and entry.leakage_expression
        self._direct_problem: tuple[cp.Problem, cp.Parameter] | None = None

    def _direct_program(self) -> tuple[cp.Problem, cp.Parameter]:
        """``min leakage(Q)`` s.t. ``objective(Q) <= limit`` (a Parameter), built on first use."""
        if self._direct_problem is None:
            Q = cp.Variable(self.objective.shape, nonneg=True)
            limit = cp.Parameter(name="distortion_limit")
            self._direct_problem = (cp.Problem(cp.Minimize(self.notion.leakage_expression(Q)),
                                               [cp.sum(Q, axis=1) == 1, self.objective.expression(Q) <= limit]),
                                    limit)
        return self._direct_problem

    def solve(self, distortion: float) -> PrivacyDistortion:
        limit = as_finite(distortion, "distortion")
        if limit < self.unconstrained - LIMIT_ATOL:
            return self._unreachable(limit, self.unconstrained,
                                     f"distortion {limit:.9g} is below the least distortion "
                                     f"{self.unconstrained:.9g} of any mechanism")
        if self.has_direct:
            return self._direct(limit)
        return self._bisection(limit)

    def _direct(self, limit: float) -> PrivacyDistortion:
        """The leakage minimized under the distortion limit, then checked from both sides: the certificate at
        ε reaches ``D``, and the design at ``ε −`` :data:`DIRECT_PROBE` does not. A design there that reaches
        ``D`` shows the conic solver's ε above ε* (seen for Rényi DP near α = 1 and at small ``D``):
        bisection then continues below it."""
        problem, parameter = self._direct_program()
        parameter.value = limit
        if not solve_cvxpy(problem, "clarabel").solved:
            return self._bisection(limit)  # fall back to the method that needs no leakage expression
        epsilon = self.notion.budget_from_leakage(float(problem.value))
        matrix = next((v.value for v in problem.variables() if v.shape == self.objective.shape), None)
        if matrix is not None:  # the conic solver's epigraph can sit below its own point's leakage (Rényi, 1e-5)
            try:
                measured = self.notion.measure(clean_mechanism(matrix))
            except InvalidMechanismError:  # a "solved" point that is no mechanism: as if not solved
                return self._bisection(limit)
            epsilon = max(epsilon, measured) if math.isfinite(measured) else epsilon
        direct = self._certified(limit, epsilon, (epsilon, epsilon), "direct")
        if not direct.success:
            # A certificate can fail where the feasible set has no interior (e.g. Sibson at ε = 0), or where the
            # conic solver's ε sits a little below ε* (its absolute tolerance is large beside ε* ≈ 1e-6 near
            # D*(0)): bisection then brackets ε* from above, starting at 2ε rather than at 1 (PUT Thm 7(5) on
            # {1,2,3}³ at D = 1.999: 21 bisection steps fewer).
            return self._bisection(limit, min(2.0 * epsilon, self.max_budget) if epsilon > 0 else None)
        below = epsilon - DIRECT_PROBE
        if below > 0 and self._reaches(below, limit, ties=False):
            return self._bisection(limit, below)
        return direct

    def _bisection(self, limit: float, reached: float | None = None) -> PrivacyDistortion:
        """Bisection on the budget (``reached``: a budget expected to reach ``D``, solved first; where it does not,
        the search doubles it as it doubles 1)."""
        if self._reaches(0.0, limit):  # undecided at 0 (e.g. a cone without interior): search upwards
            return self._certified(limit, 0.0, (0.0, 0.0), "bisection")
        # Invariant: D*(lower) > D is proven (or lower = 0), and D*(upper) <= D once reached.
        lower, upper = 0.0, min(1.0, self.max_budget) if reached is None else reached
        while not (reaches := self._reaches(upper, limit)):
            if upper >= self.max_budget:
                if reaches is None:
                    return self._undecided(limit, upper)
                reached = self.distortion_at.solve(self.max_budget)
                return self._unreachable(limit, reached.objective,
                                         f"distortion {limit:.9g} is not reached within budget {self.max_budget:g} "
                                         f"(least distortion there {reached.objective}, certified lower bound "
                                         f"{reached.bound})")
            if reaches is False:
                lower = upper
            upper = min(2.0 * upper, self.max_budget)
        proven, undecided = lower, []
        while upper - lower > self.tolerance:
            middle = 0.5 * (lower + upper)
            reaches = self._reaches(middle, limit)
            if reaches:
                upper = middle
                continue
            # Not reached, or undecided (D*(middle) within the certified gap of D): the search goes on
            # above ``middle`` for the least budget that is reached, but only a certified "not reached"
            # moves the lower end of the bracket.
            lower = middle
            if reaches is False:
                proven = middle
            else:
                undecided.append(middle)
        note = "" if proven == lower else (
            f"; {len(undecided)} budget(s) in ({proven:.10g}, {upper:.10g}) undecided (D* within the certified "
            "gap of the limit): the bracket is as narrow as the certificates allow")
        return self._certified(limit, upper, (proven, upper), "bisection", note)

    def _reaches(self, budget: float, limit: float, ties: bool = True) -> bool | None:
        """Whether ``D*(budget) <= limit``: yes when a private mechanism reaches it, no when the certified
        lower bound exceeds it, ``None`` when the solve decides neither (never read as "not reached").
        Both slacks are relative to the limit (:data:`REACH_ATOL`); ``ties=False`` leaves a tie undecided."""
        slack = REACH_ATOL * abs(limit)
        result = self.distortion_at.solve(budget, threshold=limit + slack)
        decided = self._decide(result, limit, slack)
        if decided is None and result.method == "unconstrained-optimum":
            decided = self._decide(self._resolved(budget, limit + slack), limit, slack)
        if decided is not None or not ties:
            return decided
        # D*(budget) is within the certified gap of the limit: a tie, decided as reached when the
        # mechanism meets the limit within LIMIT_ATOL, relative (as the final certificate must).
        return True if result.success and result.objective <= limit + LIMIT_ATOL * abs(limit) else None

    @staticmethod
    def _decide(result: Result, limit: float, slack: float) -> bool | None:
        if result.success and result.objective <= limit + slack:
            return True
        if result.bound is not None and result.bound > limit + slack:
            return False
        return None

    def _resolved(self, budget: float, threshold: float | None = None) -> Result:
        """``D*(budget)`` solved as a problem, not by design()'s unconstrained shortcut: that shortcut is optimal
        within ``GAP_RTOL · max(unit, |objective|)``, absolute below the unit, which cannot tell
        ``D*(ε)`` from ``D`` when both are below ``GAP_RTOL · unit`` (ε*(D) at D = 1e-8). The objective is added
        as a limit at its largest value, the unit (never binding: a distortion is at most its largest cost),
        which only rules the shortcut out."""
        if self._resolving is None:
            self._resolving = DesignProblem(self.notion, self.objective, [self.objective], solver=self._solver,
                                            solver_options=self._solver_options)
        return self._resolving.solve(budget, [self.objective.unit], threshold=threshold)

    def _undecided(self, limit: float, budget: float) -> PrivacyDistortion:
        """Bisection could not decide whether ``D*(budget) <= limit``: a failure that says so."""
        return PrivacyDistortion(None, limit, False, None, None, "bisection", (math.nan, math.nan),
                                 f"could not decide whether distortion {limit:.9g} is reached at budget {budget:.9g}: "
                                 "the design there was neither within the limit nor certified above it")

    def _certified(self, limit: float, epsilon: float, bracket: tuple[float, float], method: str,
                   note: str = "") -> PrivacyDistortion:
        certificate = self.distortion_at.solve(epsilon)
        if certificate.method == "unconstrained-optimum" and certificate.objective > limit + LIMIT_ATOL * abs(limit):
            certificate = self._resolved(epsilon)
        success = certificate.success and certificate.objective <= limit + LIMIT_ATOL * abs(limit)
        message = (f"epsilon* = {epsilon:.10g} ({method}); certificate distortion {certificate.objective}{note}"
                   if success else f"certificate at epsilon {epsilon:.10g} failed: {certificate.message}; "
                   f"distortion {certificate.objective} vs limit {limit:.9g}")
        return PrivacyDistortion(epsilon, limit, success, certificate.mechanism, certificate, method, bracket,
                                 message)

    def _unreachable(self, limit: float, smallest: float | None, message: str) -> PrivacyDistortion:
        method = "direct" if self.has_direct else "bisection"
        return PrivacyDistortion(None, limit, False, None, None, method, (math.inf, math.inf), message, smallest)


def _least_distortion(objective: Objective) -> float:
    """The least value of ``objective`` over every mechanism (no privacy constraint): its closed form
    (:meth:`~mechdesign.utility.base.Objective.unconstrained_optimum`) or an LP."""
    optimum = objective.unconstrained_optimum()
    if optimum is not None:
        return objective.value(optimum)
    Q = cp.Variable(objective.shape, nonneg=True)
    problem = cp.Problem(cp.Minimize(objective.expression(Q)), [cp.sum(Q, axis=1) == 1])
    outcome = solve_cvxpy(problem, "highs" if objective.is_linear else "clarabel")
    return float(problem.value) if outcome.solved else -math.inf


def privacy_distortion(
    notion: PrivacyNotion,
    distortion: float,
    objective: Objective,
    *,
    tolerance: float | None = None,
    max_budget: float | None = None,
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
) -> PrivacyDistortion:
    """``ε*(𝒫, D)``: the least budget at which some mechanism has distortion at most ``D``.

    PUT paper, Definition 4, eq. (2). Notions with a
    :meth:`~mechdesign.privacy.base.PrivacyNotion.leakage_expression` (maximal leakage, mutual
    information, Rényi DP, Sibson) have it minimized directly under the distortion limit; the others
    (DP, approximate DP, maximal information, PML) are bisected on the budget, ``D*(ε) <= D`` being
    monotone in ε, to a bracket of width ``tolerance``.

    Parameters
    ----------
    notion
        The privacy notion.
    distortion
        The limit ``D``.
    objective
        The distortion used as the limit: :class:`~mechdesign.utility.distortion.ExpectedDistortion`
        for a prior, :class:`~mechdesign.utility.distortion.WorstCaseDistortion` for a source set.
    tolerance
        Width of the bisection bracket, in the notion's budget unit (default: :data:`PRIVACY_DISTORTION_TOLERANCE`
        nats at the closest constrained inputs, i.e. divided by
        :meth:`~mechdesign.privacy.base.PrivacyNotion.nats_per_budget_unit`).
    max_budget
        Largest budget bisection searches, in the notion's budget unit (default: :data:`MAX_BUDGET` nats, likewise).
    solver, solver_options
        For the certificate and bisection problems, as for :func:`~mechdesign.solve.design`.

    Returns
    -------
    PrivacyDistortion
        ``success=False`` with ``smallest_distortion`` when ``D`` is not reached.

    Examples
    --------
    >>> import math
    >>> from mechdesign import MaximalLeakage, ExpectedDistortion, Prior
    >>> value = privacy_distortion(MaximalLeakage(), 0.5, ExpectedDistortion(Prior.uniform(4)))
    >>> value.success, round(value.epsilon, 6), round(math.log(2), 6)  # PUT Prop. 8(4): D = 1 − e^ε/4
    (True, 0.693147, 0.693147)
    """
    return _PrivacyDistortionSolver(notion, objective, tolerance, max_budget, solver, solver_options).solve(distortion)


def distortion_privacy(
    notion: PrivacyNotion,
    epsilon: float,
    objective: Objective,
    *,
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
) -> Result:
    """``D*(𝒫, ε)``: the least distortion of a mechanism within budget ε (PUT paper, eq. (3)).

    With :class:`~mechdesign.utility.distortion.WorstCaseDistortion` as ``objective`` this is the
    paper's ``min_{ε(Q) <= ε} max_{P ∈ 𝒫} E_{P,Q}[d]``. The value is ``result.objective``.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> result = distortion_privacy(DifferentialPrivacy(), 1.0, ExpectedDistortion(Prior.uniform(3)))
    >>> result.status, round(result.objective, 6)  # PUT Prop. 8(1): (m − 1) / (e^ε + m − 1)
    ('optimal', 0.423883)
    """
    return design(notion, epsilon, objective, solver=solver, solver_options=solver_options)


def privacy_distortion_curve(
    notion: PrivacyNotion,
    objective: Objective,
    distortions: Sequence[float],
    *,
    tolerance: float | None = None,
    max_budget: float | None = None,
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> Curve:
    """``ε*(D)`` at each ``D`` of ``distortions`` (one set of compiled problems), as a :class:`Curve`.

    ``x`` holds the distortions and ``y`` the ε* (NaN where ``D`` is not reached; that point's result
    says why and gives the least distortion reached in ``smallest_feasible``). ``tolerance`` and ``max_budget``
    are :func:`privacy_distortion`'s. ``progress`` is an optional callback ``progress(done, total, description)``
    called after each point.

    Examples
    --------
    >>> from mechdesign import MaximalLeakage, ExpectedDistortion, Prior
    >>> curve = privacy_distortion_curve(MaximalLeakage(), ExpectedDistortion(Prior.uniform(4)), [0.5, 0.75])
    >>> curve.y.round(6).tolist()  # ε*(D) = log(4 (1 − D))
    [0.693147, 0.0]
    """
    engine = _PrivacyDistortionSolver(notion, objective, tolerance, max_budget, solver, solver_options)
    limits = as_number_list(distortions, "distortions", as_finite)
    values, results = [], []
    for limit in limits:
        start = time.perf_counter()
        value = engine.solve(limit)
        values.append(value)
        # A limit not reached has no certificate: its point is a failure (the certification tail's), timed from here.
        results.append(value.certificate if value.certificate is not None else failure_result(
            "infeasible", value.message, start, smallest_feasible=value.smallest_distortion))
        report(progress, len(values), len(limits), f"ε*(D) at D = {limit:g}")
    epsilons = np.array([v.epsilon if v.success else np.nan for v in values], dtype=float)
    return Curve(np.array([v.distortion for v in values]), epsilons, objective.label, "epsilon",
                 notion.label, tuple(results))
