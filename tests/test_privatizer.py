"""Tests of mechdesign.privatizer: data-independent design, randomness, labels, several columns, files."""

import dataclasses
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import DifferentialPrivacy, MaximalLeakage, randomized_response
from mechdesign.exceptions import (
    InvalidBudgetError,
    MechDesignError,
    NotEstimableError,
    NotFittedError,
    ShapeMismatchError,
    UnknownCategoryError,
)
from mechdesign.files import FileFormatError, write_envelope
from mechdesign.privatizer import MODES, DataDependentDesignWarning, Privatizer, column_prior
from mechdesign.randomness import SeededReleaseWarning
from mechdesign.result import GAP_RTOL, within_budget

#: Sampling tolerance of estimates, in standard errors (seeded draws; 5 se is a 6e-7 two-sided event).
STANDARD_ERRORS = 5
LETTERS = ("a", "b", "c", "d")
SKEWED = ["a"] * 60 + ["b"] * 25 + ["c"] * 10 + ["d"] * 5


def seeded(**params):
    """A privatizer whose releases are reproducible (tests only), without the warning."""
    return Privatizer(random_state=0, **params)


def release(privatizer, data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeededReleaseWarning)
        return privatizer.transform(data)


def published(privatizer):
    """What is published about each column: mechanism, labels, prior, certificate (its timing aside)."""
    return [(mechanism, outputs, tuple(categories), prior, dataclasses.replace(result, solve_time=0.0))
            for mechanism, outputs, categories, prior, result in zip(
                privatizer.mechanisms_, privatizer.outputs_, privatizer.categories_, privatizer.priors_,
                privatizer.results_)]


# --- 1. data-independent design -------------------------------------------------------------------------


@pytest.mark.parametrize("objective", ["estimation", "distortion"])
def test_neighbouring_data_sets_publish_the_same_mechanism(objective):
    # Issue 29: in the default mode the published mechanism does not depend on the data, so two data
    # sets that differ in one record — here also in which categories occur ("d" only in the second) —
    # give the same mechanism, labels, prior and certificate.
    first = ["a"] * 30 + ["b"] * 20 + ["c"] * 10
    second = first[:-1] + ["d"]
    designs = [Privatizer("dp", 1.0, objective, categories=LETTERS).fit(data) for data in (first, second)]
    assert published(designs[0]) == published(designs[1])
    assert designs[0].mode_ == "declared" and designs[0].guarantee_ == MODES["declared"]


@given(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=30), st.integers(0, 29), st.sampled_from(LETTERS))
def test_any_one_record_changed_leaves_the_mechanism_unchanged(data, position, replacement):
    neighbour = list(data)
    neighbour[position % len(data)] = replacement
    designs = [Privatizer("dp", 0.7, categories=LETTERS).fit(column) for column in (data, neighbour)]
    assert published(designs[0]) == published(designs[1])


def test_categories_must_be_declared_or_inferred_explicitly():
    with pytest.raises(MechDesignError, match=r"categories must be declared: pass categories=\[\.\.\.\].*'infer'"):
        Privatizer("dp", 1.0).fit(SKEWED)
    with pytest.warns(DataDependentDesignWarning, match="reveals which ones occur"):
        inferred = Privatizer("dp", 1.0, categories="infer").fit(SKEWED)
    assert inferred.mode_ == "inferred" and inferred.guarantee_.startswith("Not private at release")
    assert inferred.categories_[0].tolist() == list(LETTERS)
    assert all(sentence.count(". ") == 0 and sentence.endswith(".") for sentence in MODES.values())  # one sentence


def test_a_value_not_declared_is_refused_before_any_design():
    privatizer = Privatizer("dp", 1.0, categories=("a", "b"))
    with pytest.raises(UnknownCategoryError, match=r"X column 'x0' holds 2 value\(s\) that are not a known declared "
                                                   r"category: \['c', 'd'\]"):
        privatizer.fit(SKEWED)
    assert not privatizer.__sklearn_is_fitted__()
    privatizer.fit(["a", "b"])
    with pytest.raises(UnknownCategoryError, match="not a known declared category"):
        privatizer.fit(["a", "z"])
    assert not privatizer.__sklearn_is_fitted__()  # a failed fit leaves nothing of the previous one


