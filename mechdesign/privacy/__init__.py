"""Privacy notions: convex constraints on a mechanism plus an independent numpy measure."""

from .approx_dp import ApproximateDifferentialPrivacy
from .base import BudgetParameter, PrivacyNotion
from .dp import DifferentialPrivacy
from .maximal_leakage import MaximalLeakage
from .mutual_information import MutualInformationPrivacy
from .neighbours import Neighbours
from .pml import PointwiseMaximalLeakage
from .max_information import MaximalInformation
from .renyi import RenyiDifferentialPrivacy
from .sibson import SibsonMutualInformation

__all__ = [
    "ApproximateDifferentialPrivacy",
    "BudgetParameter",
    "DifferentialPrivacy",
    "MaximalLeakage",
    "MutualInformationPrivacy",
    "Neighbours",
    "PointwiseMaximalLeakage",
    "PrivacyNotion",
    "MaximalInformation",
    "RenyiDifferentialPrivacy",
    "SibsonMutualInformation",
]
