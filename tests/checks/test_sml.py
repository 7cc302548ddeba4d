"""Tests of mechdesign.checks.sml: the SML closed forms (Wang, Lin & Fanti, "Statistic Maximal Leakage")
against exact computation on small histogram spaces."""

import pytest

from mechdesign.checks.rows import MATCH
from mechdesign.checks.sml import check_sml


def test_fast_grid_agrees():
    rows = check_sml()
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
    thm4 = [row for row in rows if row.formula.startswith("SML Thm. 4")]
    assert thm4 and all(row.verdict == MATCH for row in thm4)
    names = {row.formula for row in rows}
    for statement in ("SML Thm. 2 adaptive composition (Lemma 2)", "SML Thm. 3 post-processing",
                      "SML Prop. 7 μ-L_DP bounds the SML", "SML Prop. 3 QM robustness gap",
                      "SML Prop. 7 (second half) Π̃ + Π̃^inf bounds the L_DP level",
                      "SML App. K worst-output Π̃ bounds the SML",
                      "SML Prop. 7 μ-L_DP bounds Π^inf", "SML Prop. 7 Π^inf <= log((1 + (s − 1)e^μ)/s) (sharpened)",
                      "SML Prop. 7 Π^inf <= log((1 + (s − 1)e^μ)/s) reached by reverse RR",
                      "SML App. K Π^inf = −log(2 − e^Π) (two secret values)",
                      "SML Prop. 5 (corrected) QM lower bound, coarse secret",
                      "SML Prop. 5 (base 2) RR lower bound, coarse secret", "SML Props. 4–5 (base 2) RR SML bounds", "SML Prop. 6 QM limit bounds Π_QM at every τ",
                      "SML Prop. 8 Gaussian noise = log 2Φ(Δ/2σ)", "SML Prop. 8 ≥ SML of the binned outputs (Thm. 3)"):
        assert statement in names


@pytest.mark.slow
def test_full_grid_agrees():
    rows = check_sml(full=True)
    assert all(row.ok for row in rows), [row for row in rows if not row.ok][:5]