def test_public_priors_in_every_form():
    assert np.allclose(Privatizer("dp", 1.0, categories=LETTERS).fit(SKEWED).prior_.probabilities, 0.25)
    given_prior = Privatizer("dp", 1.0, categories=LETTERS, prior=[0.4, 0.3, 0.2, 0.1]).fit(SKEWED)
    assert given_prior.mode_ == "public-prior" and given_prior.prior_.probabilities.tolist() == [0.4, 0.3, 0.2, 0.1]
    assert column_prior([6, 2, 2, 0], LETTERS).probabilities.tolist() == [0.6, 0.2, 0.2, 0.0]  # counts
    assert column_prior({"c": 1, "a": 3}, LETTERS).probabilities.tolist() == [0.75, 0.0, 0.25, 0.0]
    public = ["a"] * 5 + ["b"] * 3 + ["c"] * 2
    sampled = Privatizer("dp", 1.0, categories=LETTERS).fit(SKEWED, prior_sample=public)
    assert sampled.mode_ == "public-sample" and sampled.prior_.probabilities.tolist() == [0.5, 0.3, 0.2, 0.0]
    with pytest.raises(MechDesignError, match=r"prior holds 1 value\(s\) that are not a known declared category: \['e'\]"):
        Privatizer("dp", 1.0, categories=LETTERS, prior={"a": 1, "e": 1}).fit(SKEWED)
    with pytest.raises(ShapeMismatchError, match=r"prior has 3 entries, expected 4 \(one per category"):
        Privatizer("dp", 1.0, categories=LETTERS, prior=[0.5, 0.25, 0.25]).fit(SKEWED)
    with pytest.raises(MechDesignError, match="prior sums to 0.9"):
        column_prior([0.5, 0.4, 0.0, 0.0], LETTERS)
    with pytest.raises(UnknownCategoryError, match=r"prior_sample column 'x0' holds 1 value\(s\).*\['e'\]"):
        Privatizer("dp", 1.0, categories=LETTERS).fit(SKEWED, prior_sample=["a", "e"])
    with pytest.raises(MechDesignError, match="give the prior once"):
        Privatizer("dp", 1.0, categories=LETTERS, prior=[0.25] * 4).fit(SKEWED, prior_sample=public)


def test_the_paid_private_prior_mode_accounts_its_first_round():
    # Issue 29: estimating the prior from the data privatized is paid for from the budget; the
    # ledger's total is the budget, per column: the first round and the release.
    truth = np.array([0.5, 0.3, 0.15, 0.05])
    data = np.repeat(LETTERS, (truth * 20_000).astype(int))
    privatizer = seeded(notion="dp", budget=2.0, categories=LETTERS, prior="private", prior_budget=0.5)
    with pytest.warns(SeededReleaseWarning):
        privatizer.fit(data)
    assert privatizer.mode_ == "private-prior" and "prior_budget" in privatizer.guarantee_
    assert [name for name, *_ in _entries(privatizer)] == ["x0: prior estimate (not released)", "x0: release"]
    assert privatizer.privacy_spent_ == pytest.approx(2.0, rel=1e-12)
    assert DifferentialPrivacy().measure(privatizer.mechanism_) == pytest.approx(1.5, rel=1e-12)
    # ε₁ = 0.5 on 20,000 records: each estimated frequency within 0.05 of the truth
    assert np.abs(privatizer.prior_.probabilities - truth).max() < 0.05
    with pytest.raises(MechDesignError, match=r"prior='private' is for local DP only \(notion='dp'\)"):
        Privatizer("pml", 1.0, categories=LETTERS, prior="private", prior_budget=0.5).fit(SKEWED)
    with pytest.raises(MechDesignError, match="prior='private' needs prior_budget"):
        Privatizer("dp", 1.0, categories=LETTERS, prior="private").fit(SKEWED)
    with pytest.raises(InvalidBudgetError, match=r"prior_budget must satisfy 0 < prior_budget < budget = 1.0, got 1.0"):
        Privatizer("dp", 1.0, categories=LETTERS, prior="private", prior_budget=1.0).fit(SKEWED)
    with pytest.raises(MechDesignError, match="prior_budget is spent only with prior='private'"):
        Privatizer("dp", 1.0, categories=LETTERS, prior_budget=0.5).fit(SKEWED)


def _entries(privatizer):
    return [(entry.name,) for entry in privatizer.ledger_.entries]


