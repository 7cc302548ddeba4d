"""Pointwise maximal leakage (PML) under a fixed prior.

Saeidian et al., "Pointwise Maximal Leakage"; Grosse et al., "Privacy Mechanism Design based on
Empirical Distributions", Definition 1 and eq. (1): the leakage to an output ``y`` is
``ℓ(X → y) = log max_{x ∈ supp P} Q[x, y] / P_Y(y)`` and ``Q`` is ε-PML if ``ℓ(X → y) <= ε`` for every
``y`` with ``P_Y(y) > 0``. As a constraint: ``Q[x, y] <= e^ε Σ_x' P(x') Q[x', y]`` for ``x ∈ supp P``.
"""

from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np

from ..priors import PriorLike, as_prior
from .base import PrivacyNotion


class PointwiseMaximalLeakage(PrivacyNotion):
    """ε-pointwise maximal leakage for a fixed prior (Grosse et al., Definition 1, eq. (1)).

    Parameters
    ----------
    prior
        The input distribution ``P_X``; inputs outside its support are unconstrained.
    """

    name = "pml"
    reference = "Grosse et al., Privacy Mechanism Design based on Empirical Distributions, Def. 1, eq. (1)"
    needs_prior = True

    def __init__(self, prior: PriorLike) -> None:
        self.prior = as_prior(prior)
        self.n_inputs = self.prior.size
        self._support = np.flatnonzero(self.prior.probabilities > 0)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        output_distribution = self.prior.probabilities @ Q
        return [Q[self._support, :] <= scaled * output_distribution[None, :]]

    def _measure(self, matrix: np.ndarray) -> float:
        output_distribution = self.prior.probabilities @ matrix
        largest = matrix[self._support].max(axis=0)
        used = output_distribution > 0
        return max(0.0, float(np.max(np.log(largest[used] / output_distribution[used]))))
