"""Input validation: the one place where user input is checked and turned into numpy arrays.

Every function here either returns a clean, read-only-safe copy of its input or raises a subclass of
:class:`~mechdesign.exceptions.MechDesignError` whose message names the offending value. Nothing is
ever silently renormalized: a row summing to 0.999 is an error, not a rounding.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping
from typing import Any, Union

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


#: numpy dtype kinds that never convert to real numbers silently: complex, strings, dates, raw bytes.
_NON_REAL_KINDS = "cUSMmV"


def _as_float_array(values: Any, name: str, ndim: int | None, error: type[MechDesignError]) -> np.ndarray:
    try:
        raw = np.asarray(values)
        if raw.dtype.kind in _NON_REAL_KINDS:
            raise TypeError(f"dtype {raw.dtype}")
        array = np.array(raw, dtype=float)
    except (TypeError, ValueError, OverflowError) as exc:  # OverflowError: an integer beyond float range
        raise error(f"{name} must be numeric (real numbers), got {_short(values)} ({exc})") from exc
    if ndim is not None and array.ndim != ndim:
        raise error(f"{name} must be a {ndim}-D array, got shape {array.shape}")
    if array.size == 0:
        raise error(f"{name} is empty")
    bad = ~np.isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise error(f"{name} has a non-finite entry {float(array[index])} at index {index}")
    return array


def as_real_array(values: Any, name: str, ndim: int | None = None,
                  error: type[MechDesignError] = MechDesignError) -> np.ndarray:
    """A non-empty array of finite real numbers with ``ndim`` dimensions (any number if ``None``), as float
    (a copy).

    Complex, text, ragged, empty or non-finite input is an ``error`` (a :class:`MechDesignError`)
    naming ``name``.

    Examples
    --------
    >>> as_real_array([[0, 1.5]], "points", 2)
    array([[0. , 1.5]])
    """
    return _as_float_array(values, name, ndim, error)


def as_real_vector(values: Any, name: str) -> np.ndarray:
    """A non-empty 1-D array of finite real numbers (a single number is a vector of one), as float.

    Examples
    --------
    >>> as_real_vector(0.5, "levels")
    array([0.5])
    """
    scalar = isinstance(values, (int, float, np.number)) and not isinstance(values, bool)
    return _as_float_array([values] if scalar else values, name, 1, MechDesignError)


def check_count(count: int, expected: int, name: str, unit: str = "entries") -> int:
    """``count`` if it equals ``expected``, else a :class:`ShapeMismatchError` naming ``name`` and both numbers.

    Examples
    --------
    >>> check_count(3, 3, "prior")
    3
    """
    if count != expected:
        raise ShapeMismatchError(f"{name} has {count} {unit}, expected {expected}")
    return count


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

    Examples
    --------
    >>> as_probability_vector([0.25, 0.75])
    array([0.25, 0.75])
    >>> as_probability_vector([0.5, 0.4])
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidDistributionError: prior sums to 0.9, not 1 (tolerance 1e-09)
    """
    vector = _clip_round_off(
        _as_float_array(values, name, 1, InvalidDistributionError), name, InvalidDistributionError
    )
    if size is not None:
        check_count(vector.size, size, name)
    total = float(vector.sum())
    if abs(total - 1.0) > SUM_ATOL:
        raise InvalidDistributionError(f"{name} sums to {total:.12g}, not 1 (tolerance {SUM_ATOL:g})")
    if full_support:
        check_full_support(vector, name)
    return vector


def check_full_support(vector: np.ndarray, name: str = "prior") -> np.ndarray:
    """``vector`` if every entry is > 0, else an :class:`InvalidDistributionError` naming the first zero.

    Examples
    --------
    >>> check_full_support(np.array([0.5, 0.5])).tolist()
    [0.5, 0.5]
    """
    if (vector <= 0).any():
        index = int(np.argmin(vector))
        raise InvalidDistributionError(f"{name} must have full support, but entry {index} is {vector[index]:.12g}")
    return vector


