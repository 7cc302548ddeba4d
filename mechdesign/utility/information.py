"""Mutual information: a plain-numpy value, a cvxpy expression, and an objective to minimize.

``I(X; Y) = Σ_{x,y} P(x) Q[x, y] log(Q[x, y] / P_Y(y))`` in nats, with ``P_Y = P Q``.
"""

from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np
from scipy.special import rel_entr

from ..mechanism import MechanismLike, as_mechanism
from ..priors import PriorLike, as_prior
from .base import Objective


def mutual_information(prior: PriorLike, mechanism: MechanismLike) -> float:
    """``I(X; Y)`` in nats for input distribution ``prior`` and channel ``mechanism``."""
    matrix = as_mechanism(mechanism).matrix
    p = as_prior(prior, matrix.shape[0]).probabilities
    joint = p[:, None] * matrix
    product = p[:, None] * (p @ matrix)[None, :]
    return max(0.0, float(rel_entr(joint, product).sum()))


def mutual_information_expression(Q: cp.Expression, prior: np.ndarray) -> cp.Expression:
    """``I(X; Y)`` as a convex cvxpy expression of the channel ``Q`` (exponential cone)."""
    return cp.sum(cp.rel_entr(cp.multiply(prior[:, None], Q), cp.outer(prior, prior @ Q)))


class MutualInformation(Objective):
    """Mutual information ``I(X; Y)`` under ``prior``, as an objective (minimized: leakage).

    Parameters
    ----------
    prior
        The input distribution.
    n_outputs
        Output alphabet size; defaults to the input alphabet size.
    """

    sense = "minimize"
    is_linear = False

    def __init__(self, prior: PriorLike, n_outputs: int | None = None) -> None:
        self.prior = as_prior(prior)
        self.shape = (self.prior.size, n_outputs or self.prior.size)

    @property
    def label(self) -> str:
        return "mutual_information"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        self.check_shape(Q.shape)
        return mutual_information_expression(Q, self.prior.probabilities)

    def _value(self, matrix: np.ndarray) -> float:
        return mutual_information(self.prior, matrix)
