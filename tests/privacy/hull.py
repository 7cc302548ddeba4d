"""Direct (primal) worst case over a source set, for checking the capacity-type measures."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np

#: Clarabel's default gap tolerances (about 1e-8) leave the reference value up to ~1e-8 below the
#: true maximum — as large as the CAPACITY_GAP the measures are checked against (on a permutation
#: channel with the uniform prior in the hull, 1.4e-8 short of log 3); the reference solves tighter.
REFERENCE_SOLVER_OPTIONS = {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12}


def primal_worst_prior(points: np.ndarray, concave) -> np.ndarray:
    """The prior of ``conv(points)`` maximizing a concave cvxpy function, by direct maximization over
    the mixture weights (independent of the measures' dual bounds)."""
    weights = cp.Variable(len(points), nonneg=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "may be inaccurate": the caller compares values
        problem = cp.Problem(cp.Maximize(concave(weights @ points)), [cp.sum(weights) == 1])
        problem.solve(solver=cp.CLARABEL, **REFERENCE_SOLVER_OPTIONS)
    mixture = np.clip(weights.value, 0, None)
    return mixture / mixture.sum() @ points
