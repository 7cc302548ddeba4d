"""Structured mechanisms held in ``O(n)`` memory: "keep the input, or redraw it from a fixed row".

A dense ``n × n`` mechanism is 80 GB at ``n = 10⁵``. The optimal mechanisms under local DP and
maximal leakage with Hamming cost (:mod:`mechdesign.methods.closed_form`) have the form

``Q[x, y] = (1 − c_x) 1[x = y] + c_x r_y``:

with probability ``1 − c_x`` the input ``x`` is reported as it is, otherwise a fresh symbol is drawn
from the row ``r``. Randomized response on a subset ``S`` is the case ``r`` uniform on ``S``,
``c_x = k / (e^ε + k − 1)`` on ``S`` (``k = |S|``) and ``c_x = 1`` elsewhere. The class stores the
redraw probabilities ``c`` (not ``1 − c``) so that entries ``c_x r_y`` of order ``e^{−ε}`` survive
when ``1 − c_x`` rounds to 1.

:class:`KeepOrRedraw` is a :class:`~mechdesign.mechanism.Mechanism`: sampling, output distributions and
the leakage measures below run in ``O(n)``; the dense :attr:`~KeepOrRedraw.matrix` is built only on
request and only below :data:`MAX_DENSE_ENTRIES` entries.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._validate import (
    RandomState,
    as_budget,
    as_indices,
    as_positive_budget,
    as_probability_vector,
    as_real_array,
)
from .exceptions import InvalidMechanismError, ProblemTooLargeError
from .mechanism import Mechanism
from .randomness import ExactSampler, probability_units, random_bits, sample_inputs, sampling_rng

#: Largest number of entries :attr:`KeepOrRedraw.matrix` materializes (8 bytes each: 800 MB).
MAX_DENSE_ENTRIES = 10**8


def worst_log_ratio(largest: np.ndarray, smallest: np.ndarray) -> float:
    """``max(0, max_y log(largest_y / smallest_y))`` over outputs with ``largest_y > 0``.

    ``inf`` when such an output has ``smallest_y <= 0``: the common last step of the local-DP and PML
    measures (a column's largest entry against its smallest entry, or against its output mass).

    Examples
    --------
    >>> round(worst_log_ratio(np.array([0.75, 0.0]), np.array([0.25, 0.0])), 6)
    1.098612
    """
    used = largest > 0
    kept = smallest[used]  # indexed once; count_nonzero, size and ndarray.max: no Python wrappers (a curve measures every point)
    if np.count_nonzero(kept <= 0):
        return math.inf
    if not kept.size:
        return 0.0
    return max(0.0, float(np.log(largest[used] / kept).max()))


def _top_two(values: np.ndarray) -> tuple[float, int, float]:
    """``(largest, its index, runner-up)`` of ``values`` (``-inf`` entries are non-members)."""
    first = int(np.argmax(values))
    runner_up = max(values[:first].max(initial=-np.inf), values[first + 1:].max(initial=-np.inf))
    return float(values[first]), first, float(runner_up)


def _extreme_products(row: np.ndarray, values: np.ndarray, diagonal: np.ndarray, largest: bool) -> np.ndarray:
    """For every ``y``: the max (or min) of ``diagonal[y]`` and ``row[y] · values[x]`` over ``x ≠ y`` (NaN-free terms).

    ``values`` holds ``-inf`` (for the max; ``+inf`` for the min) at inputs that do not count; a NaN
    in ``diagonal`` marks an output whose diagonal entry does not count.
    """
    sign = 1.0 if largest else -1.0
    best, first, runner_up = _top_two(sign * values)
    pick = np.fmax if largest else np.fmin
    with np.errstate(invalid="ignore"):
        extremes = pick(diagonal, row * (sign * best))
        extremes[first] = pick(diagonal[first], row[first] * (sign * runner_up))
    return extremes


class KeepOrRedraw(Mechanism):
    """``Q[x, y] = (1 − c_x) 1[x = y] + c_x r_y``: keep the input, or with probability ``c_x`` redraw from ``r``.

    Parameters
    ----------
    redraw
        ``c``: the probability, for each input, of replacing it by a draw from ``row``; in ``[0, 1]``.
    row
        ``r``: the distribution the replacement is drawn from (a probability vector, same length).

    Examples
    --------
    >>> Q = KeepOrRedraw.randomized_response([0, 1], 3, epsilon=math.log(3))
    >>> Q.matrix.round(3)
    array([[0.75, 0.25, 0.  ],
           [0.25, 0.75, 0.  ],
           [0.5 , 0.5 , 0.  ]])
    >>> round(Q.local_dp_leakage(), 6), round(Q.maximal_leakage(), 6)
    (1.098612, 0.405465)
    """

    __slots__ = ("redraw", "row", "_dense")

    def __init__(self, redraw: Any, row: Any) -> None:
        redraw_vector = as_real_array(redraw, "redraw", 1, InvalidMechanismError)
        outside = ~((redraw_vector >= 0) & (redraw_vector <= 1))
        if outside.any():
            index = int(np.argmax(outside))
            raise InvalidMechanismError(f"redraw[{index}] = {float(redraw_vector[index])!r} is not a probability in [0, 1]")
        self.redraw = redraw_vector
        self.row = as_probability_vector(row, "row", size=redraw_vector.size)
        self.redraw.setflags(write=False)
        self.row.setflags(write=False)
        self._dense: np.ndarray | None = None

    @classmethod
    def randomized_response(cls, subset: Any, size: int, epsilon: float) -> "KeepOrRedraw":
        """ε-randomized response on ``subset`` (its ``k`` symbols), inputs outside it mapped uniformly into it.

        ``Q[x, x] = e^ε / (e^ε + k − 1)`` and ``Q[x, y] = 1 / (e^ε + k − 1)`` for ``x ≠ y`` in the
        subset; every other input reports a uniform symbol of the subset. ``epsilon`` may be ``inf``.

        Examples
        --------
        >>> KeepOrRedraw.randomized_response([2], 3, epsilon=0.0).output_distribution([0.2, 0.3, 0.5])
        array([0., 0., 1.])
        """
        symbols = as_indices(subset, size, "subset", error=InvalidMechanismError)
        members = np.zeros(size, dtype=bool)
        members[symbols] = True
        k = int(np.count_nonzero(members))
        inverse = math.exp(-as_budget(epsilon, infinite=True))  # e^{−ε}, 0 for ε = inf
        redraw = np.where(members, k * inverse / (1.0 + (k - 1) * inverse), 1.0)
        row = members / k
        return cls(redraw, row)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.redraw.size, self.redraw.size)

    @property
    def matrix(self) -> np.ndarray:
        """The dense matrix, built on first access; :class:`ProblemTooLargeError` above :data:`MAX_DENSE_ENTRIES`."""
        if self._dense is None:
            n = self.redraw.size
            if n * n > MAX_DENSE_ENTRIES:
                raise ProblemTooLargeError(
                    f"the dense matrix of this {n}×{n} structured mechanism has {n * n:,} entries, above "
                    f"MAX_DENSE_ENTRIES = {MAX_DENSE_ENTRIES:,}; use its O(n) methods instead"
                )
            dense = self.redraw[:, None] * self.row[None, :]
            dense[np.diag_indices(n)] += 1.0 - self.redraw
            dense.setflags(write=False)
            self._dense = dense
        return self._dense

    def __repr__(self) -> str:
        return f"KeepOrRedraw(n={self.redraw.size}, redraw={self.redraw!r}, row={self.row!r})"

    def diagonal(self) -> np.ndarray:
        """``Q[x, x] = 1 − c_x + c_x r_x``."""
        return 1.0 - self.redraw + self.redraw * self.row

    def output_distribution(self, prior: Any) -> np.ndarray:
        """``P_Y(y) = P(y) (1 − c_y) + r_y Σ_x P(x) c_x`` in ``O(n)``."""
        probabilities = self._prior_vector(prior)
        return probabilities * (1.0 - self.redraw) + self.row * float(probabilities @ self.redraw)

    def sample(self, inputs: Any, rng: RandomState = None) -> np.ndarray:
        """One output per input index: the input itself, or with probability ``c_x`` a draw from ``r``.

        Exact for ``c`` and ``r`` rounded to multiples of ``2**-53``
        (:func:`~mechdesign.randomness.probability_units`): the redraw decision is one integer
        comparison with the units of ``c_x``, the redraw an :class:`~mechdesign.randomness.ExactSampler`
        of ``r``; memory ``O(n)`` besides the draws.

        Parameters
        ----------
        inputs
            Integer array of input indices (any shape).
        rng
            ``None`` (default): the operating system's entropy; a seed or a numpy Generator (tests).

        Returns
        -------
        numpy.ndarray
            int64 output indices of the shape of ``inputs``.

        Examples
        --------
        >>> KeepOrRedraw([0.0, 1.0, 1.0], [0.0, 0.0, 1.0]).sample([0, 1, 2]).tolist()
        [0, 2, 2]
        """
        data = sample_inputs(inputs, self.redraw.size)
        try:
            redraw_units, row_sampler = self._sampler
        except AttributeError:  # the tables of c (units of 2**-53) and of r, built on first use
            redraw_units = probability_units(np.stack([1.0 - self.redraw, self.redraw], axis=1))[:, 1]
            row_sampler = ExactSampler(self.row[None, :])
            self._sampler = redraw_units, row_sampler
        generator = sampling_rng(rng)
        outputs = data.copy()
        redrawn = random_bits(data.size, generator).reshape(data.shape) < redraw_units[data].astype(np.uint64)
        outputs[redrawn] = row_sampler.sample(np.zeros(int(np.count_nonzero(redrawn)), dtype=np.int64), generator)
        return outputs

    def column_extremes(self, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(max_x Q[x, y], min_x Q[x, y])`` for every output ``y``, over the inputs ``rows`` (a mask; all by default)."""
        diagonal = self.diagonal()
        if rows is None:
            counted_max = counted_min = self.redraw
        else:
            diagonal[~rows] = np.nan
            counted_max = np.where(rows, self.redraw, -np.inf)
            counted_min = np.where(rows, self.redraw, np.inf)
        return (_extreme_products(self.row, counted_max, diagonal, largest=True),
                _extreme_products(self.row, counted_min, diagonal, largest=False))

    def local_dp_leakage(self) -> float:
        """The smallest ε for which ``Q`` is ε-locally DP, ``max_y log(max_x Q[x, y] / min_x Q[x, y])``.

        Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(1), every pair of inputs neighbouring.
        """
        return worst_log_ratio(*self.column_extremes())

    def maximal_leakage(self) -> float:
        """``log Σ_y max_x Q[x, y]`` (Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(4))."""
        largest, _ = self.column_extremes()
        return max(0.0, math.log(float(np.nansum(largest))))

    def pml_leakage(self, prior: Any) -> float:
        """``max_y log(max_{x ∈ supp P} Q[x, y] / P_Y(y))`` (Grosse et al., "Privacy Mechanism Design
        based on Empirical Distributions", Definition 1)."""
        probabilities = self._prior_vector(prior)
        largest, _ = self.column_extremes(probabilities > 0)
        return worst_log_ratio(np.nan_to_num(largest), self.output_distribution(probabilities))

    def expected_hamming_distortion(self, prior: Any, scale: float = 1.0) -> float:
        """``scale · P(Y ≠ X) = scale · Σ_x P(x) c_x (1 − r_x)`` (PUT paper, eq. (1), Hamming cost)."""
        factor = as_positive_budget(scale, "scale")
        probabilities = self._prior_vector(prior)
        return factor * float(np.einsum("i,i,i->", probabilities, self.redraw, 1.0 - self.row))
