"""Tests of tests/privacy/protocol.py itself: its fixed-mechanism check, which accepts a solver's point
only once every constraint holds in numpy, still separates a mechanism within its budget from one
INFEASIBLE_MARGIN (1e-3 nats) over it, for every notion budgeted in nats; and it fails constraints
that are looser or tighter than the measure by that much."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mechdesign import ApproximateDifferentialPrivacy, RenyiDifferentialPrivacy
from mechdesign.privacy.base import PrivacyNotion

from ..strategies import every_notion
from .protocol import FEASIBLE_MARGIN, INFEASIBLE_MARGIN, _feasible, assert_constraints_match_measure

PRIOR = np.array([0.5, 0.3, 0.2])
#: A mechanism with every entry positive and a measure well above INFEASIBLE_MARGIN under each notion.
MATRIX = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]])
#: Every offered notion (tests/strategies.py), and parameters beyond its one instance of each: another δ and
#: Rényi orders on both sides of its α = 2.
NOTIONS = every_notion(PRIOR) + [ApproximateDifferentialPrivacy(0.05), RenyiDifferentialPrivacy(1.5),
                                 RenyiDifferentialPrivacy(4.0)]


class Shifted(PrivacyNotion):
    """``notion`` whose constraints are those of budget ``ε + shift``: wrong by ``shift`` nats."""

    name = "shifted"
    reference = "a deliberately wrong notion (tests of the protocol)"

    def __init__(self, notion: PrivacyNotion, shift: float) -> None:
        self.notion, self.shift, self.is_linear = notion, shift, notion.is_linear

    def constraints(self, Q: Any, budget: Any) -> list:
        return self.notion.constraints(Q, max(0.0, budget + self.shift))

    def _constraints(self, Q: Any, scaled: Any) -> list:  # pragma: no cover - constraints() is overridden
        raise NotImplementedError

    def _measure(self, matrix: np.ndarray) -> float:
        return self.notion.measure(matrix)


@pytest.mark.parametrize("notion", NOTIONS, ids=lambda notion: notion.label)
def test_the_check_accepts_the_budget_and_catches_a_mechanism_just_over_it(notion):
    measured = notion.measure(MATRIX)
    assert measured > 2 * INFEASIBLE_MARGIN
    assert _feasible(notion, MATRIX, measured + FEASIBLE_MARGIN)
    assert not _feasible(notion, MATRIX, measured - INFEASIBLE_MARGIN)  # the mechanism is 1e-3 nats over budget


@pytest.mark.parametrize("notion", NOTIONS, ids=lambda notion: notion.label)
@pytest.mark.parametrize("shift", [2 * INFEASIBLE_MARGIN, -INFEASIBLE_MARGIN])
def test_constraints_off_by_a_margin_fail_the_check(notion, shift):
    """Constraints looser than the measure (accepting a mechanism 2e-3 nats over budget) or tighter (rejecting
    one 1e-3 nats within) do not pass."""
    with pytest.raises(AssertionError):
        assert_constraints_match_measure(Shifted(notion, shift), MATRIX)
