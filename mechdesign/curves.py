"""Privacy–utility curves traced by re-solving one compiled (DPP) problem.

:func:`trace_curve` computes ``D*(ε)`` — the optimal objective as a function of a privacy budget —
at many budgets, changing only a cvxpy ``Parameter`` between solves (PUT paper, eq. (3)).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ._validate import as_budget, as_positive_int
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


def _solve_budgets(
    notion: PrivacyNotion,
    objective: Objective,
    budgets: np.ndarray,
    solver: str | None,
    solver_options: Mapping[str, Any] | None,
) -> list[Result]:
    """Build and compile one problem, then solve it at each budget (one worker's share of a curve)."""
    problem = DesignProblem(notion, objective, solver=solver, solver_options=solver_options)
    return [problem.solve(budget) for budget in budgets]


def trace_curve(
    notion: PrivacyNotion,
    objective: Objective,
    budgets: Sequence[float],
    *,
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
    executor: Executor | None = None,
    chunks: int | None = None,
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

    Examples
    --------
    >>> from concurrent.futures import ProcessPoolExecutor
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> with ProcessPoolExecutor(2) as pool:  # doctest: +SKIP
    ...     curve = trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(4)),
    ...                         [0.5, 1.0, 1.5, 2.0], executor=pool)
    """
    values = np.array([as_budget(b, "budget") for b in budgets], dtype=float)
    if executor is None:
        results = tuple(_solve_budgets(notion, objective, values, solver, solver_options))
    else:
        pieces = as_positive_int(chunks if chunks is not None else os.cpu_count() or 1, "chunks")
        splits = [part for part in np.array_split(values, min(pieces, max(values.size, 1))) if part.size]
        futures = [executor.submit(_solve_budgets, notion, objective, part, solver, solver_options)
                   for part in splits]
        results = tuple(result for future in futures for result in future.result())
    optimum = np.array([r.objective if r.success else np.nan for r in results], dtype=float)
    return Curve(values, optimum, "epsilon", objective.label, notion.label, results)
