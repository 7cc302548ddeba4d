"""Tests of mechdesign.priors: Prior and SourceSet."""

import numpy as np
import pytest

from mechdesign import Prior, SourceSet
from mechdesign.exceptions import InvalidDistributionError, ShapeMismatchError
from mechdesign.priors import as_prior, as_source_set


def test_prior_validation_and_uniform():
    assert np.allclose(Prior.uniform(4).probabilities, 0.25)
    with pytest.raises(InvalidDistributionError, match="sums to 0.9"):
        Prior([0.5, 0.4])
    assert not Prior([1.0, 0.0]).has_full_support


def test_as_prior_checks_size_and_support():
    with pytest.raises(ShapeMismatchError, match="2 entries, expected 3"):
        as_prior([0.5, 0.5], 3)
    with pytest.raises(InvalidDistributionError, match=r"P\(1\) = 0"):
        as_prior([1.0, 0.0], full_support=True)


def test_source_set_deduplicates_keeping_order():
    S = SourceSet([[0.5, 0.5], [0.9, 0.1], [0.5, 0.5]])
    assert len(S) == 2 and S.extreme_points.tolist() == [[0.5, 0.5], [0.9, 0.1]]
    assert not S.is_simplex
    assert [p.probabilities.tolist() for p in S] == [[0.5, 0.5], [0.9, 0.1]]


def test_simplex_and_singleton():
    assert SourceSet.simplex(3).is_simplex
    assert SourceSet([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0.2, 0.3, 0.5]]).is_simplex
    assert len(SourceSet.singleton([0.3, 0.7])) == 1
    assert len(as_source_set(Prior([0.3, 0.7]))) == 1


def test_source_set_errors():
    with pytest.raises(InvalidDistributionError, match="at least one"):
        SourceSet([])
    with pytest.raises(ShapeMismatchError, match="different sizes"):
        SourceSet([[0.5, 0.5], [0.2, 0.3, 0.5]])
    with pytest.raises(InvalidDistributionError, match="source-set prior 1 sums to 1.1"):
        SourceSet([[0.5, 0.5], [0.6, 0.5]])
    with pytest.raises(ShapeMismatchError, match="over 2 symbols, expected 3"):
        as_source_set([[0.5, 0.5]], 3)
