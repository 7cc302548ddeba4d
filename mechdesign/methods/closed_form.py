"""Closed-form optimal mechanisms for Hamming cost, at any alphabet size, each certified by a dual bound.

Minimizing the expected Hamming distortion ``s · P(Y ≠ X)`` (``s > 0``: the cost ``s (1 − I)``)
under one prior ``P`` has a closed-form optimum for two notions. Sort the symbols by decreasing
probability, ``P_(1) >= P_(2) >= …``, and let ``S_k = P_(1) + … + P_(k)``, ``E = e^ε``.

* **Local ε-DP** (Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(1)): randomized response on
  the ``k`` most likely symbols, the others mapped uniformly into them, with
  ``k = argmax_k S_k E / (E + k − 1)`` — RRWithPrior of Ghazi et al., "Deep Learning with Label
  Differential Privacy" (NeurIPS 2021), Algorithm 2. Its distortion is
  ``D*(ε) = s (1 − S_k E / (E + k − 1))``. Optimality (proved here by LP duality, independently of the
  paper): with ``D = s S_k E / (E + k − 1)`` and ``t_x = max(0, (E s P(x) − D) / (E − 1))``, the
  multipliers ``λ = s P − t`` satisfy ``Σ_x t_x = D`` exactly when ``k`` is the maximizer (the fixed
  point of ``D ↦ Σ_x max(0, (E s P(x) − D)/(E − 1))`` is reached by the top ``k`` symbols), and every
  staircase column has non-negative reduced cost, so ``Σ λ = s − D`` is a lower bound that the
  mechanism attains. The bound is not taken on trust: :func:`hamming_staircase_bound` evaluates the
  staircase dual bound of :mod:`mechdesign.methods.direct` for these ``λ`` in ``O(n)``, and the result is
  ``"optimal"`` only when it is within ``GAP_RTOL``.
* **Maximal leakage** (PUT paper, Definition 3(4)): PUT paper Theorem 14 and Corollary 15 (after
  Saeidian et al.) give ``D*(ε) = s (1 − S_k − (E − k) P_(k+1))`` for ``log k <= ε < log(k + 1)``
  and ``0`` for ``E >= n``. The mechanism built here attains it: the ``k`` most likely symbols are
  kept, the ``(k+1)``-th is kept with probability ``E − k``, and everything else is reported as the
  most likely symbol (``Σ_y max_x Q[x, y] = k + (E − k) = E``). It is certified by the LP dual of the
  maximal-leakage LP, :func:`hamming_maximal_leakage_bound`, at ``λ_x = s min(P(x), P_(k+1))``.
* **PML under one prior**: no closed form is implemented. The natural candidate — the maximal-leakage
  relaxation ``Q[y, y] <= min(1, E P_Y(y))``, a fractional knapsack — is *not* tight (a binary prior
  ``(0.66, 0.34)`` at ε = 0.5 has LP optimum 0.268 against the relaxation's 0.150), so
  :func:`closed_form_design` returns ``None`` and the general LP applies.

Mechanisms are :class:`~mechdesign.structured.KeepOrRedraw` (``O(n)`` memory); their privacy and
distortion are re-measured from the mechanism's own parameters in ``O(n)`` numpy, so a design at
``n = 10⁵`` with its certificate takes milliseconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from ..privacy.base import PrivacyNotion
from ..privacy.dp import DifferentialPrivacy
from ..privacy.maximal_leakage import MaximalLeakage
from ..registry import solver_capability
from ..result import Result
from ..structured import KeepOrRedraw
from ..utility.base import Objective
from ..utility.distortion import ExpectedDistortion
from .certified import mechanism_result, single_budget

#: Budgets above this are designed at this value: ``e^{−ε}`` is then still a normal double (1e-300),
#: so randomized response keeps positive off-diagonal entries and measures finite ε <= the budget. The
#: distortion lost, ``s (k − 1) e^{−700}``, is far below ``GAP_RTOL``.
EPSILON_CAP = 690.0


@dataclass(frozen=True)
class HammingProblem:
    """``min s · P(Y ≠ X)`` under one notion: the prior sorted once, shared by every budget.

    Attributes
    ----------
    notion
        The privacy notion (local DP or maximal leakage).
    prior
        ``P`` (length ``n``).
    scale
        ``s > 0``: the cost is ``s (1 − I)``.
    order
        The symbols by decreasing probability (stable: ties by index).
    cumulative
        ``S_k``, the mass of the ``k`` most likely symbols (``cumulative[k − 1]``).
    form
        The notion's :class:`ClosedForm` (registered in :mod:`mechdesign.registry`).
    """

    notion: PrivacyNotion
    prior: np.ndarray
    scale: float
    order: np.ndarray
    cumulative: np.ndarray
    form: ClosedForm

    @property
    def size(self) -> int:
        """``n``."""
        return self.prior.size


def hamming_problem(
    notions: Union[PrivacyNotion, Sequence[PrivacyNotion]], objective: Objective, limits: Sequence[Any] = ()
) -> HammingProblem | None:
    """The problem as a :class:`HammingProblem` if a closed form applies, else ``None``.

    A closed form applies to exactly one notion — local ε-DP (every pair of inputs neighbouring) or
    maximal leakage — with an :class:`~mechdesign.utility.distortion.ExpectedDistortion` objective
    whose cost is exactly a positive multiple of Hamming, and no limits.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> hamming_problem(MaximalLeakage(), ExpectedDistortion(Prior([0.2, 0.8]))).order
    array([1, 0])
    >>> hamming_problem(MaximalLeakage(), ExpectedDistortion(Prior([0.2, 0.8]), [[0, 1], [2, 0]])) is None
    True
    """
    notion_list = [notions] if isinstance(notions, PrivacyNotion) else list(notions)
    if limits or len(notion_list) != 1 or type(objective) is not ExpectedDistortion:
        return None
    notion = notion_list[0]
    form = solver_capability(notion, "hamming_closed_form")
    if form is None or not form.applies_to(notion):
        return None
    scale = objective.hamming_scale
    if scale is None:
        return None
    prior = objective.prior.probabilities
    notion.check_shape(prior.size)
    order = np.argsort(-prior, kind="stable")
    return HammingProblem(notion, prior, scale, order, np.cumsum(prior[order]), form)


def _exp_minus(epsilon: float) -> float:
    """``e^{−ε}`` (0 for ε = inf)."""
    return math.exp(-epsilon)


def _rr_size(problem: HammingProblem, epsilon: float) -> int:
    """RRWithPrior's ``k = argmax_k S_k e^ε / (e^ε + k − 1)`` (the first maximizer; 1 at ε = 0).

    At ε = 0 every ``k`` with ``S_k / k = P_(1)`` (tied symbols) is optimal; ``k = 1`` is fixed
    explicitly there, since rounding in ``S_k`` would otherwise pick an arbitrary one of the ties.
    """
    if epsilon == 0:
        return 1
    inverse = _exp_minus(epsilon)
    counts = np.arange(problem.size)
    return int(np.argmax(problem.cumulative / (1.0 + counts * inverse))) + 1


def local_dp_mechanism(problem: HammingProblem, epsilon: float) -> KeepOrRedraw:
    """RRWithPrior (Ghazi et al. 2021): ε-randomized response on the top-``k`` symbols (module docstring).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> problem = hamming_problem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.6, 0.3, 0.1])))
    >>> local_dp_mechanism(problem, math.log(4)).matrix.round(4)  # k = 2: 0.9 · 4/5 > 0.6, 1 · 4/6
    array([[0.8, 0.2, 0. ],
           [0.2, 0.8, 0. ],
           [0.5, 0.5, 0. ]])
    """
    designed = min(epsilon, EPSILON_CAP)
    k = _rr_size(problem, designed)
    return KeepOrRedraw.randomized_response(problem.order[:k], problem.size, designed)


def local_dp_multipliers(problem: HammingProblem, epsilon: float) -> np.ndarray:
    """The dual multipliers ``λ = s P − t`` of the module docstring.

    On the top-``k`` symbols ``λ_x = min(s P(x), e^{−ε} (D − s P(x)) / (1 − e^{−ε}))`` — the same as
    ``s P(x) − max(0, t_x)`` but without the cancellation of two numbers of size ``s`` (the bound
    ``Σ λ`` is then accurate relative to the optimum even for ``s = 10¹²`` and large ε); ``s P(x)``
    elsewhere. At ε = 0 (``k = 1``, ``D = s P_(1)``) the top symbol's multiplier is its limit, 0.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> problem = hamming_problem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.6, 0.3, 0.1])))
    >>> local_dp_multipliers(problem, 0.0)
    array([0. , 0.3, 0.1])
    """
    k = _rr_size(problem, epsilon)
    inverse = _exp_minus(epsilon)
    optimum_gain = problem.scale * problem.cumulative[k - 1] / (1.0 + (k - 1) * inverse)
    top = problem.order[:k]
    multipliers = problem.scale * problem.prior
    surplus = inverse * (optimum_gain - multipliers[top])
    excess = -math.expm1(-epsilon)
    ratio = surplus / excess if excess > 0 else np.zeros(k)
    multipliers[top] = np.minimum(multipliers[top], ratio)
    return multipliers


#: Upper limit of Dinkelbach steps in :func:`hamming_staircase_bound` (each strictly lowers the ratio
#: of some column until none changes; measured: fewer than 10).
DINKELBACH_STEPS = 200


def hamming_staircase_bound(problem: HammingProblem, epsilon: float, multipliers: np.ndarray) -> float:
    """The staircase dual bound of :func:`mechdesign.methods.direct.staircase_lower_bound` for Hamming weights, in
    ``O(n log n)`` (``O(n)`` plus a sort of the columns with a nonzero off-diagonal reduced cost).

    With ``W[x, y] = s P(x) 1[x ≠ y]`` the reduced costs ``a = W[:, y] − λ`` of column ``y`` are
    ``o_x = s P(x) − λ_x`` off the diagonal and ``−λ_y`` on it: one sorted vector with one entry swapped
    per column. The bound is ``Σ λ + n min(0, r*)`` with ``r*`` the cheapest staircase column per unit
    mass over every column ``y`` and every set ``S``, ``min_{y,S} N_y(S) / D_y(S)``,
    ``N_y(S) = e^{−ε} Σ a + (1 − e^{−ε}) Σ_S a`` and ``D_y(S) = n e^{−ε} + (1 − e^{−ε}) |S|``
    (numerator and denominator multiplied by ``e^{−ε}``: finite for every ε, including ``inf``).

    ``r*`` is found by Dinkelbach's iteration over all pairs ``(y, S)`` at once: at a ratio ``r``,
    ``N_y − r D_y`` is minimized by ``S_y(r) = {x : a_x < r}``, and ``r`` moves to the smallest ratio of
    those sets; it strictly decreases until ``F(r) = min_{y,S} (N_y − r D_y) = 0``, where ``r = r*``
    (:func:`mechdesign.methods.direct.staircase_per_mass` evaluates the same minimum per column by prefixes).
    Since ``r`` is one number, ``|S_y(r)|`` is one ``searchsorted`` on the sorted vector plus the swapped
    entry. Columns with ``o_y = 0`` (every input outside RRWithPrior's top ``k``) differ only in
    ``λ_y = s P(y)``; among those with the same denominator the numerator falls as ``λ_y`` grows, so two
    of them — the largest ``λ_y`` with ``−λ_y < r`` and the largest with ``−λ_y >= r`` (by ``P``'s order)
    — stand for all: a step costs ``O(#{o_y ≠ 0} + log n)``. Should the iteration not stop within
    :data:`DINKELBACH_STEPS`, the ratio reached is corrected downwards to ``r + min(0, F(r))/D_min``: on
    every pair ``N/D >= r + F(r)/D`` with ``F(r) <= 0`` and ``D >= D_min``, so it is still below ``r*``.
    A lower bound on the optimum for *any* ``λ``.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> problem = hamming_problem(DifferentialPrivacy(), ExpectedDistortion(Prior([0.6, 0.3, 0.1])))
    >>> round(hamming_staircase_bound(problem, 0.0, local_dp_multipliers(problem, 0.0)), 12)  # 1 − max P
    0.4
    """
    n = problem.size
    inverse, excess = _exp_minus(epsilon), -math.expm1(-epsilon)
    off_diagonal = problem.scale * problem.prior - multipliers
    total = float(off_diagonal.sum())
    flat = off_diagonal == 0.0
    rest = np.flatnonzero(~flat)
    rest_off, rest_multipliers = off_diagonal[rest], multipliers[rest]
    # The shared sorted vector: the nonzero entries sorted, with the zeros between the negative and the
    # positive ones; its prefix sums from theirs.
    nonzero_sorted = np.sort(rest_off)
    nonzero_prefix = np.concatenate([[0.0], np.cumsum(nonzero_sorted)])
    negative, zeros = int(np.searchsorted(nonzero_sorted, 0.0)), n - rest.size
    # On the flat columns λ_y = s P(y) exactly, so P's order sorts their multipliers.
    ascending = problem.order[::-1]
    flat_multipliers = multipliers[ascending[flat[ascending]]]
    # The smallest denominator of a set the iteration can reach: S = ∅, or one input at ε = inf.
    smallest_denominator = n * inverse if inverse > 0 else excess

    def candidates(r: float) -> tuple[np.ndarray, np.ndarray]:
        """``(o_y, λ_y)`` of the columns that can hold the least ratio at ``r``: every non-flat column
        and up to two flat ones."""
        chosen = []
        if flat_multipliers.size:
            if -flat_multipliers[-1] < r:
                chosen.append(flat_multipliers[-1])
            at_or_below = int(np.searchsorted(flat_multipliers, -r, side="right")) - 1
            if at_or_below >= 0:
                chosen.append(flat_multipliers[at_or_below])
        return (np.concatenate([rest_off, np.zeros(len(chosen))]),
                np.concatenate([rest_multipliers, np.array(chosen, dtype=float)]))

    def sums_below(r: float) -> tuple[np.ndarray, np.ndarray]:
        """Per candidate column, ``(N_y(S_y(r)), D_y(S_y(r)))``."""
        count = int(np.searchsorted(nonzero_sorted, r, side="left")) + (zeros if r > 0 else 0)
        shared = nonzero_prefix[min(count, negative) + max(0, count - negative - zeros)]
        off, lam = candidates(r)
        swapped_out, swapped_in = off < r, -lam < r  # entry y is −λ_y in column y, not o_y
        below = shared - lam * swapped_in - off * swapped_out
        totals = total - off - lam  # Σ_x a_x of the column
        return (inverse * totals + excess * below,
                n * inverse + excess * (count + swapped_in.astype(float) - swapped_out))

    def smallest_ratio_below(r: float) -> float:
        return float(np.fmin.reduce(np.divide(*sums_below(r))))  # nan (0/0) ignored

    # Start from S = ∅ (at ε = inf, where its ratio is 0/0, from S = every input); an empty S met on
    # the way at ε = inf gives 0/0 = nan, which fmin ignores.
    with np.errstate(divide="ignore", invalid="ignore"):
        if inverse > 0:
            off, lam = candidates(math.inf)  # S = ∅ ranks the columns by Σ a, which falls as λ_y grows
            ratio = float(np.min(total - off - lam)) / n
        else:
            ratio = smallest_ratio_below(math.inf)
        for _ in range(DINKELBACH_STEPS):
            following = min(ratio, smallest_ratio_below(ratio))
            if following == ratio:
                break
            ratio = following
        else:  # not stopped: the ratio reached may still lie above r*
            numerators, denominators = sums_below(ratio)
            ratio += min(0.0, float(np.min(numerators - ratio * denominators))) / smallest_denominator
    return float(multipliers.sum() + n * min(0.0, ratio))


def maximal_leakage_mechanism(problem: HammingProblem, epsilon: float) -> KeepOrRedraw:
    """Keep the top ``k = ⌊e^ε⌋`` symbols, the next with probability ``e^ε − k``, report the rest as the top one.

    The identity when ``e^ε >= n`` (PUT paper, Theorem 14 and Corollary 15; module docstring).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> problem = hamming_problem(MaximalLeakage(), ExpectedDistortion(Prior([0.2, 0.5, 0.3])))
    >>> maximal_leakage_mechanism(problem, math.log(1.5)).matrix
    array([[0. , 1. , 0. ],
           [0. , 1. , 0. ],
           [0. , 0.5, 0.5]])
    """
    row = np.zeros(problem.size)
    row[problem.order[0]] = 1.0
    redraw = np.ones(problem.size)
    if epsilon >= math.log(problem.size):
        return KeepOrRedraw(np.zeros(problem.size), row)
    budget = math.exp(epsilon)
    k = min(int(budget), problem.size - 1)
    redraw[problem.order[:k]] = 0.0
    redraw[problem.order[k]] = 1.0 - (budget - k)
    return KeepOrRedraw(redraw, row)


def maximal_leakage_multipliers(problem: HammingProblem, epsilon: float) -> np.ndarray:
    """``λ_x = s min(P(x), P_(k+1))`` with ``k = ⌊e^ε⌋`` (``λ = 0`` when ``e^ε >= n``).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> problem = hamming_problem(MaximalLeakage(), ExpectedDistortion(Prior([0.2, 0.5, 0.3])))
    >>> maximal_leakage_multipliers(problem, math.log(1.5))
    array([0.2, 0.3, 0.3])
    """
    if epsilon >= math.log(problem.size):
        return np.zeros(problem.size)
    k = min(int(math.exp(epsilon)), problem.size - 1)
    return problem.scale * np.minimum(problem.prior, problem.prior[problem.order[k]])


def hamming_maximal_leakage_bound(problem: HammingProblem, epsilon: float, multipliers: np.ndarray) -> float:
    """A lower bound on ``min s P(Y ≠ X)`` under maximal leakage ε, for any multipliers ``λ``, in ``O(n)``.

    Dualizing the unit row sums of the LP ``Q[x, y] <= M_y``, ``Σ_y M_y <= e^ε`` (the direct LP of
    :mod:`mechdesign.methods.direct`) gives ``Σ_x λ_x − e^ε max_y Σ_x (λ_x − W[x, y])_+``; with Hamming
    weights the column sums follow from the total by correcting the diagonal entry.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> problem = hamming_problem(MaximalLeakage(), ExpectedDistortion(Prior([0.2, 0.5, 0.3])))
    >>> round(hamming_maximal_leakage_bound(problem, math.log(1.5), np.array([0.2, 0.3, 0.3])), 12)
    0.35
    """
    above_cost = np.maximum(multipliers - problem.scale * problem.prior, 0.0)
    column_excess = float((above_cost.sum() - above_cost + np.maximum(multipliers, 0.0)).max())
    penalty = math.exp(epsilon) * column_excess if column_excess > 0 else 0.0
    return float(multipliers.sum()) - penalty


@dataclass(frozen=True)
class ClosedForm:
    """One notion's closed form: the optimal mechanism, certifying multipliers, their bound, the O(n)
    measure, and which instances of the registered notion class it covers."""

    mechanism: Callable[[HammingProblem, float], KeepOrRedraw]
    multipliers: Callable[[HammingProblem, float], np.ndarray]
    lower_bound: Callable[[HammingProblem, float, np.ndarray], float]
    measure: Callable[[KeepOrRedraw], float]
    name: str
    applies_to: Callable[[PrivacyNotion], bool] = lambda notion: True


LOCAL_DP = ClosedForm(local_dp_mechanism, local_dp_multipliers, hamming_staircase_bound,
                      KeepOrRedraw.local_dp_leakage,
                      "RRWithPrior (Ghazi et al. 2021), certified by the staircase dual bound",
                      lambda notion: bool(notion.neighbours.is_complete))
MAXIMAL_LEAKAGE = ClosedForm(maximal_leakage_mechanism, maximal_leakage_multipliers, hamming_maximal_leakage_bound,
                             KeepOrRedraw.maximal_leakage,
                             "PUT paper Theorem 14 / Corollary 15, certified by the maximal-leakage LP dual")


def closed_form_of(problem: HammingProblem) -> ClosedForm:
    """:data:`LOCAL_DP` or :data:`MAXIMAL_LEAKAGE` for the problem's notion (its registered closed form).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> uniform = ExpectedDistortion(Prior.uniform(3))
    >>> closed_form_of(hamming_problem(DifferentialPrivacy(), uniform)) is LOCAL_DP
    True
    >>> closed_form_of(hamming_problem(MaximalLeakage(), uniform)) is MAXIMAL_LEAKAGE
    True
    """
    return problem.form


def solve_hamming(problem: HammingProblem, epsilon: float) -> Result:
    """The closed-form design at budget ε (already validated, ``inf`` allowed), re-measured and certified.

    Examples
    --------
    >>> from mechdesign import Prior
    >>> problem = hamming_problem(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)))
    >>> result = solve_hamming(problem, 1.0)
    >>> result.status, round(result.objective, 6)  # 2 / (e + 2)
    ('optimal', 0.423883)
    """
    start = time.perf_counter()
    form = closed_form_of(problem)
    label = problem.notion.label
    mechanism = form.mechanism(problem, epsilon)
    objective = mechanism.expected_hamming_distortion(problem.prior, problem.scale)
    bound = form.lower_bound(problem, epsilon, form.multipliers(problem, epsilon))
    work = f"closed form: {form.name}"
    return mechanism_result(
        mechanism, objective, bound, work, start, measured={label: form.measure(mechanism)},
        budgets={label: epsilon}, unit=problem.scale, method="closed-form",
        verdict=lambda certified, gap: f"{work}; budget re-measured and respected; " + (
            f"optimality gap {gap:.1e} certified" if certified
            else f"dual bound {bound:.12g} leaves a gap of {gap:.3g}, above GAP_RTOL"))


def closed_form_design(
    notions: Union[PrivacyNotion, Sequence[PrivacyNotion]],
    budgets: Union[float, Sequence[float]],
    objective: Objective,
    limits: Sequence[Any] = (),
) -> Result | None:
    """The certified closed-form optimum if the problem has one (see the module docstring), else ``None``.

    Parameters
    ----------
    notions
        One notion (or a sequence of one): local ε-DP or maximal leakage.
    budgets
        Its budget in nats, ``inf`` allowed.
    objective
        An :class:`~mechdesign.utility.distortion.ExpectedDistortion` with a cost exactly ``s (1 − I)``.
    limits
        Must be empty for a closed form.

    Returns
    -------
    Result or None
        ``method="closed-form"``, the mechanism a :class:`~mechdesign.structured.KeepOrRedraw`, with a
        numpy-checked dual ``bound``; ``None`` when no closed form applies (the budget is then not
        validated: the general path does it).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> result = closed_form_design(DifferentialPrivacy(), 1.0, ExpectedDistortion(Prior.uniform(3)))
    >>> result.method, result.status, round(result.objective, 6)
    ('closed-form', 'optimal', 0.423883)
    """
    problem = hamming_problem(notions, objective, limits)
    return None if problem is None else design_hamming(problem, budgets)


def design_hamming(problem: HammingProblem, budgets: Union[float, Sequence[float]]) -> Result:
    """:func:`solve_hamming` at the one budget of ``budgets`` (validated here; ``inf`` allowed).

    Examples
    --------
    >>> from mechdesign import Prior
    >>> design_hamming(hamming_problem(MaximalLeakage(), ExpectedDistortion(Prior.uniform(4))), [0.0]).objective
    0.75
    """
    return solve_hamming(problem, single_budget(budgets, problem.notion.label))

