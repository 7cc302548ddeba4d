"""Column generation over outputs vs the dense direct LP, for E[d] under local DP, pointwise (ε, δ)-DP,
maximal leakage and PML with one prior, random and Hamming costs.

Both paths run end to end through :class:`mechdesign.DesignProblem` (build, solve, clean, re-measure,
certify): ``mechdesign.direct.COLUMN_GENERATION_MIN_INPUTS`` set to 0 (new:
``mechdesign.designers.column_generation``) or out of reach (baseline: the dense LPs of
``mechdesign.direct``). ``--cvxpy`` makes the baseline of pointwise (ε, δ)-DP its cvxpy problem
solved by HiGHS (the path it took before it had a direct LP). ``--against DIR`` makes the baseline
the same column generation imported from another source tree ``DIR`` (e.g. ``git -C <repo> archive
main | tar -x -C DIR``: this branch against main, run alternately in the same script). Each run is a
child process (peak resident memory from ``ru_maxrss``, wall and CPU seconds), stopped after
``--cap`` seconds; a path stopped at some n is not tried at larger n. Zipf prior, ε = 1, δ = 0.01,
random costs uniform on [0, 1] (seed 0). The machine is shared: the load average is printed beside
every row, and CPU seconds are less load-dependent.

Run: ``python benchmarks/column_generation.py [--sizes 100 200 400 1000] [--cap 300] [--against DIR]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np
from ldp_formulations import skewed_prior, write_rows

import mechdesign.direct
from mechdesign import (ApproximateDifferentialPrivacy, DesignProblem, DifferentialPrivacy, ExpectedDistortion,
                        MaximalLeakage, PointwiseMaximalLeakage)

EPSILON = 1.0
DELTA = 0.01
NOTIONS = ("dp", "approx_dp", "maximal_leakage", "pml")


def _notion(name: str, prior):
    return {"dp": DifferentialPrivacy(), "approx_dp": ApproximateDifferentialPrivacy(DELTA),
            "maximal_leakage": MaximalLeakage(), "pml": PointwiseMaximalLeakage(prior)}[name]


def _cost(n: int, kind: str) -> np.ndarray:
    return np.random.default_rng(0).random((n, n)) if kind == "random" else 1.0 - np.eye(n)


def run(name: str, n: int, kind: str, path: str) -> dict:  # path: "new", "dense" or "cvxpy"
    """Child process: one design, reporting wall/CPU seconds, objective, bound, method and peak memory."""
    mechdesign.direct.COLUMN_GENERATION_MIN_INPUTS = 0 if path in ("new", "against") else 10**9
    solver = "highs" if path == "cvxpy" and name == "approx_dp" else None
    prior = skewed_prior(n)
    wall, cpu = time.perf_counter(), time.process_time()
    result = DesignProblem(_notion(name, prior), ExpectedDistortion(prior, _cost(n, kind)), solver=solver).solve(EPSILON)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
            "objective": result.objective, "bound": result.bound, "status": result.status,
            "method": result.method, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def timed(name: str, n: int, kind: str, path: str, cap: float, source: str | None = None) -> dict | None:
    """One :func:`run` in a child process (``mechdesign`` imported from the tree ``source`` if given);
    ``None`` if stopped after ``cap`` seconds."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(source)) if source else None
    try:
        child = subprocess.run([sys.executable, __file__, "--child", name, str(n), kind, path], env=env,
                               capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None
    if child.returncode != 0:
        raise RuntimeError(f"{name} {kind} n = {n} ({path}) failed:\n{child.stderr}")
    return json.loads(child.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400, 1000])
    parser.add_argument("--notions", nargs="+", default=list(NOTIONS))
    parser.add_argument("--kinds", nargs="+", default=["random", "hamming"])
    parser.add_argument("--cap", type=float, default=300.0)
    parser.add_argument("--cvxpy", action="store_true", help="baseline of approx_dp: its cvxpy problem")
    parser.add_argument("--new-only", action="store_true", help="skip the baselines (sizes beyond them)")
    parser.add_argument("--against", metavar="DIR", help="baseline: the column generation of the source tree DIR")
    parser.add_argument("--child", nargs=4, metavar=("NOTION", "N", "COST", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, n, kind, path = args.child
        print(json.dumps(run(name, int(n), kind, path)))
        return
    stopped: set[tuple[str, str, str]] = set()
    rows = []
    print("| notion | cost | n | new (s) | new CPU (s) | new peak (MB) | baseline (s) | baseline CPU (s) | baseline peak (MB) "
          "| CPU ratio | |Δ objective| | gap (new) | status (new) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for kind in args.kinds:
            for name in args.notions:
                results = {}
                baseline = "against" if args.against else "cvxpy" if args.cvxpy and name == "approx_dp" else "dense"
                for path, runner in (("new", "new"), ("dense", baseline)):
                    if (name, kind, path) in stopped or (args.new_only and path == "dense"):
                        results[path] = None
                        continue
                    source = args.against if runner == "against" else None
                    results[path] = timed(name, n, kind, runner, args.cap, source)
                    if results[path] is None:
                        stopped.add((name, kind, path))
                new, dense = results["new"], results["dense"]
                load = os.getloadavg()[0]
                row = {"notion": name, "cost": kind, "n": n, "load": round(load, 1)}
                for path, result in results.items():
                    for key in ("wall", "cpu", "peak_mb", "objective", "bound", "status", "method"):
                        row[f"{path}_{key}"] = None if result is None else result[key]
                rows.append(row)

                def cell(result, key, digits=2, skipped=False):
                    if result is None:
                        return "not run" if skipped else f"> {args.cap:.0f} (stopped)"
                    return f"{result[key]:.{digits}f}"
                ratio = f"{dense['cpu'] / new['cpu']:.1f}×" if new and dense else "–"
                delta = f"{abs(new['objective'] - dense['objective']):.1e}" if new and dense else "–"
                gap = f"{new['objective'] - new['bound']:.1e}" if new else "–"
                print(f"| {name} | {kind} | {n} | {cell(new, 'wall')} | {cell(new, 'cpu')} | {cell(new, 'peak_mb', 0)} "
                      f"| {cell(dense, 'wall', skipped=args.new_only)} | {cell(dense, 'cpu', skipped=args.new_only)} "
                      f"| {cell(dense, 'peak_mb', 0, skipped=args.new_only)} | {ratio} | {delta} "
                      f"| {gap} | {new['status'] + ' ' + new['method'] if new else '–'} | {load:.1f} |", flush=True)
    write_rows(rows, "column_generation")


if __name__ == "__main__":
    main()
