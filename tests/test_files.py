"""Tests of mechdesign.files: the versioned file format, exact round trips, refusals, atomic writes."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from mechdesign import Curve, DifferentialPrivacy, ExpectedDistortion, Mechanism, Prior, design
from mechdesign._version import __version__
from mechdesign.exceptions import MechDesignError
from mechdesign.files import (
    FORMAT_VERSION,
    FileFormatError,
    MechanismRecord,
    atomic_output,
    atomic_write_text,
    check_output_paths,
    checksum,
    load,
    load_record,
    mechanism_from_payload,
    mechanism_payload,
    read_envelope,
    record_from_result,
    save,
    schema,
    write_envelope,
)
from mechdesign.result import Result
from mechdesign.structured import KeepOrRedraw

REPOSITORY = Path(__file__).resolve().parents[1]
#: Awkward floats: not short decimals, subnormal-adjacent, and a third.
AWKWARD_ROW = [1 / 3, 0.1 + 0.2 - 0.3, 1e-300, 1 - 1 / 3 - (0.1 + 0.2 - 0.3) - 1e-300]


def _strict(text: str) -> object:
    """``json.loads`` that refuses the ``Infinity``/``NaN`` tokens."""
    def refuse(token):
        raise AssertionError(f"non-strict JSON token {token}")
    return json.loads(text, parse_constant=refuse)


def _validate(path: Path) -> None:
    jsonschema.validate(_strict(path.read_text(encoding="utf-8")), schema())


def _rewrite(path: Path, edit, *, fix_checksum: bool = True) -> None:
    """Apply ``edit`` to a file's decoded envelope and write it back (re-checksummed unless told not to)."""
    document = json.loads(path.read_text())
    edit(document)
    if fix_checksum:
        document["checksum"] = checksum(document["payload"])
    path.write_text(json.dumps(document))


def _infinite_result(mechanism: Mechanism) -> Result:
    return Result(mechanism, 0.25, "suboptimal", True, "no bound: a message with ünïcode",
                  measured={"dp": math.inf, "ml": 0.5}, budgets={"dp": math.inf, "ml": 1.0},
                  limits={"distortion": 0.5}, measured_limits={"distortion": 0.25}, max_violation=1e-12,
                  solver="highs", solve_time=0.125, iterations=7, smallest_feasible=None, bound=-math.inf,
                  gap=math.inf, method="direct-lp", unit=2.0)


# ------------------------------------------------------------------------------------------ round trips


def test_a_dense_mechanism_round_trips_exactly(tmp_path):
    mechanism = Mechanism([AWKWARD_ROW, [0.0, 0.0, 0.0, 1.0]])
    path = save(mechanism, tmp_path / "m.json")
    loaded = load(path)
    assert type(loaded) is Mechanism and loaded == mechanism
    assert np.array_equal(loaded.matrix, mechanism.matrix)  # bit for bit (floats by repr)
    assert load_record(path) == MechanismRecord(mechanism)
    _validate(path)


def test_a_keep_or_redraw_mechanism_of_200_inputs_round_trips_exactly(tmp_path):
    rng = np.random.default_rng(0)
    row = rng.random(200)
    mechanism = KeepOrRedraw(rng.random(200), row / row.sum())
    loaded = load(save(mechanism, tmp_path / "k.json"))
    assert type(loaded) is KeepOrRedraw
    assert np.array_equal(loaded.redraw, mechanism.redraw) and np.array_equal(loaded.row, mechanism.row)
    assert loaded == mechanism
    _validate(tmp_path / "k.json")


