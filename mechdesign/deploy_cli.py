"""The deployment commands of ``mechdesign``: privatize a CSV column, estimate its frequencies, account.

``mechdesign privatize`` and ``mechdesign estimate`` stream the CSV in chunks of
:data:`~mechdesign.csv_columns.CHUNK_BYTES` (:class:`~mechdesign.csv_columns.CsvColumn`), so memory does not grow with the number of rows: numpy finds the column in
every record, each value is encoded by one dictionary lookup, and a chunk is privatized at once by
:meth:`Mechanism.sample <mechdesign.mechanism.Mechanism.sample>` (or a frequency oracle's reports),
drawing from the operating system's entropy unless ``--seed`` is given (for tests; a notice says so).

The mechanism is read from a file written by ``mechdesign design --out`` (``--mechanism``) or
designed from declared categories and a public prior (:class:`~mechdesign.privatizer.Privatizer`),
never from the data being privatized, unless the user pays for a private estimate of the prior
from the budget (``--prior private --prior-budget E1``) or opts in to ``--categories infer``.

Every output is first written to a temporary file beside its target and then replaced
(:func:`~mechdesign.files.atomic_output`). ``privatize`` writes two files: the mechanism file, with
the row count and the SHA-256 of the privatized CSV under ``deployment.release``, and the CSV. Both
are replaced together — the mechanism file first, then the CSV — while the directory of ``--out``
is locked (concurrent runs to the same ``--out`` replace their pairs one after the other) and
SIGINT/SIGTERM are held back. What a reader can rely on: a file under its final name is complete
(an interrupted run leaves the previous files, or none); after the runs have ended, the CSV under
``--out`` was written with the mechanism file beside it, and ``release.sha256`` checks it.

Examples
--------
``mechdesign design --notion dp --epsilon 1 --categories a,b,c --out m.json``
``mechdesign privatize data.csv --column education --mechanism m.json --out private.csv``
``mechdesign privatize data.csv --column education --categories-from public.csv --epsilon 1 --out private.csv``
``mechdesign estimate private.csv --column education --mechanism private.mechanism.json``
``mechdesign account private.mechanism.json:2 other.mechanism.json --delta 1e-6,1e-9``
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import io
import os
import re
import signal
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ._validate import as_budget, as_failure_probability, as_positive_int
from .exceptions import MechDesignError, NotEstimableError, UnknownCategoryError
from .csv_columns import (
    Chunk,
    CsvColumn,
    CsvLabels,
    LinesChunk,
    ValueCheck,
    label_lookup,
    output_text,
    split_report,
)
from .progress import Progress, terminal_progress
from .registry import prior_notions

#: Default δ of ``mechdesign account``.
ACCOUNT_DELTAS = (1e-6, 1e-9)


def column_values(path: Path, column: str, option: str, progress: Progress | None = None, *,
                  known: Any = None, canonical: bool = False) -> list[str]:
    """Every value of ``column`` in a CSV file; a missing value, or one not in ``known``, is an error.

    Parameters
    ----------
    path, column
        The file and the column's name.
    option
        The option that named the file, for messages.
    progress
        Told the bytes read.
    known
        The values allowed (a set or dict), or ``None``: any value that is not blank.
    canonical
        Hold one string object per distinct value (8 bytes per row instead of a string per row).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "public.csv"
    ...     _ = path.write_text("edu\\nb\\na\\nb\\n")
    ...     column_values(path, "edu", "--categories-from")
    ['b', 'a', 'b']
    """
    values: list[str] = []
    check, shared = ValueCheck(known), {}
    with CsvColumn(path, column, option) as data:
        for chunk in data.chunks(progress, f"reading {option}"):
            found = chunk.texts
            if not all(value.strip() for value in found) if known is None else not all(map(known.__contains__, found)):
                check.add(found, chunk.first)
            values.extend([shared.setdefault(value, value) for value in found] if canonical else found)
        if check:
            raise check.error(data, "value" if known is None else "declared category",
                              "declare every value the column may hold")
    return values


def _notice(message: str) -> None:
    """Print one ``mechdesign: notice: …`` line on standard error (the command goes on)."""
    print(f"mechdesign: notice: {message}", file=sys.stderr)


def _column_of(args: argparse.Namespace, option: str) -> str:
    if getattr(args, "column", None) is None:
        raise MechDesignError(f"{option} needs --column: the column of the file to read")
    return args.column


# --- categories and priors of the command line ---------------------------------------------------


def parse_categories(text: str) -> list[str]:
    """The declared categories of ``--categories a,b,c`` (distinct, none blank).

    Examples
    --------
    >>> parse_categories("HS-grad,Bachelors,Masters")
    ['HS-grad', 'Bachelors', 'Masters']
    >>> parse_categories("a,,b")
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: --categories must be distinct, non-blank names separated by commas, got 'a,,b'
    """
    names = text.split(",")
    if not all(name.strip() for name in names) or len(set(names)) < len(names):
        raise MechDesignError(f"--categories must be distinct, non-blank names separated by commas, got {text!r}")
    return names


def declared_categories(args: argparse.Namespace, progress: Progress | None = None) -> list[str] | None:
    """The categories of ``--categories a,b,c`` or of ``--categories-from FILE --column C`` (its distinct
    values, sorted), or ``None`` when neither is given.

    Examples
    --------
    >>> declared_categories(argparse.Namespace(categories="b,a", categories_from=None))
    ['b', 'a']
    """
    if args.categories is not None and args.categories_from is not None:
        raise MechDesignError("give the categories once: --categories or --categories-from, not both")
    if args.categories_from is not None:
        return sorted(set(column_values(Path(args.categories_from), _column_of(args, "--categories-from"),
                                        "--categories-from", progress)))
    return None if args.categories is None else parse_categories(args.categories)


def prior_counts(path: Path, column: str, categories: Sequence[str], progress: Progress | None = None) -> np.ndarray:
    """How often each category occurs in ``column`` of a public CSV file (``--prior-from``); a value that
    is not a category, or missing, is an error.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "public.csv"
    ...     _ = path.write_text("edu\\nb\\na\\nb\\n")
    ...     prior_counts(path, "edu", ["a", "b", "c"]).tolist()
    [1, 2, 0]
    """
    labels = CsvLabels(categories, "--categories")
    counts = np.zeros(len(categories), dtype=np.int64)
    check = ValueCheck(labels.lookup)
    with CsvColumn(path, column, "--prior-from") as data:
        for chunk in data.chunks(progress, "reading --prior-from"):
            codes = chunk.codes(labels)
            if codes is None:
                check.add(chunk.texts, chunk.first)
            else:
                counts += np.bincount(codes, minlength=len(categories))
        if check:
            raise check.error(data, "declared category", "the prior's sample may only hold declared categories")
    return counts


def parse_prior(text: str, categories: Sequence[Any] | None) -> Any:
    """The public prior of ``--prior P1,P2,...``: one probability per declared category (if any).

    Examples
    --------
    >>> parse_prior("0.25,0.75", ["a", "b"])
    Prior([0.25 0.75])
    >>> parse_prior("0.5,0.5", ["a", "b", "c"])
    Traceback (most recent call last):
    mechdesign.exceptions.ShapeMismatchError: --prior has 2 entries (one per category), expected 3
    """
    from ._validate import check_count
    from .command_line import _parse_prior

    prior = _parse_prior(text, None)
    if categories is not None:
        check_count(prior.size, len(categories), "--prior", "entries (one per category)")
    return prior


def counts_prior(counts: np.ndarray, path: str, column: str) -> Any:
    """The prior of ``--prior-from``: the counts normalized, and a notice on standard error saying so.

    Examples
    --------
    >>> from contextlib import redirect_stderr
    >>> with redirect_stderr(io.StringIO()) as printed:
    ...     prior = counts_prior(np.array([1, 3]), "public.csv", "edu")
    >>> prior, printed.getvalue()
    (Prior([0.25 0.75]), "mechdesign: notice: prior: the frequencies of 'edu' in public.csv (4 rows), normalized\\n")
    """
    from .priors import Prior

    total = int(counts.sum())
    if total == 0:
        raise MechDesignError(f"--prior-from: column {column!r} of {path} has no rows to estimate a prior from")
    _notice(f"prior: the frequencies of {column!r} in {path} ({total:,} rows), normalized")
    return Prior(counts / total)


def design_inputs(args: argparse.Namespace) -> tuple[list[str] | None, Any, str]:
    """The alphabet of ``mechdesign design``: its categories (or ``None``: indices), prior and the prior's source.

    ``--categories``/``--categories-from`` name the inputs; the prior is ``--prior``, ``--prior-from
    FILE --column C`` (its frequencies over the categories; without declared categories, the file's
    distinct values are the categories), uniform over ``--n`` symbols, or uniform over the categories.

    Examples
    --------
    >>> args = argparse.Namespace(categories="a,b", categories_from=None, prior=None, prior_from=None, n=None)
    >>> design_inputs(args)
    (['a', 'b'], Prior([0.5 0.5]), 'uniform')
    """
    from ._validate import as_positive_int, check_count
    from .priors import Prior

    if args.categories == "infer":
        raise MechDesignError("design has no data to infer categories from: declare them with --categories or "
                              "--categories-from")
    categories = declared_categories(args)
    if args.prior is not None and args.prior_from is not None:
        raise MechDesignError("give the prior once: --prior or --prior-from, not both")
    if args.prior_from is not None:
        column = _column_of(args, "--prior-from")
        if categories is None:
            categories = sorted(set(column_values(Path(args.prior_from), column, "--prior-from")))
        prior, source = counts_prior(prior_counts(Path(args.prior_from), column, categories), args.prior_from,
                                     column), "public-sample"
    elif args.prior is not None:
        prior, source = parse_prior(args.prior, categories), "public"
    elif args.n is not None or categories is not None:
        size = as_positive_int(args.n, "--n") if args.n is not None else len(categories or ())
        prior, source = Prior.uniform(size), "uniform"
    else:
        raise MechDesignError("design needs the input alphabet: pass --prior P1,P2,..., --n N (uniform prior), "
                              "--categories a,b,c or --categories-from FILE --column C")
    if categories is not None and args.n is not None:
        check_count(as_positive_int(args.n, "--n"), len(categories), "--n", "symbols (one per category)")
    return categories, prior, source


# --- privatize ---------------------------------------------------------------------------------


class OutputColumn:
    """How the outputs of a mechanism file are written to a CSV column and counted back from it.

    By index among the file's output labels (:class:`CsvLabels`), or, for a frequency oracle whose
    outputs are too many to list (the file's ``outputs`` is null), report by report: its
    :meth:`~mechdesign.mechanisms.oracles.FrequencyOracle.labels` written by :func:`output_text`, and read
    back by :func:`split_report` and ``reports_from_labels``. Counts are the oracle's additive
    ``tally``, or for any other mechanism the number of times each output occurs.

    Parameters
    ----------
    record
        The mechanism file's :class:`~mechdesign.files.MechanismRecord` (inputs and outputs without labels
        are labelled by their indices).
    source
        Where it was read from, for errors.

    Examples
    --------
    >>> from mechdesign.files import MechanismRecord
    >>> from mechdesign.mechanisms import SubsetSelection
    >>> oracle, categories = SubsetSelection(3, 1.0, 2), ["a", "b", "c"]
    >>> listed = OutputColumn(MechanismRecord(oracle, categories, oracle.output_labels(categories)), "m.json")
    >>> listed.listed.plain.tolist()
    ['{a|b}', '{a|c}', '{b|c}']
    >>> chunk = Chunk(1, [["{a|c}"], ["{b|c}"]], 0)
    >>> listed.tally(chunk).tolist()  # how many reports hold a, b, c
    [1, 1, 2]
    >>> unlisted = OutputColumn(MechanismRecord(oracle, categories), "m.json")  # outputs: null
    >>> unlisted.listed is None, unlisted.tally(chunk).tolist()
    (True, [1, 1, 2])
    """

    def __init__(self, record: Any, source: str) -> None:
        from .mechanisms.oracles import FrequencyOracle

        self.mechanism, self.source = record.mechanism, source
        self.inputs = tuple(range(self.mechanism.n_inputs)) if record.inputs is None else record.inputs
        self.oracle = self.mechanism if isinstance(self.mechanism, FrequencyOracle) else None
        if self.oracle is not None and record.outputs is None:
            self.listed = None
        else:  # labelled by index if the file has no labels
            outputs = range(self.mechanism.n_outputs) if record.outputs is None else record.outputs
            self.listed = CsvLabels(outputs, f"{source}: outputs", output_text)
        self._categories = {str(category): category for category in self.inputs}

    def privatized(self, chunk: Chunk | LinesChunk, codes: np.ndarray, generator: np.random.Generator | None) -> bytes:
        """``chunk`` with the column's categories (``codes``) replaced by the mechanism's outputs."""
        if self.listed is not None:
            return chunk.replaced(self.listed, self.mechanism.sample(codes, generator))
        reports = self.oracle.labels(self.oracle.privatize(codes, generator), self.inputs).tolist()
        distinct = list(dict.fromkeys(reports))
        index = {label: position for position, label in enumerate(distinct)}
        return chunk.replaced(CsvLabels(distinct, f"{self.source}: reports", output_text),
                              np.fromiter(map(index.__getitem__, reports), dtype=np.intp, count=len(reports)))

    def zero(self) -> np.ndarray:
        """The counts of no output."""
        return np.zeros(self.oracle.tally_size if self.oracle is not None else self.mechanism.n_outputs, dtype=np.int64)

    def tally(self, chunk: Chunk | LinesChunk) -> np.ndarray | None:
        """The counts of ``chunk``'s outputs, or ``None`` when a listed mechanism has no such output."""
        if self.listed is None:
            return self.oracle.tally(self._reports(chunk))
        codes = chunk.codes(self.listed)
        if codes is None:
            return None
        if self.oracle is not None:
            return self.oracle.tally(self.oracle.index_reports(codes))
        return np.bincount(codes, minlength=self.mechanism.n_outputs)

    def estimate(self, counts: np.ndarray, total: int) -> Any:
        """The frequencies of the inputs from the counts of ``total`` outputs."""
        from .frequency import estimate_from_tally

        if total == 0:
            raise MechDesignError("no privatized values to estimate frequencies from: the column has no data rows")
        if self.oracle is not None:
            return estimate_from_tally(counts, total, self.oracle, self.inputs)
        return frequency_estimate(counts, self.mechanism, self.inputs, self.source)

    def _reports(self, chunk: Chunk | LinesChunk) -> np.ndarray:
        """The reports of an unlisted oracle's labels in ``chunk`` (a label no report has: a named error)."""
        from .mechanisms.oracles import HadamardResponse, RandomizedResponse

        labels = []
        for offset, text in enumerate(chunk.texts):
            value = split_report(text)
            try:
                if isinstance(value, tuple):
                    value = tuple(self._categories[part] for part in value)
                elif isinstance(self.oracle, RandomizedResponse):
                    value = self._categories[value]
                elif isinstance(self.oracle, HadamardResponse):
                    value = int(value) if value.isdigit() else value
            except KeyError:
                raise UnknownCategoryError(f"data row {chunk.first + offset}: {text!r} is not a report of the "
                                           f"mechanism of {self.source} (it names a value that is not a category)"
                                           ) from None
            labels.append(value)
        try:
            return self.oracle.reports_from_labels(labels, self.inputs, "values")
        except MechDesignError as exc:
            raise type(exc)(f"data rows {chunk.first}–{chunk.first + chunk.count - 1}: {exc} (values[i] is data row "
                            f"{chunk.first} + i)") from exc


