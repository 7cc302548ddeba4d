"""Finite parameter spaces with summary-statistic secrets (Wang et al., "Guarding Multiple Secrets").

Wang et al. (§3) model the data holder's distribution by a parameter θ with prior ω_Θ; the mechanism
releases a parameter θ'; the secrets are ``d`` functions ``g_i(θ)`` guessed to within tolerances
``ε_i``; the distortion (eq. (2)) is the worst case over the prior's support and the mechanism's
support of a distance ``𝔇(ω_{X_θ} ‖ ω_{X_θ'})`` (Wasserstein-2 in the paper).

A :class:`ParameterSpace` discretizes this: a finite grid of input parameters (rows of a mechanism)
with a prior, a finite set of releasable parameters (columns), the secret values of every input,
the tolerances and the cost matrix ``cost[θ, θ'] = 𝔇(ω_{X_θ} ‖ ω_{X_θ'})``.

Distances: Wasserstein-2 between Gaussians in closed form (Givens & Shortt 1984; diagonal case
Wang et al. Lemma C.7; the 2-D case with ``tr √M = √(tr M + 2 √det M)`` for 2×2 PSD ``M``) and total
variation between histograms.

The distortion objectives: :class:`SupportDistortion` is eq. (2) itself (a maximum over the support,
not a convex function of the mechanism; it is minimized exactly by
:func:`mechdesign.designers.summary.design_worst_case_distortion`); :meth:`ParameterSpace.expected_distortion`
is the expected distance under the prior (the existing
:class:`~mechdesign.utility.distortion.ExpectedDistortion` with this cost matrix).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._lazy import cvxpy as cp
import numpy as np

from ._validate import (
    as_array,
    as_callable,
    call_user,
    as_cost_matrix,
    as_indices,
    as_instance,
    as_members,
    as_positive_vector,
    as_real_array,
    as_real_vector,
    as_sequence,
    as_stochastic_matrix,
    check_count,
)
from .exceptions import InvalidDistributionError, MechDesignError
from .priors import Prior, PriorLike, as_prior
from .tabular import total_variation
from .utility.base import Objective
from .utility.distortion import ExpectedDistortion, WorstCaseInputDistortion


Distance = Callable[[np.ndarray, np.ndarray], np.ndarray]

#: Names of the parameters of a 2-D Gaussian in Wang et al. §C.3: ``Σ = R(α) diag(λ1, λ2) R(α)ᵀ``.
GAUSSIAN_2D_PARAMETERS = ("mu1", "mu2", "lambda1", "lambda2", "alpha")


# --------------------------------------------------------------------------------------- distances
#: Relative size of a negative eigenvalue of a covariance accepted as round-off (set to 0).
COVARIANCE_EIGEN_RTOL = 1e-12


def _psd_square_root(matrix: np.ndarray, name: str) -> np.ndarray:
    """The symmetric square root of a symmetric positive semi-definite matrix, by its eigendecomposition
    (real by construction: nothing imaginary to drop); a named error if ``matrix`` is not symmetric PSD.

    Examples
    --------
    >>> _psd_square_root(np.diag([4.0, 9.0]), "cov").tolist()
    [[2.0, 0.0], [0.0, 3.0]]
    """
    scale = max(float(np.abs(matrix).max()), np.finfo(float).tiny)
    if not np.allclose(matrix, matrix.T, rtol=0.0, atol=COVARIANCE_EIGEN_RTOL * scale):
        raise MechDesignError(f"{name} must be a symmetric matrix, got {matrix.tolist()!r}")
    values, vectors = np.linalg.eigh((matrix + matrix.T) / 2.0)
    if values.min() < -COVARIANCE_EIGEN_RTOL * scale:
        raise MechDesignError(f"{name} must be positive semi-definite, got eigenvalue {float(values.min())!r}")
    return (vectors * np.sqrt(np.maximum(values, 0.0))) @ vectors.T


def _covariance_matrix(values: Any, name: str, dimension: int) -> np.ndarray:
    """A ``dimension × dimension`` real matrix (a number in one dimension), else a named error."""
    scalar = isinstance(values, (int, float, np.number)) and not isinstance(values, bool)
    matrix = as_real_array([[values]] if scalar else values, name, 2)
    if matrix.shape != (dimension, dimension):
        raise MechDesignError(f"{name} must have shape {(dimension, dimension)}, got {matrix.shape}")
    return matrix


def gaussian_w2(mean1: Any, cov1: Any, mean2: Any, cov2: Any) -> float:
    """Wasserstein-2 distance between two Gaussians, any dimension (Givens & Shortt 1984).

    ``W2² = ‖μ1 − μ2‖² + tr(Σ1 + Σ2 − 2 (Σ1^{1/2} Σ2 Σ1^{1/2})^{1/2})``, by symmetric square roots of
    positive semi-definite matrices; the reference against which the closed forms below are tested.

    Parameters
    ----------
    mean1, mean2
        The means (a number in one dimension).
    cov1, cov2
        The covariances, symmetric positive semi-definite (a number in one dimension).

    Returns
    -------
    float
        The distance; a :class:`~mechdesign.exceptions.MechDesignError` names a mean or covariance of
        the wrong shape, a non-finite entry, or a covariance that is not symmetric PSD.

    Examples
    --------
    >>> gaussian_w2(0.0, 1.0, 3.0, 4.0)  # one dimension: sqrt((μ1 − μ2)² + (σ1 − σ2)²)
    3.1622776601683795
    """
    m1, m2 = as_real_vector(mean1, "mean1"), as_real_vector(mean2, "mean2")
    check_count(m2.size, m1.size, "mean2")
    s1, s2 = _covariance_matrix(cov1, "cov1", m1.size), _covariance_matrix(cov2, "cov2", m1.size)
    root1 = _psd_square_root(s1, "cov1")
    _psd_square_root(s2, "cov2")  # checked symmetric PSD
    product = root1 @ s2 @ root1
    cross = _psd_square_root((product + product.T) / 2.0, "cov1^(1/2) cov2 cov1^(1/2)")
    squared = float(np.sum((m1 - m2) ** 2) + np.trace(s1 + s2 - 2.0 * cross))
    return float(np.sqrt(max(squared, 0.0)))


def diagonal_gaussian_w2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """W2 between diagonal Gaussians ``(μ_1…μ_k, σ_1…σ_k)`` (Wang et al., Lemma C.7): the Euclidean
    distance of the parameter vectors, for every pair of rows of ``a`` (n, 2k) and ``b`` (m, 2k).

    Examples
    --------
    >>> a = np.array([[0.0, 1.0]])                 # N(0, 1²)
    >>> b = np.array([[3.0, 1.0], [0.0, 2.0]])     # N(3, 1²), N(0, 2²)
    >>> diagonal_gaussian_w2(a, b)                 # |0 − 3| and |1 − 2|
    array([[3., 1.]])
    """
    return np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2))


def _covariance_2d(points: np.ndarray) -> np.ndarray:
    """``Σ = R(α) diag(λ1, λ2) R(α)ᵀ`` for rows ``(μ1, μ2, λ1, λ2, α)`` (Wang et al. §C.3); shape (n, 2, 2)."""
    lam1, lam2, alpha = points[:, 2], points[:, 3], points[:, 4]
    c, s = np.cos(alpha), np.sin(alpha)
    return np.stack([np.stack([lam1 * c**2 + lam2 * s**2, (lam1 - lam2) * c * s], -1),
                     np.stack([(lam1 - lam2) * c * s, lam1 * s**2 + lam2 * c**2], -1)], -2)


def gaussian_2d_w2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """W2 between 2-D Gaussians with rows ``(μ1, μ2, λ1, λ2, α)``, for every pair of rows, in closed form.

    ``tr (Σ_a^{1/2} Σ_b Σ_a^{1/2})^{1/2} = √(tr(Σ_a Σ_b) + 2 √(det Σ_a det Σ_b))`` (a 2×2 PSD ``M``
    has ``tr √M = √(tr M + 2 √det M)``).

    Examples
    --------
    Covariances ``diag(4, 1)`` (``α = 0``) and, rotated by ``α = π/2``, ``diag(1, 4)``: the distance is
    ``sqrt((2 − 1)² + (1 − 2)²) = √2``; a shift of the mean by (3, 4) alone is 5.

    >>> a = np.array([[0.0, 0.0, 4.0, 1.0, 0.0]])
    >>> b = np.array([[0.0, 0.0, 4.0, 1.0, np.pi / 2], [3.0, 4.0, 4.0, 1.0, 0.0]])
    >>> np.allclose(gaussian_2d_w2(a, b), [[np.sqrt(2), 5.0]])
    True
    """
    sa, sb = _covariance_2d(a), _covariance_2d(b)
    trace_product = np.einsum("aij,bji->ab", sa, sb)
    det_a = a[:, 2] * a[:, 3]
    det_b = b[:, 2] * b[:, 3]
    cross = np.sqrt(np.maximum(trace_product + 2.0 * np.sqrt(np.outer(det_a, det_b)), 0.0))
    means = ((a[:, None, :2] - b[None, :, :2]) ** 2).sum(axis=2)
    traces = (a[:, 2] + a[:, 3])[:, None] + (b[:, 2] + b[:, 3])[None, :]
    return np.sqrt(np.maximum(means + traces - 2.0 * cross, 0.0))


# ------------------------------------------------------------------------------------------ spaces
class ParameterSpace:
    """A finite grid of distribution parameters with a prior, secrets, tolerances and a distance.

    Parameters
    ----------
    points
        Input parameters θ, one per row (shape ``(n, q)``).
    prior
        ω_Θ over the rows of ``points`` (default uniform).
    secrets
        Function mapping parameter rows ``(k, q)`` to secret values ``(k, d)`` — the ``g_i``.
    tolerances
        ``ε_1 … ε_d > 0`` (Wang et al. eq. (1)).
    distance
        Function mapping parameter rows ``(n, q)``, ``(m, q)`` to the ``(n, m)`` distance matrix 𝔇.
    outputs
        Releasable parameters θ' (rows; default: the input points).
    secret_names
        Names of the ``d`` secrets (for labels).

    Notes
    -----
    Not to be confused with :class:`~mechdesign.tabular.HistogramSpace` (SML paper), which enumerates
    every histogram of a precision in integer counts for discrete secrets and has no prior; a
    ``ParameterSpace`` is any grid with a prior and tolerance-guessed real secrets (Wang et al.).
    :meth:`histograms` builds one on given histograms (e.g. ``HistogramSpace(τ, d).probabilities``).

    Examples
    --------
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0], [0.4, 0.4])  # two means, one σ
    >>> space.secret_values.tolist(), space.cost.tolist()  # secrets (μ, σ); W2 distances
    ([[0.0, 1.0], [1.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]])
    """

    def __init__(
        self,
        points: Any,
        secrets: Callable[[np.ndarray], np.ndarray],
        tolerances: Any,
        distance: Distance,
        *,
        prior: PriorLike | None = None,
        outputs: Any = None,
        secret_names: Sequence[str] | None = None,
    ) -> None:
        self.points = _as_points(points, "points")
        self.outputs = self.points if outputs is None else _as_points(outputs, "outputs")
        check_count(self.outputs.shape[1], self.points.shape[1], "outputs",
                    "parameters (columns, one per column of points)")
        n = self.points.shape[0]
        self.prior: Prior = Prior.uniform(n) if prior is None else as_prior(prior, n)
        self.secret_function = as_callable(secrets, "secrets")
        values = as_real_array(call_user(secrets, "secrets", self.points), "secrets(points)", 2)
        check_count(values.shape[0], n, "secrets(points)", "rows (one per point)")
        self.secret_values = values
        self.tolerances = as_positive_vector(tolerances, "tolerances", size=values.shape[1])
        self.distance = as_callable(distance, "distance")
        self.cost = as_cost_matrix(call_user(distance, "distance", self.points, self.outputs),
                                   (n, self.outputs.shape[0]))
        names = as_sequence(secret_names, "secret_names") if secret_names is not None else [f"g{i + 1}" for i in range(values.shape[1])]
        check_count(len(names), values.shape[1], "secret_names", "names (one per secret)")
        self.secret_names = names

    @property
    def n_inputs(self) -> int:
        """Number of input parameters (rows)."""
        return self.points.shape[0]

    @property
    def n_outputs(self) -> int:
        """Number of releasable parameters (columns)."""
        return self.outputs.shape[0]

    @property
    def n_secrets(self) -> int:
        """``d``, the number of secrets."""
        return self.secret_values.shape[1]

    @property
    def support(self) -> np.ndarray:
        """Indices of inputs the prior charges (eq. (2) takes its supremum over them)."""
        return np.flatnonzero(self.prior.probabilities > 0)

    def __repr__(self) -> str:
        return (f"ParameterSpace({self.n_inputs} inputs, {self.n_outputs} outputs, secrets "
                f"{self.secret_names}, tolerances {self.tolerances.tolist()})")

    def with_outputs(self, outputs: Any, *, keep: bool = True) -> "ParameterSpace":
        """The same space releasing ``outputs`` (appended to the current outputs when ``keep``)."""
        extra = _as_points(outputs, "outputs")
        new = np.unique(np.vstack([self.outputs, extra]), axis=0) if keep else np.unique(extra, axis=0)
        return ParameterSpace(self.points, self.secret_function, self.tolerances, self.distance,
                              prior=self.prior, outputs=new, secret_names=self.secret_names)

    def output_index(self, released: Any) -> np.ndarray:
        """Index of each released parameter row among :attr:`outputs` (exact match required)."""
        rows = _as_points(released, "released parameters")
        matches = np.all(np.isclose(rows[:, None, :], self.outputs[None, :, :], rtol=0, atol=1e-12), axis=2)
        missing = np.flatnonzero(~matches.any(axis=1))
        if missing.size:
            raise MechDesignError(f"released parameter {rows[missing[0]].tolist()} is not an output of {self!r}")
        return matches.argmax(axis=1)

    def deterministic_mechanism(self, release: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """The 0/1 mechanism matrix of a map θ ↦ θ' whose images are outputs of this space."""
        index = self.output_index(release(self.points))
        matrix = np.zeros((self.n_inputs, self.n_outputs))
        matrix[np.arange(self.n_inputs), index] = 1.0
        return matrix

    def expected_distortion(self) -> ExpectedDistortion:
        """Expected distance ``E_{ω_Θ, Q}[𝔇(θ, θ')]`` (the existing objective with this cost matrix)."""
        return ExpectedDistortion(self.prior, self.cost)

    def row_distortion(self) -> WorstCaseInputDistortion:
        """``max_θ Σ_θ' Q[θ, θ'] 𝔇(θ, θ')`` (the existing worst-case-input objective with this cost):
        convex, equal to eq. (2) for deterministic mechanisms under a full-support prior, a lower
        bound on it otherwise."""
        return WorstCaseInputDistortion(self.cost)

    def support_distortion(self) -> "SupportDistortion":
        """The worst-case distortion Δ of Wang et al. eq. (2)."""
        return SupportDistortion(self)

    # ---------------------------------------------------------------------------- constructors
    @classmethod
    def gaussian_1d(cls, means: Any, sds: Any, tolerances: Any, *, prior: PriorLike | None = None) -> "ParameterSpace":
        """1-D Gaussians ``θ = (μ, σ)`` on the grid ``means × sds`` with secrets μ and σ (Wang et al. §C.1)."""
        return cls.diagonal_gaussian([means], [sds], ["mu1", "sigma1"], tolerances, prior=prior)

    @classmethod
    def diagonal_gaussian(
        cls,
        means: Sequence[Any],
        sds: Sequence[Any],
        secrets: Sequence[str],
        tolerances: Any,
        *,
        prior: PriorLike | None = None,
    ) -> "ParameterSpace":
        """k-dimensional Gaussians with diagonal covariance, ``θ = (μ_1…μ_k, σ_1…σ_k)`` (Wang et al. §C.2).

        Parameters
        ----------
        means, sds
            ``k`` sequences of levels each (a single level fixes that parameter); the grid is their
            product.
        secrets
            Names among ``"mu1"…"muk"``, ``"sigma1"…"sigmak"``.
        """
        mean_sets = as_sequence(means, "means")
        sd_sets = as_sequence(sds, "sds")
        k = check_count(len(sd_sets), len(mean_sets), "sds", "level sets (one per level set of means)")
        levels = [_as_levels(m, f"means[{i}]") for i, m in enumerate(mean_sets)]
        levels += [_as_levels(s, f"sds[{i}]", positive=True) for i, s in enumerate(sd_sets)]
        names = [f"mu{i + 1}" for i in range(k)] + [f"sigma{i + 1}" for i in range(k)]
        chosen = as_members(secrets, names, "secrets", kind="secret")
        columns = [names.index(name) for name in chosen]
        points = _grid(levels)
        return cls(points, lambda rows: rows[:, columns], tolerances, diagonal_gaussian_w2,
                   prior=prior, secret_names=chosen)

    @classmethod
    def gaussian_2d(
        cls,
        levels: Sequence[Any],
        secrets: Sequence[str],
        tolerances: Any,
        *,
        prior: PriorLike | None = None,
    ) -> "ParameterSpace":
        """2-D Gaussians ``θ = (μ1, μ2, λ1, λ2, α)`` (Wang et al. §C.3) with secrets among
        ``"mu1", "mu2", "sigma1", "sigma2"`` (``σ1² = λ1 cos²α + λ2 sin²α``, ``σ2² = λ1 sin²α + λ2 cos²α``).

        ``levels`` gives the five level sets, in the order of :data:`GAUSSIAN_2D_PARAMETERS`.
        """
        level_sets = as_sequence(levels, "levels")
        check_count(len(level_sets), len(GAUSSIAN_2D_PARAMETERS), "levels",
                    f"level sets (one per parameter {GAUSSIAN_2D_PARAMETERS})")
        grids = [_as_levels(v, f"levels[{i}]", positive=i in (2, 3)) for i, v in enumerate(level_sets)]
        chosen = as_members(secrets, ("mu1", "mu2", "sigma1", "sigma2"), "secrets", kind="secret")
        return cls(_grid(grids), lambda rows: gaussian_2d_secrets(rows, chosen), tolerances, gaussian_2d_w2,
                   prior=prior, secret_names=chosen)

    @classmethod
    def histograms(
        cls,
        histograms: Any,
        categories: Sequence[int],
        tolerances: Any,
        *,
        prior: PriorLike | None = None,
    ) -> "ParameterSpace":
        """Histograms over ``K`` categories (rows summing to 1) with secrets the fractions of
        ``categories``; distance: total variation (:func:`mechdesign.tabular.total_variation`)."""
        points = as_stochastic_matrix(_as_points(histograms, "histograms"), "histograms", InvalidDistributionError)
        columns = as_indices(categories, points.shape[1], "categories").tolist()
        return cls(points, lambda rows: rows[:, columns], tolerances, total_variation, prior=prior,
                   secret_names=[f"fraction{c}" for c in columns])


