"""Tests of mechdesign.checks.mutation: the referee's self-test (`mechdesign theory-check --self-test`).

The self-test of each paper's fast grid runs in that paper's test module (tests/checks/test_<paper>.py),
on the rows its agreement test already computes; here its parts are tested on small hand-built rows.
"""

import json
import math

import numpy as np
import pytest

from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior, design
from mechdesign.checks import mutation
from mechdesign.checks.mutation import (
    closed_forms,
    format_self_test,
    instrumented,
    mutation_test,
    perturb,
    self_test_record,
)
from mechdesign.checks.put import _product_rows
from mechdesign.checks.rows import compare, parameter_choice, upper_bound
from mechdesign.cli import main
from mechdesign.mechanisms.global_framework import hamming_neighbours, product_mechanism
from mechdesign.mechanism import Mechanism
from mechdesign.theory import put


def test_perturb_moves_every_float_relative_to_at_least_one():
    assert perturb(2.0, 1) == pytest.approx(2.0002, abs=1e-15)
    assert perturb(0.0, -1) == -1e-4  # relative to max(|v|, 1): a zero moves too
    assert perturb((0.5, math.inf), 1) == (0.5 + 1e-4, math.inf)
    assert perturb([1.0, -3.0], -1) == [1.0 - 1e-4, -3.0 - 3e-4]
    assert perturb(3, 1) == 3 and perturb(True, 1) is True and perturb("a", 1) == "a"
    assert np.allclose(perturb(np.array([0.0, 10.0, np.nan]), 1, 1e-2)[:2], [0.01, 10.1])
    assert np.allclose(perturb(Mechanism([[0.5, 0.5], [0.0, 1.0]]), 1), [[0.5001, 0.5001], [1e-4, 1.0001]])


def test_closed_forms_are_the_public_functions_not_the_deprecated_aliases():
    forms = closed_forms()
    assert "put.prop8_dp_privacy" in forms and "sml.thm4_rr_sml" in forms and "summary.propc1_gamma_max" in forms
    assert "put.prop8_epsilon_dp" not in forms  # a 0.1.0 alias
    assert not any(name.rsplit(".", 1)[1].startswith("_") for name in forms)
    assert set(forms) >= {"mechanisms.additive.laplace_pml", "mechanisms.pml.binary_robust_pml_mechanism"}


def test_instrumented_restores_the_closed_forms_and_refuses_nesting():
    original = put.prop8_dp_privacy
    with instrumented() as state:
        assert put.prop8_dp_privacy is not original
        with pytest.raises(RuntimeError, match="already instrumented"):
            with instrumented():
                pass
        state.perturbed = ("put.prop8_dp_privacy", 1)
        assert put.prop8_dp_privacy(2, 0.2) == pytest.approx(original(2, 0.2) + 1e-4 * original(2, 0.2))
    assert put.prop8_dp_privacy is original


def test_calls_outside_formulas_and_parameter_choices_are_reported():
    with instrumented() as state:
        with parameter_choice():
            put.lemma5_zero_threshold(2)
        compare("f", {}, "epsilon", lambda: put.prop8_dp_privacy(2, 0.2), 1.0)
        put.prop8_maximal_leakage_privacy(2, 0.2)
    assert set(state.outside) == {"put.prop8_maximal_leakage_privacy"}


def old_thm17_row(m, n, D):
    """The 0.x Thm 17(1) row: the single-letter mechanism designed at the closed-form budget and its product
    measured, compared with the closed form (the numerical value moves with the formula)."""
    result = design(DifferentialPrivacy(), put.prop8_dp_privacy(m, D / n), ExpectedDistortion(Prior.uniform(m)))
    numeric = DifferentialPrivacy(hamming_neighbours(m, n)).measure(product_mechanism(result.mechanism.matrix, n))
    return compare("PUT Thm 17(1) DP", {"m": m, "n": n, "D": D}, "epsilon", lambda: put.thm17_dp_privacy(m, n, D), numeric)


