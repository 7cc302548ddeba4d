"""Tests of mechdesign.checks.summary: the multi-secret closed forms (Wang et al., "Guarding Multiple
Secrets") against the exact optimum and exact measurements."""

import numpy as np
import pytest

from mechdesign.checks.mutation import mutation_test, traced_check
from mechdesign.checks.summary import check_summary, least_distortion, reachable


def test_least_distortion_and_reachable_budgets():
    curve = (np.array([0.0, 0.5, 1.0]), np.array([1.0, 0.6, 0.2]))
    assert least_distortion(curve, 0.6) == 0.5
    assert least_distortion(curve, 0.1) == np.inf
    assert reachable(curve, [0.1, 0.2, 0.9]) == [0.2, 0.9]


@pytest.fixture(scope="module")
def fast():
    """The fast grid's rows, computed with the closed forms instrumented (shared with the self-test)."""
    return traced_check("summary")


def test_fast_grid_agrees(fast):
    rows, _ = fast
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
    names = {row.formula.split(" (")[0] for row in rows}
    for statement in ("Multi-secret Thm. 4.1 union", "Multi-secret Thm. 5.1 intersection", "Multi-secret Prop. C.1",
                      "Multi-secret Prop. C.2 privacy", "Multi-secret Prop. C.6 distortion", "Multi-secret Prop. 5.2 Δ_inter ≤ Δ_union",
                      "Multi-secret Prop. C.5 2-D Gaussian", "Multi-secret Prop. D.1", "Multi-secret Prop. D.2 intersection privacy",
                      "Multi-secret Prop. D.4 group privacy", "Multi-secret Prop. D.6 ℓinf privacy bound", "Multi-secret Prop. B.2 Δ_ℓinf ≤ Δ_ℓ2",
                      "Multi-secret Lemma C.8 W2² lower bound", "Multi-secret Lemma C.9 W2² of 2-D Gaussians",
                      "Multi-secret Lemma C.7 distortion of diagonal Gaussians = ½ W2"):
        assert statement in names



def test_fast_grid_self_test(fast):
    """Issue #32 item 1: no numerical value computes a closed form, every formula reproduces its value, and
    every exact row fails when a closed form it calls is perturbed by 1e-4 (relative)."""
    report = mutation_test(*fast)
    assert report.defects == 0, (report.outside, report.survivors[:3], report.unreproducible[:3], report.without_formula[:3])
    assert report.mutations and all(m.failed + len(m.loose) == m.rows for m in report.mutations)


@pytest.mark.slow
def test_full_grid_agrees():
    rows = check_summary(full=True)
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
