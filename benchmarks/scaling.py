"""Scaling of distortion-optimal design with the alphabet size n, per notion, cost kind and method.

Each row of the table is one configuration — a notion, a cost kind (``hamming``: the 0/1 cost, for
which closed forms exist under local DP and maximal leakage; ``random``: a seeded uniform [0, 1) cost
with a zero diagonal, for which none does) and a method (``auto``: what :func:`mechdesign.design`
chooses, named in the table; or a method forced with ``design(method=...)`` to show the path it
replaces) — solved at budget 1 (δ = 0.05 for approximate DP) under a Zipf prior at growing n. Every
run is a child process stopped after ``--cap`` seconds (60 by default: "largest n in 60 s"); a
configuration that is stopped, refused or not certified at some n is not tried at larger n. Peak
memory is the child's peak resident set (``ru_maxrss``), the interpreter and imports included. The
growth exponent is the least-squares slope of log(time) on log(n) over the runs that took at least
0.05 s. qif (``qif.mechanism.d_privacy.min_loss_given_d``, GLOP dual simplex: its fastest back end
whose answers are feasible, see ``benchmarks/ldp_fast.py``) runs side by side where it applies
(local DP, Hamming cost) and its optimum is checked against ours.

Prints a Markdown table, writes ``benchmarks/out/scaling.csv``.

Run: ``python benchmarks/scaling.py [--sizes 100 200 400 1000 ...] [--cap 60] [--only dp ...]``
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import time
from dataclasses import dataclass

import numpy as np
from ldp_formulations import AGREEMENT_ATOL, skewed_prior, timed, write_rows

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    RenyiDifferentialPrivacy,
    design,
)

#: Sizes tried by default (each configuration stops at its first failure or stop).
SIZES = [10, 30, 100, 200, 400, 1000, 2000, 5000, 10_000, 30_000, 100_000]
#: Random costs are dense n × n matrices: not tried beyond this n (the matrix alone is 8 n² bytes).
RANDOM_COST_MAX_N = 5_000
#: Runs shorter than this are left out of the exponent fit (fixed overheads dominate them).
FIT_MIN_SECONDS = 0.05

NOTIONS = {
    "dp": lambda prior: DifferentialPrivacy(),
    "maximal_leakage": lambda prior: MaximalLeakage(),
    "pml": lambda prior: PointwiseMaximalLeakage(prior),
    "approx_dp pointwise": lambda prior: ApproximateDifferentialPrivacy(0.05),
    "approx_dp hockey_stick": lambda prior: ApproximateDifferentialPrivacy(0.05, "hockey_stick"),
    "mutual_information": lambda prior: MutualInformationPrivacy(prior),
    "renyi α=2": lambda prior: RenyiDifferentialPrivacy(2.0),
}


@dataclass(frozen=True)
class Config:
    """One row of the table."""

    notion: str
    cost: str  # "hamming" or "random"
    method: str  # "auto" or a forced method name

    @property
    def label(self) -> str:
        return f"{self.notion}, {self.cost} cost, {self.method}"


CONFIGS = [
    Config("dp", "hamming", "auto"), Config("dp", "hamming", "direct-lp"),
    Config("dp", "random", "auto"), Config("dp", "random", "cvxpy"),
    Config("maximal_leakage", "hamming", "auto"), Config("maximal_leakage", "random", "auto"),
    Config("pml", "random", "auto"), Config("pml", "random", "cvxpy"),
    Config("approx_dp pointwise", "random", "auto"), Config("approx_dp pointwise", "random", "cvxpy"),
    Config("approx_dp hockey_stick", "hamming", "auto"), Config("approx_dp hockey_stick", "hamming", "cvxpy"),
    Config("mutual_information", "hamming", "auto"), Config("mutual_information", "hamming", "cvxpy"),
    Config("renyi α=2", "hamming", "auto"),
]


def cost_matrix(kind: str, n: int) -> np.ndarray | None:
    """``None`` for Hamming (the objective's default), else the seeded random cost."""
    if kind == "hamming":
        return None
    cost = np.random.default_rng(n).random((n, n))
    np.fill_diagonal(cost, 0.0)
    return cost


def run(config: Config, n: int) -> tuple[float, dict]:
    """Seconds of one :func:`design` call (objective built outside the timing) and what it returned."""
    try:
        prior = skewed_prior(n)
        objective = ExpectedDistortion(prior, cost_matrix(config.cost, n))
        notion = NOTIONS[config.notion](prior)
        start = time.perf_counter()
        result = design(notion, 1.0, objective, method=config.method)
        elapsed = time.perf_counter() - start
    except Exception as error:  # a refusal (ProblemTooLargeError) or anything else ends the row
        return math.nan, {"status": f"{type(error).__name__}: {str(error)[:80]}"}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return elapsed, {"status": result.status, "method": result.method, "objective": result.objective,
                     "gap": result.gap, "peak_mb": peak}


def qif_run(n: int) -> tuple[float, dict]:
    """qif's optimum of the local-DP Hamming problem at ε = 1 (GLOP dual simplex)."""
    import qif
    from qif.mechanism import d_privacy

    qif.lp.defaults.solver, qif.lp.defaults.method, qif.lp.defaults.msg_level = "GLOP", "SIMPLEX_DUAL", "OFF"
    prior = skewed_prior(n).probabilities
    start = time.perf_counter()
    channel = d_privacy.min_loss_given_d(prior, n, qif.metric.scale(qif.metric.discrete(), 1.0), qif.metric.discrete())
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return elapsed, {"status": "solved", "method": "qif GLOP", "peak_mb": peak,
                     "objective": float(prior @ (channel * (1.0 - np.eye(n))).sum(axis=1))}


def growth_exponent(sizes: list[int], seconds: list[float]) -> float:
    """Least-squares slope of log(seconds) on log(n) over runs of at least ``FIT_MIN_SECONDS``."""
    points = [(math.log(n), math.log(s)) for n, s in zip(sizes, seconds) if s >= FIT_MIN_SECONDS]
    if len(points) < 2:
        return math.nan
    x, y = np.array(points).T
    return float(np.polyfit(x, y, 1)[0])


def sweep(label: str, runner, sizes: list[int], cap: float) -> list[dict]:
    """Run ``runner(n)`` at each size until it is stopped, fails or is not certified."""
    rows = []
    for n in sizes:
        seconds, info = timed(runner, n, timeout=cap)
        info = info or {"status": f"stopped after {cap:g} s"}
        row = {"config": label, "n": n, "seconds": seconds, **info}
        rows.append(row)
        print(f"{label:52s} n={n:6d} {seconds:9.3f} s  {info.get('peak_mb', math.nan):8.0f} MB  "
              f"{info['status']}  {info.get('method', '')}", flush=True)
        if info["status"] not in ("optimal", "solved"):
            break
    return rows


def summary(label: str, rows: list[dict], sizes: list[int], cap: float) -> str:
    """One Markdown row: seconds per n, largest n within the cap, exponent, peak memory, method."""
    done = [r for r in rows if r["status"] in ("optimal", "solved")]
    by_n = {r["n"]: r for r in rows}
    cells = []
    for n in sizes:
        row = by_n.get(n)
        cells.append("—" if row is None else f"{row['seconds']:.3g}" if row in done else row["status"].split(":")[0][:24])
    largest = max((r["n"] for r in done if r["seconds"] <= cap), default=None)
    peak = f"{done[-1]['peak_mb']:.0f}" if done else "—"
    methods = sorted({r.get("method", "") for r in done})
    exponent = growth_exponent([r["n"] for r in done], [r["seconds"] for r in done])
    return (f"| {label} | {' | '.join(cells)} | {largest or '—'} | "
            f"{'—' if math.isnan(exponent) else f'{exponent:.1f}'} | {peak} | {', '.join(methods)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--cap", type=float, default=60.0)
    parser.add_argument("--only", nargs="+", default=None, help="notion names to run (default: all)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    table, rows = [], []
    for config in CONFIGS:
        if args.only and config.notion not in args.only:
            continue
        sizes = [n for n in args.sizes if config.cost == "hamming" or n <= RANDOM_COST_MAX_N]
        found = sweep(config.label, lambda n, c=config: run(c, n), sizes, args.cap)
        rows += found
        table.append(summary(config.label, found, args.sizes, args.cap))
        if config == Config("dp", "hamming", "auto"):
            ours = {r["n"]: r["objective"] for r in found if r["status"] == "optimal"}
            baseline = sweep("qif (GLOP dual simplex), dp, hamming cost", qif_run, args.sizes, args.cap)
            for row in baseline:  # a baseline's answer is quoted only when it agrees with the certified optimum
                reference = ours.get(row["n"])
                if row["status"] == "solved" and (reference is None or abs(row["objective"] - reference) > AGREEMENT_ATOL):
                    row["status"] = f"unchecked or disagrees: {row['objective']:.9g} vs {reference}"
            rows += baseline
            table.append(summary("qif (GLOP dual simplex), dp, hamming cost", baseline, args.sizes, args.cap))
    print(f"load average after: {os.getloadavg()}")
    header = " | ".join(f"n = {n:,}" for n in args.sizes)
    print(f"\n| configuration | {header} | largest n in {args.cap:g} s | exponent | peak MB | method |")
    print("|---|" + "---|" * (len(args.sizes) + 4))
    print("\n".join(table))
    write_rows(rows, "scaling")


if __name__ == "__main__":
    main()