def as_stochastic_matrix(values: Any, name: str = "mechanism",
                         error: type[MechDesignError] = InvalidMechanismError) -> np.ndarray:
    """Validate a row-stochastic matrix (rows are inputs, columns outputs; or one distribution a row).

    Errors are ``error`` (:class:`InvalidMechanismError` unless the rows are, say, distributions).

    Examples
    --------
    >>> as_stochastic_matrix([[0.5, 0.5], [0.0, 1.0]], "histograms").shape
    (2, 2)
    """
    matrix = _clip_round_off(_as_float_array(values, name, 2, error), name, error)
    sums = matrix.sum(axis=1)
    bad_rows = np.flatnonzero(np.abs(sums - 1.0) > SUM_ATOL)
    if bad_rows.size:
        row = int(bad_rows[0])
        raise error(
            f"{name} is not row-stochastic: row {row} sums to {sums[row]:.12g} "
            f"(tolerance {SUM_ATOL:g}; {bad_rows.size} bad row(s))"
        )
    return matrix


def as_cost_matrix(values: Any, shape: tuple[int, int] | None = None, name: str = "cost") -> np.ndarray:
    """Validate a distortion (cost) matrix ``cost[x, y] = d(x, y)``: finite and non-negative.

    Examples
    --------
    >>> as_cost_matrix([[0, 1], [1, 0]], shape=(2, 2))
    array([[0., 1.],
           [1., 0.]])
    >>> as_cost_matrix([[0, -1], [1, 0]])
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: cost has a negative entry -1 at index (0, 1)
    """
    matrix = _as_float_array(values, name, 2, MechDesignError)
    if matrix.min() < 0:
        index = tuple(int(i) for i in np.argwhere(matrix < 0)[0])
        raise MechDesignError(f"{name} has a negative entry {float(matrix[index]):.12g} at index {index}")
    if shape is not None and matrix.shape != tuple(shape):
        raise ShapeMismatchError(f"{name} has shape {matrix.shape}, expected {tuple(shape)}")
    return matrix


