"""Hockey-stick (ε, δ)-DP design: lazy hinge generation (designers/hockey_stick.py) vs the cvxpy path.

Minimal expected distortion under ``ApproximateDifferentialPrivacy(δ, "hockey_stick")`` for a Zipf prior
with Hamming cost and for a random prior with a random cost (seeded), at (δ, ε) = (0.05, 1.0). "lazy"
is :func:`mechdesign.designers.hockey_stick.design_hockey_stick` (what ``design`` now routes to from
n = 8); "cvxpy" is ``DesignProblem(...).solve`` (every pair's ``m`` hinge terms, HiGHS or Clarabel
by size). Each run is a child process stopped after ``--cap`` seconds; a path stopped at some n is
not tried at larger n. Time, objective, certified gap and status are printed with the load average,
and written to ``benchmarks/out/hockey_stick.csv``.

Run: ``python benchmarks/hockey_stick.py [--sizes 20 40 100 200] [--cap 120]``

``--measure REV`` instead times ``ApproximateDifferentialPrivacy(δ, "hockey_stick").measure`` on a random
n × n mechanism, in this tree and in git revision ``REV`` (exported with ``git archive``), each in a
fresh interpreter, alternating, best of 3 per run, with the load average.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


#: The child program of ``--measure``: the best of 3 measurements and the value, on a seeded mechanism.
MEASURE_CHILD = """
import sys, time, numpy as np
from mechdesign import ApproximateDifferentialPrivacy
n, kind = int(sys.argv[1]), sys.argv[2]
if kind == "random":
    matrix = np.random.default_rng(n).dirichlet(np.full(n, 0.5), size=n)
else:  # every pair tight at once: randomized response at e^1 (what a design returns looks like this)
    matrix = np.full((n, n), 1.0 / (np.e + n - 1)); np.fill_diagonal(matrix, np.e / (np.e + n - 1))
notion = ApproximateDifferentialPrivacy(0.01, "hockey_stick")
times = []
for _ in range(3):
    start = time.perf_counter(); value = notion.measure(matrix); times.append(time.perf_counter() - start)
print(min(times), value)
"""


def time_measure(source: Path, n: int, kind: str) -> tuple[float, float]:
    """Seconds (best of 3) and value of the hockey-stick measure at ``n`` with the package at ``source``."""
    env = dict(os.environ, PYTHONPATH=str(source))
    output = subprocess.run([sys.executable, "-c", MEASURE_CHILD, str(n), kind], env=env, cwd=source, check=True,
                            capture_output=True, text=True).stdout.split()
    return float(output[0]), float(output[1])


def compare_measure(revision: str, sizes: list[int]) -> None:
    """The measure in ``revision`` and in this tree, side by side."""
    here = Path(__file__).resolve().parents[1]
    rows = []
    with tempfile.TemporaryDirectory() as baseline:
        archive = subprocess.run(["git", "archive", revision, "mechdesign"], cwd=here, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", baseline], input=archive, check=True)
        print(f"{'mechanism':>12} {'n':>4} {revision + ' (s)':>12} {'this tree (s)':>14} {'ratio':>7} "
              f"{'|Δ value|':>10} load")
        for kind in ("random", "all-tight"):
            for n in sizes:
                before, value_before = time_measure(Path(baseline), n, kind)
                after, value_after = time_measure(here, n, kind)
                load = os.getloadavg()[0]
                rows.append({"mechanism": kind, "n": n, "before": before, "after": after,
                             "difference": abs(value_before - value_after), "load": load})
                print(f"{kind:>12} {n:4d} {before:12.4f} {after:14.4f} {before / after:6.1f}x "
                      f"{abs(value_before - value_after):10.1e} {load:.1f}", flush=True)
    write_rows(rows, "hockey_stick_measure")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 40, 100, 200])
    parser.add_argument("--cap", type=float, default=120.0)
    parser.add_argument("--measure", metavar="REV", help="time the measure against git revision REV instead")
    args = parser.parse_args()
    if args.measure:
        compare_measure(args.measure, args.sizes)
        return
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
