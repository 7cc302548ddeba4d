"""Structured frequency oracles: ε-LDP mechanisms for frequency estimation that never build their matrix.

Each oracle privatizes an input ``x ∈ {0, …, k−1}`` into a *report* that *supports* a set of symbols,
with ``p = P(the report supports x | X = x)`` and ``q = P(it supports x | X = x')`` the same for every
``x' ≠ x``. With ``C_x`` the number of the ``N`` reports that support ``x``,

``p̂_x = (C_x / N − q) / (p − q)``  is unbiased, and  ``Var(p̂_x) = π_x (1 − π_x) / (N (p − q)²)``,
``π_x = q + (p − q) p_x``

exactly (Wang, Blocki, Li & Jha, Locally Differentially Private Protocols for Frequency Estimation,
USENIX Security 2017, §3: "pure" protocols). The oracles here (report; ``p``, ``q``; decoding work):

* k-ary randomized response: one symbol; ``e^ε/(e^ε + k − 1)``, ``1/(e^ε + k − 1)``; ``O(N + k)``;
* subset selection with ``d`` symbols: ``k`` packed bits; Ye & Barg's eq. (4); ``O(N k)``;
* optimized unary encoding: ``k`` bits, bit ``x`` set with probability ``1/2``, the others with
  ``1/(e^ε + 1)``; ``1/2``, ``1/(e^ε + 1)``; ``O(N k)``;
* optimized local hashing with range ``g``: a hash ``h`` of ``{0..k−1}`` onto ``{0..g−1}`` and
  ``h(x)`` through g-ary randomized response; ``e^ε/(e^ε + g − 1)``, ``1/g``; ``O(N k log k)``;
* Hadamard response in blocks of width ``b``: one of ``K = B b`` outputs; below;
  ``O(N + K log b)``.

*Optimized local hashing* uses the hash family ``h_{a,c}(x) = (c + Σ_j a_j x_j) mod g`` over the
binary digits ``x_j`` of ``x`` (``a ∈ {0..g−1}^m``, ``c ∈ {0..g−1}``, ``m = ⌈log₂ k⌉``): two inputs
differ in a digit, whose difference ``±1`` is a unit mod ``g``, so ``P(h(x) = h(x')) = 1/g`` exactly
for any ``g`` and ``q = 1/g`` holds exactly, with a seed of ``(m + 1) log₂ g`` bits.

*Hadamard response* (Acharya, Sun & Zhang, Hadamard Response: Estimating Distributions Privately,
Efficiently, and with Little Communication, AISTATS 2019, §4 and §5) in blocks: the symbols are split
into ``B = ⌈k / (b − 1)⌉`` blocks of ``b − 1`` (``b`` a power of 2); symbol ``x`` of block ``β`` with
row ``r ∈ {1..b−1}`` of the ``b × b`` Hadamard matrix ``H`` favours the ``b/2`` outputs
``C_x = {(β, j) : H[r, j] = +1}`` of the ``K = B b``: ``Q[x, y] ∝ e^ε`` on ``C_x``, else 1. Two rows
of ``H`` agree on half of the ``+1`` entries, so the reports that hit ``C_x`` come from ``x``, from the
rest of its block and from other blocks with three probabilities ``p``, ``q₁``, ``q₂``; the estimator
``p̂_x = (C_x/N − q₂ − (q₁ − q₂) P̂_β) / (p − q₁)`` corrects by the block's estimated mass ``P̂_β`` (from
the reports that fall in the block), and its variance is exact from the three classes of outputs. One
block (``b > k``) is the original Hadamard response (``q₁ = 1/2``); the counts ``C_x`` come from the
fast Walsh–Hadamard transform of each block's histogram.

*Exact optimality.* At the uniform prior, subset selection at its best ``d`` has the least
``N · Σ_x Var(p̂_x)`` of the best linear unbiased estimator (the trace of the Cramér–Rao bound) among
*all* ε-LDP mechanisms, with any number of outputs: averaging an optimal mechanism over the symbols'
permutations keeps it optimal, which leaves mixtures of subset selections, and one size beats any
mixture. Its own estimator attains that value, and its variance is largest at the uniform prior, so it is
also minimax over priors among mechanisms with linear unbiased estimators. Park, Nam & Lee (Exactly
Optimal and Communication-Efficient Private Estimation via Block Designs, 2024, arXiv:2305.01261) state
that block-design schemes, of which subset selection is the complete design, reach the exactly optimal
trade-off, some with fewer outputs (their statement, not re-derived here). Checked for k = 2 … 6 and
ε ∈ {0.1, …, 4} against a direct search over Kairouz et al.'s extremal columns with a certified lower
bound: agreement within 1e-7 (``tests/mechanisms/test_oracle_optimality.py``,
``benchmarks/oracle_optimality.py``). Under a non-uniform prior it is not always optimal: at k = 6,
ε = 1 and a Zipf prior its own estimator has 2.2 % more variance than the best mechanism (0.25 % with
the best linear unbiased estimator of the same mechanism).

Every draw is exact for its probabilities as rounded to multiples of ``2**-53``
(:mod:`mechdesign.randomness`): a Bernoulli decision is one integer comparison, a uniform choice
among ``n`` values a rejection-sampled integer, and a binomial count an
:class:`~mechdesign.randomness.ExactSampler`. ``rng=None`` draws from the operating system's entropy.

The oracles are :class:`~mechdesign.mechanism.Mechanism` objects: their dense :attr:`matrix` (columns
in the order of :meth:`FrequencyOracle.report_index`) is built on first use and refused by the memory
guard when too large, so every measure and certificate of the package applies to the small ones.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .._numeric import exp_budget
from .._validate import RandomState, _short, as_array, as_budget, as_indices, as_positive_int
from ..exceptions import InvalidBudgetError, MechDesignError, ProblemTooLargeError, ShapeMismatchError
from ..exceptions import UnknownCategoryError
from ..mechanism import Mechanism
from ..memory import check_array, check_memory
from ..priors import PriorLike, as_prior
from ..randomness import TOTAL_UNITS, ExactSampler, probability_units, random_bits, sample_inputs, sampling_rng
from ..structured import MAX_DENSE_ENTRIES

#: Report × symbol cells held at once while sampling or decoding (reports are processed in chunks).
CHUNK_CELLS = 2**24
#: Bytes per cell of a chunk at the peak of sampling it (random bytes, membership, comparisons, draws).
REPORT_CHUNK_COPIES = 16
#: Largest output index of :meth:`FrequencyOracle.report_index` (int64).
MAX_INDEX = 2**63 - 1
#: Largest number of output labels :meth:`FrequencyOracle.output_labels` lists.
MAX_LISTED_OUTPUTS = 20_000
#: Largest hash range ``g`` of optimized local hashing (beyond it k-ary randomized response is better).
MAX_HASH_RANGE = 2**16
#: Bits of a 53-bit draw used per uniform integer when the bound is at most ``2**SMALL_BOUND_BITS``.
HALF_BITS = 26
#: Bounds up to ``2**SMALL_BOUND_BITS`` take two uniform integers from one draw (rejection < 2**-13).
SMALL_BOUND_BITS = 13
#: ``BYTE_BITS[v, i]``: bit ``i`` of the byte ``v`` (little-endian), to count packed bits by table.
BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.int64)


# --------------------------------------------------------------------------------------------- exact draws


def uniform_integers(bound: Any, count: int, rng: np.random.Generator | None) -> np.ndarray:
    """``count`` independent integers, the ``i``-th uniform on ``{0, …, bound_i − 1}``, exactly (rejection).

    Bounds up to ``2**13`` take two 26-bit halves ``u`` of one 53-bit draw and keep ``⌊u b / 2**26⌋``
    unless the low 26 bits of ``u b`` fall below ``2**26 mod b`` (Lemire, Fast Random Integer
    Generation in an Interval, ACM TOMACS 29(1), 2019); larger bounds keep ``u mod b`` of a 53-bit draw
    ``u < 2**53 − (2**53 mod b)``. Either way each value has probability exactly ``1/b``.

    Parameters
    ----------
    bound
        One bound, or one per integer; each ``1 <= bound <= 2**53``.
    count
        How many.
    rng
        ``None``: the operating system's entropy; a numpy Generator (tests).

    Examples
    --------
    >>> values = uniform_integers(6, 1000, np.random.default_rng(0))
    >>> values.dtype.name, int(values.min()), int(values.max())
    ('int64', 0, 5)
    >>> uniform_integers(np.array([1, 1, 1]), 3, None).tolist()
    [0, 0, 0]
    """
    total = as_positive_int(count, "count", minimum=0)
    bounds = np.broadcast_to(np.asarray(bound, dtype=np.int64), (total,))
    if total and (bounds.min() < 1 or bounds.max() > TOTAL_UNITS):
        raise MechDesignError(f"bound must be an integer in 1..2**53, got {_short(bound)}")
    if not total or int(bounds.max()) == 1:  # nothing to draw
        return np.zeros(total, dtype=np.int64)
    small = int(bounds.max()) <= 2**SMALL_BOUND_BITS
    result = np.empty(total, dtype=np.int64)
    missing = np.arange(total)
    mask = np.int64(2**HALF_BITS - 1)
    while missing.size:
        limits = bounds[missing]
        if small:
            bits = random_bits((missing.size + 1) // 2, rng).view(np.int64)
            draws = np.concatenate([bits & mask, (bits >> HALF_BITS) & mask])[:missing.size]
            product = draws * limits
            kept = (product & mask) >= (2**HALF_BITS) % limits
            values = product >> HALF_BITS
        else:
            draws = random_bits(missing.size, rng)
            unsigned = limits.astype(np.uint64)
            kept = draws < np.uint64(TOTAL_UNITS) - np.uint64(TOTAL_UNITS) % unsigned
            values = (draws % unsigned).view(np.int64)
        result[missing[kept]] = values[kept]
        missing = missing[~kept]
    return result


def random_bytes(shape: tuple[int, ...], rng: np.random.Generator | None) -> np.ndarray:
    """Independent uniform bytes of ``shape`` (six from each 53-bit draw).

    Examples
    --------
    >>> random_bytes((2, 3), np.random.default_rng(0)).shape
    (2, 3)
    """
    count = math.prod(shape)
    draws = random_bits(-(-count // 6), rng).astype("<u8")
    return draws[:, None].view(np.uint8)[:, :6].ravel()[:count].reshape(shape)


def bernoulli_units(probability: float) -> int:
    """The units of ``2**-53`` a Bernoulli draw of ``probability`` is exact for (largest-remainder rounding).

    Examples
    --------
    >>> bernoulli_units(0.5) == 2**52
    True
    """
    return int(probability_units(np.array([[1.0 - probability, probability]]))[0, 1])


def _bernoulli(units: int, count: int, rng: np.random.Generator | None) -> np.ndarray:
    """``count`` Bernoulli draws, each true with probability exactly ``units / 2**53``."""
    return random_bits(count, rng) < np.uint64(units)


def uniform_subsets(sizes: np.ndarray, population: int, rng: np.random.Generator | None,
                    skip: np.ndarray | None = None) -> np.ndarray:
    """Per row a subset of ``{0, …, population − 1}`` uniform among those of size ``sizes[i]`` (exact).

    Each item first joins independently when a uniform byte is below ``R = round(256 s / population)``:
    given how many joined, that set is uniform among the sets of its size, whatever ``R``. The row is
    then brought to exactly ``s`` items by removing the surplus, or adding the shortfall, one uniform
    candidate at a time (a uniform column, kept if it is a candidate: sequential sampling without
    replacement), which keeps the set uniform; that takes ``O(√s)`` rounds. Rows with ``R < 8`` or
    ``R > 248`` skip the bytes and start from the empty (or the full) set.

    Parameters
    ----------
    sizes
        Subset size of every row, in ``[0, population]``.
    population
        The number of items.
    rng
        ``None``: the operating system's entropy; a numpy Generator (tests).
    skip
        Optionally, per row a column in ``[0, population]`` left out: item ``o`` is then column
        ``o + (o >= skip)`` of ``population + 1`` columns, and the skipped column is false.

    Returns
    -------
    numpy.ndarray
        Boolean membership, shape ``(len(sizes), population)`` (``population + 1`` with ``skip``).

    Examples
    --------
    >>> chosen = uniform_subsets(np.array([0, 2, 5]), 5, np.random.default_rng(0))
    >>> chosen.sum(axis=1).tolist()
    [0, 2, 5]
    >>> uniform_subsets(np.array([2]), 2, None, skip=np.array([1])).tolist()
    [[True, False, True]]
    """
    count = sizes.size
    rows = np.arange(count)
    thresholds = np.rint(256 * sizes / max(population, 1)).astype(np.int64)
    thresholds = np.where((thresholds >= 8) & (thresholds <= 248), thresholds, np.where(2 * sizes <= population, 0, 256))
    members = np.zeros((count, population + (skip is not None)), dtype=bool)
    if ((thresholds > 0) & (thresholds < 256)).any():
        members[:] = random_bytes(members.shape, rng) < thresholds[:, None]
    else:
        members[thresholds == 256] = True
    targets = sizes
    if skip is not None:  # the skipped column counts as a member (never added), is never removed, cleared at the end
        members[rows, skip] = True
        targets = sizes + 1
    surplus = members.sum(axis=1) - targets
    for remove in (True, False):
        chosen = np.flatnonzero(surplus > 0 if remove else surplus < 0)
        if chosen.size:
            _flip_uniformly(members, chosen, np.abs(surplus[chosen]), remove,
                            None if skip is None else skip[chosen], rng)
    if skip is not None:
        members[rows, skip] = False
    return members


def _flip_uniformly(members: np.ndarray, rows: np.ndarray, flips: np.ndarray, value: bool,
                    skip: np.ndarray | None, rng: np.random.Generator | None) -> None:
    """In each of ``rows``, flip ``flips[i]`` of the columns equal to ``value`` (never ``skip[i]``), chosen
    uniformly: each round draws one uniform column per row and flips it if it is still a candidate."""
    width = members.shape[1]
    remaining = flips.copy()
    active = np.arange(rows.size)
    while active.size:
        column = uniform_integers(width, active.size, rng)
        row = rows[active]
        hit = members[row, column] == value
        if skip is not None:
            hit &= column != skip[active]
        members[row[hit], column[hit]] = not value
        remaining[active[hit]] -= 1
        active = active[remaining[active] > 0]


def _chunks(count: int, cells_per_row: int) -> list[tuple[int, int]]:
    """``(start, end)`` of consecutive row ranges of at most :data:`CHUNK_CELLS` cells."""
    step = max(1, CHUNK_CELLS // max(1, cells_per_row))
    return [(start, min(start + step, count)) for start in range(0, count, step)]


def _parity(values: np.ndarray) -> np.ndarray:
    """Parity of the number of set bits of each (non-negative int64) value."""
    return np.bitwise_count(values) & 1


# ------------------------------------------------------------------------------------------------ the base


class FrequencyOracle(Mechanism):
    """An ε-LDP frequency oracle over ``k`` symbols, held by its parameters (``O(k)`` memory).

    Subclasses define the reports: :meth:`privatize` draws them, :meth:`tally` reduces them to
    additive counts, :meth:`estimate` turns counts into unbiased frequencies with standard errors, and
    :meth:`variances` is the exact variance of that estimator under any prior. The dense
    :attr:`matrix` is built only on request (:data:`~mechdesign.structured.MAX_DENSE_ENTRIES` and the
    memory guard).

    Parameters
    ----------
    size
        ``k >= 2`` symbols.
    epsilon
        The LDP parameter ε (nats, finite, ``>= 0``; at 0 every variance is infinite, a named error).
    """

    __slots__ = ("size", "epsilon", "_dense", "_units")
    #: The oracle's family name (:attr:`name` adds its parameter).
    family: ClassVar[str] = ""
    #: Dimensions of the report arrays: 1 (one output index per report) or 2 (one row per report).
    report_ndim: ClassVar[int] = 1

    def __init__(self, size: int, epsilon: float) -> None:
        self.size = as_positive_int(size, "size", minimum=2)
        self.epsilon = as_budget(epsilon, "epsilon")
        self._dense: np.ndarray | None = None
        self._units: Any = None

    # --- identity ---------------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The family and its parameter, e.g. ``"subset-selection(d=6)"``."""
        return self.family

    def parameters(self) -> dict[str, Any]:
        """``{"family", "size", "epsilon", …}``: what the oracle is (JSON; :func:`oracle_from_parameters`)."""
        return {"family": self.family, "size": self.size, "epsilon": self.epsilon}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrequencyOracle):
            return type(self) is type(other) and self.parameters() == other.parameters()
        return NotImplemented if not isinstance(other, Mechanism) else False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.parameters().items() if k != 'family')})"

    # --- shape and matrix -------------------------------------------------------------------------------

    @property
    @abstractmethod
    def n_outputs(self) -> int:
        """The number of distinct reports (a Python integer, possibly beyond int64)."""

    @property
    def shape(self) -> tuple[int, int]:
        return (self.size, self.n_outputs)

    @property
    def matrix(self) -> np.ndarray:
        """The dense ``k × n_outputs`` matrix (columns in :meth:`report_index` order), built on first access.

        Raises :class:`~mechdesign.exceptions.ProblemTooLargeError` above
        :data:`~mechdesign.structured.MAX_DENSE_ENTRIES` entries or what memory allows.
        """
        if self._dense is None:
            self._check_dense("matrix")
            dense = self._dense_matrix()
            dense.setflags(write=False)
            self._dense = dense
        return self._dense

    def _check_dense(self, what: str) -> None:
        entries = self.size * self.n_outputs
        if entries > MAX_DENSE_ENTRIES:
            raise ProblemTooLargeError(
                f"the dense {what} of {self.name} over k = {self.size} has {entries:,} entries "
                f"({self.n_outputs:,} outputs), above MAX_DENSE_ENTRIES = {MAX_DENSE_ENTRIES:,}; use its "
                "structured methods (privatize, tally, estimate, variances) instead")
        check_array((self.size, self.n_outputs), f"the dense {what} of {self.name} over k = {self.size}")

    @abstractmethod
    def _dense_matrix(self) -> np.ndarray:
        """The dense matrix (within the guard)."""

    def _shrink(self) -> float:
        """``e^{−ε}`` (never overflows)."""
        return math.exp(-self.epsilon)

    # --- privacy ----------------------------------------------------------------------------------------

    def local_dp_leakage(self) -> float:
        """The smallest ε for which the oracle is ε-LDP: its parameter (every output's largest ratio is ``e^ε``).

        Examples
        --------
        >>> SubsetSelection(5, 0.7, 2).local_dp_leakage()
        0.7
        """
        return self.epsilon

    # --- reports ----------------------------------------------------------------------------------------

    @property
    def report_bits(self) -> float:
        """Bits of one report in its most compact encoding: ``log₂`` of the number of distinct reports."""
        return math.log2(self.n_outputs)

    @property
    @abstractmethod
    def report_bytes(self) -> int:
        """Bytes one report takes in the arrays :meth:`privatize` returns."""

    @abstractmethod
    def decode_operations(self, n_reports: int) -> float:
        """Elementary operations :meth:`tally` and :meth:`estimate` take for ``n_reports`` reports (an estimate)."""

    def privatize(self, inputs: Any, rng: RandomState = None) -> np.ndarray:
        """One report per input index (the report arrays of the subclass), drawn exactly.

        Parameters
        ----------
        inputs
            1-D integer array of input indices in ``[0, k)``.
        rng
            ``None`` (default): the operating system's entropy; a seed or a numpy Generator (tests).

        Returns
        -------
        numpy.ndarray
            The reports (one row, or one entry, per input).

        Raises :class:`~mechdesign.exceptions.ProblemTooLargeError` before drawing when the reports do
        not fit in memory (``report_bytes`` per input, besides one chunk of :data:`CHUNK_CELLS` cells).

        Examples
        --------
        >>> OptimizedUnaryEncoding(10, 1.0).privatize([0, 9, 3]).shape  # 10 bits in 2 bytes per report
        (3, 2)
        """
        data = sample_inputs(inputs, self.size)
        if data.ndim != 1:
            raise ShapeMismatchError(f"inputs must be a 1-D array of input indices, got shape {data.shape}")
        check_memory(data.size * self.report_bytes + REPORT_CHUNK_COPIES * CHUNK_CELLS,
                     f"the reports of {data.size:,} records by {self.name} over k = {self.size}")
        generator = sampling_rng(rng)
        chunks = _chunks(data.size, self.size)
        if not chunks:
            return self._privatize(data, generator)
        first = self._privatize(data[:chunks[0][1]], generator)
        reports = np.empty((data.size, *first.shape[1:]), dtype=first.dtype)
        reports[:chunks[0][1]] = first
        for start, end in chunks[1:]:
            reports[start:end] = self._privatize(data[start:end], generator)
        return reports

    @abstractmethod
    def _privatize(self, inputs: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        """Reports of validated 1-D inputs (one chunk)."""

    @abstractmethod
    def check_reports(self, reports: Any, name: str = "reports") -> np.ndarray:
        """The reports as this oracle's validated array; reports of another oracle or another ``k``, or
        values out of range, are a named error (:class:`~mechdesign.exceptions.ShapeMismatchError` or
        :class:`~mechdesign.exceptions.MechDesignError`)."""

    @property
    def tally_size(self) -> int:
        """Length of :meth:`tally` (the support counts ``C_x``: ``k``)."""
        return self.size

    @abstractmethod
    def tally(self, reports: Any) -> np.ndarray:
        """Additive counts of the reports (int64): sums over chunks or partitions are the counts of the whole."""

    def estimate(self, tally: Any, n_reports: int) -> tuple[np.ndarray, np.ndarray]:
        """``(p̂, standard error)`` from :meth:`tally`'s counts of ``n_reports`` reports.

        The unbiased estimate ``p̂_x = (C_x/N − q)/(p − q)`` (module notes) and its plug-in standard error
        ``√(π̂_x (1 − π̂_x) / N) / (p − q)`` with ``π̂_x = C_x / N``.

        Examples
        --------
        >>> oracle = RandomizedResponse(2, math.log(3))  # p = 3/4, q = 1/4
        >>> [values.round(6).tolist() for values in oracle.estimate([5, 3], 8)]
        [[0.75, 0.25], [0.342327, 0.342327]]
        """
        counts, total = self._checked_tally(tally, n_reports)
        hit, false_hit = self.report_probabilities()
        reported = counts / total
        gain = hit - false_hit
        return ((reported - false_hit) / gain,
                np.sqrt(np.maximum(reported * (1.0 - reported), 0.0) / total) / gain)

    def _checked_tally(self, tally: Any, n_reports: int) -> tuple[np.ndarray, int]:
        values = as_counts(tally, self.tally_size, "tally", f"the tally of {self.name} over k = {self.size}")
        total = as_positive_int(n_reports, "n_reports")
        if self._tally_is_histogram() and values.sum() != total or values.max() > total:
            raise MechDesignError(f"tally does not count {total} reports of {self.name}: its counts sum to "
                                  f"{values.sum():.0f}, the largest is {values.max():.0f}")
        self._check_variance_finite()
        return values, total

    def _tally_is_histogram(self) -> bool:
        """Whether :meth:`tally` counts each report once (a histogram of outputs, summing to ``N``)."""
        return False

    def _check_variance_finite(self) -> None:
        if self.epsilon == 0:
            raise InvalidBudgetError(f"{self.name} at epsilon = 0 reports nothing about its input: every frequency "
                                     "estimator's variance is infinite; use a budget > 0")

    @abstractmethod
    def report_probabilities(self) -> tuple[float, float]:
        """``(p, q)``: probabilities that a report supports ``x`` when ``X = x`` and when ``X ≠ x``."""

    def variances(self, prior: PriorLike, n_samples: int = 1) -> np.ndarray:
        """``Var(p̂_x)`` of :meth:`estimate` for every symbol when the inputs follow ``prior``, exactly.

        ``π_x (1 − π_x) / (N (p − q)²)`` with ``π_x = q + (p − q) p_x`` (module notes).

        Examples
        --------
        >>> RandomizedResponse(2, math.log(3)).variances([0.5, 0.5]).round(6).tolist()  # 0.25 / 0.5²
        [1.0, 1.0]
        """
        probabilities = as_prior(prior, self.size).probabilities
        count = as_positive_int(n_samples, "n_samples")
        self._check_variance_finite()
        hit, false_hit = self.report_probabilities()
        reported = false_hit + (hit - false_hit) * probabilities
        return reported * (1.0 - reported) / ((hit - false_hit) ** 2 * count)

    def total_variance(self, prior: PriorLike | None = None) -> float:
        """``N · Σ_x Var(p̂_x)`` under ``prior`` (default uniform): the sum of the estimator's variances
        per report.

        Examples
        --------
        >>> round(RandomizedResponse(1000, 1.0).total_variance(), 1)
        339522.0
        """
        return float(math.fsum(self.variances(np.full(self.size, 1.0 / self.size) if prior is None else prior)))

    def estimator_matrix(self) -> np.ndarray:
        """The dense ``n_outputs × k`` matrix ``A`` of :meth:`estimate` (``p̂ = q̂ A`` with ``q̂`` the
        outputs' frequencies): a left inverse, ``Q A = I`` (guarded as :attr:`matrix`).

        Examples
        --------
        >>> RandomizedResponse(2, math.log(3)).estimator_matrix().round(6).tolist()
        [[1.5, -0.5], [-0.5, 1.5]]
        """
        self._check_dense("estimator")
        self._check_variance_finite()
        hit, false_hit = self.report_probabilities()
        return (self._supports() - false_hit) / (hit - false_hit)

    @abstractmethod
    def _supports(self) -> np.ndarray:
        """Dense ``n_outputs × k`` 0/1 float matrix: whether output ``y`` supports symbol ``x``."""

    # --- indices and labels ---------------------------------------------------------------------------

    def sample(self, inputs: Any, rng: RandomState = None) -> np.ndarray:
        """One output index per input (the columns of :attr:`matrix`): :meth:`report_index` of :meth:`privatize`.

        Examples
        --------
        >>> RandomizedResponse(3, 40.0).sample([2, 0, 1]).tolist()  # ε = 40: the input, but for e^-40
        [2, 0, 1]
        """
        data = sample_inputs(inputs, self.size)
        return self.report_index(self.privatize(data.reshape(-1), rng)).reshape(data.shape)

    def report_index(self, reports: Any) -> np.ndarray:
        """The output index (column of :attr:`matrix`) of every report, as int64.

        Raises :class:`~mechdesign.exceptions.ProblemTooLargeError` when there are ``2**63`` outputs or more.
        """
        self._check_indexable()
        return self._report_index(self.check_reports(reports))

    def index_reports(self, indices: Any) -> np.ndarray:
        """The reports of output indices (the inverse of :meth:`report_index`).

        Examples
        --------
        >>> oracle = SubsetSelection(4, 1.0, 2)
        >>> oracle.report_index(oracle.index_reports([0, 5])).tolist()
        [0, 5]
        """
        self._check_indexable()
        return self._index_reports(as_indices(indices, self.n_outputs, "indices", empty=True))

    def _check_indexable(self) -> None:
        if self.n_outputs > MAX_INDEX:
            raise ProblemTooLargeError(f"{self.name} over k = {self.size} has {self.n_outputs:,} outputs, beyond "
                                       "int64 indices; use its reports (privatize, tally) instead")

    @abstractmethod
    def _report_index(self, reports: np.ndarray) -> np.ndarray:
        """Indices of validated reports."""

    @abstractmethod
    def _index_reports(self, indices: np.ndarray) -> np.ndarray:
        """Reports of validated indices."""

    @abstractmethod
    def labels(self, reports: Any, categories: Sequence[Any] | None = None) -> np.ndarray:
        """One JSON-serializable label per report (an object array), unique by construction: two reports
        have the same label iff they are the same report. :meth:`reports_from_labels` inverts it."""

    @abstractmethod
    def reports_from_labels(self, labels: Any, categories: Sequence[Any] | None = None,
                            name: str = "labels") -> np.ndarray:
        """The reports of labels written by :meth:`labels` (a label that no report has is a named error)."""

    def output_labels(self, categories: Sequence[Any] | None = None) -> tuple:
        """The label of every output, in index order (at most :data:`MAX_LISTED_OUTPUTS` of them).

        Examples
        --------
        >>> SubsetSelection(3, 1.0, 2).output_labels(["a", "b", "c"])
        (('a', 'b'), ('a', 'c'), ('b', 'c'))
        """
        if self.n_outputs > MAX_LISTED_OUTPUTS:
            raise ProblemTooLargeError(f"{self.name} over k = {self.size} has {self.n_outputs:,} outputs, more than "
                                       f"MAX_LISTED_OUTPUTS = {MAX_LISTED_OUTPUTS:,} to list; label its reports "
                                       "(labels) instead")
        return tuple(self.labels(self.index_reports(np.arange(self.n_outputs)), categories).tolist())

    def _names(self, categories: Sequence[Any] | None) -> np.ndarray:
        """The categories as an object array of ``k`` labels (indices by default)."""
        if categories is None:
            return np.arange(self.size, dtype=object)
        names = np.empty(len(categories), dtype=object)
        names[:] = list(categories)
        if names.size != self.size:
            raise ShapeMismatchError(f"categories has {names.size} entries, but {self.name} has k = {self.size} inputs")
        return names

    def _category_codes(self, values: np.ndarray, categories: Sequence[Any] | None, name: str) -> np.ndarray:
        """Indices of reported categories (randomized response's labels), a named error for another value."""
        lookup = {value: index for index, value in enumerate(self._names(categories).tolist())}
        codes = np.empty(values.size, dtype=np.int64)
        for position, value in enumerate(values.tolist()):
            try:
                codes[position] = lookup[value]
            except (KeyError, TypeError):
                raise UnknownCategoryError(f"{name}[{position}] = {_short(value)} is not a known output of the "
                                           f"mechanism ({self.name} over k = {self.size} reports one of its "
                                           "categories)") from None
        return codes


def as_counts(values: Any, size: int, name: str, what: str) -> np.ndarray:
    """``values`` as ``size`` counts (float): finite, non-negative whole numbers, else a named error.

    Parameters
    ----------
    values
        The counts (a tally of reports, how often each output occurred).
    size
        How many there must be.
    name
        The argument's name, for errors.
    what
        What the counts are, for the error on their number.

    Examples
    --------
    >>> as_counts([3, 0, 2], 3, "tally", "one per output").tolist()
    [3.0, 0.0, 2.0]
    >>> as_counts([3, -1], 2, "tally", "one per output")
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: tally[1] = -1 is not a count (a finite whole number >= 0)
    """
    counts = as_array(values, name)
    if counts.shape != (size,):
        raise ShapeMismatchError(f"{name} must have {size} counts ({what}), got shape {counts.shape}")
    if not np.issubdtype(counts.dtype, np.number) or counts.dtype.kind == "c":
        raise MechDesignError(f"{name} must hold counts (numbers), got dtype {counts.dtype}")
    numbers = counts.astype(float)
    bad = ~np.isfinite(numbers) | (numbers < 0) | (numbers != np.round(numbers))
    if bad.any():
        index = int(np.argmax(bad))
        raise MechDesignError(f"{name}[{index}] = {counts[index].item()!r} is not a count (a finite whole number >= 0)")
    return numbers


def _label_array(values: Sequence[Any] | np.ndarray, name: str) -> np.ndarray:
    """``values`` as a 1-D object array (tuples kept as single labels)."""
    if isinstance(values, np.ndarray) and values.ndim == 1:
        return values.astype(object)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise MechDesignError(f"{name} must be a sequence of report labels, got {_short(values)}")
    array = np.empty(len(values), dtype=object)
    array[:] = list(values)
    return array


# ----------------------------------------------------------------------------------- k-ary randomized response


class RandomizedResponse(FrequencyOracle):
    """k-ary randomized response (Kairouz, Bonawitz & Ramage, Discrete Distribution Estimation under
    Local Privacy, §2): report ``x`` with probability ``e^ε/(e^ε + k − 1)``, else one of the other
    ``k − 1`` symbols uniformly (one exact coin and one exact uniform integer: as fast as the dense
    :class:`~mechdesign.randomness.ExactSampler` at k = 2 … 4 and faster beyond, benchmarks/RESULTS.md).

    Reports are int64 symbols; labels are the categories.

    Examples
    --------
    >>> oracle = RandomizedResponse(3, math.log(2))
    >>> oracle.matrix.round(4).tolist()[0]
    [0.5, 0.25, 0.25]
    >>> oracle.labels(oracle.privatize([0, 0]), ["a", "b", "c"]).shape
    (2,)
    """

    __slots__ = ()
    family = "randomized-response"

    @property
    def n_outputs(self) -> int:
        return self.size

    @property
    def report_bytes(self) -> int:
        return 8

    def decode_operations(self, n_reports: int) -> float:
        return float(n_reports + self.size)

    def report_probabilities(self) -> tuple[float, float]:
        shrink = self._shrink()
        denominator = 1.0 + (self.size - 1) * shrink
        return 1.0 / denominator, shrink / denominator

    def _dense_matrix(self) -> np.ndarray:
        hit, false_hit = self.report_probabilities()
        dense = np.full((self.size, self.size), false_hit)
        np.fill_diagonal(dense, hit)
        return dense

    def _supports(self) -> np.ndarray:
        return np.eye(self.size)

    def _privatize(self, inputs: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        if self._units is None:
            self._units = bernoulli_units(self.report_probabilities()[0])
        keep = _bernoulli(self._units, inputs.size, rng)
        other = uniform_integers(self.size - 1, inputs.size, rng)
        other += other >= inputs
        return np.where(keep, inputs, other)

    def check_reports(self, reports: Any, name: str = "reports") -> np.ndarray:
        return as_indices(reports, self.size, f"{name} (symbols of {self.name} over k = {self.size})", empty=True)

    def tally(self, reports: Any) -> np.ndarray:
        return np.bincount(self.check_reports(reports), minlength=self.size).astype(np.int64)

    def _tally_is_histogram(self) -> bool:
        return True

    def _report_index(self, reports: np.ndarray) -> np.ndarray:
        return reports

    def _index_reports(self, indices: np.ndarray) -> np.ndarray:
        return indices

    def labels(self, reports: Any, categories: Sequence[Any] | None = None) -> np.ndarray:
        return self._names(categories)[self.check_reports(reports)]

    def reports_from_labels(self, labels: Any, categories: Sequence[Any] | None = None,
                            name: str = "labels") -> np.ndarray:
        return self._category_codes(_label_array(labels, name), categories, name)


# ------------------------------------------------------------------------------------------- set reports


class _SetOracle(FrequencyOracle):
    """Reports that are sets of symbols, packed as bits (``⌈k/8⌉`` bytes, little-endian bit order);
    a report supports its members; labels are tuples of categories in the categories' order."""

    __slots__ = ()
    report_ndim = 2

    @property
    def report_bytes(self) -> int:
        return (self.size + 7) // 8

    def decode_operations(self, n_reports: int) -> float:
        return float(n_reports) * self.size

    def _members(self, reports: np.ndarray) -> np.ndarray:
        return np.unpackbits(reports, axis=1, count=self.size, bitorder="little").astype(bool)

    def _pack(self, members: np.ndarray) -> np.ndarray:
        return np.packbits(members, axis=1, bitorder="little")

    def check_reports(self, reports: Any, name: str = "reports") -> np.ndarray:
        array = as_array(reports, name)
        width = self.report_bytes
        if array.ndim != 2 or array.shape[1] != width or array.dtype != np.uint8:
            raise ShapeMismatchError(
                f"{name} must be the reports of {self.name} over k = {self.size}: a uint8 array of shape (N, {width}) "
                f"(packed bits), got dtype {array.dtype} and shape {array.shape}")
        if self.size % 8 and array.size and (array[:, -1] >> np.uint8(self.size % 8)).any():
            row = int(np.argmax(array[:, -1] >> np.uint8(self.size % 8)))
            raise MechDesignError(f"{name}[{row}] sets a bit beyond symbol {self.size - 1}: not a report over "
                                  f"k = {self.size}")
        return array

    def tally(self, reports: Any) -> np.ndarray:
        """Support counts ``C_x`` (int64, length ``k``): per byte column a histogram of byte values, times
        the bits of each value.

        Examples
        --------
        >>> oracle = OptimizedUnaryEncoding(3, 1.0)
        >>> oracle.tally(oracle.reports_from_labels([(0, 2), (2,), ()])).tolist()
        [1, 0, 2]
        """
        array = self.check_reports(reports)
        width = array.shape[1]
        offsets = np.arange(width, dtype=np.int64) * 256
        histogram = np.zeros(width * 256, dtype=np.int64)
        for start, end in _chunks(array.shape[0], width):
            histogram += np.bincount((array[start:end] + offsets).ravel(), minlength=width * 256)
        return (histogram.reshape(width, 256) @ BYTE_BITS).ravel()[:self.size]

    def labels(self, reports: Any, categories: Sequence[Any] | None = None) -> np.ndarray:
        """Each report as the tuple of the categories it holds, in the categories' order.

        Examples
        --------
        >>> oracle = SubsetSelection(4, 1.0, 2)
        >>> oracle.labels(oracle.index_reports([0, 5]), "abcd").tolist()
        [('a', 'b'), ('c', 'd')]
        """
        array = self.check_reports(reports)
        names = self._names(categories)
        result = np.empty(array.shape[0], dtype=object)
        for start, end in _chunks(array.shape[0], self.size):
            rows, columns = np.nonzero(self._members(array[start:end]))
            members = names[columns].tolist()
            bounds = np.searchsorted(rows, np.arange(end - start + 1)).tolist()
            result[start:end] = [tuple(members[low:high]) for low, high in zip(bounds[:-1], bounds[1:])]
        return result

    def reports_from_labels(self, labels: Any, categories: Sequence[Any] | None = None,
                            name: str = "labels") -> np.ndarray:
        """The packed reports of labels (tuples or lists of categories; each category at most once).

        Examples
        --------
        >>> OptimizedUnaryEncoding(3, 1.0).reports_from_labels([("a", "c")], "abc").tolist()
        [[5]]
        """
        values = _label_array(labels, name)
        lookup = {value: index for index, value in enumerate(self._names(categories).tolist())}
        members = np.zeros((values.size, self.size), dtype=bool)
        for row, label in enumerate(values.tolist()):
            if not isinstance(label, (tuple, list)):
                raise MechDesignError(f"{name}[{row}] = {_short(label)} is not a report of {self.name} (a tuple of "
                                      "categories)")
            try:
                codes = [lookup[member] for member in label]
            except (KeyError, TypeError):
                raise UnknownCategoryError(f"{name}[{row}] = {_short(label)} holds a value that is not a category of "
                                           f"{self.name} over k = {self.size}") from None
            if len(set(codes)) != len(codes):
                raise MechDesignError(f"{name}[{row}] = {_short(label)} repeats a category")
            members[row, codes] = True
        return self.check_reports(self._pack(members), name)

    def _supports(self) -> np.ndarray:
        return self._members(self._index_reports(np.arange(self.n_outputs))).astype(float)


class SubsetSelection(_SetOracle):
    """Subset selection (Ye & Barg, Optimal Schemes for Discrete Distribution Estimation under Locally
    Differential Privacy, eq. (4); Wang et al., Mutual Information Optimally Local Private Discrete
    Distribution Estimation): report ``d`` of the ``k`` symbols, ``Q[x, S] ∝ e^ε`` if ``x ∈ S`` else 1.

    Sampled as: ``x`` is in the report with probability ``p = d e^ε / (d e^ε + k − d)``; the other
    ``d − 1`` (or ``d``) members are a uniform subset of the other ``k − 1`` symbols. ``d = 1`` is
    k-ary randomized response. Outputs are indexed in the lexicographic order of the subsets.

    At its best ``d`` and the uniform prior, no ε-LDP mechanism has a smaller total variance for any
    linear unbiased estimator (module notes, "Exact optimality"; checked for k ≤ 6).

    Parameters
    ----------
    size, epsilon
        As :class:`FrequencyOracle`.
    subset_size
        ``1 <= d <= k − 1``.

    Examples
    --------
    >>> oracle = SubsetSelection(4, math.log(2), 2)
    >>> [round(v, 6) for v in oracle.report_probabilities()]  # p = 4/6, q = 2·(2 + 2)/(3·6)
    [0.666667, 0.444444]
    >>> oracle.matrix.shape, oracle.n_outputs
    ((4, 6), 6)
    """

    __slots__ = ("subset_size",)
    family = "subset-selection"

    def __init__(self, size: int, epsilon: float, subset_size: int) -> None:
        super().__init__(size, epsilon)
        self.subset_size = as_positive_int(subset_size, "subset_size", maximum=self.size - 1)

    @property
    def name(self) -> str:
        return f"{self.family}(d={self.subset_size})"

    def parameters(self) -> dict[str, Any]:
        return {**super().parameters(), "subset_size": self.subset_size}

    @property
    def n_outputs(self) -> int:
        return math.comb(self.size, self.subset_size)

    def report_probabilities(self) -> tuple[float, float]:
        return subset_probabilities(self.size, self.epsilon, self.subset_size)

    def _dense_matrix(self) -> np.ndarray:
        shrink = self._shrink()
        size, chosen = self.size, self.subset_size
        members = self._supports().T
        scale = math.comb(size - 1, chosen - 1) + math.comb(size - 1, chosen) * shrink
        return np.where(members > 0, 1.0, shrink) / scale

    def _privatize(self, inputs: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        if self._units is None:
            self._units = bernoulli_units(self.report_probabilities()[0])
        inside = _bernoulli(self._units, inputs.size, rng)
        return self._pack(_with_input(self.subset_size - inside.astype(np.int64), inputs, inside, self.size, rng))

    def check_reports(self, reports: Any, name: str = "reports") -> np.ndarray:
        array = super().check_reports(reports, name)
        sizes = np.zeros(array.shape[0], dtype=np.int64)
        for start, end in _chunks(array.shape[0], array.shape[1]):
            sizes[start:end] = np.bitwise_count(array[start:end]).sum(axis=1)
        wrong = sizes != self.subset_size
        if wrong.any():
            row = int(np.argmax(wrong))
            raise MechDesignError(f"{name}[{row}] holds {int(sizes[row])} symbols, but a report of {self.name} "
                                  f"holds {self.subset_size}")
        return array

    def _report_index(self, reports: np.ndarray) -> np.ndarray:
        """Lexicographic rank: ``C(k, d) − 1 − Σ_i C(k − 1 − c_i, d − i + 1)`` over members ``c_1 < … < c_d``."""
        size, chosen = self.size, self.subset_size
        table = _binomial_table(size, chosen + 1)
        result = np.empty(reports.shape[0], dtype=np.int64)
        for start, end in _chunks(reports.shape[0], size):
            members = self._members(reports[start:end])
            position = np.cumsum(members, axis=1)
            rows = size - 1 - np.arange(size)
            terms = table[rows[None, :], np.clip(chosen - position + 1, 0, chosen + 1)]
            result[start:end] = math.comb(size, chosen) - 1 - np.where(members, terms, 0).sum(axis=1)
        return result

    def _index_reports(self, indices: np.ndarray) -> np.ndarray:
        size, chosen = self.size, self.subset_size
        table = _binomial_table(size, chosen)
        members = np.zeros((indices.size, size), dtype=bool)
        rank = indices.copy()
        remaining = np.full(indices.size, chosen, dtype=np.int64)
        for symbol in range(size):
            # subsets whose next member is `symbol`: C(k − 1 − symbol, remaining − 1)
            block = np.where(remaining > 0, table[size - 1 - symbol, np.maximum(remaining - 1, 0)], 0)
            take = (remaining > 0) & (rank < block)
            members[take, symbol] = True
            rank = np.where(take | (remaining == 0), rank, rank - block)
            remaining -= take
        return self._pack(members)


class OptimizedUnaryEncoding(_SetOracle):
    """Optimized unary encoding (Wang, Blocki, Li & Jha, USENIX Security 2017, §4.3): report ``k`` bits,
    bit ``x`` set with probability ``1/2`` and every other bit with ``q = 1/(e^ε + 1)``.

    Sampled as: bit ``x`` by one exact coin; the number of other set bits from the binomial
    ``B(k − 1, q)`` (an :class:`~mechdesign.randomness.ExactSampler` of its probabilities), then which
    ones uniformly. Output ``y`` (a set, index ``Σ_{x ∈ y} 2^x``) supports its members.

    Examples
    --------
    >>> oracle = OptimizedUnaryEncoding(3, math.log(3))
    >>> oracle.report_probabilities()
    (0.5, 0.25)
    >>> float(oracle.matrix[0, 0b001])  # bit 0 set (1/2), bits 1, 2 clear (3/4 each)
    0.28125
    """

    __slots__ = ()
    family = "optimized-unary-encoding"

    @property
    def n_outputs(self) -> int:
        return 2**self.size

    @property
    def report_bits(self) -> float:
        return float(self.size)

    def report_probabilities(self) -> tuple[float, float]:
        shrink = self._shrink()
        return 0.5, shrink / (1.0 + shrink)

    def _dense_matrix(self) -> np.ndarray:
        _, false_hit = self.report_probabilities()
        others = np.where(self._supports().T > 0, false_hit, 1.0 - false_hit)  # k × 2^k: each bit as if not x
        return 0.5 * others.prod(axis=0)[None, :] / others

    def _privatize(self, inputs: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        if self._units is None:
            self._units = (bernoulli_units(0.5),
                           ExactSampler(binomial_probabilities(self.size - 1, self.report_probabilities()[1])[None, :]))
        half, binomial = self._units
        inside = _bernoulli(half, inputs.size, rng)
        sizes = binomial.sample(np.zeros(inputs.size, dtype=np.int64), rng)
        return self._pack(_with_input(sizes, inputs, inside, self.size, rng))

    def _report_index(self, reports: np.ndarray) -> np.ndarray:
        padded = np.zeros((reports.shape[0], 8), dtype=np.uint8)
        padded[:, :reports.shape[1]] = reports
        return padded.view("<u8").ravel().astype(np.int64)

    def _index_reports(self, indices: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(indices.astype("<u8")[:, None].view(np.uint8)[:, :self.report_bytes])


def binomial_probabilities(trials: int, probability: float) -> np.ndarray:
    """The probabilities of ``0, …, n`` successes in ``n`` trials of probability ``probability`` (log-space).

    Examples
    --------
    >>> binomial_probabilities(2, 0.5).tolist()
    [0.25, 0.5, 0.25]
    """
    counts = np.arange(trials + 1)
    log_factorials = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, trials + 1, dtype=float)))])
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = log_factorials[-1] - log_factorials - log_factorials[::-1]
        logs = logs + np.where(counts > 0, counts * np.log(probability), 0.0)
        logs = logs + np.where(counts < trials, (trials - counts) * np.log1p(-probability), 0.0)
    probabilities = np.exp(logs)
    return probabilities / probabilities.sum()