@contextmanager
def replaced_together(directory: Path) -> Iterator[None]:
    """Hold the lock of ``directory``, with SIGINT and SIGTERM held back, while files are replaced in it.

    Concurrent runs writing the same files replace them one run at a time; a signal arriving meanwhile
    takes effect when the block ends (an interrupted run has then replaced all of its files).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder, replaced_together(Path(folder)):
    ...     print("both files are replaced here")
    both files are replaced here
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def release_entropy(seed: int | None) -> list[int] | None:
    """What a release's chunks draw from: ``None``, the operating system's entropy (each chunk where it is
    privatized), or with ``--seed`` the entropy the chunks' streams are spawned from — chunk ``i`` of the file
    draws from the ``i``-th (:func:`~mechdesign.parallel.partition_generator`), so a seeded release is the same
    for every ``--jobs`` — and :data:`~mechdesign.randomness.SEEDED_NOTICE` on standard error.

    Examples
    --------
    >>> release_entropy(None) is None
    True
    """
    from .parallel import seed_entropy
    from .randomness import SEEDED_NOTICE, SeededReleaseWarning

    if seed is None:
        return None
    entropy = _quietly(SeededReleaseWarning, seed_entropy, seed, "--seed")
    print(SEEDED_NOTICE, file=sys.stderr)
    return entropy


class ChunkWork:
    """What privatizing or counting one chunk of a column needs, sent once to every worker process of ``--jobs``.

    Parameters
    ----------
    record
        The mechanism file's :class:`~mechdesign.files.MechanismRecord`.
    source
        Where it was read from, for errors.
    entropy
        :func:`release_entropy`'s: ``None`` (the operating system's entropy) or a seeded release's.

    Examples
    --------
    >>> from mechdesign.files import MechanismRecord
    >>> from mechdesign import randomized_response
    >>> work = ChunkWork(MechanismRecord(randomized_response(2, 50.0), ["a", "b"], ["a", "b"]), "m.json")
    >>> chunk = Chunk(1, [["a"], ["b"], ["c"]], 0)
    >>> work.privatized(chunk, 0) is None, work.tally(Chunk(1, [["a"], ["b"], ["b"]], 0), 0).tolist()
    (True, [1, 2])
    """

    def __init__(self, record: Any, source: str, entropy: list[int] | None = None) -> None:
        self.record, self.source, self.entropy = record, source, entropy

    def __getstate__(self) -> dict[str, Any]:
        """The record, source and entropy only (a worker builds the labels itself): a small pickle, written to
        a starting worker without waiting for it."""
        return {"record": self.record, "source": self.source, "entropy": self.entropy}

    @cached_property
    def outputs(self) -> OutputColumn:
        """How the outputs are written and counted (built where the work runs)."""
        return OutputColumn(self.record, self.source)

    @cached_property
    def categories(self) -> CsvLabels:
        """The mechanism's categories as CSV fields."""
        return CsvLabels(self.outputs.inputs, f"{self.source}: categories")

    def privatized(self, chunk: Chunk | LinesChunk, number: int) -> bytes | None:
        """Chunk ``number`` of the file with its column privatized, or ``None`` if a value is not a category."""
        from .parallel import partition_generator

        codes = chunk.codes(self.categories)
        if codes is None:
            return None
        generator = None if self.entropy is None else partition_generator(self.entropy, number)
        return self.outputs.privatized(chunk, codes, generator)

    def tally(self, chunk: Chunk | LinesChunk, number: int) -> np.ndarray | None:
        """The counts of the chunk's outputs, or ``None`` when a listed mechanism has no such output."""
        return self.outputs.tally(chunk)


