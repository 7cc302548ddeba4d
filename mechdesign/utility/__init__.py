"""Objectives: distortion under a prior, a source set or the worst-case input; mutual information
(minimized as leakage, maximized exactly over extreme columns, or traced as a rate–distortion curve)."""

from .base import Objective
from .distortion import ExpectedDistortion, WorstCaseDistortion, WorstCaseInputDistortion, hamming_cost
from .extreme_columns import ColumnUtility, maximize_sublinear_utility
from .information import (
    MutualInformation,
    maximize_mutual_information,
    mutual_information,
    mutual_information_utility,
)
from .rate_distortion import RateDistortionPoint, rate_distortion_at, rate_distortion_curve

__all__ = [
    "ColumnUtility",
    "ExpectedDistortion",
    "MutualInformation",
    "Objective",
    "RateDistortionPoint",
    "WorstCaseDistortion",
    "WorstCaseInputDistortion",
    "hamming_cost",
    "maximize_mutual_information",
    "maximize_sublinear_utility",
    "mutual_information",
    "mutual_information_utility",
    "rate_distortion_at",
    "rate_distortion_curve",
]
