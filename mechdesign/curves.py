"""Privacy–utility curves traced by re-solving one compiled (DPP) problem.

:func:`trace_curve` computes ``D*(ε)`` — the optimal objective as a function of a privacy budget —
at many budgets, changing only a cvxpy ``Parameter`` between solves (PUT paper, eq. (3)).
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ._validate import as_budget
from .privacy.base import PrivacyNotion
from .solve import DesignProblem, Result
from .utility.base import Objective


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
        """Whether every point was solved and certified."""
        return all(result.success for result in self.results)

    def rows(self) -> list[dict[str, Any]]:
        """One dictionary per point: x, y, success, status and the measured privacy."""
        return [
            {self.x_name: float(x), self.y_name: float(y), "success": r.success, "status": r.status,
             **{f"measured[{k}]": v for k, v in r.measured.items()}}
            for x, y, r in zip(self.x, self.y, self.results)
        ]

    def to_csv(self, path: str | Path) -> Path:
        """Write :meth:`rows` to ``path`` as CSV and return the path."""
        rows = self.rows()
        target = Path(path)
        with target.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
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


def trace_curve(
    notion: PrivacyNotion,
    objective: Objective,
    budgets: Sequence[float],
    *,
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
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
    solver, solver_options
        As for :func:`~mechdesign.solve.design`.
    """
    values = np.array([as_budget(b, "budget") for b in budgets], dtype=float)
    problem = DesignProblem(notion, objective, solver=solver, solver_options=solver_options)
    results = tuple(problem.solve(budget) for budget in values)
    optimum = np.array([r.objective if r.success else np.nan for r in results], dtype=float)
    return Curve(values, optimum, "epsilon", objective.label, notion.label, results)
