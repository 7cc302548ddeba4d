"""Exact MI-maximizing mechanism (LP over extreme columns) for N = 6…12: enumeration and LP times.

For each notion and alphabet size: the number of extreme columns kept, the time to enumerate them,
the time of the LP solved with highspy directly, and — as the side-by-side baseline — the same LP
built and solved through cvxpy with HiGHS (the optima must agree within ``AGREEMENT_ATOL``). Zipf
prior, ε = 1; the ℓ1-ball has radius β = min P (inside the simplex). Writes a table and
``benchmarks/out/mi_extreme_columns.csv``.

Run: ``python benchmarks/mi_extreme_columns.py [--sizes 6 8 10 12]``
"""

from __future__ import annotations

import argparse
import math
import time

import cvxpy as cp
import numpy as np
from ldp_formulations import AGREEMENT_ATOL, EPSILON, skewed_prior, write_rows

from mechdesign import DifferentialPrivacy, MaximalLeakage, PointwiseMaximalLeakage
from mechdesign.priors import L1Ball
from mechdesign.designers.extreme_columns import extreme_columns, maximize_mutual_information, solve_column_lp
from mechdesign.utility.information import mutual_information_utility


def notions(prior: np.ndarray) -> dict:
    return {
        "ldp": DifferentialPrivacy(),
        "pml": PointwiseMaximalLeakage(prior),
        "pml-l1-ball": PointwiseMaximalLeakage(L1Ball(prior, float(prior.min()))),
        "maximal-leakage": MaximalLeakage(),
    }


def cvxpy_lp(columns: np.ndarray, values: np.ndarray, total: float | None) -> tuple[float, float]:
    start = time.perf_counter()
    w = cp.Variable(columns.shape[1], nonneg=True)
    constraints = [columns @ w == 1] + ([cp.sum(w) <= total] if total is not None else [])
    problem = cp.Problem(cp.Maximize(values @ w), constraints)
    problem.solve(solver=cp.HIGHS)
    return time.perf_counter() - start, float(problem.value)


def run(n: int, name: str, notion, prior: np.ndarray) -> dict:
    utility = mutual_information_utility(prior)
    start = time.perf_counter()
    columns, budget_row = extreme_columns(notion, EPSILON, n)
    enumerate_s = time.perf_counter() - start
    values = utility.columns(columns)
    total = math.exp(EPSILON) if budget_row else None
    start = time.perf_counter()
    weights, _ = solve_column_lp(columns, values, total)
    lp_s = time.perf_counter() - start
    baseline_s, baseline = cvxpy_lp(columns, values, total)
    optimum = float(values @ weights)
    assert abs(optimum - baseline) <= AGREEMENT_ATOL, (name, n, optimum, baseline)
    start = time.perf_counter()
    result = maximize_mutual_information(notion, EPSILON, prior)
    total_s = time.perf_counter() - start
    assert result.success and abs(result.objective - optimum) <= AGREEMENT_ATOL, result.message
    return dict(n=n, notion=name, columns=columns.shape[1], enumerate_s=enumerate_s, lp_s=lp_s,
                cvxpy_highs_s=baseline_s, ratio=baseline_s / lp_s, end_to_end_s=total_s, mutual_information=optimum)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(range(6, 13)))
    args = parser.parse_args()
    rows = []
    print("| N | notion | extreme columns | enumerate (s) | LP highspy (s) | LP cvxpy+HiGHS (s) | ratio | end to end (s) | max MI (nats) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        prior = skewed_prior(n).probabilities
        for name, notion in notions(prior).items():
            row = run(n, name, notion, prior)
            rows.append(row)
            print(f"| {n} | {name} | {row['columns']:,} | {row['enumerate_s']:.3f} | {row['lp_s']:.3f} | "
                  f"{row['cvxpy_highs_s']:.3f} | {row['ratio']:.1f}× | {row['end_to_end_s']:.3f} | {row['mutual_information']:.6f} |",
                  flush=True)
    write_rows(rows, "mi_extreme_columns")


if __name__ == "__main__":
    main()
