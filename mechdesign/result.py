"""The outcome of a design and the tolerances that certify it (bottom layer: numpy only).

Every path that designs a mechanism — :func:`~mechdesign.solve.design`, the direct LPs, curves,
closed forms, extreme columns, constraint generation — returns a :class:`Result`. A result is

* **private** when every budget, re-measured in numpy by the notion's own
  :meth:`~mechdesign.privacy.base.PrivacyNotion.measure`, holds within :func:`budget_tolerance`
  (relative to the budget, so that neither its size nor its unit changes the verdict);
* **optimal** (``status == "optimal"``) only when, in addition, a bound on the optimal value —
  computed in numpy from a dual-feasible point (or a closed form, or an outer loop's bracket) — is
  within :data:`GAP_RTOL` of the objective: ``gap <= GAP_RTOL * max(unit, |objective|)``, where
  ``unit`` is the objective's natural scale (the largest cost of a distortion, 1 for information),
  so that the units of the cost never change the verdict. Otherwise a private mechanism is
  ``"suboptimal"`` and its message states the gap (or why no bound exists).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .exceptions import InvalidMechanismError
from .mechanism import Mechanism

#: Largest accepted excess of a measured privacy value over its budget, relative to the budget: 1e-6 nats at
#: budget 1 as before, but no longer 1e-6 nats at every budget (an 8.6 % overshoot of ε = 1e-6 passed).
BUDGET_RTOL = 1e-6
#: Excess accepted at any budget (in the budget's unit): the measures' own float round-off where the budget is
#: 0 or nearly so — the constant mechanism measures up to 2.2e-14 under Rényi DP of order 1.01 (the log of a
#: sum of ``p^α q^(1−α)``, divided by ``α − 1``), 2.2e-16 under PML and maximal leakage.
BUDGET_FLOOR = 1e-12
#: Largest accepted excess of a limited quantity (e.g. distortion) over its limit.
LIMIT_ATOL = 1e-7
#: Largest certified optimality gap, relative to ``max(unit, |objective|)``, for ``status="optimal"``.
GAP_RTOL = 1e-7

#: Outputs whose largest probability is at most this are solver round-off and are dropped.
NEGLIGIBLE_MASS = 1e-7
#: Mixing weights tried, in order, to repair a solution that misses a budget by round-off (a
#: measure like ``log((Q[x,y] − δ) / Q[x',y])`` jumps to infinity when a zero entry comes out as 1e-10).
REPAIR_WEIGHTS = (1e-10, 1e-9, 1e-8, 1e-7)
#: Geometric bisection steps for a larger repair weight when those fail (an inaccurate solve): the
#: result is then private but its gap, certified or not, says how far from optimal it is.
REPAIR_BISECTION_STEPS = 40
#: The bisection's weight is raised by this fraction: its point sits on the edge of :func:`budget_tolerance`,
#: where another correct measure's round-off decides (a Rényi path design at ε = 1e-3, cost × 1e12, n = 60: an
#: independent measure 6e-20 over the edge). The leakage being convex along the mixture and 0 at weight 1, the
#: margin moves it inside by at least ``REPAIR_MARGIN · weight`` of itself (weight > 1e-7 here: 1e-9 of it).
REPAIR_MARGIN = 0.01
#: Statuses of a result that holds a private mechanism.
SOLVED_STATUSES = ("optimal", "suboptimal")


def budget_tolerance(budget: float) -> float:
    """The largest accepted excess of a measured privacy value over ``budget``: ``BUDGET_RTOL · |budget| + BUDGET_FLOOR``.

    Parameters
    ----------
    budget
        The budget, in the notion's budget unit (``math.inf`` allowed: then every finite value is within).

    Returns
    -------
    float
        The tolerance, relative to the budget but for :data:`BUDGET_FLOOR` (the measures' round-off at budget 0).

    Examples
    --------
    >>> budget_tolerance(1.0) == BUDGET_RTOL + BUDGET_FLOOR
    True
    >>> budget_tolerance(1e-6) < 1e-11  # a small budget is not overshot by a large fraction of itself
    True
    """
    return BUDGET_RTOL * abs(budget) + BUDGET_FLOOR


def within_budget(measured: float, budget: float) -> bool:
    """Whether a measured privacy value respects ``budget``: ``measured <= budget + budget_tolerance(budget)``.

    Every comparison of a measured value (or a certified bound on one) with its budget goes through this
    function, so a budget's size and unit (nats, or per unit of distance) never change the verdict wherever
    ``BUDGET_RTOL · budget`` dominates :data:`BUDGET_FLOOR` (budgets above about 1e-3 in their unit).

    Parameters
    ----------
    measured
        The value re-measured in numpy (``nan`` is never within).
    budget
        The budget in the same unit.

    Returns
    -------
    bool
        ``True`` iff the value is within the budget up to :func:`budget_tolerance`.

    Examples
    --------
    >>> within_budget(1.0 + 5e-7, 1.0), within_budget(1.086e-6, 1e-6)  # 8.6 % over a small budget is not round-off
    (True, False)
    >>> within_budget(1.0e-3 * (1 + 5e-7), 1.0e-3) == within_budget(1.0 * (1 + 5e-7), 1.0)  # per metre or per km
    True
    """
    return bool(measured <= budget + budget_tolerance(budget))


def gap_tolerance(objective: float, unit: float = 1.0) -> float:
    """The largest gap that still certifies ``objective`` optimal: ``GAP_RTOL · max(unit, |objective|)``.

    Parameters
    ----------
    objective
        The objective's value.
    unit
        The objective's natural scale (the largest cost of a distortion, 1 for information).

    Returns
    -------
    float
        The tolerance, relative to ``unit`` for small objectives and to ``|objective|`` for large ones.

    Examples
    --------
    >>> gap_tolerance(0.5) == GAP_RTOL
    True
    >>> gap_tolerance(0.5, unit=100.0) == gap_tolerance(0.005) * 100  # costs in other units: same verdict
    True
    """
    return GAP_RTOL * max(unit, abs(objective))


def optimality_gap(objective: float | None, bound: float | None) -> float | None:
    """``|objective − bound|`` (``None`` without both; ``inf`` for an infinite bound).

    Parameters
    ----------
    objective
        The objective's value, or ``None``.
    bound
        A certified bound on the optimal value, or ``None`` (``nan`` counts as none).

    Returns
    -------
    float or None
        The gap.

    Examples
    --------
    >>> optimality_gap(0.25, 0.125), optimality_gap(0.25, None), optimality_gap(0.25, -math.inf)
    (0.125, None, inf)
    """
    if objective is None or bound is None or math.isnan(bound):
        return None
    return abs(objective - bound)


def is_certified_optimal(objective: float | None, bound: float | None, unit: float = 1.0) -> bool:
    """Whether ``bound`` certifies ``objective`` within :func:`gap_tolerance` (objective in units of ``unit``).

    Parameters
    ----------
    objective
        The objective's value, or ``None``.
    bound
        A certified bound on the optimal value, or ``None``.
    unit
        The objective's natural scale.

    Returns
    -------
    bool
        ``True`` iff both exist and their gap is at most ``gap_tolerance(objective, unit)``.

    Examples
    --------
    >>> is_certified_optimal(0.25, 0.25 - 1e-9), is_certified_optimal(0.25, 0.2499), is_certified_optimal(0.25, None)
    (True, False, False)
    """
    gap = optimality_gap(objective, bound)
    return gap is not None and gap <= gap_tolerance(objective, unit)


def json_number(value: float | None) -> float | str | None:
    """``value`` for strict JSON: a finite number as it is, ``±inf``/NaN as the strings ``"inf"``, ``"-inf"``, ``"nan"``.

    ``json.dumps`` would write ``Infinity``/``NaN``, which is not JSON (defect L3); readers of the
    package's files (:mod:`mechdesign.files`) decode the strings back in fields known to be numeric.

    Examples
    --------
    >>> json_number(0.5), json_number(math.inf), json_number(-math.inf), json_number(math.nan), json_number(None)
    (0.5, 'inf', '-inf', 'nan', None)
    """
    if value is None or math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


def _json_numbers(values: Mapping[str, float]) -> dict[str, float | str | None]:
    """A mapping of labels to numbers with every number through :func:`json_number`."""
    return {label: json_number(value) for label, value in values.items()}


def _mechanism_json(mechanism: Mechanism, dense_entries: int | None = None) -> Any:
    """The mechanism as nested lists; a structured one (``redraw`` and ``row`` of
    :class:`~mechdesign.structured.KeepOrRedraw`) by its parameters when it has more than
    ``dense_entries`` entries (default :data:`DENSE_JSON_ENTRIES`; 0: always)."""
    limit = DENSE_JSON_ENTRIES if dense_entries is None else dense_entries
    if hasattr(mechanism, "redraw") and mechanism.shape[0] * mechanism.shape[1] > limit:
        return {"keep_or_redraw": {"redraw": mechanism.redraw.tolist(), "row": mechanism.row.tolist()}}
    return mechanism.matrix.tolist()


#: Largest mechanism written as a dense matrix by :meth:`Result.to_dict` when a structured form exists.
DENSE_JSON_ENTRIES = 10_000


@dataclass(frozen=True)
class Result:
    """The outcome of a design: the mechanism, its certificates, and how the solve went.

    Attributes
    ----------
    mechanism
        The designed mechanism, or ``None`` when no solution was found.
    objective
        The objective's value *re-computed in numpy* for ``mechanism`` (``None`` without one).
    status
        ``"optimal"`` (private, and the gap to ``bound`` is within :data:`GAP_RTOL`),
        ``"suboptimal"`` (private, but optimality could not be certified: the message says why),
        ``"infeasible"``, ``"unbounded"`` (only when proven), ``"inaccurate"`` (the solver claimed a
        solution that fails the independent measure) or ``"solver_error"``.
    success
        ``True`` iff a mechanism was found and every measured value respects its budget/limit
        (``"optimal"`` or ``"suboptimal"``).
    message
        Human-readable explanation (the reason for a failure, the gap of a suboptimal result).
    measured
        Measured value of every privacy notion (by label), in nats.
    budgets
        The budget of every privacy notion (by label).
    limits
        The limit of every limited quantity (by label) and, in ``measured_limits``, its value.
    max_violation
        The same on every solver path (``"direct-lp"``, ``"cvxpy"``): the largest violation, by the solver's
        raw point before cleaning, of the constraints it solved — unit row sums, non-negativity, each
        notion's constraints in its constraint scale (e.g. ``Q[x, y] − e^ε Q[x', y]``) and each limit in
        its own unit. ``None`` where no solver ran (closed forms, the unconstrained optimum). Privacy is
        judged by ``measured``, not by this.
    solver
        Name of the solver used (``""`` for closed forms).
    solve_time
        Wall-clock seconds of the solve.
    iterations
        Solver iterations, when the solver reports them.
    smallest_feasible
        When a limit made the problem infeasible: the smallest value of that limit any mechanism
        within the budgets reaches.
    bound
        A certified bound on the optimal value (lower for minimization, upper for maximization),
        checked in numpy; ``None`` when none could be computed (the message says why).
    gap
        ``|objective − bound|`` (``None`` without a bound).
    unit
        The objective's natural scale in which the gap is judged (:func:`gap_tolerance`).
    method
        Which path produced the result: one of :data:`mechdesign.solve.METHODS` for
        :func:`~mechdesign.solve.design` (``"closed-form"``, ``"hockey-stick-cuts"``, ``"blahut-arimoto"``, ``"direct-lp"``, ``"cvxpy"``) or
        ``"unconstrained-optimum"``, or another designer's (``"extreme-columns"``, ``"blahut-arimoto"``,
        ``"bisection"``, ``"constraint-generation"``, …).
    """

    mechanism: Mechanism | None
    objective: float | None
    status: str
    success: bool
    message: str
    measured: Mapping[str, float] = field(default_factory=dict)
    budgets: Mapping[str, float] = field(default_factory=dict)
    limits: Mapping[str, float] = field(default_factory=dict)
    measured_limits: Mapping[str, float] = field(default_factory=dict)
    max_violation: float | None = None
    solver: str = ""
    solve_time: float = 0.0
    iterations: int | None = None
    smallest_feasible: float | None = None
    bound: float | None = None
    gap: float | None = None
    method: str = ""
    unit: float = 1.0

    @property
    def certified(self) -> bool:
        """Whether every measured privacy value is within its budget (:func:`within_budget`).

        Examples
        --------
        >>> result = Result(Mechanism([[0.75, 0.25], [0.25, 0.75]]), 0.25, "optimal", True, "",
        ...                 measured={"LDP": math.log(3)}, budgets={"LDP": math.log(3)}, bound=0.25, gap=0.0)
        >>> result.certified
        True
        """
        return self.mechanism is not None and all(
            within_budget(self.measured[label], budget) for label, budget in self.budgets.items()
        )

    @property
    def optimal(self) -> bool:
        """Whether the result is private and certified optimal (``status == "optimal"``).

        Examples
        --------
        >>> Result(Mechanism([[0.5, 0.5]]), 0.5, "suboptimal", True, "no bound").optimal
        False
        """
        return self.success and self.status == "optimal"

    def to_dict(self) -> dict[str, Any]:
        """A strict-JSON-serializable dictionary (the mechanism as nested lists).

        Every number that is not finite (an infinite measured leakage, a NaN) is the string
        ``"inf"``, ``"-inf"`` or ``"nan"`` (:func:`json_number`), so ``json.dumps(..., allow_nan=False)``
        never fails and no ``Infinity`` token is written (defect L3). ``gap_tolerance`` and
        ``certified`` are derived, for readers; :func:`mechdesign.files.load` reads the rest back exactly.

        Examples
        --------
        >>> result = Result(Mechanism([[0.75, 0.25], [0.25, 0.75]]), 0.25, "optimal", True, "", bound=0.25, gap=0.0)
        >>> record = result.to_dict()
        >>> record["mechanism"], record["gap_tolerance"] == GAP_RTOL
        ([[0.75, 0.25], [0.25, 0.75]], True)
        >>> Result(Mechanism(np.eye(2)), 0.0, "optimal", True, "", measured={"dp": math.inf}).to_dict()["measured"]
        {'dp': 'inf'}
        """
        return {
            "success": self.success,
            "status": self.status,
            "message": self.message,
            "objective": json_number(self.objective),
            "bound": json_number(self.bound),
            "gap": json_number(self.gap),
            "gap_tolerance": None if self.objective is None else json_number(gap_tolerance(self.objective, self.unit)),
            "unit": json_number(self.unit),
            "method": self.method,
            "mechanism": None if self.mechanism is None else _mechanism_json(self.mechanism),
            "measured": _json_numbers(self.measured),
            "budgets": _json_numbers(self.budgets),
            "limits": _json_numbers(self.limits),
            "measured_limits": _json_numbers(self.measured_limits),
            "certified": self.certified,
            "max_violation": json_number(self.max_violation),
            "solver": self.solver,
            "solve_time": json_number(self.solve_time),
            "iterations": self.iterations,
            "smallest_feasible": json_number(self.smallest_feasible),
        }

    def summary(self) -> str:
        """A short multi-line report: status, objective and bound, budget vs measured for each notion.

        Examples
        --------
        >>> result = Result(Mechanism([[0.75, 0.25], [0.25, 0.75]]), 0.25, "optimal", True, "closed form",
        ...                 measured={"LDP": math.log(3)}, budgets={"LDP": math.log(3)}, bound=0.25, gap=0.0,
        ...                 method="closed-form")
        >>> print(result.summary())
        status: optimal (success) — closed form
        objective: 0.25
        bound: 0.25 (gap 0, certified optimal within 1e-07: yes)
          LDP: budget 1.09861, measured 1.098612289 [ok]
        method: closed-form, solver: none, 0.000 s, iterations: None
        """
        lines = [f"status: {self.status} ({'success' if self.success else 'FAILED'}) — {self.message}"]
        if self.objective is not None:
            lines.append(f"objective: {self.objective:.10g}")
        if self.bound is not None:
            lines.append(f"bound: {self.bound:.10g} (gap {self.gap:.3g}, certified optimal within "
                         f"{gap_tolerance(self.objective, self.unit):.3g}: {'yes' if self.optimal else 'no'})")
        elif self.mechanism is not None:
            lines.append("bound: none (optimality not certified)")
        for label, budget in self.budgets.items():
            if label in self.measured:
                verdict = "ok" if within_budget(self.measured[label], budget) else "EXCEEDS"
                lines.append(f"  {label}: budget {budget:.6g}, measured {self.measured[label]:.10g} [{verdict}]")
            else:
                lines.append(f"  {label}: budget {budget:.6g}")
        for label, limit in self.limits.items():
            if label in self.measured_limits:
                lines.append(f"  {label}: limit {limit:.6g}, measured {self.measured_limits[label]:.10g}")
            else:
                lines.append(f"  {label}: limit {limit:.6g}")
        if self.smallest_feasible is not None:
            lines.append(f"smallest feasible limit: {self.smallest_feasible:.10g}")
        lines.append(f"method: {self.method or 'unknown'}, solver: {self.solver or 'none'}, "
                     f"{self.solve_time:.3f} s, iterations: {self.iterations}")
        return "\n".join(lines)


def mix_with_constant(matrix: np.ndarray, weight: float) -> np.ndarray:
    """``(1 − w) Q + w 1 r`` with ``r`` the average row of ``Q``: a mechanism that leaks nothing.

    Every notion's feasible set (for a fixed budget) is convex and contains the constant mechanisms,
    so this moves a solution that misses its budget by solver round-off back inside, changing any
    expected distortion by at most ``w`` times the largest cost.

    Parameters
    ----------
    matrix
        ``(n, m)`` row-stochastic ``Q``.
    weight
        ``w ∈ [0, 1]``.

    Returns
    -------
    numpy.ndarray
        The mixture.

    Examples
    --------
    Half of the identity and half of the uniform row: randomized response at ``e^ε = 3``:

    >>> mix_with_constant(np.eye(2), 0.5)
    array([[0.75, 0.25],
           [0.25, 0.75]])
    """
    return (1.0 - weight) * matrix + weight * matrix.mean(axis=0, keepdims=True)


def clean_mechanism(matrix: np.ndarray) -> np.ndarray:
    """Remove solver round-off: clip negatives, drop outputs of negligible mass, renormalize rows.

    Parameters
    ----------
    matrix
        A solver's ``(n, m)`` point.

    Returns
    -------
    numpy.ndarray
        A row-stochastic matrix; a column whose largest entry is at most :data:`NEGLIGIBLE_MASS`
        becomes zero.

    Raises
    ------
    InvalidMechanismError
        When a row has no positive mass left (or is not finite): the point is no mechanism (HiGHS has returned
        "Optimal" with the zero matrix at constraint scales of 1e12 and more).

    Examples
    --------
    >>> clean_mechanism(np.array([[0.7, 0.3 + 1e-9, -1e-9], [0.2, 0.8, 1e-9]]))
    array([[0.7, 0.3, 0. ],
           [0.2, 0.8, 0. ]])
    """
    cleaned = np.maximum(matrix, 0.0)  # np.clip's values, without its Python wrapper (a curve cleans every point)
    highest = cleaned.max(axis=0)
    # Negligible columns not zero already (np.maximum leaves +0.0, no -0.0, in a column whose largest entry is 0): the
    # unused outputs of a vertex need no writing. count_nonzero and min: ndarray.any/all without their Python wrappers.
    negligible = (highest > 0.0) & (highest <= NEGLIGIBLE_MASS)
    if np.count_nonzero(negligible):
        cleaned[:, negligible] = 0.0
    sums = cleaned.sum(axis=1, keepdims=True)
    if not sums.min() > 0:  # also NaN
        row = int(np.flatnonzero(~(sums[:, 0] > 0))[0])
        raise InvalidMechanismError(f"the solver's point is no mechanism: row {row} has no positive mass "
                                    f"(sum {float(sums[row, 0]):.3g})")
    cleaned /= sums
    return cleaned


def certify_mechanism(
    matrix: np.ndarray, exceeded: Callable[[np.ndarray], list[str]], problems: list[str] | None = None
) -> tuple[np.ndarray, list[str], str]:
    """Check a cleaned solution against its budgets and repair round-off misses.

    ``exceeded(matrix)`` describes every budget or limit the matrix misses (empty if none). If the
    solution misses one, mixing the weights :data:`REPAIR_WEIGHTS` of the constant mechanism into it
    is tried in turn; when none suffices but the constant mechanism itself meets everything, the
    smallest sufficient weight is found by :data:`REPAIR_BISECTION_STEPS` geometric bisection steps
    (the note then says the point missed a budget).

    Parameters
    ----------
    matrix
        A cleaned ``(n, m)`` mechanism.
    exceeded
        Maps a matrix to the descriptions of the budgets and limits it misses.
    problems
        ``exceeded(matrix)``, where the caller has it already (``None``: computed here).

    Returns
    -------
    matrix, problems, note
        The (possibly mixed) matrix, what it still exceeds, and a note for the result's message.

    Examples
    --------
    A budget that forbids zero entries (as ``log(Q[x, y] / Q[x', y])`` does) is met by the first weight
    that suffices:

    >>> repaired, problems, note = certify_mechanism(np.eye(2), lambda q: [] if q.min() >= 1e-9 else ["a zero entry"])
    >>> float(repaired[0, 1]), problems  # weight 1e-8 of the uniform row
    (5e-09, [])
    >>> note
    '; solver round-off repaired by mixing weight 1e-08 of the constant mechanism into the solution'
    """
    problems = exceeded(matrix) if problems is None else problems
    if not problems:
        return matrix, [], ""
    for weight in REPAIR_WEIGHTS:
        mixed = mix_with_constant(matrix, weight)
        if not exceeded(mixed):
            return mixed, [], (f"; solver round-off repaired by mixing weight {weight:g} of the "
                               "constant mechanism into the solution")
    if exceeded(mix_with_constant(matrix, 1.0)):
        return matrix, problems, ""  # a limit the constant mechanism misses too: nothing to repair with
    low, high = REPAIR_WEIGHTS[-1], 1.0  # the private weights form an interval up to 1 (convexity)
    for _ in range(REPAIR_BISECTION_STEPS):
        middle = math.sqrt(low * high)
        low, high = (low, middle) if not exceeded(mix_with_constant(matrix, middle)) else (middle, high)
    high = min(1.0, high * (1.0 + REPAIR_MARGIN))  # off the tolerance's edge, where round-off decides
    return mix_with_constant(matrix, high), [], (f"; the solver's point missed a budget ({problems[0]}): mixed "
                                                  f"with weight {high:.3g} of the constant mechanism to make it private")
