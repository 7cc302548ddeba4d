"""Parallel curve sweeps: ``trace_curve(..., executor=ProcessPoolExecutor(2))`` vs the serial sweep.

Same cases as ``benchmarks/curve_dpp.py`` (Zipf prior on ``--n`` symbols, ``--points`` budgets in
[0, 3] nats), by the direct LP unless ``--method`` or ``--solver`` (clarabel or scs: the cvxpy path) says
otherwise.
The pool is started (forked workers inherit the imports) before timing; each worker builds and
compiles its own problem for its chunk. Runs alternate (serial, parallel) ``--repeats`` times and
the best of each is kept. The machine has 2 cores shared with other jobs, so the speed-up is bounded
by 2 and by the load. Prints a table, writes ``benchmarks/out/curve_parallel.csv``.

With ``--executor dask`` the pool is Dask's ``Client(processes=True, n_workers=…).get_executor()`` on
a local cluster instead.

Run: ``python benchmarks/curve_parallel.py [--n 50] [--points 50] [--workers 2] [--repeats 2]
[--executor process|dask] [--solver highs|clarabel]``
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

import numpy as np
from curve_dpp import cases, clock
from ldp_formulations import AGREEMENT_ATOL, write_rows

from mechdesign import trace_curve


@contextmanager
def make_executor(kind: str, workers: int) -> Iterator[Executor]:
    """A process pool, or a Dask local cluster's executor, with ``workers`` single-threaded workers."""
    if kind == "process":
        with ProcessPoolExecutor(workers) as pool:
            yield pool
        return
    from distributed import Client

    with Client(processes=True, n_workers=workers, threads_per_worker=1, dashboard_address=None) as client:
        yield client.get_executor()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--points", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--executor", choices=["process", "dask"], default="process")
    parser.add_argument("--solver", default=None, help="the solver (clarabel or scs: the cvxpy path)")
    parser.add_argument("--method", default=None, help="design method (default: direct-lp, cvxpy with --solver; "
                        "auto would take the closed form, which needs no workers)")
    args = parser.parse_args()
    method = args.method or ("cvxpy" if args.solver else "direct-lp")
    budgets = np.linspace(0.0, 3.0, args.points)
    rows = []
    print(f"n = {args.n}, {args.points} points, {args.workers} {args.executor} workers, "
          f"solver {args.solver or 'default'}, best of {args.repeats}")
    print(f"{'notion':>16} {'serial s':>9} {'parallel s':>11} {'speed-up':>9}")
    with make_executor(args.executor, args.workers) as pool:
        list(pool.map(abs, range(args.workers)))  # start the workers
        for name, notion, objective in cases(args.n):
            serial_times, parallel_times = [], []
            for _ in range(args.repeats):
                seconds, serial = clock(lambda: trace_curve(notion, objective, budgets, solver=args.solver,
                                                            method=method).y)
                serial_times.append(seconds)
                seconds, parallel = clock(lambda: trace_curve(notion, objective, budgets, solver=args.solver, method=method,
                                                              executor=pool, chunks=args.workers).y)
                parallel_times.append(seconds)
                assert np.abs(serial - parallel).max() <= AGREEMENT_ATOL
            row = {"notion": name, "n": args.n, "points": args.points, "executor": args.executor,
                   "solver": args.solver or "default",
                   "workers": args.workers, "serial_s": min(serial_times), "parallel_s": min(parallel_times),
                   "speedup": min(serial_times) / min(parallel_times)}
            rows.append(row)
            print(f"{name:>16} {row['serial_s']:9.3f} {row['parallel_s']:11.3f} {row['speedup']:8.2f}×")
    write_rows(rows, "curve_parallel")


if __name__ == "__main__":
    main()
