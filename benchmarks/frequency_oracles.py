"""Frequency oracles (issue 34): exact variances, measured errors, and pure-ldp / multi-freq-ldpy side by side.

Sections (``--section``, default all), each a markdown table with the 1-minute load average beside every
row (the machine is shared):

* ``table`` — ``N · Σ_x Var(p̂_x)`` under the uniform prior at k ∈ {2, 4, 16, 42, 100, 1000, 10⁴} ×
  ε ∈ {0.1, 0.5, 1, 2, 4, 8}: every oracle at its best parameter (exact formulas), the choice of
  ``estimation_mechanism`` under the default report budget, its ratio to the best admissible oracle,
  and what the budget trades against the best oracle with the budget lifted;
* ``mse`` — the chosen oracle run ``--repetitions`` times on ``--reports`` records drawn from the
  uniform prior (privatize, tally, estimate): the mean of ``Σ_x (p̂_x − p_x)²`` against the formula
  ``Σ Var / N``, with the 95 % confidence interval of the mean (t quantile, 19 degrees of freedom);
* ``compare`` — the same data privatized and estimated by this package (default choice; and with the
  budget lifted where the default trades) and by every frequency oracle of pure-ldp (direct encoding,
  OUE, OLH, Hadamard response) and multi-freq-ldpy (GRR, OUE, OLH, SS): Adult ``native-country``
  (42 categories) and ``education`` (16), the shipped training split's rows (32,561), and synthetic Zipf
  (exponent 1.1) k = 1000 and 10⁴, ``--compare-reports`` records. Their answers are checked first:
  pure-ldp's unbiased estimates must have the MSE of their oracle's own variance formula (z-score
  shown); multi-freq-ldpy clips and renormalizes (its ``*_MI`` aggregators), so it is compared with our
  simplex projection. MSE over ``--compare-repetitions`` runs; times are privatize + estimate per 10⁶
  reports, theirs measured on ``--compare-reports`` records and scaled linearly (their clients run one
  Python call per record; their OLH aggregation one xxhash call per record and category), ours at 10⁶;
* ``exact`` — the same comparison without sampling: the exact ``E Σ_x (p̂_x − p_x)²`` of the unbiased
  estimators on the same data, ours against the mechanisms of theirs that have an exact equivalent here;
* ``scale`` — k = 10⁴, ε = 1, 10⁶ reports: privatize + estimate in a fresh process (wall-clock, CPU,
  peak resident memory as the process's own ``VmHWM``: ``ru_maxrss`` of a forked child also counts the
  parent's pages before ``exec``), the default choice; and k-ary randomized response through its structured
  sampler against the dense :class:`~mechdesign.randomness.ExactSampler` at k = 2 … 10⁴.

Usage: ``python benchmarks/frequency_oracles.py [--section table|mse|compare|exact|scale] [--reports 1000000]
[--repetitions 20] [--compare-reports 20000] [--compare-repetitions 10]``
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
import types
import warnings
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from mechdesign import DifferentialPrivacy  # noqa: E402
from mechdesign.frequency import project_to_simplex  # noqa: E402
from mechdesign.mechanisms.estimation import ReportBudget, estimation_mechanism  # noqa: E402
from mechdesign.mechanisms.oracles import (  # noqa: E402
    HadamardResponse,
    OptimizedLocalHashing,
    OptimizedUnaryEncoding,
    RandomizedResponse,
    SubsetSelection,
)

SIZES = (2, 4, 16, 42, 100, 1000, 10_000)
EPSILONS = (0.1, 0.5, 1.0, 2.0, 4.0, 8.0)
FAMILIES = ("randomized-response", "subset-selection", "optimized-unary-encoding", "optimized-local-hashing",
            "hadamard-response")
#: t quantile (97.5 %, 19 degrees of freedom) of the confidence interval of a mean over 20 repetitions.
T_QUANTILE_19 = 2.093
#: Zipf exponent of the synthetic data.
ZIPF_EXPONENT = 1.1
COMPARE_EPSILONS = (0.5, 1.0, 2.0, 4.0)


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def uniform(size: int) -> np.ndarray:
    return np.full(size, 1.0 / size)


# ------------------------------------------------------------------------------------------------ table


def variance_table() -> list[str]:
    header = ("| k | ε | chosen (default budget) | N·ΣVar | / best admissible | k-RR | SS (best d) | OUE | OLH (best g) "
              "| HR (best b) | budget lifted: best | trade | load |")
    lines = [header, "|" + "---|" * 13]
    for size in SIZES:
        for epsilon in EPSILONS:
            prior = uniform(size)
            chosen = estimation_mechanism(DifferentialPrivacy(), epsilon, prior)
            lifted = estimation_mechanism(DifferentialPrivacy(), epsilon, prior, report_budget=ReportBudget.unlimited())
            by_family = {candidate.name.split("(")[0]: candidate for candidate in lifted.candidates}
            admitted = min(candidate.variance for candidate in chosen.candidates if candidate.admitted)
            cells = []
            for family in FAMILIES:
                candidate = by_family.get(family)
                if candidate is None:
                    cells.append("—")
                    continue
                parameter = candidate.name[len(family):]
                fits = next(c.admitted for c in chosen.candidates if c.name.split("(")[0] == family)
                cells.append(f"{candidate.variance:,.1f}{parameter}{'' if fits else ' ✗'}")
            trade = chosen.variance / lifted.variance - 1
            lines.append(f"| {size:,} | {epsilon:g} | {chosen.name} | {chosen.variance:,.1f} | "
                         f"{chosen.variance / admitted:.4f} | {' | '.join(cells)} | {lifted.name} | "
                         f"{'—' if trade == 0 else f'+{trade:.1%}'} | {load()} |")
    return lines


# -------------------------------------------------------------------------------------------------- mse


def measured_mse(reports: int, repetitions: int, sizes: tuple[int, ...]) -> list[str]:
    lines = ["| k | ε | oracle | formula Σ Var / N | measured MSE (mean of runs) | 95 % CI | z | s per run | load |",
             "|" + "---|" * 9]
    rng = np.random.default_rng(2026)  # the inputs' draws only; the oracles draw from the OS
    for size in sizes:
        for epsilon in EPSILONS:
            chosen = estimation_mechanism(DifferentialPrivacy(), epsilon, uniform(size))
            oracle = chosen.mechanism
            formula = chosen.variance / reports
            errors, seconds = [], []
            for _ in range(repetitions):
                inputs = rng.integers(0, size, reports)
                start = time.perf_counter()
                estimate, _ = oracle.estimate(oracle.tally(oracle.privatize(inputs)), reports)
                seconds.append(time.perf_counter() - start)
                errors.append(float(((estimate - 1.0 / size) ** 2).sum()))
            mean = float(np.mean(errors))
            half = T_QUANTILE_19 * float(np.std(errors, ddof=1)) / math.sqrt(repetitions)
            z = (mean - formula) / (half / T_QUANTILE_19)
            lines.append(f"| {size:,} | {epsilon:g} | {chosen.name} | {formula:.4e} | {mean:.4e} | "
                         f"[{mean - half:.4e}, {mean + half:.4e}] | {z:+.2f} | {np.mean(seconds):.2f} | {load()} |")
            print(lines[-1], flush=True)
    return lines


# ---------------------------------------------------------------------------------------------- compare


def datasets(reports: int) -> list[tuple[str, np.ndarray, int]]:
    """``(name, codes, k)``: Adult's two columns (all rows) and Zipf samples of ``reports`` records."""
    from mechdesign.datasets import load_adult

    table = load_adult()
    result = []
    for column in ("native-country", "education"):
        values = np.asarray(table[column])
        categories, codes = np.unique(values, return_inverse=True)
        result.append((f"Adult {column}", codes, categories.size))
    rng = np.random.default_rng(34)
    for size in (1000, 10_000):
        weights = 1.0 / np.arange(1, size + 1) ** ZIPF_EXPONENT
        result.append((f"Zipf k = {size:,}", rng.choice(size, reports, p=weights / weights.sum()), size))
    return result


