"""Mechanisms for estimating frequencies: the frequency oracle of least exact variance for ``(k, ε)``.

The candidates are the structured oracles of :mod:`mechdesign.mechanisms.oracles`, each at its best
parameter for the prior: k-ary randomized response, subset selection (every ``d``), optimized unary
encoding, optimized local hashing (every hash range ``g`` up to about ``2 e^ε``) and Hadamard response
(every block width). Their estimators are unbiased with exact variances, so
:func:`estimation_mechanism` compares the exact total variance ``N · Σ_x Var(p̂_x)`` under a (public)
prior — not an approximation — and picks the least among the oracles whose reports fit a
:class:`ReportBudget`: by default the reports of :data:`DEFAULT_PLANNED_REPORTS` records must take at
most :data:`DEFAULT_REPORT_MEMORY` bytes and :data:`DEFAULT_DECODE_OPERATIONS` operations to decode
(``k = 10⁴`` with unary reports of 10⁴ bits does not fit; Hadamard response, with ``O(log k)``-bit
reports decoded by the fast Walsh–Hadamard transform, does). What is claimed is exactly that: "least
variance among these oracles under this report budget", with every candidate's variance reported
(:attr:`EstimationMechanism.candidates`) and what the budget traded (:attr:`EstimationMechanism.claim`).

Under local DP the oracle's parameter ε is the budget. Under another notion each candidate small
enough for a dense matrix (:data:`MAX_CALIBRATION_ENTRIES`) is calibrated to the budget by bisection
on the notion's own measure; optimized local hashing, whose range depends on ε, is not.

For ``k = 2`` every candidate is binary randomized response up to relabelling of outputs; subset
selection with ``d = 1`` is k-ary randomized response (Ye & Barg, Optimal Schemes for Discrete
Distribution Estimation under Locally Differential Privacy; Wang et al., Mutual Information Optimally
Local Private Discrete Distribution Estimation; Wang, Blocki, Li & Jha, Locally Differentially
Private Protocols for Frequency Estimation; Acharya, Sun & Zhang, Hadamard Response).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from .._validate import _short, as_budget, as_positive_int
from ..exceptions import InvalidBudgetError, MechDesignError
from ..mechanism import Mechanism
from ..priors import PriorLike, as_prior
from ..privacy.base import PrivacyNotion
from ..privacy.dp import DifferentialPrivacy
from .oracles import (
    MAX_LISTED_OUTPUTS,
    FrequencyOracle,
    HadamardResponse,
    OptimizedLocalHashing,
    OptimizedUnaryEncoding,
    RandomizedResponse,
    SubsetSelection,
    best_block_width,
    best_hash_range,
    prior_second_moment,
    subset_probabilities,
    symmetric_total_variance,
)

#: Largest number of entries of a candidate's dense matrix calibrated to a notion other than local DP (each
#: calibration measures it 60 times; 320,000 is 20,000 outputs at k = 16, the earlier limit).
MAX_CALIBRATION_ENTRIES = 320_000
#: Largest LDP parameter tried when calibrating to another notion (nats; e^40 is deterministic to 1e-17).
MAX_CALIBRATED_EPSILON = 40.0
#: Bisection steps of the calibration (the bracket shrinks to 40 · 2^-60 nats).
CALIBRATION_STEPS = 60
#: Records the default report budget plans for.
DEFAULT_PLANNED_REPORTS = 10**6
#: Bytes the planned reports may take by default (in the arrays of the oracles' ``privatize``).
DEFAULT_REPORT_MEMORY = 2**30
#: Operations decoding the planned reports may take by default (``decode_operations`` of the oracles).
DEFAULT_DECODE_OPERATIONS = 2 * 10**9


@dataclass(frozen=True)
class ReportBudget:
    """What the reports of a frequency oracle may cost, for a planned number of records.

    Attributes
    ----------
    reports
        The number of records planned for.
    memory
        Bytes their reports may take (the oracle's ``report_bytes`` each).
    decode_operations
        Operations their tally and estimate may take (the oracle's ``decode_operations``).
    report_bits
        Bits one report may take in its most compact encoding (the oracle's ``report_bits``).

    Examples
    --------
    >>> ReportBudget().admits(OptimizedUnaryEncoding(10_000, 1.0))  # 10⁶ reports of 1,250 bytes
    'its 1,000,000 reports take 1.25e+09 bytes, above the budget of 1.07e+09'
    >>> ReportBudget.unlimited().admits(OptimizedUnaryEncoding(10_000, 1.0))
    ''
    """

    reports: int = DEFAULT_PLANNED_REPORTS
    memory: float = DEFAULT_REPORT_MEMORY
    decode_operations: float = DEFAULT_DECODE_OPERATIONS
    report_bits: float = math.inf

    def __post_init__(self) -> None:
        as_positive_int(self.reports, "reports")
        for name in ("memory", "decode_operations", "report_bits"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise MechDesignError(f"{name} must be a number > 0 (or inf), got {_short(value)}")

    @classmethod
    def unlimited(cls) -> ReportBudget:
        """No limit on the reports' size or decoding (every oracle is admitted).

        Examples
        --------
        >>> ReportBudget.unlimited().memory
        inf
        """
        return cls(memory=math.inf, decode_operations=math.inf)

    def admits(self, oracle: FrequencyOracle) -> str:
        """``""`` if ``oracle``'s reports fit, else why not (a phrase).

        Examples
        --------
        >>> ReportBudget(report_bits=8).admits(RandomizedResponse(1000, 1.0))
        'a report takes 9.97 bits, above the budget of 8'
        """
        if self.report_bits < math.inf and oracle.report_bits > self.report_bits:
            return f"a report takes {oracle.report_bits:.3g} bits, above the budget of {self.report_bits:.3g}"
        memory = float(self.reports) * oracle.report_bytes
        if memory > self.memory:
            return f"its {self.reports:,} reports take {memory:.3g} bytes, above the budget of {self.memory:.3g}"
        work = oracle.decode_operations(self.reports)
        if work > self.decode_operations:
            return (f"decoding its {self.reports:,} reports takes {work:.3g} operations, above the budget of "
                    f"{self.decode_operations:.3g}")
        return ""

    def describe(self) -> str:
        """The budget in words.

        Examples
        --------
        >>> ReportBudget().describe()
        '1,000,000 reports in at most 1.07e+09 bytes, decoded in at most 2e+09 operations'
        """
        if self.memory == self.decode_operations == self.report_bits == math.inf:
            return "no limit on the reports"
        parts = [f"{self.reports:,} reports in at most {self.memory:.3g} bytes",
                 f"decoded in at most {self.decode_operations:.3g} operations"]
        if self.report_bits < math.inf:
            parts.append(f"at most {self.report_bits:.3g} bits each")
        return ", ".join(parts)


@dataclass(frozen=True)
class OracleCandidate:
    """One candidate of :func:`estimation_mechanism`: an oracle at its best parameter, and whether it fits.

    Attributes
    ----------
    name
        The oracle and its parameter, e.g. ``"subset-selection(d=20)"``.
    variance
        ``N · Σ_x Var(p̂_x)`` under the prior (``inf`` where it was not calibrated).
    ldp_epsilon
        Its LDP parameter (``nan`` where it was not calibrated).
    report_bits, report_bytes
        A report's compact size in bits, and its bytes in memory.
    decode_operations
        Operations to decode the budget's planned reports.
    admitted
        Whether it fits the report budget (and was calibrated).
    reason
        Why it was not admitted, or ``""``.
    """

    name: str
    variance: float
    ldp_epsilon: float
    report_bits: float
    report_bytes: int
    decode_operations: float
    admitted: bool
    reason: str


@dataclass(frozen=True)
class EstimationMechanism:
    """A mechanism chosen for frequency estimation.

    Attributes
    ----------
    name
        The oracle and its parameter (``"randomized-response"``, ``"subset-selection(d=…)"``,
        ``"optimized-unary-encoding"``, ``"optimized-local-hashing(g=…)"``, ``"hadamard-response(b=…)"``),
        or ``"constant"`` for one symbol.
    mechanism
        The mechanism: a :class:`~mechdesign.mechanisms.oracles.FrequencyOracle` (dense for one symbol).
    ldp_epsilon
        Its LDP parameter ε (equal to the budget under local DP; calibrated to other notions).
    outputs
        The label of every output over the symbol indices (``oracle.output_labels()``), or ``None``
        beyond :data:`~mechdesign.mechanisms.oracles.MAX_LISTED_OUTPUTS` outputs.
    variance
        ``N · Σ_x Var(p̂_x)`` under the prior it was chosen for.
    candidates
        Every oracle compared, with its variance and whether the report budget admitted it.
    claim
        What is claimed, in words.
    """

    name: str
    mechanism: Mechanism
    ldp_epsilon: float
    outputs: tuple | None
    variance: float
    candidates: tuple[OracleCandidate, ...] = ()
    claim: str = ""


def subset_outputs(size: int, subset_size: int) -> tuple[tuple[int, ...], ...]:
    """The ``d``-subsets of ``{0, …, k−1}`` in lexicographic order: the outputs of subset selection.

    Examples
    --------
    >>> subset_outputs(3, 2)
    ((0, 1), (0, 2), (1, 2))
    """
    symbols = as_positive_int(size, "size", minimum=2)
    return tuple(combinations(range(symbols), as_positive_int(subset_size, "subset_size", maximum=symbols - 1)))


def subset_selection(size: int, epsilon: float, subset_size: int) -> SubsetSelection:
    """Subset selection: report ``d`` symbols, ``Q[x, S] = e^ε / Z`` if ``x ∈ S``, else ``1 / Z``.

    ``Z = C(k−1, d−1) e^ε + C(k−1, d)``; outputs are :func:`subset_outputs` (Ye & Barg, eq. (4)). The
    structured :class:`~mechdesign.mechanisms.oracles.SubsetSelection`, whose dense matrix is built on
    first use (and refused by the memory guard when too large).

    Examples
    --------
    >>> subset_selection(3, 0.0, 2).matrix.round(4).tolist()[0]
    [0.3333, 0.3333, 0.3333]
    """
    return SubsetSelection(size, epsilon, subset_size)


def report_probabilities(size: int, epsilon: float, subset_size: int = 1) -> tuple[float, float]:
    """``(a, b)``: probabilities that a subset-selection report contains ``x`` when ``X = x`` and when ``X ≠ x``.

    Examples
    --------
    >>> [round(v, 6) for v in report_probabilities(2, math.log(3))]  # binary RR with e^ε = 3
    [0.75, 0.25]
    """
    return subset_probabilities(size, epsilon, subset_size)


def estimation_variances(prior: PriorLike, epsilon: float, subset_size: int = 1) -> np.ndarray:
    """``N · Var(p̂_x) = π_x (1 − π_x) / (a − b)²`` of subset selection for every symbol (``d = 1``: k-RR).

    Examples
    --------
    >>> estimation_variances([0.5, 0.5], math.log(3)).round(6).tolist()  # 0.25 / 0.5²
    [1.0, 1.0]
    """
    probabilities = as_prior(prior).probabilities
    return SubsetSelection(probabilities.size, epsilon, subset_size).variances(probabilities)


def estimation_mechanism(notion: PrivacyNotion, budget: float, prior: PriorLike, *,
                         report_budget: ReportBudget | None = None) -> EstimationMechanism:
    """The frequency oracle of least exact total variance under ``prior`` that meets ``notion``'s budget
    and whose reports fit ``report_budget``.

    Parameters
    ----------
    notion
        Any privacy notion on the prior's alphabet.
    budget
        Its budget (nats, ``> 0``: at 0 every oracle's variance is infinite).
    prior
        The public prior under which the variance is compared (e.g. uniform).
    report_budget
        What the reports may cost (default :class:`ReportBudget()`: 10⁶ reports in 1 GiB, decoded in
        2·10⁹ operations); :meth:`ReportBudget.unlimited` admits every oracle.

    Returns
    -------
    EstimationMechanism
        The chosen oracle, every candidate's variance and the claim in words. One symbol: the constant
        mechanism, whose frequency 1 is exact (variance 0).

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy
    >>> estimation_mechanism(DifferentialPrivacy(), 4.0, [0.25] * 4).name  # large ε: randomized response
    'randomized-response'
    >>> estimation_mechanism(DifferentialPrivacy(), 0.1, [1 / 42] * 42).name  # Adult native-country (issue 34)
    'subset-selection(d=20)'
    >>> estimation_mechanism(DifferentialPrivacy(), 1.0, [1e-4] * 10_000).name  # unary reports do not fit
    'hadamard-response(b=16384)'
    """
    probabilities = as_prior(prior).probabilities
    limit = as_budget(budget, "budget")
    admissible = ReportBudget() if report_budget is None else report_budget
    if not isinstance(admissible, ReportBudget):
        raise MechDesignError(f"report_budget must be a ReportBudget or None, got {_short(report_budget)}")
    size = probabilities.size
    if size == 1:
        return EstimationMechanism("constant", Mechanism([[1.0]]), 0.0, (0,), 0.0, (),
                                   "one symbol: its frequency is 1, known exactly (variance 0) without any release")
    if limit == 0:
        raise InvalidBudgetError(f"budget = 0 (notion {notion.label}): every oracle's reports are then independent of "
                                 "the input, so every frequency estimator's variance is infinite; use a budget > 0")
    if isinstance(notion, DifferentialPrivacy) and notion.neighbours.is_complete:
        oracles = _ldp_candidates(size, limit, probabilities)
        calibrated = [(oracle, "") for oracle in oracles]
    else:
        calibrated = _calibrated_candidates(size, notion, limit)
    candidates, chosen = [], None
    for oracle, problem in calibrated:
        if problem:  # `oracle` is the name of a candidate that was not calibrated
            candidates.append(OracleCandidate(oracle, math.inf, math.nan, math.nan, 0, math.nan, False, problem))
            continue
        variance = oracle.total_variance(probabilities) if oracle.epsilon > 0 else math.inf
        reason = admissible.admits(oracle) or ("calibrated to LDP parameter 0: no information" if oracle.epsilon == 0
                                               else "")
        candidates.append(OracleCandidate(oracle.name, variance, oracle.epsilon, oracle.report_bits,
                                          oracle.report_bytes, oracle.decode_operations(admissible.reports),
                                          not reason, reason))
        if not reason and (chosen is None or variance < chosen[1]):
            chosen = (oracle, variance)
    if chosen is None:
        raise MechDesignError(f"no frequency oracle fits the report budget ({admissible.describe()}) at this budget: "
                              + "; ".join(f"{candidate.name}: {candidate.reason}" for candidate in candidates))
    oracle, variance = chosen
    outputs = oracle.output_labels() if is_listed(oracle) else None
    return EstimationMechanism(oracle.name, oracle, oracle.epsilon, outputs, variance, tuple(candidates),
                               _claim(oracle.name, variance, tuple(candidates), admissible))


def _ldp_candidates(size: int, epsilon: float, probabilities: np.ndarray) -> list[FrequencyOracle]:
    """Each oracle at its best parameter for the prior at LDP parameter ``epsilon``."""
    oracles: list[FrequencyOracle] = [RandomizedResponse(size, epsilon)]
    if size > 2:
        sizes = np.arange(2, size)
        shrink = math.exp(-epsilon)
        denominator = sizes + (size - sizes) * shrink
        hits = sizes / denominator
        false_hits = sizes * ((sizes - 1) + (size - sizes) * shrink) / ((size - 1) * denominator)
        moment = prior_second_moment(probabilities, size)
        variances = symmetric_total_variance(size, hits, false_hits, moment)
        oracles.append(SubsetSelection(size, epsilon, int(sizes[int(np.argmin(variances))])))
    oracles.append(OptimizedUnaryEncoding(size, epsilon))
    oracles.append(OptimizedLocalHashing(size, epsilon, best_hash_range(size, epsilon, probabilities)))
    oracles.append(HadamardResponse(size, epsilon, best_block_width(size, epsilon, probabilities)))
    return oracles


def _calibrated_candidates(size: int, notion: PrivacyNotion, budget: float) -> list[tuple]:
    """``(oracle, "")`` calibrated to the notion's budget, or ``(name, why not)``, for every family and
    parameter small enough for a dense matrix."""
    families: list[tuple[str, Callable[[float], FrequencyOracle]]] = [
        ("randomized-response", lambda epsilon: RandomizedResponse(size, epsilon))]
    families += [(f"subset-selection(d={d})", lambda epsilon, d=d: SubsetSelection(size, epsilon, d))
                 for d in range(2, size)]
    families.append(("optimized-unary-encoding", lambda epsilon: OptimizedUnaryEncoding(size, epsilon)))
    families += [(f"hadamard-response(b={2**power})", lambda epsilon, w=2**power: HadamardResponse(size, epsilon, w))
                 for power in range(1, size.bit_length() + 1)]
    calibrated: list[tuple] = []
    for name, build in families:
        entries = size * build(1.0).n_outputs
        if entries > MAX_CALIBRATION_ENTRIES:
            calibrated.append((name, f"its dense matrix ({entries:,} entries) is above MAX_CALIBRATION_ENTRIES = "
                                     f"{MAX_CALIBRATION_ENTRIES:,}, needed to calibrate it to {notion.label}"))
            continue
        calibrated.append((build(_calibrate(build, notion, budget)), ""))
    calibrated.append(("optimized-local-hashing", f"not calibrated to {notion.label}: its hash range depends on the "
                                                  "LDP parameter"))
    return calibrated


def _claim(name: str, variance: float, candidates: tuple[OracleCandidate, ...], budget: ReportBudget) -> str:
    """What is claimed, in words: least variance among these oracles under this report budget, and what
    the budget traded."""
    compared = ", ".join(f"{candidate.name} {candidate.variance:,.6g}" for candidate in candidates if candidate.admitted)
    text = (f"least exact total variance N·Σ Var(p̂_x) = {variance:,.6g} among the frequency oracles whose reports fit "
            f"the report budget ({budget.describe()}): {compared}; no claim of optimality among all mechanisms")
    excluded = [candidate for candidate in candidates if not candidate.admitted and candidate.variance < variance]
    if excluded:
        best = min(excluded, key=lambda candidate: candidate.variance)
        text += (f". The budget trades variance for size: {best.name} would have {best.variance:,.6g} "
                 f"({1 - best.variance / variance:.1%} less) but {best.reason}")
    return text


def _calibrate(build: Callable[[float], Mechanism], notion: PrivacyNotion, budget: float) -> float:
    """The largest LDP parameter ε' with ``notion.measure(build(ε')) <= budget`` (bisection).

    ``low`` only ever holds a parameter whose mechanism meets the budget (0, the constant mechanism, to
    begin with), so the result is private whether or not the notion is monotone in ε'; it is the largest
    such parameter when it is (every family here is a post-processing of itself at a larger ε' for k-RR
    and subset selection, a mixture with the uniform mechanism).
    """

    def within(epsilon: float) -> bool:
        return notion.measure(build(epsilon)) <= budget

    if within(MAX_CALIBRATED_EPSILON):
        return MAX_CALIBRATED_EPSILON
    low, high = 0.0, MAX_CALIBRATED_EPSILON
    for _ in range(CALIBRATION_STEPS):
        middle = (low + high) / 2
        low, high = (middle, high) if within(middle) else (low, middle)
    return low


def is_listed(oracle: FrequencyOracle) -> bool:
    """Whether the oracle's outputs are few enough to list their labels (:data:`MAX_LISTED_OUTPUTS`).

    Examples
    --------
    >>> is_listed(RandomizedResponse(5, 1.0)), is_listed(SubsetSelection(42, 0.1, 20))
    (True, False)
    """
    return oracle.n_outputs <= MAX_LISTED_OUTPUTS

