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
from .utility import (
    ExpectedDistortion,
    MutualInformation,
    Objective,
    WorstCaseDistortion,
    WorstCaseInputDistortion,
    hamming_cost,
    mutual_information,
)

__version__ = "0.1.0"

__all__ = [
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