#: Chunks read ahead per worker process of ``--jobs`` (bounds the memory held: a few chunks per worker).
CHUNKS_IN_FLIGHT = 2
_WORKER: ChunkWork | None = None


def chunk_results(chunks: Iterator[Chunk | LinesChunk], work: ChunkWork, task: str, jobs: int,
                  skip: Any = lambda: False) -> Iterator[tuple[Chunk | LinesChunk, Any]]:
    """Every chunk with ``work.<task>(chunk, number)``, in the order of the file: in this process for ``jobs``
    1, else in ``jobs`` worker processes (started by ``spawn``, with Ctrl-C ignored: the command handles it and
    ends the pool, no worker prints a traceback), at most :data:`CHUNKS_IN_FLIGHT` chunks per worker read
    ahead. A chunk read while ``skip()`` is true is not sent (its result is ``None``).

    Examples
    --------
    >>> from mechdesign.files import MechanismRecord
    >>> from mechdesign import randomized_response
    >>> work = ChunkWork(MechanismRecord(randomized_response(2, 1.0), ["a", "b"], ["a", "b"]), "m.json")
    >>> chunks = [Chunk(1, [["a"], ["b"]], 0), Chunk(3, [["b"]], 0)]
    >>> [result.tolist() for _, result in chunk_results(iter(chunks), work, "tally", 1)]
    [[1, 1], [0, 1]]
    """
    if jobs == 1:
        for number, chunk in enumerate(chunks):
            yield chunk, None if skip() else getattr(work, task)(chunk, number)
        return
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
                             initargs=(work,)) as pool:
        pending: deque = deque()
        for number, chunk in enumerate(chunks):
            if skip():
                future = None
            elif number < jobs:  # may start a worker, which inherits Ctrl-C ignored (for the few ms of its start)
                held = signal.signal(signal.SIGINT, signal.SIG_IGN)
                try:
                    future = pool.submit(_in_worker, task, chunk, number)
                finally:
                    signal.signal(signal.SIGINT, held)
            else:
                future = pool.submit(_in_worker, task, chunk, number)
            pending.append((chunk, future))
            while len(pending) > CHUNKS_IN_FLIGHT * jobs:
                first, future = pending.popleft()
                yield first, None if future is None else future.result()
        while pending:
            first, future = pending.popleft()
            yield first, None if future is None else future.result()


