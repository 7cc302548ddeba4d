"""Optimal ε-LDP mechanism under Hamming distortion (Zipf prior): mechdesign vs qif vs a naive cvxpy LP.

Three ways to the same optimum, run side by side in one process tree:

* ``mechdesign`` — :func:`mechdesign.design` with ``method="direct-lp"`` (the direct LP of
  :mod:`mechdesign.methods.direct`, solved by HiGHS; Hamming cost would otherwise go to the closed form; time
  includes building, solving, cleaning and re-measuring);
* ``qif`` — ``qif.mechanism.d_privacy.min_loss_given_d`` with the discrete metric scaled by ε as
  privacy metric and the discrete metric as loss, under each of its LP back ends
  (``qif.lp.defaults.solver`` × ``method``); the fastest is reported;
* ``naive`` — our own pairwise cvxpy formulation (n²(n−1) rows, Clarabel), from
  ``benchmarks/ldp_formulations.py``.

The machine is shared (2 cores, other jobs running), so runs are interleaved: mechdesign runs
before every baseline run and its best time is used. Every run is in a child process stopped after
``--cap`` seconds; a back end stopped at some n is not tried at larger n. All optima that finish must
agree to ``AGREEMENT_ATOL``. Prints a table, writes ``benchmarks/out/ldp_fast.csv``.

Run: ``python benchmarks/ldp_fast.py [--sizes 10 20 40 60 100 200] [--cap 120]``
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from ldp_formulations import AGREEMENT_ATOL, EPSILON, pairwise, skewed_prior, timed, write_rows

from mechdesign import DifferentialPrivacy, ExpectedDistortion, design

#: qif back ends tried: (solver, method). CLP's interior point is left out (108 s at n = 40).
QIF_BACKENDS = [("GLOP", "SIMPLEX_PRIMAL"), ("GLOP", "SIMPLEX_DUAL"), ("GLOP", "INTERIOR"),
                ("CLP", "SIMPLEX_PRIMAL"), ("CLP", "SIMPLEX_DUAL"), ("HIGHS", "AUTO"), ("SOPLEX", "AUTO")]


def ours(n: int) -> tuple[float, float]:
    """Seconds and optimum of :func:`mechdesign.design` (fast path chosen automatically)."""
    objective = ExpectedDistortion(skewed_prior(n))
    start = time.perf_counter()
    result = design(DifferentialPrivacy(), EPSILON, objective, method="direct-lp")  # the LP, not the closed form
    elapsed = time.perf_counter() - start
    assert result.success and result.method == "direct-lp", result.message
    return elapsed, result.objective


def qif_run(n: int, backend: str, method: str) -> tuple[float, float]:
    """Seconds and optimum of qif's ``min_loss_given_d`` with one LP back end."""
    import qif
    from qif.mechanism import d_privacy

    qif.lp.defaults.solver, qif.lp.defaults.method, qif.lp.defaults.msg_level = backend, method, "OFF"
    prior = skewed_prior(n).probabilities
    start = time.perf_counter()
    channel = d_privacy.min_loss_given_d(prior, n, qif.metric.scale(qif.metric.discrete(), EPSILON),
                                         qif.metric.discrete())
    elapsed = time.perf_counter() - start
    return elapsed, float(prior @ (channel * (1.0 - np.eye(n))).sum(axis=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40, 60, 100, 200])
    parser.add_argument("--cap", type=float, default=120.0, help="seconds after which a run is stopped")
    args = parser.parse_args()
    alive = {f"qif {b}/{m}": (qif_run, (b, m)) for b, m in QIF_BACKENDS}
    alive["naive cvxpy+clarabel"] = (pairwise, ("clarabel",))
    rows = []
    for n in args.sizes:
        ours_times, baseline = [], {}
        for name, (function, extra) in list(alive.items()):
            seconds, value = timed(ours, n, timeout=args.cap)
            ours_times.append(seconds)
            optimum = value
            seconds, value = timed(function, n, *extra, timeout=args.cap)
            if value is None:
                del alive[name]  # stopped: not tried at larger n
            else:
                assert abs(value - optimum) <= AGREEMENT_ATOL, f"{name} optimum {value} != {optimum} at n={n}"
            baseline[name] = (seconds, value is not None)
        best = min(ours_times)
        qif_finished = {k: s for k, (s, ok) in baseline.items() if k.startswith("qif") and ok}
        fastest = min(qif_finished, key=qif_finished.get) if qif_finished else None
        naive = baseline.get("naive cvxpy+clarabel")
        row = {"n": n, "ours_s": best, "optimum": optimum,
               "qif_fastest": fastest or f"none within {args.cap:g} s",
               "qif_fastest_s": qif_finished[fastest] if fastest else math.nan,
               "speedup_vs_qif": qif_finished[fastest] / best if fastest else math.nan,
               "naive_s": naive[0] if naive and naive[1] else math.nan,
               "speedup_vs_naive": naive[0] / best if naive and naive[1] else math.nan,
               **{f"{k}_s": (s if ok else f">{args.cap:g}") for k, (s, ok) in baseline.items()}}
        rows.append(row)
        print(f"n={n:4d} ours {best:8.4f} s | qif fastest {row['qif_fastest']}: {row['qif_fastest_s']:.3f} s "
              f"({row['speedup_vs_qif']:.1f}×) | naive {row['naive_s']:.3f} s ({row['speedup_vs_naive']:.1f}×)")
        for name, (seconds, ok) in baseline.items():
            print(f"        {name:28s} {'' if ok else '>'}{seconds:.3f} s")
    write_rows(rows, "ldp_fast")


if __name__ == "__main__":
    main()