def test_robust_pml_needs_a_public_sample():
    # Grosse et al., Privacy Mechanism Design based on Empirical Distributions: the design holds for
    # every prior of B_β(P̂), β = β*(δ) (eq. (7)); P̂ now comes from a public sample only.
    with pytest.raises(MechDesignError, match=r"robust_delta .* pass fit\(\.\.\., prior_sample=\.\.\.\)"):
        Privatizer("pml", 0.5, categories=LETTERS, robust_delta=0.05).fit(SKEWED)
    for objective in ("estimation", "distortion"):
        privatizer = Privatizer("pml", 0.5, objective, categories=LETTERS, robust_delta=0.05).fit(SKEWED, prior_sample=SKEWED)
        assert privatizer.radius_ > 0 and privatizer.result_.success and privatizer.mode_ == "public-sample"
        assert within_budget(privatizer.notion_.measure(privatizer.mechanism_), 0.5)


# --- 2. randomness -------------------------------------------------------------------------------------


def test_releases_draw_from_the_operating_system_by_default():
    privatizer = Privatizer("dp", 1.0, categories=LETTERS).fit(SKEWED)
    data = SKEWED * 10
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning: nothing is seeded
        first, second = privatizer.transform(data), privatizer.transform(data)
    assert not np.array_equal(first, second)  # 1,000 draws at ε = 1 agree with probability < 1e-100
    with pytest.raises(TypeError, match="random_state"):
        privatizer.transform(data, random_state=0)


def test_a_seeded_release_is_reproducible_and_warned():
    privatizer = seeded(notion="dp", budget=1.0, categories=LETTERS).fit(SKEWED)
    column = np.array(SKEWED).reshape(-1, 1)
    with pytest.warns(SeededReleaseWarning, match="for tests only"):
        first = privatizer.transform(column)
    assert first.shape == (100, 1) and np.array_equal(first, release(privatizer, column))
    with pytest.raises(MechDesignError, match="random_state must be None, a non-negative integer seed"):
        Privatizer("dp", 1.0, categories=LETTERS, random_state=1.5).fit(SKEWED).transform(SKEWED)


# --- 3. labels that cannot collide ------------------------------------------------------------------------


def test_subset_selection_labels_cannot_collide():
    """H1: categories holding "|" once gave subset reports colliding labels and wrong estimates."""
    data = ["a"] * 4000 + ["a|b"] * 1000 + ["b|c"] * 1000 + ["c"] * 4000
    privatizer = seeded(notion="dp", budget=0.5, categories=["a", "a|b", "b|c", "c"]).fit(data)
    labels = privatizer.output_labels_
    assert len(set(labels)) == len(labels) and all(isinstance(label, tuple) for label in labels)
    estimate = privatizer.estimate_frequencies(release(privatizer, data))
    truth = np.array([0.4, 0.1, 0.1, 0.4])
    assert (np.abs(estimate.estimate - truth) <= 4 * estimate.standard_error).all()


def test_mixed_type_categories_keep_their_types():
    """M8: [1, "a"] once became strings ('1'), and estimate_frequencies then failed."""
    data = [1, "a"] * 20
    privatizer = seeded(notion="dp", budget=2.0, categories=[1, "a"]).fit(data)
    private = release(privatizer, data)
    assert private.dtype == object and {type(value) for value in private} == {int, str}
    assert privatizer.estimate_frequencies(private).categories == (1, "a")


def test_subset_selection_outputs_are_tuples_of_categories():
    # 16 categories at ε = 0.5: subset selection with d = 6 has the least variance (Ye & Barg).
    categories = [f"c{i:02d}" for i in range(16)]
    data = categories * 200
    privatizer = seeded(notion="dp", budget=0.5, categories=categories).fit(data)
    assert privatizer.result_.message.startswith("subset-selection(d=6)")
    private = release(privatizer, data)
    assert all(len(label) == 6 and set(label) <= set(categories) for label in private[:20])
    estimate = privatizer.estimate_frequencies(private)
    assert (np.abs(estimate.estimate - 1 / 16) <= STANDARD_ERRORS * estimate.standard_error).all()


# --- 4. estimable by default -----------------------------------------------------------------------------


