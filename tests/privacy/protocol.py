"""Checks every privacy notion must pass (the notion protocol of DESIGN.md).

Each notion's test module calls these from hypothesis tests:

* :func:`assert_constraints_match_measure` — the cvxpy constraints with ``Q`` fixed are feasible at
  the measured budget (plus a margin) and infeasible clearly below it, tying ``constraints`` to the
  independent ``measure``;
* :func:`assert_post_processing_does_not_increase` — ``measure(Q W) <= measure(Q)``;
* :func:`assert_round_trip` — a designed mechanism re-measures within its budget.
"""

from __future__ import annotations

import math
import warnings

import cvxpy as cp
import numpy as np

from mechdesign import design
from mechdesign.privacy.base import PrivacyNotion
from mechdesign.utility.base import Objective

#: Margin above the measured budget at which the fixed-Q constraints must be feasible (nats).
FEASIBLE_MARGIN = 1e-6
#: Margin below the measured budget at which they must be infeasible (nats).
INFEASIBLE_MARGIN = 1e-3
#: Slack allowed by post-processing / round-trip checks (nats).
MEASURE_ATOL = 1e-9
ROUND_TRIP_ATOL = 1e-6


#: The budget at which constraints must reject a matrix whose measure is infinite: large against the
#: matrices here (e^5 ≈ 148), yet small enough that a solver's feasibility tolerance (1e-7) times the
#: constraint scale stays far below their entries. (At 20, e^20 ≈ 4.9e8: HiGHS 1.16 accepts a column
#: floor of 1e-9 against ``c <= 0`` within its tolerance and reports [[1, 0], [0.5, 0.5]] feasible.)
INFINITE_MEASURE_PROBE_BUDGET = 5.0


def _feasible(notion: PrivacyNotion, matrix: np.ndarray, budget: float) -> bool:
    Q = cp.Constant(matrix)
    problem = cp.Problem(cp.Minimize(0), notion.constraints(Q, budget) + [cp.Constant(0) <= 1])
    solver = cp.HIGHS if notion.is_linear else cp.CLARABEL
    try:
        with warnings.catch_warnings():
            # "Solution may be inaccurate": such a status is not counted as feasible below.
            warnings.simplefilter("ignore", UserWarning)
            problem.solve(solver=solver)
    except cp.error.SolverError:
        # Only an "optimal" status demonstrates feasibility. Clarabel sometimes stops with
        # InsufficientProgress on power-cone problems that are infeasible by a small margin.
        return False
    return problem.status == cp.OPTIMAL


def assert_constraints_match_measure(notion: PrivacyNotion, matrix: np.ndarray) -> None:
    """The constraints accept ``matrix`` at its measured budget and reject it clearly below."""
    measured = notion.measure(matrix)
    if math.isinf(measured):
        # No finite budget works: the constraints must reject a large one.
        assert not _feasible(notion, matrix, INFINITE_MEASURE_PROBE_BUDGET)
        return
    assert _feasible(notion, matrix, measured + FEASIBLE_MARGIN), f"infeasible at measured {measured}"
    if measured > INFEASIBLE_MARGIN:
        assert not _feasible(notion, matrix, measured - INFEASIBLE_MARGIN), f"feasible below {measured}"


def assert_post_processing_does_not_increase(notion: PrivacyNotion, matrix: np.ndarray, channel: np.ndarray) -> None:
    """``measure(Q @ W) <= measure(Q)`` (data-processing inequality)."""
    before = notion.measure(matrix)
    after = notion.measure(matrix @ channel)
    assert after <= before + MEASURE_ATOL, f"post-processing raised {before} to {after}"


def assert_round_trip(notion: PrivacyNotion, budget: float, objective: Objective) -> None:
    """A designed mechanism re-measures within its budget and the result says so."""
    result = design(notion, budget, objective)
    assert result.success, result.message
    assert result.certified
    assert notion.measure(result.mechanism) <= budget + ROUND_TRIP_ATOL
    assert result.measured[notion.label] <= budget + ROUND_TRIP_ATOL
