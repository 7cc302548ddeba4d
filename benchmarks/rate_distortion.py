"""Rate–distortion curves: mechdesign's certified Blahut–Arimoto vs dit's ``RDCurve(method='ba')``.

Both trace 26 points at the same slopes (dit's β = 0 … 10 bits⁻¹, i.e. ``s = β log 2`` nats) for a
uniform and a Zipf source on m ∈ {4, 16, 64} symbols with Hamming distortion. Accuracy, measured
rather than assumed:

* uniform source: the largest |rate − R(D)| against the closed form ``log m − h(D) − D log(m − 1)``;
* Zipf source: the largest distance of a point from the certified bracket built from mechdesign's
  points (below: Blahut's dual lower bounds, valid at every D; above: chords between certified
  points, valid because R is convex). mechdesign's own error is its certified gap (≤ 1e-9).

dit's Blahut–Arimoto runs at most 100 iterations from 100 random starts per β and stops when the
distortion changes by less than ``numpy.isclose``'s tolerance; its accuracy cannot be set from
``RDCurve``, so it is reported, not matched. Runs alternate (ours, dit) ``--repeats`` times, best of
each kept (shared machine). Prints a table, writes ``benchmarks/out/rate_distortion.csv``.

With ``--design``: MI-privacy design ``design(MutualInformationPrivacy(P), ε, ExpectedDistortion(P, d))``
(the distortion–rate function at R = ε), the new path (``methods/blahut_arimoto.py``: Newton on
Blahut's output distribution with a slope search) against the conic cvxpy path (Clarabel), for a Zipf
prior with Hamming cost and a random prior with a random cost, ε ∈ {0.05, 0.5, 1.5}; each run a child
process stopped after ``--cap`` seconds (a path stopped at some n is not tried at larger n). Writes
``benchmarks/out/mi_design.csv``.

Run: ``python benchmarks/rate_distortion.py [--sizes 4 16 64] [--repeats 2]``,
``python benchmarks/rate_distortion.py --design [--sizes 30 100 300 1000] [--cap 120]``
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

from ldp_formulations import timed, write_rows

from mechdesign import DesignProblem, ExpectedDistortion, MutualInformationPrivacy, Prior
from mechdesign.methods.blahut_arimoto import design_distortion_rate
from mechdesign.utility.rate_distortion import rate_distortion_curve

DESIGN_BUDGETS = (0.05, 0.5, 1.5)

BETAS_BITS = np.linspace(0.0, 10.0, 26)


def sources(m: int) -> dict[str, np.ndarray]:
    zipf = 1.0 / np.arange(1, m + 1)
    return {"uniform": np.full(m, 1.0 / m), "zipf": zipf / zipf.sum()}


def uniform_rate(m: int, distortion: float) -> float:
    """Closed form for the uniform m-ary source with Hamming distortion (0 beyond D = 1 − 1/m)."""
    if distortion >= 1 - 1 / m:
        return 0.0
    binary = -sum(t * math.log(t) for t in (distortion, 1 - distortion) if t > 0)
    return math.log(m) - binary - distortion * math.log(m - 1)


def ours(prior: np.ndarray) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Seconds, and per point: distortion, rate (nats), lower bound, slope."""
    start = time.perf_counter()
    points = rate_distortion_curve(prior, BETAS_BITS * math.log(2))
    elapsed = time.perf_counter() - start
    return elapsed, *(np.array([getattr(p, f) for p in points]) for f in ("distortion", "rate", "lower_bound", "slope"))


