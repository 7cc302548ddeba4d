"""Column generation over outputs vs the dense direct LP, for E[d] under local DP, pointwise (ε, δ)-DP,
maximal leakage and PML with one prior, random and Hamming costs.

Both paths run end to end through :class:`mechdesign.DesignProblem` (build, solve, clean, re-measure,
certify): ``mechdesign.methods.direct.COLUMN_GENERATION_MIN_INPUTS`` set to 0 (new:
``mechdesign.methods.column_generation``) or out of reach (baseline: the dense LPs of
``mechdesign.methods.direct``). ``--cvxpy`` makes the baseline of pointwise (ε, δ)-DP its cvxpy problem
solved by HiGHS (the path it took before it had a direct LP). ``--against DIR`` makes the baseline
the same column generation imported from another source tree ``DIR`` (e.g. ``git -C <repo> archive
main | tar -x -C DIR``: this branch against main, run alternately in the same script). Each run is a
child process (peak resident memory from ``ru_maxrss``, wall and CPU seconds), stopped after
``--cap`` seconds; a path stopped at some n is not tried at larger n. Zipf prior (``--prior dirichlet``: a
Dirichlet(1) draw), ε = 1, δ = 0.01,
random costs uniform on [0, 1] (seed 0). The machine is shared: the load average is printed beside
every row, and CPU seconds are less load-dependent.

``--floors-master`` is an experiment on local DP only (benchmarks/notes/2026-11-27-reach-2.md): the shipped
column generation's restricted LP on its final outputs ``K`` against the same problem solved as the convex
piecewise-linear ``min F(c)`` over the outputs' floors ``c`` by box-step cutting planes (:func:`floors_master`),
certified by the pricing bound at the cuts' aggregated multipliers.

Run: ``python benchmarks/column_generation.py [--sizes 100 200 400 1000] [--cap 300] [--against DIR]``
or ``python benchmarks/column_generation.py --floors-master --sizes 1000 2000``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time

import numpy as np
from ldp_formulations import skewed_prior, write_rows
from scipy.optimize import linprog

import mechdesign.methods.direct
from mechdesign import (ApproximateDifferentialPrivacy, DesignProblem, DifferentialPrivacy, ExpectedDistortion,
                        MaximalLeakage, PointwiseMaximalLeakage, Prior)
from mechdesign.methods.column_generation import LdpColumnGeneration

EPSILON = 1.0
DELTA = 0.01
NOTIONS = ("dp", "approx_dp", "maximal_leakage", "pml")


def _notion(name: str, prior):
    return {"dp": DifferentialPrivacy(), "approx_dp": ApproximateDifferentialPrivacy(DELTA),
            "maximal_leakage": MaximalLeakage(), "pml": PointwiseMaximalLeakage(prior)}[name]


def _cost(n: int, kind: str) -> np.ndarray:
    return np.random.default_rng(0).random((n, n)) if kind == "random" else 1.0 - np.eye(n)


def _prior(n: int, kind: str) -> Prior:
    """The Zipf prior of ``ldp_formulations.skewed_prior`` or a Dirichlet(1) draw (seed 1)."""
    return skewed_prior(n) if kind == "zipf" else Prior(np.random.default_rng(1).dirichlet(np.ones(n)))


def run(name: str, n: int, kind: str, path: str, prior_kind: str = "zipf") -> dict:  # path: "new", "dense", "cvxpy"
    """Child process: one design, reporting wall/CPU seconds, objective, bound, method and peak memory."""
    mechdesign.methods.direct.COLUMN_GENERATION_MIN_INPUTS = 0 if path in ("new", "against") else 10**9
    solver = "highs" if path == "cvxpy" and name == "approx_dp" else None
    prior = _prior(n, prior_kind)
    wall, cpu = time.perf_counter(), time.process_time()
    result = DesignProblem(_notion(name, prior), ExpectedDistortion(prior, _cost(n, kind)), solver=solver).solve(EPSILON)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
            "objective": result.objective, "bound": result.bound, "status": result.status,
            "method": result.method, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def timed(name: str, n: int, kind: str, path: str, cap: float, source: str | None = None,
          prior_kind: str = "zipf") -> dict | None:
    """One :func:`run` in a child process (``mechdesign`` imported from the tree ``source`` if given);
    ``None`` if stopped after ``cap`` seconds."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(source)) if source else None
    try:
        child = subprocess.run([sys.executable, __file__, "--child", name, str(n), kind, path, prior_kind], env=env,
                               capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None
    if child.returncode != 0:
        raise RuntimeError(f"{name} {kind} n = {n} ({path}) failed:\n{child.stderr}")
    return json.loads(child.stdout.splitlines()[-1])


def floors_master(weights: np.ndarray, outputs: np.ndarray, epsilon: float, rtol: float = 1e-9,
                  max_iterations: int = 5000) -> dict:
    """``min Σ W∘Q`` under local ε-DP on the outputs ``outputs`` as ``min_c F(c)`` over their floors ``c``.

    With floors ``c`` (``Σ c <= 1 <= e^ε Σ c``) each input's row is a fractional knapsack (``u[x, y] <= c_y`` filled
    in order of ``W[x, y]`` until ``Σ c + α Σ_y u[x, y] = 1``), of cost ``F_x(c)``; ``F = Σ_x F_x`` is convex and
    piecewise linear with the cut ``Σ_x u_x + Σ_y c_y Σ_x h(W[x, y] − u_x)``, ``h(a) = a + α min(a, 0)``, at the
    rows' marginal costs ``u`` (each row's last output). Box-step cutting planes: each iterate minimizes the cuts
    within ``‖c − center‖∞ <= Δ``; the center moves on a decrease of 10 % of the predicted one (``Δ`` doubled when
    the step reached the box), ``Δ`` shrinks by 0.7 on a worse point. Every 25 iterations (and when the predicted
    decrease is within the tolerance) the cut LP's duals aggregate the cuts' ``u``; once their pricing bound over
    ``K`` is within ``rtol``, :meth:`LdpColumnGeneration.lower_bound` (the library's certificate, over every
    output) bounds the optimum; stops when ``F(best) − bound <= rtol · F(best)``.

    Returns the iterations, CPU seconds, best value, bound and whether it stopped certified.
    """
    alpha, scale = math.expm1(epsilon), math.exp(epsilon)
    n, k = weights.shape[0], outputs.size
    held = weights[:, outputs]
    order = np.argsort(held, axis=1)
    ordered = np.take_along_axis(held, order, axis=1)
    pricing, on_held = LdpColumnGeneration(weights), LdpColumnGeneration(held)

    def knapsacks(floors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ordered_floors = floors[order]
        filled = np.cumsum(alpha * ordered_floors, axis=1)
        remaining = 1.0 - floors.sum()
        return filled, np.clip(np.minimum(alpha * ordered_floors, remaining - (filled - alpha * ordered_floors)), 0.0,
                               None)

    def evaluate(floors: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        filled, taken = knapsacks(floors)
        remaining = 1.0 - floors.sum()
        value = float((held @ floors).sum() + (ordered * taken).sum())
        last = np.minimum((filled < remaining).sum(axis=1), k - 1)
        marginal = ordered[np.arange(n), last]
        reduced = held - marginal[:, None]
        return value, (reduced + alpha * np.minimum(reduced, 0.0)).sum(axis=0), marginal

    start = time.process_time()
    center = np.full(k, 1.0 / ((1.0 + alpha / 2.0) * k))
    best, slope, marginal = evaluate(center)
    constants, slopes, marginals = [best - slope @ center], [slope], [marginal]
    box, bound, iteration = 0.5 / k, -math.inf, 0
    for iteration in range(1, max_iterations + 1):
        rows = np.vstack([np.hstack([np.array(slopes), -np.ones((len(slopes), 1))]),
                          np.r_[np.ones(k), 0.0], np.r_[-scale * np.ones(k), 0.0]])
        limits = [(max(0.0, x - box), x + box) for x in center] + [(None, None)]
        step = linprog(np.r_[np.zeros(k), 1.0], A_ub=rows, b_ub=np.r_[-np.array(constants), 1.0, -1.0], bounds=limits,
                       method="highs", options={"primal_feasibility_tolerance": 1e-10,
                                                "dual_feasibility_tolerance": 1e-10})
        floors, predicted = step.x[:k], best - step.fun
        value, slope, marginal = evaluate(floors)
        if iteration % 25 == 0 or predicted <= rtol * abs(best):
            weights_of_cuts = np.clip(-step.ineqlin.marginals[: len(marginals)], 0.0, None)
            aggregated = weights_of_cuts @ np.array(marginals) / max(weights_of_cuts.sum(), 1e-300)
            # The stop test on K first (O(n |K|)); the certificate over every output (O(n m)) once it passes.
            if best - on_held.lower_bound(aggregated, epsilon) <= rtol * abs(best):
                bound = max(bound, pricing.lower_bound(aggregated, epsilon))
                if best - bound <= rtol * abs(best):
                    break
        constants.append(value - slope @ floors)
        slopes.append(slope)
        marginals.append(marginal)
        if value <= best - 0.1 * predicted:
            if np.any(np.abs(floors - center) >= box * (1.0 - 1e-9)):
                box *= 2.0
            center, best = floors, value
        elif value > best:
            box *= 0.7
    cpu = time.process_time() - start
    # The mechanism at the best floors, checked: Q[x, y] = c_y + α u[x, y] (u the knapsack), rows summing to 1,
    # each column within [c_y, e^ε c_y], its cost the value.
    mechanism = np.empty_like(held)
    np.put_along_axis(mechanism, order, knapsacks(center)[1], axis=1)
    mechanism += center[None, :]
    violation = max(float(np.abs(mechanism.sum(axis=1) - 1.0).max()),
                    float((mechanism.max(axis=0) - scale * mechanism.min(axis=0)).max()))
    return {"iterations": iteration, "cpu": cpu, "value": best, "bound": bound, "violation": violation,
            "cost_error": abs(float((held * mechanism).sum()) - best),
            "certified": best - bound <= rtol * abs(best)}


def floors_experiment(sizes: list[int]) -> None:
    """The shipped column generation (CPU seconds, its outputs) against :func:`floors_master` on its outputs."""
    print("| n | outputs | column generation CPU (s) | its value | floors master CPU (s) | iterations | its value "
          "| bound | certified | violation | cost error | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        weights = skewed_prior(n).probabilities[:, None] * _cost(n, "random")
        weights /= weights.max()
        start = time.process_time()
        generation = LdpColumnGeneration(weights)
        solution = generation.solve(EPSILON)
        cpu = time.process_time() - start
        floors = floors_master(weights, generation.outputs, EPSILON)
        print(f"| {n} | {generation.outputs.size} | {cpu:.2f} | {solution.value:.12f} | {floors['cpu']:.2f} "
              f"| {floors['iterations']} | {floors['value']:.12f} | {floors['bound']:.12f} | {floors['certified']} "
              f"| {floors['violation']:.1e} | {floors['cost_error']:.1e} "
              f"| {os.getloadavg()[0]:.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400, 1000])
    parser.add_argument("--notions", nargs="+", default=list(NOTIONS))
    parser.add_argument("--kinds", nargs="+", default=["random", "hamming"])
    parser.add_argument("--cap", type=float, default=300.0)
    parser.add_argument("--cvxpy", action="store_true", help="baseline of approx_dp: its cvxpy problem")
    parser.add_argument("--new-only", action="store_true", help="skip the baselines (sizes beyond them)")
    parser.add_argument("--against", metavar="DIR", help="baseline: the column generation of the source tree DIR")
    parser.add_argument("--floors-master", action="store_true",
                        help="local DP: the restricted LP against the floors' cutting planes (experiment)")
    parser.add_argument("--prior", choices=["zipf", "dirichlet"], default="zipf",
                        help="the Zipf prior (default) or a Dirichlet(1) draw")
    parser.add_argument("--child", nargs=5, metavar=("NOTION", "N", "COST", "PATH", "PRIOR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, n, kind, path, prior_kind = args.child
        print(json.dumps(run(name, int(n), kind, path, prior_kind)))
        return
    if args.floors_master:
        floors_experiment(args.sizes)
        return
    stopped: set[tuple[str, str, str]] = set()
    rows = []
    print("| notion | cost | n | new (s) | new CPU (s) | new peak (MB) | baseline (s) | baseline CPU (s) | baseline peak (MB) "
          "| CPU ratio | |Δ objective| | gap (new) | status (new) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for kind in args.kinds:
            for name in args.notions:
                results = {}
                baseline = "against" if args.against else "cvxpy" if args.cvxpy and name == "approx_dp" else "dense"
                for path, runner in (("new", "new"), ("dense", baseline)):
                    if (name, kind, path) in stopped or (args.new_only and path == "dense"):
                        results[path] = None
                        continue
                    source = args.against if runner == "against" else None
                    results[path] = timed(name, n, kind, runner, args.cap, source, args.prior)
                    if results[path] is None:
                        stopped.add((name, kind, path))
                new, dense = results["new"], results["dense"]
                load = os.getloadavg()[0]
                row = {"notion": name, "cost": kind, "n": n, "load": round(load, 1)}
                for path, result in results.items():
                    for key in ("wall", "cpu", "peak_mb", "objective", "bound", "status", "method"):
                        row[f"{path}_{key}"] = None if result is None else result[key]
                rows.append(row)

                def cell(result, key, digits=2, skipped=False):
                    if result is None:
                        return "not run" if skipped else f"> {args.cap:.0f} (stopped)"
                    return f"{result[key]:.{digits}f}"
                ratio = f"{dense['cpu'] / new['cpu']:.1f}×" if new and dense else "–"
                delta = f"{abs(new['objective'] - dense['objective']):.1e}" if new and dense else "–"
                gap = f"{new['objective'] - new['bound']:.1e}" if new else "–"
                print(f"| {name} | {kind} | {n} | {cell(new, 'wall')} | {cell(new, 'cpu')} | {cell(new, 'peak_mb', 0)} "
                      f"| {cell(dense, 'wall', skipped=args.new_only)} | {cell(dense, 'cpu', skipped=args.new_only)} "
                      f"| {cell(dense, 'peak_mb', 0, skipped=args.new_only)} | {ratio} | {delta} "
                      f"| {gap} | {new['status'] + ' ' + new['method'] if new else '–'} | {load:.1f} |", flush=True)
    write_rows(rows, "column_generation")


if __name__ == "__main__":
    main()
