"""Checks every privacy notion must pass (the notion protocol of DESIGN.md).

Each notion's test module calls these from hypothesis tests:

* :func:`assert_constraints_match_measure` — the cvxpy constraints with ``Q`` fixed are feasible at
  the measured budget (plus a margin) and infeasible clearly below it, tying ``constraints`` to the
  independent ``measure``; feasibility is shown by a point the solver returns whose every constraint
  holds when evaluated in numpy (:func:`_feasible`), not by the solver's status alone;
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
from mechdesign.solvers import DEFAULT_SOLVER_OPTIONS, SOLVER_NAMES, largest_violation
from mechdesign.utility.base import Objective

#: Margin above the measured budget at which the fixed-Q constraints must be feasible (nats).
FEASIBLE_MARGIN = 1e-6
#: Margin below the measured budget at which they must be infeasible (nats).
INFEASIBLE_MARGIN = 1e-3
#: Largest constraint violation, evaluated in numpy, of the point that shows the fixed-Q constraints
#: feasible. The point is solved with the package's own solver options (Clarabel's ``tol_feas`` 1e-10,
#: mechdesign.solvers.DEFAULT_SOLVER_OPTIONS, as designs are): with Clarabel's default 1e-8 a Sibson
#: source-set check ended 2e-8 over, its tolerance being relative to the data. It is far below
#: what either margin moves the constraints by (about FEASIBLE_MARGIN = 1e-6 and INFEASIBLE_MARGIN = 1e-3
#: times their entries, e.g. ``e^ε b`` in ``a <= e^ε b``), so neither verdict rests on it.
WITNESS_ATOL = 1e-8
#: Slack allowed by post-processing / round-trip checks (nats).
MEASURE_ATOL = 1e-9
ROUND_TRIP_ATOL = 1e-6


#: The budget at which constraints must reject a matrix whose measure is infinite: large against the
#: matrices here (e^5 ≈ 148), yet small enough that a solver's feasibility tolerance (1e-7) times the
#: constraint scale stays far below their entries. (At 20, e^20 ≈ 4.9e8: HiGHS 1.16 accepts a column
#: floor of 1e-9 against ``c <= 0`` within its tolerance and reports [[1, 0], [0.5, 0.5]] feasible.)
INFINITE_MEASURE_PROBE_BUDGET = 5.0


def _feasible(notion: PrivacyNotion, matrix: np.ndarray, budget: float) -> bool:
    """Whether the constraints with ``Q = matrix`` have a solution: one the solver returns (status
    "optimal" or "optimal_inaccurate") that violates no constraint by more than :data:`WITNESS_ATOL`,
    evaluated in numpy (:func:`mechdesign.solvers.largest_violation`).

    The problem has no objective, so only the point matters: Clarabel's "inaccurate" means its duality
    gap stalled above tolerance, which on a feasible set as thin as :data:`FEASIBLE_MARGIN` it can (the
    dual objective creeps to 0 while the primal point is already feasible), and says nothing about the
    point. Conversely an "optimal" point is not taken on the solver's word. No returned point (infeasible,
    a solver error such as Clarabel's InsufficientProgress near infeasibility) means not shown feasible.
    """
    Q = cp.Constant(matrix)
    problem = cp.Problem(cp.Minimize(0), notion.constraints(Q, budget) + [cp.Constant(0) <= 1])
    solver = "highs" if notion.is_linear else "clarabel"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "may be inaccurate": the point is checked below
            problem.solve(solver=SOLVER_NAMES[solver], **DEFAULT_SOLVER_OPTIONS.get(solver, {}))
    except cp.error.SolverError:
        return False
    return problem.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) and largest_violation(problem) <= WITNESS_ATOL


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