def test_a_numerical_value_computed_from_its_closed_form_cannot_fail_and_is_reported():
    """The issue's 12 PUT rows that could not fail (Thm 17(1), (4), (7), Thm 18(2)): designed at the
    closed-form budget, they still matched with the closed form perturbed — run again in full under the
    perturbation here. The self-test names the closed form that fed the numerical value; the rows as built
    now (the optimizer's ε*(D/n), no closed form) fail under the same perturbation."""
    with instrumented() as state:
        state.perturbed = ("put.prop8_dp_privacy", 1)  # Thm 17(1) is Prop. 8(1) at D/n: both sides move
        assert old_thm17_row(2, 2, 0.5).ok
        state.perturbed = None
    assert "put.prop8_dp_privacy" in state.outside
    with instrumented() as state:
        rows = _product_rows("PUT Thm 17(1) DP", lambda D: put.thm17_dp_privacy(2, 2, D), DifferentialPrivacy(),
                             DifferentialPrivacy(hamming_neighbours(2, 2)), ExpectedDistortion(Prior.uniform(2)), 2, [0.5], {})
    assert not state.outside and rows[0].ok
    report = mutation_test(rows)
    assert [(m.name, m.rows, m.failed) for m in report.mutations] == [("put.thm17_dp_privacy", 1, 1)] and report.ok


def test_a_formula_that_captured_a_loop_variable_late_is_unreproducible():
    rows = [compare("f", {"D": D}, "epsilon", lambda: put.prop8_dp_privacy(2, D), put.prop8_dp_privacy(2, D))  # noqa: B023
            for D in (0.1, 0.2)]
    report = mutation_test(rows)
    assert [row.parameters["D"] for row in report.unreproducible] == [0.1] and not report.ok


def test_rows_without_formula_and_relations_are_told_apart():
    report = mutation_test([compare("value", {}, "x", 1.0, 1.0), compare("relation", {}, "x", lambda: upper_bound(2.0), 1.0)])
    assert [row.formula for row in report.without_formula] == ["value"]
    assert [row.formula for row in report.relations] == ["relation"]
    assert report.defects == 1


def test_a_bound_the_perturbation_does_not_move_survives_as_a_defect():
    """A formula that calls a closed form but does not depend on it (here: discards it) cannot fail."""
    row = compare("discards", {}, "x", lambda: upper_bound(max(2.0, put.prop8_dp_privacy(2, 0.4))), 1.0)
    report = mutation_test([row])
    assert report.survivors == [row]


def test_a_loose_bound_reports_the_slack_of_the_side_that_moved():
    row = compare("bracket", {}, "x", lambda: (0.0, put.prop8_dp_privacy(2, 0.4)), 0.0)  # upper log(1.5), lower attained
    mutation_record, = mutation_test([row]).mutations
    assert mutation_record.loose[0][1] == pytest.approx(math.log(1.5), abs=1e-12)


def test_json_record_is_strict():
    row = compare("f", {"D": 0.2}, "epsilon", lambda: put.prop8_dp_privacy(2, 0.2), math.nan)
    text = format_self_test(mutation_test([row]), "json")
    record = json.loads(text, parse_constant=lambda token: pytest.fail(f"non-standard token {token}"))
    assert record == self_test_record(mutation_test([row]))
    assert record["counts"] == {"failed": 1} and record["closed_forms"] == [] and not record["ok"]
    assert format_self_test(mutation_test([row]), "markdown").startswith("| closed form |")


def test_cli_self_test(capsys):
    """`mechdesign theory-check pml --self-test`: the report, exit 0 (every exact row fails its perturbation)."""
    assert main(["theory-check", "pml", "--self-test", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "pml.eq13_modified_epsilon" in out and out.splitlines()[-1].endswith("0 defects")


def test_cli_self_test_exits_nonzero_on_a_defect(capsys, monkeypatch):
    """A survivor makes the run fail: here every formula's perturbation is switched off."""
    monkeypatch.setattr(mutation, "perturb", lambda value, sign, size=mutation.PERTURBATION: value)
    assert main(["theory-check", "pml", "--self-test", "--quiet"]) == 1
    assert "SURVIVOR: " in capsys.readouterr().out
