"""Categorical data: tables of hashable values, declared alphabets, and values encoded as their indices.

A column is a list, a 1-D array, an ``(n, 1)`` array, a pandas Series or one-column DataFrame; a
table is a 2-D array, a list of rows or a DataFrame (pandas is not required: anything with
``to_numpy`` works). Values keep their Python objects (``1`` stays the integer 1 beside ``"a"``).
Missing values (``None``, NaN, pandas' ``NA``) and infinite numbers are errors, never a category.
Values are matched to categories by Python equality, so ``1``, ``1.0`` and ``True`` are one category.

Encoding costs one dictionary lookup per value (:func:`encode_values`); the slow explanation of a bad
value runs only when there is one.

Examples
--------
>>> table = as_table([["a", 1], ["b", 2]])
>>> table.values.shape, table.ndim
((2, 2), 2)
>>> encode(["b", "a", "b"], check_categories(["a", "b"]))
array([1, 0, 1])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np

from ._validate import _short, as_members
from .exceptions import MechDesignError, UnknownCategoryError


@dataclass(frozen=True)
class Table:
    """Data as a 2-D object array of its original values, with what the container said about it.

    Attributes
    ----------
    values
        ``(n, c)`` object array.
    feature_names
        The DataFrame's column names (an object array) when they are all strings, else ``None``.
    ndim
        1 when a 1-D column was given (a transformed column keeps that shape), else 2.
    declared
        For every column, the categories a pandas categorical column declares, or ``None``.
    """

    values: np.ndarray
    feature_names: np.ndarray | None
    ndim: int
    declared: tuple[tuple | None, ...]


def as_table(data: Any, name: str = "X") -> Table:
    """``data`` as a :class:`Table`: a 1-D column, a 2-D array, a list of rows or a DataFrame.

    In a Python list, a row is a list or an array; any other item (a tuple included) is one value.

    Examples
    --------
    >>> table = as_table([("x", 1), "a"])  # a tuple is one value
    >>> table.values.shape, table.values[0, 0]
    ((2, 1), ('x', 1))
    """
    names = None
    declared: tuple[tuple | None, ...] | None = None
    if hasattr(data, "to_numpy"):
        array = np.asarray(data.to_numpy(dtype=object), dtype=object)
        columns = getattr(data, "columns", None)
        if columns is not None and len(columns) and all(isinstance(column, str) for column in columns):
            names = np.asarray(list(columns), dtype=object)
        if columns is not None:
            declared = tuple(_declared_order(data.iloc[:, j]) for j in range(len(columns)))
        else:
            declared = (_declared_order(data),)
    elif hasattr(data, "tocsr") and hasattr(data, "nnz"):
        raise MechDesignError(f"{name} is a sparse matrix: sparse input is not supported (categories are values, "
                              "not counts); pass a dense array or a DataFrame")
    elif isinstance(data, np.ndarray) or hasattr(data, "__array__") and not isinstance(data, (list, tuple)):
        array = np.asarray(data)
        array = array if array.dtype == object else array.astype(object)
    elif isinstance(data, (str, bytes, Mapping)) or not isinstance(data, Iterable):
        raise MechDesignError(f"{name} must be a column or a table of values, got {_short(data)}")
    else:
        items = list(data)
        if items and isinstance(items[0], (list, np.ndarray)):
            width = len(items[0])
            ragged = [index for index, row in enumerate(items)
                      if not isinstance(row, (list, np.ndarray)) or len(row) != width]
            if ragged:
                raise MechDesignError(f"{name} must be a table of rows of equal length ({width}, the first row's); "
                                      f"row {ragged[0]} is {_short(items[ragged[0]])}")
            array = np.empty((len(items), width), dtype=object)
            for index, row in enumerate(items):
                array[index] = as_labels(row)
        else:
            array = np.fromiter(items, dtype=object, count=len(items))
    if array.ndim not in (1, 2):
        raise MechDesignError(f"{name} must be one column (1-D) or a table (2-D), got shape {array.shape}")
    if array.shape[0] == 0:
        raise MechDesignError(f"{name} is empty: 0 sample(s) (shape={array.shape}) while a minimum of 1 is required.")
    if array.size == 0:
        raise MechDesignError(f"{name} has 0 feature(s) (shape={array.shape}) while a minimum of 1 is required.")
    ndim = array.ndim
    values = array.reshape(-1, 1) if ndim == 1 else array
    return Table(values, names, ndim, declared or (None,) * values.shape[1])


def as_column(data: Any, name: str = "data") -> tuple[np.ndarray, tuple[int, ...]]:
    """The values of one column as a 1-D object array, and the shape of the column given
    (``(n,)`` or ``(n, 1)``).

    Examples
    --------
    >>> values, shape = as_column([["a"], ["b"]])
    >>> values.tolist(), shape
    (['a', 'b'], (2, 1))
    """
    table = as_table(data, name)
    if table.values.shape[1] != 1:
        raise MechDesignError(f"{name} must be one column (1-D, or 2-D with one column), got shape {table.values.shape}")
    shape = (table.values.shape[0],) if table.ndim == 1 else table.values.shape
    return table.values[:, 0], shape


def check_categories(categories: Any, name: str = "categories") -> tuple:
    """A declared alphabet as a tuple: at least 2 distinct categories, each hashable, not missing and,
    for a number, finite.

    Equal values (``1``, ``1.0``, ``True``) are one category, so declaring two of them is an error.

    Examples
    --------
    >>> check_categories(("b", "a", 3))
    ('b', 'a', 3)
    >>> check_categories(["a", "b", "a"])
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: categories repeats ['a'] (equal values, e.g. 1, 1.0 and True, are one category)
    """
    if isinstance(categories, np.ndarray):
        categories = categories.tolist()
    if isinstance(categories, (str, bytes, Mapping)) or not isinstance(categories, Iterable):
        raise MechDesignError(f"{name} must be a sequence of categories, got {_short(categories)}")
    items = tuple(categories)
    for index, value in enumerate(items):
        problem = _category_problem(value)
        if problem:
            raise MechDesignError(f"{name}[{index}] = {_short(value)} {problem}")
    distinct = dict.fromkeys(items)
    if len(distinct) < len(items):
        seen: set[Any] = set()
        repeated = []
        for value in items:
            if value in seen:
                repeated.append(value)
            seen.add(value)
        raise MechDesignError(f"{name} repeats {repeated!r} (equal values, e.g. 1, 1.0 and True, are one category)")
    if len(items) < 2:
        raise MechDesignError(f"{name} has {len(items)} category ({items!r}); privatizing needs at least 2")
    return items


def learn_categories(data: Any, name: str = "data", order: Sequence[Any] | None = None) -> tuple[tuple, np.ndarray]:
    """The categories of a column (at least 2) and the column encoded as their indices.

    Categories are sorted when they can be compared, else in order of first appearance; a pandas
    categorical (or ``order``) keeps its declared order (of the categories observed).

    Examples
    --------
    >>> learn_categories(["b", "a", "b"])
    (('a', 'b'), array([1, 0, 1]))
    """
    values, _ = as_column(data, name)
    declared = _declared_order(data) if order is None else tuple(order)
    try:
        observed = list(dict.fromkeys(values))
    except TypeError:
        _explain(values, {}, name, "category")
        raise  # pragma: no cover - _explain always raises for an unhashable value
    for value in observed:
        if _category_problem(value):
            _explain(values, {}, name, "category")
    if declared is not None:
        present = set(observed)
        categories = tuple(value for value in declared if value in present)
    else:
        try:
            categories = tuple(sorted(observed))
        except TypeError:
            categories = tuple(observed)
    if len(categories) < 2:
        raise MechDesignError(f"{name} has {len(categories)} category ({categories!r}) in {len(values)} sample(s); "
                              "privatizing needs at least 2")
    return categories, encode_values(values, index_of(categories), name)


def index_of(labels: Sequence[Any]) -> dict[Any, int]:
    """``{label: position}`` for a sequence of distinct labels (categories or a mechanism's output labels).

    Examples
    --------
    >>> index_of(("a", ("a", "b")))
    {'a': 0, ('a', 'b'): 1}
    """
    return {label: position for position, label in enumerate(labels)}


def encode(data: Any, categories: Sequence[Any], name: str = "data", kind: str = "category") -> np.ndarray:
    """Indices of the values of a column in ``categories``; unknown values raise :class:`UnknownCategoryError`.

    Examples
    --------
    >>> encode(["b", "a"], ("a", "b"))
    array([1, 0])
    """
    values, _ = as_column(data, name)
    return encode_values(values, index_of(categories), name, kind)


def encode_values(values: np.ndarray, lookup: Mapping[Any, int], name: str = "data",
                  kind: str = "category") -> np.ndarray:
    """``lookup[value]`` for every value of a 1-D object array, as int64: one dictionary lookup per value.

    A missing, unhashable or unknown value raises a named error (:class:`UnknownCategoryError` for an
    unknown one, listing every distinct unknown value).

    Examples
    --------
    >>> encode_values(np.array(["b", "a"], dtype=object), {"a": 0, "b": 1})
    array([1, 0])
    """
    try:
        codes = np.fromiter(map(lookup.get, values, repeat(-1)), dtype=np.int64, count=len(values))
    except TypeError:  # an unhashable value
        _explain(values, lookup, name, kind)
        raise  # pragma: no cover - _explain always raises for an unhashable value
    if codes.size and codes.min() < 0:
        _explain(values, lookup, name, kind)
    return codes


def as_labels(labels: Iterable[Any]) -> np.ndarray:
    """A 1-D object array holding each label as one element (a tuple label stays a tuple).

    Examples
    --------
    >>> as_labels([("a", "b"), ("c", "d")]).shape
    (2,)
    """
    items = list(labels)
    return np.fromiter(items, dtype=object, count=len(items))


def _explain(values: np.ndarray, lookup: Mapping[Any, int], name: str, kind: str) -> None:
    """Raise the error that explains why ``values`` cannot be encoded (the slow path: errors only)."""
    for index, value in enumerate(values):
        try:
            hash(value)
        except TypeError as exc:
            raise MechDesignError(f"{name}[{index}] = {_short(value)} is not hashable, so it cannot be a {kind}") from exc
        if value not in lookup:
            problem = _category_problem(value)
            if problem:
                raise MechDesignError(f"{name}[{index}] = {_short(value)} {problem}")
    unknown = [value for value in dict.fromkeys(values) if value not in lookup]
    as_members(unknown, lookup, name, kind=kind, error=UnknownCategoryError)


def _category_problem(value: Any) -> str:
    """Why ``value`` cannot be a category (``""`` if it can)."""
    try:
        hash(value)
    except TypeError:
        return "is not hashable, so it cannot be a category"
    if _is_missing(value):
        return "is a missing value (None, NaN or NA); drop or impute missing values first"
    if isinstance(value, (complex, np.complexfloating)):
        return "is a complex number: Complex data not supported as a category"
    if isinstance(value, (float, np.floating)) and math.isinf(value):
        return "is an infinite number (inf), which cannot be a category"
    return ""


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN (float or numpy)
    except (TypeError, ValueError):
        return True  # pandas NA: its comparison has no truth value


def _declared_order(data: Any) -> tuple | None:
    """The categories a pandas categorical column declares, or ``None``."""
    declared = getattr(getattr(data, "cat", None), "categories", None)
    return None if declared is None else tuple(declared.tolist())
