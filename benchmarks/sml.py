"""Exact SML computation (Wang, Lin & Fanti): MILP and matching (Alg. 1) against brute force, side by side.

* MILP (HiGHS) on random randomized mechanisms with ``|Θ| = |Θ'| = n`` up to 60 and ``s`` up to 6
  secret values; enumeration of all ``Π_g |Θ_g|`` selections is run alongside where it has at most
  ``ENUMERATION_LIMIT`` selections, and the two must agree.
* Alg. 1 (min-cost flow = maximum matching for deterministic mechanisms) up to ``|Θ| = 10⁵``, against
  the MILP and enumeration where feasible.
* Design under an SML budget by constraint generation on histogram spaces (τ, d = 3).

Prints Markdown tables and writes ``benchmarks/out/sml.csv``.

Run: ``python benchmarks/sml.py [--quick]``
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path

import numpy as np

from mechdesign.mechanisms.histogram import histogram_quantization
from mechdesign.designers.sml import design_under_sml
from mechdesign.privacy.sml import Secret, deterministic_sml, measure_sml
from mechdesign.tabular import HistogramSpace, category_fraction_secret, tv_distortion
from mechdesign.theory.sml import thm4_qm_distortion

AGREEMENT_ATOL = 1e-12
ENUMERATION_LIMIT = 2_000_000


def random_mechanism(n: int, rng: np.random.Generator) -> np.ndarray:
    matrix = rng.random((n, n)) ** 4  # skewed rows: many near-zero entries, a few large
    return matrix / matrix.sum(axis=1, keepdims=True)


def log10_selections(secret: Secret) -> float:
    """log10 of the number of selections (the exact integer can have more digits than str() allows)."""
    return float(np.log10(secret.group_sizes).sum())


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def milp_rows(sizes, secrets, rng):
    rows = []
    for n in sizes:
        for s in secrets:
            if s > n:
                continue
            matrix = random_mechanism(n, rng)
            secret = Secret(np.arange(n) % s)
            milp, milp_time = timed(measure_sml, matrix, secret, "milp")
            row = {"part": "milp", "n": n, "s": s, "log10_selections": log10_selections(secret), "sml": milp.value,
                   "milp_s": milp_time, "enumerate_s": None, "agree": None}
            if secret.n_selections <= ENUMERATION_LIMIT:
                brute, brute_time = timed(measure_sml, matrix, secret, "enumerate")
                row.update(enumerate_s=brute_time, agree=abs(brute.value - milp.value) <= AGREEMENT_ATOL)
                assert row["agree"], (n, s, brute.value, milp.value)
            rows.append(row)
            brute_text = "—" if row["enumerate_s"] is None else f"{row['enumerate_s']:.3f}"
            print(f"| {n} | {s} | {secret.n_selections:.3g} | {milp.value:.6f} | {milp_time:.3f} | {brute_text} |", flush=True)
    return rows


def flow_rows(sizes, rng):
    rows = []
    for n in sizes:
        s = max(2, n // 10)
        outputs = rng.integers(0, max(1, n // 2), size=n)
        secret = Secret(rng.integers(0, s, size=n))
        flow, flow_time = timed(deterministic_sml, outputs, secret)
        row = {"part": "flow", "n": n, "s": secret.n_values, "log10_selections": log10_selections(secret), "sml": flow.value,
               "flow_s": flow_time, "milp_s": None, "agree": None}
        if n <= 200:
            matrix = np.eye(int(outputs.max()) + 1)[outputs]
            assert measure_sml(matrix, secret, "flow").value == flow.value
            milp, milp_time = timed(measure_sml, matrix, secret, "milp")
            row.update(milp_s=milp_time, agree=abs(milp.value - flow.value) <= AGREEMENT_ATOL)
            assert row["agree"], (n, milp.value, flow.value)
        rows.append(row)
        milp_text = "—" if row["milp_s"] is None else f"{row['milp_s']:.3f}"
        print(f"| {n} | {secret.n_values} | {flow.value:.6f} | {flow_time:.4f} | {milp_text} |", flush=True)
    return rows


def design_rows(taus):
    rows = []
    for tau in taus:
        space = HistogramSpace(tau, 3)
        secret = category_fraction_secret(space, 0)
        objective = tv_distortion(space)
        budget = math.log(2)
        result, seconds = timed(design_under_sml, secret, budget, objective, strategy="generate")
        assert result.success and result.certified, result.message
        qm = objective.value(histogram_quantization(space, 0, math.ceil((tau + 1) / 2)))
        rows.append({"part": "design", "n": space.size, "s": tau + 1, "selections": secret.n_selections,
                     "sml": result.measured[next(iter(result.measured))], "design_s": seconds,
                     "rounds": result.iterations, "optimal_distortion": result.objective, "qm_distortion": qm})
        print(f"| {tau} | {space.size} | {secret.n_selections} | {result.iterations} | {seconds:.2f} | "
              f"{result.objective:.6f} | {qm:.6f} ({thm4_qm_distortion(tau, 3, math.ceil((tau + 1) / 2)):.6f}) |", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print("\n### MILP vs enumeration (random randomized mechanisms)\n")
    print("| n = |Θ| = |Θ'| | s | selections | SML | MILP (s) | enumeration (s) |\n|---|---|---|---|---|---|")
    sizes = (10, 20) if args.quick else (10, 20, 30, 40, 50, 60)
    rows = milp_rows(sizes, (2, 4, 6), rng)
    print("\n### Alg. 1 (matching) for deterministic mechanisms\n")
    print("| |Θ| | s | SML | matching (s) | MILP (s) |\n|---|---|---|---|---|")
    rows += flow_rows((100, 1000) if args.quick else (100, 200, 1000, 10_000, 100_000), rng)
    print("\n### Design under SML ≤ log 2 by constraint generation (histograms, d = 3, secret = fraction of category 0)\n")
    print("| τ | |Θ| | selections | rounds | time (s) | optimal Δ | QM Δ, I = ⌈s/2⌉ (closed form) |\n|---|---|---|---|---|---|---|")
    rows += design_rows((3, 4) if args.quick else (3, 4, 5, 6))
    out = Path(__file__).parent / "out"
    out.mkdir(exist_ok=True)
    keys = sorted({key for row in rows for key in row})
    with open(out / "sml.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