def test_estimation_is_the_default_and_recovers_the_frequencies():
    truth = np.array([0.5, 0.3, 0.15, 0.05])
    data = np.repeat(LETTERS, (truth * 20_000).astype(int))
    privatizer = seeded(notion="dp", budget=1.0, categories=LETTERS).fit(data)
    result = privatizer.result_
    assert privatizer.objective == "estimation" and result.success and result.certified
    assert "privacy certified; no optimality claim (the oracle of least exact variance" in result.message
    assert within_budget(DifferentialPrivacy().measure(privatizer.mechanism_), 1.0)
    estimate = privatizer.estimate_frequencies(release(privatizer, data))
    assert estimate.categories == LETTERS and estimate.n_samples == 20_000
    assert (np.abs(estimate.estimate - truth) <= STANDARD_ERRORS * estimate.standard_error).all()
    assert estimate.projected.min() >= 0 and estimate.projected.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_estimation_result_has_the_fields_it_had_when_built_by_hand():
    """Issue 33 item 3: the estimation result is built by the certification tail (methods/certified.py), with
    every field the privatizer's own Result(...) gave it — only ``solve_time`` is now measured (it was 0)."""
    from mechdesign.mechanisms.estimation import estimation_mechanism
    from mechdesign.result import Result

    privatizer = seeded(notion="dp", budget=1.0, categories=LETTERS).fit(np.repeat(LETTERS, [5, 3, 2, 1]))
    chosen = estimation_mechanism(DifferentialPrivacy(), 1.0, privatizer.priors_[0])
    label = privatizer.notions_[0].label
    by_hand = Result(  # the privatizer's construction before issue 33 item 3
        mechanism=chosen.mechanism, objective=chosen.variance, status="suboptimal", success=True,
        message=(f"{chosen.name} at LDP parameter {chosen.ldp_epsilon:.6g}: privacy certified; no optimality claim "
                 f"(the oracle of least exact variance N·Σ Var(p̂_x): {chosen.claim})"),
        measured={label: chosen.mechanism.local_dp_leakage()}, budgets={label: 1.0}, method="estimation-family")
    result = privatizer.result_
    assert np.array_equal(result.mechanism.matrix, by_hand.mechanism.matrix) and result.solve_time > 0
    assert dataclasses.replace(result, mechanism=None, solve_time=0.0) == dataclasses.replace(by_hand, mechanism=None)


@pytest.mark.parametrize("objective", [None, "distortion"])
def test_a_distortion_design_must_be_asked_for(objective):
    # PUT paper (Zhong & Bu, Privacy-Utility Trade-Off), Prop. 8(1): under a uniform prior the
    # optimal ε-LDP mechanism for Hamming distortion is k-ary randomized response, D = (k−1)/(e^ε+k−1).
    privatizer = Privatizer("dp", 1.0, objective, categories=["x", "y", "z"]).fit(["x", "y", "z"])
    assert privatizer.result_.status == "optimal"
    assert privatizer.result_.objective == pytest.approx(2 / (math.e + 2), abs=GAP_RTOL)
    assert privatizer.mechanism_.allclose(randomized_response(3, 1.0), atol=1e-7)
    assert privatizer.output_labels_ == ("x", "y", "z")


def test_a_distortion_design_that_merges_categories_is_not_estimable():
    privatizer = seeded(notion="dp", budget=1.0, objective="distortion", categories=LETTERS,
                        prior=[0.6, 0.25, 0.1, 0.05]).fit(SKEWED)
    with pytest.raises(NotEstimableError, match=r"categories \[.*'c', 'd'\] cannot be estimated"):
        privatizer.estimate_frequencies(release(privatizer, SKEWED))


def test_other_notions():
    privatizer = Privatizer(MaximalLeakage(), 0.4, categories=LETTERS, prior=[0.4, 0.3, 0.2, 0.1]).fit(SKEWED)
    assert MaximalLeakage().measure(privatizer.mechanism_) <= 0.4
    pml = Privatizer("pml", 0.5, "distortion", categories=LETTERS, prior=[0.4, 0.3, 0.2, 0.1]).fit(SKEWED)
    assert within_budget(pml.result_.measured[pml.notion_.label], 0.5)


# --- L1: infinite budgets --------------------------------------------------------------------------------


