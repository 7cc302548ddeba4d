"""Input validation: the one place where user input is checked and turned into numpy arrays.

Every function here either returns a clean, read-only-safe copy of its input or raises a subclass of
:class:`~mechdesign.exceptions.MechDesignError` whose message names the offending value. Nothing is
ever silently renormalized: a row summing to 0.999 is an error, not a rounding.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from .exceptions import (
    InvalidBudgetError,
    InvalidDistributionError,
    InvalidMechanismError,
    MechDesignError,
    ShapeMismatchError,
)

#: Largest accepted deviation of a probability vector's (or a mechanism row's) total from 1.
SUM_ATOL = 1e-9
#: Largest accepted negative entry; such round-off entries are set to exactly 0.
NEGATIVE_ATOL = 1e-12


def _as_float_array(values: Any, name: str, ndim: int, error: type[MechDesignError]) -> np.ndarray:
    try:
        array = np.array(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise error(f"{name} must be numeric, got {values!r}") from exc
    if array.ndim != ndim:
        raise error(f"{name} must be a {ndim}-D array, got shape {array.shape}")
    if array.size == 0:
        raise error(f"{name} is empty")
    bad = ~np.isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise error(f"{name} has a non-finite entry {float(array[index])} at index {index}")
    return array


def _clip_round_off(array: np.ndarray, name: str, error: type[MechDesignError]) -> np.ndarray:
    if array.min() < -NEGATIVE_ATOL:
        index = tuple(int(i) for i in np.argwhere(array < -NEGATIVE_ATOL)[0])
        raise error(f"{name} has a negative entry {array[index]:.6g} at index {index}")
    return np.maximum(array, 0.0)


def as_probability_vector(
    values: Any,
    name: str = "prior",
    *,
    size: int | None = None,
    full_support: bool = False,
) -> np.ndarray:
    """Validate a probability vector: finite, non-negative, summing to 1 within ``SUM_ATOL``.

    Parameters
    ----------
    values
        Anything numpy turns into a 1-D float array.
    name
        Name used in error messages.
    size
        Required length, if any.
    full_support
        Require every entry to be strictly positive.
    """
    vector = _clip_round_off(
        _as_float_array(values, name, 1, InvalidDistributionError), name, InvalidDistributionError
    )
    if size is not None and vector.size != size:
        raise ShapeMismatchError(f"{name} has {vector.size} entries, expected {size}")
    total = float(vector.sum())
    if abs(total - 1.0) > SUM_ATOL:
        raise InvalidDistributionError(f"{name} sums to {total:.12g}, not 1 (tolerance {SUM_ATOL:g})")
    if full_support and (vector <= 0).any():
        index = int(np.argmin(vector))
        raise InvalidDistributionError(
            f"{name} must have full support, but entry {index} is {vector[index]:.12g}"
        )
    return vector


def as_stochastic_matrix(values: Any, name: str = "mechanism") -> np.ndarray:
    """Validate a row-stochastic matrix (rows are inputs, columns outputs)."""
    matrix = _clip_round_off(
        _as_float_array(values, name, 2, InvalidMechanismError), name, InvalidMechanismError
    )
    sums = matrix.sum(axis=1)
    bad_rows = np.flatnonzero(np.abs(sums - 1.0) > SUM_ATOL)
    if bad_rows.size:
        row = int(bad_rows[0])
        raise InvalidMechanismError(
            f"{name} is not row-stochastic: row {row} sums to {sums[row]:.12g} "
            f"(tolerance {SUM_ATOL:g}; {bad_rows.size} bad row(s))"
        )
    return matrix


def as_cost_matrix(values: Any, shape: tuple[int, int] | None = None, name: str = "cost") -> np.ndarray:
    """Validate a distortion (cost) matrix ``cost[x, y] = d(x, y)``: finite and non-negative."""
    matrix = _as_float_array(values, name, 2, MechDesignError)
    if matrix.min() < 0:
        index = tuple(int(i) for i in np.argwhere(matrix < 0)[0])
        raise MechDesignError(f"{name} has a negative entry {float(matrix[index]):.12g} at index {index}")
    if shape is not None and matrix.shape != tuple(shape):
        raise ShapeMismatchError(f"{name} has shape {matrix.shape}, expected {tuple(shape)}")
    return matrix


def _as_real(value: Any, name: str) -> float:
    if isinstance(value, bool):
        raise InvalidBudgetError(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise InvalidBudgetError(f"{name} must be a number, got {value!r}") from exc
    if math.isnan(number):
        raise InvalidBudgetError(f"{name} is NaN")
    return number


def as_finite(value: Any, name: str) -> float:
    """Validate a finite real number (limits on distortion and other quantities)."""
    number = _as_real(value, name)
    if math.isinf(number):
        raise MechDesignError(f"{name} must be finite, got {number!r}")
    return number


def as_budget(value: Any, name: str = "epsilon") -> float:
    """Validate a privacy budget: a finite number ≥ 0 (in nats)."""
    number = _as_real(value, name)
    if number < 0 or math.isinf(number):
        raise InvalidBudgetError(f"{name} must be a finite number >= 0, got {number!r}")
    return number


def as_budget_or_infinity(value: Any, name: str = "epsilon") -> float:
    """Validate a privacy budget that may be ``inf`` (no privacy): a number in ``[0, inf]`` (nats)."""
    number = _as_real(value, name)
    if number < 0:
        raise InvalidBudgetError(f"{name} must be a number >= 0 (inf allowed), got {number!r}")
    return number


def as_delta(value: Any, name: str = "delta") -> float:
    """Validate the δ of approximate differential privacy: 0 ≤ δ < 1."""
    number = _as_real(value, name)
    if not 0.0 <= number < 1.0:
        raise InvalidBudgetError(f"{name} must satisfy 0 <= {name} < 1, got {number!r}")
    return number


def as_order(value: Any, name: str = "alpha") -> float:
    """Validate a Rényi/Sibson order: a finite number α > 1."""
    number = _as_real(value, name)
    if not 1.0 < number < math.inf:
        raise InvalidBudgetError(f"{name} must be a finite number > 1, got {number!r}")
    return number


def as_positive_int(value: Any, name: str) -> int:
    """Validate a strictly positive integer (alphabet sizes, sample counts)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise MechDesignError(f"{name} must be a positive integer, got {value!r}")
    if value < 1:
        raise MechDesignError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def as_neighbour_pairs(pairs: Iterable[tuple[int, int]] | np.ndarray, size: int) -> np.ndarray:
    """Validate a neighbour relation on ``{0, …, size-1}``.

    Accepts either an iterable of index pairs or a boolean ``size × size`` adjacency matrix. Returns
    the sorted unique unordered pairs ``(i, j)`` with ``i < j`` as an integer array of shape (k, 2).
    """
    array = np.asarray(pairs if not isinstance(pairs, (list, tuple)) else list(pairs))
    if array.dtype == bool:
        if array.shape != (size, size):
            raise ShapeMismatchError(f"neighbour adjacency has shape {array.shape}, expected {(size, size)}")
        array = np.argwhere(array | array.T)
    if array.size == 0:
        raise MechDesignError("the neighbour relation is empty: no pair of inputs is constrained")
    if array.ndim != 2 or array.shape[1] != 2 or not np.issubdtype(array.dtype, np.integer):
        raise MechDesignError(f"neighbours must be integer pairs (k, 2), got array of shape {array.shape}")
    if array.min() < 0 or array.max() >= size:
        raise MechDesignError(f"neighbour indices must lie in [0, {size - 1}], got {array.min()}..{array.max()}")
    if (array[:, 0] == array[:, 1]).any():
        raise MechDesignError("a neighbour pair joins an input to itself")
    return np.unique(np.sort(array, axis=1), axis=0)


