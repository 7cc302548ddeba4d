"""Rényi DP designs before and after a change, side by side (branches `renyi`: the dual-guided certificate;
`renyi2`: the well-scaled constraints Σ a^α (e^ε b)^{1−α} <= 1).

The baseline is the library at ``BASELINE`` (the commit before the change), extracted with ``git archive``
into a temporary directory; every case runs in a fresh process on each, baseline then new, printed side by side as it ends.

* Certificates: one design with Clarabel on random costs (seed 1, as in benchmarks/certification.py),
  n = 10, 20, 30, all pairs neighbours, α = 2, ε = 1: status, gap, the whole solve and the
  certificate alone (``design_lower_bound`` re-run on the design's mechanism with the solve's target).
  (α = 4 is left out: the baseline spends minutes in cvxpy's power-cone residual, which projects with SCS.)
* Accuracy at large budgets: α = 4, uniform prior, Hamming cost, m = 3 and 5, ε = 3, 4, 6, 8 (randomized
  response is optimal: tests/privacy/test_renyi.py).

Run: ``PYTHONPATH=. python benchmarks/renyi.py [accuracy|certificate]`` (both sections by default); results in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

#: The commit the new path is compared with (main before the branch `renyi2`; `d73c01b` before `renyi`).
BASELINE = "71498cc"
CERTIFICATE_CASES = [(n, 2.0, 1.0) for n in (10, 20, 30)]
ACCURACY_CASES = [(m, 4.0, eps) for m in (3, 5) for eps in (3.0, 4.0, 6.0, 8.0)]


def certificate_case(n: int, alpha: float, epsilon: float) -> dict:
    from mechdesign import DesignProblem, ExpectedDistortion, Prior, RenyiDifferentialPrivacy
    from mechdesign.certificate import design_lower_bound
    from mechdesign.result import gap_tolerance

    rng = np.random.default_rng(1)
    prior = rng.dirichlet(np.ones(n))
    cost = rng.random((n, n))
    notion = RenyiDifferentialPrivacy(alpha)
    problem = DesignProblem(notion, ExpectedDistortion(Prior(prior), cost), solver="clarabel")
    start = time.perf_counter()
    result = problem.solve(epsilon)
    total = time.perf_counter() - start
    value = problem.solved_objective.value(result.mechanism)
    start = time.perf_counter()
    design_lower_bound(problem.solved_objective, [(notion, epsilon)], [], result.mechanism.matrix,
                       target=value - gap_tolerance(value))
    return {"status": result.status, "gap": result.gap, "total": total, "certificate": time.perf_counter() - start}


def accuracy_case(m: int, alpha: float, epsilon: float) -> dict:
    from mechdesign import ExpectedDistortion, Prior, RenyiDifferentialPrivacy, design

    result = design(RenyiDifferentialPrivacy(alpha), epsilon, ExpectedDistortion(Prior.uniform(m)))
    return {"status": result.status, "objective": result.objective, "gap": result.gap, "total": result.solve_time}


#: A case still running after this many seconds is reported as such (the baseline can take minutes).
CASE_SECONDS = 300


def measure(path: str, kind: str, case: tuple) -> dict | None:
    """One case in a fresh process importing mechdesign from ``path`` (``None`` after CASE_SECONDS)."""
    environment = {**os.environ, "PYTHONPATH": path}
    try:
        output = subprocess.run([sys.executable, __file__, kind, json.dumps(case)], env=environment, check=True,
                                capture_output=True, text=True, timeout=CASE_SECONDS).stdout
    except subprocess.TimeoutExpired:
        return None
    return json.loads(output.splitlines()[-1])


def _number(value: float | None, spec: str) -> str:
    """``value`` formatted, or "–" when the result has none (a failed design has no objective or gap)."""
    return "–" if value is None else format(value, spec)


def _certificate_row(case: tuple, old: dict | None, new: dict | None) -> str:
    n, alpha, eps = case
    cells = [f"{r['status']}, {_number(r['gap'], '.1e')}" if r else f"> {CASE_SECONDS} s" for r in (old, new)]
    times = [f"{r['certificate']:.2f}" if r else "–" for r in (old, new)]
    totals = [f"{r['total']:.2f}" if r else "–" for r in (old, new)]
    return f"| {n} | {alpha:g} | {eps:g} | {cells[0]} | {cells[1]} | {' / '.join(times)} | {' / '.join(totals)} |"


def _accuracy_row(case: tuple, old: dict | None, new: dict | None) -> str:
    m, alpha, eps = case
    cells = [f"{r['status']}, {_number(r['objective'], '.9f')}, {_number(r['gap'], '.1e')}" if r else f"> {CASE_SECONDS} s"
             for r in (old, new)]
    totals = [f"{r['total']:.2f}" if r else "–" for r in (old, new)]
    return f"| {m} | {alpha:g} | {eps:g} | {cells[0]} | {cells[1]} | {' / '.join(totals)} |"


def main(sections: tuple[str, ...] = ("accuracy", "certificate")) -> None:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as baseline:
        archive = subprocess.run(["git", "-C", here, "archive", BASELINE, "mechdesign"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", baseline], input=archive, check=True)
        if "accuracy" in sections:
            print(f"load average: {os.getloadavg()}", flush=True)
            print("| m | α | ε | before: status, objective, gap | after: status, objective, gap | time before / after (s) |")
            print("|---|---|---|---|---|---|", flush=True)
            for case in ACCURACY_CASES:
                print(_accuracy_row(case, measure(baseline, "--accuracy", case), measure(here, "--accuracy", case)), flush=True)
        if "certificate" in sections:
            print(f"\nload average: {os.getloadavg()}\n")
            print("| n | α | ε | before: status, gap | after: status, gap | certificate before / after (s) | solve before / after (s) |")
            print("|---|---|---|---|---|---|---|", flush=True)
            for case in CERTIFICATE_CASES:
                print(_certificate_row(case, measure(baseline, "--certificate", case), measure(here, "--certificate", case)),
                      flush=True)
        print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    if len(sys.argv) == 3:
        run = certificate_case if sys.argv[1] == "--certificate" else accuracy_case
        print(json.dumps(run(*json.loads(sys.argv[2]))))
    else:
        main(tuple(sys.argv[1:]) or ("accuracy", "certificate"))