def _short(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (error messages about large inputs stay readable)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _as_real(value: Any, name: str) -> float:
    message = f"{name} must be a number (a real scalar), got {_short(value)}"
    if (isinstance(value, (bool, np.bool_, str, bytes, complex, np.complexfloating, list, tuple))
            or isinstance(value, np.ndarray) and (value.ndim != 0 or value.dtype == bool)):
        raise InvalidBudgetError(message)
    try:
        number = float(value)
    except OverflowError:  # an integer (or fraction) beyond float64's range: as large as a float can say
        number = math.inf if value > 0 else -math.inf
    except (TypeError, ValueError) as exc:
        raise InvalidBudgetError(message) from exc
    if math.isnan(number):
        raise InvalidBudgetError(f"{name} is NaN")
    return number


def as_finite(value: Any, name: str, *, minimum: float | None = None) -> float:
    """Validate a finite real number (limits on distortion and other quantities), ``>= minimum`` if given.

    Examples
    --------
    >>> as_finite(3, "phi", minimum=2)
    3.0
    """
    number = _as_real(value, name)
    if math.isinf(number):
        raise MechDesignError(f"{name} must be finite, got {number!r}")
    if minimum is not None and number < minimum:
        raise MechDesignError(f"{name} must be a finite number >= {minimum:g}, got {number!r}")
    return number


def as_budget(value: Any, name: str = "epsilon", *, infinite: bool = False) -> float:
    """Validate a privacy budget: a number ≥ 0 (in nats), finite unless ``infinite`` allows ``math.inf``.

    Examples
    --------
    >>> as_budget(1)
    1.0
    >>> as_budget(math.inf, infinite=True)
    inf
    >>> as_budget(-0.5)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: epsilon must be a finite number >= 0, got -0.5
    """
    number = _as_real(value, name)
    if number < 0 or (math.isinf(number) and not infinite):
        kind = "a number >= 0 (or inf)" if infinite else "a finite number >= 0"
        raise InvalidBudgetError(f"{name} must be {kind}, got {number!r}")
    return number


def as_delta(value: Any, name: str = "delta") -> float:
    """Validate the δ of approximate differential privacy: 0 ≤ δ < 1.

    Examples
    --------
    >>> as_delta(1e-6)
    1e-06
    >>> as_delta(1)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: delta must satisfy 0 <= delta < 1, got 1.0
    """
    number = _as_real(value, name)
    if not 0.0 <= number < 1.0:
        raise InvalidBudgetError(f"{name} must satisfy 0 <= {name} < 1, got {number!r}")
    return number


def as_order(value: Any, name: str = "alpha") -> float:
    """Validate a Rényi/Sibson order: a finite number α > 1.

    Examples
    --------
    >>> as_order(2)
    2.0
    >>> as_order(1)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: alpha must be a finite number > 1, got 1.0
    """
    number = _as_real(value, name)
    if not 1.0 < number < math.inf:
        raise InvalidBudgetError(f"{name} must be a finite number > 1, got {number!r}")
    return number


def as_positive_int(value: Any, name: str, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Validate an integer ``>= minimum`` (1: a positive integer) and ``<= maximum`` if given
    (alphabet sizes, sample counts, numbers of categories or levels).

    Examples
    --------
    >>> as_positive_int(3, "d", minimum=2)
    3
    """
    largest = sys.maxsize if maximum is None else maximum  # no array has more entries than an index can count
    if (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum
            or value > largest):
        upper = "" if maximum is None else f" and <= {maximum}"
        if maximum is None and isinstance(value, (int, np.integer)) and value > largest:
            upper = f" and <= {largest} (the largest array index)"
        raise MechDesignError(f"{name} must be an integer >= {minimum}{upper}, got {_short(value)}")
    return int(value)


def as_array(values: Any, name: str, error: type[MechDesignError] = MechDesignError) -> np.ndarray:
    """``np.asarray(values)``, with ragged or unconvertible input a named error instead of numpy's.

    Examples
    --------
    >>> as_array([[0, 1], [1, 2]], "neighbours").shape
    (2, 2)
    """
    try:
        return np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise error(f"{name} must be a rectangular array, got {_short(values)} ({exc})") from exc


def as_neighbour_size(pairs: Any, n_inputs: Any) -> int:
    """The input alphabet size of a neighbour relation given as ``pairs`` (not ``None``).

    ``n_inputs`` when given; otherwise the side of a boolean adjacency matrix. A list of index pairs
    without ``n_inputs``, an integer 0/1 matrix (an adjacency matrix must be boolean), or something that
    is no relation at all (a notion, a class) is a :class:`MechDesignError` saying which.

    Examples
    --------
    >>> as_neighbour_size(np.eye(3, dtype=bool), None), as_neighbour_size([(0, 1)], 4)
    (3, 4)
    >>> as_neighbour_size(np.ones((3, 3), dtype=int), None)
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: neighbours is a 3 x 3 matrix of integers 0/1: an adjacency matrix must be boolean (pass matrix.astype(bool)); a list of index pairs needs n_inputs
    """
    if isinstance(pairs, (type, str, bytes, Mapping)) or not _is_iterable(pairs):
        what = f"the class {pairs.__name__}" if isinstance(pairs, type) else _short(pairs)
        raise MechDesignError(f"neighbours must be None (every pair), a list of index pairs (i, j) or a boolean "
                              f"adjacency matrix, got {what}")
    if n_inputs is not None:
        return as_positive_int(n_inputs, "n_inputs")
    array = as_array(pairs, "neighbours")
    if array.dtype == bool and array.ndim == 2:
        return as_positive_int(array.shape[0], "the side of the neighbour adjacency matrix")
    if (array.ndim == 2 and array.shape[0] == array.shape[1] and np.issubdtype(array.dtype, np.integer)
            and np.isin(array, (0, 1)).all()):
        raise MechDesignError(f"neighbours is a {array.shape[0]} x {array.shape[1]} matrix of integers 0/1: an "
                              "adjacency matrix must be boolean (pass matrix.astype(bool)); a list of index pairs "
                              "needs n_inputs")
    raise MechDesignError("n_inputs is required when neighbours are given as a list of pairs")


def as_neighbour_pairs(pairs: Iterable[tuple[int, int]] | np.ndarray, size: int) -> np.ndarray:
    """Validate a neighbour relation on ``{0, …, size-1}``.

    Accepts either an iterable of index pairs or a boolean ``size × size`` adjacency matrix. Returns
    the sorted unique unordered pairs ``(i, j)`` with ``i < j`` as an integer array of shape (k, 2).

    Examples
    --------
    >>> as_neighbour_pairs([(1, 0), (0, 1), (2, 1)], 3).tolist()
    [[0, 1], [1, 2]]
    >>> as_neighbour_pairs(np.array([[False, True], [False, False]]), 2).tolist()
    [[0, 1]]
    """
    array = as_array(pairs if not isinstance(pairs, (list, tuple)) else list(pairs), "neighbours")
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
    """Validate the values of a column utility μ on ``count`` columns: ``count`` finite numbers.

    Examples
    --------
    >>> as_sublinear_values([1, 2, 3], 3, "mu").tolist()
    [1.0, 2.0, 3.0]
    >>> as_sublinear_values([1, 2], 3, "mu")
    Traceback (most recent call last):
    mechdesign.exceptions.ShapeMismatchError: mu returned 2 values for 3 columns (one per column expected)
    """
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
    """Validate a probability of failure δ of an estimation guarantee: 0 < δ < 1.

    Examples
    --------
    >>> as_failure_probability(0.05)
    0.05
    >>> as_failure_probability(0)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: delta must satisfy 0 < delta < 1, got 0.0
    """
    number = _as_real(value, name)
    if not 0.0 < number < 1.0:
        raise InvalidBudgetError(f"{name} must satisfy 0 < {name} < 1, got {number!r}")
    return number


def as_indices(values: Any, size: int, name: str, *, ndim: int | None = 1, empty: bool = False,
               error: type[MechDesignError] = MechDesignError) -> np.ndarray:
    """Indices into ``{0, …, size-1}`` (samples of an alphabet, outputs, categories, a subset), as int64.

    Integers, or floats that are whole numbers; ``ndim`` dimensions (``None``: any shape); non-empty
    unless ``empty``. Anything else is an ``error`` (a :class:`MechDesignError`) naming the first bad
    entry.

    Examples
    --------
    >>> as_indices([2, 0, 1.0], 3, "samples").tolist()
    [2, 0, 1]
    """
    array = as_array(values, name, error)
    if ndim is not None and array.ndim != ndim or array.size == 0 and not empty:
        what = ("" if empty else "non-empty ") + ("array" if ndim is None else f"{ndim}-D sequence")
        raise error(f"{name} must be a {what} of indices, got shape {array.shape}")
    if array.size == 0:
        return array.astype(np.int64)
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
        raise error(f"{name} must hold integer indices, got dtype {array.dtype}")
    valid = (array >= 0) & (array < size)
    if array.dtype.kind == "f":
        valid &= array == np.round(array)  # NaN compares unequal: never valid
    if not valid.all():
        bad = np.argwhere(~valid)
        index = tuple(int(i) for i in bad[0])
        raise error(f"{name}[{', '.join(map(str, index))}] must be an integer in 0..{size - 1}, "
                    f"got {array[index].item()!r} ({len(bad)} bad of {array.size})")
    return array.astype(np.int64)


def as_secret_values(values: Any, name: str = "secret") -> np.ndarray:
    """Validate a secret map given as one secret value per input: a non-empty 1-D array.

    Values may be numbers or labels (strings); numbers must be finite. Returns a copy.

    Examples
    --------
    >>> as_secret_values(["a", "b", "a"]).tolist()
    ['a', 'b', 'a']
    >>> as_secret_values([0.0, math.nan])
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: secret has a non-finite value nan at index 1
    """
    array = as_array(values, name)
    if array.ndim != 1 or array.size == 0:
        raise MechDesignError(f"{name} must be a non-empty 1-D sequence of secret values, got shape {array.shape}")
    if array.dtype.kind in "fc" and not np.isfinite(array).all():
        index = int(np.flatnonzero(~np.isfinite(array))[0])
        raise MechDesignError(f"{name} has a non-finite value {array[index].item()!r} at index {index}")
    if array.dtype.kind not in "biufcUS":
        raise MechDesignError(f"{name} values must be numbers or strings, got dtype {array.dtype}")
    return array.copy()


def as_probability_budget(value: Any, name: str = "T") -> float:
    """Validate a budget that is a probability (summary statistic privacy, Wang et al.): 0 ≤ T ≤ 1.

    Examples
    --------
    >>> as_probability_budget(0.25)
    0.25
    >>> as_probability_budget(1.5)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: T must be a probability in [0, 1], got 1.5
    """
    number = _as_real(value, name)
    if not 0.0 <= number <= 1.0:
        raise InvalidBudgetError(f"{name} must be a probability in [0, 1], got {number!r}")
    return number


def as_positive_vector(values: Any, name: str, size: int | None = None) -> np.ndarray:
    """Validate a 1-D array of finite, strictly positive numbers (tolerances, quantization steps).

    Examples
    --------
    >>> as_positive_vector([0.1, 2], "steps").tolist()
    [0.1, 2.0]
    >>> as_positive_vector([0.1, 0], "steps")
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: steps must be strictly positive, but entry 1 is 0.0
    """
    vector = as_real_vector(values, name)
    if size is not None:
        check_count(vector.size, size, name)
    if (vector <= 0).any():
        index = int(np.argmin(vector))
        raise MechDesignError(f"{name} must be strictly positive, but entry {index} is {vector[index].item()!r}")
    return vector


def as_norm_order(value: Any, name: str = "p") -> float:
    """Validate the order of an ℓp norm: a number p ≥ 1 (``inf`` allowed).

    Examples
    --------
    >>> as_norm_order(2), as_norm_order(math.inf)
    (2.0, inf)
    >>> as_norm_order(0.5)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: p must be a norm order >= 1 (or inf), got 0.5
    """
    number = _as_real(value, name)
    if number < 1.0:
        raise InvalidBudgetError(f"{name} must be a norm order >= 1 (or inf), got {number!r}")
    return number


# --- types of the design arguments: solvers, executors (notions and objectives: privacy/base.py, utility/base.py)


def as_instance(value: Any, kind: type, name: str) -> Any:
    """Return ``value`` if it is an instance of ``kind``; else a :class:`MechDesignError` naming it.

    A class passed where an instance is expected (``DifferentialPrivacy`` for
    ``DifferentialPrivacy()``) gets a message saying so.

    Examples
    --------
    >>> as_instance(3, int, "count")
    3
    """
    if isinstance(value, kind):
        return value
    if isinstance(value, type) and issubclass(value, kind):
        raise MechDesignError(f"{name} must be an instance of {value.__name__}, got the class itself: "
                              f"call it, e.g. {value.__name__}(...)")
    raise MechDesignError(f"{name} must be an instance of {kind.__name__}, got {_short(value)} of type {type(value).__name__}")


def as_sequence(values: Any, name: str, error: type[MechDesignError] = MechDesignError) -> list[Any]:
    """Return a non-empty list of the items of ``values`` (a list, tuple, array or other iterable).

    Strings, mappings, scalars and ``None`` are refused (an ``error`` naming ``name``): they are
    never what a list argument means.

    Examples
    --------
    >>> as_sequence((0.5, 1.0), "budgets")
    [0.5, 1.0]
    """
    if isinstance(values, (str, bytes, Mapping)) or not _is_iterable(values):
        raise error(f"{name} must be a non-empty sequence, got {_short(values)}")
    items = list(values)
    if not items:
        raise error(f"{name} is empty")
    return items


def _is_iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def as_number_list(values: Any, name: str, validate: Any = None) -> list[float]:
    """A non-empty sequence of numbers, each checked by ``validate(value, name)`` (default :func:`as_budget`).

    Examples
    --------
    >>> as_number_list([0.5, 1], "budgets")
    [0.5, 1.0]
    """
    check = as_budget if validate is None else validate
    return [check(value, f"{name}[{index}]") for index, value in enumerate(as_sequence(values, name))]


def as_choice(value: Any, choices: Iterable[str], name: str, *, optional: bool = False) -> str | None:
    """One of the strings ``choices`` (case-insensitive, returned lower-case), or ``None`` if ``optional``.

    Examples
    --------
    >>> as_choice("HiGHS", ("highs", "clarabel"), "solver")
    'highs'
    """
    allowed = tuple(choices)
    if value is None and optional:
        return None
    if not isinstance(value, str) or value.lower() not in allowed:
        raise MechDesignError(f"{name} must be one of {allowed}{' or None' if optional else ''}, got {_short(value)}")
    return value.lower()


def as_members(values: Any, known: Iterable[Any], name: str, *, kind: str = "value",
               error: type[MechDesignError] = MechDesignError) -> list[Any]:
    """The items of ``values`` (a sequence, possibly empty, or one string), each one of ``known``
    (exact match), as a list.

    Unlike :func:`as_choice` (one case-insensitive keyword) this checks names and values that are
    data: column names, parameter names, secrets, the categories of a column. The ``error`` counts
    the unknown items and shows them (the first 10) and ``known`` (the first 20); ``kind`` says what
    ``known`` holds.

    Examples
    --------
    >>> as_members(["sex"], ("income", "sex"), "features", kind="feature")
    ['sex']
    """
    allowed = list(known)
    if isinstance(values, str):
        items = [values]
    else:
        items = [] if isinstance(values, (list, tuple)) and not values else as_sequence(values, name, error)
    try:
        lookup: Any = set(allowed)
    except TypeError:  # unhashable known values: compare one by one
        lookup = allowed
    unknown = [item for item in items if not _is_member(item, lookup)]
    if unknown:
        raise error(f"{name} holds {len(unknown)} value(s) that are not a known {kind}: {_first(unknown, 10)}; "
                    f"known: {_first(allowed, 20)}")
    return items


def _is_member(item: Any, lookup: Any) -> bool:
    try:
        return item in lookup
    except TypeError:  # an unhashable item is in no set
        return False


def _first(items: list[Any], count: int) -> str:
    """``repr`` of the first ``count`` items, with `` …`` when there are more."""
    return f"{items[:count]!r}{' …' if len(items) > count else ''}"


#: The solvers :func:`~mechdesign.solve.design` accepts.
DESIGN_SOLVERS = ("highs", "clarabel", "scs")


def as_solver(solver: Any, name: str = "solver") -> str | None:
    """``None`` (automatic choice) or one of :data:`DESIGN_SOLVERS`, lower-case.

    Examples
    --------
    >>> as_solver("Clarabel")
    'clarabel'
    """
    return as_choice(solver, DESIGN_SOLVERS, name, optional=True)


def as_options(options: Any, name: str = "solver_options") -> dict[str, Any] | None:
    """``None`` or a mapping with string keys (keyword arguments passed on to a solver), as a dict.

    Examples
    --------
    >>> as_options({"max_iter": 50})
    {'max_iter': 50}
    """
    if options is None:
        return None
    if not isinstance(options, Mapping) or not all(isinstance(key, str) for key in options):
        raise MechDesignError(f"{name} must be a mapping of option names to values, got {_short(options)}")
    return dict(options)


def as_executor(executor: Any, name: str = "executor") -> Any:
    """``None`` or an object with a callable ``submit`` (a :class:`concurrent.futures.Executor`).

    Examples
    --------
    >>> as_executor(None) is None
    True
    """
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise MechDesignError(f"{name} must be a concurrent.futures.Executor (with .submit), got {_short(executor)}")
    return executor


def as_callable(value: Any, name: str) -> Any:
    """A callable ``value`` (a function, a class), else a :class:`MechDesignError` naming it.

    Examples
    --------
    >>> as_callable(len, "function") is len
    True
    """
    if not callable(value):
        raise MechDesignError(f"{name} must be callable, got {_short(value)} of type {type(value).__name__}")
    return value


def call_user(function: Any, name: str, *args: Any) -> Any:
    """``function(*args)`` for a callable the caller passed as ``name``; a ``TypeError`` of the call itself
    (a class that takes other arguments, a function of another signature) is a :class:`MechDesignError`
    naming it.

    Examples
    --------
    >>> call_user(len, "function", [1, 2])
    2
    >>> call_user(dict.fromkeys, "function")
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: function = <built-in method fromkeys of type object at ...> cannot be called with 0 argument(s): fromkeys expected at least 1 argument, got 0
    """
    as_callable(function, name)
    try:
        return function(*args)
    except TypeError as exc:
        raise MechDesignError(f"{name} = {_short(function)} cannot be called with {len(args)} argument(s): {exc}") from exc


def as_flag(value: Any, name: str) -> bool:
    """A Python or numpy boolean scalar as ``bool``; anything else (an array, a number) a named error.

    Examples
    --------
    >>> as_flag(np.bool_(False), "robust")
    False
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise MechDesignError(f"{name} must be True or False, got {_short(value)} of type {type(value).__name__}")


def as_time_limit(value: Any, name: str = "time_limit") -> float | None:
    """``None`` (no limit) or a finite number of seconds > 0.

    Examples
    --------
    >>> as_time_limit(2)
    2.0
    """
    if value is None:
        return None
    number = _as_real(value, name)
    if not 0.0 < number < math.inf:
        raise MechDesignError(f"{name} must be a finite number of seconds > 0, got {number!r}")
    return number



def as_index(value: Any, size: int, name: str) -> int:
    """An integer in ``0 … size − 1`` (a category, a column), else a :class:`MechDesignError` naming it.

    Examples
    --------
    >>> as_index(2, 3, "category")
    2
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise MechDesignError(f"{name} must be an integer in 0..{size - 1}, got {value!r}")
    return int(value)


def as_histogram_counts(values: Any, name: str = "counts") -> np.ndarray:
    """A histogram as integer counts: 1-D, at least two categories, non-negative, a positive total.

    Examples
    --------
    >>> as_histogram_counts([3, 0, 1]).tolist()
    [3, 0, 1]
    """
    array = np.asarray(values)
    if (array.ndim != 1 or array.size < 2 or not np.issubdtype(array.dtype, np.integer) or array.min() < 0
            or array.sum() < 1):
        raise MechDesignError(f"{name} must be a 1-D array of >= 2 non-negative integers with a positive total, "
                              f"got {values!r}")
    return array.astype(np.int64)


def as_histogram_rows(values: Any, name: str = "histograms") -> np.ndarray:
    """``(K, d)`` histograms as integer counts: ``K >= 1``, ``d >= 2``, non-negative, one positive total.

    Examples
    --------
    >>> as_histogram_rows([[2, 0], [1, 1]]).shape
    (2, 2)
    """
    array = np.asarray(values)
    if (array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 2 or array.size == 0
            or not np.issubdtype(array.dtype, np.integer) or array.min() < 0
            or np.unique(array.sum(axis=1)).size != 1 or array.sum(axis=1)[0] < 1):
        raise MechDesignError(f"{name} must be a (K, d >= 2) array of non-negative integer counts with one "
                              f"positive total, got {values!r}")
    return array.astype(np.int64)


def as_positive_budget(value: Any, name: str = "epsilon") -> float:
    """A finite number ``> 0`` (a scale, a standard deviation, a budget that may not be 0).

    Examples
    --------
    >>> as_positive_budget(0.5, "sigma")
    0.5
    """
    number = as_budget(value, name)
    if number <= 0:
        raise InvalidBudgetError(f"{name} must be > 0, got {number!r}")
    return number


#: What a random seed may be: ``None`` (fresh entropy), an integer seed, or a numpy ``Generator``.
RandomState = Union[np.random.Generator, int, None]


def as_rng(value: Any, name: str = "rng") -> np.random.Generator:
    """``np.random.default_rng(value)`` (a Generator is returned as it is, so its stream continues),
    with a bad seed a named error instead of numpy's.

    Examples
    --------
    >>> float(as_rng(0).random()) == float(np.random.default_rng(0).random())
    True
    """
    try:
        return np.random.default_rng(value)
    except (TypeError, ValueError) as exc:
        raise MechDesignError(f"{name} must be None, a non-negative integer seed or a numpy Generator, "
                              f"got {_short(value)}") from exc
