"""A closed form compared with a numerical value: the row, its verdict and the comparison tolerance.

A row holds the statement (paper and number), the parameter point, the closed-form value (a number,
or a ``(lower, upper)`` pair for a bound), the numerical value it is compared with (the optimizer,
an exact enumeration or an exact measurement), the gap and a verdict.

A row keeps its closed form as a formula — a function of no arguments that calls
:mod:`mechdesign.theory` — so that the self-test (:mod:`mechdesign.checks.mutation`) can evaluate it
again with a closed form perturbed. The numerical value is computed without any closed form: the
functions of :mod:`mechdesign.theory` may be called only inside a row's formula or inside
:func:`parameter_choice` (where a closed form only decides *where* to compare, e.g. a breakpoint of
a grid), and the self-test reports every other call.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
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
#: A row's closed form as a function of no arguments (it may also be given as its value).
Formula = Callable[[], ClosedForm]

#: How deep the evaluation currently is in a row's formula and in :func:`parameter_choice` (read by the
#: self-test's tracer: a closed form evaluated outside both feeds a numerical value).
_DEPTH = {"formula": 0, "choice": 0}


@contextmanager
def _within(scope: str) -> Iterator[None]:
    _DEPTH[scope] += 1
    try:
        yield
    finally:
        _DEPTH[scope] -= 1


def parameter_choice() -> contextlib.AbstractContextManager[None]:
    """The closed forms evaluated within choose the parameter point of a row (a grid's breakpoints, the
    tightest of several events), not a value it compares.

    Examples
    --------
    >>> with parameter_choice():
    ...     scope()
    'choice'
    >>> scope() is None
    True
    """
    return _within("choice")


def scope() -> str | None:
    """``"formula"`` while a row's formula is evaluated, ``"choice"`` within :func:`parameter_choice`, else
    ``None`` (a closed form called then feeds a numerical value).

    Examples
    --------
    >>> scope() is None
    True
    """
    if _DEPTH["formula"]:
        return "formula"
    return "choice" if _DEPTH["choice"] else None


def evaluate(value: ClosedForm | Formula | float | Callable[[], float]) -> ClosedForm:
    """``value()`` evaluated as a row's formula (see :func:`scope`), or ``value`` itself if it is not callable.

    Examples
    --------
    >>> evaluate(lambda: (0.0, 1.0)), evaluate(2.0)
    ((0.0, 1.0), 2.0)
    """
    if not callable(value):
        return value
    with _within("formula"):
        return value()


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
    atol
        The tolerance of the comparison.
    certified
        Whether the numerical value is certified (see :func:`compare`).
    closed_formula, numeric_formula
        The formulas the closed form and (for a relation between closed forms or exact measures) the
        numerical value were evaluated from, or ``None`` when given as values.

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
    certified: bool = field(default=True, compare=False)
    closed_formula: Formula | None = field(default=None, compare=False, repr=False)
    numeric_formula: Callable[[], float] | None = field(default=None, compare=False, repr=False)

    @property
    def is_bound(self) -> bool:
        """Whether the statement is a bound (its closed form a ``(lower, upper)`` pair); its ``gap`` is
        then the slack, how far the numerical value is from the nearer side.

        Examples
        --------
        >>> compare("f", {}, "x", (0.0, 1.0), 0.9).is_bound, compare("f", {}, "x", 1.0, 1.0).is_bound
        (True, False)
        """
        return isinstance(self.closed_form, tuple)

    def recompute(self) -> CheckRow:
        """The row with its formulas evaluated again (the stored values where there are none); a formula
        that raises gives a ``failed`` row.

        Examples
        --------
        >>> row = compare("f", {}, "x", lambda: 1.0, 1.0)
        >>> row.recompute() == row
        True
        """
        try:
            return compare(self.formula, self.parameters, self.quantity, self.closed_formula or self.closed_form,
                           self.numeric_formula or self.numeric, self.atol, certified=self.certified)
        except Exception:  # noqa: BLE001 - a formula that cannot be evaluated is a failed row
            return CheckRow(self.formula, self.parameters, self.quantity, self.closed_form, math.nan, math.nan,
                            FAILED, self.atol, self.certified, self.closed_formula, self.numeric_formula)

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


def compare(formula: str, parameters: Parameters, quantity: str, closed_form: ClosedForm | Formula,
            numeric: float | Callable[[], float], atol: float = CLOSED_FORM_ATOL, *, certified: bool = True) -> CheckRow:
    """Build the row comparing ``closed_form`` (a number or ``(lower, upper)``) with ``numeric``.

    ``closed_form`` is given as its formula (a function of no arguments, evaluated here by
    :func:`evaluate` and kept for :meth:`CheckRow.recompute`); a value is accepted for rows built by
    hand. ``numeric`` may be a formula too where the statement relates two closed forms or exact
    measures (its evaluation is then cheap and repeated by the self-test).

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
    formulas = (closed_form if callable(closed_form) else None, numeric if callable(numeric) else None)
    closed_form, numeric = evaluate(closed_form), float(evaluate(numeric))
    row = _row(formula, dict(parameters), quantity, closed_form, numeric, atol, certified)
    return dataclasses.replace(row, closed_formula=formulas[0], numeric_formula=formulas[1])


def _row(formula: str, parameters: Parameters, quantity: str, closed_form: ClosedForm, numeric: float, atol: float,
         certified: bool) -> CheckRow:
    if not math.isfinite(numeric):
        return CheckRow(formula, parameters, quantity, closed_form, numeric, math.nan, FAILED, atol, certified)
    if isinstance(closed_form, tuple):
        lower, upper = closed_form
        gap = min(numeric - lower, upper - numeric)
        verdict = BOUND_HOLDS if gap >= -atol else BOUND_FAILS
    else:
        gap = closed_form - numeric
        verdict = MATCH if abs(gap) <= atol else MISMATCH
    if not certified and verdict in (MISMATCH, BOUND_FAILS):
        verdict = FAILED
    return CheckRow(formula, parameters, quantity, closed_form, numeric, gap, verdict, atol, certified)


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
