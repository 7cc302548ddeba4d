"""Tests of mechdesign.checks.pml: the PML closed forms (Grosse et al., "Privacy Mechanism Design based on
Empirical Distributions") against exact computations and the optimizer."""

import pytest

from mechdesign.checks.pml import check_pml, exact_deviation_probability
from mechdesign.checks.rows import MATCH


def test_exact_deviation_probability_hand_computed():
    """Two fair coin flips: the estimate is (1, 0) or (0, 1) with probability 1/2, at ℓ1 distance 1."""
    assert exact_deviation_probability((0.5, 0.5), 2, 1.0) == pytest.approx(0.5, abs=1e-15)
    assert exact_deviation_probability((0.5, 0.5), 2, 1.01) == 0.0


def test_fast_grid_agrees():
    rows = check_pml()
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
    equality = [row for row in rows if "equality" in row.formula or "Thm. 5" in row.formula]
    assert equality and all(row.verdict == MATCH for row in equality)
    assert {row.formula.split(" ")[2] for row in rows} >= {"2", "3", "4", "5"}


@pytest.mark.slow
def test_full_grid_agrees():
    rows = check_pml(full=True)
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
