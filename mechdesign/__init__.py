"""mechdesign — optimal privacy mechanisms by convex optimization.

A mechanism is a row-stochastic matrix ``Q[x, y] = P(Y = y | X = x)``. Privacy notions supply convex
constraints and an independent numpy measure; objectives supply what to optimize; :func:`design`
returns the optimal mechanism with a certificate (every budget re-measured).
"""

from .curves import Curve, trace_curve
from .exceptions import (
    InvalidBudgetError,
    InvalidDistributionError,
    InvalidMechanismError,
    MechDesignError,
    ProblemTooLargeError,
    ShapeMismatchError,
)
from .mechanism import Mechanism
from .mechanisms import randomized_response, uniform_mechanism
from .priors import Prior, SourceSet
from .privacy import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    MaximalLeakage,
    MutualInformationPrivacy,
    Neighbours,
    PointwiseMaximalLeakage,
    PrivacyNotion,
)
from .privacy import MaximalInformation, RenyiDifferentialPrivacy, SibsonMutualInformation
from .curves import PrivacyDistortion, distortion_privacy, privacy_distortion, privacy_distortion_curve
from .source_classes import ThetaStar, classify_source_set, theta_star
from .solve import DesignProblem, Result, design
from .privacy.sml import Secret, StatisticMaximalLeakage, design_under_sml, measure_sml  # SML paper
from .parameter_spaces import ParameterSpace, SupportDistortion
from .privacy.summary import (
    GroupPrivacy,
    IntersectionPrivacy,
    LpNormPrivacy,
    UnionPrivacy,
    design_worst_case_distortion,
    worst_case_tradeoff,
)
from .utility import (
    ExpectedDistortion,
    MutualInformation,
    Objective,
    WorstCaseDistortion,
    WorstCaseInputDistortion,
    hamming_cost,
    mutual_information,
)
from .utility import ColumnUtility, maximize_mutual_information, maximize_sublinear_utility
from .mechanisms import binary_robust_pml_mechanism, k_singular_mechanism

__version__ = "0.1.0"

__all__ = [
    "ColumnUtility",
    "binary_robust_pml_mechanism",
    "k_singular_mechanism",
    "maximize_mutual_information",
    "maximize_sublinear_utility",
    "GroupPrivacy",
    "IntersectionPrivacy",
    "LpNormPrivacy",
    "ParameterSpace",
    "SupportDistortion",
    "UnionPrivacy",
    "design_worst_case_distortion",
    "worst_case_tradeoff",
    "ApproximateDifferentialPrivacy",
    "Curve",
    "DesignProblem",
    "DifferentialPrivacy",
    "ExpectedDistortion",
    "InvalidBudgetError",
    "InvalidDistributionError",
    "InvalidMechanismError",
    "MaximalLeakage",
    "MechDesignError",
    "Mechanism",
    "MutualInformation",
    "MutualInformationPrivacy",
    "Neighbours",
    "Objective",
    "PointwiseMaximalLeakage",
    "Prior",
    "PrivacyNotion",
    "ProblemTooLargeError",
    "Result",
    "ShapeMismatchError",
    "SourceSet",
    "WorstCaseDistortion",
    "WorstCaseInputDistortion",
    "design",
    "hamming_cost",
    "mutual_information",
    "randomized_response",
    "trace_curve",
    "uniform_mechanism",
    # SML (Wang, Lin & Fanti)
    "Secret",
    "StatisticMaximalLeakage",
    "design_under_sml",
    "measure_sml",
    "MaximalInformation",
    "RenyiDifferentialPrivacy",
    "SibsonMutualInformation",
    "PrivacyDistortion",
    "distortion_privacy",
    "privacy_distortion",
    "privacy_distortion_curve",
    "ThetaStar",
    "classify_source_set",
    "theta_star",
]

# Robust PML over ℓ1-balls of priors and design from samples (Grosse et al.; branch pml-robust).
from .empirical import EmpiricalDesign, design_from_samples  # noqa: E402
from .priors import L1Ball, empirical_estimate  # noqa: E402

__all__ += ["EmpiricalDesign", "L1Ball", "design_from_samples", "empirical_estimate"]
