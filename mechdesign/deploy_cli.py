"""The deployment commands of ``mechdesign``: privatize a CSV column, estimate its frequencies, account.

``mechdesign privatize`` and ``mechdesign estimate`` stream the CSV in chunks of :data:`CHUNK_BYTES`
(:class:`CsvColumn`), so memory does not grow with the number of rows: numpy finds the column in
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
import csv
import fcntl
import hashlib
import io
import json
import os
import re
import signal
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ._validate import as_budget, as_failure_probability, as_members
from .exceptions import MechDesignError, NotEstimableError, UnknownCategoryError
from .progress import Progress, report, terminal_progress
from .registry import prior_notions

#: Bytes of whole records split at a time by numpy (about 40,000 rows of Adult).
CHUNK_BYTES = 1 << 22
#: Longest record read (a longer one, e.g. after an unterminated quote, is a named error).
MAX_RECORD_BYTES = 16 * CHUNK_BYTES
#: Default δ of ``mechdesign account``.
ACCOUNT_DELTAS = (1e-6, 1e-9)


# --- the CSV column ------------------------------------------------------------------------------


def quoted_field(text: str) -> str:
    """``text`` as :mod:`csv` writes it in a field (quoted when it holds a comma, a quote or a line break).

    Examples
    --------
    >>> quoted_field("HS-grad"), quoted_field('["a","b"]')
    ('HS-grad', '"[""a"",""b""]"')
    """
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([text])
    return buffer.getvalue()[:-1]


class CsvLabels:
    """Category or output labels as the fields of a CSV column.

    Parameters
    ----------
    labels
        The labels (scalars, or tuples of categories for subset-selection reports).
    what
        What they are, for errors (:func:`label_lookup`).
    text
        How a label is written: ``str`` for categories, :func:`output_text` for outputs.

    Attributes
    ----------
    lookup : dict
        Text of a label, and the UTF-8 bytes of that text as a field (unquoted or quoted), → the label's index.
    plain, encoded : numpy.ndarray
        Per label, its text, and the UTF-8 bytes of its text as a CSV field (object arrays).
    longest : int
        Bytes of the longest label's text.

    Examples
    --------
    >>> labels = CsvLabels(["a", ("a", "b,c")], "outputs", output_text)
    >>> labels.lookup["a"], labels.lookup[b"{a|b,c}"], labels.lookup[b'"{a|b,c}"'], labels.encoded.tolist()
    (0, 1, 1, [b'a', b'"{a|b,c}"'])
    """

    def __init__(self, labels: Sequence[Any], what: str, text: Any = str) -> None:
        texts = label_lookup(labels, what, text)
        self.lookup: dict[str | bytes, int] = {**texts}
        for written, index in texts.items():  # a field of a LinesChunk, unquoted or quoted
            self.lookup[written.encode("utf-8")] = index
            self.lookup[('"' + written.replace('"', '""') + '"').encode("utf-8")] = index
        self.plain = np.array(list(texts), dtype=object)
        self.encoded = np.array([quoted_field(text).encode("utf-8") for text in texts], dtype=object)
        self.longest = max((len(key) for key in self.lookup if isinstance(key, bytes)), default=0)


class Chunk:
    """Consecutive data rows of a CSV file parsed by :mod:`csv`: the column's values, and the rows written
    back by :mod:`csv` with the column replaced.

    Parameters
    ----------
    first
        The number of the first row (data rows count from 1, blank lines not counted).
    rows
        The rows' (unquoted) fields.
    index
        The column's position.

    Examples
    --------
    >>> chunk = Chunk(1, [["0", "a"], ["1", "b"]], 1)
    >>> labels = CsvLabels(["a", "b", "b,c"], "outputs", output_text)
    >>> chunk.texts, chunk.codes(labels).tolist(), chunk.replaced(labels, np.array([2, 0]))
    (['a', 'b'], [0, 1], b'0,"b,c"\\n1,a\\n')
    """

    def __init__(self, first: int, rows: list[list[str]], index: int) -> None:
        self.first, self.rows, self.index, self.count = first, rows, index, len(rows)
        self.texts = [row[index] for row in rows]

    def codes(self, labels: CsvLabels) -> np.ndarray | None:
        """The index of every value among ``labels``, or ``None`` if one is not a label (or missing)."""
        return encode_chunk(self.texts, labels.lookup)

    def replaced(self, labels: CsvLabels, outputs: np.ndarray) -> bytes:
        """The rows as UTF-8 CSV (``\\n`` line ends) with the column replaced by ``labels`` at ``outputs``."""
        for row, value in zip(self.rows, labels.plain[outputs].tolist()):
            row[self.index] = value
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(self.rows)
        return buffer.getvalue().encode("utf-8")


class LinesChunk:
    """Whole records of a CSV file split by numpy: the column's values, and the records written back as they
    were but for the column (the interface of :class:`Chunk`).

    :meth:`CsvColumn.chunks` finds the commas and line breaks outside quoted fields (an even number of
    quotes before them), checks that every record has the header's number of fields and hands over where
    the column's field starts and ends in each record. The values are read as fixed-width keys (one
    dictionary lookup each, a label quoted or not); any other field (e.g. one quoted with text after the
    closing quote) is read by the csv module, so values are what it reads. Records are written back from
    slices of the bytes, their line ends (``\\n`` or ``\\r\\n``) kept.

    Parameters
    ----------
    first
        The number of the first record's row.
    lines
        UTF-8 records, each ending with a line break.
    starts, ends
        Where the column's field starts and ends in each record (byte offsets into ``lines``).
    index
        The column's position (for the csv module).

    Examples
    --------
    >>> chunk = LinesChunk(1, b'0,a,x\\n1,"b",y\\n', np.array([2, 8]), np.array([3, 11]), 1)
    >>> labels = CsvLabels(["a", "b", "b,c"], "outputs", output_text)
    >>> chunk.texts, chunk.codes(labels).tolist(), chunk.replaced(labels, np.array([2, 0]))
    (['a', 'b'], [0, 1], b'0,"b,c",x\\n1,a,y\\n')
    """

    def __init__(self, first: int, lines: bytes, starts: np.ndarray, ends: np.ndarray, index: int) -> None:
        self.first, self.lines, self.starts, self.ends, self.index = first, lines, starts, ends, index
        self.count = starts.size

    @property
    def texts(self) -> list[str]:
        """The column's values as the csv module reads them."""
        return [row[self.index] for row in csv.reader(io.StringIO(self.lines.decode("utf-8"), newline=""))]

    def codes(self, labels: CsvLabels) -> np.ndarray | None:
        """The index of every value among ``labels``, or ``None`` if one is not a label (or missing)."""
        lengths = self.ends - self.starts
        if self.count and 0 < lengths.min() and lengths.max() <= labels.longest:
            width = int(lengths.max())
            characters = np.frombuffer(self.lines + bytes(width), dtype=np.uint8)
            keys = np.lib.stride_tricks.sliding_window_view(characters, width)[self.starts]  # a copy: one per record
            keys[np.arange(width) >= lengths[:, None]] = 0  # numpy's bytes drop this padding
            with suppress(KeyError):
                return np.fromiter(map(labels.lookup.__getitem__, keys.view(f"S{width}").ravel().tolist()),
                                   dtype=np.intp, count=self.count)
        return encode_chunk(self.texts, labels.lookup)

    def replaced(self, labels: CsvLabels, outputs: np.ndarray) -> bytes:
        """The lines with the column replaced by ``labels`` at ``outputs`` (as CSV fields)."""
        lines = self.lines
        gaps = [lines[start:end] for start, end in zip([0, *self.ends.tolist()], [*self.starts.tolist(), len(lines)])]
        pieces: list[bytes] = [b""] * (2 * self.count + 1)
        pieces[0::2] = gaps
        pieces[1::2] = labels.encoded[outputs].tolist()
        return b"".join(pieces)