def _with_input(sizes: np.ndarray, inputs: np.ndarray, inside: np.ndarray, size: int,
                rng: np.random.Generator | None) -> np.ndarray:
    """Membership over ``k`` symbols: a uniform subset of ``sizes[i]`` of the other ``k − 1`` symbols of
    input ``x_i``, and ``x_i`` itself where ``inside``."""
    members = uniform_subsets(sizes, size - 1, rng, skip=inputs)
    members[np.arange(inputs.size), inputs] = inside
    return members


def _binomial_table(size: int, largest: int) -> np.ndarray:
    """``table[n, r] = C(n, r)`` for ``0 <= n <= size``, ``0 <= r <= largest`` (int64; refused beyond it)."""
    values = [[math.comb(n, r) for r in range(largest + 1)] for n in range(size + 1)]
    if max(max(row) for row in values) > MAX_INDEX:
        raise ProblemTooLargeError(f"binomial coefficients of {size} exceed int64: the outputs have no int64 index")
    return np.array(values, dtype=np.int64)


def subset_probabilities(size: int, epsilon: float, subset_size: int) -> tuple[float, float]:
    """``(p, q)`` of subset selection: ``p = d e^ε/(d e^ε + k − d)``, ``q = d((d − 1)e^ε + k − d)/((k − 1)(d e^ε + k − d))``.

    Computed with ``e^{−ε}``, so any finite budget works.

    Examples
    --------
    >>> [round(v, 6) for v in subset_probabilities(2, math.log(3), 1)]  # binary RR with e^ε = 3
    [0.75, 0.25]
    """
    shrink = math.exp(-as_budget(epsilon))
    symbols = as_positive_int(size, "size", minimum=2)
    chosen = as_positive_int(subset_size, "subset_size", maximum=symbols - 1)
    denominator = chosen + (symbols - chosen) * shrink
    return (chosen / denominator,
            chosen * ((chosen - 1) + (symbols - chosen) * shrink) / ((symbols - 1) * denominator))


