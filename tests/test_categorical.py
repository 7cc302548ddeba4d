"""Tests of mechdesign.categorical: tables, declared alphabets, learning and encoding categorical columns."""

import numpy as np
import pytest

from mechdesign.categorical import (
    as_column,
    as_labels,
    as_table,
    check_categories,
    encode,
    encode_values,
    learn_categories,
)
from mechdesign.exceptions import MechDesignError, UnknownCategoryError


def test_lists_arrays_and_column_vectors():
    categories, codes = learn_categories(np.array([["b"], ["a"], ["b"]]))
    assert categories == ("a", "b") and codes.tolist() == [1, 0, 1]
    assert as_column(np.array([["b"], ["a"]]))[1] == (2, 1)
    assert learn_categories([3, 1, 3, 2])[0] == (1, 2, 3)


def test_values_keep_their_python_objects():
    # M8: mixed-type categories must not become strings ([1, "a"] once turned 1 into "1").
    table = as_table(np.array([1, "a"], dtype=object))
    assert table.values[:, 0].tolist() == [1, "a"] and type(table.values[0, 0]) is int
    assert type(as_table(np.array(["x", "y"])).values[0, 0]) is str  # numpy strings become Python strings
    assert encode([1, "a", 1], (1, "a")).tolist() == [0, 1, 0]


def test_tables_from_rows_arrays_and_dataframes():
    table = as_table([["a", 1], ["b", 2], ["a", 3]])
    assert table.values.shape == (3, 2) and table.ndim == 2 and table.feature_names is None
    assert as_table(np.zeros((4, 3))).values.shape == (4, 3)
    assert as_table(["a", "b"]).ndim == 1 and as_table([["a"], ["b"]]).ndim == 2
    with pytest.raises(MechDesignError, match="rows of equal length"):
        as_table([["a", 1], ["b"]])
    with pytest.raises(MechDesignError, match=r"one column \(1-D\) or a table \(2-D\), got shape \(1, 1, 1\)"):
        as_table(np.zeros((1, 1, 1)))
    with pytest.raises(MechDesignError, match="X must be a column or a table of values, got 'abc'"):
        as_table("abc")


def test_tuples_are_values_not_rows():
    # Subset-selection reports are tuples of categories: one value each, never a row of a table.
    table = as_table([("a", "b"), ("c", "d")])
    assert table.values.shape == (2, 1) and table.values[1, 0] == ("c", "d")
    assert as_labels([("a", "b"), "c"]).tolist() == [("a", "b"), "c"]


def test_incomparable_categories_keep_first_appearance():
    categories, codes = learn_categories([("x", 1), "a", ("x", 1), 2])
    assert categories == (("x", 1), "a", 2) and codes.tolist() == [0, 1, 0, 2]


def test_pandas_categorical_keeps_declared_order():
    pd = pytest.importorskip("pandas", reason="pandas is optional; this checks its categorical dtype")
    column = pd.Series(pd.Categorical(["low", "high", "mid", "low"], categories=["low", "mid", "high", "unused"]))
    categories, codes = learn_categories(column)
    assert categories == ("low", "mid", "high") and codes.tolist() == [0, 2, 1, 0]
    assert learn_categories(pd.DataFrame({"c": ["q", "p"]}))[0] == ("p", "q")
    frame = pd.DataFrame({"level": column, "n": [1, 2, 3, 4]})
    table = as_table(frame)
    assert table.feature_names.tolist() == ["level", "n"]
    assert table.declared == (("low", "mid", "high", "unused"), None)


def test_declared_categories_are_checked():
    assert check_categories(np.array(["b", "a"])) == ("b", "a")
    with pytest.raises(MechDesignError, match=r"categories repeats \[True\] \(equal values"):
        check_categories([1, 2, True])
    with pytest.raises(MechDesignError, match=r"categories has 1 category"):
        check_categories(["a"])
    with pytest.raises(MechDesignError, match=r"categories\[1\] = None is a missing value"):
        check_categories(["a", None])
    with pytest.raises(MechDesignError, match=r"categories\[0\] = inf is an infinite number"):
        check_categories([float("inf"), 1])
    with pytest.raises(MechDesignError, match=r"categories\[0\] = \['a'\] is not hashable"):
        check_categories([["a"], "b"])
    with pytest.raises(MechDesignError, match="categories must be a sequence of categories, got 'ab'"):
        check_categories("ab")


def test_encoding_is_one_lookup_and_names_every_unknown_value():
    lookup = {"a": 0, "b": 1}
    assert encode_values(np.array(["b", "a", "b"], dtype=object), lookup).tolist() == [1, 0, 1]
    with pytest.raises(UnknownCategoryError, match=r"2 value\(s\) that are not a known category: \['z', 'y'\]"):
        encode_values(np.array(["a", "z", "y", "z"], dtype=object), lookup)
    with pytest.raises(MechDesignError, match=r"data\[1\] = nan is a missing value \(None, NaN or NA\)"):
        encode_values(np.array(["a", float("nan")], dtype=object), lookup)
    with pytest.raises(MechDesignError, match=r"data\[0\] = \{'a'\} is not hashable"):
        encode_values(np.array([{"a"}, "b"], dtype=object), lookup)


def test_bad_columns_are_named():
    with pytest.raises(MechDesignError, match=r"data is empty: 0 sample\(s\)"):
        learn_categories([])
    with pytest.raises(MechDesignError, match=r"has 1 category \(\('a',\)\)"):
        learn_categories(["a", "a"])
    with pytest.raises(MechDesignError, match=r"data\[1\] = nan is a missing value"):
        learn_categories(["a", float("nan"), "b"])
    with pytest.raises(MechDesignError, match=r"data\[0\] = None is a missing value"):
        learn_categories([None, "b"])
    with pytest.raises(MechDesignError, match=r"data\[2\] = inf is an infinite number"):
        learn_categories(["a", "b", float("inf")])
    with pytest.raises(MechDesignError, match="not hashable"):
        learn_categories([{"a"}, {"b"}])
    with pytest.raises(MechDesignError, match=r"one column .* shape \(2, 2\)"):
        learn_categories(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(UnknownCategoryError, match=r"1 value\(s\) that are not a known category: \['z'\]"):
        encode(["a", "z"], ("a", "b"))


def test_pandas_na_is_missing():
    pd = pytest.importorskip("pandas", reason="pandas is optional; this checks its NA marker")
    with pytest.raises(MechDesignError, match=r"data\[1\] = <NA> is a missing value"):
        learn_categories(pd.Series(["a", pd.NA, "b"], dtype="string"))


def test_scikit_learn_style_refusals():
    # Messages scikit-learn's check_estimator looks for: empty data, sparse input, complex data, one sample.
    with pytest.raises(MechDesignError, match=r"0 feature\(s\) \(shape=\(12, 0\)\) while a minimum of 1 is required\."):
        as_table(np.zeros((12, 0)))
    with pytest.raises(MechDesignError, match=r"0 sample\(s\) \(shape=\(0, 3\)\)"):
        as_table(np.zeros((0, 3)))
    sparse = pytest.importorskip("scipy.sparse", reason="scipy.sparse builds the sparse input refused here")
    with pytest.raises(MechDesignError, match="sparse input is not supported"):
        as_table(sparse.csr_matrix(np.eye(3)))
    with pytest.raises(MechDesignError, match=r"data\[0\] = \(1\+1j\) is a complex number: Complex data not supported"):
        learn_categories([1 + 1j, 2 + 0j])
    with pytest.raises(MechDesignError, match=r"has 1 category \(\(0\.5,\)\) in 1 sample\(s\)"):
        learn_categories([0.5])
