"""Sub-convex utilities: ``U(Q) = Σ_y μ(Q[:, y])`` with a sub-linear column utility ``μ``.

Kairouz, Oh & Viswanath 2016; Grosse et al., "Privacy Mechanism Design based on Empirical
Distributions", eq. (2): ``μ`` is *sub-linear* — positively homogeneous (``μ(c v) = c μ(v)``, ``c ≥ 0``)
and convex. Mutual information is one (:func:`mechdesign.utility.information.mutual_information_utility`).
Such a utility is maximized exactly by the LP over extreme columns of
:mod:`mechdesign.designers.extreme_columns`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validate import as_sublinear_values


@dataclass(frozen=True)
class ColumnUtility:
    """A sub-convex utility ``U(Q) = Σ_y μ(Q[:, y])`` given by its sub-linear column utility ``μ``.

    Parameters
    ----------
    function
        ``μ`` evaluated on many columns at once: an ``(n_inputs, k)`` array → ``k`` values. It must be
        positively homogeneous and convex (sub-linear); homogeneity is checked on the candidates,
        convexity is the caller's promise (without it the LP optimum is only a lower bound).
    n_inputs
        Input alphabet size.
    label
        Name used in messages.

    Examples
    --------
    >>> total_variation_gain = ColumnUtility(lambda columns: np.abs(columns[0] - columns[1]), 2, "tv")
    >>> total_variation_gain.value(np.array([[0.75, 0.25], [0.25, 0.75]]))  # |0.75 − 0.25| twice
    1.0
    """

    function: Callable[[np.ndarray], np.ndarray]
    n_inputs: int
    label: str = "column_utility"

    def columns(self, columns: np.ndarray) -> np.ndarray:
        """``μ`` of every column of ``columns`` (validated: finite, one value per column).

        Examples
        --------
        >>> ColumnUtility(lambda v: np.abs(v[0] - v[1]), 2, "tv").columns(np.array([[0.75, 0.25], [0.25, 0.75]]))
        array([0.5, 0.5])
        """
        return as_sublinear_values(self.function(columns), columns.shape[1], self.label)

    def value(self, matrix: np.ndarray) -> float:
        """``U(Q) = Σ_y μ(Q[:, y])``.

        Examples
        --------
        >>> ColumnUtility(lambda v: v.max(axis=0), 2, "max").value([[0.75, 0.25], [0.25, 0.75]])  # 0.75 + 0.75
        1.5
        """
        return float(self.columns(np.asarray(matrix, dtype=float)).sum())
