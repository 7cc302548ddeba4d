"""Objectives: distortion under a prior, a source set or the worst-case input; mutual information
(minimized as leakage, traced as a rate–distortion curve, or a sub-convex utility, maximized exactly
over extreme columns by :mod:`mechdesign.designers.extreme_columns`)."""

from .base import Objective
from .distortion import ExpectedDistortion, WorstCaseDistortion, WorstCaseInputDistortion, hamming_cost
from .information import MutualInformation, mutual_information, mutual_information_utility
from .rate_distortion import RateDistortionPoint, rate_distortion_at, rate_distortion_curve
from .sublinear import ColumnUtility

__all__ = [
    "ColumnUtility",
    "ExpectedDistortion",
    "MutualInformation",
    "Objective",
    "RateDistortionPoint",
    "WorstCaseDistortion",
    "WorstCaseInputDistortion",
    "hamming_cost",
    "mutual_information",
    "mutual_information_utility",
    "rate_distortion_at",
    "rate_distortion_curve",
]
