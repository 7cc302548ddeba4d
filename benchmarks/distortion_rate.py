"""MI-privacy design at every budget: the distortion–rate designer of a git reference (``main``) vs this tree.

``design_distortion_rate(MutualInformationPrivacy(P), ε, ExpectedDistortion(P, d))`` (issue 13 item 5)
for a Zipf or uniform prior with a random (seeded) or Hamming cost, n ∈ {300, 1000, 2000} and
ε ∈ {0.01, 0.1, 0.5, 1, 2, 4, 0.9 log n} nats. The baseline is ``mechdesign/methods/blahut_arimoto.py``
as committed at ``--baseline`` (``git show``), loaded beside the installed package (it imports the same
helpers, which it shares with this tree); "new" is the installed module. Runs alternate (baseline, new)
per cell, each in a child process stopped after ``--cap`` seconds; a path stopped at some (prior, cost,
ε) is not tried at a larger n (sizes may come in any order). Seconds, objective, certified gap, status,
slopes and the load average are printed and written row by row to ``benchmarks/out/distortion_rate.csv``, with ``OPENBLAS_NUM_THREADS``
(on a machine shared by more processes than cores, multithreaded BLAS oversubscribes them: a 300 × 300
Cholesky factorization measured 51 ms with the default threads at load 7 on 2 cores, 0.7 ms with one).

Run: ``python benchmarks/distortion_rate.py [--sizes 1000 300 2000] [--cap 40] [--baseline main]``
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from ldp_formulations import timed, write_rows

from mechdesign import ExpectedDistortion, MutualInformationPrivacy, Prior
from mechdesign.methods import blahut_arimoto
from mechdesign.utility.distortion import hamming_cost

OUT = Path(__file__).parent / "out"
MODULE = "mechdesign/methods/blahut_arimoto.py"


def budgets(n: int) -> tuple[float, ...]:
    return (0.01, 0.1, 0.5, 1.0, 2.0, 4.0, 0.9 * math.log(n))


def problem(prior_kind: str, cost_kind: str, n: int) -> tuple[MutualInformationPrivacy, ExpectedDistortion]:
    """A Zipf or uniform prior; a seeded uniform-random cost or Hamming cost."""
    weights = 1.0 / np.arange(1, n + 1) if prior_kind == "zipf" else np.ones(n)
    prior = Prior(weights / weights.sum())
    cost = hamming_cost(n) if cost_kind == "hamming" else np.random.default_rng(n).random((n, n))
    return MutualInformationPrivacy(prior), ExpectedDistortion(prior, cost)


def baseline_module(reference: str):
    """The designer as committed at ``reference``, loaded as ``mechdesign.designers.blahut_arimoto_<ref>``."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(["git", "show", f"{reference}:{MODULE}"], cwd=root, check=True, capture_output=True,
                            text=True).stdout
    OUT.mkdir(exist_ok=True)
    path = OUT / f"blahut_arimoto_{reference.replace('/', '_')}.py"
    path.write_text(source)
    name = f"mechdesign.designers.blahut_arimoto_{reference.replace('/', '_')}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run(reference: str | None, prior_kind: str, cost_kind: str, n: int, budget: float
        ) -> tuple[float, tuple[float, float, str, int]]:
    module = blahut_arimoto if reference is None else baseline_module(reference)
    notion, objective = problem(prior_kind, cost_kind, n)
    start = time.perf_counter()
    result = module.design_distortion_rate(notion, budget, objective)
    return time.perf_counter() - start, (result.objective, result.gap, result.status, result.iterations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 300, 2000])
    parser.add_argument("--cap", type=float, default=40.0)
    parser.add_argument("--baseline", default="main")
    args = parser.parse_args()
    rows, stopped = [], {}  # (path, prior, cost, budget index) -> the n at which it was stopped
    print(f"{'prior':>7} {'cost':>7} {'n':>5} {'eps':>6} {'path':>8} {'seconds':>8} {'objective':>13} {'gap':>8} "
          f"{'status':>10} {'slopes':>6} load")
    for n in args.sizes:
        for prior_kind in ("zipf", "uniform"):
            for cost_kind in ("random", "hamming"):
                for index, budget in enumerate(budgets(n)):
                    for path, reference in ((args.baseline, args.baseline), ("new", None)):
                        key = (path, prior_kind, cost_kind, index)  # the same budget, or 0.9 log n
                        if n > stopped.get(key, math.inf):
                            outcome, seconds = None, math.nan
                        else:
                            seconds, outcome = timed(run, reference, prior_kind, cost_kind, n, budget, timeout=args.cap)
                            if outcome is None:
                                stopped[key] = min(n, stopped.get(key, math.inf))
                        value, gap, status, slopes = outcome if outcome is not None else (
                            math.nan, math.nan, f"> {args.cap:g} s" if seconds == seconds else "skipped", 0)
                        load = os.getloadavg()[0]
                        rows.append({"prior": prior_kind, "cost": cost_kind, "n": n, "epsilon": budget, "path": path,
                                     "seconds": seconds, "objective": value, "gap": gap, "status": status,
                                     "slopes": slopes, "load": load,
                                     "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "default")})
                        print(f"{prior_kind:>7} {cost_kind:>7} {n:5d} {budget:6.3f} {path:>8} {seconds:8.2f} "
                              f"{value:13.9f} {gap:8.1e} {status:>10} {slopes:6d} {load:.1f}", flush=True)
                        write_rows(rows, "distortion_rate")


if __name__ == "__main__":
    main()
