"""Tests of mechdesign.checks.sml: the SML closed forms (Wang, Lin & Fanti, "Statistic Maximal Leakage")
against exact computation on small histogram spaces."""

import pytest

from mechdesign.checks.mutation import mutation_test, traced_check
from mechdesign.checks.rows import MATCH
from mechdesign.checks.sml import check_sml


@pytest.fixture(scope="module")
def fast():
    """The fast grid's rows, computed with the closed forms instrumented (shared with the self-test)."""
    return traced_check("sml")


def test_fast_grid_agrees(fast):
    rows, _ = fast
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
    thm4 = [row for row in rows if row.formula.startswith("SML Thm. 4")]
    assert thm4 and all(row.verdict == MATCH for row in thm4)
    names = {row.formula for row in rows}
    for statement in ("SML Thm. 2 adaptive composition", "SML Lemma 2 composed mechanism (its SML)", "SML Thm. 3 post-processing",
                      "SML Prop. 7 μ-L_DP bounds the SML", "SML Prop. 3 QM robustness gap (over Thm. 4's SML)",
                      "SML Prop. 7 (second half) Π̃ + Π̃^inf bounds the L_DP level",
                      "SML App. K worst-output Π̃ bounds the SML",
                      "SML Prop. 7 μ-L_DP bounds Π^inf", "SML Prop. 7 Π^inf <= log((1 + (s − 1)e^μ)/s) (sharpened)",
                      "SML Prop. 7 Π^inf <= log((1 + (s − 1)e^μ)/s) reached by reverse RR",
                      "SML App. K Π^inf = −log(2 − e^Π) (two secret values)",
                      "SML Prop. 5 (corrected) QM lower bound, coarse secret",
                      "SML Prop. 5 (base 2) RR lower bound, coarse secret", "SML Props. 4–5 (base 2) RR SML bounds", "SML Prop. 6 QM limit bounds Π_QM at every τ",
                      "SML Prop. 8 Gaussian noise = the nearest-mean integral", "SML Prop. 1 max over selections = definition (2)",
                      "SML Property 1 maximal leakage brackets the SML", "SML Prop. 2 min-cost flow = SML (deterministic)",
                      "SML Lemma 1 worst prior of eq. (1) is a point mass", "SML Prop. 3 RR log 3-robust (over Thm. 4's SML)", "SML Prop. 8 ≥ SML of the binned outputs (Thm. 3)"):
        assert statement in names



def test_fast_grid_self_test(fast):
    """Issue #32 item 1: no numerical value computes a closed form, every formula reproduces its value, and
    every exact row fails when a closed form it calls is perturbed by 1e-4 (relative)."""
    report = mutation_test(*fast)
    assert report.defects == 0, (report.outside, report.survivors[:3], report.unreproducible[:3], report.without_formula[:3])
    assert report.mutations and all(m.failed + len(m.loose) == m.rows for m in report.mutations)


@pytest.mark.slow
def test_full_grid_agrees():
    rows = check_sml(full=True)
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