def _start_worker(work: ChunkWork) -> None:
    global _WORKER
    _WORKER = work


def _in_worker(task: str, chunk: Chunk | LinesChunk, number: int) -> Any:
    return getattr(_WORKER, task)(chunk, number)


def _quietly(category: type[Warning], function: Any, *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)`` with warnings of ``category`` ignored (the command line prints its own notice)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category)
        return function(*args, **kwargs)


def _write_release(data: CsvColumn, record: Any, entropy: list[int] | None, out: Path, mechanism_out: Path,
                   progress: Progress | None = None, jobs: int = 1) -> dict[str, Any]:
    """Privatize ``data``'s column with ``record``'s mechanism into ``out``, and the record into ``mechanism_out``.

    Both are written to temporary files and replaced together (:func:`replaced_together`), the
    mechanism file first; its ``deployment["release"]`` holds the CSV's name, column, row count and
    SHA-256. A value that is not a category of the record, or missing, is an error after the whole
    file is read, and nothing is written. The chunks are privatized by ``jobs`` processes
    (:func:`chunk_results`) and written in the order of the file.

    Returns
    -------
    dict
        The release: ``{"file", "column", "rows", "sha256"}``.
    """
    from .files import atomic_output, save

    work = ChunkWork(record, "the mechanism", entropy)
    check, digest = ValueCheck(work.categories.lookup), hashlib.sha256()
    with ExitStack() as replacing:
        with atomic_output(out, "wb") as handle:

            def write(encoded: bytes) -> None:
                handle.write(encoded)
                digest.update(encoded)

            write(data.header_line)
            for chunk, privatized in chunk_results(data.chunks(progress, "privatize"), work, "privatized", jobs,
                                                   skip=check.__bool__):
                if privatized is None:  # from here on only the values are checked, and the error lists them all
                    check.add(chunk.texts, chunk.first)
                elif not check:
                    write(privatized)
            if check:
                raise check.error(data, "category of the mechanism",
                                  "declare every value the column may hold; nothing was written")
            release = {"file": out.name, "column": data.column, "rows": data.rows_done, "sha256": digest.hexdigest()}
            replacing.enter_context(replaced_together(out.parent))
            save(replace(record, deployment={**(record.deployment or {}), "release": release}), mechanism_out)
    return release


