"""Tests of mechdesign.categorical: learning and encoding categorical columns."""

import numpy as np
import pytest

from mechdesign.categorical import as_column, encode, learn_categories
from mechdesign.exceptions import MechDesignError, UnknownCategoryError


def test_lists_arrays_and_column_vectors():
    categories, codes = learn_categories(np.array([["b"], ["a"], ["b"]]))
    assert categories == ("a", "b") and codes.tolist() == [1, 0, 1]
    assert as_column(np.array([["b"], ["a"]]))[1] == (2, 1)
    assert learn_categories([3, 1, 3, 2])[0] == (1, 2, 3)


def test_incomparable_categories_keep_first_appearance():
    categories, codes = learn_categories([("x", 1), "a", ("x", 1), 2])
    assert categories == (("x", 1), "a", 2) and codes.tolist() == [0, 1, 0, 2]


def test_pandas_categorical_keeps_declared_order():
    pd = pytest.importorskip("pandas", reason="pandas is optional; this checks its categorical dtype")
    column = pd.Series(pd.Categorical(["low", "high", "mid", "low"], categories=["low", "mid", "high", "unused"]))
    categories, codes = learn_categories(column)
    assert categories == ("low", "mid", "high") and codes.tolist() == [0, 2, 1, 0]
    assert learn_categories(pd.DataFrame({"c": ["q", "p"]}))[0] == ("p", "q")


def test_bad_columns_are_named():
    with pytest.raises(MechDesignError, match="data is empty"):
        learn_categories([])
    with pytest.raises(MechDesignError, match=r"has 1 category \(\('a',\)\)"):
        learn_categories(["a", "a"])
    with pytest.raises(MechDesignError, match=r"data\[1\] is a missing value \(nan\)"):
        learn_categories(["a", float("nan"), "b"])
    with pytest.raises(MechDesignError, match=r"data\[0\] is a missing value \(None\)"):
        learn_categories([None, "b"])
    with pytest.raises(MechDesignError, match="not hashable"):
        learn_categories([["a"], ["b", "c"]] + [[1, 2]])
    with pytest.raises(MechDesignError, match=r"one column .* shape \(2, 2\)"):
        learn_categories(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(UnknownCategoryError, match=r"1 value\(s\) that are not a known category: \['z'\]"):
        encode(["a", "z"], ("a", "b"))


def test_pandas_na_is_missing():
    pd = pytest.importorskip("pandas", reason="pandas is optional; this checks its NA marker")
    with pytest.raises(MechDesignError, match=r"data\[1\] is a missing value"):
        learn_categories(pd.Series(["a", pd.NA, "b"], dtype="string"))
