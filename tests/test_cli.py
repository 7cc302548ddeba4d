"""Tests of the mechdesign command line (mechdesign.cli)."""

import json
import math
import os

import numpy as np
import pytest

from mechdesign.cli import main
from mechdesign.files import load_record, mechanism_from_payload
from mechdesign.mechanism import Mechanism
from mechdesign.priors import Prior
from mechdesign.privacy import MutualInformationPrivacy


def _design_result(text):
    """The result fields printed by ``design --json``: those of the versioned mechanism file, or of the
    result file printed when the design did not succeed."""
    envelope = _strict_loads(text)
    return envelope["payload"]["result"] if envelope["kind"] == "mechanism" else envelope["payload"]


def test_design_json(capsys):
    assert main(["design", "--notion", "dp", "--epsilon", "1", "--n", "3", "--json"]) == 0
    payload = _design_result(capsys.readouterr().out)
    assert payload["success"] and payload["objective"] == pytest.approx(2 / (math.e + 2), abs=1e-8)


def test_design_method_is_chosen_on_the_command_line(capsys):
    for method in ("auto", "closed-form", "direct-lp", "cvxpy"):
        assert main(["design", "--notion", "dp", "--epsilon", "1", "--n", "3", "--json", "--method", method]) == 0
        payload = _design_result(capsys.readouterr().out)
        assert payload["method"] == ("closed-form" if method == "auto" else method)
        assert payload["objective"] == pytest.approx(2 / (math.e + 2), abs=1e-8)  # randomized response
    assert main(["design", "--notion", "renyi-dp", "--alpha", "2", "--epsilon", "1", "--n", "3",
                 "--method", "direct-lp"]) == 2
    assert "methods that apply: ['cvxpy']" in capsys.readouterr().err


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
    payload = _design_result(capsys.readouterr().out)
    assert code == 1 and payload["status"] == "infeasible" and payload["smallest_feasible"] > 0.01


def test_design_bad_input_exits_2(capsys):
    assert main(["design", "--epsilon", "-1", "--n", "3"]) == 2
    assert "budget for dp must be a number >= 0 (or inf), got -1.0" in capsys.readouterr().err
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
    # Strict JSON: a non-finite value is null with its text under "non_finite"; a skipped notion is
    # null with its reason under "skipped".
    assert values["dp"] is None and values["non_finite"]["dp"] == "inf"
    assert values["pml"] is None and "pass --prior" in values["skipped"]["pml"]
    assert values["approx-dp(pointwise)"] is None and "--delta" in values["skipped"]["approx-dp(pointwise)"]


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
    assert "every point private: True, certified optimal: True" in out
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
        assert _design_result(capsys.readouterr().out)["success"]
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
    values = json.loads(capsys.readouterr().out)
    assert values["renyi-dp"] is None and "needs --alpha" in values["skipped"]["renyi-dp"]


def test_curve_privacy_and_distortion_modes(tmp_path, capsys):
    import csv

    from mechdesign.theory import put

    prefix = tmp_path / "ml"
    assert main(["curve", "--notion", "maximal-leakage", "--n", "3", "--mode", "privacy",
                 "--values", "0.1,0.4", "--out", str(prefix)]) == 0
    rows = list(csv.DictReader((tmp_path / "ml.csv").open()))
    assert [float(r["epsilon"]) for r in rows] == pytest.approx([put.prop8_maximal_leakage_privacy(3, 0.1),
                                                                  put.prop8_maximal_leakage_privacy(3, 0.4)], abs=1e-6)
    assert (tmp_path / "ml.png").stat().st_size > 0
    assert "wrote" in capsys.readouterr().out
    # No prior knowledge: worst case over the simplex; D*(ε) of DP is randomized response's.
    assert main(["curve", "--notion", "dp", "--n", "3", "--no-prior-knowledge", "--grid", "0,2,3",
                 "--out", str(tmp_path / "dp")]) == 0
    rows = list(csv.DictReader((tmp_path / "dp.csv").open()))
    assert [float(r["worst_case_distortion"]) for r in rows] == pytest.approx(
        [put.prop8_dp_distortion(3, e) for e in (0.0, 1.0, 2.0)], abs=1e-7)


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


