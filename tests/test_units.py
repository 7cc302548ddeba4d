"""Tests of the nats/bits conversion (mechdesign.units)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign.exceptions import MechDesignError
from mechdesign.units import from_nats, to_nats

#: Relative round-off of one multiplication and one division by log 2.
ROUND_TRIP_RTOL = 1e-15


@given(st.floats(0, 1e6))
def test_bits_round_trip(value):
    assert from_nats(to_nats(value, "bits"), "bits") == pytest.approx(value, rel=ROUND_TRIP_RTOL)


def test_one_bit_is_log_two_nats():
    assert to_nats(1.0, "bits") == math.log(2) and from_nats(math.log(8), "bits") == pytest.approx(3.0, rel=ROUND_TRIP_RTOL)
    assert to_nats(0.7, "nats") == 0.7 == from_nats(0.7, "nats")


def test_unknown_unit_is_named():
    with pytest.raises(MechDesignError, match="unit must be one of .*got 'bans'"):
        to_nats(1.0, "bans")
