"""Maximal leakage (Issa, Wagner & Kamath; Zhong & Bu, "Privacy-Utility Trade-Off", Def. 3(4)).

``L(X → Y) = log Σ_y max_x Q[x, y]`` — the same for every prior with full support.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from ..relaxation import LinearRelaxation, entry_aux_rows
from .base import PrivacyNotion


class MaximalLeakage(PrivacyNotion):
    """Maximal leakage ``log Σ_y max_x Q[x, y] <= ε`` (PUT paper, Definition 3(4)).

    The constraint ``Σ_y max_x Q[x, y] <= e^ε`` is linear (an epigraph variable per output).
    """

    name = "maximal_leakage"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(4); Issa et al. 2020, Theorem 1"

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``Σ_y max_x Q[x, y]`` (at most ``e^ε``)."""
        return cp.sum(cp.max(Q, axis=0))

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return [self.leakage_expression(Q) <= scaled]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraint itself (an LP): ``Q[x, y] <= M_y``, ``Σ_y M_y <= e^ε``, ``M ∈ [0, 1]``."""
        matrix = points[0]
        shape = matrix.shape
        cap_q, cap_aux = entry_aux_rows(shape, np.arange(shape[0]), 1.0)
        return LinearRelaxation(sp.csr_matrix(sp.vstack([cap_q, sp.csr_matrix((1, matrix.size))])),
                                sp.csr_matrix(sp.vstack([cap_aux, np.ones((1, shape[1]))])),
                                np.concatenate([np.zeros(cap_q.shape[0]), [math.exp(budget)]]),
                                np.zeros(shape[1]), np.ones(shape[1]))

    def _measure(self, matrix: np.ndarray) -> float:
        return max(0.0, float(np.log(matrix.max(axis=0).sum())))
