"""Privacy notions: convex constraints on a mechanism plus an independent numpy measure."""

from .approx_dp import ApproximateDifferentialPrivacy
from .base import BudgetParameter, PrivacyNotion
from .dp import DifferentialPrivacy
from .max_information import MaximalInformation
from .maximal_leakage import MaximalLeakage
from .metric import MetricDifferentialPrivacy
from .mutual_information import MutualInformationPrivacy
from .neighbours import Neighbours
from .pml import PointwiseMaximalLeakage
from .renyi import RenyiDifferentialPrivacy
from .sibson import SibsonMutualInformation
from .sml import Secret, StatisticMaximalLeakage
from .summary import GroupPrivacy, IntersectionPrivacy, LpNormPrivacy, SummaryStatisticPrivacy, UnionPrivacy

__all__ = [
    "ApproximateDifferentialPrivacy",
    "BudgetParameter",
    "DifferentialPrivacy",
    "GroupPrivacy",
    "IntersectionPrivacy",
    "LpNormPrivacy",
    "MaximalInformation",
    "MaximalLeakage",
    "MetricDifferentialPrivacy",
    "MutualInformationPrivacy",
    "Neighbours",
    "PointwiseMaximalLeakage",
    "PrivacyNotion",
    "RenyiDifferentialPrivacy",
    "Secret",
    "SibsonMutualInformation",
    "StatisticMaximalLeakage",
    "SummaryStatisticPrivacy",
    "UnionPrivacy",
]
