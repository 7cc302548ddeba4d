"""PML with one prior at large n (issue 13 item 3): three restricted masters for the same exact pricing.

Every master below is priced the same way as :class:`mechdesign.methods.column_generation.PmlColumnGeneration`
(the cheapest fractional-knapsack vertex per output at the row-sum duals ``u``,
:func:`~mechdesign.methods.column_generation.knapsack_vertices`) and stops on the same certificate, the
Lagrangian bound ``Σ u + min_y ρ_y`` (the columns' ``P``-masses sum to 1; Grosse et al., "Privacy
Mechanism Design based on Empirical Distributions", Definition 1). They differ in the restricted LP:

* ``interior`` — the shipped one: the direct LP on the generated outputs and, of each, about its
  knapsack vertex's entries (whole columns when a vertex covers most of the support; missing entries
  enter when they price out), solved from scratch each round by Clarabel's interior point
  (``PmlColumnGeneration.interior_master``);
* ``interior-no-drop`` — the same with every held entry kept (``column_generation.PML_DROP_VALUE`` = −∞;
  shipped until entries of outputs that entered with small columns, priced well above zero, left after loose
  rounds);
* ``interior-most-negative`` — the same with only the ten most negative outputs entering per round (no
  outputs chosen for their vertices' complementarity; shipped until they were);
* ``interior-accurate-rounds`` — the same with every round's interior point at Clarabel's full accuracy
  (``mechdesign.solvers.CLARABEL_LP_TOLERANCE``; shipped until the rounds before nothing prices out ran to
  ``column_generation.INTERIOR_ROUND_TOLERANCE``);
* ``interior-whole-columns`` — the same with every output's whole column (``n`` rows ``Q[x, y] <= w_y``
  per output; shipped until the entries were generated too);
* ``interior-refined`` — the same with Clarabel's iterative refinement of each KKT solve (its default;
  ``mechdesign.solvers.CLARABEL_ITERATIVE_REFINEMENT`` is off);
* ``restricted-dense`` — the shipped LP re-solved by HiGHS's dual simplex from the previous round's basis
  (shipped, on whole columns, until the interior master replaced it);
* ``dantzig-wolfe`` — the master over normalized columns: ``min Σ_k λ_k c_k`` s.t. ``Σ_k λ_k v_k = 1``,
  ``λ >= 0``, one column per priced vertex ``v_k`` (``n`` rows), all negative outputs entering each round;
* ``row-generation`` — the dense LP on the generated outputs with the rows ``Q[x, y] <= e^ε z_y`` added
  lazily (an output enters with the rows of its vertex's support; violated rows are added each round;
  one live HiGHS model, dual simplex). Its value is an upper bound only once no row is violated.

Each run is a child process stopped after ``--cap`` seconds (reported as the gap reached by then for
the two experimental masters, which print every round to a pipe). Costs in units of the largest weight.
The machine is shared: the load average is printed beside every row.

Run: ``python benchmarks/pml_masters.py [--sizes 200 400] [--epsilons 1.0] [--seed 0] [--cap 120]``
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import time

import highspy
import numpy as np
import scipy.sparse as sp

import mechdesign.solvers
from mechdesign.methods import column_generation
from mechdesign.methods.column_generation import DUAL_SIMPLEX_STRATEGY, PmlColumnGeneration, knapsack_vertices
from mechdesign.methods.direct import HIGHS_OPTIONS  # the direct LPs' (dual simplex, no presolve, 1e-10 tolerances)
from mechdesign.solvers import quiet_highs

#: Stop when ``value − bound <= STOP_RTOL · max(1, value)`` (the shipped path stops at 1e-9 too).
STOP_RTOL = 1e-9
ENTERING = 10


def instance(n: int, prior_kind: str, cost_kind: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(P, W)``: Zipf or uniform prior; random (``seed``) or Hamming cost; ``W`` scaled to max 1."""
    prior = 1.0 / np.arange(1, n + 1) if prior_kind == "zipf" else np.ones(n)
    prior /= prior.sum()
    cost = np.random.default_rng(seed).random((n, n)) if cost_kind == "random" else 1.0 - np.eye(n)
    weights = prior[:, None] * cost
    return prior, weights / weights.max()


def price(weights: np.ndarray, prior: np.ndarray, scale: float, duals: np.ndarray):
    """Per output its cheapest vertex (dense ``n × m``), reduced cost, and the Lagrangian bound at ``duals``."""
    reduced = weights - duals[:, None]
    order, values = knapsack_vertices(reduced, prior, scale)
    vertices = np.zeros_like(reduced)
    np.put_along_axis(vertices, order, values, axis=0)
    costs = np.einsum("ij,ij->j", reduced, vertices)
    return vertices, costs, math.fsum(duals) + float(costs.min())