def test_an_infinite_budget_releases_the_data():
    """L1: an infinite budget was refused by Privatizer; it is the identity mechanism, and the ledger says ∞."""
    privatizer = Privatizer("dp", math.inf, categories=LETTERS).fit(SKEWED)
    assert privatizer.mechanism_.allclose(np.eye(4), atol=0) and privatizer.privacy_spent_ == math.inf
    assert privatizer.result_.certified and privatizer.transform(SKEWED).tolist() == SKEWED
    # design() solves an infinite budget at float64's largest e^ε: the identity to within e^-690,
    # and the ledger accounts the mechanism released
    distortion = Privatizer("dp", math.inf, "distortion", categories=LETTERS).fit(SKEWED)
    assert distortion.mechanism_.allclose(np.eye(4), atol=1e-290)
    assert distortion.privacy_spent_ == DifferentialPrivacy().measure(distortion.mechanism_)


# --- 5. several columns, scikit-learn -------------------------------------------------------------------------


def test_several_columns_split_the_budget():
    rows = [[letter, number] for letter, number in zip(SKEWED, [0, 1, 2] * 33 + [0])]
    privatizer = seeded(notion="dp", budget=2.0, categories=[LETTERS, [0, 1, 2]]).fit(rows)
    assert privatizer.n_features_in_ == 2 and privatizer.column_budget_ == 1.0
    assert [column.tolist() for column in privatizer.categories_] == [list(LETTERS), [0, 1, 2]]
    assert [DifferentialPrivacy().measure(mechanism) for mechanism in privatizer.mechanisms_] == pytest.approx([1.0, 1.0])
    assert privatizer.privacy_spent_ == pytest.approx(2.0, rel=1e-12)
    assert [name for name, in _entries(privatizer)] == ["x0: release", "x1: release"]
    private = release(privatizer, rows)
    assert private.shape == (100, 2) and set(private[:, 1]) <= {0, 1, 2}
    assert privatizer.get_feature_names_out().tolist() == ["x0", "x1"]
    estimates = privatizer.estimate_frequencies(private)
    assert [estimate.categories for estimate in estimates] == [LETTERS, (0, 1, 2)]
    with pytest.raises(MechDesignError, match="mechanism_ is for one column; this Privatizer has 2: use mechanisms_"):
        privatizer.mechanism_
    with pytest.raises(MechDesignError, match="X has 1 features, but Privatizer is expecting 2 features as input; Reshape"):
        privatizer.transform(SKEWED)
    with pytest.raises(MechDesignError, match=r"categories must give one entry per column \(2 columns\)"):
        Privatizer("dp", 1.0, categories=LETTERS).fit(rows)


def test_dataframes_keep_their_column_names():
    pd = pytest.importorskip("pandas", reason="pandas is optional (the deploy extra); this checks DataFrame input")
    frame = pd.DataFrame({"education": SKEWED, "sex": ["f", "m"] * 50})
    privatizer = seeded(notion="dp", budget=2.0, categories=[LETTERS, ["f", "m"]]).fit(frame)
    assert privatizer.feature_names_in_.tolist() == ["education", "sex"]
    assert [name for name, in _entries(privatizer)] == ["education: release", "sex: release"]
    output = privatizer.set_output(transform="pandas")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeededReleaseWarning)
        private = output.transform(frame)
    assert list(private.columns) == ["education", "sex"] and set(private["sex"]) <= {"f", "m"}
    with pytest.raises(MechDesignError, match="The feature names should match those that were passed during fit"):
        privatizer.transform(frame[["sex", "education"]])
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        release(privatizer.set_output(transform="default"), frame.to_numpy())
    with pytest.raises(MechDesignError, match=r"X repeats the column name\(s\) \['edu'\]"):
        Privatizer("dp", 1.0, categories=[LETTERS, LETTERS]).fit(pd.DataFrame([["a", "b"]], columns=["edu", "edu"]))


def test_scikit_learn_pipeline():
    pytest.importorskip("sklearn", reason="scikit-learn is optional (the deploy extra); this checks pipeline use")
    pd = pytest.importorskip("pandas", reason="pandas is optional (the deploy extra); this checks DataFrame input")
    from sklearn.base import clone
    from sklearn.compose import ColumnTransformer
    from sklearn.utils.validation import check_is_fitted

    frame = pd.DataFrame({"education": pd.Categorical(SKEWED), "age": range(100)})
    step = Privatizer("dp", 1.0, categories=LETTERS)
    assert clone(step).get_params() == step.get_params()
    columns = ColumnTransformer([("private", step, ["education"])], remainder="passthrough")
    output = columns.fit_transform(frame)
    assert output.shape == (100, 2) and set(output[:, 0]) <= set(LETTERS)
    check_is_fitted(columns.named_transformers_["private"])


