"""Statistic maximal leakage (Wang, Lin & Fanti, "Statistic Maximal Leakage" — the SML paper).

A mechanism ``Q[θ, θ']`` releases a distribution parameter ``θ'`` for an input parameter ``θ``; a
:class:`Secret` maps every input ``θ`` to a secret value ``g(θ)``, splitting the inputs into the
groups ``Θ_g``. The SML (eq. (2)) is the largest multiplicative gain in the probability of guessing
the secret over every prior and attack; by Prop. 1 it is a maximum over *selections* — one input
``θ_g ∈ Θ_g`` per secret value (the priors with ``P_{Θ|G} ∈ {0,1}``):

    ``Π = max_selection log Σ_{θ'} max_g Q[θ_g, θ']``.

Three exact ways to compute it are offered by :func:`measure_sml`:

* ``"enumerate"`` — every selection (there are ``Π_g |Θ_g|``), vectorized;
* ``"milp"`` — a mixed-integer program solved by HiGHS: binary ``z_θ`` (one per group,
  ``Σ_{θ∈Θ_g} z_θ = 1``), continuous ``y_{θθ'} ∈ [0, z_θ]`` with ``Σ_θ y_{θθ'} <= 1``; the optimum of
  ``Σ Q∘y`` is ``e^Π``. Computing the SML is NP-hard (Thm. 1): measured (benchmarks/RESULTS.md) the MILP
  takes ~0.02 s at ``|Θ| = |Θ'| = 10``, 1–2 s at 30 and 10–30 s at 60 on dense random mechanisms, so it
  is practical up to ``|Θ| ≈ 60``; enumeration is faster whenever there are at most ~10⁶ selections.
  Long runs log each improving selection (logger ``mechdesign.privacy.sml``, or a ``progress``
  callback) and accept a ``time_limit`` (then a proven upper bound is returned);
* ``"flow"`` — deterministic mechanisms only (Alg. 1, Prop. 2): the min-cost flow on Alg. 1's network
  has costs 0 or −1 there, so it is a maximum-cardinality matching between secret values and outputs
  (``g`` — ``θ'`` when some ``θ ∈ Θ_g`` is mapped to ``θ'``), found by Hopcroft–Karp
  (``scipy.sparse.csgraph.maximum_bipartite_matching``); ``Π = log(matching size)``.

As a design constraint (Prop. 1 again): ``Σ_{θ'} max_g Q[θ_g, θ'] <= e^T`` for every selection — linear,
one epigraph variable per output and selection. Design under an SML budget (enumerating the selections
when they are few, generating them otherwise) is :func:`mechdesign.designers.sml.design_under_sml`.
"""

from __future__ import annotations

import itertools
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Union

from .._lazy import cvxpy as cp
import highspy
import numpy as np
from .._lazy import scipy_sparse as sp
from .._lazy import LazyFunction

from .._validate import as_callable, as_choice, as_positive_int, as_secret_values, as_sequence, as_time_limit
from ..exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError, SolverFailedError
from ..mechanism import MechanismLike, as_mechanism
from ..relaxation import LinearRelaxation, column_maxima_sums
from ..solvers import quiet_highs, run_highs
from ..progress import Progress, report
from .base import PrivacyNotion

maximum_bipartite_matching = LazyFunction("scipy.sparse.csgraph", "maximum_bipartite_matching")

logger = logging.getLogger(__name__)

#: Seconds per column-maximum entry of the enumeration (selections × ``|Θ'|`` entries): 6·10⁷ entries
#: took 0.66–0.74 s at ``|Θ| = |Θ'| = 60``, s = 6 under load 7 on 2 cores (benchmarks/sml.py), rounded up.
ENUMERATE_SECONDS_PER_ENTRY = 1.5e-8
#: The MILP's measured time ≈ ``MILP_SECONDS_AT_10 · (|Θ| / 10)^MILP_GROWTH`` on random mechanisms
#: (least-squares fit to the MILP column of benchmarks/RESULTS.md, ``|Θ|`` = 10 … 60: 0.02 s to 9–29 s).
MILP_SECONDS_AT_10 = 0.02
MILP_GROWTH = 3.4
#: :class:`StatisticMaximalLeakage` writes its constraints for at most this many selections.
CONSTRAINT_MAX_SELECTIONS = 2_000
#: Entries within this of 0 or 1 count as deterministic for the flow method.
DETERMINISTIC_ATOL = 1e-12
#: Scalars per batch in the enumeration (memory bound: ``batch × s × |Θ'|`` floats).
_BATCH_ENTRIES = 1 << 21

