"""A stand-in for Clarabel's solver whose status the tests choose (tests/test_solvers.py,
tests/methods/test_column_generation.py): "AlmostSolved" unless iterative refinement is on."""

from __future__ import annotations

import types


def almost_solved_unless_refined(monkeypatch, refined_status: str | None = None) -> list[bool]:
    """Replace ``clarabel.DefaultSolver``: each solve runs the real one and reports "AlmostSolved" when iterative
    refinement is off, else ``refined_status`` (default: the real status). Returns the list that records, per
    solve, whether refinement was on."""
    import clarabel

    solver, refinements = clarabel.DefaultSolver, []

    class Scripted:
        def __init__(self, *arguments):
            self.refine = arguments[-1].iterative_refinement_enable
            self.inner = solver(*arguments)

        def set_termination_callback(self, callback):
            self.inner.set_termination_callback(callback)

        def solve(self):
            refinements.append(self.refine)
            solution = self.inner.solve()
            status = (refined_status or str(solution.status)) if self.refine else "AlmostSolved"
            return types.SimpleNamespace(status=status, iterations=solution.iterations, x=solution.x, z=solution.z)

    monkeypatch.setattr(clarabel, "DefaultSolver", Scripted)
    return refinements
