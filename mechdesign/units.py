"""Units of information: the library computes in nats; bits are a presentation choice.

Every leakage, budget and information quantity in mechdesign is in nats (natural logarithms). The
command line's ``--units bits`` converts at its edges — budgets read, leakages printed and plotted —
with the two functions here, the one place where the conversion lives.
"""

from __future__ import annotations

import math

from ._validate import as_choice

#: The supported units of information.
UNITS = ("nats", "bits")

_NATS_PER_UNIT = {"nats": 1.0, "bits": math.log(2.0)}


def _nats_per(unit: str) -> float:
    return _NATS_PER_UNIT[as_choice(unit, UNITS, "unit")]


def to_nats(value: float, unit: str) -> float:
    """``value`` given in ``unit`` (``"nats"`` or ``"bits"``), expressed in nats.

    Examples
    --------
    >>> round(to_nats(1.0, "bits"), 6)  # log 2
    0.693147
    >>> to_nats(0.5, "nats")
    0.5
    """
    return value * _nats_per(unit)


def from_nats(value: float, unit: str) -> float:
    """``value`` in nats, expressed in ``unit`` (``"nats"`` or ``"bits"``).

    Examples
    --------
    >>> import math
    >>> from_nats(math.log(4), "bits")
    2.0
    """
    return value / _nats_per(unit)


__all__ = ["UNITS", "from_nats", "to_nats"]
