"""From design to deployment: privatize categorical columns with a mechanism that does not depend on them.

The mechanism is published beside the outputs (it is needed to read them), so it must not depend on
the data it privatizes unless that dependence is paid for from the budget. :class:`Privatizer`
designs it from the *declared* categories and a *public* prior only; which of the modes of
:data:`MODES` applies is chosen by its parameters, and the fitted object states its guarantee
(``guarantee_``) and its spend (``ledger_``, a :class:`~mechdesign.accounting.Ledger`).

:class:`Privatizer` follows scikit-learn's estimator conventions without requiring scikit-learn or
pandas, and without importing scikit-learn (whose import costs seconds): parameters are stored
unchanged by ``__init__`` (``get_params``, ``set_params``, so ``clone`` works), :meth:`~Privatizer.fit`
learns attributes with a trailing underscore (``check_is_fitted`` through ``__sklearn_is_fitted__``),
``__sklearn_tags__``, ``get_feature_names_out`` and ``set_output`` are scikit-learn's protocol, and it
works as a step of a pipeline (columns as arrays, one or several, or DataFrames).

Examples
--------
>>> data = ["a"] * 50 + ["b"] * 30 + ["c"] * 20
>>> privatizer = Privatizer("dp", 1.0, categories=["a", "b", "c"]).fit(data)
>>> privatizer.mode_, round(privatizer.privacy_spent_, 12)  # the ledger's total: the budget
('declared', 1.0)
>>> private = privatizer.transform(data)  # drawn from the operating system's entropy
>>> private.shape, set(private) <= {"a", "b", "c"}
((100,), True)
>>> privatizer.estimate_frequencies(private).categories
('a', 'b', 'c')
"""

from __future__ import annotations

import inspect
import math
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any, Union

import numpy as np

from ._validate import _short, as_budget, as_choice, as_failure_probability, as_members, as_real_vector, check_count
from .accounting import Ledger
from .categorical import (
    Table,
    as_labels,
    as_table,
    check_categories,
    encode_values,
    index_of,
    learn_categories,
)
from .empirical import design_from_samples
from .exceptions import InvalidBudgetError, MechDesignError, NotFittedError, ShapeMismatchError
from .files import (
    NON_FINITE,
    FileFormatError,
    mechanism_from_payload,
    mechanism_payload,
    read_envelope,
    record_from_result,
    write_envelope,
)
from .frequency import FrequencyEstimate, estimate_frequencies, estimate_from_tally
from .mechanism import Mechanism
from .mechanisms.estimation import EstimationMechanism, ReportBudget, estimation_mechanism, is_listed
from .mechanisms.oracles import FrequencyOracle, RandomizedResponse
from .methods.certified import mechanism_result
from .parallel import is_dask_collection, privatize_partitions, tally_partitions
from .priors import L1Ball, Prior, as_prior
from .privacy import DifferentialPrivacy, PointwiseMaximalLeakage, PrivacyNotion
from .randomness import release_rng
from .registry import prior_notions
from .result import Result, json_number
from .solve import design
from .utility.base import Objective
from .utility.distortion import ExpectedDistortion

#: Notion names accepted by :class:`Privatizer` and how each is built from the (public) prior or ball:
#: the notions that declare ``from_prior`` in :mod:`mechdesign.registry`.
NOTIONS: dict[str, Callable[[Any], PrivacyNotion]] = prior_notions()
#: Objective names accepted by :class:`Privatizer` (``None`` means ``"distortion"``).
OBJECTIVES = ("estimation", "distortion")
#: Largest matrix (entries) of a frequency oracle the ledger records by its matrix (larger ones by their ε).
LEDGER_DENSE_ENTRIES = 10_000
#: The fields of a :class:`~mechdesign.mechanisms.estimation.ReportBudget` in a privatizer file.
REPORT_BUDGET_FIELDS = ("reports", "memory", "decode_operations", "report_bits")
#: Output containers of :meth:`Privatizer.set_output` (scikit-learn's names; polars has no column of
#: tuples, the labels of subset selection).
OUTPUT_CONTAINERS = ("default", "pandas")
#: What each mode of :class:`Privatizer` guarantees, in one sentence (``guarantee_`` of a fitted one).
MODES: dict[str, str] = {
    "declared": ("Private at release: the published mechanism depends only on the declared categories, a "
                 "uniform prior and the budget, never on the data, so each record is protected by the budget."),
    "public-prior": ("Private at release if the prior passed is public: the published mechanism depends only on "
                     "it, the declared categories and the budget, never on the data privatized."),
    "public-sample": ("Private at release if prior_sample is public and holds none of the records privatized: the "
                      "published mechanism depends only on its frequencies, the declared categories and the budget."),
    "private-prior": ("Private at release: each record spends prior_budget on a first local-DP round (never "
                      "released) whose estimated prior shapes the published mechanism and the rest on its release, "
                      "so the ledger's total is the budget."),
    "inferred": ("Not private at release: the categories were read from the data (categories='infer'), so the "
                 "published mechanism reveals which categories occur; only each record's output meets the budget."),
}

NotionSpec = Union[str, PrivacyNotion, Callable[[Prior], PrivacyNotion]]
ObjectiveSpec = Union[str, Objective, Callable[[Prior], Objective], None]


class DataDependentDesignWarning(UserWarning):
    """The design read the data it privatizes (``categories="infer"``): the published mechanism leaks.

    Examples
    --------
    >>> issubclass(DataDependentDesignWarning, UserWarning)
    True
    """


