"""Overflow-safe elementary functions for budgets: ``e^ε`` is ``inf`` beyond the float range, never an error.

A privacy budget of 800 nats is valid (it is just very weak privacy), but ``math.exp(800)`` raises
``OverflowError``. Every ``e^ε`` of a budget goes through :func:`exp_budget`, whose result is
``math.inf`` there; callers either handle the limit exactly (randomized response tends to the
identity) or work with ``e^{-ε}``, which never overflows.
"""

from __future__ import annotations

import math


def exp_budget(exponent: float) -> float:
    """``e^exponent``, or ``math.inf`` when it exceeds the largest float (about ``e^709.78``).

    Examples
    --------
    >>> exp_budget(1.0) == math.e
    True
    >>> exp_budget(800.0)
    inf
    """
    try:
        return math.exp(exponent)
    except OverflowError:
        return math.inf