#: The checks of scikit-learn's check_estimator that cannot apply to a randomized transformer of
#: categories (the reasons are in Privatizer's Notes).
FAILING_CHECKS = {"check_transformer_general", "check_transformer_data_not_an_array", "check_fit_idempotent",
                  "check_estimators_pickle", "check_pipeline_consistency", "check_methods_subset_invariance",
                  "check_methods_sample_order_invariance", "check_fit1d"}


def test_scikit_learn_checks_fail_exactly_where_documented():
    pytest.importorskip("sklearn", reason="scikit-learn is optional (the deploy extra); this runs its checks")
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(Privatizer(categories="infer"), on_fail=None, on_skip=None)
    failed = {result["check_name"] for result in results if result["status"] == "failed"}
    passed = {result["check_name"] for result in results if result["status"] == "passed"}
    assert failed == FAILING_CHECKS
    assert len(passed) >= 30 and "check_n_features_in_after_fitting" in passed
    assert all(f"``{name}``" in Privatizer.__doc__ for name in FAILING_CHECKS)


def test_params_follow_scikit_learn_conventions():
    privatizer = Privatizer("pml", 0.5, categories=LETTERS)
    assert privatizer.get_params() == {"notion": "pml", "budget": 0.5, "objective": "estimation", "categories": LETTERS,
                                       "prior": None, "prior_budget": None, "robust_delta": None, "solver": None,
                                       "random_state": None, "report_budget": None}
    assert privatizer.set_params(budget=2.0) is privatizer and privatizer.budget == 2.0
    with pytest.raises(MechDesignError, match=r"set_params holds 1 value\(s\) that are not a known Privatizer parameter: \['epsilon'\]"):
        privatizer.set_params(epsilon=1.0)
    assert not privatizer.__sklearn_is_fitted__()


# --- 6. files -----------------------------------------------------------------------------------------------


def _fitted_state(privatizer):
    return (privatizer.get_params(), published(privatizer), privatizer.radii_, privatizer.mode_,
            privatizer.guarantee_, privatizer.column_budget_, privatizer.n_features_in_,
            privatizer.ledger_.to_dict(), privatizer.privacy_spent_, [notion.label for notion in privatizer.notions_])


@pytest.mark.parametrize("build", [
    lambda: Privatizer("dp", 0.5, categories=["a", "a|b", "b|c", "c"]).fit(["a", "c"]),
    lambda: Privatizer("dp", math.inf, "distortion", categories=[["x", "y"], [1, 2.5, False]]).fit([["x", 1], ["y", False]]),
    lambda: Privatizer("pml", 1.0, categories=LETTERS, robust_delta=0.1).fit(SKEWED, prior_sample=SKEWED),
    lambda: Privatizer("dp", 1.0, categories=LETTERS, prior={"a": 3, "b": 1}).fit(SKEWED),
])
def test_save_and_load_round_trip_exactly(build, tmp_path):
    privatizer = build()
    loaded = Privatizer.load(privatizer.save(tmp_path / "privatizer.json"))
    assert _fitted_state(Privatizer.load(loaded.save(tmp_path / "again.json"))) == _fitted_state(loaded)
    original, restored = _fitted_state(privatizer), _fitted_state(loaded)
    assert original[1:] == restored[1:]
    assert restored[0]["categories"] == [column.tolist() for column in privatizer.categories_]


def test_save_refuses_what_a_file_cannot_hold(tmp_path):
    with pytest.raises(MechDesignError, match=r"save needs categories that are JSON scalars .*column 'x0'"):
        Privatizer("dp", 1.0, categories=[("x", 1), ("y", 2)]).fit([("x", 1)]).save(tmp_path / "p.json")
    with pytest.raises(MechDesignError, match="save needs notion given by name"):
        Privatizer(DifferentialPrivacy(), 1.0, categories=LETTERS).fit(SKEWED).save(tmp_path / "p.json")
    assert not (tmp_path / "p.json").exists()
    write_envelope(tmp_path / "other.json", "privatizer", {"params": {}})
    with pytest.raises(FileFormatError, match="other.json is not a valid privatizer payload: lacks the field 'fitted'"):
        Privatizer.load(tmp_path / "other.json")
    write_envelope(tmp_path / "curve.json", "curve", {})
    with pytest.raises(FileFormatError, match="holds a curve, expected a privatizer"):
        Privatizer.load(tmp_path / "curve.json")


