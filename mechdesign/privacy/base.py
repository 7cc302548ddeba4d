"""The privacy-notion protocol shared by every module of :mod:`mechdesign.privacy`.

A notion object holds every parameter except its budget. It offers

* :meth:`PrivacyNotion.constraints` — convex (DCP, and DPP where possible) cvxpy constraints on a
  mechanism variable ``Q`` meaning "``Q`` satisfies the notion with this budget";
* :meth:`PrivacyNotion.measure` — the smallest budget a given mechanism satisfies, computed in plain
  numpy *independently* of the constraints, so that it checks them.

The budget of a constraint is either a number (ε in nats) or a :class:`BudgetParameter`, a cvxpy
``Parameter`` holding the budget in the scale the constraints are linear in (``e^ε`` for most
notions). Re-solving one compiled problem along a curve only changes that parameter's value.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, Union

from .._lazy import cvxpy as cp
import numpy as np

from .._numeric import exp_budget
from .._validate import as_budget, as_instance, as_sequence
from ..exceptions import InvalidBudgetError, MechDesignError, ShapeMismatchError
from ..mechanism import MechanismLike, as_mechanism
from ..relaxation import LinearRelaxation


def parameter_label(name: str, *parameters: str) -> str:
    """``name(parameter, …)``, or just ``name`` when there are no parameters (notion labels).

    Parameters
    ----------
    name
        The notion's name.
    *parameters
        Its parameters, already formatted.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> parameter_label("renyi", "alpha=2"), parameter_label("dp")
    ('renyi(alpha=2)', 'dp')
    """
    return f"{name}({', '.join(parameters)})" if parameters else name


class BudgetParameter:
    """A cvxpy ``Parameter`` carrying one notion's budget in that notion's constraint scale.

    Create it with :meth:`PrivacyNotion.parameter`, pass it to :meth:`PrivacyNotion.constraints`
    instead of a number, then call :meth:`set` with the budget (ε) before each solve.
    """

    def __init__(self, notion: "PrivacyNotion") -> None:
        self.notion = notion
        self.parameter = cp.Parameter(nonneg=True, name=f"budget_{notion.name}")
        self.budget: float | None = None

    def set(self, budget: float) -> None:
        """Set the budget ε (nats); the parameter receives ``notion.scaled_budget(ε)``.

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> budget = DifferentialPrivacy().parameter()
        >>> budget.set(math.log(3))
        >>> round(float(budget.parameter.value), 12)  # e^ε
        3.0
        """
        self.budget = as_budget(budget, f"{self.notion.name} budget")
        self.parameter.value = self.notion.finite_scaled_budget(self.budget)


Budget = Union[float, BudgetParameter]


#: What the command line must be given for a parameter of :attr:`PrivacyNotion.cli_parameters`, where
#: it is not simply the option ``--<parameter>``.
COMMAND_LINE_NEEDS = {"prior": "a prior: pass --prior", "alpha": "--alpha (an order > 1)"}


class PrivacyNotion(ABC):
    """Base class of every privacy notion.

    Class attributes
    ----------------
    name
        Short identifier (``"dp"``, ``"pml"``, …) used on the command line and in result tables.
    reference
        The paper and definition the notion implements.
    needs_prior
        Whether the notion is defined relative to an input distribution.
    is_linear
        Whether the constraints are linear for a fixed budget (the design is then an LP).

    Capabilities — the definitional facts dispatchers read (:mod:`mechdesign.registry` derives its table
    from them, so they cannot drift from the class; a subclass inherits them):

    cli_name
        Its ``--notion`` name on the command line (and in ``Privatizer(notion=...)``); ``None``: not
        offered there. Declared on the class itself (a subclass is not offered under its base's name).
    cli_parameters
        The constructor's positional arguments the command line supplies, in order: ``"prior"`` (the
        ``--prior``, or source set), or the name of an option (``"alpha"`` is ``--alpha``); built by
        :meth:`from_command_line`.
    designed_from_prior
        Whether a :class:`~mechdesign.privatizer.Privatizer` may build it from a (learned) prior alone
        (then ``cli_parameters`` holds at most ``"prior"``).
    composition
        PUT Lemma 16 for the product mechanism ``Q^{⊗n}``: ``"same"`` (its loss is the local loss: DP,
        Rényi DP) or ``"additive"`` (``n`` times it); ``None``: not covered by the lemma.

    Whether it has a leakage expression is not declared but derived: :meth:`has_leakage_expression`
    (it overrides :meth:`leakage_expression`). A new notion sets these lines and nothing else outside
    its module but its exports (docs/architecture.md, "How to add a privacy notion").
    """

    name: ClassVar[str]
    reference: ClassVar[str]
    needs_prior: ClassVar[bool] = False
    is_linear: ClassVar[bool] = True
    cli_name: ClassVar[str | None] = None
    cli_parameters: ClassVar[tuple[str, ...]] = ()
    designed_from_prior: ClassVar[bool] = False
    composition: ClassVar[Literal["same", "additive"] | None] = None

    #: Size of the input alphabet fixed by the notion's own parameters (prior, neighbours), if any.
    n_inputs: int | None = None

    @property
    def label(self) -> str:
        """A name that includes the notion's parameters, unique within a problem.

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> DifferentialPrivacy().label
        'dp'
        """
        return self.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label}>"

    def scaled_budget(self, budget: float) -> float:
        """Map a budget ε to the value its constraints use; ``e^ε`` (``inf`` past the float range) unless overridden.

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> DifferentialPrivacy().scaled_budget(0.0), DifferentialPrivacy().scaled_budget(1000.0)
        (1.0, inf)
        """
        return exp_budget(budget)

    def finite_scaled_budget(self, budget: float) -> float:
        """:meth:`scaled_budget` for a constraint, which needs a finite number.

        Raises
        ------
        InvalidBudgetError
            When the scaled budget overflows the float range (``e^ε`` for ε above about 709.78): such a
            budget is valid for :meth:`measure`, but a solver cannot take it as a coefficient.

        Examples
        --------
        >>> from mechdesign import MaximalLeakage
        >>> MaximalLeakage().finite_scaled_budget(0.0)
        1.0
        """
        scaled = self.scaled_budget(budget)
        if not math.isfinite(scaled):
            raise InvalidBudgetError(
                f"{self.label} budget {budget!r} is too large for constraints: its constraint scale overflows "
                "float64 (the float range ends near e^709.78)"
            )
        return scaled

    def scaled_budget_excess(self, budget: float) -> float:
        """``scaled_budget(ε) − 1`` without cancellation at small ε: ``expm1(ε)`` for the default ``e^ε``
        scale (``e^ε − 1`` computed as a difference loses all digits below 1e-16).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> DifferentialPrivacy().scaled_budget_excess(1e-20)
        1e-20
        """
        if type(self).scaled_budget is PrivacyNotion.scaled_budget:
            return math.expm1(budget)
        return self.scaled_budget(budget) - 1.0

    def nats_per_budget_unit(self) -> float:
        """The log-ratio (nats) that one unit of budget allows between the closest inputs the notion constrains:
        1 for a budget in nats; the nearest pair's distance for a budget per unit of distance (metric DP).

        A search over budgets (``ε*(D)``'s bisection) takes its bracket and reach in these units, so the unit in
        which a notion's budget is stated never changes the answer.

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> DifferentialPrivacy().nats_per_budget_unit()
        1.0
        """
        return 1.0

    def budget_from_scaled(self, value: float) -> float:
        """Inverse of :meth:`scaled_budget` (``max(0, log value)`` unless overridden).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> DifferentialPrivacy().budget_from_scaled(math.e), DifferentialPrivacy().budget_from_scaled(0.5)
        (1.0, 0.0)
        """
        return max(0.0, math.log(value)) if value > 0 else 0.0

    @classmethod
    def has_leakage_expression(cls) -> bool:
        """Whether the class implements :meth:`leakage_expression` (overrides it), so that ``ε*(D)`` is
        minimized directly rather than bisected (:func:`~mechdesign.curves.privacy_distortion`).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy, MaximalLeakage
        >>> MaximalLeakage.has_leakage_expression(), DifferentialPrivacy.has_leakage_expression()
        (True, False)
        """
        return cls.leakage_expression is not PrivacyNotion.leakage_expression

    @classmethod
    def from_command_line(cls, options: Any, prior: Any = None) -> PrivacyNotion:
        """The notion built from command-line ``options`` (an ``argparse.Namespace`` or any object with
        the options of :attr:`cli_parameters` as attributes) and ``prior`` (a prior or source set).

        A missing option or prior is a :class:`MechDesignError` naming what to pass.

        Examples
        --------
        >>> from argparse import Namespace
        >>> from mechdesign import Prior, RenyiDifferentialPrivacy, SibsonMutualInformation
        >>> SibsonMutualInformation.from_command_line(Namespace(alpha=2.0), Prior([0.5, 0.5]))
        <SibsonMutualInformation sibson_mi(alpha=2)>
        >>> RenyiDifferentialPrivacy.from_command_line(Namespace(alpha=None))
        Traceback (most recent call last):
        mechdesign.exceptions.MechDesignError: notion 'renyi-dp' needs --alpha (an order > 1)
        """
        values = [prior if parameter == "prior" else getattr(options, parameter, None)
                  for parameter in cls.cli_parameters]
        for parameter, value in zip(cls.cli_parameters, values):
            if value is None:
                needed = COMMAND_LINE_NEEDS.get(parameter, f"--{parameter.replace('_', '-')}")
                raise MechDesignError(f"notion {cls.cli_name!r} needs {needed}")
        return cls(*values)

    @classmethod
    def from_prior(cls, prior: Any) -> PrivacyNotion:
        """The notion built from ``prior`` alone, for the notions :attr:`designed_from_prior` (the others:
        a :class:`MechDesignError`).

        Examples
        --------
        >>> from mechdesign import PointwiseMaximalLeakage, Prior
        >>> PointwiseMaximalLeakage.from_prior(Prior([0.5, 0.5]))
        <PointwiseMaximalLeakage pml>
        """
        if not cls.designed_from_prior:
            raise MechDesignError(f"{cls.__name__} is not built from a prior alone")
        return cls.from_command_line(None, prior)

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression | None:
        """A convex ``f(Q)`` whose value ``v`` gives the least budget ``budget_from_leakage(v)`` that ``Q``
        meets (``f(Q) <= scaled_budget(ε)`` unless the notion overrides :meth:`budget_from_leakage`), if
        one exists.

        Notions that have one (maximal leakage, mutual information, …) can have their privacy
        minimized directly; the others (``None``) are handled by bisection on the budget.
        """
        return None

    def budget_from_leakage(self, value: float) -> float:
        """The budget ε of a value of :meth:`leakage_expression`: :meth:`budget_from_scaled` unless the
        leakage and the constraints use different scales (Rényi DP: a power sum against ``e^ε``).

        Examples
        --------
        >>> from mechdesign import MaximalLeakage
        >>> MaximalLeakage().budget_from_leakage(1.0)
        0.0
        """
        return self.budget_from_scaled(value)

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation | None:
        """Affine rows every mechanism meeting the notion at ``budget`` satisfies (a polyhedral outer
        approximation, :mod:`mechdesign.relaxation`).

        ``points`` are mechanisms with every entry positive (where gradients are finite) and
        ``budget`` a finite ε in nats. Linear notions return their constraints themselves (the points
        do not matter); convex ones, tangent planes at every point. The certificate of a design
        minimizes the objective over these rows (:mod:`mechdesign.certificate`). ``None`` (the
        default) means the notion offers none: its designs carry no optimality bound.
        """
        return None

    def linear_objective_bound(self, weights: np.ndarray, matrix: np.ndarray, budget: float) -> float | None:
        """A lower bound on ``min Σ weights ∘ Q`` over row-stochastic ``Q`` meeting the notion at ``budget``
        from the notion's own dual, evaluated at the near-optimal ``matrix``; ``None`` (the default) if
        the notion has none beyond :meth:`relaxation`."""
        return None

    def parameter(self) -> BudgetParameter:
        """A fresh :class:`BudgetParameter` for this notion (for DPP re-solves).

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> notion = DifferentialPrivacy()
        >>> notion.parameter().notion is notion
        True
        """
        return BudgetParameter(self)

    def constraints(self, Q: cp.Expression, budget: Budget) -> list[cp.Constraint]:
        """Constraints meaning "``Q`` satisfies this notion with budget ``budget``".

        Parameters
        ----------
        Q
            cvxpy expression of shape ``(n_inputs, n_outputs)``; it is assumed row-stochastic (the
            caller adds ``Q >= 0`` and unit row sums).
        budget
            ε in nats, or a :class:`BudgetParameter` created by this notion's :meth:`parameter`.

        Returns
        -------
        list of cvxpy.Constraint
            The constraints.

        Raises
        ------
        MechDesignError
            If ``budget`` is another notion's parameter (:class:`InvalidBudgetError` if the scaled budget
            overflows).

        Examples
        --------
        Inputs 0 and 1 as in randomized response with ``1 − p = 3/4`` are ``log 3``-DP neighbours, not
        ``log 2``-DP ones:

        >>> from mechdesign import DifferentialPrivacy
        >>> matrix = cp.Constant(np.array([[0.75, 0.25], [0.25, 0.75], [1.0, 0.0]]))
        >>> notion = DifferentialPrivacy([(0, 1)], 3)  # input 2 neighbours none
        >>> [bool(c.value()) for c in notion.constraints(matrix, math.log(3) + 1e-12)]
        [True]
        >>> [bool(c.value()) for c in notion.constraints(matrix, math.log(2))]
        [False]
        """
        self.check_shape(Q.shape[0])
        if isinstance(budget, BudgetParameter):
            if budget.notion is not self:
                raise MechDesignError(f"budget parameter belongs to {budget.notion!r}, not {self!r}")
            scaled: Any = budget.parameter
        else:
            scaled = self.finite_scaled_budget(as_budget(budget, f"{self.name} budget"))
        return self._constraints(Q, scaled)

    @abstractmethod
    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        """The constraints with the budget already in constraint scale (number or Parameter)."""

    def measure(self, mechanism: MechanismLike) -> float:
        """The smallest budget ε ≥ 0 (nats) that ``mechanism`` satisfies; ``inf`` if none does.

        Examples
        --------
        >>> from mechdesign import DifferentialPrivacy
        >>> round(DifferentialPrivacy().measure([[0.75, 0.25], [0.25, 0.75]]), 12) == round(math.log(3), 12)
        True
        >>> DifferentialPrivacy().measure(np.eye(2))  # a zero entry beside a positive one
        inf
        """
        matrix = as_mechanism(mechanism).matrix
        self.check_shape(matrix.shape[0])
        return float(self._measure(matrix))

    @abstractmethod
    def _measure(self, matrix: np.ndarray) -> float:
        """:meth:`measure` on a validated matrix of the right shape."""

    def check_shape(self, n_inputs: int) -> None:
        """Raise :class:`ShapeMismatchError` if the notion is fixed to another input alphabet.

        Examples
        --------
        >>> from mechdesign import PointwiseMaximalLeakage
        >>> PointwiseMaximalLeakage([0.5, 0.5]).check_shape(3)
        Traceback (most recent call last):
            ...
        mechdesign.exceptions.ShapeMismatchError: pml is defined on 2 inputs, but the mechanism has 3
        """
        if self.n_inputs is not None and n_inputs != self.n_inputs:
            raise ShapeMismatchError(
                f"{self.label} is defined on {self.n_inputs} inputs, but the mechanism has {n_inputs}"
            )


# --- the design arguments of this kind, validated (the boundary of design(), curves, designers) ---------


def as_notion(notion: Any, name: str = "notion") -> PrivacyNotion:
    """One :class:`PrivacyNotion` instance (not a class, not a list), else a :class:`MechDesignError` naming it.

    Examples
    --------
    >>> from mechdesign import MaximalLeakage
    >>> as_notion(MaximalLeakage())
    <MaximalLeakage maximal_leakage>
    """
    return as_instance(notion, PrivacyNotion, name)


def as_notions(notions: Any, name: str = "notions") -> list[PrivacyNotion]:
    """One :class:`PrivacyNotion` or a sequence of them (empty: no privacy
    constraint, e.g. a rate–distortion problem with a limit), as a list.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy
    >>> as_notions(DifferentialPrivacy())
    [<DifferentialPrivacy dp>]
    """
    if isinstance(notions, (PrivacyNotion, type)):
        return [as_notion(notions, name)]
    if isinstance(notions, (list, tuple)) and not notions:
        return []
    return [as_notion(notion, f"{name}[{index}]") for index, notion in enumerate(as_sequence(notions, name))]