# --- hostile input (issue 15): one error line, a non-zero exit, strict JSON ------------------------


def _strict_loads(text):
    """``json.loads`` that refuses the non-standard tokens ``Infinity``, ``-Infinity`` and ``NaN``."""
    def refuse(token):
        raise AssertionError(f"non-standard JSON token {token}")
    return json.loads(text, parse_constant=refuse)


def _run(argv, capsys):
    """Run the CLI; an error (exit code >= 2) must be exactly one ``mechdesign: error: …`` line on stderr.

    Exit code 1 is not an error but a design that failed (infeasible, inaccurate), reported on stdout.
    """
    code = main(argv)
    captured = capsys.readouterr()
    if code >= 2:
        lines = captured.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("mechdesign: error: "), captured.err
        assert "Traceback" not in captured.err + captured.out
    return code, captured.out, captured.err


@pytest.fixture
def files(tmp_path):
    """Hostile files and places: a directory, broken JSON, binary data, a plain file to write under."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "broken.json").write_text('{"mechanism": [[1, 0], [0, 1]')
    (tmp_path / "other.json").write_text('{"matrix": [[1, 0], [0, 1]]}')
    (tmp_path / "nan.json").write_text('{"mechanism": [[NaN, 1], [0, 1]]}')
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00\x81")
    (tmp_path / "plain").write_text("not a folder")
    (tmp_path / "m.csv").write_text("0.75,0.25\n0.25,0.75\n")
    (tmp_path / "one.csv").write_text("1.0\n")
    return tmp_path


FAILURES = [
    # files that are not mechanisms
    (["measure", "{d}/folder"], 2, "folder is a directory"),
    (["sml", "{d}/folder", "--secret", "0,1"], 2, "folder is a directory"),
    (["measure", "{d}/broken.json"], 2, "broken.json is not valid JSON"),
    (["measure", "{d}/other.json"], 2, 'other.json has no "mechanism" key'),
    (["measure", "{d}/nan.json"], 2, "non-finite entry nan"),
    (["measure", "{d}/binary.csv"], 2, "binary.csv is not UTF-8 text"),
    # outputs that cannot be written
    (["curve", "--n", "2", "--values", "1", "--out", "{d}/missing/c"], 2, "directory {d}/missing does not exist"),
    (["curve", "--n", "2", "--values", "1", "--out", "{d}/plain/c"], 2, "{d}/plain is not a directory"),
    (["curve", "--n", "2", "--values", "1", "--out", "{d}/folder/"], 2, "--out is a file prefix"),
    (["curve", "--n", "2", "--values", "1", "--out", "{d}/folder"], 2, "--out is a file prefix"),
    (["demo", "--out", "{d}/plain"], 2, "{d}/plain exists and is not a directory"),
    (["demo", "--out", "{d}/plain/sub"], 2, "{d}/plain is not a directory"),
    # values measure used to skip silently (exit 0)
    (["measure", "{d}/m.csv", "--prior", "0.2,0.3,0.5"], 2, "--prior has 3 entries (one per input of"),
    (["measure", "{d}/m.csv", "--delta", "1"], 2, "--delta must satisfy 0 <= --delta < 1, got 1.0"),
    (["measure", "{d}/m.csv", "--alpha", "1"], 2, "--alpha must be a finite number > 1, got 1.0"),
    # sizes refused before allocating
    (["design", "--epsilon", "1", "--n", "1000000", "--solver", "highs"], 2,
     "hamming_cost(1000000, 1000000) needs an estimated"),
    (["curve", "--n", "2", "--grid", "0,1,1e12", "--out", "{d}/c"], 2, "--grid with 1000000000000 points needs"),
    # wrong types and values on the command line
    (["design", "--epsilon", "one", "--n", "2"], 2, "design: argument --epsilon: invalid float value: 'one'"),
    (["design", "--epsilon", "1", "--n", "2.5"], 2, "argument --n: invalid int value: '2.5'"),
    (["design", "--epsilon", "1", "--n", "0"], 2, "--n must be an integer >= 1, got 0"),
    (["design", "--epsilon", "nan", "--n", "2"], 2, "budget for dp is NaN"),
    (["design", "--epsilon", "1", "--prior", "0.5+1j,0.5"], 2, "--prior must be comma-separated numbers"),
    (["sml", "{d}/m.csv", "--secret", "0,1", "--time-limit", "-1"], 2, "time_limit must be a finite number of seconds > 0"),
    (["design"], 2, "the following arguments are required: --epsilon"),
    (["no-such-command"], 2, "invalid choice: 'no-such-command'"),
]


@pytest.mark.parametrize("argv, code, message", FAILURES, ids=[" ".join(case[0]) for case in FAILURES])
def test_every_failure_is_one_error_line_and_a_non_zero_exit(files, capsys, argv, code, message):
    exit_code, _, err = _run([arg.format(d=files) for arg in argv], capsys)
    assert exit_code == code and message.format(d=files) in err


def test_a_file_system_error_while_writing_is_one_line(files, monkeypatch, capsys):
    from mechdesign.curves import Curve

    def refuse(self, path):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(Curve, "to_csv", refuse)
    code, _, err = _run(["curve", "--n", "2", "--values", "1", "--out", str(files / "c")], capsys)
    assert code == 3 and f"Permission denied: {files / 'c.csv'}" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_an_unwritable_output_directory_is_refused_before_solving(files, capsys):
    locked = files / "locked"
    locked.mkdir(mode=0o500)
    code, _, err = _run(["curve", "--n", "2", "--values", "1", "--out", str(locked / "c")], capsys)
    assert code == 2 and f"directory {locked} is not writable" in err


def test_an_unexpected_exception_is_one_line_too(monkeypatch, capsys):
    import mechdesign.cli as cli

    def broken(args, prior):
        raise ZeroDivisionError("a bug")
    monkeypatch.setitem(cli.NOTIONS, "dp", broken)
    code, _, err = _run(["design", "--epsilon", "1", "--n", "2"], capsys)
    assert code == 4 and "internal error (ZeroDivisionError: a bug); please report it" in err


def test_one_symbol_alphabets_are_valid(files, capsys):
    """A one-input mechanism leaks nothing under every notion (each measure's maximum over no pair is 0)."""
    code, out, _ = _run(["measure", str(files / "one.csv"), "--prior", "1", "--delta", "0.1", "--alpha", "2",
                         "--json"], capsys)
    values = _strict_loads(out)
    assert code == 0 and "skipped" not in values and "non_finite" not in values
    assert all(value == 0.0 for value in values.values())
    code, out, _ = _run(["design", "--epsilon", "1", "--n", "1", "--json"], capsys)
    assert code == 0 and mechanism_from_payload(_strict_loads(out)["payload"]).mechanism.matrix.tolist() == [[1.0]]


def test_huge_budgets_are_a_correct_result_or_a_named_error(files, capsys):
    """ε = 800 nats overflows e^ε. D*(ε) = (n − 1)/(e^ε + n − 1) (PUT paper, Proposition 8(1)) is 0 in floats."""
    code, out, err = _run(["design", "--epsilon", "800", "--n", "3", "--json"], capsys)
    assert code == 2 and "800" in err or code == 0 and _design_result(out)["objective"] <= 1e-12
    code, out, err = _run(["sml-design", "--budget", "800", "--secret", "0,0,1", "--json"], capsys)
    assert code == 2 and "800" in err or code == 0 and _strict_loads(out)["success"]


def test_every_json_output_is_strict(files, capsys):
    """No ``Infinity``/``NaN`` token: a non-finite number is null with its text under "non_finite"."""
    (files / "leaky.csv").write_text("1,0\n0,1\n")
    code, out, _ = _run(["measure", str(files / "leaky.csv"), "--prior", "0.5,0.5", "--json"], capsys)
    values = _strict_loads(out)
    assert code == 0 and values["dp"] is None and values["non_finite"]["dp"] == "inf"
    assert values["maximal-leakage"] == pytest.approx(math.log(2), abs=1e-12)
    for argv in (["design", "--epsilon", "1", "--n", "2", "--json"],
                 ["design", "--epsilon", "0.1", "--n", "2", "--objective", "mutual-information",
                  "--max-distortion", "0.01", "--json"],
                 ["sml", str(files / "leaky.csv"), "--secret", "0,1", "--json"],
                 ["sml-design", "--budget", "0.3", "--secret", "0,0,1", "--json"]):
        _, out, _ = _run(argv, capsys)
        _strict_loads(out)


def test_strict_json_replaces_every_non_finite_number():
    from mechdesign.cli import strict_json

    text = strict_json({"a": [1.0, -math.inf, {"b": math.nan}], "c": np.float64(math.inf), "d": "inf"})
    assert _strict_loads(text) == {"a": [1.0, None, {"b": None}], "c": None, "d": "inf",
                                   "non_finite": {"a[1]": "-inf", "a[2].b": "nan", "c": "inf"}}


def _subcommand_parsers(parser):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def test_every_option_of_every_subcommand_has_help():
    from mechdesign.cli import build_parser

    parser = build_parser()
    missing = [f"{name} {action.dest}" for name, sub in _subcommand_parsers(parser).items()
               for action in sub._actions if not (action.help and action.help.strip())]
    assert missing == []
    subcommands = next(a for a in parser._actions if a.dest == "command")
    assert {c.dest for c in subcommands._choices_actions if c.help} == set(_subcommand_parsers(parser))


def test_units_bits_reads_budgets_and_prints_leakages_in_bits(tmp_path, capsys):
    assert main(["design", "--epsilon", "1", "--units", "bits", "--n", "3", "--json"]) == 0
    in_bits = _design_result(capsys.readouterr().out)
    assert main(["design", "--epsilon", str(math.log(2)), "--n", "3", "--json"]) == 0
    in_nats = _design_result(capsys.readouterr().out)
    assert in_bits["objective"] == pytest.approx(in_nats["objective"], abs=1e-9)  # 1 bit = log 2 nats
    assert main(["design", "--epsilon", "1", "--units", "bits", "--n", "3"]) == 0
    assert "in bits: budget 1, measured 1" in capsys.readouterr().out
    csv_path = tmp_path / "m.csv"
    np.savetxt(csv_path, [[0.75, 0.25], [0.25, 0.75]], delimiter=",")
    assert main(["measure", str(csv_path), "--units", "bits"]) == 0
    dp_line = next(line for line in capsys.readouterr().out.splitlines() if line.split()[0] == "dp")
    assert float(dp_line.split()[1]) == pytest.approx(math.log2(3), abs=1e-9) and dp_line.endswith("bits")


def test_curve_plot_names_quantities_units_prior_and_n(tmp_path, capsys, monkeypatch):
    from matplotlib.figure import Figure

    saved = []
    original = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda fig, *a, **k: (saved.append(fig), original(fig, *a, **k))[1])
    assert main(["curve", "--notion", "maximal-leakage", "--prior", "0.5,0.3,0.2", "--values", "1,2",
                 "--units", "bits", "--out", str(tmp_path / "ml")]) == 0
    ax = saved[-1].axes[0]
    assert ax.get_xlabel() == "privacy budget ε (bits)"
    assert ax.get_ylabel() == "least expected Hamming distortion D*(ε)"
    assert "prior (0.5, 0.3, 0.2), n = 3" in ax.get_title()
    # The plotted budgets are the ones given, in bits; the CSV stays in nats.
    assert ax.lines[0].get_xdata().tolist() == [1.0, 2.0]
    assert "epsilon (bits) 2: expected_distortion" in capsys.readouterr().out
    assert main(["curve", "--notion", "dp", "--n", "3", "--no-prior-knowledge", "--mode", "privacy",
                 "--values", "0.2,0.4", "--out", str(tmp_path / "dp")]) == 0
    ax = saved[-1].axes[0]
    assert ax.get_xlabel() == "allowed worst-case expected Hamming distortion D"
    assert ax.get_ylabel() == "least privacy leakage ε*(D) (nats)"
    assert "no prior knowledge (every prior), n = 3" in ax.get_title()