def gaussian_2d_secrets(rows: np.ndarray, secrets: Sequence[str]) -> np.ndarray:
    """Secret values ``μ1, μ2, σ1, σ2`` of 2-D Gaussian parameter rows ``(μ1, μ2, λ1, λ2, α)``.

    Examples
    --------
    >>> rows = np.array([[1.0, 2.0, 4.0, 1.0, 0.0], [1.0, 2.0, 4.0, 1.0, np.pi / 2]])
    >>> gaussian_2d_secrets(rows, ["mu1", "sigma1", "sigma2"]).round(12)  # α = π/2 swaps the variances
    array([[1., 2., 1.],
           [1., 1., 2.]])
    """
    cov = _covariance_2d(rows)
    table = {"mu1": rows[:, 0], "mu2": rows[:, 1], "sigma1": np.sqrt(cov[:, 0, 0]), "sigma2": np.sqrt(cov[:, 1, 1])}
    return np.stack([table[name] for name in secrets], axis=1)


def _as_points(values: Any, name: str) -> np.ndarray:
    """One parameter vector per row (a 1-D array is one parameter per point)."""
    array = as_array(values, name)
    return as_real_array(array[:, None] if array.ndim == 1 else array, name, 2)


def _as_levels(values: Any, name: str, positive: bool = False) -> np.ndarray:
    """A level set: one number or a non-empty 1-D array of finite numbers (strictly positive if ``positive``)."""
    return as_positive_vector(values, name) if positive else as_real_vector(values, name)


