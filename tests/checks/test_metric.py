import numpy as np
import pytest

from mechdesign.checks import metric
from mechdesign.checks.mutation import mutation_test, traced_check
from mechdesign.mechanisms.location import truncated_geometric


@pytest.fixture(scope="module")
def fast():
    """The fast grid's rows, computed with the closed forms instrumented (shared with the self-test)."""
    return traced_check("metric")


def test_fast_grid_matches(fast):
    rows, _ = fast
    assert len(rows) == 2 * 2 * 2 * len(metric.LOSSES) + 3
    assert all(row.verdict == "match" and row.certified for row in rows)


def test_fast_grid_self_test(fast):
    """Every row is perturbed and fails (``theory-check metric --self-test``): the geometric mechanism's loss
    (GRS) and the planar Laplace two-location mass are closed forms of mechdesign.checks.mutation, so no row is
    left as an unperturbed relation (before, all 35 were)."""
    report = mutation_test(*fast)
    assert report.defects == 0, (report.outside, report.survivors[:3], report.unreproducible[:3])
    assert not report.relations
    assert {m.name: (m.rows, m.failed) for m in report.mutations} == {
        "checks.metric.geometric_loss": (32, 32), "checks.metric.two_location_mass": (3, 3)}


@pytest.mark.parametrize("factor", [1 + 1e-9, 1 - 1e-9])
def test_planar_laplace_rows_fail_when_the_closed_form_is_perturbed(monkeypatch, factor):
    rows = [row for row in metric.check_metric() if row.formula.startswith("Andrés")]
    assert len(rows) == 3
    mass = metric.two_location_mass
    monkeypatch.setattr(metric, "two_location_mass", lambda epsilon, spacing: mass(epsilon, spacing) * factor)
    assert all(row.recompute().verdict == "mismatch" for row in rows)


def test_two_location_mass_limits():
    """ε → 0: half the mass on each side; large ε h: the tail ``≈ (1/π) √(π/2) (εh)^{1/2} e^{-εh}`` of
    ``t K₁(t) ≈ √(π t / 2) e^{-t}``, to its first correction ``(1 + 3/(8t))`` and the integration's ``1/(2t)``."""
    assert metric.two_location_mass(1e-9, 2.0) == pytest.approx(0.5, abs=1e-9)
    x = 40.0
    leading = np.sqrt(np.pi * x / 2) * np.exp(-x) / np.pi
    assert metric.two_location_mass(x, 2.0) == pytest.approx(leading, rel=3 / x)


@pytest.mark.parametrize("factor", [1.001, 0.999])
def test_rows_fail_when_the_formula_is_perturbed(monkeypatch, factor):
    """Every row where the mechanism matters (the optimum beats the best constant report) fails when the
    geometric mechanism's ε is off by 0.1 %."""
    rows = [row for row in metric.check_metric() if row.formula.startswith("GRS")]
    monkeypatch.setattr(metric, "truncated_geometric", lambda n, epsilon: truncated_geometric(n, epsilon * factor))
    informative = 0
    for row in rows:
        n = row.parameters["n"]
        gaps = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]).astype(float)
        loss = metric.LOSSES[row.parameters["loss"]](gaps)
        prior = np.full(n, 1.0 / n) if row.parameters["prior"] == "uniform" else None
        if prior is not None and row.numeric < (prior @ loss).min() - 1e-6:
            informative += 1
            assert row.recompute().verdict == "mismatch", row
    assert informative >= 8
