"""The objective protocol: a cvxpy expression of the mechanism plus its plain-numpy value."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Literal

from .._lazy import cvxpy as cp
import numpy as np

from .._validate import _short, as_finite, as_instance, as_sequence
from ..exceptions import MechDesignError, ShapeMismatchError
from ..mechanism import MechanismLike, as_mechanism
from ..relaxation import ObjectiveMinorant


class Objective(ABC):
    """A quantity of the mechanism to minimize (distortion, leakage) or maximize (utility).

    Attributes
    ----------
    sense
        ``"minimize"`` or ``"maximize"``.
    is_linear
        Whether :meth:`expression` is LP-representable (piecewise linear and convex).
    shape
        ``(n_inputs, n_outputs)`` of the mechanisms it applies to.
    """

    sense: ClassVar[Literal["minimize", "maximize"]] = "minimize"
    is_linear: ClassVar[bool] = True
    shape: tuple[int, int]

    @property
    def label(self) -> str:
        """Short description for tables and messages."""
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label} on {self.shape[0]}×{self.shape[1]}>"

    @abstractmethod
    def expression(self, Q: cp.Expression) -> cp.Expression:
        """The objective as a cvxpy expression of the mechanism variable ``Q``."""

    def value(self, mechanism: MechanismLike) -> float:
        """The objective's value for a concrete mechanism (plain numpy).

        Examples
        --------
        >>> from mechdesign.utility.distortion import ExpectedDistortion
        >>> ExpectedDistortion([0.5, 0.5]).value([[0.75, 0.25], [0.25, 0.75]])  # Hamming: P(Y ≠ X)
        0.25
        """
        matrix = as_mechanism(mechanism).matrix
        self.check_shape(matrix.shape)
        return float(self._value(matrix))

    @abstractmethod
    def _value(self, matrix: np.ndarray) -> float:
        """:meth:`value` on a validated matrix of the right shape."""

    def minorant(self, matrix: np.ndarray) -> ObjectiveMinorant | None:
        """An affine function below the objective, tight at ``matrix`` (a mechanism with every entry
        positive), for the certificate of :mod:`mechdesign.certificate`; ``None`` (the default) if the
        objective offers none."""
        return None

    def unconstrained_optimum(self) -> np.ndarray | None:
        """A mechanism minimizing the objective over *every* mechanism (no privacy), if known in closed
        form; its value is a lower bound on every design's optimum."""
        return None

    @property
    def unit(self) -> float:
        """The objective's natural scale (the largest cost for a distortion): designs are solved in
        units of it, so that scaling the cost never changes the answer.

        Examples
        --------
        >>> from mechdesign.utility.distortion import ExpectedDistortion
        >>> ExpectedDistortion([0.5, 0.5], [[0, 3], [3, 0]]).unit
        3.0
        """
        return 1.0

    def rescaled(self, factor: float) -> "Objective":
        """The same objective measured in units ``factor`` times larger (itself when unit-free)."""
        return self

    def check_shape(self, shape: tuple[int, ...]) -> None:
        """Raise :class:`ShapeMismatchError` unless ``shape`` equals :attr:`shape`.

        Examples
        --------
        >>> from mechdesign.utility.distortion import ExpectedDistortion
        >>> ExpectedDistortion([0.5, 0.5]).check_shape((3, 3))
        Traceback (most recent call last):
            ...
        mechdesign.exceptions.ShapeMismatchError: expected_distortion applies to 2×2 mechanisms, got 3×3
        """
        if tuple(shape) != tuple(self.shape):
            raise ShapeMismatchError(
                f"{self.label} applies to {self.shape[0]}×{self.shape[1]} mechanisms, got "
                f"{shape[0]}×{shape[1]}"
            )


# --- the design arguments of this kind, validated (the boundary of design(), curves, designers) ---------


def as_objective(objective: Any, name: str = "objective") -> Objective:
    """An :class:`Objective` instance (distortion, mutual information, …).

    Examples
    --------
    >>> from mechdesign import ExpectedDistortion
    >>> as_objective(ExpectedDistortion([0.5, 0.5])).label
    'expected_distortion'
    """
    return as_instance(objective, Objective, name)


def as_objectives(objectives: Any, name: str = "limits") -> list[Objective]:
    """A possibly empty sequence of :class:`Objective` instances (``None``: none).

    Examples
    --------
    >>> as_objectives(())
    []
    """
    if objectives is None or isinstance(objectives, (list, tuple)) and not objectives:
        return []
    return [as_objective(item, f"{name}[{index}]") for index, item in enumerate(as_sequence(objectives, name))]


def as_limit_pairs(limits: Any, name: str = "limits") -> list[tuple[Objective, float]]:
    """``(objective, finite limit)`` pairs (the ``limits`` of :func:`~mechdesign.solve.design`); ``None``: none.

    Examples
    --------
    >>> from mechdesign import ExpectedDistortion
    >>> [(quantity.label, value) for quantity, value in as_limit_pairs([(ExpectedDistortion([1.0]), 0.5)])]
    [('expected_distortion', 0.5)]
    """
    if limits is None or isinstance(limits, (list, tuple)) and not limits:
        return []
    pairs = []
    for index, pair in enumerate(as_sequence(limits, name)):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise MechDesignError(f"{name}[{index}] must be a (quantity, limit) pair, got {_short(pair)}")
        pairs.append((as_objective(pair[0], f"{name}[{index}][0]"), as_finite(pair[1], f"{name}[{index}][1]")))
    return pairs