def test_progress_is_silent_when_standard_error_is_not_a_terminal(capsys):
    """Under pytest standard error is captured (not a TTY): no progress bar output reaches it."""
    # 3^4 = 81 selections: more than DESIGN_ENUMERATE_MAX_SELECTIONS, so constraint generation reports rounds.
    assert main(["sml-design", "--secret", "0,0,0,1,1,1,2,2,2,3,3,3", "--budget", "0.2"]) == 0
    captured = capsys.readouterr()
    assert "status: optimal" in captured.out and captured.err == ""


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


# --- hostile input, round 2 (issue 30): one line per failure, files, pipes, signals -------------------


def _cli(*argv, **options):
    """Run ``python -m mechdesign.cli argv`` in a subprocess (real standard streams, no pytest capture)."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "mechdesign.cli", *argv], capture_output=True, text=True,
                          timeout=300, **options)


@pytest.mark.parametrize("text", ["", "# no rows\n"], ids=["empty", "comment-only"])
def test_a_csv_without_numbers_is_one_error_line(tmp_path, text):
    """L4: numpy's loadtxt warning ("input contained no data") came before the error line."""
    path = tmp_path / "m.csv"
    path.write_text(text)
    run = _cli("measure", str(path))
    assert run.returncode == 2 and run.stderr.splitlines() == [
        f"mechdesign: error: {path} holds no numbers: give one row of output probabilities per input"]