def dit_curve(prior: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Seconds, distortions and rates (nats) of dit's Blahut–Arimoto curve at the same β."""
    import dit
    from dit.rate_distortion import RDCurve

    # Single-character outcomes make a one-variable distribution on m symbols.
    distribution = dit.Distribution([chr(0x100 + i) for i in range(prior.size)], list(prior))
    start = time.perf_counter()
    curve = RDCurve(distribution, beta_min=BETAS_BITS[0], beta_max=BETAS_BITS[-1], beta_num=BETAS_BITS.size,
                    method="ba")
    elapsed = time.perf_counter() - start
    return elapsed, np.asarray(curve.distortions), np.asarray(curve.rates) * math.log(2)


def bracket_distance(d: float, r: float, D: np.ndarray, R: np.ndarray, L: np.ndarray, S: np.ndarray) -> float:
    """Distance of (d, r) from the certified bracket of R(d) given certified points (D, R, L) at slopes S."""
    lower = max(0.0, float(np.max(L - S * (d - D))))
    order = np.argsort(D)
    upper = float(np.interp(d, D[order], R[order])) if D.min() <= d <= D.max() else math.inf
    return max(lower - r, r - upper, 0.0)


def design_problem(kind: str, n: int) -> tuple[MutualInformationPrivacy, ExpectedDistortion]:
    """A Zipf prior with Hamming cost, or a seeded random prior and cost."""
    if kind == "zipf-hamming":
        weights = 1.0 / np.arange(1, n + 1)
        prior = Prior(weights / weights.sum())
        return MutualInformationPrivacy(prior), ExpectedDistortion(prior)
    rng = np.random.default_rng(n)
    prior = Prior(rng.dirichlet(np.ones(n)))
    return MutualInformationPrivacy(prior), ExpectedDistortion(prior, rng.random((n, n)))


def design_run(path: str, kind: str, n: int, budget: float) -> tuple[float, tuple[float | None, float | None, str]]:
    notion, objective = design_problem(kind, n)
    start = time.perf_counter()
    if path == "blahut":
        result = design_distortion_rate(notion, budget, objective)
    else:
        result = DesignProblem(notion, objective).solve(budget)
    return time.perf_counter() - start, (result.objective, result.gap, result.status)


def design_main(sizes: list[int], cap: float) -> None:
    rows, stopped = [], set()
    print(f"{'kind':>13} {'n':>5} {'eps':>5} {'path':>7} {'seconds':>8} {'objective':>14} {'gap':>8} {'status':>11} load")
    for kind in ("zipf-hamming", "random"):
        for n in sizes:
            for budget in DESIGN_BUDGETS:
                for path in ("blahut", "cvxpy"):
                    if (kind, path) in stopped:
                        continue
                    seconds, outcome = timed(design_run, path, kind, n, budget, timeout=cap)
                    value, gap, status = outcome if outcome is not None else (None, None, f"> {cap:g} s")
                    if outcome is None:
                        stopped.add((kind, path))
                    load = os.getloadavg()[0]
                    rows.append({"kind": kind, "n": n, "epsilon": budget, "path": path, "seconds": seconds,
                                 "objective": value, "gap": gap, "status": status, "load": load})
                    print(f"{kind:>13} {n:5d} {budget:5.2f} {path:>7} {seconds:8.2f} "
                          f"{value if value is not None else float('nan'):14.10f} "
                          f"{gap if gap is not None else float('nan'):8.1e} {status:>11} {load:.1f}", flush=True)
    write_rows(rows, "mi_design")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=None)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--design", action="store_true", help="MI-privacy design: new path vs the conic path")
    parser.add_argument("--cap", type=float, default=120.0)
    args = parser.parse_args()
    if args.design:
        design_main(args.sizes or [30, 100, 300, 1000], args.cap)
        return
    args.sizes = args.sizes or [4, 16, 64]
    rows = []
    print(f"{'m':>3} {'source':>8} {'ours s':>8} {'dit s':>8} {'speed-up':>9} "
          f"{'our gap':>9} {'our err':>9} {'dit err':>9}")
    for m in args.sizes:
        for name, prior in sources(m).items():
            ours_times, dit_times = [], []
            for _ in range(args.repeats):
                seconds, D, R, L, S = ours(prior)
                ours_times.append(seconds)
                seconds, dit_D, dit_R = dit_curve(prior)
                dit_times.append(seconds)
            if name == "uniform":
                our_err = max(abs(r - uniform_rate(m, d)) for d, r in zip(D, R))
                dit_err = max(abs(r - uniform_rate(m, d)) for d, r in zip(dit_D, dit_R))
            else:
                our_err = math.nan
                dit_err = max(bracket_distance(d, r, D, R, L, S) for d, r in zip(dit_D, dit_R))
            row = {"m": m, "source": name, "points": BETAS_BITS.size, "ours_s": min(ours_times),
                   "dit_s": min(dit_times), "speedup": min(dit_times) / min(ours_times),
                   "our_max_gap": float(np.max(R - L)), "our_closed_form_error": our_err, "dit_error": dit_err}
            rows.append(row)
            print(f"{m:3d} {name:>8} {row['ours_s']:8.3f} {row['dit_s']:8.3f} {row['speedup']:8.1f}× "
                  f"{row['our_max_gap']:9.1e} {our_err:9.1e} {dit_err:9.1e}")
    write_rows(rows, "rate_distortion")


if __name__ == "__main__":
    main()