def theirs(k: int, epsilon: float) -> dict[str, tuple]:
    """Their oracles: name → (privatize one record, estimate from the list of reports → (unbiased, clipped))."""
    if "statsmodels" not in sys.modules:
        try:
            import statsmodels.api  # noqa: F401
        except ImportError:  # pure-ldp's package imports it for RAPPOR (not compared; not a declared dependency)
            sys.modules["statsmodels"] = types.ModuleType("statsmodels")
            sys.modules["statsmodels.api"] = types.ModuleType("statsmodels.api")
    import multi_freq_ldpy.pure_frequency_oracles.GRR as grr
    import multi_freq_ldpy.pure_frequency_oracles.LH as lh
    import multi_freq_ldpy.pure_frequency_oracles.SS as ss
    import multi_freq_ldpy.pure_frequency_oracles.UE as ue
    from pure_ldp.frequency_oracles import (
        DEClient,
        DEServer,
        HadamardResponseClient,
        HadamardResponseServer,
        LHClient,
        LHServer,
        UEClient,
        UEServer,
    )

    def pure(client, server):
        def estimate(reports):
            server.reset()
            for report in reports:
                server.aggregate(report)
            counts = server.estimate_all(range(1, k + 1), suppress_warnings=True)
            return np.asarray(counts) / len(reports), None
        return (lambda code: client.privatise(int(code) + 1)), estimate

    def multi(client, aggregate):
        return (lambda code: client(int(code))), (lambda reports: (None, np.asarray(aggregate(reports))))

    hr_server = HadamardResponseServer(epsilon, k)
    oracles = {
        "pure-ldp DE": pure(DEClient(epsilon, k), DEServer(epsilon, k)),
        "pure-ldp OUE": pure(UEClient(epsilon, k, use_oue=True), UEServer(epsilon, k, use_oue=True)),
        "pure-ldp HR": pure(HadamardResponseClient(epsilon, k, hr_server.get_hash_funcs()), hr_server),
        "multi-freq-ldpy GRR": multi(lambda x: grr.GRR_Client(x, k, epsilon),
                                     lambda r: grr.GRR_Aggregator_MI(np.array(r), k, epsilon)),
        "multi-freq-ldpy OUE": multi(lambda x: ue.UE_Client(x, k, epsilon, True),
                                     lambda r: ue.UE_Aggregator_MI(np.array(r), epsilon, True)),
        "multi-freq-ldpy SS": multi(lambda x: ss.SS_Client(x, k, epsilon),
                                    lambda r: ss.SS_Aggregator_MI(np.array(r), k, epsilon)),
    }
    if k <= 1000:  # their OLH aggregation hashes every category of every report in Python
        _encode_hashed_strings()
        oracles["pure-ldp OLH"] = pure(LHClient(epsilon, k, use_olh=True), LHServer(epsilon, k, use_olh=True))
        oracles["multi-freq-ldpy OLH"] = multi(lambda x: lh.LH_Client(x, k, epsilon, True),
                                               lambda r: lh.LH_Aggregator_MI(r, k, epsilon, True))
    return oracles


