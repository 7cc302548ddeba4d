"""Design under SML (mechdesign.designers.sml): every selection, or warm-started cutting planes.

Wang, Lin & Fanti, "Statistic Maximal Leakage", Prop. 1 (SML as a maximum over selections); the optimum
is compared with the cvxpy design over every selection and certified by weak LP duality.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import ExpectedDistortion, Prior, WorstCaseInputDistortion
from mechdesign.designers.sml import SelectionCutProgram, bounded_lp_dual_bound, design_by_cuts, design_under_sml
from mechdesign.exceptions import MechDesignError
from mechdesign.privacy.sml import Secret, StatisticMaximalLeakage, measure_sml
from mechdesign.result import GAP_RTOL, within_budget

#: Agreement of two exact designs (HiGHS on one side, the cvxpy default solver on the other).
DESIGN_AGREEMENT_ATOL = 1e-7
SECRET = Secret([0, 0, 0, 1, 1, 1, 2, 2, 2, 2])


@pytest.mark.parametrize("objective", [WorstCaseInputDistortion(10),
                                       ExpectedDistortion(Prior(np.arange(1, 11) / 55.0))])
@pytest.mark.parametrize("budget", [0.2, 0.6, 1.0])
def test_cuts_match_the_design_over_every_selection(objective, budget):
    cuts = design_by_cuts(SECRET, budget, objective, 200, None)
    every = design_under_sml(SECRET, budget, objective, strategy="enumerate")
    assert cuts.status == "optimal" and cuts.method == "constraint-generation", cuts.message
    assert cuts.objective == pytest.approx(every.objective, abs=DESIGN_AGREEMENT_ATOL)
    assert cuts.gap <= GAP_RTOL * max(1.0, cuts.objective)
    assert within_budget(measure_sml(cuts.mechanism, SECRET).value, budget)


def test_cvxpy_loop_still_serves_explicit_solvers():
    # An explicit solver keeps the cvxpy constraint-generation loop; both reach the same optimum.
    objective = WorstCaseInputDistortion(10)
    via_cvxpy = design_under_sml(SECRET, 0.6, objective, strategy="generate", solver="clarabel")
    via_highs = design_under_sml(SECRET, 0.6, objective, strategy="generate")
    assert via_highs.method == "constraint-generation" and "rounds" in via_cvxpy.message
    assert via_cvxpy.objective == pytest.approx(via_highs.objective, abs=DESIGN_AGREEMENT_ATOL)


@given(seed=st.integers(0, 2**32 - 1))
def test_dual_bound_is_below_the_lp_optimum_for_any_prices(seed):
    # Weak LP duality with bounded columns (module docstring of mechdesign.designers.sml).
    program = SelectionCutProgram(WorstCaseInputDistortion(4), math.log(1.7))
    program.add_selections(np.array([[0, 2], [1, 3]]))
    _, value, _ = program.solve()
    prices = np.random.default_rng(seed).normal(size=program.matrix.shape[0])
    bound = bounded_lp_dual_bound(program.costs, program.matrix, program.row_lower, program.row_upper,
                                  program.column_upper, prices)
    assert bound <= value + 1e-12


def test_dual_bound_of_a_tiny_lp_by_hand():
    # min x1 + 2 x2 s.t. x1 + x2 = 1, x ∈ [0, 1]²: the optimum 1 is certified by y = 1.
    bound = bounded_lp_dual_bound(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.array([1.0]),
                                  np.array([1.0]), np.array([1.0, 1.0]), np.array([1.0]))
    assert bound == 1.0


def test_constraint_generation_matches_enumeration():
    # 3 values × groups of 3, 3 and 4: 36 selections; Hamming worst-case distortion on 10 symbols.
    secret = Secret([0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
    objective = WorstCaseInputDistortion(10)
    for budget in (0.2, 0.6):
        enumerated = design_under_sml(secret, budget, objective, strategy="enumerate")
        generated = design_under_sml(secret, budget, objective, strategy="generate")
        assert enumerated.success and generated.success and generated.certified
        assert generated.objective == pytest.approx(enumerated.objective, abs=1e-7)
        assert generated.iterations >= 2 and "rounds" in generated.message
        label = StatisticMaximalLeakage(secret).label
        assert generated.measured[label] <= budget + 1e-6
        assert measure_sml(generated.mechanism, secret).value <= budget + 1e-6


def test_constraint_generation_reports_every_round():
    secret = Secret([0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
    reports = []
    generated = design_under_sml(secret, 0.2, WorstCaseInputDistortion(10), strategy="generate",
                                 progress=lambda done, total, text: reports.append((done, total, text)))
    assert generated.success
    assert [done for done, _, _ in reports] == list(range(1, generated.iterations + 1))
    assert all(total is None and text.startswith("SML constraint generation round") for _, total, text in reports)


def test_design_bad_input():
    with pytest.raises(MechDesignError, match="strategy must be"):
        design_under_sml([0, 1], 0.5, WorstCaseInputDistortion(2), strategy="guess")
    with pytest.raises(MechDesignError, match=r"SML budget must be a number >= 0 \(or inf\), got -1.0"):
        design_under_sml([0, 1], -1, WorstCaseInputDistortion(2))


@pytest.mark.parametrize("strategy", ["enumerate", "generate"])
@pytest.mark.parametrize("solver", [None, "highs"])
def test_an_infinite_budget_gives_the_unconstrained_optimum(strategy, solver):
    """L1: ``design_under_sml`` (and ``sml-design``) refused an infinite budget; without a leakage limit
    the optimum maps every input to its cheapest output (distortion 0), whatever the strategy."""
    result = design_under_sml([0, 0, 1, 1], math.inf, WorstCaseInputDistortion(4), strategy=strategy, solver=solver)
    assert result.status == "optimal" and result.objective == 0.0 and result.bound == 0.0
    assert result.budgets == {"sml[s=2]": math.inf}
    assert np.array_equal(result.mechanism.matrix, np.eye(4))


def test_hostile_arguments_of_design_under_sml_are_named():
    secret, objective = Secret([0, 0, 1]), WorstCaseInputDistortion(np.ones((3, 3)) - np.eye(3))
    with pytest.raises(MechDesignError, match=r"solver must be one of \('highs', 'clarabel', 'scs'\) or None, got True"):
        design_under_sml(secret, 0.5, objective, solver=True)
    with pytest.raises(MechDesignError, match="strategy must be one of"):
        design_under_sml(secret, 0.5, objective, strategy=None)


@pytest.mark.parametrize("budget", [1000.0, math.inf])
def test_design_by_cuts_at_a_budget_beyond_the_float_range_is_the_unconstrained_optimum(budget):
    # e^1000 overflows a float; the selection rows then bind nothing (was a bare OverflowError).
    result = design_by_cuts(Secret([0, 0, 1, 1]), budget, WorstCaseInputDistortion(4), 100, None)
    assert (result.status, result.objective) == ("optimal", 0.0)


def test_design_by_cuts_names_a_negative_budget():
    with pytest.raises(MechDesignError, match="budget"):
        design_by_cuts(Secret([0, 0, 1, 1]), -1.0, WorstCaseInputDistortion(4), 100, None)