class Privatizer:
    """Privatize categorical columns with a certified mechanism designed without reading them, and
    estimate their frequencies back.

    Parameters
    ----------
    notion
        ``"dp"`` (local DP), ``"pml"``, ``"maximal-leakage"``, ``"mutual-information"``, a
        :class:`~mechdesign.privacy.base.PrivacyNotion` on the categories, or a callable building one
        from the prior.
    budget
        The privacy budget (nats) of one record: the *total* over its columns, split equally among
        them (``column_budget_``). ``math.inf`` releases the data as it is (the identity mechanism).
    objective
        ``"estimation"`` (the default): the frequency oracle of least exact estimation variance under the
        prior among k-ary randomized response, subset selection, optimized unary encoding, optimized local
        hashing and Hadamard response whose reports fit ``report_budget``
        (:func:`~mechdesign.mechanisms.estimation.estimation_mechanism`); ``"distortion"`` or
        ``None``: least expected Hamming distortion under the prior (:func:`~mechdesign.solve.design`;
        rare categories may be merged, so frequencies may not be estimable); an
        :class:`~mechdesign.utility.base.Objective`, or a callable building one from the prior.
    categories
        The declared alphabet: a sequence of categories for one column, or a list of sequences (one
        per column). It is public (part of the published mechanism). ``"infer"`` reads the categories
        from the data — an explicit opt-in that warns :class:`DataDependentDesignWarning`. ``None``:
        :meth:`fit` asks for them.
    prior
        ``None``: uniform over the categories, or the frequencies of ``fit``'s ``prior_sample``; a
        public prior (for several columns, a list with one per column): a probability vector or whole
        counts (normalized) in the categories' order, a mapping ``{category: weight}`` (absent
        categories weigh 0) or a :class:`~mechdesign.priors.Prior`; ``"private"``: estimate it from the
        data at the price ``prior_budget`` (local DP only).
    prior_budget
        With ``prior="private"``: the part ``0 < ε₁ < budget`` of each record's budget spent on the
        first round that estimates the prior.
    robust_delta
        For ``notion="pml"`` with ``fit(..., prior_sample=...)``: design for every prior of the
        ℓ1-ball ``B_β(P̂)`` around the sample's frequencies whose radius ``β = β*(δ)`` covers the true
        prior with probability ``>= 1 − δ`` (:func:`~mechdesign.empirical.design_from_samples`,
        Grosse et al.). ``None``: no ball.
    solver
        Passed to :func:`~mechdesign.solve.design`.
    random_state
        ``None`` (the default): releases draw from the operating system's entropy. A seed or a numpy
        ``Generator`` makes them reproducible by anyone who knows it — for tests only; it warns
        :class:`~mechdesign.randomness.SeededReleaseWarning`.
    report_budget
        With ``objective="estimation"``: what the reports may cost, a
        :class:`~mechdesign.mechanisms.estimation.ReportBudget` (``None``: its default, 10⁶ reports in
        1 GiB decoded in 2·10⁹ operations; ``ReportBudget.unlimited()`` admits every oracle).

    Attributes
    ----------
    n_features_in_ : int
        Number of columns seen by :meth:`fit`.
    feature_names_in_ : numpy.ndarray
        The DataFrame's column names (only when fitted on a DataFrame with string column names).
    categories_ : list of numpy.ndarray
        Per column, its categories (an object array of the original values).
    priors_, notions_, mechanisms_, results_ : list
        Per column: the prior designed for, the notion the budget applies to, the published
        mechanism (rows in the order of the categories), the design's certified result.
    outputs_ : list of tuple or None
        Per column, the label of each output: the category itself for a mechanism with one output per
        category (k-ary randomized response), the tuple of reported categories for subset selection and
        unary encoding, the output index (an int) for Hadamard response, ``"seed:y"`` for local hashing
        — unique by construction. ``None`` for a frequency oracle with more than
        :data:`~mechdesign.mechanisms.oracles.MAX_LISTED_OUTPUTS` outputs, whose reports are labelled
        one by one.
    radii_ : list
        Per column, the ℓ1-ball radius β of a robust PML design (else ``None``).
    column_budget_ : float
        The budget of each column (``budget / n_features_in_``).
    mode_ : str
        The mode of :data:`MODES` the fit ran in; ``guarantee_`` is its sentence.
    ledger_ : Ledger
        Every spend of privacy, per column: the release, and in the ``"private-prior"`` mode the
        first round. ``privacy_spent_`` is its ``pure_epsilon()`` (local DP, nats).
    prior_, notion_, mechanism_, result_, output_labels_, radius_
        The single column's entry of the lists above (an error for several columns).

    Notes
    -----
    Under a notion other than local DP the ledger still accounts local DP: it records the released
    mechanism's own LDP parameter, which may exceed the notion's budget (or be infinite). A frequency
    oracle whose matrix has more than :data:`LEDGER_DENSE_ENTRIES` entries is recorded by its ε alone,
    accounted as its worst case (binary randomized response at that ε) for ε(δ).

    scikit-learn's ``check_estimator(Privatizer(categories="infer"))`` passes every check but these:

    * ``check_transformer_general``, ``check_transformer_data_not_an_array``, ``check_fit_idempotent``,
      ``check_estimators_pickle``, ``check_pipeline_consistency``: with ``random_state`` set (as the
      checks set it) the outputs are reproduced exactly, but they are categories — an object array
      whose entries are the original values, or tuples of them for subset selection — and the checks
      compare them with ``assert_allclose``, which needs numbers;
    * ``check_methods_subset_invariance``, ``check_methods_sample_order_invariance``: each record's
      output is a random draw, so transforming a subset (or a permutation) of the rows draws other
      noise (they also compare the outputs as numbers);
    * ``check_fit1d``: a 1-D ``X`` is one column (a list of categories), by design.

    Examples
    --------
    >>> Privatizer("pml", 0.5, categories=["x", "y"]).get_params()["notion"]
    'pml'
    """

    def __init__(self, notion: NotionSpec = "dp", budget: float = 1.0, objective: ObjectiveSpec = "estimation",
                 categories: Any = None, prior: Any = None, prior_budget: float | None = None,
                 robust_delta: float | None = None, solver: str | None = None, random_state: Any = None,
                 report_budget: ReportBudget | None = None) -> None:
        self.notion = notion
        self.budget = budget
        self.objective = objective
        self.categories = categories
        self.prior = prior
        self.prior_budget = prior_budget
        self.robust_delta = robust_delta
        self.solver = solver
        self.random_state = random_state
        self.report_budget = report_budget

    # --- scikit-learn conventions -------------------------------------------------------------------

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's parameters, as given.

        Examples
        --------
        >>> sorted(Privatizer().get_params())  # doctest: +NORMALIZE_WHITESPACE
        ['budget', 'categories', 'notion', 'objective', 'prior', 'prior_budget', 'random_state',
         'report_budget', 'robust_delta', 'solver']
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
        return "mechanisms_" in self.__dict__

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's tags: a transformer of categorical and string data whose outputs are categories.

        Called by scikit-learn only (which is then imported).

        Examples
        --------
        >>> Privatizer().__sklearn_tags__().input_tags.categorical
        True
        """
        from sklearn.utils import InputTags, Tags, TargetTags, TransformerTags

        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    transformer_tags=TransformerTags(preserves_dtype=[]),  # outputs are an object array
                    input_tags=InputTags(categorical=True, string=True))

    def set_output(self, *, transform: str | None = None) -> "Privatizer":
        """The container :meth:`transform` and :meth:`fit_transform` return (scikit-learn's ``set_output``):
        ``"default"`` (a numpy object array), ``"pandas"`` (a DataFrame with the input's column names
        and index) or ``None`` (unchanged; until set, scikit-learn's global ``transform_output`` when
        scikit-learn is loaded). Returns ``self``.

        Examples
        --------
        >>> Privatizer().set_output(transform="pandas")._sklearn_output_config
        {'transform': 'pandas'}
        """
        if transform is not None:
            self._sklearn_output_config = {"transform": as_choice(transform, OUTPUT_CONTAINERS, "transform")}
        return self

    def __repr__(self) -> str:
        return f"Privatizer({', '.join(f'{k}={v!r}' for k, v in self.get_params().items())})"

    # --- fit, transform, estimate ---------------------------------------------------------------------

    def fit(self, X: Any, y: Any = None, prior_sample: Any = None) -> "Privatizer":
        """Design one mechanism per column of ``X`` from the declared categories and a public prior.

        ``X`` itself is only checked (every value must be a declared category, before any design) —
        except with ``prior="private"``, which spends ``prior_budget`` of each record's budget on a
        private estimate of the prior, and ``categories="infer"``.

        Parameters
        ----------
        X
            One column (a list, a 1-D array, an ``(n, 1)`` array, a Series) or a table (a 2-D array,
            a list of rows, a DataFrame) of categorical values.
        y
            Ignored (scikit-learn's signature).
        prior_sample
            A separate *public* sample with the columns of ``X``: its frequencies over the declared
            categories become the prior (the ℓ1-ball's center with ``robust_delta``).

        Raises
        ------
        MechDesignError
            For undeclared categories, values not declared, a prior of the wrong size or naming an
            unknown category, parameters that contradict each other, or a design that does not succeed.

        Examples
        --------
        >>> Privatizer("dp", 2.0, categories=["x", "y", "z"]).fit(["x", "y", "y"]).mechanism_.shape
        (3, 3)
        """
        budget = as_budget(self.budget, "budget", infinite=True)
        for name in [name for name in self.__dict__ if name.endswith("_") and not name.startswith("_")]:
            del self.__dict__[name]
        table = as_table(X, "X")
        count = table.values.shape[1]
        columns = _column_names(table.feature_names, count)
        repeated = sorted({name for name in columns if columns.count(name) > 1})
        if repeated:
            raise MechDesignError(f"X repeats the column name(s) {repeated}: every column needs its own name")
        objective = self._objective_kind()
        if not (self.report_budget is None or isinstance(self.report_budget, ReportBudget)):
            raise MechDesignError(f"report_budget must be a ReportBudget or None, got {_short(self.report_budget)}")
        categories, codes = self._categories(table, columns)
        priors, mode, sample_codes = self._priors(categories, columns, prior_sample, budget)
        first_budget = 0.0 if mode != "private-prior" else as_budget(self.prior_budget, "prior_budget")
        ledger = Ledger()
        first_rng = _first_round_rng(self.random_state) if mode == "private-prior" else None
        fitted = []
        for j, name in enumerate(columns):
            prior = priors[j]
            if mode == "private-prior":
                prior = self._first_round(codes[j], len(categories[j]), first_budget / count, first_rng, ledger, name)
            release_budget = (budget - first_budget) / count
            fitted.append(self._design_column(categories[j], prior, release_budget, objective,
                                              None if sample_codes is None else sample_codes[j]))
            record_release(ledger, fitted[-1][2], f"{name}: release")
        self.n_features_in_ = count
        if table.feature_names is not None:
            self.feature_names_in_ = table.feature_names
        self.categories_ = [as_labels(column) for column in categories]
        self.priors_, self.notions_, self.mechanisms_, self.results_, self.outputs_, self.radii_ = (
            [list(entry) for entry in zip(*fitted)])
        self.column_budget_ = budget / count
        self.mode_ = "inferred" if _infers(self.categories) else mode
        self.guarantee_ = MODES[self.mode_]
        self.ledger_ = ledger
        self.privacy_spent_ = ledger.pure_epsilon()
        return self

    def transform(self, X: Any) -> Any:
        """Privatize ``X``: one output label per value, an object array of the shape of ``X``.

        Draws from the operating system's entropy unless ``random_state`` is set (then it warns
        :class:`~mechdesign.randomness.SeededReleaseWarning`). Every value is encoded (one dictionary
        lookup) before anything is drawn.

        Raises :class:`~mechdesign.exceptions.UnknownCategoryError` for a value that is not a category.

        A Dask Series or DataFrame is privatized partition by partition on the workers
        (:func:`~mechdesign.parallel.privatize_partitions`): the result is a lazy Dask collection of the
        same partitions, each drawn from the operating system's entropy where it runs.

        Examples
        --------
        >>> privatizer = Privatizer("dp", 1.0, categories=[1, "a"]).fit([1, "a"] * 5)
        >>> private = privatizer.transform([1, "a", 1])
        >>> private.dtype, set(private) <= {1, "a"}  # 1 stays the integer 1
        (dtype('O'), True)
        """
        self._check_fitted()
        if is_dask_collection(X):
            return privatize_partitions(self, X)
        table = self._check_table(as_table(X, "X"))
        result = self._privatized(table, release_rng(self.random_state))
        if self._output_container() == "pandas":
            import pandas  # the container asked for

            return pandas.DataFrame(result, columns=self.get_feature_names_out(),
                                    index=X.index if hasattr(X, "columns") else None)
        return result[:, 0] if table.ndim == 1 else result

    def fit_transform(self, X: Any, y: Any = None, prior_sample: Any = None) -> np.ndarray:
        """:meth:`fit` then :meth:`transform` on the same data.

        Examples
        --------
        >>> Privatizer("dp", 1.0, categories=["x", "y"]).fit_transform(["x", "y", "y"]).shape
        (3,)
        """
        return self.fit(X, y, prior_sample=prior_sample).transform(X)

    def estimate_frequencies(self, X_private: Any) -> FrequencyEstimate | list[FrequencyEstimate]:
        """Unbiased estimates of the categories' frequencies from privatized data, with standard errors
        and the projection onto the simplex (:func:`~mechdesign.frequency.estimate_frequencies`): one
        :class:`~mechdesign.frequency.FrequencyEstimate` for one column, else a list (one per column).

        Raises :class:`~mechdesign.exceptions.NotEstimableError` when the mechanism does not
        determine some categories (then fit with ``objective="estimation"``).

        A Dask Series or DataFrame is counted partition by partition on the workers and only the counts
        are gathered (:func:`~mechdesign.parallel.tally_partitions`): the estimate is the one of the
        same labels in memory.

        Examples
        --------
        >>> privatizer = Privatizer("dp", 50.0, categories=["x", "y"]).fit(["x", "y"])
        >>> privatizer.estimate_frequencies(["x", "x", "y", "x"]).estimate.round(6).tolist()
        [0.75, 0.25]
        """
        self._check_fitted()
        if is_dask_collection(X_private):
            tallies = tally_partitions(self, X_private)
        else:
            tallies = self._tallies(self._check_table(as_table(X_private, "X_private")))
        if tallies[0][1] == 0:
            raise MechDesignError("X_private has no rows: no privatized records to estimate frequencies from")
        estimates = [estimate_from_tally(counts, total, self.mechanisms_[j], tuple(self.categories_[j]))
                     for j, (counts, total) in enumerate(tallies)]
        return estimates[0] if len(estimates) == 1 else estimates

    def _privatized(self, table: Table, rng: np.random.Generator | None) -> np.ndarray:
        """The output labels of a checked table (an object array of its shape), every value encoded first."""
        codes = [encode_values(table.values[:, j], index_of(self.categories_[j]), _column_label(name))
                 for j, name in enumerate(self.get_feature_names_out())]
        result = np.empty(table.values.shape, dtype=object)
        for j, column in enumerate(codes):
            mechanism = self.mechanisms_[j]
            if isinstance(mechanism, FrequencyOracle):  # labelled report by report (its outputs may not be listed)
                result[:, j] = mechanism.labels(mechanism.privatize(column, rng), tuple(self.categories_[j]))
            else:
                result[:, j] = as_labels(self.outputs_[j])[mechanism.sample(column, rng)]
        return result

    def _tallies(self, table: Table) -> list[tuple[np.ndarray, int]]:
        """Per column of a checked table of privatized labels, its additive counts and rows
        (:func:`~mechdesign.frequency.estimate_from_tally`): summed over parts, those of the whole."""
        tallies = []
        for j, name in enumerate(self.get_feature_names_out()):
            mechanism, label = self.mechanisms_[j], _column_label(name, "X_private")
            if isinstance(mechanism, FrequencyOracle):
                counts = None
                if self.outputs_[j] is not None:  # listed labels: one dictionary lookup each
                    with suppress(MechDesignError):  # else (labels read back as lists, say) label by label
                        counts = mechanism.tally(mechanism.index_reports(encode_values(
                            table.values[:, j], index_of(self.outputs_[j]), label, kind="output of the mechanism")))
                if counts is None:
                    counts = mechanism.tally(mechanism.reports_from_labels(table.values[:, j],
                                                                           tuple(self.categories_[j]), label))
            else:
                outputs = encode_values(table.values[:, j], index_of(self.outputs_[j]), label,
                                        kind="output of the mechanism")
                counts = np.bincount(outputs, minlength=mechanism.n_outputs)
            tallies.append((counts, table.values.shape[0]))
        return tallies

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Names of the privatized columns: those of the input (each column keeps its name).

        ``input_features`` (optional) must equal ``feature_names_in_`` when there are any, and have one
        name per column; default: ``feature_names_in_``, else ``x0, x1, …``.

        Examples
        --------
        >>> Privatizer("dp", 1.0, categories=[["a", "b"], [0, 1]]).fit([["a", 0], ["b", 1]]).get_feature_names_out()
        array(['x0', 'x1'], dtype=object)
        """
        self._check_fitted()
        fitted = getattr(self, "feature_names_in_", None)
        if input_features is None:
            return np.asarray(_column_names(fitted, self.n_features_in_), dtype=object)
        names = np.asarray(list(input_features), dtype=object)
        check_count(names.size, self.n_features_in_, "input_features", "names (one per column)")
        if fitted is not None and not np.array_equal(names, fitted):
            raise MechDesignError(f"input_features {names.tolist()} are not the feature names seen in fit "
                                  f"{fitted.tolist()}")
        return names

    # --- files ----------------------------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write the fitted privatizer to ``path`` (a ``"privatizer"`` file of :mod:`mechdesign.files`,
        atomically): its parameters, one mechanism record per column (categories, output labels, prior,
        notion, certified result) and its ledger; :meth:`load` reads it back exactly.

        Needs the notion and objective given by name and categories that are JSON scalars (strings,
        numbers, booleans); a prior given as counts or a mapping is saved as the probability vector it means.

        Examples
        --------
        >>> import tempfile
        >>> from pathlib import Path
        >>> privatizer = Privatizer("dp", 1.0, categories=["a", "b"]).fit(["a", "b", "b"])
        >>> target = privatizer.save(Path(tempfile.mkdtemp()) / "p.json")
        >>> Privatizer.load(target).mechanism_ == privatizer.mechanism_
        True
        """
        return write_envelope(path, "privatizer", self.to_dict())

    @classmethod
    def load(cls, path: str | Path) -> "Privatizer":
        """The fitted privatizer a :meth:`save` wrote (a :class:`~mechdesign.files.FileFormatError` for
        another file, version or kind, a bad checksum or a payload that is not a privatizer's).

        Examples
        --------
        >>> import tempfile
        >>> from pathlib import Path
        >>> target = Privatizer("dp", 2.0, categories=[1, 2]).fit([1, 2]).save(Path(tempfile.mkdtemp()) / "p.json")
        >>> Privatizer.load(target).categories_
        [array([1, 2], dtype=object)]
        """
        return cls.from_dict(read_envelope(path, ["privatizer"]), str(path))

    def to_dict(self) -> dict[str, Any]:
        """The payload of a ``"privatizer"`` file (strict JSON): ``params``, ``fitted``, ``columns`` (one
        :func:`~mechdesign.files.mechanism_payload` per column) and ``ledger``.

        Examples
        --------
        >>> record = Privatizer("dp", 1.0, categories=["x", "y"]).fit(["x", "y"]).to_dict()
        >>> record["columns"][0]["inputs"], record["columns"][0]["outputs"], record["fitted"]["mode"]
        (['x', 'y'], ['x', 'y'], 'declared')
        """
        self._check_fitted()
        for name in ("notion", "objective"):
            value = getattr(self, name)
            if not (isinstance(value, str) or value is None and name == "objective"):
                raise MechDesignError(f"save needs {name} given by name (a string), got {_short(value)}")
        if not (self.random_state is None or isinstance(self.random_state, int) and not isinstance(self.random_state, bool)):
            raise MechDesignError(f"save needs random_state None or an integer seed, got {_short(self.random_state)}")
        names = self.get_feature_names_out()
        columns = []
        for j, name in enumerate(names):
            try:
                record = record_from_result(
                    self.results_[j], inputs=self.categories_[j].tolist(), outputs=self.outputs_[j],
                    prior=self.priors_[j], prior_source=self.mode_, objective=self.objective,
                    notion_names={self.notions_[j].label: self.notion})
            except MechDesignError as exc:
                raise MechDesignError(f"save needs categories that are JSON scalars (strings, numbers, booleans): "
                                      f"column {name!r}: {exc}") from exc
            deployment = {"column": str(name), "radius": json_number(self.radii_[j])}
            columns.append(mechanism_payload(replace(record, deployment=deployment)))
        private = isinstance(self.prior, str) and self.prior == "private"
        params = {
            "notion": self.notion, "budget": json_number(as_budget(self.budget, "budget", infinite=True)),
            "objective": self.objective,
            "categories": "infer" if _infers(self.categories) else [column.tolist() for column in self.categories_],
            "prior": (self.prior if self.prior is None or private
                      else [prior.probabilities.tolist() for prior in self.priors_]),
            "prior_budget": json_number(None if self.prior_budget is None else float(self.prior_budget)),
            "robust_delta": None if self.robust_delta is None else float(self.robust_delta),
            "solver": self.solver, "random_state": self.random_state,
            "report_budget": None if self.report_budget is None else {
                name: json_number(getattr(self.report_budget, name)) for name in REPORT_BUDGET_FIELDS},
        }
        fitted = {"n_features_in": self.n_features_in_, "mode": self.mode_,
                  "feature_names_in": None if "feature_names_in_" not in self.__dict__ else names.tolist(),
                  "column_budget": json_number(self.column_budget_)}
        return {"params": params, "fitted": fitted, "columns": columns, "ledger": self.ledger_.to_dict()}

    @classmethod
    def from_dict(cls, payload: Mapping[str, Any], source: str = "privatizer") -> "Privatizer":
        """The fitted privatizer of a :meth:`to_dict` payload (exact inverse); a malformed payload is a
        :class:`~mechdesign.files.FileFormatError` naming ``source``.

        Examples
        --------
        >>> privatizer = Privatizer("dp", 1.0, categories=["x", "y"]).fit(["x", "y"])
        >>> Privatizer.from_dict(privatizer.to_dict()).outputs_
        [('x', 'y')]
        """
        try:
            params = {key: NON_FINITE.get(value, value) if isinstance(value, str) and key.endswith("budget") else value
                      for key, value in payload["params"].items()}
            if params.get("report_budget") is not None:
                limits = params["report_budget"]
                as_members(list(limits), REPORT_BUDGET_FIELDS, "report_budget", kind="field")
                params["report_budget"] = ReportBudget(**{key: NON_FINITE.get(value, value) if isinstance(value, str)
                                                          else value for key, value in limits.items()})
            privatizer = cls(**params)
            fitted = payload["fitted"]
            records = [mechanism_from_payload(column, f"{source}: columns[{j}]")
                       for j, column in enumerate(payload["columns"])]
            count = fitted["n_features_in"]
            if count != len(records) or count < 1:
                raise MechDesignError(f"n_features_in is {count!r} for {len(records)} columns")
            privatizer.n_features_in_ = count
            if fitted["feature_names_in"] is not None:
                privatizer.feature_names_in_ = np.asarray(fitted["feature_names_in"], dtype=object)
            privatizer.categories_ = [as_labels(record.inputs) for record in records]
            privatizer.priors_ = [record.prior for record in records]
            privatizer.radii_ = [NON_FINITE.get(radius, radius) if isinstance(radius, str) else radius
                                 for radius in (record.deployment["radius"] for record in records)]
            privatizer.notions_ = [
                privatizer._build_notion(prior) if radius is None else PointwiseMaximalLeakage(L1Ball(prior, radius))
                for prior, radius in zip(privatizer.priors_, privatizer.radii_)]
            privatizer.mechanisms_ = [record.mechanism for record in records]
            privatizer.results_ = [record.result for record in records]
            privatizer.outputs_ = [record.outputs for record in records]
            privatizer.column_budget_ = as_budget(NON_FINITE.get(fitted["column_budget"], fitted["column_budget"]),
                                                  "column_budget", infinite=True)
            privatizer.mode_ = as_choice(fitted["mode"], tuple(MODES), "mode")
            privatizer.guarantee_ = MODES[privatizer.mode_]
            privatizer.ledger_ = Ledger.from_dict(payload["ledger"])
            privatizer.privacy_spent_ = privatizer.ledger_.pure_epsilon()
        except FileFormatError:
            raise
        except (MechDesignError, KeyError, TypeError, AttributeError) as exc:
            raise FileFormatError(f"{source} is not a valid privatizer payload: "
                                  f"{'lacks the field ' if isinstance(exc, KeyError) else ''}{exc}") from exc
        return privatizer

    # --- single-column views ---------------------------------------------------------------------------

    @property
    def prior_(self) -> Prior:
        """The prior of the single column (``priors_[0]``)."""
        return self._single("priors_")

    @property
    def notion_(self) -> PrivacyNotion:
        """The notion of the single column (``notions_[0]``)."""
        return self._single("notions_")

    @property
    def mechanism_(self) -> Mechanism:
        """The mechanism of the single column (``mechanisms_[0]``)."""
        return self._single("mechanisms_")

    @property
    def result_(self) -> Result:
        """The result of the single column (``results_[0]``)."""
        return self._single("results_")

    @property
    def output_labels_(self) -> tuple:
        """The output labels of the single column (``outputs_[0]``)."""
        return self._single("outputs_")

    @property
    def radius_(self) -> float | None:
        """The ℓ1-ball radius of the single column (``radii_[0]``)."""
        return self._single("radii_")

    # --- helpers ------------------------------------------------------------------------------------

    def _single(self, name: str) -> Any:
        self._check_fitted()
        if self.n_features_in_ != 1:
            raise MechDesignError(f"{name[:-2]}_ is for one column; this Privatizer has {self.n_features_in_}: "
                                  f"use {name}[j]")
        return getattr(self, name)[0]

    def _output_container(self) -> str:
        """``"default"`` or ``"pandas"``: :meth:`set_output`'s, else scikit-learn's global one if it is loaded."""
        chosen = getattr(self, "_sklearn_output_config", {}).get("transform")
        if chosen is None and "sklearn" in sys.modules:
            chosen = sys.modules["sklearn"].get_config()["transform_output"]
        return as_choice(chosen or "default", OUTPUT_CONTAINERS, "transform_output")

    def _check_fitted(self) -> None:
        if not self.__sklearn_is_fitted__():
            raise NotFittedError("this Privatizer is not fitted yet: call fit(X) first")

    def _check_table(self, table: Table) -> Table:
        """``table`` if it has the fitted columns (scikit-learn's messages and warnings on names)."""
        count = table.values.shape[1]
        if count != self.n_features_in_:
            hint = "; Reshape your data: a 1-D X is one column" if table.ndim == 1 else ""
            raise MechDesignError(f"X has {count} features, but Privatizer is expecting {self.n_features_in_} "
                                  f"features as input{hint}")
        fitted, given = getattr(self, "feature_names_in_", None), table.feature_names
        if fitted is not None and given is not None and not np.array_equal(fitted, given):
            raise MechDesignError(f"The feature names should match those that were passed during fit: "
                                  f"{given.tolist()} given, {fitted.tolist()} fitted")
        if (fitted is None) != (given is None):
            warnings.warn("X does not have valid feature names, but Privatizer was fitted with feature names"
                          if given is None else "X has feature names, but Privatizer was fitted without feature names",
                          UserWarning, stacklevel=3)
        return table

    def _objective_kind(self) -> Any:
        """``"estimation"``, ``"distortion"``, an Objective or a callable (validated before any design)."""
        if self.objective is None:
            return "distortion"
        if isinstance(self.objective, str):
            if self.objective not in OBJECTIVES:
                raise MechDesignError(f"objective must be one of {list(OBJECTIVES)}, None, an Objective or a "
                                      f"callable, got {self.objective!r}")
            return self.objective
        if isinstance(self.objective, Objective) or callable(self.objective):
            return self.objective
        raise MechDesignError(f"objective must be one of {list(OBJECTIVES)}, None, an Objective or a callable, "
                              f"got {_short(self.objective)}")

    def _categories(self, table: Table, columns: list[str]) -> tuple[list[tuple], list[np.ndarray]]:
        """Per column, the categories and the column's codes (values not declared: a named error)."""
        if self.categories is None:
            raise MechDesignError(
                "categories must be declared: pass categories=[...] (the alphabet of the column, or one list per "
                "column), which the published mechanism reveals instead of the data; or categories='infer' to read "
                "them from the data (the mechanism then reveals which categories occur)")
        if _infers(self.categories):
            warnings.warn(DataDependentDesignWarning(
                "categories='infer' reads the categories from the data privatized, so the published mechanism "
                "reveals which ones occur (a category held by one record reveals that record), which the budget "
                "does not cover; declare categories=[...] for a release that is private"), stacklevel=3)
            learned = [learn_categories(table.values[:, j], _column_label(name), table.declared[j])
                       for j, name in enumerate(columns)]
            return [entry[0] for entry in learned], [entry[1] for entry in learned]
        declared = [check_categories(spec, "categories" if len(columns) == 1 else f"categories[{j}]")
                    for j, spec in enumerate(_per_column(self.categories, len(columns), "categories"))]
        codes = [encode_values(table.values[:, j], index_of(declared[j]), _column_label(name),
                               kind="declared category")
                 for j, name in enumerate(columns)]
        return declared, codes

    def _priors(self, categories: list[tuple], columns: list[str], prior_sample: Any,
                budget: float) -> tuple[list[Prior | None], str, list[np.ndarray] | None]:
        """Per column the public prior (``None`` in the private-prior mode), the mode, and the codes of
        ``prior_sample`` (for a robust ball)."""
        count = len(columns)
        private = isinstance(self.prior, str) and self.prior == "private"
        if self.prior_budget is not None and not private:
            raise MechDesignError(f"prior_budget is spent only with prior='private', got prior={_short(self.prior)}")
        if self.robust_delta is not None and (prior_sample is None or self.notion != "pml"):
            raise MechDesignError(
                f"robust_delta designs for the ℓ1-ball around a public sample's frequencies under notion='pml': pass "
                f"fit(..., prior_sample=...) (it is never estimated from the data privatized), got "
                f"notion={_short(self.notion)}, prior_sample={'None' if prior_sample is None else 'given'}")
        if prior_sample is not None:
            if self.prior is not None:
                raise MechDesignError(f"give the prior once: prior={_short(self.prior)} and a prior_sample are both set")
            sample = as_table(prior_sample, "prior_sample")
            check_count(sample.values.shape[1], count, "prior_sample", "columns (those of X)")
            codes = [encode_values(sample.values[:, j], index_of(categories[j]),
                                   _column_label(name, "prior_sample"), kind="declared category")
                     for j, name in enumerate(columns)]
            priors = [Prior(np.bincount(column, minlength=len(categories[j])) / column.size)
                      for j, column in enumerate(codes)]
            return priors, "public-sample", codes
        if private:
            if not _is_local_dp(self.notion):
                raise MechDesignError(f"prior='private' is for local DP only (notion='dp'): its first round is a "
                                      f"local-DP release that composes with the second, got notion={_short(self.notion)}")
            if self.prior_budget is None:
                raise MechDesignError("prior='private' needs prior_budget: the part of the budget spent on estimating "
                                      "the prior")
            first = as_budget(self.prior_budget, "prior_budget")
            if not 0 < first < budget:
                raise InvalidBudgetError(f"prior_budget must satisfy 0 < prior_budget < budget = {budget!r}, "
                                         f"got {first!r}")
            return [None] * count, "private-prior", None
        if self.prior is None:
            return [Prior.uniform(len(column)) for column in categories], "declared", None
        specs = _per_column(self.prior, count, "prior", nested=(Sequence, np.ndarray, Mapping, Prior))
        name = "prior" if count == 1 else "prior[{}]"
        return ([column_prior(spec, categories[j], name.format(j)) for j, spec in enumerate(specs)],
                "public-prior", None)

    def _first_round(self, codes: np.ndarray, size: int, budget: float, rng: np.random.Generator | None,
                     ledger: Ledger, name: str) -> Prior:
        """The paid mode's first round: privatize the column by the estimation-optimal LDP mechanism
        (chosen for a uniform prior, so it does not depend on the data), estimate the prior, never
        release the outputs."""
        first = estimation_mechanism(DifferentialPrivacy(), budget, Prior.uniform(size),
                                     report_budget=self.report_budget).mechanism
        estimate = estimate_frequencies(first.privatize(codes, rng), first)
        record_release(ledger, first, f"{name}: prior estimate (not released)")
        return Prior(estimate.projected / estimate.projected.sum())

    def _design_column(self, categories: tuple, prior: Prior, budget: float, objective: Any,
                       sample_codes: np.ndarray | None) -> tuple:
        """``(prior, notion, mechanism, result, output labels, radius)`` of one column."""
        radius = None
        if self.robust_delta is not None:
            delta = as_failure_probability(self.robust_delta, "robust_delta")
            ball = L1Ball.from_samples(sample_codes, len(categories), delta)
            notion: PrivacyNotion = PointwiseMaximalLeakage(ball)
            radius = ball.radius
        else:
            notion = self._build_notion(prior)
        if objective == "estimation":
            start = time.perf_counter()
            chosen = _estimation_choice(notion, budget, prior, self.report_budget)
            result = _estimation_result(chosen, notion, budget, start)
            mechanism = chosen.mechanism
            if not isinstance(mechanism, FrequencyOracle):  # one category, or the identity
                return prior, notion, mechanism, result, categories, radius
            labels = mechanism.output_labels(categories) if is_listed(mechanism) else None
            return prior, notion, mechanism, result, labels, radius
        built = ExpectedDistortion(prior) if objective == "distortion" else (
            objective if isinstance(objective, Objective) else objective(prior))
        if self.robust_delta is not None:
            result = design_from_samples(sample_codes, len(categories), budget, delta, built, solver=self.solver).result
        else:
            result = design(notion, budget, built, solver=self.solver)
        if not result.success:
            raise MechDesignError(f"the design did not succeed ({result.status}): {result.message}")
        mechanism = result.mechanism
        labels = categories if mechanism.n_outputs == len(categories) else tuple(range(mechanism.n_outputs))
        return prior, notion, mechanism, result, labels, radius

    def _build_notion(self, prior: Prior) -> PrivacyNotion:
        if isinstance(self.notion, PrivacyNotion):
            return self.notion
        if isinstance(self.notion, str) and self.notion in NOTIONS:
            return NOTIONS[self.notion](prior)
        if callable(self.notion) and not isinstance(self.notion, (str, type)):
            return self.notion(prior)
        raise MechDesignError(f"notion must be one of {sorted(NOTIONS)}, a PrivacyNotion or a callable, "
                              f"got {_short(self.notion)}")


def column_prior(spec: Any, categories: Sequence[Any], name: str = "prior") -> Prior:
    """A public prior over ``categories``: a probability vector or whole counts (normalized) in their
    order, a mapping ``{category: weight}`` (absent categories weigh 0), or a :class:`Prior`.

    A mapping naming a category not declared, or a vector of another size, is a named error.

    Examples
    --------
    >>> column_prior({"b": 3, "a": 1}, ("a", "b", "c"))
    Prior([0.25 0.75 0.  ])
    >>> column_prior([0.5, 0.5], ("a", "b", "c"))
    Traceback (most recent call last):
    mechdesign.exceptions.ShapeMismatchError: prior has 2 entries, expected 3 (one per category, in the order of ['a', 'b', 'c'])
    """
    if isinstance(spec, Prior):
        return as_prior(spec, len(categories))
    if isinstance(spec, Mapping):
        lookup = index_of(categories)
        as_members(list(spec), lookup, name, kind="declared category")
        vector = np.zeros(len(categories))
        vector[[lookup[key] for key in spec]] = as_real_vector(list(spec.values()), name)
    else:
        vector = as_real_vector(spec, name)
        if vector.size != len(categories):
            raise ShapeMismatchError(f"{name} has {vector.size} entries, expected {len(categories)} (one per "
                                     f"category, in the order of {_short(list(categories))})")
    counts = vector.min() >= 0 and vector.sum() > 0 and bool(np.all(vector == np.round(vector)))
    return Prior(vector / vector.sum() if counts else vector)


def _estimation_choice(notion: PrivacyNotion, budget: float, prior: Prior,
                       report_budget: ReportBudget | None) -> EstimationMechanism:
    """The estimation mechanism at ``budget``; at an infinite budget the identity (exact frequencies), at
    0 randomized response at ε = 0 (uniform reports: nothing can be estimated, variance infinite)."""
    size = prior.size
    if math.isinf(budget):
        probabilities = prior.probabilities
        return EstimationMechanism("identity", Mechanism(np.eye(size)), math.inf, tuple(range(size)),
                                   float(np.sum(probabilities * (1 - probabilities))), (),
                                   "no privacy: the data released as it is")
    if budget == 0 and size > 1:
        return EstimationMechanism("randomized-response", RandomizedResponse(size, 0.0), 0.0, tuple(range(size)),
                                   math.inf, (), "budget 0: the reports do not depend on the data, so no frequency "
                                   "can be estimated (every estimator's variance is infinite)")
    return estimation_mechanism(notion, budget, prior, report_budget=report_budget)


def _estimation_result(chosen: EstimationMechanism, notion: PrivacyNotion, budget: float, start: float) -> Result:
    """The certified result of an estimation mechanism chosen from ``start`` on (its ``solve_time``): privacy
    re-measured (local DP in closed form for an oracle), no optimality claim — the certification tail,
    :func:`~mechdesign.methods.certified.mechanism_result`, without a bound; the message states what is
    claimed, or the budget a measurement exceeds (then ``"inaccurate"``)."""
    label = notion.label
    mechanism = chosen.mechanism
    measured = (mechanism.local_dp_leakage() if isinstance(mechanism, FrequencyOracle) and _is_local_dp(notion)
                else notion.measure(mechanism))
    work = f"{chosen.name} at LDP parameter {chosen.ldp_epsilon:.6g}"
    claim = (f"{work}: privacy certified; no optimality claim (the oracle of least exact variance N·Σ Var(p̂_x): "
             f"{chosen.claim})")
    return mechanism_result(mechanism, chosen.variance, None, work, start, measured={label: measured},
                            budgets={label: budget}, verdict=lambda certified, gap: claim, certified=False,
                            method="estimation-family")


def record_release(ledger: Ledger, mechanism: Mechanism, name: str, uses: int = 1) -> None:
    """Record ``uses`` releases of ``mechanism`` in ``ledger``: by its matrix, or for a frequency oracle whose
    matrix is larger than :data:`LEDGER_DENSE_ENTRIES` by its LDP parameter (accounted as its worst case,
    binary randomized response at that ε). The one rule of :class:`Privatizer` and ``mechdesign account``.

    Examples
    --------
    >>> from mechdesign.mechanisms import OptimizedUnaryEncoding
    >>> ledger = Ledger()
    >>> record_release(ledger, OptimizedUnaryEncoding(200, 1.0), "large", uses=2)
    >>> entry = ledger.entries[0]
    >>> entry.mechanism is None, entry.epsilon, entry.uses  # 200 × 2^200 entries: by its ε
    (True, 1.0, 2)
    """
    if isinstance(mechanism, FrequencyOracle) and mechanism.size * mechanism.n_outputs > LEDGER_DENSE_ENTRIES:
        ledger.record_epsilon(mechanism.local_dp_leakage(), name, uses=uses)
    else:
        ledger.record(mechanism, uses, name)


def _first_round_rng(random_state: Any) -> np.random.Generator | None:
    """The first round's generator: the operating system's entropy, or a stream of its own spawned from
    the seed (so the seeded first round and release do not share draws)."""
    generator = release_rng(random_state)
    return None if generator is None else generator.spawn(1)[0]


def _is_local_dp(notion: Any) -> bool:
    if isinstance(notion, str):
        return notion == "dp"
    return isinstance(notion, DifferentialPrivacy) and notion.neighbours.is_complete


def _infers(categories: Any) -> bool:
    return isinstance(categories, str) and categories == "infer"


def _per_column(value: Any, count: int, name: str,
                nested: tuple[type, ...] = (list, tuple, np.ndarray)) -> list[Any]:
    """One entry per column: for one column ``value`` itself (or ``[value]``'s only item when that is
    ``nested``), for several a sequence of ``count`` entries."""
    is_list = isinstance(value, (list, tuple)) or isinstance(value, np.ndarray) and value.ndim > 0
    if count == 1:
        single = is_list and len(value) == 1 and isinstance(value[0], nested) and not isinstance(value[0], str)
        return [value[0] if single else value]
    if not is_list or len(value) != count:
        raise MechDesignError(f"{name} must give one entry per column ({count} columns), got {_short(value)}")
    return list(value)


def _column_names(feature_names: np.ndarray | None, count: int) -> list[str]:
    return [str(name) for name in feature_names] if feature_names is not None else [f"x{j}" for j in range(count)]


def _column_label(name: str, data: str = "X") -> str:
    """How messages name a column: ``X column 'x0'``."""
    return f"{data} column {name!r}"


def _parameter_names() -> tuple[str, ...]:
    return tuple(name for name in inspect.signature(Privatizer.__init__).parameters if name != "self")