def _encode_hashed_strings() -> None:
    """Both libraries' local hashing call ``xxhash.xxh32(str(item), seed=…)``, which xxhash 4 refuses
    ("Strings must be encoded before hashing"); hash the UTF-8 bytes of the string, as xxhash 1–3 did."""
    import multi_freq_ldpy.pure_frequency_oracles.LH as multi_lh
    import pure_ldp.frequency_oracles.local_hashing.lh_client as pure_client
    import pure_ldp.frequency_oracles.local_hashing.lh_server as pure_server
    import xxhash

    class Encoding:
        @staticmethod
        def xxh32(data, seed=0):
            return xxhash.xxh32(data.encode("utf-8") if isinstance(data, str) else data, seed=seed)

    for module in (multi_lh, pure_client, pure_server):
        module.xxhash = Encoding


def their_equivalent(name: str, k: int, epsilon: float):
    """This package's oracle with the same report probabilities as pure-ldp's (for the answer check), or None."""
    if name == "pure-ldp DE":
        return RandomizedResponse(k, epsilon)
    if name == "pure-ldp OUE":
        return OptimizedUnaryEncoding(k, epsilon)
    if name == "pure-ldp OLH":  # g = round(e^ε) + 1, q = 1/g (their xxhash family approximates it)
        return OptimizedLocalHashing(k, epsilon, int(round(math.exp(epsilon))) + 1)
    if name == "pure-ldp HR" and epsilon <= 1:  # one block of K = 2^⌈log2(k+1)⌉ outputs
        return HadamardResponse(k, epsilon, 2 ** (k.bit_length()))
    return None