# --- bad input -----------------------------------------------------------------------------------------------


def test_bad_input_is_named():
    with pytest.raises(NotFittedError, match="call fit"):
        Privatizer().transform(["a"])
    with pytest.raises(NotFittedError, match="call fit"):
        Privatizer().mechanism_
    with pytest.raises(MechDesignError, match=r"X is empty: 0 sample\(s\)"):
        Privatizer(categories=LETTERS).fit([])
    with pytest.raises(MechDesignError, match=r"X column 'x0'\[1\] = nan is a missing value"):
        Privatizer(categories=LETTERS).fit(["a", float("nan")])
    with pytest.raises(InvalidBudgetError, match=r"budget must be a number >= 0 \(or inf\), got -1"):
        Privatizer("dp", -1, categories=LETTERS).fit(SKEWED)
    with pytest.raises(MechDesignError, match="notion must be one of"):
        Privatizer("ldp", categories=LETTERS).fit(SKEWED)
    with pytest.raises(MechDesignError, match=r"objective must be one of \['estimation', 'distortion'\]"):
        Privatizer("dp", objective="variance", categories=LETTERS).fit(SKEWED)
    with pytest.raises(MechDesignError, match=r"categories repeats \['a'\]"):
        Privatizer(categories=["a", "b", "a"]).fit(["a"])
    fitted = Privatizer("dp", 1.0, categories=LETTERS).fit(SKEWED)
    with pytest.raises(UnknownCategoryError, match=r"not a known category: \['e'\]"):
        fitted.transform(["a", "e"])
    with pytest.raises(UnknownCategoryError, match="not a known output of the mechanism"):
        fitted.estimate_frequencies(["a", "zz"])


# --- issue 34: frequency oracles -------------------------------------------------------------------------


COUNTRIES = [f"country-{i:02d}" for i in range(42)]


def test_adult_native_country_gets_the_least_variance_oracle_and_a_small_file(tmp_path):
    """Issue 34: 42 categories at ε = 0.1 were held at subset selection d = 3 (N·Σ Var 55,378 against 15,996 at
    d = 20) and the mechanism file was 14 MB; the oracle's reports are labelled one by one."""
    truth = np.linspace(1, 3, 42) / np.linspace(1, 3, 42).sum()
    data = np.repeat(COUNTRIES, (truth * 50_000).round().astype(int))
    privatizer = seeded(notion="dp", budget=0.1, categories=COUNTRIES).fit(data)
    assert privatizer.result_.message.startswith("subset-selection(d=20) at LDP parameter 0.1: privacy certified")
    assert privatizer.result_.objective == pytest.approx(15_996.28, abs=0.01) and privatizer.output_labels_ is None
    assert privatizer.privacy_spent_ == pytest.approx(0.1, abs=1e-15)  # recorded by its ε (no dense matrix)
    private = release(privatizer, data)
    assert all(len(label) == 20 and set(label) <= set(COUNTRIES) for label in private[:50])
    estimate = privatizer.estimate_frequencies(private)
    exact = np.sqrt(privatizer.mechanism_.variances(np.bincount(
        [COUNTRIES.index(value) for value in data], minlength=42) / data.size, data.size))
    assert (np.abs(estimate.estimate - truth) <= STANDARD_ERRORS * exact + 1e-3).all()
    path = privatizer.save(tmp_path / "p.json")
    assert path.stat().st_size < 20_000
    loaded = Privatizer.load(path)
    assert published(loaded) == published(privatizer) and loaded.mechanism_ == privatizer.mechanism_
    assert np.array_equal(loaded.estimate_frequencies(private).estimate, estimate.estimate)


