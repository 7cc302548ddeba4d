"""Estimation of input frequencies from the outputs of a mechanism: unbiased, projected, or by maximum likelihood.

``N`` inputs drawn from ``p`` and privatized by ``Q`` give outputs whose empirical distribution
``q̂`` has mean ``q = p Q``. Any ``A`` (``m × n``) with ``Q A = I`` makes ``p̂ = q̂ A`` unbiased; such an
``A`` exists iff the rows of ``Q`` are linearly independent (rank ``n``), and then the pseudo-inverse
``A = Q⁺`` is one. For k-ary randomized response it is ``Q⁻¹``, and for subset selection it is the
usual ``p̂_x = (f_x − b) / (a − b)`` (both mechanisms are symmetric in the symbols, which makes every
left inverse that is affine in the output indicators coincide). The covariance of ``p̂`` is
``Aᵀ (diag(q) − q qᵀ) A / N`` (multinomial ``q̂``); standard errors plug in ``q̂``.

A structured frequency oracle (:mod:`mechdesign.mechanisms.oracles`) has its own closed-form ``A``
(the support counts of its reports), used here in place of ``Q⁺``: :func:`estimate_frequencies` takes
its reports, :func:`estimate_from_tally` its additive counts (of a stream, of partitions).

A category ``x`` has an unbiased estimator iff ``e_x`` lies in the column space of ``Q``; when it does
not (e.g. several categories share one row, as rare categories do in a distortion-optimal design)
:class:`~mechdesign.exceptions.NotEstimableError` names them.

Which estimate to use:

* the **unbiased** estimate (``FrequencyEstimate.estimate``) when estimates are combined (averaged
  over releases, summed over partitions, differenced over time) or a confidence interval is wanted: its
  variance is exact (:func:`estimation_variance`), but it may leave the simplex;
* its **projection** onto the simplex (``FrequencyEstimate.projected``) for a distribution at once: the
  closest point in ℓ2, no further from the truth than the unbiased estimate, biased;
* the **maximum-likelihood** estimate (:func:`maximum_likelihood`, expectation–maximization, also
  called iterative Bayesian update) for the most accurate distribution from one release, in particular
  from few records or a rank-deficient mechanism (no unbiased estimator exists there, and the maximizer
  need not be unique: EM returns the one reached from the uniform start); it is biased, and it stops with
  a certificate that its log-likelihood is within a tolerance of the maximum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validate import _short, as_array, as_indices, as_positive_int, as_real_array, check_count
from .exceptions import MechDesignError, NotEstimableError
from .mechanism import MechanismLike, as_mechanism
from .mechanisms.oracles import FrequencyOracle, as_counts

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



def category_names(categories: Sequence[Any] | None, size: int) -> tuple:
    """The names of a mechanism's ``size`` inputs: ``categories`` as a tuple, or the indices when ``None``.

    Examples
    --------
    >>> category_names(None, 2), category_names(["a", "b"], 2)
    ((0, 1), ('a', 'b'))
    >>> category_names(True, 2)
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: categories must be a sequence of names (one per input of the mechanism), got True
    """
    if categories is None:
        return tuple(range(size))
    if isinstance(categories, type) or not hasattr(categories, "__len__") \
            or not hasattr(categories, "__iter__") or getattr(categories, "ndim", 1) != 1:
        raise MechDesignError("categories must be a sequence of names (one per input of the mechanism), got "
                              f"{_short(categories)}")
    names = tuple(categories)
    check_count(len(names), size, "categories", "names (one per input of the mechanism)")
    return names


def estimator_matrix(mechanism: MechanismLike, categories: Sequence[Any] | None = None) -> np.ndarray:
    """The left inverse ``A = Q⁺`` (``m × n``, ``Q A = I``) of an estimable mechanism (a frequency
    oracle's own closed-form left inverse, :meth:`~mechdesign.mechanisms.oracles.FrequencyOracle.estimator_matrix`).

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
    if isinstance(mechanism, FrequencyOracle):
        category_names(categories, mechanism.size)
        return mechanism.estimator_matrix()
    matrix = as_mechanism(mechanism).matrix
    names = list(category_names(categories, matrix.shape[0]))
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
        Output indices ``y`` in ``[0, m)``, one per privatized record; for a frequency oracle its reports
        (what its ``privatize`` returns; 1-D output indices are read as its ``index_reports``).
    mechanism
        The mechanism ``Q`` that produced them.
    categories
        Names of the inputs (default: indices).

    Examples
    --------
    >>> result = estimate_frequencies([0, 0, 0, 0, 0, 1, 1, 1], [[0.75, 0.25], [0.25, 0.75]], ["a", "b"])
    >>> result.estimate.round(6).tolist()  # q̂ = (5/8, 3/8), p̂ = q̂ Q⁻¹
    [0.75, 0.25]
    >>> from mechdesign.mechanisms import SubsetSelection
    >>> oracle = SubsetSelection(4, 1.0, 2)
    >>> estimate_frequencies(oracle.privatize([0, 1, 2, 3] * 50), oracle, "abcd").n_samples
    200
    """
    if isinstance(mechanism, FrequencyOracle):
        reports = as_array(outputs, "outputs")
        if reports.ndim == 1 and mechanism.report_ndim == 2:
            reports = mechanism.index_reports(reports)
        if len(reports) == 0:
            raise MechDesignError("outputs must be non-empty: no privatized records to estimate frequencies from")
        return estimate_from_tally(mechanism.tally(reports), len(reports), mechanism, categories)
    matrix = as_mechanism(mechanism).matrix
    indices = as_indices(outputs, matrix.shape[1], "outputs")
    return estimate_from_tally(np.bincount(indices, minlength=matrix.shape[1]), indices.size, matrix, categories)


def estimate_from_tally(tally: Any, n_reports: int, mechanism: MechanismLike,
                        categories: Sequence[Any] | None = None) -> FrequencyEstimate:
    """Unbiased frequencies (standard errors, simplex projection) from additive counts of the outputs.

    The tally of a whole release is the sum of the tallies of its parts (chunks of a file, partitions
    of a data frame), so a release of any size is estimated without holding its outputs.

    Parameters
    ----------
    tally
        For a frequency oracle ``oracle.tally(reports)``; for any other mechanism how many records gave
        each output (length ``m``, summing to ``n_reports``); or a sum of such tallies. Finite,
        non-negative whole numbers (else a named error).
    n_reports
        How many reports it counts.
    mechanism
        The mechanism that produced them (a frequency oracle uses its closed-form estimator, any other
        ``p̂ = q̂ Q⁺``).
    categories
        Names of the inputs (default: indices).

    Examples
    --------
    >>> import math
    >>> from mechdesign.mechanisms import RandomizedResponse
    >>> estimate = estimate_from_tally([5, 3], 8, RandomizedResponse(2, math.log(3)), ["a", "b"])
    >>> estimate.estimate.round(6).tolist()  # p̂ = (5/8 − 1/4) / (3/4 − 1/4)
    [0.75, 0.25]
    >>> estimate_from_tally([5, 3], 8, [[0.75, 0.25], [0.25, 0.75]]).estimate.round(6).tolist()  # q̂ Q⁻¹
    [0.75, 0.25]
    """
    if isinstance(mechanism, FrequencyOracle):
        names = category_names(categories, mechanism.size)
        estimate, standard_error = mechanism.estimate(tally, n_reports)
        return FrequencyEstimate(names, estimate, standard_error, project_to_simplex(estimate), int(n_reports))
    matrix = as_mechanism(mechanism).matrix
    counts = as_counts(tally, matrix.shape[1], "tally", "one per output of the mechanism")
    count = as_positive_int(n_reports, "n_reports")
    if counts.sum() != count:
        raise MechDesignError(f"tally does not count {count} outputs: its counts sum to {counts.sum():.0f}")
    names = category_names(categories, matrix.shape[0])
    inverse = estimator_matrix(matrix, names)
    output_frequencies = counts / count
    estimate = output_frequencies @ inverse
    second_moment = output_frequencies @ inverse**2
    standard_error = np.sqrt(np.maximum(second_moment - estimate**2, 0.0) / count)
    return FrequencyEstimate(names, estimate, standard_error, project_to_simplex(estimate), count)


def estimation_variance(mechanism: MechanismLike, prior: Any, n_samples: int = 1,
                        estimator: Any = None) -> np.ndarray:
    """``Var(p̂_x)`` for every category under the true prior ``p``: ``diag(Aᵀ (diag(q) − q qᵀ) A) / N``.

    Parameters
    ----------
    mechanism
        ``Q`` (dense; a frequency oracle's dense matrix is built, within the memory guard).
    prior
        The inputs' distribution ``p``.
    n_samples
        ``N``.
    estimator
        The left inverse ``A`` (``m × n``); default :func:`estimator_matrix` (``Q⁺``, or a frequency
        oracle's own).

    Examples
    --------
    >>> estimation_variance([[0.75, 0.25], [0.25, 0.75]], [0.5, 0.5]).round(6).tolist()  # q(1-q)/(a-b)^2
    [1.0, 1.0]
    """
    matrix = as_mechanism(mechanism).matrix
    if estimator is None:
        inverse = estimator_matrix(mechanism)
    else:
        inverse = as_real_array(estimator, "estimator", 2)
        if inverse.shape != matrix.shape[::-1]:
            raise MechDesignError(f"estimator must have shape {matrix.shape[::-1]} (outputs × inputs), got "
                                  f"{inverse.shape}")
    output_distribution = as_mechanism(matrix).output_distribution(prior)
    count = as_positive_int(n_samples, "n_samples")
    mean = output_distribution @ inverse
    return (output_distribution @ inverse**2 - mean**2) / count


#: Default stopping tolerance of :func:`maximum_likelihood`: the certified gap of the mean log-likelihood.
LIKELIHOOD_TOLERANCE = 1e-9
#: Default largest number of EM iterations of :func:`maximum_likelihood`.
MAX_EM_ITERATIONS = 100_000


@dataclass(frozen=True)
class LikelihoodEstimate:
    """Frequencies estimated by maximum likelihood (:func:`maximum_likelihood`).

    Attributes
    ----------
    categories
        The input categories, in the order of the estimate.
    estimate
        The EM iterate (on the simplex).
    log_likelihood
        ``Σ_y n_y log (p̂ Q)_y`` (nats).
    gap
        A certified bound on ``max_p ℓ(p) − ℓ(p̂)`` per record: ``max_x g_x − 1`` with ``g`` the
        likelihood's gradient divided by ``N`` (concavity; ``Σ_x p̂_x g_x = 1``).
    iterations
        EM iterations run.
    converged
        Whether ``gap <= tolerance`` (else the iteration limit stopped it).
    n_samples
        ``N``.
    """

    categories: tuple
    estimate: np.ndarray
    log_likelihood: float
    gap: float
    iterations: int
    converged: bool
    n_samples: int


def maximum_likelihood(output_counts: Any, mechanism: MechanismLike, categories: Sequence[Any] | None = None, *,
                       tolerance: float = LIKELIHOOD_TOLERANCE,
                       max_iterations: int = MAX_EM_ITERATIONS) -> LikelihoodEstimate:
    """The maximum-likelihood frequencies by expectation–maximization (iterative Bayesian update).

    From the uniform start, ``p_x ← p_x g_x`` with ``g_x = Σ_y (n_y / N) Q[x, y] / (p Q)_y`` (Dempster,
    Laird & Rubin 1977; Agrawal & Aggarwal, On the Design and Quantification of Privacy Preserving
    Data Mining Algorithms, PODS 2001) — the log-likelihood never decreases. It stops when the
    certified gap ``max_x g_x − 1`` (an upper bound on the mean log-likelihood still to gain, by
    concavity) is at most ``tolerance``, or after ``max_iterations``. Any mechanism works, including
    rank-deficient ones (then the maximizer may not be unique).

    Parameters
    ----------
    output_counts
        How many records gave each output (length ``m``; finite, non-negative whole numbers; for a
        frequency oracle whose reports are output indices, its ``tally``).
    mechanism
        ``Q`` (dense; a frequency oracle's dense matrix, within the memory guard).
    categories
        Names of the inputs (default: indices).
    tolerance
        The stopping gap (mean log-likelihood, nats), ``> 0``.
    max_iterations
        The iteration limit.

    Examples
    --------
    >>> result = maximum_likelihood([5, 3], [[0.75, 0.25], [0.25, 0.75]], ["a", "b"])
    >>> result.estimate.round(6).tolist(), result.converged  # inside the simplex: the unbiased estimate
    ([0.75, 0.25], True)
    >>> maximum_likelihood([1, 7], [[0.75, 0.25], [0.25, 0.75]]).estimate.round(4).tolist()  # p̂ = (−0.25, 1.25)
    [0.0, 1.0]
    """
    matrix = as_mechanism(mechanism).matrix
    counts = as_counts(as_real_array(output_counts, "output_counts", 1), matrix.shape[1], "output_counts",
                       "one per output of the mechanism")
    total = float(counts.sum())
    if total <= 0:
        raise MechDesignError("output_counts sum to 0: no privatized records to estimate frequencies from")
    impossible = (counts > 0) & (matrix.max(axis=0) == 0)
    if impossible.any():
        raise MechDesignError(f"output_counts[{int(np.argmax(impossible))}] counts an output the mechanism never "
                              "gives: these counts are not from this mechanism")
    limit = as_positive_int(max_iterations, "max_iterations", minimum=0)
    if not (isinstance(tolerance, (int, float)) and not isinstance(tolerance, bool) and tolerance > 0):
        raise MechDesignError(f"tolerance must be a number > 0, got {_short(tolerance)}")
    names = category_names(categories, matrix.shape[0])
    used = counts > 0
    columns, weights = matrix[:, used], counts[used] / total
    estimate = np.full(matrix.shape[0], 1.0 / matrix.shape[0])
    iterations = 0
    while True:
        gradient = columns @ (weights / (estimate @ columns))
        gap = float(gradient.max() - 1.0)
        if gap <= tolerance or iterations >= limit:
            break
        estimate = estimate * gradient
        estimate /= estimate.sum()  # round-off only: Σ_x p_x g_x = 1
        iterations += 1
    log_likelihood = float(counts[used] @ np.log(estimate @ columns))
    return LikelihoodEstimate(names, estimate, log_likelihood, max(gap, 0.0), iterations, gap <= tolerance,
                              int(round(total)))


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
