"""Privatize and estimate at scale on a Dask local cluster (issue 34 item 4), with the in-memory path beside it.

Sections (``--section``, default both), markdown tables with the 1-minute load average beside every row
(the machine is shared):

* ``check`` — ``--check-rows`` synthetic rows (Zipf over ``--k`` categories) in ``--check-partition-rows``
  partitions, seeded (test mode): the Dask labels against the in-memory ``Privatizer.transform`` of each
  partition with the stream the Dask path gives it (``mechdesign.parallel.partition_generator``), and the
  Dask counts (summed on the workers) against the in-memory estimate's; then, unseeded, privatize +
  estimate of the same rows in memory and through the cluster, alternating, ``--repeats`` times;
* ``jobs`` — ``mechdesign privatize`` and ``mechdesign estimate`` of a CSV file of ``--csv-rows`` synthetic
  rows (an id, the column, a text column) with ``--jobs 1`` and ``--jobs 2``, alternating, ``--repeats``
  times (wall-clock of the command, interpreter start included); first, seeded, the two write the same
  bytes and print the same estimate;
* ``labels`` — the counts ``Privatizer.estimate_frequencies`` takes of 10⁶ labels of an oracle whose outputs
  are listed (k ∈ {4, 16}, ε = ``--epsilon``): by one dictionary lookup per label (``Privatizer._tallies``)
  against label by label (``reports_from_labels``, the way before), alternating, ``--repeats`` times, the
  counts checked equal first;
* ``scale`` — ``--rows`` synthetic rows generated on the workers (``dask.dataframe.from_map``, one
  partition of ``--partition-rows`` at a time; the client never holds them), privatized and estimated in
  one graph: wall-clock, peak resident memory of the client and the workers (the sum of their RSS, sampled
  every 0.2 s; the workers' own peak is bounded by the cluster's ``memory_limit``), the load before and
  after, and the largest ``|p̂_x − p_x| / standard error`` against the generating distribution.

Usage: ``python benchmarks/dask_scale.py [--section check|jobs|labels|scale] [--csv-rows 2000000] [--rows 100000000] [--k 4] [--epsilon 1]
[--partition-rows 1000000] [--check-rows 1000000] [--check-partition-rows 100000] [--workers 2] [--repeats 3]``
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from mechdesign import Privatizer  # noqa: E402
from mechdesign.categorical import as_table  # noqa: E402
from mechdesign.parallel import partition_generator, seed_entropy  # noqa: E402
from mechdesign.randomness import SeededReleaseWarning  # noqa: E402

#: Exponent of the synthetic Zipf distribution over the categories.
ZIPF = 1.1


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def categories(k: int) -> list[str]:
    return [f"c{i}" for i in range(k)]


def zipf(k: int) -> np.ndarray:
    weights = 1.0 / np.arange(1, k + 1) ** ZIPF
    return weights / weights.sum()


def synthetic_partition(number: int, rows: int, k: int):
    """Partition ``number`` of the synthetic data (its own data seed: the data are not private)."""
    import pandas as pd

    rng = np.random.default_rng([20261127, number])
    names = np.asarray(categories(k), dtype=object)
    return pd.Series(names[rng.choice(k, rows, p=zipf(k))], name="x", dtype=object)


class PeakMemory:
    """The largest sum of the resident memory of this process and its children, sampled in a thread."""

    def __init__(self, interval: float = 0.2) -> None:
        import psutil

        self.process, self.interval, self.peak, self._stop = psutil.Process(), interval, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> int:
        total = 0
        for process in [self.process, *self.process.children(recursive=True)]:
            try:
                total += process.memory_info().rss
            except Exception:  # a child that just ended
                pass
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._sample())
            time.sleep(self.interval)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()


def cluster(workers: int):
    import distributed

    local = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                     memory_limit="2GiB", dashboard_address=":0", silence_logs=40)
    return local, distributed.Client(local)


def check(args: argparse.Namespace) -> None:
    import dask.dataframe as dd

    names = categories(args.k)
    privatizer = Privatizer("dp", args.epsilon, categories=names).fit(names)
    parts = args.check_rows // args.check_partition_rows
    data = dd.from_map(synthetic_partition, range(parts), rows=args.check_partition_rows, k=args.k)
    local, client = cluster(args.workers)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SeededReleaseWarning)
            privatizer.set_params(random_state=1)
            private = privatizer.transform(data).persist()
            entropy = seed_entropy(1)
            privatizer.set_params(random_state=None)
            by_dask = privatizer.estimate_frequencies(private)
            labels = private.compute().tolist()
            expected = []
            for number in range(parts):
                privatizer.set_params(random_state=partition_generator(entropy, number))
                expected.extend(privatizer.transform(synthetic_partition(number, args.check_partition_rows, args.k)
                                                     .tolist()).tolist())
            privatizer.set_params(random_state=None)
            in_memory = privatizer.estimate_frequencies(expected)
            counts = privatizer._tallies(as_table(expected, "X_private"))[0][0]
        del private
        same_labels = labels == expected
        same_estimate = all(np.array_equal(getattr(by_dask, name), getattr(in_memory, name))
                            for name in ("estimate", "standard_error", "projected"))
        print(f"\n### Same randomness: {args.check_rows:,} rows, {parts} partitions, k = {args.k}, ε = {args.epsilon} "
              f"({privatizer.mechanism_.name}), load {load()}\n")
        print(f"- labels identical to the in-memory path, partition by partition: {same_labels}")
        print(f"- estimate (from the counts summed on the workers) identical to the in-memory one: {same_estimate}; "
              f"in-memory counts {counts.tolist() if counts.size <= 16 else f'({counts.size} counts)'}, "
              f"{by_dask.n_samples:,} rows")
        print(f"\n| path | privatize + estimate, {args.check_rows:,} rows (s) | load |\n|---|---:|---:|")
        rows = [synthetic_partition(number, args.check_partition_rows, args.k) for number in range(parts)]
        column = np.concatenate([part.to_numpy(dtype=object) for part in rows])
        for _ in range(args.repeats):
            start = time.perf_counter()
            privatizer.estimate_frequencies(privatizer.transform(column))
            print(f"| in memory (numpy column, one process) | {time.perf_counter() - start:.2f} | {load()} |")
            start = time.perf_counter()
            privatizer.estimate_frequencies(privatizer.transform(data))
            print(f"| Dask local cluster, {args.workers} worker processes (data generated on the workers) | "
                  f"{time.perf_counter() - start:.2f} | {load()} |")
    finally:
        client.close()
        local.close()


def cli(*argv: object, cwd: Path) -> tuple[float, str]:
    """Wall-clock seconds and standard output of one ``mechdesign`` command."""
    import subprocess

    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mechdesign.cli", *map(str, argv), "--quiet"], cwd=cwd,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"mechdesign {' '.join(map(str, argv))} exited {done.returncode}: {done.stderr}")
    return time.perf_counter() - start, done.stdout


def jobs(args: argparse.Namespace) -> None:
    import hashlib
    import tempfile

    names = categories(args.k)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        rng = np.random.default_rng(0)
        codes = rng.choice(args.k, args.csv_rows, p=zipf(args.k))
        with open(work / "data.csv", "w") as handle:
            handle.write("id,x,note\n")
            handle.writelines(f"{i},{names[code]},row {i}\n" for i, code in enumerate(codes.tolist()))
        design = ["--epsilon", args.epsilon, "--categories", ",".join(names)]
        seeded = {}
        for count in (1, 2):
            cli("privatize", "data.csv", "--column", "x", *design, "--out", f"s{count}.csv", "--seed", 3, "--jobs",
                count, cwd=work)
            printed = cli("estimate", f"s{count}.csv", "--column", "x", "--mechanism", f"s{count}.mechanism.json",
                          "--json", "--jobs", count, cwd=work)[1]
            seeded[count] = (hashlib.sha256((work / f"s{count}.csv").read_bytes()).hexdigest(), printed)
        size = (work / "data.csv").stat().st_size
        print(f"\n### --jobs: {args.csv_rows:,} rows ({size / 2**20:.0f} MB), k = {args.k}, ε = {args.epsilon}\n")
        print(f"- seeded, --jobs 1 and --jobs 2 write the same bytes and print the same estimate: "
              f"{seeded[1] == seeded[2]}")
        print("\n| command | --jobs | wall (s) | load |\n|---|---:|---:|---:|")
        for _ in range(args.repeats):
            for count in (1, 2):
                elapsed = cli("privatize", "data.csv", "--column", "x", *design, "--out", f"o{count}.csv", "--jobs",
                              count, cwd=work)[0]
                print(f"| privatize | {count} | {elapsed:.2f} | {load()} |")
                elapsed = cli("estimate", f"o{count}.csv", "--column", "x", "--mechanism", f"o{count}.mechanism.json",
                              "--jobs", count, cwd=work)[0]
                print(f"| estimate | {count} | {elapsed:.2f} | {load()} |")


def labels(args: argparse.Namespace) -> None:
    print(f"\n### Counting listed labels, 10⁶ labels, ε = {args.epsilon}\n")
    print("| k | oracle | label by label (s) | by lookup (s) | load |\n|---:|---|---:|---:|---:|")
    for k in (4, 16):
        names = categories(k)
        privatizer = Privatizer("dp", args.epsilon, categories=names).fit(names)
        oracle = privatizer.mechanism_
        private = privatizer.transform(np.asarray(names, dtype=object)[np.random.default_rng(0).integers(0, k, 10**6)])
        table = as_table(private, "X_private")

        def by_label():
            return oracle.tally(oracle.reports_from_labels(private, tuple(names), "X_private"))

        assert np.array_equal(by_label(), privatizer._tallies(table)[0][0])
        for _ in range(args.repeats):
            start = time.perf_counter()
            by_label()
            baseline = time.perf_counter() - start
            start = time.perf_counter()
            privatizer._tallies(table)
            print(f"| {k} | {oracle.name} | {baseline:.2f} | {time.perf_counter() - start:.2f} | {load()} |")


def scale(args: argparse.Namespace) -> None:
    import dask.dataframe as dd

    names = categories(args.k)
    privatizer = Privatizer("dp", args.epsilon, categories=names).fit(names)
    parts = args.rows // args.partition_rows
    data = dd.from_map(synthetic_partition, range(parts), rows=args.partition_rows, k=args.k)
    before = load()
    with PeakMemory() as memory:
        local, client = cluster(args.workers)
        try:
            start = time.perf_counter()
            estimate = privatizer.estimate_frequencies(privatizer.transform(data))
            elapsed = time.perf_counter() - start
        finally:
            client.close()
            local.close()
    z = np.abs(estimate.estimate - zipf(args.k)) / estimate.standard_error
    print(f"\n### Scale: {args.rows:,} rows, k = {args.k}, ε = {args.epsilon} ({privatizer.mechanism_.name}), "
          f"{parts} partitions of {args.partition_rows:,}, {args.workers} worker processes (memory_limit 2 GiB each)\n")
    print("| rows | privatize + estimate (s) | rows / s | peak RSS, client + workers (MB) | max abs z | load before | "
          "load after |\n|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {estimate.n_samples:,} | {elapsed:.1f} | {estimate.n_samples / elapsed:,.0f} | {memory.peak / 2**20:,.0f} | "
          f"{z.max():.2f} | {before} | {load()} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--section", choices=["check", "jobs", "labels", "scale"])
    parser.add_argument("--csv-rows", type=int, default=2 * 10**6)
    parser.add_argument("--rows", type=int, default=10**8)
    parser.add_argument("--check-rows", type=int, default=10**6)
    parser.add_argument("--partition-rows", type=int, default=10**6)
    parser.add_argument("--check-partition-rows", type=int, default=10**5)
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"python {' '.join(sys.argv)}  (2 cores shared with other jobs; load = 1-minute load average)")
    if args.section in (None, "check"):
        check(args)
    if args.section in (None, "jobs"):
        jobs(args)
    if args.section in (None, "labels"):
        labels(args)
    if args.section in (None, "scale"):
        scale(args)


if __name__ == "__main__":
    main()
