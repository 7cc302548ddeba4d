"""Categorical data columns: learn an alphabet of hashable values and encode values as its indices.

A column is a list, a 1-D array, an ``(n, 1)`` array, a pandas Series or one-column DataFrame
(pandas is not required: anything with ``to_numpy`` works). Missing values (``None``, NaN, pandas'
``NA``) are errors, never a category.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._validate import as_members
from .exceptions import MechDesignError, UnknownCategoryError


def as_column(data: Any, name: str = "data") -> tuple[list, tuple[int, ...]]:
    """The values of a column as a list, and the shape to give a transformed column (``(n,)`` or ``(n, 1)``).

    Examples
    --------
    >>> as_column([["a"], ["b"]])
    (['a', 'b'], (2, 1))
    """
    array = np.asarray(data.to_numpy(dtype=object) if hasattr(data, "to_numpy") else data, dtype=object)
    if array.ndim == 2 and array.shape[1] == 1:
        values = array[:, 0]
    elif array.ndim == 1:
        values = array
    else:
        raise MechDesignError(f"{name} must be one column (1-D, or 2-D with one column), got shape {array.shape}")
    if values.size == 0:
        raise MechDesignError(f"{name} is empty")
    for index, value in enumerate(values):
        if _is_missing(value):
            raise MechDesignError(f"{name}[{index}] is a missing value ({value!r}); drop or impute missing values first")
        try:
            hash(value)
        except TypeError as exc:
            raise MechDesignError(f"{name}[{index}] = {value!r} is not hashable, so it cannot be a category") from exc
    return values.tolist(), array.shape


def learn_categories(data: Any, name: str = "data") -> tuple[tuple, np.ndarray]:
    """The categories of a column (at least 2) and the column encoded as their indices.

    Categories are sorted when they can be compared, else in order of first appearance; a pandas
    categorical keeps the order of its declared categories (those observed).

    Examples
    --------
    >>> learn_categories(["b", "a", "b"])
    (('a', 'b'), array([1, 0, 1]))
    """
    values, _ = as_column(data, name)
    observed = list(dict.fromkeys(values))
    declared = getattr(getattr(data, "cat", None), "categories", None)
    if declared is not None:
        present = set(observed)
        categories = tuple(value for value in declared if value in present)
    else:
        try:
            categories = tuple(sorted(observed))
        except TypeError:
            categories = tuple(observed)
    if len(categories) < 2:
        raise MechDesignError(f"{name} has {len(categories)} category ({categories!r}); privatizing needs at least 2")
    return categories, encode(values, categories, name)


def encode(data: Any, categories: Sequence[Any], name: str = "data", kind: str = "category") -> np.ndarray:
    """Indices of the values of a column in ``categories``; unknown values raise :class:`UnknownCategoryError`.

    Examples
    --------
    >>> encode(["b", "a"], ("a", "b"))
    array([1, 0])
    """
    values, _ = as_column(data, name)
    index = {category: position for position, category in enumerate(categories)}
    as_members(list(dict.fromkeys(values)), index, name, kind=kind, error=UnknownCategoryError)
    return np.array([index[value] for value in values], dtype=np.int64)


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN (float or numpy)
    except (TypeError, ValueError):
        return True  # pandas NA: its comparison has no truth value
