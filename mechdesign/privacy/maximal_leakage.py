"""Maximal leakage (Issa, Wagner & Kamath; Zhong & Bu, "Privacy-Utility Trade-Off", Def. 3(4)).

``L(X → Y) = log Σ_y max_x Q[x, y]`` — the same for every prior with full support.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np

from ..relaxation import LinearRelaxation, column_maxima_sums
from .base import PrivacyNotion


class MaximalLeakage(PrivacyNotion):
    """Maximal leakage ``log Σ_y max_x Q[x, y] <= ε`` (PUT paper, Definition 3(4)).

    The constraint ``Σ_y max_x Q[x, y] <= e^ε`` is linear (an epigraph variable per output).

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(MaximalLeakage().measure(mechanism), 6)  # log Σ_y max_x Q[x, y]
    0.547168
    """

    name = "maximal_leakage"
    cli_name = "maximal-leakage"
    designed_from_prior = True
    composition = "additive"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(4); Issa et al. 2020, Theorem 1"

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``Σ_y max_x Q[x, y]`` (at most ``e^ε``)."""
        return cp.sum(cp.max(Q, axis=0))

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return [self.leakage_expression(Q) <= scaled]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraint itself (an LP): ``Q[x, y] <= M_y``, ``Σ_y M_y <= e^ε``, ``M ∈ [0, 1]``."""
        shape = points[0].shape
        return column_maxima_sums(shape, [np.arange(shape[0])], math.exp(budget))

    def _measure(self, matrix: np.ndarray) -> float:
        return max(0.0, float(np.log(matrix.max(axis=0).sum())))