def _grid(levels: Sequence[np.ndarray]) -> np.ndarray:
    mesh = np.meshgrid(*levels, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1)


# ------------------------------------------------------------------------------------ distortion
class SupportDistortion(Objective):
    """Worst-case distortion Δ of Wang et al. eq. (2): ``max 𝔇(θ, θ')`` over ``θ`` in the prior's
    support and ``θ'`` with ``Q[θ, θ'] > 0``.

    It depends on the mechanism only through its support, so it is not a convex function of ``Q``
    and has no cvxpy expression: minimize it with
    :func:`mechdesign.designers.summary.design_worst_case_distortion` (exact: one LP per candidate
    threshold). Its value is computed in numpy.
    """

    is_linear = False

    def __init__(self, space: ParameterSpace) -> None:
        self.space = as_instance(space, ParameterSpace, "space")
        self.shape = space.cost.shape

    @property
    def label(self) -> str:
        return "support_distortion"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        raise MechDesignError(
            "the worst-case distortion of Wang et al. eq. (2) is a maximum over the mechanism's support, "
            "not a convex function of it: use mechdesign.designers.summary.design_worst_case_distortion"
        )

    def _value(self, matrix: np.ndarray) -> float:
        rows = self.space.support
        used = matrix[rows] > 0
        return float(self.space.cost[rows][used].max())