def test_M2_the_structured_form_of_result_to_dict_is_read_back():
    """M2: a KeepOrRedraw above 100 inputs is written by Result.to_dict as {"keep_or_redraw": ...};
    the loader reads that form back exactly (and the dense form too)."""
    mechanism = KeepOrRedraw.randomized_response(np.arange(150), 200, 1.0)
    result = Result(mechanism, 0.5, "optimal", True, "", bound=0.5, gap=0.0)
    written = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert "keep_or_redraw" in written["mechanism"]
    record = mechanism_from_payload({"mechanism": written["mechanism"]}, "d.json")
    assert type(record.mechanism) is KeepOrRedraw
    assert np.array_equal(record.mechanism.redraw, mechanism.redraw) and np.array_equal(record.mechanism.row, mechanism.row)
    small = KeepOrRedraw.randomized_response([0, 1], 3, 1.0)
    dense = mechanism_from_payload({"mechanism": Result(small, 0.0, "optimal", True, "").to_dict()["mechanism"]})
    assert dense.mechanism == small


def test_a_result_with_infinite_values_round_trips_exactly_in_strict_json(tmp_path):
    result = _infinite_result(Mechanism([[0.75, 0.25], [0.25, 0.75]]))
    path = save(result, tmp_path / "r.json")
    text = path.read_text(encoding="utf-8")
    assert "Infinity" not in text and "NaN" not in text
    _strict(text)
    assert load(path) == result
    _validate(path)
    failed = Result(None, None, "infeasible", False, "no mechanism meets the limit", budgets={"dp": 1.0},
                    smallest_feasible=0.75)
    assert load(save(failed, tmp_path / "f.json")) == failed


def test_L3_result_to_dict_is_strict_json():
    """L3: Result.to_dict() never holds ±inf/NaN floats that json.dumps would write as Infinity/NaN."""
    record = _infinite_result(Mechanism([[1.0]])).to_dict()
    text = json.dumps(record, allow_nan=False)  # raises on a non-finite float
    assert record["measured"]["dp"] == "inf" and record["bound"] == "-inf" and "Infinity" not in text


def test_a_full_mechanism_record_round_trips_exactly(tmp_path):
    mechanism = Mechanism([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.0, 0.5, 0.5]])
    record = MechanismRecord(
        mechanism,
        inputs=["inf", 2, 2.5],  # a category named "inf" stays a string; ints stay ints
        outputs=["inf", ("inf", 2), (2, 2.5)],  # subset reports: tuples of input labels
        prior=Prior([0.5, 0.25, 0.25]),
        prior_source="public",
        notions=({"name": "dp", "label": "DP", "budget": math.inf, "measured": math.log(3)},
                 {"name": "ml", "label": "ML", "budget": 1.0, "measured": None}),
        objective="estimation",
        result=_infinite_result(mechanism),
        deployment={"mode": "public-prior", "spends": [{"epsilon": 1.0, "what": "release"}]},
    )
    path = save(record, tmp_path / "record.json")
    loaded = load(path)
    assert loaded == record
    assert loaded.inputs[0] == "inf" and isinstance(loaded.inputs[1], int) and loaded.outputs[1] == ("inf", 2)
    assert loaded.result.mechanism is loaded.mechanism  # held once in the file
    assert load_record(path) == record
    _validate(path)


def test_a_curve_round_trips_exactly(tmp_path):
    prior = Prior([0.5, 0.3, 0.2])
    good = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(prior))
    failed = Result(None, None, "solver_error", False, "the solver failed", budgets={"DP": 2.0})
    curve = Curve(np.array([1.0, 2.0]), np.array([good.objective, math.nan]), "epsilon", "distortion",
                  "DP ε", (good, failed))
    loaded = load(save(curve, tmp_path / "c.json"))
    assert type(loaded) is Curve
    assert np.array_equal(loaded.x, curve.x) and np.array_equal(loaded.y, curve.y, equal_nan=True)
    assert (loaded.x_name, loaded.y_name, loaded.label) == (curve.x_name, curve.y_name, curve.label)
    assert loaded.results == curve.results
    _validate(tmp_path / "c.json")