#: Python keywords that :class:`~mechdesign.privatizer.Privatizer` names in its messages and the
#: command-line options that set them (messages shown by the command line name the options).
OPTIONS_OF_KEYWORDS = {"prior_sample": "--prior-from", "prior_budget": "--prior-budget",
                       "robust_delta": "--robust-delta", "random_state": "--seed", "categories": "--categories",
                       "objective": "--objective", "notion": "--notion", "prior": "--prior", "budget": "--epsilon"}


def in_options(text: str) -> str:
    """``text`` with the Privatizer's keywords replaced by the command-line options that set them.

    ``keyword=value`` becomes ``--option value``; a bare keyword becomes the option only for the
    keywords that are not English words (``prior_budget``, ``prior_sample``, …).

    Examples
    --------
    >>> in_options("prior_budget is spent only with prior='private', got prior=None")
    '--prior-budget is spent only with --prior private, got --prior None'
    """
    def option(match: re.Match[str]) -> str:
        return f"{OPTIONS_OF_KEYWORDS[match.group(1)]} {match.group(3)}"

    keywords = "|".join(sorted(OPTIONS_OF_KEYWORDS, key=len, reverse=True))
    text = re.sub(rf"\b({keywords})=(['\"]?)([^'\",;)\s]*)\2", option, text)
    return re.sub(r"\b(prior_sample|prior_budget|robust_delta|random_state)\b",
                  lambda match: OPTIONS_OF_KEYWORDS[match.group(1)], text)


def _designed_record(args: argparse.Namespace, progress: Progress | None = None) -> Any:
    """The mechanism record of ``privatize`` without ``--mechanism``: designed from the declared categories
    and a public prior (or the paid private prior, or with ``--categories infer`` the data's categories)
    by :class:`~mechdesign.privatizer.Privatizer`."""
    from .files import record_from_result
    from .privatizer import DataDependentDesignWarning, Privatizer
    from .randomness import SeededReleaseWarning

    if args.epsilon is None:
        raise MechDesignError("privatize needs --epsilon (the budget of the mechanism it designs), or --mechanism "
                              "FILE (a mechanism designed by `mechdesign design --out FILE`)")
    epsilon = as_budget(args.epsilon, "--epsilon", infinite=True)
    infer = args.categories == "infer"
    if infer and args.categories_from is not None:
        raise MechDesignError("give the categories once: --categories infer or --categories-from, not both")
    categories = None if infer else declared_categories(args, progress)
    if categories is None and not infer:
        raise MechDesignError(
            "privatize needs the categories the column may hold, which the mechanism file publishes instead of the "
            "data: --categories a,b,c or --categories-from PUBLIC.csv; or --categories infer to read them from the "
            "data (the mechanism then reveals which values occur), or --mechanism FILE")
    private = args.prior == "private"
    if args.prior_budget is not None and not private:
        raise MechDesignError("--prior-budget is spent only with --prior private")
    if private:
        if args.prior_budget is None:
            raise MechDesignError("--prior private needs --prior-budget E1: the part of --epsilon spent on estimating "
                                  "the prior")
        first = as_budget(args.prior_budget, "--prior-budget")
        if not 0 < first < epsilon:
            raise MechDesignError(f"--prior-budget must satisfy 0 < --prior-budget < --epsilon = {epsilon!r}, got "
                                  f"{first!r}")
    if args.prior is not None and args.prior_from is not None:
        raise MechDesignError("give the prior once: --prior or --prior-from, not both")
    for option, path, instead in (("--categories-from", args.categories_from, "--categories infer"),
                                  ("--prior-from", args.prior_from, "--prior private --prior-budget E1")):
        if path is not None and _same_file(Path(path), Path(args.file)):
            raise MechDesignError(f"{option} reads a public file, not the data privatized ({args.file}): to read the "
                                  f"data, use {instead}, which says what that costs")
    if args.robust_delta is not None:
        as_failure_probability(args.robust_delta, "--robust-delta")
        if args.prior_from is None or (args.notion or "dp") != "pml":
            raise MechDesignError("--robust-delta designs for the ℓ1-ball around the frequencies of a public sample "
                                  "under --notion pml: pass --notion pml and --prior-from PUBLIC.csv")
    prior: Any = None
    if args.prior is not None and not private:
        if categories is None:
            raise MechDesignError("--prior gives one probability per declared category: it needs --categories or "
                                  "--categories-from, not --categories infer")
        prior = parse_prior(args.prior, categories)
    sample = None
    if args.prior_from is not None:
        if categories is None:
            raise MechDesignError("--prior-from counts the declared categories: it needs --categories or "
                                  "--categories-from, not --categories infer")
        sample = column_values(Path(args.prior_from), args.column, "--prior-from", progress,
                               known=label_lookup(categories, "--categories"))
        _notice(f"prior: the frequencies of {args.column!r} in {args.prior_from} ({len(sample):,} rows), normalized")
    data = _data_for_fit(args, categories if not infer else None, private or infer, progress)
    privatizer = Privatizer(args.notion or "dp", epsilon, objective=args.objective or "estimation",
                            categories="infer" if infer else categories, prior="private" if private else prior,
                            prior_budget=args.prior_budget if private else None, robust_delta=args.robust_delta,
                            random_state=args.seed)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataDependentDesignWarning)
            warnings.simplefilter("ignore", SeededReleaseWarning)
            privatizer.fit(data, prior_sample=sample)
    except MechDesignError as exc:
        raise type(exc)(in_options(str(exc))) from exc
    for warning in caught:
        if issubclass(warning.category, DataDependentDesignWarning):
            print(f"mechdesign: warning: {in_options(str(warning.message))}", file=sys.stderr)
    result = privatizer.result_
    notion = privatizer.notion_
    record = record_from_result(result, inputs=tuple(privatizer.categories_[0].tolist()),
                                outputs=privatizer.output_labels_, prior=privatizer.prior_,
                                prior_source=privatizer.mode_, objective=args.objective or "estimation",
                                notion_names={notion.label: args.notion or "dp"})
    ledger = privatizer.ledger_.to_dict()
    ledger["entries"] = [{**entry, "name": _column_entry(entry["name"], args.column)} for entry in ledger["entries"]]
    return replace(record, deployment={"mode": privatizer.mode_, "guarantee": in_options(privatizer.guarantee_),
                                       "ledger": ledger})