#: A command that warns (numpy's divide by zero, as at ε = 0), then fails or succeeds.
WARNING_COMMAND = """
import sys
import numpy as np
from mechdesign import cli
def command(args):
    np.float64(1.0) / 0.0
    if args.file == "fail":
        raise cli.MechDesignError("refused")
    return 0
cli._cmd_measure = command
sys.exit(cli.main(["measure", sys.argv[1]]))
"""


def test_warnings_are_dropped_from_a_failure_and_one_line_each_on_success():
    """L4: a failing command printed a warning (two lines) before its error line."""
    import subprocess
    import sys

    failed = subprocess.run([sys.executable, "-c", WARNING_COMMAND, "fail"], capture_output=True, text=True, timeout=60)
    assert failed.returncode == 2 and failed.stderr.splitlines() == ["mechdesign: error: refused"]
    passed = subprocess.run([sys.executable, "-c", WARNING_COMMAND, "ok"], capture_output=True, text=True, timeout=60)
    assert passed.returncode == 0
    assert passed.stderr.splitlines() == ["mechdesign: warning: divide by zero encountered in scalar divide"]


@pytest.mark.parametrize("grid", ["0,1,inf", "0,1,nan", "0,inf,3", "nan,1,3", "0,1,2.5"])
def test_a_grid_of_non_finite_numbers_is_bad_input(tmp_path, capsys, grid):
    """L2: ``curve --grid 0,1,inf`` / ``nan`` ended in exit 4, "internal error … please report it"."""
    code, _, err = _run(["curve", "--n", "2", "--grid", grid, "--out", str(tmp_path / "c")], capsys)
    assert code == 2 and f"--grid must be start,stop,count: finite numbers, an integer count >= 2, got {grid!r}" in err


