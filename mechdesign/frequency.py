"""Unbiased estimation of input frequencies from the outputs of a mechanism.

``N`` inputs drawn from ``p`` and privatized by ``Q`` give outputs whose empirical distribution
``q̂`` has mean ``q = p Q``. Any ``A`` (``m × n``) with ``Q A = I`` makes ``p̂ = q̂ A`` unbiased; such an
``A`` exists iff the rows of ``Q`` are linearly independent (rank ``n``), and then the pseudo-inverse
``A = Q⁺`` is one. For k-ary randomized response it is ``Q⁻¹``, and for subset selection it is the
usual ``p̂_x = (f_x − b) / (a − b)`` (both mechanisms are symmetric in the symbols, which makes every
left inverse that is affine in the output indicators coincide). The covariance of ``p̂`` is
``Aᵀ (diag(q) − q qᵀ) A / N`` (multinomial ``q̂``); standard errors plug in ``q̂``.

A category ``x`` has an unbiased estimator iff ``e_x`` lies in the column space of ``Q``; when it does
not (e.g. several categories share one row, as rare categories do in a distortion-optimal design)
:class:`~mechdesign.exceptions.NotEstimableError` names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validate import as_indices, as_positive_int, as_real_array, check_count
from .exceptions import NotEstimableError
from .mechanism import MechanismLike, as_mechanism

#: Largest deviation of ``(Q Q⁺)[:, x]`` from ``e_x`` for category ``x`` to count as recoverable.
RECOVERY_ATOL = 1e-8


@dataclass(frozen=True)
class FrequencyEstimate:
    """Frequencies estimated from privatized data.

    Attributes
    ----------
    categories
        The input categories, in the order of the estimates.
    estimate
        The unbiased estimate ``p̂ = q̂ Q⁺`` (may leave the simplex).
    standard_error
        Plug-in standard error of each entry of ``estimate``.
    projected
        ``estimate`` projected onto the probability simplex (Euclidean; biased, never negative).
    n_samples
        Number of privatized records ``N``.
    """

    categories: tuple
    estimate: np.ndarray
    standard_error: np.ndarray
    projected: np.ndarray
    n_samples: int

    def as_dict(self) -> dict[str, dict[Any, float]]:
        """``{"estimate": {category: value}, "standard_error": {…}, "projected": {…}}``."""
        return {name: dict(zip(self.categories, getattr(self, name).tolist()))
                for name in ("estimate", "standard_error", "projected")}


def estimator_matrix(mechanism: MechanismLike, categories: Sequence[Any] | None = None) -> np.ndarray:
    """The left inverse ``A = Q⁺`` (``m × n``, ``Q A = I``) of an estimable mechanism.

    Parameters
    ----------
    mechanism
        ``Q`` with one row per category.
    categories
        Names of the rows, for the error message (default: row indices).

    Raises
    ------
    NotEstimableError
        When some categories' indicator is not in the column space of ``Q``: the message lists them.

    Examples
    --------
    >>> estimator_matrix([[0.75, 0.25], [0.25, 0.75]]).round(6).tolist()
    [[1.5, -0.5], [-0.5, 1.5]]
    """
    matrix = as_mechanism(mechanism).matrix
    names = list(range(matrix.shape[0])) if categories is None else list(categories)
    check_count(len(names), matrix.shape[0], "categories", "names (one per input of the mechanism)")
    inverse = np.linalg.pinv(matrix)
    recovered = np.abs(matrix @ inverse - np.eye(matrix.shape[0])).max(axis=0) <= RECOVERY_ATOL
    if not recovered.all():
        lost = [names[i] for i in np.flatnonzero(~recovered)]
        rank = np.linalg.matrix_rank(matrix)
        raise NotEstimableError(
            f"the frequencies of categories {lost} cannot be estimated without bias: the mechanism's rows are "
            f"linearly dependent (rank {rank} < {matrix.shape[0]} categories), so the outputs do not determine "
            "these categories' frequencies. A distortion-optimal design under Hamming cost does this by "
            "construction (rare categories share the rows of randomized response on the top symbols); "
            "design with objective='estimation' for an estimable mechanism")
    return inverse


def estimate_frequencies(outputs: Any, mechanism: MechanismLike,
                         categories: Sequence[Any] | None = None) -> FrequencyEstimate:
    """Unbiased frequency estimates (with standard errors and a simplex projection) from output indices.

    Parameters
    ----------
    outputs
        Output indices ``y`` in ``[0, m)``, one per privatized record.
    mechanism
        The mechanism ``Q`` that produced them.
    categories
        Names of the inputs (default: indices).

    Examples
    --------
    >>> result = estimate_frequencies([0, 0, 0, 0, 0, 1, 1, 1], [[0.75, 0.25], [0.25, 0.75]], ["a", "b"])
    >>> result.estimate.round(6).tolist()  # q̂ = (5/8, 3/8), p̂ = q̂ Q⁻¹
    [0.75, 0.25]
    """
    matrix = as_mechanism(mechanism).matrix
    names = tuple(range(matrix.shape[0])) if categories is None else tuple(categories)
    inverse = estimator_matrix(matrix, names)
    indices = as_indices(outputs, matrix.shape[1], "outputs")
    count = indices.size
    output_frequencies = np.bincount(indices, minlength=matrix.shape[1]) / count
    estimate = output_frequencies @ inverse
    second_moment = output_frequencies @ inverse**2
    standard_error = np.sqrt(np.maximum(second_moment - estimate**2, 0.0) / count)
    return FrequencyEstimate(names, estimate, standard_error, project_to_simplex(estimate), count)


def estimation_variance(mechanism: MechanismLike, prior: Any, n_samples: int = 1) -> np.ndarray:
    """``Var(p̂_x)`` for every category under the true prior ``p``: ``diag(Aᵀ (diag(q) − q qᵀ) A) / N``.

    Examples
    --------
    >>> estimation_variance([[0.75, 0.25], [0.25, 0.75]], [0.5, 0.5]).round(6).tolist()  # q(1-q)/(a-b)^2
    [1.0, 1.0]
    """
    matrix = as_mechanism(mechanism).matrix
    inverse = estimator_matrix(matrix)
    output_distribution = as_mechanism(matrix).output_distribution(prior)
    count = as_positive_int(n_samples, "n_samples")
    mean = output_distribution @ inverse
    return (output_distribution @ inverse**2 - mean**2) / count


def project_to_simplex(vector: Any) -> np.ndarray:
    """The Euclidean projection of ``vector`` onto the probability simplex (Duchi, Shalev-Shwartz,
    Singer & Chandra, Efficient Projections onto the ℓ1-Ball for Learning in High Dimensions, Fig. 1).

    Examples
    --------
    >>> project_to_simplex([0.7, 0.5, -0.2]).round(6).tolist()
    [0.6, 0.4, 0.0]
    """
    values = as_real_array(vector, "vector", 1)
    descending = np.sort(values)[::-1]
    cumulative = np.cumsum(descending) - 1.0
    positions = np.arange(1, values.size + 1)
    last = np.flatnonzero(descending - cumulative / positions > 0)[-1]
    return np.maximum(values - cumulative[last] / (last + 1), 0.0)