def _column_entry(name: str, column: str) -> str:
    """A ledger entry's name with the Privatizer's name of the one column (``x0``) replaced by the CSV's."""
    return column + name[2:] if name.startswith("x0:") else name


def _same_file(first: Path, second: Path) -> bool:
    return first.resolve() == second.resolve() or first.exists() and second.exists() and os.path.samefile(first, second)


def _data_for_fit(args: argparse.Namespace, categories: list[str] | None, read: bool,
                  progress: Progress | None) -> list[str]:
    """What ``Privatizer.fit`` needs of the data: nothing but the declared categories unless ``read``
    (the paid private prior: every value; ``--categories infer``: the distinct values)."""
    if not read:
        return list(categories or ())  # the design depends only on the categories and the public prior
    known = None if categories is None else label_lookup(categories, "--categories")
    values = column_values(Path(args.file), args.column, "FILE", progress, known=known, canonical=True)
    if args.prior != "private":
        return sorted(set(values))
    return values


def _loaded_record(args: argparse.Namespace) -> Any:
    """The mechanism record of ``--mechanism FILE`` (no design option may be given beside it)."""
    from .files import load_record

    given = [option for option, value in (
        ("--epsilon", args.epsilon), ("--notion", args.notion), ("--objective", args.objective),
        ("--categories", args.categories), ("--categories-from", args.categories_from), ("--prior", args.prior),
        ("--prior-from", args.prior_from), ("--prior-budget", args.prior_budget),
        ("--robust-delta", args.robust_delta)) if value is not None]
    if given:
        raise MechDesignError(f"{', '.join(given)} cannot be combined with --mechanism: the mechanism file fixes the "
                              "design")
    return load_record(args.mechanism)


def _describe(record: Any) -> str:
    """One line: the notions and budgets of a record, and its status."""
    notions = ", ".join(f"{notion['label']} budget {notion['budget']:.6g}" for notion in record.notions)
    result = record.result
    if result is None:
        return notions or "no budget recorded"
    status = ("privacy certified, no optimality claim" if result.method == "estimation-family" else result.status)
    return f"{notions}: {status}" + (f" ({result.method})" if result.method else "")


def _cmd_privatize(args: argparse.Namespace) -> int:
    from .files import check_output_paths

    out = Path(args.out)
    mechanism_out = Path(args.mechanism_out) if args.mechanism_out is not None else out.with_suffix(".mechanism.json")
    inputs = [path for path in (args.file, args.mechanism, args.categories_from, args.prior_from) if path is not None]
    check_output_paths({"--out": out, "--mechanism-out": mechanism_out}, inputs=inputs)
    jobs = as_positive_int(args.jobs, "--jobs")
    entropy = release_entropy(args.seed)
    with terminal_progress(args.quiet) as progress, CsvColumn(Path(args.file), args.column) as data:
        record = _loaded_record(args) if args.mechanism is not None else _designed_record(args, progress)
        release = _write_release(data, record, entropy, out, mechanism_out, progress, jobs)
    source = f"the mechanism of {args.mechanism}" if args.mechanism is not None else "a mechanism designed now"
    print(f"privatized {release['rows']:,} values of {args.column!r} ({record.mechanism.n_inputs} categories) with "
          f"{source}: {_describe(record)}")
    deployment = record.deployment or {}
    if "mode" in deployment:
        print(f"mode {deployment['mode']}: {deployment['guarantee']}")
    if "ledger" in deployment:
        from .accounting import Ledger

        ledger = Ledger.from_dict(deployment["ledger"])
        spends = " + ".join(f"{entry.epsilon * entry.uses:.6g} ({entry.name})" for entry in ledger.entries)
        print(f"spent by each record (local DP, nats): {ledger.pure_epsilon():.6g} = {spends}")
    print(f"wrote {mechanism_out} and {out}")
    return 0


# --- estimate ----------------------------------------------------------------------------------