@pytest.mark.parametrize("error, code", [(IsADirectoryError(21, "Is a directory", "data"), 2),
                                         (FileNotFoundError(2, "No such file or directory", "data"), 2),
                                         (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), 2),
                                         (PermissionError(13, "Permission denied", "out.csv"), 3)],
                         ids=["directory", "missing", "not-utf-8", "permission"])
def test_file_errors_of_any_command_have_consistent_codes(monkeypatch, capsys, error, code):
    """L2: a directory given to ``privatize``/``estimate`` exited 3 while ``measure`` exited 2: a path that
    names no file, or a file that is not text, is bad input (2) wherever it is read; not being allowed to
    write stays an operating-system error (3)."""
    import mechdesign.cli as cli

    def command(args):
        raise error
    monkeypatch.setattr(cli, "_cmd_measure", command)
    exit_code, _, err = _run(["measure", "data"], capsys)
    assert exit_code == code and "internal error" not in err


def test_a_fifo_is_read_like_a_file(tmp_path, capsys):
    """L5: a FIFO was refused as "not a file (a directory?)"; ``measure <(…)`` is a pipe."""
    import threading

    fifo = tmp_path / "m.csv"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=("0.75,0.25\n0.25,0.75\n",))
    writer.start()
    assert main(["measure", str(fifo), "--json"]) == 0
    writer.join()
    assert _strict_loads(capsys.readouterr().out)["dp"] == pytest.approx(math.log(3))


