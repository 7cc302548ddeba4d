"""Gaussian quantization mechanisms (Wang et al., "Guarding Multiple Secrets", Algs. 1–3 and App. C.4).

Each secret parameter is replaced by the midpoint of the length-``s`` interval (counted from a lower
bound) that contains it: ``q(v) = lower + (⌊(v − lower)/s⌋ + 0.5) s``.

* Algorithm 1: 1-D Gaussian ``θ = (μ, σ)``, both quantized.
* Algorithm 2: diagonal k-dimensional Gaussian ``θ = (μ_1…μ_k, σ_1…σ_k)``; the secret coordinates
  are quantized, the others released unchanged.
* Algorithm 3: 2-D Gaussian ``θ = (μ1, μ2, λ1, λ2, α)``; secret means are quantized; if an SD is a
  secret, ``a = √λ1`` and ``b = √λ2`` are quantized; α is released unchanged.

On datasets (App. C.4): the parameters are estimated from the samples, quantized, and the samples
are moved to the released distribution by the affine map that takes the estimated Gaussian to the
released one (or, with ``resample``, fresh samples are drawn from the released Gaussian, seeded).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validate import (
    RandomState,
    as_indices,
    as_positive_vector,
    as_real_array,
    as_real_vector,
    as_rng,
    check_count,
)
from ..exceptions import MechDesignError


def quantize(values: Any, lower: Any, step: Any) -> np.ndarray:
    """Midpoint of the interval ``[lower + j s, lower + (j+1) s)`` containing each value.

    Parameters
    ----------
    values
        The values ``v``, each at least its lower bound.
    lower
        Lower bound(s), broadcast against ``values``.
    step
        Positive step(s) ``s``.

    Returns
    -------
    numpy.ndarray
        ``lower + (⌊(v − lower)/s⌋ + 0.5) s``.

    Raises
    ------
    MechDesignError
        If a value lies below its lower bound.

    Examples
    --------
    >>> quantize([0.3, 1.2, 2.0], 0.0, 1.0)  # 2.0 opens the interval [2, 3)
    array([0.5, 1.5, 2.5])
    """
    v = as_real_array(values, "values")
    s = as_positive_vector(step, "quantization step")
    s = s[0] if s.size == 1 else s
    low = as_real_array(lower, "lower")
    if np.any(v < low):
        raise MechDesignError(f"every value must be >= its lower bound {np.asarray(lower).tolist()!r}; got {np.asarray(v).tolist()!r}")
    return low + (np.floor((v - low) / s) + 0.5) * s


def _rows(theta: Any, width: int, name: str) -> np.ndarray:
    rows = np.atleast_2d(as_real_array(theta, "theta"))
    check_count(rows.shape[-1], width, f"theta of {name}", "parameters per row")
    return rows


def algorithm1(theta: Any, lower: Sequence[float], steps: Sequence[float]) -> np.ndarray:
    """Wang et al. Algorithm 1: quantize ``θ = (μ, σ)`` (rows) with lower bounds ``(μ̲, σ̲)`` and steps ``(s_μ, s_σ)``.

    Parameters
    ----------
    theta
        ``(μ, σ)`` or rows of them.
    lower
        ``(μ̲, σ̲)``.
    steps
        ``(s_μ, s_σ)``.

    Returns
    -------
    numpy.ndarray
        The released rows.

    Examples
    --------
    >>> algorithm1([0.3, 1.2], [0.0, 1.0], [1.0, 0.5])  # σ: 1 + (⌊0.4⌋ + 0.5)·0.5
    array([[0.5 , 1.25]])
    """
    return algorithm2(theta, [0, 1], lower, steps)


def algorithm2(theta: Any, secret_columns: Sequence[int], lowers: Sequence[float], steps: Sequence[float]) -> np.ndarray:
    """Wang et al. Algorithm 2: quantize the secret coordinates of diagonal-Gaussian rows
    ``(μ_1…μ_k, σ_1…σ_k)``; ``secret_columns`` index them, with one lower bound and step each.

    Parameters
    ----------
    theta
        One row ``(μ_1…μ_k, σ_1…σ_k)`` or rows of them.
    secret_columns
        Indices of the secret coordinates.
    lowers, steps
        One lower bound and one positive step per secret coordinate.

    Returns
    -------
    numpy.ndarray
        The released rows (the other coordinates unchanged).

    Examples
    --------
    Only ``μ_1`` of a 2-D diagonal Gaussian is secret:

    >>> algorithm2([0.3, 5.0, 1.2, 2.0], [0], [0.0], [1.0])
    array([[0.5, 5. , 1.2, 2. ]])
    """
    rows = np.atleast_2d(as_real_array(theta, "theta"))
    columns = as_indices(secret_columns, rows.shape[1], "secret columns").tolist()
    s = as_positive_vector(steps, "steps", size=len(columns))
    low = as_real_vector(lowers, "lowers")
    check_count(low.size, len(columns), "lowers", "lower bounds (one per secret column)")
    rows[:, columns] = quantize(rows[:, columns], low, s)
    return rows


def algorithm3(theta: Any, secrets: Sequence[str], lowers: Sequence[float], steps: Sequence[float]) -> np.ndarray:
    """Wang et al. Algorithm 3 on 2-D Gaussian rows ``(μ1, μ2, λ1, λ2, α)``.

    ``lowers`` and ``steps`` are ``(μ̲1, μ̲2, a̲, b̲)`` and ``(s_μ1, s_μ2, s_a, s_b)``; ``secrets`` are among
    ``"mu1", "mu2", "sigma1", "sigma2"``.

    Parameters
    ----------
    theta
        One row ``(μ1, μ2, λ1, λ2, α)`` or rows of them.
    secrets
        The secret parameters.
    lowers, steps
        ``(μ̲1, μ̲2, a̲, b̲)`` and ``(s_μ1, s_μ2, s_a, s_b)``.

    Returns
    -------
    numpy.ndarray
        The released rows.

    Raises
    ------
    MechDesignError
        If a secret's name is unknown.

    Examples
    --------
    A secret SD quantizes both ``a = √λ1 = 2`` and ``b = √λ2 = 1`` (to 2.5 and 1.5); α is kept:

    >>> algorithm3([0.3, 0.7, 4.0, 1.0, 0.2], ["mu1", "sigma1"], [0, 0, 0, 0], [1, 1, 1, 1])
    array([[0.5 , 0.7 , 6.25, 2.25, 0.2 ]])
    """
    rows = np.array(_rows(theta, 5, "Algorithm 3"))
    unknown = set(secrets) - {"mu1", "mu2", "sigma1", "sigma2"}
    if unknown:
        raise MechDesignError(f"unknown secrets {sorted(unknown)} for a 2-D Gaussian")
    low = as_real_vector(lowers, "lowers")
    s = as_positive_vector(steps, "steps", size=4)
    check_count(low.size, 4, "lowers", "lower bounds (mu1, mu2, a, b)")
    for i, name in enumerate(("mu1", "mu2")):
        if name in secrets:
            rows[:, i] = quantize(rows[:, i], low[i], s[i])
    if {"sigma1", "sigma2"} & set(secrets):
        rows[:, 2] = quantize(np.sqrt(rows[:, 2]), low[2], s[2]) ** 2
        rows[:, 3] = quantize(np.sqrt(rows[:, 3]), low[3], s[3]) ** 2
    return rows


# --------------------------------------------------------------------------------------- datasets
def _as_samples(samples: Any, dims: int | None = None) -> np.ndarray:
    x = as_real_array(samples, "samples")
    x = x[:, None] if x.ndim == 1 else x
    if x.ndim != 2 or x.shape[0] < 2:
        raise MechDesignError(f"samples must be a finite (m, k) array with m >= 2, got shape {np.shape(samples)}")
    if dims is not None:
        check_count(x.shape[1], dims, "samples", "dimensions")
    return x


def release_diagonal_dataset(
    samples: Any,
    secret_columns: Sequence[int],
    lowers: Sequence[float],
    steps: Sequence[float],
    *,
    resample: RandomState = None,
) -> np.ndarray:
    """Algorithms 1–2 on a dataset (Wang et al. App. C.4).

    Estimates ``μ̂_j`` and ``σ̂_j = √(mean (x − μ̂)²)`` per dimension, quantizes the secret coordinates
    of ``(μ_1…μ_k, σ_1…σ_k)`` (Algorithm 2), and releases ``x' = σ_r/σ̂ (x − μ̂) + μ_r`` per
    dimension — or, when ``resample`` is a seed or generator, ``m`` fresh samples of the released
    diagonal Gaussian.

    Parameters
    ----------
    samples
        ``(m, k)`` samples (or ``(m,)`` for ``k = 1``), ``m >= 2``.
    secret_columns, lowers, steps
        As in :func:`algorithm2`, over ``(μ_1…μ_k, σ_1…σ_k)``.
    resample
        ``None`` to move the samples, or a seed or generator to draw fresh ones.

    Returns
    -------
    numpy.ndarray
        ``(m, k)`` released samples.

    Raises
    ------
    MechDesignError
        If a dimension is constant (its SD estimate is 0).

    Examples
    --------
    Samples 0 and 2 (``μ̂ = σ̂ = 1``) released with ``μ_r = σ_r = 1.5``:

    >>> release_diagonal_dataset([0.0, 2.0], [0, 1], [0.0, 0.0], [1.0, 1.0])
    array([[0.],
           [3.]])
    """
    x = _as_samples(samples)
    mean, sd = x.mean(axis=0), x.std(axis=0)
    if (sd <= 0).any():
        raise MechDesignError("a dimension of the samples is constant: its SD estimate is 0")
    released = algorithm2(np.concatenate([mean, sd]), secret_columns, lowers, steps)[0]
    k = x.shape[1]
    mu_r, sd_r = released[:k], released[k:]
    if resample is not None:
        return as_rng(resample, "resample").normal(mu_r, sd_r, size=x.shape)
    return (x - mean) * (sd_r / sd) + mu_r


def estimate_gaussian_2d(samples: Any) -> np.ndarray:
    """Maximum-likelihood ``(μ1, μ2, λ1, λ2, α)`` of 2-D samples, ``α ∈ [0, π)`` (Wang et al. §C.3).

    Parameters
    ----------
    samples
        ``(m, 2)`` samples, ``m >= 2``.

    Returns
    -------
    numpy.ndarray
        The means, the covariance's eigenvalues ``λ1 >= λ2`` and the angle α of the first eigenvector.

    Examples
    --------
    Variance 1/2 along the first axis and 2 along the second: the larger eigenvector is vertical:

    >>> estimate_gaussian_2d([[1, 0], [-1, 0], [0, 2], [0, -2]]).round(6)
    array([0.      , 0.      , 2.      , 0.5     , 1.570796])
    """
    x = _as_samples(samples, 2)
    mean = x.mean(axis=0)
    cov = np.cov(x, rowvar=False, bias=True)
    eigenvalues, vectors = np.linalg.eigh(cov)
    lam1, lam2 = eigenvalues[1], eigenvalues[0]
    alpha = float(np.arctan2(vectors[1, 1], vectors[0, 1]) % np.pi)
    return np.array([mean[0], mean[1], lam1, lam2, alpha])


def release_gaussian_2d_dataset(
    samples: Any,
    secrets: Sequence[str],
    lowers: Sequence[float],
    steps: Sequence[float],
    *,
    resample: RandomState = None,
) -> np.ndarray:
    """Algorithm 3 on a dataset (App. C.4): estimate θ, quantize, map ``x ↦ μ' + V diag(a'/a, b'/b) Vᵀ (x − μ̂)``
    (``V`` the eigenvectors at angle α), or resample ``m`` points from the released Gaussian.

    Parameters
    ----------
    samples
        ``(m, 2)`` samples, ``m >= 2``, with a non-singular covariance.
    secrets, lowers, steps
        As in :func:`algorithm3`.
    resample
        ``None`` to move the samples, or a seed or generator to draw fresh ones.

    Returns
    -------
    numpy.ndarray
        ``(m, 2)`` released samples.

    Raises
    ------
    MechDesignError
        If the samples' covariance is singular.

    Examples
    --------
    A secret ``μ1 = 0`` released as ``−0.25 + 0.5 = 0.25`` shifts every sample by 0.25:

    >>> samples = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    >>> released = release_gaussian_2d_dataset(samples, ["mu1"], [-0.25, 0, 0, 0], [1, 1, 1, 1])
    >>> bool(np.allclose(released, samples + [0.25, 0.0]))
    True
    """
    x = _as_samples(samples, 2)
    theta = estimate_gaussian_2d(x)
    if theta[3] <= 0:
        raise MechDesignError("the samples are degenerate: their covariance is singular")
    released = algorithm3(theta, secrets, lowers, steps)[0]
    c, s = np.cos(theta[4]), np.sin(theta[4])
    V = np.array([[c, -s], [s, c]])
    if resample is not None:
        cov = V @ np.diag(released[2:4]) @ V.T
        return as_rng(resample, "resample").multivariate_normal(released[:2], cov, size=x.shape[0])
    scale = V @ np.diag(np.sqrt(released[2:4] / theta[2:4])) @ V.T
    return (x - theta[:2]) @ scale.T + released[:2]
