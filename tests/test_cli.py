"""Tests of the mechdesign command line (mechdesign.cli)."""

import json
import math

import numpy as np
import pytest

from mechdesign.cli import main


def test_design_json(capsys):
    assert main(["design", "--notion", "dp", "--epsilon", "1", "--n", "3", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["success"] and payload["objective"] == pytest.approx(2 / (math.e + 2), abs=1e-8)


def test_design_text_with_every_notion(capsys):
    for notion in ["dp", "maximal-leakage", "mutual-information", "pml"]:
        assert main(["design", "--notion", notion, "--epsilon", "0.5", "--prior", "0.4,0.3,0.2,0.1"]) == 0
        out = capsys.readouterr().out
        assert "status: optimal" in out and "mechanism (rows = inputs)" in out
    assert main(["design", "--notion", "approx-dp", "--delta", "0.1", "--variant", "hockey_stick",
                 "--epsilon", "0.5", "--n", "3"]) == 0


def test_design_infeasible_cap_exits_1(capsys):
    code = main(["design", "--notion", "dp", "--epsilon", "0.1", "--n", "3", "--objective",
                 "mutual-information", "--max-distortion", "0.01", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 1 and payload["status"] == "infeasible" and payload["smallest_feasible"] > 0.01


def test_design_bad_input_exits_2(capsys):
    assert main(["design", "--epsilon", "-1", "--n", "3"]) == 2
    assert "budget for dp must be a finite number >= 0, got -1.0" in capsys.readouterr().err
    assert main(["design", "--notion", "approx-dp", "--epsilon", "1", "--n", "2"]) == 2
    assert "needs --delta" in capsys.readouterr().err
    assert main(["design", "--epsilon", "1", "--prior", "0.5,0.6"]) == 2
    assert "sums to 1.1" in capsys.readouterr().err
    assert main(["design", "--epsilon", "1"]) == 2
    assert "pass --prior" in capsys.readouterr().err


def test_measure_csv_and_json(tmp_path, capsys):
    csv_path = tmp_path / "m.csv"
    np.savetxt(csv_path, [[0.75, 0.25], [0.25, 0.75]], delimiter=",")
    assert main(["measure", str(csv_path), "--prior", "0.5,0.5", "--delta", "0.1", "--json"]) == 0
    values = json.loads(capsys.readouterr().out)
    assert values["dp"] == pytest.approx(math.log(3), abs=1e-12)
    assert values["approx-dp(pointwise)"] == pytest.approx(math.log(2.6), abs=1e-12)
    assert values["maximal-leakage"] == pytest.approx(math.log(1.5), abs=1e-12)
    json_path = tmp_path / "m.json"
    json_path.write_text(json.dumps({"mechanism": [[1, 0], [0.5, 0.5]]}))
    assert main(["measure", str(json_path), "--json"]) == 0
    values = json.loads(capsys.readouterr().out)
    assert values["dp"] == "inf" and values["pml"].startswith("skipped") and values["approx-dp(pointwise)"].startswith("skipped")


def test_measure_errors(tmp_path, capsys):
    assert main(["measure", str(tmp_path / "missing.csv")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("0.5,0.4\n0.5,0.5\n")
    assert main(["measure", str(bad)]) == 2
    assert "row 0 sums to 0.9" in capsys.readouterr().err


def test_demo_writes_table_and_plot(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "all points certified: True" in out
    assert (tmp_path / "curve.png").stat().st_size > 10_000
    table = np.loadtxt(tmp_path / "curve.csv", delimiter=",", skiprows=1)
    assert np.allclose(table[:, 1], table[:, 2], atol=1e-8) and np.allclose(table[:, 3], table[:, 4], atol=1e-8)


def test_sml_measure_and_errors(tmp_path, capsys):
    path = tmp_path / "q.csv"
    np.savetxt(path, [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]], delimiter=",")
    assert main(["sml", str(path), "--secret", "a,a,b", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["sml"] == pytest.approx(math.log(1.7), abs=1e-12) and payload["selection"] == [0, 2]
    assert payload["exact"] and payload["property1_bounds"][0] <= payload["sml"] <= payload["property1_bounds"][1]
    assert main(["sml", str(path), "--secret", "a,a,b", "--method", "milp"]) == 0
    assert "0.5306282511 nats [milp, exact]" in capsys.readouterr().out
    assert main(["sml", str(path), "--secret", "a,b", "--method", "milp"]) == 2
    assert "secret is defined on 2 inputs, but the mechanism has 3" in capsys.readouterr().err
    assert main(["sml", str(path), "--secret", "a,a,b", "--method", "flow"]) == 2
    assert "only for deterministic" in capsys.readouterr().err


def test_sml_design(capsys):
    assert main(["sml-design", "--secret", "0,0,1,1", "--budget", "0.3", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["success"] and payload["certified"] and payload["measured"]["sml[s=2]"] <= 0.3 + 1e-6
    assert main(["sml-design", "--tau", "4", "--d", "3", "--budget", "0.5"]) == 0  # 120 selections
    assert "constraint generation" in capsys.readouterr().out
    assert main(["sml-design", "--budget", "0.5"]) == 2
    assert "needs --secret" in capsys.readouterr().err


def test_design_and_measure_with_the_put_notions(tmp_path, capsys):
    for notion in ["max-information", "renyi-dp", "sibson-mi"]:
        assert main(["design", "--notion", notion, "--alpha", "2", "--epsilon", "0.5",
                     "--prior", "0.4,0.3,0.2,0.1", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["success"]
    assert main(["design", "--notion", "renyi-dp", "--epsilon", "0.5", "--n", "3"]) == 2
    assert "needs --alpha" in capsys.readouterr().err
    csv_path = tmp_path / "m.csv"
    np.savetxt(csv_path, [[0.75, 0.25], [0.25, 0.75]], delimiter=",")
    assert main(["measure", str(csv_path), "--prior", "0.5,0.5", "--alpha", "2", "--json"]) == 0
    values = json.loads(capsys.readouterr().out)
    assert values["renyi-dp"] == pytest.approx(math.log(7 / 3), abs=1e-12)
    assert values["sibson-mi"] == pytest.approx(math.log(1.25), abs=1e-12)
    assert values["max-information"] == pytest.approx(math.log(1.5), abs=1e-12)
    assert main(["measure", str(csv_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["renyi-dp"].startswith("skipped")


def test_curve_privacy_and_distortion_modes(tmp_path, capsys):
    import csv

    from mechdesign.theory import put

    prefix = tmp_path / "ml"
    assert main(["curve", "--notion", "maximal-leakage", "--n", "3", "--mode", "privacy",
                 "--values", "0.1,0.4", "--out", str(prefix)]) == 0
    rows = list(csv.DictReader((tmp_path / "ml.csv").open()))
    assert [float(r["epsilon"]) for r in rows] == pytest.approx([put.prop8_epsilon_ml(3, 0.1),
                                                                  put.prop8_epsilon_ml(3, 0.4)], abs=1e-6)
    assert (tmp_path / "ml.png").stat().st_size > 0
    assert "wrote" in capsys.readouterr().out
    # No prior knowledge: worst case over the simplex; D*(ε) of DP is randomized response's.
    assert main(["curve", "--notion", "dp", "--n", "3", "--no-prior-knowledge", "--grid", "0,2,3",
                 "--out", str(tmp_path / "dp")]) == 0
    rows = list(csv.DictReader((tmp_path / "dp.csv").open()))
    assert [float(r["worst_case_distortion"]) for r in rows] == pytest.approx(
        [put.prop8_distortion_dp(3, e) for e in (0.0, 1.0, 2.0)], abs=1e-7)


def test_curve_reports_unreachable_points_and_bad_input(tmp_path, capsys):
    assert main(["curve", "--notion", "sibson-mi", "--alpha", "2", "--n", "2", "--mode", "privacy",
                 "--values=-0.1,0.3", "--out", str(tmp_path / "s")]) == 1
    assert "below the least distortion" in capsys.readouterr().out
    assert main(["curve", "--n", "3", "--out", str(tmp_path / "x")]) == 2
    assert "exactly one of --values" in capsys.readouterr().err
    assert main(["curve", "--n", "3", "--grid", "0,1,1.5", "--out", str(tmp_path / "x")]) == 2
    assert "integer count >= 2" in capsys.readouterr().err
    assert main(["curve", "--no-prior-knowledge", "--values", "1", "--out", str(tmp_path / "x")]) == 2
    assert "needs the alphabet size --n" in capsys.readouterr().err
    assert main(["curve", "--values", "1", "--out", str(tmp_path / "x")]) == 2
    assert "curve needs --prior" in capsys.readouterr().err


# --- theory-check -----------------------------------------------------------------------------


def test_theory_check_json_is_strict_and_exits_0_when_everything_agrees(tmp_path, capsys):
    """`mechdesign theory-check pml --format json --plots DIR`: strict JSON rows, one PNG per statement."""
    assert main(["theory-check", "pml", "--format", "json", "--plots", str(tmp_path / "plots")]) == 0
    captured = capsys.readouterr()

    def refuse(token):
        raise AssertionError(f"non-standard JSON token {token}")

    document = json.loads(captured.out, parse_constant=refuse)
    assert document["rows"] and {row["verdict"] for row in document["rows"]} <= {"match", "bound holds"}
    assert all(row["formula"].startswith("PML ") for row in document["rows"])
    assert list((tmp_path / "plots").glob("*.png")) and "wrote" in captured.err


def test_theory_check_markdown(capsys):
    assert main(["theory-check", "sml", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| formula | parameters |") and "SML Thm. 4 RR SML" in out


@pytest.mark.parametrize("verdict_row", [("mismatch", 1.0, 2.0), ("bound fails", (0.0, 1.0), 2.0), ("failed", 1.0, math.nan)])
def test_theory_check_exits_1_on_a_mismatch_a_failed_bound_or_a_failed_solve(monkeypatch, capsys, verdict_row):
    from mechdesign.checks import CHECKS
    from mechdesign.checks.rows import compare

    verdict, closed, numeric = verdict_row
    monkeypatch.setitem(CHECKS, "pml", lambda full=False: [compare("f", {"D": 0.1}, "epsilon", closed, numeric)])
    assert main(["theory-check", "pml"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == f"1 rows: {verdict} 1"


def test_theory_check_bad_plots_directory_is_a_named_error(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["theory-check", "pml", "--plots", str(target)]) == 2
    assert "--plots must name a directory" in capsys.readouterr().err
