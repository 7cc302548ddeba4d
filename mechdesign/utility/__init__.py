"""Objectives: distortion under a prior, a source set or the worst-case input; mutual information."""

from .base import Objective
from .distortion import ExpectedDistortion, WorstCaseDistortion, WorstCaseInputDistortion, hamming_cost
from .information import MutualInformation, mutual_information
from .extreme_columns import ColumnUtility, maximize_sublinear_utility
from .information import maximize_mutual_information, mutual_information_utility

__all__ = [
    "ColumnUtility",
    "maximize_mutual_information",
    "maximize_sublinear_utility",
    "mutual_information_utility",
    "ExpectedDistortion",
    "MutualInformation",
    "Objective",
    "WorstCaseDistortion",
    "WorstCaseInputDistortion",
    "hamming_cost",
    "mutual_information",
]
