"""Tests of mechdesign.designers.maxl: MaxL without enumerating the inputs (SML paper §VI-A), against
enumeration of whole histogram spaces and the explicit mechanism of mechdesign.mechanisms.histogram."""

import numpy as np
import pytest

from mechdesign.designers.maxl import maxl_released_histograms, maxl_worst_overlap, sample_maxl
from mechdesign.exceptions import MechDesignError
from mechdesign.mechanisms.histogram import histogram_maxl, maxl_candidates, maxl_mechanism
from mechdesign.tabular import HistogramSpace, category_fraction_secret, tv_cost


#: Worst-case TV from the closed form / MILP vs brute force over the whole space (both exact up to round-off).
WORST_CASE_TOLERANCE = 1e-12


def _brute_worst_case(space, rows):
    """``max_θ min_{a ∈ A} D_TV(θ, a)`` by enumerating every histogram θ of the space."""
    return tv_cost(space)[:, rows].min(axis=1).max()


def test_maxl_worst_overlap_matches_enumeration():
    """SML paper §VI-A worst-case-prior cost: closed form min_j max_a a_j, bounds and MILP vs enumeration
    (all three paths are taken on these cases)."""
    rng = np.random.default_rng(3)
    checked = 0
    for tau in range(1, 9):
        for d in range(2, 5):
            space = HistogramSpace(tau, d)
            for _ in range(20):
                rows = rng.choice(space.size, size=min(int(rng.integers(1, 8)), space.size), replace=False)
                value = maxl_worst_overlap(space.counts[rows])
                assert abs((1 - value / tau) - _brute_worst_case(space, rows)) <= WORST_CASE_TOLERANCE
                checked += 1
    assert checked == 8 * 3 * 20


def test_maxl_worst_overlap_below_the_point_mass_value():
    """Cases where spreading θ beats every point mass (V < min_j max_a a_j): only the MILP finds them."""
    for tau in (3, 4, 7, 8):
        # Two opposite point masses: θ = (⌈τ/2⌉, ⌊τ/2⌋) overlaps each in ⌈τ/2⌉ < τ.
        assert maxl_worst_overlap(np.array([[tau, 0], [0, tau]])) == -(-tau // 2)
    # τ = 4, A = {(3, 1), (1, 3)}: point masses give 3, θ = (2, 2) also 3, the balanced game value 2 is not reached.
    assert maxl_worst_overlap(np.array([[3, 1], [1, 3]])) == 3
    space = HistogramSpace(6, 3)
    rows = [space.index(r) for r in ([6, 0, 0], [0, 6, 0], [0, 0, 6])]
    value = maxl_worst_overlap(space.counts[rows])
    assert value == 2  # θ = (2, 2, 2), against 6 for any point mass
    assert abs((1 - value / 6) - _brute_worst_case(space, rows)) <= WORST_CASE_TOLERANCE


@pytest.mark.parametrize("tau,d", [(t, d) for t in (1, 3, 5, 8) for d in (2, 3, 4)])
def test_sample_maxl_agrees_with_explicit_mechanism(tau, d):
    """Same seed: same released set and same release of every input as maxl_mechanism (§VI-A)."""
    space = HistogramSpace(tau, d)
    for category in {0, d - 1}:
        secret = category_fraction_secret(space, category)
        for interval in sorted({1, 2, 3, tau + 1}):
            for seed in (0, 1):
                drawn = [space.index(row) for row in maxl_candidates(tau, d, category, interval, seed)]
                explicit = maxl_mechanism(tv_cost(space), secret, interval, candidates=drawn).matrix
                assert np.array_equal(histogram_maxl(space, category, interval, seed).matrix, explicit)
                released = maxl_released_histograms(tau, d, category, interval, seed)
                assert {space.index(row) for row in released} == set(np.flatnonzero(explicit.max(axis=0) > 0))
                expected = space.counts[np.argmax(explicit, axis=1)]
                for row, out in zip(space.counts, expected):
                    assert np.array_equal(sample_maxl(row, category, interval, seed), out)


def test_sample_maxl_adult_scale():
    """τ = 32,561 over d = 152 categories (Adult race × sex × education): no enumeration needed."""
    counts = np.random.default_rng(0).multinomial(32561, np.full(152, 1 / 152))
    released = maxl_released_histograms(32561, 152, 5, 1024, 0)
    out = sample_maxl(counts, 5, 1024, 0)
    assert (released.sum(axis=1) == 32561).all() and 1 <= len(released) <= 32
    assert any(np.array_equal(out, row) for row in released)
    overlaps = np.minimum(released, counts).sum(axis=1)
    assert np.minimum(out, counts).sum() == overlaps.max()


def test_bad_input_is_named():
    with pytest.raises(MechDesignError, match="category must be an integer in 0..2"):
        sample_maxl(np.array([1, 2, 3]), 3, 1)
    with pytest.raises(MechDesignError, match="interval"):
        sample_maxl(np.array([1, 2]), 0, 0)
    with pytest.raises(MechDesignError, match="counts must be"):
        sample_maxl(np.array([-1, 2]), 0, 1)
    with pytest.raises(MechDesignError, match="one positive total"):
        maxl_worst_overlap(np.array([[1, 2], [2, 2]]))
