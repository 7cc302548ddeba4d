"""Tests of mechdesign.utility.base's argument validators (objectives and limits of design())."""

import math

import pytest

from mechdesign import DifferentialPrivacy, ExpectedDistortion
from mechdesign.exceptions import MechDesignError
from mechdesign.utility.base import as_limit_pairs, as_objective, as_objectives


def test_objectives_and_limits():
    cost = ExpectedDistortion([0.5, 0.5])
    assert as_objective(cost) is cost
    assert as_objectives(()) == [] and as_objectives(None) == [] and as_objectives([cost]) == [cost]
    assert as_limit_pairs([(cost, 1)]) == [(cost, 1.0)] and as_limit_pairs(()) == [] and as_limit_pairs(None) == []


@pytest.mark.parametrize("call, match", [
    (lambda: as_objective(DifferentialPrivacy()), "objective must be an instance of Objective, got <DifferentialPrivacy dp>"),
    (lambda: as_objectives([0.5]), r"limits\[0\] must be an instance of Objective, got 0.5"),
    (lambda: as_objectives(5), "limits must be a non-empty sequence, got 5"),
    (lambda: as_limit_pairs([ExpectedDistortion([1.0])]), r"limits\[0\] must be a \(quantity, limit\) pair"),
    (lambda: as_limit_pairs([(ExpectedDistortion([1.0]), math.inf)]), r"limits\[0\]\[1\] must be finite"),
    (lambda: as_limit_pairs([(1.0, ExpectedDistortion([1.0]))]), r"limits\[0\]\[0\] must be an instance of Objective"),
])
def test_anything_else_is_a_named_error(call, match):
    with pytest.raises(MechDesignError, match=match):
        call()
