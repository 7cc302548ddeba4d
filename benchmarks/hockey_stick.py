"""Hockey-stick (ε, δ)-DP design: lazy hinge generation (designers/hockey_stick.py) vs the cvxpy path.

Minimal expected distortion under ``ApproximateDifferentialPrivacy(δ, "hockey_stick")`` for a Zipf prior
with Hamming cost and for a random prior with a random cost (seeded), at (δ, ε) = (0.05, 1.0). "lazy"
is :func:`mechdesign.designers.hockey_stick.design_hockey_stick` (what ``design`` now routes to from
n = 8); "cvxpy" is ``DesignProblem(...).solve`` (every pair's ``m`` hinge terms, HiGHS or Clarabel
by size). Each run is a child process stopped after ``--cap`` seconds; a path stopped at some n is
not tried at larger n. Time, objective, certified gap and status are printed with the load average,
and written to ``benchmarks/out/hockey_stick.csv``.

Run: ``python benchmarks/hockey_stick.py [--sizes 20 40 100 200] [--cap 120]``
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from ldp_formulations import skewed_prior, timed, write_rows

from mechdesign import ApproximateDifferentialPrivacy, DesignProblem, ExpectedDistortion, Prior
from mechdesign.designers.hockey_stick import design_hockey_stick

DELTA, EPSILON = 0.05, 1.0


def objective(kind: str, n: int) -> ExpectedDistortion:
    if kind == "zipf-hamming":
        return ExpectedDistortion(skewed_prior(n))
    rng = np.random.default_rng(n)
    return ExpectedDistortion(Prior(rng.dirichlet(np.ones(n))), rng.random((n, n)))


def run(path: str, kind: str, n: int) -> tuple[float, tuple[float | None, float | None, str]]:
    notion = ApproximateDifferentialPrivacy(DELTA, "hockey_stick")
    start = time.perf_counter()
    if path == "lazy":
        result = design_hockey_stick(notion, EPSILON, objective(kind, n))
    else:
        result = DesignProblem(notion, objective(kind, n)).solve(EPSILON)
    return time.perf_counter() - start, (result.objective, result.gap, result.status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 40, 100, 200])
    parser.add_argument("--cap", type=float, default=120.0)
    args = parser.parse_args()
    rows, stopped = [], set()
    print(f"{'kind':>13} {'n':>4} {'path':>6} {'seconds':>9} {'objective':>14} {'gap':>9} {'status':>11} load")
    for kind in ("zipf-hamming", "random"):
        for n in args.sizes:
            for path in ("lazy", "cvxpy"):
                if (kind, path) in stopped:
                    continue
                seconds, outcome = timed(run, path, kind, n, timeout=args.cap)
                value, gap, status = outcome if outcome is not None else (None, None, f"> {args.cap:g} s")
                if outcome is None:
                    stopped.add((kind, path))
                load = os.getloadavg()[0]
                rows.append({"kind": kind, "n": n, "path": path, "seconds": seconds, "objective": value, "gap": gap,
                             "status": status, "load": load})
                print(f"{kind:>13} {n:4d} {path:>6} {seconds:9.2f} {value if value is not None else float('nan'):14.10f} "
                      f"{gap if gap is not None else float('nan'):9.1e} {status:>11} {load:.1f}", flush=True)
    write_rows(rows, "hockey_stick")


if __name__ == "__main__":
    main()