def test_hadamard_reports_are_output_indices_and_the_report_budget_round_trips(tmp_path):
    # A decoding budget of 2·10⁶ operations for 10⁶ reports admits only randomized response and Hadamard
    # response (8-byte reports decoded by the FWHT); at k = 16, ε = 0.5 Hadamard response has the less variance.
    from mechdesign.mechanisms.estimation import ReportBudget

    categories = [f"c{i:02d}" for i in range(16)]
    data = categories * 500
    budget = ReportBudget(decode_operations=2 * 10**6)
    privatizer = seeded(notion="dp", budget=0.5, categories=categories, report_budget=budget).fit(data)
    assert privatizer.result_.message.startswith("hadamard-response(b=32)")
    assert privatizer.output_labels_ == tuple(range(32))
    private = release(privatizer, data)
    assert {type(label) for label in private} == {int}
    estimate = privatizer.estimate_frequencies(private)
    assert (np.abs(estimate.estimate - 1 / 16) <= STANDARD_ERRORS * estimate.standard_error).all()
    loaded = Privatizer.load(privatizer.save(tmp_path / "p.json"))
    assert loaded.report_budget == budget and loaded.mechanism_ == privatizer.mechanism_
    with pytest.raises(MechDesignError, match=r"X_private column 'x0'\[0\] = 'c00' is not a report of hadamard"):
        privatizer.estimate_frequencies(["c00"])
    with pytest.raises(MechDesignError, match=r"report_budget must be a ReportBudget or None, got \{'memory': 1\}"):
        Privatizer("dp", 1.0, "distortion", categories=["a", "b"], report_budget={"memory": 1}).fit(["a"])


def test_a_paid_private_prior_runs_its_first_round_on_an_oracle():
    # The first round (ε₁ = 0.05 on 42 categories) is subset selection d = 21, estimated from its reports.
    truth = np.linspace(1, 3, 42) / np.linspace(1, 3, 42).sum()
    data = np.repeat(COUNTRIES, (truth * 20_000).round().astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeededReleaseWarning)
        privatizer = seeded(notion="dp", budget=0.5, categories=COUNTRIES, prior="private",
                            prior_budget=0.05).fit(data)
    assert [entry.epsilon for entry in privatizer.ledger_.entries] == pytest.approx([0.05, 0.45])
    assert privatizer.mode_ == "private-prior" and privatizer.prior_.size == 42


def test_budget_zero_is_a_valid_release_with_nothing_to_estimate():
    """Issue 34, bad input: at budget 0 every oracle's variance is infinite; the release is valid (its
    reports are independent of the data) and says so."""
    zero = Privatizer("dp", 0.0, categories=LETTERS).fit(SKEWED)
    assert zero.result_.objective == math.inf and zero.result_.certified
    assert DifferentialPrivacy().measure(zero.mechanism_) == 0.0 and "budget 0" in zero.result_.message


def test_the_privatizer_and_account_record_a_large_oracle_by_one_rule(tmp_path):
    """Issue 34 item 2: Privatizer.ledger_ and `mechdesign account` share record_release: an oracle whose
    matrix has more than LEDGER_DENSE_ENTRIES entries is recorded by its ε, a smaller one by its matrix."""
    from mechdesign.deploy_cli import account_ledger
    from mechdesign.files import record_from_result, save
    from mechdesign.privatizer import LEDGER_DENSE_ENTRIES

    for size in (3, 300):
        categories = [f"c{i}" for i in range(size)]
        privatizer = Privatizer("dp", 1.0, categories=categories).fit(categories)
        mechanism = privatizer.mechanism_
        large = mechanism.size * mechanism.n_outputs > LEDGER_DENSE_ENTRIES
        assert large == (size == 300)
        path = save(record_from_result(privatizer.result_, inputs=categories, outputs=privatizer.output_labels_),
                    tmp_path / f"m{size}.json")
        [entry] = account_ledger([(path, 2)]).entries
        [released] = privatizer.ledger_.entries
        assert (entry.mechanism is None) == (released.mechanism is None) == large
        assert entry.epsilon == released.epsilon and entry.uses == 2 and released.uses == 1


def test_listed_labels_are_counted_by_lookup_and_lists_label_by_label():
    """Issue 34: estimate_frequencies counts listed oracle labels by one dictionary lookup each; labels read
    back as lists (a subset report after a round trip through JSON or Parquet) are counted label by label,
    to the same counts."""
    categories = [f"c{i}" for i in range(16)]
    privatizer = Privatizer("dp", 1.0, categories=categories, random_state=0)
    with pytest.warns(SeededReleaseWarning):
        private = privatizer.fit(categories).transform(categories * 20)
    assert privatizer.outputs_[0] is not None and isinstance(private[0], tuple)
    as_lists = np.empty(private.size, dtype=object)  # one column whose labels are lists
    for index, label in enumerate(private):
        as_lists[index] = list(label)
    by_tuples, by_lists = privatizer.estimate_frequencies(private), privatizer.estimate_frequencies(as_lists)
    assert np.array_equal(by_tuples.estimate, by_lists.estimate) and by_tuples.n_samples == 320
