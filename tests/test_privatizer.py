"""Tests of mechdesign.privatizer: fit / transform / estimate on categorical columns."""

import math

import numpy as np
import pytest

from mechdesign import DifferentialPrivacy, MaximalLeakage, Result, randomized_response
from mechdesign.exceptions import (
    InvalidBudgetError,
    MechDesignError,
    NotEstimableError,
    NotFittedError,
    UnknownCategoryError,
)
from mechdesign.privatizer import Privatizer
from mechdesign.result import BUDGET_ATOL, GAP_RTOL

#: Sampling tolerance of estimates, in standard errors (seeded draws; 5 se is a 6e-7 two-sided event).
STANDARD_ERRORS = 5
SKEWED = ["a"] * 60 + ["b"] * 25 + ["c"] * 10 + ["d"] * 5


def test_fit_on_uniform_data_designs_randomized_response():
    # PUT paper (Zhong & Bu, Privacy-Utility Trade-Off), Prop. 8(1): under a uniform prior the
    # optimal ε-LDP mechanism for Hamming distortion is k-ary randomized response, D = (k−1)/(e^ε+k−1).
    privatizer = Privatizer("dp", 1.0).fit(["x", "y", "z"] * 10)
    assert privatizer.categories_ == ("x", "y", "z")
    assert np.allclose(privatizer.prior_.probabilities, 1 / 3)
    assert isinstance(privatizer.result_, Result) and privatizer.result_.status == "optimal"
    assert privatizer.result_.objective == pytest.approx(2 / (math.e + 2), abs=GAP_RTOL)
    assert privatizer.mechanism_.allclose(randomized_response(3, 1.0), atol=1e-7)
    assert privatizer.output_labels_ == ("x", "y", "z")


def test_transform_is_seeded_and_keeps_the_column_shape():
    privatizer = Privatizer("dp", 1.0).fit(SKEWED)
    column = np.array(SKEWED).reshape(-1, 1)
    first, second = privatizer.transform(column, random_state=3), privatizer.transform(column, random_state=3)
    assert first.shape == (100, 1) and np.array_equal(first, second)
    assert set(first.ravel()) <= set(privatizer.categories_)


def test_distortion_optimal_design_is_not_estimable_and_says_why():
    privatizer = Privatizer("dp", 1.0).fit(SKEWED)
    private = privatizer.transform(SKEWED, random_state=0)
    with pytest.raises(NotEstimableError, match=r"categories \[.*'c', 'd'\] cannot be estimated.*objective='estimation'"):
        privatizer.estimate_frequencies(private)


def test_estimation_objective_recovers_the_frequencies():
    truth = np.array([0.5, 0.3, 0.15, 0.05])
    data = np.repeat(["a", "b", "c", "d"], (truth * 20_000).astype(int))
    privatizer = Privatizer("dp", 1.0, objective="estimation").fit(data)
    assert privatizer.result_.success and privatizer.result_.status == "suboptimal"
    assert DifferentialPrivacy().measure(privatizer.mechanism_) <= 1.0 + BUDGET_ATOL
    estimate = privatizer.estimate_frequencies(privatizer.transform(data, random_state=7))
    assert estimate.categories == ("a", "b", "c", "d") and estimate.n_samples == 20_000
    assert (np.abs(estimate.estimate - truth) <= STANDARD_ERRORS * estimate.standard_error).all()
    assert estimate.projected.min() >= 0 and estimate.projected.sum() == pytest.approx(1.0, abs=1e-12)


def test_subset_selection_outputs_are_labelled_by_their_categories():
    # 16 categories at ε = 0.5: subset selection with d = 6 has the least variance (Ye & Barg).
    categories = [f"c{i:02d}" for i in range(16)]
    data = categories * 200
    privatizer = Privatizer("dp", 0.5, objective="estimation").fit(data)
    assert privatizer.result_.message.startswith("subset-selection(d=6)")
    private = privatizer.transform(data, random_state=1)
    assert all(len(label.split("|")) == 6 for label in private[:20])
    estimate = privatizer.estimate_frequencies(private)
    assert (np.abs(estimate.estimate - 1 / 16) <= STANDARD_ERRORS * estimate.standard_error).all()


