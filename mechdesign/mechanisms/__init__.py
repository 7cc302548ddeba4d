"""Named mechanism constructions from the literature."""

from .basic import randomized_response, uniform_mechanism
from .estimation import EstimationMechanism, estimation_mechanism, subset_selection
from .global_framework import (
    global_q_d,
    global_uniform_mechanism,
    hamming_distances,
    hamming_neighbours,
    parallel_composition_factor,
    product_alphabet,
    product_mechanism,
    product_prior,
)
from .oracles import (
    FrequencyOracle,
    HadamardResponse,
    OptimizedLocalHashing,
    OptimizedUnaryEncoding,
    RandomizedResponse,
    SubsetSelection,
)
from .pml import binary_robust_pml_mechanism, k_singular_mechanism

__all__ = [
    "EstimationMechanism",
    "FrequencyOracle",
    "HadamardResponse",
    "OptimizedLocalHashing",
    "OptimizedUnaryEncoding",
    "RandomizedResponse",
    "SubsetSelection",
    "estimation_mechanism",
    "binary_robust_pml_mechanism",
    "global_q_d",
    "global_uniform_mechanism",
    "hamming_distances",
    "hamming_neighbours",
    "k_singular_mechanism",
    "parallel_composition_factor",
    "product_alphabet",
    "product_mechanism",
    "product_prior",
    "randomized_response",
    "subset_selection",
    "uniform_mechanism",
]
