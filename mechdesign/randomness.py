"""Randomness for releases: the operating system's entropy by default, and exact sampling.

A privatized output is only as private as its randomness is unpredictable: a release drawn from a
seeded pseudo-random generator is reproducible by anyone who learns (or guesses) the seed. So

* :func:`release_rng` is what the deployment layer calls on a caller's ``random_state``: ``None`` —
  the default — means the operating system's cryptographically secure generator (``os.urandom``),
  anything else a seeded numpy ``Generator`` together with a :class:`SeededReleaseWarning`;
* :func:`random_bits` draws uniform integers in ``[0, 2**53)`` from either source;
* :class:`ExactSampler` samples a row-stochastic matrix *exactly* as rounded to multiples of
  ``2**-RESOLUTION_BITS``: each row is turned into integers summing to exactly ``2**53`` and a draw is
  one integer comparison, so no bias enters from cumulative sums of floats. The rounding is the only
  approximation, and :attr:`ExactSampler.rounded` is the matrix actually sampled.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

from ._validate import as_indices, as_positive_int, as_rng, as_stochastic_matrix
from .memory import check_array

#: Probabilities are sampled as integer multiples of ``2**-RESOLUTION_BITS``.
RESOLUTION_BITS = 53
#: Units of one row: every row of an :class:`ExactSampler`'s table sums to exactly this.
TOTAL_UNITS = 2**RESOLUTION_BITS
#: Bytes held per sampled input at the peak of :meth:`ExactSampler.sample` (the indices and their int64
#: copy, their order, the sorted indices, the draws, the outputs, validation masks), in float64
#: equivalents for the memory guard.
SAMPLE_COPIES = 8
#: Draws taken from ``os.urandom`` at a time (8 bytes each).
ENTROPY_CHUNK = 2**20
#: Arrays of the matrix's shape held at the peak of building the integer table (the validated copy,
#: scaled entries, units, remainders, sort keys, their order and ranks, the adjustment).
TABLE_COPIES = 8
#: One-line notice the command line prints when ``--seed`` is given.
SEEDED_NOTICE = ("mechdesign: notice: --seed makes this release reproducible by anyone who knows the seed; "
                 "use it for tests only")


class SeededReleaseWarning(UserWarning):
    """A release was drawn from a seeded generator: reproducible by anyone who knows the seed (tests only).

    Examples
    --------
    >>> issubclass(SeededReleaseWarning, UserWarning)
    True
    """


def release_rng(random_state: Any, name: str = "random_state") -> np.random.Generator | None:
    """The generator a release draws from: ``None`` (the operating system's entropy) unless seeded.

    Parameters
    ----------
    random_state
        ``None`` for the operating system's cryptographically secure generator; an integer seed, a
        ``numpy.random.SeedSequence`` or a ``numpy.random.Generator`` for a reproducible release
        (warned about: :class:`SeededReleaseWarning`).
    name
        The argument's name, used in the error for a bad seed.

    Returns
    -------
    numpy.random.Generator or None
        ``None`` means "draw from ``os.urandom``" (:func:`random_bits`).

    Examples
    --------
    >>> release_rng(None) is None
    True
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     generator = release_rng(0)
    >>> type(generator).__name__, caught[0].category.__name__
    ('Generator', 'SeededReleaseWarning')
    >>> release_rng("x")
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: random_state must be None, a non-negative integer seed or a numpy Generator, got 'x'
    """
    if random_state is None:
        return None
    generator = as_rng(random_state, name)
    warnings.warn(SeededReleaseWarning(
        f"{name} is set: a seeded release is reproducible by anyone who knows the seed; for tests only "
        f"(leave {name}=None to draw from the operating system's entropy)"), stacklevel=2)
    return generator


def random_bits(size: int, rng: np.random.Generator | None) -> np.ndarray:
    """``size`` independent uniform integers in ``[0, 2**RESOLUTION_BITS)``, as ``uint64``.

    Parameters
    ----------
    size
        How many (a non-negative integer).
    rng
        ``None`` for the operating system's cryptographically secure generator (8 bytes of
        ``os.urandom`` each, the top 53 bits kept); else a numpy ``Generator`` (tests).

    Returns
    -------
    numpy.ndarray
        ``uint64`` array of shape ``(size,)``.

    Examples
    --------
    >>> bits = random_bits(4, None)
    >>> bits.dtype.name, bits.shape, bool((bits < 2**53).all())
    ('uint64', (4,), True)
    >>> np.array_equal(random_bits(3, np.random.default_rng(1)), random_bits(3, np.random.default_rng(1)))
    True
    """
    count = as_positive_int(size, "size", minimum=0)
    if rng is not None:
        return rng.integers(0, TOTAL_UNITS, size=count, dtype=np.uint64)
    bits = np.empty(count, dtype=np.uint64)
    for start in range(0, count, ENTROPY_CHUNK):  # in chunks: the raw bytes never double the memory
        end = min(start + ENTROPY_CHUNK, count)
        bits[start:end] = np.frombuffer(os.urandom(8 * (end - start)), dtype="<u8") >> np.uint64(64 - RESOLUTION_BITS)
    return bits


def sampling_rng(rng: Any) -> np.random.Generator | None:
    """The generator of a sampling call: ``None`` stays ``None`` (the operating system's entropy); a seed
    or a Generator is validated (no warning: that is :func:`release_rng`'s, for releases).

    Examples
    --------
    >>> sampling_rng(None) is None, type(sampling_rng(3)).__name__
    (True, 'Generator')
    """
    return None if rng is None else as_rng(rng)


def sample_inputs(inputs: Any, n_inputs: int, name: str = "inputs") -> np.ndarray:
    """``inputs`` as int64 indices in ``[0, n_inputs)`` (any shape), refused by the memory guard first.

    The memory of the draws is checked *before* anything of the inputs' size is allocated, so a huge
    (e.g. broadcast) input is a :class:`~mechdesign.exceptions.ProblemTooLargeError`, not a
    ``MemoryError``.

    Examples
    --------
    >>> sample_inputs([[1, 0]], 2).tolist()
    [[1, 0]]
    """
    shape = np.shape(inputs)
    check_array(shape, f"sampling {int(np.prod(shape, dtype=object)):,} inputs", copies=SAMPLE_COPIES)
    return as_indices(inputs, n_inputs, name, ndim=None, empty=True)


def probability_units(matrix: np.ndarray) -> np.ndarray:
    """Each row of a row-stochastic ``matrix`` as int64 units of ``2**-53`` summing exactly to ``2**53``.

    A row's entries, times ``2**53``, are rounded down and the missing units given one each to the
    entries with the largest remainders (largest-remainder rounding). An entry that is 0 stays 0; a
    positive entry keeps at least one unit, so the support never shrinks — the units such tiny entries
    gain are taken from the entries with the smallest remainders. So:

    * a row whose entries sum exactly to 1 is rounded with every entry within one unit (``2**-53``) of
      its stored value, except in a row with entries below ``2**-53``, where the units they gain (one
      each) come from the row's larger entries; a row of multiples of ``2**-53`` is kept exactly;
    * a row whose stored sum is off by more units than it has positive entries (rows of a
      :class:`~mechdesign.mechanism.Mechanism` sum to 1 within ``1e-9``) is first scaled by its sum.

    Parameters
    ----------
    matrix
        ``(n, m)`` non-negative, rows summing to 1 (as validated by :class:`~mechdesign.mechanism.Mechanism`).

    Returns
    -------
    numpy.ndarray
        ``(n, m)`` int64 units.

    Examples
    --------
    >>> units = probability_units(np.array([[1 / 3, 1 / 3, 1 / 3], [1.0, 1e-300, 0.0]]))
    >>> units.sum(axis=1).tolist() == [2**53, 2**53], units[1].tolist() == [2**53 - 1, 1, 0]
    (True, True)
    """
    positive = matrix > 0
    scaled = matrix * float(TOTAL_UNITS)  # exact: a power of two
    units = np.floor(scaled).astype(np.int64)
    units[positive & (units == 0)] = 1
    missing = TOTAL_UNITS - units.sum(axis=1)
    far = np.abs(missing) > positive.sum(axis=1)
    if far.any():  # rows whose stored sum is off by more than round-off of their entries: scaled by it
        scaled[far] = matrix[far] * (TOTAL_UNITS / matrix[far].sum(axis=1, keepdims=True))
        units[far] = np.floor(scaled[far]).astype(np.int64)
        units[positive & (units == 0)] = 1
        missing = TOTAL_UNITS - units.sum(axis=1)
    while missing.any():  # one pass unless a row misses more units than it has eligible entries
        rows = np.flatnonzero(missing)
        need = missing[rows]
        adding = need[:, None] > 0
        remainders = scaled[rows] - units[rows]
        # Units go to the largest remainders of positive entries, come from the smallest remainders of
        # entries that keep at least one unit; ineligible entries sort last.
        eligible = np.where(adding, positive[rows], units[rows] > 1)
        order = np.argsort(np.where(eligible, np.where(adding, -remainders, remainders), np.inf), axis=1)
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.arange(matrix.shape[1])[None, :], axis=1)
        units[rows] += np.where(eligible & (rank < np.abs(need)[:, None]), np.sign(need)[:, None], 0)
        missing[rows] = TOTAL_UNITS - units[rows].sum(axis=1)
    return units


class ExactSampler:
    """Integer cumulative table of a row-stochastic matrix: sampling exact for the matrix as rounded.

    Each row is rounded to integers summing exactly to ``2**53`` (:func:`probability_units`:
    largest-remainder rounding; an entry > 0 keeps at least one unit so the support never shrinks; an
    entry 0 stays 0). :meth:`sample` compares uniform integers in ``[0, 2**53)`` with the cumulative
    table, so each output is drawn with exactly the probability :attr:`rounded` states.

    Parameters
    ----------
    matrix
        ``(n, m)`` row-stochastic matrix (validated: finite, non-negative, rows summing to 1).

    Examples
    --------
    >>> sampler = ExactSampler([[0.25, 0.75, 0.0], [0.0, 0.0, 1.0]])
    >>> sampler.rounded.tolist()
    [[0.25, 0.75, 0.0], [0.0, 0.0, 1.0]]
    >>> outputs = sampler.sample([0, 1, 1], rng=np.random.default_rng(0))
    >>> outputs[1:].tolist(), bool(outputs[0] in (0, 1))
    ([2, 2], True)
    """

    __slots__ = ("_table",)

    def __init__(self, matrix: Any) -> None:
        validated = as_stochastic_matrix(matrix)
        check_array(validated.shape, f"the sampling table of a {validated.shape[0]}×{validated.shape[1]} mechanism",
                    copies=TABLE_COPIES)
        table = np.cumsum(probability_units(validated), axis=1, dtype=np.uint64)  # compared with uint64 draws
        table.setflags(write=False)
        self._table = table

    @property
    def shape(self) -> tuple[int, int]:
        """``(n_inputs, n_outputs)`` of the sampled matrix."""
        return self._table.shape

    @property
    def rounded(self) -> np.ndarray:
        """The matrix sampled exactly: the table's units times ``2**-53`` (a new array).

        Examples
        --------
        >>> rounded = ExactSampler([[0.1, 0.9]]).rounded
        >>> float(abs(rounded - [0.1, 0.9]).max()) <= 2**-53, float(rounded.sum())
        (True, 1.0)
        """
        return np.diff(self._table, axis=1, prepend=np.uint64(0)) / float(TOTAL_UNITS)

    def sample(self, inputs: Any, rng: Any = None) -> np.ndarray:
        """One output index per input index, drawn exactly from :attr:`rounded`.

        Parameters
        ----------
        inputs
            Integer array of input indices (any shape).
        rng
            ``None`` for the operating system's entropy; a seed or a numpy ``Generator`` (tests).

        Returns
        -------
        numpy.ndarray
            int64 output indices of the shape of ``inputs``.

        Examples
        --------
        >>> ExactSampler(np.eye(3)).sample([[2, 0], [1, 1]]).tolist()
        [[2, 0], [1, 1]]
        """
        data = sample_inputs(inputs, self.shape[0])
        flat = data.reshape(-1)
        draws = random_bits(flat.size, sampling_rng(rng))
        # Grouped by input: one sort, then each input's draws against its own row (O(N log N)).
        order = np.argsort(flat, kind="stable")
        grouped = flat[order]
        starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]]) if flat.size else np.empty(0, int)
        ends = np.r_[starts[1:], flat.size]
        outputs = np.empty(flat.size, dtype=np.int64)
        for start, end in zip(starts.tolist(), ends.tolist()):
            chosen = order[start:end]
            # The output is the number of cumulative units <= the draw: P(y) = units[y] / 2**53.
            outputs[chosen] = np.searchsorted(self._table[grouped[start]], draws[chosen], side="right")
        return outputs.reshape(data.shape)
