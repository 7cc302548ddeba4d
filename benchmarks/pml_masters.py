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
* ``entries-interior`` — the shipped rounds with each restricted LP solved by a primal-dual interior point
  written for its structure (:func:`entries_interior_point`: Mehrotra's predictor-corrector on the held entries
  only, each Newton system reduced to a dense one over the outputs' ``w_y`` and ``z``-row multipliers), Clarabel
  when it has not converged in :data:`ENTRIES_MAX_ITERATIONS` (not kept: benchmarks/notes/2026-11-28-pml-reach-3.md);
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
import scipy.linalg as sla
import scipy.sparse as sp

import mechdesign.solvers
from mechdesign.methods import column_generation
from mechdesign.methods.column_generation import DUAL_SIMPLEX_STRATEGY, PmlColumnGeneration, knapsack_vertices
from mechdesign.methods.direct import HIGHS_OPTIONS, DirectSolution  # the direct LPs' (dual simplex, no presolve, 1e-10 tolerances)
from mechdesign.solvers import quiet_highs

#: Stop when ``value − bound <= STOP_RTOL · max(1, value)`` (the shipped path stops at 1e-9 too).
STOP_RTOL = 1e-9
ENTERING = 10
#: ``entries-interior``: interior-point iterations before a restricted LP is handed to Clarabel.
ENTRIES_MAX_ITERATIONS = 100


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


def entries_interior_point(costs: np.ndarray, held: np.ndarray, prior: np.ndarray, scale: float, tolerance: float,
                           max_iterations: int) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, int, bool]:
    """``min Σ c∘q`` over the held entries ``q_e`` of ``Q`` (``held`` an ``n × k`` mask) s.t. unit row sums,
    ``w_y − e^ε Σ_x P_x q[x, y] = 0`` and ``q[x, y] <= w_y`` (slack ``s``), ``q >= 0``: Mehrotra's
    predictor-corrector from an infeasible start. Each Newton system is reduced, entry by entry and then row by
    row (the row sums' block is diagonal), to a dense symmetric one in ``(Δw, Δν)`` of size ``2k``.

    Returns ``(q as an n × k array, value, u, λ, iterations, converged)``: ``u`` the row sums' multipliers,
    ``λ_y = −e^ε ν_y`` (``ν`` the multipliers of the ``w`` rows; HiGHS's ``z``-row dual is ``−λ``).

    Examples
    --------
    >>> costs = np.array([[0.0, 1.0], [1.0, 0.0]]) / 2
    >>> q, value, u, lam, iterations, converged = entries_interior_point(
    ...     costs, np.ones((2, 2), dtype=bool), np.full(2, 0.5), 1.5, 1e-10, 100)
    >>> converged, round(value, 8), q.round(6).tolist()   # the diagonal at e^ε z_y = 0.75
    (True, 0.25, [[0.75, 0.25], [0.25, 0.75]])
    """
    n, k = costs.shape
    ex, ey = np.nonzero(held)
    entries = ex.size
    c, p = costs[ex, ey], prior[ex]

    def per_input(values: np.ndarray) -> np.ndarray:
        return np.bincount(ex, values, minlength=n)

    def per_output(values: np.ndarray) -> np.ndarray:
        return np.bincount(ey, values, minlength=k)

    q = 1.0 / per_input(np.ones(entries))[ex]
    w = 1.5 * scale * per_output(p * q) + 1e-3
    s, q = np.maximum(w[ey] - q, 1e-2), np.maximum(q, 1e-2)
    mu, sigma, u, nu = np.ones(entries), np.ones(entries), np.zeros(n), np.zeros(k)
    cost_scale = max(1.0, float(np.abs(c).max()))
    starts = np.concatenate([[0], np.cumsum(np.bincount(ex, minlength=n))])  # np.nonzero is row-major: CSR order
    iteration = 0
    for iteration in range(max_iterations):
        r_rows, r_w = 1.0 - per_input(q), scale * per_output(p * q) - w
        r_slack = w[ey] - q - s
        r_q, r_nu = -(c - u[ex] + scale * p * nu[ey] + sigma - mu), -(nu + per_output(sigma))
        gap, value = float(q @ mu + s @ sigma), float(c @ q)
        primal = max(np.abs(r_rows).max(), np.abs(np.concatenate([r_w, r_slack])).max() / max(1.0, w.max()))
        if (primal < tolerance and max(np.abs(r_q).max(), np.abs(r_nu).max()) < tolerance * cost_scale
                and gap < tolerance * max(1.0, abs(value))):
            matrix = np.zeros((n, k))
            matrix[ex, ey] = q
            return matrix, value, u, -scale * nu, iteration, True
        g = sigma / s
        a = 1.0 / (g + mu / q)
        b, scaled = g * a, scale * p * a
        rows = per_input(a)
        B = sp.csr_matrix((b, ey, starts), shape=(n, k))
        C = sp.csr_matrix((scaled, ey, starts), shape=(n, k))
        BD, CD = sp.diags(1.0 / rows) @ B, sp.diags(1.0 / rows) @ C
        alpha = 1.0 - per_output(scale * p * b)
        upper = np.diag(per_output(g * b) - per_output(g)) - (B.T @ BD).toarray()
        coupling = np.diag(alpha) + (B.T @ CD).toarray()
        lower = np.diag(scale ** 2 * per_output(p * p * a)) - (C.T @ CD).toarray()
        factor = sla.lu_factor(np.block([[upper, coupling], [coupling.T, lower]]), check_finite=False)

        def direction(r_mu: np.ndarray, r_sigma: np.ndarray) -> tuple[np.ndarray, ...]:
            rho = r_q - r_sigma / s + g * r_slack + r_mu / q
            r1 = r_rows - per_input(a * rho)
            right = np.concatenate([r_nu - per_output((r_sigma - sigma * r_slack) / s) - per_output(b * rho)
                                    - BD.T @ r1, r_w + scale * per_output(p * a * rho) + CD.T @ r1])
            step_w, step_nu = np.split(sla.lu_solve(factor, right, check_finite=False), 2)
            step_u = (r1 - B @ step_w + C @ step_nu) / rows
            step_q = a * rho + b * step_w[ey] + a * step_u[ex] - scaled * step_nu[ey]
            step_s = step_w[ey] - step_q + r_slack
            return (step_q, step_w, step_u, step_nu, step_s, (r_mu - mu * step_q) / q,
                    (r_sigma - sigma * step_s) / s)

        def longest(values: np.ndarray, steps: np.ndarray) -> float:
            negative = steps < 0
            return min(1.0, float((-values[negative] / steps[negative]).min())) if negative.any() else 1.0

        affine = direction(-q * mu, -s * sigma)
        primal_step = min(longest(q, affine[0]), longest(s, affine[4]))
        dual_step = min(longest(mu, affine[5]), longest(sigma, affine[6]))
        affine_gap = ((q + primal_step * affine[0]) @ (mu + dual_step * affine[5])
                      + (s + primal_step * affine[4]) @ (sigma + dual_step * affine[6]))
        target = (affine_gap / gap) ** 3 * gap / (2 * entries)
        step_q, step_w, step_u, step_nu, step_s, step_mu, step_sigma = direction(
            target - q * mu - affine[0] * affine[5], target - s * sigma - affine[4] * affine[6])
        primal_step = 0.99 * min(longest(q, step_q), longest(s, step_s))
        dual_step = 0.99 * min(longest(mu, step_mu), longest(sigma, step_sigma))
        q, w, s = q + primal_step * step_q, w + primal_step * step_w, s + primal_step * step_s
        u, nu = u + dual_step * step_u, nu + dual_step * step_nu
        mu, sigma = mu + dual_step * step_mu, sigma + dual_step * step_sigma
    return np.zeros((n, k)), math.nan, u, -scale * nu, iteration + 1, False


