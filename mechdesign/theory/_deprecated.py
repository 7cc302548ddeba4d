"""Deprecated names of the closed forms (0.1.0), kept for one release as aliases that warn."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any


def deprecated_alias(function: Callable[..., Any], old_name: str) -> Callable[..., Any]:
    """``function`` under its 0.1.0 name ``old_name``: each call emits a ``DeprecationWarning`` naming the new one.

    Examples
    --------
    >>> import warnings
    >>> old = deprecated_alias(abs, "magnitude")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old(-2), str(caught[0].message)
    (2, 'magnitude is deprecated since 0.2.0; use abs')
    """
    @functools.wraps(function)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"{old_name} is deprecated since 0.2.0; use {function.__name__}", DeprecationWarning, stacklevel=2)
        return function(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old_name
    alias.__doc__ = f"Deprecated since 0.2.0: use :func:`{function.__name__}`."
    return alias
