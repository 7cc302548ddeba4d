"""The certification tail (mechdesign.methods.certified): every design's Result built in one place.

Issue 33 item 3: a result holding a mechanism is built by mechanism_result only (privacy re-measured against
every budget, limits, the gap judged within GAP_RTOL), one without a mechanism by failure_result only.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import numpy as np
import pytest

import mechdesign
from mechdesign import DifferentialPrivacy, ExpectedDistortion, Mechanism, Prior
from mechdesign.methods.certified import certified_result, exceeded, failure_result, mechanism_result
from mechdesign.result import GAP_RTOL, LIMIT_ATOL, budget_tolerance

#: The modules that may construct a Result, each with its reason: the tail itself; the file loader rebuilds a
#: result without certifying an optimum (the privatizer's estimation result goes through the tail since issue 33
#: item 3); curves.py's infeasible point of ε*(D) (a failure: its own module, outside this change).
CONSTRUCTION_SITES = {
    "mechdesign/methods/certified.py": 2,
    "mechdesign/files.py": 1,
    "mechdesign/curves.py": 1,
}
CONSTANT = Mechanism(np.full((2, 2), 0.5))


def result_constructions(package: Path) -> dict[str, int]:
    """Calls ``Result(...)`` per module of the package (parsed: docstrings and comments do not count)."""
    counts: dict[str, int] = {}
    for path in sorted(package.rglob("*.py")):
        calls = sum(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Result"
                    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
        if calls:
            counts[f"mechdesign/{path.relative_to(package).as_posix()}"] = calls
    return counts


def test_results_are_built_in_the_tail_only():
    counts = result_constructions(Path(mechdesign.__file__).resolve().parent)
    assert {module: n for module, n in counts.items() if module not in CONSTRUCTION_SITES} == {}
    assert counts["mechdesign/methods/certified.py"] == 2


def test_result_constructions_are_counted_from_the_code(tmp_path):
    (tmp_path / "a.py").write_text('"""Result(None)"""\nx = Result(1)  # Result(2)\ny = [Result(3), Other(4)]\n')
    assert result_constructions(tmp_path) == {"mechdesign/a.py": 2}


def test_exceeded_at_the_tolerances():
    assert exceeded({"dp": 1.0 + budget_tolerance(1.0)}, {"dp": 1.0}) == []
    assert exceeded({"dp": 1.0 + 2 * budget_tolerance(1.0)}, {"dp": 1.0}) == ["dp measured 1.000002 > budget 1"]
    assert exceeded({}, {}, {"D": 10.0 + 5 * LIMIT_ATOL}, {"D": 10.0}) == []  # relative from 1 on
    assert exceeded({}, {}, {"D": 10.0 + 2e-6}, {"D": 10.0}) == ["D = 10.000002 > limit 10"]


def test_mechanism_result_statuses():
    start = time.perf_counter()
    common = dict(measured={"dp": 0.0}, budgets={"dp": 0.0})
    optimal = mechanism_result(CONSTANT, 0.5, 0.5 - GAP_RTOL / 2, "w", start, **common)
    assert (optimal.status, optimal.success, optimal.gap) == ("optimal", True, pytest.approx(GAP_RTOL / 2))
    assert optimal.solve_time >= 0 and optimal.unit == 1.0
    suboptimal = mechanism_result(CONSTANT, 0.5, 0.4, "w", start, note="; repaired", **common)
    assert (suboptimal.status, suboptimal.success) == ("suboptimal", True)
    assert suboptimal.message == "w; budget re-measured and respected; the lower bound 0.4 leaves a gap of 0.1, above GAP_RTOL; repaired"
    unbounded = mechanism_result(CONSTANT, 0.5, None, "w", start, **common)
    assert (unbounded.status, unbounded.gap) == ("suboptimal", None) and "no lower bound" in unbounded.message
    in_units = mechanism_result(CONSTANT, 50.0, 50.0 - 50 * GAP_RTOL, "w", start, unit=100.0, **common)
    assert in_units.status == "optimal"  # the gap judged against GAP_RTOL · max(unit, |objective|)


def test_mechanism_result_failures_keep_the_mechanism_and_say_why():
    start = time.perf_counter()
    over = mechanism_result(CONSTANT, 0.5, 0.5, "w", start, measured={"dp": 2.0}, budgets={"dp": 1.0})
    assert (over.status, over.success, over.message) == ("inaccurate", False, "w; dp measured 2 > budget 1")
    assert over.mechanism is CONSTANT
    limited = mechanism_result(CONSTANT, 0.5, 0.5, "w", start, measured={"dp": 0.0}, budgets={"dp": 1.0},
                               measured_limits={"D": 0.5}, limits={"D": 0.25})
    assert limited.status == "inaccurate" and limited.limits == {"D": 0.25} and "D = 0.5 > limit 0.25" in limited.message
    caller = mechanism_result(CONSTANT, None, None, "w", start, measured={"dp": 0.0}, budgets={"dp": 1.0},
                              problems=["separation stopped"])
    assert (caller.status, caller.message) == ("inaccurate", "w; separation stopped")


def test_the_callers_verdict_and_message():
    start = time.perf_counter()
    common = dict(measured={"dp": 0.0}, budgets={"dp": 0.0})
    judged = mechanism_result(CONSTANT, 0.5, 0.0, "w", start, certified=True,
                              verdict=lambda certified, gap: f"{certified} {gap}", **common)
    assert (judged.status, judged.message) == ("optimal", "True 0.5")
    over = mechanism_result(CONSTANT, 0.5, 0.5, "w", start, measured={"dp": 1.0}, budgets={"dp": 0.0}, certified=True)
    assert over.status == "inaccurate"  # a caller's verdict never overrides a budget missed


def test_failure_result():
    result = failure_result("infeasible", "below the floor", time.perf_counter(), smallest_feasible=0.25,
                            budgets={"dp": 1.0})
    assert (result.mechanism, result.objective, result.status, result.success) == (None, None, "infeasible", False)
    assert result.smallest_feasible == 0.25 and result.budgets == {"dp": 1.0} and result.solve_time >= 0


def test_certified_result_repairs_round_off():
    """A zero entry where local DP needs every entry positive: repaired by mixing, the note at the end."""
    matrix = np.array([[1.0, 0.0], [0.0, 1.0]]) * (1 - 1e-12) + 1e-12 * np.array([[0.0, 1.0], [1.0, 0.0]])
    result = certified_result(DifferentialPrivacy(), np.log((1 - 1e-12) / 1e-12) - 1.0,
                              ExpectedDistortion(Prior.uniform(2)), matrix, 0.0, "w", time.perf_counter())
    assert result.success and result.message.endswith("into the solution") and "repaired" in result.message