def test_record_from_result_builds_one_notion_per_budget():
    result = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(Prior([0.5, 0.5])))
    record = record_from_result(result, inputs=["a", "b"], prior=[0.5, 0.5], prior_source="uniform",
                                objective="hamming", notion_names={"DP": "dp"})
    label = next(iter(result.budgets))
    assert record.notions == ({"name": "dp" if label == "DP" else label, "label": label, "budget": 1.0,
                               "measured": result.measured[label]},)
    assert record.prior == Prior([0.5, 0.5]) and record.result is result and record.mechanism is result.mechanism
    with pytest.raises(MechDesignError, match="result must be a Result holding a mechanism .this one is 'infeasible'"):
        record_from_result(Result(None, None, "infeasible", False, ""))


# --------------------------------------------------------------------------------------------- refusals


@pytest.fixture
def saved(tmp_path) -> Path:
    return save(MechanismRecord(Mechanism([[0.75, 0.25], [0.25, 0.75]]), inputs=["a", "b"], outputs=["x", "y"]),
                tmp_path / "m.json")


def test_another_version_is_refused_naming_both_versions(saved):
    _rewrite(saved, lambda document: document.update(version=2))
    with pytest.raises(FileFormatError, match=rf"format version 2; this mechdesign \({__version__}\) reads "
                                              rf"version {FORMAT_VERSION} only"):
        load(saved)


def test_a_changed_payload_fails_the_checksum(saved):
    _rewrite(saved, lambda document: document["payload"]["mechanism"][0].reverse(), fix_checksum=False)
    with pytest.raises(FileFormatError, match="checksum mismatch"):
        load(saved)
    with pytest.raises(jsonschema.ValidationError):
        _rewrite(saved, lambda document: document.update(checksum="md5:0"), fix_checksum=False)
        _validate(saved)


def test_H1_a_file_whose_outputs_repeat_a_label_is_refused(saved):
    """H1: a mechanism file whose output labels repeat is refused (estimates would be silently wrong)."""
    _rewrite(saved, lambda document: document["payload"].update(outputs=["x", "x"]))
    with pytest.raises(FileFormatError, match=r"outputs repeats the label 'x' \(at 0 and 1\)"):
        load(saved)
    with pytest.raises(jsonschema.ValidationError):
        _validate(saved)
    # Python equality decides, as a dictionary lookup would: 1 and 1.0 collide.
    with pytest.raises(MechDesignError, match="inputs repeats the label 1.0"):
        MechanismRecord(Mechanism(np.eye(2)), inputs=[1, 1.0])


@pytest.mark.parametrize("edit, match", [
    (lambda p: p.update(inputs=["a", "b", "c"]), "inputs has 3 labels, but the mechanism has 2"),
    (lambda p: p.update(outputs=["x"]), "outputs has 1 labels, but the mechanism has 2"),
    (lambda p: p.update(outputs=["x", ["a", "z"]]), r"outputs\[1\] = \('a', 'z'\) holds 'z', which is not an input label"),
    (lambda p: p.update(inputs=[{"a": 1}, "b"]), r"inputs\[0\] = \{'a': 1\} is not a JSON scalar"),
    (lambda p: p.update(prior=[0.2, 0.3, 0.5]), "prior has 3 entries, but the mechanism has 2 inputs"),
    (lambda p: p.update(prior=[0.2, 0.3]), "prior is not a probability vector|sums to 0.5"),
    (lambda p: p.update(mechanism=[[0.5, 0.4], [0.5, 0.5]]), "m.json.mechanism: mechanism is not row-stochastic"),
    (lambda p: p.update(mechanism={"keep_or_redraw": {"redraw": [0.5]}}), "lacks the field 'row'"),
    (lambda p: p.update(mechanism="[[1]]"), "must be a list of rows or a keep_or_redraw object"),
    (lambda p: p.update(notions=[{"name": "dp", "label": "DP", "budget": "Infinity", "measured": None}]),
     r"notions\[0\].budget must be a number \(or \"inf\""),
    (lambda p: p.update(colour="red"), "has unknown fields colour"),
    (lambda p: p.pop("mechanism"), "lacks the field 'mechanism'"),
    (lambda p: p.update(result={"success": "yes"}), "m.json.result lacks the field|success must be true or false"),
])
def test_a_payload_that_does_not_describe_a_mechanism_is_refused(saved, edit, match):
    _rewrite(saved, lambda document: edit(document["payload"]))
    with pytest.raises(FileFormatError, match=match):
        load(saved)


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(format="other"), r"is not a mechdesign file \(no \"format\": \"mechdesign\" envelope\)"),
    (lambda d: d.update(kind="privatizer"), r"holds a privatizer: load it with mechdesign.Privatizer.load"),
    (lambda d: d.pop("package_version"), "the envelope lacks package_version"),
    (lambda d: d.update(extra=1), "the envelope has unknown fields extra"),
    (lambda d: d.update(version=True), "format version True"),
    (lambda d: d.update(kind="spreadsheet"), "holds a 'spreadsheet', expected a mechanism or a result"),
])
def test_a_bad_envelope_is_refused(saved, edit, match):
    _rewrite(saved, edit)
    with pytest.raises(FileFormatError, match=match):
        load(saved)


