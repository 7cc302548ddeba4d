"""The certification tail of every design: re-measure, repair round-off, certify the gap, build the :class:`Result`.

:func:`mechanism_result` is the one place a :class:`Result` holding a mechanism is built (every method of
:func:`~mechdesign.solve.design` and every designer beside it ends there), :func:`failure_result` the one
place a result without one is; :func:`certified_result` is the tail of a one-notion designer, which measures
and repairs its raw matrix first.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .._validate import as_budget
from ..exceptions import MechDesignError
from ..mechanism import Mechanism
from ..privacy.base import PrivacyNotion
from ..result import (LIMIT_ATOL, Result, certify_mechanism, is_certified_optimal, optimality_gap,
                      within_budget)
from ..utility.base import Objective


def single_budget(budgets: Any, label: str) -> float:
    """The one budget of a one-notion problem (a number or a sequence of one), ``inf`` allowed.

    Examples
    --------
    >>> single_budget([0.5], "dp")
    0.5
    """
    try:
        values = [budgets] if np.ndim(budgets) == 0 else list(budgets)
    except TypeError:  # array-like but not a sequence (a Prior, say): no budget
        raise MechDesignError(f"budget for {label} must be a number or a sequence of one number, "
                              f"got {budgets!r}") from None
    if len(values) != 1:
        raise MechDesignError(f"expected 1 budget (for {label}), got {len(values)}: {budgets!r}")
    return as_budget(values[0], f"budget for {label}", infinite=True)


def exceeded(measured: Mapping[str, float], budgets: Mapping[str, float],
             measured_limits: Mapping[str, float] | None = None, limits: Mapping[str, float] | None = None) -> list[str]:
    """Every budget (beyond :func:`~mechdesign.result.budget_tolerance`, relative to it) and every limit (beyond
    :data:`~mechdesign.result.LIMIT_ATOL`, relative to the limit from 1 on) that the measured values exceed.

    Examples
    --------
    >>> exceeded({"dp": 1.5}, {"dp": 1.0}), exceeded({"dp": 1.0}, {"dp": 1.0}, {"D": 0.3}, {"D": 0.25})
    (['dp measured 1.5 > budget 1'], ['D = 0.3 > limit 0.25'])
    """
    problems = [f"{label} measured {value:.9g} > budget {budgets[label]:.9g}"
                for label, value in measured.items() if not within_budget(value, budgets[label])]
    return problems + [f"{label} = {value:.9g} > limit {limits[label]:.9g}" for label, value in (measured_limits or {}).items()
                       if value > limits[label] + LIMIT_ATOL * max(1.0, abs(limits[label]))]


def mechanism_result(mechanism: Mechanism, value: float | None, bound: float | None, work: str, start: float, *,
                     measured: Mapping[str, float], budgets: Mapping[str, float],
                     measured_limits: Mapping[str, float] | None = None, limits: Mapping[str, float] | None = None,
                     problems: Sequence[str] = (), unit: float = 1.0, note: str = "",
                     verdict: Callable[[bool, float | None], str] | None = None, certified: bool | None = None,
                     **fields: Any) -> Result:
    """The certified :class:`Result` of a mechanism already measured (by the notions' own ``measure``).

    ``"inaccurate"`` when a measured value exceeds its budget or limit (:func:`exceeded`) or ``problems``
    (the caller's own reasons) is not empty; otherwise ``"optimal"`` when ``bound`` (certified, in the
    objective's units) is within ``GAP_RTOL · max(unit, |value|)`` of ``value``, else ``"suboptimal"``.
    ``certified``, if given, is the caller's own verdict on the gap, judged in the scale it solved in
    (:func:`~mechdesign.solve.design` solves the objective divided by its unit), where recomputing it here
    in the caller's units could differ in the last bit at the tolerance. ``work`` says how the mechanism was
    found; ``verdict(certified, gap)``, if given, writes the message of a private result instead of the
    standard one, and ``note`` (e.g. a repair's) ends it. ``fields`` are further
    :class:`Result` fields (``method``, ``solver``, ``iterations``, ``max_violation``); ``solve_time`` is
    measured from ``start``.

    Examples
    --------
    >>> result = mechanism_result(Mechanism(np.full((2, 2), 0.5)), 0.5, 0.5, "the constant mechanism", time.perf_counter(),
    ...                           measured={"dp": 0.0}, budgets={"dp": 0.0})
    >>> result.status, result.gap, result.message
    ('optimal', 0.0, 'the constant mechanism; budget re-measured and respected; optimality gap 0.0e+00 certified')
    >>> mechanism_result(Mechanism(np.eye(2)), 0.0, 0.0, "identity", time.perf_counter(), measured={"dp": np.inf},
    ...                  budgets={"dp": 1.0}).message
    'identity; dp measured inf > budget 1'
    """
    problems = exceeded(measured, budgets, measured_limits, limits) + list(problems)
    gap = optimality_gap(value, bound)
    certified = not problems and (is_certified_optimal(value, bound, unit) if certified is None else certified)
    if problems:
        message = f"{work}; " + "; ".join(problems)
    elif verdict is not None:
        message = verdict(certified, gap)
    else:
        message = f"{work}; budget re-measured and respected; " + (
            f"optimality gap {gap:.1e} certified" if certified
            else f"the lower bound {bound:.12g} leaves a gap of {gap:.3g}, above GAP_RTOL" if gap is not None
            else "no lower bound")
    if not problems:
        message += note
    status = "inaccurate" if problems else "optimal" if certified else "suboptimal"
    return Result(mechanism, value, status, not problems, message, dict(measured), dict(budgets), dict(limits or {}),
                  dict(measured_limits or {}), bound=bound, gap=gap, unit=unit,
                  solve_time=time.perf_counter() - start, **fields)


def failure_result(status: str, message: str, start: float, **fields: Any) -> Result:
    """A :class:`Result` without a mechanism (``"solver_error"``, ``"infeasible"``, ``"inaccurate"``, …);
    ``fields`` are further :class:`Result` fields, ``solve_time`` is measured from ``start``.

    Examples
    --------
    >>> result = failure_result("solver_error", "highs failed", time.perf_counter(), budgets={"dp": 1.0})
    >>> result.success, result.mechanism, result.status
    (False, None, 'solver_error')
    """
    return Result(None, None, status, False, message, solve_time=time.perf_counter() - start, **fields)


def certified_result(notion: PrivacyNotion, budget: float, objective: Objective, matrix: np.ndarray, bound: float,
                     work: str, start: float, **fields: Any) -> Result:
    """The :class:`Result` of a one-notion design's raw ``matrix``: its budget re-measured by ``notion.measure``
    (a miss repaired by :func:`~mechdesign.result.certify_mechanism`), then :func:`mechanism_result`, with
    ``bound`` a certified lower bound in the objective's units. ``work`` describes how it was found;
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
    repaired, problems, repair = certify_mechanism(
        matrix, lambda candidate: exceeded({label: notion.measure(candidate)}, {label: budget}))
    mechanism = Mechanism(repaired)
    return mechanism_result(mechanism, objective.value(mechanism), None if problems else bound, work, start,
                            measured={label: notion.measure(mechanism)}, budgets={label: budget},
                            unit=objective.unit, note=repair, **fields)