def frequency_estimate(counts: np.ndarray, mechanism: Any, categories: Sequence[Any], source: str) -> Any:
    """Unbiased frequencies of the inputs from the counts of the outputs, with standard errors and the
    projection onto the simplex (:func:`~mechdesign.frequency.estimate_frequencies` from counts, so
    that the data never has to be held in memory).

    Examples
    --------
    >>> from mechdesign import Mechanism
    >>> estimate = frequency_estimate(np.array([5, 3]), Mechanism([[0.75, 0.25], [0.25, 0.75]]), ["a", "b"], "m.json")
    >>> estimate.estimate.round(6).tolist(), estimate.n_samples  # q̂ = (5/8, 3/8), p̂ = q̂ Q⁻¹
    ([0.75, 0.25], 8)
    """
    from .frequency import estimate_from_tally

    matrix = mechanism.matrix
    if matrix.shape[0] > 1 and np.all(matrix == matrix[0]):
        raise NotEstimableError(f"{source}: the mechanism's outputs do not depend on its input (all its rows are "
                                "equal, as at a budget of 0), so no frequency can be estimated from them")
    try:
        return estimate_from_tally(counts, int(counts.sum()), mechanism, categories)
    except NotEstimableError as exc:
        raise NotEstimableError(f"{source}: " + in_options(str(exc)).replace(
            "design with --objective estimation", "privatize with --objective estimation (its default)")) from exc


def _cmd_estimate(args: argparse.Namespace) -> int:
    from .command_line import strict_json
    from .files import load_record

    jobs = as_positive_int(args.jobs, "--jobs")
    work = ChunkWork(load_record(args.mechanism), args.mechanism)
    outputs = work.outputs
    counts, total = outputs.zero(), 0
    check = ValueCheck(outputs.listed.lookup if outputs.listed is not None else None)
    with terminal_progress(args.quiet) as progress, CsvColumn(Path(args.file), args.column) as data:
        for chunk, found in chunk_results(data.chunks(progress, "estimate"), work, "tally", jobs, skip=check.__bool__):
            if found is None:
                check.add(chunk.texts, chunk.first)
            elif not check:
                counts += found
                total += chunk.count
        if check:
            raise check.error(data, "output of the mechanism",
                              f"estimate reads a column privatized with the mechanism of {args.mechanism}")
    estimate = outputs.estimate(counts, total)
    if args.json:
        names = [str(category) for category in estimate.categories]
        print(strict_json({"n_samples": estimate.n_samples,
                           **{key: dict(zip(names, getattr(estimate, key).tolist()))
                              for key in ("estimate", "standard_error", "projected")}}))
        return 0
    print(f"{estimate.n_samples:,} privatized values of {args.column!r}; unbiased estimate ± standard error, and "
          "projected onto the simplex:")
    for category, value, error, projected in zip(estimate.categories, estimate.estimate, estimate.standard_error,
                                                 estimate.projected):
        print(f"  {str(category):28s} {value:9.5f} ± {error:.5f}   {projected:9.5f}")
    return 0


# --- account -----------------------------------------------------------------------------------


def parse_usage(text: str) -> tuple[Path, int]:
    """``FILE[:USES]`` of ``mechdesign account``: the mechanism file and how often it was used (default 1).

    Examples
    --------
    >>> parse_usage("m.json:3"), parse_usage("m.json")
    ((PosixPath('m.json'), 3), (PosixPath('m.json'), 1))
    """
    from ._validate import as_positive_int

    path, colon, uses = text.rpartition(":")
    if not colon or not uses.strip().lstrip("+-").isdigit():
        return Path(text), 1
    return Path(path), as_positive_int(int(uses), f"{text}: USES")


def parse_deltas(text: str) -> list[float]:
    """The δ of ``--delta d1,d2,...`` (each in ``(0, 1)``).

    Examples
    --------
    >>> parse_deltas("1e-6,1e-9")
    [1e-06, 1e-09]
    """
    from ._validate import as_delta

    try:
        numbers = [float(value) for value in text.split(",")]
    except ValueError as exc:
        raise MechDesignError(f"--delta must be comma-separated numbers, got {text!r}") from exc
    deltas = [as_delta(value, "--delta") for value in numbers]
    if not all(deltas):
        raise MechDesignError(f"--delta must be numbers in (0, 1), got {text!r}")
    return deltas


def account_ledger(usages: Sequence[tuple[Path, int]]) -> Any:
    """The :class:`~mechdesign.accounting.Ledger` of mechanism files, each used ``uses`` times.

    A file written by ``privatize --prior private`` also spent a first round on the same records when
    it was designed: every entry of its ``deployment.ledger`` but the last (its release) is an entry of
    its own, spent once. A frequency oracle too large to measure as a matrix is accounted by its
    local-DP parameter, as the :class:`~mechdesign.privatizer.Privatizer`'s ledger does.

    Examples
    --------
    >>> import tempfile
    >>> from mechdesign import randomized_response
    >>> from mechdesign.files import save
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     ledger = account_ledger([(save(randomized_response(2, 1.0), Path(folder) / "rr.json"), 3)])
    >>> [(entry.uses, Path(entry.name).name) for entry in ledger.entries], round(ledger.pure_epsilon(), 12)
    ([(3, 'rr.json')], 3.0)
    """
    from .accounting import Ledger
    from .files import load_record
    from .privatizer import record_release

    ledger = Ledger()
    for path, uses in usages:
        record = load_record(path)
        spent = (record.deployment or {}).get("ledger")
        for entry in Ledger.from_dict(spent).entries[:-1] if spent is not None else ():
            name = f"{path}: {entry.name}"
            if entry.mechanism is None:
                ledger.record_epsilon(entry.epsilon, name, uses=entry.uses)
            else:
                ledger.record(entry.mechanism, entry.uses, name)
        record_release(ledger, record.mechanism, str(path), uses)
    return ledger


