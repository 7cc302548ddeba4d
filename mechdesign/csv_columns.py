"""One column of a CSV file read in chunks of whole records, as the :mod:`csv` module reads it, and written back.

:class:`CsvColumn` streams a UTF-8 CSV file with a header row, :data:`CHUNK_BYTES` at a time: numpy finds
the commas and line breaks outside quoted fields and hands over where the column's field is in every
record (:class:`LinesChunk`, whose records are written back byte for byte but for the column); a chunk
that only the csv module reads as meant is parsed by it (:class:`Chunk`). Either way the values are those
the csv module reads, and memory does not grow with the number of rows. :class:`CsvLabels` are the fields
of a column's labels (categories, or outputs written by :func:`output_text`), :class:`ValueCheck` collects
the missing and unknown values of a whole file before one error.

Chunks are plain data (bytes, arrays, lists): they can be sent to worker processes
(``mechdesign privatize --jobs N``).

Examples
--------
>>> quoted_field("a, b")
'"a, b"'
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import numpy as np

from ._validate import as_members
from .exceptions import MechDesignError, UnknownCategoryError
from .progress import Progress, report

#: Bytes of whole records split at a time by numpy (about 40,000 rows of Adult).
CHUNK_BYTES = 1 << 22
#: Longest record read (a longer one, e.g. after an unterminated quote, is a named error).
MAX_RECORD_BYTES = 16 * CHUNK_BYTES



def quoted_field(text: str) -> str:
    """``text`` as :mod:`csv` writes it in a field (quoted when it holds a comma, a quote or a line break).

    Examples
    --------
    >>> quoted_field("HS-grad"), quoted_field('["a","b"]')
    ('HS-grad', '"[""a"",""b""]"')
    """
    return csv_line([text])


def csv_line(fields: Sequence[str]) -> str:
    """``fields`` as one record of CSV without its line end, quoted as :mod:`csv` quotes them when the line
    end is ``\\r\\n``: a field holding a bare carriage return is quoted too (under the ``\\n`` line end the csv
    module leaves it bare, and reading it back ends the record there).

    Examples
    --------
    >>> csv_line(["a\\r", "b,c", ""])
    '"a\\r","b,c",'
    """
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerow(fields)
    return buffer.getvalue()[:-2]


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
        return "".join(csv_line(row) + "\n" for row in self.rows).encode("utf-8")


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