# -------------------------------------------------------------------------------------- optimized local hashing


class OptimizedLocalHashing(FrequencyOracle):
    """Optimized local hashing (Wang, Blocki, Li & Jha, USENIX Security 2017, §4.4) with an exactly
    universal hash family: report ``(a, c, y)`` with ``(a, c)`` uniform and ``y`` the hash
    ``h_{a,c}(x) = (c + Σ_j a_j x_j) mod g`` of ``x``'s binary digits ``x_j`` through g-ary randomized
    response (module notes: ``q = 1/g`` exactly).

    Reports are int64 rows ``[a_1, …, a_m, c, y]`` (``m = ⌈log₂ k⌉``); output index
    ``((a_1 g + a_2) g + … + c) g + y``; a label is the string ``"seed:y"`` with ``seed`` the index of
    ``(a, c)``.

    Parameters
    ----------
    size, epsilon
        As :class:`FrequencyOracle`.
    hash_range
        ``g >= 2`` (:func:`best_hash_range` chooses it).

    Examples
    --------
    >>> oracle = OptimizedLocalHashing(3, math.log(2), 3)  # p = 2/4, q = 1/3
    >>> oracle.report_probabilities()
    (0.5, 0.3333333333333333)
    >>> oracle.n_outputs  # g^(m + 2), m = 2
    81
    """

    __slots__ = ("hash_range", "digits")
    family = "optimized-local-hashing"
    report_ndim = 2

    def __init__(self, size: int, epsilon: float, hash_range: int) -> None:
        super().__init__(size, epsilon)
        self.hash_range = as_positive_int(hash_range, "hash_range", minimum=2, maximum=MAX_HASH_RANGE)
        self.digits = max(1, (self.size - 1).bit_length())

    @property
    def name(self) -> str:
        return f"{self.family}(g={self.hash_range})"

    def parameters(self) -> dict[str, Any]:
        return {**super().parameters(), "hash_range": self.hash_range}

    @property
    def n_outputs(self) -> int:
        return self.hash_range ** (self.digits + 2)

    @property
    def report_bytes(self) -> int:
        return 8 * (self.digits + 2)

    def decode_operations(self, n_reports: int) -> float:
        return float(n_reports) * self.size * (self.digits + 2)

    def report_probabilities(self) -> tuple[float, float]:
        shrink = self._shrink()
        return 1.0 / (1.0 + (self.hash_range - 1) * shrink), 1.0 / self.hash_range

    def _bits(self) -> np.ndarray:
        """``(k, m)`` binary digits of every symbol."""
        return ((np.arange(self.size)[:, None] >> np.arange(self.digits)[None, :]) & 1).astype(float)

    def _hashes(self, reports: np.ndarray) -> np.ndarray:
        """``(n, k)``: the hash of every symbol under every report's seed (exact in float64)."""
        seeds = reports[:, :self.digits].astype(float)
        return np.fmod(seeds @ self._bits().T + reports[:, self.digits, None], self.hash_range)

    def _dense_matrix(self) -> np.ndarray:
        hit, _ = self.report_probabilities()
        miss = (1.0 - hit) / (self.hash_range - 1)
        seeds = self.hash_range ** (self.digits + 1)
        return np.where(self._supports().T > 0, hit, miss) / seeds

    def _supports(self) -> np.ndarray:
        reports = self._index_reports(np.arange(self.n_outputs))
        return (self._hashes(reports) == reports[:, -1, None]).astype(float)

    def _privatize(self, inputs: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        if self._units is None:
            self._units = bernoulli_units(self.report_probabilities()[0])
        count, width = inputs.size, self.digits + 2
        reports = np.empty((count, width), dtype=np.int64)
        for column in range(width - 1):
            reports[:, column] = uniform_integers(self.hash_range, count, rng)
        hashed = self._own_hash(reports, inputs)
        keep = _bernoulli(self._units, count, rng)
        other = uniform_integers(self.hash_range - 1, count, rng)
        other += other >= hashed
        reports[:, -1] = np.where(keep, hashed, other)
        return reports

    def _own_hash(self, reports: np.ndarray, inputs: np.ndarray) -> np.ndarray:
        """The hash of each report's own input under its seed."""
        digits = (inputs[:, None] >> np.arange(self.digits)[None, :]) & 1
        return (reports[:, self.digits] + (reports[:, :self.digits] * digits).sum(axis=1)) % self.hash_range

    def check_reports(self, reports: Any, name: str = "reports") -> np.ndarray:
        array = as_array(reports, name)
        width = self.digits + 2
        if array.ndim != 2 or array.shape[1] != width or not np.issubdtype(array.dtype, np.integer):
            raise ShapeMismatchError(f"{name} must be the reports of {self.name} over k = {self.size}: an integer "
                                     f"array of shape (N, {width}), got dtype {array.dtype} and shape {array.shape}")
        outside = (array < 0) | (array >= self.hash_range)
        if outside.any():
            row, column = (int(i) for i in np.argwhere(outside)[0])
            raise MechDesignError(f"{name}[{row}, {column}] = {int(array[row, column])} is outside 0..{self.hash_range - 1}: "
                                  f"not a report of {self.name}")
        return array.astype(np.int64)

    def tally(self, reports: Any) -> np.ndarray:
        """Support counts ``C_x = #{reports with h(x) = y}`` (int64, length ``k``), in chunks.

        Examples
        --------
        >>> oracle = OptimizedLocalHashing(2, 1.0, 2)
        >>> oracle.tally([[1, 0, 1], [0, 1, 1]]).tolist()  # h(0) = c, h(1) = c + a
        [1, 2]
        """
        array = self.check_reports(reports)
        counts = np.zeros(self.size, dtype=np.int64)
        for start, end in _chunks(array.shape[0], self.size):
            chunk = array[start:end]
            counts += (self._hashes(chunk) == chunk[:, -1, None]).sum(axis=0)
        return counts

    def _report_index(self, reports: np.ndarray) -> np.ndarray:
        index = np.zeros(reports.shape[0], dtype=np.int64)
        for column in range(reports.shape[1]):
            index = index * self.hash_range + reports[:, column]
        return index

    def _index_reports(self, indices: np.ndarray) -> np.ndarray:
        width = self.digits + 2
        reports = np.empty((indices.size, width), dtype=np.int64)
        rest = indices.copy()
        for column in range(width - 1, -1, -1):
            reports[:, column] = rest % self.hash_range
            rest //= self.hash_range
        return reports

    def labels(self, reports: Any, categories: Sequence[Any] | None = None) -> np.ndarray:
        """``"seed:y"`` per report (``seed`` the index of ``(a, c)``, in decimal).

        Examples
        --------
        >>> OptimizedLocalHashing(2, 1.0, 3).labels([[2, 1, 0]]).tolist()
        ['7:0']
        """
        array = self.check_reports(reports)
        result = np.empty(array.shape[0], dtype=object)
        seeds = [0] * array.shape[0]
        for column in range(self.digits + 1):
            values = array[:, column].tolist()
            seeds = [seed * self.hash_range + value for seed, value in zip(seeds, values)]
        result[:] = [f"{seed}:{value}" for seed, value in zip(seeds, array[:, -1].tolist())]
        return result

    def reports_from_labels(self, labels: Any, categories: Sequence[Any] | None = None,
                            name: str = "labels") -> np.ndarray:
        values = _label_array(labels, name)
        width = self.digits + 2
        reports = np.empty((values.size, width), dtype=np.int64)
        seeds = self.hash_range ** (self.digits + 1)
        for row, label in enumerate(values.tolist()):
            try:
                seed_text, value_text = label.split(":")
                seed, value = int(seed_text), int(value_text)
                if not (0 <= seed < seeds and 0 <= value < self.hash_range and seed_text == str(seed)
                        and value_text == str(value)):
                    raise ValueError
            except (AttributeError, ValueError):
                raise MechDesignError(f"{name}[{row}] = {_short(label)} is not a report of {self.name} over "
                                      f"k = {self.size} ('seed:y', 0 <= seed < {seeds}, 0 <= y < {self.hash_range})"
                                      ) from None
            reports[row, -1] = value
            for column in range(width - 2, -1, -1):
                seed, reports[row, column] = divmod(seed, self.hash_range)
        return reports


def best_hash_range(size: int, epsilon: float, prior: PriorLike | None = None) -> int:
    """The ``g`` of least exact total variance of optimized local hashing under ``prior`` (default uniform).

    Wang et al. (§4.4) derive ``g = e^ε + 1`` from an approximate variance; the exact one (which is
    smaller for ``g`` below that when ``k`` is small) is compared at every ``g`` from 2 to
    ``2 ⌈e^ε + 1⌉ + 2`` (at most :data:`MAX_HASH_RANGE`), in ``O(1)`` each (:func:`symmetric_total_variance`).

    Examples
    --------
    >>> best_hash_range(1000, math.log(3))  # e^ε + 1 = 4
    4
    >>> best_hash_range(42, 4.0)  # e^ε + 1 = 55.6, but with 42 symbols a smaller range is better
    37
    """
    symbols = as_positive_int(size, "size", minimum=2)
    boost = exp_budget(as_budget(epsilon))
    ranges = np.arange(2, min(MAX_HASH_RANGE, 2 * math.ceil(min(boost, MAX_HASH_RANGE) + 1) + 2) + 1)
    hits = 1.0 / (1.0 + (ranges - 1) * math.exp(-epsilon))
    variances = symmetric_total_variance(symbols, hits, 1.0 / ranges, prior_second_moment(prior, symbols))
    return int(ranges[int(np.argmin(variances))])


def symmetric_total_variance(size: int, hit: Any, false_hit: Any, second_moment: float) -> Any:
    """``N Σ_x Var(p̂_x)`` of an oracle with report probabilities ``(p, q)`` under a prior with ``Σ_x p_x² = s``.

    ``Σ_x π_x (1 − π_x) / Δ²`` with ``π_x = q + Δ p_x``, ``Δ = p − q``, is
    ``(k q (1 − q) + Δ (1 − 2q) − Δ² s) / Δ²`` (``Σ_x p_x = 1``): ``O(1)`` per ``(p, q)``, vectorized.

    Examples
    --------
    >>> round(float(symmetric_total_variance(1000, math.e / (math.e + 999), 1 / (math.e + 999), 1e-3)), 1)
    339522.0
    """
    gain = np.asarray(hit, dtype=float) - false_hit
    return (size * false_hit * (1.0 - false_hit) + gain * (1.0 - 2.0 * false_hit) - gain**2 * second_moment) / gain**2


def prior_second_moment(prior: PriorLike | None, size: int) -> float:
    """``Σ_x p_x²`` of ``prior`` on ``size`` symbols (``1/k`` for ``None``, the uniform prior).

    Examples
    --------
    >>> prior_second_moment(None, 4), prior_second_moment([0.5, 0.5, 0.0, 0.0], 4)
    (0.25, 0.5)
    """
    if prior is None:
        return 1.0 / size
    probabilities = as_prior(prior, size).probabilities
    return float(probabilities @ probabilities)


# ------------------------------------------------------------------------------------------ Hadamard response


class HadamardResponse(FrequencyOracle):
    """Hadamard response in blocks of width ``b`` (module notes; Acharya, Sun & Zhang, AISTATS 2019).

    Symbol ``x`` is row ``r = x mod (b − 1) + 1`` of the ``b × b`` Hadamard matrix in block
    ``β = x div (b − 1)``; it reports one of the ``K = B b`` outputs ``(β', j)`` (index ``β' b + j``),
    one of its ``b/2`` favoured ones ``C_x = {(β, j) : H[r, j] = +1}`` with probability
    ``p = (b/2) e^ε / ((b/2) e^ε + K − b/2)``, else one of the others uniformly. Reports are int64
    output indices (labels too); :meth:`tally` is the histogram of the ``K`` outputs.

    Parameters
    ----------
    size, epsilon
        As :class:`FrequencyOracle`.
    block_width
        ``b``, a power of 2 (``>= 2``); ``b > k`` is one block, the original Hadamard response.

    Examples
    --------
    >>> oracle = HadamardResponse(3, math.log(3), 4)  # one block: K = 4, p = 3/4, q = 1/2
    >>> oracle.n_outputs, oracle.report_probabilities()
    (4, (0.75, 0.5))
    >>> oracle.matrix[0].round(4).tolist()  # row 1 of H_4 is + − + −
    [0.375, 0.125, 0.375, 0.125]
    """

    __slots__ = ("block_width", "blocks")
    family = "hadamard-response"

    def __init__(self, size: int, epsilon: float, block_width: int) -> None:
        super().__init__(size, epsilon)
        width = as_positive_int(block_width, "block_width", minimum=2)
        if width & (width - 1):
            raise MechDesignError(f"block_width must be a power of 2, got {width}")
        self.block_width = width
        self.blocks = -(-self.size // (width - 1))

    @property
    def name(self) -> str:
        return f"{self.family}(b={self.block_width})"

    def parameters(self) -> dict[str, Any]:
        return {**super().parameters(), "block_width": self.block_width}

    @property
    def n_outputs(self) -> int:
        return self.blocks * self.block_width

    @property
    def report_bytes(self) -> int:
        return 8

    @property
    def tally_size(self) -> int:
        """Length of :meth:`tally`: the ``K`` outputs' histogram."""
        return self.n_outputs

    def decode_operations(self, n_reports: int) -> float:
        return float(n_reports) + self.n_outputs * math.log2(self.block_width)

    def _probabilities(self) -> tuple[float, float, float, float, float]:
        """``(p, q₁, q₂, s_in, s_out)``: P(report in C_x) given x, another symbol of its block, a symbol of
        another block; P(report in x's block) given x, given a symbol of another block."""
        shrink = self._shrink()
        half, total = self.block_width / 2, self.n_outputs
        scale = half + (total - half) * shrink
        return (half / scale, half * (1.0 + shrink) / (2 * scale), half * shrink / scale,
                half * (1.0 + shrink) / scale, self.block_width * shrink / scale)

    def report_probabilities(self) -> tuple[float, float]:
        """``(p, q₁)``: a report in ``C_x`` given ``x``, given another symbol of ``x``'s block."""
        hit, same, *_ = self._probabilities()
        return hit, same

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        symbols = np.arange(self.size)
        return symbols // (self.block_width - 1), symbols % (self.block_width - 1) + 1

    def _supports(self) -> np.ndarray:
        blocks, rows = self._rows()
        outputs = np.arange(self.n_outputs)
        same_block = outputs[:, None] // self.block_width == blocks[None, :]
        favoured = _parity(rows[None, :] & (outputs[:, None] % self.block_width)) == 0
        return (same_block & favoured).astype(float)

    def _dense_matrix(self) -> np.ndarray:
        shrink = self._shrink()
        half = self.block_width / 2
        scale = half + (self.n_outputs - half) * shrink
        return np.where(self._supports().T > 0, 1.0, shrink) / scale

    def _privatize(self, inputs: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        if self._units is None:
            self._units = bernoulli_units(self._probabilities()[0])
        width, count = self.block_width, inputs.size
        blocks, rows = inputs // (width - 1), inputs % (width - 1) + 1
        favoured = _bernoulli(self._units, count, rng)
        # favoured: one of the b/2 columns of the block with parity 0; else one of the K − b/2 others,
        # the first b/2 of which are the block's columns with parity 1
        choice = uniform_integers(self.n_outputs - width // 2, count, rng)
        inner = np.where(favoured, choice % (width // 2), choice)
        in_block = favoured | (inner < width // 2)
        columns = _column_of_parity(rows, inner % (width // 2), (~favoured).astype(np.int64))
        elsewhere = np.maximum(inner - width // 2, 0)
        other_block = elsewhere // width
        other_block += other_block >= blocks
        return np.where(in_block, blocks * width + columns, other_block * width + elsewhere % width)

    def check_reports(self, reports: Any, name: str = "reports") -> np.ndarray:
        return as_indices(reports, self.n_outputs, f"{name} (outputs of {self.name} over k = {self.size})",
                          empty=True)

    def tally(self, reports: Any) -> np.ndarray:
        """The histogram of the ``K`` outputs (int64).

        Examples
        --------
        >>> HadamardResponse(3, 1.0, 4).tally([0, 2, 2]).tolist()
        [1, 0, 2, 0]
        """
        return np.bincount(self.check_reports(reports), minlength=self.n_outputs).astype(np.int64)

    def _tally_is_histogram(self) -> bool:
        return True

    def support_counts(self, tally: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(C_x, M_β(x))`` from the histogram: each block's fast Walsh–Hadamard transform ``(H n)_r``
        gives ``C_x = (M_β + (H n)_r) / 2`` and ``M_β = (H n)_0``.

        Examples
        --------
        >>> [counts.tolist() for counts in HadamardResponse(3, 1.0, 4).support_counts(np.array([1, 0, 2, 0]))]
        [[3, 1, 1], [3, 3, 3]]
        """
        transformed = fast_walsh_hadamard(np.asarray(tally, dtype=np.int64).reshape(self.blocks, self.block_width))
        blocks, rows = self._rows()
        mass = transformed[blocks, 0]
        return (mass + transformed[blocks, rows]) // 2, mass

    def estimate(self, tally: Any, n_reports: int) -> tuple[np.ndarray, np.ndarray]:
        """``(p̂, standard error)`` from the outputs' histogram (module notes; the block's mass corrects).

        Examples
        --------
        >>> oracle = HadamardResponse(3, math.log(3), 4)
        >>> oracle.estimate([3, 1, 3, 1], 8)[0].round(6).tolist()  # C = (6, 4, 4) of 8: (6/8 − 1/2)/(1/4)
        [1.0, 0.0, 0.0]
        """
        counts, total = self._checked_tally(tally, n_reports)
        support, mass = self.support_counts(counts.astype(np.int64))
        hit_frequency, block_frequency = support / total, mass / total
        terms = self._linear_terms()
        block_mass = self._block_mass(block_frequency)
        estimate = (hit_frequency - terms["false_other"] - terms["block_gain"] * block_mass) / terms["gain"]
        variance = self._second_moment(hit_frequency, block_frequency) - estimate**2
        return estimate, np.sqrt(np.maximum(variance, 0.0) / total)

    def _linear_terms(self) -> dict[str, float]:
        hit, same, other, inside, outside = self._probabilities()
        return {"gain": hit - same, "block_gain": same - other, "false_other": other,
                "inside": inside, "outside": outside}

    def _block_mass(self, block_frequency: np.ndarray) -> np.ndarray:
        """``P̂_β``: the estimated mass of each symbol's block (1 for a single block)."""
        if self.blocks == 1:
            return np.ones_like(block_frequency)
        terms = self._linear_terms()
        return (block_frequency - terms["outside"]) / (terms["inside"] - terms["outside"])

    def _coefficients(self) -> tuple[float, float, float]:
        """``A`` on the three classes of outputs for ``x``: in ``C_x``, in its block but not ``C_x``, elsewhere."""
        terms = self._linear_terms()
        if self.blocks == 1:
            base, block_in, block_out = terms["block_gain"] + terms["false_other"], 0.0, 0.0
        else:
            ratio = terms["block_gain"] / (terms["inside"] - terms["outside"])
            base = terms["false_other"]
            block_in, block_out = ratio * (1.0 - terms["outside"]), -ratio * terms["outside"]
        gain = terms["gain"]
        return (1.0 - base - block_in) / gain, (-base - block_in) / gain, (-base - block_out) / gain

    def _second_moment(self, hit_frequency: np.ndarray, block_frequency: np.ndarray) -> np.ndarray:
        """``Σ_y q_y A[y, x]²`` from the masses of ``C_x`` and of ``x``'s block."""
        favoured, rest, elsewhere = self._coefficients()
        return (hit_frequency * favoured**2 + (block_frequency - hit_frequency) * rest**2
                + (1.0 - block_frequency) * elsewhere**2)

    def variances(self, prior: PriorLike, n_samples: int = 1) -> np.ndarray:
        """``Var(p̂_x)`` exactly: ``(Σ_y q_y A[y, x]² − p_x²) / N`` over the three classes of outputs.

        Examples
        --------
        >>> HadamardResponse(3, math.log(3), 4).variances([0.5, 0.25, 0.25]).round(6).tolist()
        [3.75, 3.9375, 3.9375]
        """
        probabilities = as_prior(prior, self.size).probabilities
        count = as_positive_int(n_samples, "n_samples")
        self._check_variance_finite()
        hit, same, other, inside, outside = self._probabilities()
        blocks, _ = self._rows()
        block_mass = np.bincount(blocks, weights=probabilities, minlength=self.blocks)[blocks]
        hit_frequency = hit * probabilities + same * (block_mass - probabilities) + other * (1.0 - block_mass)
        block_frequency = inside * block_mass + outside * (1.0 - block_mass)
        return (self._second_moment(hit_frequency, block_frequency) - probabilities**2) / count

    def estimator_matrix(self) -> np.ndarray:
        """The dense ``K × k`` matrix of :meth:`estimate`: ``A[y, x]`` by the class of ``y`` for ``x``.

        Examples
        --------
        >>> HadamardResponse(3, math.log(3), 4).estimator_matrix()[:, 0].tolist()
        [2.0, -2.0, 2.0, -2.0]
        """
        self._check_dense("estimator")
        self._check_variance_finite()
        favoured, rest, elsewhere = self._coefficients()
        blocks, _ = self._rows()
        same_block = np.arange(self.n_outputs)[:, None] // self.block_width == blocks[None, :]
        return np.where(self._supports() > 0, favoured, np.where(same_block, rest, elsewhere))

    def _report_index(self, reports: np.ndarray) -> np.ndarray:
        return reports

    def _index_reports(self, indices: np.ndarray) -> np.ndarray:
        return indices

    def labels(self, reports: Any, categories: Sequence[Any] | None = None) -> np.ndarray:
        """Each report as its output index (an int).

        Examples
        --------
        >>> HadamardResponse(3, 1.0, 4).labels([3, 0]).tolist()
        [3, 0]
        """
        return self.check_reports(reports).astype(object)

    def reports_from_labels(self, labels: Any, categories: Sequence[Any] | None = None,
                            name: str = "labels") -> np.ndarray:
        values = _label_array(labels, name).tolist()
        wrong = [i for i, value in enumerate(values) if isinstance(value, bool) or not isinstance(value, (int, np.integer))
                 or not 0 <= value < self.n_outputs]
        if wrong:
            raise MechDesignError(f"{name}[{wrong[0]}] = {_short(values[wrong[0]])} is not a report of {self.name} over "
                                  f"k = {self.size} (an output index in 0..{self.n_outputs - 1})")
        return np.array(values, dtype=np.int64)


def _column_of_parity(rows: np.ndarray, ranks: np.ndarray, parities: np.ndarray) -> np.ndarray:
    """The ``ranks[i]``-th column ``j`` (in increasing order) with ``popcount(rows[i] & j)`` of parity
    ``parities[i]``: ``ranks`` with a bit inserted at the lowest set bit of the row, set so the parity holds."""
    lowest = rows & -rows
    below = ranks & (lowest - 1)
    column = ((ranks - below) << 1) | below
    return column | np.where(_parity(rows & column) != parities, lowest, 0)


def fast_walsh_hadamard(values: np.ndarray) -> np.ndarray:
    """The Walsh–Hadamard transform ``H v`` of each row of ``values`` (Sylvester order; width a power of 2).

    ``O(b log b)`` per row by butterflies, in the rows' integer or float type.

    Examples
    --------
    >>> fast_walsh_hadamard(np.array([[1, 0, 2, 0]])).tolist()
    [[3, 3, -1, -1]]
    """
    result = np.array(values, copy=True)
    rows, width = result.shape
    step = 1
    while step < width:
        paired = result.reshape(rows, width // (2 * step), 2, step)
        first, second = paired[:, :, 0, :].copy(), paired[:, :, 1, :].copy()
        paired[:, :, 0, :] = first + second
        paired[:, :, 1, :] = first - second
        step *= 2
    return result


def best_block_width(size: int, epsilon: float, prior: PriorLike | None = None) -> int:
    """The block width ``b`` (a power of 2) of least exact total variance of Hadamard response.

    Every power of 2 from 2 to the first above ``k`` (one block) is compared.

    Examples
    --------
    >>> best_block_width(1000, 0.5)  # high privacy: one block (K = 1024)
    1024
    >>> best_block_width(1000, 6.0) < 1024  # low privacy: blocks of about e^ε symbols
    True
    """
    symbols = as_positive_int(size, "size", minimum=2)
    widths = [2**power for power in range(1, symbols.bit_length() + 1)]  # the last is the first power above k
    candidates = [HadamardResponse(symbols, epsilon, width) for width in widths]
    return min(candidates, key=lambda oracle: oracle.total_variance(prior)).block_width


# ---------------------------------------------------------------------------------------------------- files


#: The oracle classes by family name.
ORACLES: dict[str, type[FrequencyOracle]] = {oracle.family: oracle for oracle in (
    RandomizedResponse, SubsetSelection, OptimizedUnaryEncoding, OptimizedLocalHashing, HadamardResponse)}


def oracle_from_parameters(parameters: Any) -> FrequencyOracle:
    """The oracle of :meth:`FrequencyOracle.parameters` (a named error for an unknown family or parameter).

    Examples
    --------
    >>> oracle_from_parameters({"family": "subset-selection", "size": 42, "epsilon": 0.1, "subset_size": 20}).name
    'subset-selection(d=20)'
    """
    if not isinstance(parameters, dict) or not isinstance(parameters.get("family"), str):
        raise MechDesignError(f"oracle parameters must be a mapping with a 'family', got {_short(parameters)}")
    family = parameters["family"]
    if family not in ORACLES:
        raise MechDesignError(f"unknown oracle family {family!r}; known: {', '.join(ORACLES)}")
    arguments = {key: value for key, value in parameters.items() if key != "family"}
    try:
        oracle = ORACLES[family](**arguments)
    except TypeError as exc:
        raise MechDesignError(f"oracle {family!r} takes other parameters than {sorted(arguments)}: {exc}") from None
    return oracle