def _quotes_open_fields(characters: np.ndarray, quotes: np.ndarray, outside: np.ndarray) -> bool:
    """Whether every quote that opens a quoted part (an odd one) starts a field or doubles a quote: else a
    quote within an unquoted field, which the csv module reads as a character, would shift the parity
    of the quotes that tells the separators within quoted fields from the others."""
    opening = np.flatnonzero(quotes & ~outside)
    before = characters[opening[opening > 0] - 1]
    return bool(np.all((before == ord(",")) | (before == ord("\n")) | (before == ord('"'))))


class CsvColumn:
    """One named column of a UTF-8 CSV file with a header row, read in chunks of records.

    numpy splits the records, :data:`CHUNK_BYTES` at a time (:class:`LinesChunk`), by the commas and
    line breaks outside quoted fields. The csv module parses a chunk whose records numpy cannot tell
    apart (a quote within an unquoted field, a record longer than the chunk) or that holds what only it
    reads as meant (a NUL byte, a bare carriage return, a blank line, a record with another number of
    fields than the header) (:class:`Chunk`). Either way memory does not grow with the number of
    rows, and the values are those the csv module reads.

    Parameters
    ----------
    path
        The CSV file (``\\n`` or ``\\r\\n`` line ends; a UTF-8 byte-order mark is skipped).
    column
        The column's name in the header row (a header that repeats a name is refused: defect M9).
    option
        How the file was given on the command line, for error messages (e.g. ``"--prior-from"``).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "data.csv"
    ...     _ = path.write_text('id,edu\\n0,a\\n1,b\\n2,"c, d"\\n\\n3,e\\n')
    ...     with CsvColumn(path, "edu") as data:
    ...         print(data.header, data.index, [(chunk.first, chunk.texts) for chunk in data.chunks()])
    ['id', 'edu'] 1 [(1, ['a', 'b', 'c, d', 'e'])]
    """

    def __init__(self, path: Path, column: str, option: str = "FILE") -> None:
        self.path, self.column, self.option = path, column, option
        if not path.exists():
            raise MechDesignError(f"{option}: no such file: {path}")
        if not path.is_file():
            raise MechDesignError(f"{option}: {path} is not a file (a directory?): pass a CSV file")
        self.rows_done = 0
        self._binary = path.open("rb")
        try:
            self.header = self._header()
            repeated = sorted({name for name in self.header if self.header.count(name) > 1})
            if repeated:
                raise MechDesignError(f"{option}: the header of {path} repeats the column name(s) {repeated}: "
                                      "every column needs its own name")
            if column not in self.header:
                raise MechDesignError(f"{path} has no column {column!r}; columns: {self.header}")
        except BaseException:
            self.close()
            raise
        self.index = self.header.index(column)

    def __enter__(self) -> "CsvColumn":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self._binary.close()

    def chunks(self, progress: Progress | None = None,
               description: str = "reading") -> Iterator[Chunk | LinesChunk]:
        """The data rows in chunks (blank lines are skipped); ``progress`` is told the bytes read out of the
        file's size after every chunk."""
        size = os.fstat(self._binary.fileno()).st_size
        for chunk in self._split_chunks():
            self.rows_done += chunk.count
            yield chunk
            report(progress, self._binary.tell(), size, f"{description}: {self.rows_done:,} rows")

    def _header(self) -> list[str]:
        line = self._binary.readline()
        self.header_line = line if line.endswith(b"\n") else line + b"\n"
        if not line.strip():
            state = "is empty" if not line else "starts with a blank line"
            raise MechDesignError(f"{self.option}: {self.path} {state}: a CSV file starts with a header row")
        try:
            return next(csv.reader([self._decode(line, "utf-8-sig").rstrip("\r\n")], strict=True))
        except csv.Error as exc:
            raise MechDesignError(f"{self.option}: the header of {self.path} is not one line of CSV: {exc}") from exc

    def _decode(self, data: bytes, encoding: str = "utf-8") -> str:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as exc:
            raise MechDesignError(f"{self.option}: {self.path} is not UTF-8 text (a binary file?): {exc.reason} "
                                  f"after data row {self.rows_done}") from exc

    def _split_chunks(self) -> Iterator[Chunk | LinesChunk]:
        """Chunks of whole records: split by numpy where the quotes tell the records apart, else parsed by
        the csv module."""
        carry = b""
        while True:
            data = self._binary.read(CHUNK_BYTES)
            block = carry + data
            if not block:
                return
            if not data and not block.endswith(b"\n"):
                block += b"\n"  # the last line, without its line break
            characters = np.frombuffer(block, dtype=np.uint8)
            quotes = characters == ord('"')
            outside = (np.cumsum(quotes, dtype=np.uint8) & 1) == 0 if quotes.any() else None  # parity survives wrapping
            ends = np.flatnonzero(characters == ord("\n") if outside is None else (characters == ord("\n")) & outside)
            if ends.size and (outside is None or _quotes_open_fields(characters, quotes, outside)):
                cut = int(ends[-1]) + 1
                chunk = (self._lines(block[:cut], characters[:cut], ends, None if outside is None else outside[:cut])
                         or self._parse(block[:cut], final=True)[0])
            else:  # a quote within an unquoted field (or no record end yet): the csv module finds the records
                chunk, cut = self._parse(block, final=not data)
            if not cut:
                if len(block) > MAX_RECORD_BYTES:
                    raise MechDesignError(f"{self.option}: data row {self.rows_done + 1} of {self.path} is longer "
                                          f"than {MAX_RECORD_BYTES:,} bytes (an unterminated quote?)")
                carry = block  # no whole record yet: read on
                continue
            carry = block[cut:]
            yield chunk

    def _lines(self, lines: bytes, characters: np.ndarray, ends: np.ndarray,
               outside: np.ndarray | None) -> LinesChunk | None:
        """``lines`` (whole records, each ending at one of ``ends``) as a :class:`LinesChunk`, or ``None`` when
        only the csv module reads them as meant: a NUL byte, a carriage return that ends no line, a blank
        line, a record with another number of fields than the header."""
        if b"\0" in lines:
            return None
        returns = characters == ord("\r") if outside is None else (characters == ord("\r")) & outside
        carriage = np.flatnonzero(returns)
        if carriage.size and np.any(characters[carriage + 1] != ord("\n")):
            return None
        starts = np.concatenate(([0], ends[:-1] + 1))
        content_ends = ends - returns[ends - 1] if ends[0] else ends  # before a \r\n's \r
        if np.any(content_ends <= starts):
            return None
        commas = np.flatnonzero(characters == ord(",") if outside is None else (characters == ord(",")) & outside)
        separators = len(self.header) - 1
        if np.any(np.diff(np.searchsorted(commas, ends), prepend=0) != separators):
            return None
        self._decode(lines)  # UTF-8, or a named error
        commas = commas.reshape(ends.size, separators)
        return LinesChunk(self.rows_done + 1, lines, commas[:, self.index - 1] + 1 if self.index else starts,
                          commas[:, self.index] if self.index < separators else content_ends, self.index)

    def _parse(self, block: bytes, *, final: bool) -> tuple[Chunk, int]:
        """The whole records at the start of ``block`` read by the csv module, line by line, and how many bytes
        they take (0: none yet). Unless ``final``, the record that reaches the block's last line may go on in
        the next block and is left for it. Blank lines are skipped; a record with another number of fields
        than the header's is an error."""
        lines = block.splitlines(keepends=True)
        if not final and not lines[-1].endswith((b"\n", b"\r")):
            lines.pop()  # a part of a line (maybe of a character)
        reader = csv.reader(self._decode(line) for line in lines)
        records, ends = [], []
        try:
            for record in reader:
                records.append(record)
                ends.append(reader.line_num)
        except csv.Error as exc:
            raise MechDesignError(f"{self.option}: {self.path} is not a readable CSV after data row "
                                  f"{self.rows_done + len(records)}: {exc}") from exc
        if not final and ends and ends[-1] == len(lines):
            records.pop()
            ends.pop()
        rows = [record for record in records if record]
        width = len(self.header)
        for offset, row in enumerate(rows):
            if len(row) != width:
                raise MechDesignError(f"{self.option}: data row {self.rows_done + offset + 1} of {self.path} has "
                                      f"{len(row)} field(s), the header has {width}")
        return Chunk(self.rows_done + 1, rows, self.index), sum(map(len, lines[:ends[-1]])) if ends else 0