def compare(reports: int, repetitions: int) -> list[str]:
    lines = ["| data | ε | oracle | MSE unbiased | MSE projected | MSE clipped + renormalized | answer check (z) | "
             "s per 10⁶ | load |", "|" + "---|" * 9]
    for name, codes, size in datasets(reports):
        truth = np.bincount(codes, minlength=size) / codes.size
        for epsilon in COMPARE_EPSILONS:
            rows = []
            ours = [("mechdesign (default)", None)]
            lifted = estimation_mechanism(DifferentialPrivacy(), epsilon, uniform(size),
                                          report_budget=ReportBudget.unlimited())
            chosen = estimation_mechanism(DifferentialPrivacy(), epsilon, uniform(size))
            if lifted.name != chosen.name:
                ours.append(("mechdesign (budget lifted)", ReportBudget.unlimited()))
            for label, budget in ours:
                oracle = estimation_mechanism(DifferentialPrivacy(), epsilon, uniform(size), report_budget=budget).mechanism
                unbiased, projected, clipped = [], [], []
                for _ in range(repetitions):
                    estimate, _ = oracle.estimate(oracle.tally(oracle.privatize(codes)), codes.size)
                    unbiased.append(float(((estimate - truth) ** 2).sum()))
                    projected.append(float(((project_to_simplex(estimate) - truth) ** 2).sum()))
                    clipped.append(float(((clip_and_renormalize(estimate) - truth) ** 2).sum()))
                timed = 10**6 if oracle.report_bytes * 10**6 <= 2**30 else 10**5  # beyond 1 GiB of reports: scaled
                inputs = np.resize(codes, timed)
                start = time.perf_counter()
                oracle.estimate(oracle.tally(oracle.privatize(inputs)), inputs.size)
                seconds = (time.perf_counter() - start) * 10**6 / timed
                formula = _fixed_data_variance(oracle, codes)
                z = (np.mean(unbiased) - formula) / (np.std(unbiased, ddof=1) / math.sqrt(repetitions))
                rows.append((f"{label}: {oracle.name}", np.mean(unbiased), np.mean(projected), np.mean(clipped),
                             f"{z:+.2f}", seconds))
            for oracle_name, (privatize, estimate) in theirs(size, epsilon).items():
                unbiased, clipped, seconds = [], [], []
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    estimate([privatize(code) for code in codes[:2]])  # numba compiles on the first calls
                for repetition in range(repetitions):
                    start = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        released = [privatize(code) for code in codes]
                        raw, post = estimate(released)
                    seconds.append(time.perf_counter() - start)
                    if raw is not None:
                        unbiased.append(float(((raw - truth) ** 2).sum()))
                    if post is not None:
                        clipped.append(float(((post - truth) ** 2).sum()))
                check = "—"
                equivalent = their_equivalent(oracle_name, size, epsilon)
                if unbiased and equivalent is not None:
                    formula = _fixed_data_variance(equivalent, codes)
                    check = f"{(np.mean(unbiased) - formula) / (np.std(unbiased, ddof=1) / math.sqrt(repetitions)):+.2f}"
                rows.append((oracle_name, np.mean(unbiased) if unbiased else math.nan, math.nan,
                             np.mean(clipped) if clipped else math.nan, check,
                             float(np.mean(seconds)) * 10**6 / codes.size))
            for label, mse, projection, post, check, seconds in rows:
                lines.append(f"| {name} | {epsilon:g} | {label} | {_number(mse)} | {_number(projection)} | {_number(post)} | "
                             f"{check} | {seconds:,.1f} | {load()} |")
                print(lines[-1], flush=True)
    return lines


def exact_comparison(reports: int) -> list[str]:
    """``E Σ_x (p̂_x − p_x)²`` of the unbiased estimators on the compared data, exactly: ours against every
    mechanism of theirs with a known equivalent (pure-ldp DE/OUE/OLH, HR at ε ≤ 1; multi-freq-ldpy GRR,
    OUE, OLH, SS at its d = rint(k/(e^ε + 1))), from the fixed-data variance."""
    lines = ["| data | ε | ours (default) | exact MSE | their best mechanism | exact MSE | ratio | ours, budget lifted: "
             "ratio | load |", "|" + "---|" * 9]
    for name, codes, size in datasets(reports):
        for epsilon in COMPARE_EPSILONS:
            chosen = estimation_mechanism(DifferentialPrivacy(), epsilon, uniform(size)).mechanism
            lifted = estimation_mechanism(DifferentialPrivacy(), epsilon, uniform(size),
                                          report_budget=ReportBudget.unlimited()).mechanism
            subset = max(1, int(np.rint(size / (math.exp(epsilon) + 1))))
            theirs_exact = {label: _fixed_data_variance(oracle, codes) for label, oracle in (
                ("k-RR (DE, GRR)", RandomizedResponse(size, epsilon)),
                ("OUE (both)", OptimizedUnaryEncoding(size, epsilon)),
                ("OLH g = round(e^ε) + 1 (both)", OptimizedLocalHashing(size, epsilon, int(round(math.exp(epsilon))) + 1)),
                (f"SS d = {subset} (multi-freq-ldpy)", SubsetSelection(size, epsilon, subset) if subset < size else None),
                ("HR (pure-ldp, ε ≤ 1)", HadamardResponse(size, epsilon, 2 ** size.bit_length()) if epsilon <= 1 else None),
            ) if oracle is not None}
            best = min(theirs_exact, key=theirs_exact.get)
            ours, ours_lifted = _fixed_data_variance(chosen, codes), _fixed_data_variance(lifted, codes)
            lines.append(f"| {name} | {epsilon:g} | {chosen.name} | {ours:.4e} | {best} | {theirs_exact[best]:.4e} | "
                         f"{ours / theirs_exact[best]:.4f} | {ours_lifted / theirs_exact[best]:.4f} | {load()} |")
            print(lines[-1], flush=True)
    return lines


