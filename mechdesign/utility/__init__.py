"""Objectives: distortion under a prior, a source set or the worst-case input; mutual information."""

from .base import Objective
from .distortion import ExpectedDistortion, WorstCaseDistortion, WorstCaseInputDistortion, hamming_cost
from .information import MutualInformation, mutual_information
from .rate_distortion import RateDistortionPoint, rate_distortion_curve

__all__ = [
    "ExpectedDistortion",
    "MutualInformation",
    "Objective",
    "RateDistortionPoint",
    "WorstCaseDistortion",
    "WorstCaseInputDistortion",
    "hamming_cost",
    "mutual_information",
    "rate_distortion_curve",
]