class ValueCheck:
    """The values of a column that are missing or unknown, collected over a whole file before one error.

    Parameters
    ----------
    known
        The values that are allowed (a dict from text to index, or a set), or ``None``: every value
        that is not blank.

    Examples
    --------
    >>> check = ValueCheck({"a": 0, "b": 1})
    >>> check.add(["a", "", "c", "c"], first_row=1)
    >>> check.missing, check.first_missing, check.unknown
    (1, 2, {'c': 3})
    """

    def __init__(self, known: Any) -> None:
        self.known = known
        self.missing = 0
        self.first_missing: int | None = None
        self.unknown: dict[str, int] = {}

    def __bool__(self) -> bool:
        return bool(self.missing or self.unknown)

    def add(self, values: Sequence[str], first_row: int) -> None:
        """Note every value of ``values`` that is blank or not known (``first_row``: the data row of ``values[0]``)."""
        for offset, value in enumerate(values):
            if (value.strip() if self.known is None else value in self.known):
                continue
            if not value.strip():
                self.missing += 1
                if self.first_missing is None:
                    self.first_missing = first_row + offset
            else:
                self.unknown.setdefault(value, first_row + offset)

    def error(self, data: CsvColumn, kind: str, advice: str) -> MechDesignError:
        """The error naming the missing values and the unknown ones (``kind``: what the known values are)."""
        where = f"column {data.column!r} of {data.path}"
        if self.missing:
            return MechDesignError(f"{where} has {self.missing} missing value(s), first on data row "
                                   f"{self.first_missing}; drop or impute missing values first")
        try:
            known = [value for value in self.known if isinstance(value, str)]  # not the labels' bytes
            as_members(list(self.unknown), known, where, kind=kind, error=UnknownCategoryError)
        except UnknownCategoryError as exc:
            first = min(self.unknown.values())
            return UnknownCategoryError(f"{exc} (first on data row {first}); {advice}")
        raise AssertionError("error() called without a problem")  # pragma: no cover - guarded by __bool__


