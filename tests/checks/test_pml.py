"""Tests of mechdesign.checks.pml: the PML closed forms (Grosse et al., "Privacy Mechanism Design based on
Empirical Distributions") against exact computations and the optimizer."""

import pytest

from mechdesign.checks.mutation import mutation_test, traced_check
from mechdesign.checks.pml import check_pml, exact_deviation_probability
from mechdesign.checks.rows import MATCH


def test_exact_deviation_probability_hand_computed():
    """Two fair coin flips: the estimate is (1, 0) or (0, 1) with probability 1/2, at ℓ1 distance 1."""
    assert exact_deviation_probability((0.5, 0.5), 2, 1.0) == pytest.approx(0.5, abs=1e-15)
    assert exact_deviation_probability((0.5, 0.5), 2, 1.01) == 0.0


@pytest.fixture(scope="module")
def fast():
    """The fast grid's rows, computed with the closed forms instrumented (shared with the self-test)."""
    return traced_check("pml")


def test_fast_grid_agrees(fast):
    rows, _ = fast
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
    equality = [row for row in rows if "equality" in row.formula or "Thm. 5" in row.formula]
    assert equality and all(row.verdict == MATCH for row in equality)
    assert {row.formula.split(" ")[2] for row in rows} >= {"2", "3", "4", "5"}



def test_fast_grid_self_test(fast):
    """Issue #32 item 1: no numerical value computes a closed form, every formula reproduces its value, and
    every exact row fails when a closed form it calls is perturbed by 1e-4 (relative)."""
    report = mutation_test(*fast)
    assert report.defects == 0, (report.outside, report.survivors[:3], report.unreproducible[:3], report.without_formula[:3])
    assert report.mutations and all(m.failed + len(m.loose) == m.rows for m in report.mutations)


@pytest.mark.slow
def test_full_grid_agrees():
    rows = check_pml(full=True)
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
