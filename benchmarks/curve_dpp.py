"""Privacy–distortion curves: one DPP-compiled problem re-solved per budget vs rebuilding per budget.

For each notion, a ``--points``-point curve of minimal expected Hamming distortion (Zipf prior on
``--n`` symbols, budgets evenly spaced in [0, 3] nats) is traced twice, side by side:

* ``dpp`` — :func:`mechdesign.trace_curve` with ``method="cvxpy"`` and the solver named: one problem
  built and compiled once, only the budget parameter changes;
* ``rebuild`` — :func:`mechdesign.design` (``method="cvxpy"``) called per budget: build, canonicalize
  and solve each time.

``default`` is ``trace_curve`` with the automatic choice: for these three notions the warm-started
direct LPs of :mod:`mechdesign.methods.direct` (no cvxpy; HiGHS re-solves from the previous basis). Runs
alternate (dpp, rebuild, default) ``--repeats`` times and the best of each is kept, because the
machine is shared. The curves must agree to ``AGREEMENT_ATOL``. Prints a table, writes ``benchmarks/out/curve_dpp.csv``.

Run: ``python benchmarks/curve_dpp.py [--n 50] [--points 50] [--repeats 2]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from ldp_formulations import AGREEMENT_ATOL, skewed_prior, write_rows

from mechdesign import (
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    PointwiseMaximalLeakage,
    design,
    trace_curve,
)
from mechdesign.solve import choose_solver


def cases(n: int) -> list[tuple[str, object, ExpectedDistortion]]:
    """(name, notion, objective) of every LP notion benchmarked, on the Zipf prior over ``n`` symbols."""
    prior = skewed_prior(n)
    objective = ExpectedDistortion(prior)
    return [("dp", DifferentialPrivacy(), objective), ("maximal_leakage", MaximalLeakage(), objective),
            ("pml", PointwiseMaximalLeakage(prior), objective)]


def clock(function, *args, **kwargs) -> tuple[float, np.ndarray]:
    """Seconds taken by ``function(*args, **kwargs)`` and the curve's optima."""
    start = time.perf_counter()
    values = function(*args, **kwargs)
    return time.perf_counter() - start, np.asarray(values, dtype=float)


def rebuild(notion, objective, budgets, solver):
    return [design(notion, b, objective, solver=solver, method="cvxpy").objective for b in budgets]


def dpp(notion, objective, budgets, solver):
    return trace_curve(notion, objective, budgets, solver=solver, method="cvxpy").y


def default(notion, objective, budgets):
    return trace_curve(notion, objective, budgets).y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--points", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    budgets = np.linspace(0.0, 3.0, args.points)
    solver = choose_solver(True, args.n * args.n)
    rows = []
    print(f"n = {args.n}, {args.points} points, solver {solver}, best of {args.repeats}")
    print(f"{'notion':>16} {'dpp s':>8} {'rebuild s':>10} {'speed-up':>9} {'default s':>10} {'speed-up':>9}")
    for name, notion, objective in cases(args.n):
        times: dict[str, list[float]] = {"dpp": [], "rebuild": [], "default": []}
        for _ in range(args.repeats):
            t, y_dpp = clock(dpp, notion, objective, budgets, solver)
            times["dpp"].append(t)
            t, y_rebuild = clock(rebuild, notion, objective, budgets, solver)
            times["rebuild"].append(t)
            t, y_default = clock(default, notion, objective, budgets)
            times["default"].append(t)
            gap = max(np.abs(y_dpp - y_rebuild).max(), np.abs(y_dpp - y_default).max())
            assert gap <= AGREEMENT_ATOL, f"{name}: curves differ by {gap}"
        best = {k: min(v) for k, v in times.items()}
        rows.append({"notion": name, "n": args.n, "points": args.points, "solver": solver,
                     "dpp_s": best["dpp"], "rebuild_s": best["rebuild"], "speedup": best["rebuild"] / best["dpp"],
                     "default_s": best["default"], "default_speedup": best["rebuild"] / best["default"],
                     "max_gap": gap})
        print(f"{name:>16} {best['dpp']:8.3f} {best['rebuild']:10.3f} {best['rebuild'] / best['dpp']:8.1f}× "
              f"{best['default']:10.3f} {best['rebuild'] / best['default']:8.1f}×")
    write_rows(rows, "curve_dpp")


if __name__ == "__main__":
    main()
