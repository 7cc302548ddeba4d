"""The command line's metric DP (issue 35): ``--notion metric-dp`` on ``--points FILE`` or ``--grid WxH``."""

import json
import math

import numpy as np
import pytest

from mechdesign import ExpectedDistortion, Prior, design
from mechdesign.cli import main
from mechdesign.mechanisms.location import truncated_geometric
from mechdesign.privacy.metric import MetricDifferentialPrivacy


def _payload(text):
    envelope = json.loads(text)
    return envelope["payload"]["result"] if envelope["kind"] == "mechanism" else envelope["payload"]


def test_grid_design_is_the_api_design_with_the_expected_distance(capsys):
    """``--grid 3x3`` with no alphabet: a uniform prior over the 9 locations and the Euclidean distance as the
    distortion — the optimum the API finds for that problem (an independent call, the same certified solver)."""
    assert main(["design", "--notion", "metric-dp", "--grid", "3x3", "--epsilon", "0.8"]) == 0
    out = capsys.readouterr().out
    assert "budget: ε = 0.8 nats per unit of distance, 9 locations" in out
    assert "distortion: the expected distance (in units of distance)" in out
    assert "metric-dp(per unit)" in out and "status: optimal" in out
    assert main(["design", "--notion", "metric-dp", "--grid", "3x3", "--epsilon", "0.8", "--json"]) == 0
    payload = _payload(capsys.readouterr().out)
    notion = MetricDifferentialPrivacy.grid(3, 3)
    expected = design(notion, 0.8, ExpectedDistortion(Prior.uniform(9), notion.distances))
    assert payload["objective"] == pytest.approx(expected.objective, abs=1e-9)
    assert payload["status"] == "optimal"


def test_line_of_points_against_the_truncated_geometric_mechanism(tmp_path, capsys):
    """Points 0, 1, …, 4 on a line, a prior and the distance: the optimum is the truncated geometric mechanism
    remapped (Ghosh, Roughgarden & Sundararajan) — its loss is at least the optimum, and the optimum is
    no worse than the unremapped mechanism's loss."""
    path = tmp_path / "line.csv"
    np.savetxt(path, np.arange(5.0)[:, None], delimiter=",")
    prior = np.array([0.1, 0.3, 0.2, 0.3, 0.1])
    assert main(["design", "--notion", "metric-dp", "--points", str(path), "--epsilon", "0.7", "--json",
                 "--prior", ",".join(map(str, prior))]) == 0
    optimum = _payload(capsys.readouterr().out)["objective"]
    distance = np.abs(np.arange(5.0)[:, None] - np.arange(5.0)[None, :])
    geometric = (prior[:, None] * truncated_geometric(5, 0.7).matrix * distance).sum()
    assert 0 < optimum <= geometric + 1e-12


def test_budgets_in_bits_and_kilometres(tmp_path, capsys):
    path = tmp_path / "cities.csv"
    path.write_text("48.85,2.35\n51.51,-0.13\n52.52,13.40\n")
    assert main(["design", "--notion", "metric-dp", "--points", str(path), "--metric", "great-circle",
                 "--epsilon", "0.01", "--units", "bits"]) == 0
    out = capsys.readouterr().out
    assert "budget: ε = 0.01 bits per km, 3 locations; distortion: the expected distance (in km)" in out
    assert "metric-dp(per km)" in out


def test_manhattan_metric_changes_the_design(capsys):
    objectives = {}
    for metric in ("euclidean", "manhattan"):
        assert main(["design", "--notion", "metric-dp", "--grid", "2x2", "--metric", metric, "--epsilon", "1",
                     "--json"]) == 0
        objectives[metric] = _payload(capsys.readouterr().out)["objective"]
    notion = MetricDifferentialPrivacy.grid(2, 2, norm="manhattan")
    expected = design(notion, 1.0, ExpectedDistortion(Prior.uniform(4), notion.distances)).objective
    assert objectives["manhattan"] == pytest.approx(expected, abs=1e-9)
    assert objectives["manhattan"] != pytest.approx(objectives["euclidean"], abs=1e-6)


