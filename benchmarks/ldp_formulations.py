"""Structured ε-LDP formulation (column minima, O(n²) rows) vs the naive pairwise one (O(n³) rows).

Both minimize expected Hamming distortion under a skewed prior at ε = 1, side by side in one run,
with the same solver; the optima must agree. Prints a table and writes ``benchmarks/out/ldp_formulations.csv``.

Run: ``python benchmarks/ldp_formulations.py [--sizes 20 50 100] [--solvers highs clarabel]``
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import time
from pathlib import Path

import cvxpy as cp
import numpy as np

from mechdesign import DesignProblem, DifferentialPrivacy, ExpectedDistortion, Prior
from mechdesign.solvers import DEFAULT_SOLVER_OPTIONS

EPSILON = 1.0
AGREEMENT_ATOL = 1e-7
#: Seconds after which a run is stopped and reported as a timeout.
TIMEOUT = 300.0


def skewed_prior(n: int) -> Prior:
    weights = 1.0 / np.arange(1, n + 1)  # Zipf
    return Prior(weights / weights.sum())


def structured(n: int, solver: str) -> tuple[float, float]:
    """Seconds (build + solve) and optimum of mechdesign's formulation."""
    start = time.perf_counter()
    problem = DesignProblem(DifferentialPrivacy(), ExpectedDistortion(skewed_prior(n)), solver=solver, method="cvxpy")
    result = problem.solve(EPSILON)
    assert result.success, result.message
    return time.perf_counter() - start, result.objective


def pairwise(n: int, solver: str) -> tuple[float, float]:
    """Seconds (build + solve) and optimum of the naive formulation: one row per (x, x', y)."""
    start = time.perf_counter()
    prior = skewed_prior(n).probabilities
    Q = cp.Variable((n, n), nonneg=True)
    first, second = np.array([(i, j) for i in range(n) for j in range(n) if i != j]).T
    constraints = [cp.sum(Q, axis=1) == 1, Q[first, :] <= math.exp(EPSILON) * Q[second, :]]
    objective = cp.sum(cp.multiply(Q, prior[:, None] * (1 - np.eye(n))))
    problem = cp.Problem(cp.Minimize(objective), constraints)
    problem.solve(solver=solver.upper(), **DEFAULT_SOLVER_OPTIONS.get(solver, {}))
    assert problem.status == cp.OPTIMAL, problem.status
    return time.perf_counter() - start, float(problem.value)


def _worker(function, args, queue) -> None:
    queue.put(function(*args))


def timed(function, *args, timeout: float = TIMEOUT) -> tuple[float, float | None]:
    """Run ``function(*args)`` (returning ``(seconds, value)``) in a child process;
    ``(timeout, None)`` if it does not finish within ``timeout`` seconds."""
    queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=_worker, args=(function, args, queue))
    process.start()
    process.join(timeout)
    if process.is_alive():
        process.terminate()
        process.join()
        return timeout, None
    return queue.get()


def write_rows(rows: list[dict], name: str) -> Path:
    """Write ``rows`` (dictionaries; columns in first-appearance order) to ``benchmarks/out/<name>.csv``."""
    out = Path(__file__).parent / "out"
    out.mkdir(exist_ok=True)
    path = out / f"{name}.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(dict.fromkeys(key for row in rows for key in row)))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {path}")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--solvers", nargs="+", default=["highs", "clarabel"])
    args = parser.parse_args()
    rows = []
    print(f"{'n':>4} {'solver':>9} {'structured s':>13} {'pairwise s':>11} {'speed-up':>9} {'|Δ optimum|':>12}")
    for n in args.sizes:
        for solver in args.solvers:
            t_struct, v_struct = timed(structured, n, solver)
            t_pair, v_pair = timed(pairwise, n, solver)
            gap = abs(v_struct - v_pair) if v_pair is not None else math.nan
            assert not gap > AGREEMENT_ATOL, f"optima differ by {gap} at n={n}"
            speedup = t_pair / t_struct
            rows.append({"n": n, "solver": solver, "structured_s": t_struct, "pairwise_s": t_pair,
                         "pairwise_timed_out": v_pair is None, "speedup": speedup, "optimum": v_struct, "gap": gap})
            bound = ">" if v_pair is None else " "
            print(f"{n:4d} {solver:>9} {t_struct:13.3f} {bound}{t_pair:10.3f} {bound}{speedup:7.1f}× {gap:12.1e}")
    write_rows(rows, "ldp_formulations")


if __name__ == "__main__":
    main()
