"""Offline loaders for the real data shipped with mechdesign.

The UCI Adult training split (Becker & Kohavi, 1996, doi:10.24432/C5XW20, CC BY 4.0) is shipped
gzip-compressed as package data; see ``mechdesign/data/ADULT_README.md`` for its provenance.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
from importlib import resources

import numpy as np

from ._validate import as_members
from .exceptions import MechDesignError

#: Citation and license that must accompany any use of the Adult data.
ADULT_ATTRIBUTION = (
    'B. Becker and R. Kohavi, "Adult", UCI Machine Learning Repository, 1996, doi:10.24432/C5XW20 '
    "(CC BY 4.0); training split, 32,561 rows"
)
#: sha256 of the uncompressed CSV.
ADULT_SHA256 = "c30ce1e55a965b04950321870db74c19f4aa437120a692f32e72f6a4fa31c418"
ADULT_NUMERIC = ("age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week")


def _adult_bytes() -> bytes:
    return gzip.decompress(resources.files("mechdesign.data").joinpath("adult.csv.gz").read_bytes())


def load_adult(columns: list[str] | None = None) -> dict[str, np.ndarray]:
    """The Adult training split as ``{column: array}`` (numeric columns as int, others as str).

    Parameters
    ----------
    columns
        Columns to return (default: all 15). Missing values stay as the string ``"?"``.

    Returns
    -------
    dict
        One 1-D array of length 32,561 per column, in file order.

    Examples
    --------
    >>> adult = load_adult(["age", "sex"])
    >>> adult["age"].size, adult["age"][:3].tolist(), adult["sex"][:3].tolist()
    (32561, [39, 50, 38], ['Male', 'Male', 'Male'])
    """
    text = _adult_bytes().decode("utf-8")
    reader = csv.reader(text.splitlines())
    header = next(reader)
    wanted = header if columns is None else as_members(columns, header, "columns", kind="Adult column")
    records = [[field.strip() for field in row] for row in reader if row]
    table = {}
    for name in wanted:
        values = [row[header.index(name)] for row in records]
        table[name] = np.array(values, dtype=int) if name in ADULT_NUMERIC else np.array(values)
    return table


def adult_checksum() -> str:
    """sha256 of the shipped (uncompressed) Adult CSV; equals :data:`ADULT_SHA256`.

    Examples
    --------
    >>> adult_checksum() == ADULT_SHA256
    True
    """
    return hashlib.sha256(_adult_bytes()).hexdigest()


#: The two binary Adult features of Grosse et al. (Section VI-C1) as ``(column, value coded −1, value
#: coded +1)``: the secret alphabet is ``{−1, +1}`` as in the paper.
ADULT_BINARY_FEATURES = {
    "income": ("income-per-year", "<=50K", ">50K"),
    "sex": ("sex", "Female", "Male"),
}


def load_adult_binary(features: list[str] | None = None) -> dict[str, np.ndarray]:
    """The binary Adult features *income* and *sex* coded in ``{−1, +1}`` (Grosse et al., Sec. VI-C1).

    income: ``−1`` = ``"<=50K"``, ``+1`` = ``">50K"``; sex: ``−1`` = ``"Female"``, ``+1`` = ``"Male"``
    (see :data:`ADULT_BINARY_FEATURES`). Data: :data:`ADULT_ATTRIBUTION` (cite it with any result).

    Parameters
    ----------
    features
        Any of ``"income"``, ``"sex"`` (default both).

    Returns
    -------
    dict
        One ``int8`` array of ±1 of length 32,561 per feature, in file order.

    Examples
    --------
    >>> {name: values[:5].tolist() for name, values in load_adult_binary().items()}
    {'income': [-1, -1, -1, -1, -1], 'sex': [1, 1, 1, 1, -1]}
    """
    known = list(ADULT_BINARY_FEATURES)
    wanted = known if features is None else as_members(features, known, "features", kind="binary Adult feature")
    table = load_adult([ADULT_BINARY_FEATURES[f][0] for f in wanted])
    coded = {}
    for name in wanted:
        column, negative, positive = ADULT_BINARY_FEATURES[name]
        values = table[column]
        other = sorted(set(values) - {negative, positive})
        if other:
            raise MechDesignError(f"Adult column {column!r} has values {other} outside ({negative!r}, {positive!r})")
        coded[name] = np.where(values == positive, 1, -1).astype(np.int8)
    return coded
