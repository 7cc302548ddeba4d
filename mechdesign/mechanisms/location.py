"""Named mechanisms of metric differential privacy and the location-privacy measures of any mechanism.

* :func:`exponential_mechanism` — ``Q[x, y] ∝ e^{-ε d(x, y) / 2}`` (McSherry & Talwar, FOCS 2007): ε-d-private
  for any metric, outputs the inputs.
* :func:`truncated_geometric` — the line metric ``{0, …, n − 1}``: the two-sided geometric law
  ``∝ α^{|x − y|}``, ``α = e^{-ε}``, its tails folded onto the ends (Ghosh, Roughgarden & Sundararajan,
  "Universally utility-maximizing privacy mechanisms", STOC 2009): ε-d-private.
* :func:`optimal_remap` — the Bayesian remap of a mechanism's outputs that minimizes the expected loss under a
  prior (post-processing: the budget is kept).
* :func:`adversary_error` — the adversary's expected inference error (Shokri et al., "Quantifying location
  privacy", S&P 2011): the optimal Bayesian remap's expected distance, ``Σ_y min_z Σ_x π_x Q[x, y] d(x, z)``.
* :func:`bayes_vulnerability` — ``Σ_y max_x π_x Q[x, y]``, the adversary's chance of guessing the input in one try.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validate import as_budget, as_cost_matrix, as_positive_int
from ..exceptions import ShapeMismatchError
from ..mechanism import Mechanism, MechanismLike, as_mechanism
from ..priors import PriorLike, as_prior
from ..privacy.metric import MetricDifferentialPrivacy


def exponential_mechanism(notion: MetricDifferentialPrivacy, epsilon: float) -> Mechanism:
    """``Q[x, y] = e^{-ε d(x, y) / 2} / Σ_z e^{-ε d(x, z) / 2}``: ε-d-private.

    The numerator's ratio between inputs ``x, x'`` is at most ``e^{ε d(x, x') / 2}`` and so is the normalizers'
    (triangle inequality in each term), hence ``Q[x, y] <= e^{ε d(x, x')} Q[x', y]``.

    Parameters
    ----------
    notion
        The metric (outputs are its points).
    epsilon
        ε per unit of distance.

    Returns
    -------
    Mechanism
        ``(n, n)``.

    Examples
    --------
    >>> notion = MetricDifferentialPrivacy.from_points([0.0, 1.0, 2.0])
    >>> notion.measure(exponential_mechanism(notion, 1.0)) <= 1.0
    True
    """
    epsilon = as_budget(epsilon, "epsilon")
    logits = -epsilon * notion.distances / 2
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    return Mechanism(weights / weights.sum(axis=1, keepdims=True))


def truncated_geometric(n: int, epsilon: float) -> Mechanism:
    """The truncated geometric mechanism on ``{0, …, n − 1}`` at ε per unit of ``|x − y|``.

    ``Q[x, y] = (1 − α) / (1 + α) · α^{|x − y|}`` inside, ``α^{|x − y|} / (1 + α)`` at the ends ``y ∈ {0, n − 1}``
    (the geometric law's tails beyond them), ``α = e^{-ε}``.

    Examples
    --------
    >>> mechanism = truncated_geometric(3, math.log(2))
    >>> mechanism.matrix.round(4).tolist()
    [[0.6667, 0.1667, 0.1667], [0.3333, 0.3333, 0.3333], [0.1667, 0.1667, 0.6667]]
    >>> round(MetricDifferentialPrivacy.from_points(np.arange(3.0)).measure(mechanism), 12) == round(math.log(2), 12)
    True
    """
    n = as_positive_int(n, "n")
    epsilon = as_budget(epsilon, "epsilon")
    alpha = math.exp(-epsilon)
    gaps = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]).astype(float)
    with np.errstate(under="ignore"):
        powers = alpha ** gaps
    matrix = powers * (1 - alpha) / (1 + alpha)
    if n == 1:
        return Mechanism(np.ones((1, 1)))
    matrix[:, [0, n - 1]] = powers[:, [0, n - 1]] / (1 + alpha)
    return Mechanism(matrix)


def _loss_for(mechanism: np.ndarray, loss: Any, name: str = "loss") -> np.ndarray:
    """The ``(n, k)`` loss of estimating input ``x`` by ``z``, checked against the mechanism's inputs."""
    matrix = as_cost_matrix(loss, name=name)
    if matrix.shape[0] != mechanism.shape[0]:
        raise ShapeMismatchError(f"{name} has {matrix.shape[0]} rows but the mechanism {mechanism.shape[0]} inputs")
    return matrix


def optimal_remap(mechanism: MechanismLike, prior: PriorLike, loss: Any) -> Mechanism:
    """``Q R`` for the deterministic remap ``R`` sending each output ``y`` to ``argmin_z Σ_x π_x Q[x, y] loss[x, z]``.

    Post-processing: the remapped mechanism keeps every budget the mechanism meets; for an expected loss it is
    at least as good.

    Parameters
    ----------
    mechanism
        ``(n, m)``.
    prior
        ``(n,)``.
    loss
        ``(n, k)`` loss of reporting ``z`` for input ``x``.

    Returns
    -------
    Mechanism
        ``(n, k)``.

    Examples
    --------
    With a uniform prior and Hamming loss, the identity remap is optimal:

    >>> optimal_remap(np.eye(2), [0.5, 0.5], 1 - np.eye(2)).matrix.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    matrix = as_mechanism(mechanism).matrix
    probabilities = as_prior(prior).probabilities
    if probabilities.size != matrix.shape[0]:
        raise ShapeMismatchError(f"prior has {probabilities.size} entries but the mechanism {matrix.shape[0]} inputs")
    costs = (probabilities[:, None] * matrix).T @ _loss_for(matrix, loss)
    remap = np.zeros(costs.shape)
    remap[np.arange(costs.shape[0]), costs.argmin(axis=1)] = 1.0
    return Mechanism(matrix @ remap)


def adversary_error(mechanism: MechanismLike, prior: PriorLike, distance: Any) -> float:
    """The adversary's expected inference error: ``Σ_y min_z Σ_x π_x Q[x, y] d(x, z)`` (Shokri et al.).

    Examples
    --------
    Randomized response on two points at distance 1 with ``1 − p = 3/4``, uniform prior: the adversary guesses
    the output and errs with probability 1/4:

    >>> adversary_error([[0.75, 0.25], [0.25, 0.75]], [0.5, 0.5], [[0, 1], [1, 0]])
    0.25
    """
    matrix = as_mechanism(mechanism).matrix
    probabilities = as_prior(prior).probabilities
    if probabilities.size != matrix.shape[0]:
        raise ShapeMismatchError(f"prior has {probabilities.size} entries but the mechanism {matrix.shape[0]} inputs")
    costs = (probabilities[:, None] * matrix).T @ _loss_for(matrix, distance, "distance")
    return float(costs.min(axis=1).sum())


def bayes_vulnerability(mechanism: MechanismLike, prior: PriorLike) -> float:
    """``Σ_y max_x π_x Q[x, y]``: the probability that the adversary's best guess of the input is right.

    Examples
    --------
    >>> bayes_vulnerability([[0.75, 0.25], [0.25, 0.75]], [0.5, 0.5])
    0.75
    """
    matrix = as_mechanism(mechanism).matrix
    probabilities = as_prior(prior).probabilities
    if probabilities.size != matrix.shape[0]:
        raise ShapeMismatchError(f"prior has {probabilities.size} entries but the mechanism {matrix.shape[0]} inputs")
    return float((probabilities[:, None] * matrix).max(axis=0).sum())
