"""Privacy accounting for releases of finite mechanisms: ``k`` uses of one mechanism, and a ledger of many.

A mechanism ``Q`` used ``k`` times on the same input releases ``Y_1, …, Y_k``, independent given
``X``: the *repeated-use mechanism* ``Q^(k)[x, (y_1, …, y_k)] = Π_j Q[x, y_j]`` — the rows of the
parallel composition :func:`~mechdesign.mechanisms.global_framework.product_mechanism` at the
databases ``(x, …, x)``. Every pair of inputs is a pair of neighbours (local privacy).

* Exact, for small ``k``: :func:`repeated_use` builds ``Q^(k)`` (``m^k`` outputs) and
  :func:`exact_after` measures it with any notion's own numpy measure.
* (ε, δ)-DP in the hockey-stick form (Dwork & Roth, Definition 2.4): :func:`epsilon_after` and
  :func:`delta_after` — exact on ``Q^(k)`` when that is cheap, otherwise from privacy-loss
  distributions (PLDs; dp-accounting, the ``accounting`` extra): the PLD of every pair of rows,
  rounded pessimistically to multiples of ``discretization`` and composed ``k`` times, so the value
  is an upper bound, above the exact one by at most the effect of shifting every privacy loss up by
  ``k · discretization`` (with very many distinct pairs, the PLD of their dominating envelope composed
  ``k`` times: a looser bound). Any ``k`` works: beyond :data:`MAX_PLD_POINTS` grid points the composition
  proceeds by repeated squaring on a grid coarsened by powers of two (each coarsening rounds losses up,
  so the value stays an upper bound), in ``O(log k)`` compositions of bounded size.
* By composition rules: :func:`dp_after` (``k ε``), :func:`renyi_after` (``k ε_α``), both exact on
  ``Q^(k)``, and :func:`maximal_leakage_after` (``min(k L, log r)``, an upper bound).
* Across releases: a :class:`Ledger` records releases of different mechanisms (different columns,
  repeated uses) on the same individuals and answers ε(δ) and δ(ε) of the whole;
  :func:`privacy_loss_distribution` exports a mechanism's exact PLD to dp-accounting;
  :func:`epsilon_delta_curve`, :func:`renyi_curve` and :func:`plot_privacy_curves` give the curves;
  :func:`account` is the library side of ``mechdesign account``.

Examples
--------
>>> from mechdesign import randomized_response
>>> rr = randomized_response(2, 1.0)
>>> round(dp_after(rr, 3), 12)
3.0
>>> round(delta_after(rr, 3, 2.0), 6)  # exact: hockey-stick divergence of three reports
0.246977
>>> ledger = Ledger().record(rr, uses=3, name="age").record_epsilon(0.5, name="survey")
>>> round(ledger.pure_epsilon(), 12)
3.5
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from ._numeric import exp_budget
from ._validate import as_budget, as_choice, as_delta, as_order, as_positive_budget, as_positive_int
from .exceptions import MechDesignError, MissingDependencyError, ProblemTooLargeError
from .mechanism import Mechanism, MechanismLike, as_mechanism
from .memory import check_array
from .privacy.approx_dp import ApproximateDifferentialPrivacy, pair_divergences
from .privacy.base import PrivacyNotion
from .privacy.dp import DifferentialPrivacy
from .privacy.maximal_leakage import MaximalLeakage
from .privacy.renyi import RenyiDifferentialPrivacy
from .result import json_number

#: Largest number of outputs ``m^k`` of a repeated-use (or joint) mechanism that is built.
MAX_REPEATED_OUTPUTS = 100_000
#: Work of the exact method — ordered pairs of inputs × joint outputs — that ``method="auto"`` always
#: accepts; beyond it the exact method is picked only if the PLD's estimated work is larger (defect M10:
#: the size of the joint output space alone is not the cost).
EXACT_MAX_WORK = 5_000_000
#: Seconds of one PLD work unit (a grid point × log2 of the points) over one exact unit, measured
#: under load (about 1.2·10⁻⁷ s against 2.6·10⁻⁸ s; 120 random symbols × 2 uses: 5 s exact, 0.4 s per
#: pair by PLD, 14,280 pairs).
PLD_UNIT_COST = 5
#: Default width of the privacy-loss grid of the PLD accountant (nats).
DEFAULT_DISCRETIZATION = 1e-4
#: Ways of computing (ε, δ).
METHODS = ("auto", "exact", "pld")
#: Largest number of grid points of a privacy-loss distribution; a wider one is coarsened by a power of 2.
MAX_PLD_POINTS = 2**18
#: Probability mass cut from each tail at every composition (dp-accounting's default), pessimistically:
#: the right tail moves to an infinite loss, the left one onto the smallest loss kept.
TAIL_MASS_TRUNCATION = 1e-15
#: Largest number of points (non-zero points to the power of the uses) of a composition by exact sums.
SPARSE_COMPOSE_POINTS = 1000
#: Largest number of uses accepted (``2^63 − 1``): the PLD composes any of them in at most 126
#: squarings, and beyond it ε of any mechanism that distinguishes two inputs is beyond every budget.
MAX_USES = sys.maxsize
#: Largest estimated work (over the distinct pairs of rows, grid points × log2 of them) of composing
#: every pair separately; beyond it the envelope of one use of every pair is composed instead (a single
#: composition, a looser bound).
PAIR_PLD_MAX_WORK = 20_000_000
#: Round-off of a δ computed in float as a sum of probabilities; :func:`_grid_epsilon` accepts an ε whose
#: computed δ exceeds the target by at most this much.
DELTA_ROUND_OFF = 1e-15
#: ``delta`` values at which :meth:`Ledger.summary` and :func:`account` report ε(δ) by default.
SUMMARY_DELTAS = (1e-9, 1e-6, 1e-3)
#: Format name and version of :meth:`Ledger.to_dict`.
LEDGER_FORMAT, LEDGER_VERSION = "mechdesign-ledger", 1


def repeated_use(mechanism: MechanismLike, uses: int) -> Mechanism:
    """``Q^(k)[x, (y_1, …, y_k)] = Π_j Q[x, y_j]``: ``k`` independent uses on the same input.

    Outputs are the tuples ``(y_1, …, y_k)`` in lexicographic order (index ``Σ_j y_j m^{k−1−j}``).

    Parameters
    ----------
    mechanism
        ``Q`` with ``m`` outputs.
    uses
        ``k >= 1``.

    Returns
    -------
    Mechanism
        ``n`` inputs, ``m^k`` outputs (:class:`ProblemTooLargeError` above :data:`MAX_REPEATED_OUTPUTS`,
        decided before anything is computed, whatever ``k``).

    Examples
    --------
    >>> repeated_use([[0.75, 0.25], [0.25, 0.75]], 2).matrix[0].tolist()
    [0.5625, 0.1875, 0.1875, 0.0625]
    """
    matrix = as_mechanism(mechanism).matrix
    count = _as_uses(uses)
    if not _fits(count, matrix.shape[1]):
        raise ProblemTooLargeError(
            f"{count} uses of a mechanism with {matrix.shape[1]} outputs give "
            f"{_power_text(matrix.shape[1], count)} joint outputs, more than {MAX_REPEATED_OUTPUTS}; "
            "use method='pld' or a composition rule")
    joint = matrix
    for _ in range(count - 1):
        joint = (joint[:, :, None] * matrix[:, None, :]).reshape(matrix.shape[0], -1)
    return Mechanism(joint)


def exact_after(notion: PrivacyNotion, mechanism: MechanismLike, uses: int) -> float:
    """The privacy loss of ``k`` uses, measured exactly: ``notion.measure(Q^(k))``.

    Parameters
    ----------
    notion
        Any privacy notion on the mechanism's inputs (DP, PML under a prior, maximal leakage, …).
    mechanism, uses
        ``Q`` and ``k`` as in :func:`repeated_use` (small ``k`` only).

    Examples
    --------
    >>> from mechdesign import MaximalLeakage
    >>> round(exact_after(MaximalLeakage(), [[0.75, 0.25], [0.25, 0.75]], 2), 6)  # log(0.5625 + 0.1875 + 0.1875 + 0.5625)
    0.405465
    """
    return notion.measure(repeated_use(mechanism, uses))


def dp_after(mechanism: MechanismLike, uses: int) -> float:
    """Local ε-DP after ``k`` uses: ``k ε`` (Dwork & Roth, The Algorithmic Foundations of Differential
    Privacy, Theorem 3.16). Exact for repeated use: the worst pair of inputs and output is the same
    in every use, so ``Q^(k)`` reaches ``k ε``. Counts beyond :data:`MAX_USES` are a named error
    (defect M5: ``10**400`` raised ``OverflowError``).

    Examples
    --------
    >>> round(dp_after([[0.75, 0.25], [0.25, 0.75]], 4) / math.log(3), 12)
    4.0
    >>> dp_after([[0.75, 0.25], [0.25, 0.75]], 10**400)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: uses must be an integer >= 1 and <= 9223372036854775807, got 1000...
    """
    return _as_uses(uses) * DifferentialPrivacy().measure(mechanism)


def renyi_after(mechanism: MechanismLike, uses: int, alpha: float) -> float:
    """Local Rényi DP of order α after ``k`` uses: ``k ε_α`` (Mironov, Rényi Differential Privacy,
    Proposition 1). Exact for repeated use: the Rényi divergence of product distributions is the
    sum of the divergences, so the worst pair of inputs is the same for every ``k``.

    Examples
    --------
    >>> round(renyi_after([[0.75, 0.25], [0.25, 0.75]], 2, 2.0), 6)  # 2 log(0.75²/0.25 + 0.25²/0.75)
    1.694596
    """
    count = _as_uses(uses)
    return count * RenyiDifferentialPrivacy(as_order(alpha)).measure(mechanism)


def maximal_leakage_after(mechanism: MechanismLike, uses: int) -> float:
    """An upper bound on the maximal leakage of ``k`` uses: ``min(k L(X → Y), log r)``.

    With ``L = log Σ_y max_x Q[x, y]`` (Issa, Wagner & Kamath, An Operational Approach to Information
    Leakage, Theorem 1) and ``r`` the number of distinct rows of ``Q``:
    ``Σ_{y_1…y_k} max_x Π_j Q[x, y_j] <= Π_j Σ_{y_j} max_x Q[x, y_j]`` (a maximum of products is at
    most the product of maxima) gives ``k L``, and bounding the maximum by the sum over the distinct
    rows gives ``log r``, the limit as ``k → ∞`` (many uses reveal which row the input has).

    Examples
    --------
    >>> round(maximal_leakage_after([[0.75, 0.25], [0.25, 0.75]], 10), 6)  # log 2 < 10 log 1.5
    0.693147
    """
    matrix = as_mechanism(mechanism).matrix
    count = _as_uses(uses)
    distinct_rows = np.unique(matrix, axis=0).shape[0]
    return min(count * MaximalLeakage().measure(matrix), math.log(distinct_rows))


def epsilon_after(mechanism: MechanismLike, uses: int, delta: float, *, method: str = "auto",
                  discretization: float = DEFAULT_DISCRETIZATION) -> float:
    """The smallest ε such that ``k`` uses of the mechanism are (ε, δ)-DP (hockey-stick form, local).

    Parameters
    ----------
    mechanism
        ``Q``; every pair of its inputs is a pair of neighbours.
    uses
        ``1 <= k <= MAX_USES``: any ``k`` is answered in at most ``O(log k)`` compositions (defect M5).
        identity-like mechanism settles it, a :class:`ProblemTooLargeError`).
    delta
        ``0 <= δ < 1``; at δ = 0 the answer is ``k ε`` (:func:`dp_after`), exactly.
    method
        ``"exact"``: the project's own measure on ``Q^(k)`` (small ``k``); ``"pld"``: privacy-loss
        distributions (the ``accounting`` extra) of every distinct pair of rows composed ``k`` times,
        the largest ε over the pairs (an upper bound within the discretization) — or, when that work
        exceeds :data:`PAIR_PLD_MAX_WORK`, the PLD of the pairs' dominating envelope
        (:func:`privacy_loss_distribution`) composed ``k`` times, a looser upper bound in a single
        composition; ``"auto"`` (default): exact when ``m^k <= MAX_REPEATED_OUTPUTS`` and its work —
        ordered pairs × ``m^k`` joint outputs — is at most :data:`EXACT_MAX_WORK` or at most the PLD's
        estimated work (× :data:`PLD_UNIT_COST`), PLD otherwise (defect M10).
    discretization
        Width of the PLD's privacy-loss grid (nats); the PLD value exceeds the exact one by at most the
        effect of shifting every loss by ``k · discretization`` (more when the grid is coarsened, see
        :data:`MAX_PLD_POINTS`). It is never above ``k ε``.

    Returns
    -------
    float
        ε in nats (``inf`` if no finite ε reaches δ).

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> rr = randomized_response(2, 1.0)
    >>> round(epsilon_after(rr, 3, 0.0), 12)  # pure DP: 3 ε
    3.0
    >>> round(epsilon_after(rr, 3, 0.05, method="exact"), 6), round(epsilon_after(rr, 3, 0.05, method="pld"), 6)
    (2.863067, 2.863067)
    >>> epsilon_after([[1.0, 0.0], [0.0, 1.0]], 3, 0.1, method="pld")  # the identity reveals the input
    inf
    """
    matrix = as_mechanism(mechanism).matrix
    count = _as_uses(uses)
    target = as_delta(delta)
    as_choice(method, METHODS, "method")
    width = as_positive_budget(discretization, "discretization")
    pure = dp_after(matrix, count)
    if target == 0.0 or pure == 0.0:
        return pure
    plan = _PairPlan(matrix, count, width)
    if _chosen_method([(matrix, count)], method, plan.work) == "exact":
        return _exact_epsilon(repeated_use(matrix, count).matrix, target)
    return min(pure, max(_grid_epsilon(grid, target) for grid in plan.grids()))


def delta_after(mechanism: MechanismLike, uses: int, epsilon: float, *, method: str = "auto",
                discretization: float = DEFAULT_DISCRETIZATION) -> float:
    """The smallest δ such that ``k`` uses of the mechanism are (ε, δ)-DP (hockey-stick form, local).

    ``max_{x ≠ x'} Σ_{y^k} max(0, Q^(k)[x, y^k] − e^ε Q^(k)[x', y^k])``. Parameters as in
    :func:`epsilon_after`, with ``epsilon >= 0`` (nats) instead of δ; ``epsilon = inf`` is accepted and
    gives δ = 0 (the constraint is void, defect L1), as does any ``epsilon >= k ε`` (pure DP).

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> rr = randomized_response(2, 1.0)
    >>> round(delta_after(rr, 3, 3.0), 12)
    0.0
    >>> round(delta_after(rr, 3, 1.0), 6)
    0.337835
    >>> delta_after(rr, 3, math.inf)
    0.0
    """
    matrix = as_mechanism(mechanism).matrix
    count = _as_uses(uses)
    level = as_budget(epsilon, infinite=True)
    as_choice(method, METHODS, "method")
    width = as_positive_budget(discretization, "discretization")
    if level >= dp_after(matrix, count):
        return 0.0
    plan = _PairPlan(matrix, count, width)
    if _chosen_method([(matrix, count)], method, plan.work) == "exact":
        return _exact_delta(repeated_use(matrix, count).matrix, level)
    return max(_grid_delta(grid, level) for grid in plan.grids())


def privacy_loss_distribution(mechanism: MechanismLike, *, uses: int = 1,
                              discretization: float = DEFAULT_DISCRETIZATION) -> Any:
    """The mechanism's worst-case privacy-loss distribution as a dp-accounting ``PrivacyLossDistribution``.

    Built from the mechanism's exact per-output privacy losses ``log(Q[x, y] / Q[x', y])`` of every
    ordered pair of different rows ``(x, x')``: their *dominating envelope*, the single PLD whose
    hockey-stick divergence ``δ(ε) = Σ_o max(0, P(o) − e^ε Q̃(o))`` is at every ε (negative ones
    included) the largest of the pairs' — the upper concave hull of the pairs' ROC curves — with its
    losses rounded up to multiples of ``discretization`` (pessimistic, as dp-accounting's
    ``from_two_probability_mass_functions``): δ(ε) is at least every pair's, and at most the worst
    pair's at ``ε − discretization``. A mechanism whose pairs are all alike (randomized response)
    gives its one pair's PLD. It is a
    *dominating pair* of the mechanism in the sense of Zhu, Dong & Wang (Optimal Accounting of
    Differential Privacy via Characteristic Function, AISTATS 2022, Definition 7), so its compositions
    bound every composition of the mechanism, adaptive or not, with any other mechanism
    (their Theorem 10). Outputs where ``Q[x', y] = 0 < Q[x, y]`` are the infinite-loss mass. The PLD
    is symmetric (both orders of every pair are in the envelope): local DP's neighbours are any two
    inputs (dp-accounting's REPLACE_ONE relation).

    Compose it with other dp-accounting PLDs of the same ``value_discretization_interval`` by
    ``pld.compose(other)``; a ``DpEvent`` cannot carry it, because dp-accounting's accountants
    (``PLDAccountant``, ``RdpAccountant``) dispatch on a closed list of event classes and report any
    other class, ``UnsupportedDpEvent`` included, as unsupported.

    Parameters
    ----------
    mechanism
        ``Q``.
    uses
        ``k >= 1`` uses on the same input: the envelope of every pair's ``k``-fold PLD (each rounded
        up first), tighter than ``pld.self_compose(k)`` when different pairs are worst at different ε
        — or, beyond :data:`PAIR_PLD_MAX_WORK`, the envelope of one use composed ``k`` times.
    discretization
        Grid width in nats (coarsened by powers of two beyond :data:`MAX_PLD_POINTS` points).

    Examples
    --------
    >>> from dp_accounting.pld import privacy_loss_distribution as pld_module
    >>> from mechdesign import randomized_response
    >>> ours = privacy_loss_distribution(randomized_response(3, 1.2345))
    >>> native = pld_module.from_randomized_response(3 / (math.exp(1.2345) + 2), 3)
    >>> bool(abs(ours.get_delta_for_epsilon(0.5) - native.get_delta_for_epsilon(0.5)) < 1e-9)
    True
    """
    matrix = as_mechanism(mechanism).matrix
    count = _as_uses(uses)
    width = as_positive_budget(discretization, "discretization")
    return _to_pld(_PairPlan(matrix, count, width).envelope())


# ---------------------------------------------------------------------------------------------- ledger


@dataclass(frozen=True)
class LedgerEntry:
    """One recorded release: ``uses`` uses of a mechanism (or of an unnamed pure ε-LDP mechanism).

    Attributes
    ----------
    name
        A label (a column, a release); may be empty.
    uses
        How many times the mechanism was applied to the same input.
    epsilon
        Local ε-DP of one use (nats; ``inf`` allowed).
    mechanism
        The mechanism, or ``None`` for a spend known only by its ε (:meth:`Ledger.record_epsilon`).

    Examples
    --------
    >>> LedgerEntry("age", 2, 1.0, None).uses
    2
    """

    name: str
    uses: int
    epsilon: float
    mechanism: Mechanism | None


class Ledger:
    """Releases of finite mechanisms (different mechanisms, columns, repeated uses) on the same individuals.

    Each entry is ``uses`` releases of one mechanism, each on the *same* value of an individual's
    record; different entries may be on the same or on different columns — the ledger does not
    need to know, because it answers for the worst case, every entry on a column of its own: the
    whole release is the product mechanism on records ``(x_1, …, x_E)``, and every pair of records is
    a pair of neighbours (local privacy). Entries on a shared column only remove pairs, so every
    answer is a valid bound for them too.

    * :meth:`pure_epsilon` — ``Σ uses · ε``: basic composition of pure local DP, exact in the worst
      case (the worst pair and output of each entry can be chosen independently).
    * :meth:`epsilon`, :meth:`delta` — ε(δ) and δ(ε) of the whole. ``method="exact"``: the
      hockey-stick divergence of the joint mechanism ``⊗_e Q_e^(k_e)``, maximized over all ordered
      pairs of records (small ledgers only). ``method="pld"``: how the worst pair is handled — for
      each entry, the privacy-loss distribution of every ordered pair of its rows, composed
      ``uses`` times, is replaced by their dominating envelope (:func:`privacy_loss_distribution`: at
      every ε its δ is at least every pair's, at most the worst one's a grid step lower), and the
      entries' envelopes are composed with
      each other. Composing dominating pairs bounds every pair of records of the product (Zhu, Dong
      & Wang 2022, Theorem 10), and pessimistic rounding keeps it a bound, so the PLD answer is at
      least the exact one; it equals it up to the discretization when one pair is worst at every ε
      in each entry (randomized response, any two-row symmetric mechanism), and is above it when
      different pairs of an entry are worst at different ε. (An entry with too many pairs ×
      grid points — :data:`PAIR_PLD_MAX_WORK` — composes the envelope of one use ``uses`` times
      instead, a looser bound.) A spend recorded by ε only is dominated by binary randomized response
      at that ε (Kairouz, Oh & Viswanath, The Composition Theorem for Differential Privacy, Theorem
      3.3) and accounted as such. ``method="auto"``: exact when its work is at most
      :data:`EXACT_MAX_WORK`.

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> ledger = Ledger().record(randomized_response(2, 1.0), uses=2, name="smoker")
    >>> ledger = ledger.record(randomized_response(4, 0.5), name="region")
    >>> round(ledger.pure_epsilon(), 12)
    2.5
    >>> ledger.epsilon(1e-3, method="exact") <= ledger.epsilon(1e-3, method="pld") <= 2.5
    True
    """

    def __init__(self) -> None:
        self._entries: list[LedgerEntry] = []
        self._grids: dict[tuple[int, float], _LossGrid] = {}

    def record(self, mechanism: MechanismLike, uses: int = 1, name: str = "") -> Ledger:
        """Record ``uses`` releases of ``mechanism`` on the same input; returns the ledger.

        Examples
        --------
        >>> Ledger().record([[0.75, 0.25], [0.25, 0.75]], uses=3).entries[0].uses
        3
        """
        released = as_mechanism(mechanism)
        self._entries.append(LedgerEntry(_as_name(name), _as_uses(uses),
                                         DifferentialPrivacy().measure(released), released))
        return self

    def record_epsilon(self, epsilon: float, name: str = "", *, uses: int = 1) -> Ledger:
        """Record a pure ε-LDP spend known only by its ε (``inf`` allowed); returns the ledger.

        Accounted as its worst case, binary randomized response at ε (every ε-LDP mechanism is a
        post-processing of it).

        Examples
        --------
        >>> Ledger().record_epsilon(0.5, "survey").record_epsilon(math.inf).pure_epsilon()
        inf
        """
        self._entries.append(LedgerEntry(_as_name(name), _as_uses(uses),
                                         as_budget(epsilon, infinite=True), None))
        return self

    @property
    def entries(self) -> tuple[LedgerEntry, ...]:
        """The recorded entries, oldest first."""
        return tuple(self._entries)

    def pure_epsilon(self) -> float:
        """``Σ uses · ε``: basic composition of pure local DP (exact for the worst case; ``inf`` if any
        entry is not pure-DP or the sum exceeds the float range).

        Examples
        --------
        >>> Ledger().record_epsilon(0.25, uses=4).pure_epsilon()
        1.0
        """
        return math.fsum(entry.uses * entry.epsilon for entry in self._entries)

    def epsilon(self, delta: float, method: str = "auto", *,
                discretization: float = DEFAULT_DISCRETIZATION) -> float:
        """ε(δ) of the whole ledger: the smallest ε such that every release together is (ε, δ)-LDP.

        Parameters
        ----------
        delta
            ``0 <= δ < 1``; at 0 the answer is :meth:`pure_epsilon`, exactly.
        method
            ``"auto"``, ``"exact"`` or ``"pld"`` (see the class docstring).
        discretization
            The PLD grid width (nats).

        Examples
        --------
        >>> from mechdesign import randomized_response
        >>> ledger = Ledger().record(randomized_response(2, 1.0), uses=3)
        >>> round(ledger.epsilon(0.05), 6)  # = epsilon_after(rr, 3, 0.05)
        2.863067
        """
        target = as_delta(delta)
        chosen = _chosen_method(self._parts(), method)
        width = as_positive_budget(discretization, "discretization")
        pure = self.pure_epsilon()
        if target == 0.0 or pure == 0.0:
            return pure
        if chosen == "exact":
            return _exact_epsilon(self._joint(), target)
        return min(pure, _grid_epsilon(self._grid(width), target))

    def delta(self, epsilon: float, method: str = "auto", *,
              discretization: float = DEFAULT_DISCRETIZATION) -> float:
        """δ(ε) of the whole ledger (``epsilon = inf``, or at least :meth:`pure_epsilon`, gives 0).

        Examples
        --------
        >>> from mechdesign import randomized_response
        >>> ledger = Ledger().record(randomized_response(2, 1.0), uses=3)
        >>> round(ledger.delta(1.0), 6)
        0.337835
        """
        level = as_budget(epsilon, infinite=True)
        chosen = _chosen_method(self._parts(), method)
        width = as_positive_budget(discretization, "discretization")
        if level >= self.pure_epsilon():
            return 0.0
        if chosen == "exact":
            return _exact_delta(self._joint(), level)
        return _grid_delta(self._grid(width), level)

    def privacy_loss_distribution(self, discretization: float = DEFAULT_DISCRETIZATION) -> Any:
        """The composed PLD of the whole ledger, a dp-accounting ``PrivacyLossDistribution`` (see the
        class docstring), to compose further with dp-accounting.

        Examples
        --------
        >>> pld = Ledger().record_epsilon(1.0).privacy_loss_distribution()
        >>> round(float(pld.get_delta_for_epsilon(0.0)), 4)  # binary randomized response: (e − 1)/(e + 1)
        0.4621
        """
        return _to_pld(self._grid(as_positive_budget(discretization, "discretization")))

    def to_dict(self) -> dict[str, Any]:
        """Strict JSON: every entry's name, uses, ε (``"inf"`` for ∞) and mechanism as nested lists
        (``None`` for a spend known by ε). :meth:`from_dict` reads it back exactly.

        Examples
        --------
        >>> Ledger().record_epsilon(math.inf, "leak").to_dict()["entries"]
        [{'name': 'leak', 'uses': 1, 'epsilon': 'inf', 'mechanism': None}]
        """
        return {"format": LEDGER_FORMAT, "version": LEDGER_VERSION, "entries": [
            {"name": entry.name, "uses": entry.uses, "epsilon": json_number(entry.epsilon),
             "mechanism": None if entry.mechanism is None else entry.mechanism.matrix.tolist()}
            for entry in self._entries]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ledger:
        """The ledger of :meth:`to_dict`'s output; a mechanism's ε must match its matrix.

        Examples
        --------
        >>> ledger = Ledger().record([[0.75, 0.25], [0.25, 0.75]], uses=2, name="a").record_epsilon(0.5)
        >>> Ledger.from_dict(ledger.to_dict()).entries == ledger.entries
        True
        """
        _check_keys(data, ("format", "version", "entries"), "data")
        if data["format"] != LEDGER_FORMAT or data["version"] != LEDGER_VERSION:
            raise MechDesignError(f"data must be format {LEDGER_FORMAT!r} version {LEDGER_VERSION}, got format "
                                  f"{data['format']!r} version {data['version']!r}")
        if not isinstance(data["entries"], list):
            raise MechDesignError(f"data['entries'] must be a list, got {type(data['entries']).__name__}")
        ledger = cls()
        for index, item in enumerate(data["entries"]):
            where = f"data['entries'][{index}]"
            _check_keys(item, ("name", "uses", "epsilon", "mechanism"), where)
            epsilon = _json_budget(item["epsilon"], f"{where}['epsilon']")
            try:
                if item["mechanism"] is None:
                    ledger.record_epsilon(epsilon, item["name"], uses=item["uses"])
                else:
                    ledger.record(item["mechanism"], item["uses"], item["name"])
            except MechDesignError as exc:
                raise MechDesignError(f"{where}: {exc}") from exc
            if item["mechanism"] is not None and ledger._entries[-1].epsilon != epsilon:
                raise MechDesignError(f"{where}['epsilon'] is {epsilon!r} but the mechanism's local DP is "
                                      f"{ledger._entries[-1].epsilon!r}")
        return ledger

    def summary(self, deltas: Sequence[float] = SUMMARY_DELTAS, method: str = "auto") -> str:
        """A table: every entry with its uses, ε of one use and ``uses · ε``; the total; ε(δ) at ``deltas``.

        Examples
        --------
        >>> print(Ledger().record_epsilon(0.5, "survey", uses=2).summary(deltas=[1e-6]))
        entry   uses  ε each  uses·ε
        survey     2  0.5000  1.0000
        total                 1.0000
        ε(δ) of the whole: δ = 1e-06: 1.0000
        """
        names = [entry.name or f"#{index + 1}" for index, entry in enumerate(self._entries)]
        width = max([len("entry"), len("total"), *map(len, names)])
        uses_width = max([len("uses"), *(len(str(entry.uses)) for entry in self._entries)])
        lines = [f"{'entry':<{width}}  {'uses':>{uses_width}}  {'ε each':>6}  {'uses·ε':>6}"]
        lines += [f"{name:<{width}}  {str(entry.uses):>{uses_width}}  {entry.epsilon:6.4f}  "
                  f"{entry.uses * entry.epsilon:6.4f}" for name, entry in zip(names, self._entries)]
        lines.append(f"{'total':<{width}}  {'':>{uses_width}}  {'':>6}  {self.pure_epsilon():6.4f}")
        curve = ", ".join(f"δ = {delta:g}: {self.epsilon(delta, method):.4f}" for delta in deltas)
        lines.append(f"ε(δ) of the whole: {curve}")
        return "\n".join(lines)

    def _parts(self) -> list[tuple[np.ndarray, int]]:
        """``(matrix, uses)`` per entry; a spend known by ε as binary randomized response at that ε."""
        return [(_entry_matrix(entry), entry.uses) for entry in self._entries]

    def _joint(self) -> np.ndarray:
        """``⊗_e Q_e^(k_e)``: rows are records, columns joint outputs (small ledgers only)."""
        parts = self._parts()
        if not _exact_fits(parts, work=math.inf):
            raise ProblemTooLargeError(f"the ledger's joint mechanism has more than {MAX_REPEATED_OUTPUTS} outputs; "
                                       "use method='pld'")
        inputs = math.prod(matrix.shape[0] for matrix, _ in parts)
        check_array((inputs, math.prod(matrix.shape[1] ** uses for matrix, uses in parts)),
                    "the ledger's joint mechanism")
        joint = np.ones((1, 1))
        for matrix, uses in parts:
            joint = np.kron(joint, repeated_use(matrix, uses).matrix)
        return joint

    def _grid(self, width: float) -> _LossGrid:
        """The composed PLD of every entry at grid ``width`` (cached until the next record)."""
        key = (len(self._entries), width)
        if key not in self._grids:
            _import_dp_accounting("common")  # the PLD method is the accounting extra's
            total = _identity_grid(width)
            for matrix, uses in self._parts():
                total = _compose(total, _PairPlan(matrix, uses, width).envelope())
            self._grids = {key: total}
        return self._grids[key]


# ---------------------------------------------------------------------------------------------- curves


@dataclass(frozen=True)
class PrivacyCurve:
    """A privacy curve as data: ε(δ) at several δ, or Rényi ε_α at several orders α.

    Attributes
    ----------
    kind
        ``"epsilon-delta"`` (``x`` is δ) or ``"renyi"`` (``x`` is α).
    x
        The δ or α values, as given.
    epsilon
        ε (nats) at each ``x``; ``inf`` where no finite ε holds.
    label
        A label for plots.

    Examples
    --------
    >>> PrivacyCurve("renyi", (2.0,), (math.inf,), "identity").to_dict()["epsilon"]
    ['inf']
    """

    kind: str
    x: tuple[float, ...]
    epsilon: tuple[float, ...]
    label: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Strict JSON (``inf`` as the string ``"inf"``)."""
        return {"kind": self.kind, "x": list(self.x), "epsilon": [json_number(value) for value in self.epsilon],
                "label": self.label}


#: What the curve functions accept: one mechanism (one use) or a ledger.
PrivacySource = Union[Ledger, Mechanism, np.ndarray, list]


def epsilon_delta_curve(source: PrivacySource, deltas: Iterable[float], *, method: str = "auto",
                        discretization: float = DEFAULT_DISCRETIZATION, label: str = "") -> PrivacyCurve:
    """ε(δ) of a mechanism (one use) or of a :class:`Ledger`, at each δ of ``deltas``.

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> curve = epsilon_delta_curve(randomized_response(2, 1.0), [0.0, 0.1])
    >>> [round(value, 6) for value in curve.epsilon]  # at δ = 0.1: log((e/(1+e) − 0.1) / (1/(1+e)))
    [1.0, 0.852905]
    """
    ledger = _as_ledger(source)
    values = tuple(as_delta(delta, "deltas") for delta in _as_list(deltas, "deltas"))
    epsilons = tuple(ledger.epsilon(delta, method, discretization=discretization) for delta in values)
    return PrivacyCurve("epsilon-delta", values, epsilons, label)


def renyi_curve(source: PrivacySource, orders: Iterable[float], *, label: str = "") -> PrivacyCurve:
    """Local Rényi DP ε_α of a mechanism (one use) or of a :class:`Ledger`, at each order α > 1.

    For a ledger ``Σ_e uses_e · ε_α(Q_e)``, exact: the Rényi divergence of a product is the sum of
    the divergences, and the worst pair of records takes each entry's worst pair (Mironov, Rényi
    Differential Privacy, Proposition 1); a spend known by ε counts as binary randomized response.

    Examples
    --------
    >>> curve = renyi_curve([[0.75, 0.25], [0.25, 0.75]], [2.0])
    >>> round(curve.epsilon[0], 6)  # log(0.75²/0.25 + 0.25²/0.75)
    0.847298
    """
    parts = _as_ledger(source)._parts()
    values = tuple(as_order(order, "orders") for order in _as_list(orders, "orders"))
    epsilons = tuple(math.fsum(uses * RenyiDifferentialPrivacy(order).measure(matrix) for matrix, uses in parts)
                     for order in values)
    return PrivacyCurve("renyi", values, epsilons, label)


def plot_privacy_curves(curves: PrivacyCurve | Sequence[PrivacyCurve], ax: Any = None) -> Any:
    """Plot curves of one kind on a matplotlib ``ax`` (a new figure if None); returns the axes.

    ε(δ) curves are drawn against δ on a logarithmic axis (δ = 0 is left out there), Rényi curves
    against α; infinite values are left out.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_privacy_curves(renyi_curve([[0.75, 0.25], [0.25, 0.75]], [1.5, 2, 4], label="RR"))
    >>> ax.get_xlabel()
    'order α'
    """
    items = [curves] if isinstance(curves, PrivacyCurve) else _as_list(curves, "curves")
    if not items or any(not isinstance(curve, PrivacyCurve) for curve in items):
        raise MechDesignError(f"curves must be one PrivacyCurve or a non-empty list of them, got {curves!r}")
    kinds = {curve.kind for curve in items}
    if len(kinds) != 1:
        raise MechDesignError(f"curves must all be of one kind, got {sorted(kinds)}")
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    renyi = kinds == {"renyi"}
    for curve in items:
        x, y = np.array(curve.x), np.array(curve.epsilon)
        shown = np.isfinite(y) & (renyi | (x > 0))
        ax.plot(x[shown], y[shown], marker="o", label=curve.label or None)
    if not renyi:
        ax.set_xscale("log")
    ax.set_xlabel("order α" if renyi else "δ")
    ax.set_ylabel("ε_α (nats)" if renyi else "ε (nats)")
    if any(curve.label for curve in items):
        ax.legend()
    return ax


# ------------------------------------------------------------------------------------ command-line side


@dataclass(frozen=True)
class AccountReport:
    """What :func:`account` found: the ledger, its pure ε and ε(δ) at each δ.

    Examples
    --------
    >>> report = account([([[0.75, 0.25], [0.25, 0.75]], 2, "a.json")], deltas=[1e-6])
    >>> point = report.to_dict()["epsilon_at_delta"][0]
    >>> point["delta"], round(point["epsilon"], 6)  # log((0.75² − 10⁻⁶) / 0.25²), just below 2 log 3
    (1e-06, 2.197223)
    """

    ledger: Ledger
    pure_epsilon: float
    deltas: tuple[float, ...]
    epsilons: tuple[float, ...]

    @classmethod
    def from_ledger(cls, ledger: Ledger, deltas: Iterable[float] = SUMMARY_DELTAS,
                    method: str = "auto") -> AccountReport:
        """The report of a ledger: its pure ε and ε(δ) at each δ (:meth:`Ledger.epsilon` with ``method``).

        Examples
        --------
        >>> report = AccountReport.from_ledger(Ledger().record_epsilon(0.5, uses=2), [1e-6])
        >>> report.pure_epsilon, round(report.epsilons[0], 6)  # δ = 10⁻⁶ buys a little below 2 · 0.5
        (1.0, 0.999997)
        """
        values = tuple(as_delta(delta, "deltas") for delta in _as_list(deltas, "deltas"))
        return cls(ledger, ledger.pure_epsilon(), values, tuple(ledger.epsilon(delta, method) for delta in values))

    def to_dict(self) -> dict[str, Any]:
        """Strict JSON: the ledger (:meth:`Ledger.to_dict`), the pure ε and ε(δ) per δ (``"inf"`` for ∞)."""
        return {"ledger": self.ledger.to_dict(), "pure_epsilon": json_number(self.pure_epsilon),
                "epsilon_at_delta": [{"delta": delta, "epsilon": json_number(epsilon)}
                                     for delta, epsilon in zip(self.deltas, self.epsilons)]}


def account(files_and_uses: Sequence[tuple[MechanismLike, int, str]],
            deltas: Iterable[float] = SUMMARY_DELTAS, method: str = "auto") -> AccountReport:
    """Account releases of several mechanisms: the library side of ``mechdesign account FILE[:USES] ...``.

    Parameters
    ----------
    files_and_uses
        ``(mechanism, uses, name)`` per release (the name is typically the file it was read from).
    deltas
        The δ at which to report ε(δ).
    method
        As for :meth:`Ledger.epsilon`.

    Examples
    --------
    >>> report = account([([[0.75, 0.25], [0.25, 0.75]], 1, "x"), ([[0.5, 0.5], [0.5, 0.5]], 3, "y")], [0.0])
    >>> round(report.pure_epsilon / math.log(3), 12), round(report.epsilons[0] / math.log(3), 12)
    (1.0, 1.0)
    """
    ledger = Ledger()
    for index, item in enumerate(_as_list(files_and_uses, "files_and_uses")):
        if not isinstance(item, (tuple, list)) or len(item) != 3:
            raise MechDesignError(f"files_and_uses[{index}] must be (mechanism, uses, name), got {item!r}")
        ledger.record(*item)
    return AccountReport.from_ledger(ledger, deltas, method)


# ------------------------------------------------------------------------------------------ internals


def _as_uses(uses: Any) -> int:
    return as_positive_int(uses, "uses", maximum=MAX_USES)


def _power_text(base: int, exponent: int) -> str:
    """``base^exponent`` in digits when short, else as a power (computed only when small)."""
    return str(base**exponent) if exponent * math.log10(max(base, 2)) < 15 else f"{base}^{exponent}"


def _fits(count: int, outputs: int) -> bool:
    """``outputs^count <= MAX_REPEATED_OUTPUTS``, decided without computing the power."""
    return outputs == 1 or count <= math.log(MAX_REPEATED_OUTPUTS) / math.log(outputs) + 1e-9


def _exact_fits(parts: Sequence[tuple[np.ndarray, int]], *, work: float = EXACT_MAX_WORK) -> bool:
    """Whether the joint mechanism ``⊗ Q_e^(k_e)`` has at most :data:`MAX_REPEATED_OUTPUTS` outputs and
    ordered pairs of inputs × outputs at most ``work``; in logarithms, so any ``k`` is decided at once."""
    log_outputs = math.fsum(uses * math.log(matrix.shape[1]) for matrix, uses in parts)
    log_pairs = math.fsum(2 * math.log(matrix.shape[0]) for matrix, _ in parts)
    slack = 1e-9
    return (log_outputs <= math.log(MAX_REPEATED_OUTPUTS) + slack
            and log_pairs + log_outputs <= math.log(max(work, 1.0)) + slack)


def _chosen_method(parts: Sequence[tuple[np.ndarray, int]], method: str, pld_work: Any = None) -> str:
    """``method``, with ``"auto"`` decided by the estimated work: exact within :data:`EXACT_MAX_WORK`, or
    within the PLD's work ``pld_work()`` (× :data:`PLD_UNIT_COST`) when it is given."""
    chosen = as_choice(method, METHODS, "method")
    if chosen != "auto":
        return chosen
    if _exact_fits(parts) or (pld_work is not None and _exact_fits(parts, work=PLD_UNIT_COST * pld_work())):
        return "exact"
    return "pld"


def _exact_epsilon(matrix: np.ndarray, delta: float) -> float:
    """Smallest ε with every ordered pair of rows (ε, δ)-close in the hockey-stick form."""
    return ApproximateDifferentialPrivacy(delta, "hockey_stick").measure(matrix)


def _exact_delta(matrix: np.ndarray, epsilon: float) -> float:
    """Largest hockey-stick divergence ``E_{e^ε}`` over the ordered pairs of rows (``e^ε`` capped at the
    largest float, which can only raise δ)."""
    first, second = np.triu_indices(matrix.shape[0], k=1)
    first, second = np.concatenate([first, second]), np.concatenate([second, first])
    scale = min(exp_budget(epsilon), sys.float_info.max)
    return float(pair_divergences(matrix, first, second, scale).max(initial=0.0))


def _entry_matrix(entry: LedgerEntry) -> np.ndarray:
    """The entry's mechanism, or binary randomized response at its ε (the identity at ∞)."""
    if entry.mechanism is not None:
        return entry.mechanism.matrix
    keep = 1.0 / (1.0 + math.exp(-entry.epsilon))
    return np.array([[keep, 1.0 - keep], [1.0 - keep, keep]])


def _as_ledger(source: PrivacySource) -> Ledger:
    return source if isinstance(source, Ledger) else Ledger().record(source)


def _as_name(name: Any) -> str:
    if not isinstance(name, str):
        raise MechDesignError(f"name must be a string, got {name!r}")
    return name


def _as_list(values: Any, name: str) -> list[Any]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise MechDesignError(f"{name} must be a list, got {values!r}")
    return list(values)


def _check_keys(data: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(data, Mapping) or set(data) != set(keys):
        found = sorted(data) if isinstance(data, Mapping) else type(data).__name__
        raise MechDesignError(f"{where} must be an object with exactly the fields {list(keys)}, got {found}")


def _json_budget(value: Any, where: str) -> float:
    """A budget from strict JSON: a number ``>= 0`` or the string ``"inf"``."""
    if value == "inf":
        return math.inf
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MechDesignError(f"{where} must be a number or \"inf\", got {value!r}")
    return as_budget(value, where)


# ------------------------------------------------------------------- privacy-loss distributions (numpy)


@dataclass(frozen=True)
class _LossGrid:
    """A pessimistic privacy-loss distribution: mass ``masses[i]`` at the loss
    ``width · (offset + indices[i])`` and ``infinity`` at +∞ — dp-accounting's PMF, in numpy, stored
    sparsely (``indices`` increasing from 0, positive masses only). ``offset`` is a Python integer (no
    overflow at any ``k``); every width is the base discretization times a power of two."""

    width: float
    offset: int
    indices: np.ndarray
    masses: np.ndarray
    infinity: float

    @property
    def size(self) -> int:
        """Points of the dense grid from the first loss with mass to the last."""
        return int(self.indices[-1]) + 1 if self.indices.size else 1

    def dense(self) -> np.ndarray:
        """The masses on every point of the grid from ``offset``."""
        return np.bincount(self.indices, weights=self.masses, minlength=1)


def _from_dense(width: float, offset: int, probs: np.ndarray, infinity: float) -> _LossGrid:
    """The grid of dense masses ``probs`` from ``offset``."""
    support = np.flatnonzero(probs)
    if support.size == 0:
        return _LossGrid(width, 0, support, probs[support], infinity)
    return _LossGrid(width, offset + int(support[0]), support - support[0], probs[support], infinity)


def _identity_grid(width: float) -> _LossGrid:
    """The PLD of a mechanism that reveals nothing: all mass at loss 0."""
    return _LossGrid(width, 0, np.zeros(1, dtype=np.int64), np.ones(1), 0.0)


class _PairPlan:
    """How the PLD of ``uses`` uses of one mechanism is computed, from its distinct pairs of rows.

    Every pair composed separately (:meth:`grids`; their :meth:`envelope`) when the estimated work —
    over the pairs, the points of the composed grid × log2 of them, or the points of an exact sum —
    is at most :data:`PAIR_PLD_MAX_WORK`; otherwise (and for one use, where it is exact) the envelope
    of one use of every pair of rows, composed ``uses`` times.
    """

    def __init__(self, matrix: np.ndarray, uses: int, width: float) -> None:
        self.matrix, self.uses, self.width = matrix, uses, width
        self.pairs = _distinct_pairs(matrix)
        self._work: float | None = None

    def work(self) -> float:
        """The estimated work of the PLD as it will be computed."""
        if self._work is None:
            self._work = _pair_work(self.matrix, self.pairs, self.uses, self.width)
        return min(self._work, float(PAIR_PLD_MAX_WORK))

    def separately(self) -> bool:
        return len(self.pairs) == 1 or self.work() < PAIR_PLD_MAX_WORK

    def grids(self) -> list[_LossGrid]:
        """Every pair's PLD of ``uses`` uses, or the composed envelope alone (at least the identity's)."""
        _import_dp_accounting("common")  # the PLD method is the accounting extra's
        if not self.pairs:
            return [_identity_grid(self.width)]
        if not self.separately():
            return [self._composed_envelope()]
        return [_self_compose(_pair_grid(self.matrix[upper], self.matrix[lower], self.width), self.uses)
                for upper, lower in self.pairs]

    def envelope(self) -> _LossGrid:
        """The dominating PLD of ``uses`` uses on one input: a single distinct pair's own PLD, the
        envelope of every pair's ``uses``-fold PLD, or the envelope of one use composed ``uses`` times."""
        if len(self.pairs) <= 1:
            return self.grids()[0]
        if self.uses == 1 or not self.separately():
            return self._composed_envelope()
        composed = self.grids()
        return _envelope(map(_grid_source, composed), max(grid.width for grid in composed))

    def _composed_envelope(self) -> _LossGrid:
        return _self_compose(_envelope(_row_pairs(self.matrix), self.width), self.uses)


def _pair_work(matrix: np.ndarray, pairs: Sequence[tuple[int, int]], uses: int, width: float) -> float:
    """Estimated work of composing each pair ``uses`` times: ``points^uses`` for an exact sum of few
    points, else ``P log2 P`` for the ``P`` points of the composed grid (by the span of its losses)."""
    total = 0.0
    count = float(uses)
    block = max(1, 2_000_000 // matrix.shape[1])
    for start in range(0, len(pairs), block):
        chosen = np.array(pairs[start:start + block])
        upper, lower = matrix[chosen[:, 0]], matrix[chosen[:, 1]]
        both = (upper > 0) & (lower > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            losses = np.log(upper) - np.log(lower)
        points = both.sum(axis=1)
        largest = np.max(losses, axis=1, where=both, initial=-np.inf)
        span = np.where(points > 0, largest - np.min(losses, axis=1, where=both, initial=np.inf), 0.0) / width
        with np.errstate(all="ignore"):
            grid = np.minimum(float(MAX_PLD_POINTS), count * span + 1)
            exact_sum = count * np.log(np.maximum(points, 1)) <= math.log(SPARSE_COMPOSE_POINTS)
            total += float(np.where(exact_sum, np.maximum(points, 1.0) ** min(count, 64.0),
                                    grid * np.log2(grid + 1)).sum())
    return total


def _distinct_pairs(matrix: np.ndarray) -> list[tuple[int, int]]:
    """One ordered pair ``(x, x')`` of different rows per PLD: the PLD depends only on the multiset of
    columns ``(Q[x, y], Q[x', y])``, so pairs equal up to relabelling the outputs are listed once."""
    n_inputs, n_outputs = matrix.shape
    check_array((n_inputs, n_outputs), "the pairs of rows of the mechanism", copies=6)
    representatives: dict[bytes, tuple[int, int]] = {}
    for upper in range(n_inputs):
        keys = np.sort(matrix[upper] + 1j * matrix, axis=1)  # columns (Q[x, y], Q[x', y]), sorted
        for lower in range(n_inputs):
            if lower != upper and not np.array_equal(matrix[upper], matrix[lower]):
                representatives.setdefault(keys[lower].tobytes(), (upper, lower))
    return list(representatives.values())


def _pair_grid(upper: np.ndarray, lower: np.ndarray, width: float) -> _LossGrid:
    """The PLD of ``upper`` against ``lower``: the loss ``log upper_y − log lower_y`` rounded up to the grid
    (as dp-accounting's ``from_two_probability_mass_functions``) with mass ``upper_y``; outputs with
    ``lower_y = 0 < upper_y`` are the infinite loss."""
    finite = (upper > 0) & (lower > 0)
    losses = np.log(upper[finite]) - np.log(lower[finite])
    return _grid_from_losses(losses, upper[finite], float(upper[(upper > 0) & (lower == 0)].sum()), width)


def _grid_from_losses(losses: np.ndarray, masses: np.ndarray, infinity: float, width: float) -> _LossGrid:
    """Masses at finite losses rounded up to multiples of ``width`` (doubled until the grid has at most
    :data:`MAX_PLD_POINTS` points), and ``infinity`` at +∞."""
    if losses.size == 0:
        return _LossGrid(width, 0, np.zeros(0, dtype=np.int64), np.zeros(0), infinity)
    while (losses.max() - losses.min()) / width + 2 > MAX_PLD_POINTS:
        width *= 2
    return _aggregated(width, 0, np.ceil(losses / width).astype(np.int64), masses, infinity)


def _aggregated(width: float, offset: int, indices: np.ndarray, masses: np.ndarray, infinity: float) -> _LossGrid:
    """The grid of masses at ``offset + indices`` (any order, repeats summed, zero masses dropped)."""
    points, inverse = np.unique(indices, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=masses)
    positive = sums > 0
    points, sums = points[positive], sums[positive]
    if points.size == 0:
        return _LossGrid(width, 0, points, sums, infinity)
    return _LossGrid(width, offset + int(points[0]), points - points[0], sums, infinity)


def _coarsened(grid: _LossGrid, factor: int) -> _LossGrid:
    """The grid of width ``factor · width``, every loss rounded up: index ``⌈i / factor⌉``."""
    if factor == 1:
        return grid
    quotient, remainder = divmod(grid.offset, factor)
    return _aggregated(grid.width * factor, quotient, -((-(remainder + grid.indices)) // factor), grid.masses,
                       grid.infinity)


def _fitted(grid: _LossGrid) -> _LossGrid:
    """``grid`` coarsened by the least power of two that brings it to :data:`MAX_PLD_POINTS` points."""
    factor = 1
    while grid.size > factor * (MAX_PLD_POINTS - 1):
        factor *= 2
    return _coarsened(grid, factor)


def _truncated(width: float, offset: int, probs: np.ndarray, infinity: float,
               tail: float = TAIL_MASS_TRUNCATION) -> _LossGrid:
    """The grid with the round-off of an FFT repaired and at most ``tail``/2 cut from each end, moving mass
    only towards larger losses (which can only raise δ):

    * negative round-off is set to 0 and the total mass brought back to 1 — an excess taken from the
      smallest losses, a deficit added at the largest — so that errors do not compound over
      ``O(log k)`` squarings;
    * the left tail goes onto the first loss kept, the right tail to +∞.
    """
    probs = np.maximum(probs, 0.0)
    excess = float(probs.sum()) + infinity - 1.0
    if excess < 0.0:
        probs[-1] -= excess
    elif excess > 0.0:
        cumulative = np.cumsum(probs)
        cut = min(int(np.searchsorted(cumulative, excess)), probs.size - 1)
        probs[cut] = max(0.0, cumulative[cut] - excess)
        probs[:cut] = 0.0
    half = tail / 2
    left = min(int(np.searchsorted(np.cumsum(probs), half, side="right")), probs.size - 1)
    right = int(np.searchsorted(np.cumsum(probs[::-1]), half, side="right"))
    stop = max(left + 1, probs.size - right)
    kept = probs[left:stop].copy()
    kept[0] += probs[:left].sum()
    return _from_dense(width, offset + left, kept, min(1.0, infinity + float(probs[stop:].sum())))


def _aligned(grids: Sequence[_LossGrid]) -> list[_LossGrid]:
    """The grids on the coarsest of their widths (all are the base width times powers of two)."""
    width = max(grid.width for grid in grids)
    return [_coarsened(grid, round(width / grid.width)) for grid in grids]


def _compose(first: _LossGrid, second: _LossGrid, tail: float = TAIL_MASS_TRUNCATION) -> _LossGrid:
    """The PLD of both releases: the convolution of the two, truncated (``tail``) and fitted."""
    from scipy import signal

    first, second = _aligned([first, second])
    check_array((first.size + second.size,), "composing privacy-loss distributions", copies=8)
    probs = signal.convolve(first.dense(), second.dense())
    infinity = first.infinity + second.infinity - first.infinity * second.infinity
    return _fitted(_truncated(first.width, first.offset + second.offset, probs, infinity, tail))


def _self_compose(grid: _LossGrid, uses: int) -> _LossGrid:
    """``uses`` compositions of ``grid``: one FFT power (dp-accounting's ``self_convolve``) when the result
    fits in :data:`MAX_PLD_POINTS` points, else repeated squaring with coarsening (``O(log uses)``
    compositions of at most that size, defect M5). A tail cut from the PLD of ``j`` uses counts in up
    to ``uses / j`` copies of it, so each squaring cuts at most ``TAIL_MASS_TRUNCATION / uses``: the
    mass sent to +∞ stays below ``2 TAIL_MASS_TRUNCATION`` however large ``uses`` is."""
    if uses == 1:
        return grid
    if uses * math.log(max(grid.indices.size, 1)) <= math.log(SPARSE_COMPOSE_POINTS):
        return _sparse_self_compose(grid, uses)
    common = _import_dp_accounting("common")
    dense = grid.dense()
    low, high = common.compute_self_convolve_bounds(dense, uses, TAIL_MASS_TRUNCATION)
    if high - low < MAX_PLD_POINTS:
        check_array((2 * (high - low + dense.size),), "composing a privacy-loss distribution", copies=4)
        start, probs = common.self_convolve(dense, uses, TAIL_MASS_TRUNCATION)
        kept = 0.0 if grid.infinity >= 1.0 else math.exp(uses * math.log1p(-grid.infinity))
        infinity = min(1.0, TAIL_MASS_TRUNCATION + 1.0 - kept)
        return _fitted(_truncated(grid.width, grid.offset * uses + start, np.asarray(probs), infinity))
    tail = TAIL_MASS_TRUNCATION / uses
    result, power, remaining = None, grid, uses
    while True:
        if remaining & 1:
            result = power if result is None else _compose(result, power, tail)
        remaining >>= 1
        if not remaining:
            return result
        power = _compose(power, power, tail)


def _sparse_self_compose(grid: _LossGrid, uses: int) -> _LossGrid:
    """``uses`` compositions of a grid with few non-zero points, by exact sums of losses (dp-accounting's
    sparse PMF does the same below :data:`SPARSE_COMPOSE_POINTS` points)."""
    kept = 0.0 if grid.infinity >= 1.0 else math.exp(uses * math.log1p(-grid.infinity))
    if grid.indices.size <= 1:  # a single finite loss (or none): the uses add up to ``uses`` times it
        return _LossGrid(grid.width, grid.offset * uses, grid.indices, grid.masses**uses, 1.0 - kept)
    indices, masses = grid.indices, grid.masses
    for _ in range(uses - 1):  # at most log(SPARSE_COMPOSE_POINTS) / log 2 times
        indices = (indices[:, None] + grid.indices[None, :]).ravel()
        masses = (masses[:, None] * grid.masses[None, :]).ravel()
    return _fitted(_aggregated(grid.width, grid.offset * uses, indices, masses, 1.0 - kept))


def _envelope(sources: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]], width: float) -> _LossGrid:
    """The dominating envelope of pairs of distributions, rounded up to multiples of ``width``.

    Each source is a batch of pairs: upper masses ``p`` and lower masses ``q`` (arrays of the same
    shape, one row per pair, ``q > 0`` or both 0) and the upper mass ``infinity`` (one per row) of
    the outputs where ``q = 0``. A pair's hockey-stick divergence is ``H(t) = max_S P(S) − t Q(S)``,
    ``t = e^ε``, the support function of its ROC curve — the points ``(Q(S), P(S))`` for ``S`` the
    outputs of largest ratio ``p/q``. The upper concave hull of every pair's ROC points, from
    ``(0, max p_∞)`` to ``(1, 1)``, has as support function the largest ``H`` of the pairs at every
    ``t ≥ 0`` (every ε, negative ones too); its edges ``(Δq, Δp)`` are the outputs of the dominating
    pair, with loss ``log(Δp/Δq)``, rounded up (which only raises ``H``) — and at least the smallest
    loss of any pair, which the slope of an edge made of round-off (the last one, to ``(1, 1)``) can
    fall below.
    """
    infinity, smallest = 0.0, math.inf
    a, b = np.ones(1), np.ones(1)  # the end point (1, 1) of every ROC curve
    for p, q, upper_infinity in sources:
        with np.errstate(divide="ignore", invalid="ignore"):
            losses = np.log(p) - np.log(q)
        order = np.argsort(-losses, axis=-1)  # decreasing ratio p/q; outputs without p (-inf, nan) last
        smallest = min(smallest, float(np.min(losses, where=(p > 0) & (q > 0), initial=math.inf)))
        infinity = max(infinity, float(upper_infinity.max()))
        a = np.concatenate([a, np.cumsum(np.take_along_axis(q, order, axis=-1), axis=-1).ravel()])
        b = np.concatenate([b, (upper_infinity[:, None]
                                + np.cumsum(np.take_along_axis(p, order, axis=-1), axis=-1)).ravel()])
        a, b = _staircase(a, b, infinity)
    hull = [(0.0, infinity)]
    for point in zip(a.tolist(), b.tolist()):
        while len(hull) > 1 and ((hull[-1][0] - hull[-2][0]) * (point[1] - hull[-2][1])
                                 >= (hull[-1][1] - hull[-2][1]) * (point[0] - hull[-2][0])):
            hull.pop()  # not a right turn: the last vertex lies on or below the chord
        hull.append(point)
    vertices = np.array(hull)
    steps = np.diff(vertices, axis=0)
    losses = np.maximum(np.log(steps[:, 1]) - np.log(steps[:, 0]), smallest)
    return _grid_from_losses(losses, steps[:, 1], infinity, width)


def _staircase(a: np.ndarray, b: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """The points ``(a, b)`` above every point of no larger ``a`` and above ``floor``, by increasing ``a``:
    the only ones that can be vertices of the upper hull."""
    order = np.lexsort((-b, a))
    a, b = a[order], b[order]
    keep = b > np.maximum.accumulate(np.concatenate([[floor], b[:-1]]))
    return a[keep], b[keep]


def _row_pairs(matrix: np.ndarray) -> Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every ordered pair of rows as envelope sources, one batch per upper row (``q = 0`` outputs removed
    into the infinite mass)."""
    check_array(matrix.shape, "the pairs of rows of the mechanism", copies=8)
    for upper in range(matrix.shape[0]):
        lower = np.delete(matrix, upper, axis=0)
        p = np.broadcast_to(matrix[upper], lower.shape)
        yield np.where(lower > 0, p, 0.0), lower, np.where(lower == 0, p, 0.0).sum(axis=1)


def _grid_source(grid: _LossGrid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A grid as an envelope source: lower masses ``p e^{−loss}`` (an underflow to 0 joins the infinite mass)."""
    losses, masses = _losses(grid)
    q = masses * np.exp(-losses)
    infinity = grid.infinity + float(masses[q == 0].sum())
    return np.where(q > 0, masses, 0.0)[None, :], q[None, :], np.array([infinity])


def _losses(grid: _LossGrid) -> tuple[np.ndarray, np.ndarray]:
    """The finite losses that carry mass, increasing, and their masses."""
    return grid.width * (float(grid.offset) + grid.indices), grid.masses


def _grid_delta(grid: _LossGrid, epsilon: float) -> float:
    """``δ(ε) = p_∞ + Σ_{l_i > ε} p_i (1 − e^{ε − l_i})``, at most 1."""
    losses, masses = _losses(grid)
    above = losses > epsilon
    return min(1.0, grid.infinity + float(np.dot(-np.expm1(epsilon - losses[above]), masses[above])))


def _grid_epsilon(grid: _LossGrid, delta: float) -> float:
    """The smallest ``ε >= 0`` with ``δ(ε) <= delta`` (``inf`` if ``p_∞ > delta``).

    ``δ(ε) = max_j (b_j − e^ε A_j)`` over the suffixes ``j`` of the losses (``b_j = p_∞ + Σ_{i≥j} p_i``,
    ``A_j = Σ_{i≥j} p_i e^{−l_i}``, the best suffix being the losses above ε), so ε is the largest
    ``log((b_j − δ) / A_j)``; ``A_j`` is summed in logarithms (no overflow at any loss). At large ε the
    float nearest that root can lie below it (one unit in the last place of 10¹¹ is 10⁻⁵): the value is
    then stepped up (by one unit in the last place, doubling) until ``δ(ε) <= delta`` up to
    :data:`DELTA_ROUND_OFF`.
    """
    if grid.infinity > delta:
        return math.inf
    losses, masses = _losses(grid)
    log_a = np.logaddexp.accumulate((np.log(masses) - losses)[::-1])[::-1]
    b = grid.infinity + np.cumsum(masses[::-1])[::-1]
    reached = b > delta
    if not reached.any():
        return 0.0
    epsilon, step = max(0.0, float(np.max(np.log(b[reached] - delta) - log_a[reached]))), 0.0
    while epsilon < losses[-1] and _grid_delta(grid, epsilon) > delta + DELTA_ROUND_OFF:
        step = max(2 * step, math.ulp(epsilon))
        epsilon += step
    return min(epsilon, float(losses[-1]))  # above the largest finite loss δ is p_∞ <= delta


def _to_pld(grid: _LossGrid) -> Any:
    """``grid`` as a dp-accounting ``PrivacyLossDistribution`` (pessimistic; sparse when it has at most
    1000 non-zero points, as dp-accounting's own ``create_pmf`` chooses)."""
    pld_pmf = _import_dp_accounting("pld_pmf")
    module = _import_dp_accounting("privacy_loss_distribution")
    if grid.indices.size <= SPARSE_COMPOSE_POINTS:
        points = {grid.offset + int(i): float(mass) for i, mass in zip(grid.indices, grid.masses)}
        pmf = pld_pmf.create_pmf(points or {0: 0.0}, grid.width, grid.infinity, True)
    else:
        pmf = pld_pmf.DensePLDPmf(grid.width, grid.offset, grid.dense(), grid.infinity, True)
    return module.PrivacyLossDistribution(pmf)


def _import_dp_accounting(name: str) -> Any:
    """``dp_accounting.pld.<name>``, or a named error naming the extra to install."""
    try:
        from dp_accounting.pld import common, pld_pmf, privacy_loss_distribution
    except ImportError as exc:
        raise MissingDependencyError(
            "privacy-loss-distribution accounting needs dp-accounting: pip install 'mechdesign[accounting]'"
        ) from exc
    return {"common": common, "pld_pmf": pld_pmf, "privacy_loss_distribution": privacy_loss_distribution}[name]