class EntriesInteriorGeneration(PmlColumnGeneration):
    """The shipped rounds with :func:`entries_interior_point` as the restricted LP's solver (full support only)."""

    def _solve_master(self, epsilon, cold, interior, loose):
        outputs, held = self.outputs.copy(), self.held[:, self.outputs]
        matrix, value, u, lam, iterations, converged = entries_interior_point(
            self.weights[:, outputs], held, self.prior, self.scale(epsilon),
            column_generation.INTERIOR_ROUND_TOLERANCE if loose else 1e-11, ENTRIES_MAX_ITERATIONS)
        if not converged:  # Clarabel, as shipped
            self._master = None
            solution, by_interior = super()._solve_master(epsilon, cold, interior, loose)
            return DirectSolution(solution.matrix, solution.value, solution.lower_bound,
                                  solution.iterations + iterations, solution.status, solution.row_duals,
                                  solution.slacks), by_interior
        self._master = _NoCaps()
        self._master_outputs, self._held_built = outputs, self.held.copy()
        self._droppable = matrix <= column_generation.PML_DROP_VALUE if loose else None
        return DirectSolution(matrix, value, -math.inf, iterations, "optimal", np.concatenate([u, -lam]),
                              np.zeros(0)), True


class _NoCaps:
    """Stands for the restricted LP where only its caps' rows are read (none)."""

    limit_rows = np.zeros(0, dtype=np.int64)


def entries_interior(weights, prior, scale, report) -> None:
    if np.any(prior <= 0):
        raise ValueError("entries-interior: the prior must have full support")
    solution = EntriesInteriorGeneration(weights, prior).solve(math.log(scale))
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
           "interior-refined": interior_refined, "entries-interior": entries_interior, "restricted-dense": restricted_dense, "dantzig-wolfe": dantzig_wolfe,
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
