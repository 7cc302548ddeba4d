"""Mutual-information privacy: ``I(X; Y) <= ε`` under a known prior.

Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(7); the budget is in nats.
"""

from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np

from ..priors import PriorLike, as_prior
from ..utility.information import mutual_information, mutual_information_expression
from .base import PrivacyNotion


class MutualInformationPrivacy(PrivacyNotion):
    """ε-mutual-information privacy ``I(X; Y) <= ε`` for a fixed prior (PUT paper, Def. 3(7)).

    Parameters
    ----------
    prior
        The input distribution ``P_X``.
    """

    name = "mutual_information"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(7)"
    needs_prior = True
    is_linear = False

    def __init__(self, prior: PriorLike) -> None:
        self.prior = as_prior(prior)
        self.n_inputs = self.prior.size

    def scaled_budget(self, budget: float) -> float:
        """Mutual information is bounded by ε itself (nats)."""
        return budget

    def budget_from_scaled(self, value: float) -> float:
        return max(0.0, float(value))

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``I(X; Y)`` as a convex expression of ``Q`` (at most ε)."""
        return mutual_information_expression(Q, self.prior.probabilities)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return [self.leakage_expression(Q) <= scaled]

    def _measure(self, matrix: np.ndarray) -> float:
        return mutual_information(self.prior, matrix)