#: Separates the categories of a report (a tuple of categories) within its braces in a CSV field.
SUBSET_SEPARATOR = "|"
#: A backslash and the character it escapes, or a separator: how :func:`split_report` reads a report.
_ESCAPED_OR_SEPARATOR = re.compile(r"\\(.)|\|", re.DOTALL)


def output_text(label: Any) -> str:
    """How an output label is written in a CSV field: a category as its text, a report of several categories
    (a tuple: subset selection, unary encoding) as ``{a|b|c}``.

    Within a report ``\\`` and ``|`` are escaped by ``\\``; a category's ``\\`` and a leading ``{`` too. So
    no two labels are written alike (defect H1: the categories ``a|b`` and ``c`` and the report of ``a``
    and ``b|c`` were both ``a|b|c``), the empty report is ``{}`` (not a missing value), and a report needs
    no CSV quoting unless a category does.

    Examples
    --------
    >>> output_text("HS-grad"), output_text(("Bachelors", "Masters")), output_text(()), output_text(17)
    ('HS-grad', '{Bachelors|Masters}', '{}', '17')
    >>> print(output_text(("a|b", "c")), output_text(("a", "b|c")), output_text("a|b"), output_text("{a}"))
    {a\\|b|c} {a|b\\|c} a|b \\{a}
    """
    if isinstance(label, tuple):
        return "{" + SUBSET_SEPARATOR.join(str(part).replace("\\", "\\\\").replace("|", "\\|") for part in label) + "}"
    text = str(label).replace("\\", "\\\\")
    return "\\" + text if text.startswith("{") else text


