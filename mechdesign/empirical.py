"""From data samples to a mechanism with an (ε', δ)-PML guarantee (Grosse et al., Fig. 1).

The procedure of "Privacy Mechanism Design based on Empirical Distributions" (Grosse, Saeidian,
Oechtering & Skoglund), in one call:

1. estimate ``P̂`` from ``m`` samples (eq. (3)) and take the radius ``β = β*(δ)`` (eq. (7)), so that the
   true prior lies in ``B_β(P̂)`` with probability at least ``1 − δ`` (Theorem 2);
2. design the optimal mechanism, either robustly for every prior of the ball (eq. (9), Section V) or
   for the estimate ``P̂`` alone;
3. certify it: the exact worst-case PML over the ball, ``ε' = C(Q, B_β(P̂))`` (Definition 5), so that
   the mechanism is ε'-PML for the true prior with probability at least ``1 − δ``. For a design for
   ``P̂`` the paper's bound ε'(δ) of eq. (8) is reported next to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Union

from ._numeric import exp_budget
from ._validate import as_budget, as_flag, as_solver, call_user
from .mechanism import Mechanism
from .priors import L1Ball, Prior
from .privacy.pml import PointwiseMaximalLeakage
from .privacy.pml_analysis import leakage_capacity
from .solve import Result, design
from .theory.pml import cor2_leakage_bound
from .utility.base import Objective, as_objective
from .utility.distortion import ExpectedDistortion

ObjectiveSpec = Union[Objective, Callable[[Prior], Objective], None]


@dataclass(frozen=True)
class EmpiricalDesign:
    """A mechanism designed from samples and its (ε', δ)-PML guarantee.

    Attributes
    ----------
    estimate
        The empirical estimate ``P̂`` (eq. (3)).
    ball
        ``B_β(P̂) ∩ simplex`` with ``β = β*(δ)`` (eq. (7)).
    delta
        Probability that the true prior lies outside the ball (the guarantee's δ).
    epsilon
        The design budget.
    robust
        Whether the design was for every prior of the ball (``True``) or for ``P̂`` alone.
    result
        The :class:`~mechdesign.solve.Result` of the design.
    worst_case_pml
        ``C(Q, B_β(P̂))``, the exact worst-case PML of the mechanism over the ball (``None`` without a
        mechanism). It is the certified ε': ``ε'``-PML holds for the true prior w.p. ``>= 1 − δ``.
    paper_bound
        For a design for ``P̂``: eq. (8)'s ``ε + log(1 − β e^ε/2)^{−1}`` when ``β e^ε < 2`` (else
        ``None``); for a robust design, ``epsilon``.
    n_samples
        The number of samples ``m``.
    """

    estimate: Prior
    ball: L1Ball
    delta: float
    epsilon: float
    robust: bool
    result: Result
    worst_case_pml: float | None
    paper_bound: float | None
    n_samples: int

    @property
    def radius(self) -> float:
        """β = β*(δ)."""
        return self.ball.radius

    @property
    def mechanism(self) -> Mechanism | None:
        """The designed mechanism (``None`` if the design failed)."""
        return self.result.mechanism

    @property
    def epsilon_prime(self) -> float | None:
        """The certified ε' of the (ε', δ)-PML guarantee (= :attr:`worst_case_pml`)."""
        return self.worst_case_pml

    @property
    def success(self) -> bool:
        """Whether a mechanism was designed and certified."""
        return self.result.success and self.worst_case_pml is not None

    def summary(self) -> str:
        """A short report of the estimate, the radius and the guarantee."""
        target = "every prior of the ball" if self.robust else "the estimate"
        lines = [
            f"m = {self.n_samples} samples, estimate {self.estimate}, radius beta = {self.radius:.6g}, delta = {self.delta:.3g}",
            f"designed for {target} at epsilon = {self.epsilon:.6g}: {self.result.status}",
        ]
        if self.worst_case_pml is not None:
            lines.append(f"guarantee: ({self.worst_case_pml:.10g}, {self.delta:.3g})-PML (exact worst case over the ball)")
        if self.paper_bound is not None and not self.robust:
            lines.append(f"paper's eq. (8) bound: {self.paper_bound:.10g}")
        return "\n".join(lines)


def design_from_samples(
    samples: Any,
    size: int,
    epsilon: float,
    delta: float,
    objective: ObjectiveSpec = None,
    *,
    robust: bool = True,
    solver: str | None = None,
) -> EmpiricalDesign:
    """Samples → ``(P̂, β)`` → optimal mechanism → (ε', δ)-PML guarantee (Grosse et al., Fig. 1).

    Parameters
    ----------
    samples
        Integer symbols in ``{0, …, size-1}`` drawn i.i.d. from the unknown prior.
    size
        Alphabet size ``N >= 2``.
    epsilon
        Design budget (nats): robust designs are ε-PML for every prior of the ball.
    delta
        Probability of failure, ``0 < δ < 1``; sets the radius ``β*(δ)`` of eq. (7).
    objective
        An :class:`~mechdesign.utility.base.Objective`, or a callable building one from ``P̂``;
        default: expected Hamming distortion under ``P̂``.
    robust
        Design for every prior of ``B_β(P̂)`` (default) or for ``P̂`` only.
    solver
        Passed to :func:`~mechdesign.solve.design`.

    Returns
    -------
    EmpiricalDesign
        Frozen; ``success=False`` (with the design's reason) if no mechanism was found.

    Examples
    --------
    >>> samples = [0, 0, 1, 2, 0, 1, 0, 2, 1, 0] * 10  # 100 samples of a 3-symbol source
    >>> designed = design_from_samples(samples, 3, 1.0, 0.05)
    >>> designed.estimate, round(designed.ball.radius, 6), designed.result.success
    (Prior([0.5 0.3 0.2]), 0.309435, True)
    """
    budget = as_budget(epsilon)
    solver = as_solver(solver)
    robust = as_flag(robust, "robust")
    ball = L1Ball.from_samples(samples, size, delta)
    estimate = ball.center
    notion = PointwiseMaximalLeakage(ball if robust else estimate)
    if objective is None:
        chosen: Objective = ExpectedDistortion(estimate)
    elif isinstance(objective, Objective):
        chosen = objective
    else:
        chosen = as_objective(call_user(objective, "objective", estimate), "objective(estimate)")
    result = design(notion, budget, chosen, solver=solver)
    worst = None if result.mechanism is None else leakage_capacity(result.mechanism, ball)
    return EmpiricalDesign(
        estimate=estimate,
        ball=ball,
        delta=float(delta),
        epsilon=budget,
        robust=robust,
        result=result,
        worst_case_pml=worst,
        paper_bound=budget if robust else _eq8_bound(budget, ball.radius),
        n_samples=len(samples),
    )


def _eq8_bound(epsilon: float, radius: float) -> float | None:
    """Eq. (8) (Corollary 2 with distance β), or ``None`` where it is vacuous (``β e^ε >= 2``)."""
    if radius * exp_budget(epsilon) >= 2:
        return None
    return cor2_leakage_bound(epsilon, radius)
