"""Tests of mechdesign.privacy.epigraph (leakages with auxiliary variables as expressions of Q)."""

import cvxpy as cp
import numpy as np
import pytest

from mechdesign.privacy.epigraph import Epigraph


def test_minimized_optimizes_the_auxiliaries_out():
    """``min_u {u : u >= |q_0 − q_1|}`` is ``|q_0 − q_1|``, as an expression usable in a problem."""
    q = cp.Variable(2)
    u = cp.Variable()
    epigraph = Epigraph(u, [u >= q[0] - q[1], u >= q[1] - q[0]])
    problem = cp.Problem(cp.Minimize(epigraph.minimized(q)), [q[0] == 0.25, q[1] == 1.0])
    problem.solve(solver=cp.CLARABEL)
    assert problem.value == pytest.approx(0.75, abs=1e-7)
    constant = Epigraph(cp.Constant(np.array([0.25, 1.0])) @ np.ones(2), [])
    assert constant.minimized(cp.Constant(np.zeros(2))) is constant.expression  # nothing to optimize


def test_at_most_keeps_the_auxiliary_constraints():
    q = cp.Variable(2)
    u = cp.Variable()
    constraints = Epigraph(u, [u >= q[0] - q[1], u >= q[1] - q[0]]).at_most(0.5)
    problem = cp.Problem(cp.Maximize(q[0]), [*constraints, q[1] == 0.2])
    problem.solve(solver=cp.CLARABEL)
    assert q.value[0] == pytest.approx(0.7, abs=1e-7)