def split_report(text: str) -> tuple[str, ...] | str:
    """The inverse of :func:`output_text` on text: a report's category texts (a tuple), or a label's text.

    Examples
    --------
    >>> split_report("{a\\\\|b|c}"), split_report("{}"), split_report("\\\\{a}"), split_report("HS-grad")
    (('a|b', 'c'), (), '{a}', 'HS-grad')
    """
    if not (text.startswith("{") and text.endswith("}") and len(text) > 1):
        return _ESCAPED_OR_SEPARATOR.sub(lambda match: match.group(1) or "|", text)
    inner = text[1:-1]
    if not inner:
        return ()
    parts, current, position = [], [], 0
    for match in _ESCAPED_OR_SEPARATOR.finditer(inner):
        current.append(inner[position:match.start()])
        if match.group(1) is None:
            parts.append("".join(current))
            current = []
        else:
            current.append(match.group(1))
        position = match.end()
    parts.append("".join(current) + inner[position:])
    return tuple(parts)


def label_lookup(labels: Sequence[Any], what: str, text: Any = str) -> dict[str, int]:
    """``{text(label): index}`` (the text of a category is ``str``, of an output :func:`output_text`); labels
    written alike, or blank, are a :class:`MechDesignError`.

    Examples
    --------
    >>> label_lookup(["a", ("a", "b")], "outputs", output_text)
    {'a': 0, '{a|b}': 1}
    >>> label_lookup([1, "1"], "categories")
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: categories [1, '1'] are all written '1' in a CSV file, so they cannot be told apart
    """
    lookup: dict[str, int] = {}
    for index, label in enumerate(labels):
        written = text(label)
        if not written.strip():
            raise MechDesignError(f"{what} has the blank label {label!r}, which a CSV file cannot tell from a "
                                  "missing value")
        if written in lookup:
            alike = [other for other in labels if text(other) == written]
            raise MechDesignError(f"{what} {alike!r} are all written {written!r} in a CSV file, so they cannot be "
                                  "told apart")
        lookup[written] = index
    return lookup


