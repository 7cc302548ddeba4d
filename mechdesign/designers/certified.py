"""What every dedicated designer does last: re-measure its mechanism, repair round-off, certify the gap."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .._validate import as_budget
from ..exceptions import MechDesignError
from ..mechanism import Mechanism
from ..privacy.base import PrivacyNotion
from ..result import BUDGET_ATOL, Result, certify_mechanism, is_certified_optimal, optimality_gap
from ..utility.base import Objective


def single_budget(budgets: Any, label: str) -> float:
    """The one budget of a one-notion problem (a number or a sequence of one), ``inf`` allowed.

    Examples
    --------
    >>> single_budget([0.5], "dp")
    0.5
    """
    values = [budgets] if np.ndim(budgets) == 0 else list(budgets)
    if len(values) != 1:
        raise MechDesignError(f"expected 1 budget (for {label}), got {len(values)}: {budgets!r}")
    return as_budget(values[0], f"budget for {label}", infinite=True)


def certified_result(notion: PrivacyNotion, budget: float, objective: Objective, matrix: np.ndarray, bound: float,
                     work: str, start: float, **fields: Any) -> Result:
    """The :class:`Result` of ``matrix``: its budget re-measured by ``notion.measure`` (a miss repaired by
    :func:`~mechdesign.result.certify_mechanism`), ``"optimal"`` when ``bound`` (a certified lower bound, in
    the objective's units) is within ``GAP_RTOL`` of its objective. ``work`` describes how it was found;
    ``fields`` are further :class:`Result` fields (``method``, ``solver``, ``iterations``).

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> result = certified_result(DifferentialPrivacy(), 0.0, ExpectedDistortion(Prior.uniform(2)),
    ...                           np.full((2, 2), 0.5), 0.5, "the constant mechanism", time.perf_counter())
    >>> result.status, result.gap
    ('optimal', 0.0)
    """
    label = notion.label

    def exceeded(candidate: np.ndarray) -> list[str]:
        value = notion.measure(candidate)
        return [f"{label} measured {value:.9g} > budget {budget:.9g}"] if value > budget + BUDGET_ATOL else []

    repaired, problems, repair = certify_mechanism(matrix, exceeded)
    mechanism = Mechanism(repaired)
    value = objective.value(mechanism)
    common = dict(fields, budgets={label: budget}, measured={label: notion.measure(mechanism)},
                  unit=objective.unit, solve_time=time.perf_counter() - start)
    if problems:
        return Result(mechanism, value, "inaccurate", False, f"{work}; " + "; ".join(problems), **common)
    gap = optimality_gap(value, bound)
    certified = is_certified_optimal(value, bound, objective.unit)
    verdict = (f"optimality gap {gap:.1e} certified" if certified
               else f"the lower bound {bound:.12g} leaves a gap of {gap:.3g}, above GAP_RTOL")
    return Result(mechanism, value, "optimal" if certified else "suboptimal", True,
                  f"{work}; budget re-measured and respected; {verdict}{repair}", bound=bound, gap=gap, **common)