METHODS = ("auto", "enumerate", "milp", "flow")


# ---------------------------------------------------------------------------------------------
# Secrets
# ---------------------------------------------------------------------------------------------


class Secret:
    """A secret map ``g: Θ → G`` on a finite input set (SML paper, §III).

    Parameters
    ----------
    values
        One secret value per input ``θ`` (numbers or labels). The distinct values, sorted, are the
        secret values ``g_1 < … < g_s``; ``groups[i]`` lists the inputs of ``Θ_{g_i}``.

    Examples
    --------
    >>> secret = Secret([0, 0, 1, 1, 1])
    >>> secret.n_values, secret.n_selections
    (2, 6)
    """

    __slots__ = ("values", "labels", "group_index", "groups")

    def __init__(self, values: Any) -> None:
        array = as_secret_values(values)
        labels, group_index = np.unique(array, return_inverse=True)
        self.values = array
        self.labels = labels
        self.group_index = group_index.astype(np.intp)
        self.groups = tuple(np.flatnonzero(self.group_index == g) for g in range(labels.size))
        for attribute in (self.values, self.labels, self.group_index, *self.groups):
            attribute.setflags(write=False)

    @classmethod
    def from_function(cls, inputs: Iterable[Any], function: Callable[[Any], Any]) -> "Secret":
        """The secret ``g(θ) = function(θ)`` of every input ``θ`` in ``inputs`` (in order).

        Examples
        --------
        >>> Secret.from_function(range(5), lambda t: t % 2)  # parity
        Secret(5 inputs, 2 values, group sizes [3, 2])
        """
        as_callable(function, "function")
        return cls([function(item) for item in as_sequence(inputs, "inputs")])

    @property
    def n_inputs(self) -> int:
        """``|Θ|``.

        Examples
        --------
        >>> Secret([0, 0, 1]).n_inputs
        3
        """
        return self.values.size

    @property
    def n_values(self) -> int:
        """``s``, the number of secret values.

        Examples
        --------
        >>> Secret(["a", "b", "a"]).n_values
        2
        """
        return self.labels.size

    @property
    def group_sizes(self) -> np.ndarray:
        """``|Θ_g|`` for every secret value.

        Examples
        --------
        >>> Secret([0, 1, 0, 0, 1]).group_sizes
        array([3, 2])
        """
        return np.array([group.size for group in self.groups])

    @property
    def n_selections(self) -> int:
        """``Π_g |Θ_g|``: the number of priors with ``P_{Θ|G} ∈ {0,1}`` (exact integer).

        Examples
        --------
        >>> Secret([0, 1, 0, 0, 1]).n_selections  # 3 · 2
        6
        """
        return math.prod(group.size for group in self.groups)

    def selections(self, batch: int = 4096) -> Iterator[np.ndarray]:
        """Every selection (one input per secret value), as integer arrays of shape ``(≤ batch, s)``.

        Examples
        --------
        >>> np.concatenate(list(Secret([0, 1, 0]).selections(batch=1))).tolist()
        [[0, 1], [2, 1]]
        """
        iterator = itertools.product(*self.groups)
        while chunk := list(itertools.islice(iterator, batch)):
            yield np.array(chunk, dtype=np.intp)

    def check_selection(self, selection: Any) -> np.ndarray:
        """Validate one input per secret value, ``selection[i] ∈ Θ_{g_i}``.

        Examples
        --------
        >>> Secret([0, 1, 0]).check_selection([2, 1])
        array([2, 1])
        >>> Secret([0, 1, 0]).check_selection([1, 1])
        Traceback (most recent call last):
            ...
        mechdesign.exceptions.MechDesignError: selection entry 0 = 1 is not an input of secret value 0
        """
        array = np.asarray(selection)
        if array.shape != (self.n_values,) or not np.issubdtype(array.dtype, np.integer):
            raise MechDesignError(f"a selection is one input index per secret value ({self.n_values}), got {selection!r}")
        wrong = np.flatnonzero((array < 0) | (array >= self.n_inputs))
        if wrong.size == 0:
            wrong = np.flatnonzero(self.group_index[array] != np.arange(self.n_values))
        if wrong.size:
            raise MechDesignError(f"selection entry {int(wrong[0])} = {int(array[wrong[0]])} is not an input of "
                                  f"secret value {self.labels[wrong[0]].item()!r}")
        return array.astype(np.intp)

    def __repr__(self) -> str:
        return f"Secret({self.n_inputs} inputs, {self.n_values} values, group sizes {self.group_sizes.tolist()})"


