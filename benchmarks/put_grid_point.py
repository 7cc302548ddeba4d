"""One PUT global-framework row of the full grid, point by point: ``ε*(D)`` of Rényi DP on ``{1..m}^n`` (uniform
prior, Hamming distance and neighbours; PUT Theorem 7(5)) at the grid's distortions or the ones given, as
``tests/checks/test_put.py``'s full grid computes it (``checks.optimum.certified_privacy_distortion``): the value,
whether it is certified, the bracket's width, CPU and wall seconds, and the load average beside each.

Run a tree against another by ``PYTHONPATH`` (e.g. a ``git worktree`` of the older commit), one after the other::

    python benchmarks/put_grid_point.py --m 3 --n 3 --distortions 1.999
"""
from __future__ import annotations

import argparse
import os
import time

from mechdesign.checks.optimum import certified_privacy_distortion
from mechdesign.checks.put import distortion_grid, parameter_choice, product_space
from mechdesign.priors import Prior
from mechdesign.privacy import RenyiDifferentialPrivacy
from mechdesign.theory import put
from mechdesign.utility import ExpectedDistortion


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=3)
    parser.add_argument("--n", type=int, default=3)
    parser.add_argument("--alpha", type=float, default=2.0)
    parser.add_argument("--distortions", type=float, nargs="*", help="default: the full grid's for (m, n)")
    args = parser.parse_args()
    distances, adjacency = product_space(args.m, args.n)
    objective = ExpectedDistortion(Prior.uniform(args.m**args.n), cost=distances)
    notion = RenyiDifferentialPrivacy(args.alpha, neighbours=adjacency)
    with parameter_choice():
        grid = distortion_grid([put.lemma5_zero_threshold(args.m, args.n)], upper=args.n, base=(0.2, 0.5))
    for distortion in args.distortions or grid:
        cpu, wall, load = time.process_time(), time.perf_counter(), os.getloadavg()[0]
        [(value, certified, width)] = certified_privacy_distortion(notion, objective, [distortion])
        print(f"D = {distortion:.6g}: eps* = {value:.10g}, certified {certified}, width {width:.3g}, "
              f"CPU {time.process_time() - cpu:.1f} s, wall {time.perf_counter() - wall:.1f} s, load {load:.1f}",
              flush=True)


if __name__ == "__main__":
    main()
