"""Scaling of distortion-optimal design with the alphabet size n: time and peak memory per notion.

For each notion, minimal expected Hamming distortion under a Zipf prior on n symbols at budget 1
(δ = 0.05 for approximate DP), built and solved by :class:`mechdesign.DesignProblem` with the default
solver (local DP, maximal leakage and PML also forced through cvxpy by naming the solver), each
run in its own child process (stopped after ``--cap`` seconds; a notion stopped at
some n is not tried at larger n). Peak memory is the child's peak resident set minus its resident
set before building. ``estimate`` is what ``mechdesign.solve`` predicts (and refuses beyond the
available memory): its ratio to the measured peak calibrates ``BYTES_PER_NONZERO``. Prints a table,
writes ``benchmarks/out/scaling.csv``.

Run: ``python benchmarks/scaling.py [--sizes 10 20 50 100 150 200] [--cap 120]``
"""

from __future__ import annotations

import argparse
import resource
import time

from ldp_formulations import skewed_prior, timed, write_rows

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DesignProblem,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    ProblemTooLargeError,
)
from mechdesign.solve import BYTES_PER_NONZERO, DIRECT_BYTES_PER_NONZERO, choose_solver, estimated_nonzeros

#: name → (notion factory, whether to force the cvxpy path by naming the solver).
NOTIONS = {
    "dp (direct LP)": (lambda prior: DifferentialPrivacy(), False),
    "dp (cvxpy)": (lambda prior: DifferentialPrivacy(), True),
    "approx_dp pointwise": (lambda prior: ApproximateDifferentialPrivacy(0.05), False),
    "approx_dp hockey_stick": (lambda prior: ApproximateDifferentialPrivacy(0.05, "hockey_stick"), False),
    "maximal_leakage (direct LP)": (lambda prior: MaximalLeakage(), False),
    "maximal_leakage (cvxpy)": (lambda prior: MaximalLeakage(), True),
    "mutual_information": (lambda prior: MutualInformationPrivacy(prior), False),
    "pml (direct LP)": (lambda prior: PointwiseMaximalLeakage(prior), False),
    "pml (cvxpy)": (lambda prior: PointwiseMaximalLeakage(prior), True),
}


def _rss_bytes() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize()


def run(name: str, n: int) -> tuple[float, dict]:
    """Seconds to build and solve one design, with its peak memory, estimate and status."""
    prior = skewed_prior(n)
    factory, force_cvxpy = NOTIONS[name]
    notion = factory(prior)
    baseline = _rss_bytes()
    start = time.perf_counter()
    # method="cvxpy" keeps a notion on the cvxpy path (with the default solver of its size); otherwise
    # the automatic choice applies.
    solver = choose_solver(True, n * n) if force_cvxpy else None
    try:
        problem = DesignProblem(notion, ExpectedDistortion(prior), solver=solver,
                                method="cvxpy" if force_cvxpy else "auto")
    except ProblemTooLargeError as error:
        return time.perf_counter() - start, {"status": "refused", "message": str(error)}
    estimate = (DIRECT_BYTES_PER_NONZERO * 4 * n * n if problem.direct is not None
                else BYTES_PER_NONZERO * estimated_nonzeros(problem.problem))
    result = problem.solve(1.0)
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - baseline
    return elapsed, {"status": result.status, "peak_mb": peak / 2**20, "estimate_mb": estimate / 2**20,
                     "objective": result.objective, "solver": result.solver}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 50, 100, 150, 200])
    parser.add_argument("--cap", type=float, default=120.0)
    args = parser.parse_args()
    rows, stopped = [], set()
    print(f"{'notion':>28} {'n':>4} {'seconds':>9} {'peak MB':>9} {'estimate MB':>12} status")
    for n in args.sizes:
        for name in NOTIONS:
            if name in stopped:
                continue
            seconds, info = timed(run, name, n, timeout=args.cap)
            if info is None:
                info = {"status": f"stopped after {args.cap:g} s"}
            if info["status"] != "optimal":
                stopped.add(name)
            row = {"notion": name, "n": n, "seconds": seconds, "peak_mb": info.get("peak_mb"),
                   "estimate_mb": info.get("estimate_mb"), "status": info["status"], "solver": info.get("solver")}
            rows.append(row)
            peak = f"{row['peak_mb']:9.1f}" if row["peak_mb"] is not None else f"{'-':>9}"
            estimate = f"{row['estimate_mb']:12.1f}" if row["estimate_mb"] is not None else f"{'-':>12}"
            print(f"{name:>28} {n:4d} {seconds:9.3f} {peak} {estimate} {row['status']}", flush=True)
    write_rows(rows, "scaling")


if __name__ == "__main__":
    main()