def test_output_into_a_closed_pipe_ends_quietly():
    """L9: ``mechdesign theory-check put | head -2`` printed "[Errno 32] Broken pipe" and exited 3."""
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "mechdesign.cli", "design", "--epsilon", "1", "--n", "80"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader is gone before the first line
    errors = process.stderr.read()
    assert process.wait(timeout=300) == 141 and errors == b""


def test_sml_design_accepts_an_infinite_budget(capsys):
    """L1: ``sml-design --budget inf`` was refused; without a leakage limit nothing is distorted."""
    assert main(["sml-design", "--secret", "0,0,1,1", "--budget", "inf", "--json"]) == 0
    assert _strict_loads(capsys.readouterr().out)["objective"] == 0.0


@pytest.mark.slow
def test_ctrl_c_during_a_clarabel_curve_exits_130_and_keeps_the_old_output(tmp_path):
    """M3: ``curve --notion renyi-dp --alpha 2 --n 12 --grid 0,5,150 --out A`` with SIGINT after 8 s ran to
    the end (236 s), exited 0 and overwrote ``A.csv``."""
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "A.csv").write_text("the previous curve\n")
    process = subprocess.Popen([sys.executable, "-c", "import sys; from mechdesign.cli import main; "
                                "print('ready', flush=True); sys.exit(main())",
                                "curve", "--notion", "renyi-dp", "--alpha", "2", "--n", "12", "--grid", "0,5,150",
                                "--out", str(tmp_path / "A"), "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "ready"
    time.sleep(4.0)  # into the solves
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=600)
    assert time.perf_counter() - sent < 10.0
    assert process.returncode == 130 and errors.splitlines() == ["mechdesign: error: interrupted"]
    assert (tmp_path / "A.csv").read_text() == "the previous curve\n"


# --- issue 29: every command that takes a prior takes --prior-from FILE --column C ---------------------------


def _public_column(path, values, column="edu"):
    path.write_text(column + "\n" + "".join(f"{value}\n" for value in values), encoding="utf-8")
    return str(path)


def test_measure_reads_the_versioned_file_that_design_writes_and_its_prior(tmp_path, capsys):
    """measure FILE.json reads what ``design --out`` writes; its prior is the design's unless another is given."""
    out = str(tmp_path / "m.json")
    code, _, _ = _run(["design", "--epsilon", "1", "--categories", "a,b,c", "--prior", "0.5,0.25,0.25",
                       "--out", out], capsys)
    assert code == 0
    code, measured, err = _run(["measure", out, "--json"], capsys)
    values = _strict_loads(measured)
    assert code == 0 and values["dp"] == pytest.approx(1.0, abs=1e-12)
    mechanism = load_record(out).mechanism
    expected = MutualInformationPrivacy(Prior([0.5, 0.25, 0.25])).measure(mechanism)
    assert values["mutual-information"] == pytest.approx(expected, rel=1e-12)
    assert "the design's prior from" in err and "source: public" in err


def test_measure_prior_from_counts_the_files_input_labels(tmp_path, capsys):
    """--prior-from counts the mechanism file's input labels (a label absent from the sample gets 0)."""
    out = str(tmp_path / "m.json")
    assert _run(["design", "--epsilon", "1", "--categories", "a,b,c", "--out", out], capsys)[0] == 0
    public = _public_column(tmp_path / "public.csv", ["b", "b", "b", "a"])
    code, measured, err = _run(["measure", out, "--prior-from", public, "--column", "edu", "--json"], capsys)
    expected = MutualInformationPrivacy(Prior([0.25, 0.75, 0.0])).measure(load_record(out).mechanism)
    assert code == 0 and _strict_loads(measured)["mutual-information"] == pytest.approx(expected, rel=1e-12)
    assert "frequencies of 'edu'" in err and "the design's prior" not in err


def test_measure_prior_from_a_plain_matrix_uses_the_columns_distinct_values(tmp_path, capsys):
    """A CSV matrix names no inputs: the column's distinct values, sorted, are its rows, and must be as many."""
    matrix = tmp_path / "m.csv"
    matrix.write_text("0.75,0.25\n0.25,0.75\n", encoding="utf-8")
    public = _public_column(tmp_path / "public.csv", ["y", "x", "x", "x"])
    code, measured, _ = _run(["measure", str(matrix), "--prior-from", public, "--column", "edu", "--json"], capsys)
    expected = MutualInformationPrivacy(Prior([0.75, 0.25])).measure(Mechanism([[0.75, 0.25], [0.25, 0.75]]))
    assert code == 0 and _strict_loads(measured)["mutual-information"] == pytest.approx(expected, rel=1e-12)
    three = _public_column(tmp_path / "three.csv", ["x", "y", "z"])
    code, _, err = _run(["measure", str(matrix), "--prior-from", three, "--column", "edu"], capsys)
    assert code == 2 and "--prior-from has 3 distinct values" in err


@pytest.mark.parametrize("extra, message", [
    (["--prior", "0.5,0.5"], "give the prior once: --prior or --prior-from, not both"),
    ([], "--prior-from needs --column"),
])
def test_measure_prior_from_errors(tmp_path, capsys, extra, message):
    matrix = tmp_path / "m.csv"
    matrix.write_text("0.75,0.25\n0.25,0.75\n", encoding="utf-8")
    public = _public_column(tmp_path / "public.csv", ["y", "x"])
    code, _, err = _run(["measure", str(matrix), "--prior-from", public, *extra], capsys)
    assert code == 2 and message in err


def test_curve_prior_from_a_public_file(tmp_path, capsys):
    """curve --prior-from gives the curve of the prior given by --prior with the same frequencies."""
    public = _public_column(tmp_path / "public.csv", ["b", "b", "b", "a"])
    argv = ["curve", "--values", "0.5,1,2", "--quiet"]
    code, _, err = _run([*argv, "--prior-from", public, "--column", "edu", "--categories", "a,b,c",
                         "--out", str(tmp_path / "from")], capsys)
    assert code == 0 and "frequencies of 'edu'" in err
    assert _run([*argv, "--prior", "0.25,0.75,0", "--out", str(tmp_path / "given")], capsys)[0] == 0
    from_file = (tmp_path / "from.csv").read_text().splitlines()
    given = (tmp_path / "given.csv").read_text().splitlines()
    assert len(from_file) == 4 and from_file == given


@pytest.mark.parametrize("extra, message", [
    (["--no-prior-knowledge", "--n", "2"], "--no-prior-knowledge is every prior: it takes no --prior-from"),
    (["--prior", "0.5,0.5"], "give the prior once: --prior or --prior-from, not both"),
    ([], "--prior-from needs --column"),
])
def test_curve_prior_from_errors(tmp_path, capsys, extra, message):
    public = _public_column(tmp_path / "public.csv", ["y", "x"])
    code, _, err = _run(["curve", "--values", "1", "--prior-from", public, "--out", str(tmp_path / "c"), *extra],
                        capsys)
    assert code == 2 and message in err


def test_curve_output_must_not_be_the_public_input(tmp_path, capsys):
    """L8 for curve: PREFIX.csv may not be the --prior-from file it reads."""
    public = _public_column(tmp_path / "pub.csv", ["y", "x"])
    code, _, err = _run(["curve", "--values", "1", "--prior-from", public, "--column", "edu",
                         "--out", str(tmp_path / "pub")], capsys)
    assert code == 2 and "is also an input file" in err and (tmp_path / "pub.csv").read_text() == "edu\ny\nx\n"


def test_prior_counts_are_normalized_with_a_notice(capsys):
    """Issue 29: --prior takes counts (whole numbers summing to more than 1), normalized with a notice."""
    code, counted, err = _run(["design", "--epsilon", "1", "--prior", "3,1", "--json"], capsys)
    assert code == 0 and "--prior: counts (total 4), normalized" in err
    code, given, _ = _run(["design", "--epsilon", "1", "--prior", "0.75,0.25", "--json"], capsys)
    counted, given = _design_result(counted), _design_result(given)
    counted.pop("solve_time"), given.pop("solve_time")
    assert counted == given
    code, _, err = _run(["design", "--epsilon", "1", "--prior", "0.5,0.6"], capsys)
    assert code == 2 and "prior sums to 1.1" in err