def new_highs() -> highspy.Highs:
    return quiet_highs(HIGHS_OPTIONS)


def interior(weights, prior, scale, report) -> None:
    solution = PmlColumnGeneration(weights, prior).solve(math.log(scale))
    report(solution.value, solution.lower_bound, solution.iterations, True)


def interior_refined(weights, prior, scale, report) -> None:
    mechdesign.solvers.CLARABEL_ITERATIVE_REFINEMENT = True
    interior(weights, prior, scale, report)


def interior_whole_columns(weights, prior, scale, report) -> None:
    column_generation.PML_WHOLE_COLUMN_FRACTION = 0.0  # every entering output's whole column (a child process)
    interior(weights, prior, scale, report)


def interior_most_negative(weights, prior, scale, report) -> None:
    # Only the ENTERING_PER_ROUND most negative outputs enter each round (shipped until outputs with
    # complementary vertices entered too).
    column_generation.PML_ENTERING_PER_ROUND = column_generation.ENTERING_PER_ROUND
    interior(weights, prior, scale, report)


def interior_no_drop(weights, prior, scale, report) -> None:
    column_generation.PML_DROP_VALUE = -math.inf  # no held entry leaves (shipped until they did)
    interior(weights, prior, scale, report)


def interior_accurate_rounds(weights, prior, scale, report) -> None:
    column_generation.INTERIOR_ROUND_TOLERANCE = mechdesign.solvers.CLARABEL_LP_TOLERANCE  # no loose rounds
    interior(weights, prior, scale, report)


def restricted_dense(weights, prior, scale, report) -> None:
    generation = PmlColumnGeneration(weights, prior)
    generation.interior_master, generation.warm_simplex_strategy = False, DUAL_SIMPLEX_STRATEGY
    solution = generation.solve(math.log(scale))
    report(solution.value, solution.lower_bound, solution.iterations, True)


def dantzig_wolfe(weights, prior, scale, report) -> None:
    n, m = weights.shape
    highs = new_highs()
    highs.addRows(n, np.ones(n), np.ones(n), 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))

    def add(outputs: np.ndarray, columns: np.ndarray) -> None:
        matrix = sp.csc_matrix(columns)
        highs.addCols(outputs.size, np.einsum("ij,ij->j", weights[:, outputs], columns), np.zeros(outputs.size),
                      np.full(outputs.size, highspy.kHighsInf), matrix.nnz, matrix.indptr.astype(np.int32),
                      matrix.indices.astype(np.int32), matrix.data)

    add(np.array([int(weights.sum(axis=0).argmin())]), np.ones((n, 1)))  # the constant mechanism
    best, iterations = -math.inf, 0
    while True:
        highs.run()
        iterations += highs.getInfo().simplex_iteration_count
        value = highs.getInfo().objective_function_value
        vertices, costs, bound = price(weights, prior, scale, np.asarray(highs.getSolution().row_dual))
        best = max(best, bound)
        entering = np.flatnonzero(costs < -1e-12)
        done = value - best <= STOP_RTOL * max(1.0, value) or entering.size == 0
        report(value, best, iterations, done)
        if done:
            return
        add(entering, vertices[:, entering])


