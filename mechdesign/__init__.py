"""mechdesign — optimal privacy mechanisms by convex optimization.

A mechanism is a row-stochastic matrix ``Q[x, y] = P(Y = y | X = x)``. Privacy notions supply convex
constraints and an independent numpy measure; objectives supply what to optimize; :func:`design`
returns the optimal mechanism with a certificate (every budget re-measured).
"""

from ._version import __version__
from .curves import (
    Curve,
    PrivacyDistortion,
    distortion_privacy,
    privacy_distortion,
    privacy_distortion_curve,
    trace_curve,
)
from .empirical import EmpiricalDesign, design_from_samples
from .exceptions import (
    InvalidBudgetError,
    InvalidDistributionError,
    InvalidMechanismError,
    MechDesignError,
    MethodNotApplicableError,
    ProblemTooLargeError,
    ShapeMismatchError,
    SolverFailedError,
)
from .frequency import estimate_frequencies, maximum_likelihood
from .mechanism import Mechanism
from .mechanisms import (
    FrequencyOracle,
    HadamardResponse,
    OptimizedLocalHashing,
    OptimizedUnaryEncoding,
    RandomizedResponse,
    SubsetSelection,
    binary_robust_pml_mechanism,
    k_singular_mechanism,
    randomized_response,
    uniform_mechanism,
)
from .mechanisms.estimation import ReportBudget
from .parameter_spaces import ParameterSpace, SupportDistortion
from .priors import L1Ball, Prior, SourceSet, empirical_estimate
from .privacy import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    GroupPrivacy,
    IntersectionPrivacy,
    LpNormPrivacy,
    MaximalInformation,
    MaximalLeakage,
    MetricDifferentialPrivacy,
    MutualInformationPrivacy,
    Neighbours,
    PointwiseMaximalLeakage,
    PrivacyNotion,
    RenyiDifferentialPrivacy,
    Secret,
    SibsonMutualInformation,
    StatisticMaximalLeakage,
    UnionPrivacy,
)
from .designers.sml import design_under_sml
from .designers.extreme_columns import maximize_mutual_information, maximize_sublinear_utility
from .designers.summary import design_worst_case_distortion, worst_case_tradeoff
from .privacy.sml import measure_sml
from .privatizer import Privatizer
from .solve import DesignProblem, Result, design
from .source_classes import ThetaStar, classify_source_set, theta_star
from .utility import (
    ColumnUtility,
    ExpectedDistortion,
    MutualInformation,
    Objective,
    WorstCaseDistortion,
    WorstCaseInputDistortion,
    hamming_cost,
    mutual_information,
    rate_distortion_at,
    rate_distortion_curve,
)


__all__ = [
    "__version__",
    "ApproximateDifferentialPrivacy",
    "ColumnUtility",
    "Curve",
    "DesignProblem",
    "DifferentialPrivacy",
    "EmpiricalDesign",
    "ExpectedDistortion",
    "FrequencyOracle",
    "GroupPrivacy",
    "HadamardResponse",
    "IntersectionPrivacy",
    "InvalidBudgetError",
    "InvalidDistributionError",
    "InvalidMechanismError",
    "L1Ball",
    "LpNormPrivacy",
    "MaximalInformation",
    "MaximalLeakage",
    "MechDesignError",
    "Mechanism",
    "MetricDifferentialPrivacy",
    "MethodNotApplicableError",
    "MutualInformation",
    "MutualInformationPrivacy",
    "Neighbours",
    "Objective",
    "OptimizedLocalHashing",
    "OptimizedUnaryEncoding",
    "ParameterSpace",
    "PointwiseMaximalLeakage",
    "Prior",
    "PrivacyDistortion",
    "PrivacyNotion",
    "Privatizer",
    "ProblemTooLargeError",
    "RandomizedResponse",
    "RenyiDifferentialPrivacy",
    "ReportBudget",
    "Result",
    "Secret",
    "ShapeMismatchError",
    "SolverFailedError",
    "SibsonMutualInformation",
    "SourceSet",
    "StatisticMaximalLeakage",
    "SubsetSelection",
    "SupportDistortion",
    "ThetaStar",
    "UnionPrivacy",
    "WorstCaseDistortion",
    "WorstCaseInputDistortion",
    "binary_robust_pml_mechanism",
    "classify_source_set",
    "design",
    "design_from_samples",
    "design_under_sml",
    "design_worst_case_distortion",
    "distortion_privacy",
    "empirical_estimate",
    "estimate_frequencies",
    "hamming_cost",
    "k_singular_mechanism",
    "maximize_mutual_information",
    "maximize_sublinear_utility",
    "maximum_likelihood",
    "measure_sml",
    "mutual_information",
    "privacy_distortion",
    "privacy_distortion_curve",
    "randomized_response",
    "rate_distortion_at",
    "rate_distortion_curve",
    "theta_star",
    "trace_curve",
    "uniform_mechanism",
    "worst_case_tradeoff",
]