def test_other_notions_and_a_given_prior():
    privatizer = Privatizer(MaximalLeakage(), 0.4, objective="estimation", prior=[0.4, 0.3, 0.2, 0.1]).fit(SKEWED)
    assert np.allclose(privatizer.prior_.probabilities, [0.4, 0.3, 0.2, 0.1])
    assert MaximalLeakage().measure(privatizer.mechanism_) <= 0.4
    pml = Privatizer("pml", 0.5).fit(SKEWED)
    assert pml.result_.measured[pml.notion_.label] <= 0.5 + BUDGET_ATOL


def test_robust_pml_designs_for_the_l1_ball():
    # Grosse et al., Privacy Mechanism Design based on Empirical Distributions: the design holds for
    # every prior of B_β(P̂), β = β*(δ) (eq. (7)).
    privatizer = Privatizer("pml", 0.5, robust_delta=0.05).fit(SKEWED)
    assert privatizer.radius_ > 0 and privatizer.result_.success
    assert privatizer.notion_.measure(privatizer.mechanism_) <= 0.5 + BUDGET_ATOL


def test_params_follow_scikit_learn_conventions():
    privatizer = Privatizer("pml", 0.5, objective="estimation")
    assert privatizer.get_params() == {"notion": "pml", "budget": 0.5, "objective": "estimation", "prior": None,
                                       "robust_delta": None, "solver": None}
    assert privatizer.set_params(budget=2.0) is privatizer and privatizer.budget == 2.0
    with pytest.raises(MechDesignError, match=r"set_params holds 1 value\(s\) that are not a known Privatizer parameter: \['epsilon'\]; known: \['notion', "):
        privatizer.set_params(epsilon=1.0)
    assert not hasattr(privatizer, "categories_")


def test_scikit_learn_pipeline():
    pytest.importorskip("sklearn", reason="scikit-learn is optional (the deploy extra); this checks pipeline use")
    pd = pytest.importorskip("pandas", reason="pandas is optional (the deploy extra); this checks DataFrame input")
    from sklearn.base import clone
    from sklearn.compose import ColumnTransformer
    from sklearn.utils.validation import check_is_fitted

    frame = pd.DataFrame({"education": pd.Categorical(SKEWED), "age": range(100)})
    step = Privatizer("dp", 1.0)
    assert clone(step).get_params() == step.get_params()
    columns = ColumnTransformer([("private", step, ["education"])], remainder="passthrough")
    output = columns.fit_transform(frame)
    assert output.shape == (100, 2) and set(output[:, 0]) <= {"a", "b", "c", "d"}
    check_is_fitted(columns.named_transformers_["private"])


def test_bad_input_is_named():
    with pytest.raises(NotFittedError, match="call fit"):
        Privatizer().transform(["a"])
    unfitted = Privatizer("dp", 1.0)
    with pytest.raises(MechDesignError, match="random_state must be None, a non-negative integer seed or a numpy Generator"):
        unfitted.fit_transform(SKEWED, random_state="seed")
    assert not hasattr(unfitted, "mechanism_")  # named before the design ran
    with pytest.raises(MechDesignError, match="random_state must be None, a non-negative integer seed"):
        Privatizer("dp", 1.0).fit(SKEWED).transform(SKEWED, random_state=1.5)
    with pytest.raises(MechDesignError, match="data is empty"):
        Privatizer().fit([])
    with pytest.raises(MechDesignError, match="1 category"):
        Privatizer().fit(["a", "a", "a"])
    with pytest.raises(MechDesignError, match=r"data\[1\] is a missing value \(nan\)"):
        Privatizer().fit(["a", float("nan")])
    with pytest.raises(InvalidBudgetError, match="budget must be a finite number >= 0, got -1"):
        Privatizer("dp", -1).fit(SKEWED)
    with pytest.raises(MechDesignError, match="notion must be one of"):
        Privatizer("ldp").fit(SKEWED)
    with pytest.raises(MechDesignError, match="prior has 3 entries, expected 4"):
        Privatizer(prior=[0.5, 0.25, 0.25]).fit(SKEWED)
    with pytest.raises(MechDesignError, match="robust_delta needs notion='pml'"):
        Privatizer("dp", robust_delta=0.1).fit(SKEWED)
    fitted = Privatizer("dp", 1.0, objective="estimation").fit(SKEWED)
    with pytest.raises(UnknownCategoryError, match=r"not a known category: \['e'\]"):
        fitted.transform(["a", "e"])
    with pytest.raises(UnknownCategoryError, match="not a known output of the mechanism"):
        fitted.estimate_frequencies(["a", "zz"])
