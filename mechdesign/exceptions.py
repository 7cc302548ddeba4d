"""Exceptions raised by mechdesign.

Every error caused by bad input is a :class:`MechDesignError`, itself a :class:`ValueError`, so
``except ValueError`` keeps working for callers that do not care about the distinction. Solver
failures and infeasible designs are *not* exceptions where a :class:`~mechdesign.result.Result` is
returned: they are results with ``success=False``. Functions that return a raw number instead (an exact
measure, a least attainable value) raise :class:`SolverFailedError` — never an input error, never
``inf`` or "infeasible" — when their solver gives no usable answer.
"""

from __future__ import annotations


class MechDesignError(ValueError):
    """Base class of every input error raised by mechdesign."""


class InvalidMechanismError(MechDesignError):
    """A matrix is not a valid mechanism (not finite, negative entries, rows not summing to 1)."""


class InvalidDistributionError(MechDesignError):
    """A prior or a source-set element is not a probability vector (or lacks a required support)."""


class InvalidBudgetError(MechDesignError):
    """A privacy budget or notion parameter is out of its domain (ε < 0, δ ∉ [0, 1), α ≤ 1, …)."""


class ShapeMismatchError(MechDesignError):
    """Objects that must share an alphabet (prior, mechanism, cost matrix, notion) do not."""


class ProblemTooLargeError(MechDesignError):
    """A requested computation exceeds the size for which it is practical; the message says why."""


class NotFittedError(MechDesignError):
    """An estimator (e.g. :class:`~mechdesign.privatizer.Privatizer`) was used before ``fit``."""


class UnknownCategoryError(MechDesignError):
    """Data holds a category (or a privatized output) that the fitted alphabet does not contain."""


class NotEstimableError(MechDesignError):
    """Frequencies cannot be estimated without bias: the mechanism does not determine some categories."""


class MissingDependencyError(MechDesignError):
    """An optional dependency (an extra of the package) is needed and not installed; the message says which."""


class MethodNotApplicableError(MechDesignError):
    """A design method was named that does not exist or does not apply to the problem (the message
    names the argument, the value, and the methods that apply)."""


class SolverFailedError(RuntimeError):
    """A solver gave no usable answer inside a function that returns a raw value, not a ``Result``.

    Not a :class:`MechDesignError`: the input was valid. The message names the solver's status.
    """
