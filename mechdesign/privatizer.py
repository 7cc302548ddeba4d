"""From design to deployment: learn a column's categories, design the mechanism, privatize, estimate.

:class:`Privatizer` follows scikit-learn's estimator conventions without requiring scikit-learn or
pandas (when scikit-learn is installed it also derives from its ``TransformerMixin`` and
``BaseEstimator``, for tags and ``check_is_fitted``): parameters are stored unchanged by ``__init__`` (``get_params`` / ``set_params``),
:meth:`~Privatizer.fit` learns attributes with a trailing underscore, and it works as a step of a
scikit-learn pipeline (columns as ``(n, 1)`` arrays or one-column DataFrames).

Examples
--------
>>> data = ["a"] * 50 + ["b"] * 30 + ["c"] * 20
>>> privatizer = Privatizer("dp", 1.0, objective="estimation").fit(data)
>>> privatizer.categories_, privatizer.result_.success
(('a', 'b', 'c'), True)
>>> private = privatizer.transform(data, random_state=0)
>>> estimate = privatizer.estimate_frequencies(private)
>>> bool(abs(estimate.estimate - [0.5, 0.3, 0.2]).max() < 4 * estimate.standard_error.max())
True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Union

import numpy as np

from ._validate import RandomState, as_budget, as_failure_probability, as_members, as_rng
from .categorical import as_column, encode, learn_categories
from .empirical import design_from_samples
from .exceptions import MechDesignError, NotFittedError
from .frequency import FrequencyEstimate, estimate_frequencies
from .mechanisms.estimation import estimation_mechanism
from .priors import L1Ball, Prior, as_prior
from .privacy import PointwiseMaximalLeakage, PrivacyNotion
from .registry import prior_notions
from .result import Result
from .solve import design
from .utility.base import Objective
from .utility.distortion import ExpectedDistortion

try:  # scikit-learn is optional: with it, a Privatizer is a full scikit-learn transformer (tags, clone, …)
    from sklearn.base import BaseEstimator, TransformerMixin

    _BASES: tuple[type, ...] = (TransformerMixin, BaseEstimator)
except ImportError:  # pragma: no cover - exercised where scikit-learn is absent
    _BASES = ()

#: Notion names accepted by :class:`Privatizer` and how each is built from the (learned) prior or ball:
#: the notions that declare ``from_prior`` in :mod:`mechdesign.registry`.
NOTIONS: dict[str, Callable[[Any], PrivacyNotion]] = prior_notions()
#: Separator of the symbols of a subset-selection report in its output label.
SUBSET_SEPARATOR = "|"

NotionSpec = Union[str, PrivacyNotion, Callable[[Prior], PrivacyNotion]]
ObjectiveSpec = Union[str, Objective, Callable[[Prior], Objective], None]


class Privatizer(*_BASES):  # type: ignore[misc]
    """Privatize a categorical column with an optimal mechanism, and estimate its frequencies back.

    Parameters
    ----------
    notion
        ``"dp"`` (local DP), ``"pml"``, ``"maximal-leakage"``, ``"mutual-information"``, a
        :class:`~mechdesign.privacy.base.PrivacyNotion` on the categories, or a callable building one
        from the prior.
    budget
        The privacy budget (nats).
    objective
        ``None``: least expected Hamming distortion under the prior (:func:`~mechdesign.solve.design`;
        rare categories may be merged, so frequencies may not be estimable); ``"estimation"``: the
        better of k-ary randomized response and subset selection at the same budget
        (:func:`~mechdesign.mechanisms.estimation.estimation_mechanism`); or an
        :class:`~mechdesign.utility.base.Objective`, or a callable building one from the prior.
    prior
        ``None``: the empirical frequencies of the fitted data; or a probability vector in the order of
        ``categories_``.
    robust_delta
        For ``notion="pml"``: design for every prior of the ℓ1-ball ``B_β(P̂)`` whose radius
        ``β = β*(δ)`` covers the true prior with probability ``>= 1 − δ``
        (:func:`~mechdesign.empirical.design_from_samples`, Grosse et al.). ``None``: no ball.
    solver
        Passed to :func:`~mechdesign.solve.design`.

    Attributes
    ----------
    categories_ : tuple
        The categories learned by :meth:`fit`.
    prior_ : Prior
        The prior the mechanism was designed for.
    notion_ : PrivacyNotion
        The notion the budget applies to.
    mechanism_ : Mechanism
        The mechanism (rows in the order of ``categories_``).
    result_ : Result
        The design's certified result.
    output_labels_ : tuple
        The label written for each output: the category itself for a mechanism with one output per
        category, the reported categories joined by ``"|"`` for subset selection.
    radius_ : float or None
        The ℓ1-ball radius β of a robust PML design.

    Examples
    --------
    >>> Privatizer("pml", 0.5).get_params()["notion"]
    'pml'
    """

    def __init__(self, notion: NotionSpec = "dp", budget: float = 1.0, objective: ObjectiveSpec = None,
                 prior: Any = None, robust_delta: float | None = None, solver: str | None = None) -> None:
        self.notion = notion
        self.budget = budget
        self.objective = objective
        self.prior = prior
        self.robust_delta = robust_delta
        self.solver = solver

    # --- scikit-learn conventions -------------------------------------------------------------------

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's parameters, as given.

        Examples
        --------
        >>> sorted(Privatizer().get_params())
        ['budget', 'notion', 'objective', 'prior', 'robust_delta', 'solver']
        """
        return {name: getattr(self, name) for name in _parameter_names()}

    def set_params(self, **params: Any) -> "Privatizer":
        """Set constructor parameters (unknown names raise :class:`MechDesignError`); returns ``self``.

        Examples
        --------
        >>> Privatizer().set_params(budget=2.0).budget
        2.0
        """
        as_members(list(params), _parameter_names(), "set_params", kind="Privatizer parameter")
        for name, value in params.items():
            setattr(self, name, value)
        return self

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "mechanism_")

    def __repr__(self) -> str:
        return f"Privatizer({', '.join(f'{k}={v!r}' for k, v in self.get_params().items())})"

    # --- fit, transform, estimate ---------------------------------------------------------------------

    def fit(self, data: Any, y: Any = None) -> "Privatizer":
        """Learn the categories and prior of ``data`` and design the mechanism.

        Raises :class:`MechDesignError` for empty data, a single category, missing values, a prior
        of the wrong size, or a design that does not succeed (``result_`` then holds its reason).

        Examples
        --------
        >>> Privatizer("dp", 2.0).fit(["x", "y", "y", "z"]).mechanism_.shape
        (3, 3)
        """
        budget = as_budget(self.budget, "budget")
        for name in ("mechanism_", "result_", "output_labels_"):
            self.__dict__.pop(name, None)
        categories, codes = learn_categories(data)
        counts = np.bincount(codes, minlength=len(categories))
        prior = Prior(counts / counts.sum()) if self.prior is None else as_prior(self.prior, len(categories))
        self.categories_, self.prior_, self.radius_ = categories, prior, None
        if self.robust_delta is not None:
            self._fit_robust(codes, budget)
        else:
            self.notion_ = self._build_notion(prior)
            if self.objective == "estimation":
                self._fit_estimation(budget)
            else:
                self.result_ = design(self.notion_, budget, self._build_objective(prior), solver=self.solver)
                self._keep_design()
        return self

    def transform(self, data: Any, random_state: RandomState = None) -> np.ndarray:
        """Privatize ``data``: one output label per value (shape of ``data``: ``(n,)`` or ``(n, 1)``).

        Raises :class:`~mechdesign.exceptions.UnknownCategoryError` for categories not seen by :meth:`fit`.

        Examples
        --------
        >>> privatizer = Privatizer("dp", 8.0).fit(["x", "y"])  # keeps a value w.p. e^8 / (e^8 + 1)
        >>> privatizer.transform(["y", "x", "y"], random_state=1).tolist()
        ['y', 'x', 'y']
        """
        self._check_fitted()
        values, shape = as_column(data)
        codes = encode(values, self.categories_)
        outputs = self.mechanism_.sample(codes, as_rng(random_state, "random_state"))
        labels = np.empty(len(self.output_labels_), dtype=object)
        labels[:] = self.output_labels_
        return np.array(labels[outputs].tolist()).reshape(shape)

    def fit_transform(self, data: Any, y: Any = None, random_state: RandomState = None) -> np.ndarray:
        """:meth:`fit` then :meth:`transform` on the same data.

        Examples
        --------
        >>> Privatizer("dp", 1.0).fit_transform(["x", "y", "y"], random_state=0).shape
        (3,)
        """
        generator = as_rng(random_state, "random_state")  # a bad seed is named before the design runs
        return self.fit(data).transform(data, random_state=generator)

    def estimate_frequencies(self, privatized: Any) -> FrequencyEstimate:
        """Unbiased estimates of the categories' frequencies from privatized data, with standard errors
        and the projection onto the simplex (:func:`~mechdesign.frequency.estimate_frequencies`).

        Raises :class:`~mechdesign.exceptions.NotEstimableError` when the mechanism does not
        determine some categories (then fit with ``objective="estimation"``).

        Examples
        --------
        >>> privatizer = Privatizer("dp", 50.0, objective="estimation").fit(["x", "y"])
        >>> privatizer.estimate_frequencies(["x", "x", "y", "x"]).estimate.round(6).tolist()
        [0.75, 0.25]
        """
        self._check_fitted()
        outputs = encode(privatized, self.output_labels_, "privatized", kind="output of the mechanism")
        return estimate_frequencies(outputs, self.mechanism_, self.categories_)

    def to_dict(self) -> dict[str, Any]:
        """The fitted mechanism for ``mechdesign estimate``: the result's fields plus ``categories``
        and ``outputs`` (the output labels).

        Examples
        --------
        >>> record = Privatizer("dp", 1.0).fit(["x", "y"]).to_dict()
        >>> record["categories"], record["outputs"], record["success"]
        (['x', 'y'], ['x', 'y'], True)
        """
        self._check_fitted()
        return {**self.result_.to_dict(), "categories": list(self.categories_), "outputs": list(self.output_labels_)}

    # --- helpers ------------------------------------------------------------------------------------

    def _build_notion(self, prior: Any) -> PrivacyNotion:
        if isinstance(self.notion, PrivacyNotion):
            return self.notion
        if isinstance(self.notion, str) and self.notion in NOTIONS:
            return NOTIONS[self.notion](prior)
        if callable(self.notion) and not isinstance(self.notion, str):
            return self.notion(prior)
        raise MechDesignError(f"notion must be one of {sorted(NOTIONS)}, a PrivacyNotion or a callable, "
                              f"got {self.notion!r}")

    def _build_objective(self, prior: Prior) -> Objective:
        if self.objective is None:
            return ExpectedDistortion(prior)
        if isinstance(self.objective, Objective):
            return self.objective
        if callable(self.objective):
            return self.objective(prior)
        raise MechDesignError(f"objective must be None, 'estimation', an Objective or a callable, got {self.objective!r}")

    def _fit_robust(self, codes: np.ndarray, budget: float) -> None:
        if self.notion != "pml" or self.prior is not None:
            raise MechDesignError(f"robust_delta needs notion='pml' and the empirical prior (prior=None), "
                                  f"got notion={self.notion!r}, prior={self.prior!r}")
        delta = as_failure_probability(self.robust_delta, "robust_delta")
        ball = L1Ball.from_samples(codes, len(self.categories_), delta)
        self.radius_ = ball.radius
        self.notion_ = PointwiseMaximalLeakage(ball)
        if self.objective == "estimation":
            self._fit_estimation(budget)
            return
        objective = None if self.objective is None else self._build_objective
        self.result_ = design_from_samples(codes, len(self.categories_), budget, delta, objective,
                                           solver=self.solver).result
        self._keep_design()

    def _fit_estimation(self, budget: float) -> None:
        chosen = estimation_mechanism(self.notion_, budget, self.prior_)
        measured = self.notion_.measure(chosen.mechanism)
        label = self.notion_.label
        self.result_ = Result(
            mechanism=chosen.mechanism, objective=chosen.variance, status="suboptimal", success=True,
            message=(f"{chosen.name} at LDP parameter {chosen.ldp_epsilon:.6g}: the least estimation variance "
                     "N·Σ Var(p̂_x) among k-ary randomized response and subset selection; no optimality bound"),
            measured={label: measured}, budgets={label: budget}, method="estimation-family")
        self.mechanism_ = chosen.mechanism
        self.output_labels_ = tuple(
            self.categories_[symbols[0]] if len(symbols) == 1
            else SUBSET_SEPARATOR.join(str(self.categories_[x]) for x in symbols)
            for symbols in chosen.outputs)

    def _keep_design(self) -> None:
        if not self.result_.success:
            raise MechDesignError(f"the design did not succeed ({self.result_.status}): {self.result_.message}")
        self.mechanism_ = self.result_.mechanism
        n_outputs = self.mechanism_.n_outputs
        self.output_labels_ = self.categories_ if n_outputs == len(self.categories_) else tuple(range(n_outputs))

    def _check_fitted(self) -> None:
        if not self.__sklearn_is_fitted__():
            raise NotFittedError("this Privatizer is not fitted yet: call fit(data) first")


def _parameter_names() -> tuple[str, ...]:
    return tuple(name for name in inspect.signature(Privatizer.__init__).parameters if name != "self")
