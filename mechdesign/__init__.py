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
from .solve import DesignProblem, Result, design
from .utility import (
    ExpectedDistortion,
    MutualInformation,
    Objective,
    WorstCaseDistortion,
    WorstCaseInputDistortion,
    hamming_cost,
    mutual_information,
    rate_distortion_curve,
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
    "rate_distortion_curve",
    "trace_curve",
    "uniform_mechanism",
]
