"""Tests of mechdesign.checks.optimum: the optimizer's ε*(D) and D*(ε) that closed forms are compared with."""

import math

import pytest

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    Prior,
    RenyiDifferentialPrivacy,
    SourceSet,
    WorstCaseDistortion,
)
from mechdesign.checks.optimum import DistortionOracle, epsilon_rows, numeric_privacy_distortion, privacy_distortion_values
from mechdesign.checks.rows import CLOSED_FORM_ATOL, MATCH, MISMATCH, compare
from mechdesign.theory import put


def test_numeric_values_match_randomized_response():
    """ε*(D) equals PUT Prop. 8(1) (randomized response); the oracle's D*(ε) equals its inverse."""
    objective = ExpectedDistortion(Prior.uniform(3))
    distortions = [0.1, 0.4, 2 / 3, 0.9]
    numeric = numeric_privacy_distortion(DifferentialPrivacy(), objective, distortions)
    assert numeric == pytest.approx([put.prop8_dp_privacy(3, D) for D in distortions], abs=CLOSED_FORM_ATOL)
    assert DistortionOracle(DifferentialPrivacy(), objective).distortion(1.0) == pytest.approx(
        put.prop8_dp_distortion(3, 1.0), abs=CLOSED_FORM_ATOL)


def test_the_comparison_flags_a_wrong_formula():
    """Not trivially green: the refuted summary of the proof of PUT Thm 9 (docs/errata.md, PUT entry 2)
    is a mismatch at P = (0.5, 0.3, 0.2), δ = 0.1, D = 0.4, where Thm 9 itself matches."""
    prior, delta, D = (0.5, 0.3, 0.2), 0.1, 0.4
    numeric, = numeric_privacy_distortion(ApproximateDifferentialPrivacy(delta), ExpectedDistortion(Prior(prior)), [D])
    assert compare("summary", {}, "epsilon", math.log(2 * (1 - D - delta) / D), numeric).verdict == MISMATCH
    assert compare("Thm 9", {}, "epsilon", put.thm9_approx_dp_privacy(prior, D, delta), numeric).verdict == MATCH


def test_epsilon_rows_share_one_solve_per_distortion():
    statements = [("exact", lambda D: put.prop8_dp_privacy(2, D)), ("wrong", lambda D: put.prop8_dp_privacy(2, D) + 0.1)]
    rows = epsilon_rows(statements, {"m": 2}, DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), [0.1, 0.3])
    assert [(r.formula, r.parameters["D"], r.verdict) for r in rows] == [
        ("exact", 0.1, MATCH), ("exact", 0.3, MATCH), ("wrong", 0.1, MISMATCH), ("wrong", 0.3, MISMATCH)]
    assert rows[0].numeric == rows[2].numeric


def test_a_numeric_epsilon_above_a_budget_that_may_reach_d_is_a_failed_search():
    """The optimizer's ε*(D) can overshoot (seen for DP on Hamming neighbours of {1,2}^4 near the zero
    threshold, and by 4e-6 for Rényi DP on {1,2}^4); unless the optimizer certifies that the closed-form
    budget cannot reach D, the row is the solver's failure. A numeric ε* *below* a closed form is never
    excused this way."""
    from mechdesign.checks.optimum import closed_budget_not_excluded
    from mechdesign.checks.rows import BOUND_FAILS, FAILED

    objective = ExpectedDistortion(Prior.uniform(3))
    oracle = DistortionOracle(DifferentialPrivacy(), objective)
    D = 0.4
    exact = put.prop8_dp_privacy(3, D)
    overshoot = compare("f", {}, "epsilon", exact, exact + 0.05)
    assert overshoot.verdict == MISMATCH and closed_budget_not_excluded(oracle, overshoot, D)
    assert not closed_budget_not_excluded(oracle, compare("f", {}, "epsilon", exact - 0.05, exact), D)  # wrong formula stays
    assert not closed_budget_not_excluded(oracle, compare("f", {}, "epsilon", exact + 0.05, exact), D)  # numeric below
    bound = compare("f", {}, "epsilon", (0.0, exact - 0.05), exact)
    assert bound.verdict == BOUND_FAILS and not closed_budget_not_excluded(oracle, bound, D)
    assert compare("f", {}, "epsilon", exact, exact + 0.05, certified=False).verdict == FAILED
    assert oracle.distortion_lower_bound(exact) <= oracle.distortion(exact) + CLOSED_FORM_ATOL


SMALL = (1e-2, 1e-4, 1e-6, 1e-8)


@pytest.mark.parametrize("notion, closed", [
    (DifferentialPrivacy(), lambda D: put.prop8_dp_privacy(3, D)),
    (MaximalLeakage(), lambda D: put.prop8_maximal_leakage_privacy(3, D)),
], ids=["dp", "ml"])
def test_small_distortions_are_exact(notion, closed):
    """Issue #32 item 3: ε*(D) was too small by ≈ 1e-9/D with success=True (DP: 1e-5 at D = 1e-4, 2.3 at
    D = 1e-8): the reach slack was absolute below D = 1, and design()'s shortcut certifies D*(ε) only to
    1e-7 absolute. Relative to D, and with D*(ε) re-solved where the shortcut cannot decide, ε* is exact."""
    for D, value in zip(SMALL, privacy_distortion_values(notion, ExpectedDistortion(Prior.uniform(3)), SMALL)):
        lower, upper = value.bracket
        assert value.success and upper - lower <= 1e-9, (D, value.message)
        assert value.epsilon == pytest.approx(closed(D), abs=2e-9), D


def test_renyi_brackets_at_small_distortions_hold_the_exact_value():
    """Issue #32 item 3, Rényi DP α = 2 (Prop. 8(5): the value is the upper bound): before, the direct
    minimization returned 0.12 above ε* at D = 1e-4 and bisection 1.3e-3 below at 1e-6, each with a bracket
    of width 0 or 1e-9. Now every bracket is certified and holds the exact value (its width says how far the
    Rényi certificates reach). The upper end is certified for the distortion ``D (1 + REACH_ATOL)`` (the reach
    slack of mechdesign/curves.py), so it holds the exact value there; with the polished KKT point the design
    is exact, and ε*(D) falls ≈ 1.4e-9 over that slack at D = 1e-2."""
    from mechdesign.curves import REACH_ATOL

    for D, value in zip(SMALL[:3], privacy_distortion_values(RenyiDifferentialPrivacy(2.0), ExpectedDistortion(Prior.uniform(3)),
                                                            SMALL[:3])):
        lower, upper = value.bracket
        exact = put.prop8_renyi_dp_privacy_bounds(3, D, 2.0)[1]
        reached = put.prop8_renyi_dp_privacy_bounds(3, D * (1 + REACH_ATOL), 2.0)[1]
        assert value.success and lower - 1e-9 <= exact and reached <= upper + 1e-9, (D, value.bracket, exact, reached)


def test_a_direct_minimization_above_the_optimum_is_bisected():
    """Issue #32: Rényi DP α = 1.01 on the simplex (m = 3): the direct minimization's ε* was 1.2e-6 above the
    exact value at D = 0.05 and 0.3 with success=True; a design at ε* − DIRECT_PROBE reaching D exposes it."""
    objective = WorstCaseDistortion(SourceSet.simplex(3))
    for D, value in zip((0.05, 0.3), privacy_distortion_values(RenyiDifferentialPrivacy(1.01), objective, (0.05, 0.3))):
        assert value.success and value.epsilon == pytest.approx(put.prop8_renyi_dp_privacy_bounds(3, D, 1.01)[1], abs=5e-8)
