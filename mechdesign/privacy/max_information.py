"""Maximal information (Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(3)).

``Q`` has maximal information ε under a prior ``P`` if ``Q[x, y] <= e^ε Σ_x' P(x') Q[x', y]`` for
*every* input ``x ∈ 𝒳`` and output ``y``. Over a source set the paper takes the worst prior of the set
(proof of Theorem 6, step 1.7: ``ε_MI(Q) = max_{P ∈ 𝒫, x, y} log Q[x, y] / Σ_x' P(x') Q[x', y]``).
The denominator is linear in ``P``, so the worst case over the convex hull is at an extreme point.

This is the inequality of pointwise maximal leakage (:mod:`mechdesign.privacy.pml`) with the
numerator over the whole alphabet instead of the prior's support: the two coincide for priors with
full support (which Definition 3 assumes); on the whole simplex both equal local DP.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np

from ..relaxation import LinearRelaxation, column_ceiling_under_priors
from .base import PrivacyNotion
from .sources import OnSourceSet


class MaximalInformation(OnSourceSet, PrivacyNotion):
    """ε-maximal information for a prior or, in the worst case, a source set (PUT paper, Def. 3(3)).

    Parameters
    ----------
    source
        A :class:`~mechdesign.priors.Prior` (or probability vector), or a
        :class:`~mechdesign.priors.SourceSet`: the worst case over its convex hull (its extreme
        points suffice).

    Notes
    -----
    Constraint: ``max_x Q[x, y] <= e^ε P_k · Q[:, y]`` for every output ``y`` and extreme point
    ``P_k`` — one epigraph variable per output and ``k·m`` linear rows.

    Examples
    --------
    >>> from mechdesign import Prior, randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(MaximalInformation(Prior([0.5, 0.3, 0.2])).measure(mechanism), 6)
    0.704605
    """

    name = "max_information"
    cli_name = "max-information"
    cli_parameters = ("prior",)
    composition = "additive"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(3) and proof of Theorem 6 (1.7)"
    needs_prior = True

    def __init__(self, source: Any) -> None:
        self._set_source(source)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        averages = self.source_set.extreme_points @ Q  # (k, y): E_{x ~ P_k} Q[x, y]
        return [cp.max(Q, axis=0)[None, :] <= scaled * averages]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraints themselves (an LP): ``Q[x, y] <= M_y <= e^ε P_k · Q[:, y]``."""
        matrix = points[0]
        return column_ceiling_under_priors(matrix.shape, np.arange(matrix.shape[0]),
                                           self.source_set.extreme_points, math.exp(budget))

    def _measure(self, matrix: np.ndarray) -> float:
        column_max = matrix.max(axis=0)
        smallest_average = (self.source_set.extreme_points @ matrix).min(axis=0)
        used = column_max > 0
        if (smallest_average[used] == 0).any():
            return np.inf
        return max(0.0, float(np.log(column_max[used] / smallest_average[used]).max()))
