"""The :class:`Mechanism`: a validated row-stochastic matrix ``Q[x, y] = P(Y = y | X = x)``."""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from ._validate import SUM_ATOL, RandomState, as_probability_vector, as_stochastic_matrix, check_count
from .exceptions import InvalidMechanismError
from .randomness import ExactSampler


class Mechanism:
    """A privacy mechanism: a row-stochastic matrix whose rows are inputs and columns outputs.

    Parameters
    ----------
    matrix
        ``matrix[x, y] = P(Y = y | X = x)``. Validated: finite, non-negative (entries above
        ``-1e-12`` are round-off and set to 0), rows summing to 1 within ``1e-9``. The stored matrix is
        a read-only copy.

    Examples
    --------
    >>> Q = Mechanism([[0.75, 0.25], [0.25, 0.75]])
    >>> Q.output_distribution([0.5, 0.5])
    array([0.5, 0.5])
    """

    __slots__ = ("_matrix", "_sampler")  # _sampler: the sampling table, built on first use

    def __init__(self, matrix: Any) -> None:
        array = as_stochastic_matrix(matrix.matrix if isinstance(matrix, Mechanism) else matrix)
        array.setflags(write=False)
        self._matrix = array

    @classmethod
    def from_cleaned(cls, matrix: np.ndarray) -> "Mechanism":
        """A mechanism from a 2-D float array that is non-negative by construction, checking only its row sums.

        For :func:`~mechdesign.result.clean_mechanism`'s output (a solver's point clipped at 0 and divided by its
        row sums) and its mixes with the constant mechanism (:func:`~mechdesign.result.mix_with_constant`), which a
        design validates at every point of a curve. What the full validation of :class:`Mechanism` checks and this
        one skips is implied by that construction: the conversion to a float array (the argument is one), the
        non-negativity (entries clipped at 0 and divided by a positive sum; a mix of non-negative matrices with
        weights in ``[0, 1]``), and the finiteness, given the non-negativity: a row holding an infinite or NaN entry
        sums to ``inf`` or NaN, which the row-sum check rejects. The rows must sum to 1 within ``1e-9`` (as for
        :class:`Mechanism`): a row of a cleaned point whose entries were all clipped to 0 becomes NaN and is
        rejected here. The stored matrix is a read-only copy.

        Parameters
        ----------
        matrix
            A non-negative ``(n_inputs, n_outputs)`` float array (not checked).

        Raises
        ------
        InvalidMechanismError
            If a row's sum is farther than ``1e-9`` from 1, or not a number.

        Examples
        --------
        >>> from mechdesign.result import clean_mechanism
        >>> Mechanism.from_cleaned(clean_mechanism(np.array([[0.7, 0.3 + 1e-9, -1e-9], [0.2, 0.8, 0.0]]))).matrix
        array([[0.7, 0.3, 0. ],
               [0.2, 0.8, 0. ]])
        >>> Mechanism.from_cleaned(np.array([[0.5, 0.4], [0.5, 0.5]]))
        Traceback (most recent call last):
        mechdesign.exceptions.InvalidMechanismError: mechanism is not row-stochastic: row 0 sums to 0.9 (tolerance 1e-09; 1 bad row(s))
        """
        sums = matrix.sum(axis=1)
        if not np.abs(sums - 1.0).max(initial=0.0) <= SUM_ATOL:  # a NaN sum makes the maximum NaN, which fails: rejected
            bad_rows = np.flatnonzero(~(np.abs(sums - 1.0) <= SUM_ATOL))
            row = int(bad_rows[0])
            raise InvalidMechanismError(f"mechanism is not row-stochastic: row {row} sums to {sums[row]:.12g} "
                                        f"(tolerance {SUM_ATOL:g}; {bad_rows.size} bad row(s))")
        mechanism = cls.__new__(cls)
        array = matrix.copy(order="K")  # the layout Mechanism() keeps: sums over it round the same way
        array.setflags(write=False)
        mechanism._matrix = array
        return mechanism

    @property
    def matrix(self) -> np.ndarray:
        """The (read-only) conditional probability matrix."""
        return self._matrix

    @property
    def n_inputs(self) -> int:
        """Size of the input alphabet (number of rows)."""
        return self.shape[0]

    @property
    def n_outputs(self) -> int:
        """Size of the output alphabet (number of columns)."""
        return self.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        """``(n_inputs, n_outputs)``."""
        return self._matrix.shape

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.matrix.astype(dtype) if dtype is not None else self.matrix.copy()

    def __repr__(self) -> str:
        return f"Mechanism({np.array2string(self.matrix, precision=4, suppress_small=True)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mechanism):
            return NotImplemented
        return self.shape == other.shape and bool(np.array_equal(self.matrix, other.matrix))

    __hash__ = None  # type: ignore[assignment]

    def allclose(self, other: "MechanismLike", atol: float = 1e-8) -> bool:
        """Whether ``other`` has the same shape and entries within ``atol``."""
        other_matrix = as_mechanism(other).matrix
        return self.shape == other_matrix.shape and bool(np.allclose(self.matrix, other_matrix, rtol=0, atol=atol))

    def compose(self, channel: "MechanismLike") -> "Mechanism":
        """Post-process the output with ``channel`` (``channel[y, z] = P(Z = z | Y = y)``).

        Returns the mechanism ``X → Z`` with matrix ``self.matrix @ channel``.
        """
        channel_matrix = as_mechanism(channel).matrix
        check_count(channel_matrix.shape[0], self.n_outputs, "channel", "rows (one per output of the mechanism)")
        return Mechanism(self.matrix @ channel_matrix)

    def output_distribution(self, prior: Any) -> np.ndarray:
        """``P_Y = P_X Q`` for an input distribution ``prior``."""
        return self._prior_vector(prior) @ self.matrix

    def joint(self, prior: Any) -> np.ndarray:
        """The joint distribution ``P(X = x, Y = y) = P_X(x) Q[x, y]``."""
        return self._prior_vector(prior)[:, None] * self.matrix

    def sample(self, inputs: Any, rng: RandomState = None) -> np.ndarray:
        """Run the mechanism on data: one output index drawn for each input index.

        Sampling is exact for the matrix rounded to multiples of ``2**-53``
        (:class:`~mechdesign.randomness.ExactSampler`, built on the first call and kept).

        Parameters
        ----------
        inputs
            Integer array of input indices in ``[0, n_inputs)`` (any shape).
        rng
            ``None`` (default): the operating system's cryptographically secure entropy. A numpy
            Generator or a seed makes the draws reproducible — for tests; a release takes its
            generator from :func:`~mechdesign.randomness.release_rng`, which warns.

        Returns
        -------
        Integer array of output indices with the shape of ``inputs``.

        Examples
        --------
        >>> Mechanism([[0.0, 1.0], [1.0, 0.0]]).sample([0, 1, 1]).tolist()
        [1, 0, 0]
        """
        return self._exact_sampler().sample(inputs, rng)

    def _exact_sampler(self) -> ExactSampler:
        """The integer sampling table of :attr:`matrix`, built on first use and cached."""
        try:
            return self._sampler
        except AttributeError:
            self._sampler = ExactSampler(self.matrix)
            return self._sampler

    def _prior_vector(self, prior: Any) -> np.ndarray:
        vector = getattr(prior, "probabilities", prior)
        return as_probability_vector(vector, "prior", size=self.n_inputs)


MechanismLike = Union[Mechanism, np.ndarray, list]


def as_mechanism(value: "MechanismLike") -> Mechanism:
    """Return ``value`` as a :class:`Mechanism` (validating it if it is an array).

    Examples
    --------
    >>> mechanism = as_mechanism([[0.5, 0.5], [0.0, 1.0]])
    >>> mechanism.matrix.tolist(), as_mechanism(mechanism) is mechanism
    ([[0.5, 0.5], [0.0, 1.0]], True)
    >>> as_mechanism([[0.5, 0.4]])
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidMechanismError: mechanism is not row-stochastic: row 0 sums to 0.9 (tolerance 1e-09; 1 bad row(s))
    """
    return value if isinstance(value, Mechanism) else Mechanism(value)
