"""Tests of mechdesign.checks.rows: verdicts of a closed form against a numerical value."""

import math

import pytest

from mechdesign.checks.rows import (
    BOUND_FAILS,
    BOUND_HOLDS,
    CLOSED_FORM_ATOL,
    FAILED,
    MATCH,
    MISMATCH,
    compare,
    lower_bound,
    upper_bound,
    verdict_counts,
)


def test_compare_verdicts():
    assert compare("f", {}, "epsilon", 1.0, 1.0 + 0.5 * CLOSED_FORM_ATOL).verdict == MATCH
    assert compare("f", {}, "epsilon", 1.0, 1.0 + 2 * CLOSED_FORM_ATOL).verdict == MISMATCH
    row = compare("f", {}, "epsilon", (0.5, 1.0), 0.7)
    assert row.verdict == BOUND_HOLDS and row.gap == pytest.approx(0.2) and row.ok
    row = compare("f", {}, "epsilon", (0.5, 1.0), 1.2)
    assert row.verdict == BOUND_FAILS and row.gap == pytest.approx(-0.2) and not row.ok
    assert compare("f", {}, "epsilon", 1.0, math.nan).verdict == FAILED
    assert not compare("f", {}, "epsilon", 1.0, math.inf).ok


def test_one_sided_bounds():
    assert compare("f", {}, "x", lower_bound(0.5), 10.0).verdict == BOUND_HOLDS
    assert compare("f", {}, "x", lower_bound(0.5), 0.4).verdict == BOUND_FAILS
    assert compare("f", {}, "x", upper_bound(0.5), -10.0).verdict == BOUND_HOLDS
    assert compare("f", {}, "x", upper_bound(0.5), 0.6).verdict == BOUND_FAILS


def test_label_and_counts():
    row = compare("f", {"m": 3, "D": 0.123456, "P": "(0.5,0.5)"}, "epsilon", 1.0, 1.0)
    assert row.label == "m=3, D=0.1235, P=(0.5,0.5)"
    rows = [row, compare("g", {}, "x", 1.0, 2.0), compare("h", {}, "x", 1.0, 1.0)]
    assert verdict_counts(rows) == {MATCH: 2, MISMATCH: 1}


def test_an_uncertified_disagreement_is_a_failed_solve_not_a_wrong_formula():
    assert compare("f", {}, "x", 1.0, 1.5, certified=False).verdict == FAILED
    assert compare("f", {}, "x", (0.0, 1.0), 1.5, certified=False).verdict == FAILED
    assert compare("f", {}, "x", 1.0, 1.0, certified=False).verdict == MATCH
    assert compare("f", {}, "x", (0.0, 1.0), 0.5, certified=False).verdict == BOUND_HOLDS