SecretLike = Union[Secret, Sequence[Any], np.ndarray]


def as_secret(secret: SecretLike) -> Secret:
    """Return ``secret`` as a :class:`Secret` (from one value per input if it is a sequence).

    Examples
    --------
    >>> as_secret([0, 0, 1])
    Secret(3 inputs, 2 values, group sizes [2, 1])
    >>> secret = Secret([0, 1])
    >>> as_secret(secret) is secret
    True
    """
    return secret if isinstance(secret, Secret) else Secret(secret)


def _matrix_for(mechanism: MechanismLike, secret: Secret) -> np.ndarray:
    matrix = as_mechanism(mechanism).matrix
    if matrix.shape[0] != secret.n_inputs:
        raise ShapeMismatchError(f"the secret is defined on {secret.n_inputs} inputs, but the mechanism has "
                                 f"{matrix.shape[0]}")
    return matrix


# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SMLMeasurement:
    """The SML of a mechanism and a selection attaining it.

    Attributes
    ----------
    value
        The SML in nats (a lower bound when ``exact`` is false: the best selection found).
    selection
        One input index per secret value whose ``log Σ_{θ'} max_g Q[θ_g, θ']`` equals ``value``.
    method
        ``"enumerate"``, ``"milp"`` or ``"flow"``.
    exact
        Whether ``value`` is proven optimal (false only when a MILP time limit stopped the search).
    upper
        A proven upper bound on the SML (equal to ``value`` when exact).
    """

    value: float
    selection: np.ndarray
    method: str
    exact: bool = True
    upper: float = math.nan

    def __post_init__(self) -> None:
        if math.isnan(self.upper):
            object.__setattr__(self, "upper", self.value)


def selection_leakage(mechanism: MechanismLike, secret: SecretLike, selection: Any) -> float:
    """``log Σ_{θ'} max_g Q[θ_g, θ']`` for one selection (the objective of SML paper, Prop. 1).

    Parameters
    ----------
    mechanism
        The mechanism.
    secret
        The secret of every input.
    selection
        One input per secret value (see :meth:`Secret.check_selection`).

    Returns
    -------
    float
        The leakage (nats).

    Examples
    --------
    >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
    >>> round(selection_leakage(matrix, [0, 0, 1], [0, 2]), 12) == round(math.log(2), 12)  # 1 + 1
    True
    >>> round(selection_leakage(matrix, [0, 0, 1], [1, 2]), 12) == round(math.log(1.5), 12)  # 0.5 + 1
    True
    """
    secret = as_secret(secret)
    matrix = _matrix_for(mechanism, secret)
    return float(np.log(matrix[secret.check_selection(selection)].max(axis=0).sum()))


def _enumerate(matrix: np.ndarray, secret: Secret) -> SMLMeasurement:
    values, selections = largest_selections(matrix, secret, 1)
    return SMLMeasurement(float(values[0]), selections[0], "enumerate")


