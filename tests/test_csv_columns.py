"""The CSV splitter (mechdesign/csv_columns.py): every chunk reads what the csv module reads, and writes back what
it would write."""

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import mechdesign.csv_columns as csv_columns
from mechdesign.exceptions import MechDesignError


@pytest.mark.parametrize("content", [
    'id,education,height\n0,HS-grad,5\'11"\n1,Masters,6\'1"\n2,"Bachelors",1\n',  # quotes within unquoted fields
    'id,education,height\n0,HS-grad,"5\'11\n1,Masters,6\n',  # an unterminated quote
    'id,education,height\n\n0,HS-grad,1\n\n1,Masters,2\n\n',  # blank lines
    'id,education,height\r\n0,HS-grad,"1\r\n2"\r\n1,Masters,2',  # \r\n, a quoted line break, no final one
])
def test_every_chunk_reads_what_the_csv_module_reads(tmp_path, monkeypatch, content):
    monkeypatch.setattr(csv_columns, "CHUNK_BYTES", 16)
    data = tmp_path / "data.csv"
    data.write_text(content, newline="")
    with open(data, newline="") as handle:
        expected = [row["education"] for row in csv.DictReader(handle)]
    with csv_columns.CsvColumn(data, "education") as column:
        assert [value for chunk in column.chunks() for value in chunk.texts] == expected




VALUES = ["a", "ab", "abc", "b", "ba", "é", "x y", "q,r", 'say "hi"', "two\nlines", " a"]


@given(st.lists(st.sampled_from(VALUES), min_size=1, max_size=40), st.integers(0, 2),
       st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]), st.sampled_from(["\n", "\r\n"]))
def test_records_split_by_numpy_read_as_the_csv_module_reads_them(values, index, quoting, newline):
    """numpy's split (quotes, quoted commas and line breaks, \\r\\n) and its fixed-width keys (padded with NUL
    bytes: labels that are prefixes of others) give the values the csv module reads; an unknown value gives None."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.csv"
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle, quoting=quoting, lineterminator=newline)
            writer.writerow(["c0", "c1", "c2"])
            writer.writerows([value if j == index else f"{j}{value}" for j in range(3)] for value in values)
        with csv_columns.CsvColumn(path, f"c{index}") as data:
            [chunk] = list(data.chunks())
    assert isinstance(chunk, csv_columns.LinesChunk) and chunk.texts == values
    for known in (VALUES, ["ab", "abc", "ba", "x y", "q,r"]):
        labels = csv_columns.CsvLabels(known, "categories")
        expected = csv_columns.encode_chunk(values, labels.lookup)
        got = chunk.codes(labels)
        assert (got is None and expected is None) or got.tolist() == expected.tolist()


#: Characters of the generated fields: separators, quotes, both line ends, a space, a multi-byte letter.
FIELD_CHARACTERS = ["a", "b", ",", '"', "\n", "\r", " ", "é", "'"]
fields = st.lists(st.sampled_from(FIELD_CHARACTERS), max_size=6).map("".join)


@st.composite
def tables(draw):
    """A header c0..c{w-1} and rows of generated fields, written by the csv module (any quoting, either line end),
    that it reads back as written."""
    width = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(fields, min_size=width, max_size=width), min_size=1, max_size=25))
    quoting = draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, quoting=quoting, lineterminator=newline)
    writer.writerow([f"c{j}" for j in range(width)])
    writer.writerows(rows)
    final = draw(st.booleans())  # without the last line break too
    text = buffer.getvalue() if final else buffer.getvalue()[:-len(newline)]
    # a table the csv module reads back as written (it does not quote a bare \r under the \n line end)
    assume(list(csv.reader(io.StringIO(text, newline=""))) == [[f"c{j}" for j in range(width)], *rows])
    return text, width, draw(st.integers(0, width - 1))


def _read(path, column):
    with open(path, newline="", encoding="utf-8") as handle:
        return [row[column] for row in csv.DictReader(handle)]


@given(tables(), st.sampled_from([8, 16, 64, 1 << 22]))
def test_any_table_is_read_as_the_csv_module_reads_it(tmp_path_factory, table, chunk_bytes):
    """Issue 34 item 2: for any table the csv module writes, at any chunk size, the chunks' values are the
    column as csv.DictReader reads it (numpy's split where it applies, the csv module's otherwise), and their
    first rows number the data rows."""
    text, _, index = table
    path = tmp_path_factory.mktemp("csv") / "data.csv"
    path.write_bytes(text.encode("utf-8"))
    original = csv_columns.CHUNK_BYTES
    csv_columns.CHUNK_BYTES = chunk_bytes
    try:
        with csv_columns.CsvColumn(path, f"c{index}") as data:
            chunks = list(data.chunks())
    finally:
        csv_columns.CHUNK_BYTES = original
    assert [value for chunk in chunks for value in chunk.texts] == _read(path, f"c{index}")
    assert [chunk.first for chunk in chunks] == [1 + sum(chunk.count for chunk in chunks[:i]) for i in range(len(chunks))]


@given(tables(), st.sampled_from([8, 64, 1 << 22]), st.lists(fields.filter(str.strip), min_size=1, max_size=5,
                                                           unique=True), st.randoms(use_true_random=False))
def test_a_replaced_column_is_what_the_csv_module_would_write(tmp_path_factory, table, chunk_bytes, labels, random):
    """Issue 34 item 2: a chunk written back with its column replaced by labels reads, by the csv module, as the
    same rows with those labels in the column (any label text: separators, quotes, line breaks — a label with a
    bare carriage return used to be written unquoted, so the record ended there when read back)."""
    text, _, index = table
    path = tmp_path_factory.mktemp("csv") / "data.csv"
    path.write_bytes(text.encode("utf-8"))
    written = CsvLabelsFor(labels)
    original = csv_columns.CHUNK_BYTES
    csv_columns.CHUNK_BYTES = chunk_bytes
    try:
        with csv_columns.CsvColumn(path, f"c{index}") as data:
            pieces, chosen = [data.header_line], []
            for chunk in data.chunks():
                outputs = np.array([random.randrange(len(labels)) for _ in range(chunk.count)], dtype=np.intp)
                pieces.append(chunk.replaced(written, outputs))
                chosen.extend(labels[i] for i in outputs.tolist())
    finally:
        csv_columns.CHUNK_BYTES = original
    out = path.with_name("out.csv")
    out.write_bytes(b"".join(pieces))
    with open(path, newline="", encoding="utf-8") as handle:
        before = list(csv.DictReader(handle))
    with open(out, newline="", encoding="utf-8") as handle:
        after = list(csv.DictReader(handle))
    assert [row[f"c{index}"] for row in after] == chosen
    assert [{**row, f"c{index}": None} for row in after] == [{**row, f"c{index}": None} for row in before]


def CsvLabelsFor(labels):  # noqa: N802 - reads as the class it builds
    return csv_columns.CsvLabels(labels, "labels")


def test_a_missing_column_and_a_repeated_name_are_named(tmp_path):
    data = tmp_path / "data.csv"
    data.write_text("a,b,a\n1,2,3\n")
    with pytest.raises(MechDesignError, match=r"repeats the column name\(s\) \['a'\]"):
        csv_columns.CsvColumn(data, "b")
    data.write_text("a,b\n1,2\n")
    with pytest.raises(MechDesignError, match=r"has no column 'c'; columns: \['a', 'b'\]"):
        csv_columns.CsvColumn(data, "c")
