"""Parallel curve sweeps: ``trace_curve(..., executor=ProcessPoolExecutor(2))`` vs the serial sweep.

Same cases as ``benchmarks/curve_dpp.py`` (Zipf prior on ``--n`` symbols, ``--points`` budgets in
[0, 3] nats, automatic solver choice). The pool is started (forked workers inherit the imports)
before timing; each worker builds and compiles its own problem for its chunk. Runs alternate
(serial, parallel) ``--repeats`` times and the best of each is kept. The machine has 2 cores shared
with other jobs, so the speed-up is bounded by 2 and by the load. Prints a table, writes
``benchmarks/out/curve_parallel.csv``.

Run: ``python benchmarks/curve_parallel.py [--n 50] [--points 50] [--workers 2] [--repeats 2]``
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from curve_dpp import cases, clock
from ldp_formulations import AGREEMENT_ATOL, write_rows

from mechdesign import trace_curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--points", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    budgets = np.linspace(0.0, 3.0, args.points)
    rows = []
    print(f"n = {args.n}, {args.points} points, {args.workers} workers, best of {args.repeats}")
    print(f"{'notion':>16} {'serial s':>9} {'parallel s':>11} {'speed-up':>9}")
    with ProcessPoolExecutor(args.workers) as pool:
        list(pool.map(abs, range(args.workers)))  # start the workers (forked: mechdesign already imported)
        for name, notion, objective in cases(args.n):
            serial_times, parallel_times = [], []
            for _ in range(args.repeats):
                seconds, serial = clock(lambda: trace_curve(notion, objective, budgets).y)
                serial_times.append(seconds)
                seconds, parallel = clock(lambda: trace_curve(notion, objective, budgets, executor=pool,
                                                              chunks=args.workers).y)
                parallel_times.append(seconds)
                assert np.abs(serial - parallel).max() <= AGREEMENT_ATOL
            row = {"notion": name, "n": args.n, "points": args.points, "workers": args.workers,
                   "serial_s": min(serial_times), "parallel_s": min(parallel_times),
                   "speedup": min(serial_times) / min(parallel_times)}
            rows.append(row)
            print(f"{name:>16} {row['serial_s']:9.3f} {row['parallel_s']:11.3f} {row['speedup']:8.2f}×")
    write_rows(rows, "curve_parallel")


if __name__ == "__main__":
    main()
