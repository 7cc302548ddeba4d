"""Tests of the closed-form comparison report (mechdesign.theory.report) and `mechdesign theory-check`."""

import math

import pytest

from mechdesign import ApproximateDifferentialPrivacy, DifferentialPrivacy, ExpectedDistortion, Prior
from mechdesign.cli import main
from mechdesign.exceptions import MechDesignError
from mechdesign.theory import put
from mechdesign.theory.report import (
    BOUND_FAILS,
    BOUND_HOLDS,
    CLOSED_FORM_ATOL,
    FAILED,
    MATCH,
    MISMATCH,
    DistortionOracle,
    compare,
    format_table,
    numeric_privacy_distortion,
    run_check,
)


def test_compare_verdicts():
    assert compare("f", "p", "epsilon", 1.0, 1.0 + 1e-8).verdict == MATCH
    assert compare("f", "p", "epsilon", 1.0, 1.1).verdict == MISMATCH
    row = compare("f", "p", "epsilon", (0.5, 1.0), 0.7)
    assert row.verdict == BOUND_HOLDS and row.gap == pytest.approx(0.2)
    row = compare("f", "p", "epsilon", (0.5, 1.0), 1.2)
    assert row.verdict == BOUND_FAILS and row.gap == pytest.approx(-0.2) and not row.ok
    assert compare("f", "p", "epsilon", 1.0, math.nan).verdict == FAILED


def test_numeric_values_match_randomized_response():
    """ε*(D) (bisection) equals PUT Prop. 8(1); the oracle's D*(ε) equals its inverse."""
    objective = ExpectedDistortion(Prior.uniform(3))
    distortions = [0.1, 0.4, 2 / 3, 0.9]
    numeric = numeric_privacy_distortion(DifferentialPrivacy(), objective, distortions)
    assert numeric == pytest.approx([put.prop8_epsilon_dp(3, D) for D in distortions], abs=CLOSED_FORM_ATOL)
    assert DistortionOracle(DifferentialPrivacy(), objective).distortion(1.0) == pytest.approx(
        put.prop8_distortion_dp(3, 1.0), abs=1e-9)


def test_report_flags_a_wrong_formula():
    """The comparison is not trivially green: the refuted summary of PUT Thm 9's proof is a mismatch."""
    prior, delta, D = (0.5, 0.3, 0.2), 0.1, 0.4
    numeric, = numeric_privacy_distortion(ApproximateDifferentialPrivacy(delta), ExpectedDistortion(Prior(prior)), [D])
    assert compare("summary", "", "epsilon", math.log(2 * (1 - D - delta) / D), numeric).verdict == MISMATCH
    assert compare("Thm 9", "", "epsilon", put.theorem9_approx_dp(prior, D, delta), numeric).verdict == MATCH


def test_unknown_paper():
    with pytest.raises(MechDesignError, match="no theory check"):
        run_check("nope")


def test_theory_check_put_cli(capsys):
    """`mechdesign theory-check put` prints every row and exits 0 when every closed form agrees; with
    standard error captured (not a terminal) it draws no progress bar."""
    assert main(["theory-check", "put"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    out = captured.out
    assert "PUT Prop. 8(1) DP" in out and "PUT Thm 7(4) maximal leakage" in out and "PUT Prop. 12" in out
    summary = out.strip().splitlines()[-1]
    assert "mismatch" not in summary and "bound fails" not in summary and "solver failed" not in summary


def test_check_put_reports_each_group_of_statements():
    reports = []
    rows = run_check("put", progress=lambda done, total, text: reports.append((done, total, text)))
    stages = len(reports) - 1  # one report before each group of statements, one at the end
    assert rows and [done for done, _, _ in reports] == list(range(stages + 1))
    assert {total for _, total, _ in reports} == {stages}
    assert all(text.startswith("theory-check put: ") for _, _, text in reports)
    assert reports[-1][2] == "theory-check put: done"


def test_format_table_counts():
    rows = [compare("f", "p", "epsilon", 1.0, 1.0), compare("g", "p", "epsilon", (0.0, 1.0), 0.5)]
    text = format_table(rows)
    assert text.splitlines()[-1] == "2 rows: bound holds 1, match 1"