def _cmd_account(args: argparse.Namespace) -> int:
    from .accounting import AccountReport, epsilon_delta_curve
    from .command_line import strict_json
    from .files import check_output_paths

    usages = [parse_usage(text) for text in args.files]
    deltas = parse_deltas(args.delta)
    if args.plot is not None:
        check_output_paths({"--plot": args.plot}, inputs=[path for path, _ in usages])
    ledger = account_ledger(usages)
    print(strict_json(AccountReport.from_ledger(ledger, deltas).to_dict()) if args.json else ledger.summary(deltas))
    if args.plot is not None:
        curve = epsilon_delta_curve(ledger, np.logspace(-12, -1, 23).tolist(), label="the whole ledger")
        written = plot_curve(curve, Path(args.plot))
        print(f"wrote {written}", file=sys.stderr if args.json else sys.stdout)
    return 0


def plot_curve(curve: Any, path: Path) -> Path:
    """Plot a privacy curve (:func:`~mechdesign.accounting.plot_privacy_curves`) to the PNG ``path``, atomically.

    Examples
    --------
    >>> import tempfile
    >>> from mechdesign.accounting import epsilon_delta_curve
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = plot_curve(epsilon_delta_curve([[0.75, 0.25], [0.25, 0.75]], [1e-6, 1e-3]), Path(folder) / "c.png")
    ...     path.read_bytes()[:4]
    b'\\x89PNG'
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .accounting import plot_privacy_curves
    from .files import atomic_output

    figure, axes = plt.subplots(figsize=(6, 4))
    plot_privacy_curves(curve, axes)
    axes.set_title("ε(δ) of the releases composed (local DP, every pair of records)", fontsize=9)
    figure.tight_layout()
    try:
        with atomic_output(path, "wb") as handle:
            figure.savefig(handle, format="png", dpi=120)
    finally:
        plt.close(figure)
    return path


# --- the parsers -------------------------------------------------------------------------------


def _add_deploy_commands(commands: Any) -> None:
    from .command_line import JSON_HELP, _add_quiet_option

    p_private = commands.add_parser("privatize", help="privatize a CSV column with a designed mechanism")
    p_private.add_argument("file", help="CSV file with a header row (UTF-8), streamed: any number of rows")
    p_private.add_argument("--column", required=True, help="the categorical column to privatize (also the column "
                                                           "read from --categories-from and --prior-from)")
    p_private.add_argument("--mechanism", metavar="FILE", help="privatize with this mechanism file (from `mechdesign "
                           "design --out` or an earlier privatize); it fixes the design, so no design option is given")
    p_private.add_argument("--categories", help="the categories the column may hold, a,b,c (public: the mechanism "
                           "file lists them); 'infer' reads them from the data, which the mechanism file then reveals")
    p_private.add_argument("--categories-from", metavar="PUBLIC_CSV",
                           help="the categories: the distinct values of --column in this public CSV file")
    p_private.add_argument("--prior", help="public prior P1,P2,... in the order of the categories (default: uniform); "
                           "'private': estimate it from the data, spending --prior-budget of each record's budget")
    p_private.add_argument("--prior-from", metavar="PUBLIC_CSV", help="public prior: the frequencies of --column in "
                           "this public CSV file (counts, normalized), which must hold none of the records privatized")
    p_private.add_argument("--prior-budget", type=float, metavar="E1", help="with --prior private: the part "
                           "0 < E1 < --epsilon of each record's budget spent on estimating the prior (dp only)")
    p_private.add_argument("--notion", choices=sorted(prior_notions()),
                           help="privacy notion of the designed mechanism (default: dp)")
    p_private.add_argument("--epsilon", type=float, help="privacy budget of each record (nats; inf: no noise)")
    p_private.add_argument("--objective", choices=["estimation", "distortion"],
                           help="estimation (default): frequencies estimable afterwards; distortion: least Hamming "
                                "distortion (rare categories may share outputs, so they are not estimable)")
    p_private.add_argument("--robust-delta", type=float, help="pml with --prior-from: design for the l1-ball around "
                           "its frequencies that holds the true prior with probability 1 - delta")
    p_private.add_argument("--seed", type=int, help="seed of the privatization: reproducible by anyone who knows it, "
                           "for tests only (default: the operating system's entropy)")
    p_private.add_argument("--jobs", type=int, default=1, metavar="N", help="privatize the file's chunks in N "
                           "processes (the output is the same file; with --seed, the same for every N)")
    p_private.add_argument("--out", required=True, help="output CSV (the column replaced by its privatized values)")
    p_private.add_argument("--mechanism-out", help="where to write the mechanism file of the release (default: OUT "
                           "with suffix .mechanism.json)")
    _add_quiet_option(p_private)
    p_private.set_defaults(run=_cmd_privatize)

    p_estimate = commands.add_parser("estimate", help="estimate a column's frequencies from its privatized values")
    p_estimate.add_argument("file", help="CSV file written by `mechdesign privatize` (streamed)")
    p_estimate.add_argument("--column", required=True, help="the privatized column to estimate frequencies of")
    p_estimate.add_argument("--mechanism", required=True, help="the mechanism file it was privatized with")
    p_estimate.add_argument("--jobs", type=int, default=1, metavar="N", help="count the file's chunks in N processes")
    p_estimate.add_argument("--json", action="store_true", help=JSON_HELP)
    _add_quiet_option(p_estimate)
    p_estimate.set_defaults(run=_cmd_estimate)

    p_account = commands.add_parser("account", help="the privacy spent by releases of mechanism files (a ledger)")
    p_account.add_argument("files", nargs="+", metavar="FILE[:USES]",
                           help="a mechanism file and how many times it was used on the same individuals (default 1)")
    p_account.add_argument("--delta", default=",".join(map(str, ACCOUNT_DELTAS)),
                           help="comma-separated δ at which to report ε(δ) (default: %(default)s)")
    p_account.add_argument("--json", action="store_true", help=JSON_HELP)
    p_account.add_argument("--plot", metavar="OUT_PNG", help="write the ε(δ) curve of the whole ledger to this PNG")
    p_account.set_defaults(run=_cmd_account)
