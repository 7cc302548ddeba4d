"""A design problem as received and the choice of the method that solves it.

:func:`design_spec` validates a problem once (:class:`DesignSpec`); :func:`choose_method` picks, from a table of
:class:`DesignMethod` entries passed in, the method that applies (:class:`MethodChoice`). The tables themselves
live above: ``problem.COMPILED_METHODS`` (the methods :class:`~mechdesign.problem.DesignProblem` runs) and
``solve.METHODS`` (every method of :func:`~mechdesign.solve.design`, in the order ``method="auto"`` tries them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from ._validate import as_options, as_solver
from .exceptions import MechDesignError, MethodNotApplicableError, ShapeMismatchError
from .privacy.base import PrivacyNotion, as_notions
from .result import Result
from .utility.base import Objective, as_objective, as_objectives


@dataclass(frozen=True)
class DesignSpec:
    """A design problem as received, validated (:func:`design_spec`): what a method's ``plan`` reads."""

    notions: list[PrivacyNotion]
    objective: Objective
    limits: list[Objective]
    solver: str | None
    solver_options: dict[str, Any] | None


def design_spec(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]], objective: Objective,
                limits: Sequence[Objective] = (), solver: str | None = None,
                solver_options: Mapping[str, Any] | None = None) -> DesignSpec:
    """Validate a problem once: types, every shape against the objective's, and a minimized objective.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> design_spec(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), solver="HiGHS").solver
    'highs'
    """
    spec = DesignSpec(as_notions(notions), as_objective(objective), as_objectives(limits, "limits"),
                      as_solver(solver), as_options(solver_options))
    shape = tuple(spec.objective.shape)
    for notion in spec.notions:
        notion.check_shape(shape[0])
    for limit in spec.limits:
        if tuple(limit.shape) != shape:
            raise ShapeMismatchError(f"limit {limit.label} is on {limit.shape}, objective on {shape}")
    if spec.objective.sense != "minimize":
        raise MechDesignError(
            f"the design problem maximizes {spec.objective.label}: maximizing a convex utility is not a convex "
            "program (DCP); use the extreme-column LP of mechdesign.utility.information")
    return spec


@dataclass(frozen=True)
class DesignMethod:
    """One way to solve a design problem; :data:`~mechdesign.solve.METHODS` lists them in the order
    ``method="auto"`` tries.

    Registering a designer is adding one entry to :data:`~mechdesign.solve.METHODS` where ``"auto"`` should try it.

    Attributes
    ----------
    name
        The value of ``design(method=...)`` and of ``Result.method``.
    applies
        When it applies, in words (for the documentation and for :class:`MethodNotApplicableError`).
    plan
        ``plan(spec)``: what the method prepares for the :class:`DesignSpec` (anything but ``None``), or
        ``None`` when it does not apply. It is called once per design: this is the dispatch.
    run
        ``run(spec, choice, budgets, limit_values)`` → :class:`~mechdesign.result.Result`.
    solvers
        The solvers it runs (``()``: none). A named ``solver=`` is run only by a method that lists it.
    takes_options
        Whether it passes ``solver_options`` to its solver (otherwise options rule it out).
    compiled
        Whether :class:`~mechdesign.problem.DesignProblem` runs it (re-solvable at new budgets, for curves and
        bisection).
    """

    name: str
    applies: str
    plan: Callable[[DesignSpec], Any]
    run: Callable[["DesignSpec", "MethodChoice", Any, list[float]], Result]
    solvers: tuple[str, ...] = ()
    takes_options: bool = False
    compiled: bool = False


@dataclass(frozen=True)
class MethodChoice:
    """The method chosen for a problem, its plan, and whether the caller named it (no fallback then)."""

    method: DesignMethod
    plan: Any
    named: bool


def _ruled_out(method: DesignMethod, spec: DesignSpec) -> str | None:
    """Why the solver choices of ``spec`` rule ``method`` out, or ``None``."""
    if spec.solver is not None and spec.solver not in method.solvers:
        return f"it runs {' or '.join(method.solvers) or 'no solver'}, not solver={spec.solver!r}"
    if spec.solver_options is not None and not method.takes_options:
        return "it takes no solver_options"
    return None


def choose_method(spec: DesignSpec, method: str, methods: Sequence[DesignMethod]) -> MethodChoice:
    """The method of ``methods`` that solves ``spec``: with ``"auto"`` the first that applies and runs the
    named solver, if any; otherwise the one named. The table is passed in (``solve.METHODS`` for
    :func:`~mechdesign.solve.design`, ``problem.COMPILED_METHODS`` for :class:`~mechdesign.problem.DesignProblem`):
    this module sits below both.

    Raises
    ------
    MethodNotApplicableError
        When ``method`` is not ``"auto"`` or a name of ``methods``, or does not apply (the message says
        why and which methods apply).

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> from mechdesign.solve import METHODS
    >>> spec = design_spec(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)))
    >>> choose_method(spec, "auto", METHODS).method.name
    'closed-form'
    >>> choose_method(design_spec(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)), solver="highs"),
    ...               "auto", METHODS).method.name  # a named solver asks for a solve by it: the direct LP runs HiGHS
    'direct-lp'
    """
    candidates = list(methods)
    names = [candidate.name for candidate in candidates]
    if method == "auto":
        for candidate in candidates:
            plan = None if _ruled_out(candidate, spec) else candidate.plan(spec)
            if plan is not None:
                return MethodChoice(candidate, plan, False)
        raise MethodNotApplicableError(f"method='auto': none of {names} applies to {_describe(spec)}")
    chosen = next((candidate for candidate in candidates if candidate.name == method), None)
    if chosen is None:
        raise MethodNotApplicableError(f"method must be 'auto' or one of {names}, got {method!r}")
    reason = _ruled_out(chosen, spec)
    plan = None if reason else chosen.plan(spec)
    if plan is None:
        usable = [c.name for c in candidates if not _ruled_out(c, spec) and c.plan(spec) is not None]
        raise MethodNotApplicableError(
            f"method={method!r} does not apply to {_describe(spec)}: {reason or 'it needs ' + chosen.applies}; "
            f"methods that apply: {usable or 'none'}")
    return MethodChoice(chosen, plan, True)


def _describe(spec: DesignSpec) -> str:
    notions = "/".join(notion.label for notion in spec.notions) or "no notion"
    limits = f" with {len(spec.limits)} limit(s)" if spec.limits else ""
    return f"{spec.objective.label} under {notions}{limits}"