def largest_selections(mechanism: MechanismLike, secret: SecretLike, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``count`` selections of largest ``log Σ_{θ'} max_g Q[θ_g, θ']`` (SML paper, Prop. 1), by enumeration.

    Selections are built group by group (smallest groups first): the column maxima of a partial
    selection are shared by all its completions, so the work is about ``Π_g |Θ_g| · |Θ'|``.

    Returns
    -------
    values, selections
        The leakages in nats, decreasing, and the selections (one row each, one input per secret value).

    Examples
    --------
    >>> values, selections = largest_selections([[0.5, 0.5], [0.9, 0.1], [0.2, 0.8]], [0, 0, 1], 2)
    >>> values.round(4).tolist(), selections.tolist()
    ([0.5306, 0.2624], [[1, 2], [0, 2]])
    """
    secret = as_secret(secret)
    matrix = _matrix_for(mechanism, secret)
    top = _TopSelections(as_positive_int(count, "count"))
    order = sorted(range(secret.n_values), key=lambda g: secret.groups[g].size)
    _extend(matrix, [secret.groups[g] for g in order], np.zeros((1, matrix.shape[1])),
            np.empty((1, 0), dtype=np.intp), top)
    selections = np.empty_like(top.selections)
    selections[:, order] = top.selections
    return np.log(top.totals), selections


class _TopSelections:
    """The ``count`` selections of largest total found so far by :func:`_extend` (in its group order)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.totals = np.empty(0)
        self.selections: np.ndarray | None = None

    def offer(self, totals: np.ndarray, chosen: np.ndarray, group: np.ndarray) -> None:
        """Merge the completions ``totals[i, j]`` of ``chosen[i]`` by ``group[j]``."""
        flat = totals.ravel()
        k = min(self.count, flat.size)
        best = np.argpartition(-flat, k - 1)[:k]
        rows, columns = np.divmod(best, group.size)
        candidates = np.column_stack([chosen[rows], group[columns]])
        merged_totals = np.concatenate([self.totals, flat[best]])
        merged = candidates if self.selections is None else np.vstack([self.selections, candidates])
        keep = np.argsort(-merged_totals, kind="stable")[: self.count]
        self.totals, self.selections = merged_totals[keep], merged[keep]


def _extend(matrix: np.ndarray, groups: list[np.ndarray], maxima: np.ndarray, chosen: np.ndarray,
            top: _TopSelections) -> None:
    """Complete the partial selections ``chosen`` (rows; their column maxima ``maxima``) with the remaining groups.

    Partial selections are processed in batches of at most ``_BATCH_ENTRIES`` column-maximum entries.
    """
    depth = chosen.shape[1]
    group = groups[depth]
    batch = max(1, _BATCH_ENTRIES // (group.size * matrix.shape[1]))
    for start in range(0, maxima.shape[0], batch):
        part = maxima[start:start + batch]
        extended = np.maximum(part[:, None, :], matrix[group][None, :, :])
        if depth == len(groups) - 1:
            top.offer(extended.sum(axis=2), chosen[start:start + batch], group)
            continue
        extended_chosen = np.hstack([np.repeat(chosen[start:start + batch], group.size, axis=0),
                                     np.tile(group, part.shape[0])[:, None]])
        _extend(matrix, groups, extended.reshape(-1, matrix.shape[1]), extended_chosen, top)


def _require_deterministic(matrix: np.ndarray) -> np.ndarray:
    """The output of every row of a deterministic mechanism; an error naming a randomized row."""
    random_entries = (matrix > DETERMINISTIC_ATOL) & (matrix < 1.0 - DETERMINISTIC_ATOL)
    if random_entries.any():
        row, column = (int(i) for i in np.argwhere(random_entries)[0])
        raise MechDesignError(
            "the min-cost-flow method (SML paper, Alg. 1 / Prop. 2) is exact only for deterministic "
            f"mechanisms, but row {row} has entry {matrix[row, column]:.6g} at column {column}; "
            "use method='milp' or 'enumerate'")
    return np.argmax(matrix, axis=1)


def _flow(matrix: np.ndarray, secret: Secret) -> SMLMeasurement:
    return deterministic_sml(_require_deterministic(matrix), secret)


def deterministic_sml(outputs: Any, secret: SecretLike) -> SMLMeasurement:
    """SML of the deterministic mechanism ``θ ↦ outputs[θ]`` (SML paper, Alg. 1 and Prop. 2).

    Alg. 1's min-cost flow has costs 0 or −1 here, so it is a maximum matching between secret values
    and outputs (``g`` — ``θ'`` iff some ``θ ∈ Θ_g`` has ``outputs[θ] = θ'``); the SML is the log of its
    size. Takes the output index of every input, so that ``|Θ|`` in the tens of thousands needs no
    dense matrix.

    Parameters
    ----------
    outputs
        One non-negative output index per input.
    secret
        The secret of every input.

    Returns
    -------
    SMLMeasurement
        The value (nats) and a maximizing selection.

    Raises
    ------
    MechDesignError
        If ``outputs`` is not one non-negative integer per input.

    Examples
    --------
    Inputs 0, 1 (secret 0) go to outputs 0, 1 and input 2 (secret 1) to output 1: secret 0 matched to
    output 0 and secret 1 to output 1, so ``log 2``:

    >>> measurement = deterministic_sml(np.array([0, 1, 1]), [0, 0, 1])
    >>> round(measurement.value, 12) == round(math.log(2), 12), measurement.selection
    (True, array([0, 2]))
    """
    secret = as_secret(secret)
    released = np.asarray(outputs)
    if released.shape != (secret.n_inputs,) or not np.issubdtype(released.dtype, np.integer) or released.min() < 0:
        raise MechDesignError(f"outputs must be one non-negative output index per input ({secret.n_inputs}), "
                              f"got shape {released.shape}")
    graph = sp.csr_matrix((np.ones(secret.n_inputs), (secret.group_index, released)),
                          shape=(secret.n_values, int(released.max()) + 1))
    graph.data[:] = 1.0  # duplicates were summed
    matched = maximum_bipartite_matching(graph, perm_type="column")
    selection = np.array([group[0] for group in secret.groups], dtype=np.intp)
    for g in np.flatnonzero(matched >= 0):
        group = secret.groups[g]
        selection[g] = group[np.flatnonzero(released[group] == matched[g])[0]]
    return SMLMeasurement(math.log(int((matched >= 0).sum())), selection, "flow")


def _milp(matrix: np.ndarray, secret: Secret, time_limit: float | None, progress: Progress | None) -> SMLMeasurement:
    """The compact MILP of the module docstring, solved by HiGHS (highspy)."""
    n_in = secret.n_inputs
    rows, cols = np.nonzero(matrix > 0)
    n_y = rows.size
    n_vars = n_in + n_y
    y_index = n_in + np.arange(n_y)
    # Rows: one per group (== 1), one link y - z <= 0 per y, one per output column (<= 1).
    group_rows = sp.csr_matrix((np.ones(n_in), (secret.group_index, np.arange(n_in))), shape=(secret.n_values, n_vars))
    link_rows = sp.csr_matrix((np.r_[np.ones(n_y), -np.ones(n_y)],
                               (np.r_[np.arange(n_y), np.arange(n_y)], np.r_[y_index, rows])), shape=(n_y, n_vars))
    column_rows = sp.csr_matrix((np.ones(n_y), (cols, y_index)), shape=(matrix.shape[1], n_vars))
    A = sp.vstack([group_rows, link_rows, column_rows], format="csr")
    inf = highspy.kHighsInf
    lower = np.r_[np.ones(secret.n_values), np.full(n_y, -inf), np.full(matrix.shape[1], -inf)]
    upper = np.r_[np.ones(secret.n_values), np.zeros(n_y), np.ones(matrix.shape[1])]

    h = quiet_highs()
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    costs = np.r_[np.zeros(n_in), -matrix[rows, cols]]
    empty = np.array([], dtype=np.int32)
    h.addCols(n_vars, costs, np.zeros(n_vars), np.ones(n_vars), 0, empty, empty, np.array([]))
    h.addRows(A.shape[0], lower, upper, A.nnz, A.indptr[:-1].astype(np.int32), A.indices.astype(np.int32), A.data)
    h.changeColsIntegrality(n_in, np.arange(n_in, dtype=np.int32), np.array([highspy.HighsVarType.kInteger] * n_in))

    start = time.perf_counter()
    improvements = 0

    def on_improvement(event: Any) -> None:
        nonlocal improvements
        improvements += 1
        best, bound = -event.data_out.mip_primal_bound, -event.data_out.mip_dual_bound
        best_nats, bound_nats = math.log(best), math.log(bound) if bound > 0 else math.inf
        logger.info("SML MILP %.1f s: best %.9g, bound %.9g nats", time.perf_counter() - start, best_nats, bound_nats)
        report(progress, improvements, None, f"SML MILP: best {best_nats:.6g}, bound {bound_nats:.6g} nats")

    h.cbMipImprovingSolution.subscribe(on_improvement)
    outcome = run_highs(h)
    status = h.getModelStatus()
    info = h.getInfo()
    if info.primal_solution_status != 2:  # no feasible point (only possible on an early stop)
        raise SolverFailedError(f"the SML MILP found no selection (HiGHS status {h.modelStatusToString(status)}); "
                                "raise time_limit")
    z = np.asarray(h.getSolution().col_value[:n_in])
    selection = np.array([group[np.argmax(z[group])] for group in secret.groups], dtype=np.intp)
    # Re-evaluate the selection in numpy rather than trusting the solver's objective.
    value = math.log(matrix[selection].max(axis=0).sum())
    exact = outcome.solved
    upper = value if exact else math.log(max(-info.mip_dual_bound, 1.0))
    return SMLMeasurement(value, selection, "milp", exact=exact, upper=max(upper, value))


def is_deterministic(mechanism: MechanismLike) -> bool:
    """Whether every entry of the mechanism is 0 or 1 (within ``DETERMINISTIC_ATOL``).

    Parameters
    ----------
    mechanism
        The mechanism.

    Returns
    -------
    bool
        ``True`` for a deterministic mechanism.

    Examples
    --------
    >>> is_deterministic(np.eye(2)), is_deterministic([[0.5, 0.5], [0.0, 1.0]])
    (True, False)
    """
    matrix = as_mechanism(mechanism).matrix
    return bool((np.minimum(matrix, 1.0 - matrix) <= DETERMINISTIC_ATOL).all())


def estimated_seconds(secret: Secret, n_outputs: int) -> dict[str, float]:
    """Estimated seconds of ``"enumerate"`` and ``"milp"`` from their measured costs (constants above).

    Examples
    --------
    >>> estimate = estimated_seconds(Secret(np.arange(60) % 6), 60)
    >>> estimate["enumerate"] < estimate["milp"]
    True
    """
    return {"enumerate": secret.n_selections * n_outputs * ENUMERATE_SECONDS_PER_ENTRY,
            "milp": MILP_SECONDS_AT_10 * (secret.n_inputs / 10) ** MILP_GROWTH}


def choose_method(mechanism: MechanismLike, secret: SecretLike) -> str:
    """``"flow"`` for deterministic mechanisms, else the faster of ``"enumerate"`` and ``"milp"`` by
    :func:`estimated_seconds`.

    Examples
    --------
    >>> choose_method([[0.5, 0.5], [0.2, 0.8]], [0, 1])
    'enumerate'
    """
    matrix = as_mechanism(mechanism).matrix
    if is_deterministic(matrix):
        return "flow"
    estimate = estimated_seconds(as_secret(secret), matrix.shape[1])
    return "enumerate" if estimate["enumerate"] <= estimate["milp"] else "milp"


def measure_sml(
    mechanism: MechanismLike,
    secret: SecretLike,
    method: str = "auto",
    *,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> SMLMeasurement:
    """The statistic maximal leakage of ``mechanism`` for ``secret`` (SML paper, eq. (2) / Prop. 1).

    Parameters
    ----------
    mechanism
        ``Q[θ, θ']`` with one row per input of ``secret``.
    secret
        A :class:`Secret` or one secret value per input.
    method
        ``"enumerate"``, ``"milp"``, ``"flow"`` (deterministic mechanisms only) or ``"auto"``
        (:func:`choose_method`). All three are exact.
    time_limit
        Seconds for the MILP; when it stops early the result has ``exact=False`` and a proven ``upper``.
    progress
        A :class:`~mechdesign.progress.Progress` callback, called by the MILP at every improving
        selection with ``(improvements so far, None, "SML MILP: best …, bound … nats")``; the same
        is logged at INFO level on the ``mechdesign.privacy.sml`` logger. ``None`` is silent.

    Returns
    -------
    SMLMeasurement
        The value, a selection attaining it, and the method used.

    Raises
    ------
    SolverFailedError
        When the MILP stops (``time_limit``) before finding any selection: not an input error.

    Examples
    --------
    >>> round(measure_sml([[1, 0], [0, 1], [0, 1]], [0, 0, 1]).value, 6)  # log 2
    0.693147
    """
    secret = as_secret(secret)
    matrix = _matrix_for(mechanism, secret)
    time_limit = as_time_limit(time_limit)
    if progress is not None:
        as_callable(progress, "progress")
    method = as_choice(method, METHODS, "method")
    chosen = choose_method(matrix, secret) if method == "auto" else method
    if chosen == "flow":
        return _flow(matrix, secret)
    if chosen == "enumerate":
        return _enumerate(matrix, secret)
    return _milp(matrix, secret, time_limit, progress)


def worst_case_maximal_leakage(mechanism: MechanismLike) -> float:
    """``sup_P L_ML = log Σ_{θ'} max_θ Q[θ, θ']`` (Issa et al.; SML paper, Property 1).

    Parameters
    ----------
    mechanism
        The mechanism.

    Returns
    -------
    float
        The leakage (nats).

    Examples
    --------
    >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
    >>> round(worst_case_maximal_leakage(matrix), 12) == round(math.log(2), 12)  # column maxima 1 + 1
    True
    """
    matrix = as_mechanism(mechanism).matrix
    return float(np.log(matrix.max(axis=0).sum()))


def min_entropy_leakage(mechanism: MechanismLike, prior: Any) -> float:
    """Min-entropy leakage ``log(Σ_{θ'} max_θ P(θ)Q[θ, θ'] / max_θ P(θ))`` under ``prior`` (Smith 2009).

    Parameters
    ----------
    mechanism
        The mechanism.
    prior
        The input distribution.

    Returns
    -------
    float
        The leakage (nats).

    Examples
    --------
    >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
    >>> leakage = min_entropy_leakage(matrix, [0.5, 0.25, 0.25])  # (0.5 + 0.25) / 0.5
    >>> round(leakage, 12) == round(math.log(1.5), 12)
    True
    """
    mech = as_mechanism(mechanism)
    joint = mech.joint(prior)
    return float(np.log(joint.max(axis=0).sum() / joint.sum(axis=1).max()))


def worst_case_min_entropy_leakage(mechanism: MechanismLike) -> float:
    """``L_MEL`` of the SML paper: min-entropy leakage under the worst prior, attained by the uniform
    prior (Braun, Chatzikokolakis & Palamidessi 2009, Thm. 5).

    Parameters
    ----------
    mechanism
        The mechanism.

    Returns
    -------
    float
        The leakage (nats), equal to :func:`worst_case_maximal_leakage`.

    Examples
    --------
    >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
    >>> worst_case_min_entropy_leakage(matrix) == worst_case_maximal_leakage(matrix)
    True
    """
    n = as_mechanism(mechanism).n_inputs
    return min_entropy_leakage(mechanism, np.full(n, 1.0 / n))


def property1_bounds(mechanism: MechanismLike, secret: SecretLike) -> tuple[float, float]:
    """``(L − max_g log|Θ_g|, L)`` with ``L = sup_P L_ML = L_MEL``, which bracket the SML (Property 1).

    Parameters
    ----------
    mechanism
        The mechanism.
    secret
        The secret of every input.

    Returns
    -------
    tuple of float
        The lower and upper bounds (nats).

    Examples
    --------
    >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
    >>> lower, upper = property1_bounds(matrix, [0, 0, 1])  # L = log 2, largest group of 2
    >>> lower, round(upper, 12) == round(math.log(2), 12)
    (0.0, True)
    """
    secret = as_secret(secret)
    leakage = worst_case_maximal_leakage(_matrix_for(mechanism, secret))
    return leakage - math.log(int(secret.group_sizes.max())), leakage


# ---------------------------------------------------------------------------------------------
# The notion
# ---------------------------------------------------------------------------------------------


def selection_totals(Q: cp.Expression, selections: np.ndarray) -> list[cp.Expression]:
    """``Σ_{θ'} max_g Q[θ_g, θ']`` as a convex cvxpy expression for each selection (row of ``selections``).

    Parameters
    ----------
    Q
        The ``(n, m)`` channel (a cvxpy variable or expression).
    selections
        ``(k, s)`` selections, one per row.

    Returns
    -------
    list of cvxpy.Expression
        One total per selection.

    Examples
    --------
    >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
    >>> [float(total.value) for total in selection_totals(cp.Constant(matrix), np.array([[0, 2], [1, 2]]))]
    [2.0, 1.5]
    """
    return [cp.sum(cp.max(Q[selection, :], axis=0)) for selection in selections]


class StatisticMaximalLeakage(PrivacyNotion):
    """Statistic maximal leakage ``Π <= T`` for a known secret (SML paper, eq. (2), Prop. 1).

    The constraints list every selection (``Σ_{θ'} max_g Q[θ_g, θ'] <= e^T``), so they are written only
    up to ``CONSTRAINT_MAX_SELECTIONS`` selections; larger secrets are designed by constraint generation,
    by :func:`~mechdesign.solve.design` for expected or worst-case distortion (method
    ``"constraint-generation"``) and by :func:`mechdesign.designers.sml.design_under_sml` for any objective. The measure is :func:`measure_sml` (exact; ``method`` as there).

    Parameters
    ----------
    secret
        A :class:`Secret`, or one secret value per input.
    method
        The measurement method (``"auto"`` by default).

    Examples
    --------
    Inputs 0 and 1 share secret 0; the selection (0, 2) leaks ``log(1 + 1)``, the most:

    >>> notion = StatisticMaximalLeakage([0, 0, 1])
    >>> leakage = notion.measure([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    >>> round(leakage, 12) == round(math.log(2), 12)
    True
    """

    name = "sml"
    reference = "Wang, Lin & Fanti, Statistic Maximal Leakage, eq. (2) and Proposition 1"

    def __init__(self, secret: SecretLike, method: str = "auto") -> None:
        self.secret = as_secret(secret)
        self.method = as_choice(method, METHODS, "method")
        self.n_inputs = self.secret.n_inputs

    @property
    def label(self) -> str:
        """``sml[s=…]`` with the number of secret values.

        Examples
        --------
        >>> StatisticMaximalLeakage([0, 0, 1]).label
        'sml[s=2]'
        """
        return f"sml[s={self.secret.n_values}]"

    def _all_selections(self) -> np.ndarray:
        count = self.secret.n_selections
        if count > CONSTRAINT_MAX_SELECTIONS:
            raise ProblemTooLargeError(
                f"{self.label} has {count} selections (> {CONSTRAINT_MAX_SELECTIONS}) to write as constraints; "
                "design() generates them for an expected or worst-case distortion (method 'constraint-generation'), "
                "design_under_sml for any objective")
        return np.concatenate(list(self.secret.selections()))

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``max_selection Σ_{θ'} max_g Q[θ_g, θ']`` (at most ``e^T``).

        Examples
        --------
        >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
        >>> float(StatisticMaximalLeakage([0, 0, 1]).leakage_expression(cp.Constant(matrix)).value)  # e^SML
        2.0
        """
        return cp.max(cp.hstack(selection_totals(Q, self._all_selections())))

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return [total <= scaled for total in selection_totals(Q, self._all_selections())]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraints themselves (an LP): ``Σ_y max_{x ∈ selection} Q[x, y] <= e^T`` per selection.

        Examples
        --------
        >>> matrix = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])  # inputs 0, 1 share secret 0
        >>> relaxation = StatisticMaximalLeakage([0, 0, 1]).relaxation([matrix], math.log(2))
        >>> relaxation.rows_q.shape, relaxation.n_aux  # 2 selections × (2 · 2 caps + 1 sum); M per selection
        ((10, 6), 4)
        """
        return column_maxima_sums(points[0].shape, list(self._all_selections()), math.exp(budget))

    def _measure(self, matrix: np.ndarray) -> float:
        return max(0.0, measure_sml(matrix, self.secret, self.method).value)
