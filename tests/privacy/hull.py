"""Direct (primal) worst case over a source set, for checking the capacity-type measures."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np


def primal_worst_prior(points: np.ndarray, concave) -> np.ndarray:
    """The prior of ``conv(points)`` maximizing a concave cvxpy function, by direct maximization over
    the mixture weights (independent of the measures' dual bounds)."""
    weights = cp.Variable(len(points), nonneg=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "may be inaccurate": the caller compares values
        cp.Problem(cp.Maximize(concave(weights @ points)), [cp.sum(weights) == 1]).solve(solver=cp.CLARABEL)
    mixture = np.clip(weights.value, 0, None)
    return mixture / mixture.sum() @ points
