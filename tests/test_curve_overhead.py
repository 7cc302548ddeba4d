"""A curve's per-point path (issue 31, item 3): the same results as the general one, with less work per point.

``DesignProblem.solve_point`` (what ``trace_curve`` calls at every budget) against ``solve_validated`` on twin
problems, the direct LP's bound from the row duals it reads against every row's, and ``clean_mechanism`` against a
reference written here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mechdesign import (ApproximateDifferentialPrivacy, DesignProblem, DifferentialPrivacy, ExpectedDistortion,
                        MaximalLeakage, PointwiseMaximalLeakage, Prior)
from mechdesign.exceptions import MechDesignError
from mechdesign.methods.direct import LdpLinearProgram, LdpSharedExcessProgram, MaximalLeakageLinearProgram
from mechdesign.result import NEGLIGIBLE_MASS, clean_mechanism

#: Budgets of every kind a curve meets: 0, tiny, ordinary, past the constraint-scale cap (log 1e12 ≈ 27.6), infinite.
BUDGETS = (0.0, 1e-4, 0.05, 0.3, 1.0, 2.5, 5.0, 12.0, 30.0, math.inf)


def _objective(n: int, seed: int) -> ExpectedDistortion:
    rng = np.random.default_rng(seed)
    return ExpectedDistortion(Prior(rng.dirichlet(np.ones(n))), rng.random((n, n)))


def _fields(result) -> tuple:
    return (result.objective, result.status, result.bound, result.gap, result.measured, result.budgets,
            result.max_violation, result.method, result.solver, result.iterations, result.message)


@pytest.mark.parametrize("notion, settings, n", [
    (DifferentialPrivacy(), {"method": "direct-lp"}, 7),
    (MaximalLeakage(), {"method": "direct-lp"}, 6),
    (PointwiseMaximalLeakage(Prior(np.random.default_rng(5).dirichlet(np.ones(6)))), {}, 6),  # the objective's prior
    (ApproximateDifferentialPrivacy(0.05), {}, 6),
    (DifferentialPrivacy(), {"solver": "clarabel"}, 6),  # the direct LP by Clarabel's interior point
    (DifferentialPrivacy(), {"method": "column-generation"}, 60),
    (DifferentialPrivacy(), {"method": "cvxpy"}, 4)])
def test_solve_point_is_solve_validated(notion, settings, n):
    """Twin problems through the same budgets (each warm from its own previous point): ``solve_point`` gives every field
    of ``solve_validated``'s result, objective and mechanism to the bit — on the direct LPs (the first run certified by
    its own bound), through cvxpy (no bound of its own: the general attempts), at ε = 0, past the cap and at ``inf``
    (the unconstrained optimum), for local DP, maximal leakage, PML and pointwise approximate DP, and with Clarabel.
    Checked to fail: with the fast exit assembling at the attempt's value instead of its bound, every direct-LP point's
    ``bound`` and ``gap`` differ."""
    objective = _objective(n, 5)
    general = DesignProblem(notion, objective, **settings)
    lean = DesignProblem(notion, objective, **settings)
    for budget in BUDGETS:
        expected, got = general.solve_validated([budget], []), lean.solve_point(budget)
        assert _fields(got) == _fields(expected), budget
        assert np.array_equal(got.mechanism.matrix, expected.mechanism.matrix)


def test_solve_point_names_what_it_does_not_solve():
    """One notion without limits only: anything else is named, with the method that solves it."""
    objective = _objective(3, 0)
    with pytest.raises(MechDesignError, match="1 limits .*solve_validated"):
        DesignProblem(DifferentialPrivacy(), objective, [objective]).solve_point(1.0)
    with pytest.raises(MechDesignError, match="2 notions"):
        DesignProblem([DifferentialPrivacy(), MaximalLeakage()], objective).solve_point(1.0)


@pytest.mark.parametrize("program_class", [LdpSharedExcessProgram, LdpLinearProgram, MaximalLeakageLinearProgram])
def test_bound_from_the_duals_it_reads_is_the_bound_from_every_row(program_class):
    """``solve(duals=False)`` converts only the duals the bound reads (local DP: the unit row sums'; maximal leakage:
    all of them, through ``numpy.asarray``): the same bound and point, to the bit, as ``solve()`` on a twin program at
    budgets where the objective is held scaled (ε from about 1e-3 on) and where it is not, within 1e-12 of the value.
    Checked to fail: with the scale left out of the duals read, the local-DP bounds are loose from ε = 0.05 on."""
    weights = _objective(9, 2).prior.probabilities[:, None] * _objective(9, 2).cost
    full, lean = program_class(weights), program_class(weights)
    for budget in (0.0, 1e-5, 0.05, 0.7, 3.0, 9.0):
        every, read = full.solve(budget), lean.solve(budget, duals=False)
        assert read.row_duals is None and every.row_duals.size == full._row_lower.size
        assert read.lower_bound == every.lower_bound and np.array_equal(read.matrix, every.matrix), budget
        assert every.value - 1e-12 <= read.lower_bound <= every.value + 1e-15, budget  # tight: the duals' own scale


def _reference_clean(matrix: np.ndarray) -> np.ndarray:
    """The cleaning's definition, entry by entry: negatives to 0, columns whose largest entry is at most
    NEGLIGIBLE_MASS to 0, each row divided by its sum."""
    cleaned = np.where(matrix < 0.0, 0.0, matrix)
    for column in range(cleaned.shape[1]):
        if cleaned[:, column].max() <= NEGLIGIBLE_MASS:
            cleaned[:, column] = 0.0
    return cleaned / cleaned.sum(axis=1, keepdims=True)


def test_clean_mechanism_is_its_definition():
    """Solver-like points — unused outputs exactly zero (a vertex's), columns of round-off (1e-9, with negatives and a
    -0.0), negative round-off in used columns — cleaned as the definition says, to the bit. Checked to fail: with the
    negligible columns' zeroing skipped, the round-off columns stay."""
    rng = np.random.default_rng(11)
    for _ in range(50):
        matrix = rng.random((6, 9))
        matrix[:, rng.random(9) < 0.4] = 0.0
        matrix[:, 0] += 0.1  # every row keeps mass
        matrix[:, 1] = rng.uniform(-1e-9, 1e-9, 6)
        matrix[0, 2], matrix[:, 3] = -1e-12, -0.0
        matrix[:, 4] *= 1e-8 * (rng.random() < 0.5) + (rng.random() < 0.5)
        assert np.array_equal(clean_mechanism(matrix), _reference_clean(matrix))
