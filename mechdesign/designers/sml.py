"""Design under statistic maximal leakage: every selection as a constraint, or constraint generation.

Wang, Lin & Fanti, "Statistic Maximal Leakage", Prop. 1: ``Q`` has SML at most ``T`` iff
``Σ_{θ'} max_g Q[θ_g, θ'] <= e^T`` for every selection (one input ``θ_g`` per secret value).
:func:`design_under_sml` writes every selection as a constraint when they are few (through
:func:`~mechdesign.solve.design`), and otherwise generates them: it solves with a working set, finds the
most violated selection exactly (:func:`~mechdesign.privacy.sml.measure_sml`), adds it, and repeats —
for expected or worst-case distortion by warm-started cutting planes straight in HiGHS
(:func:`~mechdesign.methods.sml_cuts.design_by_cuts`, which :func:`~mechdesign.solve.design` also runs
for secrets with too many selections to write), otherwise through cvxpy (a working-set relaxation).
The cutting planes and their dual bound live in :mod:`mechdesign.methods.sml_cuts` (imported here under
their names).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from typing import Any

import numpy as np

from .._validate import as_budget, as_choice, as_positive_int, as_solver, as_time_limit
from ..privacy.sml import Secret, SecretLike, StatisticMaximalLeakage, as_secret, measure_sml
from ..progress import Progress, report
from ..result import within_budget
from ..solve import design
from ..methods.certified import mechanism_result
# SelectionCutProgram and bounded_lp_dual_bound are served under this module's name too (they lived here).
from ..methods.sml_cuts import MAX_ROUNDS, SelectionCutProgram, bounded_lp_dual_bound, design_by_cuts, supports

logger = logging.getLogger(__name__)

#: :func:`design_under_sml` enumerates every selection up to this many, else generates them.
DESIGN_ENUMERATE_MAX_SELECTIONS = 64


class _WorkingSetSML(StatisticMaximalLeakage):
    """SML restricted to a working set of selections (a relaxation used by constraint generation)."""

    def __init__(self, secret: Secret, selections: np.ndarray) -> None:
        super().__init__(secret)
        self.working = selections

    def _all_selections(self) -> np.ndarray:
        return self.working

    def _measure(self, matrix: np.ndarray) -> float:
        return max(0.0, float(np.log(matrix[self.working].max(axis=1).sum(axis=1).max())))


def design_under_sml(
    secret: SecretLike,
    budget: float,
    objective: Any,
    *,
    strategy: str = "auto",
    max_rounds: int = MAX_ROUNDS,
    solver: str | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Any:
    """The optimal mechanism for ``objective`` under ``SML <= budget`` (SML paper, Prop. 1).

    Parameters
    ----------
    secret
        The secret map on the objective's inputs.
    budget
        ``T`` in nats; ``inf`` (no leakage limit) gives the objective's unconstrained optimum.
    objective
        What to optimize (e.g. :class:`~mechdesign.utility.distortion.WorstCaseInputDistortion`).
    strategy
        ``"enumerate"`` (every selection as a constraint; at most ``CONSTRAINT_MAX_SELECTIONS``),
        ``"generate"`` (constraint generation) or ``"auto"`` (enumerate up to
        ``DESIGN_ENUMERATE_MAX_SELECTIONS`` selections).
    max_rounds
        Largest number of constraint-generation rounds.
    solver
        LP solver for :func:`~mechdesign.solve.design`.
    time_limit
        Seconds for each separation MILP; an inexact separation makes the result fail.
    progress
        A :class:`~mechdesign.progress.Progress` callback, called after every constraint-generation
        round with ``(round, None, description)`` (the number of rounds is not known in advance);
        ``None`` is silent.

    Returns
    -------
    Result
        As :func:`~mechdesign.solve.design`; ``measured`` holds the exact SML of the mechanism (the
        certificate), ``iterations`` the number of rounds and ``message`` the working-set size. With
        ``strategy`` generating, no ``solver`` and an expected or worst-case distortion, the rounds run
        in :func:`design_by_cuts` (``method="constraint-generation"``,
        with a numpy-checked dual ``bound``).

    Examples
    --------
    >>> from mechdesign import WorstCaseInputDistortion
    >>> result = design_under_sml([0, 0, 1, 1], 0.5, WorstCaseInputDistortion(4), strategy="generate")
    >>> result.status, result.method
    ('optimal', 'constraint-generation')
    """
    secret = as_secret(secret)
    budget = as_budget(budget, "SML budget", infinite=True)
    rounds_cap = as_positive_int(max_rounds, "max_rounds")
    time_limit = as_time_limit(time_limit)
    notion = StatisticMaximalLeakage(secret)
    strategy = as_choice(strategy, ("auto", "enumerate", "generate"), "strategy")
    solver = as_solver(solver)
    if strategy == "enumerate" or (strategy == "auto" and secret.n_selections <= DESIGN_ENUMERATE_MAX_SELECTIONS):
        return design(notion, budget, objective, solver=solver)
    if solver is None and supports(objective):
        return design_by_cuts(secret, budget, objective, rounds_cap, time_limit, progress)
    working = np.array([[group[0] for group in secret.groups]], dtype=np.intp)
    start = time.perf_counter()
    for round_number in range(1, rounds_cap + 1):
        result = design(_WorkingSetSML(secret, working), budget, objective, solver=solver)
        if result.mechanism is None:
            return dataclasses.replace(result, iterations=round_number)
        found = measure_sml(result.mechanism, secret, time_limit=time_limit)
        logger.info("SML constraint generation round %d: working set %d, SML %.9g (budget %.9g)",
                    round_number, len(working), found.value, budget)
        report(progress, round_number, None, f"SML constraint generation round {round_number}: working set "
               f"{len(working)}, SML {found.value:.6g} (budget {budget:.6g}) nats")
        rounds = f"constraint generation: {round_number} rounds, {len(working)} of {secret.n_selections} selections"
        # The working set is a relaxation: its certified bound bounds the full problem too; its verdict stands.
        common = dict(measured={notion.label: found.value}, budgets={notion.label: budget}, unit=result.unit,
                      solver=result.solver, max_violation=result.max_violation, iterations=round_number)
        if not found.exact:
            return mechanism_result(result.mechanism, result.objective, result.bound, rounds, start, method=result.method,
                                    problems=[f"separation MILP stopped by its time limit (SML in [{found.value:.9g}, "
                                              f"{found.upper:.9g}])"], **common)
        if within_budget(found.value, budget):
            return mechanism_result(
                result.mechanism, result.objective, result.bound, rounds, start, method="constraint-generation",
                problems=[] if result.success else [result.message], certified=result.status == "optimal",
                verdict=lambda *_: f"{result.message}; {rounds}; exact SML re-measured; the bound is the working "
                                   "set's (a relaxation)", **common)
        if (working == found.selection).all(axis=1).any():
            return mechanism_result(result.mechanism, result.objective, result.bound, rounds, start, method=result.method,
                                    problems=["the most violated selection is already in the working set: solver "
                                              "tolerance too loose"], **common)
        working = np.vstack([working, found.selection])
    return mechanism_result(result.mechanism, result.objective, result.bound, rounds, start, method=result.method,
                            problems=[f"constraint generation did not converge in {rounds_cap} rounds"], **common)
