"""Tests of mechdesign.checks.put: the PUT closed forms (Zhong & Bu, "Privacy-Utility Trade-Off") agree
with the optimizer on the fast grid (default tests) and on the full grid (slow)."""

import pytest

from mechdesign.checks.mutation import mutation_test, traced_check
from mechdesign.checks.put import FULL_GLOBAL_SIZES, SIDE, binary_product_search, check_put, distortion_grid
from mechdesign.checks.rows import BOUND_FAILS, FAILED, MATCH, MISMATCH


def test_distortion_grid_has_every_breakpoint_and_both_sides():
    grid = distortion_grid([0.3, 2 / 3], upper=1.0, base=(0.05,))
    for b in (0.3, 2 / 3):
        assert any(abs(g - b) < 1e-12 for g in grid)
        assert any(abs(g - (b - SIDE)) < 1e-12 for g in grid) and any(abs(g - (b + SIDE)) < 1e-12 for g in grid)
    assert distortion_grid([1.0], upper=1.0, base=()) == [1.0 - SIDE, 1.0]  # nothing above the range


def test_binary_product_search_finds_the_erratum_value():
    """docs/errata.md, PUT entry 1: Q = [[0.9, 0.1], [0.1, 0.9]] beats Theorem 18(1) as printed (log 8)."""
    assert binary_product_search((0.6, 0.4), 2, 0.1, 0.1) == pytest.approx(2.0655, abs=1e-4)


def statements(rows):
    return {row.formula for row in rows}


@pytest.fixture(scope="module")
def fast():
    """The fast grid's rows, computed with the closed forms instrumented (shared with the self-test)."""
    return traced_check("put")


def test_fast_grid_agrees_with_the_optimizer(fast):
    rows, _ = fast
    bad = [row for row in rows if not row.ok]
    assert not bad, bad[:5]
    names = statements(rows)
    for number in range(1, 8):
        assert any(name.startswith(f"PUT Prop. 8({number})") for name in names)
        assert any(name.startswith(f"PUT Thm 7({number})") for name in names)
        assert any(name.startswith(f"PUT Thm 6({number})") for name in names)
    for statement in ("PUT Thm 13 DP", "PUT Thm 14 maximal leakage", "PUT Cor. 15 maximal leakage",
                      "PUT Lemma 10 zero threshold", "PUT Thm 18(2) maximal leakage", "PUT Lemma 20(4) ε_{δ=0} = ε_DP",
                      "PUT Lemma 20 mi ≤ sibson:2", "PUT Lemma 22(2) Rényi α=2", "PUT Lemma 23 Sibson α=4",
                      "PUT Lemma 16 dp", "PUT Lemma 16 maximal_leakage", "PUT Thm 17(1) DP", "PUT Thm 17(3) maximal information"):
        assert statement in names
    # the Class I sharpening (docs/errata.md, PUT entry 10): Thm 7(5)'s and Thm 17(5)'s upper bounds are the values
    sharp = [row for row in rows if "value = upper bound (Class I" in row.formula]
    assert {row.formula.split(" Rényi")[0] for row in sharp} == {"PUT Thm 7(5)", "PUT Thm 17(5)"}
    # Prop. 8(5)/(6): the value is the upper bound (docs/errata.md, PUT entry 9)
    exact = [row for row in rows if row.formula.endswith("value = upper bound")]
    assert exact and all(row.verdict == MATCH for row in exact)
    # m = 3: the breakpoint (m − 1)/m and both sides of it
    ds = {row.parameters["D"] for row in rows if row.formula == "PUT Prop. 8(1) DP" and row.parameters["m"] == 3}
    assert {round(2 / 3 - SIDE, 12), round(2 / 3, 12), round(2 / 3 + SIDE, 12)} <= {round(d, 12) for d in ds}


def test_fast_grid_self_test(fast):
    """Issue #32 item 1: no numerical value computes a closed form (the 12 Thm 17/18 rows designed at the
    closed-form budget did), every formula reproduces its value, and every exact row fails when a closed
    form it calls is perturbed by 1e-4 (relative)."""
    rows, outside = fast
    report = mutation_test(rows, outside)
    assert report.defects == 0, (report.outside, report.survivors[:3], report.unreproducible[:3], report.without_formula[:3])
    exact = sum(not row.is_bound and row not in report.relations for row in rows)
    assert sum(m.failed for m in report.mutations) >= exact > 150
    assert {"put.thm17_dp_privacy", "put.thm17_maximal_leakage_privacy", "put.thm17_mutual_information_privacy",
            "put.thm18_maximal_leakage_privacy"} <= {m.name for m in report.mutations if m.failed == m.rows}


@pytest.fixture(scope="module")
def full_rows():
    """The whole full grid, the global framework up to (2, 4) and (3, 3) included (issue 32 item 4: 41 min at
    20036d5, 246 s now on the 2-core machine at load 2–3, benchmarks/notes/2026-11-27-renyi-sibson.md)."""
    return check_put(full=True)


@pytest.mark.slow
def test_full_grid_never_contradicts_a_closed_form(full_rows):
    """No mismatch and no failed bound on the full grid, including the global framework at every (m, n) up to
    (2, 4) and (3, 3)."""
    contradicted = [row for row in full_rows if row.verdict in (MISMATCH, BOUND_FAILS)]
    assert not contradicted, contradicted[:5]
    sizes = {(row.parameters["m"], row.parameters["n"]) for row in full_rows if row.formula.startswith("PUT Thm 7(")}
    assert sizes == set(FULL_GLOBAL_SIZES)


@pytest.mark.slow
def test_full_grid_every_solve_succeeds(full_rows):
    failed = [row for row in full_rows if row.verdict == FAILED]
    assert not failed, [(row.formula, row.label) for row in failed]
