"""Pointwise maximal leakage (PML) under a fixed prior or a finite set of priors.

Saeidian et al., "Pointwise Maximal Leakage"; Grosse et al., "Privacy Mechanism Design based on
Empirical Distributions", Definition 1 and eq. (1): the leakage to an output ``y`` is
``ℓ_P(X → y) = log max_{x ∈ supp P} Q[x, y] / P_Y(y)`` and ``Q`` is ε-PML if ``ℓ(X → y) <= ε`` for
every ``y`` with ``P_Y(y) > 0``. As a constraint: ``Q[x, y] <= e^ε Σ_x' P(x') Q[x', y]``.

For a convex set of priors with finitely many extreme points (Grosse et al., Corollary 1 and
Definition 5) the worst case over the set is taken: ``P·Q[:, y]`` is linear in ``P`` so its minimum
over the set is at an extreme point, and the numerator ranges over every input that some prior of
the set charges (the union of the extreme points' supports).
"""

from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np

from ..priors import Prior, SourceSet, as_source_set
from .base import PrivacyNotion


class PointwiseMaximalLeakage(PrivacyNotion):
    """ε-pointwise maximal leakage for a prior or, robustly, for every prior of a source set.

    Parameters
    ----------
    prior
        A :class:`~mechdesign.priors.Prior` (or probability vector), or a
        :class:`~mechdesign.priors.SourceSet` for the worst case over its convex hull (Grosse et al.,
        Corollary 1: the extreme points suffice). Inputs that no prior charges are unconstrained.
    """

    name = "pml"
    reference = "Grosse et al., Privacy Mechanism Design based on Empirical Distributions, Def. 1, eq. (1), Cor. 1"
    needs_prior = True

    def __init__(self, prior: Any) -> None:
        self.source_set: SourceSet = as_source_set(prior)
        self.n_inputs = self.source_set.size
        self._support = np.flatnonzero(self.source_set.extreme_points.max(axis=0) > 0)

    @property
    def prior(self) -> Prior:
        """The prior, when the notion has exactly one."""
        if len(self.source_set) != 1:
            raise AttributeError(f"{self.label} is defined on a source set of {len(self.source_set)} priors")
        return Prior(self.source_set.extreme_points[0])

    @property
    def label(self) -> str:
        return self.name if len(self.source_set) == 1 else f"{self.name}(source set of {len(self.source_set)})"

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        output_masses = self.source_set.extreme_points @ Q  # (k, n_outputs): P_k · Q[:, y]
        largest = cp.max(Q[self._support, :], axis=0)
        return [largest[None, :] <= scaled * output_masses]

    def _measure(self, matrix: np.ndarray) -> float:
        largest = matrix[self._support].max(axis=0)
        worst = 0.0
        for prior in self.source_set.extreme_points:
            output_distribution = prior @ matrix
            used = largest > 0
            if (output_distribution[used] == 0).any():
                return np.inf
            worst = max(worst, float(np.max(np.log(largest[used] / output_distribution[used]))))
        return worst