def encode_chunk(values: Sequence[str], lookup: dict[str, int]) -> np.ndarray | None:
    """The indices of ``values`` by one dictionary lookup each, or ``None`` if one is not in ``lookup``.

    Examples
    --------
    >>> encode_chunk(["b", "a"], {"a": 0, "b": 1}).tolist(), encode_chunk(["c"], {"a": 0})
    ([1, 0], None)
    """
    try:
        return np.fromiter(map(lookup.__getitem__, values), dtype=np.intp, count=len(values))
    except KeyError:
        return None


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
    from .cli import _parse_prior

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


def release_generator(seed: int | None) -> np.random.Generator | None:
    """The generator a release draws from: the operating system's entropy, or with ``--seed`` a seeded one
    (and :data:`~mechdesign.randomness.SEEDED_NOTICE` on standard error).

    Examples
    --------
    >>> release_generator(None) is None
    True
    """
    from .randomness import SEEDED_NOTICE, SeededReleaseWarning, release_rng

    if seed is None:
        return None
    generator = _quietly(SeededReleaseWarning, release_rng, seed, "--seed")
    print(SEEDED_NOTICE, file=sys.stderr)
    return generator


def _quietly(category: type[Warning], function: Any, *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)`` with warnings of ``category`` ignored (the command line prints its own notice)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category)
        return function(*args, **kwargs)


def _write_release(data: CsvColumn, record: Any, generator: np.random.Generator | None, out: Path,
                  mechanism_out: Path, progress: Progress | None = None) -> dict[str, Any]:
    """Privatize ``data``'s column with ``record``'s mechanism into ``out``, and the record into ``mechanism_out``.

    Both are written to temporary files and replaced together (:func:`replaced_together`), the
    mechanism file first; its ``deployment["release"]`` holds the CSV's name, column, row count and
    SHA-256. A value that is not a category of the record, or missing, is an error after the whole
    file is read, and nothing is written.

    Returns
    -------
    dict
        The release: ``{"file", "column", "rows", "sha256"}``.
    """
    from .files import atomic_output, save

    outputs = OutputColumn(record, "the mechanism")
    categories = CsvLabels(outputs.inputs, "the mechanism's categories")
    check, digest = ValueCheck(categories.lookup), hashlib.sha256()
    with ExitStack() as replacing:
        with atomic_output(out, "wb") as handle:

            def write(encoded: bytes) -> None:
                handle.write(encoded)
                digest.update(encoded)

            write(data.header_line)
            for chunk in data.chunks(progress, "privatize"):
                codes = None if check else chunk.codes(categories)
                if codes is None:  # from here on only the values are checked, and the error lists them all
                    check.add(chunk.texts, chunk.first)
                    continue
                write(outputs.privatized(chunk, codes, generator))
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
    generator = release_generator(args.seed)
    with terminal_progress(args.quiet) as progress, CsvColumn(Path(args.file), args.column) as data:
        record = _loaded_record(args) if args.mechanism is not None else _designed_record(args, progress)
        release = _write_release(data, record, generator, out, mechanism_out, progress)
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
    from .cli import strict_json
    from .files import load_record

    outputs = OutputColumn(load_record(args.mechanism), args.mechanism)
    counts, total = outputs.zero(), 0
    check = ValueCheck(outputs.listed.lookup if outputs.listed is not None else None)
    with terminal_progress(args.quiet) as progress, CsvColumn(Path(args.file), args.column) as data:
        for chunk in data.chunks(progress, "estimate"):
            found = None if check else outputs.tally(chunk)
            if found is None:
                check.add(chunk.texts, chunk.first)
                continue
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
    from .cli import strict_json
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
    from .cli import JSON_HELP, _add_quiet_option

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
    p_private.add_argument("--out", required=True, help="output CSV (the column replaced by its privatized values)")
    p_private.add_argument("--mechanism-out", help="where to write the mechanism file of the release (default: OUT "
                           "with suffix .mechanism.json)")
    _add_quiet_option(p_private)
    p_private.set_defaults(run=_cmd_privatize)

    p_estimate = commands.add_parser("estimate", help="estimate a column's frequencies from its privatized values")
    p_estimate.add_argument("file", help="CSV file written by `mechdesign privatize` (streamed)")
    p_estimate.add_argument("--column", required=True, help="the privatized column to estimate frequencies of")
    p_estimate.add_argument("--mechanism", required=True, help="the mechanism file it was privatized with")
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