def clip_and_renormalize(estimate: np.ndarray) -> np.ndarray:
    """multi-freq-ldpy's post-processing (its ``MI``): negative entries to 0, then divided by the sum."""
    clipped = np.maximum(estimate, 0.0)
    return clipped / clipped.sum() if clipped.sum() > 0 else clipped


def _number(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.3e}"


def _fixed_data_variance(oracle, codes: np.ndarray) -> float:
    """``E Σ_x (p̂_x − p_x)²`` for the fixed records ``codes`` (``p`` their frequencies): the records'
    reports are independent, and one record of input ``x'`` contributes ``Σ_x Var(p̂_x)`` of one report
    under the point prior on ``x'`` (``oracle.variances``), divided by ``N²``."""
    counts = np.bincount(codes, minlength=oracle.size)
    total = 0.0
    for symbol in np.flatnonzero(counts):
        point = np.zeros(oracle.size)
        point[symbol] = 1.0
        total += counts[symbol] * float(oracle.variances(point).sum())
    return total / codes.size**2


# ------------------------------------------------------------------------------------------------ scale


SCALE_SCRIPT = """
import sys, time, numpy as np
sys.path.insert(0, {repository!r})
from mechdesign import DifferentialPrivacy
from mechdesign.mechanisms.estimation import estimation_mechanism
size, epsilon, reports = {size}, {epsilon}, {reports}
weights = 1.0 / np.arange(1, size + 1) ** 1.1
inputs = np.random.default_rng(0).choice(size, reports, p=weights / weights.sum())
start = time.perf_counter()
oracle = estimation_mechanism(DifferentialPrivacy(), epsilon, np.full(size, 1 / size)).mechanism
estimate, error = oracle.estimate(oracle.tally(oracle.privatize(inputs)), reports)
seconds = time.perf_counter() - start
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(oracle.name, seconds, peak / 1024)
"""


def scale() -> list[str]:
    lines = ["| case | oracle | design + privatize + estimate (s) | process wall (s) | CPU (s) | peak RSS (MB, VmHWM) "
             "| load |", "|" + "---|" * 7]
    script = SCALE_SCRIPT.format(repository=str(REPOSITORY), size=10_000, epsilon=1.0, reports=10**6)
    before = load()
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    output = process.stdout.read().decode().split()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(process.stderr.read().decode())
    lines.append(f"| k = 10⁴, ε = 1, 10⁶ Zipf records | {output[0]} | {float(output[1]):.2f} | {wall:.2f} | "
                 f"{usage.ru_utime + usage.ru_stime:.2f} | {float(output[2]):.0f} | {before} |")
    print(lines[-1], flush=True)
    lines += ["", "| k | k-RR keep-or-replace: 10⁶ (s) | dense ExactSampler: 10⁶ (s) | load |",
              "|---|---|---|---|"]
    for size in (2, 3, 4, 5, 8, 16, 100, 1000, 10_000):
        inputs = np.random.default_rng(1).integers(0, size, 10**6)
        oracle = RandomizedResponse(size, 1.0)
        start = time.perf_counter()
        oracle.privatize(inputs)
        structured = time.perf_counter() - start
        dense = oracle.matrix  # built outside the timing, as a dense mechanism would hold it
        from mechdesign.mechanism import Mechanism

        mechanism = Mechanism(dense)
        mechanism.sample(inputs[:10])  # the sampling table, built once
        start = time.perf_counter()
        mechanism.sample(inputs)
        lines.append(f"| {size:,} | {structured:.2f} | {time.perf_counter() - start:.2f} | {load()} |")
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--section", choices=("table", "mse", "compare", "exact", "scale"), action="append")
    parser.add_argument("--reports", type=int, default=10**6)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--mse-sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--compare-reports", type=int, default=20_000)
    parser.add_argument("--compare-repetitions", type=int, default=10)
    args = parser.parse_args()
    sections = args.section or ["table", "mse", "compare", "exact", "scale"]
    print(f"# frequency oracles — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load {load()}\n")
    if "table" in sections:
        print("\n".join(variance_table()) + "\n", flush=True)
    if "mse" in sections:
        measured_mse(args.reports, args.repetitions, tuple(args.mse_sizes))
    if "compare" in sections:
        compare(args.compare_reports, args.compare_repetitions)
    if "exact" in sections:
        exact_comparison(args.compare_reports)
    if "scale" in sections:
        scale()


if __name__ == "__main__":
    main()