def test_a_kind_other_than_the_one_asked_for_is_refused(saved):
    with pytest.raises(FileFormatError, match="holds a mechanism, expected a result or a curve"):
        read_envelope(saved, ["result", "curve"])


@pytest.mark.parametrize("content, match", [
    (b"\xff\xfe\x00binary", "is not UTF-8 text"),
    (b"epsilon,value\n1,2\n", "is not valid JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply|is not valid JSON"),
    (b'{"format": "mechdesign", "version": ' + b"9" * 5000 + b"}", "is not valid JSON: Exceeds the limit"),
    (b'{"format": "mechdesign", "version": 1, "payload": {"a": Infinity}}', "Infinity is not a JSON number"),
    (b'{"format": "mechdesign", "format": "mechdesign"}', "the key 'format' is repeated"),
    (b"[1, 2]", "is not a mechdesign file"),
])
def test_L2_files_that_are_not_json_are_named_errors(tmp_path, content, match):
    """L2: a binary file, CSV, deeply nested JSON (RecursionError) and a 5,000-digit number (ValueError)
    are named FileFormatErrors, never internal errors."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(FileFormatError, match=match):
        load(path)


def test_paths_that_are_not_regular_files_are_named_errors(tmp_path):
    with pytest.raises(FileFormatError, match="cannot read .*missing.json: No such file"):
        load(tmp_path / "missing.json")
    with pytest.raises(FileFormatError, match="is a directory, not a mechdesign file"):
        load(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(FileFormatError, match="fifo is not a regular file"):
        load(fifo)  # refused without opening it (opening a FIFO blocks)


def test_a_record_refuses_inconsistent_fields_when_built():
    square = Mechanism(np.eye(2))
    with pytest.raises(MechDesignError, match="result.mechanism differs from mechanism"):
        MechanismRecord(square, result=Result(Mechanism([[0.5, 0.5], [0.5, 0.5]]), 0.0, "optimal", True, ""))
    with pytest.raises(MechDesignError, match="the payload is not strict JSON"):
        MechanismRecord(square, deployment={"spent": math.nan})
    with pytest.raises(MechDesignError, match=r"notions\[0\] must be a mapping with exactly the keys"):
        MechanismRecord(square, notions=({"name": "dp", "budget": 1.0},))
    with pytest.raises(MechDesignError, match="mechanism must be a Mechanism, got list"):
        MechanismRecord([[1.0]])
    labels = MechanismRecord(square, inputs=np.array(["a", "b"]), outputs=[np.int64(0), np.int64(1)])
    assert labels.inputs == ("a", "b") and labels.outputs == (0, 1) and type(labels.outputs[0]) is int


def test_save_refuses_what_it_cannot_write(tmp_path):
    class Estimator:
        def save(self, path):
            raise AssertionError

    with pytest.raises(MechDesignError, match="got Estimator: use its own Estimator.save"):
        save(Estimator(), tmp_path / "e.json")
    with pytest.raises(MechDesignError, match="got dict"):
        save({"a": 1}, tmp_path / "d.json")
    with pytest.raises(MechDesignError, match="kind must be one of"):
        write_envelope(tmp_path / "x.json", "table", {})
    assert not list(tmp_path.iterdir())


def test_a_privatizer_envelope_validates_against_the_schema(tmp_path):
    path = write_envelope(tmp_path / "p.json", "privatizer", {"anything": [1, "two"]})
    _validate(path)
    assert read_envelope(path, ["privatizer"]) == {"anything": [1, "two"]}
    document = _strict(path.read_text())
    assert list(document) == ["format", "version", "kind", "package_version", "checksum", "payload"]


def test_the_schema_is_shipped_and_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(schema())
    shipped = resources.files("mechdesign.schemas") / "mechanism-file-v1.json"  # as installed (wheel or source)
    assert json.loads(shipped.read_text(encoding="utf-8")) == schema()


# ------------------------------------------------------------------------------------------- atomic writes


def _leftovers(directory: Path, keep: set[str]) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name not in keep)


def test_an_exception_mid_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = atomic_write_text(tmp_path / "out.csv", "old content\n")
    with pytest.raises(RuntimeError, match="disk on fire"):
        with atomic_output(target) as handle:
            handle.write("new, partial")
            raise RuntimeError("disk on fire")
    assert target.read_text() == "old content\n" and _leftovers(tmp_path, {"out.csv"}) == []
    with pytest.raises(KeyboardInterrupt):
        with atomic_output(target, "wb") as handle:
            handle.write(b"partial")
            raise KeyboardInterrupt
    assert target.read_text() == "old content\n" and _leftovers(tmp_path, {"out.csv"}) == []


def test_atomic_output_keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    target = atomic_write_text(tmp_path / "out.txt", "a")
    os.chmod(target, 0o640)
    atomic_write_text(target, "b")
    assert target.read_text() == "b" and (target.stat().st_mode & 0o777) == 0o640
    fresh = atomic_write_text(tmp_path / "fresh.txt", "c")
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~_umask()
    with pytest.raises(MechDesignError, match="mode must be 'w' or 'wb', got 'a'"):
        with atomic_output(target, "a"):
            pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


WRITER = textwrap.dedent("""
    import sys, time
    from mechdesign.files import atomic_output
    path, fill, pause = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with atomic_output(path) as handle:
        for index in range(20):
            handle.write(fill * 50_000 + "\\n")
            handle.flush()
            if index == 0:
                print("writing", flush=True)
            time.sleep(pause)
