"""Numerical optima the closed forms are compared with: ``ε*(D)`` and ``D*(ε)`` (PUT Definition 4).

``ε*(D)`` comes from :func:`~mechdesign.curves.privacy_distortion`'s solver (direct minimization of the
leakage, or bisection on the budget, with the certified bracket); ``D*(ε)`` from :class:`DistortionOracle`, which compiles one
design problem and re-solves it, with the other solver when a solve is not certified optimal.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

from ..solve import DesignProblem
from ..curves import MAX_BUDGET, PrivacyDistortion, _PrivacyDistortionSolver  # the solver keeps the certified brackets
from ..exceptions import MechDesignError
from ..privacy.base import PrivacyNotion
from ..result import Result
from ..utility.base import Objective
from .rows import BOUND_FAILS, CLOSED_FORM_ATOL, FAILED, MISMATCH, CheckRow, ClosedForm, compare

#: Bracket width of ε*(D) when it is found by bisection (nats).
BISECTION_WIDTH = 1e-9
#: Budget standing in for ε = 0 when no solver handles the degenerate ε = 0 problem (nats).
ZERO_BUDGET = 1e-9
#: The solvers tried in turn by :class:`DistortionOracle`.
SOLVERS = ("highs", "clarabel")


class DistortionOracle:
    """``D*(ε)`` for one privacy notion and one distortion objective.

    Parameters
    ----------
    notion
        The privacy notion whose budget ε is varied.
    objective
        The distortion to minimize, e.g. :class:`~mechdesign.utility.ExpectedDistortion`.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> oracle = DistortionOracle(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)))
    >>> round(oracle.distortion(0.0), 6)
    0.5
    """

    def __init__(self, notion: PrivacyNotion, objective: Objective) -> None:
        self.notion, self.objective = notion, objective
        self._problems: dict[str, DesignProblem] = {}
        self._cache: dict[float, tuple[float, float]] = {}

    def distortion(self, epsilon: float) -> float:
        """``D*(ε)``: the least distortion within budget ε (NaN if every solve failed).

        A solve that is not ``"optimal"`` is repeated with the other solver (HiGHS ↔ Clarabel: HiGHS
        may stop on round-off of tiny entries of a ratio-type constraint, Clarabel may return a
        certified-feasible but suboptimal point of a Rényi constraint). An optimal result wins;
        otherwise the smallest certified distortion. At ε = 0 the cone constraints are degenerate; if
        every solver fails there, ``ZERO_BUDGET`` is used.
        """
        return self._solution(epsilon)[0]

    def distortion_lower_bound(self, epsilon: float) -> float:
        """A certified lower bound on ``D*(ε)``: the largest ``Result.bound`` of the solves (the
        distortion itself where no solve carries a bound; NaN if every solve failed).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
        >>> oracle = DistortionOracle(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)))
        >>> oracle.distortion_lower_bound(0.0) <= oracle.distortion(0.0) + 1e-9
        True
        """
        return self._solution(epsilon)[1]

    def _solution(self, epsilon: float) -> tuple[float, float]:
        if epsilon not in self._cache:
            value = self._solve(epsilon)
            if math.isnan(value[0]) and epsilon == 0.0:
                value = self._solve(ZERO_BUDGET)
            self._cache[epsilon] = value
        return self._cache[epsilon]

    def _solve(self, epsilon: float) -> tuple[float, float]:
        results = []
        for solver in SOLVERS:
            result = self._attempt(solver, epsilon)
            if result is not None and result.success:
                results.append(result)
                if result.status == "optimal":
                    break
        if not results:
            return math.nan, math.nan
        optimal = [r.objective for r in results if r.status == "optimal"]
        value = float(optimal[0] if optimal else min(r.objective for r in results))
        bounds = [float(r.bound) for r in results if getattr(r, "bound", None) is not None and math.isfinite(r.bound)]
        return value, max(bounds) if bounds else value

    def _attempt(self, solver: str, epsilon: float) -> Result | None:
        """One solve, or None when cvxpy cannot unpack the solver's answer (a plain ``ValueError``,
        "Cannot unpack invalid solution", when HiGHS ends with status UNKNOWN) or the solver is
        unusable for this notion; input errors (:class:`MechDesignError`) still propagate."""
        try:
            if solver not in self._problems:
                self._problems[solver] = DesignProblem(self.notion, self.objective, solver=solver)
            return self._problems[solver].solve(epsilon)
        except MechDesignError:
            raise
        except ValueError:
            return None


def privacy_distortion_values(notion: PrivacyNotion, objective: Objective, distortions: Sequence[float]) -> list[PrivacyDistortion]:
    """The optimizer's ``ε*(D)`` at each ``D`` with its certified bracket (one set of compiled problems,
    bisection to :data:`BISECTION_WIDTH`).

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> value, = privacy_distortion_values(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), [0.25])
    >>> value.success, round(value.epsilon, 6), value.bracket[1] - value.bracket[0] <= BISECTION_WIDTH  # log 3
    (True, 1.098612, True)
    """
    solver = _PrivacyDistortionSolver(notion, objective, BISECTION_WIDTH, MAX_BUDGET, None, None)
    return [solver.solve(D) for D in distortions]


def certified_privacy_distortion(notion: PrivacyNotion, objective: Objective,
                                 distortions: Sequence[float]) -> list[tuple[float, bool, float]]:
    """The optimizer's ``ε*(D)`` at each ``D`` (NaN where it fails), whether its solve was ``"optimal"``
    (certified) rather than, e.g., ``"optimal_inaccurate"``, and the width of its certified bracket.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> [(round(v, 6), ok, w) for v, ok, w in certified_privacy_distortion(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), [0.5])]
    [(0.0, True, 0.0)]
    """
    return [(float(v.epsilon) if v.success else math.nan, getattr(v.certificate, "status", None) == "optimal",
             float(v.bracket[1] - v.bracket[0]) if v.success else math.nan)
            for v in privacy_distortion_values(notion, objective, distortions)]


def numeric_privacy_distortion(notion: PrivacyNotion, objective: Objective, distortions: Sequence[float]) -> list[float]:
    """The optimizer's ``ε*(D)`` at each ``D`` (NaN where it fails).

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> [round(v, 6) for v in numeric_privacy_distortion(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), [0.5])]
    [0.0]
    """
    return [value for value, _, _ in certified_privacy_distortion(notion, objective, distortions)]


def epsilon_rows(statements: Sequence[tuple[str, Callable[[float], ClosedForm]]], setting: dict[str, float | int | str],
                 notion: PrivacyNotion, objective: Objective, distortions: Sequence[float]) -> list[CheckRow]:
    """Rows comparing each statement's ``closed(D)`` (a privacy-distortion value or bound) with the
    optimizer's ε*(D), solved once per ``D`` for all the statements, held to the certified bracket: the
    tolerance is ``CLOSED_FORM_ATOL`` plus the bracket's width (``BISECTION_WIDTH`` unless some budgets
    were left undecided by their certificates; the self-test then requires the width to stay below the
    perturbation of the closed form).

    A disagreement with a solve that is not certified optimal is ``failed`` (see
    :func:`~mechdesign.checks.rows.compare`); so is a numerical ε*(D) *above* the closed-form value
    (or upper bound) unless the optimizer certifies that the closed-form budget cannot reach ``D``
    (:func:`closed_budget_not_excluded`): until then the search for the least budget, not the paper,
    is in question.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> from mechdesign.theory import put
    >>> rows = epsilon_rows([("PUT Prop. 8(1) DP", lambda D: put.prop8_dp_privacy(2, D))], {"m": 2},
    ...                     DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), [0.2])
    >>> rows[0].verdict
    'match'
    """
    numeric = certified_privacy_distortion(notion, objective, distortions)
    oracle = DistortionOracle(notion, objective)
    rows = []
    for formula, closed in statements:
        for D, (value, certified, width) in zip(distortions, numeric):
            row = compare(formula, {**setting, "D": float(D)}, "epsilon", lambda closed=closed, D=D: closed(D), value,
                          CLOSED_FORM_ATOL + (width if math.isfinite(width) else 0.0), certified=certified)
            if row.verdict in (MISMATCH, BOUND_FAILS) and closed_budget_not_excluded(oracle, row, D):
                row = dataclasses.replace(row, verdict=FAILED, certified=False)
            rows.append(row)
    return rows


def closed_budget_not_excluded(oracle: DistortionOracle, row: CheckRow, D: float) -> bool:
    """Whether the row's numerical ε* exceeds its closed-form value (or upper bound) although the
    optimizer cannot exclude that this closed-form budget reaches ``D``: its certified lower bound on
    the optimal distortion at that budget is at most ``D`` (within ``CLOSED_FORM_ATOL``). Then the
    numerical ε* is no counterexample, only an unsettled (failed) solve.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior
    >>> oracle = DistortionOracle(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)))
    >>> closed_budget_not_excluded(oracle, compare("f", {}, "epsilon", 0.0, 0.3), 0.5)
    True
    """
    budget = row.closed_form[1] if isinstance(row.closed_form, tuple) else row.closed_form
    if not (math.isfinite(budget) and row.numeric > budget):
        return False
    return oracle.distortion_lower_bound(max(budget, 0.0)) <= D + CLOSED_FORM_ATOL