def as_sublinear_values(values: Any, count: int, name: str) -> np.ndarray:
    """Validate the values of a column utility μ on ``count`` columns: ``count`` finite numbers."""
    array = np.asarray(values, dtype=float).reshape(-1) if np.ndim(values) else np.full(1, float(values))
    if array.size != count:
        raise ShapeMismatchError(f"{name} returned {array.size} values for {count} columns (one per column expected)")
    bad = ~np.isfinite(array)
    if bad.any():
        index = int(np.argmax(bad))
        raise MechDesignError(f"{name} returned a non-finite value {array[index]} for column {index}")
    return array


# --- ℓ1-balls of priors and empirical estimation (Grosse et al., eqs. (3), (5), (7)) ----------------


def as_failure_probability(value: Any, name: str = "delta") -> float:
    """Validate a probability of failure δ of an estimation guarantee: 0 < δ < 1."""
    number = _as_real(value, name)
    if not 0.0 < number < 1.0:
        raise InvalidBudgetError(f"{name} must satisfy 0 < {name} < 1, got {number!r}")
    return number


def as_samples(values: Any, size: int, name: str = "samples") -> np.ndarray:
    """Validate data samples: a non-empty 1-D sequence of integer symbols in ``{0, …, size-1}``."""
    array = np.asarray(values)
    if array.ndim != 1 or array.size == 0:
        raise MechDesignError(f"{name} must be a non-empty 1-D sequence, got shape {array.shape}")
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
        raise MechDesignError(f"{name} must hold integer symbols, got dtype {array.dtype}")
    with np.errstate(invalid="ignore"):
        valid = np.isfinite(array) & (array == np.round(array)) & (array >= 0) & (array < size)
    bad = np.flatnonzero(~valid)
    if bad.size:
        index = int(bad[0])
        raise MechDesignError(
            f"{name}[{index}] = {array[index].item()!r} is not a symbol of the alphabet {{0, …, {size - 1}}} "
            f"({bad.size} bad sample(s))"
        )
    return array.astype(np.int64)