""")


def _writer(path: Path, fill: str, pause: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path), fill, str(pause)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPOSITORY)


def test_a_sigint_mid_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = atomic_write_text(tmp_path / "out.csv", "old content\n")
    child = _writer(target, "n", 0.5)
    assert child.stdout.readline() == "writing\n"  # the temporary file holds a first block now
    assert len(_leftovers(tmp_path, {"out.csv"})) == 1
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    assert target.read_text() == "old content\n" and _leftovers(tmp_path, {"out.csv"}) == []


def test_two_concurrent_writers_leave_one_complete_file(tmp_path):
    target = tmp_path / "out.csv"
    children = [_writer(target, fill, 0.05) for fill in "ab"]  # each writes for a second
    for child in children:
        assert child.stdout.readline() == "writing\n"
    for child in children:
        _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
    content = target.read_text()
    assert content in {("a" * 50_000 + "\n") * 20, ("b" * 50_000 + "\n") * 20}
    assert _leftovers(tmp_path, {"out.csv"}) == []


# ------------------------------------------------------------------------------------------ output paths


def test_check_output_paths_accepts_distinct_writable_files(tmp_path):
    existing = atomic_write_text(tmp_path / "old.csv", "x")
    paths = check_output_paths({"--out": str(existing), "--mechanism-out": tmp_path / "m.json"},
                               inputs=[tmp_path / "data.csv"])
    assert paths == {"--out": existing, "--mechanism-out": tmp_path / "m.json"}


@pytest.mark.parametrize("outputs, inputs, match", [
    ({"--out": "{d}/a.csv", "--mechanism-out": "{d}/a.csv"}, [], "--mechanism-out and --out name the same file"),
    ({"--out": "{d}/a.csv", "--mechanism-out": "{d}/sub/../a.csv"}, [], "name the same file"),
    ({"--out": "{d}/data.csv"}, ["{d}/data.csv"], "--out: .*data.csv is also an input file"),
    ({"--out": "{d}/link.csv"}, ["{d}/data.csv"], "--out: .*link.csv is also an input file"),
    ({"--out": "{d}/sub"}, [], "--out: .*sub is a directory, not a file"),
    ({"--out": "{d}/missing/a.csv"}, [], "--out: directory .*missing does not exist"),
    ({"--plot": "{d}/data.csv/a.png"}, [], "--plot: .*data.csv is not a directory"),
    ({"--out": "{d}/fifo"}, [], "--out: .*fifo is not a regular file"),
])
def test_check_output_paths_names_the_option_and_the_path(tmp_path, outputs, inputs, match):
    (tmp_path / "sub").mkdir()
    (tmp_path / "data.csv").write_text("a\n")
    (tmp_path / "link.csv").symlink_to(tmp_path / "data.csv")
    os.mkfifo(tmp_path / "fifo")
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(MechDesignError, match=match):
        check_output_paths({option: path.format(d=tmp_path) for option, path in outputs.items()},
                           [path.format(d=tmp_path) for path in inputs])
    assert sorted(os.listdir(tmp_path)) == before  # nothing written


def test_mechanism_payload_is_canonical_and_checksummed(tmp_path, saved):
    payload = read_envelope(saved, ["mechanism"])
    assert payload == mechanism_payload(load(saved))
    assert _strict(saved.read_text())["checksum"] == checksum(payload)
    # Reformatting the file (indentation, key order) keeps it valid: the checksum is of the content.
    document = json.loads(saved.read_text())
    saved.write_text(json.dumps(document, indent=4, sort_keys=True))
    assert load(saved) == load_record(saved)


@pytest.mark.skipif(not (REPOSITORY / "docs").is_dir(),
                    reason="docs/ is not beside the tests (CI's wheel suite runs a copy of tests/ alone)")
def test_the_documented_example_file_loads(tmp_path):
    # docs/guide/file-format.md shows a complete file: it must stay one this version reads.
    page = (REPOSITORY / "docs" / "guide" / "file-format.md").read_text(encoding="utf-8")
    example = page.split("## An example", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    record = load_record(atomic_write_text(tmp_path / "example.json", example))
    assert record.inputs == ("no", "yes") and record.mechanism == Mechanism([[0.75, 0.25], [0.25, 0.75]])
    assert record.result.optimal and record.notions[0]["budget"] == math.log(3)


def test_a_path_that_cannot_be_written_is_a_named_error_and_leaves_nothing(tmp_path):
    with pytest.raises(MechDesignError, match="cannot write .*missing/m.json: No such file or directory"):
        save(Mechanism([[1.0]]), tmp_path / "missing" / "m.json")
    (tmp_path / "folder").mkdir()
    with pytest.raises(MechDesignError, match="cannot write .*folder: Is a directory"):
        atomic_write_text(tmp_path / "folder", "text")
    assert _leftovers(tmp_path, {"folder"}) == [] and not list((tmp_path / "folder").iterdir())


def test_numbers_beyond_float_range_are_infinite_not_overflow_errors(saved):
    # JSON allows integers of thousands of digits (up to Python's limit of 4,300): a budget of 10**400.
    _rewrite(saved, lambda document: document["payload"].update(
        notions=[{"name": "dp", "label": "DP", "budget": 10**400, "measured": None}]))
    assert load(saved).notions[0]["budget"] == math.inf


# --------------------------------------------------------------------- structured frequency oracles (issue 34)


ORACLE_CASES = [
    ("randomized-response", {}), ("subset-selection", {"subset_size": 20}), ("optimized-unary-encoding", {}),
    ("optimized-local-hashing", {"hash_range": 3}), ("hadamard-response", {"block_width": 64}),
]


@pytest.mark.parametrize("family, parameter", ORACLE_CASES)
def test_a_frequency_oracle_round_trips_by_its_parameters(tmp_path, family, parameter):
    """Issue 34: the mechanism file of subset selection over 42 categories was 14 MB (its dense matrix); an
    oracle is written by its parameters, with its certificate, and read back exactly."""
    from mechdesign.mechanisms.oracles import oracle_from_parameters

    oracle = oracle_from_parameters({"family": family, "size": 42, "epsilon": 0.1, **parameter})
    result = Result(oracle, oracle.total_variance(), "suboptimal", True, "estimation", measured={"LDP": 0.1},
                    budgets={"LDP": 0.1}, method="estimation-family")
    record = record_from_result(result, inputs=[f"country {i}" for i in range(42)], objective="estimation")
    path = save(record, tmp_path / "oracle.json")
    loaded = load_record(path)
    assert loaded == record and type(loaded.mechanism) is type(oracle) and loaded.outputs is None
    assert path.stat().st_size < 10_000
    assert load(save(result, tmp_path / "result.json")) == result
    _validate(path)
    _validate(tmp_path / "result.json")
    payload = mechanism_payload(record)
    assert payload["mechanism"] == {"frequency_oracle": {"family": family, "size": 42, "epsilon": 0.1, **parameter}}


def test_a_listed_oracle_keeps_its_output_labels(tmp_path):
    from mechdesign.mechanisms.oracles import HadamardResponse, SubsetSelection

    for oracle in (SubsetSelection(4, 1.0, 2), HadamardResponse(5, 1.0, 8)):
        categories = ["a", "b", "c", "d", "e"][:oracle.size]
        record = MechanismRecord(oracle, inputs=categories, outputs=oracle.output_labels(categories))
        assert load_record(save(record, tmp_path / "listed.json")) == record
        _validate(tmp_path / "listed.json")


@pytest.mark.parametrize("oracle, match, in_schema", [
    ({"family": "rappor", "size": 3, "epsilon": 1.0}, "unknown oracle family 'rappor'", False),
    ({"family": "subset-selection", "size": 3, "epsilon": 1.0}, "takes other parameters", False),
    ({"family": "subset-selection", "size": 3, "epsilon": 1.0, "subset_size": 3}, "subset_size must be an integer",
     True),  # d < k is not expressible in the schema
    ({"family": "hadamard-response", "size": 3, "epsilon": -1.0, "block_width": 4}, "epsilon must be a finite number",
     False),
    ({"family": "randomized-response", "size": True, "epsilon": 1.0}, "frequency_oracle must be a JSON object", False),
    ([1, 2], "frequency_oracle must be a JSON object", False),
])
def test_a_bad_frequency_oracle_payload_is_refused(tmp_path, oracle, match, in_schema):
    path = save(MechanismRecord(Mechanism([[0.5, 0.5], [0.5, 0.5]]), inputs=["a", "b"]), tmp_path / "m.json")
    _rewrite(path, lambda document: document["payload"].update(mechanism={"frequency_oracle": oracle}))
    with pytest.raises(FileFormatError, match=match):
        load_record(path)
    if in_schema:
        _validate(path)
    else:
        with pytest.raises(jsonschema.ValidationError):
            _validate(path)
