"""Objectives: distortion under a prior, a source set or the worst-case input; mutual information."""

from .base import Objective
from .distortion import ExpectedDistortion, WorstCaseDistortion, WorstCaseInputDistortion, hamming_cost
from .information import MutualInformation, mutual_information

__all__ = [
    "ExpectedDistortion",
    "MutualInformation",
    "Objective",
    "WorstCaseDistortion",
    "WorstCaseInputDistortion",
    "hamming_cost",
    "mutual_information",
]