def as_secret_values(values: Any, name: str = "secret") -> np.ndarray:
    """Validate a secret map given as one secret value per input: a non-empty 1-D array.

    Values may be numbers or labels (strings); numbers must be finite. Returns a copy.
    """
    array = np.array(values)
    if array.ndim != 1 or array.size == 0:
        raise MechDesignError(f"{name} must be a non-empty 1-D sequence of secret values, got shape {array.shape}")
    if array.dtype.kind in "fc" and not np.isfinite(array).all():
        index = int(np.flatnonzero(~np.isfinite(array))[0])
        raise MechDesignError(f"{name} has a non-finite value {array[index].item()!r} at index {index}")
    if array.dtype.kind not in "biufcUS":
        raise MechDesignError(f"{name} values must be numbers or strings, got dtype {array.dtype}")
    return array.copy()


def as_probability_budget(value: Any, name: str = "T") -> float:
    """Validate a budget that is a probability (summary statistic privacy, Wang et al.): 0 ≤ T ≤ 1."""
    number = _as_real(value, name)
    if not 0.0 <= number <= 1.0:
        raise InvalidBudgetError(f"{name} must be a probability in [0, 1], got {number!r}")
    return number


def as_positive_vector(values: Any, name: str, size: int | None = None) -> np.ndarray:
    """Validate a 1-D array of finite, strictly positive numbers (tolerances, quantization steps)."""
    vector = _as_float_array(np.atleast_1d(values), name, 1, MechDesignError)
    if size is not None and vector.size != size:
        raise ShapeMismatchError(f"{name} has {vector.size} entries, expected {size}")
    if (vector <= 0).any():
        index = int(np.argmin(vector))
        raise MechDesignError(f"{name} must be strictly positive, but entry {index} is {vector[index]!r}")
    return vector


def as_norm_order(value: Any, name: str = "p") -> float:
    """Validate the order of an ℓp norm: a number p ≥ 1 (``inf`` allowed)."""
    number = _as_real(value, name)
    if number < 1.0:
        raise InvalidBudgetError(f"{name} must be a norm order >= 1 (or inf), got {number!r}")
    return number
