"""Multi-secret summary statistic privacy (Wang et al., "Guarding Multiple Secrets", eqs. (1), (6), §5.2, (10)).

The privacy of a mechanism releasing θ' from θ ~ ω_Θ is the success probability of the best attacker
guessing the secrets ``g(θ)`` from θ'. On a finite :class:`~mechdesign.parameter_spaces.ParameterSpace`

``Π(Q) = Σ_{θ'} max_{ĝ ∈ ℝ^d} Σ_θ ω(θ) Q[θ, θ'] · 1[success(ĝ, g(θ))]``

(the attacker picks its best guess for each release; Wang et al. eq. (11)). The success event is, per
notion: any secret within tolerance (union, eq. (1)); all secrets (intersection, eq. (6)); all secrets
of some group (group secrets, §5.2); ``‖ĝ − g(θ)‖_p ≤ ε_p`` (ℓp norm, eq. (10)).

The finite candidate guesses that suffice, and the ℓp coverage geometry behind them, are in
:mod:`mechdesign.privacy.coverage`; the exact designs (one LP per distortion threshold, bisection) in
:mod:`mechdesign.designers.summary`.

Budgets are probabilities
-------------------------
The budget of these notions is a success probability ``T ∈ [0, 1]``, not nats: ``scaled_budget`` is the
identity (with validation) and ``measure`` returns a probability. The constraint ``Π(Q) ≤ T`` is linear
(an epigraph variable per output, the maximum over the candidate guesses): an LP.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np
from .._lazy import scipy_sparse as sp

from .._validate import (
    as_instance,
    as_norm_order,
    as_positive_vector,
    as_probability_budget,
    as_sequence,
)
from ..exceptions import MechDesignError, ProblemTooLargeError
from ..parameter_spaces import ParameterSpace
from ..relaxation import LinearRelaxation, column_weight_rows
from .base import PrivacyNotion
from .coverage import (
    EVENT_RTOL,
    MAX_COVERAGE_ENTRIES,
    circle_intersections,
    coordinate_hits,
    maximal_coverable_sets,
    maximal_rows,
    product_candidates,
    sphere_intersections,
)


class SummaryStatisticPrivacy(PrivacyNotion):
    """Base of the four multi-secret summary statistic privacy notions (budget: a probability T).

    Parameters
    ----------
    space
        The :class:`~mechdesign.parameter_spaces.ParameterSpace` (inputs, prior, secrets, tolerances).

    Notes
    -----
    The budget is a probability ``T ∈ [0, 1]`` (the attacker's success), not a number of nats:
    :meth:`scaled_budget` is the identity on ``[0, 1]`` and raises
    :class:`~mechdesign.exceptions.InvalidBudgetError` outside it.
    """

    needs_prior = True

    def __init__(self, space: ParameterSpace) -> None:
        self.space = as_instance(space, ParameterSpace, "space")
        self.n_inputs = space.n_inputs
        guesses = self.candidate_guesses()
        size = guesses.shape[0] * space.n_inputs
        if size > MAX_COVERAGE_ENTRIES:
            raise ProblemTooLargeError(
                f"{guesses.shape[0]} candidate guesses × {space.n_inputs} inputs = {size} exceeds {MAX_COVERAGE_ENTRIES}"
            )
        self.guesses = guesses
        self._hits = self.success(guesses, space.secret_values).astype(float)
        self.coverage = maximal_rows(self._hits)
        self._gains = self.coverage * space.prior.probabilities[None, :]

    @abstractmethod
    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``(c, n)`` booleans: does guess ``c`` (a row of ``guesses``) succeed on secret values row ``n``."""

    @abstractmethod
    def candidate_guesses(self) -> np.ndarray:
        """A finite set of guesses ``(c, d)`` no guess in ``ℝ^d`` outperforms (:mod:`mechdesign.privacy.coverage`)."""

    def scaled_budget(self, budget: float) -> float:
        """The budget is the probability T itself (validated to lie in [0, 1]).

        Examples
        --------
        >>> from mechdesign.parameter_spaces import ParameterSpace
        >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
        >>> IntersectionPrivacy(space).scaled_budget(0.5)
        0.5
        >>> IntersectionPrivacy(space).scaled_budget(2.0)
        Traceback (most recent call last):
            ...
        mechdesign.exceptions.InvalidBudgetError: intersection_privacy budget T must be a probability in [0, 1], got 2.0
        """
        return as_probability_budget(budget, f"{self.name} budget T")

    def budget_from_scaled(self, value: float) -> float:
        """Inverse of :meth:`scaled_budget`: the probability, clipped to [0, 1].

        Examples
        --------
        >>> from mechdesign.parameter_spaces import ParameterSpace
        >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
        >>> IntersectionPrivacy(space).budget_from_scaled(1.0 + 1e-12)
        1.0
        """
        return min(1.0, max(0.0, float(value)))

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``Σ_{θ'} max_c Σ_θ ω(θ) 1[c succeeds on θ] Q[θ, θ']`` — the best attacker's success.

        Examples
        --------
        >>> from mechdesign.parameter_spaces import ParameterSpace
        >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
        >>> constant = cp.Constant(np.full((4, 4), 0.25))  # releases nothing: the blind guess, 1/4
        >>> round(float(IntersectionPrivacy(space).leakage_expression(constant).value), 12)
        0.25
        """
        return cp.sum(cp.max(self._gains @ Q, axis=0))

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return [self.leakage_expression(Q) <= scaled]

    def attacker_rows(self, shape: tuple[int, int]) -> LinearRelaxation:
        """``gains_c · Q[:, y] <= M_y`` for every candidate guess ``c`` and output ``y`` (``M ∈ [0, 1]``): the
        best attacker's success is ``Σ_y M_y`` at the least ``M``.

        Examples
        --------
        >>> from mechdesign.parameter_spaces import ParameterSpace
        >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
        >>> rows = IntersectionPrivacy(space).attacker_rows((4, 4))
        >>> rows.rows_q.shape, rows.n_aux  # 4 candidate guesses × 4 outputs; one M_y per output
        ((16, 16), 4)
        """
        m = shape[1]
        rows = column_weight_rows(shape, self._gains)
        aux = sp.kron(np.ones((self._gains.shape[0], 1)), -sp.identity(m))
        return LinearRelaxation(rows, sp.csr_matrix(aux), np.zeros(rows.shape[0]), np.zeros(m), np.ones(m))

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraint itself (an LP): :meth:`attacker_rows` and ``Σ_y M_y <= T``.

        Examples
        --------
        >>> from mechdesign.parameter_spaces import ParameterSpace
        >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
        >>> relaxation = IntersectionPrivacy(space).relaxation([np.eye(4)], 0.5)
        >>> relaxation.rows_q.shape, float(relaxation.rhs[-1])
        ((17, 16), 0.5)
        """
        shape = points[0].shape
        attacker = self.attacker_rows(shape)
        budget_row = LinearRelaxation(sp.csr_matrix((1, shape[0] * shape[1])), sp.csr_matrix(np.ones((1, shape[1]))),
                                      np.array([self.scaled_budget(budget)]), np.zeros(0), np.zeros(0))
        return LinearRelaxation(sp.csr_matrix(sp.vstack([attacker.rows_q, budget_row.rows_q])),
                                sp.csr_matrix(sp.vstack([attacker.rows_aux, budget_row.rows_aux])),
                                np.concatenate([attacker.rhs, budget_row.rhs]), attacker.aux_lower, attacker.aux_upper)

    def _measure(self, matrix: np.ndarray) -> float:
        # Independent of the constraints: every candidate guess (not only the maximal covered sets)
        # is evaluated with the success event on the joint distribution of (θ, θ').
        joint = self.space.prior.probabilities[:, None] * matrix
        return float((self._hits @ joint).max(axis=0).sum())

    def prior_vulnerability(self) -> float:
        """Success of the best attacker seeing nothing: the smallest T any mechanism reaches.

        Examples
        --------
        >>> from mechdesign.parameter_spaces import ParameterSpace
        >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
        >>> IntersectionPrivacy(space).prior_vulnerability()  # one of four (μ, σ) pairs
        0.25
        """
        return float((self.coverage @ self.space.prior.probabilities).max())


class UnionPrivacy(SummaryStatisticPrivacy):
    """Union privacy (Wang et al. eq. (1)): the attacker wins if *any* secret is within tolerance.

    Examples
    --------
    The guess ``(0, 1)`` hits ``μ = 0`` or ``σ = 1`` on three of the four inputs; releasing the input
    itself lets the attacker always win:

    >>> from mechdesign.parameter_spaces import ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
    >>> notion = UnionPrivacy(space)
    >>> notion.prior_vulnerability(), notion.measure(np.eye(4))
    (0.75, 1.0)
    """

    name = "union_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, eq. (1)"

    def candidate_guesses(self) -> np.ndarray:
        return product_candidates(self.space.secret_values, self.space.tolerances)

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        return coordinate_hits(guesses, values, self.space.tolerances).any(axis=2)


class IntersectionPrivacy(UnionPrivacy):
    """Intersection privacy (Wang et al. eq. (6)): the attacker wins if *every* secret is within tolerance.

    Examples
    --------
    >>> from mechdesign.parameter_spaces import ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
    >>> notion = IntersectionPrivacy(space)
    >>> notion.success(np.array([[0.0, 1.0]]), space.secret_values)  # only (μ, σ) = (0, 1)
    array([[ True, False, False, False]])
    >>> notion.prior_vulnerability(), notion.measure(np.eye(4))
    (0.25, 1.0)
    """

    name = "intersection_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, eq. (6)"

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        return coordinate_hits(guesses, values, self.space.tolerances).all(axis=2)


class GroupPrivacy(UnionPrivacy):
    """Group secrets privacy (Wang et al. §5.2): the attacker wins if every secret of *some* group is
    within tolerance.

    Parameters
    ----------
    space
        The parameter space.
    groups
        Disjoint, non-empty groups of secret indices (``0 … d−1``).

    Examples
    --------
    One group of both secrets is intersection privacy; two singleton groups are union privacy:

    >>> from mechdesign.parameter_spaces import ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
    >>> GroupPrivacy(space, [[0, 1]]).prior_vulnerability(), GroupPrivacy(space, [[0], [1]]).prior_vulnerability()
    (0.25, 0.75)
    >>> GroupPrivacy(space, [[0], [1]]).label
    'group_privacy(0|1)'
    """

    name = "group_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, §5.2"

    def __init__(self, space: ParameterSpace, groups: Sequence[Sequence[int]]) -> None:
        self.groups = as_groups(groups, as_instance(space, ParameterSpace, "space").n_secrets)
        super().__init__(space)

    @property
    def label(self) -> str:
        return f"{self.name}({'|'.join(','.join(map(str, g)) for g in self.groups)})"

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        hits = coordinate_hits(guesses, values, self.space.tolerances)
        return np.any([hits[:, :, list(group)].all(axis=2) for group in self.groups], axis=0)


class LpNormPrivacy(SummaryStatisticPrivacy):
    """ℓp norm privacy (Wang et al. eq. (10)): the attacker wins if ``‖ĝ − g(θ)‖_p ≤ ε_p``.

    Parameters
    ----------
    space
        The parameter space (its per-secret tolerances are not used).
    p
        Norm order ``p ≥ 1`` or ``inf``. The best attacker is exact for every ``p`` and ``d``: closed-form
        candidates for ``p = inf`` or ``d ≤ 2``, maximal coverable sets otherwise (:mod:`mechdesign.privacy.coverage`).
    tolerance
        ``ε_p > 0``.

    Raises
    ------
    ProblemTooLargeError
        For ``d ≥ 3`` and finite ``p``, beyond :data:`~mechdesign.privacy.coverage.MAX_LP_POINTS` distinct secret vectors,
        :data:`~mechdesign.privacy.coverage.MAX_BALL_SOLVES` enclosing-ball solves or
        :data:`~mechdesign.privacy.coverage.MAX_COVER_CHECKS` coverability checks.

    Examples
    --------
    The secret vectors are the corners of a unit square: a Euclidean ball of radius 1/2 covers two
    of them (centred between), of radius 1 all four (centred in the middle):

    >>> from mechdesign.parameter_spaces import ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])  # 4 (μ, σ), uniform prior
    >>> LpNormPrivacy(space, 2, 0.5).prior_vulnerability(), LpNormPrivacy(space, 2, 1.0).prior_vulnerability()
    (0.5, 1.0)
    """

    name = "lp_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, eq. (10)"

    def __init__(self, space: ParameterSpace, p: float, tolerance: float) -> None:
        self.p = as_norm_order(p)
        self.tolerance = float(as_positive_vector(tolerance, "tolerance", size=1)[0])
        super().__init__(space)

    @property
    def label(self) -> str:
        return f"{self.name}(p={self.p:g})"

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        gaps = np.abs(guesses[:, None, :] - values[None, :, :])
        norms = np.linalg.norm(gaps, ord=self.p, axis=2)
        return norms <= self.tolerance * (1.0 + EVENT_RTOL)

    def candidate_guesses(self) -> np.ndarray:
        values, eps = self.space.secret_values, self.tolerance
        d = values.shape[1]
        if self.p == np.inf or d == 1:
            return product_candidates(values, np.full(d, eps))
        if d >= 3:
            return maximal_coverable_sets(np.unique(values, axis=0), self.p, eps)[1]
        if self.p == 1.0:  # |a| + |b| = max(|a + b|, |a − b|): a box in rotated coordinates
            rotated = product_candidates(np.stack([values.sum(1), values[:, 0] - values[:, 1]], 1), np.full(2, eps))
            return np.stack([(rotated[:, 0] + rotated[:, 1]) / 2, (rotated[:, 0] - rotated[:, 1]) / 2], 1)
        points = np.unique(values, axis=0)
        if self.p == 2.0:
            return np.vstack([points, circle_intersections(points, eps)])
        return np.vstack([points, sphere_intersections(points, eps, self.p)])


def as_groups(groups: Sequence[Sequence[int]], d: int) -> tuple[tuple[int, ...], ...]:
    """Validate disjoint, non-empty groups of secret indices in ``0 … d−1``.

    Parameters
    ----------
    groups
        Sequences of secret indices.
    d
        The number of secrets.

    Returns
    -------
    tuple of tuple of int
        The groups.

    Raises
    ------
    MechDesignError
        If a group is empty, an index is out of range or in two groups, or there is no group.

    Examples
    --------
    >>> as_groups([[0, 2], [1]], 3)
    ((0, 2), (1,))
    >>> as_groups([[0, 1], [1]], 3)
    Traceback (most recent call last):
        ...
    mechdesign.exceptions.MechDesignError: secret 1 belongs to two groups: groups must be disjoint
    """
    result, seen = [], set()
    for index, group in enumerate(as_sequence(groups, "groups")):
        members = tuple(_secret_index(i, f"groups[{index}]") for i in as_sequence(group, f"groups[{index}]"))
        if not members:
            raise MechDesignError("a secret group is empty")
        for i in members:
            if not 0 <= i < d:
                raise MechDesignError(f"secret index {i} in group {members} is outside 0..{d - 1}")
            if i in seen:
                raise MechDesignError(f"secret {i} belongs to two groups: groups must be disjoint")
            seen.add(i)
        result.append(members)
    if not result:
        raise MechDesignError("at least one secret group is needed")
    return tuple(result)


def _secret_index(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise MechDesignError(f"{name} must hold secret indices (integers), got {value!r}")
    return int(value)