def test_one_location_needs_no_coordinates(capsys):
    """There is one metric on one point: a one-symbol prior needs neither --points nor --grid."""
    assert main(["design", "--notion", "metric-dp", "--epsilon", "1", "--n", "1", "--json"]) == 0
    assert _payload(capsys.readouterr().out)["objective"] == 0.0
    assert main(["design", "--notion", "metric-dp", "--epsilon", "1", "--n", "2"]) == 2
    assert "needs --points FILE" in capsys.readouterr().err


def _curve_rows(path):
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    return [dict(zip(header, line.split(","))) for line in lines[1:]]


def test_curve_traces_the_certified_designs(tmp_path, capsys):
    """Issue 35 item 3: ``curve --notion metric-dp --location-grid 3x3`` (curve's --grid is its grid of values): a
    uniform prior over the locations and the expected distance, every point the API design at that budget
    (the same method, metric-cone), certified, measured within its budget, and non-increasing in ε."""
    from mechdesign.result import within_budget
    budgets = [0.2, 0.5, 1.0, 2.0, 4.0]
    out = tmp_path / "metric"
    assert main(["curve", "--notion", "metric-dp", "--location-grid", "3x3", "--values", ",".join(map(str, budgets)),
                 "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "epsilon (nats per unit of distance) 4: expected_distortion" in printed
    rows = _curve_rows(out.with_suffix(".csv"))
    notion = MetricDifferentialPrivacy.grid(3, 3)
    objective = ExpectedDistortion(Prior.uniform(9), notion.distances)
    values = [float(row["expected_distortion"]) for row in rows]
    for budget, row in zip(budgets, rows, strict=True):
        expected = design(notion, budget, objective)
        assert row["status"] == "optimal" and row["method"] == expected.method == "metric-cone"
        assert float(row["gap"]) <= 1e-7 * max(objective.unit, expected.objective)
        assert within_budget(float(row["measured[metric-dp(per unit)]"]), budget)
        assert abs(float(row["expected_distortion"]) - expected.objective) <= float(row["gap"]) + expected.gap + 1e-12
    assert all(later <= earlier + 1e-12 for earlier, later in zip(values, values[1:]))
    assert values[-1] < values[0]  # not a flat line: the budget matters
    assert out.with_suffix(".png").stat().st_size > 0


def test_privacy_curve_on_points_with_a_prior(tmp_path, capsys):
    """ε*(D) on 4 points of a line under a prior: certified, decreasing in D, and each point's mechanism meets D
    at the ε the curve reports (the D*(ε) design there is D within the bisection's tolerance)."""
    path = tmp_path / "line.csv"
    np.savetxt(path, np.arange(4.0)[:, None], delimiter=",")
    prior = [0.1, 0.4, 0.3, 0.2]
    out = tmp_path / "eps"
    assert main(["curve", "--notion", "metric-dp", "--points", str(path), "--prior", ",".join(map(str, prior)),
                 "--mode", "privacy", "--values", "0.2,0.4,0.6", "--out", str(out), "--quiet"]) == 0
    rows = _curve_rows(out.with_suffix(".csv"))
    epsilons = [float(row["epsilon"]) for row in rows]
    assert all(row["status"] == "optimal" for row in rows)
    assert epsilons[0] > epsilons[1] > epsilons[2] > 0
    notion = MetricDifferentialPrivacy.from_points(np.arange(4.0))
    objective = ExpectedDistortion(Prior(prior), notion.distances)
    for limit, epsilon in zip((0.2, 0.4, 0.6), epsilons):
        assert design(notion, epsilon, objective).objective == pytest.approx(limit, abs=1e-6)
    capsys.readouterr()


def test_privacy_curve_does_not_depend_on_the_unit_of_distance(tmp_path, capsys):
    """The 3 × 3 grid in units and in hundredths of them: ε*(D) per unit scales by 100 with D (it was 'not reached
    within budget 20' in hundredths: the bisection's reach was 20 nats per unit of distance whatever the unit)."""
    points = np.array([[x, y] for y in range(3) for x in range(3)], dtype=float)
    epsilons = {}
    for index, scale in enumerate((1.0, 0.01)):
        path = tmp_path / f"grid{index}.csv"
        np.savetxt(path, points * scale, delimiter=",")
        out = tmp_path / f"eps{index}"
        assert main(["curve", "--notion", "metric-dp", "--points", str(path), "--mode", "privacy", "--values",
                     f"{0.5 * scale!r}", "--out", str(out), "--quiet"]) == 0
        row, = _curve_rows(out.with_suffix(".csv"))
        assert row["status"] == "optimal"
        epsilons[scale] = float(row["epsilon"])
    assert epsilons[0.01] == pytest.approx(100 * epsilons[1.0], rel=1e-7)
    capsys.readouterr()


@pytest.mark.parametrize("arguments, message", [
    ([], "notion 'metric-dp' needs --points FILE (a CSV of coordinates) or --location-grid WxH"),
    (["--location-grid", "3y3"], "--location-grid must be WxH, two positive integers (e.g. 8x8), got '3y3'"),
    (["--location-grid", "2x2", "--points", "p.csv"], "needs one of --points and --location-grid, not both"),
    (["--location-grid", "2x2", "--n", "3"], "the prior has 3 entries but the metric 4 locations (--location-grid 2x2)"),
    (["--location-grid", "2x2", "--no-prior-knowledge", "--n", "4"], "takes a prior over the locations"),
    (["--points", "missing.csv"], "cannot read --points missing.csv"),
    (["--location-grid", "2x2", "--metric", "chebyshev"], "invalid choice: 'chebyshev'"),
])
def test_curve_bad_input_is_one_named_line_and_exit_2(arguments, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["curve", "--notion", "metric-dp", "--values", "1", "--quiet", *arguments]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("mechdesign: error: ")
    assert message in error, error
    assert not (tmp_path / "curve.csv").exists()


def test_curve_grid_is_still_its_grid_of_values(tmp_path, monkeypatch, capsys):
    """On curve --grid is start,stop,count (the values): a grid of locations there is a named error."""
    monkeypatch.chdir(tmp_path)
    assert main(["curve", "--notion", "metric-dp", "--grid", "3x3", "--location-grid", "2x2"]) == 2
    assert "--grid must be start,stop,count" in capsys.readouterr().err
    assert main(["curve", "--notion", "metric-dp", "--grid", "0.5,1,2", "--location-grid", "2x2", "--quiet"]) == 0
    assert len(_curve_rows(tmp_path / "curve.csv")) == 2
    capsys.readouterr()


def test_measure_with_locations(tmp_path, capsys):
    path = tmp_path / "m.csv"
    np.savetxt(path, [[0.75, 0.25], [0.25, 0.75]], delimiter=",")
    assert main(["measure", str(path), "--grid", "2x1"]) == 0
    assert f"metric-dp                    {math.log(3):.10g} nats per unit of distance" in capsys.readouterr().out
    assert main(["measure", str(path), "--grid", "1x2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metric-dp"] == pytest.approx(math.log(3), rel=1e-12)
    assert main(["measure", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["skipped"]["metric-dp"] == (
        "notion 'metric-dp' needs --points FILE (a CSV of coordinates) or --grid WxH")


@pytest.mark.parametrize("arguments, message", [
    (["--grid", "2x2"], "--grid has 4 locations (one per input of m.csv), expected 2"),
    (["--grid", "3x"], "--grid must be WxH, two positive integers (e.g. 8x8), got '3x'"),
    (["--points", "missing.csv"], "cannot read --points missing.csv"),
    (["--grid", "100000x100000"], "the 100,000 × 100,000 grid's points needs an estimated"),
])
def test_measure_with_bad_locations_is_one_named_line_and_exit_2(arguments, message, tmp_path, monkeypatch, capsys):
    """Locations given to measure but unusable were a 'skipped' line and exit 0; they are an error, as a bad
    --delta is (without location options metric-dp is still skipped, test above)."""
    monkeypatch.chdir(tmp_path)
    np.savetxt(tmp_path / "m.csv", [[0.75, 0.25], [0.25, 0.75]], delimiter=",")
    assert main(["measure", "m.csv", *arguments]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("mechdesign: error: ")
    assert message in error, error


@pytest.mark.parametrize("arguments, message", [
    ([], "notion 'metric-dp' needs --points FILE (a CSV of coordinates) or --grid WxH"),
    (["--grid", "3y3"], "--grid must be WxH, two positive integers (e.g. 8x8), got '3y3'"),
    (["--grid", "0x3"], "--grid must be WxH, two positive integers (e.g. 8x8), got '0x3'"),
    (["--grid", "2x2", "--points", "p.csv"], "notion 'metric-dp' needs one of --points and --grid, not both"),
    (["--grid", "2x2", "--n", "3"], "the prior has 3 entries but the metric 4 locations (--grid 2x2)"),
    (["--points", "missing.csv"], "cannot read --points missing.csv"),
    (["--points", "{text}"], "is not a CSV of numbers"),
    (["--points", "{duplicate}"], "euclidean distance of --points duplicate.csv puts distinct points 0 and 1 at distance 0: they must be "
                                 "treated as one location"),
    (["--points", "{pole}", "--metric", "great-circle"], "--points pole.csv row 0 has latitude 100.0, outside [-90, 90] degrees"),
    (["--grid", "2x2", "--metric", "chebyshev"], "invalid choice: 'chebyshev'"),
    (["--grid", "3x"], "--grid must be WxH, two positive integers (e.g. 8x8), got '3x'"),
    (["--grid", "100000x100000"], "the 100,000 × 100,000 grid's points needs an estimated"),  # was exit 3
    (["--points", "{nan}"], "--points nan.csv has a non-finite entry nan at index (1, 1)"),
    (["--points", "{empty}"], "--points empty.csv holds no coordinates"),
    (["--points", "{latin1}"], "--points latin1.csv is not a CSV of numbers"),
    (["--points", "{ragged}"], "--points ragged.csv is not a CSV of numbers"),
])
def test_bad_input_is_one_named_line_and_exit_2(arguments, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "text.csv").write_text("a,b\nc,d\n")
    (tmp_path / "duplicate.csv").write_text("0,100\n0,100\n1,2\n")
    (tmp_path / "pole.csv").write_text("100,0\n0,0\n")
    (tmp_path / "nan.csv").write_text("0,0\n1,nan\n")
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "latin1.csv").write_bytes("0,0\n1,\u00e9\n".encode("latin-1"))
    (tmp_path / "ragged.csv").write_text("0,0\n1,1,2\n")
    names = {name: f"{name}.csv" for name in ("text", "duplicate", "pole", "nan", "empty", "latin1", "ragged")}
    arguments = [argument.format(**names) for argument in arguments]
    assert main(["design", "--notion", "metric-dp", "--epsilon", "1", *arguments]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("mechdesign: error: ")
    assert message in error, error


def test_design_builds_the_locations_once(monkeypatch, capsys):
    """With no alphabet, design took the number of locations from one notion and built a second for the design:
    two (n, n) distance matrices where one does."""
    from mechdesign import cli

    calls = []
    factory = cli.NOTIONS["metric-dp"]
    monkeypatch.setitem(cli.NOTIONS, "metric-dp", lambda options, prior: calls.append(prior) or factory(options, prior))
    assert main(["design", "--notion", "metric-dp", "--grid", "2x2", "--epsilon", "1"]) == 0
    assert len(calls) == 1
    assert main(["design", "--notion", "metric-dp", "--grid", "2x2", "--epsilon", "1", "--n", "4"]) == 0
    assert len(calls) == 2  # with an alphabet, the notion checks the prior's size
    capsys.readouterr()


def test_measure_builds_the_locations_once(tmp_path, monkeypatch, capsys):
    """measure built the notion once to check its locations against the mechanism and again to measure it: two
    (n, n) distance matrices where one does. Without locations, metric-dp is still built (and skipped) once."""
    from mechdesign import cli

    path = tmp_path / "m.csv"
    np.savetxt(path, [[0.75, 0.25], [0.25, 0.75]], delimiter=",")
    calls = []
    factory = cli.NOTIONS["metric-dp"]
    monkeypatch.setitem(cli.NOTIONS, "metric-dp", lambda options, prior: calls.append(prior) or factory(options, prior))
    assert main(["measure", str(path), "--grid", "2x1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metric-dp"] == pytest.approx(math.log(3), rel=1e-12)
    assert len(calls) == 1
    assert main(["measure", str(path), "--json"]) == 0
    assert "metric-dp" in json.loads(capsys.readouterr().out)["skipped"]
    assert len(calls) == 2
