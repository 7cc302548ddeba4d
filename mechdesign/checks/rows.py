"""A closed form compared with a numerical value: the row, its verdict and the comparison tolerance.

A row holds the statement (paper and number), the parameter point, the closed-form value (a number,
or a ``(lower, upper)`` pair for a bound), the numerical value it is compared with (the optimizer,
an exact enumeration or an exact measurement), the gap and a verdict.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

#: A closed form that is an exact statement must agree with the numerical value within this (nats,
#: probability or distortion units); a bound may be violated by at most this much.
CLOSED_FORM_ATOL = 1e-6

MATCH, BOUND_HOLDS, MISMATCH, BOUND_FAILS, FAILED = "match", "bound holds", "mismatch", "bound fails", "failed"
#: Every verdict, the agreeing ones first.
VERDICTS = (MATCH, BOUND_HOLDS, MISMATCH, BOUND_FAILS, FAILED)

ClosedForm = Union[float, tuple[float, float]]
Parameters = Mapping[str, Union[float, int, str]]


@dataclass(frozen=True)
class CheckRow:
    """One closed form evaluated at one parameter point and compared with a numerical value.

    Attributes
    ----------
    formula
        Paper and statement, e.g. ``"PUT Prop. 8(1) DP"``.
    parameters
        The parameter point, e.g. ``{"m": 3, "D": 0.2}``; the last numeric entry is the swept one
        (the abscissa of ``--plots``).
    quantity
        What is compared, e.g. ``"epsilon"`` (ε*(D)), ``"distortion"`` (D*(ε)), ``"SML"``.
    closed_form
        The closed-form value, or a ``(lower, upper)`` pair for a bound (``±inf`` for a one-sided one).
    numeric
        The numerical value of the same quantity (NaN if the solver failed).
    gap
        ``closed_form − numeric`` for an exact statement; for a bound the smaller margin
        ``min(numeric − lower, upper − numeric)``, negative when the bound is violated.
    verdict
        One of :data:`VERDICTS`.

    Examples
    --------
    >>> row = compare("PUT Prop. 8(1) DP", {"m": 3, "D": 0.2}, "epsilon", 2.079442, 2.0794415)
    >>> row.verdict, row.label, row.ok
    ('match', 'm=3, D=0.2', True)
    """

    formula: str
    parameters: Parameters
    quantity: str
    closed_form: ClosedForm
    numeric: float
    gap: float
    verdict: str
    atol: float = field(default=CLOSED_FORM_ATOL, compare=False)

    @property
    def ok(self) -> bool:
        """Whether the closed form agrees with the numerical value (match or bound holds)."""
        return self.verdict in (MATCH, BOUND_HOLDS)

    @property
    def label(self) -> str:
        """The parameters as ``"k=v, …"``."""
        return ", ".join(f"{k}={_short(v)}" for k, v in self.parameters.items())


def _short(value: float | int | str) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def compare(formula: str, parameters: Parameters, quantity: str, closed_form: ClosedForm, numeric: float,
            atol: float = CLOSED_FORM_ATOL, *, certified: bool = True) -> CheckRow:
    """Build the row comparing ``closed_form`` (a number or ``(lower, upper)``) with ``numeric``.

    ``certified=False`` marks a numerical value the solver did not certify optimal (e.g. cvxpy's
    ``"optimal_inaccurate"``): agreement still counts, but a disagreement is the solver's ``failed``,
    not the paper's ``mismatch`` or ``bound fails``.

    Examples
    --------
    >>> compare("f", {"D": 0.2}, "epsilon", 1.0, 1.0 + 1e-9).verdict
    'match'
    >>> compare("f", {"D": 0.2}, "epsilon", (0.0, 0.5), 0.7).verdict
    'bound fails'
    >>> compare("f", {"D": 0.2}, "epsilon", (0.0, 0.5), 0.7, certified=False).verdict
    'failed'
    """
    parameters = dict(parameters)
    if not math.isfinite(numeric):
        return CheckRow(formula, parameters, quantity, closed_form, numeric, math.nan, FAILED, atol)
    if isinstance(closed_form, tuple):
        lower, upper = closed_form
        gap = min(numeric - lower, upper - numeric)
        verdict = BOUND_HOLDS if gap >= -atol else BOUND_FAILS
    else:
        gap = closed_form - numeric
        verdict = MATCH if abs(gap) <= atol else MISMATCH
    if not certified and verdict in (MISMATCH, BOUND_FAILS):
        verdict = FAILED
    return CheckRow(formula, parameters, quantity, closed_form, numeric, gap, verdict, atol)


def lower_bound(value: float) -> tuple[float, float]:
    """A one-sided lower bound as a ``(lower, upper)`` pair.

    Examples
    --------
    >>> lower_bound(0.5)
    (0.5, inf)
    """
    return (float(value), math.inf)


def upper_bound(value: float) -> tuple[float, float]:
    """A one-sided upper bound as a ``(lower, upper)`` pair.

    Examples
    --------
    >>> upper_bound(0.5)
    (-inf, 0.5)
    """
    return (-math.inf, float(value))


def verdict_counts(rows: list[CheckRow]) -> dict[str, int]:
    """How many rows have each verdict (verdicts with no row are left out).

    Examples
    --------
    >>> verdict_counts([compare("f", {}, "x", 1.0, 1.0)])
    {'match': 1}
    """
    counts = {verdict: sum(row.verdict == verdict for row in rows) for verdict in VERDICTS}
    return {verdict: count for verdict, count in counts.items() if count}
