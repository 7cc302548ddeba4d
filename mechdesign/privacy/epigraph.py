"""Leakage quantities that need auxiliary variables, as expressions of the mechanism alone.

Some leakages are convex in ``Q`` but have no cvxpy atom: Rényi divergences (``Σ_y Q_a^α Q_b^{1−α}``,
a power cone per entry) and capacity-type maxima over a set of priors (a minimum over an auxiliary
output distribution). They are written as an *epigraph*: an expression ``g(Q, u)`` and constraints
``C(Q, u)`` on auxiliary variables ``u`` such that the leakage is ``min_u {g(Q, u) : C(Q, u)}``.
"Leakage ≤ t" is then ``g <= t`` together with ``C`` (some ``u`` works), and the leakage itself is a
convex expression of ``Q`` through cvxpy's ``partial_optimize``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._lazy import cvxpy as cp


@dataclass(frozen=True)
class Epigraph:
    """``leakage(Q) = min_u {expression(Q, u) : constraints(Q, u)}`` over the auxiliary variables ``u``."""

    expression: cp.Expression
    constraints: list[cp.Constraint]

    def at_most(self, scaled: object) -> list[cp.Constraint]:
        """Constraints meaning ``leakage(Q) <= scaled`` (for a number or a cvxpy Parameter)."""
        return [*self.constraints, self.expression <= scaled]

    def minimized(self, Q: cp.Expression) -> cp.Expression:
        """The leakage as a convex expression of ``Q`` (the auxiliaries optimized out)."""
        own = {variable.id for variable in Q.variables()}
        inner = cp.Problem(cp.Minimize(self.expression), self.constraints)
        auxiliaries = [variable for variable in inner.variables() if variable.id not in own]
        if not auxiliaries:
            return self.expression
        return cp.transforms.partial_optimize.partial_optimize(inner, opt_vars=auxiliaries)
