import numpy as np
import pytest

from mechdesign.checks import metric
from mechdesign.mechanisms.location import truncated_geometric


def test_fast_grid_matches():
    rows = metric.check_metric()
    assert len(rows) == 2 * 2 * 2 * len(metric.LOSSES)
    assert all(row.verdict == "match" and row.certified for row in rows)


@pytest.mark.parametrize("factor", [1.001, 0.999])
def test_rows_fail_when_the_formula_is_perturbed(monkeypatch, factor):
    """Every row where the mechanism matters (the optimum beats the best constant report) fails when the
    geometric mechanism's ε is off by 0.1 %."""
    rows = metric.check_metric()
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
