"""The outcome of a design and the tolerances that certify it (bottom layer: numpy only).

Every path that designs a mechanism — :func:`~mechdesign.solve.design`, the direct LPs, curves,
closed forms, extreme columns, constraint generation — returns a :class:`Result`. A result is

* **private** when every budget, re-measured in numpy by the notion's own
  :meth:`~mechdesign.privacy.base.PrivacyNotion.measure`, holds within :data:`BUDGET_ATOL`;
* **optimal** (``status == "optimal"``) only when, in addition, a bound on the optimal value —
  computed in numpy from a dual-feasible point (or a closed form, or an outer loop's bracket) — is
  within :data:`GAP_RTOL` of the objective: ``gap <= GAP_RTOL * max(unit, |objective|)``, where
  ``unit`` is the objective's natural scale (the largest cost of a distortion, 1 for information),
  so that the units of the cost never change the verdict. Otherwise a private mechanism is
  ``"suboptimal"`` and its message states the gap (or why no bound exists).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .mechanism import Mechanism

#: Largest accepted excess of a measured privacy value over its budget (nats).
BUDGET_ATOL = 1e-6
#: Largest accepted excess of a limited quantity (e.g. distortion) over its limit.
LIMIT_ATOL = 1e-7
#: Largest certified optimality gap, relative to ``max(1, |objective|)``, for ``status="optimal"``.
GAP_RTOL = 1e-7

#: Statuses of a result that holds a private mechanism.
SOLVED_STATUSES = ("optimal", "suboptimal")


def gap_tolerance(objective: float, unit: float = 1.0) -> float:
    """The largest gap that still certifies ``objective`` optimal: ``GAP_RTOL · max(unit, |objective|)``."""
    return GAP_RTOL * max(unit, abs(objective))


def optimality_gap(objective: float | None, bound: float | None) -> float | None:
    """``|objective − bound|`` (``None`` without both; ``inf`` for an infinite bound)."""
    if objective is None or bound is None or math.isnan(bound):
        return None
    return abs(objective - bound)


def is_certified_optimal(objective: float | None, bound: float | None, unit: float = 1.0) -> bool:
    """Whether ``bound`` certifies ``objective`` within :func:`gap_tolerance` (objective in units of ``unit``)."""
    gap = optimality_gap(objective, bound)
    return gap is not None and gap <= gap_tolerance(objective, unit)


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
        Largest violation of the solved problem's constraints by the raw solver output.
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
        Which path produced the result: ``"direct-lp"``, ``"cvxpy"``, ``"closed-form"``,
        ``"extreme-columns"``, ``"blahut-arimoto"``, ``"bisection"``, ``"constraint-generation"``, …
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
        """Whether every measured privacy value is within its budget (tolerance ``BUDGET_ATOL``)."""
        return self.mechanism is not None and all(
            self.measured[label] <= budget + BUDGET_ATOL for label, budget in self.budgets.items()
        )

    @property
    def optimal(self) -> bool:
        """Whether the result is private and certified optimal (``status == "optimal"``)."""
        return self.success and self.status == "optimal"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serializable dictionary (the mechanism as nested lists)."""
        return {
            "success": self.success,
            "status": self.status,
            "message": self.message,
            "objective": self.objective,
            "bound": self.bound,
            "gap": self.gap,
            "gap_tolerance": None if self.objective is None else gap_tolerance(self.objective, self.unit),
            "method": self.method,
            "mechanism": None if self.mechanism is None else self.mechanism.matrix.tolist(),
            "measured": dict(self.measured),
            "budgets": dict(self.budgets),
            "limits": dict(self.limits),
            "measured_limits": dict(self.measured_limits),
            "certified": self.certified,
            "max_violation": self.max_violation,
            "solver": self.solver,
            "solve_time": self.solve_time,
            "iterations": self.iterations,
            "smallest_feasible": self.smallest_feasible,
        }

    def summary(self) -> str:
        """A short multi-line report: status, objective and bound, budget vs measured for each notion."""
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
                verdict = "ok" if self.measured[label] <= budget + BUDGET_ATOL else "EXCEEDS"
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
