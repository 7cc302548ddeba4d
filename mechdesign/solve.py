"""Optimal mechanism design, the dispatch: :func:`design` and the table of its methods, :data:`METHODS`.

:func:`design` is the one-call entry point: it validates the problem (:func:`~mechdesign.specification.design_spec`),
chooses the first method of :data:`METHODS` that applies (:func:`choose_method`) and runs it. The compiled
problem, :class:`~mechdesign.problem.DesignProblem`, runs the methods re-solvable at new budgets (curves,
bisection); the others are in ``mechdesign/methods/``. The names of the specification and of the compiled problem
are importable from here as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

from .methods import blahut_arimoto, hockey_stick, metric, renyi_pairs, sml_cuts
from .methods.certified import single_budget
from .methods.closed_form import design_hamming, hamming_problem
from .privacy.base import PrivacyNotion
# The specification's and the compiled problem's names are imported here too, where callers have found them.
from .problem import (BYTES_PER_NONZERO, COLUMN_GENERATION, CVXPY, DIRECT_LP, HIGHS_MAX_ENTRIES,
                      MAX_CONSTRAINT_SCALE, NOT_TRIED, DesignProblem, choose_solver, estimated_nonzeros)
from .result import GAP_RTOL, LIMIT_ATOL, Result
from .specification import DesignMethod, DesignSpec, MethodChoice, design_spec
from .specification import choose_method as choose_from
from .utility.base import Objective, as_limit_pairs


def choose_method(spec: DesignSpec, method: str = "auto",
                  methods: Sequence[DesignMethod] | None = None) -> MethodChoice:
    """The method that solves ``spec``: with ``"auto"`` the first of ``methods`` (default :data:`METHODS`)
    that applies and runs the named solver, if any; otherwise the one named
    (:func:`mechdesign.specification.choose_method` over that table, which documents its errors).

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> spec = design_spec(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)))
    >>> choose_method(spec).method.name
    'closed-form'
    >>> choose_method(design_spec(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)), solver="highs")
    ...               ).method.name  # a named solver asks for a solve by it: the direct LP runs HiGHS
    'direct-lp'
    """
    return choose_from(spec, method, METHODS if methods is None else methods)


#: Most inputs at which ``method="auto"`` retries through cvxpy a design that pair generation did not certify (its
#: problem with every pair: n = 20 in 4–5 s CPU; n = 40 over 20 minutes).
PAIRS_FALLBACK_INPUTS = 20


def _design_by_pairs(spec: DesignSpec, choice: MethodChoice, budgets: Any, limit_values: Sequence[float]) -> Result:
    """Pair generation (:mod:`mechdesign.methods.renyi_pairs`); under ``"auto"``, first the unconstrained optimum where it
    meets the budget (:meth:`~mechdesign.problem.DesignProblem.unconstrained_result`), and a design pair generation
    does not certify on at most :data:`PAIRS_FALLBACK_INPUTS` inputs retried through cvxpy, the certified (else the
    successful, smaller) of the two returned (large budgets, ε = 20: Clarabel fails on the first working set where cvxpy's
    problem certifies; benchmarks/notes/2026-11-28-hostile-2026-11-28b.md, H-1 and H-5)."""
    retry = choose_method(spec, "cvxpy")
    compiled = DesignProblem.planned(spec, retry)  # compiled only if solved below
    budget = single_budget(budgets, spec.notions[0].label)
    shortcut = None if choice.named else compiled.unconstrained_result([budget])
    if shortcut is not None:  # large budgets (ε = 30 at n = 21: Clarabel fails on pair generation's first working set)
        return shortcut
    result = renyi_pairs.design_renyi_pairs(spec.notions, budgets, spec.objective)
    if result.status == "optimal" or choice.named or spec.objective.shape[0] > PAIRS_FALLBACK_INPUTS:
        return result
    fallback = compiled.solve(budgets, limit_values)
    better = fallback.status == "optimal" or (fallback.success and (
        not result.success or fallback.objective < result.objective))
    return fallback if better else result


#: The design methods, in the order ``method="auto"`` tries them
#: (:class:`~mechdesign.specification.DesignMethod`). "auto" takes the first that applies (and runs the named
#: solver, when one is named): an exact closed form needs no solver; the direct LP builds the LP straight for HiGHS;
#: cvxpy solves every convex problem.
METHODS: tuple[DesignMethod, ...] = (
    DesignMethod("closed-form",
                 "one notion with a registered Hamming closed form (local DP, maximal leakage), an "
                 "ExpectedDistortion whose cost is a positive multiple of Hamming, and no limits",
                 lambda spec: hamming_problem(spec.notions, spec.objective, spec.limits),
                 lambda spec, choice, budgets, limit_values: design_hamming(choice.plan, budgets)),
    DesignMethod("hockey-stick-cuts",
                 "one hockey-stick ApproximateDifferentialPrivacy, an ExpectedDistortion, no limits, and at least "
                 "methods.hockey_stick.MIN_INPUTS inputs (with every pair neighbouring, first an ε-DP-plus-δ-leak "
                 "restriction against the pointwise relaxation's bound; then lazy hinge generation in one warm "
                 "HiGHS model)",
                 lambda spec: True if hockey_stick.applies(spec.notions, spec.objective, spec.limits) else None,
                 lambda spec, choice, budgets, limit_values: hockey_stick.design_hockey_stick(
                     spec.notions, budgets, spec.objective), solvers=("highs",)),
    DesignMethod("blahut-arimoto",
                 "one MutualInformationPrivacy under one prior, an ExpectedDistortion under the same prior, and "
                 "no limits (the distortion-rate function, certified by Blahut's dual)",
                 lambda spec: True if blahut_arimoto.applies(spec.notions, spec.objective, spec.limits) else None,
                 lambda spec, choice, budgets, limit_values: blahut_arimoto.design_distortion_rate(
                     spec.notions, budgets, spec.objective)),
    DesignMethod("metric-cone",
                 "one MetricDifferentialPrivacy, an ExpectedDistortion on its inputs, and no limits (column generation "
                 "over the d-privacy cone, each output priced exactly by a transport LP, the dual bound checked in "
                 "numpy)",
                 lambda spec: True if metric.applies(spec.notions, spec.objective, spec.limits) else None,
                 lambda spec, choice, budgets, limit_values: metric.design_metric(spec.notions, budgets,
                                                                                  spec.objective),
                 solvers=("highs",)),
    COLUMN_GENERATION,
    DIRECT_LP,
    DesignMethod("constraint-generation",
                 "one StatisticMaximalLeakage whose secret has more than privacy.sml.CONSTRAINT_MAX_SELECTIONS "
                 "selections (too many to write as constraints), an expected or worst-case distortion, and no limits "
                 "(the most violated selection found exactly and added as a cut in one warm HiGHS model)",
                 lambda spec: True if sml_cuts.applies(spec.notions, spec.objective, spec.limits) else None,
                 lambda spec, choice, budgets, limit_values: sml_cuts.design_large_sml(
                     spec.notions, budgets, spec.objective), solvers=("highs",)),
    DesignMethod("pair-generation",
                 "one RenyiDifferentialPrivacy whose neighbours are not a path, an ExpectedDistortion on at least "
                 "methods.renyi_pairs.MIN_INPUTS inputs, and no limits (the conic problem on a working set of ordered "
                 "pairs and outputs written straight for Clarabel, every pair measured in numpy and the violated ones "
                 "added; the column terms' dual bound of the working set checked in numpy)",
                 lambda spec: True if renyi_pairs.applies(spec.notions, spec.objective, spec.limits) else None,
                 lambda spec, choice, budgets, limit_values: _design_by_pairs(spec, choice, budgets, limit_values),
                 solvers=("clarabel",)),
    CVXPY,

)


def design(
    notions: Union[PrivacyNotion, Sequence[PrivacyNotion]],
    budgets: Union[float, Sequence[float]],
    objective: Objective,
    *,
    limits: Sequence[tuple[Objective, float]] = (),
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
    method: str = "auto",
) -> Result:
    """Design the optimal mechanism for ``objective`` under privacy budgets (and optional limits).

    Parameters
    ----------
    notions
        One privacy notion or a sequence of them.
    budgets
        One budget (nats) per notion.
    objective
        The objective, e.g. :class:`~mechdesign.utility.distortion.ExpectedDistortion`.
    limits
        ``(quantity, limit)`` pairs constraining ``quantity.expression(Q) <= limit``, e.g. a
        distortion cap.
    solver
        ``"highs"``, ``"clarabel"`` or ``"scs"``; chosen automatically by default. It names a solver,
        not a path: ``"highs"`` (its simplex) and ``"clarabel"`` (its interior point) are run by the
        direct LP where that applies (else by cvxpy), ``"scs"`` by cvxpy; a closed form runs no solver,
        so naming one skips it. ``Result.method`` and ``Result.solver`` say what ran.
    solver_options
        Extra keyword arguments passed to the solver: HiGHS options on the direct LP (a rejected one is
        a :class:`~mechdesign.exceptions.MechDesignError`), any solver's options through cvxpy
        (Clarabel's and SCS's only there).
    method
        ``"auto"`` (default): the first of :data:`METHODS` that applies, in order ``"closed-form"`` →
        ``"direct-lp"`` → ``"cvxpy"``; a failed direct-LP solve is retried through cvxpy. A method
        named explicitly runs alone, and one that does not apply raises
        :class:`~mechdesign.exceptions.MethodNotApplicableError` naming the methods that do.
        Whatever the method, a budget met by the objective's unconstrained optimum is answered by it
        (``Result.method == "unconstrained-optimum"``).

    Returns
    -------
    Result
        Frozen; ``success=False`` with a reason when infeasible or inaccurate, never an exception.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior, design
    >>> result = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(Prior.uniform(3)))
    >>> round(result.objective, 6), result.method  # randomized response: 2 / (e + 2)
    (0.423883, 'closed-form')
    >>> result = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(Prior.uniform(3)), method="cvxpy")
    >>> round(result.objective, 6), result.method
    (0.423883, 'cvxpy')
    """
    pairs = as_limit_pairs(limits)
    spec = design_spec(notions, objective, [quantity for quantity, _ in pairs], solver, solver_options)
    choice = choose_method(spec, method)
    return choice.method.run(spec, choice, budgets, [value for _, value in pairs])