def row_generation(weights, prior, scale, report) -> None:
    n, m = weights.shape
    highs = new_highs()
    highs.addRows(n, np.ones(n), np.ones(n), 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
    z_column, first_entry, rows = {}, {}, set()

    def add_rows(pairs: list[tuple[int, int]]) -> None:
        pairs = [pair for pair in pairs if pair not in rows]
        if pairs:
            index = np.array([[first_entry[y] + x, z_column[y]] for x, y in pairs], dtype=np.int32).ravel()
            highs.addRows(len(pairs), np.full(len(pairs), -highspy.kHighsInf), np.zeros(len(pairs)), index.size,
                          np.arange(0, index.size, 2, dtype=np.int32), index, np.tile([1.0, -scale], len(pairs)))
            rows.update(pairs)

    def add_output(y: int, vertex: np.ndarray) -> None:
        z_column[y] = highs.getNumCol()
        highs.addCol(0.0, 0.0, highspy.kHighsInf, 0, np.zeros(0, np.int32), np.zeros(0))
        first_entry[y] = highs.getNumCol()
        inputs = np.arange(n, dtype=np.int32)
        highs.addCols(n, weights[:, y], np.zeros(n), np.full(n, highspy.kHighsInf), n, inputs, inputs, np.ones(n))
        index = np.concatenate([[z_column[y]], first_entry[y] + inputs]).astype(np.int32)
        highs.addRow(0.0, 0.0, n + 1, index, np.concatenate([[1.0], -prior]))  # z_y = P·Q[:, y]
        add_rows([(x, y) for x in np.flatnonzero(vertex > 0)])

    add_output(int(weights.sum(axis=0).argmin()), np.ones(n))
    best, iterations = -math.inf, 0
    while True:
        highs.run()
        iterations += highs.getInfo().simplex_iteration_count
        value = highs.getInfo().objective_function_value
        solution = highs.getSolution()
        values, duals = np.asarray(solution.col_value), np.asarray(solution.row_dual)[:n]
        vertices, costs, bound = price(weights, prior, scale, duals)
        best = max(best, bound)
        violated = [(x, y) for y in z_column for x in np.flatnonzero(
            values[first_entry[y]:first_entry[y] + n] > scale * values[z_column[y]] + 1e-10)]
        costs[list(z_column)] = np.inf
        entering = np.argsort(costs)[:ENTERING]
        entering = entering[costs[entering] < -1e-12]
        done = not violated and (value - best <= STOP_RTOL * max(1.0, value) or entering.size == 0)
        report(value, best, iterations, done and not violated)
        if done:
            return
        add_rows(violated)
        for y in entering:
            add_output(int(y), vertices[:, y])


MASTERS = {"interior": interior, "interior-no-drop": interior_no_drop, "interior-most-negative": interior_most_negative,
           "interior-accurate-rounds": interior_accurate_rounds, "interior-whole-columns": interior_whole_columns,
           "interior-refined": interior_refined, "restricted-dense": restricted_dense, "dantzig-wolfe": dantzig_wolfe,
           "row-generation": row_generation}


def child(master: str, n: int, prior_kind: str, cost_kind: str, epsilon: float, seed: int, pipe) -> None:
    prior, weights = instance(n, prior_kind, cost_kind, seed)
    wall, cpu = time.perf_counter(), time.process_time()

    def report(value: float, bound: float, iterations: int, final: bool) -> None:
        pipe.send({"value": value, "bound": bound, "iterations": iterations, "final": final,
                   "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu})

    MASTERS[master](weights, prior, math.exp(epsilon), report)


def timed(master: str, n: int, prior_kind: str, cost_kind: str, epsilon: float, seed: int, cap: float) -> dict:
    """The last report of one run (``final`` False if stopped at ``cap`` seconds)."""
    receiver, sender = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=child, args=(master, n, prior_kind, cost_kind, epsilon, seed, sender))
    process.start()
    last, deadline = {"final": False, "value": math.nan, "bound": -math.inf, "iterations": 0, "wall": cap,
                      "cpu": math.nan}, time.perf_counter() + cap
    while process.is_alive() and time.perf_counter() < deadline:
        if receiver.poll(0.2):
            last = receiver.recv()
    while receiver.poll():
        last = receiver.recv()
    if process.is_alive():
        process.terminate()
    process.join()
    return last


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 400])
    parser.add_argument("--priors", nargs="+", default=["zipf"])
    parser.add_argument("--costs", nargs="+", default=["random"])
    parser.add_argument("--epsilons", type=float, nargs="+", default=[1.0])
    parser.add_argument("--masters", nargs="+", default=list(MASTERS))
    parser.add_argument("--seed", type=int, default=0, help="of the random cost")
    parser.add_argument("--cap", type=float, default=120.0)
    args = parser.parse_args()
    print(f"random cost seed {args.seed}")
    print("| n | prior | cost | ε | master | wall (s) | CPU (s) | iterations | value | gap reached | certified | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for prior_kind in args.priors:
            for cost_kind in args.costs:
                for epsilon in args.epsilons:
                    for master in args.masters:
                        r = timed(master, n, prior_kind, cost_kind, epsilon, args.seed, args.cap)
                        wall = f"{r['wall']:.2f}" if r["final"] else f"> {args.cap:.0f} (stopped)"
                        print(f"| {n} | {prior_kind} | {cost_kind} | {epsilon:g} | {master} | {wall} | {r['cpu']:.2f} "
                              f"| {r['iterations']} | {r['value']:.10f} | {r['value'] - r['bound']:.1e} "
                              f"| {'yes' if r['final'] else 'no'} | {os.getloadavg()[0]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
