"""Tests of mechdesign.datasets (shipped Adult data)."""

import pytest

from mechdesign.datasets import ADULT_SHA256, adult_checksum, load_adult
from mechdesign.exceptions import MechDesignError


def test_adult_is_the_documented_file():
    assert adult_checksum() == ADULT_SHA256


def test_adult_columns_and_values():
    table = load_adult(["sex", "income-per-year", "age"])
    assert set(table) == {"sex", "income-per-year", "age"}
    assert len(table["sex"]) == 32_561
    assert set(table["sex"]) == {"Male", "Female"}
    assert set(table["income-per-year"]) == {"<=50K", ">50K"}
    assert table["age"].dtype.kind == "i" and table["age"].min() >= 17
    # Known marginal of the training split: 7,841 rows earn >50K.
    assert (table["income-per-year"] == ">50K").sum() == 7841


def test_unknown_column():
    with pytest.raises(MechDesignError, match=r"columns holds 1 value\(s\) that are not a known Adult column: \['salary'\]; known: \['age', "):
        load_adult(["salary"])


def test_adult_binary_features_coded_plus_minus_one():
    from mechdesign.datasets import load_adult_binary

    coded = load_adult_binary()
    assert set(coded) == {"income", "sex"}
    assert all(set(v.tolist()) == {-1, 1} and len(v) == 32_561 for v in coded.values())
    assert (coded["income"] == 1).sum() == 7841  # >50K, as in the raw column
    raw = load_adult(["sex"])["sex"]
    assert ((coded["sex"] == 1) == (raw == "Male")).all()
    with pytest.raises(MechDesignError, match=r"features holds 1 value\(s\) that are not a known binary Adult feature: \['age'\]; known: \['income', 'sex'\]"):
        load_adult_binary(["age"])
