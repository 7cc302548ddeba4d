"""Robust PML over an ℓ1-ball: LP-dual formulation vs the ball's enumerated vertices (Corollary 1).

Both minimize expected Hamming distortion under the center ``P̂`` (Zipf) at ε = 1 over every prior of
``B_β(P̂) ∩ simplex`` with β = 0.5 (the ball leaves the simplex for the smallest entries); same solver,
side by side. The dual formulation has O(N·M) rows and auxiliaries; the vertex one has one row per
(vertex, output), and the vertices number up to N² 2^(N−1). The optima must agree. Vertex enumeration
time is included in the vertex formulation's time. Prints a table and writes ``benchmarks/out/pml_ball.csv``.

Run: ``python benchmarks/pml_ball.py [--sizes 4 6 8 10 12] [--solver highs]``
"""

from __future__ import annotations

import argparse
import time

from ldp_formulations import AGREEMENT_ATOL, EPSILON, skewed_prior, write_rows

from mechdesign import DesignProblem, ExpectedDistortion, PointwiseMaximalLeakage, Prior
from mechdesign.priors import L1Ball

RADIUS = 0.5


def timed_design(make_notion, prior: Prior, solver: str) -> tuple[float, float, int]:
    """Seconds (notion + build + solve), optimum, and the number of constraint rows."""
    start = time.perf_counter()
    problem = DesignProblem(make_notion(), ExpectedDistortion(prior), solver=solver)
    result = problem.solve(EPSILON)
    assert result.success, result.message
    rows = sum(c.size for c in problem.problem.constraints)
    return time.perf_counter() - start, result.objective, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 6, 8, 10, 12])
    parser.add_argument("--solver", default="highs")
    args = parser.parse_args()
    rows = []
    print(f"{'N':>3} {'vertices':>9} {'dual s':>8} {'vertex s':>9} {'ratio':>7} {'|Δ opt|':>9}")
    for n in args.sizes:
        prior = skewed_prior(n)
        ball = L1Ball(prior, RADIUS)
        vertices = len(ball.extreme_points())
        dual = timed_design(lambda: PointwiseMaximalLeakage(ball), prior, args.solver)
        vertex = timed_design(lambda: PointwiseMaximalLeakage(ball.to_source_set()), prior, args.solver)
        gap = abs(dual[1] - vertex[1])
        assert gap <= AGREEMENT_ATOL, (n, dual[1], vertex[1])
        rows.append(dict(n=n, vertices=vertices, dual_seconds=dual[0], vertex_seconds=vertex[0],
                         dual_rows=dual[2], vertex_rows=vertex[2], ratio=vertex[0] / dual[0], gap=gap))
        print(f"{n:>3} {vertices:>9} {dual[0]:>8.3f} {vertex[0]:>9.3f} {vertex[0] / dual[0]:>6.1f}× {gap:>9.1e}")
    write_rows(rows, "pml_ball")


if __name__ == "__main__":
    main()
