"""The certification tail (issue 33 item 3) and design()'s SML method (item 2): the same results, side by side.

Every design path whose ``Result`` is now built by ``mechdesign/methods/certified.py`` (closed forms, the
direct LP and cvxpy with their repair, the unconstrained optimum, a proven-infeasible limit, hockey-stick
cuts, Blahut–Arimoto, SML constraint generation and enumeration, the summary-privacy bisection and its
infeasible case, the extreme-column LP) is run in two trees — e.g. one made by ``git archive`` before the change and the working
tree — each case in a fresh child process, the two trees alternating. Every field of the two results
(status, objective, bound, gap, unit, measures, budgets, limits, message, the mechanism to 15 decimals) is
compared; the seconds of each run are printed with the machine's 1-minute load beside them.

``--sml`` also times a large SML secret through ``design()`` in the second tree (routed to constraint
generation) against ``design_under_sml(strategy="generate")`` and, for a secret still written as constraints,
the cvxpy path against the cuts.

Run from the repository root: ``python benchmarks/certification_tail.py BEFORE_ROOT AFTER_ROOT [--sml]``,
each root a directory holding a ``mechdesign`` package (``.`` for the working tree).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

#: The child's program: one case, its Result's fields as one JSON line.
CHILD = r'''
import json, os, sys, time
import numpy as np
from mechdesign import (ApproximateDifferentialPrivacy, DifferentialPrivacy, ExpectedDistortion, IntersectionPrivacy,
                        MaximalLeakage, MutualInformationPrivacy, ParameterSpace, PointwiseMaximalLeakage, Prior,
                        RenyiDifferentialPrivacy, StatisticMaximalLeakage, WorstCaseInputDistortion, design)
from mechdesign.designers.sml import design_under_sml
from mechdesign.designers.extreme_columns import maximize_mutual_information
from mechdesign.designers.summary import design_worst_case_distortion

skew, small = Prior(np.arange(1, 13) / 78.0), Prior([0.4, 0.3, 0.2, 0.1])
cost = np.random.default_rng(3).uniform(0, 2, (12, 12))
np.fill_diagonal(cost, 0)
space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])
CASES = {
    "closed-form LDP": lambda: design(DifferentialPrivacy(), 1.0, ExpectedDistortion(skew)),
    "closed-form MaxL": lambda: design(MaximalLeakage(), 0.7, ExpectedDistortion(skew)),
    "direct-lp LDP cost": lambda: design(DifferentialPrivacy(), 1.0, ExpectedDistortion(skew, cost)),
    "cvxpy LDP cost": lambda: design(DifferentialPrivacy(), 1.0, ExpectedDistortion(skew, cost), method="cvxpy"),
    "direct-lp PML": lambda: design(PointwiseMaximalLeakage(skew), 0.5, ExpectedDistortion(skew, cost)),
    "unconstrained-optimum": lambda: design(DifferentialPrivacy(), 50.0, ExpectedDistortion(skew, cost), method="cvxpy"),
    "limit infeasible": lambda: design(DifferentialPrivacy(), 0.1, ExpectedDistortion(skew, cost),
                                       limits=[(ExpectedDistortion(skew), 0.01)]),
    "hockey-stick": lambda: design(ApproximateDifferentialPrivacy(0.05, "hockey_stick"), 0.8,
                                   ExpectedDistortion(skew, cost)),
    "blahut-arimoto": lambda: design(MutualInformationPrivacy(small), 0.3, ExpectedDistortion(small)),
    "renyi cvxpy": lambda: design(RenyiDifferentialPrivacy(2.0), 1.0, ExpectedDistortion(small)),
    "sml cuts": lambda: design_under_sml(np.arange(12) % 3, 0.5, WorstCaseInputDistortion(12), strategy="generate"),
    "sml generic loop (solver named)": lambda: design_under_sml(np.arange(12) % 3, 0.5, WorstCaseInputDistortion(12),
                                                                strategy="generate", solver="highs"),
    "sml enumerate": lambda: design_under_sml([0, 0, 1, 1, 2], 0.5, WorstCaseInputDistortion(5)),
    "summary bisection": lambda: design_worst_case_distortion(IntersectionPrivacy(space), 0.5),
    "summary infeasible": lambda: design_worst_case_distortion(IntersectionPrivacy(space), 0.1),
    "extreme-columns MI": lambda: maximize_mutual_information(DifferentialPrivacy(), 1.0, skew),
    "sml 21 inputs, 2187 selections: design": lambda: design(StatisticMaximalLeakage(np.arange(21) % 7), 0.5,
                                                              WorstCaseInputDistortion(21)),
    "sml 21 inputs, 2187 selections: design_under_sml": lambda: design_under_sml(
        np.arange(21) % 7, 0.5, WorstCaseInputDistortion(21), strategy="generate"),
    "sml 24 inputs, 512 selections: design (cvxpy)": lambda: design(StatisticMaximalLeakage(np.arange(24) % 3), 0.5,
                                                                   WorstCaseInputDistortion(24)),
    "sml 24 inputs, 512 selections: design_under_sml": lambda: design_under_sml(
        np.arange(24) % 3, 0.5, WorstCaseInputDistortion(24), strategy="generate"),
}
if sys.argv[1] == "--list":
    print(json.dumps(list(CASES)))
    sys.exit()
start = time.perf_counter()
r = CASES[sys.argv[1]]()
seconds = time.perf_counter() - start
print(json.dumps(dict(
    method=r.method, status=r.status, success=r.success, objective=r.objective, bound=r.bound, gap=r.gap, unit=r.unit,
    solver=r.solver, iterations=r.iterations, measured=r.measured, budgets=r.budgets, limits=r.limits,
    measured_limits=r.measured_limits, max_violation=r.max_violation, smallest_feasible=r.smallest_feasible,
    message=r.message, matrix=None if r.mechanism is None else np.asarray(r.mechanism.matrix).round(15).tolist(),
    seconds=seconds, load=os.getloadavg()[0]), default=str))
'''
#: Cases compared field by field between the trees (the SML timing cases run in the second tree only).
COMPARED = 16


def run(root: str, case: str) -> dict:
    """One case in a fresh child process with ``root`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(Path(root).resolve()))
    out = subprocess.run([sys.executable, "-c", CHILD, case], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--sml", action="store_true", help="also time the large-SML cases in the second tree")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(Path(args.after).resolve()))
    names = json.loads(subprocess.run([sys.executable, "-c", CHILD, "--list"], env=env, capture_output=True,
                                      text=True, check=True).stdout)
    print("| case | method | status | objective | fields that differ | s before (load) | s after (load) |")
    print("|---|---|---|---|---|---|---|")
    for name in names[:COMPARED]:
        before, after = run(args.before, name), run(args.after, name)
        differ = [k for k in before if k not in ("seconds", "load") and before[k] != after[k]]
        print(f"| {name} | {after['method']} | {after['status']} | {after['objective']!r} | {', '.join(differ) or 'none'} "
              f"| {before['seconds']:.3f} ({before['load']:.1f}) | {after['seconds']:.3f} ({after['load']:.1f}) |")
    if args.sml:
        print("\n| case (second tree) | method | status | objective | s (load) |\n|---|---|---|---|---|")
        for name in names[COMPARED:]:
            result = run(args.after, name)
            print(f"| {name} | {result['method']} | {result['status']} | {result['objective']!r} "
                  f"| {result['seconds']:.2f} ({result['load']:.1f}) |")


if __name__ == "__main__":
    main()
